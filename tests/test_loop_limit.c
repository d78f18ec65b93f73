/* A work-item's loop limit (clmem_device_loop_limit) is what the device
 * does, and matmul's register-blocked kernels stay within it.
 * Mesa's llvmpipe ends a work-item's loops after 65535 iterations, silently:
 * regblock, whose work-items loop over K, failed its check on rusticl from
 * 512 up. On the test device ($CLMEM_TEST_DEVICE: PoCL, or llvmpipe in
 * suite rusticl) a loop of limit + 1 iterations must stop at the limit the
 * table claims, or run whole where it claims none; then, where there is a
 * limit, regblock and regblock_padded verify on every path of their
 * kernels (whole tiles, edges, stream-K, K at the most the limit allows)
 * and are refused past it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "opencl/opencl.h"
#include "pocl.h"

static const char probe_source[] =
    "__kernel void count(__global uint *out, uint n)\n"
    "{\n"
    "    uint i = 0;\n"
    "    for (uint k = 0; k < n; k++)\n"
    "        i += out[1] + 1;\n" /* out[1] is 0: a load the compiler cannot fold */
    "    out[0] = i;\n"
    "}\n";

/* How many iterations a loop of n ran on the device. */
static cl_uint loop_count(struct clmem_ctx *ctx, cl_uint n)
{
    cl_int e;
    const char *src = probe_source;
    cl_program program = clCreateProgramWithSource(ctx->context, 1, &src, NULL, &e);
    assert_int_equal(e, CL_SUCCESS);
    assert_int_equal(clBuildProgram(program, 1, &ctx->device.id, "", NULL, NULL), CL_SUCCESS);
    cl_kernel kernel = clCreateKernel(program, "count", &e);
    assert_int_equal(e, CL_SUCCESS);
    cl_uint out[2] = {0, 0};
    cl_mem buffer =
        clCreateBuffer(ctx->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &e);
    assert_int_equal(e, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(kernel, 0, sizeof buffer, &buffer), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(kernel, 1, sizeof n, &n), CL_SUCCESS);
    size_t one = 1;
    assert_int_equal(clEnqueueNDRangeKernel(ctx->queue, kernel, 1, NULL, &one, &one, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(
        clEnqueueReadBuffer(ctx->queue, buffer, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
        CL_SUCCESS);
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    return out[0];
}

static void limit_is_what_the_device_does(void **state)
{
    struct clmem_ctx *ctx = *state;
    unsigned long limit = clmem_device_loop_limit(&ctx->device);
    cl_uint n = limit ? (cl_uint)limit + 1 : 65536 + 1;
    cl_uint ran = loop_count(ctx, n);
    print_message("'%s': a loop of %u ran %u (limit %lu)\n", ctx->device.name, n, ran, limit);
    assert_int_equal(ran, limit ? (cl_uint)limit : n);
    assert_int_equal(loop_count(ctx, 1000), 1000);
}

static void regblock_paths_within_the_limit(void **state)
{
    struct clmem_ctx *ctx = *state;
    if (!clmem_device_loop_limit(&ctx->device)) {
        print_message("'%s' has no loop limit: test_matmul covers its paths\n", ctx->device.name);
        return;
    }
    /* llvmpipe's row, 16x64x8 with 4x4 a work-item: whole tiles and K
     * (64x64x64, 512: the size that failed); every edge (33x65x37);
     * stream-K, 8 groups sharing 10 blocks (80x128x96); the largest K the
     * limit allows for it (4088: 511 steps of 128 counted iterations). */
    static const char *const sizes[] = {"64x64x64", "512", "33x65x37", "80x128x96", "16x64x4088",
                                        NULL};
    test_expect_verified_sizes(ctx, "matmul", "regblock", sizes);
    struct clmem_result *results = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(
        clmem_run_workload(ctx, "matmul", "regblock", "80x128x96", 1, &results, &n, &err),
        CLMEM_OK);
    assert_non_null(strstr(test_find_result(results, n, "regblock")->note, "stream-K"));
    clmem_results_free(results, n);
    test_expect_verified_sizes(ctx, "matmul", "regblock_padded", sizes);
    /* splitk splits K (or picks a smaller block a work-item) until a
     * slice fits the limit: it failed at 512 and at 16x16x4096 with the
     * CPU row's 16x32 a work-item. */
    static const char *const split_sizes[] = {"512", "16x16x4096", "33x65x1031", NULL};
    test_expect_verified_sizes(ctx, "matmul", "splitk", split_sizes);
    test_expect_refused(ctx, "matmul", "regblock", "16x64x4096", "loop limiter");
    test_expect_refused(ctx, "matmul", "regblock_padded", "16x64x4096", "loop limiter");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limit_is_what_the_device_does),
        cmocka_unit_test(regblock_paths_within_the_limit),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
