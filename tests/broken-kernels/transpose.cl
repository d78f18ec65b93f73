/* Matrix transpose (CUDA memory lecture, "Esempio: Matrix Transpose").
 * idata is height rows of width floats, row-major; the transposes write
 * odata as width rows of height floats, copy writes it as idata.
 * A work-group is TILE_DIM x BLOCK_ROWS work-items over one TILE_DIM x
 * TILE_DIM tile: each work-item handles TILE_DIM/BLOCK_ROWS elements in a
 * loop, as the lecture's kernels do. Every kernel repeats its body nreps
 * times: 1 for "loop over kernel", NUM_REPS for the "loop inside" timing.
 * Unlike the lecture (sides multiple of 32), any size works: loads and
 * stores are guarded, barriers stay outside the guards.
 * The host picks TILE_DIM and BLOCK_ROWS per device; the defaults let this
 * file build alone. BLOCK_ROWS must divide TILE_DIM. */
#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

/* Slide "Simple Copy Kernel": the bandwidth reference. */
__kernel void copy(__global const float *idata, __global float *odata, int width, int height,
                   int nreps)
{
    int xIndex = get_group_id(0) * TILE_DIM + get_local_id(0);
    int yIndex = get_group_id(1) * TILE_DIM + get_local_id(1);

    int index_in = width * yIndex + xIndex;
    int index_out = index_in;

    for (int r = 0; r < nreps; r++)
        for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
            if (xIndex < width && yIndex + i < height)
                odata[index_out + i * width] = idata[index_in + i * width];
}

/* Slide "Naive Transpose": coalesced reads, writes strided by height. */
__kernel void transposeNaive(__global const float *idata, __global float *odata, int width,
                             int height, int nreps)
{
    int xIndex = get_group_id(0) * TILE_DIM + get_local_id(0);
    int yIndex = get_group_id(1) * TILE_DIM + get_local_id(1);

    int index_in = width * yIndex + xIndex;
    int index_out = height * xIndex + yIndex;

    for (int r = 0; r < nreps; r++)
        for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
            if (xIndex < width && yIndex + i < height)
                odata[index_out + i] = idata[index_in + i * width];
}

/* Slide "Coalesced Transpose": the tile is read by rows, transposed through
 * local memory, written by rows. Its columns hit one bank (TILE_DIM apart).
 * The second barrier keeps the next pass's loads from overwriting the tile
 * while others still read it (the lecture's loop has only the first). */
__kernel void transposeCoalesced(__global const float *idata, __global float *odata, int width,
                                 int height, int nreps)
{
    __local float tile[TILE_DIM][TILE_DIM];

    int xIndex = get_group_id(0) * TILE_DIM + get_local_id(0);
    int yIndex = get_group_id(1) * TILE_DIM + get_local_id(1);
    int index_in = width * yIndex + xIndex;
    int in_x = xIndex, in_y = yIndex;

    xIndex = get_group_id(1) * TILE_DIM + get_local_id(0);
    yIndex = get_group_id(0) * TILE_DIM + get_local_id(1);
    int index_out = height * yIndex + xIndex;

    int tx = get_local_id(0), ty = get_local_id(1);
    for (int r = 0; r < nreps; r++) {
        for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
            if (in_x < width && in_y + i < height)
                tile[ty + i][tx] = idata[index_in + i * width];
        for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
            if (xIndex < height && yIndex + i < width)
                odata[index_out + i * height] = tile[tx][ty + i];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* Slide "Avoiding Bank Conflict": transposeCoalesced with rows of
 * TILE_DIM+1 floats, so a column of the tile spreads over every bank. */
__kernel void transposeNoBankConflicts(__global const float *idata, __global float *odata,
                                       int width, int height, int nreps)
{
    __local float tile[TILE_DIM][TILE_DIM + 1];

    int xIndex = get_group_id(0) * TILE_DIM + get_local_id(0);
    int yIndex = get_group_id(1) * TILE_DIM + get_local_id(1);
    int index_in = width * yIndex + xIndex;
    int in_x = xIndex, in_y = yIndex;

    xIndex = get_group_id(1) * TILE_DIM + get_local_id(0);
    yIndex = get_group_id(0) * TILE_DIM + get_local_id(1);
    int index_out = height * yIndex + xIndex;

    int tx = get_local_id(0), ty = get_local_id(1);
    for (int r = 0; r < nreps; r++) {
        for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
            if (in_x < width && in_y + i < height)
                tile[ty + i][tx] = idata[index_in + i * width];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
            if (xIndex < height && yIndex + i < width)
                odata[index_out + i * height] = tile[tx][ty + i];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
