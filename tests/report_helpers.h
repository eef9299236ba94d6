/*
 * report_helpers.h -- a built report printed into memory, for the tests
 * that look for text in it. Include after <cmocka.h>.
 */
#ifndef RULELAB_REPORT_HELPERS_H
#define RULELAB_REPORT_HELPERS_H

#include <stdio.h>

#include "report.h"

/* r printed in format f, as a string the caller frees. */
static inline char *report_printed(const struct report *r,
                                   enum report_format f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    report_print(r, f, out);
    fclose(out);
    return buf;
}

#endif
