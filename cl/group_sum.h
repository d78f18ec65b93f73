/* A work-group's sum in local memory, Kirk & Hwu Fig 5.15's tree (stride
 * halving), shared by dot.cl and sum_coarsened.cl. The file that includes
 * it defines GROUP_SUM_SIZE, its launches' local size, a power of two.
 * clmem puts this text in place of the #include when it loads a kernel
 * source (src/opencl/program.c), so that an edit here rebuilds both. */
#ifndef GROUP_SUM_SIZE
#error "define GROUP_SUM_SIZE, the work-group size, before including group_sum.h"
#endif

/* Every work-item of the group calls it with its value; work-item 0 gets
 * the group's sum, the others 0. partialSum holds GROUP_SUM_SIZE floats. */
static float groupSum(__local float *partialSum, float value)
{
    unsigned int t = get_local_id(0);
    partialSum[t] = value;
    for (unsigned int stride = GROUP_SUM_SIZE / 2; stride >= 1; stride = stride >> 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < stride)
            partialSum[t] += partialSum[t + stride];
    }
    /* partialSum[0] was last written by work-item 0 itself. */
    return t == 0 ? partialSum[0] : 0.0f;
}
