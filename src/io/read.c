/* Reading a whole file descriptor (io.h), shared by every reader of a
 * whole file: kernel sources, run files, netpbm images. */
#include "io/io.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

int clmem_read_fd(int fd, size_t cap, size_t hint, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    /* Read to the end rather than trusting st_size: a pipe has none. The
     * buffer grows to at most cap + 1 bytes: reading one byte past the cap
     * tells a file that is too large (or grew since it was looked at)
     * from one that fills it exactly. */
    size_t first = hint ? hint : (size_t)1 << 16;
    if (first > cap)
        first = cap + 1;
    char *buf = NULL;
    size_t size = 0, n = 0;
    for (;;) {
        if (n == size) {
            if (size > cap) {
                free(buf);
                *len = n;
                errno = EFBIG;
                return -1;
            }
            size_t grown = !buf ? first : size > cap / 2 ? cap + 1 : 2 * size;
            char *more = realloc(buf, grown + 1);
            if (!more) {
                free(buf);
                *len = n;
                errno = ENOMEM;
                return -1;
            }
            buf = more;
            size = grown;
        }
        ssize_t got = read(fd, buf + n, size - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int saved = errno;
            free(buf);
            *len = n;
            errno = saved;
            return -1;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}
