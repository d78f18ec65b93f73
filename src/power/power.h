/* The power layer: energy meters, a device's own energy counter, read before and after a
 * variant's runs. One interface over the counters that platforms keep:
 * NVIDIA GPUs through NVML's total-energy counter (millijoules since the
 * driver loaded, Volta and newer), CPUs through Linux's powercap (RAPL:
 * each package's energy_uj, and its DRAM's where listed, each wrapping at
 * its max_energy_range_uj), AMD GPUs through amdsmi's energy accumulator,
 * Intel GPUs through Level Zero Sysman's card power domain. The libraries
 * are loaded at run time (dlopen), so none is needed to build or run clmem;
 * a device without a counter gets a meter that says why. Above the OpenCL
 * layer (a GPU's meter is found by the PCI address its OpenCL driver
 * reports), below the harness that reads it around a variant's runs. Not
 * libclmem's interface. */
#ifndef CLMEM_POWER_POWER_H
#define CLMEM_POWER_POWER_H

#include "opencl/opencl.h"

#include <stdint.h>

/* Counters summed by one meter (RAPL: two sockets' packages and DRAM). */
#define CLMEM_ENERGY_MAX_ZONES 16
/* A metered span holds at least this many of the counter's update
 * periods: each reading may lag the true energy by up to one period, so
 * the two readings' lags leave the energy off by at most one period's worth
 * of the span (10%), and far less on average, as the lags mostly cancel. */
#define CLMEM_ENERGY_MIN_UPDATES 10
/* The most power a meter's device draws: several times the rating of the
 * largest single accelerators and CPU sockets. Energy over a span implying
 * more is no measurement (a counter reset, or a counter read wrong) and is
 * reported not available, never as a figure. */
#define CLMEM_ENERGY_MAX_WATTS 10000.0
/* Where the RAPL counters are looked for (CLMEM_POWERCAP_DIR overrides
 * it, so that a test can point the reader at counters it makes). */
#define CLMEM_POWERCAP_DIR "/sys/class/powercap"

struct clmem_energy_meter {
    char source[8];   /* "nvml", "rapl", "amdsmi", "sysman"; "" when there is none */
    char why[120];    /* why there is none ("" when there is one) */
    char what[200];   /* what it reads, for CLMEM_DEBUG */
    double unit_j;    /* joules per count of the counters */
    double update_ms; /* how often the counters change, at worst */
    size_t n_zones;
    /* Where each counter wraps back to 0 (RAPL's max_energy_range_uj), in
     * counts; 0 for a counter that does not wrap (64 bits of mJ or uJ). */
    uint64_t range[CLMEM_ENERGY_MAX_ZONES];
    char files[CLMEM_ENERGY_MAX_ZONES][256]; /* RAPL: each zone's energy_uj */
    int kind;                                /* which of the sources (energy.c) */
    void *library;                           /* the vendor library, dlopen'ed */
    void *handle; /* its device (NVML, amdsmi) or power domain (Sysman) */
    /* Its functions: the counter's reader, the library's shutdown (or NULL). */
    void (*read_call)(void), (*shutdown_call)(void);
};

/* One reading of every zone's counter. */
struct clmem_energy_reading {
    int ok;
    double t_ms;    /* the host's monotonic clock, halfway through the reading */
    double epoch_s; /* the same moment as Unix time (CLMEM_DEBUG: to match other tools' logs) */
    uint64_t counts[CLMEM_ENERGY_MAX_ZONES];
    char why[120]; /* why not ok */
};

/* The meter of a device's counter, or one that says why it has none
 * (m->source ""); never fails. CLMEM_DEBUG's energy bit says which. */
void clmem_energy_open(struct clmem_energy_meter *m, const struct clmem_device *device);
void clmem_energy_close(struct clmem_energy_meter *m);
/* Reads every counter now (r->ok 0 with r->why when one cannot be read,
 * or when the meter has none). */
void clmem_energy_read(const struct clmem_energy_meter *m, struct clmem_energy_reading *r);
/* The joules between two readings, each counter taken once around its
 * wrap where it has one. Non-zero, with why, when a counter that does not
 * wrap went backwards. */
int clmem_energy_joules(const struct clmem_energy_meter *m, const struct clmem_energy_reading *a,
                        const struct clmem_energy_reading *b, double *joules, char *why,
                        size_t why_size);
/* The shortest span the meter reads well: CLMEM_ENERGY_MIN_UPDATES of its
 * update period. */
double clmem_energy_min_span_ms(const struct clmem_energy_meter *m);

#endif
