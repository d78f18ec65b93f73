/* SUMMA (clmem_summa) under mpirun -n 2 and -n 4 (tests/meson.build), every
 * rank on PoCL's CPU device: odd sizes that are multiples of neither the
 * tile, the grid nor the panel verify on several grids, with the pieces
 * copied up from pinned shared memory (the ranks share this host), copied
 * on the host first (CLMEM_SUMMA_EXCHANGE=copy) and broadcast
 * (CLMEM_SUMMA_EXCHANGE=mpi), and every usage
 * error comes alike on every rank before any work. clmem_summa is
 * collective, so every rank runs the same cases in the same order, one
 * call each: an assertion that fails on one rank skips no collective. */
#include "mpi/ranks.h"
#include "pocl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The grid a case asks for: the ranks' squarest, one row of them, one
 * column of them, one place too many, or an explicit 0x2. */
enum grid { GRID_DEFAULT, GRID_ROW, GRID_COLUMN, GRID_TOO_MANY, GRID_HALF_GIVEN };

struct summa_case {
    const char *name;
    const char *variant, *size;
    enum grid grid;
    size_t panel;
    int status;          /* what every rank must return */
    const char *message; /* part of every rank's message when refused */
};

#define REPS 3

static const struct summa_case cases[] = {
    {"tiled_bounds odd sizes, panel 8", "tiled_bounds", "37x53x29", GRID_DEFAULT, 8, CLMEM_OK,
     NULL},
    {"regblock odd sizes, K not a panel multiple", "regblock", "45x31x70", GRID_DEFAULT, 16,
     CLMEM_OK, NULL},
    {"naive at the default panel", "naive", "20", GRID_DEFAULT, 0, CLMEM_OK, NULL},
    {"tiled on tile multiples", "tiled", "64x64x64", GRID_DEFAULT, 32, CLMEM_OK, NULL},
    {"panel kernel, K smaller than the grid", "panel", "9x10x1", GRID_DEFAULT, 0, CLMEM_OK, NULL},
    /* Blocks of over 8 groups of 256 per compute unit: on a CPU the
     * accumulation loops (cl/summa.cl), here at least on up to 4 cores. */
    {"blocks large enough for the accumulation to loop", "tiled_bounds", "300x251x24", GRID_DEFAULT,
     16, CLMEM_OK, NULL},
    {"one grid row (1xR)", "tiled_bounds", "37x53x29", GRID_ROW, 8, CLMEM_OK, NULL},
    {"one grid column (Rx1)", "coarsened", "37x53x29", GRID_COLUMN, 5, CLMEM_OK, NULL},
    {"grid not the rank count", "naive", "20", GRID_TOO_MANY, 0, CLMEM_ERR_USAGE,
     "rows x columns must be the number of ranks"},
    {"grid half given", "naive", "20", GRID_HALF_GIVEN, 0, CLMEM_ERR_USAGE,
     "give rows and columns"},
    {"variant all", "all", "20", GRID_DEFAULT, 0, CLMEM_ERR_USAGE, "SUMMA runs one variant"},
    {"variant clblast", "clblast", "20", GRID_DEFAULT, 0, CLMEM_ERR_USAGE,
     "'clblast' is a library's routine"},
    {"unknown variant", "fastest", "20", GRID_DEFAULT, 0, CLMEM_ERR_USAGE,
     "unknown variant 'fastest' of 'matmul'"},
    {"panel wider than K", "naive", "16x16x8", GRID_DEFAULT, 9, CLMEM_ERR_USAGE,
     "panel 9 is wider than the inner dimension 8"},
    {"more grid rows than rows of P", "naive", "1x64x64", GRID_COLUMN, 0, CLMEM_ERR_USAGE,
     "larger than P (1 x 64)"},
    {"bad size", "naive", "12xx3", GRID_DEFAULT, 0, CLMEM_ERR_USAGE, "size '12xx3' is not"},
    {"textbook kernel off its tile, on the device", "tiled", "37x53x29", GRID_DEFAULT, 8,
     CLMEM_ERR_USAGE, "multiple of TILE_WIDTH"},
};

/* What every case shares: this rank and its device (set in main). */
static struct {
    struct clmem_mpi mpi;
    struct clmem_ctx ctx;
} env;

