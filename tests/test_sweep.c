/*
 * test_sweep.c -- reading sweep files: every line read as written, no line
 * too long, every duplicate and malformed number an error naming the file
 * and line. Each test is a defect found in review: the text that was
 * misread, and what it must give instead. The expected counts are derived
 * by hand in the comments, never taken from the parser's own output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sweep.h"

/* [sweep] head used by most tests: lines 1-3. */
#define HEAD "[sweep]\nname = t\ngames = 2\n"

static void load(const char *text, struct sweep *s)
{
    char err[1024] = "";
    if (sweep_parse("t.ini", text, s, err, sizeof err) != 0)
        fail_msg("did not load: %s\n--- text:\n%s", err, text);
}

static void expect_bad(const char *text, const char *needle)
{
    struct sweep s;
    char err[1024] = "";
    if (sweep_parse("t.ini", text, &s, err, sizeof err) != -1)
        fail_msg("accepted, expected an error with '%s'\n--- text:\n%s",
                 needle, text);
    if (!strstr(err, needle))
        fail_msg("error '%s' lacks '%s'", err, needle);
}

/* Joins the parts into a freshly allocated string (the caller frees it). */
static char *joined(const char *const *parts)
{
    size_t n = 1;
    for (int i = 0; parts[i]; i++)
        n += strlen(parts[i]);
    char *out = malloc(n);
    assert_non_null(out);
    out[0] = '\0';
    for (int i = 0; parts[i]; i++)
        strcat(out, parts[i]);
    return out;
}

static char *repeated(char c, size_t n)
{
    char *out = malloc(n + 1);
    assert_non_null(out);
    memset(out, c, n);
    out[n] = '\0';
    return out;
}

/* ---- item 3: long lines, indented lines, repeated keys, headers -------- */

/* 6 agents, all C(6,2) = 15 pairs written out on one 246-character line:
 * 15 pairs x 2 seat orders = 30 cells, each ordered pair of two different
 * agents exactly once (6 x 5 = 30 ordered pairs). inih cut the line at 199
 * bytes and ran 3 cells. */
static void test_long_pairs_line_gives_all_pairs(void **state)
{
    (void)state;
    const char *pairs =
        "pairs = rnd vs mcts1, rnd vs mcts2, rnd vs mcts4, rnd vs mcts16, "
        "rnd vs mcts64, mcts1 vs mcts2, mcts1 vs mcts4, mcts1 vs mcts16, "
        "mcts1 vs mcts64, mcts2 vs mcts4, mcts2 vs mcts16, mcts2 vs mcts64, "
        "mcts4 vs mcts16, mcts4 vs mcts64, mcts16 vs mcts64";
    /* 8 + 15 x 4 (" vs ") + 14 x 2 (", ") + 5 x (3+5+5+5+6+6) = 246 */
    assert_int_equal(strlen(pairs), 246);
    const char *parts[] = {HEAD, "[game tafl]\n[agents]\nrnd = random\n"
                           "mcts1 = mcts(iterations=1)\n"
                           "mcts2 = mcts(iterations=2)\n"
                           "mcts4 = mcts(iterations=4)\n"
                           "mcts16 = mcts(iterations=16)\n"
                           "mcts64 = mcts(iterations=64)\n[matchups]\n",
                           pairs, "\n", NULL};
    char *text = joined(parts);
    struct sweep s;
    load(text, &s);
    assert_int_equal(s.n_agents, 6);
    assert_int_equal(s.n_cells, 30);
    int seen[6][6] = {{0}};
    for (int i = 0; i < s.n_cells; i++)
        seen[s.cells[i].agent[0]][s.cells[i].agent[1]]++;
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++)
            assert_int_equal(seen[a][b], a != b);
    sweep_free(&s);
    free(text);
}

/* A comment of 199 + 9 characters whose tail reads "games = 9": inih cut it
 * at 199 bytes and set games to 9. A comment sets nothing. */
static void test_tail_of_long_comment_sets_nothing(void **state)
{
    (void)state;
    char *pad = repeated('x', 197);
    const char *parts[] = {HEAD, "; ", pad, "games = 9\n",
                           "[game tafl]\n[agents]\na = random\n"
                           "b = mcts(iterations=2)\n", NULL};
    char *text = joined(parts);
    struct sweep s;
    load(text, &s);
    assert_int_equal(s.games_per_cell, 2);
    sweep_free(&s);
    free(text);
    free(pad);
}

/* Any line length is read whole: a 5000-character comment and a value
 * after 3000 spaces. */
