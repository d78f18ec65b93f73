/* Vendor libraries clmem compares its kernels with, on the same buffers.
 * CLBlast is optional (Meson finds Debian's libclblast-dev); without it
 * the comparison is refused with a clear message. */
#include "clmem/clmem.h"

#include <string.h>

#ifdef CLMEM_HAVE_CLBLAST
#include <clblast_c.h>
#endif

int clmem_library_available(const char *library)
{
#ifdef CLMEM_HAVE_CLBLAST
    if (strcmp(library, "clblast") == 0)
        return 1;
#endif
    (void)library;
    return 0;
}

int clmem_workload_has_library(const struct clmem_workload *w, const char *library)
{
    for (size_t i = 0; i < w->n_variants; i++)
        if (w->variants[i].library && strcmp(w->variants[i].library, library) == 0)
            return 1;
    return 0;
}

int clmem_compare_check(const struct clmem_workload *w, const char *library,
                        struct clmem_error *err)
{
    if (!library)
        return CLMEM_OK;
    if (strcmp(library, "clblast") != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown library '%s' to compare with (clmem knows 'clblast')", library);
    if (!clmem_library_available(library))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "clmem was built without CLBlast (install libclblast-dev, then run "
                          "scripts/setup.sh again)");
    if (w && !clmem_workload_has_library(w, library))
        return clmem_fail(err, CLMEM_ERR_USAGE, "workload '%s' has nothing to compare with '%s'",
                          w->name, library);
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
