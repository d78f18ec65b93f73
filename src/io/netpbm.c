/* Images for the image workloads (blur, constmem): binary netpbm files
 * (P5 grey, P6 RGB, maxval 1..255) read and written, the seeded generated
 * image used when there is no --input, and the image-edge test of Kirk &
 * Hwu Fig 4.1 shared by the CPU references.
 * Header rules follow the netpbm spec (pgm(5), ppm(5)): magic, whitespace,
 * width, whitespace, height, whitespace, maxval, then exactly one
 * whitespace character before the raster. Whitespace is blanks, TABs, CRs,
 * LFs, VTs and FFs; before the maxval, '#' up to the next CR or LF is a
 * comment. A file may hold more images after the first: only the first is
 * used. The file is read once, whole, into memory (a pipe, a FIFO or
 * /dev/stdin can be read only once) and the image parsed from what was
 * read, so a truncated one is known before anything is allocated for it. */
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* The image's bytes as read, and where the parser is; ran_out: it looked
 * past them (more may come, from a file still being read). */
struct cursor {
    const unsigned char *data;
    size_t size, at;
    int ran_out;
};

static int next(struct cursor *c)
{
    if (c->at < c->size)
        return c->data[c->at++];
    c->ran_out = 1;
    return EOF;
}

static void back(struct cursor *c, int ch)
{
    if (ch != EOF)
        c->at--;
}

/* Skips whitespace and comments; false when none was there (tokens must be
 * separated) or the file ended. */
static int skip_separator(struct cursor *f)
{
    int seen = 0, c;
    while ((c = next(f)) != EOF) {
        if (c == '#') {
            while ((c = next(f)) != EOF && c != '\n' && c != '\r')
                ;
            seen = 1;
        } else if (is_space(c)) {
            seen = 1;
        } else {
            back(f, c);
            return seen;
        }
    }
    return 0;
}

/* A header byte as a message shows it: printable ASCII as it is, any
 * other (a NUL, which would end the message there, an ESC, a byte above
 * 0x7e) as \xHH. */
static const char *shown_byte(int c, char out[8])
{
    if (c >= 0x20 && c <= 0x7e)
        snprintf(out, 8, "%c", c);
    else
        snprintf(out, 8, "\\x%02x", (unsigned)c & 0xffu);
    return out;
}

/* Reads the header field `name` (width, height, maxval) after its separator. */
static int read_field(struct cursor *f, const char *path, const char *name, size_t *value,
                      struct clmem_error *err)
{
    if (!skip_separator(f)) {
        int c = next(f);
        if (c == EOF)
            return clmem_fail(err, CLMEM_ERR_USAGE, "image '%s': truncated header: no %s", path,
                              name);
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "image '%s': bad header: no whitespace before the %s", path, name);
    }
    char shown[8];
    int c = next(f);
    if (c < '0' || c > '9')
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "image '%s': bad %s: expected a decimal number, got '%s'", path, name,
                          shown_byte(c, shown));
    size_t v = 0;
    int too_large = 0;
    for (; c >= '0' && c <= '9'; c = next(f)) {
        size_t digit = (size_t)(c - '0');
        if (v > (SIZE_MAX - digit) / 10)
            too_large = 1; /* reads on to the end of the digits */
        else
            v = v * 10 + digit;
    }
    if (too_large)
        return clmem_fail(err, CLMEM_ERR_USAGE, "image '%s': %s is too large (at most %zu)", path,
                          name, (size_t)SIZE_MAX);
    if (c == EOF)
        return clmem_fail(err, CLMEM_ERR_USAGE, "image '%s': truncated header after the %s", path,
                          name);
    if (!is_space(c) && c != '#')
        return clmem_fail(err, CLMEM_ERR_USAGE, "image '%s': bad %s: unexpected '%s' after %zu",
                          path, name, shown_byte(c, shown), v);
    back(f, c);
    *value = v;
    return CLMEM_OK;
}

static int read_header(struct cursor *f, const char *path, struct clmem_image *image,
                       struct clmem_error *err)
{
    int m0 = next(f), m1 = next(f), status;
    if (m0 == EOF)
        return clmem_fail(err, CLMEM_ERR_USAGE, "image '%s': bad magic: the file is empty", path);
    if (m0 != 'P' || (m1 != '5' && m1 != '6')) {
        char first[8], second[8];
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "image '%s': bad magic '%s%s' (expected binary P5 grey or P6 RGB)", path,
                          shown_byte(m0, first), m1 == EOF ? "" : shown_byte(m1, second));
    }
    image->channels = m1 == '5' ? 1 : 3;
    size_t width, height, maxval;
    if ((status = read_field(f, path, "width", &width, err)) ||
        (status = read_field(f, path, "height", &height, err)))
        return status;
    if (width == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "image '%s': width 0", path);
    if (height == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "image '%s': height 0", path);
    if ((status = read_field(f, path, "maxval", &maxval, err)))
        return status;
    if (maxval == 0 || maxval > 65535)
        return clmem_fail(err, CLMEM_ERR_USAGE, "image '%s': maxval %zu out of range (1..255)",
                          path, maxval);
    if (maxval > 255)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "image '%s': maxval %zu means 16-bit samples, which are not supported "
                          "(maxval must be 1..255)",
                          path, maxval);
    /* Exactly one whitespace character ends the header (no comment here). */
    int c = next(f);
    if (c == '#')
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "image '%s': bad header: a comment after the maxval", path);
    image->width = width;
    image->height = height;
    image->maxval = (unsigned)maxval;
    return CLMEM_OK;
}