static void test_very_long_lines(void **state)
{
    (void)state;
    char *pad = repeated(' ', 3000);
    char *comment = repeated('c', 5000);
    const char *parts[] = {"; ", comment, "\n[sweep]\nname = t\ngames =", pad,
                           "5\n[game tafl]\n[agents]\na = random\n"
                           "b = mcts(iterations=2)\n", NULL};
    char *text = joined(parts);
    struct sweep s;
    load(text, &s);
    assert_int_equal(s.games_per_cell, 5);
    sweep_free(&s);
    free(text);
    free(pad);
    free(comment);
}

/* A list wrapped onto an indented line: inih joined it as a continuation
 * and dropped the first part. Each line is read on its own, so the
 * indented line (line 10) is not key = value. */
static void test_wrapped_list_is_an_error(void **state)
{
    (void)state;
    expect_bad(HEAD "[game tafl]\n[agents]\na = random\n"
               "b = mcts(iterations=2)\n[matchups]\npairs = a vs b,\n"
               "    b vs b\n",
               "t.ini:10: not INI");
    /* The trailing comma of line 9 alone is an empty list item. */
    expect_bad(HEAD "[game tafl]\n[agents]\na = random\n"
               "b = mcts(iterations=2)\n[matchups]\npairs = a vs b,\n",
               "t.ini:9: empty item");
    expect_bad(HEAD "[game tafl]\nfirst = attackers,,defenders\n",
               "t.ini:5: empty item");
}

/* Indentation is not continuation: an indented key = value line is read as
 * its own line, as if it were not indented. */
static void test_indented_lines_stand_alone(void **state)
{
    (void)state;
    struct sweep s;
    load(HEAD "[game tafl]\n    first = defenders\n  [agents]\n"
         "\ta = random\n\tb = mcts(iterations=2)\n", &s);
    assert_int_equal(s.n_agents, 2);
    assert_int_equal(s.n_cells, 2);
    assert_non_null(strstr(s.cells[0].variant_text, "first=defenders"));
    sweep_free(&s);
}

static void test_repeated_key_names_both_lines(void **state)
{
    (void)state;
    expect_bad("[sweep]\nname = t\ngames = 2\ngames = 7\n",
               "t.ini:4: games given twice in [sweep] (first at line 3)");
    expect_bad(HEAD "[game tafl]\nfirst = attackers\n\nfirst = defenders\n",
               "t.ini:7: first given twice in [game tafl] (first at line 5)");
    expect_bad(HEAD "[game tafl]\n[agents]\na = random\n"
               "b = mcts(iterations=2)\n[matchups]\norders = both\n"
               "orders = given\n",
               "t.ini:10: orders given twice in [matchups] (first at line 9)");
    /* A section opened twice is the same: one place for each key. */
    expect_bad(HEAD "[game tafl]\nfirst = attackers\n[game tafl]\n",
               "t.ini:6: [game tafl] opened twice (first at line 4)");
}

/* "[game tafl]   ; comment" with no keys: inih's empty-section scan missed
 * it when another game section had keys. It is tafl with its defaults:
 * tafl 1 variant + jetan 1 variant, x 2 seat orders = 4 cells. */
static void test_empty_game_section_with_comment(void **state)
{
    (void)state;
    struct sweep s;
    load(HEAD "[game tafl]   ; plays the defaults\n[game jetan]  # too\n"
         "first = orange\n[agents]\na = random\nb = mcts(iterations=2)\n",
         &s);
    assert_int_equal(s.n_cells, 4);
    assert_string_equal(s.cells[0].variant.game->name, "tafl");
    assert_string_equal(s.cells[2].variant.game->name, "jetan");
    assert_non_null(strstr(s.cells[2].variant_text, "first=orange"));
    sweep_free(&s);
    expect_bad(HEAD "[game tafl] junk\n", "t.ini:4: ");
}

/* Item 10: a NUL byte ended the file silently. Line 5 holds it. */
/* Files whose sections hold no key at all (the reader then has no entry
 * array): an error, and no arithmetic on a NULL pointer (UBSan stops the
 * sanitizer build there). Found by fuzzing. */
static void test_sections_without_keys(void **state)
{
    (void)state;
    expect_bad("[sweep]", "[sweep] needs a name");
    expect_bad("[sweep]\n[agents]\n[matchups]\n", "[sweep] needs a name");
    expect_bad("", "needs a name");
}

static void test_nul_byte_is_an_error(void **state)
{
    (void)state;
    char path[] = "/tmp/test_sweep_nul_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char text[] = HEAD "[game tafl]\nfirst = defenders\0x\n[agents]\n"
                        "a = random\nb = mcts(iterations=2)\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)sizeof text - 1);
    close(fd);
    struct sweep s;
    char err[1024] = "";
    int rc = sweep_load(path, &s, err, sizeof err);
    unlink(path);
    assert_int_equal(rc, -1);
    if (!strstr(err, ":5: ") || !strstr(err, "NUL"))
        fail_msg("error '%s' does not name line 5 and the NUL byte", err);
}

