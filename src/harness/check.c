/* Comparing device results with the CPU reference (BabelStream's way:
 * relative tolerance, every mismatch counted, the first few kept). */
#include "harness/workload.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void clmem_check_init(struct clmem_check *check, double tolerance)
{
    memset(check, 0, sizeof *check);
    check->tolerance = tolerance;
}

void clmem_check_value(struct clmem_check *check, double expected, double got, double scale,
                       const char *where_fmt, size_t a, size_t b)
{
    double denom = fabs(scale) > 0 ? fabs(scale) : 1.0;
    double rel = fabs(got - expected) / denom;
    check->checked++;
    if (isnan(got) || isnan(rel))
        rel = INFINITY;
    if (rel > check->max_rel_error)
        check->max_rel_error = rel;
    if (rel <= check->tolerance)
        return;
    if (check->mismatches < CLMEM_MAX_MISMATCH_LINES) {
        char where[64];
        snprintf(where, sizeof where, where_fmt, a, b);
        snprintf(check->lines[check->mismatches], sizeof check->lines[0],
                 "%s: expected %.9g, got %.9g (relative error %.3g > %.3g)", where, expected, got,
                 rel, check->tolerance);
    }
    check->mismatches++;
}

int clmem_check_passed(const struct clmem_check *check)
{
    return check->mismatches == 0 && check->checked > 0;
}

double clmem_sum_kahan(const float *x, size_t n)
{
    /* Kahan's compensated summation in double: c carries the low-order part
     * each addition rounds away, so the error stays a few ulps of double
     * whatever n is. */
    double sum = 0.0, c = 0.0;
    for (size_t i = 0; i < n; i++) {
        double y = (double)x[i] - c;
        double t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum;
}

void clmem_check_mismatch(struct clmem_check *check, const char *fmt, ...)
{
    if (check->mismatches < CLMEM_MAX_MISMATCH_LINES) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(check->lines[check->mismatches], sizeof check->lines[0], fmt, ap);
        va_end(ap);
    }
    check->mismatches++;
}
