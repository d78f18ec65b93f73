/* matmul: every variant against the CPU reference on PoCL, square and
 * rectangular, tile multiples and not.
 *
 * usage: test_matmul [long]
 * PoCL takes a minute or more on 2 cores to build matmul_regblock.cl, once
 * for each set of the flags that the variants run and the size give it
 * (REGBLOCK_DIRECT, REGBLOCK_PADDED, FULL_TILES, K_FULL, VEC_ALIGNED).
 * Without an argument (meson test matmul) every variant is checked at
 * sizes off every tile, all variants at once (one build of that file for
 * regblock and regblock_padded) and --variant auto's choices (whatever
 * they build): each build of it took 4 to 6 minutes on 2 cores under a
 * load of 6, and three made the default meson test 15 minutes. 'long'
 * (meson test matmul_long, suite long) checks regblock alone off tile and
 * at whole tiles, regblock_padded alone and each stream-K case (a build
 * for each other set of flags), and splitk cut as tuning databases say
 * (a build for each cut).
 */
#include "pocl.h"
#include "io/io.h"
#include "workloads/matmul.h"
#include "workloads/registry.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* matmul's kernel variants: what "all" runs on a CPU (the libraries' join
 * only with --compare; auto, which runs one of the others, only named). */
static size_t kernel_variants(void)
{
    const struct clmem_workload *w = clmem_workload_find("matmul");
    struct clmem_workload_info info;
    clmem_workload_describe(w, &info);
    size_t n = 0;
    for (size_t i = 0; i < info.n_variants; i++) {
        struct clmem_variant_info v;
        clmem_variant_describe(w, i, &v);
        n += v.library == NULL && strcmp(v.name, "auto") != 0;
    }
    return n;
}

static const char *const any_sizes[] = {"1", "7", "16", "33", "100x37x65", "256", "5x1x9"};

static void naive_verifies_any_size(void **state)
{
    for (size_t i = 0; i < sizeof any_sizes / sizeof *any_sizes; i++)
        test_expect_verified(*state, "matmul", "naive", any_sizes[i]);
}

static void tiled_bounds_verifies_any_size(void **state)
{
    for (size_t i = 0; i < sizeof any_sizes / sizeof *any_sizes; i++)
        test_expect_verified(*state, "matmul", "tiled_bounds", any_sizes[i]);
}

static void coarsened_verifies_any_size(void **state)
{
    for (size_t i = 0; i < sizeof any_sizes / sizeof *any_sizes; i++)
        test_expect_verified(*state, "matmul", "coarsened", any_sizes[i]);
    /* Wider than one work-group's COARSE_FACTOR tiles, with a ragged last one. */
    test_expect_verified(*state, "matmul", "coarsened", "20x300x40");
}

/* regblock at sizes that no tile divides, K and N no multiples of 4 either
 * (FULL_TILES and K_FULL 0, VEC_ALIGNED 1: one build for them all); then
 * K and N even, not multiples of 4 (VEC_ALIGNED 2: float2s, checked where
 * a block crosses P's edge). */
static void regblock_verifies_off_tile(void **state)
{
    static const char *const sizes[] = {"1",     "7",         "33",       "100x37x65",
                                        "5x1x9", "130x66x35", "130x66x34"};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        test_expect_verified(*state, "matmul", "regblock", sizes[i]);
}

/* Full tiles (the vector-load path without bounds checks); "16" (16x16x16:
 * K and N multiples of 4, the tiles cut) checks its float4s whole. */
static void regblock_verifies_whole_tiles(void **state)
{
    static const char *const sizes[] = {"16", "256", "32x128x16", "256x256x64"};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        test_expect_verified(*state, "matmul", "regblock", sizes[i]);
}

/* regblock on copies padded to whole tiles (this PoCL's row: 16 x 64 by
 * 8): padded in every dimension, in one, and none (256x256x64: multiplied
 * in place). */
static void regblock_padded_verifies_any_size(void **state)
{
    for (size_t i = 0; i < sizeof any_sizes / sizeof *any_sizes; i++)
        test_expect_verified(*state, "matmul", "regblock_padded", any_sizes[i]);
    test_expect_verified(*state, "matmul", "regblock_padded", "256x256x64");
    test_expect_verified(*state, "matmul", "regblock_padded", "130x128x64");
    test_expect_verified(*state, "matmul", "regblock_padded", "128x66x64");
    test_expect_verified(*state, "matmul", "regblock_padded", "128x128x35");
}

/* `variant`'s result among the n of a run at `size` ('blocks' blocks of
 * this PoCL's row, 16 x 64, a work-group per core) verified in every block,
 * and its note says that the stream-K plan ran, or that none did where the
 * waves are whole. */
static void check_stream_k(const struct clmem_ctx *ctx, const struct clmem_result *results,
                           size_t n, const char *variant, const char *size, size_t blocks)
{
    const struct clmem_result *r = test_find_result(results, n, variant);
    assert_true(r->verified);
    char expected[96];
    size_t units = ctx->device.compute_units;
    snprintf(expected, sizeof expected, "stream-K: %zu work-groups share %zu of %zu blocks", units,
             units + blocks % units, blocks);
    if (blocks % units ? !strstr(r->note, expected) : strstr(r->note, "stream-K") != NULL)
        fail_msg("%s %s: note '%s', expected '%s'", variant, size, r->note,
                 blocks % units ? expected : "no stream-K");
}

/* Runs `variant` (or all, checking regblock and regblock_padded) at
 * `size` and checks its stream-K as check_stream_k does. */
static void expect_stream_k(struct clmem_ctx *ctx, const char *variant, const char *size,
                            size_t blocks)
{
    struct clmem_result *results = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    if (clmem_run_workload(ctx, "matmul", variant, size, 1, &results, &n, &err) != CLMEM_OK)
        fail_msg("%s %s: %s", variant, size, err.message);
    if (strcmp(variant, "all") == 0) {
        check_stream_k(ctx, results, n, "regblock", size, blocks);
        check_stream_k(ctx, results, n, "regblock_padded", size, blocks);
    } else {
        check_stream_k(ctx, results, n, variant, size, blocks);
    }
    clmem_results_free(results, n);
    clmem_error_clear(&err);
}

/* Stream-K: 421 blocks, a prime, so that on any number of cores from 2 up
 * the last wave is part full and the groups of the first share its blocks
 * and the whole wave's before it, summed by the last of each block's
 * groups to finish; K steps 3 and 37 (one group then holds parts of one,
 * two or three blocks). */
static void regblock_padded_stream_k_verifies(void **state)
{
    if (((struct clmem_ctx *)*state)->device.compute_units < 2)
        skip(); /* one group at a time: every wave is whole */
    static const char *const sizes[] = {"6736x64x24", "6736x64x296", "6736x50x290"};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        expect_stream_k(*state, "regblock_padded", sizes[i], 421);
}

/* regblock's stream-K (MatrixMulStreamKChecked), where P
 * and K are not whole tiles: the shared blocks are whole ones, those
 * across P's bottom and right edges each a group of their own, checked.
 * 6735 rows: 421 blocks of 16, the last 15 rows; K 300 and 290, not whole
 * K steps; 130 and 132 columns: three blocks of 64 across, the last 2 and
 * 4 wide (130 and 290: rows not float4-aligned, so vload4 throughout).
 * 1263 blocks is 3 x 421: on 3 cores (or 421) the waves are whole, and
 * the note must say no stream-K. */
static void regblock_stream_k_verifies(void **state)
{
    if (((struct clmem_ctx *)*state)->device.compute_units < 2)
        skip();
    expect_stream_k(*state, "regblock", "6736x64x296", 421);
    expect_stream_k(*state, "regblock", "6735x64x300", 421);
    expect_stream_k(*state, "regblock", "6735x130x290", 1263);
    expect_stream_k(*state, "regblock", "6735x132x296", 1263);
}

/* splitk at any size, as its plan takes each on this PoCL (its CPU row,
 * 16 x 64, mostly one K slice: a core a block is as fast), beside sizes
 * that reach the kernel's edges: blocks across both of P's edges and
 * inside it, K not a multiple of 4 (vload4) nor of the K step, K and N
 * even (float2s: 34x66x70, and 6x10x4098 in slices), a thin M and N,
 * whole tiles; and K-heavy ones, which it splits on two cores or more
 * (one block: a slice a core), so that the second pass runs. */
static void splitk_verifies_any_size(void **state)
{
    for (size_t i = 0; i < sizeof any_sizes / sizeof *any_sizes; i++)
        test_expect_verified(*state, "matmul", "splitk", any_sizes[i]);
    static const char *const sizes[] = {"33x65x1031", "7x1000x333", "3x200x700",
                                        "130x66x35",  "64x64x64",   "16x16x4096",
                                        "5x3x2000",   "34x66x70",   "6x10x4098"};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        test_expect_verified(*state, "matmul", "splitk", sizes[i]);
}

