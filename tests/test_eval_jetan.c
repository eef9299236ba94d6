/*
 * test_eval_jetan.c -- jetan's evaluation (agents/eval_jetan.c): a hand-built
 * position for each feature, showing that the term moves the evaluation
 * the right way for the side to move.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "eval.h"

/* The features of the position text under the default variant. */
static void features_of(const char *text, double *f)
{
    const struct game *g = &jetan_game;
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
    /* The start is level; with Orange's a9 Thoat (250 points,
     * eval_jetan.c's table) gone, Black to move is 250 ahead. */
    features_of("wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Pp", f);
    assert_true(f[0] == 0);
    features_of("wadfpcfdaw/tnnnnnnnn1/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Pp", f);
    assert_true(f[0] == 250);
    features_of("wadfpcfdaw/tnnnnnnnn1/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW o Pp", f);
    assert_true(f[0] == -250);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_material),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
