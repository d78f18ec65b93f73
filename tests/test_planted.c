/* Planted wrong kernels (issue 17, item 9): a workload's own check must see
 * a kernel that gets one element wrong, the last one, where a check that
 * looks at too little (transpose's once looked at row 0 only, and passed a
 * kernel that zeroed 32 of 33 rows) lets it through.
 *
 * Each row copies cl/ ($CLMEM_SOURCE_CL) to a temporary --kernel-dir and
 * makes one edit there: in the kernel whose text `anchor` starts, the first
 * `old` after it (before the next kernel) becomes `new`. The edits add 1 to
 * exactly one value: the last element of the output (the last row and
 * column of a matrix or image), or, where the output is a count or a sum,
 * the contribution of the last input (pi and atomics count one too many or
 * one too few; reduce and dot add 1 to the last input's term). Then
 * `clmem run W --variant V --kernel-dir DIR --size S --no-cache` must exit
 * 1, and stderr must name the variant ("clmem: W V: verification failed")
 * and every fragment of `expect` (the element, the count). An edit whose
 * text is not found fails the row: the table follows cl/ as it changes.
 *
 * The last rows plant writes outside an output (one element past its end),
 * which only the guard zones around outputs can see.
 *
 * usage: test_planted [WORKLOAD[/VARIANT]]   (only the rows that match) */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"
#include "tmpdir.h"

#define MAX_EXPECT 3

/* A row: what runs, where the edit is, the edit, what stderr must say. */
struct plant {
    struct {
        const char *workload, *variant, *size;
    } run;
    struct {
        const char *file;   /* in cl/ */
        const char *anchor; /* where the kernel starts: the edit is the first `old` after it */
    } in;
    const char *old, *new;
    const char *expect[MAX_EXPECT]; /* each must be on stderr */
};

/* (cond ? 1.0f : 0.0f): one value off by one, the others untouched. */
#define ONE_IF(cond) "((" cond ") ? 1.0f : 0.0f)"

