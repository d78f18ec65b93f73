/* What the libFuzzer harnesses share. Each harness defines
 * LLVMFuzzerTestOneInput; scripts/fuzz.sh links it with libFuzzer (clang,
 * ASan, UBSan) and tests/test_fuzz_replay.c with a main that replays the
 * corpus and regression files (meson test, any compiler). Besides the
 * sanitizers' findings, each harness checks what a parser promises and
 * aborts when it does not hold, so a replay fails without sanitizers too. */
#ifndef CLMEM_FUZZ_H
#define CLMEM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond);          \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as text: its bytes and a NUL after them (malloc'd; NULL when
 * memory runs out). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

#endif
