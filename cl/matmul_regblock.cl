/* Matrix multiplication P = M x N beyond the textbook (not in the seeds):
 * register blocking. M is rows x inner, N is inner x cols, P is rows x
 * cols, all row-major, as in matmul.cl (the textbook kernels).
 * Each work-group computes a TSM x TSN block of P; each work-item WPTM x WPTN
 * of its elements, kept in registers, so every value read from local memory
 * feeds WPTM or WPTN multiply-adds instead of one. Local tiles hold float4s:
 * M's tile transposed (Msub[k][m]) so that both operands are read as rows,
 * four values per local load. A work-item's rows (columns) come in groups of
 * four, RTSM*4 (RTSN*4) apart, so neighbouring work-items read neighbouring
 * float4s and write P with coalesced float4 stores.
 * Double buffering: while the work-group multiplies one pair of tiles, each
 * work-item has already loaded its share of the next pair from global
 * memory into registers; it stores them into the other local buffer after
 * the multiply-adds, and one barrier per K step suffices.
 * Any size works: only the work-groups whose block of P crosses the edge of
 * P, and the last K step when K is not a multiple of TSK, check bounds (loads
 * outside the matrices read 0, stores outside are skipped); every other tile
 * moves float4s unchecked, so a size that is not a multiple of the block
 * runs nearly as fast as one that is. The checks are uniform over a
 * work-group: no divergence. The host compiles away what it knows cannot
 * happen: FULL_TILES=1 (every dimension a multiple of the tiles) every check,
 * K_FULL=1 (K a multiple of TSK) the last K step's; VEC_ALIGNED=4 (K and N
 * multiples of 4) makes every load and store an aligned float4, the checked
 * ones too (a float4 then lies wholly inside a row or wholly past its end);
 * VEC_ALIGNED=2 (K and N even) two aligned float2s, each wholly inside or
 * past; 1, four floats (a GPU's vload4 from an address that is not a
 * float4's is four loads; float2s halve them: bench/sgemm/shapes/).
 * MatrixMulPaddedRegisterBlocked is the same body with every check compiled
 * away, for matrices the host padded to whole tiles (MatrixPad, MatrixUnpad
 * below: regblock_padded, CLBlast's "indirect" GEMM beside the "direct" one);
 * MatrixMulStreamKPadded the same again, its blocks shared out so
 * that the last wave of work-groups is full (stream-K, further below), and
 * MatrixMulStreamKChecked regblock's stream-K, any size.
 * Constraints (the host keeps them): WPTM, WPTN and TSK multiples of 4. */
#ifndef TSM
#define TSM 64
#endif
#ifndef TSN
#define TSN 64
#endif
#ifndef TSK
#define TSK 16
#endif
#ifndef WPTM
#define WPTM 4
#endif
#ifndef WPTN
#define WPTN 4
#endif
#ifndef FULL_TILES
#define FULL_TILES 0
#endif
#ifndef VEC_ALIGNED
#define VEC_ALIGNED (FULL_TILES ? 4 : 1)
#endif
#ifndef K_FULL
#define K_FULL FULL_TILES
#endif
/* Which kernels the file holds (the host builds only those of the variants
 * that run: PoCL compiles every kernel of a program when the program's
 * binary is read for clmem's cache): REGBLOCK_DIRECT regblock's,
 * REGBLOCK_PADDED regblock_padded's four. */
#ifndef REGBLOCK_DIRECT
#define REGBLOCK_DIRECT 1
#endif
#ifndef REGBLOCK_PADDED
#define REGBLOCK_PADDED 1
#endif
/* The K step from tileK on lies inside K: always when k_full (K a multiple
 * of TSK, said by the host), so the check compiles away. */
#define K_WHOLE(tileK) (k_full || (tileK) + TSK <= inner)
#define RTSM (TSM / WPTM) /* work-group rows */
#define RTSN (TSN / WPTN) /* work-group columns */
#define WG_SIZE (RTSM * RTSN)
#define A_VECS (TSM * TSK / 4) /* float4s of M's tile, read along K */
#define B_VECS (TSK * TSN / 4) /* float4s of N's tile, read along a row */
#define A_PER_ITEM ((A_VECS + WG_SIZE - 1) / WG_SIZE)
#define B_PER_ITEM ((B_VECS + WG_SIZE - 1) / WG_SIZE)

