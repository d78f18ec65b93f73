/* Compiled programs kept between runs, so a second run skips the compiler.
 * An entry lives in $XDG_CACHE_HOME/clmem/programs/ (else ~/.cache/...),
 * named by a 128-bit hash of its key: the kernel source, the build
 * options, the platform, the device, its OpenCL and driver versions and
 * clmem's version. The file repeats the whole key and a checksum of the
 * binary, so an entry that is stale (another key under the same name),
 * truncated or corrupt is detected, deleted and rebuilt, never used.
 * Entries are written whole or not at all (clmem_output_*). */
#include "clmem/clmem.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CLMEM_VERSION
#define CLMEM_VERSION "unknown"
#endif

static const char magic[8] = {'C', 'L', 'M', 'E', 'M', 'P', 'G', '1'};

static uint64_t fnv1a(const void *data, size_t n, uint64_t hash)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        hash ^= p[i];
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

#define FNV_BASIS   0xcbf29ce484222325ULL
#define FNV_BASIS_2 0x84222325cbf29ce4ULL /* a second, independent basis */

/* mkdir -p of the directory part of `path` (up to the last '/'). */
static int make_parents(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(dir, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int clmem_cache_entry(const struct clmem_ctx *ctx, const char *source, const char *options,
                      struct clmem_cache_entry *entry)
{
    memset(entry, 0, sizeof *entry);
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char root[640];
    int n = -1;
    if (xdg && xdg[0] == '/')
        n = snprintf(root, sizeof root, "%s/clmem/programs", xdg);
    else if (home && home[0])
        n = snprintf(root, sizeof root, "%s/.cache/clmem/programs", home);
    /* No place, or one too long to name: no cache rather than another place. */
    if (n < 0 || (size_t)n >= sizeof root)
        return -1;
    uint64_t source_hash = fnv1a(source, strlen(source), FNV_BASIS);
    const struct clmem_device *d = &ctx->device;
    int len = snprintf(entry->key, sizeof entry->key,
                       "clmem %s\nplatform %s\ndevice %s\nversion %s\ndriver %s\noptions %s\n"
                       "source %016llx %zu\n",
                       CLMEM_VERSION, d->platform_name, d->name, d->version, d->driver,
                       options ? options : "", (unsigned long long)source_hash, strlen(source));
    if (len < 0 || (size_t)len >= sizeof entry->key)
        return -1;
    uint64_t h1 = fnv1a(entry->key, (size_t)len, FNV_BASIS);
    uint64_t h2 = fnv1a(source, strlen(source), fnv1a(entry->key, (size_t)len, FNV_BASIS_2));
    snprintf(entry->path, sizeof entry->path, "%s/%016llx%016llx.bin", root, (unsigned long long)h1,
             (unsigned long long)h2);
    return 0;
}

unsigned char *clmem_cache_read(const struct clmem_cache_entry *entry, size_t *bin_size,
                                const char **why)
{
    *why = NULL;
    FILE *f = fopen(entry->path, "rb");
    if (!f)
        return NULL; /* a miss, not a fault */
    unsigned char *bin = NULL;
    char head[sizeof magic];
    uint64_t key_len = 0, size = 0, sum = 0;
    char key[sizeof entry->key];
    *why = "truncated";
    if (fread(head, 1, sizeof head, f) != sizeof head || fread(&key_len, 8, 1, f) != 1)
        goto done;
    *why = "not a clmem program";
    if (memcmp(head, magic, sizeof magic) != 0)
        goto done;
    *why = "made for another source, device or driver";
    if (key_len != strlen(entry->key) || fread(key, 1, key_len, f) != key_len ||
        memcmp(key, entry->key, key_len) != 0)
        goto done;
    *why = "truncated";
    if (fread(&size, 8, 1, f) != 1 || size == 0 || size > (1u << 30) ||
        !(bin = malloc((size_t)size)) || fread(bin, 1, (size_t)size, f) != size ||
        fread(&sum, 8, 1, f) != 1)
        goto done;
    *why = "checksum mismatch";
    if (fnv1a(bin, (size_t)size, FNV_BASIS) != sum || fgetc(f) != EOF)
        goto done;
    *why = NULL;
    *bin_size = (size_t)size;
done:
    fclose(f);
    if (*why) {
        free(bin);
        return NULL;
    }
    return bin;
}

int clmem_cache_load(struct clmem_ctx *ctx, const struct clmem_cache_entry *entry,
                     const char *options, cl_program *program)
{
    const char *why;
    size_t size = 0;
    unsigned char *bin = clmem_cache_read(entry, &size, &why);
    *program = NULL;
    if (!bin && !why)
        return 0;
    cl_int rc = CL_SUCCESS, bin_status = CL_SUCCESS;
    if (bin) {
        const unsigned char *bins[] = {bin};
        cl_program prog = clCreateProgramWithBinary(ctx->context, 1, &ctx->device.id, &size, bins,
                                                    &bin_status, &rc);
        if (rc == CL_SUCCESS && bin_status == CL_SUCCESS)
            rc = clBuildProgram(prog, 1, &ctx->device.id, options, NULL, NULL);
        free(bin);
        if (rc == CL_SUCCESS && bin_status == CL_SUCCESS) {
            *program = prog;
            ctx->cache_hits++;
            return 1;
        }
        if (prog)
            clReleaseProgram(prog);
        why = "refused by the driver";
    }
    /* Never used again: removed, and rebuilt by the caller. */
    unlink(entry->path);
    ctx->cache_rebuilt++;
    snprintf(ctx->cache_warning, sizeof ctx->cache_warning,
             "cached program '%s' was %s: rebuilt from source", entry->path, why);
    return 0;
}

void clmem_cache_store(struct clmem_ctx *ctx, const struct clmem_cache_entry *entry,
                       cl_program program)
{
    size_t size = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) !=
            CL_SUCCESS ||
        size == 0 || make_parents(entry->path) != 0)
        return;
    unsigned char *bin = malloc(size);
    unsigned char *bins[] = {bin};
    struct clmem_output out;
    struct clmem_error err = {0};
    if (bin &&
        clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS &&
        clmem_output_open(&out, entry->path, &err) == CLMEM_OK) {
        uint64_t key_len = strlen(entry->key), size64 = size, sum = fnv1a(bin, size, FNV_BASIS);
        fwrite(magic, 1, sizeof magic, out.file);
        fwrite(&key_len, 8, 1, out.file);
        fwrite(entry->key, 1, key_len, out.file);
        fwrite(&size64, 8, 1, out.file);
        fwrite(bin, 1, size, out.file);
        fwrite(&sum, 8, 1, out.file);
        /* A cache that cannot be written only costs the next run a build. */
        if (clmem_output_commit(&out, &err) == CLMEM_OK)
            ctx->cache_stored++;
    }
    clmem_error_clear(&err);
    free(bin);
}
