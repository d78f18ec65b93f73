/* Energy meters (power.h): the device's own counter, found by its PCI
 * address (GPUs) or its being the host's CPU (RAPL), read around a
 * variant's runs. The vendor libraries are loaded at run time, so clmem
 * builds and runs without them; their declarations are copied here from
 * their headers (nvml.h, amdsmi.h, zes_api.h), the few this file needs. */
#include "power/power.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { SOURCE_NONE, SOURCE_NVML, SOURCE_RAPL, SOURCE_AMDSMI, SOURCE_SYSMAN };

/* How often each counter changes, at worst: NVML's every 20-100 ms on
 * recent GPUs (PETSc's measurements, PetscLogGpuEnergyMeter), RAPL's
 * every millisecond; amdsmi's and Sysman's are not documented, so they
 * are taken as NVML's. */
#define NVML_UPDATE_MS   100.0
#define RAPL_UPDATE_MS   1.0
#define AMDSMI_UPDATE_MS 100.0
#define SYSMAN_UPDATE_MS 100.0

static void none(struct clmem_energy_meter *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void none(struct clmem_energy_meter *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->why, sizeof m->why, fmt, ap);
    va_end(ap);
    m->source[0] = '\0';
    m->kind = SOURCE_NONE;
}

/* ---- the device's PCI address, as its OpenCL driver reports it ---- */
#define PCI_BUS_INFO_KHR 0x410F /* cl_khr_pci_bus_info */
#define PCI_BUS_ID_NV    0x4008 /* cl_nv_device_attribute_query */
#define PCI_SLOT_ID_NV   0x4009
#define PCI_DOMAIN_ID_NV 0x400A /* newer NVIDIA drivers only */
#define TOPOLOGY_AMD     0x4037 /* cl_amd_device_attribute_query */

struct pci {
    int known, domain_known;
    unsigned domain, bus, device, function;
};

static struct pci device_pci(const struct clmem_device *d)
{
    struct pci p = {0};
    cl_uint khr[4], bus, slot, domain;
    if (clmem_device_has_extension(d, "cl_khr_pci_bus_info") &&
        clGetDeviceInfo(d->id, PCI_BUS_INFO_KHR, sizeof khr, khr, NULL) == CL_SUCCESS)
        return (struct pci){1, 1, khr[0], khr[1], khr[2], khr[3]};
    if (clmem_device_has_extension(d, "cl_nv_device_attribute_query") &&
        clGetDeviceInfo(d->id, PCI_BUS_ID_NV, sizeof bus, &bus, NULL) == CL_SUCCESS &&
        clGetDeviceInfo(d->id, PCI_SLOT_ID_NV, sizeof slot, &slot, NULL) == CL_SUCCESS) {
        /* The slot is device << 3 | function, as clinfo reads it. */
        p = (struct pci){1, 0, 0, bus & 0xff, (slot >> 3) & 0x1f, slot & 7};
        if (clGetDeviceInfo(d->id, PCI_DOMAIN_ID_NV, sizeof domain, &domain, NULL) == CL_SUCCESS) {
            p.domain_known = 1;
            p.domain = domain;
        }
        return p;
    }
    /* cl_device_topology_amd: a type word, 17 bytes, then bus, device, function. */
    unsigned char amd[24];
    cl_uint type;
    if (clmem_device_has_extension(d, "cl_amd_device_attribute_query") &&
        clGetDeviceInfo(d->id, TOPOLOGY_AMD, sizeof amd, amd, NULL) == CL_SUCCESS) {
        memcpy(&type, amd, sizeof type);
        if (type == 1) /* CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD */
            p = (struct pci){1, 0, 0, amd[21], amd[22], amd[23]};
    }
    return p;
}

static int pci_matches(const struct pci *want, unsigned domain, unsigned bus, unsigned device)
{
    return want->known && want->bus == bus && want->device == device &&
           (!want->domain_known || want->domain == domain);
}

