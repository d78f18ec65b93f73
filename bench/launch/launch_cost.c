/* Where a kernel launch's cost goes: one kernel that writes one number,
 * launched N times back to back, timed several ways on one queue, beside
 * clpeak's own method (a launch, clFinish, END - QUEUED of its event).
 * Build: cc -O2 -o launch_cost launch_cost.c -lOpenCL
 * Run:   ./launch_cost [platform-substring]   (default: the first GPU) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N    1000
#define REPS 7

static const char *src = "__kernel void one(__global int *out, int slot) { out[slot] = slot + 1; }\n"
                         "__kernel void wide(__global const float *in, __global float *out)\n"
                         "{ size_t i = get_global_id(0); out[i] = in[i]; }\n";

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cl_int rc_ = (x);                                                                          \
        if (rc_ != CL_SUCCESS) {                                                                   \
            fprintf(stderr, "%s failed: %d (line %d)\n", #x, rc_, __LINE__);                      \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static cl_ulong stamp(cl_event e, cl_profiling_info what)
{
    cl_ulong t = 0;
    CHECK(clGetEventProfilingInfo(e, what, sizeof t, &t, NULL));
    return t;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp);
    return v[n / 2];
}

enum mode { EVERY_EVENT, FIRST_LAST_EVENT, FIRST_EVENT_MARKER, HOST_ONLY, HOST_SET_ARGS };
static const char *mode_name[] = {
    "events on every launch, first start..last end (clmem's probe)",
    "events on the first and last launch only",
    "event on the first launch, a marker after the last",
    "no events, host clock around N launches + clFinish",
    "no events, args set before each launch, host clock",
};

static double back_to_back(cl_command_queue q, cl_kernel k, cl_mem out, enum mode m)
{
    size_t one = 1;
    cl_event first = NULL, last = NULL;
    double t0 = now_us();
    for (int i = 0; i < N; i++) {
        int slot = i % 64;
        if (i == 0 || m == HOST_SET_ARGS || m == EVERY_EVENT) {
            CHECK(clSetKernelArg(k, 0, sizeof out, &out));
            CHECK(clSetKernelArg(k, 1, sizeof slot, &slot));
        }
        int want = (m == EVERY_EVENT) || ((m == FIRST_LAST_EVENT) && (i == 0 || i == N - 1)) ||
                   (m == FIRST_EVENT_MARKER && i == 0);
        cl_event e = NULL;
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, want ? &e : NULL));
        if (e) {
            if (!first)
                first = e;
            else {
                if (last)
                    clReleaseEvent(last);
                last = e;
            }
        }
    }
    if (m == FIRST_EVENT_MARKER)
        CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &last));
    CHECK(clFinish(q));
    double host = now_us() - t0;
    double us = host / N;
    if (first && last)
        us = (double)(stamp(last, CL_PROFILING_COMMAND_END) - stamp(first, CL_PROFILING_COMMAND_START)) *
             1e-3 / (N - 1);
    if (first)
        clReleaseEvent(first);
    if (last)
        clReleaseEvent(last);
    return us;
}

int main(int argc, char **argv)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    CHECK(clGetPlatformIDs(8, plats, &np));
    cl_device_id dev = NULL;
    for (cl_uint p = 0; p < np && !dev; p++) {
        char name[256];
        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (argc > 1 && !strstr(name, argv[1]))
            continue;
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], argc > 1 ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev,
                           &nd) != CL_SUCCESS)
            dev = NULL;
    }
    if (!dev) {
        fprintf(stderr, "no device\n");
        return 1;
    }
    char dname[256];
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL);
    cl_uint cus = 0;
    size_t maxwg = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg, NULL);
    printf("device: %s (%u compute units)\n", dname, cus);
    cl_int rc;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
    CHECK(rc);
    cl_command_queue prof = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &rc);
    CHECK(rc);
    cl_command_queue plain = clCreateCommandQueue(ctx, dev, 0, &rc);
    CHECK(rc);
    cl_program pr = clCreateProgramWithSource(ctx, 1, &src, NULL, &rc);
    CHECK(rc);
    CHECK(clBuildProgram(pr, 1, &dev, "", NULL, NULL));
    cl_kernel k = clCreateKernel(pr, "one", &rc);
    CHECK(rc);
    cl_kernel wide = clCreateKernel(pr, "wide", &rc);
    CHECK(rc);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &rc);
    CHECK(rc);
    size_t items = (size_t)cus * maxwg;
    cl_mem win = clCreateBuffer(ctx, CL_MEM_READ_WRITE, items * 16 * sizeof(float), NULL, &rc);
    cl_mem wout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, items * 16 * sizeof(float), NULL, &rc);
    CHECK(clSetKernelArg(wide, 0, sizeof win, &win));
    CHECK(clSetKernelArg(wide, 1, sizeof wout, &wout));

    double v[REPS];
    for (int m = EVERY_EVENT; m <= HOST_SET_ARGS; m++) {
        for (int q = 0; q < 2; q++) {
            if (q == 0 && (m == EVERY_EVENT || m == FIRST_LAST_EVENT || m == FIRST_EVENT_MARKER))
                ; /* events need the profiling queue */
            else if (q == 1 && !(m == HOST_ONLY || m == HOST_SET_ARGS))
                continue;
            cl_command_queue cq = q == 0 ? prof : plain;
            back_to_back(cq, k, out, m); /* warm-up */
            for (int r = 0; r < REPS; r++)
                v[r] = back_to_back(cq, k, out, m);
            printf("%-66s %-10s %7.2f us/launch\n", mode_name[m], q ? "plain" : "profiling",
                   median(v, REPS));
        }
    }
    /* clpeak 1.1.2's kernel latency: its global_bandwidth kernel over
     * numCUs x maxWG items, a launch, clFinish, END - QUEUED. */
    size_t local = maxwg;
    for (int r = 0; r < REPS; r++) {
        double sum_eq = 0, sum_sq = 0, sum_host = 0;
        for (int i = 0; i < 100; i++) {
            cl_event e;
            double t0 = now_us();
            CHECK(clEnqueueNDRangeKernel(prof, wide, 1, NULL, &items, &local, 0, NULL, &e));
            CHECK(clFinish(prof));
            sum_host += now_us() - t0;
            sum_eq += (stamp(e, CL_PROFILING_COMMAND_END) - stamp(e, CL_PROFILING_COMMAND_QUEUED)) * 1e-3;
            sum_sq += (stamp(e, CL_PROFILING_COMMAND_START) - stamp(e, CL_PROFILING_COMMAND_QUEUED)) * 1e-3;
            clReleaseEvent(e);
        }
        v[r] = sum_eq / 100;
        if (r == REPS - 1)
            printf("clpeak method: END-QUEUED %.2f us, START-QUEUED %.2f us, host round trip %.2f us\n",
                   sum_eq / 100, sum_sq / 100, sum_host / 100);
    }
    printf("%-66s %-10s %7.2f us/launch\n", "clpeak kernel latency (END - QUEUED, clFinish each)",
           "profiling", median(v, REPS));
    return 0;
}
