/* A stand-in for NVIDIA's libnvidia-ml.so.1, for tests/test_energy.c (its
 * directory on LD_LIBRARY_PATH): the few functions clmem's NVML meter
 * calls, over GPUs described by FAKE_NVML_GPUS, read at each nvmlInit_v2:
 * "NAME|BUS|WATTS;..." (WATTS "-": a GPU without the energy counter, as
 * before Volta). A GPU's counter is WATTS times the time since its
 * nvmlInit_v2, in mJ, moving in steps of 20 ms as a real one does.
 * FAKE_NVML_INIT set: nvmlInit_v2 fails with that error. FAKE_NVML_COUNTS
 * set ("0,0,18000000000000000000"): the counter's readings since
 * nvmlInit_v2, in mJ, one a call, the last repeated (a counter that
 * jumps, as one seen go from 0 to 1.8e19 mJ). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_GPUS 8
enum { SUCCESS = 0, ERROR_INVALID_ARGUMENT = 2, ERROR_NOT_SUPPORTED = 3 };

struct gpu {
    char name[96];
    unsigned bus;
    double watts; /* < 0: no counter */
};
struct pci_info { /* nvmlPciInfo_t (v3) */
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
};

static struct gpu gpus[MAX_GPUS];
static unsigned n_gpus;
static double started_ms;
static unsigned counts_read;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int nvmlInit_v2(void)
{
    const char *fail = getenv("FAKE_NVML_INIT");
    if (fail && fail[0])
        return atoi(fail);
    const char *spec = getenv("FAKE_NVML_GPUS");
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", spec ? spec : "");
    n_gpus = 0;
    for (char *save = NULL, *item = strtok_r(copy, ";", &save); item && n_gpus < MAX_GPUS;
         item = strtok_r(NULL, ";", &save)) {
        struct gpu *g = &gpus[n_gpus++];
        char *bus = strchr(item, '|'), *watts = bus ? strchr(bus + 1, '|') : NULL;
        if (!watts)
            return ERROR_INVALID_ARGUMENT;
        *bus++ = *watts++ = '\0';
        snprintf(g->name, sizeof g->name, "%s", item);
        g->bus = (unsigned)strtoul(bus, NULL, 16);
        g->watts = strcmp(watts, "-") == 0 ? -1 : atof(watts);
    }
    started_ms = now_ms();
    counts_read = 0;
    return SUCCESS;
}

int nvmlShutdown(void)
{
    return SUCCESS;
}

int nvmlDeviceGetCount_v2(unsigned *count)
{
    *count = n_gpus;
    return SUCCESS;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned index, struct gpu **device)
{
    if (index >= n_gpus)
        return ERROR_INVALID_ARGUMENT;
    *device = &gpus[index];
    return SUCCESS;
}

int nvmlDeviceGetPciInfo_v3(struct gpu *device, struct pci_info *pci)
{
    memset(pci, 0, sizeof *pci);
    pci->bus = device->bus;
    snprintf(pci->bus_id, sizeof pci->bus_id, "00000000:%02X:00.0", device->bus);
    snprintf(pci->bus_id_legacy, sizeof pci->bus_id_legacy, "0000:%02X:00.0", device->bus);
    return SUCCESS;
}

int nvmlDeviceGetName(struct gpu *device, char *name, unsigned length)
{
    snprintf(name, length, "%s", device->name);
    return SUCCESS;
}

int nvmlDeviceGetTotalEnergyConsumption(struct gpu *device, unsigned long long *mj)
{
    if (device->watts < 0)
        return ERROR_NOT_SUPPORTED;
    const char *counts = getenv("FAKE_NVML_COUNTS");
    if (counts && counts[0]) {
        const char *p = counts;
        for (unsigned i = 0; i < counts_read && strchr(p, ','); i++)
            p = strchr(p, ',') + 1;
        counts_read++;
        *mj = strtoull(p, NULL, 10);
        return SUCCESS;
    }
    double steps = (double)(long long)((now_ms() - started_ms) / 20.0);
    *mj = 1000000 + (unsigned long long)(device->watts * steps * 20.0);
    return SUCCESS;
}

const char *nvmlErrorString(int result)
{
    return result == ERROR_NOT_SUPPORTED ? "Not Supported" : "Unknown Error";
}