/* The value of `-DNAME=` in a result's parameters; fails without it. */
static int param_of(const struct clmem_result *r, const char *name)
{
    char key[48];
    snprintf(key, sizeof key, "-D%s=", name);
    const char *at = strstr(r->params, key);
    if (!at)
        fail_msg("%s %s: no %s in its parameters '%s'", r->variant, r->size, key, r->params);
    return atoi(at + strlen(key));
}

/* splitk's clamped float4 loads (K and N multiples of 4, blocks across
 * P's bottom edge: SPLITK_ALIGNED 4, SPLITK_EDGE 1), in whole K steps
 * (33x68x16) and before a partial last one: K not a multiple of the K
 * step, whose tail must read checked, as the parameters the run reports
 * say (its rows are read back from them, never assumed). On PoCL a load
 * of the row past M reads values that reach only P's rows past its edge:
 * tests/test_oclgrind.sh (oclgrind_edges) sees that one; a K tail read
 * clamped or whole fails the check here, at every size but the first. */
static void splitk_clamped_edges_verify(void **state)
{
    struct clmem_ctx *ctx = *state;
    static const char *const sizes[] = {"33x68x16", "33x68x20", "17x132x100",
                                        "65x8x36",  "40x72x12", "3x200x700"};
    char wrong[1024] = "";
    size_t len = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        struct clmem_error err = {0};
        struct clmem_result *results = NULL;
        size_t n = 0;
        int status = clmem_run_workload(ctx, "matmul", "splitk", sizes[i], 1, &results, &n, &err);
        if ((status != CLMEM_OK && status != CLMEM_ERR_VERIFY) || n != 1)
            fail_msg("splitk %s: status %d: %s", sizes[i], status, err.message);
        clmem_error_clear(&err);
        const struct clmem_result *r = &results[0];
        size_t m, cols, k;
        assert_int_equal(sscanf(sizes[i], "%zux%zux%zu", &m, &cols, &k), 3);
        size_t tsm = (size_t)param_of(r, "SPLITK_TSM"), tsk = (size_t)param_of(r, "SPLITK_TSK");
        /* The clamped path, a block across P's bottom edge, and (but for
         * the first) a K tail. */
        if (param_of(r, "SPLITK_ALIGNED") != 4 || param_of(r, "SPLITK_EDGE") != 1 || m % tsm == 0 ||
            (i == 0) != (k % tsk == 0))
            fail_msg("splitk %s no longer reaches the clamped loads %s (parameters '%s')", sizes[i],
                     i == 0 ? "in whole K steps" : "before a K tail", r->params);
        if (!r->verified && len < sizeof wrong)
            len += (size_t)snprintf(wrong + len, sizeof wrong - len,
                                    "\nsplitk %s: not verified, max error %g: %.200s", sizes[i],
                                    r->max_rel_error, r->verify_detail);
        clmem_results_free(results, n);
    }
    if (len)
        fail_msg("%s", wrong);
}

/* The stream-K plan's boundary: regblock shares only whole blocks of P,
 * so it runs the plan where the blocks its groups share (g + blocks % g,
 * g groups) are at most P's whole blocks, and exactly that many is the
 * boundary. P of (2g - 2) x 1 whole blocks of this device's tile (as
 * its parameters say) plus a row and a column: 2 x (2g - 1) blocks, g - 2
 * in the last wave, so the groups share 2g - 2, every whole block. Every
 * variant at once, off every tile, K 37: the flags of the other runs of
 * every variant here (no other build of regblock's file); regblock_padded
 * runs the plan too. The plan reads the
 * device's compute units: at least 3 here (a copy of the device with 3
 * where it has fewer: on 2 no size off the tiles reaches the boundary),
 * whatever runs the groups. */
static void regblock_stream_k_at_its_boundary(void **state)
{
    struct clmem_ctx *ctx = *state;
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    assert_int_equal(clmem_run_workload(ctx, "matmul", "naive", "9", 1, &results, &n, &err),
                     CLMEM_OK);
    size_t tsm = (size_t)param_of(&results[0], "TSM"), tsn = (size_t)param_of(&results[0], "TSN");
    clmem_results_free(results, n);
    struct clmem_ctx device = *ctx;
    size_t g = device.device.compute_units < 3 ? 3 : device.device.compute_units;
    device.device.compute_units = (cl_uint)g;
    char size[64];
    snprintf(size, sizeof size, "%zux%zux37", tsm * (2 * g - 2) + 1, tsn + 1);
    expect_stream_k(&device, "all", size, 2 * (2 * g - 1));
}

/* llvmpipe's loop limit, as its planner reads it (a device named so; no
 * launch): regblock runs K up to 4088 there with its row, 16x64x4096 is
 * refused before any work (tests/test_loop_limit.c runs both on llvmpipe
 * itself: 4096 failed its check there before the refusal). */
static void regblock_refused_past_llvmpipe_loop_limit(void **state)
{
    struct clmem_ctx llvmpipe = *(struct clmem_ctx *)*state;
    snprintf(llvmpipe.device.name, sizeof llvmpipe.device.name, "llvmpipe (LLVM 15.0.6, 256 bits)");
    llvmpipe.device.compute_units = 8;
    static const struct {
        const char *size;
        int status;
    } cases[] = {{"16x64x4088", CLMEM_OK}, {"16x64x4096", CLMEM_ERR_USAGE}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct clmem_error err = {0};
        struct clmem_run run;
        struct clmem_run_options options = {.size = cases[i].size, .variant = "regblock"};
        int status = clmem_run_plan(&run, clmem_workload_find("matmul"), &llvmpipe, &options, &err);
        if (status != cases[i].status ||
            (status != CLMEM_OK && !strstr(err.message, "loop limiter")))
            fail_msg("regblock %s on '%s': status %d (expected %d): %s", cases[i].size,
                     llvmpipe.device.name, status, cases[i].status,
                     status ? err.message : "planned");
        clmem_run_release(&run);
        clmem_error_clear(&err);
    }
}

/* Stores what a tune of `variant` found at `size` on the device. */
static void store_tuned(const struct clmem_ctx *ctx, const char *variant, const char *size,
                        const char *const names[], const int values[], size_t n, double metric);

/* splitk in as many K slices as the tuning database says (a tuned
 * setting fixes the tile and the slices), the slices cut to whole K
 * steps: each verifies, and its note says how it was cut. 33x65x1031: 9
 * blocks across both edges (K 3 mod 4: vload4), 7 slices of 19 steps of 8
 * (the last of 15, the last step partial); 130x66x35: more slices asked
 * than the 9 K steps of 4, so one a step; 36x68x1536: aligned, whole
 * blocks and blocks across the edges, 12 slices of 8 steps of 16; 5x9x2001:
 * 45 values (the second pass's float-by-float tail), 32 slices; 64x64x64:
 * whole tiles everywhere, 3 slices of 3, 3 and 2 steps; 33x97x601: a
 * tile cut to a thin P's 36 rows (9 work-items down, as splitk_fitted cuts
 * it), 41x33x301: 36 columns (9 across, as a tuned tile may have), K and N
 * odd in both; 20x40x520: 8 slices asked of 33 K steps, which slices of 5
 * fill 7 of (it ran no plan, a division by zero, before); 37x130x700: a
 * tile cut as splitk_fitted's second way cuts one (rows a multiple of its
 * work-item's 8, 5 work-items down, K steps of 16), K's last step partial,
 * N even but not a multiple of 4. */