/* How a load checks its bounds (uniform over a work-group): LOAD_WHOLE, it
 * lies inside the matrix (the block lies inside P, the K step inside K),
 * unchecked; LOAD_CLAMPED (splitk's float4 rows only), the K step lies
 * inside K but the block crosses P's edge: a row of M past its last, or a
 * float4 of N past a row's end, is read at the last one instead (its
 * values reach only P's rows or columns past its edge, which are never
 * stored), unchecked and in bounds; LOAD_CHECKED, the rest: those outside
 * read 0, as the last, partial K step needs. Clamping pays only for
 * splitk's float4 rows: with float2s or floats, and in regblock's
 * stream-K, its extra indexing costs more than the checks it saves
 * (bench/sgemm/shapes/loads.sh, loads-calls/). */
enum { LOAD_WHOLE, LOAD_CLAMPED, LOAD_CHECKED };

/* Four values of `row` from `col` on (col a multiple of 4). `aligned`: the
 * widest vector every row starts on (4, 2 or 1: ncols a multiple of it).
 * LOAD_WHOLE reads them as one float4 or two float2s where rows start on
 * them, else with vload4; LOAD_CLAMPED as one float4 from the clamped row
 * and column; LOAD_CHECKED each vector at once (wholly inside a row or
 * wholly past its end), else each float. */
static float4 load4(__global const float *X, int row, int col, int nrows, int ncols, int mode,
                    int aligned)
{
    if (mode == LOAD_CLAMPED)
        return *(__global const float4 *)(X + (size_t)min(row, nrows - 1) * ncols +
                                          min(col, ncols - 4));
    __global const float *p = X + (size_t)row * ncols + col;
    const int whole = mode == LOAD_WHOLE;
    if (whole && aligned != 2)
        return aligned == 4 ? *(__global const float4 *)p : vload4(0, p);
    if (aligned == 4)
        return row < nrows && col < ncols ? *(__global const float4 *)p : (float4)(0.0f);
    float4 v = (float4)(0.0f);
    if (aligned == 2) {
        if (whole || (row < nrows && col < ncols))
            v.xy = *(__global const float2 *)p;
        if (whole || (row < nrows && col + 2 < ncols))
            v.zw = *(__global const float2 *)(p + 2);
        return v;
    }
    if (row < nrows) {
        v.x = col < ncols ? p[0] : 0.0f;
        v.y = col + 1 < ncols ? p[1] : 0.0f;
        v.z = col + 2 < ncols ? p[2] : 0.0f;
        v.w = col + 3 < ncols ? p[3] : 0.0f;
    }
    return v;
}

/* The kernels' body, in two parts. regblock_steps multiplies K steps
 * [t0, t1) (TSK each) of P's block at (offsetM, offsetN) into acc;
 * regblock_store writes acc as that block. full_tiles, k_full and aligned
 * are the host's FULL_TILES, K_FULL and VEC_ALIGNED, constants in each
 * kernel, so the checks they rule out compile away, as is clamp (a block
 * across P's edge reads LOAD_CLAMPED, else LOAD_CHECKED); whole: the block
 * lies inside P (uniform over the work-group). A K step's loads share one
 * test of their mode, made once, rather than a test in each load, which
 * the compiler does not merge (bench/sgemm/shapes/loads-calls/). Msub holds M's
 * tiles transposed (Msub[buf][k][m / 4]), Nsub N's (two buffers each);
 * they are free again when regblock_steps returns (its last step ends on a
 * barrier). */
