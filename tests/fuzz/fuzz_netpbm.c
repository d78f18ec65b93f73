/* libFuzzer harness: clmem_netpbm_read (--input images) on arbitrary file
 * contents, given as a memfd's /proc/self/fd path. A read image is P5 or P6,
 * maxval 1..255, every sample within it and all of it in the file; written
 * back and read again it is the same image. A refused file is a usage error
 * with a message and no pixels. */
#define _GNU_SOURCE /* memfd_create, mkdtemp */
#include "harness/harness.h"
#include "report/report.h"
#include "fuzz.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int image_fd = -1;
static char image_path[64], out_dir[64], out_path[96];

static void clean_up(void)
{
    rmdir(out_dir);
}

static int set_up(void)
{
    if (image_fd >= 0)
        return 0;
    image_fd = memfd_create("clmem_fuzz_netpbm", 0);
    if (image_fd < 0)
        return -1;
    snprintf(image_path, sizeof image_path, "/proc/self/fd/%d", image_fd);
    /* tmpfs when there is one: the writer fsyncs. */
    snprintf(out_dir, sizeof out_dir, "%s/clmem_fuzz_XXXXXX",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (!mkdtemp(out_dir))
        return -1;
    snprintf(out_path, sizeof out_path, "%s/back.pnm", out_dir);
    atexit(clean_up);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (set_up() != 0 || ftruncate(image_fd, 0) != 0 ||
        (size && pwrite(image_fd, data, size, 0) != (ssize_t)size)) {
        perror("fuzz_netpbm: set-up");
        abort();
    }
    struct clmem_image image, back;
    struct clmem_error err = {0};
    int status = clmem_netpbm_read(image_path, &image, &err);
    if (status != CLMEM_OK) {
        FUZZ_CHECK(status == CLMEM_ERR_USAGE);
        FUZZ_CHECK(err.message[0] != '\0');
        FUZZ_CHECK(image.pixels == NULL);
        clmem_error_clear(&err);
        return 0;
    }
    FUZZ_CHECK(image.pixels != NULL);
    FUZZ_CHECK(image.channels == 1 || image.channels == 3);
    FUZZ_CHECK(size >= 2 && data[0] == 'P' && data[1] == (image.channels == 1 ? '5' : '6'));
    FUZZ_CHECK(image.maxval >= 1 && image.maxval <= 255);
    FUZZ_CHECK(image.width >= 1 && image.height >= 1);
    size_t bytes = image.width * image.channels;
    FUZZ_CHECK(bytes / image.channels == image.width && bytes <= size);
    FUZZ_CHECK(bytes * image.height / image.height == bytes && bytes * image.height <= size);
    bytes *= image.height;
    /* The raster follows the header, so it lies within the file. */
    for (size_t i = 0; i < bytes; i++)
        FUZZ_CHECK(image.pixels[i] <= image.maxval);
    FUZZ_CHECK(clmem_netpbm_write(out_path, &image, &err) == CLMEM_OK);
    FUZZ_CHECK(clmem_netpbm_read(out_path, &back, &err) == CLMEM_OK);
    FUZZ_CHECK(back.width == image.width && back.height == image.height &&
               back.channels == image.channels && back.maxval == image.maxval);
    FUZZ_CHECK(memcmp(back.pixels, image.pixels, bytes) == 0);
    unlink(out_path);
    clmem_image_free(&back);
    clmem_image_free(&image);
    clmem_error_clear(&err);
    return 0;
}
