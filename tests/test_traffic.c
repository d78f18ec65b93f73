/* The traffic model (harness/traffic.h): each modelled variant's bytes and
 * flops on PoCL at sizes that are no multiple of its tile, against the
 * arithmetic done here by hand from the kernels' design (Kirk & Hwu's
 * CGMA: naive matmul 8 bytes per 2 flops, a tile of T cuts that by T);
 * the binding level; the model-error flag on a planted too-fast bound;
 * the note's clause naming what the model leaves out, far below the bound
 * or beyond it; the bound's fields in JSON and CSV, and a run file with
 * them read back. */
#include "harness/traffic.h"
#include "pocl.h"
#include "report/json.h"
#include "report/model.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

enum { G = CLMEM_BOUND_GLOBAL, L = CLMEM_BOUND_LOCAL, C = CLMEM_BOUND_CONSTANT };

/* The value of -DNAME= in the result's parameters; fails when absent. */
static double param(const struct clmem_result *r, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "-D%s=", name);
    const char *at = strstr(r->params, key);
    if (!at)
        fail_msg("no %s in '%s'", key, r->params);
    return atof(at + strlen(key));
}

/* Runs one variant once at size and returns its (verified) result. */
static struct clmem_result *run_one(void **state, const char *workload, const char *variant,
                                    const char *size, size_t *n)
{
    struct clmem_result *r = NULL;
    struct clmem_error err = {0};
    *n = 0;
    if (clmem_run_workload(*state, workload, variant, size, 1, &r, n, &err) != CLMEM_OK)
        fail_msg("%s %s %s: %s", workload, variant, size, err.message);
    assert_true(*n >= 1);
    assert_true(r[0].verified);
    /* Every phrase fits its array whole and keeps the note's clauses
     * apart (they are split at "; "). */
    for (size_t i = 0; i < *n; i++) {
        assert_true(strlen(r[i].bound.unmodelled) < sizeof r[i].bound.unmodelled - 1);
        assert_null(strchr(r[i].bound.unmodelled, ';'));
    }
    return r;
}

static void expect_amount(const struct clmem_result *r, int level, double expected)
{
    if (fabs(r->bound.amount[level] - expected) > 1e-9 * (expected > 1 ? expected : 1))
        fail_msg("%s %s at %s: %s %.17g, expected %.17g", r->workload, r->variant, r->size,
                 clmem_bound_level_name(level), r->bound.amount[level], expected);
}

static void expect(void **state, const char *workload, const char *variant, const char *size,
                   double global, double local, double constant, double flops)
{
    size_t n;
    struct clmem_result *r = run_one(state, workload, variant, size, &n);
    expect_amount(&r[0], G, global);
    expect_amount(&r[0], L, local);
    expect_amount(&r[0], C, constant);
    expect_amount(&r[0], CLMEM_BOUND_COMPUTE, flops);
    clmem_results_free(r, n);
}

/* P is 33 x 17, K 45: none a multiple of any tile. */
static void matmul_cgma(void **state)
{
    const double m = 33, n = 17, k = 45, p = m * n;
    /* Naive: a row of M and a column of N per P element, 8 bytes a
     * multiply-add, P written once. */
    expect(state, "matmul", "naive", "33x17x45", 8 * p * k + 4 * p, 0, 0, 2 * p * k);

    size_t count;
    struct clmem_result *r = run_one(state, "matmul", "tiled_bounds", "33x17x45", &count);
    double t = param(&r[0], "TILE_WIDTH");
    double steps = ceil(m / t) * ceil(n / t) * ceil(k / t);
    /* Per group and phase: a T x T tile of M and one of N loaded, each
     * value read T times from __local. */
    expect_amount(&r[0], G, steps * 4 * 2 * t * t + 4 * p);
    expect_amount(&r[0], L, steps * (4 * 2 * t * t + 4 * 2 * t * t * t));
    expect_amount(&r[0], CLMEM_BOUND_COMPUTE, 2 * p * k);
    clmem_results_free(r, count);

    /* Coarsened: a group's M tile serves COARSE_FACTOR tiles of N. */
    r = run_one(state, "matmul", "coarsened", "33x17x45", &count);
    double cf = param(&r[0], "COARSE_FACTOR");
    steps = ceil(m / t) * ceil(n / (t * cf)) * ceil(k / t);
    expect_amount(&r[0], G, steps * 4 * t * (t + t * cf) + 4 * p);
    clmem_results_free(r, count);
}

