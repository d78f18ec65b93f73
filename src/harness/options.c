/* The options of a run and of the suite as clmem.h's handles: made with
 * the CLI's defaults, set one at a time by the CLI's names and ranges
 * (clmem_member_set), owning the texts they are given. */
#include "harness/harness.h"

#include <stdlib.h>
#include <string.h>

static const struct clmem_member run_members[] = {
    CLMEM_MEMBER(clmem_run_options, variant, "variant"),
    CLMEM_MEMBER(clmem_run_options, size, "size"),
    CLMEM_OPTION(clmem_run_options, reps, "reps", 1, CLMEM_MAX_REPS),
    CLMEM_OPTION(clmem_run_options, warmup, "warmup", 0, CLMEM_MAX_WARMUP),
    CLMEM_OPTION(clmem_run_options, seed, "seed", 0, UINT64_MAX),
    CLMEM_MEMBER(clmem_run_options, compare, "compare"),
    CLMEM_MEMBER(clmem_run_options, input, "input"),
    CLMEM_OPTION(clmem_run_options, energy, "energy", 0, 1),
};
static const struct clmem_run_options run_defaults = {
    .reps = CLMEM_DEFAULT_REPS, .warmup = CLMEM_DEFAULT_WARMUP, .seed = CLMEM_DEFAULT_SEED};

static const struct clmem_member bench_members[] = {
    CLMEM_OPTION(clmem_bench_options, reps, "reps", 1, CLMEM_MAX_REPS),
    CLMEM_OPTION(clmem_bench_options, seed, "seed", 0, UINT64_MAX),
    CLMEM_MEMBER(clmem_bench_options, compare, "compare"),
    CLMEM_MEMBER(clmem_bench_options, only, "workloads"),
    CLMEM_MEMBER_AS(CLMEM_MEMBER_DEVICE_TYPE, clmem_bench_options, sizes, "sizes", 0, 0),
    CLMEM_OPTION(clmem_bench_options, energy, "energy", 0, 1),
};
static const struct clmem_bench_options bench_defaults = {.reps = CLMEM_DEFAULT_REPS,
                                                          .seed = CLMEM_DEFAULT_SEED};

/* Either kind of options behind the texts they own, a slot per member;
 * the handle is the address of the options. */
#define MAX_MEMBERS 8
struct held {
    char *texts[MAX_MEMBERS];
    max_align_t options[];
};
_Static_assert(CLMEM_ARRAY_SIZE(run_members) <= MAX_MEMBERS &&
                   CLMEM_ARRAY_SIZE(bench_members) <= MAX_MEMBERS,
               "a slot for each member");

static struct held *held_of(void *options)
{
    return (struct held *)((char *)options - offsetof(struct held, options));
}

static int create(void **options, const void *defaults, size_t size, struct clmem_error *err)
{
    struct held *held = calloc(1, sizeof *held + size);
    *options = held ? held->options : NULL;
    if (!held)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    memcpy(held->options, defaults, size);
    return CLMEM_OK;
}

static void release(void *options)
{
    if (!options)
        return;
    struct held *held = held_of(options);
    for (size_t i = 0; i < MAX_MEMBERS; i++)
        free(held->texts[i]);
    free(held);
}

int clmem_run_options_create(struct clmem_run_options **options, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(options, err);
    return create((void **)options, &run_defaults, sizeof run_defaults, err);
}

int clmem_run_options_set(struct clmem_run_options *options, const char *name, const char *value,
                          struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(options, err);
    return clmem_member_set(options, held_of(options)->texts, run_members,
                            CLMEM_ARRAY_SIZE(run_members), name, value, __func__, err);
}

int clmem_run_options_set_callbacks(struct clmem_run_options *options, clmem_progress_fn *progress,
                                    clmem_cancelled_fn *cancelled, void *user,
                                    struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(options, err);
    options->progress = progress;
    options->cancelled = cancelled;
    options->progress_user = options->cancelled_user = user;
    return CLMEM_OK;
}

int clmem_run_options_set_done(struct clmem_run_options *options, clmem_done_fn *done, void *user,
                               struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(options, err);
    options->done = done;
    options->done_user = user;
    return CLMEM_OK;
}

void clmem_run_options_release(struct clmem_run_options *options)
{
    release(options);
}

int clmem_bench_options_create(struct clmem_bench_options **options, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(options, err);
    return create((void **)options, &bench_defaults, sizeof bench_defaults, err);
}

int clmem_bench_options_set(struct clmem_bench_options *options, const char *name,
                            const char *value, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(options, err);
    if (value == NULL && name && strcmp(name, "sizes") == 0) {
        options->sizes = 0; /* the device's own */
        return CLMEM_OK;
    }
    return clmem_member_set(options, held_of(options)->texts, bench_members,
                            CLMEM_ARRAY_SIZE(bench_members), name, value, __func__, err);
}

int clmem_bench_options_set_callbacks(struct clmem_bench_options *options,
                                      clmem_bench_progress_fn *progress,
                                      clmem_cancelled_fn *cancelled, void *user,
                                      struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(options, err);
    options->progress = progress;
    options->cancelled = cancelled;
    options->progress_user = options->cancelled_user = user;
    return CLMEM_OK;
}

int clmem_bench_options_set_done(struct clmem_bench_options *options, clmem_done_fn *done,
                                 void *user, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(options, err);
    options->done = done;
    options->done_user = user;
    return CLMEM_OK;
}

void clmem_bench_options_release(struct clmem_bench_options *options)
{
    release(options);
}
