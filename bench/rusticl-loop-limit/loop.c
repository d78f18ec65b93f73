/* The minimal reproduction of llvmpipe's loop limit: one work-item runs a
 * loop of n iterations, each adding 1.0, for n around 65535; prints the
 * sum. Usage: loop KERNEL.cl DEVICE-NAME-PART (for example llvmpipe or
 * pthread, PoCL's). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3)
        return fprintf(stderr, "usage: loop KERNEL.cl DEVICE\n"), 2;
    FILE *f = fopen(argv[1], "rb");
    char src[8192];
    size_t len = f ? fread(src, 1, sizeof src - 1, f) : 0;
    src[len] = 0;
    cl_platform_id plats[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, plats, &np);
    cl_device_id dev = 0;
    for (cl_uint p = 0; p < np && !dev; p++) {
        cl_device_id ds[8];
        cl_uint nd;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 8, ds, &nd))
            continue;
        for (cl_uint d = 0; d < nd && !dev; d++) {
            char name[256];
            clGetDeviceInfo(ds[d], CL_DEVICE_NAME, sizeof name, name, 0);
            if (strstr(name, argv[2]))
                dev = ds[d];
        }
    }
    if (!dev)
        return fprintf(stderr, "no device '%s'\n", argv[2]), 3;
    cl_int e;
    cl_context ctx = clCreateContext(0, 1, &dev, 0, 0, &e);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
    const char *s = src;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &s, 0, &e);
    clBuildProgram(prog, 1, &dev, "", 0, 0);
    cl_kernel k = clCreateKernel(prog, "repro", &e);
    float in[16];
    for (int i = 0; i < 16; i++)
        in[i] = 1.0f;
    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &e),
           dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 4, 0, &e);
    const int tries[] = {65534, 65535, 65536, 65537, 100000, 1000000};
    int wrong = 0;
    for (int i = 0; i < 6; i++) {
        int steps = tries[i];
        clSetKernelArg(k, 0, sizeof dout, &dout);
        clSetKernelArg(k, 1, sizeof din, &din);
        clSetKernelArg(k, 2, 4, &steps);
        size_t g = 1;
        clEnqueueNDRangeKernel(q, k, 1, 0, &g, &g, 0, 0, 0);
        float out;
        clEnqueueReadBuffer(q, dout, CL_TRUE, 0, 4, &out, 0, 0, 0);
        wrong += out != steps;
        printf("%7d iterations: sum %.0f%s\n", steps, out, out == steps ? "" : "  WRONG");
    }
    return wrong != 0;
}
