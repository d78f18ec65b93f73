/* Running the clmem binary ($CLMEM_BIN) from a test, as a user would:
 * its exit code, stdout and stderr. Shared by the CLI and fault tests. */
#ifndef CLMEM_TEST_CLI_RUN_H
#define CLMEM_TEST_CLI_RUN_H

#include <stddef.h>
#include <sys/types.h>

struct outcome {
    int code; /* exit code, or 128 + the signal that ended it */
    char out[65536];
    char err[65536];
};

struct child {
    pid_t pid;
    char out_path[64], err_path[64];
};

/* A NULL-terminated argument list: ARGS("run", "matmul"). */
#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The stop signals (INT, TERM, HUP, QUIT, PIPE, USR1, USR2, ALRM) back to
 * their default actions in this process, so that the clmem runs it starts
 * inherit those: clmem keeps a signal ignored at its start ignored (nohup
 * ignores HUP, a shell's background job INT and QUIT), and a test that
 * signals its runs must not depend on how it was itself started. No core
 * files either (QUIT's default action dumps one). */
void stop_signals_default(void);
/* Reads a whole (small) file into buf, NUL-terminated; "" when missing. */
void slurp(const char *path, char *buf, size_t size);
/* Starts the program at `path` with argv (NULL-terminated, argv[0]
 * included), stdout and stderr to temporary files; env as below. */
void start_program(struct child *c, const char *const env[], const char *path,
                   const char *const argv[]);
/* The same with stdout opened from stdout_path for writing (/dev/full,
 * /dev/null; NULL: a temporary file, as start_program), so o->out stays
 * empty. */
void start_program_to(struct child *c, const char *const env[], const char *path,
                      const char *const argv[], const char *stdout_path);
/* Starts $CLMEM_BIN with args, stdout and stderr to temporary files; env:
 * NAME, VALUE, ..., NULL (or NULL), a NULL VALUE unsetting NAME (the
 * tests' shared POCL_CACHE_DIR, where a test needs PoCL's own default). */
void start_clmem(struct child *c, const char *const env[], const char *const args[]);
void start_clmem_to(struct child *c, const char *const env[], const char *const args[],
                    const char *stdout_path);
/* Starts $CLMEM_BIN with args under `ulimit LIMIT` (e.g. "-v 400000",
 * "-Sn 8"), through sh, as start_clmem. */
void start_clmem_under_ulimit(struct child *c, const char *limit, const char *const env[],
                              const char *const args[]);
/* Waits for it and collects its outcome; _measuring also gives the
 * child's peak resident memory, in KiB. */
void finish_clmem(struct child *c, struct outcome *o);
long finish_clmem_measuring(struct child *c, struct outcome *o);
/* finish_clmem for a child that must end within limit_s: past it, it is
 * killed (SIGKILL, code 137) and stderr ends with a line saying so. */
void finish_clmem_within(struct child *c, struct outcome *o, unsigned limit_s);
/* Whether the child has ended (not reaped: finish_clmem does that), now
 * or, polled every 20 ms, within timeout_s. */
int child_ended(const struct child *c);
int child_ended_within(const struct child *c, unsigned timeout_s);
void run_clmem(struct outcome *o, const char *const env[], const char *const args[]);
/* run_clmem for a run that must end quickly (a refusal before any work):
 * past limit_s it is killed (SIGKILL, code 137) and stderr ends with a
 * line saying so, so a refusal that does not come fails the test in
 * seconds instead of computing until the test's timeout. */
void run_clmem_within(struct outcome *o, const char *const env[], const char *const args[],
                      unsigned limit_s);
/* run_clmem_within with stdout opened from stdout_path (start_clmem_to). */
void run_clmem_to_within(struct outcome *o, const char *const env[], const char *const args[],
                         const char *stdout_path, unsigned limit_s);
/* The limit for runs expected to be refused: opening PoCL on a loaded
 * 2-core machine takes a few seconds, never a minute. */
#define REFUSAL_LIMIT_S 60
/* "(N bytes)" after `label` ("max allocation", "global memory") in `clmem
 * devices`' output, for its first device. */
unsigned long long device_bytes(const char *devices, const char *label);
/* PoCL told to report at most 4 GB (a max allocation of 1 GiB), whatever
 * the machine's memory, for refusals of sizes beyond the device. */
#define SMALL_POCL "POCL_MEMORY_LIMIT", "4"
/* A matmul size RxCx1 whose product P is more than the first device
 * (under `env`) can allocate at once, derived from what it reports. */
void matmul_size_beyond_alloc(const char *const env[], char *size, size_t len);
size_t count_lines(const char *s);
/* stderr without the lines that say a finished result ("clmem: [i/n] WHAT
 * on DEVICE: median X ms, METRIC, verified", FAILED, "skipped: REASON"),
 * which run, peak, bench and compare print as each result finishes: the
 * rest, in a buffer of its own (the next call's), and how many results'
 * lines there were. */
const char *other_lines(const char *err, size_t *results);
/* How many variants the workload's table lists (what `run --variant all`
 * runs), so a test follows the table as variants are added. */
size_t variant_count(const char *workload);
/* How many of the peak workload's variants measure a peak the device's
 * results are compared with (copy, read, fma, launch): what bench and
 * --peak run, the other peaks (fp64, ...) left to `clmem peak`. */
size_t device_peak_count(void);
/* Waits until the running child's stderr holds `text` (a progress event,
 * e.g. a CLMEM_DEBUG line): 1 then, 0 when the child ended first or
 * timeout_s passed. The child is not reaped (finish_clmem does that). */
int wait_for_stderr(const struct child *c, const char *text, unsigned timeout_s);

#endif
