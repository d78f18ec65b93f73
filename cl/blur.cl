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

/* Beyond the figures: the same blur, coarsened and vectorised. Fig 4.1
 * loads 9 bytes (at BLUR_SIZE 1) for every byte it writes, checks the
 * image's edges for each, and divides by a count it keeps; on a GPU that is
 * instruction-bound, far from the memory's roof. Here a work-item takes a
 * strip of VEC neighbouring bytes of a row, ROWS rows tall:
 *  - each input row the strip needs (ROWS + 2*BLUR_SIZE of them) is loaded
 *    once, as 2*BLUR_SIZE+1 vectors of VEC bytes, one at each horizontal
 *    offset of the box (CHANNELS bytes apart: the halo comes with them), and
 *    summed into one vector of horizontal sums kept in registers;
 *  - an output row is the sum of 2*BLUR_SIZE+1 of those, divided by the
 *    box's size, a constant the compiler turns into a multiply (the top and
 *    bottom BLUR_SIZE rows of the image, whose box is cut, take Fig 4.1's
 *    loop and its own count instead).
 * Per output byte that is about 3 * (ROWS + 2) / ROWS loads of a byte at
 * BLUR_SIZE 1 instead of 9, and no edge check in the loop. On a CPU (VEC
 * 16) each vector is one unaligned load, 16 bytes of the row summed at
 * once; a GPU reads rows the other way (STRIP_LOAD 2, below).
 * Strips that touch the left or right edge of the image (their box would
 * read outside the row: the first and last pixel of a row, and the bytes
 * past the last whole vector of a width that is not a multiple of VEC) take
 * Fig 4.1's loop, byte by byte. No barrier, so the guards may return.
 * The host sets VEC (1, 2, 4, 8 or 16), ROWS and ALIGNED (1: w * CHANNELS
 * is a multiple of VEC, so every strip starts on a VEC-byte boundary and
 * is stored as one aligned vector).
 *
 * STRIP_LOAD (a tuning parameter) is how the rows are read: 1 as above,
 * 2 (with ALIGNED, VEC 4, 8 or 16, a little-endian device) as ONE
 * aligned load of the strip's VEC bytes (32, 64 or 128 bits) plus the HALO
 * bytes on either side, the strip's bytes taken out of the loaded words in
 * registers. On a GPU an unaligned vector load is one byte load per byte
 * (a 16-byte strip of a grey image: 48 byte loads a row; here 1 wide load
 * and 2 byte loads). Its sums are 32-bit words, and its strip is stored as
 * aligned words. A grey image (the 3x3 box of Fig 4.1 over single bytes)
 * keeps two sums to a word, in 16-bit lanes, so that one add sums two
 * bytes (PACKED below): never slower, faster where the adds bind
 * (bench/experiments/). in and out are two buffers
 * (restrict): the compiler may issue a strip's loads before its stores. */
#ifndef VEC
#define VEC 4
#endif
#ifndef ROWS
#define ROWS 8
#endif
#ifndef ALIGNED
#define ALIGNED 0
#endif

/* The box's side, and the bytes of a row on either side of a strip that it reads. */
#define BOX  (2 * BLUR_SIZE + 1)
#define HALO (BLUR_SIZE * CHANNELS)

/* A box's sum: at most BOX * BOX bytes of 255, a ushort up to BLUR_SIZE 7. */
#if BOX * BOX * 255 <= 65535
#define SUM ushort
#else
#define SUM uint
#endif
#define CAT_(a, b) a##b
#define CAT(a, b)  CAT_(a, b)
#if VEC == 1
#define UCHARV       uchar
#define SUMV         SUM
#define LOADV(p)     (*(p))
#define STOREV(v, p) (*(p) = (v))
#define TO_SUMV(v)   ((SUM)(v))
#define TO_UCHARV(v) ((uchar)(v))
#else
#define UCHARV       CAT(uchar, VEC)
#define SUMV         CAT(SUM, VEC)
#define LOADV(p)     CAT(vload, VEC)(0, p)
#define STOREV(v, p) CAT(vstore, VEC)(v, 0, p)
#define TO_SUMV(v)   CAT(CAT(convert_, SUM), VEC)(v)
#define TO_UCHARV(v) CAT(convert_uchar, VEC)(v)
#endif