/* The most read of one file: more than any image the kernels take (their
 * int indices), with room for a header. */
#define MOST_READ ((size_t)INT_MAX + ((size_t)1 << 20))
/* The longest header read (comments included) before it must have ended. */
#define MOST_HEADER ((size_t)1 << 20)

/* Reads from fd into *buf (grown as needed, one byte spare for a NUL)
 * until *len reaches `want` or the end: 0, or -1 with errno (ENOMEM, or
 * read's). *eof when the end came. */
static int read_until(int fd, char **buf, size_t *cap, size_t *len, size_t want, int *eof)
{
    while (*len < want && !*eof) {
        if (*len + 1 >= *cap) {
            size_t grown = *cap ? 2 * *cap : (size_t)1 << 16;
            if (grown > want + 1)
                grown = want + 1;
            if (grown <= *len + 1)
                grown = *len + 2;
            char *more = realloc(*buf, grown);
            if (!more) {
                errno = ENOMEM;
                return -1;
            }
            *buf = more;
            *cap = grown;
        }
        size_t room = *cap - 1 - *len;
        if (room > want - *len)
            room = want - *len;
        ssize_t got = read(fd, *buf + *len, room);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -1;
        if (got == 0)
            *eof = 1;
        *len += (size_t)got;
    }
    return 0;
}

int clmem_input_read(const char *path, unsigned char **data, size_t *size, struct clmem_error *err)
{
    *data = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot open image '%s': %s", path,
                          strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int saved = errno;
        close(fd);
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot read image '%s': %s", path,
                          strerror(saved));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot read image '%s': %s", path,
                          strerror(EISDIR));
    }
    /* Read once (a pipe, a FIFO, /dev/stdin can be read only once), and
     * only what the header says: the header first, a little at a time, so
     * that a file that is no image (/dev/zero) is refused at its magic
     * number, then the pixels it announces, and nothing after them. */
    char *buf = NULL;
    size_t cap = 0, len = 0, want = 64, header = 0;
    int eof = 0, status = CLMEM_OK, failed = 0;
    struct clmem_image image;
    for (;;) {
        if ((failed = read_until(fd, &buf, &cap, &len, want, &eof)) != 0)
            break;
        struct cursor f = {(const unsigned char *)buf, len, 0, 0};
        struct clmem_error header_err = {0};
        memset(&image, 0, sizeof image);
        int bad = read_header(&f, path, &image, &header_err);
        if (!bad) {
            header = f.at;
            clmem_error_clear(&header_err);
            break;
        }
        /* Cut short where more may come: read more of the header. */
        if (f.ran_out && !eof && len < MOST_HEADER) {
            clmem_error_clear(&header_err);
            want = len * 2 < MOST_HEADER ? len * 2 : MOST_HEADER;
            continue;
        }
        status = clmem_fail(err, header_err.status, "%s", header_err.message);
        clmem_error_clear(&header_err);
        if (f.ran_out && !eof)
            status =
                clmem_fail(err, CLMEM_ERR_USAGE, "image '%s': bad header: longer than %zu bytes",
                           path, (size_t)MOST_HEADER);
        break;
    }
    if (!failed && !status) {
        /* The pixels it announces; one that claims more than the kernels
         * take is read to the end or to the limit, to say which. */
        size_t bytes, total = MOST_READ + 1;
        if (clmem_mul_size(image.width, image.height, &bytes) &&
            clmem_mul_size(bytes, image.channels, &bytes) && bytes <= MOST_READ - header)
            total = header + bytes;
        failed = read_until(fd, &buf, &cap, &len, total, &eof);
        if (!failed && len > MOST_READ) {
            errno = EFBIG;
            failed = 1;
        }
    }
    int saved = errno;
    close(fd);
    if (status) {
        free(buf);
        return status;
    }
    if (failed) {
        free(buf);
        if (saved == EFBIG)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "image '%s' is larger than %zu bytes, more than the kernels can take",
                              path, MOST_READ);
        if (saved == ENOMEM)
            return clmem_fail(err, CLMEM_ERR_CL,
                              "out of host memory reading image '%s' (%zu bytes so far)", path,
                              len);
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot read image '%s': %s", path,
                          strerror(saved));
    }
    buf[len] = '\0';
    *data = (unsigned char *)buf;
    *size = len;
    return CLMEM_OK;
}