static inline void regblock_steps(__global const float *M, __global const float *N, int rows,
                                  int cols, int inner, __local float4 (*Msub)[TSK][TSM / 4],
                                  __local float4 (*Nsub)[TSK][TSN / 4], int offsetM, int offsetN,
                                  int whole, int t0, int t1, const int k_full, const int aligned,
                                  const int clamp, float4 (*acc)[WPTN / 4])
{
    const int tidn = get_local_id(0);
    const int tidm = get_local_id(1);
    const int tid = tidm * RTSN + tidn;

    /* This work-item's share of the next tiles, held in registers. */
    float4 a_next[A_PER_ITEM], b_next[B_PER_ITEM];
#define LOAD_MODE(tileK)                                                                           \
    (!K_WHOLE(tileK)                  ? LOAD_CHECKED                                               \
     : whole                          ? LOAD_WHOLE                                                 \
     : clamp                          ? LOAD_CLAMPED                                               \
                                      : LOAD_CHECKED)
#define FETCH(tileK)                                                                               \
    {                                                                                              \
        const int mode = LOAD_MODE(tileK);                                                         \
        for (int i = 0; i < A_PER_ITEM; i++) {                                                    \
            const int idx = tid + i * WG_SIZE;                                                     \
            if (A_VECS % WG_SIZE == 0 || idx < A_VECS)                                             \
                a_next[i] = load4(M, offsetM + idx / (TSK / 4), (tileK) + (idx % (TSK / 4)) * 4,  \
                                  rows, inner, mode, aligned);                                     \
        }                                                                                          \
        for (int i = 0; i < B_PER_ITEM; i++) {                                                    \
            const int idx = tid + i * WG_SIZE;                                                     \
            if (B_VECS % WG_SIZE == 0 || idx < B_VECS)                                             \
                b_next[i] = load4(N, (tileK) + idx / (TSN / 4), offsetN + (idx % (TSN / 4)) * 4,  \
                                  inner, cols, mode, aligned);                                     \
        }                                                                                          \
    }
#define STORE(buf)                                                                                 \
    for (int i = 0; i < A_PER_ITEM; i++) {                                                        \
        const int idx = tid + i * WG_SIZE;                                                         \
        if (A_VECS % WG_SIZE == 0 || idx < A_VECS) {                                               \
            const int m = idx / (TSK / 4), k = (idx % (TSK / 4)) * 4;                              \
            ((__local float *)Msub[buf][k + 0])[m] = a_next[i].x;                                 \
            ((__local float *)Msub[buf][k + 1])[m] = a_next[i].y;                                 \
            ((__local float *)Msub[buf][k + 2])[m] = a_next[i].z;                                 \
            ((__local float *)Msub[buf][k + 3])[m] = a_next[i].w;                                 \
        }                                                                                          \
    }                                                                                              \
    for (int i = 0; i < B_PER_ITEM; i++) {                                                        \
        const int idx = tid + i * WG_SIZE;                                                         \
        if (B_VECS % WG_SIZE == 0 || idx < B_VECS)                                                 \
            Nsub[buf][idx / (TSN / 4)][idx % (TSN / 4)] = b_next[i];                               \
    }

    FETCH(t0 * TSK);
    STORE(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = t0; t < t1; t++) {
        const int buf = (t - t0) & 1;
        if (t + 1 < t1) {
            FETCH((t + 1) * TSK);
        }
#pragma unroll
        for (int k = 0; k < TSK; k++) {
            float4 a[WPTM / 4], b[WPTN / 4];
            for (int g = 0; g < WPTM / 4; g++)
                a[g] = Msub[buf][k][g * RTSM + tidm];
            for (int g = 0; g < WPTN / 4; g++)
                b[g] = Nsub[buf][k][g * RTSN + tidn];
            for (int g = 0; g < WPTM / 4; g++) {
                const float am[4] = {a[g].x, a[g].y, a[g].z, a[g].w};
                for (int e = 0; e < 4; e++)
                    for (int h = 0; h < WPTN / 4; h++)
                        acc[g * 4 + e][h] = fma((float4)(am[e]), b[h], acc[g * 4 + e][h]);
            }
        }
        /* The other buffer was last read before the previous barrier. */
        if (t + 1 < t1) {
            STORE(buf ^ 1);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#undef FETCH
#undef STORE
#undef LOAD_MODE
}

static inline void regblock_store(__global float *P, int rows, int cols, int offsetM, int offsetN,
                                  int whole, const int aligned, float4 (*acc)[WPTN / 4])
{
    const int tidn = get_local_id(0);
    const int tidm = get_local_id(1);
    for (int g = 0; g < WPTM / 4; g++)
        for (int e = 0; e < 4; e++) {
            const int row = offsetM + (g * RTSM + tidm) * 4 + e;
            for (int h = 0; h < WPTN / 4; h++) {
                const int col = offsetN + (h * RTSN + tidn) * 4;
                __global float *q = P + (size_t)row * cols + col;
                if (whole || (aligned == 4 && row < rows && col < cols)) {
                    if (aligned == 4) {
                        *(__global float4 *)q = acc[g * 4 + e][h];
                    } else if (aligned == 2) {
                        *(__global float2 *)q = acc[g * 4 + e][h].xy;
                        *(__global float2 *)(q + 2) = acc[g * 4 + e][h].zw;
                    } else {
                        vstore4(acc[g * 4 + e][h], 0, q);
                    }
                    continue;
                }
                if (aligned == 4)
                    continue; /* past P's edge */
                if (aligned == 2) {
                    if (row < rows && col < cols)
                        *(__global float2 *)q = acc[g * 4 + e][h].xy;
                    if (row < rows && col + 2 < cols)
                        *(__global float2 *)(q + 2) = acc[g * 4 + e][h].zw;
                    continue;
                }
                const float v[4] = {acc[g * 4 + e][h].x, acc[g * 4 + e][h].y,
                                    acc[g * 4 + e][h].z, acc[g * 4 + e][h].w};
                for (int c = 0; c < 4; c++)
                    if (row < rows && col + c < cols)
                        q[c] = v[c];
            }
        }
}

/* One work-group's block of P, the whole of K: the regblock kernels. */
static inline void regblock(__global const float *M, __global const float *N, __global float *P,
                            int rows, int cols, int inner, __local float4 (*Msub)[TSK][TSM / 4],
                            __local float4 (*Nsub)[TSK][TSN / 4], const int full_tiles,
                            const int k_full, const int aligned)
{
    const int offsetM = TSM * get_group_id(1);
    const int offsetN = TSN * get_group_id(0);
    const int whole = full_tiles || (offsetM + TSM <= rows && offsetN + TSN <= cols);
    float4 acc[WPTM][WPTN / 4];
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN / 4; wn++)
            acc[wm][wn] = (float4)(0.0f);
    regblock_steps(M, N, rows, cols, inner, Msub, Nsub, offsetM, offsetN, whole, 0,
                   (inner + TSK - 1) / TSK, k_full, aligned, 0, acc);
    regblock_store(P, rows, cols, offsetM, offsetN, whole, aligned, acc);
}

#if REGBLOCK_DIRECT
__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1))) void
MatrixMulRegisterBlocked(__global const float *M, __global const float *N, __global float *P,
                         int rows, int cols, int inner)
{
    __local float4 Msub[2][TSK][TSM / 4];
    __local float4 Nsub[2][TSK][TSN / 4];
    regblock(M, N, P, rows, cols, inner, Msub, Nsub, FULL_TILES, K_FULL, VEC_ALIGNED);
}
#endif