/* Fig 4.1 for the byte of channel c of pixel (Row, Col). */
static uchar blurPixel(__global const uchar *in, int w, int h, int Row, int Col, int c)
{
    int pixVal = 0;
    int pixels = 0;
    for (int blurRow = -BLUR_SIZE; blurRow < BLUR_SIZE + 1; ++blurRow) {
        for (int blurCol = -BLUR_SIZE; blurCol < BLUR_SIZE + 1; ++blurCol) {
            int curRow = Row + blurRow;
            int curCol = Col + blurCol;
            if (curRow > -1 && curRow < h && curCol > -1 && curCol < w) {
                pixVal += in[(curRow * w + curCol) * CHANNELS + c];
                pixels++;
            }
        }
    }
    return (uchar)(pixVal / pixels);
}

#ifndef STRIP_LOAD
#define STRIP_LOAD 1
#endif
#if STRIP_LOAD == 2 && ALIGNED && (VEC == 4 || VEC == 8 || VEC == 16) && defined(__ENDIAN_LITTLE__)
#define WIDE 1
#else
#define WIDE 0
#endif

#if WIDE
/* The strip's words: VEC / 4 of 32 bits, loaded and stored aligned. */
#define WORDS (VEC / 4)
#if WORDS == 1
#define WORDV uint
#elif WORDS == 2
#define WORDV uint2
#else
#define WORDV uint4
#endif

/* PACKED (grey, 3x3): a row's horizontal sums kept two to a word, in 16-bit
 * lanes (at most 3 * 255 each, 9 * 255 once summed down the box: no lane
 * carries into the next): word 2k holds the sums of bytes 4k and 4k+2,
 * word 2k+1 those of 4k+1 and 4k+3, so that one add sums two bytes.
 * ACROSS: the words a row's sums take. RGB, whose neighbours are 3 bytes
 * apart, keeps a word a byte. */
#if CHANNELS == 1 && BLUR_SIZE == 1
#define PACKED 1
#define ACROSS (VEC / 2)
#else
#define PACKED 0
#define ACROSS VEC
#endif

/* Byte k of the strip's words (k < VEC), little-endian. */
#define BYTE_OF(wv, k) (((wv)[(k) / 4] >> (8 * ((k) % 4))) & 0xffu)

/* The strip's VEC bytes of the row at p, as WORDS aligned words. */
static void stripWords(__global const uchar *restrict p, uint wv[WORDS])
{
    WORDV c = *(__global const WORDV *)p; /* aligned: the caller's strip */
#if WORDS == 1
    wv[0] = c;
#elif WORDS == 2
    wv[0] = c.x;
    wv[1] = c.y;
#else
    wv[0] = c.x;
    wv[1] = c.y;
    wv[2] = c.z;
    wv[3] = c.w;
#endif
}

#if PACKED
/* The horizontal sums of one input row under the strip, packed: for word k
 * of the strip (bytes b0..b3, l the byte before, r the byte after), E holds
 * (b0, b2) and O (b1, b3); the even bytes' sums are E + O + (l, b1), the odd
 * bytes' E + O + (b2, r). */
static void rowSums(__global const uchar *restrict p, uint s[ACROSS])
{
    uint wv[WORDS];
    stripWords(p, wv);
    uint before = p[-1], after = p[VEC];
#pragma unroll
    for (int k = 0; k < WORDS; k++) {
        uint l = k == 0 ? before : wv[k - 1] >> 24;
        uint r = k == WORDS - 1 ? after : wv[k + 1] & 0xffu;
        uint e = wv[k] & 0x00ff00ffu, o = (wv[k] >> 8) & 0x00ff00ffu;
        uint eo = e + o;
        s[2 * k] = eo + ((o << 16) | l);
        s[2 * k + 1] = eo + ((e >> 16) | (r << 16));
    }
}
#else
/* The horizontal sums of one input row under the strip: s[j] the sum of the
 * BOX bytes of channel j % CHANNELS around byte j of the strip. */
static void rowSums(__global const uchar *restrict p, uint s[ACROSS])
{
    uint wv[WORDS];
    stripWords(p, wv);
    /* e[k]: byte k - HALO of the row under the strip, halo included. */
    uint e[VEC + 2 * HALO];
#pragma unroll
    for (int k = 0; k < HALO; k++) {
        e[k] = p[k - HALO];
        e[HALO + VEC + k] = p[VEC + k];
    }
#pragma unroll
    for (int k = 0; k < VEC; k++)
        e[HALO + k] = BYTE_OF(wv, k);
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        uint sum = 0;
#pragma unroll
        for (int b = 0; b < BOX; b++)
            sum += e[j + b * CHANNELS];
        s[j] = sum;
    }
}
#endif

