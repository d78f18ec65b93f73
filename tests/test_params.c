/* The parameter database (data/params/, harness/params.c): the lookup
 * chain device -> family -> vendor -> any over synthetic files and
 * devices; CLMEM_PARAMS_GENERIC, which leaves a device the rows for any
 * device (the shipped database, PoCL's own rows); files that are not a
 * database refused naming the file and the row; matmul verified on PoCL
 * as a device no row knows. */
#include "pocl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* A table of the test's own, served to every type of device. */
static const struct clmem_param_table synthetic = {
    "synthetic", "t", {"A", "B"},
    2,           0,   CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU | CLMEM_PARAM_UNTYPED};

static char dir[64];

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

static void clear_dir(void)
{
    static const char *const names[] = {"any.json", "device-x1.json", "family-f1.json",
                                        "vendor-acme.json", "zz-bad.json"};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(names); i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
}

#define PROV                                                                                       \
    "\"provenance\": {\"device\": \"none\", \"driver\": \"none\", \"date\": \"none\", "            \
    "\"command\": \"none\"}"
#define ROW(type, a, b)                                                                            \
    "{\"workload\": \"synthetic\", \"table\": \"t\", \"type\": \"" type "\", \"values\": "         \
    "{\"A\": " #a ", \"B\": " #b "}, " PROV "}"

static const char *const any_file = "{\"format\": 1, \"level\": \"any\", \"rows\": [" ROW(
    "gpu", 1, 0) ", " ROW("cpu", 2, 0) ", " ROW("any", 3, 0) "]}";

/* The synthetic database: two candidate rows for a device named "X1",
 * GPUs only; one for family "f1"; one for vendor "Acme"; any. */
static void write_synthetic(void)
{
    clear_dir();
    write_file("any.json", any_file);
    write_file("device-x1.json", "{\"format\": 1, \"level\": \"device\", \"match\": \"X1\", "
                                 "\"rows\": [" ROW("gpu", 10, 1) ", " ROW("gpu", 11, 2) "]}");
    write_file("family-f1.json",
               "{\"format\": 1, \"level\": \"family\", \"match\": \"f1\", \"rows\": [" ROW(
                   "any", 20, 0) "]}");
    write_file("vendor-acme.json",
               "{\"format\": 1, \"level\": \"vendor\", \"match\": \"Acme\", \"rows\": [" ROW(
                   "gpu", 30, 0) "]}");
}

static void reload(void)
{
    struct clmem_error err = {0};
    if (clmem_params_reload(dir, &err))
        fail_msg("%s", err.message);
}

static struct clmem_device device(const char *name, const char *vendor, const char *family,
                                  cl_device_type type)
{
    struct clmem_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", name);
    snprintf(d.vendor, sizeof d.vendor, "%s", vendor);
    snprintf(d.family, sizeof d.family, "%s", family);
    d.type = type;
    return d;
}

/* The A values of the device's rows, and their level. */
static size_t lookup(const struct clmem_device *d, int a[], enum clmem_param_level *level)
{
    const struct clmem_param_row *rows[8];
    size_t n = clmem_param_lookup(&synthetic, d, rows, 8, level);
    for (size_t i = 0; i < n; i++)
        a[i] = rows[i]->values[0];
    return n;
}

