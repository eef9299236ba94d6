/*
 * test_scale.h -- how much of a long loop a suite runs: RULELAB_TEST_SCALE
 * in the environment, a number in (0, 1] (1 when unset or empty; any
 * other text stops the suite with a message, so that a mistyped scale is
 * never a silent full run). scripts/test.sh sets 0.25 for the sanitizer and Debug builds,
 * where a loop of random games or positions costs several times what it
 * costs in Release and its last three quarters run no line that the
 * first quarter or another suite does not (scripts/scale_coverage.sh
 * measures it with gcov); the Release build runs every loop whole.
 * Header-only (static).
 */
#ifndef RULELAB_TEST_SCALE_H
#define RULELAB_TEST_SCALE_H

#include <stdio.h>
#include <stdlib.h>

static inline double test_scale(void)
{
    const char *text = getenv("RULELAB_TEST_SCALE");
    char *end;
    if (!text || !*text)
        return 1.0;
    double x = strtod(text, &end);
    if (end == text || *end || !(x > 0 && x <= 1)) {
        fprintf(stderr, "RULELAB_TEST_SCALE is '%s': give a number above 0 "
                "and at most 1 (tests/test_scale.h)\n", text);
        exit(2);
    }
    return x;
}

/* n scaled, and never below at_least (nor above n). */
static inline long test_scaled(long n, long at_least)
{
    long k = (long)((double)n * test_scale());
    return k < at_least ? (at_least < n ? at_least : n) : k;
}

#endif
