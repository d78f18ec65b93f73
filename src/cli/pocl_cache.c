/* PoCL's kernel cache, looked at before the driver loads. PoCL keeps
 * compiled kernels in POCL_CACHE_DIR, else $XDG_CACHE_HOME/pocl, else
 * $HOME/.cache/pocl, made with mkdir -p as it loads. Where that cannot be
 * made (HOME or XDG_CACHE_HOME a file, a read-only HOME) PoCL lists no
 * device at all, and a missing HOME (HOME=/nonexistent, as root) it
 * creates: PoCL then gets a private temporary cache, removed at exit. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "driver.h"

#include "common.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char pocl_tmp_cache[64]; /* the private cache made, or "" */

/* Whether `path` exists as a directory or could be made: its deepest
 * existing ancestor a directory this user may write. If not, why in
 * `why` (naming the ancestor) and 0. */
static int dir_can_be_made(const char *path, char *why, size_t size)
{
    char at[PATH_MAX];
    struct stat st;
    if (snprintf(at, sizeof at, "%s", path) >= (int)sizeof at) {
        snprintf(why, size, "its path is too long");
        return 0;
    }
    for (;;) {
        if (stat(at, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                snprintf(why, size, "'%s' is not a directory", at);
                return 0;
            }
            /* PoCL writes in it, or makes what is missing below it. */
            if (access(at, W_OK | X_OK) != 0) {
                snprintf(why, size, "'%s' is not writable: %s", at, strerror(errno));
                return 0;
            }
            return 1;
        }
        /* Missing, or below a file: look further up. */
        if (errno != ENOENT && errno != ENOTDIR) {
            snprintf(why, size, "'%s': %s", at, strerror(errno));
            return 0;
        }
        char *slash = strrchr(at, '/');
        if (!slash || slash == at)
            return 1; /* down to / or a relative name: left to PoCL */
        *slash = '\0';
    }
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void cli_pocl_cache_remove(void)
{
    if (!pocl_tmp_cache[0])
        return;
    /* PoCL's kernel cache: a few levels of small files, none followed
     * through a link. */
    nftw(pocl_tmp_cache, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    pocl_tmp_cache[0] = '\0';
}

/* Before the driver loads. A POCL_CACHE_DIR of the user's that cannot be
 * made: exit 2 naming why (the driver would list no device). No
 * POCL_CACHE_DIR, and PoCL's default place cannot be made or would create
 * a missing HOME: a private one. */
int cli_pocl_cache_check(struct clmem_error *err)
{
    static int checked;
    if (checked)
        return CLMEM_OK;
    checked = 1;
    char place[PATH_MAX], why[PATH_MAX + 64];
    const char *set = getenv("POCL_CACHE_DIR");
    /* Set but empty, PoCL stops the process (an assertion: exit 134);
     * one it cannot make, it lists no device. */
    if (set && !set[0])
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "POCL_CACHE_DIR is set but empty, which stops PoCL (unset it, or point "
                          "it at a writable directory)");
    if (set) {
        if (clmem_dir_usable(set, why, sizeof why) != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "POCL_CACHE_DIR '%s' cannot be made: %s (PoCL would list no device; "
                              "point it at a writable directory)",
                              set, why);
        return CLMEM_OK;
    }
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    struct stat st;
    /* A relative XDG_CACHE_HOME is to be ignored (the XDG spec); PoCL
     * would make its cache below the current directory. */
    int xdg_relative = xdg && xdg[0] && xdg[0] != '/', missing_home = 0;
    if (xdg && xdg[0] == '/') {
        snprintf(place, sizeof place, "%s/pocl", xdg);
    } else if (home && home[0]) {
        missing_home = stat(home, &st) != 0 && errno == ENOENT;
        snprintf(place, sizeof place, "%s/.cache/pocl", home);
    } else if (!xdg_relative) {
        return CLMEM_OK; /* PoCL's own fallback */
    } else {
        snprintf(place, sizeof place, "%s/pocl", xdg);
    }
    if (missing_home)
        snprintf(why, sizeof why, "HOME '%s' does not exist", home);
    else if (xdg_relative && !(home && home[0]))
        snprintf(why, sizeof why, "XDG_CACHE_HOME '%s' is not an absolute path", xdg);
    else if (dir_can_be_made(place, why, sizeof why))
        return xdg_relative ? (setenv("POCL_CACHE_DIR", place, 1), CLMEM_OK) : CLMEM_OK;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || tmp[0] != '/' || strlen(tmp) > sizeof pocl_tmp_cache - 24)
        tmp = "/tmp";
    snprintf(pocl_tmp_cache, sizeof pocl_tmp_cache, "%s/clmem-pocl-XXXXXX", tmp);
    if (!mkdtemp(pocl_tmp_cache)) {
        int saved = errno;
        pocl_tmp_cache[0] = '\0';
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "PoCL's kernel cache '%s' cannot be made (%s), nor a temporary one in "
                          "'%s': %s (set POCL_CACHE_DIR to a writable directory)",
                          place, why, tmp, strerror(saved));
    }
    setenv("POCL_CACHE_DIR", pocl_tmp_cache, 1);
    /* A daemon's missing HOME is expected: said only when asked. */
    if (missing_home ? clmem_debug_enabled(CLMEM_DEBUG_BUILD) : !cli_silent)
        fprintf(stderr,
                "clmem: %s: PoCL's kernel cache '%s' cannot be made (%s); it uses '%s', removed "
                "at exit (set POCL_CACHE_DIR to keep one)\n",
                missing_home ? "note" : "warning", place, why, pocl_tmp_cache);
    return CLMEM_OK;
}