/* CRLF line ends are read like LF. */
static void test_crlf(void **state)
{
    (void)state;
    struct sweep s;
    load("[sweep]\r\nname = t\r\ngames = 3\r\n[game tafl]\r\n"
         "first = defenders\r\n[agents]\r\na = random\r\n"
         "b = mcts(iterations=2)\r\n", &s);
    assert_int_equal(s.games_per_cell, 3);
    assert_int_equal(s.n_cells, 2);
    assert_non_null(strstr(s.cells[0].variant_text, "first=defenders"));
    sweep_free(&s);
}

/* ---- item 2 and the spec length: long zero-padded values --------------- */

/* Seven tafl parameters, each "000...01" with 62 zeros (63 digits): the
 * expansion text is over 512 bytes and expand_game wrote past its stack
 * buffer. Each value is 1. */
static void test_zero_padded_values_do_not_overflow(void **state)
{
    (void)state;
    char *zeros = repeated('0', 62);
    const char *keys[] = {"max_plies", "no_capture_limit", "repetition_limit",
                          "edge_captures_king", "king_armed",
                          "throne_hostile", "throne_passable"};
    char *text = malloc(4096);
    assert_non_null(text);
    strcpy(text, HEAD "[game tafl]\n");
    for (int i = 0; i < 7; i++)
        sprintf(text + strlen(text), "%s = %s1\n", keys[i], zeros);
    strcat(text, "[agents]\na = random\nb = mcts(iterations=2)\n");
    struct sweep s;
    load(text, &s);
    assert_int_equal(s.n_cells, 2);
    assert_string_equal(s.cells[0].variant_text,
                        "tafl(edge_captures_king=1,escape=corner,"
                        "first=attackers,king_armed=1,king_capture=surround,"
                        "king_throne=free,max_plies=1,no_capture_limit=1,"
                        "repetition_draw=1,repetition_limit=1,"
                        "throne_hostile=1,throne_passable=1)");
    sweep_free(&s);
    free(text);
    free(zeros);
}

/* 64 zeros then 1 (65 digits) was cut to 63 zeros and read as 0; in an
 * agent spec inside a sweep the same: 70 zeros then 8 is 8. */
static void test_long_values_are_read_whole(void **state)
{
    (void)state;
    char *zeros = repeated('0', 64);
    const char *parts[] = {HEAD, "[game tafl]\nmax_plies = ", zeros, "1\n",
                           "[agents]\na = random\nb = mcts(iterations=", zeros,
                           "000008)\n", NULL};
    char *text = joined(parts);
    struct sweep s;
    load(text, &s);
    assert_non_null(strstr(s.cells[0].variant_text, "max_plies=1,"));
    assert_non_null(strstr(s.agents[1].spec, "iterations=8,"));
    sweep_free(&s);
    free(text);
    free(zeros);
}

/* ---- item 4: duplicates would alias cells ------------------------------ */

static void test_duplicates_are_errors(void **state)
{
    (void)state;
    /* two names, one canonical spec: mcts's default iterations are given
     * explicitly in b (agents/mcts.c: iterations defaults to 1000) */
    expect_bad(HEAD "[game tafl]\n[agents]\na = mcts\n"
               "b = mcts(iterations=1000)\n",
               "t.ini:7: agent b is the same agent as a (line 6)");
    expect_bad(HEAD "[game tafl]\n[agents]\na = random\nb = random\n",
               "t.ini:7: agent b is the same agent as a (line 6)");
    const char *agents = HEAD "[game tafl]\n[agents]\nx = random\n"
                              "y = mcts(iterations=2)\n[matchups]\n";
    char text[1024];
    snprintf(text, sizeof text, "%spairs = x vs y, x vs y\n", agents);
    expect_bad(text, "t.ini:9: pair 'x vs y' listed twice");
    snprintf(text, sizeof text, "%spairs = x vs x, y vs x, x vs x\n", agents);
    expect_bad(text, "t.ini:9: pair 'x vs x' listed twice");
    /* with orders = both, y vs x is x vs y's other seat order */
    snprintf(text, sizeof text, "%spairs = x vs y, y vs x\n", agents);
    expect_bad(text, "t.ini:9: pair 'y vs x' is 'x vs y' in the other seat "
                     "order");
    /* with orders = given it is a cell of its own: 2 cells */
    snprintf(text, sizeof text, "%spairs = x vs y, y vs x\norders = given\n",
             agents);
    struct sweep s;
    load(text, &s);
    assert_int_equal(s.n_cells, 2);
    sweep_free(&s);
    /* values */
    expect_bad(HEAD "[game tafl]\nfirst = attackers, attackers\n",
               "t.ini:5: first lists attackers twice");
    expect_bad(HEAD "[game tafl]\nmax_plies = 10, 20, 010\n",
               "t.ini:5: max_plies lists 010 twice (the same value as 10)");
}