#if REGBLOCK_PADDED
/* rows, cols and inner multiples of TSM, TSN and TSK: the host's padded copies. */
__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1))) void
MatrixMulPaddedRegisterBlocked(__global const float *M, __global const float *N, __global float *P,
                               int rows, int cols, int inner)
{
    __local float4 Msub[2][TSK][TSM / 4];
    __local float4 Nsub[2][TSK][TSN / 4];
    regblock(M, N, P, rows, cols, inner, Msub, Nsub, 1, 1, 4);
}

#endif

/* ---- Stream-K (Osama et al., PPoPP 2023; CUTLASS's stream-K GEMM) ----
 * A grid of whole blocks leaves the GPU part idle in its last wave: 2048
 * blocks of 256x128 (8192) on 132 units of one block each are 15.5 waves,
 * run as 16. Here sk_groups work-groups (as many as the device runs at
 * once) share the K steps of the first sk_tiles blocks evenly (group g
 * takes steps [g * total / sk_groups, (g + 1) * total / sk_groups) of
 * them, in block order), and one work-group per remaining block follows
 * as in regblock: every wave is full. A block whose K steps fall to two
 * groups (a group takes a block's worth or more) is summed by the last of
 * them to finish (reduce's one_pass pattern): each writes its sums to
 * `partial` (two slots per group: the block its range starts in, the block
 * it ends in), counts itself on the block's `arrived` counter, and the
 * last adds the others' slots to its own sums, writes the block and sets
 * the counter back to 0 for the next launch. Only whole blocks are shared
 * (sk_block's order): the blocks across P's edges, in regblock's kernel,
 * run as regblock's, checked; sharing them too made the sharing loop
 * checked as well, and regblock slower for it (bench/README.md, "Stream-K
 * in regblock"). */

/* Where group g's K steps start, of total over groups. */
static inline long sk_start(int g, long total, int groups)
{
    return (long)g * total / groups;
}

