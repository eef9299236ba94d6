/*
 * test_bits.c -- core/bits.h against naive loops over the bits: counts of
 * 32- and 64-bit words and the index of the k-th set bit, for every
 * one-bit word, 0 and all ones, and 100,000 seeded random words of every
 * density. Built twice (tests/CMakeLists.txt): as the build is, and with
 * -mno-popcnt, so the arithmetic count is checked on machines whose build
 * uses the instruction.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "bits.h"
#include "rng.h"

static int naive_count(uint64_t x)
{
    int n = 0;
    for (int i = 0; i < 64; i++)
        n += (int)(x >> i & 1);
    return n;
}

static int naive_nth(uint64_t x, int k)
{
    for (int i = 0; i < 64; i++)
        if ((x >> i & 1) && k-- == 0)
            return i;
    return -1;
}

static void check_word(uint64_t x)
{
    const int n = naive_count(x);
    assert_int_equal(bits_count64(x), n);
    assert_int_equal(bits_count32((uint32_t)x), naive_count((uint32_t)x));
    for (int k = 0; k < n; k++)
        assert_int_equal(bits_nth64(x, k), naive_nth(x, k));
}

static void test_bits(void **state)
{
    (void)state;
    check_word(0);
    check_word(~0ull);
    for (int i = 0; i < 64; i++)
        check_word(1ull << i);
    struct rng r;
    rng_seed(&r, 64);
    for (int i = 0; i < 100000; i++) {
        /* AND-ing 0-3 more random words thins the bits out; OR-ing
         * fills them in. */
        uint64_t x = rng_next(&r);
        int thin = (int)rng_below(&r, 7) - 3;
        for (; thin > 0; thin--)
            x &= rng_next(&r);
        for (; thin < 0; thin++)
            x |= rng_next(&r);
        check_word(x);
    }
#ifdef __POPCNT__
    printf("counted with the popcount instruction\n");
#else
    printf("counted with arithmetic\n");
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