static void pci_text(const struct pci *p, char *out, size_t size)
{
    if (!p->known)
        snprintf(out, size, "no PCI address from OpenCL");
    else if (p->domain_known)
        snprintf(out, size, "PCI %04x:%02x:%02x.%x", p->domain, p->bus, p->device, p->function);
    else
        snprintf(out, size, "PCI %02x:%02x.%x", p->bus, p->device, p->function);
}

/* ---- NVIDIA: NVML ---- */
typedef struct nvml_device *nvml_device;
struct nvml_pci { /* nvmlPciInfo_t, as nvmlDeviceGetPciInfo_v3 fills it */
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
    char reserved[64]; /* room should a later NVML write more */
};
typedef int (*nvml_void_fn)(void);
typedef int (*nvml_count_fn)(unsigned *);
typedef int (*nvml_handle_fn)(unsigned, nvml_device *);
typedef int (*nvml_pci_fn)(nvml_device, struct nvml_pci *);
typedef int (*nvml_name_fn)(nvml_device, char *, unsigned);
typedef int (*nvml_energy_fn)(nvml_device, unsigned long long *);
typedef const char *(*nvml_error_fn)(int);

static void nvml_open(struct clmem_energy_meter *m, const struct clmem_device *d)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        none(m, "no NVML (%.90s)", e ? e : "libnvidia-ml.so.1 not found");
        return;
    }
    nvml_void_fn init = (nvml_void_fn)dlsym(lib, "nvmlInit_v2");
    nvml_void_fn shutdown = (nvml_void_fn)dlsym(lib, "nvmlShutdown");
    nvml_count_fn count = (nvml_count_fn)dlsym(lib, "nvmlDeviceGetCount_v2");
    nvml_handle_fn by_index = (nvml_handle_fn)dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
    nvml_pci_fn pci_info = (nvml_pci_fn)dlsym(lib, "nvmlDeviceGetPciInfo_v3");
    nvml_name_fn name_of = (nvml_name_fn)dlsym(lib, "nvmlDeviceGetName");
    nvml_energy_fn energy = (nvml_energy_fn)dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption");
    nvml_error_fn error = (nvml_error_fn)dlsym(lib, "nvmlErrorString");
    if (!init || !shutdown || !count || !by_index || !pci_info || !name_of || !energy || !error) {
        none(m, "libnvidia-ml.so.1 lacks the functions clmem reads energy with");
        dlclose(lib);
        return;
    }
    int rc = init();
    if (rc != 0) {
        none(m, "nvmlInit failed: %.80s", error(rc));
        dlclose(lib);
        return;
    }
    struct pci want = device_pci(d);
    unsigned n = 0, by_pci = 0, by_name = 0;
    nvml_device found_pci = NULL, found_name = NULL, dev;
    char name[96], bus_id[32] = "";
    if (count(&n) != 0)
        n = 0;
    for (unsigned i = 0; i < n; i++) {
        struct nvml_pci pci;
        if (by_index(i, &dev) != 0)
            continue;
        memset(&pci, 0, sizeof pci);
        if (pci_info(dev, &pci) == 0 && pci_matches(&want, pci.domain, pci.bus, pci.device)) {
            by_pci++;
            found_pci = dev;
            snprintf(bus_id, sizeof bus_id, "%.31s", pci.bus_id);
        }
        if (name_of(dev, name, sizeof name) == 0 && strcmp(name, d->name) == 0) {
            by_name++;
            found_name = dev;
        }
    }
    /* By PCI address; else, where no GPU has the address OpenCL gave (or
     * it gave none), by name where only one GPU has it. */
    dev = by_pci == 1 ? found_pci : by_pci == 0 && by_name == 1 ? found_name : NULL;
    if (!dev) {
        char where[64];
        pci_text(&want, where, sizeof where);
        none(m, "no one NVML device is '%.40s' (%s; %u by address, %u by name)", d->name, where,
             by_pci, by_name);
        shutdown();
        dlclose(lib);
        return;
    }
    unsigned long long mj;
    if ((rc = energy(dev, &mj)) != 0) {
        none(m, "NVML has no energy counter for it (Volta or newer): %.60s", error(rc));
        shutdown();
        dlclose(lib);
        return;
    }
    snprintf(m->source, sizeof m->source, "nvml");
    m->kind = SOURCE_NVML;
    snprintf(m->what, sizeof m->what,
             "NVML's total energy of '%.60s' (%s), in mJ, updated every %g ms or less", d->name,
             bus_id[0] ? bus_id : "matched by name", NVML_UPDATE_MS);
    m->unit_j = 1e-3;
    m->update_ms = NVML_UPDATE_MS;
    m->n_zones = 1;
    m->library = lib;
    m->handle = dev;
    m->read_call = (void (*)(void))energy;
    m->shutdown_call = (void (*)(void))shutdown;
}