/* pairs = all is each unordered pair once: 3 agents give C(3,2) = 3 pairs,
 * 6 cells in both orders, 3 as given; every cell a different pair. */
static void test_all_pairs_have_no_duplicates(void **state)
{
    (void)state;
    const char *both = HEAD "[game tafl]\n[agents]\na = random\n"
                            "b = mcts(iterations=2)\nc = mcts(iterations=3)\n"
                            "[matchups]\npairs = all\n";
    const char *given = HEAD "[game tafl]\n[agents]\na = random\n"
                             "b = mcts(iterations=2)\nc = mcts(iterations=3)\n"
                             "[matchups]\npairs = all\norders = given\n";
    const char *texts[] = {both, given};
    const int expected[] = {6, 3};
    for (int t = 0; t < 2; t++) {
        struct sweep s;
        load(texts[t], &s);
        assert_int_equal(s.n_cells, expected[t]);
        for (int i = 0; i < s.n_cells; i++) {
            assert_int_not_equal(s.cells[i].agent[0], s.cells[i].agent[1]);
            for (int j = 0; j < i; j++)
                assert_false(s.cells[i].agent[0] == s.cells[j].agent[0]
                             && s.cells[i].agent[1] == s.cells[j].agent[1]);
        }
        sweep_free(&s);
    }
}

/* A product too large to make is refused before anything is allocated:
 * 16 x 16 x 16 x 2 x 2 = 16384 tafl variants x 2 seat orders = 32768
 * cells are made; 16^3 x 2^4 = 65536 variants x 2 = 131072 cells, over
 * the cap of 100000 (sweep.c's MAX_CELLS), are an error. */
static void test_too_many_cells(void **state)
{
    (void)state;
    const char *list16 = "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, "
                         "16";
    char text[1024];
    snprintf(text, sizeof text, HEAD "[game tafl]\nmax_plies = %s\n"
             "no_capture_limit = %s\nrepetition_limit = %s\n"
             "first = attackers, defenders\nking_armed = 0, 1\n[agents]\n"
             "a = random\nb = mcts\n", list16, list16, list16);
    struct sweep s;
    load(text, &s);
    assert_int_equal(s.n_cells, 32768);
    sweep_free(&s);
    snprintf(text, sizeof text, HEAD "[game jetan]\n[game tafl]\n"
             "max_plies = %s\nno_capture_limit = %s\n"
             "repetition_limit = %s\n[game serbest]\nmax_plies = %s\n"
             "[agents]\na = random\nb = mcts\n", list16, list16, list16,
             list16);
    load(text, &s); /* 2 + 8192 + 32 cells */
    assert_int_equal(s.n_cells, 2 + 8192 + 32);
    sweep_free(&s);
    snprintf(text, sizeof text, HEAD "[game jetan]\n[game tafl]\n"
             "max_plies = %s\nno_capture_limit = %s\n"
             "repetition_limit = %s\nking_armed = 0, 1\nfirst = attackers, "
             "defenders\nthrone_hostile = 0, 1\nthrone_passable = 0, 1\n"
             "[agents]\na = random\nb = mcts\n", list16, list16, list16);
    expect_bad(text, "t.ini:5: the sweep expands to more than 100000 cells");
}

/* ---- item 10: numbers and names --------------------------------------- */

