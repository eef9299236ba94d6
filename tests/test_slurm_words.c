/*
 * test_slurm_words.c -- the shell words of slurm.h, which the Slurm
 * scripts, `rulelab slurm`'s printed sbatch commands and `rulelab claim`'s
 * resume line are written with: slurm_quote always single-quotes (a quote
 * inside as '\''), slurm_print_word leaves a word bare only when it is not
 * empty and every character is one a shell takes literally. Expected texts
 * are written out by hand from POSIX sh quoting.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "slurm.h"

/* What f(word) writes, in a buffer the caller frees. */
static char *written(void (*f)(FILE *, const char *), const char *word)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    f(out, word);
    assert_int_equal(fclose(out), 0);
    return text;
}

static void expect(void (*f)(FILE *, const char *), const char *word,
                   const char *want)
{
    char *got = written(f, word);
    assert_string_equal(got, want);
    free(got);
}

static void test_quote(void **state)
{
    (void)state;
    expect(slurm_quote, "plain", "'plain'");
    expect(slurm_quote, "", "''");
    expect(slurm_quote, "it's", "'it'\\''s'");
    expect(slurm_quote, "a b $HOME", "'a b $HOME'");
}

static void test_print_word(void **state)
{
    (void)state;
    /* every character of the literal set, bare */
    expect(slurm_print_word, "/shared/me/fm-1_2.db", "/shared/me/fm-1_2.db");
    expect(slurm_print_word, "--sweep=a,b:c+d@e%f", "--sweep=a,b:c+d@e%f");
    /* an empty word would vanish bare: quoted */
    expect(slurm_print_word, "", "''");
    /* a space, a quote, a dollar, a star: quoted */
    expect(slurm_print_word, "a b", "'a b'");
    expect(slurm_print_word, "it's", "'it'\\''s'");
    expect(slurm_print_word, "$HOME", "'$HOME'");
    expect(slurm_print_word, "*.db", "'*.db'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quote),
        cmocka_unit_test(test_print_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
