/* libFuzzer harness: clmem_size_parse (--size) on arbitrary bytes. A parsed
 * size has 1 to 3 dimensions, each 1 to 2^31-1, the missing ones copied
 * from the last, and prints back to text that parses to the same size; a
 * refused one is a usage error with a message. */
#include "fuzz.h"
#include "harness/harness.h"
#include "report/report.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    struct clmem_size parsed;
    struct clmem_error err = {0};
    int status = clmem_size_parse(text, &parsed, &err);
    if (status == CLMEM_OK) {
        FUZZ_CHECK(parsed.ndims >= 1 && parsed.ndims <= 3);
        for (int i = 0; i < 3; i++)
            FUZZ_CHECK(parsed.dim[i] >= 1 && parsed.dim[i] <= 2147483647UL);
        for (int i = parsed.ndims; i < 3; i++)
            FUZZ_CHECK(parsed.dim[i] == parsed.dim[parsed.ndims - 1]);
        char back[96];
        struct clmem_size again;
        clmem_size_format(&parsed, back, sizeof back);
        FUZZ_CHECK(clmem_size_parse(back, &again, &err) == CLMEM_OK);
        FUZZ_CHECK(again.ndims == parsed.ndims);
        for (int i = 0; i < 3; i++)
            FUZZ_CHECK(again.dim[i] == parsed.dim[i]);
    } else {
        FUZZ_CHECK(status == CLMEM_ERR_USAGE);
        FUZZ_CHECK(err.message[0] != '\0');
        FUZZ_CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);
    }
    clmem_error_clear(&err);
    free(text);
    return 0;
}