static int nvml_read(const struct clmem_energy_meter *m, uint64_t *counts, char *why,
                     size_t why_size)
{
    unsigned long long mj;
    int rc = ((nvml_energy_fn)m->read_call)((nvml_device)m->handle, &mj);
    if (rc != 0) {
        snprintf(why, why_size, "reading NVML's energy counter failed (NVML error %d)", rc);
        return -1;
    }
    counts[0] = mj;
    return 0;
}

/* ---- CPUs: Linux powercap (RAPL) ---- */

/* A small file of the powercap tree, whole, NUL-terminated: opened
 * without blocking and without following a link in its last component,
 * refused unless it is a regular file (sysfs's are), read up to `size` - 1
 * bytes. A FIFO planted in the tree would otherwise block the run for
 * good, in an open that a signal handler's return restarts. -1 with why. */
static int read_small_file(const char *path, char *text, size_t size, char *why, size_t why_size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    ssize_t got = 0;
    char more;
    int saved = 0, irregular = 0, longer = 0;
    if (fd < 0 || fstat(fd, &st) != 0)
        saved = errno;
    else if (!S_ISREG(st.st_mode))
        irregular = 1;
    else if ((got = read(fd, text, size - 1)) < 0)
        saved = errno;
    else if ((size_t)got == size - 1 && read(fd, &more, 1) > 0)
        longer = 1;
    if (fd >= 0)
        close(fd);
    if (irregular)
        snprintf(why, why_size, "cannot read %.60s: not a regular file", path);
    else if (longer)
        snprintf(why, why_size, "cannot read %.60s: more than %zu bytes", path, size - 1);
    else if (saved)
        snprintf(why, why_size, "cannot read %.60s: %s%s", path, strerror(saved),
                 saved == EACCES ? " (root only, since the fix of CVE-2020-8694)" : "");
    if (irregular || longer || saved)
        return -1;
    text[got] = '\0';
    return 0;
}

/* A counter file's value: decimal digits alone (no sign, no space), then
 * a line break or nothing, within 64 bits. */
static int read_counter_file(const char *path, uint64_t *value, char *why, size_t why_size)
{
    char text[32];
    if (read_small_file(path, text, sizeof text, why, why_size))
        return -1;
    size_t digits = strspn(text, "0123456789");
    const char *rest = text + digits;
    errno = 0;
    unsigned long long v = digits ? strtoull(text, NULL, 10) : 0;
    if (!digits || errno || (*rest && strcmp(rest, "\n") != 0)) {
        snprintf(why, why_size, "%.80s holds no counter", path);
        return -1;
    }
    *value = v;
    return 0;
}

