/* Chains of multiply-adds in one type, for the device's peak throughput in
 * that type (clpeak's compute sp/dp/hp/integer): 8 independent chains of
 * CHAIN_WIDTH lanes per work-item, 2 steps each per iteration, as peak.cl's
 * fma_peak. The file that includes it defines:
 *   CHAIN_T        the scalar type (double, half, uint)
 *   CHAIN_ARG_T    the kernel's argument type for a and b (float for the
 *                  floating types: their a and b are exact in each)
 *   CHAIN_OUT_T    the type written per work-item (half is widened to float)
 *   CHAIN_STEP(x)  one step of a chain, from x, a and b
 *   CHAIN_BASE     the first lane's start from gid (a CHAIN_T)
 *   CHAIN_LANE, CHAIN_APART  what one lane and one chain add to the start
 *   CHAIN_KERNEL   the kernel's name
 * The host computes the same steps and additions in the same order. */
#ifndef FMA_ITERATIONS
#define FMA_ITERATIONS 512
#endif
#ifndef CHAIN_WIDTH
#define CHAIN_WIDTH 4
#endif

#define CHAIN_VEC_(t, w) t##w
#define CHAIN_VEC(t, w)  CHAIN_VEC_(t, w)
typedef CHAIN_VEC(CHAIN_T, CHAIN_WIDTH) chain_vec;
#define L(i) (CHAIN_T)(i)
#if CHAIN_WIDTH == 16
#define CHAIN_LANES                                                                                \
    (chain_vec)(L(0), L(1), L(2), L(3), L(4), L(5), L(6), L(7), L(8), L(9), L(10), L(11), L(12),   \
                L(13), L(14), L(15))
#elif CHAIN_WIDTH == 8
#define CHAIN_LANES (chain_vec)(L(0), L(1), L(2), L(3), L(4), L(5), L(6), L(7))
#else
#define CHAIN_LANES (chain_vec)(L(0), L(1), L(2), L(3))
#endif

#define CHAIN_STEP8                                                                                \
    CHAIN_STEP(x0);                                                                                \
    CHAIN_STEP(x1);                                                                                \
    CHAIN_STEP(x2);                                                                                \
    CHAIN_STEP(x3);                                                                                \
    CHAIN_STEP(x4);                                                                                \
    CHAIN_STEP(x5);                                                                                \
    CHAIN_STEP(x6);                                                                                \
    CHAIN_STEP(x7)

__kernel void CHAIN_KERNEL(__global CHAIN_OUT_T *out, CHAIN_ARG_T a_scalar, CHAIN_ARG_T b_scalar)
{
    int gid = get_global_id(0);
    const chain_vec a = (chain_vec)((CHAIN_T)a_scalar), b = (chain_vec)((CHAIN_T)b_scalar);
    const chain_vec apart = (chain_vec)(CHAIN_APART);
    chain_vec x0 = (chain_vec)(CHAIN_BASE) + CHAIN_LANES * (chain_vec)(CHAIN_LANE);
    chain_vec x1 = x0 + apart, x2 = x1 + apart, x3 = x2 + apart;
    chain_vec x4 = x3 + apart, x5 = x4 + apart, x6 = x5 + apart, x7 = x6 + apart;
    for (int i = 0; i < FMA_ITERATIONS; i++) {
        CHAIN_STEP8;
        CHAIN_STEP8;
    }
    chain_vec sum = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
    /* Halves added until four lanes are left, then those as fma_peak. */
#if CHAIN_WIDTH == 16
    CHAIN_VEC(CHAIN_T, 8) s8 = sum.lo + sum.hi;
    CHAIN_VEC(CHAIN_T, 4) s4 = s8.lo + s8.hi;
#elif CHAIN_WIDTH == 8
    CHAIN_VEC(CHAIN_T, 4) s4 = sum.lo + sum.hi;
#else
    CHAIN_VEC(CHAIN_T, 4) s4 = sum;
#endif
    out[gid] = (CHAIN_OUT_T)((s4.x + s4.y) + (s4.z + s4.w));
}
