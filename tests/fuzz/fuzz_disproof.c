/*
 * fuzz_disproof.c -- libFuzzer target: disproof files (disproof_verify in
 * agents/solve/disproof.c reads the header and the binary DAG and re-checks
 * it).
 *
 * Property: a rejected disproof comes with an error, and an accepted one
 * read its whole data (the node count it reports is the header's).
 */
#include "disproof.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0; /* fmemopen wants a buffer of at least one byte */
    FILE *in = fmemopen((void *)data, size, "r");
    fuzz_check(in != NULL, "fmemopen");
    struct disproof_info info;
    char err[2048] = "";
    if (disproof_verify(in, &info, err, sizeof err) != 0)
        fuzz_check(err[0] != '\0', "a rejected disproof has an error");
    else
        fuzz_check(info.nodes >= 1 && info.bytes >= 5, "an accepted "
                   "disproof read its nodes and 'end'");
    fclose(in);
    return 0;
}