static const struct plant plants[] = {
    /* matmul at 33x17x9 (P is 33 rows of 17): P[32][16] is the last
     * element. Every variant has its own store; the check is shared. */
    {{"matmul", "naive", "33x17x9"},
     {"matmul.cl", "void MatrixMulKernel("},
     "P[Row * cols + Col] = Pvalue;",
     "P[Row * cols + Col] = Pvalue + " ONE_IF("Row == rows - 1 && Col == cols - 1") ";",
     {"P[row 32][col 16]", "1 of 563 values differ"}},
    {{"matmul", "tiled", "64x32x96"},
     {"matmul.cl", "void MatrixMulTiled("},
     "P[Row * cols + Col] = Pvalue;",
     "P[Row * cols + Col] = Pvalue + " ONE_IF("Row == rows - 1 && Col == cols - 1") ";",
     {"P[row 63][col 31]", "1 of 2050 values differ"}},
    {{"matmul", "tiled_bounds", "33x17x9"},
     {"matmul.cl", "void MatrixMulTiledBounds("},
     "P[Row * cols + Col] = Pvalue;",
     "P[Row * cols + Col] = Pvalue + " ONE_IF("Row == rows - 1 && Col == cols - 1") ";",
     {"P[row 32][col 16]", "1 of 563 values differ"}},
    {{"matmul", "coarsened", "33x17x9"},
     {"matmul.cl", "void MatrixMulCoarsened("},
     "P[Row * cols + Col] = Pvalue[c];",
     "P[Row * cols + Col] = Pvalue[c] + " ONE_IF("Row == rows - 1 && Col == cols - 1") ";",
     {"P[row 32][col 16]"}},
    {{"matmul", "regblock", "33x17x9"},
     {"matmul_regblock.cl", "static inline void regblock_store("},
     "q[c] = v[c];",
     "q[c] = v[c] + " ONE_IF("row == rows - 1 && col + c == cols - 1") ";",
     {"P[row 32][col 16]"}},
    /* regblock_padded at 33x17x9 multiplies padded copies (48x64x16 on
     * this PoCL's row): P's values reach it through MatrixUnpad. */
    {{"matmul", "regblock_padded", "33x17x9"},
     {"matmul_regblock.cl", "void MatrixUnpad("},
     "P[(size_t)r * cols + c] = Pp[(size_t)r * pcols + c];",
     "P[(size_t)r * cols + c] = Pp[(size_t)r * pcols + c] + " ONE_IF(
         "r == rows - 1 && c == cols - 1") ";",
     {"P[row 32][col 16]", "1 of 563 values differ"}},
    /* regblock_padded's stream-K at 272x17x9: 17 blocks of 16 x 64 (a
     * prime: on 2 to 16 cores a group per core shares some; skipped on
     * others) of two K steps;
     * each block shared by two groups is summed by the last to finish from
     * the other's slot, so 1 planted in both slots' first value reaches P
     * once, whichever finishes last: on 2 cores P[16][0] alone. */
    {{"matmul", "regblock_padded", "272x17x9"},
     {"matmul_regblock.cl", "static inline void sk_finish("},
     "SK_PART(partial, g, SK_SLOT(g), e, h) = acc[e][h];",
     "SK_PART(partial, g, SK_SLOT(g), e, h) = acc[e][h] + (float4)(" ONE_IF(
         "tid == 0 && e == 0 && h == 0") ", 0.0f, 0.0f, 0.0f);",
     {"values differ"}},
    /* regblock's stream-K at 591x64x9: 37 blocks of 16 x 64 (a prime: on
     * 2 to 18 cores a group per core shares some, all of them whole;
     * skipped on others), the
     * 36 whole ones first in sk_block's order, then the one across the
     * bottom edge (rows 576 to 590); put one row of blocks up, its rows
     * are never written. */
    {{"matmul", "regblock", "591x64x9"},
     {"matmul_regblock.cl", "static inline void sk_block("},
     "    int bm = wm, bn = j - wm * (wn + right);\n",
     "    int bm = wm - 1, bn = j - wm * (wn + right);\n",
     {"P[row 576][col 0]", "960 of 37826 values differ"}},
    /* splitk adds its K slices in a second pass (cl/matmul_splitk.cl),
     * which its plan runs on PoCL where P is one block and K long, a
     * slice a core (skipped on one core): at 16x16x4096 as float4s
     * (P[15][15] the last float of the last), at 5x3x2000 (15 values)
     * float by float. The counts take in P's two guard zones. */
    {{"matmul", "splitk", "16x16x4096"},
     {"matmul_splitk.cl", "void MatrixSumSlices("},
     "*(__global float4 *)(P + i) = sum;",
     "*(__global float4 *)(P + i) = sum + (float4)(0.0f, 0.0f, 0.0f, " ONE_IF(
         "i + 4 == stride") ");",
     {"P[row 15][col 15]", "1 of 258 values differ"}},
    {{"matmul", "splitk", "5x3x2000"},
     {"matmul_splitk.cl", "void MatrixSumSlices("},
     "P[j] = sum;",
     "P[j] = sum + " ONE_IF("j == stride - 1") ";",
     {"P[row 4][col 2]", "1 of 17 values differ"}},
    /* A slice after the first starting a K step late: with one slice the
     * product is right, split it misses those steps in every value (144
     * of the 256 past the tolerance on 2 cores). */
    {{"matmul", "splitk", "16x16x4096"},
     {"matmul_splitk.cl", "MatrixMulSplitK(__global"},
     "const int t0 = z * slice_steps,",
     "const int t0 = z * slice_steps + (z > 0),",
     {"values differ from the CPU reference"}},
    {{"matmul", "panel", "33x17x9"},
     {"matmul_panel.cl", "void MatrixMulPanel("},
     "P[(size_t)(row0 + r) * cols + col0 + c] = out[c];",
     "P[(size_t)(row0 + r) * cols + col0 + c] = out[c] + " ONE_IF(
         "row0 + r == rows - 1 && col0 + c == cols - 1") ";",
     {"P[row 32][col 16]"}},
    /* cpu_blocked (cl/matmul_cpu.cl): at 33x17x9 the last micro-tile is cut
     * on every CPU's row (MR 12 or 6, NR 32 or 16), so P[32][16] goes
     * through the guarded stores; at 48x32x9 every micro-tile is whole on
     * both rows, and P[47][31] is the last float of a whole vector store. */
    {{"matmul", "cpu_blocked", "33x17x9"},
     {"matmul_cpu.cl", "MatrixMulCpuBlocked("},
     "p[(size_t)r * cols + c] = out[c];",
     "p[(size_t)r * cols + c] = out[c] + " ONE_IF(
         "row0 + r == rows - 1 && col0 + c == cols - 1") ";",
     {"P[row 32][col 16]", "1 of 563 values differ"}},
    {{"matmul", "cpu_blocked", "48x32x9"},
     {"matmul_cpu.cl", "MatrixMulCpuBlocked("},
     "VSTORE(acc[r][v], v, p + (size_t)r * cols);",
     "{ VSTORE(acc[r][v], v, p + (size_t)r * cols); "
     "if (row0 + r == rows - 1 && col0 + (v + 1) * CPU_VEC == cols) "
     "p[(size_t)r * cols + (v + 1) * CPU_VEC - 1] += 1.0f; }",
     {"P[row 47][col 31]", "1 of 1538 values differ"}},

    /* transpose at 33x17: copy writes 17 rows of 33, the transposes 33
     * rows of 17. Each also runs with the loop in the kernel, checked
     * apart: the element is wrong in both. */
    {{"transpose", "copy", "33x17"},
     {"transpose.cl", "void copy("},
     "odata[index_out + i * width] = idata[index_in + i * width];",
     "odata[index_out + i * width] = idata[index_in + i * width] + " ONE_IF(
         "index_out + i * width == width * height - 1") ";",
     {"odata[row 16][col 32]", "with the loop in the kernel"}},
    {{"transpose", "naive", "33x17"},
     {"transpose.cl", "void transposeNaive("},
     "odata[index_out + i] = idata[index_in + i * width];",
     "odata[index_out + i] = idata[index_in + i * width] + " ONE_IF(
         "index_out + i == width * height - 1") ";",
     {"odata[row 32][col 16]", "with the loop in the kernel"}},
    {{"transpose", "coalesced", "33x17"},
     {"transpose.cl", "void transposeCoalesced("},
     "odata[index_out + i * height] = tile[tx][ty + i];",
     "odata[index_out + i * height] = tile[tx][ty + i] + " ONE_IF(
         "index_out + i * height == width * height - 1") ";",
     {"odata[row 32][col 16]"}},
    {{"transpose", "padded", "33x17"},
     {"transpose.cl", "void transposeNoBankConflicts("},
     "odata[index_out + i * height] = tile[tx][ty + i];",
     "odata[index_out + i * height] = tile[tx][ty + i] + " ONE_IF(
         "index_out + i * height == width * height - 1") ";",
     {"odata[row 32][col 16]"}},
    /* vec4's last float4 of the output crosses its edge: stored float by float. */
    {{"transpose", "vec4", "33x17"},
     {"transpose_vec4.cl", "transposeVec4(__global"},
     "out[k] = tile[4 * lx + k][j];",
     "out[k] = tile[4 * lx + k][j] + " ONE_IF("ox == width - 1 && oy + k == height - 1") ";",
     {"odata[row 32][col 16]"}},

    /* reduce at 1001 (1s and 2s: an exact sum): the last input's term + 1.
     * The textbook kernels run their later passes too, each adding 1 to
     * its last partial; coarsened's last input is in its scalar tail
     * (1001 = 4 * 250 + 1). */
    {{"reduce", "interleaved", "1001"},
     {"reduce.cl", "reduceInterleaved("},
     "partialSum[get_local_id(0)] = i < n ? X[i] : 0.0f;",
     "partialSum[get_local_id(0)] = i < n ? X[i] + " ONE_IF("i == n - 1") " : 0.0f;",
     {"sum: expected 1488, got 14"}},
    {{"reduce", "sequential", "1001"},
     {"reduce.cl", "reduceSequential("},
     "partialSum[get_local_id(0)] = i < n ? X[i] : 0.0f;",
     "partialSum[get_local_id(0)] = i < n ? X[i] + " ONE_IF("i == n - 1") " : 0.0f;",
     {"sum: expected 1488, got 14"}},
    {{"reduce", "coarsened", "1001"},
     {"sum_coarsened.cl", "static float sumShare("},
     "sum += X[i];",
     "sum += X[i] + " ONE_IF("i == n - 1") ";",
     {"sum: expected 1488, got 14"}},
    /* one_pass: its own store is the total the last group writes. */
    {{"reduce", "one_pass", "1001"},
     {"sum_coarsened.cl", "static void finishGroups("},
     "*total = s;",
     "*total = s + 1.0f;",
     {"sum: expected 1488, got 1489"}},

    /* dot at 1001: the last product + 1 (the later passes are other kernels). */
    {{"dot", "local_sums", "1001"},
     {"dot.cl", "dotProduct(__global"},
     "i < n ? a[i] * b[i] : 0.0f",
     "i < n ? a[i] * b[i] + " ONE_IF("i == n - 1") " : 0.0f",
     {"sum: expected 2211, got 2212"}},
    {{"dot", "coarsened", "1001"},
     {"sum_coarsened.cl", "static float dotShare("},
     "sum += a[i] * b[i];",
     "sum += a[i] * b[i] + " ONE_IF("i == n - 1") ";",
     {"sum: expected 2211, got 2212"}},
    {{"dot", "one_pass", "1001"},
     {"sum_coarsened.cl", "static void finishGroups("},
     "*total = s;",
     "*total = s + 1.0f;",
     {"sum: expected 2211, got 2212"}},

    /* pi at 1001 points: the last point's hit flipped, one too many or
     * one too few in the count. */
    {{"pi", "host_rng_global", "1001"},
     {"pi.cl", "piApproximation(__global"},
     "hit[j] = inCircle(to_fixed24(x[j]), to_fixed24(y[j]));",
     "hit[j] = inCircle(to_fixed24(x[j]), to_fixed24(y[j])) ^ (j == npoints - 1);",
     {"hit count: expected 802, got 801"}},
    {{"pi", "local_reduce", "1001"},
     {"pi.cl", "piApproximationShared("},
     "inCircle(to_fixed24(x[j]), to_fixed24(y[j])) : 0;",
     "(inCircle(to_fixed24(x[j]), to_fixed24(y[j])) ^ (j == npoints - 1)) : 0;",
     {"hit count: expected 802, got 801"}},
    {{"pi", "device_rng", "1001"},
     {"pi.cl", "piPhilox("},
     "hits += inCircle(r.x >> 8, r.y >> 8);",
     "hits += inCircle(r.x >> 8, r.y >> 8) ^ (j == npoints - 1);",
     {"hit count: expected 779, got 780"}},

    /* atomics: the last work-item adds 2. The racy kernel's check accepts
     * any count 1..N (lost updates), so its row runs one work-item, where
     * nothing races and 2 is out of range on any device. */
    {{"atomics", "racy", "1"},
     {"atomics.cl", "void add("},
     "*a_d += 1;",
     "*a_d += 1 + (get_global_id(0) == n - 1);",
     {"count (between 1 and N): expected 1, got 2"}},
    {{"atomics", "atomic_global", "1001"},
     {"atomics.cl", "void addAtomic("},
     "atomic_inc(a_d);",
     "atomic_add(a_d, 1 + (get_global_id(0) == n - 1));",
     {"count: expected 1001, got 1002"}},
    {{"atomics", "atomic_local", "1001"},
     {"atomics.cl", "addAtomicLocal(__global"},
     "atomic_inc(&count);",
     "atomic_add(&count, 1 + (get_global_id(0) == n - 1));",
     {"count: expected 1001, got 1002"}},

    /* blur at 33x9 (grey): the last byte of the last row. */
    {{"blur", "naive", "33x9"},
     {"blur.cl", "void blurKernel("},
     "out[(Row * w + Col) * CHANNELS + c] = (uchar)(pixVal / pixels);",
     "out[(Row * w + Col) * CHANNELS + c] = (uchar)(pixVal / pixels + (Row == h - 1 && Col == w "
     "- 1 && c == CHANNELS - 1));",
     {"out[row 8][byte 32]", "1 of 299 values differ"}},
    {{"blur", "tiled", "33x9"},
     {"blur.cl", "void blurTiled("},
     "out[Row * rowBytes + x] = (uchar)(pixVal / pixels);",
     "out[Row * rowBytes + x] = (uchar)(pixVal / pixels + (Row == h - 1 && x == rowBytes - 1));",
     {"out[row 8][byte 32]", "1 of 299 values differ"}},
    /* coarsened: the last byte of a row is always in a strip at the right
     * edge, stored byte by byte; the strips inside store whole vectors, the
     * last of them at 65x9 ending at byte 63 whatever VEC (up to 32) the
     * device takes, in row 7 (row 8's box is cut: the edge's loop). */
    {{"blur", "coarsened", "33x9"},
     {"blur.cl", "void blurCoarsened("},
     "out[Row * rowBytes + b] = blurPixel(in, w, h, Row, b / CHANNELS, b % CHANNELS);",
     "out[Row * rowBytes + b] = blurPixel(in, w, h, Row, b / CHANNELS, b % CHANNELS) + (Row == h "
     "- 1 && b == rowBytes - 1);",
     {"out[row 8][byte 32]", "1 of 299 values differ"}},
    {{"blur", "coarsened", "65x9"},
     {"blur.cl", "void blurCoarsened("},
     "STOREV(v, q);",
     "{ STOREV(v, q); if (Row == h - 1 - BLUR_SIZE && x + 2 * VEC + HALO > rowBytes) q[VEC - 1] "
     "+= 1; }",
     {"out[row 7][byte 63]", "1 of 587 values differ"}},

    /* constmem at 33x9: both kernels are one macro, so the edit is in
     * both; each row runs one. */
    {{"constmem", "global_filter", "33x9"},
     {"constmem.cl", "__kernel void NAME("},
     "out[Row * w + Col] = sum;",
     "out[Row * w + Col] = sum + " ONE_IF("Row == h - 1 && Col == w - 1") ";",
     {"out[row 8][col 32]", "1 of 299 values differ"}},
    {{"constmem", "constant_filter", "33x9"},
     {"constmem.cl", "__kernel void NAME("},
     "out[Row * w + Col] = sum;",
     "out[Row * w + Col] = sum + " ONE_IF("Row == h - 1 && Col == w - 1") ";",
     {"out[row 8][col 32]", "1 of 299 values differ"}},
    /* coarsened: the last column is in a strip at the right edge, computed
     * element by element; the strips inside store whole vectors, the last
     * of them at 66x9 ending at column 63 whatever VEC (up to 32) the
     * device takes. */
    {{"constmem", "coarsened", "33x9"},
     {"constmem.cl", "void convolutionCoarsened("},
     "out[Row * w + Col] = convolveOne(in, filter, w, h, Row, Col);",
     "out[Row * w + Col] = convolveOne(in, filter, w, h, Row, Col) + " ONE_IF(
         "Row == h - 1 && Col == w - 1") ";",
     {"out[row 8][col 32]", "1 of 299 values differ"}},
    {{"constmem", "coarsened", "66x9"},
     {"constmem.cl", "void convolutionCoarsened("},
     "STOREV(sum[r], out + (row0 + r) * w + x);",
     "{ STOREV(sum[r], out + (row0 + r) * w + x); if (row0 + r == h - 1 && x + 2 * VEC + "
     "FILTER_RADIUS > w) out[(row0 + r) * w + x + VEC - 1] += 1.0f; }",
     {"out[row 8][col 63]", "1 of 596 values differ"}},

    /* coalescing at 101: every sweep point fails, each at the element its
     * last work-item (100) writes; the double kernels come from the same
     * macro and check the same way. */
    {{"coalescing", "offset_float", "101"},
     {"coalescing.cl", "__kernel void offset_##T("},
     "b[i] = a[i] + 1;",
     "b[i] = a[i] + 1 + (i == n - 1 + s);",
     {"b[100] (work-item 100)", "b[132] (work-item 100)"}},
    {{"coalescing", "stride_float", "101"},
     {"coalescing.cl", "__kernel void stride_##T("},
     "b[i] = a[i] + 1;",
     "b[i] = a[i] + 1 + (i == (n - 1) * s);",
     {"b[100] (work-item 100)", "b[3200] (work-item 100)"}},

    /* pitched at 33x7: out[6][32]. */
    {{"pitched", "unpadded", "33x7"},
     {"pitched.cl", "void unpadded("},
     "out[y * width + x] = 2.0f * in[y * width + x] + y;",
     "out[y * width + x] = 2.0f * in[y * width + x] + y + " ONE_IF(
         "x == width - 1 && y == height - 1") ";",
     {"out[y 6][x 32]", "1 of 233 values differ"}},
    {{"pitched", "pitched", "33x7"},
     {"pitched.cl", "void pitched("},
     "row_out[x] = 2.0f * row_in[x] + y;",
     "row_out[x] = 2.0f * row_in[x] + y + " ONE_IF("x == width - 1 && y == height - 1") ";",
     {"out[y 6][x 32]"}},
    /* vec4 at 33x7: out[6][32] is a row's float after its last whole
     * float4; at 32x7, out[6][31] the last float of a whole one. */
    {{"pitched", "vec4", "33x7"},
     {"pitched.cl", "void vec4Pitched("},
     "row_out[k] = 2.0f * row_in[k] + y;",
     "row_out[k] = 2.0f * row_in[k] + y + " ONE_IF("k == width - 1 && y == height - 1") ";",
     {"out[y 6][x 32]"}},
    {{"pitched", "vec4", "32x7"},
     {"pitched.cl", "void vec4Pitched("},
     "*(__global float4 *)(row_out + x) = 2.0f * v + y;",
     "*(__global float4 *)(row_out + x) = 2.0f * v + y + (float4)(0.0f, 0.0f, 0.0f, " ONE_IF(
         "x + 4 == width && y == height - 1") ");",
     {"out[y 6][x 31]"}},

    /* peak: copy's last float is in its scalar tail (1001 = 4 * 250 + 1;
     * 1001 values and the 2 guard zones of each of the 4 outputs); fma at
     * 8001 runs 8192 work-items (32 groups of 256: every device of 2 cores
     * or more runs that many, whatever its vector width), of which the
     * check's spread (every second from 1024) steps over the last. */
    {{"peak", "copy", "1001"},
     {"peak.cl", "copy_peak("},
     "dst_tail[j] = src_tail[j];",
     "dst_tail[j] = src_tail[j] + " ONE_IF("j == n - 1") ";",
     {"dst[1000]", "1 of 1011 values differ"}},
    {{"peak", "fma", "8001"},
     {"peak.cl", "fma_peak("},
     "out[gid] = (s4.x + s4.y) + (s4.z + s4.w);",
     "out[gid] = (s4.x + s4.y) + (s4.z + s4.w) + " ONE_IF("gid == get_global_size(0) - 1") ";",
     {"out[8191]"}},

    /* Writes past the end of an output: one element after the last, which
     * no check of values can see, but the guard zones after it do. */
    {{"transpose", "naive", "33x17"},
     {"transpose.cl", "void transposeNaive("},
     "odata[index_out + i] = idata[index_in + i * width];",
     "{ odata[index_out + i] = idata[index_in + i * width]; "
     "if (index_out + i == width * height - 1) odata[index_out + i + 1] = 0.0f; }",
     {"odata: wrote past the end of its output (2244 bytes)", "the first at offset 2244"}},
    {{"matmul", "coarsened", "33x17x9"},
     {"matmul.cl", "void MatrixMulCoarsened("},
     "if ((Row < rows) && (Col < cols))\n            P[Row * cols + Col] = Pvalue[c];",
     "if ((Row < rows) && (Col <= cols))\n            P[Row * cols + Col] = Pvalue[c];",
     {"P: wrote past the end of its output (2244 bytes)"}},
    {{"matmul", "regblock_padded", "33x17x9"},
     {"matmul_regblock.cl", "void MatrixUnpad("},
     "if (r < rows && c < cols)",
     "if (r < rows && c <= cols)",
     {"P: wrote past the end of its output (2244 bytes)"}},
    /* The second pass's float-by-float tail one float further. */
    {{"matmul", "splitk", "5x3x2000"},
     {"matmul_splitk.cl", "void MatrixSumSlices("},
     "for (size_t j = i; j < i + 4 && j < stride; j++)",
     "for (size_t j = i; j < i + 4 && j <= stride; j++)",
     {"P: wrote past the end of its output (60 bytes)"}},
    {{"matmul", "cpu_blocked", "33x17x9"},
     {"matmul_cpu.cl", "MatrixMulCpuBlocked("},
     "for (int c = 0; c < n_cols; c++)",
     "for (int c = 0; c <= n_cols; c++)",
     {"P: wrote past the end of its output (2244 bytes)"}},

    /* Wrong indices that reach far past an output's end (up to twice its
     * size): a CPU device's stores land in the guard zones, which are as
     * large as the output, not in the driver's heap. Zones of 256 bytes
     * let them corrupt it: a kernel argument overwritten made the loop in
     * the kernel run for a minute or more, or the run died in PoCL or in
     * free() (exit 134); each row must end in seconds with exit 1. */
    {{"transpose", "naive", "33x17"},
     {"transpose.cl", "void transposeNaive("},
     "int index_out = height * xIndex + yIndex;",
     "int index_out = width * xIndex + yIndex;",
     {"odata: wrote past the end of its output (2244 bytes)"}},
    /* Blocks across P's edges stored as whole ones, as a stream-K plan
     * that shares edge blocks does: at 33x17x9 every block of 16 x 64
     * crosses the right edge, and the last, the bottom one too. */
    {{"matmul", "regblock", "33x17x9"},
     {"matmul_regblock.cl", "static inline void regblock(__global"},
     "const int whole = full_tiles || (offsetM + TSM <= rows && offsetN + TSN <= cols);",
     "const int whole = 1;",
     {"P: wrote past the end of its output (2244 bytes)"}},
};