static void test_numbers_are_decimal(void **state)
{
    (void)state;
    const char *bad_games[] = {"0x10", "1e1", "-1", "+5", "0", "16.0", " ",
                               "99999999999999999999999", "10000001", "1 0",
                               "inf", "nan", "5;x", NULL};
    char text[512];
    for (int i = 0; bad_games[i]; i++) {
        snprintf(text, sizeof text, "[sweep]\nname = t\ngames = %s\n",
                 bad_games[i]);
        expect_bad(text, "t.ini:3: games must be a whole number from 1 to "
                         "10000000");
    }
    const char *keys[] = {"seed", "max_plies", "min_games"};
    for (int k = 0; k < 3; k++) {
        snprintf(text, sizeof text, HEAD "%s = 0x10\n", keys[k]);
        expect_bad(text, "t.ini:4: ");
        snprintf(text, sizeof text, HEAD "%s = 1e1\n", keys[k]);
        expect_bad(text, "whole number");
    }
    expect_bad(HEAD "seed = 9007199254740992\n", "t.ini:4: seed must be a "
               "whole number from 0 to 9007199254740991");
    const char *reals[] = {"sprt_p0", "sprt_p1", "alpha", "beta", "ci_width"};
    const char *bad_reals[] = {"nan", "-nan", "inf", "-inf", "0x0.1p0", "",
                               "0.5.1", "+0.05", "1e-999", "5%", NULL};
    for (int k = 0; k < 5; k++)
        for (int i = 0; bad_reals[i]; i++) {
            snprintf(text, sizeof text, HEAD "%s = %s\n", reals[k],
                     bad_reals[i]);
            expect_bad(text, "t.ini:4: ");
            expect_bad(text, " must be a number from ");
        }
    /* leading zeros are read as the decimal value, as in specs */
    struct sweep s;
    load("[sweep]\nname = t\ngames = 010\nseed = 0009007199254740991\n"
         "alpha = 0.010\nci_width = 5e-2\n[game tafl]\n[agents]\n"
         "a = random\nb = mcts(iterations=2)\n", &s);
    assert_int_equal(s.games_per_cell, 10);
    assert_true(s.seed == 9007199254740991ULL);
    assert_true(s.alpha == 0.01);
    assert_true(s.ci_width == 0.05);
    sweep_free(&s);
}

static void test_names(void **state)
{
    (void)state;
    const char *tail = "\n[game tafl]\n[agents]\na = random\nb = mcts\n";
    const char *bad_sweep_names[] = {"a b", "caf\xc3\xa9", "x\xff", "a/b",
                                     "", NULL};
    char text[512];
    for (int i = 0; bad_sweep_names[i]; i++) {
        snprintf(text, sizeof text, "[sweep]\nname = %s\ngames = 2%s",
                 bad_sweep_names[i], tail);
        expect_bad(text, "t.ini:2: ");
    }
    const char *bad_agent_names[] = {"a b", "\xc3\xa9t\xc3\xa9", "x\xff",
                                     "x\x01", "vs;", "a\"b", NULL};
    for (int i = 0; bad_agent_names[i]; i++) {
        snprintf(text, sizeof text, HEAD "[game tafl]\n[agents]\n"
                 "%s = random\nb = mcts\n", bad_agent_names[i]);
        expect_bad(text, "t.ini:6: ");
    }
    /* a name of 63 characters is allowed, 64 are not */
    char *name = repeated('n', 63);
    snprintf(text, sizeof text, HEAD "[game tafl]\n[agents]\n%s = random\n"
             "b = mcts\n", name);
    struct sweep s;
    load(text, &s);
    assert_string_equal(s.agents[0].name, name);
    sweep_free(&s);
    snprintf(text, sizeof text, HEAD "[game tafl]\n[agents]\n%sn = random\n"
             "b = mcts\n", name);
    expect_bad(text, "t.ini:6: ");
    free(name);
    /* bytes that are not UTF-8, and control characters, anywhere */
    expect_bad(HEAD "; caf\xe9\n", "t.ini:4: not UTF-8");
    expect_bad(HEAD "; \xc0\xaf overlong\n", "t.ini:4: not UTF-8");
    expect_bad(HEAD "; bell \x07\n", "t.ini:4: control character");
    expect_bad(HEAD "; \xc3\xa9t\xc3\xa9 is fine here\nfoo = 1\n",
               "t.ini:5: unknown key 'foo'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_pairs_line_gives_all_pairs),
        cmocka_unit_test(test_tail_of_long_comment_sets_nothing),
        cmocka_unit_test(test_very_long_lines),
        cmocka_unit_test(test_wrapped_list_is_an_error),
        cmocka_unit_test(test_indented_lines_stand_alone),
        cmocka_unit_test(test_repeated_key_names_both_lines),
        cmocka_unit_test(test_empty_game_section_with_comment),
        cmocka_unit_test(test_nul_byte_is_an_error),
        cmocka_unit_test(test_sections_without_keys),
        cmocka_unit_test(test_crlf),
        cmocka_unit_test(test_zero_padded_values_do_not_overflow),
        cmocka_unit_test(test_long_values_are_read_whole),
        cmocka_unit_test(test_duplicates_are_errors),
        cmocka_unit_test(test_all_pairs_have_no_duplicates),
        cmocka_unit_test(test_too_many_cells),
        cmocka_unit_test(test_numbers_are_decimal),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
