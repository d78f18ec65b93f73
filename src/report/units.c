/* Numbers for people: a metric with its unit's SI prefix rescaled so three
 * significant digits say it (48.7 TFLOP/s rather than 4.87e+04 GFLOP/s).
 * CSV and JSON keep full precision; only what a person reads goes here. */
#include "report/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    char prefix;
    int exponent; /* power of 1000 */
} prefixes[] = {
    {'k', 1}, {'M', 2}, {'G', 3}, {'T', 4}, {'P', 5}, {'E', 6},
};

/* The power of 1000 a unit's first letter stands for; 0 when it has none
 * (a unit must have more after the prefix: "GB/s", not "G"). */
static int unit_exponent(const char *unit)
{
    if (!unit[0] || !unit[1])
        return 0;
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(prefixes); i++)
        if (unit[0] == prefixes[i].prefix)
            return prefixes[i].exponent;
    return 0;
}

static char prefix_of(int exponent)
{
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(prefixes); i++)
        if (prefixes[i].exponent == exponent)
            return prefixes[i].prefix;
    return '\0';
}

/* The exponent that brings *m (>= 0, at exponent e) into [1, 1000), *m
 * rescaled with it: rescale while a prefix exists for it; 0.5 GB/s stays
 * "500 MB/s". */
static int rescale(double *m, int e)
{
    while (*m >= 999.5 && prefix_of(e + 1)) {
        *m /= 1000;
        e++;
    }
    while (*m < 0.9995 && (e - 1 == 0 || prefix_of(e - 1))) {
        *m *= 1000;
        e--;
    }
    return e;
}

/* Three significant digits of a mantissa in [1, 1000). */
static void three_digits(double m, char *out, size_t size)
{
    snprintf(out, size, m >= 99.95 ? "%.0f" : m >= 9.995 ? "%.1f" : "%.2f", m);
}

void clmem_format_metric(double value, const char *unit, char *out, size_t size)
{
    if (!unit)
        unit = "";
    if (isnan(value)) {
        snprintf(out, size, "-");
        return;
    }
    int base = unit_exponent(unit);
    const char *rest = base ? unit + 1 : unit;
    /* A rate of launches reads as the time of one, as everywhere else
     * people read a launch (the run files keep the rate). */
    if (strcmp(rest, "launch/s") == 0 && isfinite(value) && value > 0) {
        char digits[32];
        three_digits(1e6 / (value * pow(1000, base)), digits, sizeof digits);
        snprintf(out, size, "%s \u00b5s", digits);
        return;
    }
    if (!base || !isfinite(value) || value == 0) {
        snprintf(out, size, "%.3g %s", value, unit);
        return;
    }
    double m = fabs(value);
    int e = rescale(&m, base);
    char digits[32];
    three_digits(m, digits, sizeof digits);
    char prefix[2] = {prefix_of(e), '\0'};
    snprintf(out, size, "%s%s %s%s", value < 0 ? "-" : "", digits, prefix, rest);
}

/* ---- one unit a column (compare_doc.c's tables) ---- */

int clmem_unit_prefix(const char *unit, const char **rest)
{
    int e = unit ? unit_exponent(unit) : 0;
    if (rest)
        *rest = unit ? unit + (e ? 1 : 0) : "";
    return e;
}

int clmem_unit_choose(double value, const char *unit)
{
    int base = clmem_unit_prefix(unit, NULL);
    if (!base || !isfinite(value) || value == 0)
        return base;
    double m = fabs(value);
    return rescale(&m, base);
}

void clmem_format_at(double value, const char *unit, int exponent, char *out, size_t size)
{
    const char *rest;
    int base = clmem_unit_prefix(unit, &rest);
    if (!base || isnan(value) || !isfinite(value) || (exponent && !prefix_of(exponent))) {
        clmem_format_metric(value, unit, out, size);
        return;
    }
    double m = fabs(value) * pow(1000, base - exponent);
    char digits[32];
    if (m >= 0.9995 || m == 0)
        three_digits(m, digits, sizeof digits);
    else
        snprintf(digits, sizeof digits, "%.2g", m);
    char prefix[2] = {prefix_of(exponent), '\0'};
    snprintf(out, size, "%s%s %s%s", value < 0 ? "-" : "", digits, prefix, rest);
}

/* A size for people: a count that is a whole number of Mi or Gi (2^20,
 * 2^30) as "64 Mi"; anything else (8192, 8191x8191, 1920x1080) as it is. */
void clmem_human_size(const char *size, char *out, size_t n)
{
    char *end;
    unsigned long long v = strtoull(size, &end, 10);
    static const struct {
        const char *name;
        unsigned shift;
    } binary[] = {{"Gi", 30}, {"Mi", 20}};
    if (end != size && !*end && size[0] >= '0' && size[0] <= '9')
        for (size_t i = 0; i < CLMEM_ARRAY_SIZE(binary); i++) {
            unsigned long long unit = 1ull << binary[i].shift;
            if (v >= unit && v % unit == 0) {
                snprintf(out, n, "%llu %s", v / unit, binary[i].name);
                return;
            }
        }
    snprintf(out, n, "%s", size);
}

void clmem_unit_per_joule(const char *metric_unit, char *out, size_t size)
{
    size_t n = strlen(metric_unit);
    if (n > 2 && strcmp(metric_unit + n - 2, "/s") == 0)
        snprintf(out, size, "%.*s/J", (int)(n - 2), metric_unit);
    else if (size)
        out[0] = '\0';
}