/* At a multiple of the tile, the tiled kernel's loads are the naive
 * one's over TILE_WIDTH. */
static void tiles_cut_global_loads_by_the_tile(void **state)
{
    size_t n1, n2;
    struct clmem_result *naive = run_one(state, "matmul", "naive", "64", &n1);
    struct clmem_result *tiled = run_one(state, "matmul", "tiled", "64", &n2);
    double t = param(&tiled[0], "TILE_WIDTH"), p = 64.0 * 64;
    double ratio = (naive[0].bound.amount[G] - 4 * p) / (tiled[0].bound.amount[G] - 4 * p);
    assert_true(fabs(ratio - t) < 1e-9);
    clmem_results_free(naive, n1);
    clmem_results_free(tiled, n2);
}

static void transpose_pitched_coalescing(void **state)
{
    const double bytes = 2.0 * 4 * 33 * 17;
    expect(state, "transpose", "copy", "33x17", bytes, 0, 0, 0);
    expect(state, "transpose", "naive", "33x17", bytes, 0, 0, 0);
    expect(state, "transpose", "padded", "33x17", bytes, bytes, 0, 0);
    expect(state, "pitched", "pitched", "33x17", bytes, 0, 0, 0);
    /* b[i] = a[i] + 1 on 1001 floats, every offset: the bytes asked for;
     * what a misaligned span costs beyond them is said from offset 1 on. */
    size_t n;
    struct clmem_result *r = run_one(state, "coalescing", "offset_float", "1001", &n);
    for (size_t i = 0; i < n; i++) {
        expect_amount(&r[i], G, 2.0 * 4 * 1001);
        expect_amount(&r[i], CLMEM_BOUND_COMPUTE, 1001);
        assert_string_equal(r[i].bound.unmodelled,
                            r[i].sweep_value ? "the extra memory transaction a misaligned span touches" : "");
    }
    clmem_results_free(r, n);
}

/* The phrase naming what a variant's design does beyond its bytes. */
static void expect_unmodelled(void **state, const char *workload, const char *variant,
                              const char *size, const char *unmodelled)
{
    size_t n;
    struct clmem_result *r = run_one(state, workload, variant, size, &n);
    assert_string_equal(r[0].bound.unmodelled, unmodelled);
    clmem_results_free(r, n);
}

/* What each design does that its bytes leave out: the copy nothing, the
 * naive transpose its column writes, the aligned pitched rows nothing. */
static void variants_name_what_is_not_counted(void **state)
{
    expect_unmodelled(state, "transpose", "copy", "33x17", "");
    expect_unmodelled(state, "transpose", "naive", "33x17",
                      "a whole memory transaction for each float written down a column");
    expect_unmodelled(state, "pitched", "pitched", "33x17", "");
    expect_unmodelled(state, "reduce", "interleaved", "5001",
                      "a barrier a tree step, scattered adders, a launch a pass");
    expect_unmodelled(state, "dot", "local_sums", "5001", "a barrier a tree step, a launch a pass");
    expect_unmodelled(state, "matmul", "naive", "33x17x45",
                      "L1 and L2 serving the repeated row and column reads");
}

/* A group's tree over B values: B stores, B - 1 adds of two reads and a
 * write. */
static double tree(double b)
{
    return 4 * (b + 3 * (b - 1));
}

static void reduce_and_dot(void **state)
{
    /* 5001 floats in groups of 256: 20 partials, then 1; every tree full. */
    expect(state, "reduce", "interleaved", "5001", 4 * 5001 + 2 * 4 * 21, 21 * tree(256), 0, 5001);
    /* Grid stride: ceil(5001 / (4 * 256)) = 5 groups on any device of one
     * compute unit or more, then the group that sums their partials. */
    expect(state, "reduce", "coarsened", "5001", 4 * 5001 + 2 * 4 * 6, 6 * tree(256), 0, 5001);
    expect(state, "dot", "one_pass", "5001", 8 * 5001 + 2 * 4 * 6, 6 * tree(256), 0, 2 * 5001);
}