/* The group whose steps hold step i: the last g with sk_start(g) <= i. */
static inline int sk_group_of(long i, long total, int groups)
{
    return (int)(((i + 1) * groups + total - 1) / total - 1);
}

/* Group grp's sums in its slot `slot`: work-item tid's float4 (e, h) of
 * them, consecutive work-items consecutive float4s. */
#define SK_PART(parts, grp, slot, e, h)                                                            \
    parts[((((size_t)(grp) * 2 + (slot)) * WPTM + (e)) * (WPTN / 4) + (h)) * WG_SIZE + tid]

/* This group's sums of block `tile` (steps [tile_begin, tile_begin +
 * steps) of the range): written to P when the group holds all of the
 * block's steps (shared 0), else shared with the other groups that hold a
 * part, the last to arrive writing the block. Its barriers are reached on
 * either path: PoCL 3.1 crashed running them in a branch of the kernel's
 * loop. */
static inline void sk_finish(__global float *P, int rows, int cols, int offsetM, int offsetN,
                             __global float4 *partial, __global volatile uint *arrived, int tile,
                             long tile_begin, int steps, long total, int groups, int shared,
                             const int aligned, float4 (*acc)[WPTN / 4], __local uint *last)
{
    const int tid = get_local_id(1) * RTSN + get_local_id(0);
    const int g = get_group_id(0);
    const int first = sk_group_of(tile_begin, total, groups),
              final = sk_group_of(tile_begin + steps - 1, total, groups);
    /* Slot 0: the block where the group's range starts, 1: where it ends. */
#define SK_SLOT(grp) (sk_start((grp), total, groups) >= tile_begin ? 0 : 1)
    if (shared) {
        for (int e = 0; e < WPTM; e++)
            for (int h = 0; h < WPTN / 4; h++)
                SK_PART(partial, g, SK_SLOT(g), e, h) = acc[e][h];
        mem_fence(CLK_GLOBAL_MEM_FENCE);
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (tid == 0) {
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        *last = !shared || atomic_inc(&arrived[tile]) == (uint)(final - first);
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    /* The same value for the whole group. */
    if (!*last)
        return;
    if (shared) {
        __global volatile const float4 *parts = partial;
        for (int other = first; other <= final; other++) {
            if (other == g)
                continue;
            for (int e = 0; e < WPTM; e++)
                for (int h = 0; h < WPTN / 4; h++)
                    acc[e][h] += SK_PART(parts, other, SK_SLOT(other), e, h);
        }
        if (tid == 0)
            arrived[tile] = 0;
    }
#undef SK_SLOT
    regblock_store(P, rows, cols, offsetM, offsetN, 1, aligned, acc);
}
#undef SK_PART

/* Where block j of the stream-K kernels' order lies in P: P's whole
 * blocks first, row by row, then those across its right edge, then those
 * across its bottom edge (all blocks are whole in regblock_padded's). The
 * host shares only whole blocks (sk_tiles at most rows / TSM * (cols /
 * TSN)), so that the sharing loop runs without checks. */
static inline void sk_block(int j, int rows, int cols, int *offsetM, int *offsetN)
{
    const int wm = rows / TSM, wn = cols / TSN, right = (cols + TSN - 1) / TSN - wn;
    int bm = wm, bn = j - wm * (wn + right);
    if (j < wm * wn) {
        bm = j / wn;
        bn = j % wn;
    } else if (j < wm * (wn + right)) {
        bm = j - wm * wn;
        bn = wn;
    }
    *offsetM = bm * TSM;
    *offsetN = bn * TSN;
}

/* The stream-K kernels' body, on a one-dimensional grid of sk_groups +
 * (blocks - sk_tiles) work-groups; full_tiles, k_full and aligned as
 * regblock's (the blocks across P's edge, none of them shared, check their
 * bounds). */
static inline void stream_k(__global const float *M, __global const float *N, __global float *P,
                            int rows, int cols, int inner, __global float4 *partial,
                            __global volatile uint *arrived, int sk_groups, int sk_tiles,
                            __local float4 (*Msub)[TSK][TSM / 4],
                            __local float4 (*Nsub)[TSK][TSN / 4], __local uint *last,
                            const int full_tiles, const int k_full, const int aligned)
{
    const int steps = (inner + TSK - 1) / TSK, g = get_group_id(0);
    int offsetM, offsetN;
    const long total = (long)sk_tiles * steps;
    float4 acc[WPTM][WPTN / 4];
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN / 4; wn++)
            acc[wm][wn] = (float4)(0.0f);
    /* A block of its own, after the shared ones: apart from the loop
     * below, so that the compiler schedules it as regblock_padded's own
     * kernel (faster so where measured: bench/README.md, "Stream-K"). */
    if (g >= sk_groups) {
        sk_block(sk_tiles + g - sk_groups, rows, cols, &offsetM, &offsetN);
        const int whole = full_tiles || (offsetM + TSM <= rows && offsetN + TSN <= cols);
        regblock_steps(M, N, rows, cols, inner, Msub, Nsub, offsetM, offsetN, whole, 0, steps,
                       k_full, aligned, 0, acc);
        regblock_store(P, rows, cols, offsetM, offsetN, whole, aligned, acc);
        return;
    }
    long i = sk_start(g, total, sk_groups), end = sk_start(g + 1, total, sk_groups);
    while (i < end) {
        const int tile = (int)(i / steps);
        const long tile_begin = (long)tile * steps;
        const int t0 = (int)(i - tile_begin), t1 = (int)min(end - tile_begin, (long)steps);
        sk_block(tile, rows, cols, &offsetM, &offsetN);
        for (int wm = 0; wm < WPTM; wm++)
            for (int wn = 0; wn < WPTN / 4; wn++)
                acc[wm][wn] = (float4)(0.0f);
        regblock_steps(M, N, rows, cols, inner, Msub, Nsub, offsetM, offsetN, 1, t0, t1, k_full,
                       aligned, 0, acc);
        sk_finish(P, rows, cols, offsetM, offsetN, partial, arrived, tile, tile_begin, steps, total,
                  sk_groups, t0 > 0 || t1 < steps, aligned, acc, last);
        i = tile_begin + t1;
    }
}

/* No kernel's name in this file begins with another's: Oclgrind charges a
 * kernel the local memory of each kernel whose name begins with its own
 * (a run of all of matmul's variants failed so on its 32 KiB). */
#define STREAM_K_KERNEL(name, full_tiles, k_full, aligned)                                         \
    __kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1))) void name(                       \
        __global const float *M, __global const float *N, __global float *P, int rows, int cols,   \
        int inner, __global float4 *partial, __global volatile uint *arrived, int sk_groups,       \
        int sk_tiles)                                                                              \
    {                                                                                              \
        __local float4 Msub[2][TSK][TSM / 4];                                                      \
        __local float4 Nsub[2][TSK][TSN / 4];                                                      \
        __local uint last;                                                                         \
        stream_k(M, N, P, rows, cols, inner, partial, arrived, sk_groups, sk_tiles, Msub, Nsub,    \
                 &last, full_tiles, k_full, aligned);                                              \
    }
