/* libFuzzer harness: the two files clmem reads back from its cache
 * directory, on arbitrary contents: the tuning database
 * (clmem_tuning_lookup) and a compiled-program entry (clmem_cache_read).
 * A database entry that is used holds positive values the device can run;
 * anything else is ignored, at most with a warning. A program entry is
 * accepted only whole: its key, length and checksum as written. */
#define _GNU_SOURCE /* mkdtemp */
#include "fuzz.h"
#include "harness/harness.h"
#include "report/report.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], db_path[1024];
static struct clmem_ctx ctx;
static struct clmem_cache_entry entry;

static void clean_up(void)
{
    unlink(db_path);
    unlink(entry.path);
    char sub[1100];
    snprintf(sub, sizeof sub, "%s/clmem/programs", dir);
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/clmem", dir);
    rmdir(sub);
    rmdir(dir);
}

static int set_up(void)
{
    if (dir[0])
        return 0;
    snprintf(dir, sizeof dir, "%s/clmem_fuzz_XXXXXX",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (!mkdtemp(dir) || setenv("XDG_CACHE_HOME", dir, 1) != 0)
        return -1;
    char sub[1100];
    snprintf(sub, sizeof sub, "%s/clmem", dir);
    mkdir(sub, 0755);
    snprintf(sub, sizeof sub, "%s/clmem/programs", dir);
    mkdir(sub, 0755);
    /* A device as the database names it, with limits the tunable checks. */
    snprintf(ctx.device.name, sizeof ctx.device.name, "fuzz device");
    snprintf(ctx.device.driver, sizeof ctx.device.driver, "1.0");
    ctx.device.max_work_group = 1024;
    ctx.device.local_mem = 65536;
    if (clmem_tuning_path(db_path, sizeof db_path) != 0 ||
        clmem_cache_entry(&ctx, "kernel source", "-DX=1", &entry) != 0)
        return -1;
    atexit(clean_up);
    return 0;
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (set_up() != 0 || write_file(db_path, data, size) != 0 ||
        write_file(entry.path, data, size) != 0) {
        perror("fuzz_tuning: set-up");
        abort();
    }
    const struct clmem_workload *w = clmem_workload_find("matmul");
    const struct clmem_tunable *t = clmem_tunable_find(w, "regblock");
    struct clmem_size sz = {{1024, 1024, 1024}, 1};
    int values[CLMEM_MAX_PARAMS] = {0};
    ctx.tuning_warning[0] = '\0';
    if (clmem_tuning_lookup(&ctx, w, t, &sz, values)) {
        for (size_t i = 0; i < t->n_params; i++)
            FUZZ_CHECK(values[i] > 0);
        FUZZ_CHECK(t->valid(&ctx.device, values));
    }
    size_t bin_size = 0;
    const char *why = NULL;
    unsigned char *bin = clmem_cache_read(&entry, &bin_size, &why);
    if (bin) {
        FUZZ_CHECK(why == NULL);
        /* magic, key length, key, binary length, binary, checksum */
        FUZZ_CHECK(size == 8 + 8 + strlen(entry.key) + 8 + bin_size + 8);
        FUZZ_CHECK(memcmp(data + 16, entry.key, strlen(entry.key)) == 0);
        free(bin);
    } else {
        FUZZ_CHECK(why != NULL); /* the file exists: a refusal says why */
    }
    return 0;
}
