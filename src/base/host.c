/* The host a run file was written on: name, OS, kernel, CPU, cores and
 * memory, so a result read later says where it was measured. */
#include "base/base.h"

#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Copies `from` without its surrounding blanks and quotes. */
static void copy_trimmed(char *to, size_t size, const char *from)
{
    size_t len = strlen(from);
    while (len && strchr(" \t\r\n\"'", from[len - 1]))
        len--;
    while (len && strchr(" \t\"'", *from)) {
        from++;
        len--;
    }
    snprintf(to, size, "%.*s", (int)len, from);
}

/* The value of the first line of `path` that starts with `key` and then,
 * after blanks, `sep`: 1 when found. */
static int file_value(const char *path, const char *key, char sep, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[1024];
    size_t key_len = strlen(key);
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, key_len) != 0)
            continue;
        const char *p = line + key_len;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != sep)
            continue;
        copy_trimmed(out, size, p + 1);
        found = out[0] != '\0';
    }
    fclose(f);
    return found;
}

static uint64_t memory_bytes(void)
{
#ifdef _SC_PHYS_PAGES
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        return (uint64_t)pages * (uint64_t)page;
#endif
    char kib[64];
    unsigned long long value = 0;
    if (file_value("/proc/meminfo", "MemTotal", ':', kib, sizeof kib) &&
        sscanf(kib, "%llu", &value) == 1)
        return (uint64_t)value * 1024;
    return 0;
}

int clmem_host_describe(struct clmem_host *h)
{
    memset(h, 0, sizeof *h);
    struct utsname u;
    int have_uname = uname(&u) == 0;
    if (gethostname(h->name, sizeof h->name - 1) != 0 || !h->name[0])
        snprintf(h->name, sizeof h->name, "%s", have_uname ? u.nodename : "unknown");
    if (!file_value("/etc/os-release", "PRETTY_NAME", '=', h->os, sizeof h->os))
        snprintf(h->os, sizeof h->os, "%s", have_uname ? u.sysname : "unknown");
    snprintf(h->kernel, sizeof h->kernel, "%s", have_uname ? u.release : "unknown");
    if (!file_value("/proc/cpuinfo", "model name", ':', h->cpu, sizeof h->cpu))
        snprintf(h->cpu, sizeof h->cpu, "%s", have_uname ? u.machine : "unknown");
#ifdef _SC_NPROCESSORS_ONLN
    h->cores = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    if (h->cores < 1)
        h->cores = 1; /* at least this one runs */
    h->memory_bytes = memory_bytes();
    return CLMEM_OK;
}
