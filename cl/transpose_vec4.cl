/* Matrix transpose beyond the lecture (its kernels are in transpose.cl):
 * each work-item moves a 4 x 4 block through its registers. It loads the
 * block's four rows as float4s (neighbouring work-items load neighbouring
 * float4s of a row: coalesced), transposes the block in registers and
 * stores four float4s along the output's rows (coalesced the same way).
 * No local memory, no barrier: the tile of the lecture's kernels becomes
 * registers, and every access moves 16 bytes instead of 4.
 * idata is height rows of width floats; odata width rows of height floats.
 * Any size: a block that crosses the edge moves float by float, guarded.
 * VEC_ALIGNED=1 (width and height multiples of 4, said by the host) makes
 * every row of both matrices start on a float4 boundary, so whole blocks
 * move as aligned float4s; otherwise they go through vload4 and vstore4.
 * The body repeats nreps times, as the lecture's kernels do. */
#ifndef VEC_ALIGNED
#define VEC_ALIGNED 0
#endif

static float4 load_row(__global const float *p)
{
    return VEC_ALIGNED ? *(__global const float4 *)p : vload4(0, p);
}

static void store_row(float4 v, __global float *p)
{
    if (VEC_ALIGNED)
        *(__global float4 *)p = v;
    else
        vstore4(v, 0, p);
}

__kernel void transposeVec4(__global const float *idata, __global float *odata, int width,
                            int height, int nreps)
{
    int x = get_global_id(0) * 4, y = get_global_id(1) * 4;
    if (x >= width || y >= height)
        return; /* no barrier in this kernel: an early return is safe */
    __global const float *in = idata + (size_t)y * width + x;
    __global float *out = odata + (size_t)x * height + y;
    for (int r = 0; r < nreps; r++) {
        if (x + 4 <= width && y + 4 <= height) {
            float4 a = load_row(in), b = load_row(in + width), c = load_row(in + 2 * width),
                   d = load_row(in + 3 * width);
            store_row((float4)(a.x, b.x, c.x, d.x), out);
            store_row((float4)(a.y, b.y, c.y, d.y), out + height);
            store_row((float4)(a.z, b.z, c.z, d.z), out + 2 * height);
            store_row((float4)(a.w, b.w, c.w, d.w), out + 3 * height);
        } else {
            for (int j = 0; j < 4 && x + j < width; j++)
                for (int i = 0; i < 4 && y + i < height; i++)
                    out[(size_t)j * height + i] = in[(size_t)i * width + j];
        }
    }
}
