/* clmem hierarchy's object read back from a run file (runfile_internal.h):
 * its required keys, its levels and the curves they were read from. */
#include "report/runfile_internal.h"

#include <math.h>
#include <stdlib.h>

/* clmem hierarchy's object: its levels and the curves they were read from. */
static const char *const hierarchy_keys[] = {
    "extent_bytes",  "largest_cache_bytes", "largest_cache_from",  "levels", "latency",
    "local_latency", "bandwidth",           "unmatched_bandwidth", NULL};
static const char *const level_keys[] = {"name", "memory", "first_bytes", "latency_ns", NULL};
static const char *const curve_ns_keys[] = {"bytes", "ns", NULL};
static const char *const curve_gbs_keys[] = {"bytes", "gbs", NULL};
static const char *const tlb_keys[] = {"reach_bytes", "last_bytes", "plateaus", NULL};

/* The keys the schema requires of clmem hierarchy's object and of each
 * item of its lists, where the file has one (what it holds is not read
 * back: compare and diff use the results). */
int runfile_require_hierarchy(struct reader *rd, const cJSON *root)
{
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(root, "hierarchy");
    static const struct {
        const char *list;
        const char *const *keys;
    } lists[] = {{"levels", level_keys},
                 {"latency", curve_ns_keys},
                 {"local_latency", curve_ns_keys},
                 {"bandwidth", curve_gbs_keys},
                 {"unmatched_bandwidth", curve_gbs_keys}};
    int status = runfile_require(rd, h, "hierarchy", hierarchy_keys);
    /* The TLB's reach: absent from files written before it was saved. */
    const cJSON *tlb = cJSON_GetObjectItemCaseSensitive(h, "tlb"), *point;
    const cJSON *plateaus = cJSON_GetObjectItemCaseSensitive(tlb, "plateaus");
    if (status == CLMEM_OK && tlb)
        status = runfile_require(rd, tlb, "tlb", tlb_keys);
    cJSON_ArrayForEach(point, plateaus)
    {
        if (status || (status = runfile_require(rd, point, "plateaus", curve_ns_keys)))
            break;
    }
    for (size_t i = 0; h && status == CLMEM_OK && i < CLMEM_ARRAY_SIZE(lists); i++) {
        const cJSON *item, *list = cJSON_GetObjectItemCaseSensitive(h, lists[i].list);
        cJSON_ArrayForEach(item, list)
        {
            if ((status = runfile_require(rd, item, lists[i].list, lists[i].keys)))
                break;
        }
    }
    return status;
}

void runfile_hierarchy_free(struct clmem_saved_hierarchy *h)
{
    if (!h)
        return;
    free(h->latency);
    free(h->local_latency);
    free(h->bandwidth);
    free(h->unmatched);
    free(h);
}

/* A curve's point and its place in the file: sorted by bytes, points of
 * equal bytes keep the file's order. */
struct placed_point {
    struct clmem_saved_point p;
    size_t at;
};