static void stencils(void **state)
{
    const double w = 33, h = 17, px = w * h;
    /* The figure's blur: a 3x3 box of bytes read per output byte. */
    expect(state, "blur", "naive", "33x17", px * (1 + 9), 0, 0, 0);
    size_t n;
    struct clmem_result *r = run_one(state, "blur", "tiled", "33x17", &n);
    double t = param(&r[0], "TILE"), loaded = ceil(w / t) * ceil(h / t) * (t + 2) * (t + 2);
    expect_amount(&r[0], G, px + loaded);
    expect_amount(&r[0], L, loaded + 9 * px);
    clmem_results_free(r, n);
    /* 5x5 floats: 25 inputs, 25 coefficients, one output; 50 flops. */
    expect(state, "constmem", "global_filter", "33x17", 4 * px * 51, 0, 0, 50 * px);
    expect(state, "constmem", "constant_filter", "33x17", 4 * px * 26, 0, 4 * px * 25, 50 * px);
    r = run_one(state, "constmem", "coarsened", "33x17", &n);
    double vec = param(&r[0], "VEC"), rows = param(&r[0], "ROWS");
    double strips = ceil(w / vec) * ceil(h / rows);
    double per_row = param(&r[0], "STRIP_LOAD") == 2 ? vec + 4 : 5 * vec;
    expect_amount(&r[0], G, 4 * px + 4 * strips * (rows + 4) * per_row);
    expect_amount(&r[0], C, 4 * 25 * strips);
    clmem_results_free(r, n);
}

/* A result of `ms` (samples ms .. ms * (1 + spread)) with traffic set. */
static struct clmem_result synthetic(double ms, double spread)
{
    struct clmem_result r = {.n_samples = 1,
                             .median_ms = ms,
                             .min_ms = ms,
                             .max_ms = ms * (1 + spread),
                             .verified = 1,
                             .peak_fraction = NAN,
                             .baseline_fraction = NAN,
                             .looped_ms = NAN};
    strcpy(r.workload, "w");
    strcpy(r.variant, "v");
    strcpy(r.metric_unit, "GB/s");
    r.bound.amount[G] = 1e9;                   /* 1 GB: 100 ms at 10 GB/s */
    r.bound.amount[L] = 4e9;                   /* 4 GB: 40 ms at 100 GB/s */
    r.bound.amount[CLMEM_BOUND_COMPUTE] = 1e9; /* 1 GFLOP: 10 ms at 100 GFLOP/s */
    return r;
}

static void binding_level_is_the_slowest(void **state)
{
    (void)state;
    struct clmem_level_rates rates = {.copy_gbs = 10, .local_gbs = 100, .gflops = 100};
    struct clmem_result r = synthetic(125, 0);
    clmem_result_bound(&r, &rates);
    assert_int_equal(r.bound.binding, G + 1);
    assert_true(fabs(r.bound.predicted_ms[G] - 100) < 1e-9);
    assert_true(fabs(r.bound.predicted_ms[L] - 40) < 1e-9);
    assert_true(fabs(r.bound.ratio - 0.8) < 1e-12);
    assert_false(r.bound.model_error);
    /* Slower local memory: local binds. */
    rates.local_gbs = 20;
    clmem_result_bound(&r, &rates);
    assert_int_equal(r.bound.binding, L + 1);
    assert_true(fabs(r.bound.ratio - 200.0 / 125) < 1e-12);
    /* A reduction's global traffic goes at the read bandwidth. */
    rates = (struct clmem_level_rates){.copy_gbs = 10, .read_gbs = 5};
    strcpy(r.roof, "read");
    clmem_result_bound(&r, &rates);
    assert_true(fabs(r.bound.predicted_ms[G] - 200) < 1e-9);
    /* No rate known: nothing binds, no ratio. */
    rates = (struct clmem_level_rates){0};
    clmem_result_bound(&r, &rates);
    assert_int_equal(r.bound.binding, 0);
    assert_true(isnan(r.bound.ratio));
}

/* The bound predicts 100 ms; a measurement of 80 ms is faster than any
 * bound allows, beyond a 2% spread: flagged and said in the note, and
 * only once when applied again. Within the spread it is noise. */
