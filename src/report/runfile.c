/* Reading run files back (clmem compare FILE..., clmem diff): the JSON that
 * clmem_report_json and the MPI report write, of any schema this clmem knows
 * (a file without schema_version is refused). Everything read is checked, so
 * a bad file is one usage error naming it before any work. */
#include "report/runfile_internal.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Larger than any run file clmem writes (a whole bench is about 100 KiB). */
#define MAX_RUN_FILE_BYTES (256u << 20)
/* The JSON values read at most, each a node of cJSON's (about 100 bytes
 * with its key): 4 Mi of them take about 400 MiB. A result holds about
 * 35, so this is over 100,000 results; a 50 MB array of numbers (12
 * million of them, 2 GB parsed) is refused before it is parsed. */
#define MAX_RUN_FILE_VALUES ((size_t)4 << 20)

/* The whole file, NUL-terminated. */
static int read_whole(struct reader *rd, char **text, size_t *len)
{
    int fd = open(rd->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "cannot read '%s': %s", rd->path,
                          strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        int saved = S_ISDIR(st.st_mode) ? EISDIR : errno;
        close(fd);
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "cannot read '%s': %s", rd->path,
                          strerror(saved));
    }
    /* Read to the end rather than trusting st_size: a pipe has none. */
    int failed = clmem_read_fd(fd, MAX_RUN_FILE_BYTES, 0, text, len);
    int saved = errno;
    close(fd);
    if (failed && saved == ENOMEM)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "out of memory reading '%s'", rd->path);
    if (failed && saved == EFBIG)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                          "cannot read '%s': larger than %u MiB, not a run file", rd->path,
                          MAX_RUN_FILE_BYTES >> 20);
    if (failed)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "cannot read '%s': %s", rd->path,
                          strerror(saved));
    return CLMEM_OK;
}

/* ---- what a file of a schema must hold ----
 * Each section's keys that schema/run.schema.json requires (its `required`
 * lists): a file that lacks one is refused, naming it (a result's lists
 * are runfile_result.c's, the hierarchy's runfile_hierarchy.c's).
 * tests/test_runfile.c removes each key that the schema requires from a
 * good file, so these lists follow it. */
static const char *const single_keys[] = {"schema_version", "clmem_version", "created",
                                          "host",           "results",       NULL};
static const char *const ranks_keys[] = {"schema_version", "clmem_version", "created", "ranks",
                                         NULL};
static const char *const rank_keys[] = {"rank", "host", "device", "status", "results", NULL};
static const char *const host_keys[] = {"name",  "os",           "kernel", "cpu",
                                        "cores", "memory_bytes", NULL};
static const char *const device_keys[] = {"name",
                                          "platform",
                                          "vendor",
                                          "type",
                                          "version",
                                          "driver",
                                          "compute_units",
                                          "clock_mhz",
                                          "global_mem_bytes",
                                          "local_mem_bytes",
                                          "max_work_group",
                                          "opencl_c_version",
                                          "max_alloc_bytes",
                                          "base_addr_align_bits",
                                          "fp64",
                                          NULL};
static const char *const peak_keys[] = {"bandwidth_gbs", "fp32_gflops", NULL};

/* The fields of `table` from `o` into `object` (a struct the table
 * describes), as clmem_json_device and clmem_json_host write them. */