static void lookup_chain(void **state)
{
    (void)state;
    unsetenv("CLMEM_PARAMS_GENERIC");
    write_synthetic();
    reload();
    int a[8];
    enum clmem_param_level level;
    /* By name: both candidates, in the file's order, over its family's
     * and vendor's rows. */
    struct clmem_device d = device("Acme X1 Ultra", "Acme", "f1", CL_DEVICE_TYPE_GPU);
    assert_int_equal(lookup(&d, a, &level), 2);
    assert_int_equal(level, CLMEM_PARAM_DEVICE);
    assert_int_equal(a[0], 10);
    assert_int_equal(a[1], 11);
    /* The device's rows are for GPUs: a CPU of that name takes its
     * family's. */
    d = device("Acme X1 Ultra", "Acme", "f1", CL_DEVICE_TYPE_CPU);
    assert_int_equal(lookup(&d, a, &level), 1);
    assert_int_equal(level, CLMEM_PARAM_FAMILY);
    assert_int_equal(a[0], 20);
    /* The family over the vendor. */
    d = device("Acme Z9", "Acme", "f1", CL_DEVICE_TYPE_GPU);
    assert_int_equal(lookup(&d, a, &level), 1);
    assert_int_equal(level, CLMEM_PARAM_FAMILY);
    assert_int_equal(a[0], 20);
    /* The vendor (part of its name, any case) over any. */
    d = device("Z9", "ACME Corporation", "f2", CL_DEVICE_TYPE_GPU);
    assert_int_equal(lookup(&d, a, &level), 1);
    assert_int_equal(level, CLMEM_PARAM_VENDOR);
    assert_int_equal(a[0], 30);
    /* Any device, by type: a GPU's row and the untyped one (rows of type
     * any are every device's), a CPU's and the untyped one, the untyped
     * one alone for others (an accelerator). */
    d = device("Z9", "Other", "f2", CL_DEVICE_TYPE_GPU);
    assert_int_equal(lookup(&d, a, &level), 2);
    assert_int_equal(level, CLMEM_PARAM_ANY);
    assert_int_equal(a[0], 1);
    assert_int_equal(a[1], 3);
    d = device("Z9", "Other", "", CL_DEVICE_TYPE_CPU);
    assert_int_equal(lookup(&d, a, &level), 2);
    assert_int_equal(a[0], 2);
    assert_int_equal(a[1], 3);
    d = device("Z9", "Other", "", CL_DEVICE_TYPE_ACCELERATOR);
    assert_int_equal(lookup(&d, a, &level), 1);
    assert_int_equal(a[0], 3);
    /* A row's origin: its file and place there. */
    const struct clmem_param_row *rows[2];
    d = device("Acme X1", "Acme", "f1", CL_DEVICE_TYPE_GPU);
    assert_int_equal(clmem_param_lookup(&synthetic, &d, rows, 2, &level), 2);
    const char *file, *table;
    size_t index;
    assert_true(clmem_param_origin(rows[1], &file, &index, &table));
    assert_non_null(strstr(file, "device-x1.json"));
    assert_int_equal(index, 2);
    assert_string_equal(table, "synthetic/t");
}

/* Under CLMEM_PARAMS_GENERIC a device takes the rows for any device. */
static void generic_synthetic(void **state)
{
    (void)state;
    write_synthetic();
    reload();
    int a[8];
    enum clmem_param_level level;
    struct clmem_device d = device("Acme X1 Ultra", "Acme", "f1", CL_DEVICE_TYPE_GPU);
    setenv("CLMEM_PARAMS_GENERIC", "1", 1);
    assert_int_equal(lookup(&d, a, &level), 2);
    assert_int_equal(level, CLMEM_PARAM_ANY);
    assert_int_equal(a[0], 1);
    assert_int_equal(a[1], 3);
    setenv("CLMEM_PARAMS_GENERIC", "0", 1); /* "0": off */
    assert_int_equal(lookup(&d, a, &level), 2);
    assert_int_equal(level, CLMEM_PARAM_DEVICE);
    unsetenv("CLMEM_PARAMS_GENERIC");
}

/* The row of table t at the level any of `type`, in the loaded database. */
static const struct clmem_param_row *any_row(const struct clmem_param_table *t, cl_device_type type)
{
    size_t n;
    const struct clmem_param_row *rows = clmem_param_table_rows(t, &n);
    for (size_t i = 0; i < n; i++)
        if (rows[i].level == CLMEM_PARAM_ANY && rows[i].type == type)
            return &rows[i];
    fail_msg("table %s/%s has no row at the level any", t->workload, t->name);
    return NULL;
}

static const struct clmem_param_table *matmul_table(const char *name)
{
    const struct clmem_workload *w = clmem_workload_find("matmul");
    assert_non_null(w);
    for (size_t i = 0; i < w->n_param_tables; i++)
        if (strcmp(w->param_tables[i]->name, name) == 0)
            return w->param_tables[i];
    fail_msg("matmul has no table '%s'", name);
    return NULL;
}

/* The shipped database: PoCL's cpu_blocked row is its family's (its
 * vector width), sm_90's regblock rows its family's; both the rows for
 * any device under CLMEM_PARAMS_GENERIC. */