static void model_error_is_flagged(void **state)
{
    (void)state;
    struct clmem_level_rates rates = {.copy_gbs = 10};
    struct clmem_result r = synthetic(80, 0.02);
    strcpy(r.note, "earlier");
    clmem_result_bound(&r, &rates);
    assert_true(r.bound.model_error);
    assert_true(fabs(r.bound.ratio - 1.25) < 1e-12);
    assert_string_equal(r.note, "earlier; model error: 1.25x its global bound");
    clmem_result_bound(&r, &rates);
    assert_string_equal(r.note, "earlier; model error: 1.25x its global bound");
    /* 97 ms with samples 10% apart: within the noise. */
    r = synthetic(97, 0.10);
    clmem_result_bound(&r, &rates);
    assert_false(r.bound.model_error);
    assert_string_equal(r.note, "");
}

/* The variant's phrase in the note where the result is far below its
 * bound (under CLMEM_BOUND_FAR) or a model error, once however often the
 * bound is applied, gone when the result comes within it. */
static void note_names_what_is_not_counted(void **state)
{
    (void)state;
    struct clmem_level_rates rates = {.copy_gbs = 10};
    struct clmem_result r = synthetic(200, 0); /* 100 ms predicted: 0.50 */
    strcpy(r.note, "earlier");
    strcpy(r.bound.unmodelled, "whole sectors for column writes");
    clmem_result_bound(&r, &rates);
    assert_false(r.bound.model_error);
    assert_string_equal(r.note,
                        "earlier; 0.50 of its global bound: not counted: whole sectors for column "
                        "writes");
    clmem_result_bound(&r, &rates);
    assert_string_equal(r.note,
                        "earlier; 0.50 of its global bound: not counted: whole sectors for column "
                        "writes");
    /* Within [0.7, 1]: no clause, the earlier one taken out. */
    r.median_ms = r.min_ms = r.max_ms = 125;
    clmem_result_bound(&r, &rates);
    assert_true(fabs(r.bound.ratio - 0.8) < 1e-12);
    assert_string_equal(r.note, "earlier");
    /* A model error: its own text, then the phrase; once. */
    r.median_ms = r.min_ms = 80;
    r.max_ms = 80 * 1.02;
    clmem_result_bound(&r, &rates);
    assert_true(r.bound.model_error);
    assert_string_equal(r.note, "earlier; model error: 1.25x its global bound: not counted: whole "
                                "sectors for column writes");
    clmem_result_bound(&r, &rates);
    assert_string_equal(r.note, "earlier; model error: 1.25x its global bound: not counted: whole "
                                "sectors for column writes");
    /* The clause alone in the note, and one with a clause after it: each
     * taken out with its separator. */
    r.median_ms = r.min_ms = r.max_ms = 125;
    strcpy(r.note, "0.50 of its global bound: not counted: old");
    clmem_result_bound(&r, &rates);
    assert_string_equal(r.note, "");
    strcpy(r.note, "model error: 2.00x its local bound: not counted: old; later");
    clmem_result_bound(&r, &rates);
    assert_string_equal(r.note, "later");
    strcpy(r.note, "first; 0.50 of its global bound; later");
    clmem_result_bound(&r, &rates);
    assert_string_equal(r.note, "first; later");
    /* No phrase: far below says nothing, a model error only its own. */
    r = synthetic(200, 0);
    clmem_result_bound(&r, &rates);
    assert_string_equal(r.note, "");
    r = synthetic(80, 0);
    clmem_result_bound(&r, &rates);
    assert_string_equal(r.note, "model error: 1.25x its global bound");
    assert_null(strstr(r.note, "not counted"));
}