/* Each row's limit: a cold build of matmul_regblock.cl takes up to 20 s
 * on a loaded 2-core machine; a planted kernel fails in about a second
 * after it. Past the limit the run is killed and the row fails. */
#define ROW_LIMIT_S 120

/* Reads a whole file (malloc'd, NUL-terminated). */
static char *read_file(const char *path)
{
    char *text = test_read_file(path);
    if (!text)
        fail_msg("cannot read '%s'", path);
    return text;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write '%s'", path);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
}

/* Copies every .cl file of `from` into `to`. */
static void copy_kernels(const char *from, const char *to)
{
    DIR *d = opendir(from);
    if (!d)
        fail_msg("cannot open the kernel directory '%s'", from);
    struct dirent *e;
    size_t copied = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        /* The kernels and the headers they include. */
        if (len < 3 ||
            (strcmp(e->d_name + len - 3, ".cl") != 0 && strcmp(e->d_name + len - 2, ".h") != 0))
            continue;
        char src[2048], dst[2048];
        snprintf(src, sizeof src, "%s/%s", from, e->d_name);
        snprintf(dst, sizeof dst, "%s/%s", to, e->d_name);
        char *text = read_file(src);
        write_file(dst, text);
        free(text);
        copied++;
    }
    closedir(d);
    assert_true(copied > 0);
}