static void generic_shipped(void **state)
{
    struct clmem_ctx *ctx = *state;
    struct clmem_error err = {0};
    unsetenv("CLMEM_PARAMS_GENERIC");
    if (clmem_params_reload(NULL, &err))
        fail_msg("%s", err.message);
    const struct clmem_param_table *cb = matmul_table("cpu_blocked"),
                                   *rb = matmul_table("regblock");
    const struct clmem_param_row *row;
    enum clmem_param_level level;
    struct clmem_device hopper =
        device("Some GPU", "NVIDIA Corporation", "sm_90", CL_DEVICE_TYPE_GPU);
    assert_true(clmem_param_lookup(cb, &ctx->device, &row, 1, &level) == 1);
    if (ctx->device.family[0] && strncmp(ctx->device.family, "cpu-simd", 8) == 0)
        assert_int_equal(level, CLMEM_PARAM_FAMILY);
    assert_true(clmem_param_lookup(rb, &hopper, &row, 1, &level) == 1);
    assert_int_equal(level, CLMEM_PARAM_FAMILY);

    setenv("CLMEM_PARAMS_GENERIC", "1", 1);
    assert_true(clmem_param_lookup(cb, &ctx->device, &row, 1, &level) == 1);
    assert_int_equal(level, CLMEM_PARAM_ANY);
    assert_ptr_equal(row, any_row(cb, CL_DEVICE_TYPE_CPU));
    assert_true(clmem_param_lookup(rb, &ctx->device, &row, 1, &level) == 1);
    assert_int_equal(level, CLMEM_PARAM_ANY);
    assert_ptr_equal(row, any_row(rb, CL_DEVICE_TYPE_CPU));
    assert_true(clmem_param_lookup(rb, &hopper, &row, 1, &level) == 1);
    assert_int_equal(level, CLMEM_PARAM_ANY);
    assert_ptr_equal(row, any_row(rb, CL_DEVICE_TYPE_GPU));
    unsetenv("CLMEM_PARAMS_GENERIC");
}

/* A database in `dir` whose any.json holds `rows` (after a valid any-type
 * row) is refused, with a message holding each of `expect`. */
static void expect_refused(const char *file_text, const char *const expect[])
{
    struct clmem_error err = {0};
    const struct clmem_param_row *rows;
    size_t n;
    clear_dir();
    write_file("any.json", file_text);
    int status = clmem_params_reload(dir, &err);
    if (!status)
        status = clmem_param_table_get(&synthetic, &rows, &n, &err);
    assert_int_equal(status, CLMEM_ERR_USAGE);
    for (size_t i = 0; expect[i]; i++)
        if (!strstr(err.message, expect[i]))
            fail_msg("'%s' does not say '%s'", err.message, expect[i]);
}

#define ANY_FILE(rows) "{\"format\": 1, \"level\": \"any\", \"rows\": [" rows "]}"

static void invalid_files_refused(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/any.json", dir);
    /* A column missing. */
    expect_refused(ANY_FILE(ROW("gpu", 1, 0) ", " ROW("cpu", 2, 0) ", "
                                                                   "{\"workload\": \"synthetic\", "
                                                                   "\"table\": \"t\", \"type\": "
                                                                   "\"any\", \"values\": {\"A\": "
                                                                   "3}, " PROV "}"),
                   (const char *const[]){path, "row 3", "no value for column 'B'", NULL});
    /* An unknown column. */
    expect_refused(ANY_FILE(ROW("gpu", 1, 0) ", {\"workload\": \"synthetic\", \"table\": \"t\", "
                                             "\"type\": \"cpu\", \"values\": {\"A\": 1, \"B\": "
                                             "2, \"C\": 3}, " PROV "}, " ROW("any", 3, 0)),
                   (const char *const[]){path, "row 2", "unknown column 'C'", NULL});
    /* A value of the wrong type, and one that is not whole. */
    expect_refused(ANY_FILE(ROW("gpu", "1", 0) ", " ROW("cpu", 2, 0) ", " ROW("any", 3, 0)),
                   (const char *const[]){path, "row 1", "\"A\" must be a number", NULL});
    expect_refused(ANY_FILE(ROW("gpu", 1, 0) ", " ROW("cpu", 2.5, 0) ", " ROW("any", 3, 0)),
                   (const char *const[]){path, "row 2", "not a whole number", NULL});
    /* No row for any CPU. */
    expect_refused(ANY_FILE(ROW("gpu", 1, 0) ", " ROW("any", 3, 0)),
                   (const char *const[]){path, "synthetic/t", "type cpu", NULL});
    /* No provenance. */
    expect_refused(ANY_FILE("{\"workload\": \"synthetic\", \"table\": \"t\", \"type\": \"gpu\", "
                            "\"values\": {\"A\": 1, \"B\": 2}}"),
                   (const char *const[]){path, "row 1", "provenance", NULL});
    /* Not JSON, and not this format. */
    expect_refused("{\"format\": 1, \"level\": \"any\", \"rows\": [",
                   (const char *const[]){path, "not valid JSON", NULL});
    expect_refused("{\"format\": 2, \"level\": \"any\", \"rows\": []}",
                   (const char *const[]){path, "\"format\" must be 1", NULL});
    /* A table the workload does not have. */
    clear_dir();
    write_file("any.json", "{\"format\": 1, \"level\": \"any\", \"rows\": [{\"workload\": "
                           "\"constmem\", \"table\": \"nosuch\", \"type\": \"gpu\", \"values\": "
                           "{\"A\": 1}, " PROV "}]}");
    struct clmem_error err = {0};
    reload();
    const struct clmem_workload *w = clmem_workload_find("constmem");
    assert_int_equal(clmem_params_check(w, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, path));
    /* No database where CLMEM_DATA_DIR says. */
    setenv("CLMEM_DATA_DIR", "/nonexistent/clmem-data", 1);
    assert_int_equal(clmem_params_reload(NULL, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "/nonexistent/clmem-data"));
    unsetenv("CLMEM_DATA_DIR");
    if (clmem_params_reload(NULL, &err))
        fail_msg("%s", err.message);
}