/* An output row of a strip from the BOX rows of horizontal sums of its
 * boxes (win[b]: those of the input row b - BLUR_SIZE rows from it): the
 * integer average of each byte's box, stored at q as aligned words. Packed, each lane is
 * summed down the box, then divided alone. */
static void storeRow(uint win[BOX][ACROSS], __global uchar *restrict q)
{
    uint wv[WORDS];
#pragma unroll
    for (int k = 0; k < WORDS; k++) {
#if PACKED
        uint ve = 0, vo = 0; /* bytes (4k, 4k+2) and (4k+1, 4k+3) */
#pragma unroll
        for (int b = 0; b < BOX; b++) {
            ve += win[b][2 * k];
            vo += win[b][2 * k + 1];
        }
        /* Each lane's sum S (at most 9 * 255 = 2295) over 9, as floor(S *
         * 7282 / 2^16), which equals floor(S / 9) for S <= 2295 (the error,
         * S * (7282 / 2^16 - 1/9) < 0.008, stays below 1/9): the lane
         * shifted to the top half, one multiply-high each (mul_hi(S << 16,
         * 7282) is S * 7282 >> 16). What the compiler makes of S / 9 is a
         * mask or shift, a multiply-high and a shift: one instruction
         * less a lane (bench/roofs/). */
        wv[k] = mul_hi(ve << 16, 7282u) | mul_hi(vo << 16, 7282u) << 8 |
                mul_hi(ve & 0xffff0000u, 7282u) << 16 | mul_hi(vo & 0xffff0000u, 7282u) << 24;
#else
        uint word = 0;
#pragma unroll
        for (int n = 0; n < 4; n++) {
            uint pixVal = 0;
#pragma unroll
            for (int b = 0; b < BOX; b++)
                pixVal += win[b][4 * k + n];
            word |= (pixVal / (BOX * BOX)) << (8 * n);
        }
        wv[k] = word;
#endif
    }
#if WORDS == 1
    *(__global uint *)q = wv[0];
#elif WORDS == 2
    *(__global uint2 *)q = (uint2)(wv[0], wv[1]);
#else
    *(__global uint4 *)q = (uint4)(wv[0], wv[1], wv[2], wv[3]);
#endif
}

/* The window moves a row down: win[b] takes win[b + 1]'s sums. */
static void slideWindow(uint win[BOX][ACROSS])
{
#pragma unroll
    for (int b = 0; b < BOX - 1; b++)
#pragma unroll
        for (int j = 0; j < ACROSS; j++)
            win[b][j] = win[b + 1][j];
}

/* rowSums of input row curRow, or 0 where it is outside the image. */
static void rowSumsChecked(__global const uchar *restrict in, int rowBytes, int h, int x,
                           int curRow, uint s[ACROSS])
{
    if (curRow > -1 && curRow < h) {
        rowSums(in + curRow * rowBytes + x, s);
        return;
    }
#pragma unroll
    for (int j = 0; j < ACROSS; j++)
        s[j] = 0;
}

/* A strip whose box stays inside the row, of the aligned, wide kind. It
 * walks down its ROWS rows with a window of the BOX rows of horizontal
 * sums that the current output row needs: each input row is loaded and
 * summed across once, when the window reaches it (ROWS + 2*BLUR_SIZE rows
 * for ROWS outputs), and the registers hold BOX rows of sums whatever
 * ROWS is, so a work-item can take a tall strip (the window's moves are
 * renamed registers once the loop is unrolled). A strip whose rows and
 * boxes are all inside the image (all but the first and last strip of a
 * column) checks no row and steps from row to row by adding rowBytes,
 * faster than the checked path (bench/experiments/).
 * In the others, rows outside
 * the image sum to 0, and the rows whose box the image's top or bottom
 * cuts are left to Fig 4.1, after the others; their loops are not
 * unrolled (one copy of their code, not ROWS). */