static int parse_fields(struct reader *rd, const cJSON *o, const struct clmem_json_fields *table,
                        void *object)
{
    int status = CLMEM_OK;
    for (size_t i = 0; i < table->n && !status; i++) {
        const struct clmem_json_field *f = &table->fields[i];
        char *member = (char *)object + f->offset, text[64] = "";
        double value = 0;
        switch (f->type) {
        case CLMEM_JSON_TEXT:
            status = runfile_get_string(rd, o, f->key, f->required, member, f->size);
            break;
        case CLMEM_JSON_WHOLE:
            if (!(status = runfile_get_number(rd, o, f->key, f->required, 0, &value)))
                clmem_json_whole_set(member, f->size, value);
            break;
        case CLMEM_JSON_BOOL: {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
            int flag = cJSON_IsTrue(v);
            if (v && !cJSON_IsBool(v))
                status = runfile_bad(rd, "'%s' is not true or false", f->key);
            else if (!v && f->required)
                status = runfile_bad(rd, "no '%s'", f->key);
            memcpy(member, &flag, sizeof flag);
            break;
        }
        case CLMEM_JSON_DEVICE_TYPE: {
            /* A name clmem_device_type_name gives, else the default type. */
            status = runfile_get_string(rd, o, f->key, f->required, text, sizeof text);
            cl_device_type type = clmem_device_type_of(text);
            memcpy(member, &type, sizeof type);
            break;
        }
        }
    }
    return status;
}

static int parse_device(struct reader *rd, const cJSON *o, struct clmem_device *d)
{
    memset(d, 0, sizeof *d);
    if (!cJSON_IsObject(o))
        return runfile_bad(rd, "%s", "no 'device' object");
    int status = runfile_require(rd, o, "device", device_keys);
    if (status)
        return status;
    return parse_fields(rd, o, &clmem_json_device_fields, d);
}

static int parse_peak(struct reader *rd, const cJSON *o, struct clmem_peak *p)
{
    double bw = 0, flops = 0, read = 0, launch = 0;
    int status;
    if (!o)
        return CLMEM_OK;
    if (!cJSON_IsObject(o))
        return runfile_bad(rd, "%s", "'peak' is not an object");
    if ((status = runfile_require(rd, o, "peak", peak_keys)) ||
        (status = runfile_get_number(rd, o, "bandwidth_gbs", 0, 0, &bw)) ||
        (status = runfile_get_number(rd, o, "fp32_gflops", 0, 0, &flops)) ||
        (status = runfile_get_number(rd, o, "read_bandwidth_gbs", 0, 0, &read)) ||
        (status = runfile_get_number(rd, o, "launch_us", 0, 0, &launch)))
        return status;
    p->bandwidth = bw > 0 ? bw : 0;
    p->flops = flops > 0 ? flops : 0;
    p->read_bandwidth = read > 0 ? read : 0;
    p->launch_us = launch > 0 ? launch : 0;
    return CLMEM_OK;
}

static int parse_host(struct reader *rd, const cJSON *o, struct clmem_host *h)
{
    if (!cJSON_IsObject(o))
        return runfile_bad(rd, "%s", "'host' is not an object");
    int status = runfile_require(rd, o, "host", host_keys);
    if (status)
        return status;
    return parse_fields(rd, o, &clmem_json_host_fields, h);
}

/* A result as clmem_result_append makes one (its defaults kept in one
 * place), in an array the reader sized itself. */
static int result_init(struct clmem_result *r)
{
    struct clmem_result *one = NULL;
    size_t n = 0;
    if (!clmem_result_append(&one, &n, "", "", "", ""))
        return -1;
    *r = *one;
    free(one);
    return 0;
}