static int zone_order(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Whether `entry` is a RAPL zone clmem sums: a package ("intel-rapl:N",
 * named package-N) or a package's DRAM ("intel-rapl:N:M", named dram),
 * which the package's counter leaves out. The package's own parts (core,
 * uncore) are inside its counter; psys, where listed, holds the packages. */
static int rapl_zone(const char *dir, const char *entry)
{
    unsigned a, b;
    char rest, path[512], name[32] = "";
    int sub = sscanf(entry, "intel-rapl:%u:%u%c", &a, &b, &rest) == 2;
    if (!sub && sscanf(entry, "intel-rapl:%u%c", &a, &rest) != 1)
        return 0;
    char why[160];
    snprintf(path, sizeof path, "%s/%s/name", dir, entry);
    if (read_small_file(path, name, sizeof name, why, sizeof why))
        return 0;
    name[strcspn(name, "\n")] = '\0';
    return sub ? strcmp(name, "dram") == 0 : strncmp(name, "package", 7) == 0;
}

static void rapl_open(struct clmem_energy_meter *m)
{
    const char *dir = getenv("CLMEM_POWERCAP_DIR");
    if (!dir || !dir[0])
        dir = CLMEM_POWERCAP_DIR;
    DIR *d = opendir(dir);
    if (!d) {
        none(m, "no RAPL counters: cannot open %.60s: %s", dir, strerror(errno));
        return;
    }
    char zones[CLMEM_ENERGY_MAX_ZONES][64];
    size_t n = 0;
    const struct dirent *e;
    while ((e = readdir(d)) && n < CLMEM_ENERGY_MAX_ZONES)
        if (strlen(e->d_name) < sizeof zones[0] && rapl_zone(dir, e->d_name))
            snprintf(zones[n++], sizeof zones[0], "%s", e->d_name);
    closedir(d);
    if (n == 0) {
        none(m, "no RAPL package counters under %.80s", dir);
        return;
    }
    qsort(zones, n, sizeof zones[0], zone_order);
    char why[sizeof m->why];
    for (size_t i = 0; i < n; i++) {
        char path[512];
        uint64_t range, now;
        if ((size_t)snprintf(path, sizeof path, "%s/%s/max_energy_range_uj", dir, zones[i]) >=
                sizeof path ||
            (size_t)snprintf(m->files[i], sizeof m->files[i], "%s/%s/energy_uj", dir, zones[i]) >=
                sizeof m->files[i]) {
            none(m, "the powercap path '%.60s' is too long", dir);
            return;
        }
        if (read_counter_file(path, &range, why, sizeof why) ||
            read_counter_file(m->files[i], &now, why, sizeof why)) {
            none(m, "%s", why);
            return;
        }
        if (range == 0) {
            none(m, "%.80s: a max_energy_range_uj of 0", zones[i]);
            return;
        }
        if (now > range) {
            none(m, "%.40s: energy_uj %llu is past max_energy_range_uj %llu", zones[i],
                 (unsigned long long)now, (unsigned long long)range);
            return;
        }
        m->range[i] = range;
    }
    snprintf(m->source, sizeof m->source, "rapl");
    m->kind = SOURCE_RAPL;
    snprintf(m->what, sizeof m->what, "RAPL's %zu zone%s under %.80s (%s%s), in uJ", n,
             n == 1 ? "" : "s", dir, zones[0], n > 1 ? ", ..." : "");
    m->unit_j = 1e-6;
    m->update_ms = RAPL_UPDATE_MS;
    m->n_zones = n;
}

static int rapl_read(const struct clmem_energy_meter *m, uint64_t *counts, char *why,
                     size_t why_size)
{
    for (size_t i = 0; i < m->n_zones; i++) {
        if (read_counter_file(m->files[i], &counts[i], why, why_size))
            return -1;
        /* Past the point where it wraps: no reading of this counter. */
        if (counts[i] > m->range[i]) {
            snprintf(why, why_size, "%.40s: %llu is past max_energy_range_uj %llu", m->files[i],
                     (unsigned long long)counts[i], (unsigned long long)m->range[i]);
            return -1;
        }
    }
    return 0;
}

/* ---- AMD GPUs: amdsmi (untested: no AMD GPU was at hand) ---- */
typedef int (*amdsmi_init_fn)(uint64_t);
typedef int (*amdsmi_void_fn)(void);
typedef int (*amdsmi_sockets_fn)(uint32_t *, void **);
typedef int (*amdsmi_processors_fn)(void *, uint32_t *, void **);
typedef int (*amdsmi_bdf_fn)(void *, uint64_t *);
typedef int (*amdsmi_energy_fn)(void *, uint64_t *, float *, uint64_t *);
#define AMDSMI_INIT_AMD_GPUS (1u << 1)
#define AMDSMI_MAX           64

static void amdsmi_open(struct clmem_energy_meter *m, const struct clmem_device *d)
{
    void *lib = dlopen("libamd_smi.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("/opt/rocm/lib/libamd_smi.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        none(m, "no amdsmi (%.90s)", e ? e : "libamd_smi.so not found");
        return;
    }
    amdsmi_init_fn init = (amdsmi_init_fn)dlsym(lib, "amdsmi_init");
    amdsmi_void_fn shutdown = (amdsmi_void_fn)dlsym(lib, "amdsmi_shut_down");
    amdsmi_sockets_fn sockets = (amdsmi_sockets_fn)dlsym(lib, "amdsmi_get_socket_handles");
    amdsmi_processors_fn processors =
        (amdsmi_processors_fn)dlsym(lib, "amdsmi_get_processor_handles");
    amdsmi_bdf_fn bdf_of = (amdsmi_bdf_fn)dlsym(lib, "amdsmi_get_gpu_device_bdf");
    amdsmi_energy_fn energy = (amdsmi_energy_fn)dlsym(lib, "amdsmi_get_energy_count");
    if (!energy) /* its name before ROCm 6 */
        energy = (amdsmi_energy_fn)dlsym(lib, "amdsmi_dev_get_energy_count");
    if (!init || !shutdown || !sockets || !processors || !bdf_of || !energy) {
        none(m, "libamd_smi.so lacks the functions clmem reads energy with");
        dlclose(lib);
        return;
    }
    if (init(AMDSMI_INIT_AMD_GPUS) != 0) {
        none(m, "amdsmi_init failed");
        dlclose(lib);
        return;
    }
    struct pci want = device_pci(d);
    void *socket[AMDSMI_MAX], *gpu[AMDSMI_MAX], *dev = NULL;
    uint32_t n_sockets = AMDSMI_MAX;
    unsigned matches = 0;
    if (sockets(&n_sockets, socket) != 0)
        n_sockets = 0;
    for (uint32_t s = 0; s < n_sockets && s < AMDSMI_MAX; s++) {
        uint32_t n_gpus = AMDSMI_MAX;
        if (processors(socket[s], &n_gpus, gpu) != 0)
            continue;
        for (uint32_t g = 0; g < n_gpus && g < AMDSMI_MAX; g++) {
            uint64_t bdf; /* amdsmi_bdf_t: function 3 bits, device 5, bus 8, domain 48 */
            if (bdf_of(gpu[g], &bdf) == 0 &&
                pci_matches(&want, (unsigned)(bdf >> 16), (bdf >> 8) & 0xff, (bdf >> 3) & 0x1f)) {
                matches++;
                dev = gpu[g];
            }
        }
    }
    uint64_t count, stamp;
    float resolution = 0;
    if (matches != 1) {
        char where[64];
        pci_text(&want, where, sizeof where);
        none(m, "no one amdsmi GPU is '%.40s' (%s; %u match)", d->name, where, matches);
    } else if (energy(dev, &count, &resolution, &stamp) != 0 || !(resolution > 0)) {
        none(m, "amdsmi has no energy counter for '%.60s'", d->name);
    } else {
        snprintf(m->source, sizeof m->source, "amdsmi");
        m->kind = SOURCE_AMDSMI;
        snprintf(m->what, sizeof m->what, "amdsmi's energy count of '%.60s', %g uJ a count",
                 d->name, resolution);
        m->unit_j = resolution * 1e-6;
        m->update_ms = AMDSMI_UPDATE_MS;
        m->n_zones = 1;
        m->library = lib;
        m->handle = dev;
        m->read_call = (void (*)(void))energy;
        m->shutdown_call = (void (*)(void))shutdown;
        return;
    }
    shutdown();
    dlclose(lib);
}

static int amdsmi_read(const struct clmem_energy_meter *m, uint64_t *counts, char *why,
                       size_t why_size)
{
    uint64_t stamp;
    float resolution;
    int rc = ((amdsmi_energy_fn)m->read_call)(m->handle, &counts[0], &resolution, &stamp);
    if (rc != 0) {
        snprintf(why, why_size, "reading amdsmi's energy count failed (amdsmi status %d)", rc);
        return -1;
    }
    return 0;
}

/* ---- Intel GPUs: Level Zero Sysman (untested: no Intel GPU was at hand) ---- */
struct zes_pci_properties { /* zes_pci_properties_t */
    uint32_t stype;         /* ZES_STRUCTURE_TYPE_PCI_PROPERTIES */
    void *next;
    uint32_t domain, bus, device, function;
    int32_t gen, width;
    int64_t max_bandwidth;
    uint8_t counters[3];
    char reserved[64];
};
struct zes_energy { /* zes_power_energy_counter_t */
    uint64_t energy_uj, timestamp_us;
};
typedef int (*zes_init_fn)(uint32_t);
typedef int (*zes_list_fn)(uint32_t *, void **);
typedef int (*zes_devices_fn)(void *, uint32_t *, void **);
typedef int (*zes_pci_fn)(void *, struct zes_pci_properties *);
typedef int (*zes_domain_fn)(void *, void **);
typedef int (*zes_energy_fn)(void *, struct zes_energy *);
#define ZES_STRUCTURE_TYPE_PCI_PROPERTIES 0x2
#define ZES_MAX                           64

static void sysman_open(struct clmem_energy_meter *m, const struct clmem_device *d)
{
    void *lib = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        none(m, "no Level Zero (%.90s)", e ? e : "libze_loader.so.1 not found");
        return;
    }
    zes_init_fn init = (zes_init_fn)dlsym(lib, "zesInit");
    zes_list_fn drivers = (zes_list_fn)dlsym(lib, "zesDriverGet");
    zes_devices_fn devices = (zes_devices_fn)dlsym(lib, "zesDeviceGet");
    zes_pci_fn pci_of = (zes_pci_fn)dlsym(lib, "zesDevicePciGetProperties");
    zes_domain_fn card = (zes_domain_fn)dlsym(lib, "zesDeviceGetCardPowerDomain");
    zes_energy_fn energy = (zes_energy_fn)dlsym(lib, "zesPowerGetEnergyCounter");
    if (!init || !drivers || !devices || !pci_of || !card || !energy) {
        none(m, "libze_loader.so.1 lacks Sysman's functions (zesInit: Level Zero 1.5)");
        dlclose(lib);
        return;
    }
    if (init(0) != 0) {
        none(m, "zesInit failed");
        dlclose(lib);
        return;
    }
    struct pci want = device_pci(d);
    void *driver[ZES_MAX], *device[ZES_MAX], *dev = NULL, *domain = NULL;
    uint32_t n_drivers = ZES_MAX;
    unsigned matches = 0;
    if (drivers(&n_drivers, driver) != 0)
        n_drivers = 0;
    for (uint32_t i = 0; i < n_drivers && i < ZES_MAX; i++) {
        uint32_t n = ZES_MAX;
        if (devices(driver[i], &n, device) != 0)
            continue;
        for (uint32_t j = 0; j < n && j < ZES_MAX; j++) {
            struct zes_pci_properties p;
            memset(&p, 0, sizeof p);
            p.stype = ZES_STRUCTURE_TYPE_PCI_PROPERTIES;
            if (pci_of(device[j], &p) == 0 && pci_matches(&want, p.domain, p.bus, p.device)) {
                matches++;
                dev = device[j];
            }
        }
    }
    struct zes_energy now;
    if (matches != 1) {
        char where[64];
        pci_text(&want, where, sizeof where);
        none(m, "no one Sysman device is '%.40s' (%s; %u match)", d->name, where, matches);
    } else if (card(dev, &domain) != 0 || energy(domain, &now) != 0) {
        none(m, "Sysman has no card power domain for '%.60s'", d->name);
    } else {
        snprintf(m->source, sizeof m->source, "sysman");
        m->kind = SOURCE_SYSMAN;
        snprintf(m->what, sizeof m->what, "Level Zero Sysman's card energy of '%.60s', in uJ",
                 d->name);
        m->unit_j = 1e-6;
        m->update_ms = SYSMAN_UPDATE_MS;
        m->n_zones = 1;
        m->library = lib;
        m->handle = domain;
        m->read_call = (void (*)(void))energy;
        return;
    }
    dlclose(lib);
}