/* The shipped database: every table of every workload valid, every row
 * a known workload's table. */
static void shipped_database_valid(void **state)
{
    (void)state;
    struct clmem_error err = {0};
    size_t n;
    const struct clmem_workload *const *all = clmem_workloads(&n);
    if (clmem_params_reload(NULL, &err) || clmem_params_check_all(all, n, &err))
        fail_msg("%s", err.message);
    /* A row of a workload that does not exist is refused. */
    clear_dir();
    write_file("any.json", "{\"format\": 1, \"level\": \"any\", \"rows\": [{\"workload\": "
                           "\"matmull\", \"table\": \"regblock\", \"type\": \"gpu\", "
                           "\"values\": {\"A\": 1}, " PROV "}]}");
    reload();
    assert_int_equal(clmem_params_check_all(all, n, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "no workload 'matmull'"));
    if (clmem_params_reload(NULL, &err))
        fail_msg("%s", err.message);
}

/* The parameters of matmul's variant at a size, as its result says them. */
static void expect_params(struct clmem_ctx *ctx, const char *variant, const char *size,
                          const char *want)
{
    struct clmem_result *results = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    test_watch_begin("matmul %s %s", variant, size);
    int status = clmem_run_workload(ctx, "matmul", variant, size, 1, &results, &n, &err);
    test_watch_end();
    if (status)
        fail_msg("%s", err.message);
    assert_int_equal(n, 1);
    assert_true(results[0].verified);
    if (!strstr(results[0].params, want))
        fail_msg("params '%s' lack '%s'", results[0].params, want);
    clmem_results_free(results, n);
}

/* matmul on PoCL as a device no row knows: cpu_blocked and regblock built
 * with the rows for any CPU, and verified. */
static void matmul_generic_verifies(void **state)
{
    struct clmem_ctx *ctx = *state;
    struct clmem_error err = {0};
    if (clmem_params_reload(NULL, &err))
        fail_msg("%s", err.message);
    setenv("CLMEM_PARAMS_GENERIC", "1", 1);
    const int *cb = any_row(matmul_table("cpu_blocked"), CL_DEVICE_TYPE_CPU)->values,
              *rb = any_row(matmul_table("regblock"), CL_DEVICE_TYPE_CPU)->values;
    char want[256];
    snprintf(want, sizeof want, "-DCPU_VEC=%d -DCPU_MR=%d -DCPU_NV=%d -DCPU_MT=%d -DCPU_WG=%d",
             cb[0], cb[1], cb[2], cb[3], cb[4]);
    expect_params(ctx, "cpu_blocked", "35x19x11", want);
    snprintf(want, sizeof want, "-DTSM=%d -DTSN=%d -DTSK=%d -DWPTM=%d -DWPTN=%d", rb[0], rb[1],
             rb[2], rb[3], rb[4]);
    expect_params(ctx, "regblock", "35x19x11", want);
    unsetenv("CLMEM_PARAMS_GENERIC");
}

static int setup(void **state)
{
    snprintf(dir, sizeof dir, "/tmp/clmem-params-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    return test_setup_device(state);
}

static int teardown(void **state)
{
    clear_dir();
    rmdir(dir);
    return test_teardown_device(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lookup_chain),           cmocka_unit_test(generic_synthetic),
        cmocka_unit_test(invalid_files_refused),  cmocka_unit_test(generic_shipped),
        cmocka_unit_test(shipped_database_valid), cmocka_unit_test(matmul_generic_verifies),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