static void splitk_slices_verify(void **state)
{
    struct clmem_ctx *ctx = *state;
    static const char *const names[] = {"SPLITK_TSM",  "SPLITK_TSN",  "SPLITK_TSK",
                                        "SPLITK_WPTM", "SPLITK_WPTN", "SPLITK_SPLITS"};
    static const struct {
        const char *size;
        int values[6];
        const char *note;
    } cases[] = {
        {"33x65x1031",
         {16, 32, 8, 4, 4, 7},
         "split-K: 16x32 tiles, 9 blocks, K in 7 slices of 19 steps: 63 work-groups"},
        {"130x66x35",
         {32, 32, 4, 4, 4, 32},
         "split-K: 32x32 tiles, 15 blocks, K in 9 slices of 1 step: 135 work-groups"},
        {"36x68x1536",
         {32, 64, 16, 4, 4, 12},
         "split-K: 32x64 tiles, 4 blocks, K in 12 slices of 8 steps: 48 work-groups"},
        {"5x9x2001",
         {16, 32, 4, 4, 4, 32},
         "split-K: 16x32 tiles, 1 block, K in 32 slices of 16 steps: 32 work-groups"},
        {"64x64x64",
         {64, 64, 8, 8, 8, 3},
         "split-K: 64x64 tiles, 1 block, K in 3 slices of 3 steps: 3 work-groups"},
        {"33x97x601",
         {36, 64, 8, 4, 4, 3},
         "split-K: 36x64 tiles, 2 blocks, K in 3 slices of 26 steps: 6 work-groups"},
        {"41x33x301",
         {32, 36, 8, 4, 4, 2},
         "split-K: 32x36 tiles, 2 blocks, K in 2 slices of 19 steps: 4 work-groups"},
        {"20x40x520",
         {16, 32, 16, 4, 4, 8},
         "split-K: 16x32 tiles, 4 blocks, K in 7 slices of 5 steps: 28 work-groups"},
        {"37x130x700",
         {40, 64, 16, 8, 8, 3},
         "split-K: 40x64 tiles, 3 blocks, K in 3 slices of 15 steps: 9 work-groups"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        store_tuned(ctx, "splitk", cases[i].size, names, cases[i].values, 6, 1.0);
        struct clmem_error err = {0};
        struct clmem_result *results = NULL;
        size_t n = 0;
        if (clmem_run_workload(ctx, "matmul", "splitk", cases[i].size, 1, &results, &n, &err) !=
            CLMEM_OK)
            fail_msg("splitk %s: %s", cases[i].size, err.message);
        if (!results[0].verified || strncmp(results[0].note, cases[i].note, strlen(cases[i].note)))
            fail_msg("splitk %s: verified %d, note '%s', expected it to start '%s'", cases[i].size,
                     results[0].verified, results[0].note, cases[i].note);
        assert_non_null(strstr(results[0].params, "-DSPLITK_SPLITS="));
        /* 36x68x1536 is the one of K and N multiples of 4 with blocks
         * across P's edge: splitk's clamped loads (SPLITK_EDGE 1, float4
         * rows); 64x64x64 the one of whole blocks, none crossing it. */
        if (strcmp(cases[i].size, "36x68x1536") == 0)
            assert_non_null(strstr(results[0].params, "-DSPLITK_ALIGNED=4 -DSPLITK_EDGE=1"));
        if (strcmp(cases[i].size, "64x64x64") == 0)
            assert_non_null(strstr(results[0].params, "-DSPLITK_EDGE=0"));
        clmem_results_free(results, n);
    }
    /* The other tests expect no entries. */
    struct clmem_error err = {0};
    size_t removed = 0;
    assert_int_equal(clmem_tuning_db_remove(ctx->device.name, "matmul", &removed, &err), CLMEM_OK);
    assert_true(removed >= 1);
}

/* Both stream-K kernels in one run of every variant, at a size whose flags
 * are those of the other runs of every variant here (regblock_stream_k_
 * verifies's last but one size: 1263 blocks, rows, K and columns not whole
 * tiles, K not a multiple of 4). */
static void stream_k_verifies_beside_every_variant(void **state)
{
    if (((struct clmem_ctx *)*state)->device.compute_units < 2)
        skip();
    expect_stream_k(*state, "all", "6735x130x290", 1263);
}

/* Copies padded to any tile (up to 256 rows and columns more) of a P of
 * 9000000 x 1 would pass the kernels' int indices: refused before any
 * work, pointing at regblock, which runs it. */
static void regblock_padded_refused_past_int_indices(void **state)
{
    test_expect_refused(*state, "matmul", "regblock_padded", "9000000x1x1",
                        "'regblock' runs this size unpadded");
}

static void panel_verifies_any_size(void **state)
{
    for (size_t i = 0; i < sizeof any_sizes / sizeof *any_sizes; i++)
        test_expect_verified(*state, "matmul", "panel", any_sizes[i]);
    /* Whole panels (rows a multiple of 8, columns of 16: the unguarded
     * path) and ragged ones in both directions. */
    test_expect_verified(*state, "matmul", "panel", "64x32x16");
    test_expect_verified(*state, "matmul", "panel", "72x48x5");
    test_expect_verified(*state, "matmul", "panel", "73x49x5");
}

/* cpu_blocked: packed panels of MR rows and NR columns (on this PoCL 12 and
 * 32, AVX-512's row; AVX2's 6 and 16 under Oclgrind), zero-padded, and
 * guarded stores in the last micro-tiles: sizes below one micro-tile, one
 * past it, a prime, rectangular both ways, K below and past the vector
 * width (PackM's partial last block of k). */
static void cpu_blocked_verifies_any_size(void **state)
{
    static const char *const sizes[] = {
        "1",      "7",        "33",       "97",      "37x53x29",  "130x66x35", "5x1x9",
        "1x40x3", "12x32x16", "24x64x17", "25x65x1", "100x37x65", "61x250x31", "256"};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        test_expect_verified(*state, "matmul", "cpu_blocked", sizes[i]);
    /* Its parameters follow the workload's in the result. */
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    assert_int_equal(
        clmem_run_workload(*state, "matmul", "cpu_blocked", "8", 1, &results, &n, &err), CLMEM_OK);
    assert_non_null(strstr(results[0].params, "-DTILE_WIDTH="));
    assert_non_null(strstr(results[0].params, " -DCPU_VEC="));
    assert_non_null(strstr(results[0].params, " -DCPU_MR="));
    clmem_results_free(results, n);
}

/* --variant auto through the library call: one result, named "auto",
 * verified at odd sizes, its note naming the variant that the rules choose
 * for this device and why, as matmul_auto_choose says (no tuning database
 * here: each test has a cache directory of its own). */
static void auto_verifies_and_names_its_choice(void **state)
{
    struct clmem_ctx *ctx = *state;
    static const size_t sizes[][3] = {{1, 1, 1},     {33, 7, 5},   {129, 65, 31},
                                      {7, 130, 301}, {256, 1, 64}, {1000, 777, 333}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const size_t *d = sizes[i];
        char size[64], why[160], expected[200];
        snprintf(size, sizeof size, "%zux%zux%zu", d[0], d[1], d[2]);
        const char *chosen = matmul_auto_choose(&ctx->device, d[0], d[1], d[2], why, sizeof why);
        snprintf(expected, sizeof expected, "auto: %s (%s)", chosen, why);
        struct clmem_error err = {0};
        struct clmem_result *results = NULL;
        size_t n = 0;
        if (clmem_run_workload(ctx, "matmul", "auto", size, 1, &results, &n, &err) != CLMEM_OK)
            fail_msg("auto %s: %s", size, err.message);
        assert_int_equal(n, 1);
        assert_string_equal(results[0].variant, "auto");
        if (!results[0].verified || strncmp(results[0].note, expected, strlen(expected)))
            fail_msg("auto %s: verified %d, note '%s', expected it to start '%s'", size,
                     results[0].verified, results[0].note, expected);
        /* The chosen variant's parameters, as it runs alone. */
        assert_non_null(strstr(results[0].params, "-DTILE_WIDTH="));
        clmem_results_free(results, n);
        clmem_error_clear(&err);
    }
}

/* A device as the chooser reads it: type, compute units, the limits that
 * fit regblock's rows, memory, vendor and family. */
static struct clmem_device made_up_device(cl_device_type type, const char *vendor,
                                          const char *family, cl_uint units)
{
    struct clmem_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "made-up %s", family);
    snprintf(d.vendor, sizeof d.vendor, "%s", vendor);
    snprintf(d.platform_name, sizeof d.platform_name, "%s", vendor);
    snprintf(d.family, sizeof d.family, "%s", family);
    d.type = type;
    d.compute_units = units;
    d.global_mem = (cl_ulong)80 << 30;
    d.max_alloc = (cl_ulong)20 << 30;
    d.local_mem = 48 << 10;
    d.max_work_group = 1024;
    return d;
}

static void expect_choice(const struct clmem_device *d, size_t m, size_t n, size_t k,
                          const char *variant, const char *because)
{
    char why[160];
    const char *chosen = matmul_auto_choose(d, m, n, k, why, sizeof why);
    if (strcmp(chosen, variant) || (because && !strstr(why, because)))
        fail_msg("%s at %zux%zux%zu: auto chose %s (%s), expected %s%s%s", d->name, m, n, k, chosen,
                 why, variant, because ? " because of " : "", because ? because : "");
}

/* The rule table's choices, as docs/workloads.md gives them: an H100 or
 * H200 (sm_90, 132 units) at the shapes bench/sgemm/ measured, a CPU, a
 * device that is neither, and a variant whose copies do not fit. */
