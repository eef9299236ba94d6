/*
 * test_eval_tafl.c -- tafl's evaluation (agents/eval_tafl.c): a hand-built
 * position for each feature, showing that the term moves the evaluation
 * the right way for the side to move.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "eval.h"

/* The features of the position text under the default variant. */
static void features_of(const char *text, double *f)
{
    const struct game *g = &tafl_game;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char err[256];
    variant_default(g, &v);
    if (g->from_text(st, &v, text, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    eval_of(g)->features(st, f);
}

static void test_material(void **state)
{
    (void)state;
    double f[EVAL_MAX_FEATURES];
    /* The start: 16 attackers and 8 defenders besides the King, counted
     * for the side to move (good for it) or against it. */
    const char *start = "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3";
    char text[128];
    snprintf(text, sizeof text, "%s a", start);
    features_of(text, f);
    assert_true(f[0] == 16 && f[1] == -8);
    snprintf(text, sizeof text, "%s d", start);
    features_of(text, f);
    assert_true(f[0] == -16 && f[1] == 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_material),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
