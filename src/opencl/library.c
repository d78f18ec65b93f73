/* Vendor libraries clmem compares its kernels with, on the same data:
 * CLBlast on the device's buffers, OpenBLAS on the host's cores (for CPU
 * devices, which are those cores). Both are optional (Meson finds Debian's
 * libclblast-dev and libopenblas-dev); without one, comparing with it is
 * refused with a clear message. */
#include "opencl/opencl.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifdef CLMEM_HAVE_CLBLAST
#include <clblast_c.h>
#endif
#ifdef CLMEM_HAVE_OPENBLAS
#include <cblas.h>
#include <dlfcn.h>

/* OpenBLAS is loaded only when a comparison asks for it: its constructor
 * starts a thread per core as the library loads, and under an
 * address-space limit (ulimit -v) a thread stuck allocating made every
 * command, --version included, wait for it forever at exit. Its functions
 * are found at run time, never linked. */
static struct {
    void *handle;
    __typeof__(cblas_sgemm) *sgemm;
    char *(*corename)(void);
    char why[256]; /* why it could not be loaded */
} openblas;

static void openblas_load(void)
{
    void *h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(openblas.why, sizeof openblas.why, "%s", e ? e : "not found");
        return;
    }
    openblas.sgemm = (__typeof__(cblas_sgemm) *)dlsym(h, "cblas_sgemm");
    openblas.corename = (char *(*)(void))dlsym(h, "openblas_get_corename");
    if (!openblas.sgemm || !openblas.corename) {
        snprintf(openblas.why, sizeof openblas.why,
                 "libopenblas.so.0 lacks cblas_sgemm or openblas_get_corename");
        dlclose(h);
        openblas.sgemm = NULL;
        openblas.corename = NULL;
        return;
    }
    openblas.handle = h;
}

/* Whether OpenBLAS could be loaded (once, from any thread). */
static int openblas_loaded(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, openblas_load);
    return openblas.handle != NULL;
}
#endif

/* The libraries clmem knows, the package each needs, and whether it runs
 * on the host's cores (then only a CPU device is a fair match). */
static const struct {
    const char *name, *title, *package;
    int on_host;
} libraries[] = {
    {"clblast", "CLBlast", "libclblast-dev", 0},
    {"openblas", "OpenBLAS", "libopenblas-dev", 1},
};

int clmem_compare_fits(const char *library, const struct clmem_device *device,
                       struct clmem_error *err)
{
    for (size_t i = 0; library && i < CLMEM_ARRAY_SIZE(libraries); i++)
        if (strcmp(library, libraries[i].name) == 0 && libraries[i].on_host &&
            !(device->type & CL_DEVICE_TYPE_CPU))
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "%s runs on the host's CPU cores, not on '%s': compare it with a "
                              "CPU device (--device cpu)",
                              libraries[i].title, device->name);
    return CLMEM_OK;
}

int clmem_library_available(const char *library)
{
#ifdef CLMEM_HAVE_CLBLAST
    if (strcmp(library, "clblast") == 0)
        return 1;
#endif
#ifdef CLMEM_HAVE_OPENBLAS
    if (strcmp(library, "openblas") == 0)
        return openblas_loaded();
#endif
    (void)library;
    return 0;
}

int clmem_library_check(const char *library, struct clmem_error *err)
{
    if (!library)
        return CLMEM_OK;
    size_t i = 0;
    while (i < CLMEM_ARRAY_SIZE(libraries) && strcmp(library, libraries[i].name) != 0)
        i++;
    if (i == CLMEM_ARRAY_SIZE(libraries))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown library '%s' to compare with (clmem knows 'clblast' and "
                          "'openblas')",
                          library);
#ifdef CLMEM_HAVE_OPENBLAS
    if (strcmp(library, "openblas") == 0 && !openblas_loaded())
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot load OpenBLAS: %s (install %s)",
                          openblas.why, libraries[i].package);