static void auto_chooser_follows_the_rules(void **state)
{
    (void)state;
    struct clmem_device h100 =
        made_up_device(CL_DEVICE_TYPE_GPU, "NVIDIA Corporation", "sm_90", 132);
    /* Whole tiles: regblock, the same kernel without copies. */
    expect_choice(&h100, 4096, 4096, 4096, "regblock", "whole 256x128x8 tiles");
    expect_choice(&h100, 8192, 8192, 8192, "regblock", "whole");
    expect_choice(&h100, 16384, 256, 4096, "regblock", "whole");
    expect_choice(&h100, 256, 16384, 4096, "regblock", "whole");
    /* Rows of M or N off float4s: padded, while padding costs less than
     * regblock's vload4 path loses. */
    expect_choice(&h100, 4001, 4001, 4001, "regblock_padded", "K=4001 not a multiple of 4");
    expect_choice(&h100, 4097, 4097, 4097, "regblock_padded", "K=4097 not a multiple of 4");
    expect_choice(&h100, 7919, 7919, 7919, "regblock_padded", "not a multiple of 4");
    expect_choice(&h100, 8192, 8190, 8192, "regblock_padded", "N=8190 not a multiple of 4");
    /* A last wave regblock cannot share: 192 blocks on 132 units. */
    expect_choice(&h100, 6144, 1000, 4096, "regblock_padded", "N=1000 not a multiple of 128");
    expect_choice(&h100, 6144, 1000, 4096, "regblock_padded", "last wave 45% full");
    /* Aligned, tiles cut: padded only where it costs little (8000),
     * regblock where its copies cost more than its edges (4000,
     * 3000x5000x2000, 4224x4096x4096). */
    expect_choice(&h100, 8000, 8000, 8000, "regblock_padded", "M=8000 not a multiple of 256");
    expect_choice(&h100, 4000, 4000, 4000, "regblock", "padding ~10%");
    expect_choice(&h100, 3000, 5000, 2000, "regblock", NULL);
    expect_choice(&h100, 4224, 4096, 4096, "regblock", NULL);
    /* Fewer of regblock's blocks than compute units: splitk, where its
     * model finds it faster (the thin, K-heavy, small and odd shapes the
     * issue measured at 0.16-0.84 of cuBLAS). */
    expect_choice(&h100, 64, 8192, 8192, "splitk", "64 blocks of 64x128 for 132 compute units");
    expect_choice(&h100, 64, 8192, 8192, "splitk", "64x256 tiles in 8 K slices");
    expect_choice(&h100, 128, 8192, 8192, "splitk", "128x256 tiles in 4 K slices");
    expect_choice(&h100, 777, 1234, 5678, "splitk", "70 blocks of 128x128");
    expect_choice(&h100, 1536, 1536, 1536, "splitk", "72 blocks of 256x128");
    expect_choice(&h100, 1536, 1536, 1536, "splitk", "256x128 tiles in 5 K slices");
    /* 1024: 128 of regblock's 64x128 blocks, one a unit, where 256x128
     * in 4 slices ran 8% faster (bench/sgemm/shapes/h200-sweep/). */
    expect_choice(&h100, 1024, 1024, 1024, "splitk", "256x128 tiles in 4 K slices");
    expect_choice(&h100, 512, 512, 16384, "splitk", "K slices");
    expect_choice(&h100, 128, 8192, 8192, "splitk", NULL);
    expect_choice(&h100, 8192, 32, 8192, "splitk", NULL);
    expect_choice(&h100, 100, 100, 100, "splitk", "2 blocks of 64x128");
    expect_choice(&h100, 8192, 5, 8192, "splitk", NULL);
    /* Where splitk's plan is regblock's own kernel (2001, 2048: 128
     * blocks of 256x128, one slice), regblock's rules; as where its
     * blocks fill the units. */
    expect_choice(&h100, 2001, 2001, 2001, "regblock_padded", NULL);
    expect_choice(&h100, 2048, 2048, 2048, "regblock", "whole 256x128x8 tiles");
    /* The H200 is an sm_90 of 132 units too: the same choices. */
    struct clmem_device h200 =
        made_up_device(CL_DEVICE_TYPE_GPU, "NVIDIA Corporation", "sm_90", 132);
    snprintf(h200.name, sizeof h200.name, "NVIDIA H200");
    expect_choice(&h200, 6144, 1000, 4096, "regblock_padded", NULL);
    expect_choice(&h200, 4096, 4096, 4096, "regblock", NULL);
    /* Padded copies that would not fit the device: regblock, saying so. */
    struct clmem_device small = h100;
    small.global_mem = (cl_ulong)256 << 20;
    small.max_alloc = (cl_ulong)64 << 20;
    expect_choice(&small, 4001, 4001, 4001, "regblock", "regblock_padded does not fit");
    /* A GPU of another vendor takes the GPU rules with its own tiles (the
     * any-GPU row, 64x64x16, no stream-K). */
    struct clmem_device amd =
        made_up_device(CL_DEVICE_TYPE_GPU, "Advanced Micro Devices, Inc.", "gfx90a", 110);
    expect_choice(&amd, 4096, 4096, 4096, "regblock", "whole 64x64x16 tiles");
    expect_choice(&amd, 4001, 4001, 4001, "regblock_padded", "K=4001 not a multiple of 4");
    /* CPUs: cpu_blocked at every size, panel where its packed copies do
     * not fit the largest allocation. */
    struct clmem_device cpu = made_up_device(CL_DEVICE_TYPE_CPU, "AuthenticAMD", "cpu-simd256", 2);
    expect_choice(&cpu, 1, 1, 1, "cpu_blocked", "a CPU");
    expect_choice(&cpu, 1000, 777, 333, "cpu_blocked", "a CPU");
    expect_choice(&cpu, 4096, 4096, 4096, "cpu_blocked", NULL);
    cpu.max_alloc = 1 << 20;
    expect_choice(&cpu, 1000, 777, 333, "panel", "cpu_blocked does not fit");
    /* Neither a CPU nor a GPU: regblock, which has a row for any device. */
    struct clmem_device accel = made_up_device(CL_DEVICE_TYPE_ACCELERATOR, "Some Vendor", "", 16);
    expect_choice(&accel, 4001, 4001, 4001, "regblock", "neither a CPU nor a GPU");
}

/* auto's choice as a model's: with CLMEM_DEBUG, each GPU candidate's
 * estimate beside the choice, the chosen one the fastest that fits
 * (ties to splitk, then regblock's kernel without copies). */
static void expect_estimates(const struct clmem_device *d, size_t m, size_t n, size_t k,
                             const char *first, const char *choice, const char *line_part)
{
    char path[] = "/tmp/clmem-auto-debug-XXXXXX", why[160], text[2048] = "";
    int fd = mkstemp(path), saved = dup(2);
    assert_true(fd >= 0 && saved >= 0);
    fflush(stderr);
    dup2(fd, 2);
    setenv("CLMEM_DEBUG", "1", 1);
    const char *chosen = matmul_auto_choose(d, m, n, k, why, sizeof why);
    unsetenv("CLMEM_DEBUG");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    FILE *f = fopen(path, "r");
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
    close(fd);
    unlink(path);
    const char *line = strstr(text, "auto's model (time over the product's at the SGEMM rate): ");
    if (!line || strcmp(chosen, choice) ||
        strncmp(line + strlen("auto's model (time over the product's at the SGEMM rate): "),
                first, strlen(first)) ||
        !strstr(line, line_part))
        fail_msg("%s at %zux%zux%zu: chose %s, expected %s (%s first) with '%s' in:\n%s",
                 d->name, m, n, k, chosen, choice, first, line_part, text);
}

static void auto_weighs_each_candidate(void **state)
{
    (void)state;
    struct clmem_device h100 =
        made_up_device(CL_DEVICE_TYPE_GPU, "NVIDIA Corporation", "sm_90", 132);
    /* Whole tiles: regblock and padded tie at the product's time; splitk,
     * with every unit busy, is not weighed. */
    expect_estimates(&h100, 4096, 4096, 4096, "regblock", "regblock",
                     "regblock 1.000 regblock_padded 1.000 splitk inf (not a candidate)");
    /* Few blocks, long K: splitk's plan well under regblock's time. */
    expect_estimates(&h100, 64, 8192, 8192, "splitk", "splitk", "splitk 0.");
    /* Off float4s: padded below regblock's 1 + its loss. */
    expect_estimates(&h100, 4001, 4001, 4001, "regblock_padded", "regblock_padded",
                     "regblock_padded 1.");
    /* Padded copies that do not fit: the next estimate, regblock. */
    struct clmem_device small = h100;
    small.global_mem = (cl_ulong)256 << 20;
    small.max_alloc = (cl_ulong)64 << 20;
    expect_estimates(&small, 4001, 4001, 4001, "regblock_padded", "regblock", "regblock 1.");
}

