/* The bottom layer: errors, sizes, numbers, random inputs, text, threads,
 * the host. It knows nothing of OpenCL's calls (only the public types of
 * clmem.h) and nothing of the layers above. */
#ifndef CLMEM_BASE_H
#define CLMEM_BASE_H

#include "base/types.h" /* the structs behind clmem.h's handles */
#include "clmem/clmem.h"

#include <signal.h> /* sigset_t */

/* ---- errors (error.c) ---- */
/* Records a message; returns `status` so callers can `return clmem_fail(...)`. */
int clmem_fail(struct clmem_error *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The status to report of two: an OpenCL error over a usage error over an
 * interruption over a failed check over ok. */
int clmem_status_worst(int a, int b);
/* That order as a number, 0 (ok) to 4 (an OpenCL error). */
int clmem_status_severity(int status);

/* CLMEM_DEBUG=bitmask traces to stderr: 1 builds, 2 launches, 4 timings,
 * 8 energy meters and their readings. */
enum {
    CLMEM_DEBUG_BUILD = 1,
    CLMEM_DEBUG_LAUNCH = 2,
    CLMEM_DEBUG_TIMING = 4,
    CLMEM_DEBUG_ENERGY = 8
};
int clmem_debug_enabled(unsigned bits);

/* ---- sizes (size.c) ---- */
/* "N" (square), "MxN" or "MxNxK". Each part 1..2^31-1. */
struct clmem_size {
    size_t dim[3];
    int ndims; /* how many the user gave */
};
int clmem_size_parse(const char *text, struct clmem_size *size, struct clmem_error *err);
void clmem_size_format(const struct clmem_size *size, char *out, size_t out_size);
/* "N<=1024": the power of two at or above the size's largest dimension
 * (the tuning database's size classes). */
void clmem_size_class(const struct clmem_size *size, char *out, size_t out_size);
/* "AxBxC" of all three extents, however many parts the size was given
 * in ("8192" and "8192x8192x8192" are one shape). */
void clmem_size_shape(const struct clmem_size *size, char *out, size_t out_size);

/* ---- numbers (numbers.c) ---- */
size_t clmem_round_up(size_t value, size_t multiple);
/* Greatest common divisor (pitches, the tuner's stride). */
size_t clmem_gcd(size_t a, size_t b);
/* a*b in *out, 1; or 0 when it would overflow. */
int clmem_mul_size(size_t a, size_t b, size_t *out);
/* malloc of n * elem bytes with the multiplication checked. */
void *clmem_alloc_array(size_t n, size_t elem, struct clmem_error *err);
/* The median of n samples (NAN when none). */
double clmem_median(const double *samples, size_t n);
/* The host's monotonic clock, in ms (wall times: split runs, host libraries). */
double clmem_now_ms(void);

/* ---- deterministic inputs (rng.c) ---- */
/* SplitMix64, so a --seed gives the same inputs on every host. */
uint64_t clmem_rng_next(uint64_t *state);
/* Philox4x32-10 (Salmon et al. 2011), as Random123's philox4x32_R(10, ...):
 * the host twin of the counter-based generator the pi kernels use. */
void clmem_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);
/* Uniform float in [lo, hi). */
void clmem_fill_uniform(float *out, size_t n, float lo, float hi, uint64_t seed);
/* Whole numbers lo..hi (small: exactly representable), uniform. */
void clmem_fill_integers(float *out, size_t n, int lo, int hi, uint64_t seed);
/* Sums of whole numbers are exact in float up to 2^24, in any order. */
#define CLMEM_FLOAT_EXACT_INTEGERS 16777216.0

/* ---- text (text.c) ---- */
/* Case-insensitive substring search ("" is in every text). */
int clmem_contains_nocase(const char *text, const char *part);
/* Whether `name` is one of the comma-separated `list`. */
int clmem_list_has(const char *list, const char *name);
/* The UTF-8 character at the start of `text` (len bytes): its length, 1
 * to 4, with *code_point set; 0 when it is not UTF-8 (a stray or missing
 * continuation byte, an overlong form, a surrogate, past U+10FFFF). */