#endif
    if (!clmem_library_available(library))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "clmem was built without %s (install %s, then run scripts/setup.sh "
                          "again)",
                          libraries[i].title, libraries[i].package);
    return CLMEM_OK;
}

int clmem_clblast_sgemm(struct clmem_ctx *ctx, size_t rows, size_t cols, size_t inner, cl_mem m,
                        cl_mem n, cl_mem p, struct clmem_timing *timing, struct clmem_error *err)
{
#ifdef CLMEM_HAVE_CLBLAST
    /* CLBlast may run helper kernels (padding, transposes) before the GEMM
     * and returns the last one's event: the marker makes the timing start
     * before all of them. */
    int status = clmem_timing_mark(ctx, timing, err);
    if (status)
        return status;
    cl_event event = NULL;
    CLBlastStatusCode rc =
        CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, rows, cols,
                     inner, 1.0f, m, 0, inner, n, 0, cols, 0.0f, p, 0, cols, &ctx->queue, &event);
    if (rc != CLBlastSuccess)
        return clmem_fail(err, CLMEM_ERR_CL, "CLBlastSgemm failed with status %d (%s)", (int)rc,
                          rc < 0 && rc > -100 ? clmem_cl_error_name((cl_int)rc)
                                              : "a CLBlast status, see clblast_c.h");
    clmem_timing_add(timing, event);
    return CLMEM_OK;
#else
    (void)ctx, (void)rows, (void)cols, (void)inner, (void)m, (void)n, (void)p, (void)timing;
    return clmem_fail(err, CLMEM_ERR_USAGE,
                      "clmem was built without CLBlast (install "
                      "libclblast-dev and run scripts/setup.sh again)");
#endif
}

void clmem_libraries_forget_context(void)
{
#ifdef CLMEM_HAVE_CLBLAST
    /* CLBlast caches the programs it built, per context, and releases them
     * at exit, after clmem released their contexts: a driver then frees
     * what is gone (Oclgrind aborted, 'corrupted double-linked list'). */
    CLBlastClearCache();
#endif
}

void clmem_openblas_describe(char *out, size_t size)
{
#ifdef CLMEM_HAVE_OPENBLAS
    /* The kernels it chose: a CPU it does not recognise (a virtual machine's
     * generic model name) gets old ones, e.g. Prescott's SSE3 on a Xeon
     * with AVX-512, 5 times slower; OPENBLAS_CORETYPE overrides. */
    snprintf(out, size, "OpenBLAS %s kernels (OPENBLAS_CORETYPE to choose others)",
             openblas_loaded() ? openblas.corename() : "(not loaded)");
#else
    snprintf(out, size, "OpenBLAS not built in");
#endif
}

int clmem_openblas_sgemm(size_t rows, size_t cols, size_t inner, const float *m, const float *n,
                         float *p, struct clmem_timing *timing, struct clmem_error *err)
{
#ifdef CLMEM_HAVE_OPENBLAS
    /* OpenBLAS's own threads, as many as the host has cores (its default;
     * OPENBLAS_NUM_THREADS changes it), as PoCL's are. */
    if (!openblas_loaded())
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot load OpenBLAS: %s", openblas.why);
    double start = clmem_now_ms();
    openblas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)rows, (int)cols, (int)inner,
                   1.0f, m, (int)inner, n, (int)cols, 0.0f, p, (int)cols);
    timing->host_ms = clmem_now_ms() - start;
    /* A run too short for the clock still counts as having taken time. */
    if (!(timing->host_ms > 0))
        timing->host_ms = 1e-6;
    (void)err;
    return CLMEM_OK;
#else
    (void)rows, (void)cols, (void)inner, (void)m, (void)n, (void)p, (void)timing;
    return clmem_fail(err, CLMEM_ERR_USAGE,
                      "clmem was built without OpenBLAS (install libopenblas-dev and run "
                      "scripts/setup.sh again)");
#endif
}
