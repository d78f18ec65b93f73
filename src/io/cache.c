/* Compiled programs kept between runs, so a second run skips the compiler:
 * the files (opencl/program_cache.c makes and loads the programs).
 * An entry lives in $XDG_CACHE_HOME/clmem/programs/ (else ~/.cache/...),
 * named by a 128-bit hash of its key: the kernel source, the build
 * options, the platform, the device, its OpenCL and driver versions and
 * clmem's version. The file repeats the whole key and a checksum of the
 * binary, so an entry that is stale (another key under the same name),
 * truncated or corrupt is detected, deleted and rebuilt, never used.
 * Entries are written whole or not at all (clmem_output_*), 0600 in
 * directories made 0700, and loaded only from a file and a directory that
 * this user alone can write (state.h): anyone else's program would run
 * under this user's name. */
#include "io/io.h"

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

int clmem_cache_name(const char *identity, const char *source, struct clmem_cache_entry *entry)
{
    memset(entry, 0, sizeof *entry);
    char root[640];
    const char *why;
    /* No place, or one too long to name: no cache rather than another place. */
    if (clmem_state_dir("programs", root, sizeof root, &why) != 0)
        return -1;
    uint64_t source_hash = fnv1a(source, strlen(source), FNV_BASIS);
    int len = snprintf(entry->key, sizeof entry->key, "clmem %s\n%ssource %016llx %zu\n",
                       CLMEM_VERSION, identity, (unsigned long long)source_hash, strlen(source));
    if (len < 0 || (size_t)len >= sizeof entry->key)
        return -2;
    uint64_t h1 = fnv1a(entry->key, (size_t)len, FNV_BASIS);
    uint64_t h2 = fnv1a(source, strlen(source), fnv1a(entry->key, (size_t)len, FNV_BASIS_2));
    snprintf(entry->path, sizeof entry->path, "%s/%016llx%016llx.bin", root, (unsigned long long)h1,
             (unsigned long long)h2);
    return 0;
}

/* The binary of an entry open in `f`, checked; NULL and *why otherwise. */
static unsigned char *read_entry(FILE *f, const struct clmem_cache_entry *entry, size_t *bin_size,
                                 const char **why)
{
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

unsigned char *clmem_cache_read(const struct clmem_cache_entry *entry, size_t *bin_size,
                                const char **why)
{
    FILE *f;
    char reason[512];
    *why = NULL;
    switch (clmem_state_open(entry->path, &f, reason, sizeof reason)) {
    case CLMEM_STATE_OPENED: return read_entry(f, entry, bin_size, why);
    case CLMEM_STATE_MISSING: return NULL; /* a miss, not a fault */
    case CLMEM_STATE_BAD_FILE: *why = "not a regular file of yours that only you can write"; break;
    case CLMEM_STATE_BAD_DIR: *why = "in a directory that is not yours alone"; break;
    }
    return NULL;
}

enum clmem_state_open clmem_cache_take(const struct clmem_cache_entry *entry, unsigned char **bin,
                                       size_t *bin_size, char *reason, size_t reason_size)
{
    FILE *f;
    const char *why = NULL;
    *bin = NULL;
    enum clmem_state_open opened = clmem_state_open(entry->path, &f, reason, reason_size);
    if (opened == CLMEM_STATE_OPENED && !(*bin = read_entry(f, entry, bin_size, &why)))
        snprintf(reason, reason_size, "was %s", why);
    return opened;
}

const char *clmem_cache_drop(const struct clmem_cache_entry *entry)
{
    if (unlink(entry->path) != 0 && (errno != EISDIR || rmdir(entry->path) != 0) && errno != ENOENT)
        return " (not removed: remove it to cache this program again)";
    return "";
}

int clmem_cache_write(const struct clmem_cache_entry *entry, const unsigned char *bin, size_t size)
{
    char dir[sizeof entry->path], why[256];
    snprintf(dir, sizeof dir, "%s", entry->path);
    *strrchr(dir, '/') = '\0';
    /* Only into a directory of this user's alone (else load has warned);
     * over a regular file or nothing (load has removed what it could). */
    struct stat st;
    if (clmem_state_mkdir(dir) != 0 || clmem_state_dir_check(dir, why, sizeof why) != 0 ||
        (lstat(entry->path, &st) == 0 && !S_ISREG(st.st_mode)))
        return -1;
    struct clmem_output out;
    struct clmem_error err = {0};
    if (clmem_output_open_private(&out, entry->path, &err) != CLMEM_OK) {
        clmem_error_clear(&err);
        return -1;
    }
    uint64_t key_len = strlen(entry->key), size64 = size, sum = fnv1a(bin, size, FNV_BASIS);
    fwrite(magic, 1, sizeof magic, out.file);
    fwrite(&key_len, 8, 1, out.file);
    fwrite(entry->key, 1, key_len, out.file);
    fwrite(&size64, 8, 1, out.file);
    fwrite(bin, 1, size, out.file);
    fwrite(&sum, 8, 1, out.file);
    int status = clmem_output_commit(&out, &err);
    clmem_error_clear(&err);
    return status == CLMEM_OK ? 0 : -1;
}
