/* The device's FP64 throughput (clpeak's compute dp): peak_chains.h's
 * chains of fma() on doubles, which OpenCL requires to be rounded once, so
 * the host computes them bit for bit. Built only where the device reports
 * cl_khr_fp64. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CHAIN_T        double
#define CHAIN_ARG_T    float
#define CHAIN_OUT_T    double
#define CHAIN_STEP(x)  x = fma(x, a, b)
#define CHAIN_BASE     (double)(gid & 1023) * 0x1p-10
#define CHAIN_LANE     0.03125
#define CHAIN_APART    0.125
#define CHAIN_KERNEL   fp64_peak
/* The host's choice of lanes for the device (peak.c). */
#ifdef FP64_WIDTH
#define CHAIN_WIDTH FP64_WIDTH
#endif
#include "peak_chains.h"
