/* What clmem keeps between runs (the compiled-program cache, the tuning
 * database) under $XDG_CACHE_HOME/clmem, else $HOME/.cache/clmem: where it
 * lives, and reading it back only when nobody else could have written it
 * (the rules ssh applies to ~/.ssh). Internal to src/runtime. */
#ifndef CLMEM_RUNTIME_STATE_H
#define CLMEM_RUNTIME_STATE_H

#include <stddef.h>
#include <stdio.h>

/* $XDG_CACHE_HOME/clmem[/SUB] when XDG_CACHE_HOME is an absolute path,
 * else $HOME/.cache/clmem[/SUB] when HOME is an existing directory (a
 * missing HOME is never created); -1 and *why when there is no such place
 * or its name is too long. */
int clmem_state_dir(const char *sub, char *dir, size_t size, const char **why);

/* mkdir -p of `dir`, each directory it makes 0700; 0, or -1 with errno
 * (ENOTDIR when something other than a directory is in the way). */
int clmem_state_mkdir(const char *dir);

/* 0 when `dir` is a directory of the effective user that neither group nor
 * others can write; else -1 and why ("belongs to uid 65534, not to you
 * (uid 1000)", ...). */
int clmem_state_dir_check(const char *dir, char *why, size_t why_size);

enum clmem_state_open {
    CLMEM_STATE_OPENED,   /* *file is open for reading */
    CLMEM_STATE_MISSING,  /* no such file (or directory): not a fault */
    CLMEM_STATE_BAD_FILE, /* the file itself is not to be trusted: why */
    CLMEM_STATE_BAD_DIR,  /* its directory is not to be trusted: why */
};
/* Opens a state file for reading without following a symbolic link or
 * blocking (O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), and only when it is a
 * regular file of the effective user that neither group nor others can
 * write, in a directory that passes clmem_state_dir_check. `why` completes
 * a sentence whose subject is the file: "is a FIFO, not a regular file". */
enum clmem_state_open clmem_state_open(const char *path, FILE **file, char *why, size_t why_size);

/* "a directory", "a FIFO", ...: what a file of this st_mode is. */
const char *clmem_state_kind(unsigned mode);

#endif
