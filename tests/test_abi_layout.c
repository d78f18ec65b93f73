/* The layouts of src/api/layout.c without a device: a program's context
 * whose device is an older, smaller one has every field after the device
 * earlier by the difference, both ways, and nothing is written past its
 * end; a program's result that lacks fields reads them as their defaults
 * (NAN fractions, one run a sample); sizes larger than the library's or
 * of no version are refused, naming the struct. */
#include "api/api.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* A program's device without its last fields (`family` on, and back to a
 * multiple of 8 bytes); its context smaller by as much, from the device on. */
#define OLD_DEVICE (offsetof(struct clmem_device, family) / 8 * 8)
#define SHORTER    (sizeof(struct clmem_device) - OLD_DEVICE)

static struct clmem_api older_device(void)
{
    struct clmem_api api;
    assert_int_equal(clmem_api_read(&api, NULL, NULL), CLMEM_OK);
    api.size[CLMEM_API_DEVICE] = OLD_DEVICE;
    api.size[CLMEM_API_CTX] = sizeof(struct clmem_ctx) - SHORTER;
    return api;
}

static void held_struct_moves_the_fields_after_it(void **state)
{
    (void)state;
    struct clmem_api api = older_device();
    struct clmem_ctx mine;
    memset(&mine, 0x11, sizeof mine);
    strcpy(mine.device.name, "a device");
    mine.device.compute_units = 7;
    strcpy(mine.kernel_dir, "/kernels");
    mine.cache_hits = 5;
    mine.clock.tick_ns = 2.5;
    strcpy(mine.clock.why, "why not");
    unsigned char theirs[sizeof mine + 64];
    memset(theirs, 0xee, sizeof theirs);

    clmem_api_out(&api, CLMEM_API_CTX, theirs, &mine);
    assert_string_equal((char *)theirs + offsetof(struct clmem_device, name), "a device");
    assert_string_equal((char *)theirs + offsetof(struct clmem_ctx, kernel_dir) - SHORTER,
                        "/kernels");
    unsigned hits;
    memcpy(&hits, theirs + offsetof(struct clmem_ctx, cache_hits) - SHORTER, sizeof hits);
    assert_int_equal(hits, 5);
    double tick;
    memcpy(&tick,
           theirs + offsetof(struct clmem_ctx, clock) - SHORTER +
               offsetof(struct clmem_clock, tick_ns),
           sizeof tick);
    assert_true(tick == 2.5);
    for (size_t i = api.size[CLMEM_API_CTX]; i < sizeof theirs; i++)
        assert_int_equal(theirs[i], 0xee);

    struct clmem_ctx back;
    memset(&back, 0x77, sizeof back);
    clmem_api_in(&api, CLMEM_API_CTX, &back, theirs);
    assert_string_equal(back.device.name, "a device");
    assert_int_equal(back.device.compute_units, 7);
    assert_string_equal(back.kernel_dir, "/kernels");
    assert_int_equal(back.cache_hits, 5);
    assert_true(back.clock.tick_ns == 2.5);
    assert_string_equal(back.clock.why, "why not");
    /* What the program's device lacks is zero. */
    for (size_t i = OLD_DEVICE; i < sizeof back.device; i++)
        assert_int_equal(((unsigned char *)&back.device)[i], 0);
}

static void missing_fields_read_as_defaults(void **state)
{
    (void)state;
    struct clmem_api api;
    assert_int_equal(clmem_api_read(&api, NULL, NULL), CLMEM_OK);
    api.size[CLMEM_API_RESULT] = offsetof(struct clmem_result, peak_fraction);
    struct clmem_result theirs, mine;
    memset(&theirs, 0x33, sizeof theirs);
    clmem_api_in(&api, CLMEM_API_RESULT, &mine, &theirs);
    assert_true(mine.baseline_fraction == theirs.baseline_fraction); /* the program's own */
    assert_true(mine.peak_fraction != mine.peak_fraction);           /* NAN: none */
    assert_true(mine.looped_ms != mine.looped_ms);
    assert_int_equal(mine.runs_per_sample, 1);
    assert_int_equal(mine.demonstrates_failure, 0);
    assert_true(mine.max_rel_error == 0.0);
}

static void sizes_of_no_version_are_refused(void **state)
{
    (void)state;
    struct clmem_sizes sizes = *CLMEM_SIZES;
    struct clmem_api api;
    struct clmem_error err = {0};
    assert_true(clmem_api_native(&sizes));
    assert_int_equal(clmem_api_read(&api, &sizes, &err), CLMEM_OK);

    sizes.peak += 8; /* a newer header's */
    assert_false(clmem_api_native(&sizes));
    assert_int_equal(clmem_api_read(&api, &sizes, &err), CLMEM_ERR_USAGE);
    char expected[128];
    snprintf(expected, sizeof expected, "struct clmem_peak is %zu bytes there, %zu here",
             sizeof(struct clmem_peak) + 8, sizeof(struct clmem_peak));
    if (!strstr(err.message, expected))
        fail_msg("'%s' does not say '%s'", err.message, expected);

    sizes = *CLMEM_SIZES;
    sizes.result = 4; /* no result was ever that */
    assert_int_equal(clmem_api_read(&api, &sizes, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "struct clmem_result of 4 bytes"));

    sizes = *CLMEM_SIZES;
    sizes.sizes = 3 * sizeof(size_t); /* before struct clmem_sizes was */
    assert_int_equal(clmem_api_read(&api, &sizes, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "struct clmem_sizes"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(held_struct_moves_the_fields_after_it),
        cmocka_unit_test(missing_fields_read_as_defaults),
        cmocka_unit_test(sizes_of_no_version_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
