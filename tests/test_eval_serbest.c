/*
 * test_eval_serbest.c -- serbest's evaluation (agents/eval_serbest.c): a hand-built
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
    const struct game *g = &serbest_game;
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
    /* Full hands: level. Black's queen gone: White, to move, is a queen
     * (900 points, eval_serbest.c's table) ahead in hand. */
    features_of("10/10/10/10/10/10/10/10/10/10[KQRRBBNNPPPPPPSSkqrrbbnnppppppss] w", f);
    assert_true(f[1] == 0 && f[0] == 0);
    features_of("10/10/10/10/10/10/10/10/10/10[KQRRBBNNPPPPPPSSkrrbbnnppppppss] w", f);
    assert_true(f[1] == 900);
    features_of("10/10/10/10/10/10/10/10/10/10[KQRRBBNNPPPPPPSSkrrbbnnppppppss] b", f);
    assert_true(f[1] == -900);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_material),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