/* One device's section: the whole file, or one rank of an MPI file. */
static int parse_run(struct reader *rd, const cJSON *o, const cJSON *host,
                     struct clmem_compare_device *run)
{
    int status;
    if ((status = parse_device(rd, cJSON_GetObjectItemCaseSensitive(o, "device"), &run->device)) ||
        (status = parse_peak(rd, cJSON_GetObjectItemCaseSensitive(o, "peak"), &run->peak)) ||
        (status = parse_host(rd, host, &run->host_info)))
        return status;
    clmem_text_copy(run->host, sizeof run->host, run->host_info.name);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(o, "results");
    if (!cJSON_IsArray(list))
        return runfile_bad(rd, "%s", "no 'results' list");
    size_t prefix = strlen(rd->where), count = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
    {
        count++;
    }
    /* Allocated once: grown one result at a time, 40,000 results (120 MB)
     * spent their time moving the array. */
    if (count && !(run->results = calloc(count, sizeof *run->results)))
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "out of memory reading '%s' (%zu results)",
                          rd->path, count);
    cJSON_ArrayForEach(item, list)
    {
        snprintf(rd->where + prefix, sizeof rd->where - prefix, "%sresult %zu", prefix ? " " : "",
                 run->n_results + 1);
        /* Counted even when half-read, so that it is freed. */
        struct clmem_result *r = &run->results[run->n_results++];
        if (result_init(r) != 0)
            return clmem_fail(rd->err, CLMEM_ERR_USAGE, "out of memory reading '%s'", rd->path);
        if ((status = runfile_parse_result(rd, item, r)))
            return status;
    }
    rd->where[prefix] = '\0';
    return CLMEM_OK;
}

void clmem_compare_devices_free(struct clmem_compare_device *runs, size_t n)
{
    for (size_t i = 0; runs && i < n; i++) {
        clmem_results_free(runs[i].results, runs[i].n_results);
        runfile_hierarchy_free(runs[i].hierarchy);
    }
    free(runs);
}

static int parse_file(struct reader *rd, const cJSON *root, struct clmem_compare_device **runs,
                      size_t *n_runs)
{
    char version[64] = "", created[40] = "";
    int status;
    if (!cJSON_IsObject(root))
        return runfile_bad(rd, "%s", "not a JSON object");
    /* Every file clmem reads is of schema 1; one of a later version that
     * changes a field's meaning would be told apart here. */
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!schema)
        return runfile_bad(rd, "%s",
                           cJSON_GetObjectItemCaseSensitive(root, "clmem_version")
                               ? "no 'schema_version' (written by a clmem before run files had one)"
                               : "no 'schema_version'");
    if (!cJSON_IsNumber(schema) || schema->valuedouble < 1 ||
        schema->valuedouble != floor(schema->valuedouble))
        return runfile_bad(rd, "%s", "'schema_version' is not a positive whole number");
    if (schema->valuedouble > CLMEM_SCHEMA_VERSION)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                          "'%s' has schema_version %.0f, newer than this clmem reads (%d): "
                          "read it with a newer clmem",
                          rd->path, schema->valuedouble, CLMEM_SCHEMA_VERSION);
    char git[64] = "";
    if ((status = runfile_get_string(rd, root, "clmem_version", 1, version, sizeof version)) ||
        (status = runfile_get_string(rd, root, "clmem_git", 0, git, sizeof git)) ||
        (status = runfile_get_string(rd, root, "created", 0, created, sizeof created)))
        return status;
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(root, "ranks");
    if (!ranks && !cJSON_GetObjectItemCaseSensitive(root, "results"))
        return runfile_bad(rd, "%s", "no 'results' list (nor 'ranks')");
    if ((status = runfile_require(rd, root, NULL, ranks ? ranks_keys : single_keys)) ||
        (status = runfile_require_hierarchy(rd, root)))
        return status;
    const cJSON *stopped = cJSON_GetObjectItemCaseSensitive(root, "interrupted");
    if (stopped && !cJSON_IsBool(stopped))
        return runfile_bad(rd, "%s", "'interrupted' is not true or false");
    size_t n = 1;
    if (ranks) {
        if (!cJSON_IsArray(ranks))
            return runfile_bad(rd, "%s", "'ranks' is not a list");
        n = (size_t)cJSON_GetArraySize(ranks);
    }
    /* As many runs as --device takes devices: each becomes files of a
     * report (device-N.json, its plots). */
    if (*n_runs + n > CLMEM_MAX_RUNS)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                          "'%s' holds %zu runs, which with the %zu before it is more than the %d "
                          "clmem reads at once",
                          rd->path, n, *n_runs, CLMEM_MAX_RUNS);
    struct clmem_compare_device *found = calloc(n ? n : 1, sizeof *found);
    if (!found)
        return clmem_fail(rd->err, CLMEM_ERR_CL, "out of host memory");
    size_t kept = 0, results = 0;
    const cJSON *section = ranks ? ranks->child : root;
    for (size_t i = 0; i < n && status == CLMEM_OK; i++, section = section->next) {
        struct clmem_compare_device *run = &found[kept];
        run->rank = -1;
        if (ranks) {
            double rank = (double)i;
            snprintf(rd->where, sizeof rd->where, "rank %zu", i);
            if (!cJSON_IsObject(section)) {
                status = runfile_bad(rd, "%s", "not an object");
                break;
            }
            if ((status = runfile_require(rd, section, NULL, rank_keys)) ||
                (status = runfile_get_number(rd, section, "rank", 0, rank, &rank)))
                break;
            run->rank = (int)rank;
            /* A rank that failed before it ran anything has no device to show. */
            const cJSON *list = cJSON_GetObjectItemCaseSensitive(section, "results");
            if (cJSON_IsArray(list) && cJSON_GetArraySize(list) == 0)
                continue;
        }
        status = parse_run(rd, section, cJSON_GetObjectItemCaseSensitive(section, "host"), run);
        clmem_text_copy(run->origin, sizeof run->origin, rd->path);
        clmem_text_copy(run->created, sizeof run->created, created);
        clmem_text_copy(run->clmem_version, sizeof run->clmem_version, version);
        clmem_text_copy(run->clmem_git, sizeof run->clmem_git, git);
        run->interrupted = cJSON_IsTrue(stopped);
        if (status == CLMEM_OK && !ranks)
            status = runfile_parse_hierarchy(
                rd, cJSON_GetObjectItemCaseSensitive(root, "hierarchy"), &run->hierarchy);
        results += run->n_results;
        kept++;
    }
    if (status == CLMEM_OK && results == 0) {
        rd->where[0] = '\0';
        status = clmem_fail(rd->err, CLMEM_ERR_USAGE, "'%s' holds no results", rd->path);
    }
    if (status == CLMEM_OK) {
        struct clmem_compare_device *all = realloc(*runs, (*n_runs + kept) * sizeof *all);
        if (!all)
            status = clmem_fail(rd->err, CLMEM_ERR_CL, "out of host memory");
        else {
            memcpy(all + *n_runs, found, kept * sizeof *found);
            *runs = all;
            *n_runs += kept;
            free(found);
            return CLMEM_OK;
        }
    }
    /* The half-read run was counted in `kept` only when it finished. */
    clmem_compare_devices_free(found, kept < n ? kept + 1 : kept);
    return status;
}

