/* Arithmetic on sizes (overflow-checked), the median of samples and the
 * host's clock. */
#include "base/base.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

size_t clmem_round_up(size_t value, size_t multiple)
{
    return multiple ? (value + multiple - 1) / multiple * multiple : value;
}

size_t clmem_gcd(size_t a, size_t b)
{
    while (b) {
        size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int clmem_mul_size(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return 0;
    *out = a * b;
    return 1;
}

void *clmem_alloc_array(size_t n, size_t elem, struct clmem_error *err)
{
    size_t bytes;
    if (!clmem_mul_size(n, elem, &bytes)) {
        clmem_fail(err, CLMEM_ERR_USAGE, "size overflows: %zu elements of %zu bytes", n, elem);
        return NULL;
    }
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        clmem_fail(err, CLMEM_ERR_CL, "out of host memory (%zu bytes)", bytes);
    return p;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double clmem_median(const double *samples, size_t n)
{
    double *sorted = n ? malloc(n * sizeof *sorted) : NULL;
    if (!sorted)
        return NAN;
    memcpy(sorted, samples, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_double);
    double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    free(sorted);
    return median;
}

double clmem_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