/* Makes the row's edit in dir/file: the first `old` after `anchor` (which
 * must occur once), before the next __kernel. */
static void plant(const struct plant *p, const char *dir)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, p->in.file);
    char *text = read_file(path);
    const char *anchor = strstr(text, p->in.anchor);
    if (!anchor || strstr(anchor + 1, p->in.anchor))
        fail_msg("cl/%s: the kernel '%s' is not there once: update tests/test_planted.c",
                 p->in.file, p->in.anchor);
    const char *at = strstr(anchor, p->old);
    const char *next = strstr(anchor + strlen(p->in.anchor), "__kernel");
    if (!at || (next && at > next))
        fail_msg("cl/%s: '%s' is not in the kernel '%s': update tests/test_planted.c", p->in.file,
                 p->old, p->in.anchor);
    size_t head = (size_t)(at - text), old_len = strlen(p->old), new_len = strlen(p->new);
    char *planted = malloc(strlen(text) - old_len + new_len + 1);
    assert_non_null(planted);
    memcpy(planted, text, head);
    memcpy(planted + head, p->new, new_len);
    strcpy(planted + head + new_len, at + old_len);
    write_file(path, planted);
    free(planted);
    free(text);
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Rows whose plan reaches the edit only on some numbers of cores (PoCL's
 * compute units), from 2 to this many (matmul, by size): stream-K's, and
 * splitk's K slices (a slice a core, as many as K allows). */