#if REGBLOCK_DIRECT
/* regblock's: any size, checked as MatrixMulRegisterBlocked is. */
STREAM_K_KERNEL(MatrixMulStreamKChecked, FULL_TILES, K_FULL, VEC_ALIGNED)
#endif
#if REGBLOCK_PADDED
/* regblock_padded's: rows, cols and inner multiples of TSM, TSN and TSK. */
STREAM_K_KERNEL(MatrixMulStreamKPadded, 1, 1, 4)

/* X (rows x cols) into Xp (prows x pcols, prows >= rows, pcols >= cols),
 * zeros past X's edges, so that zero terms fill K's padding and P's padded
 * rows and columns are never read back. Work-items past Xp do nothing (the
 * host rounds the range up to whole work-groups). */
__kernel void MatrixPad(__global const float *X, __global float *Xp, int rows, int cols, int prows,
                        int pcols)
{
    const int c = get_global_id(0), r = get_global_id(1);
    if (r < prows && c < pcols)
        Xp[(size_t)r * pcols + c] = r < rows && c < cols ? X[(size_t)r * cols + c] : 0.0f;
}

/* P (rows x cols): the top left of Pp (pcols columns). */
__kernel void MatrixUnpad(__global const float *Pp, __global float *P, int rows, int cols,
                          int pcols)
{
    const int c = get_global_id(0), r = get_global_id(1);
    if (r < rows && c < cols)
        P[(size_t)r * cols + c] = Pp[(size_t)r * pcols + c];
}
#endif
