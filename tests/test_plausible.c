/* Figures a second OpenCL implementation prints are plausible: every
 * workload on Mesa's rusticl (llvmpipe, RUSTICL_ENABLE=llvmpipe) verifies,
 * names the clock that timed it, and is never more than FAR_ABOVE times
 * PoCL's figure for the same result on the same cores. rusticl's event timestamps count
 * 0, 1, 2, 3 ns whatever a kernel does: trusted, they gave PB/s. Skipped,
 * saying so, where rusticl is not installed. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pocl.h"

/* Small sizes (llvmpipe runs a work-item at a time and compiles
 * regblock's unrolled kernel for a minute), each one a run of every
 * variant: matmul's whole tiles let every one of its variants run. */
static const struct {
    const char *workload, *size;
} cases[] = {
    {"matmul", "128x128x64"}, {"transpose", "256"}, {"pi", "262144"},  {"atomics", "262144"},
    {"reduce", "262144"},     {"dot", "262144"},    {"blur", "96x64"}, {"constmem", "96"},
    {"coalescing", "4096"},   {"pitched", "96x33"}, {"peak", "4096"},
};

static int open_named(const char *spec, struct clmem_ctx *ctx)
{
    struct clmem_error err = {0};
    struct clmem_device *devices;
    size_t count, chosen;
    int status = clmem_devices_list(&devices, &count, &err);
    if (status == CLMEM_OK)
        status = clmem_devices_select(spec, devices, count, &chosen, &err);
    if (status == CLMEM_OK)
        status = clmem_ctx_open(ctx, &devices[chosen], NULL, &err);
    if (status == CLMEM_OK)
        free(devices);
    clmem_error_clear(&err);
    return status;
}

/* Two compilers of one kernel may differ by more than ten times (pi's
 * device_rng: llvmpipe 13x PoCL on the 2-core VM, both by clocks that
 * passed); a clock that counts 1 ns a kernel gave figures 1e5 to 1e9
 * times too high. */
#define FAR_ABOVE 100.0

/* The result's best sample as a figure: load on a shared machine slows
 * samples down, never up. */
static double best_figure(const struct clmem_result *r)
{
    return r->metric * r->median_ms / r->min_ms;
}

static void rusticl_figures_are_plausible(void **state)
{
    (void)state;
    if (!getenv("RUSTICL_ENABLE")) {
        print_message("skipped: RUSTICL_ENABLE is not set (meson sets it to llvmpipe)\n");
        skip();
    }
    struct clmem_ctx pocl, mesa;
    if (open_named("llvmpipe", &mesa) != CLMEM_OK) {
        print_message("skipped: no rusticl device 'llvmpipe' (install mesa-opencl-icd)\n");
        skip();
    }
    if (open_named("pocl", &pocl) != CLMEM_OK)
        fail_msg("no PoCL device to compare rusticl's figures with");
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct clmem_error err = {0};
        struct clmem_result *ours = NULL, *theirs = NULL;
        size_t n_ours = 0, n_theirs = 0;
        int status = clmem_run_workload(&mesa, cases[c].workload, "all", cases[c].size, 3, &ours,
                                        &n_ours, &err);
        if (status != CLMEM_OK)
            fail_msg("rusticl: %s at %s: %s", cases[c].workload, cases[c].size, err.message);
        status = clmem_run_workload(&pocl, cases[c].workload, "all", cases[c].size, 3, &theirs,
                                    &n_theirs, &err);
        if (status != CLMEM_OK)
            fail_msg("PoCL: %s at %s: %s", cases[c].workload, cases[c].size, err.message);
        for (size_t i = 0; i < n_ours; i++) {
            const struct clmem_result *r = &ours[i];
            if (r->skipped) {
                /* What llvmpipe lacks (fp64) is said, never silently dropped. */
                assert_true(r->skip_reason[0] != '\0');
                continue;
            }
            if (!r->verified || !r->timer[0] || r->runs_per_sample < 1 || !(r->median_ms > 0) ||
                !isfinite(r->metric) || !(r->metric > 0))
                fail_msg("rusticl %s %s: verified %d, timer '%s' x%u, median %g ms, %g %s",
                         r->workload, r->variant, r->verified, r->timer, r->runs_per_sample,
                         r->median_ms, r->metric, r->metric_unit);
            /* Its clock fails the check: the host's clock times it. */
            assert_string_equal(r->timer, mesa.clock.events_ok ? "events" : "host");
            for (size_t j = 0; j < n_theirs; j++) {
                const struct clmem_result *p = &theirs[j];
                if (p->skipped || strcmp(p->variant, r->variant) != 0 ||
                    strcmp(p->sweep, r->sweep) != 0 || p->sweep_value != r->sweep_value)
                    continue;
                if (best_figure(r) > FAR_ABOVE * best_figure(p))
                    fail_msg("rusticl %s %s (%s %u) at %s: %g %s, more than %g times PoCL's %g on "
                             "the same cores",
                             r->workload, r->variant, r->sweep[0] ? r->sweep : "-", r->sweep_value,
                             r->size, best_figure(r), r->metric_unit, best_figure(p));
            }
        }
        clmem_results_free(ours, n_ours);
        clmem_results_free(theirs, n_theirs);
        clmem_error_clear(&err);
    }
    print_message("rusticl's clock: %s\n", mesa.clock.events_ok ? "events used" : mesa.clock.why);
    clmem_ctx_close(&pocl);
    clmem_ctx_close(&mesa);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rusticl_figures_are_plausible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