static void blurStripWide(__global const uchar *restrict in, __global uchar *restrict out, int w,
                          int h, int x, int row0)
{
    int rowBytes = w * CHANNELS;
    uint win[BOX][ACROSS];
    if (row0 >= BLUR_SIZE && row0 + ROWS + BLUR_SIZE <= h) {
        /* Every row of the strip and of its boxes inside the image: no
         * check a row, the rows reached by adding rowBytes. */
        __global const uchar *p = in + (row0 - BLUR_SIZE) * rowBytes + x;
#pragma unroll
        for (int b = 1; b < BOX; b++, p += rowBytes)
            rowSums(p, win[b]);
        __global uchar *q = out + row0 * rowBytes + x;
#pragma unroll
        for (int r = 0; r < ROWS; r++, p += rowBytes, q += rowBytes) {
            slideWindow(win);
            rowSums(p, win[BOX - 1]);
            storeRow(win, q);
        }
        return;
    }
    /* At output row r, win[b] holds the sums of input row row0 + r -
     * BLUR_SIZE + b, 0 where that row is outside the image. */
#pragma unroll
    for (int b = 1; b < BOX; b++)
        rowSumsChecked(in, rowBytes, h, x, row0 - BLUR_SIZE + b - 1, win[b]);
#pragma unroll 1
    for (int r = 0; r < ROWS; r++) {
        slideWindow(win);
        rowSumsChecked(in, rowBytes, h, x, row0 + r + BLUR_SIZE, win[BOX - 1]);
        int Row = row0 + r;
        if (Row >= BLUR_SIZE && Row < h - BLUR_SIZE)
            storeRow(win, out + Row * rowBytes + x);
        /* else: cut by the image's top or bottom (or past it): below */
    }
    if (row0 >= BLUR_SIZE && row0 + ROWS <= h - BLUR_SIZE)
        return;
#pragma unroll 1
    for (int Row = row0; Row < row0 + ROWS && Row < h; Row++)
        if (Row < BLUR_SIZE || Row >= h - BLUR_SIZE)
#pragma unroll 1
            for (int b = x; b < x + VEC; b++)
                out[Row * rowBytes + b] = blurPixel(in, w, h, Row, b / CHANNELS, b % CHANNELS);
}
#endif

__kernel void blurCoarsened(__global const uchar *restrict in, __global uchar *restrict out, int w,
                            int h)
{
    int rowBytes = w * CHANNELS;
    int x = get_global_id(0) * VEC; /* the strip's first byte in a row */
    int row0 = get_global_id(1) * ROWS;
    if (x >= rowBytes || row0 >= h)
        return;

    if (x < HALO || x + VEC + HALO > rowBytes) {
        /* A strip at the left or right edge: Fig 4.1, byte by byte. */
        for (int Row = row0; Row < row0 + ROWS && Row < h; Row++)
            for (int b = x; b < x + VEC && b < rowBytes; b++)
                out[Row * rowBytes + b] = blurPixel(in, w, h, Row, b / CHANNELS, b % CHANNELS);
        return;
    }

#if WIDE
    blurStripWide(in, out, w, h, x, row0);
    return;
#endif
    /* across[i]: the horizontal sums of input row row0 - BLUR_SIZE + i under
     * the strip (rows outside the image are not read: the output rows
     * whose box they are in take Fig 4.1's loop below). Unrolled, so that
     * the array lives in registers. */
    SUMV across[ROWS + 2 * BLUR_SIZE];
#pragma unroll
    for (int i = 0; i < ROWS + 2 * BLUR_SIZE; i++) {
        int curRow = row0 - BLUR_SIZE + i;
        SUMV sum = (SUMV)(0);
        if (curRow > -1 && curRow < h) {
            __global const uchar *p = in + curRow * rowBytes + x;
#pragma unroll
            for (int blurCol = -BLUR_SIZE; blurCol < BLUR_SIZE + 1; ++blurCol)
                sum += TO_SUMV(LOADV(p + blurCol * CHANNELS));
        }
        across[i] = sum;
    }
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        int Row = row0 + r;
        if (Row < BLUR_SIZE || Row >= h - BLUR_SIZE) {
            /* The top and bottom rows of the image (or past it), whose box
             * is cut: Fig 4.1, byte by byte. */
            for (int b = x; Row < h && b < x + VEC; b++)
                out[Row * rowBytes + b] = blurPixel(in, w, h, Row, b / CHANNELS, b % CHANNELS);
        } else {
            SUMV pixVal = (SUMV)(0);
#pragma unroll
            for (int blurRow = 0; blurRow < BOX; blurRow++)
                pixVal += across[r + blurRow];
            UCHARV v = TO_UCHARV(pixVal / (SUM)(BOX * BOX));
            __global uchar *q = out + Row * rowBytes + x;
            if (ALIGNED)
                *(__global UCHARV *)q = v;
            else
                STOREV(v, q);
        }
    }
}
