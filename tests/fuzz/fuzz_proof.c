/*
 * fuzz_proof.c -- libFuzzer target: proof files (proof_verify in
 * agents/solve/proof.c reads the header and the strategy tree and re-checks
 * it).
 *
 * Property: a rejected proof comes with an error.
 */
#include "fuzz_util.h"
#include "proof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0; /* fmemopen wants a buffer of at least one byte */
    FILE *in = fmemopen((void *)data, size, "r");
    fuzz_check(in != NULL, "fmemopen");
    struct proof_info info;
    char err[2048] = "";
    if (proof_verify(in, &info, err, sizeof err) != 0)
        fuzz_check(err[0] != '\0', "a rejected proof has an error");
    fclose(in);
    return 0;
}
