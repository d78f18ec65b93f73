/* Experiment (bench/experiments/run.sh): cl/matmul_regblock.cl's direct
 * kernel with its tiles copied by NVIDIA's cp.async (inline PTX, sm_80 and
 * later) into STAGES local buffers, in place of the register-staged double
 * buffer: a copy goes from global to local memory without passing through
 * registers, so STAGES - 1 tiles are in flight while the work-group
 * multiplies one, with one barrier per K step. cp.async cannot transpose,
 * so M's tile is kept as it lies (Msub[m][k / 4], float4s along K) and a
 * work-item's rows are RTSM apart (neighbouring work-items of a warp read
 * rows 32 bytes apart: no bank conflicts); each float4 of M then feeds four
 * K steps, whose rows of N are read first. Whole tiles only (the sizes it
 * is measured at); same kernel name and arguments as cl/'s, so it runs
 * through clmem's --kernel-dir, verified like it. */
/* TSM, TSN, TSK, WPTM, WPTN and FULL_TILES: the host's, as for cl/'s. */
#if !FULL_TILES
#error "regblock_async.cl: an experiment at whole tiles only"
#endif
#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define WG_SIZE (RTSM * RTSN)
#define A_VECS (TSM * TSK / 4)
#define B_VECS (TSK * TSN / 4)
#define STAGE_BYTES ((A_VECS + B_VECS) * 16)
#ifndef STAGES
#define STAGES (49152 / STAGE_BYTES > 4 ? 4 : 49152 / STAGE_BYTES)
#endif
#define STR_(x) #x
#define STR(x) STR_(x)

/* ASYNC 0: plain copies in the same pipeline (its indexing checked on
 * PoCL). */
#ifndef ASYNC
#define ASYNC 1
#endif
#if ASYNC
/* 16 bytes from global src to local dst, asynchronously. */
static inline void copy16(__local float4 *dst, __global const float4 *src)
{
    const uint d = (uint)(size_t)dst;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
}
#define COMMIT() asm volatile("cp.async.commit_group;\n" ::: "memory")
#define WAIT(n) asm volatile("cp.async.wait_group " STR(n) ";\n" ::: "memory")
#else
static inline void copy16(__local float4 *dst, __global const float4 *src) { *dst = *src; }
#define COMMIT()
#define WAIT(n)
#endif

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1))) void
MatrixMulRegisterBlocked(__global const float *M, __global const float *N, __global float *P,
                         int rows, int cols, int inner)
{
    __local float4 Msub[STAGES][TSM][TSK / 4];
    __local float4 Nsub[STAGES][TSK][TSN / 4];
    const int tidn = get_local_id(0);
    const int tidm = get_local_id(1);
    const int tid = tidm * RTSN + tidn;
    const int offsetM = TSM * get_group_id(1);
    const int offsetN = TSN * get_group_id(0);

    float4 acc[WPTM][WPTN / 4];
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN / 4; wn++)
            acc[wm][wn] = (float4)(0.0f);

#define ISSUE(stage, tileK)                                                                        \
    for (int i = tid; i < A_VECS; i += WG_SIZE) {                                                  \
        const int m = i / (TSK / 4), k4 = i % (TSK / 4);                                           \
        copy16(&Msub[stage][m][k4],                                                                \
               (__global const float4 *)(M + (size_t)(offsetM + m) * inner + (tileK) + k4 * 4));  \
    }                                                                                              \
    for (int i = tid; i < B_VECS; i += WG_SIZE) {                                                  \
        const int k = i / (TSN / 4), n4 = i % (TSN / 4);                                           \
        copy16(&Nsub[stage][k][n4],                                                                \
               (__global const float4 *)(N + (size_t)((tileK) + k) * cols + offsetN + n4 * 4));   \
    }

    const int numTiles = inner / TSK;
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < numTiles) {
            ISSUE(s, s * TSK);
        }
        COMMIT();
    }
    for (int t = 0; t < numTiles; t++) {
        /* This work-item's copies of tile t have landed; the barrier makes
         * everyone's visible, and says everyone is done with tile t - 1,
         * whose buffer the next copies overwrite. */
        WAIT(STAGES - 2);
        barrier(CLK_LOCAL_MEM_FENCE);
        const int next = t + STAGES - 1;
        if (next < numTiles) {
            ISSUE(next % STAGES, next * TSK);
        }
        COMMIT();
        const int s = t % STAGES;
#pragma unroll
        for (int kq = 0; kq < TSK / 4; kq++) {
            float4 b[4][WPTN / 4];
            for (int kk = 0; kk < 4; kk++)
                for (int h = 0; h < WPTN / 4; h++)
                    b[kk][h] = Nsub[s][kq * 4 + kk][h * RTSN + tidn];
            for (int e = 0; e < WPTM; e++) {
                const float4 a = Msub[s][tidm + e * RTSM][kq];
                for (int h = 0; h < WPTN / 4; h++) {
                    acc[e][h] = fma((float4)(a.x), b[0][h], acc[e][h]);
                    acc[e][h] = fma((float4)(a.y), b[1][h], acc[e][h]);
                    acc[e][h] = fma((float4)(a.z), b[2][h], acc[e][h]);
                    acc[e][h] = fma((float4)(a.w), b[3][h], acc[e][h]);
                }
            }
        }
    }
#undef ISSUE
    WAIT(0);

    for (int e = 0; e < WPTM; e++) {
        const int row = offsetM + tidm + e * RTSM;
        for (int h = 0; h < WPTN / 4; h++) {
            const int col = offsetN + (h * RTSN + tidn) * 4;
            *(__global float4 *)(P + (size_t)row * cols + col) = acc[e][h];
        }
    }
}
