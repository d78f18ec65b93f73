/* The device's FP16 throughput (clpeak's compute hp): peak_chains.h's
 * chains on halves. FP16_MAD 1 where the device reports no hardware fma
 * for halves (CL_FP_FMA in CL_DEVICE_HALF_FP_CONFIG): mad(), its fastest
 * way. Built only where the device reports cl_khr_fp16. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#ifndef FP16_MAD
#define FP16_MAD 0
#endif
#define CHAIN_T     half
#define CHAIN_ARG_T float
#define CHAIN_OUT_T float
#if FP16_MAD
#define CHAIN_STEP(x) x = mad(x, a, b)
#else
#define CHAIN_STEP(x) x = fma(x, a, b)
#endif
#define CHAIN_BASE   (half)((float)(gid & 1023) * 0x1p-10f)
#define CHAIN_LANE   (half)0.03125f
#define CHAIN_APART  (half)0.125f
#define CHAIN_KERNEL fp16_peak
/* The host's choice of lanes for the device (peak.c). */
#ifdef FMA_WIDTH
#define CHAIN_WIDTH FMA_WIDTH
#endif
#include "peak_chains.h"