static int sysman_read(const struct clmem_energy_meter *m, uint64_t *counts, char *why,
                       size_t why_size)
{
    struct zes_energy now;
    int rc = ((zes_energy_fn)m->read_call)(m->handle, &now);
    if (rc != 0) {
        snprintf(why, why_size, "reading Sysman's energy counter failed (ze_result %#x)",
                 (unsigned)rc);
        return -1;
    }
    counts[0] = now.energy_uj;
    return 0;
}

/* ---- the interface ---- */

void clmem_energy_open(struct clmem_energy_meter *m, const struct clmem_device *device)
{
    memset(m, 0, sizeof *m);
    double start = clmem_now_ms();
    int gpu = (device->type & CL_DEVICE_TYPE_GPU) != 0;
    if (device->type & CL_DEVICE_TYPE_CPU)
        rapl_open(m);
    else if (gpu && clmem_contains_nocase(device->vendor, "nvidia"))
        nvml_open(m, device);
    else if (gpu && (clmem_contains_nocase(device->vendor, "advanced micro devices") ||
                     clmem_contains_nocase(device->vendor, "amd")))
        amdsmi_open(m, device);
    else if (gpu && clmem_contains_nocase(device->vendor, "intel"))
        sysman_open(m, device);
    else
        none(m, "no energy counter known for a device of '%.60s'", device->vendor);
    if (clmem_debug_enabled(CLMEM_DEBUG_ENERGY)) {
        double ms = clmem_now_ms() - start;
        if (m->source[0])
            fprintf(stderr, "clmem: energy: '%s': %s (opened in %.3g ms)\n", device->name, m->what,
                    ms);
        else
            fprintf(stderr, "clmem: energy: '%s': none: %s (%.3g ms)\n", device->name, m->why, ms);
    }
}

