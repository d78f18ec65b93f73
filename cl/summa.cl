/* SUMMA's accumulation (src/mpi/summa_pieces.c): for each piece of the inner
 * dimension a matmul kernel computes T = M's piece x N's piece into a
 * buffer of its own; this adds T into the rank's block of P. The first
 * piece of a multiplication stores T instead (`first` non-zero), so P needs
 * no clearing pass. A grid-stride loop over the n floats: a GPU runs a
 * work-item per float, a CPU a few groups per compute unit, each item
 * looping (PoCL spends microseconds on each of millions of work-groups). */
__kernel void accumulate(__global float *P, __global const float *T, uint n, uint first)
{
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
        P[i] = first ? T[i] : P[i] + T[i];
}