static void json_and_csv_carry_the_bound(void **state)
{
    (void)state;
    struct clmem_level_rates rates = {.copy_gbs = 10, .local_gbs = 100, .gflops = 100};
    double sample = 80;
    struct clmem_result r = synthetic(80, 0);
    r.samples_ms = &sample;
    clmem_result_bound(&r, &rates);
    cJSON *o = clmem_json_result(&r);
    const cJSON *bound = cJSON_GetObjectItemCaseSensitive(o, "bound");
    assert_non_null(bound);
    const cJSON *levels = cJSON_GetObjectItemCaseSensitive(bound, "levels");
    const cJSON *global = cJSON_GetObjectItemCaseSensitive(levels, "global");
    assert_true(cJSON_GetObjectItemCaseSensitive(global, "bytes")->valuedouble == 1e9);
    assert_true(fabs(cJSON_GetObjectItemCaseSensitive(global, "predicted_ms")->valuedouble - 100) <
                1e-9);
    assert_non_null(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(levels, "compute"), "flops"));
    assert_null(cJSON_GetObjectItemCaseSensitive(levels, "constant"));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(bound, "binding")->valuestring, "global");
    assert_true(fabs(cJSON_GetObjectItemCaseSensitive(bound, "ratio")->valuedouble - 1.25) < 1e-12);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(bound, "model_error")));
    assert_null(cJSON_GetObjectItemCaseSensitive(bound, "unmodelled"));
    cJSON_Delete(o);
    strcpy(r.bound.unmodelled, "caches serving the rows");
    o = clmem_json_result(&r);
    bound = cJSON_GetObjectItemCaseSensitive(o, "bound");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(bound, "unmodelled")->valuestring,
                        "caches serving the rows");
    cJSON_Delete(o);

    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_int_equal(clmem_report_csv(out, &r, 1), CLMEM_OK);
    fclose(out);
    assert_non_null(strstr(text, ",bound_level,bound_ratio,model_error\n"));
    assert_non_null(strstr(text, ",global,1.2500,1\n"));
    free(text);

    /* The table's bound column: level, ratio, "!" for the model error. */
    out = open_memstream(&text, &size);
    assert_int_equal(clmem_report_table(out, &r, 1), CLMEM_OK);
    fclose(out);
    assert_non_null(strstr(text, " bound "));
    assert_non_null(strstr(text, "global 1.25!"));
    free(text);
}

/* A real result with its bound, written as a run file and read back:
 * every level's amount and prediction, the binding level, the ratio,
 * the phrase naming what the model leaves out. */
static void the_bound_survives_a_run_file(void **state)
{
    const struct clmem_ctx *ctx = *state;
    size_t n;
    struct clmem_result *r = run_one(state, "transpose", "padded", "33x17", &n);
    struct clmem_level_rates rates = {.copy_gbs = 1, .local_gbs = 2};
    /* A time of its own: PoCL's clock may time a kernel this small at 0,
     * which leaves no ratio to carry. */
    r[0].median_ms = r[0].min_ms = r[0].max_ms = 0.25;
    clmem_result_bound(&r[0], &rates);
    assert_true(isfinite(r[0].bound.ratio));
    assert_int_equal(r[0].bound.binding, G + 1);
    char path[] = "/tmp/clmem-test_traffic-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    assert_non_null(out);
    const struct clmem_report_meta meta = {.device = &ctx->device};
    struct clmem_error err = {0};
    assert_int_equal(clmem_report_write(out, CLMEM_FORMAT_JSON, r, 1, &meta, &err), CLMEM_OK);
    assert_int_equal(fclose(out), 0);
    struct clmem_compare_device *runs = NULL;
    size_t n_runs = 0;
    if (clmem_runfile_load(path, &runs, &n_runs, &err) != CLMEM_OK)
        fail_msg("%s", err.message);
    remove(path);
    const struct clmem_bound *a = &r[0].bound, *b = &runs[0].results[0].bound;
    for (int l = 0; l < CLMEM_BOUND_LEVELS; l++) {
        assert_true(a->amount[l] == b->amount[l]);
        assert_true(a->predicted_ms[l] > 0 ? a->predicted_ms[l] == b->predicted_ms[l]
                                           : isnan(b->predicted_ms[l]));
    }
    assert_int_equal(b->binding, a->binding);
    assert_true(b->ratio == a->ratio);
    assert_int_equal(b->model_error, a->model_error);
    assert_string_equal(a->unmodelled, "two barriers a pass over the tile");
    assert_string_equal(b->unmodelled, a->unmodelled);
    clmem_compare_devices_free(runs, n_runs);
    clmem_results_free(r, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(binding_level_is_the_slowest),
        cmocka_unit_test(model_error_is_flagged),
        cmocka_unit_test(note_names_what_is_not_counted),
        cmocka_unit_test(json_and_csv_carry_the_bound),
        cmocka_unit_test(matmul_cgma),
        cmocka_unit_test(tiles_cut_global_loads_by_the_tile),
        cmocka_unit_test(transpose_pitched_coalescing),
        cmocka_unit_test(reduce_and_dot),
        cmocka_unit_test(stencils),
        cmocka_unit_test(variants_name_what_is_not_counted),
        cmocka_unit_test(the_bound_survives_a_run_file),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
