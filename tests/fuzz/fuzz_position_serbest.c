/*
 * fuzz_position_serbest.c -- libFuzzer target: serbest position text (from_text
 * and what an accepted position must satisfy; see fuzz_position.h).
 */
#include "fuzz_position.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_position("serbest", data, size);
}
