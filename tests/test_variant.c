/*
 * test_variant.c -- variant strings: good ones canonicalise, bad ones fail
 * with the documented messages, every game's parameter table is sane.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"

static const char *tafl_defaults =
    "tafl(edge_captures_king=1,escape=corner,first=attackers,king_armed=0,"
    "king_capture=surround,king_throne=free,max_plies=500,"
    "no_capture_limit=50,repetition_draw=1,repetition_limit=3,"
    "throne_hostile=0,throne_passable=1)";

/* The identity of the defaults: the canonical form of release cbdcb07,
 * before king_throne and repetition_draw (since 2) came. */
static const char *tafl_default_identity =
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
             "king_armed=0,king_capture=surround,king_throne=free,"
             "max_plies=500,no_capture_limit=50,repetition_draw=1,"
             "repetition_limit=2,throne_hostile=0,throne_passable=1)");
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

static void expect_error(const char *text, const char *needle);

static void identity_of(const char *text, char *out, size_t n)
{
    struct variant v;
    char err[256] = "";
    if (variant_parse(text, &v, err, sizeof err) != 0)
        fail_msg("'%s' did not parse: %s", text, err);
    assert_true(variant_identity(&v, out, n) > 0);
}

/* The tafl parameters added for Ludii's Tablut (king_throne,
 * repetition_draw, since 2, and throne_hostile's value 2) leave every
 * identity of before as it was: at their defaults they are not in it,
 * given explicitly or not; away from them they are. throne_hostile was a
 * bool: its texts 0 and 1 are the same as an integer's. */
