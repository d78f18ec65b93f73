/* A tuning search sets its workload up once where the workload can retune
 * (blur's and constmem's coarsened strips, transpose's tiles): the setup runs once a search,
 * every candidate is built, run and verified against the reference set up
 * with the built-in parameters, as a search of whole runs does; a
 * candidate whose kernel is wrong fails its check on the shared buffers
 * (the previous candidate's output never passes for it), and one whose
 * build the driver refuses is passed over, the next still verified. */
#include "pocl.h"
#include "workloads/registry.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Not a multiple of any strip: strips cut by the right and bottom edges. */
#define SIZE       "67x45"
#define CANDIDATES 5

/* The workload under test, wrapped: its setups and retunes counted, and
 * at chosen retunes a kernel planted (hooks cannot carry a pointer of
 * their own, so the wrappers read this). */
static struct {
    const struct clmem_workload *real;
    unsigned setups, retunes;
    unsigned broken_at;  /* this retune builds a program the compiler refuses */
    int plant_skip;      /* the first retune after it with ROWS > 1 skips rows */
    unsigned planted_at; /* which retune did (0: none yet) */
} probe;

static int counting_setup(struct clmem_run *run, struct clmem_error *err)
{
    probe.setups++;
    return probe.real->setup(run, err);
}

/* run->params with its -DROWS=N made -DROWS=1: the kernel computes one
 * row of each strip where the host launches a strip per N rows. */
static int skip_rows(const char *params, char *out, size_t size)
{
    const char *at = strstr(params, "-DROWS=");
    if (!at || atoi(at + 7) <= 1)
        return 0;
    const char *rest = at + 7;
    while (*rest >= '0' && *rest <= '9')
        rest++;
    snprintf(out, size, "%.*s-DROWS=1%s", (int)(at - params), params, rest);
    return 1;
}

static int planting_retune(struct clmem_run *run, struct clmem_error *err)
{
    int status = probe.real->retune(run, err);
    char options[sizeof run->params + 16];
    probe.retunes++;
    if (status)
        return status;
    if (probe.retunes == probe.broken_at) {
        snprintf(options, sizeof options, "%s -DVEC=(", run->params);
        return clmem_run_rebuild(run, options, err);
    }
    if (probe.plant_skip && !probe.planted_at && probe.retunes > probe.broken_at &&
        skip_rows(run->params, options, sizeof options)) {
        probe.planted_at = probe.retunes;
        return clmem_run_rebuild(run, options, err);
    }
    return CLMEM_OK;
}

/* What the search measured, in order: index 0 the built-in parameters. */
struct seen {
    size_t n;
    int status[CANDIDATES + 1];
    char params[CANDIDATES + 1][512];
};

static void record(void *user, size_t index, size_t count, const struct clmem_tune_candidate *c)
{
    (void)count;
    struct seen *seen = user;
    assert_int_equal(index, seen->n);
    assert_true(index <= CANDIDATES);
    seen->status[index] = c->status;
    snprintf(seen->params[index], sizeof seen->params[index], "%s", c->params);
    seen->n++;
}

/* A search of `w`'s tunable variant (w a wrapped copy of probe.real). */
static void search(struct clmem_ctx *ctx, const struct clmem_workload *w, const char *variant,
                   struct seen *seen, struct clmem_tune_result *r)
{
    memset(seen, 0, sizeof *seen);
    const struct clmem_tunable *t = clmem_tunable_find(w, variant);
    assert_non_null(t);
    struct clmem_tune_options o = {.size = SIZE,
                                   .reps = 1,
                                   .max_candidates = CANDIDATES,
                                   .seed = 7,
                                   .measured = record,
                                   .user = seen};
    struct clmem_error err = {0};
    if (clmem_tune(ctx, w, t, &o, r, &err) != CLMEM_OK)
        fail_msg("tune %s %s at %s: %s", w->name, variant, SIZE, err.message);
    assert_int_equal(r->tried, CANDIDATES);
    assert_int_equal(seen->n, CANDIDATES + 1);
}

