/* Matrix transpose beyond the lecture (its kernels are in transpose.cl):
 * the padded kernel's tile, moved by float4s. A work-group of VEC_TILE/4 x
 * VEC_ROWS work-items takes a VEC_TILE x VEC_TILE tile: each work-item
 * loads one float4 of a row of the tile (a row's VEC_TILE/4 work-items
 * load neighbouring float4s: coalesced) into local memory, every VEC_ROWS
 * rows down the tile as the lecture's BLOCK_ROWS loop does, then, after
 * the barrier, gathers four values of a column of the tile into a float4 of
 * a row of the output and stores it (coalesced the same way), as many
 * times. Every global access moves 16 bytes instead of the lecture's 4,
 * and several rows a work-item keep more of them in flight; the tile keeps
 * its padding column, so a warp's local reads and writes hit 32 banks.
 * idata is height rows of width floats; odata width rows of height floats.
 * Any size: a float4 that crosses an edge moves float by float, guarded.
 * VEC_ALIGNED=1 (width and height multiples of 4, said by the host) makes
 * every row of both matrices start on a float4 boundary, so whole float4s
 * are aligned; otherwise they go through vload4 and vstore4. The body
 * repeats nreps times, as the lecture's kernels do. VEC_TILE and VEC_ROWS
 * (the host's, tuned apart from the lecture's TILE_DIM): VEC_TILE a
 * multiple of 4, VEC_ROWS a divisor of it. */
#ifndef VEC_TILE
#define VEC_TILE 32
#endif
#ifndef VEC_ROWS
#define VEC_ROWS 8
#endif
#ifndef VEC_ALIGNED
#define VEC_ALIGNED 0
#endif

__kernel __attribute__((reqd_work_group_size(VEC_TILE / 4, VEC_ROWS, 1))) void
transposeVec4(__global const float *idata, __global float *odata, int width, int height, int nreps)
{
    __local float tile[VEC_TILE][VEC_TILE + 1];

    int lx = get_local_id(0), ly = get_local_id(1);
    int x0 = get_group_id(0) * VEC_TILE, y0 = get_group_id(1) * VEC_TILE;
    /* The float4s this work-item loads: input rows y0 + j, columns from x = x0 + 4 lx. */
    int x = x0 + 4 * lx;
    /* The ones it stores: output rows x0 + j (input columns), columns from y0 + 4 lx. */
    int oy = y0 + 4 * lx;
    for (int r = 0; r < nreps; r++) {
        for (int j = ly; j < VEC_TILE; j += VEC_ROWS) {
            int y = y0 + j;
            if (y < height) {
                __global const float *in = idata + (size_t)y * width + x;
                if (x + 4 <= width) {
                    float4 v = VEC_ALIGNED ? *(__global const float4 *)in : vload4(0, in);
                    tile[j][4 * lx] = v.x;
                    tile[j][4 * lx + 1] = v.y;
                    tile[j][4 * lx + 2] = v.z;
                    tile[j][4 * lx + 3] = v.w;
                } else {
                    for (int k = 0; k < 4 && x + k < width; k++)
                        tile[j][4 * lx + k] = in[k];
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = ly; j < VEC_TILE; j += VEC_ROWS) {
            int ox = x0 + j;
            if (ox < width) {
                __global float *out = odata + (size_t)ox * height + oy;
                if (oy + 4 <= height) {
                    float4 v = (float4)(tile[4 * lx][j], tile[4 * lx + 1][j], tile[4 * lx + 2][j],
                                        tile[4 * lx + 3][j]);
                    if (VEC_ALIGNED)
                        *(__global float4 *)out = v;
                    else
                        vstore4(v, 0, out);
                } else {
                    for (int k = 0; k < 4 && oy + k < height; k++)
                        out[k] = tile[4 * lx + k][j];
                }
            }
        }
        /* The next pass's loads wait for this pass's reads of the tile. */
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