int clmem_netpbm_parse(const char *path, const unsigned char *data, size_t size,
                       struct clmem_image *image, struct clmem_error *err)
{
    memset(image, 0, sizeof *image);
    struct cursor f = {data, size, 0, 0};
    int status = read_header(&f, path, image, err);
    size_t bytes = 0;
    if (status)
        goto cleanup;
    if (!clmem_mul_size(image->width, image->height, &bytes) ||
        !clmem_mul_size(bytes, image->channels, &bytes)) {
        status = clmem_fail(err, CLMEM_ERR_USAGE,
                            "image '%s': dimensions %zux%zu overflow (%u bytes a pixel)", path,
                            image->width, image->height, image->channels);
        goto cleanup;
    }
    /* All of it was read: too short is refused before allocating for it. */
    if (f.size - f.at < bytes) {
        status = clmem_fail(err, CLMEM_ERR_USAGE,
                            "image '%s': truncated pixel data: expected %zu bytes, got %zu", path,
                            bytes, f.size - f.at);
        goto cleanup;
    }
    if (!(image->pixels = clmem_alloc_array(bytes, 1, err))) {
        status = err->status;
        goto cleanup;
    }
    memcpy(image->pixels, f.data + f.at, bytes);
    for (size_t i = 0; i < bytes; i++)
        if (image->pixels[i] > image->maxval) {
            status = clmem_fail(err, CLMEM_ERR_USAGE,
                                "image '%s': sample %u at byte %zu of the pixel data exceeds "
                                "maxval %u",
                                path, image->pixels[i], i, image->maxval);
            goto cleanup;
        }

cleanup:
    if (status)
        clmem_image_free(image);
    return status;
}

int clmem_netpbm_read(const char *path, struct clmem_image *image, struct clmem_error *err)
{
    unsigned char *data;
    size_t size;
    memset(image, 0, sizeof *image);
    int status = clmem_input_read(path, &data, &size, err);
    if (status == CLMEM_OK) {
        status = clmem_netpbm_parse(path, data, size, image, err);
        free(data);
    }
    return status;
}

int clmem_netpbm_write(const char *path, const struct clmem_image *image, struct clmem_error *err)
{
    size_t bytes;
    if (image->channels != 1 && image->channels != 3)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "cannot write '%s': %u channels (netpbm P5 has 1, P6 has 3)", path,
                          image->channels);
    if (image->maxval == 0 || image->maxval > 255)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': maxval %u (must be 1..255)",
                          path, image->maxval);
    if (image->width == 0 || image->height == 0 || !image->pixels ||
        !clmem_mul_size(image->width, image->height, &bytes) ||
        !clmem_mul_size(bytes, image->channels, &bytes))
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': bad image %zux%zu", path,
                          image->width, image->height);
    struct clmem_output out;
    int status = clmem_output_open(&out, path, err);
    if (status)
        return status;
    if (fprintf(out.file, "P%c\n%zu %zu\n%u\n", image->channels == 1 ? '5' : '6', image->width,
                image->height, image->maxval) < 0 ||
        fwrite(image->pixels, 1, bytes, out.file) != bytes) {
        int saved = errno;
        clmem_output_abort(&out);
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(saved));
    }
    return clmem_output_commit(&out, err);
}

void clmem_image_free(struct clmem_image *image)
{
    free(image->pixels);
    image->pixels = NULL;
}

int clmem_image_generate(struct clmem_image *image, size_t width, size_t height, unsigned channels,
                         uint64_t seed, struct clmem_error *err)
{
    size_t bytes;
    memset(image, 0, sizeof *image);
    if (!clmem_mul_size(width, height, &bytes) || !clmem_mul_size(bytes, channels, &bytes))
        return clmem_fail(err, CLMEM_ERR_USAGE, "image %zux%zu with %u channels overflows", width,
                          height, channels);
    if (!(image->pixels = clmem_alloc_array(bytes, 1, err)))
        return err->status;
    image->width = width;
    image->height = height;
    image->channels = channels;
    image->maxval = 255;
    uint64_t state = seed;
    for (size_t i = 0; i < bytes; i++)
        image->pixels[i] = (unsigned char)(clmem_rng_next(&state) >> 56);
    return CLMEM_OK;
}

int clmem_image_inside(ptrdiff_t row, ptrdiff_t col, size_t height, size_t width)
{
    /* Fig 4.1: if (curRow > -1 && curRow < h && curCol > -1 && curCol < w) */
    return row > -1 && (size_t)row < height && col > -1 && (size_t)col < width;
}
