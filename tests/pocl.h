/* Test fixture: the PoCL CPU device every test runs on. */
#ifndef CLMEM_TEST_POCL_H
#define CLMEM_TEST_POCL_H

#include "clmem/clmem.h"

/* Opens $CLMEM_TEST_DEVICE (default "cpu", PoCL in CI); fails the test
 * with the error's message when there is none. */
void test_open_device(struct clmem_ctx *ctx);
/* Runs WORKLOAD VARIANT at SIZE (2 timed runs) and asserts it verified. */
void test_expect_verified(struct clmem_ctx *ctx, const char *workload, const char *variant,
                          const char *size);
/* cmocka state set-up/tear-down that open and close the device. */
int test_setup_device(void **state);
int test_teardown_device(void **state);

#endif
