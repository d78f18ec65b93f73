/* An experiment, not kept (bench/README.md, "Experiments measured and not
 * kept"): transpose vec4 without local memory. Each work-item reads a 4x4
 * block as four float4s of four input rows, transposes it in registers and
 * writes four float4s to four output rows; a work-group of VEC_TILE/4 x VEC_ROWS work-items
 * covers a VEC_TILE x VEC_TILE tile, VEC_ROWS a divisor of VEC_TILE/4. A
 * warp reads whole 32-byte sectors of each row and writes 32 bytes of each
 * of 16 rows. Same name and arguments as cl/transpose_vec4.cl's kernel, so
 * it runs in its place (--kernel-dir); the host defines VEC_TILE, VEC_ROWS
 * and VEC_ALIGNED as for it. */

__kernel __attribute__((reqd_work_group_size(VEC_TILE / 4, VEC_ROWS, 1))) void
transposeVec4(__global const float *idata, __global float *odata, int width, int height, int nreps)
{
    int lx = get_local_id(0), ly = get_local_id(1);
    int x0 = get_group_id(0) * VEC_TILE, y0 = get_group_id(1) * VEC_TILE;
    int x = x0 + 4 * lx;
    for (int r = 0; r < nreps; r++) {
        for (int by = ly; by < VEC_TILE / 4; by += VEC_ROWS) {
            int y = y0 + 4 * by;
            if (VEC_ALIGNED && x + 4 <= width && y + 4 <= height) {
                float4 a = *(__global const float4 *)(idata + (size_t)y * width + x);
                float4 b = *(__global const float4 *)(idata + (size_t)(y + 1) * width + x);
                float4 c = *(__global const float4 *)(idata + (size_t)(y + 2) * width + x);
                float4 d = *(__global const float4 *)(idata + (size_t)(y + 3) * width + x);
                *(__global float4 *)(odata + (size_t)x * height + y) = (float4)(a.x, b.x, c.x, d.x);
                *(__global float4 *)(odata + (size_t)(x + 1) * height + y) = (float4)(a.y, b.y, c.y, d.y);
                *(__global float4 *)(odata + (size_t)(x + 2) * height + y) = (float4)(a.z, b.z, c.z, d.z);
                *(__global float4 *)(odata + (size_t)(x + 3) * height + y) = (float4)(a.w, b.w, c.w, d.w);
            } else {
                for (int i = 0; i < 4; i++)
                    for (int j = 0; j < 4; j++)
                        if (y + i < height && x + j < width)
                            odata[(size_t)(x + j) * height + y + i] = idata[(size_t)(y + i) * width + x + j];
            }
        }
    }
}
