/*
 * fuzz_util.h -- what every fuzz target in tests/fuzz shares: the libFuzzer
 * entry point's declaration, turning the input bytes into a C string, and
 * failing loudly (abort) when a property the parsers promise does not hold,
 * so that libFuzzer records the input as a crash.
 *
 * The targets are built either with clang's libFuzzer (scripts/fuzz.sh) or,
 * with any compiler, against replay_main.c, which feeds them the files of a
 * corpus (scripts/fuzz_replay.sh, scripts/fuzz_coverage.sh).
 */
#ifndef RULELAB_FUZZ_UTIL_H
#define RULELAB_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A malloc'd NUL-terminated copy of the input (a NUL byte inside ends the
 * text, as it would for a C string read from a file). Aborts when memory
 * is short, which libFuzzer reports as an out-of-memory. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* Aborts with a message when a promised property fails. */
static inline void fuzz_check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz property failed: %s\n", what);
        abort();
    }
}

#endif