size_t clmem_utf8_next(const char *text, size_t len, uint32_t *code_point);
/* Whether text's len bytes are UTF-8; if not, *bad_at (unless NULL) is
 * the offset of the first bad byte. */
int clmem_utf8_valid(const char *text, size_t len, size_t *bad_at);
/* The longest start of `text` (len bytes) of at most `max` bytes that does
 * not end inside a UTF-8 character: where text that does not fit is cut, so
 * that a name cut short stays UTF-8 (bytes that are not UTF-8 count as a
 * character each). */
size_t clmem_utf8_cut(const char *text, size_t len, size_t max);
/* `text` into out (size bytes, NUL-terminated), cut by clmem_utf8_cut
 * when it does not fit: how every string is copied into a buffer of fixed
 * size. Returns the bytes copied. */
size_t clmem_text_copy(char *out, size_t size, const char *text);
/* snprintf into out, the result cut by clmem_utf8_cut when it does not
 * fit; returns what snprintf returns. */
int clmem_text_format(char *out, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Text from a file or a driver made safe for a terminal or a table, the
 * one way clmem shows such text to people: control characters (C0, DEL:
 * ESC, CR, LF, ...) as \xHH, C1 ones as \uHHHH, bytes that are not UTF-8
 * as \xHH; the rest as it is. clmem_text_escape writes it into out (size
 * bytes, cut between characters, NUL-terminated) and returns its length;
 * clmem_fputs_escaped prints it (EOF on a write error). */
size_t clmem_text_escape(const char *text, char *out, size_t size);
int clmem_fputs_escaped(const char *text, FILE *out);
/* The same for len bytes of text (NUL-terminated or not). */
int clmem_fwrite_escaped(const char *text, size_t len, FILE *out);

/* ---- device types' names (device_type.c) ---- */
/* clmem_device_type_name (clmem.h) the other way: the type named "gpu",
 * "cpu" or "accelerator"; CL_DEVICE_TYPE_DEFAULT for any other name. */
cl_device_type clmem_device_type_of(const char *name);

/* ---- signals (signals.c) ---- */
/* The signals that stop clmem (docs/reliability.md, Signals): INT, TERM
 * and HUP after the variant running, QUIT and PIPE at once. */
#define CLMEM_N_STOP_SIGNALS 5
extern const int clmem_stop_signals[CLMEM_N_STOP_SIGNALS];
/* An empty set, then the stop signals: what is held while something must
 * not be cut in two. */
void clmem_stop_set(sigset_t *set);

/* ---- threads (parallel.c) ---- */
/* Runs fn(arg, i) for every i in [0, n), each on a thread of its own, all
 * at once; waits for them all and stores what each returned in status[i].
 * An item whose thread cannot start runs on the calling thread. */
void clmem_parallel(size_t n, int (*fn)(void *arg, size_t index), void *arg, int *status);
/* How many parts to cut work of `pieces` pieces into for clmem_parallel:
 * a part per online core, at most CLMEM_PARALLEL_MAX, at most `pieces`
 * (the caller counts a piece as the least work worth a thread), at
 * least 1. */
#define CLMEM_PARALLEL_MAX 64
/* The least work worth a thread of its own: 2^20 steps of a loop of a
 * few operations (a pixel, a random value), some milliseconds. */
#define CLMEM_PARALLEL_LEAST ((size_t)1 << 20)
size_t clmem_parallel_parts(size_t pieces);
/* fn(arg, first, end) over rows [0, rows), cut into parts of whole rows
 * run on threads (clmem_parallel_parts), each part of at least `least`
 * units of work where a row is `per_row` of them; one part on the calling
 * thread where the whole is smaller. */
void clmem_parallel_rows(size_t rows, size_t per_row, size_t least,
                         void (*fn)(void *arg, size_t first, size_t end), void *arg);

#endif
