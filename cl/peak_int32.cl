/* The device's 32-bit integer throughput (clpeak's compute integer):
 * peak_chains.h's chains of x * a + b on uint, a multiply and an add each
 * (2 operations), wrapping modulo 2^32 as the host's uint does. */
#define CHAIN_T      uint
#define CHAIN_ARG_T  uint
#define CHAIN_OUT_T  uint
#define CHAIN_STEP(x) x = x * a + b
#define CHAIN_BASE   (uint)gid
#define CHAIN_LANE   0x10001u
#define CHAIN_APART  0x9E3779B9u
#define CHAIN_KERNEL int32_peak
/* The host's choice of lanes for the device (peak.c). */
#ifdef FMA_WIDTH
#define CHAIN_WIDTH FMA_WIDTH
#endif
#include "peak_chains.h"