/* ---- the text as a whole: one JSON document, UTF-8, each key once ---- */

static int key_order(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Where `item` sits, for a message: "results[2].device" from its parent's
 * place. */
static void place_of(const char *parent, const cJSON *item, size_t index, char *out, size_t size)
{
    if (item->string)
        snprintf(out, size, "%s%s%s", parent, parent[0] ? "." : "", item->string);
    else
        snprintf(out, size, "%s[%zu]", parent, index);
}

/* Every string (keys too) valid UTF-8, and no key twice in an object:
 * parsers disagree on which of two keys wins (cJSON reads the first,
 * Python's json the last), so such a file is refused rather than read one
 * way here and another elsewhere. */
static int check_tree(struct reader *rd, const cJSON *node, const char *place)
{
    size_t n = 0, index = 0;
    for (const cJSON *c = node->child; c; c = c->next)
        n++;
    if (cJSON_IsObject(node) && n > 1) {
        const char **keys = malloc(n * sizeof *keys);
        if (!keys)
            return clmem_fail(rd->err, CLMEM_ERR_CL, "out of host memory");
        size_t k = 0;
        for (const cJSON *c = node->child; c; c = c->next)
            keys[k++] = c->string ? c->string : "";
        qsort(keys, n, sizeof *keys, key_order);
        for (k = 1; k < n && strcmp(keys[k - 1], keys[k]) != 0; k++)
            ;
        int twice = k < n;
        char key[64];
        if (twice)
            snprintf(key, sizeof key, "%s", keys[k]);
        free(keys);
        if (twice)
            return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                              "'%s' is not a clmem run file: the key '%s' appears twice in %s%s%s",
                              rd->path, key, place[0] ? "'" : "the top-level object", place,
                              place[0] ? "'" : "");
    }
    for (const cJSON *c = node->child; c; c = c->next, index++) {
        char here[256];
        place_of(place, c, index, here, sizeof here);
        size_t bad_at;
        if (c->string && !clmem_utf8_valid(c->string, strlen(c->string), &bad_at))
            return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                              "'%s' is not a clmem run file: a key in '%s' is not UTF-8 (byte %zu "
                              "of it)",
                              rd->path, place[0] ? place : "the top level", bad_at);
        if (cJSON_IsString(c) && c->valuestring &&
            !clmem_utf8_valid(c->valuestring, strlen(c->valuestring), &bad_at))
            return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                              "'%s' is not a clmem run file: '%s' is not UTF-8 (byte %zu of it)",
                              rd->path, here, bad_at);
        if (c->child) {
            int status = check_tree(rd, c, here);
            if (status)
                return status;
        }
    }
    return CLMEM_OK;
}

