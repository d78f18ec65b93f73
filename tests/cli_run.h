/* Running the clmem binary ($CLMEM_BIN) from a test, as a user would:
 * its exit code, stdout and stderr. Shared by the CLI and fault tests. */
#ifndef CLMEM_TEST_CLI_RUN_H
#define CLMEM_TEST_CLI_RUN_H

#include <stddef.h>
#include <sys/types.h>

struct outcome {
    int code; /* exit code, or 128 + the signal that ended it */
    char out[65536];
    char err[16384];
};

struct child {
    pid_t pid;
    char out_path[64], err_path[64];
};

/* A NULL-terminated argument list: ARGS("run", "matmul"). */
#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Reads a whole (small) file into buf, NUL-terminated; "" when missing. */
void slurp(const char *path, char *buf, size_t size);
/* Starts the program at `path` with argv (NULL-terminated, argv[0]
 * included), stdout and stderr to temporary files; env as below. */
void start_program(struct child *c, const char *const env[], const char *path,
                   const char *const argv[]);
/* Starts $CLMEM_BIN with args, stdout and stderr to temporary files; env:
 * NAME, VALUE, ..., NULL (or NULL). */
void start_clmem(struct child *c, const char *const env[], const char *const args[]);
/* Waits for it and collects its outcome. */
void finish_clmem(struct child *c, struct outcome *o);
void run_clmem(struct outcome *o, const char *const env[], const char *const args[]);
size_t count_lines(const char *s);
/* How many variants the workload's table lists (what `run --variant all`
 * runs), so a test follows the table as variants are added. */
size_t variant_count(const char *workload);
/* Waits until the running child's stderr holds `text` (a progress event,
 * e.g. a CLMEM_DEBUG line): 1 then, 0 when the child ended first or
 * timeout_s passed. The child is not reaped (finish_clmem does that). */
int wait_for_stderr(const struct child *c, const char *text, unsigned timeout_s);

#endif