static void test_new_tafl_parameters_keep_identities(void **state)
{
    (void)state;
    char buf[VARIANT_TEXT_MAX];
    identity_of("tafl", buf, sizeof buf);
    assert_string_equal(buf, tafl_default_identity);
    identity_of("tafl(king_throne=free,repetition_draw=1,throne_hostile=0)",
                buf, sizeof buf);
    assert_string_equal(buf, tafl_default_identity);
    identity_of("tafl(throne_hostile=1,escape=edge)", buf, sizeof buf);
    assert_string_equal(buf, "tafl(edge_captures_king=1,escape=edge,"
                        "first=attackers,king_armed=0,king_capture=surround,"
                        "max_plies=500,no_capture_limit=50,"
                        "repetition_limit=3,throne_hostile=1,"
                        "throne_passable=1)");
    /* the exact Ludii preset (docs/rules.md#tafl-ludiis-tablut-preset)
     * names both new parameters */
    identity_of("tafl(escape=edge,king_armed=1,king_capture=custodial,"
                "king_throne=barred,throne_hostile=2,throne_passable=0,"
                "repetition_limit=0,repetition_draw=0,no_capture_limit=0,"
                "max_plies=2500)", buf, sizeof buf);
    assert_string_equal(buf, "tafl(edge_captures_king=1,escape=edge,"
                        "first=attackers,king_armed=1,king_capture=custodial,"
                        "king_throne=barred,max_plies=2500,"
                        "no_capture_limit=0,repetition_draw=0,"
                        "repetition_limit=0,throne_hostile=2,"
                        "throne_passable=0)");
    identity_of("tafl(repetition_draw=0)", buf, sizeof buf);
    assert_non_null(strstr(buf, ",repetition_draw=0,"));
    expect_error("tafl(throne_hostile=3)",
                      "bad value '3' for throne_hostile (allowed: 0..2)");
    expect_error("tafl(king_throne=open)",
                      "bad value 'open' for king_throne (allowed: "
                      "free|barred)");
    expect_error("tafl(repetition_draw=2)", "allowed: 0 or 1");
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

/* Values are read whole, however long: 64 zeros then 1 was cut to 63 zeros
 * and read as max_plies=0. Leading zeros are decimal (010 is ten). */
static void test_long_values_are_read_whole(void **state)
{
    (void)state;
    char text[256], zeros[65];
    memset(zeros, '0', 64);
    zeros[64] = '\0';
    struct variant v;
    char err[512] = "";
    snprintf(text, sizeof text, "tafl(max_plies=%s1)", zeros);
    assert_int_equal(variant_parse(text, &v, err, sizeof err), 0);
    assert_int_equal(variant_get(&v, "max_plies"), 1);
    snprintf(text, sizeof text, "tafl(max_plies=%s010, first = %s)", zeros,
             "defenders");
    assert_int_equal(variant_parse(text, &v, err, sizeof err), 0);
    assert_int_equal(variant_get(&v, "max_plies"), 10);
    assert_int_equal(variant_get(&v, "first"), 1);
    /* a long key or game name is named, not cut to a known one */
    char key[200];
    snprintf(key, sizeof key, "tafl(%s%s=1)", "max_plies", zeros);
    expect_error(key, "unknown key 'max_plies0000");
    snprintf(key, sizeof key, "tafl%s", zeros);
    expect_error(key, "name 'tafl0000");
    expect_error(key, "is too long (at most 63 characters)");
}

static void expect_error_args(const struct param_spec *params,
                              const char *args, const char *needle)
{
    double values[2];
    struct spec_texts texts;
    char err[256] = "";
    assert_int_equal(spec_parse_args("x", params, 2, args, args + strlen(args),
                                     values, &texts, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error for '%s' is '%s', expected '%s'", args, err, needle);
}

/* Numbers are decimal: an optional '-', digits, and for real parameters a
 * fraction and an exponent; no '+', hex, inf or nan, as in sweep files. */
static void test_numbers_are_decimal(void **state)
{
    (void)state;
    expect_error("tafl(max_plies=0x10)", "bad value '0x10'");
    expect_error("tafl(max_plies=1e1)", "bad value '1e1'");
    expect_error("tafl(max_plies=+5)", "bad value '+5'");
    expect_error("tafl(max_plies=5.0)", "bad value '5.0'");
    expect_error("tafl(max_plies=99999999999999999999999)", "allowed: 0..");
    static const struct param_spec params[] = {
        {"c", PARAM_REAL, 1.4, 0, 100, NULL, "a real", 1},
        {"n", PARAM_INT, 3, 1, 10, NULL, "an integer", 1},
    };
    const char *bad[] = {"c=0x1p1", "c=nan", "c=inf", "c=-inf", "c=+1",
                         "c=1e", "c=.", "c=1..2", "c=1e-999", "n=0x3",
                         "n=3e0", "n=- 3", "c=1 2", NULL};
    double values[2];
    char err[256];
    for (int i = 0; bad[i]; i++) {
        const char *args = bad[i];
        if (spec_parse_args("x", params, 2, args, args + strlen(args), values,
                            NULL, err, sizeof err) != -1)
            fail_msg("'%s' was accepted", args);
        assert_non_null(strstr(err, "bad value"));
    }
    /* a real must keep its value in the canonical text (6 significant
     * digits, param_value_text's %g), or two specs would share one text */
    expect_error_args(params, "c=1.4000001", "more digits than");
    const char *good[] = {"c=2.5e-1", "c=.25", "c=0.250", "c=25e-2",
                          "c=00.25", NULL};
    for (int i = 0; good[i]; i++) {
        const char *args = good[i];
        if (spec_parse_args("x", params, 2, args, args + strlen(args), values,
                            NULL, err, sizeof err) != 0)
            fail_msg("'%s' was rejected: %s", args, err);
        assert_true(values[0] == 0.25);
        assert_true(values[1] == 3);
    }
    /* -0 is 0, with the canonical text of 0 (else mcts(ms=-0) and
     * mcts(ms=0) would be two texts for one agent) */
    const char *args = "c=-0.0,n=10";
    assert_int_equal(spec_parse_args("x", params, 2, args, args + strlen(args),
                                     values, NULL, err, sizeof err), 0);
    char canonical[64];
    assert_true(spec_canonical("x", params, 2, values, NULL, canonical,
                               sizeof canonical) > 0);
    assert_string_equal(canonical, "x(c=0,n=10)");
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

/* Text values (for agents such as ext(cmd="...")): a bare word or a quoted
 * text in which commas, parentheses, `;`, `#` and `=` are text; \" and \\
 * are the only escapes; the canonical form quotes what is not a bare word
 * and parses back to the same text. */
static void test_text_values(void **state)
{
    (void)state;
    static const struct param_spec params[] = {
        {"cmd", PARAM_TEXT, -1, 0, 0, NULL, "a command", 1},
        {"n", PARAM_INT, 3, 1, 10, NULL, "an integer", 1},
    };
    struct {
        const char *spec, *text, *canonical;
    } good[] = {
        {"x(cmd=engine-1.2)", "engine-1.2", "x(cmd=engine-1.2,n=3)"},
        {"x( cmd = \"python3 a.py, (b); #c=d\" ,n=4)",
         "python3 a.py, (b); #c=d", "x(cmd=\"python3 a.py, (b); #c=d\",n=4)"},
        {"x(cmd=\"say \\\"hi\\\" \\\\ bye\")", "say \"hi\" \\ bye",
         "x(cmd=\"say \\\"hi\\\" \\\\ bye\",n=3)"},
        {"x(cmd=\"\")", "", "x(cmd=\"\",n=3)"},
        {"x(n=2)", "", "x(cmd=\"\",n=2)"},
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        char name[64], err[256] = "", canonical[256];
        const char *args, *end;
        double values[2];
        struct spec_texts texts;
        if (spec_split(good[i].spec, name, sizeof name, &args, &end, err,
                       sizeof err) != 0
            || spec_parse_args("x", params, 2, args, end, values, &texts, err,
                               sizeof err) != 0)
            fail_msg("'%s' was rejected: %s", good[i].spec, err);
        assert_string_equal(spec_text_value(&texts, values[0]), good[i].text);
        assert_true(spec_canonical("x", params, 2, values, &texts, canonical,
                                   sizeof canonical) > 0);
        assert_string_equal(canonical, good[i].canonical);
    }
    struct {
        const char *spec, *error;
    } bad[] = {
        {"x(cmd=\"open)", "left open"},
        {"x(cmd=a b)", "put it in double quotes"},
        {"x(cmd=\"a\\nb\")", "backslash escapes only"},
        {"x(cmd=\"a\"b)", "one quoted text"},
        {"x(cmd=\"a\tb\")", "control character 0x09"},
        {"x(cmd=\"a\")(", "malformed"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char name[64], err[256] = "";
        const char *args, *end;
        double values[2];
        struct spec_texts texts;
        if (spec_split(bad[i].spec, name, sizeof name, &args, &end, err,
                       sizeof err) == 0
            && spec_parse_args("x", params, 2, args, end, values, &texts, err,
                               sizeof err) == 0)
            fail_msg("'%s' was accepted", bad[i].spec);
        if (!strstr(err, bad[i].error))
            fail_msg("error for '%s' is '%s', expected '%s'", bad[i].spec,
                     err, bad[i].error);
    }
    /* a text too long for SPEC_TEXT_MAX is refused, not cut */
    char spec[SPEC_TEXT_MAX + 32];
    snprintf(spec, sizeof spec, "cmd=\"%0*d\"", SPEC_TEXT_MAX, 0);
    expect_error_args(params, spec, "at most 511 bytes");
    /* the comma and comment finders skip quoted text */
    const char *line = "a=\"x,y\",b";
    assert_ptr_equal(spec_find_unquoted(line, line + strlen(line), ','),
                     line + 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_in_every_spelling),
        cmocka_unit_test(test_values_are_set_and_sorted),
        cmocka_unit_test(test_new_tafl_parameters_keep_identities),
        cmocka_unit_test(test_bad_variants_are_named),
        cmocka_unit_test(test_long_values_are_read_whole),
        cmocka_unit_test(test_numbers_are_decimal),
        cmocka_unit_test(test_parameter_tables),
        cmocka_unit_test(test_text_values),
    };
    return cmocka_run_group_tests_name("variant", tests, NULL, NULL);
}
