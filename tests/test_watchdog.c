/* The fixture's watchdog (tests/pocl.c): a run of a kernel past its limit
 * ends the test in seconds, naming the run, where a hanging kernel waited
 * for meson's timeout (15 minutes). The test runs itself as a child
 * ("child": a matmul naive at 4096 through the fixture, minutes on a CPU)
 * under a limit of 10 s. */
#include "pocl.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"

/* The limit the child runs under, and how long it may take to end: the
 * device opened and the program built on a loaded machine, then the limit. */
#define CHILD_LIMIT         "10"
#define CHILD_ENDS_WITHIN_S 170

static int child(void)
{
    struct clmem_ctx ctx;
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    test_open_device(&ctx);
    clmem_run_workload(&ctx, "matmul", "naive", "4096", 1, &results, &n, &err);
    fprintf(stderr, "the run finished: no watchdog stopped it\n");
    clmem_results_free(results, n);
    clmem_ctx_close(&ctx);
    return 0;
}

static void a_run_past_its_limit_ends_the_test(void **state)
{
    (void)state;
    struct child c;
    static struct outcome o;
    const char *env[] = {"CLMEM_TEST_RUN_LIMIT_S", CHILD_LIMIT, NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    start_program(&c, env, "/proc/self/exe", (const char *const[]){"test_watchdog", "child", NULL});
    int ended = child_ended_within(&c, CHILD_ENDS_WITHIN_S);
    if (!ended)
        kill(c.pid, SIGKILL);
    finish_clmem(&c, &o);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    print_message("the child ended after %.1f s: exit %d\n", took, o.code);
    if (!ended)
        fail_msg("a run past its limit of %s s was still going after %d s (killed)", CHILD_LIMIT,
                 CHILD_ENDS_WITHIN_S);
    if (o.code != 1 || !strstr(o.err, "test watchdog: matmul naive at 4096 ran past " CHILD_LIMIT))
        fail_msg("exit %d, stderr '%s'", o.code, o.err);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        return child();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_run_past_its_limit_ends_the_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
