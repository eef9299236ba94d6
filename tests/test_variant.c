/*
 * test_variant.c -- variant strings: good ones canonicalise, bad ones fail
 * with the documented messages, every game's parameter table is sane.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"

static const char *tafl_defaults =
    "tafl(edge_captures_king=1,escape=corner,first=attackers,king_armed=0,"
    "king_capture=surround,max_plies=500,no_capture_limit=50,"
    "repetition_limit=3,throne_hostile=0,throne_passable=1)";

static void canonical_of(const char *text, char *out, size_t n)
{
    struct variant v;
    char err[256] = "";
    int rc = variant_parse(text, &v, err, sizeof err);
    if (rc != 0)
        fail_msg("'%s' did not parse: %s", text, err);
    assert_true(variant_canonical(&v, out, n) > 0);
}

static void test_defaults_in_every_spelling(void **state)
{
    (void)state;
    const char *spellings[] = {"tafl", "tafl()", " tafl ( ) ", "tafl( )"};
    for (size_t i = 0; i < sizeof spellings / sizeof *spellings; i++) {
        char buf[VARIANT_TEXT_MAX];
        canonical_of(spellings[i], buf, sizeof buf);
        assert_string_equal(buf, tafl_defaults);
    }
}

static void test_values_are_set_and_sorted(void **state)
{
    (void)state;
    char buf[VARIANT_TEXT_MAX];
    canonical_of("tafl(repetition_limit=2, first = defenders,escape=edge)",
                 buf, sizeof buf);
    assert_string_equal(
        buf, "tafl(edge_captures_king=1,escape=edge,first=defenders,"
             "king_armed=0,king_capture=surround,max_plies=500,"
             "no_capture_limit=50,repetition_limit=2,throne_hostile=0,"
             "throne_passable=1)");
    /* The canonical form parses back to itself. */
    char again[VARIANT_TEXT_MAX];
    canonical_of(buf, again, sizeof again);
    assert_string_equal(buf, again);
    struct variant v;
    assert_int_equal(variant_parse("tafl(max_plies=0,king_armed=1)", &v, NULL,
                                   0), 0);
    assert_int_equal(variant_get(&v, "max_plies"), 0);
    assert_int_equal(variant_get(&v, "king_armed"), 1);
}

static void expect_error(const char *text, const char *needle)
{
    struct variant v;
    char err[512] = "";
    assert_int_equal(variant_parse(text, &v, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error for '%s' is '%s', expected it to contain '%s'", text,
                 err, needle);
}

static void test_bad_variants_are_named(void **state)
{
    (void)state;
    expect_error("chess", "unknown game 'chess' (games: ");
    expect_error("chess", "tafl");
    expect_error("tafl(firts=defenders)", "unknown key 'firts' (keys: "
                 "edge_captures_king, escape, first,");
    expect_error("tafl(first=both)",
                 "bad value 'both' for first (allowed: attackers|defenders)");
    expect_error("tafl(repetition_limit=101)",
                 "bad value '101' for repetition_limit (allowed: 0..100)");
    expect_error("tafl(repetition_limit=-1)", "allowed: 0..100");
    expect_error("tafl(king_armed=2)", "allowed: 0 or 1");
    expect_error("tafl(king_armed=yes)", "bad value 'yes'");
    expect_error("tafl(max_plies=12x)", "bad value '12x'");
    expect_error("tafl(first=defenders,first=attackers)", "given twice");
    expect_error("tafl(first)", "expected key=value, got 'first'");
    expect_error("tafl(first=defenders", "malformed");
    expect_error("tafl(first=defenders))", "malformed");
    expect_error("tafl(first=defenders) x", "malformed");
    expect_error("tafl(first=defenders,)", "expected key=value");
    expect_error("", "unknown game ''");
}

static void test_parameter_tables(void **state)
{
    (void)state;
    for (int i = 0; game_list[i]; i++) {
        const struct game *g = game_list[i];
        assert_true(g->n_params <= VARIANT_MAX_PARAMS);
        assert_true(g->state_size <= GAME_MAX_STATE_SIZE);
        assert_true(g->max_moves <= GAME_MAX_MOVES);
        int has_max_plies = 0;
        for (int k = 0; k < g->n_params; k++) {
            const struct param_spec *p = &g->params[k];
            has_max_plies |= strcmp(p->name, "max_plies") == 0;
            assert_non_null(p->doc);
            if (p->type == PARAM_INT)
                assert_true(p->min <= p->def && p->def <= p->max);
            if (p->type == PARAM_BOOL)
                assert_true(p->def == 0 || p->def == 1);
            if (p->type == PARAM_ENUM)
                assert_non_null(p->choices[(int)p->def]);
            assert_true(p->type != PARAM_REAL); /* games take whole numbers */
        }
        assert_true(has_max_plies);
        assert_ptr_equal(game_find(g->name), g);
    }
    assert_null(game_find("nope"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_in_every_spelling),
        cmocka_unit_test(test_values_are_set_and_sorted),
        cmocka_unit_test(test_bad_variants_are_named),
        cmocka_unit_test(test_parameter_tables),
    };
    return cmocka_run_group_tests_name("variant", tests, NULL, NULL);
}