static void grid_of(enum grid grid, int ranks, struct clmem_summa_options *o)
{
    switch (grid) {
    case GRID_DEFAULT: break;
    case GRID_ROW: o->grid_rows = 1, o->grid_cols = ranks; break;
    case GRID_COLUMN: o->grid_rows = ranks, o->grid_cols = 1; break;
    case GRID_TOO_MANY: o->grid_rows = ranks + 1, o->grid_cols = 1; break;
    case GRID_HALF_GIVEN: o->grid_rows = 0, o->grid_cols = 2; break;
    }
}

/* "SUMMA RxC grid, N ranks" for the grid the case runs on. */
static void expected_device(const struct clmem_summa_options *o, int ranks, char *out, size_t size)
{
    int rows = o->grid_rows, cols = o->grid_cols;
    if (rows == 0) { /* the squarest, rows <= cols: 1x2 for 2 ranks, 2x2 for 4 */
        for (int d = 1; d * d <= ranks; d++)
            if (ranks % d == 0)
                rows = d;
        cols = ranks / rows;
    }
    snprintf(out, size, "SUMMA %dx%d grid, %d rank%s", rows, cols, ranks, ranks == 1 ? "" : "s");
}

static void expect_result(const struct summa_case *c, const struct clmem_summa_options *o,
                          const struct clmem_result *r)
{
    char device[128];
    expected_device(o, env.mpi.size, device, sizeof device);
    assert_string_equal(r->workload, "matmul");
    assert_string_equal(r->variant, c->variant);
    assert_string_equal(r->size, c->size);
    assert_string_equal(r->device, device);
    if (!r->verified)
        fail_msg("%s: not verified: %s", c->name, r->verify_detail);
    assert_int_equal(r->n_samples, REPS);
    assert_true(r->median_ms > 0.0 && r->metric > 0.0);
    /* One share per rank: "...per rank: 3% 4%; exchanging...", or '-'
     * for a rank whose event clock failed its check (summa_result.c's
     * describe_shares: PoCL's can, on a loaded machine with four ranks on
     * two cores). */
    const char *shares = strstr(r->note, "not computing per rank:"),
               *end = strstr(r->note, "; exchanging up to");
    /* Every rank runs on this host: all up from pinned shared memory (PoCL
     * takes any memory for a CL_MEM_USE_HOST_PTR buffer), all copied on
     * the host first, or all broadcast. */
    const char *way = getenv("CLMEM_SUMMA_EXCHANGE");
    const char *exchange = !way                       ? ", pinned shared memory;"
                           : strcmp(way, "copy") == 0 ? ", shared memory;"
                                                      : ", MPI;";
    if (!shares || !end || !strstr(r->note, o->no_overlap ? "no overlap," : "overlapped,") ||
        !strstr(r->note, exchange))
        fail_msg("%s: note '%s' (expected '%s')", c->name, r->note, exchange);
    int n_shares = 0;
    for (const char *at = shares + strlen("not computing per rank:"); at < end;) {
        if (*at == ' ') {
            at++;
            continue;
        }
        size_t digits = strspn(at, "0123456789");
        if (*at == '-')
            at++;
        else if (digits > 0 && at[digits] == '%')
            at += digits + 1;
        else
            fail_msg("%s: note '%s': a share is neither 'N%%' nor '-'", c->name, r->note);
        n_shares++;
    }
    assert_int_equal(n_shares, env.mpi.size);
    assert_non_null(strstr(r->params, "-DTILE_WIDTH="));
}

static void run_summa_case(const struct summa_case *c, int no_overlap)
{
    struct clmem_summa_options o = {.variant = c->variant,
                                    .size = c->size,
                                    .panel = c->panel,
                                    .reps = REPS,
                                    .warmup = 1,
                                    .no_overlap = no_overlap};
    grid_of(c->grid, env.mpi.size, &o);
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_summa(&env.mpi, &env.ctx, &o, &results, &n, &err);
    if (status != c->status)
        fail_msg("%s: rank %d: status %d, not %d: %s", c->name, env.mpi.rank, status, c->status,
                 err.message);
    if (c->status == CLMEM_OK && env.mpi.rank == 0) {
        assert_int_equal(n, 1);
        expect_result(c, &o, &results[0]);
    } else {
        assert_int_equal(n, 0);
    }
    if (c->message && !strstr(err.message, c->message))
        fail_msg("%s: rank %d: message '%s' lacks '%s'", c->name, env.mpi.rank, err.message,
                 c->message);
    clmem_results_free(results, n);
    clmem_error_clear(&err);
}

static void run_case(void **state)
{
    run_summa_case(*state, 0);
}

