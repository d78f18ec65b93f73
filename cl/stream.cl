/* BabelStream's five kernels (UoB-HPC/BabelStream, its OpenCL model
 * OCLStream) on floats, as its --float run: copy c = a, mul b = s * c,
 * add c = a + b, triad a = b + s * c, dot sum(a * b). Every work-item past
 * n does nothing, so any n runs on whole work-groups; where n is a
 * multiple of the work-group (WHOLE_GROUPS) the grid is n exactly and the
 * kernels check nothing, as the reference's: a check in the body keeps CPU
 * runtimes from vectorizing a work-group's loop. Beside them,
 * mixbench's arithmetic-intensity sweep (ekondis/mixbench): one element
 * read and one written per chain of `steps` multiply-adds. */

#if WHOLE_GROUPS
#define IN_RANGE(i) 1
#else
#define IN_RANGE(i) ((i) < n)
#endif

__kernel void stream_copy(__global const float *a, __global float *c, int n)
{
    int i = get_global_id(0);
    if (IN_RANGE(i))
        c[i] = a[i];
}

__kernel void stream_mul(__global float *b, __global const float *c, float scalar, int n)
{
    int i = get_global_id(0);
    if (IN_RANGE(i))
        b[i] = scalar * c[i];
}

__kernel void stream_add(__global const float *a, __global const float *b, __global float *c,
                         int n)
{
    int i = get_global_id(0);
    if (IN_RANGE(i))
        c[i] = a[i] + b[i];
}

__kernel void stream_triad(__global float *a, __global const float *b, __global const float *c,
                           float scalar, int n)
{
    int i = get_global_id(0);
    if (IN_RANGE(i))
        a[i] = b[i] + scalar * c[i];
}

#ifndef DOT_GROUP
#define DOT_GROUP 256
#endif
/* BabelStream's stream_dot: a fixed number of groups strides over the
 * arrays, each work-item summing its products, each group its work-items'
 * sums in local memory (DOT_GROUP, a power of two, is the group's size);
 * the host adds the groups' sums. The products are read as float4s (the
 * n % 4 after the last one by work-item 0), which CPU runtimes need to
 * vectorize a strided loop; the group's size is fixed at build time
 * (reqd_work_group_size) so that they can compile the group's loops around
 * the barriers. Every work-item reaches every barrier. */
__kernel __attribute__((reqd_work_group_size(DOT_GROUP, 1, 1))) void stream_dot(
    __global const float *a, __global const float *b, __global float *sums, int n)
{
    __local float wg_sum[DOT_GROUP];
    int local_i = get_local_id(0), gid = get_global_id(0), items = get_global_size(0);
    int n4 = n / 4;
    __global const float4 *a4 = (__global const float4 *)a;
    __global const float4 *b4 = (__global const float4 *)b;
    float4 acc4 = (float4)(0.0f);
    for (int i = gid; i < n4; i += items)
        acc4 += a4[i] * b4[i];
    float acc = (acc4.x + acc4.y) + (acc4.z + acc4.w);
    for (int i = 4 * n4 + gid; i < n; i += items)
        acc += a[i] * b[i];
    wg_sum[local_i] = acc;
    for (int offset = DOT_GROUP / 2; offset > 0; offset /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (local_i < offset)
            wg_sum[local_i] += wg_sum[local_i + offset];
    }
    if (local_i == 0)
        sums[get_group_id(0)] = wg_sum[0];
}

/* mixbench's shape: each work-item takes 4 elements a grid apart
 * (neighbours read neighbours) as one float4, runs `steps` multiply-adds
 * on each (independent chains, for the pipelines) and writes them: 2 *
 * steps flops per 8 bytes moved. mixbench fixes the steps at compile
 * time; here they are an argument, so that one program serves every
 * point. */
__kernel __attribute__((reqd_work_group_size(DOT_GROUP, 1, 1))) void stream_intensity(
    __global const float *in, __global float *out, int n, int steps, float a, float b)
{
    int gid = get_global_id(0), items = get_global_size(0);
    int i0 = gid, i1 = gid + items, i2 = gid + 2 * items, i3 = gid + 3 * items;
    float4 x = (float4)(i0 < n ? in[i0] : 0.0f, i1 < n ? in[i1] : 0.0f, i2 < n ? in[i2] : 0.0f,
                        i3 < n ? in[i3] : 0.0f);
    const float4 av = (float4)(a), bv = (float4)(b);
    for (int s = 0; s < steps; s++)
        x = mad(x, av, bv);
    if (i0 < n)
        out[i0] = x.x;
    if (i1 < n)
        out[i1] = x.y;
    if (i2 < n)
        out[i2] = x.z;
    if (i3 < n)
        out[i3] = x.w;
}