void clmem_energy_close(struct clmem_energy_meter *m)
{
    if (m->shutdown_call)
        ((int (*)(void))m->shutdown_call)();
    if (m->library)
        dlclose(m->library);
    memset(m, 0, sizeof *m);
}

void clmem_energy_read(const struct clmem_energy_meter *m, struct clmem_energy_reading *r)
{
    memset(r, 0, sizeof *r);
    double start = clmem_now_ms();
    int rc = -1;
    switch (m->kind) {
    case SOURCE_NVML: rc = nvml_read(m, r->counts, r->why, sizeof r->why); break;
    case SOURCE_RAPL: rc = rapl_read(m, r->counts, r->why, sizeof r->why); break;
    case SOURCE_AMDSMI: rc = amdsmi_read(m, r->counts, r->why, sizeof r->why); break;
    case SOURCE_SYSMAN: rc = sysman_read(m, r->counts, r->why, sizeof r->why); break;
    default: snprintf(r->why, sizeof r->why, "%s", m->why); break;
    }
    double end = clmem_now_ms();
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    r->t_ms = (start + end) / 2;
    r->epoch_s = (double)now.tv_sec + now.tv_nsec * 1e-9 - (end - r->t_ms) * 1e-3;
    r->ok = rc == 0;
}

int clmem_energy_joules(const struct clmem_energy_meter *m, const struct clmem_energy_reading *a,
                        const struct clmem_energy_reading *b, double *joules, char *why,
                        size_t why_size)
{
    double counts = 0;
    for (size_t i = 0; i < m->n_zones; i++) {
        uint64_t from = a->counts[i], to = b->counts[i];
        if (to >= from)
            counts += (double)(to - from);
        else if (m->range[i] && from <= m->range[i])
            counts += (double)(m->range[i] - from) + (double)to; /* wrapped once */
        else {
            snprintf(why, why_size, "the energy counter went backwards (%llu to %llu)",
                     (unsigned long long)from, (unsigned long long)to);
            return -1;
        }
    }
    *joules = counts * m->unit_j;
    return 0;
}

double clmem_energy_min_span_ms(const struct clmem_energy_meter *m)
{
    return CLMEM_ENERGY_MIN_UPDATES * m->update_ms;
}