/* Cases run again with the pieces broadcast, and without overlap, each
 * way: odd sizes, pieces narrower than the panel at the chunks' ends,
 * and more pieces than are in flight at once. */
static const struct summa_case exchange_cases[] = {
    {"odd sizes, K not a panel multiple", "regblock", "45x31x70", GRID_DEFAULT, 16, CLMEM_OK, NULL},
    {"many pieces, a row of ranks", "tiled_bounds", "37x53x29", GRID_ROW, 2, CLMEM_OK, NULL},
    {"many pieces, a column of ranks", "tiled_bounds", "37x53x29", GRID_COLUMN, 3, CLMEM_OK, NULL},
    /* Pieces of M (of N) over 2 MiB: copied from shared memory in parts,
     * each on a thread of its own (rows of M, floats of N's block). */
    {"large pieces of M, a row of ranks", "regblock", "2303x61x515", GRID_ROW, 256, CLMEM_OK, NULL},
    {"large pieces of N, a column of ranks", "tiled_bounds", "61x2303x515", GRID_COLUMN, 256,
     CLMEM_OK, NULL},
};

static void run_exchange_case(const struct summa_case *c, const char *exchange, int no_overlap)
{
    if (exchange)
        setenv("CLMEM_SUMMA_EXCHANGE", exchange, 1);
    else
        unsetenv("CLMEM_SUMMA_EXCHANGE");
    run_summa_case(c, no_overlap);
    unsetenv("CLMEM_SUMMA_EXCHANGE");
}

static void run_case_shared(void **state)
{
    run_exchange_case(*state, NULL, 0);
}

static void run_case_broadcast(void **state)
{
    run_exchange_case(*state, "mpi", 0);
}

/* Shared, each piece copied on the host into the pinned panels first. */
static void run_case_copied(void **state)
{
    run_exchange_case(*state, "copy", 0);
}

/* Each piece's exchange, copies and kernels waited for in turn. */
static void run_case_without_overlap(void **state)
{
    run_exchange_case(*state, NULL, 1);
}

static void run_case_broadcast_without_overlap(void **state)
{
    run_exchange_case(*state, "mpi", 1);
}

static int open_device(void **state)
{
    (void)state;
    test_open_device(&env.ctx);
    return 0;
}

static int close_device(void **state)
{
    (void)state;
    clmem_ctx_close(&env.ctx);
    return 0;
}

int main(int argc, char **argv)
{
    struct clmem_error err = {0};
    if (clmem_mpi_init(&argc, &argv, &env.mpi, &err)) {
        fprintf(stderr, "test_summa: %s\n", err.message);
        return 1;
    }
    /* Each exchange case under each of the ways, named "WAY: CASE". */
    static const struct {
        const char *name;
        void (*run)(void **state);
    } ways[] = {
        {"shared", run_case_shared},
        {"broadcast", run_case_broadcast},
        {"shared, copied", run_case_copied},
        {"shared, no overlap", run_case_without_overlap},
        {"broadcast, no overlap", run_case_broadcast_without_overlap},
    };
    enum { N_CASES = CLMEM_ARRAY_SIZE(cases), N_EXCHANGE = CLMEM_ARRAY_SIZE(exchange_cases) };
    struct CMUnitTest tests[N_CASES + CLMEM_ARRAY_SIZE(ways) * N_EXCHANGE];
    char names[CLMEM_ARRAY_SIZE(ways) * N_EXCHANGE][128];
    size_t n = 0;
    for (size_t i = 0; i < N_CASES; i++)
        tests[n++] = (struct CMUnitTest){
            .name = cases[i].name, .test_func = run_case, .initial_state = (void *)&cases[i]};
    for (size_t w = 0; w < CLMEM_ARRAY_SIZE(ways); w++)
        for (size_t i = 0; i < N_EXCHANGE; i++) {
            char *name = names[n - N_CASES];
            snprintf(name, sizeof names[0], "%s: %s", ways[w].name, exchange_cases[i].name);
            tests[n++] = (struct CMUnitTest){.name = name,
                                             .test_func = ways[w].run,
                                             .initial_state = (void *)&exchange_cases[i]};
        }
    char group[64];
    snprintf(group, sizeof group, "summa, rank %d of %d", env.mpi.rank, env.mpi.size);
    int failed = cmocka_run_group_tests_name(group, tests, open_device, close_device);
    clmem_mpi_finalize(&env.mpi);
    return failed;
}