int clmem_runfile_load(const char *path, struct clmem_compare_device **runs, size_t *n_runs,
                       struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(path, err);
    CLMEM_REFUSE_IF(!runs || !n_runs, err, "%s: '%s' is NULL", __func__, runs ? "n_runs" : "runs");
    CLMEM_REFUSE_IF(!*runs && *n_runs, err, "%s: *runs is NULL, *n_runs %zu", __func__, *n_runs);
    struct reader rd = {.path = path, .err = err};
    char *text = NULL;
    size_t len = 0;
    int status = read_whole(&rd, &text, &len);
    if (status)
        return status;
    if (len == 0) {
        free(text);
        return clmem_fail(err, CLMEM_ERR_USAGE, "'%s' is empty, not a clmem run file", path);
    }
    /* The text checked before cJSON reads it: one document, JSON's own
     * numbers, no more values than a run file holds. Its strings' UTF-8
     * is checked in the tree, where each has a name. */
    struct clmem_json_check check;
    cJSON *root = NULL;
    if (clmem_json_check(text, len, 0, MAX_RUN_FILE_VALUES, &check) != 0) {
        switch (check.fault) {
        case CLMEM_JSON_EARLY_END:
            status =
                clmem_fail(err, CLMEM_ERR_USAGE,
                           "'%s' is not a clmem run file: the JSON ends early (truncated?)", path);
            break;
        case CLMEM_JSON_TOO_MANY:
            status = clmem_fail(err, CLMEM_ERR_USAGE,
                                "'%s' is not a clmem run file: more than %zu JSON values (a run "
                                "file of 100,000 results holds 3.5 million)",
                                path, MAX_RUN_FILE_VALUES);
            break;
        default:
            status = clmem_fail(err, CLMEM_ERR_USAGE,
                                "'%s' is not a clmem run file: not JSON (%s%sat byte %zu)", path,
                                check.what, check.what[0] ? " " : "", check.at);
        }
    } else if (!(root = cJSON_ParseWithLength(text, len))) {
        /* Valid JSON that cJSON could not hold. */
        status = clmem_fail(err, CLMEM_ERR_USAGE, "out of memory reading '%s' (%zu JSON values)",
                            path, check.values);
    } else if ((status = check_tree(&rd, root, "")) == CLMEM_OK) {
        status = parse_file(&rd, root, runs, n_runs);
    }
    cJSON_Delete(root);
    free(text);
    return status;
}
