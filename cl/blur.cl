/* Image blur, Kirk & Hwu Fig 3.8 (the blurKernel) whose inner loop is
 * Fig 4.1: each output value is the average of the (2*BLUR_SIZE+1)^2 box
 * around it, over the pixels actually inside the image
 * (curRow > -1 && curRow < h && curCol > -1 && curCol < w), in integer
 * arithmetic: pixVal / pixels, stored as unsigned char.
 * Images are h rows of w pixels of CHANNELS interleaved bytes (1: grey,
 * 3: RGB). One work-item per output pixel and channel: dimension 0 runs
 * over the w * CHANNELS bytes of a row, so neighbouring work-items touch
 * neighbouring bytes; each channel is blurred on its own.
 * The host sets BLUR_SIZE, CHANNELS and TILE (work-group TILE x TILE);
 * the defaults let this file build alone. */
#ifndef BLUR_SIZE
#define BLUR_SIZE 1
#endif
#ifndef CHANNELS
#define CHANNELS 1
#endif
#ifndef TILE
#define TILE 16
#endif

/* Fig 3.8 / Fig 4.1, one work-item per output pixel (and channel). */
__kernel void blurKernel(__global const uchar *in, __global uchar *out, int w, int h)
{
    int x = get_global_id(0); /* byte in the row: pixel Col, channel c */
    int Row = get_global_id(1);
    int Col = x / CHANNELS, c = x % CHANNELS;

    if (Col < w && Row < h) {
        int pixVal = 0;
        int pixels = 0;

        // Get the average of the surrounding (2*BLUR_SIZE+1)^2 box
        for (int blurRow = -BLUR_SIZE; blurRow < BLUR_SIZE + 1; ++blurRow) {
            for (int blurCol = -BLUR_SIZE; blurCol < BLUR_SIZE + 1; ++blurCol) {
                int curRow = Row + blurRow;
                int curCol = Col + blurCol;
                // Verify we have a valid image pixel
                if (curRow > -1 && curRow < h && curCol > -1 && curCol < w) {
                    pixVal += in[(curRow * w + curCol) * CHANNELS + c];
                    pixels++; // Keep track of number of pixels in the avg
                }
            }
        }
        // Write our new pixel value out
        out[(Row * w + Col) * CHANNELS + c] = (uchar)(pixVal / pixels);
    }
}

/* The same blur from local memory: a work-group of TILE x TILE work-items
 * loads its TILE rows of TILE bytes plus a halo of BLUR_SIZE pixels on
 * every side (edge-checked: bytes outside the image are never read), waits
 * at a barrier, then averages from the tile. Loads and stores are guarded,
 * the barrier is reached by every work-item, so any size works. */
#define TILE_ROWS (TILE + 2 * BLUR_SIZE)
#define TILE_COLS (TILE + 2 * BLUR_SIZE * CHANNELS)

__kernel void blurTiled(__global const uchar *in, __global uchar *out, int w, int h)
{
    __local uchar tile[TILE_ROWS][TILE_COLS];

    int tx = get_local_id(0), ty = get_local_id(1);
    int x0 = get_group_id(0) * TILE - BLUR_SIZE * CHANNELS; /* byte of tile[.][0] */
    int row0 = get_group_id(1) * TILE - BLUR_SIZE;          /* row of tile[0][.] */
    int rowBytes = w * CHANNELS;

    for (int i = ty * TILE + tx; i < TILE_ROWS * TILE_COLS; i += TILE * TILE) {
        int r = i / TILE_COLS, col = i % TILE_COLS;
        int curRow = row0 + r, curX = x0 + col;
        uchar v = 0;
        // Load only bytes of the image (curX is a byte, its pixel curX / CHANNELS)
        if (curRow > -1 && curRow < h && curX > -1 && curX < rowBytes)
            v = in[curRow * rowBytes + curX];
        tile[r][col] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    int x = get_group_id(0) * TILE + tx;
    int Row = get_group_id(1) * TILE + ty;
    int Col = x / CHANNELS;
    if (Col < w && Row < h) {
        int pixVal = 0;
        int pixels = 0;
        for (int blurRow = -BLUR_SIZE; blurRow < BLUR_SIZE + 1; ++blurRow) {
            for (int blurCol = -BLUR_SIZE; blurCol < BLUR_SIZE + 1; ++blurCol) {
                int curRow = Row + blurRow;
                int curCol = Col + blurCol;
                if (curRow > -1 && curRow < h && curCol > -1 && curCol < w) {
                    pixVal += tile[ty + BLUR_SIZE + blurRow][tx + (BLUR_SIZE + blurCol) * CHANNELS];
                    pixels++;
                }
            }
        }
        out[Row * rowBytes + x] = (uchar)(pixVal / pixels);
    }
}
