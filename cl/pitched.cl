/* Pitched 2D arrays (CUDA course, seed 003, day 2, "Garantire
 * l'allineamento dei dati in memoria": cudaMallocPitch / cudaMemcpy2D).
 * A height x width float array; each work-item of a 2D NDRange does
 * out[y][x] = 2 * in[y][x] + y. The host rounds the NDRange up to the
 * work-group, so both kernels guard x < width and y < height.
 * Indices are int; the host refuses arrays they cannot hold. */

/* Rows packed, width floats apart: with an odd width a row starts at an
 * address no segment is aligned to. */
__kernel void unpadded(__global const float *in, __global float *out, int width, int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < width && y < height)
        out[y * width + x] = 2.0f * in[y * width + x] + y;
}

/* Rows `pitch` floats apart (the host's pitch in bytes / 4, a multiple of
 * the device's base address alignment): every row starts aligned. The row
 * pointer as the slide's myKernel: float *row = devPtr + r * pitch. */
__kernel void pitched(__global const float *in, __global float *out, int width, int height,
                      int pitch)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < width && y < height) {
        __global const float *row_in = in + y * pitch;
        __global float *row_out = out + y * pitch;
        row_out[x] = 2.0f * row_in[x] + y;
    }
}

/* Beyond the slides: the pitched kernel, a float4 per work-item. Every row
 * starts on the pitch's alignment (a multiple of 16 bytes), so its whole
 * float4s are aligned: each work-item moves 16 bytes with one load and one
 * store instead of 4 bytes, four times the bytes in flight per work-item
 * and a quarter of the memory instructions, as the device's copy peak does.
 * A row's last float4, where width is not a multiple of 4, is moved float
 * by float: the padding after it is never read or written. */
__kernel void vec4Pitched(__global const float *in, __global float *out, int width, int height,
                          int pitch)
{
    int x = get_global_id(0) * 4, y = get_global_id(1);
    if (x < width && y < height) {
        __global const float *row_in = in + y * pitch;
        __global float *row_out = out + y * pitch;
        if (x + 4 <= width) {
            float4 v = *(__global const float4 *)(row_in + x);
            *(__global float4 *)(row_out + x) = 2.0f * v + y;
        } else {
            for (int k = x; k < width; k++)
                row_out[k] = 2.0f * row_in[k] + y;
        }
    }
}