/* A fitted device's row as the fitted file holds it. */
#define FITTED_ROW(table, values)                                                                  \
    "{\"workload\": \"matmul\", \"table\": \"" table "\", \"type\": \"gpu\", \"values\": {" values   \
    "}, \"provenance\": {\"device\": \"made-up fitted\", \"driver\": \"1\", \"date\": "           \
    "\"2026-12-07\", \"command\": \"clmem tune\", \"note\": \"test\"}}"

/* Past one wave: a device whose fitted rows give regblock a small tile
 * for a thin P (147 blocks of 32x32 for 132 units) and a wide tile at
 * 2.7 times its rate: the model weighs splitk's plan of the wide tile
 * in K slices against regblock's two waves of the slow one, and runs
 * splitk; where the wide tile is regblock's own (a big square), regblock.
 * Before, splitk was weighed only where regblock's blocks were fewer than
 * the units. */
static void auto_weighs_a_faster_tile_past_one_wave(void **state)
{
    (void)state;
    char dir[1024], path[1100];
    const char *why;
    assert_int_equal(clmem_params_fitted_dir(dir, sizeof dir, &why), 0);
    assert_int_equal(clmem_state_mkdir(dir), 0);
    snprintf(path, sizeof path, "%s/device-made-up-fitted.json", dir);
    const char *text =
        "{\"format\": 1, \"level\": \"device\", \"match\": \"made-up fitted\", \"comment\": "
        "\"test\", \"rows\": ["
        FITTED_ROW("regblock", "\"TSM\": 128, \"TSN\": 256, \"TSK\": 16, \"WPTM\": 16, "
                               "\"WPTN\": 4, \"SK_UNITS\": 0") ", "
        FITTED_ROW("regblock", "\"TSM\": 32, \"TSN\": 32, \"TSK\": 8, \"WPTM\": 4, \"WPTN\": 4, "
                               "\"SK_UNITS\": 0") ", "
        FITTED_ROW("auto_rates", "\"flops\": 4.6e13, \"bytes\": 3e12, \"launch_s\": 3.7e-6") ", "
        FITTED_ROW("splitk_rates", "\"unit_flops\": 3.5e11, \"mhz\": 1980, \"bytes\": 3e12, "
                                   "\"launch_s\": 3.7e-6") ", "
        FITTED_ROW("splitk", "\"SPLITK_TSM\": 128, \"SPLITK_TSN\": 256, \"SPLITK_TSK\": 16, "
                             "\"SPLITK_WPTM\": 16, \"SPLITK_WPTN\": 4, \"RATE1\": 935, "
                             "\"RATEU\": 935, \"UNITS\": 4") ", "
        FITTED_ROW("splitk", "\"SPLITK_TSM\": 32, \"SPLITK_TSN\": 32, \"SPLITK_TSK\": 8, "
                             "\"SPLITK_WPTM\": 4, \"SPLITK_WPTN\": 4, \"RATE1\": %d, "
                             "\"RATEU\": %d, \"UNITS\": 4") ", "
        FITTED_ROW("auto_thresholds", "\"splitk_ratio\": 0.95, \"unaligned_loss\": 0.11, "
                                      "\"aligned_loss\": 0.07")
        "]}";
    struct clmem_device d = made_up_device(CL_DEVICE_TYPE_GPU, "Some GPU Vendor", "arch-x", 132);
    snprintf(d.name, sizeof d.name, "made-up fitted");
    /* The small tile at its rates, then as fast as the wide one: no faster
     * tile, regblock's rules (its edges). */
    static const int rates[2][2] = {{142, 349}, {935, 935}};
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, text, rates[i][0], rates[i][1]);
        assert_int_equal(fclose(f), 0);
        struct clmem_error err = {0};
        if (clmem_params_reload(NULL, &err))
            fail_msg("%s", err.message);
        if (i == 0) {
            expect_choice(&d, 89, 1544, 4434, "splitk", "147 blocks of 32x32 for 132 compute units");
            expect_choice(&d, 89, 1544, 4434, "splitk", "128x256 tiles in");
        } else {
            expect_choice(&d, 89, 1544, 4434, "regblock", "M=89 not a multiple of 32");
        }
        expect_choice(&d, 4096, 4096, 4096, "regblock", "whole 128x256x16 tiles");
    }
    unlink(path);
    struct clmem_error err = {0};
    if (clmem_params_reload(NULL, &err))
        fail_msg("%s", err.message);
}

/* The tiles `clmem tune` rates for splitk's rows: the device's regblock
 * tiles first, then on a GPU the thin tiles of its first (rows or columns
 * cut by 2 and 4): without them a device no shipped row knows has no tile
 * for a P of few rows or columns. A CPU rates its one tile. */
static void fit_rates_thin_tiles(void **state)
{
    (void)state;
    char tiles[512];
    struct clmem_device unknown =
        made_up_device(CL_DEVICE_TYPE_GPU, "Some GPU Vendor", "arch-x", 100);
    size_t n = matmul_fit_tiles(&unknown, tiles, sizeof tiles);
    if (n < 6 || strncmp(tiles, "64x64x16/4x4 ", 13) || !strstr(tiles, " 32x64x16/4x4") ||
        !strstr(tiles, " 64x32x16/4x4") || !strstr(tiles, " 16x64x16/4x4") ||
        !strstr(tiles, " 64x16x16/4x4"))
        fail_msg("an unknown GPU's %zu tiles: %s", n, tiles);
    struct clmem_device h100 =
        made_up_device(CL_DEVICE_TYPE_GPU, "NVIDIA Corporation", "sm_90", 132);
    n = matmul_fit_tiles(&h100, tiles, sizeof tiles);
    if (n != 8 || strncmp(tiles, "256x128x8/16x8 128x128x8/8x8 64x128x8/8x8 ", 42) ||
        !strstr(tiles, " 256x64x8/16x8") || !strstr(tiles, " 256x32x8/16x8"))
        fail_msg("sm_90's %zu tiles: %s", n, tiles);
    struct clmem_device cpu = made_up_device(CL_DEVICE_TYPE_CPU, "AuthenticAMD", "cpu-simd256", 2);
    assert_int_equal(matmul_fit_tiles(&cpu, tiles, sizeof tiles), 1);
}

/* The model step's stream-K units: on a GPU (PoCL named as one, 2
 * units), the fitted regblock row of the tuned tile gets SK_UNITS from
 * regblock's times with 0, 1 and 2 groups a unit at shapes of 1.5 and 2.5
 * waves, its note saying them before the row's own; the other rows stay
 * as they were. Past the fit's deadline the row is put back. Before, the
 * fit set no SK_UNITS: a device no shipped row knows kept 0. */
static void fit_sets_stream_k_units(void **state)
{
    struct clmem_ctx gpu = *(struct clmem_ctx *)*state;
    gpu.device.type = CL_DEVICE_TYPE_GPU;
    gpu.device.compute_units = 2;
    snprintf(gpu.device.name, sizeof gpu.device.name, "made-up stream-k");
    char dir[1024], path[1100];
    const char *why;
    assert_int_equal(clmem_params_fitted_dir(dir, sizeof dir, &why), 0);
    assert_int_equal(clmem_state_mkdir(dir), 0);
    assert_int_equal(clmem_fit_path(&gpu.device, path, sizeof path, &(struct clmem_error){0}), 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"format\": 1, \"level\": \"device\", \"match\": \"made-up stream-k\", "
               "\"comment\": \"test\", \"rows\": ["
               "{\"workload\": \"matmul\", \"table\": \"regblock\", \"type\": \"gpu\", \"values\": "
               "{\"TSM\": 16, \"TSN\": 32, \"TSK\": 4, \"WPTM\": 4, \"WPTN\": 4, \"SK_UNITS\": 2}, "
               "\"provenance\": {\"device\": \"made-up stream-k\", \"driver\": \"1\", \"date\": "
               "\"2026-12-07\", \"command\": \"clmem tune\", \"note\": \"tuned\"}}, "
               "{\"workload\": \"matmul\", \"table\": \"regblock\", \"type\": \"gpu\", \"values\": "
               "{\"TSM\": 32, \"TSN\": 32, \"TSK\": 4, \"WPTM\": 4, \"WPTN\": 4, \"SK_UNITS\": 1}, "
               "\"provenance\": {\"device\": \"made-up stream-k\", \"driver\": \"1\", \"date\": "
               "\"2026-12-07\", \"command\": \"clmem tune\", \"note\": \"kept\"}}]}");
    assert_int_equal(fclose(f), 0);
    struct clmem_error err = {0};
    if (clmem_params_reload(NULL, &err))
        fail_msg("%s", err.message);
    static const int rb[] = {16, 32, 4, 4, 4, 0};
    for (int late = 1; late >= 0; late--) {
        struct clmem_fit fit = {.workload = clmem_workload_find("matmul"),
                                .reps = 2,
                                .seed = 42,
                                .deadline_ms = late ? 1 : 0};
        int status = matmul_fit_stream_k(&gpu, &fit, rb, 24, &err);
        free(fit.rows);
        if (status != (late ? CLMEM_ERR_INTERRUPTED : CLMEM_OK))
            fail_msg("late %d: status %d: %s", late, status, err.message);
        clmem_error_clear(&err);
        struct clmem_pdb rows;
        assert_int_equal(clmem_fit_rows(&gpu.device, &rows, &err), CLMEM_OK);
        assert_int_equal(rows.n_rows, 2);
        const struct clmem_pdb_row *tuned = &rows.rows[0], *kept = &rows.rows[1];
        int sk = (int)tuned->values[5];
        if (late && (sk != 2 || strcmp(tuned->provenance.note, "tuned")))
            fail_msg("past the deadline: SK_UNITS %d, note '%s'", sk, tuned->provenance.note);
        if (!late && (sk < 0 || sk > 2 || strncmp(tuned->provenance.note, "SK_UNITS ", 9) ||
                      !strstr(tuned->provenance.note, "regblock at 16x64x24 and 16x96x24 took ") ||
                      !strstr(tuned->provenance.note, " ms with 0, 1, 2 (model step); tuned")))
            fail_msg("SK_UNITS %d, note '%s'", sk, tuned->provenance.note);
        if (kept->values[0] != 32 || kept->values[5] != 1 || strcmp(kept->provenance.note, "kept"))
            fail_msg("the other row changed: %s", kept->provenance.note);
        clmem_pdb_free(&rows);
    }
    unlink(path);
    if (clmem_params_reload(NULL, &err))
        fail_msg("%s", err.message);
}

