/* Whether memory that OpenCL did not allocate (shared memory, as SUMMA's
 * MPI window) can be copied up to a GPU at the pinned rate: 256 MiB up by
 * four paths, each the median of 7 copies, wall time around clFinish:
 *   pageable: clEnqueueWriteBuffer from malloc'd memory;
 *   pinned:   from a mapped CL_MEM_ALLOC_HOST_PTR buffer (clmem's pinned);
 *   use_ptr:  clEnqueueCopyBuffer from a CL_MEM_USE_HOST_PTR buffer made
 *             over a shared mapping (mmap MAP_SHARED), after host writes
 *             (each copy's first value checked: a cached device copy
 *             would show the value before);
 *   shm:      clEnqueueWriteBuffer from that shared mapping, once the
 *             USE_HOST_PTR buffer exists over it.
 * Build: cc -O2 host_ptr.c -lOpenCL -o host_ptr. Run: ./host_ptr [GiB/s only] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define BYTES ((size_t)256 << 20)
#define REPS  7
#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cl_int e_ = (x);                                                                           \
        if (e_ != CL_SUCCESS) {                                                                    \
            fprintf(stderr, "%s: %d\n", #x, e_);                                                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* 256 MiB written up from `src`, REPS times, each timed alone. */
static void time_writes(cl_command_queue q, cl_mem d, const void *src, double *s)
{
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        CHECK(clEnqueueWriteBuffer(q, d, CL_TRUE, 0, BYTES, src, 0, NULL, NULL));
        s[r] = now() - t0;
    }
}

static void report(const char *what, double *s)
{
    qsort(s, REPS, sizeof *s, cmp);
    printf("%-9s %7.2f GB/s (median of %d, 256 MiB up)\n", what, BYTES / s[REPS / 2] / 1e9, REPS);
}

int main(void)
{
    cl_platform_id platforms[8];
    cl_uint np = 0;
    CHECK(clGetPlatformIDs(8, platforms, &np));
    cl_device_id dev = NULL;
    for (cl_uint i = 0; i < np && !dev; i++)
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    if (!dev) {
        fprintf(stderr, "no GPU\n");
        return 1;
    }
    char name[256];
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("device: %s\n", name);
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    CHECK(e);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
    CHECK(e);
    cl_mem d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, BYTES, NULL, &e);
    CHECK(e);
    double s[REPS];

    char *pageable = malloc(BYTES);
    memset(pageable, 1, BYTES);
    time_writes(q, d, pageable, s);
    report("pageable", s);

    cl_mem pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, BYTES, NULL, &e);
    CHECK(e);
    char *pinned = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_WRITE, 0, BYTES, 0, NULL, NULL, &e);
    CHECK(e);
    memset(pinned, 2, BYTES);
    time_writes(q, d, pinned, s);
    report("pinned", s);

    float *shm = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shm == MAP_FAILED)
        return 1;
    memset(shm, 0, BYTES);
    cl_mem host = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, BYTES, shm, &e);
    CHECK(e);
    int stale = 0;
    for (int r = 0; r < REPS; r++) {
        shm[0] = (float)(r + 1); /* a host write between copies */
        double t0 = now();
        CHECK(clEnqueueCopyBuffer(q, host, d, 0, 0, BYTES, 0, NULL, NULL));
        CHECK(clFinish(q));
        s[r] = now() - t0;
        float first;
        CHECK(clEnqueueReadBuffer(q, d, CL_TRUE, 0, sizeof first, &first, 0, NULL, NULL));
        stale += first != (float)(r + 1);
    }
    report("use_ptr", s);
    printf("use_ptr: %d of %d copies showed a value from before the host's write\n", stale, REPS);

    time_writes(q, d, shm, s);
    report("shm", s);
    return 0;
}
