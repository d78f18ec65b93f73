/* JSON files of tests (beside tmpdir.h's whole files): read and parsed,
 * printed and written, for tests that edit a run file or read a report.
 * Needs cJSON, which test_api (libclmem's interface alone) does without. */
#ifndef CLMEM_TEST_JSON_FILE_H
#define CLMEM_TEST_JSON_FILE_H

#include <cJSON.h>

/* A JSON file parsed (cJSON_Delete it); the test fails when it cannot be
 * read or is not JSON. */
cJSON *test_read_json(const char *path);
/* `root` printed as the whole of `path`; returns `path`. */
const char *test_write_json(const char *path, const cJSON *root);

#endif
