/* Preloaded by test_stops (LD_PRELOAD): the fsync of a file whose path
 * holds $CLMEM_TEST_HOLD_FSYNC (an output's temporary file, which clmem
 * syncs just before it renames it over the output) says so on stderr, then
 * waits there for good, saying so after each signal that a handler took on
 * its thread: a stop that comes meanwhile finds the output pending. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void say(const char *text, size_t len)
{
    ssize_t ignored = write(STDERR_FILENO, text, len);
    (void)ignored;
}

int fsync(int fd)
{
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    const char *hold = getenv("CLMEM_TEST_HOLD_FSYNC");
    char link[64], path[PATH_MAX], line[PATH_MAX + 64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = hold && hold[0] ? readlink(link, path, sizeof path - 1) : -1;
    if (n > 0) {
        path[n] = '\0';
        if (strstr(path, hold)) {
            int len = snprintf(line, sizeof line, "clmem-test: fsync of '%s' held\n", path);
            say(line, (size_t)len);
            for (;;) {
                static const char woken[] = "clmem-test: a signal was handled\n";
                pause();
                say(woken, sizeof woken - 1);
            }
        }
    }
    return real ? real(fd) : 0;
}