static const struct {
    const char *size;
    long max_cores;
} stream_k_rows[] = {
    {"272x17x9", 16}, {"591x64x9", 18}, {"16x16x4096", 1 << 20}, {"5x3x2000", 1 << 20}};

static void planted_kernel_fails(void **state)
{
    const struct plant *p = *state;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    for (size_t i = 0; i < sizeof stream_k_rows / sizeof *stream_k_rows; i++)
        if (!strcmp(p->run.workload, "matmul") && !strcmp(p->run.size, stream_k_rows[i].size) &&
            (cores < 2 || cores > stream_k_rows[i].max_cores)) {
            print_message(
                "%s %s at %s: no plan reaches the edit on %ld cores (it needs 2 to %ld)\n",
                p->run.workload, p->run.variant, p->run.size, cores, stream_k_rows[i].max_cores);
            skip();
        }
    const char *source = getenv("CLMEM_SOURCE_CL");
    assert_non_null(source);
    char dir[] = "/tmp/clmem-planted-XXXXXX";
    assert_non_null(mkdtemp(dir));
    copy_kernels(source, dir);
    plant(p, dir);

    static struct outcome o;
    run_clmem_within(&o, NULL,
                     ARGS("run", p->run.workload, "--variant", p->run.variant, "--size",
                          p->run.size, "--kernel-dir", dir, "--no-cache", "--device", "cpu",
                          "--reps", "1", "--warmup", "0"),
                     ROW_LIMIT_S);
    remove_dir(dir);
    char named[128];
    snprintf(named, sizeof named, "clmem: %s %s: verification failed", p->run.workload,
             p->run.variant);
    if (o.code != 1 || !strstr(o.err, named))
        fail_msg("%s %s at %s with '%s' planted: exit %d, not 1 with '%s'; stderr:\n%s",
                 p->run.workload, p->run.variant, p->run.size, p->new, o.code, named, o.err);
    for (size_t i = 0; i < MAX_EXPECT && p->expect[i]; i++)
        if (!strstr(o.err, p->expect[i]))
            fail_msg("%s %s at %s: stderr lacks '%s':\n%s", p->run.workload, p->run.variant,
                     p->run.size, p->expect[i], o.err);
    /* What it said: the first failure's two lines. */
    const char *said = strstr(o.err, named) + strlen("clmem: ");
    const char *end = strchr(said, '\n');
    end = end ? strchr(end + 1, '\n') : NULL;
    print_message("%s %s at %s: %.*s\n", p->run.workload, p->run.variant, p->run.size,
                  end ? (int)(end - said) : (int)strlen(said), said);
}

int main(int argc, char **argv)
{
    enum { N = sizeof plants / sizeof *plants };
    static struct CMUnitTest tests[N];
    static char names[N][128];
    size_t n = 0;
    for (size_t i = 0; i < N; i++) {
        const struct plant *p = &plants[i];
        snprintf(names[n], sizeof names[n], "%s/%s", p->run.workload, p->run.variant);
        if (argc > 1 && strncmp(names[n], argv[1], strlen(argv[1])) != 0)
            continue;
        snprintf(names[n], sizeof names[n], "%s/%s %s: %s", p->run.workload, p->run.variant,
                 p->run.size, p->expect[0]);
        tests[n] = (struct CMUnitTest){
            .name = names[n], .test_func = planted_kernel_fails, .initial_state = (void *)p};
        n++;
    }
    if (n == 0) {
        fprintf(stderr, "usage: test_planted [WORKLOAD[/VARIANT]] (no row matches '%s')\n",
                argv[1]);
        return 2;
    }
    return _cmocka_run_group_tests("planted", tests, n, NULL, NULL);
}