static int by_bytes(const void *a, const void *b)
{
    const struct placed_point *x = a, *y = b;
    if (x->p.bytes != y->p.bytes)
        return x->p.bytes < y->p.bytes ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

/* One of the hierarchy's curves: points of `bytes` and `value_key`, kept
 * in ascending order of bytes (a file need not be sorted: it is sorted
 * once, in n log n, where an insertion sort of 320,000 points in
 * descending order took a minute); points whose figures are not above 0
 * are left out. */
static int parse_curve(struct reader *rd, const cJSON *h, const char *key, const char *value_key,
                       struct clmem_saved_point **out, size_t *n)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(h, key), *item;
    *out = NULL;
    *n = 0;
    if (!cJSON_IsArray(list))
        return runfile_bad(rd, "'hierarchy.%s' is not a list", key);
    size_t count = (size_t)cJSON_GetArraySize(list), kept = 0;
    if (!count)
        return CLMEM_OK;
    struct placed_point *placed = calloc(count, sizeof *placed);
    struct clmem_saved_point *c = calloc(count, sizeof *c);
    if (!placed || !c) {
        free(placed);
        free(c);
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "out of memory reading '%s'", rd->path);
    }
    int sorted = 1;
    cJSON_ArrayForEach(item, list)
    {
        double bytes = NAN, v = NAN;
        int status;
        if ((status = runfile_get_number(rd, item, "bytes", 1, NAN, &bytes)) ||
            (status = runfile_get_number(rd, item, value_key, 1, NAN, &v))) {
            free(placed);
            free(c);
            return status;
        }
        if (!(bytes > 0) || !(v > 0) || !isfinite(bytes) || !isfinite(v))
            continue;
        if (kept && placed[kept - 1].p.bytes > bytes)
            sorted = 0;
        placed[kept] = (struct placed_point){{bytes, v}, kept};
        kept++;
    }
    if (!sorted)
        qsort(placed, kept, sizeof *placed, by_bytes);
    for (size_t i = 0; i < kept; i++)
        c[i] = placed[i].p;
    free(placed);
    *out = c;
    *n = kept;
    return CLMEM_OK;
}

/* A true or false of `o`, *out where present (else as it was). */
static int get_bool(struct reader *rd, const cJSON *o, const char *key, const char *field, int *out)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!b)
        return CLMEM_OK;
    if (!cJSON_IsBool(b))
        return runfile_bad(rd, "'%s' is not true or false", field);
    *out = cJSON_IsTrue(b);
    return CLMEM_OK;
}

/* chase_page's TLB reach, where the file has it (newer files). */
static int parse_tlb(struct reader *rd, const cJSON *o, struct clmem_saved_tlb *t)
{
    const cJSON *tlb = cJSON_GetObjectItemCaseSensitive(o, "tlb");
    t->hit_ns = t->miss_ns = NAN;
    if (!tlb)
        return CLMEM_OK;
    if (!cJSON_IsObject(tlb))
        return runfile_bad(rd, "%s", "'hierarchy.tlb' is not an object");
    struct clmem_saved_point *plateaus = NULL;
    size_t n = 0;
    int status;
    if ((status = runfile_get_number(rd, tlb, "reach_bytes", 1, 0, &t->reach_bytes)) ||
        (status = runfile_get_number(rd, tlb, "last_bytes", 1, 0, &t->last_bytes)) ||
        (status = runfile_get_number(rd, tlb, "hit_ns", 0, NAN, &t->hit_ns)) ||
        (status = runfile_get_number(rd, tlb, "miss_ns", 0, NAN, &t->miss_ns)) ||
        (status = parse_curve(rd, tlb, "plateaus", "ns", &plateaus, &n)))
        return status;
    for (size_t k = 0; k < n && k < CLMEM_SAVED_TLB_PLATEAUS; k++)
        t->plateaus[t->n_plateaus++] = plateaus[k];
    free(plateaus);
    return CLMEM_OK;
}

/* A level's facts past its plateau's, each optional (older files). */
static int parse_level_notes(struct reader *rd, const cJSON *item, struct clmem_saved_level *L)
{
    int status;
    L->resolved = 1;
    L->last_bytes = NAN;
    if ((status = get_bool(rd, item, "resolved", "hierarchy.levels[].resolved", &L->resolved)) ||
        (status = runfile_get_number(rd, item, "last_bytes", 0, NAN, &L->last_bytes)) ||
        (status = runfile_get_number(rd, item, "points", 0, 0, &L->points)) ||
        (status = runfile_get_number(rd, item, "reported_bytes", 0, 0, &L->reported_bytes)) ||
        (status = runfile_get_string(rd, item, "split", 0, L->split, sizeof L->split)) ||
        (status = runfile_get_string(rd, item, "why", 0, L->why, sizeof L->why)))
        return status;
    return CLMEM_OK;
}

/* clmem hierarchy's object, where the file has one (its keys checked by
 * runfile_require_hierarchy). */
