/* JSON files of tests (json_file.h). */
#include "json_file.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tmpdir.h"

cJSON *test_read_json(const char *path)
{
    char *text = test_read_file(path);
    if (!text)
        fail_msg("cannot read '%s': %s", path, strerror(errno));
    cJSON *root = cJSON_Parse(text);
    if (!root)
        fail_msg("'%s' is not JSON:\n%.2000s", path, text);
    free(text);
    return root;
}

const char *test_write_json(const char *path, const cJSON *root)
{
    char *text = cJSON_Print(root);
    assert_non_null(text);
    test_write_file(path, text);
    cJSON_free(text);
    return path;
}