/* splitk's plan, as matmul_splitk_choose gives it: the slices, and the
 * plan must hold `part`. */
static void expect_plan(const struct clmem_device *d, size_t m, size_t n, size_t k, int slices,
                        const char *part)
{
    char plan[160];
    int got = matmul_splitk_choose(d, m, n, k, plan, sizeof plan);
    if ((slices ? got != slices : got < 2) || (part && !strstr(plan, part)))
        fail_msg("%s at %zux%zux%zu: splitk's plan '%s', expected %s%d slices%s%s", d->name, m, n,
                 k, plan, slices ? "" : "more than ", slices ? slices : 1, part ? " with " : "",
                 part ? part : "");
}

/* splitk's plan: K split where P has few blocks for the device's units
 * and K is long enough, in whole steps, a workspace that fits; one slice
 * where P's blocks fill the units. On Oclgrind's device (one unit at 1
 * MHz, every type), the variant's check sizes past a few steps of K are
 * split, so that test_oclgrind.sh checks the second pass and the slices. */
static void splitk_plan_follows_the_shape(void **state)
{
    (void)state;
    struct clmem_device h100 =
        made_up_device(CL_DEVICE_TYPE_GPU, "NVIDIA Corporation", "sm_90", 132);
    expect_plan(&h100, 64, 8192, 8192, 0, "64x256 tiles, 32 blocks");
    expect_plan(&h100, 128, 8192, 8192, 4, "128x256 tiles, 32 blocks");
    expect_plan(&h100, 1024, 1024, 1024, 4, "256x128 tiles, 32 blocks");
    /* Four groups a unit, as the H100 ran them fastest (8 slices, not 16). */
    expect_plan(&h100, 32, 8192, 8192, 8, "32x128 tiles, 64 blocks");
    expect_plan(&h100, 8192, 32, 8192, 8, "128x32 tiles, 64 blocks");
    expect_plan(&h100, 512, 512, 16384, 0, NULL);
    expect_plan(&h100, 777, 1234, 5678, 0, NULL);
    /* P's 33 rows fill half of a 64-row tile, 48 three quarters: the tile
     * cut to 36 and 48 rows. 100 rows fill 0.78 of 128: cut to 104 (K
     * steps of 16, which it ran faster with); 50 fill 0.78 of 64, not cut
     * (64-row tiles ran slower in steps of 16); P's columns are never cut:
     * not faster on an H200. */
    expect_plan(&h100, 33, 4097, 6001, 15, "36x256 tiles, 17 blocks");
    expect_plan(&h100, 48, 8192, 8192, 8, "48x256 tiles, 32 blocks");
    expect_plan(&h100, 100, 8192, 8192, 4, "104x256 tiles, 32 blocks, K in 4 slices of 128 steps");
    expect_plan(&h100, 50, 8192, 8192, 8, "64x256 tiles, 32 blocks, K in 8 slices of 128 steps");
    expect_plan(&h100, 4097, 33, 6001, 16, "128x64 tiles, 33 blocks");
    expect_plan(&h100, 4096, 4096, 4096, 1, "256x128 tiles, 512 blocks, K in one slice");
    /* K too short to split (a slice takes 128 of it at least). */
    expect_plan(&h100, 64, 64, 200, 1, NULL);
    /* Slices only as many as the workspace fits: none here. */
    struct clmem_device small = h100;
    small.max_alloc = 64 << 10;
    expect_plan(&small, 128, 128, 65536, 1, NULL);
    struct clmem_device oclgrind = made_up_device(
        CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR, "Oclgrind", "", 1);
    snprintf(oclgrind.name, sizeof oclgrind.name, "Oclgrind Simulator");
    oclgrind.clock_mhz = 1;
    oclgrind.local_mem = 32 << 10;
    oclgrind.global_mem = oclgrind.max_alloc = 128 << 20;
    char sizes[256];
    snprintf(sizes, sizeof sizes, "%s",
             clmem_variant_find(&clmem_workload_matmul, "splitk")->check_sizes);
    size_t split = 0;
    for (char *s = strtok(sizes, " "); s; s = strtok(NULL, " ")) {
        size_t m, n, k;
        assert_int_equal(sscanf(s, "%zux%zux%zu", &m, &n, &k), 3);
        char plan[160];
        split += matmul_splitk_choose(&oclgrind, m, n, k, plan, sizeof plan) > 1;
    }
    if (split < 2)
        fail_msg("splitk's check sizes '%s': %zu split on Oclgrind's device, not 2",
                 clmem_variant_find(&clmem_workload_matmul, "splitk")->check_sizes, split);
}

/* Stores what a tune of `variant` found at `size` on the device. */
static void store_tuned(const struct clmem_ctx *ctx, const char *variant, const char *size,
                        const char *const names[], const int values[], size_t n, double metric)
{
    struct clmem_error err = {0};
    struct clmem_size parsed;
    char size_class[64];
    assert_int_equal(clmem_size_parse(size, &parsed, &err), CLMEM_OK);
    clmem_size_class(&parsed, size_class, sizeof size_class);
    struct clmem_tuning_key key = {ctx->device.name, ctx->device.driver, "matmul", variant,
                                   size_class};
    char shape[64];
    clmem_size_shape(&parsed, shape, sizeof shape);
    struct clmem_tuning_outcome outcome = {metric, 0.9 * metric, "GFLOP/s", 0, shape};
    if (clmem_tuning_prepare(&err) != CLMEM_OK ||
        clmem_tuning_db_store(&key, names, values, n, &outcome, &err) != CLMEM_OK)
        fail_msg("tuning database: %s", err.message);
}

/* The note of auto's run at `size`, which must verify. */
static void expect_auto_note(struct clmem_ctx *ctx, const char *size, const char *note)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    if (clmem_run_workload(ctx, "matmul", "auto", size, 1, &results, &n, &err) != CLMEM_OK)
        fail_msg("auto %s: %s", size, err.message);
    if (!results[0].verified || strncmp(results[0].note, note, strlen(note)))
        fail_msg("auto %s: verified %d, note '%s', expected it to start '%s'", size,
                 results[0].verified, results[0].note, note);
    clmem_results_free(results, n);
}

/* An auto note keeps the chosen variant's plan whole beside the longest
 * reason auto writes and the tuned parameters' mention: a fitted run's
 * stream-K clause was dropped where they filled a 160-byte note. A plan
 * that cannot fit whole is left out, never cut. */
static void auto_note_keeps_the_plan(void **state)
{
    (void)state;
    /* As long as a run's reason can be (matmul_state's chosen_why). */
    char why[128], note[CLMEM_NOTE_SIZE];
    memset(why, 'w', sizeof why - 1);
    why[sizeof why - 1] = '\0';
    const char *plan = "stream-K: 132 work-groups share 1209 of 12345 blocks";
    matmul_auto_note(note, sizeof note, "regblock_padded", why, 1, plan);
    char expected[sizeof note];
    snprintf(expected, sizeof expected, "auto: regblock_padded (%s), tuned parameters (clmem tune); %s",
             why, plan);
    assert_string_equal(note, expected);
    char wide[sizeof note];
    memset(wide, 'p', sizeof wide - 1);
    wide[sizeof wide - 1] = '\0';
    matmul_auto_note(note, sizeof note, "regblock", "short", 0, wide);
    assert_string_equal(note, "auto: regblock (short)");
}

