/* Replays fuzz inputs without libFuzzer: main() feeds every file of the
 * directories named on the command line to the harness it is linked with
 * (tests/fuzz/fuzz_NAME.c), as libFuzzer would. A harness aborts when a
 * parser misbehaves, so a regression fails this test with any compiler
 * (and under -Db_sanitize=address,undefined, with the sanitizers' reports).
 * usage: test_fuzz_replay DIR|FILE...  (a DIR must hold at least one file,
 * unless its name is followed by '?': then it may be missing or empty) */
#include "fuzz/fuzz.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "test_fuzz_replay: cannot open '%s'\n", path);
        return -1;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0, got;
    do {
        if (size == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *grown = realloc(data, cap);
            if (!grown) {
                fclose(f);
                free(data);
                return -1;
            }
            data = grown;
        }
        got = fread(data + size, 1, cap - size, f);
        size += got;
    } while (got > 0);
    int failed = ferror(f);
    fclose(f);
    if (!failed) {
        /* An exact-size copy, so ASan sees reads past the input's end. */
        uint8_t *exact = malloc(size ? size : 1);
        if (exact) {
            memcpy(exact, data, size);
            LLVMFuzzerTestOneInput(exact, size);
            free(exact);
        }
    }
    free(data);
    return failed ? -1 : 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays the files of `dir` in name order; returns how many, -1 on error. */
static long replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char **grown = realloc(names, (n + 1) * sizeof *names);
        if (!grown || !(grown[n] = strdup(e->d_name))) {
            names = grown ? grown : names;
            break;
        }
        names = grown;
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare_names);
    long count = 0;
    char path[4096];
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(path) != 0)
                count = -1;
            else if (count >= 0)
                count++;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    long total = 0;
    for (int i = 1; i < argc; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s", argv[i]);
        size_t len = strlen(path);
        int optional = len > 0 && path[len - 1] == '?';
        if (optional)
            path[len - 1] = '\0';
        struct stat st;
        if (stat(path, &st) != 0) {
            if (optional)
                continue;
            fprintf(stderr, "test_fuzz_replay: no '%s'\n", path);
            return 1;
        }
        long n = S_ISDIR(st.st_mode) ? replay_dir(path) : replay_file(path) == 0 ? 1 : -1;
        if (n < 0 || (n == 0 && !optional)) {
            fprintf(stderr, "test_fuzz_replay: '%s': %s\n", path,
                    n < 0 ? "cannot read it" : "no inputs");
            return 1;
        }
        printf("%s: %ld inputs replayed\n", path, n);
        total += n;
    }
    printf("%ld inputs replayed, no finding\n", total);
    return 0;
}