static void wrap(const char *name, struct clmem_workload *copy)
{
    memset(&probe, 0, sizeof probe);
    probe.real = clmem_workload_find(name);
    assert_non_null(probe.real);
    assert_non_null(probe.real->retune);
    *copy = *probe.real;
    copy->setup = counting_setup;
    copy->retune = planting_retune;
}

/* One setup for the whole search, and the same candidates, each verified
 * with the same parameters and statuses, as a search of whole runs. */
static void setup_once(struct clmem_ctx *ctx, const char *name, const char *variant)
{
    struct clmem_workload shared, whole;
    struct seen seen_shared, seen_whole;
    struct clmem_tune_result r_shared, r_whole;
    wrap(name, &shared);
    search(ctx, &shared, variant, &seen_shared, &r_shared);
    assert_int_equal(probe.setups, 1);
    assert_int_equal(probe.retunes, CANDIDATES);

    whole = shared;
    whole.retune = NULL;
    probe.setups = probe.retunes = 0;
    search(ctx, &whole, variant, &seen_whole, &r_whole);
    assert_int_equal(probe.setups, CANDIDATES + 1);
    assert_int_equal(probe.retunes, 0);

    for (size_t i = 0; i <= CANDIDATES; i++) {
        if (seen_shared.status[i] != CLMEM_OK || seen_whole.status[i] != CLMEM_OK)
            fail_msg("%s candidate %zu (%s): status %d shared, %d whole", name, i,
                     seen_shared.params[i], seen_shared.status[i], seen_whole.status[i]);
        assert_string_equal(seen_shared.params[i], seen_whole.params[i]);
    }
    assert_string_equal(r_shared.builtin.params, r_whole.builtin.params);
    assert_int_equal(r_shared.builtin.status, CLMEM_OK);
    assert_int_equal(r_shared.best.status, CLMEM_OK);
    assert_true(r_shared.best.metric >= r_shared.builtin.metric);
}

static void blur_sets_up_once(void **state)
{
    setup_once(*state, "blur", "coarsened");
}

static void constmem_sets_up_once(void **state)
{
    setup_once(*state, "constmem", "coarsened");
}

/* transpose's tile: every lecture variant's, searched on padded. */
static void transpose_sets_up_once(void **state)
{
    setup_once(*state, "transpose", "padded");
}

/* The first retune's build is refused: listed, passed over. A later one
 * (ROWS > 1) is built to skip rows: on the buffers the candidate before
 * it filled correctly, it must fail its check. Every other candidate,
 * the one after each of those included, verifies. */
static void planted(struct clmem_ctx *ctx, const char *name)
{
    struct clmem_workload w;
    struct seen seen;
    struct clmem_tune_result r;
    wrap(name, &w);
    probe.broken_at = 1;
    probe.plant_skip = 1;
    search(ctx, &w, "coarsened", &seen, &r);
    assert_int_equal(probe.setups, 1);
    if (!probe.planted_at || probe.planted_at >= CANDIDATES)
        fail_msg("%s: no candidate with ROWS > 1 before the last to plant the skip in", name);
    for (size_t i = 0; i <= CANDIDATES; i++) {
        int want = i == probe.broken_at    ? CLMEM_ERR_CL
                   : i == probe.planted_at ? CLMEM_ERR_VERIFY
                                           : CLMEM_OK;
        if (seen.status[i] != want)
            fail_msg("%s candidate %zu (%s): status %d, not %d", name, i, seen.params[i],
                     seen.status[i], want);
    }
    assert_int_equal(r.builtin.status, CLMEM_OK);
}

static void blur_planted_candidates_fail(void **state)
{
    planted(*state, "blur");
}

static void constmem_planted_candidates_fail(void **state)
{
    planted(*state, "constmem");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blur_sets_up_once),
        cmocka_unit_test(constmem_sets_up_once),
        cmocka_unit_test(transpose_sets_up_once),
        cmocka_unit_test(blur_planted_candidates_fail),
        cmocka_unit_test(constmem_planted_candidates_fail),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
