/*
 * test_openings.c -- varied openings (sweep key `openings`, openings.h):
 * the key read or refused with file and line, a file's lines checked
 * against every variant of their section, the opening of a game the same
 * for the same (seed, variant, index) whatever the thread count or seat
 * order, game pairs stored with one opening and swapped seats, seat 0 the
 * side to move after the opening, a resume under other openings refused,
 * a version-1 database migrated, and the report's distinct games on rows
 * written by hand.
 *
 * Sources of the expected values: docs/rules.md#hnefatafl-9x9-tafl (tafl:
 * the attackers move first by default, rook moves over empty squares; the
 * start position), the openings files written here, and hand counts in
 * comments.
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

#include "db_helpers.h"
#include "openings.h"
#include "report.h"
#include "runner.h"
#include "store.h"
#include "sweep.h"
#include "variant.h"

#ifndef RULELAB_FIXTURES
#error "RULELAB_FIXTURES must name tests/fixtures"
#endif

/* ---- helpers ------------------------------------------------------------ */

static char dir[64]; /* a folder of this run's files */

static void make_dir(void)
{
    if (dir[0])
        return;
    snprintf(dir, sizeof dir, "/tmp/rulelab_test_openings_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* Writes text to dir/name; its path in path. */
static void write_file(const char *name, const char *text, char *path,
                       size_t n)
{
    make_dir();
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void temp_db(char *path, size_t n)
{
    make_dir();
    static int count;
    snprintf(path, n, "%s/db%d", dir, count++);
}

/* Parses text as the sweep file dir/t.ini, so its openings files are
 * found in dir. */
static int parse(const char *text, struct sweep *s, char *err, size_t n)
{
    char path[128];
    make_dir();
    snprintf(path, sizeof path, "%s/t.ini", dir);
    return sweep_parse(path, text, s, err, n);
}

static void load(const char *text, struct sweep *s)
{
    char err[2048] = "";
    if (parse(text, s, err, sizeof err) != 0)
        fail_msg("did not load: %s\n--- text:\n%s", err, text);
}

static void expect_bad(const char *text, const char *needle)
{
    struct sweep s;
    char err[2048] = "";
    if (parse(text, &s, err, sizeof err) != -1)
        fail_msg("accepted, expected an error with '%s'", needle);
    if (!strstr(err, needle))
        fail_msg("error '%s' lacks '%s'", err, needle);
}

/* Plays s into a new database at path on `threads` threads. */
static void run(const struct sweep *s, const char *path, int threads)
{
    char err[2048];
    struct store *st;
    if (store_open(path, 0, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct run_options o = {threads, 1, 2.0, 500, {0, 0, NULL}};
    struct run_result r;
    if (runner_run(s, st, &o, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    store_close(st);
}

#define TAFL_START "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3"

/* ---- reading the key ------------------------------------------------------ */

#define HEAD "[sweep]\nname = t\ngames = 2\n" /* lines 1-3 */
#define TAIL "[agents]\na = random\nb = mcts(iterations=2)\n"

static void test_key_values(void **state)
{
    (void)state;
    struct sweep s;
    load(HEAD "[game tafl]\nopenings = random_plies:4\n" TAIL, &s);
    assert_int_equal(s.n_openings, 1);
    assert_int_equal(s.openings[0].kind, OPENINGS_RANDOM);
    assert_int_equal(s.openings[0].plies, 4);
    /* a vs b and b vs a, both with the section's openings */
    assert_int_equal(s.n_cells, 2);
    assert_int_equal(s.cells[1].openings, 0);
    /* the seed key gets a fourth line: other cells than without */
    const char *line4 = strrchr(s.cells[0].seed_key, '\n');
    assert_string_equal(line4, "\nopenings=random_plies:4");
    sweep_free(&s);

    /* none and no key: three lines, as before openings existed */
    load(HEAD "[game tafl]\nopenings = none\n[game jetan]\n" TAIL, &s);
    assert_int_equal(s.n_openings, 0);
    for (int i = 0; i < s.n_cells; i++) {
        assert_int_equal(s.cells[i].openings, -1);
        int lines = 1;
        for (const char *p = s.cells[i].seed_key; *p; p++)
            lines += *p == '\n';
        assert_int_equal(lines, 3);
    }
    sweep_free(&s);

    /* random_plies:0 is allowed (no opening moves), 100 is the most */
    load(HEAD "[game tafl]\nopenings = random_plies:0\n" TAIL, &s);
    sweep_free(&s);
    load(HEAD "[game tafl]\nopenings = random_plies:100\n" TAIL, &s);
    sweep_free(&s);
    expect_bad(HEAD "[game tafl]\nopenings = random_plies:101\n" TAIL,
               "t.ini:5: openings = random_plies:101: random_plies takes a "
               "whole number of plies from 0 to 100");
    expect_bad(HEAD "[game tafl]\nopenings = random_plies:x\n" TAIL,
               "t.ini:5: openings = random_plies:x");
    expect_bad(HEAD "[game tafl]\nopenings = random_plies:\n" TAIL,
               "t.ini:5: openings = random_plies:");
    expect_bad(HEAD "[game tafl]\nopenings = random_plies:-1\n" TAIL,
               "t.ini:5: openings = random_plies:-1");
    /* a key of the game sections only, once each */
    expect_bad("[sweep]\nname = t\ngames = 2\nopenings = random_plies:2\n"
               "[game tafl]\n" TAIL, "t.ini:4: unknown key 'openings' in "
               "[sweep]");
    expect_bad(HEAD "[game tafl]\nopenings = random_plies:2\nopenings = none\n"
               TAIL, "t.ini:6: openings given twice in [game tafl] (first "
               "at line 5)");
}

/* 1 when the side to move in st can end the game with its own win in one
 * move (a move that ends the game by each game's "end of the game" in
 * docs/rules.md; the test's own loop over the moves). */
static int side_to_move_can_win(const struct game *g, const void *st)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char after[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    int seat = g->to_move(st), n = g->legal_moves(st, moves);
    for (int i = 0; i < n; i++) {
        memcpy(after, st, g->state_size);
        g->apply(after, moves[i]);
        struct game_status gs = g->status(after);
        if (gs.outcome == (seat == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1))
            return 1;
    }
    return 0;
}

/* safe_plies:N: read like random_plies:N under its own identity, and
 * in Jetan (where a random Princess move often lands en prise) it leaves
 * no win at once, while random_plies:4 over the same games does; where
 * random_plies' opening leaves none, safe_plies plays the very same. */
static void test_safe_plies_leave_no_win_at_once(void **state)
{
    (void)state;
    struct sweep s;
    load(HEAD "[game jetan]\nopenings = safe_plies:4\n" TAIL, &s);
    assert_int_equal(s.openings[0].kind, OPENINGS_RANDOM);
    assert_int_equal(s.openings[0].plies, 4);
    assert_int_equal(s.openings[0].safe, 1);
    assert_string_equal(strrchr(s.cells[0].seed_key, '\n'),
                        "\nopenings=safe_plies:4");
    sweep_free(&s);
    expect_bad(HEAD "[game tafl]\nopenings = safe_plies:101\n" TAIL,
               "t.ini:5: openings = safe_plies:101: safe_plies takes a "
               "whole number of plies from 0 to 100");
    expect_bad(HEAD "[game tafl]\nopenings = safe_plies:\n" TAIL,
               "t.ini:5: openings = safe_plies:");

    struct openings random, safe;
    char err[512];
    assert_int_equal(openings_parse("random_plies:4", "t.ini", 1, &random,
                                    err, sizeof err), 0);
    assert_int_equal(openings_parse("safe_plies:4", "t.ini", 1, &safe, err,
                                    sizeof err), 0);
    struct variant v;
    assert_int_equal(variant_parse("jetan", &v, err, sizeof err), 0);
    const struct game *g = v.game;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    struct opening_played r, p;
    int random_wins = 0;
    for (int i = 0; i < 200; i++) {
        assert_int_equal(openings_play(&random, 7, &v, "jetan", i, st, &r,
                                       err, sizeof err), 0);
        int win = side_to_move_can_win(g, st);
        random_wins += win;
        assert_int_equal(openings_play(&safe, 7, &v, "jetan", i, st, &p, err,
                                       sizeof err), 0);
        assert_int_equal(p.plies, 4);
        assert_int_equal(g->status(st).outcome, GAME_ONGOING);
        assert_false(side_to_move_can_win(g, st));
        if (!win)
            assert_string_equal(p.moves, r.moves);
    }
    /* the filter is needed: about a quarter of Jetan's random 4-ply
     * openings leave a win at once (130 of 500 strength.ini games ended at
     * the agents' first ply); 0 here would make the test above empty */
    assert_true(random_wins >= 10);
}

static void test_file_lines_are_checked(void **state)
{
    (void)state;
    char path[128];
    struct sweep s;
    /* rook moves from the start: the attacker d1 to c1, the defender g5 to
     * g7 (docs/rules.md#hnefatafl-9x9-tafl: attackers first) */
    write_file("good.txt", "; three openings for tafl\n"
               "d1c1 g5g7   # two plies\n"
               "\n"
               "  d1c1\n"
               TAFL_START " d\n", path, sizeof path);
    load(HEAD "[game tafl]\nopenings = good.txt\n" TAIL, &s);
    const struct openings *o = &s.openings[0];
    assert_int_equal(o->kind, OPENINGS_FILE);
    assert_int_equal(o->n_lines, 3);
    assert_int_equal(o->lines[0].line, 2);
    assert_string_equal(o->lines[0].moves, "d1c1 g5g7");
    assert_string_equal(o->lines[1].moves, "d1c1");
    assert_null(o->lines[1].position);
    assert_string_equal(o->lines[2].position, TAFL_START " d");
    assert_int_equal(strncmp(o->identity, "file:", 5), 0);
    sweep_free(&s);

    write_file("a.txt", "d1c1\nzz\n", path, sizeof path);
    expect_bad(HEAD "[game tafl]\nopenings = a.txt\n" TAIL, "a.txt:2: move 1 "
               "'zz': ");
    /* the attacker d9 to d1 would pass d5, where a defender stands */
    write_file("b.txt", "d1c1 g5g7 d9d1\n", path, sizeof path);
    expect_bad(HEAD "[game tafl]\nopenings = b.txt\n" TAIL, "b.txt:1: move 3 "
               "'d9d1': ");
    /* the king (k) on the corner a9 has escaped: the game is over */
    write_file("c.txt", "\n\nk2aaa3/4a4/4d4/a3d3a/aadd1ddaa/a3d3a/4d4/4a4/"
               "3aaa3 a\n", path, sizeof path);
    expect_bad(HEAD "[game tafl]\nopenings = c.txt\n" TAIL,
               "c.txt:3: the game is over after this opening");
    write_file("d.txt", "9/9 a\n", path, sizeof path);
    expect_bad(HEAD "[game tafl]\nopenings = d.txt\n" TAIL, "d.txt:1: not a "
               "tafl position");
    write_file("e.txt", "; only a comment\n", path, sizeof path);
    expect_bad(HEAD "[game tafl]\nopenings = e.txt\n" TAIL, "e.txt: no "
               "opening in the file");
    expect_bad(HEAD "[game tafl]\nopenings = missing.txt\n" TAIL,
               "t.ini:5: openings file ");
    /* each variant of the section: with first = defenders the defenders
     * move first, so the attacker's d1c1 is illegal there */
    write_file("f.txt", "d1c1\n", path, sizeof path);
    expect_bad(HEAD "[game tafl]\nfirst = attackers, defenders\nopenings = "
               "f.txt\n" TAIL, "f.txt:1: move 1 'd1c1': ");
    expect_bad(HEAD "[game tafl]\nfirst = attackers, defenders\nopenings = "
               "f.txt\n" TAIL, "first=defenders");
    /* a report reads the stored sweep file without the openings file */
    assert_int_equal(sweep_parse_stored(HEAD "[game tafl]\nopenings = "
                                        "nowhere.txt\n" TAIL, &s, path,
                                        sizeof path), 0);
    assert_int_equal(s.openings[0].n_lines, 0);
    sweep_free(&s);
}

/* ---- playing and storing --------------------------------------------------- */

static const char *random_sweep =
    "[sweep]\nname = op\nseed = 11\ngames = 5\n"
    "[game tafl]\nmax_plies = 30\nopenings = random_plies:3\n"
    "[agents]\na = random\nb = mcts(iterations=2)\n"
    "[matchups]\npairs = a vs b\n";

/* The columns that depend on the sweep alone, of every game. */
static const char *const played =
    "SELECT c.seed_key, g.game_index, g.seed, g.side0, g.side1, g.result,"
    " g.reason, g.plies, g.moves, g.opening, g.opening_position, g.pair_id"
    " FROM games g JOIN cells c ON c.id = g.cell_id"
    " ORDER BY c.seed_key, g.game_index";

static void test_same_openings_on_one_and_two_threads(void **state)
{
    (void)state;
    struct sweep s;
    char one[128], two[128];
    load(random_sweep, &s);
    temp_db(one, sizeof one);
    temp_db(two, sizeof two);
    run(&s, one, 1);
    run(&s, two, 2);
    char *a = db_rows(one, played), *b = db_rows(two, played);
    assert_string_equal(a, b);
    free(a);
    free(b);
    /* every opening is 3 legal plies from the start: game_setup replays
     * them with the rules' own legality check */
    char *o = db_rows(one, "SELECT opening FROM games");
    int n = 0;
    for (char *line = strtok(o, "\n"); line; line = strtok(NULL, "\n"), n++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        char err[256];
        assert_int_equal(variant_parse(s.cells[0].variant_text, &v, err,
                                       sizeof err), 0);
        if (game_setup(&v, st, NULL, line, err, sizeof err) != 0)
            fail_msg("%s: %s", line, err);
        int words = 1;
        for (const char *p = line; *p; p++)
            words += *p == ' ';
        assert_int_equal(words, 3);
    }
    assert_int_equal(n, 10); /* 2 cells x 5 games */
    free(o);
    sweep_free(&s);
    db_remove(one);
    db_remove(two);
}

/* A sweep of 3 games a cell resumed with 5 holds what a run of 5 holds. */
static void test_resume_plays_the_same_openings(void **state)
{
    (void)state;
    char text[1024], resumed[128], fresh[128];
    snprintf(text, sizeof text, "%s", random_sweep);
    memcpy(strstr(text, "games = 5"), "games = 3", 9);
    struct sweep three, five;
    load(text, &three);
    load(random_sweep, &five);
    temp_db(resumed, sizeof resumed);
    temp_db(fresh, sizeof fresh);
    run(&three, resumed, 2);
    run(&five, resumed, 1);
    run(&five, fresh, 2);
    char *a = db_rows(resumed, played), *b = db_rows(fresh, played);
    assert_string_equal(a, b);
    free(a);
    free(b);
    sweep_free(&three);
    sweep_free(&five);
    db_remove(resumed);
    db_remove(fresh);
}

static void test_pairs_share_the_opening_with_seats_swapped(void **state)
{
    (void)state;
    struct sweep s;
    char path[128];
    load(random_sweep, &s);
    temp_db(path, sizeof path);
    run(&s, path, 2);
    /* game i of a vs b and game i of b vs a: one opening, one pair id */
    char *pairs = db_rows(path, "SELECT COUNT(*), COUNT(DISTINCT g.opening),"
                       " COUNT(DISTINCT g.pair_id), MIN(c.agent0_name),"
                       " MAX(c.agent0_name) FROM games g JOIN cells c ON"
                       " c.id = g.cell_id GROUP BY g.game_index");
    assert_string_equal(pairs, "2|1|1|a|b\n2|1|1|a|b\n2|1|1|a|b\n2|1|1|a|b\n"
                               "2|1|1|a|b\n");
    free(pairs);
    /* five pairs, five pair ids */
    char *ids = db_rows(path, "SELECT COUNT(DISTINCT pair_id) FROM games");
    assert_string_equal(ids, "5\n");
    free(ids);
    /* after 3 opening plies (attackers, defenders, attackers:
     * docs/rules.md#hnefatafl-9x9-tafl) the defenders move, and the agents'
     * seat 0 plays them */
    char *sides = db_rows(path, "SELECT DISTINCT side0, side1 FROM games");
    assert_string_equal(sides, "defenders|attackers\n");
    free(sides);
    /* plies are the agents': 3 opening plies + plies = the cap of 30 for a
     * game the cap ended */
    char *capped = db_rows(path, "SELECT DISTINCT plies FROM games WHERE"
                        " reason = 'ply_cap'");
    if (capped[0])
        assert_string_equal(capped, "27\n");
    free(capped);
    sweep_free(&s);
    db_remove(path);
}

static void test_file_openings_in_order(void **state)
{
    (void)state;
    char file[128], path[128];
    write_file("three.txt", "d1c1 g5g7\nd1c1\n" TAFL_START " d\n", file,
               sizeof file);
    struct sweep s;
    load("[sweep]\nname = f\nseed = 2\ngames = 4\n[game tafl]\n"
         "max_plies = 20\nopenings = three.txt\n[agents]\na = random\n"
         "b = mcts(iterations=2)\n[matchups]\npairs = a vs b\n"
         "orders = given\n", &s);
    temp_db(path, sizeof path);
    run(&s, path, 1);
    /* game i plays line i mod 3: game 3 plays line 1 again; after the one
     * attacker ply of line 2, and in line 3's position with d to move, the
     * defenders are seat 0 */
    char *got = db_rows(path, "SELECT game_index, opening, opening_position,"
                     " side0 FROM games ORDER BY game_index");
    assert_string_equal(got, "0|d1c1 g5g7||attackers\n"
                             "1|d1c1||defenders\n"
                             "2||" TAFL_START " d|defenders\n"
                             "3|d1c1 g5g7||attackers\n");
    free(got);
    /* pair ids with orders = given: one game a pair, still its own id */
    char *ids = db_rows(path, "SELECT COUNT(DISTINCT pair_id), COUNT(pair_id)"
                     " FROM games");
    assert_string_equal(ids, "4|4\n");
    free(ids);
    sweep_free(&s);
    db_remove(path);
}

/* Without openings the games are those of a sweep file that never heard
 * of them: the same seeds and rows, and pair_id NULL, opening ''. */
static void test_no_openings_is_as_before(void **state)
{
    (void)state;
    struct sweep with, without;
    load(random_sweep, &with);
    char text[1024];
    snprintf(text, sizeof text, "%s", random_sweep);
    char *key = strstr(text, "openings = random_plies:3\n");
    memcpy(key, ";", 1); /* the line becomes a comment */
    load(text, &without);
    /* the game seeds come from the first three lines alone */
    for (int i = 0; i < 5; i++)
        assert_int_equal(sweep_game_seed(&with, &with.cells[0], i),
                         sweep_game_seed(&without, &without.cells[0], i));
    char path[128];
    temp_db(path, sizeof path);
    run(&without, path, 1);
    char *got = db_rows(path, "SELECT COUNT(*), SUM(opening = ''), SUM(pair_id"
                     " IS NULL), SUM(opening_position = ''), MAX(openings)"
                     " FROM game_view");
    assert_string_equal(got, "10|10|10|10|\n");
    free(got);
    /* ... and the same database refuses the sweep with openings: its cells
     * hold games from the start */
    char err[2048];
    struct store *st;
    int64_t ids[2];
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    assert_int_equal(store_begin_run(st, &with, 1, ids, err, sizeof err), -1);
    assert_non_null(strstr(err, "with openings = none, and this sweep file "
                                "says openings = random_plies:3"));
    assert_non_null(strstr(err, "give the sweep a new seed or name"));
    store_close(st);
    db_remove(path);
    /* and the other way round */
    temp_db(path, sizeof path);
    run(&with, path, 1);
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    assert_int_equal(store_begin_run(st, &without, 1, ids, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "with openings = random_plies:3, and this "
                                "sweep file says openings = none"));
    store_close(st);
    db_remove(path);
    sweep_free(&with);
    sweep_free(&without);
}

/* ---- migration and the report ----------------------------------------- */

static void test_version_1_database_migrates(void **state)
{
    (void)state;
    char path[128], err[2048];
    temp_db(path, sizeof path);
    FILE *f = fopen(RULELAB_FIXTURES "/cbdcb07.sql", "rb");
    assert_non_null(f);
    char *sql = calloc(1, 1 << 20);
    assert_non_null(sql);
    assert_true(fread(sql, 1, (1 << 20) - 1, f) > 0);
    fclose(f);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    free(sql);
    struct store *st;
    if (store_open(path, 0, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    store_close(st);
    /* its 6 games (tests/fixtures/cbdcb07.ini: 2 cells x 3) were played
     * from the start: no opening, no pair */
    char *got = db_rows(path, "SELECT COUNT(*), SUM(opening = ''),"
                     " SUM(opening_position = ''), SUM(pair_id IS NULL),"
                     " (SELECT COUNT(*) FROM cells WHERE openings = ''),"
                     " (SELECT value FROM meta WHERE key = 'schema_version')"
                     " FROM game_view");
    char want[32];
    snprintf(want, sizeof want, "6|6|6|6|2|%d\n", STORE_SCHEMA_VERSION);
    assert_string_equal(got, want);
    free(got);
    db_remove(path);
}

static void test_report_counts_distinct_games(void **state)
{
    (void)state;
    char path[128], err[2048];
    struct sweep s;
    load("[sweep]\nname = d\ngames = 5\n[game tafl]\nopenings = "
         "random_plies:1\n" TAIL "[matchups]\npairs = a vs b\norders = "
         "given\n", &s);
    temp_db(path, sizeof path);
    struct store *st;
    int64_t id;
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    assert_int_equal(store_begin_run(st, &s, 1, &id, err, sizeof err), 0);
    /* five rows written by hand: games 0 and 1 are one sequence; game 2
     * has game 0's opening with other moves; game 3 game 0's moves after
     * another opening; game 4 game 0's opening and moves from a position.
     * Distinct: {0, 1}, 2, 3, 4 = 4. */
    static const char *const opening[5] = {"d1c1", "d1c1", "d1c1", "d1d2",
                                           "d1c1"};
    static const char *const moves[5] = {"g5g7", "g5g7", "g5g8", "g5g7",
                                         "g5g7"};
    static const char *const position[5] = {"", "", "", "", TAFL_START " a"};
    for (int i = 0; i < 5; i++) {
        struct game_record g = {id, i, 1, {"defenders", "attackers"},
                                GAME_DRAW, REASON_PLY_CAP, 1, 1.0, moves[i],
                                strlen(moves[i]), NULL};
        struct game_opening o = {opening[i], position[i], 1 + i};
        assert_int_equal(store_insert_opened_game(st, &g, &o, err,
                                                  sizeof err), 0);
    }
    assert_int_equal(store_commit(st, err, sizeof err), 0);
    struct report r;
    assert_int_equal(report_build(store_db(st), NULL, &r, err, sizeof err), 0);
    assert_int_equal(r.n_cells, 1);
    assert_int_equal(r.cells[0].games, 5);
    assert_int_equal(r.cells[0].distinct_games, 4);
    assert_string_equal(r.cells[0].openings, "random_plies:1");
    assert_int_equal(r.variants[0].distinct_games, 4);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    report_print(&r, REPORT_JSON, out);
    fclose(out);
    assert_non_null(strstr(buf, "\"distinct_games\": 4, \"forfeits\": "
                                "[0, 0], \"openings\": "
                                "\"random_plies:1\"}"));
    free(buf);
    out = open_memstream(&buf, &len);
    report_print(&r, REPORT_CSV, out);
    fclose(out);
    assert_non_null(strstr(buf, "variant,seat0,seat1,games,distinct,"));
    assert_non_null(strstr(buf, ",a,b,5,4,0,0,"));
    free(buf);
    report_free(&r);
    store_close(st);
    sweep_free(&s);
    db_remove(path);
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    if (dir[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            return -1;
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_values),
        cmocka_unit_test(test_safe_plies_leave_no_win_at_once),
        cmocka_unit_test(test_file_lines_are_checked),
        cmocka_unit_test(test_same_openings_on_one_and_two_threads),
        cmocka_unit_test(test_resume_plays_the_same_openings),
        cmocka_unit_test(test_pairs_share_the_opening_with_seats_swapped),
        cmocka_unit_test(test_file_openings_in_order),
        cmocka_unit_test(test_no_openings_is_as_before),
        cmocka_unit_test(test_version_1_database_migrates),
        cmocka_unit_test(test_report_counts_distinct_games),
    };
    return cmocka_run_group_tests_name("openings", tests, NULL, remove_dir);
}