/* The tuning database refines the model: where `clmem tune` measured the
 * model's choice (cpu_blocked, on a CPU) and another tunable variant on
 * this device at this very shape, the faster as measured runs, and the
 * note says so; where the choice measured faster, it stays. Another shape
 * of the same size class (37x100x65 against 100x37x65, the thin twin a
 * square fit says nothing of) keeps the model's choice. The entries are
 * removed after, as the other tests expect none. */
static void auto_takes_the_faster_tuned_variant(void **state)
{
    struct clmem_ctx *ctx = *state;
    char why[160];
    if (strcmp(matmul_auto_choose(&ctx->device, 100, 37, 65, why, sizeof why), "cpu_blocked"))
        skip(); /* the rules chose otherwise on this device */
    static const char *const panel[] = {"PANEL_ROWS"}, *const blocked[] = {"CPU_MR", "CPU_NV",
                                                                           "CPU_MT"};
    static const int panel_rows[] = {4}, micro_tile[] = {6, 2, 4};
    store_tuned(ctx, "panel", "100x37x65", panel, panel_rows, 1, 31.2);
    store_tuned(ctx, "cpu_blocked", "100x37x65", blocked, micro_tile, 3, 25.1);
    expect_auto_note(ctx, "100x37x65",
                     "auto: panel (clmem tune measured 31.2 GFLOP/s here against cpu_blocked's "
                     "25.1), tuned parameters (clmem tune)");
    if (!strcmp(matmul_auto_choose(&ctx->device, 37, 100, 65, why, sizeof why), "cpu_blocked"))
        expect_auto_note(ctx, "37x100x65", "auto: cpu_blocked (a CPU)");
    store_tuned(ctx, "cpu_blocked", "100x37x65", blocked, micro_tile, 3, 40.0);
    expect_auto_note(ctx, "100x37x65", "auto: cpu_blocked (a CPU), tuned parameters");
    struct clmem_error err = {0};
    size_t removed = 0;
    assert_int_equal(clmem_tuning_db_remove(ctx->device.name, "matmul", &removed, &err), CLMEM_OK);
    assert_int_equal(removed, 2);
}

static void tiled_verifies_tile_multiples(void **state)
{
    /* PoCL's tile is 32 (its work-group limit allows 32x32); 64x32x96 is
     * rectangular and a multiple of every tile the picker can choose. */
    test_expect_verified(*state, "matmul", "tiled", "64x32x96");
    test_expect_verified(*state, "matmul", "tiled", "256");
}

static void tiled_refused_alone_off_tile(void **state)
{
    test_expect_refused(*state, "matmul", "tiled", "1000x777x333", "multiple of TILE_WIDTH");
    test_expect_refused(*state, "matmul", "tiled", "1000x777x333", "tiled_bounds");
}

/* --variant all at sizes off every tile, K and N no multiples of 4 either:
 * tiled is skipped and every other variant verifies; each file is built
 * once for all of them (the flags of such sizes are all 0). */
static void tiled_skipped_under_all_off_tile(void **state)
{
    static const char *const sizes[] = {"1", "7", "33", "100x37x65", "5x1x9", "130x66x35"};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        struct clmem_error err = {0};
        struct clmem_result *results = NULL;
        size_t n = 0;
        int status = clmem_run_workload(*state, "matmul", "all", sizes[k], 1, &results, &n, &err);
        if (status != CLMEM_OK)
            fail_msg("all at %s: status %d: %s", sizes[k], status, err.message);
        assert_int_equal(n, kernel_variants());
        const struct clmem_result *tiled = test_find_result(results, n, "tiled");
        assert_true(tiled->skipped);
        for (size_t i = 0; i < n; i++) {
            if (&results[i] != tiled && !results[i].verified)
                fail_msg("%s at %s (all): not verified: %s", results[i].variant, sizes[k],
                         results[i].verify_detail);
            /* auto would run one of them a second time. */
            assert_string_not_equal(results[i].variant, "auto");
        }
        clmem_results_free(results, n);
        clmem_error_clear(&err);
    }
}

/* A textbook variant builds the textbook file alone (issue 16): one
 * program, built or taken from the cache; every variant, the five files
 * (matmul.cl and the optimised kernels' own). */
static void a_variant_builds_its_own_file_only(void **state)
{
    struct clmem_ctx *ctx = *state;
    const char *const variants[] = {"naive", "all"};
    const unsigned expected[] = {1, 5};
    for (size_t i = 0; i < 2; i++) {
        struct clmem_error err = {0};
        struct clmem_result *results = NULL;
        size_t n = 0;
        unsigned before = ctx->cache_hits + ctx->cache_stored;
        int saved = ctx->no_cache;
        ctx->no_cache = 0;
        assert_int_equal(clmem_run_workload(ctx, "matmul", variants[i], "9", 1, &results, &n, &err),
                         CLMEM_OK);
        ctx->no_cache = saved;
        if (ctx->cache_hits + ctx->cache_stored - before != expected[i])
            fail_msg("--variant %s made %u programs, not %u", variants[i],
                     ctx->cache_hits + ctx->cache_stored - before, expected[i]);
        clmem_results_free(results, n);
    }
}

static void params_name_the_tile(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    assert_int_equal(clmem_run_workload(*state, "matmul", "naive", "8", 1, &results, &n, &err),
                     CLMEM_OK);
    assert_non_null(strstr(results[0].params, "-DTILE_WIDTH="));
    /* 2*M*N*K flops over the median time. */
    test_expect_metric(&results[0], 2.0 * 8 * 8 * 8);
    clmem_results_free(results, n);
}

/* --compare clblast: CLBlast's SGEMM runs on the same buffers, is verified
 * like the kernels, and every result is a fraction of it. Without CLBlast
 * in the build the comparison is a usage error before any work. */
static void clblast_compared_on_same_buffers(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    struct clmem_run run;
    struct clmem_run_options options = {.size = "100x37x65",
                                        .variant = "all",
                                        .reps = 2,
                                        .warmup = 1,
                                        .seed = 7,
                                        .compare = "clblast"};
    int status = clmem_run_plan(&run, clmem_workload_find("matmul"), *state, &options, &err);
    if (!clmem_library_available("clblast")) {
        assert_int_equal(status, CLMEM_ERR_USAGE);
        assert_non_null(strstr(err.message, "built without CLBlast"));
        clmem_run_release(&run);
        return;
    }
    assert_int_equal(status, CLMEM_OK);
    assert_int_equal(clmem_run_execute(&run, &options, &results, &n, &err), CLMEM_OK);
    clmem_run_release(&run);
    assert_int_equal(n, kernel_variants() + 1);
    const struct clmem_result *clblast = test_find_result(results, n, "clblast");
    const struct clmem_result *naive = test_find_result(results, n, "naive");
    assert_true(clblast->verified);
    assert_true(clblast->baseline_fraction == 1.0);
    /* The naive kernel's fraction is its metric over CLBlast's. */
    double ratio = naive->metric / clblast->metric;
    assert_true(naive->baseline_fraction > 0.999 * ratio &&
                naive->baseline_fraction < 1.001 * ratio);
    clmem_results_free(results, n);
}

/* --compare clblast with one variant named: CLBlast runs beside it, so the
 * variant has its ratio (it was silently missing). */
static void compare_with_one_variant_runs_the_library_too(void **state)
{
    if (!clmem_library_available("clblast"))
        skip(); /* the refusal without CLBlast: clblast_compared_on_same_buffers */
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    struct clmem_run run;
    struct clmem_run_options options = {
        .size = "33x17x9", .variant = "regblock", .reps = 1, .seed = 7, .compare = "clblast"};
    assert_int_equal(clmem_run_plan(&run, clmem_workload_find("matmul"), *state, &options, &err),
                     CLMEM_OK);
    assert_int_equal(clmem_run_execute(&run, &options, &results, &n, &err), CLMEM_OK);
    clmem_run_release(&run);
    assert_int_equal(n, 2);
    const struct clmem_result *regblock = test_find_result(results, n, "regblock");
    assert_true(test_find_result(results, n, "clblast")->verified);
    assert_true(regblock->verified && regblock->baseline_fraction > 0);
    clmem_results_free(results, n);
}

/* --compare openblas on a CPU device: cblas_sgemm on the same host inputs,
 * verified like the kernels, every result a fraction of it. Without
 * OpenBLAS in the build, a usage error before any work. */