int runfile_parse_hierarchy(struct reader *rd, const cJSON *o, struct clmem_saved_hierarchy **out)
{
    *out = NULL;
    if (!o)
        return CLMEM_OK;
    if (!cJSON_IsObject(o))
        return runfile_bad(rd, "%s", "'hierarchy' is not an object");
    struct clmem_saved_hierarchy *h = calloc(1, sizeof *h);
    if (!h)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "out of memory reading '%s'", rd->path);
    int status;
    const cJSON *levels = cJSON_GetObjectItemCaseSensitive(o, "levels"), *item;
    if ((status = runfile_get_number(rd, o, "extent_bytes", 1, 0, &h->extent)) ||
        (status = runfile_get_number(rd, o, "largest_cache_bytes", 1, 0, &h->cache_bytes)) ||
        (status = runfile_get_string(rd, o, "largest_cache_from", 1, h->cache_from,
                                     sizeof h->cache_from)) ||
        (status = runfile_get_number(rd, o, "clock_mhz", 0, 0, &h->clock_mhz)) ||
        (status =
             runfile_get_string(rd, o, "stopped_by", 0, h->stopped_by, sizeof h->stopped_by)) ||
        (status =
             runfile_get_string(rd, o, "memory_note", 0, h->memory_note, sizeof h->memory_note)) ||
        (status = runfile_get_number(rd, o, "page_bytes", 0, 0, &h->page_bytes)) ||
        (status = runfile_get_string(rd, o, "pages", 0, h->pages, sizeof h->pages)) ||
        (status = runfile_get_string(rd, o, "transparent_huge_pages", 0, h->huge_pages,
                                     sizeof h->huge_pages)) ||
        (status = parse_tlb(rd, o, &h->tlb)))
        goto fail;
    if (!cJSON_IsArray(levels)) {
        status = runfile_bad(rd, "%s", "'hierarchy.levels' is not a list");
        goto fail;
    }
    cJSON_ArrayForEach(item, levels)
    {
        if (h->n_levels == CLMEM_SAVED_LEVELS)
            break;
        struct clmem_saved_level *L = &h->levels[h->n_levels];
        const cJSON *memory = cJSON_GetObjectItemCaseSensitive(item, "memory");
        L->size_bytes = 0;
        L->latency_cycles = L->bandwidth_gbs = L->bandwidth_bytes = NAN;
        if ((status = runfile_get_string(rd, item, "name", 1, L->name, sizeof L->name)) ||
            (status = runfile_get_number(rd, item, "size_bytes", 0, 0, &L->size_bytes)) ||
            (status = runfile_get_number(rd, item, "first_bytes", 1, NAN, &L->first_bytes)) ||
            (status = runfile_get_number(rd, item, "latency_ns", 1, NAN, &L->latency_ns)) ||
            (status = runfile_get_number(rd, item, "latency_cycles", 0, NAN, &L->latency_cycles)) ||
            (status = runfile_get_number(rd, item, "bandwidth_gbs", 0, NAN, &L->bandwidth_gbs)) ||
            (status =
                 runfile_get_number(rd, item, "bandwidth_bytes", 0, NAN, &L->bandwidth_bytes)) ||
            (status = parse_level_notes(rd, item, L)))
            goto fail;
        if (!cJSON_IsBool(memory)) {
            status = runfile_bad(rd, "%s", "'hierarchy.levels[].memory' is not true or false");
            goto fail;
        }
        L->is_memory = cJSON_IsTrue(memory);
        h->n_levels++;
    }
    if ((status = parse_curve(rd, o, "latency", "ns", &h->latency, &h->n_latency)) ||
        (status =
             parse_curve(rd, o, "local_latency", "ns", &h->local_latency, &h->n_local_latency)) ||
        (status = parse_curve(rd, o, "bandwidth", "gbs", &h->bandwidth, &h->n_bandwidth)) ||
        (status = parse_curve(rd, o, "unmatched_bandwidth", "gbs", &h->unmatched, &h->n_unmatched)))
        goto fail;
    *out = h;
    return CLMEM_OK;
fail:
    runfile_hierarchy_free(h);
    return status;
}