static void openblas_compared_on_the_same_inputs(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    struct clmem_run run;
    struct clmem_run_options options = {
        .size = "100x37x65", .variant = "panel", .reps = 2, .seed = 7, .compare = "openblas"};
    int status = clmem_run_plan(&run, clmem_workload_find("matmul"), *state, &options, &err);
    if (!clmem_library_available("openblas")) {
        assert_int_equal(status, CLMEM_ERR_USAGE);
        assert_non_null(strstr(err.message, "built without OpenBLAS"));
        clmem_run_release(&run);
        return;
    }
    assert_int_equal(status, CLMEM_OK);
    assert_int_equal(clmem_run_execute(&run, &options, &results, &n, &err), CLMEM_OK);
    clmem_run_release(&run);
    assert_int_equal(n, 2);
    const struct clmem_result *openblas = test_find_result(results, n, "openblas");
    const struct clmem_result *panel = test_find_result(results, n, "panel");
    assert_true(openblas->verified && openblas->n_samples == 2 && openblas->median_ms > 0);
    assert_true(openblas->baseline_fraction == 1.0);
    /* The note names the kernels OpenBLAS chose for this CPU. */
    assert_non_null(strstr(openblas->note, "OpenBLAS ") && strstr(openblas->note, " kernels"));
    double ratio = panel->metric / openblas->metric;
    assert_true(panel->baseline_fraction > 0.999 * ratio &&
                panel->baseline_fraction < 1.001 * ratio);
    clmem_results_free(results, n);
}

/* OpenBLAS runs on the host's cores: beside a device that is not those
 * cores it is refused, named or as --compare, before any work. */
static void openblas_refused_beside_a_gpu(void **state)
{
    if (!clmem_library_available("openblas"))
        skip(); /* refused earlier, as built without it: the test above */
    struct clmem_ctx gpu = *(struct clmem_ctx *)*state;
    gpu.device.type = CL_DEVICE_TYPE_GPU; /* only its type is read when planning */
    struct clmem_error err = {0};
    struct clmem_run run;
    struct clmem_run_options options = {.size = "64", .variant = "all", .compare = "openblas"};
    assert_int_equal(clmem_run_plan(&run, clmem_workload_find("matmul"), &gpu, &options, &err),
                     CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "OpenBLAS runs on the host's CPU cores, not on"));
    clmem_run_release(&run);
    options = (struct clmem_run_options){.size = "64", .variant = "openblas"};
    assert_int_equal(clmem_run_plan(&run, clmem_workload_find("matmul"), &gpu, &options, &err),
                     CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "host's CPU cores"));
    clmem_run_release(&run);
}

/* Asked alone, --variant clblast works; an unknown library or a workload
 * CLBlast cannot stand for is refused. */
static void compare_refusals(void **state)
{
    struct clmem_error err = {0};
    struct clmem_run run;
    struct clmem_run_options options = {.size = "8", .variant = "all", .compare = "cublas"};
    assert_int_equal(clmem_run_plan(&run, clmem_workload_find("matmul"), *state, &options, &err),
                     CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "unknown library 'cublas'"));
    clmem_run_release(&run);
    if (clmem_library_available("clblast")) {
        test_expect_verified(*state, "matmul", "clblast", "33x7x5");
        options.compare = "clblast";
        assert_int_equal(
            clmem_run_plan(&run, clmem_workload_find("transpose"), *state, &options, &err),
            CLMEM_ERR_USAGE);
        assert_non_null(strstr(err.message, "'transpose' has nothing to compare with"));
        clmem_run_release(&run);
    }
}

/* NVIDIA's clEnqueueFillBuffer hangs on 2^31 bytes or more (pyopencl issue
 * 395): matmul's P at 32768 (4 GiB) never got its poison. Such fills go by
 * writes from the host, in pieces that must cover every byte once. */
static void large_fills_go_by_writes_in_pieces(void **state)
{
    struct clmem_ctx *ctx = *state;
    struct clmem_error err = {0};
    assert_false(clmem_fill_by_writes(&ctx->device, CLMEM_FILL_ENQUEUE_LIMIT - 1));
    assert_true(clmem_fill_by_writes(&ctx->device, CLMEM_FILL_ENQUEUE_LIMIT));
    assert_true(clmem_fill_by_writes(&ctx->device, (size_t)1 << 32)); /* P at 32768 */
    /* 1000 bytes of 0xFF in pieces of 7 (the last one of 6), then 0xAB into
     * the first 993 (a whole number of pieces) only; byte 1000 stays 0. */
    unsigned char host[1001];
    cl_mem buffer = NULL;
    memset(host, 0, sizeof host);
    assert_int_equal(clmem_buffer_create(ctx, CL_MEM_READ_WRITE, sizeof host, host, &buffer, &err),
                     CLMEM_OK);
    assert_int_equal(clmem_buffer_fill_pieces(ctx, buffer, 1000, 0xFF, 7, &err), CLMEM_OK);
    assert_int_equal(clmem_buffer_fill_pieces(ctx, buffer, 993, 0xAB, 7, &err), CLMEM_OK);
    assert_int_equal(clmem_buffer_read(ctx, buffer, sizeof host, host, &err), CLMEM_OK);
    for (size_t i = 0; i < sizeof host; i++)
        assert_int_equal(host[i], i < 993 ? 0xAB : i < 1000 ? 0xFF : 0x00);
    /* One piece (0) and a piece larger than the fill. */
    assert_int_equal(clmem_buffer_fill_pieces(ctx, buffer, 1001, 0x11, 0, &err), CLMEM_OK);
    assert_int_equal(clmem_buffer_fill_pieces(ctx, buffer, 500, 0x22, 4096, &err), CLMEM_OK);
    assert_int_equal(clmem_buffer_read(ctx, buffer, sizeof host, host, &err), CLMEM_OK);
    for (size_t i = 0; i < sizeof host; i++)
        assert_int_equal(host[i], i < 500 ? 0x22 : 0x11);
    clmem_release_mem(&buffer);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(naive_verifies_any_size),
        cmocka_unit_test(tiled_bounds_verifies_any_size),
        cmocka_unit_test(coarsened_verifies_any_size),
        cmocka_unit_test(tiled_skipped_under_all_off_tile),
        cmocka_unit_test(regblock_padded_refused_past_int_indices),
        cmocka_unit_test(splitk_verifies_any_size),
        cmocka_unit_test(splitk_clamped_edges_verify),
        cmocka_unit_test(regblock_stream_k_at_its_boundary),
        cmocka_unit_test(regblock_refused_past_llvmpipe_loop_limit),
        cmocka_unit_test(panel_verifies_any_size),
        cmocka_unit_test(cpu_blocked_verifies_any_size),
        cmocka_unit_test(auto_verifies_and_names_its_choice),
        cmocka_unit_test(auto_chooser_follows_the_rules),
        cmocka_unit_test(auto_weighs_each_candidate),
        cmocka_unit_test(fit_rates_thin_tiles),
        cmocka_unit_test(auto_weighs_a_faster_tile_past_one_wave),
        cmocka_unit_test(fit_sets_stream_k_units),
        cmocka_unit_test(splitk_plan_follows_the_shape),
        cmocka_unit_test(auto_note_keeps_the_plan),
        cmocka_unit_test(auto_takes_the_faster_tuned_variant),
        cmocka_unit_test(tiled_verifies_tile_multiples),
        cmocka_unit_test(tiled_refused_alone_off_tile),
        cmocka_unit_test(a_variant_builds_its_own_file_only),
        cmocka_unit_test(params_name_the_tile),
        cmocka_unit_test(clblast_compared_on_same_buffers),
        cmocka_unit_test(compare_refusals),
        cmocka_unit_test(compare_with_one_variant_runs_the_library_too),
        cmocka_unit_test(openblas_compared_on_the_same_inputs),
        cmocka_unit_test(openblas_refused_beside_a_gpu),
        cmocka_unit_test(large_fills_go_by_writes_in_pieces),
    };
    const struct CMUnitTest long_tests[] = {
        cmocka_unit_test(regblock_verifies_off_tile),
        cmocka_unit_test(stream_k_verifies_beside_every_variant),
        cmocka_unit_test(regblock_verifies_whole_tiles),
        cmocka_unit_test(regblock_padded_verifies_any_size),
        cmocka_unit_test(regblock_padded_stream_k_verifies),
        cmocka_unit_test(regblock_stream_k_verifies),
        cmocka_unit_test(splitk_slices_verify),
    };
    if (argc > 1 && strcmp(argv[1], "long") == 0)
        return cmocka_run_group_tests_name("matmul, long", long_tests, test_setup_device,
                                           test_teardown_device);
    /* test_matmul PATTERN: only the tests whose name matches (cmocka's *). */
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
