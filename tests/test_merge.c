/*
 * test_merge.c -- `rulelab merge` (merge.h) and the schema-4 provenance
 * it keeps: shards of a real sweep merged equal a one-machine run on
 * every column of game_view but ids and timing; merging is idempotent
 * (the same shards again add nothing, also when read in full); a game two
 * inputs hold with other content is refused naming the game and both
 * databases, and so is a cell OUT holds under another seed key; two
 * sweeps share one database, a sweep of other file text is
 * refused; a shard with a cell the others lack and an empty shard merge;
 * a shard still being written is merged as committed, without waiting,
 * and re-merged later; the migration from schema 3 (a database made by
 * d412ce8, tests/fixtures/d412ce8.sql) keeps every row, and its result
 * merges; merge copies every table of the schema.
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
#include "run_helpers.h"
#include "merge.h"
#include "runner.h"
#include "shard.h"
#include "store.h"
#include "sweep.h"

#ifndef RULELAB_FIXTURES
#error "RULELAB_FIXTURES must name tests/fixtures"
#endif

/* ---- helpers ------------------------------------------------------------ */

/* A sweep of two games (tafl and jetan at a small ply cap), random
 * against a tiny MCTS in both orders, `games` games a cell. */
static void make_sweep(struct sweep *s, const char *name, int games)
{
    char text[1024], err[1024];
    snprintf(text, sizeof text,
             "[sweep]\nname = %s\nseed = 9\ngames = %d\n"
             "[game tafl]\nmax_plies = 30\n[game jetan]\nmax_plies = 24\n"
             "[agents]\na = random\nb = mcts(iterations=4)\n"
             "[matchups]\npairs = a vs b\n", name, games);
    if (sweep_parse("merge.ini", text, s, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* Merges in[0..n-1] into out, which must succeed; the games added. */
static long merge_ok(const char *out, const char *const *in, int n)
{
    struct merge_input_result res[8];
    char err[4096];
    assert_true(n <= 8);
    if (merge_databases(out, in, n, res, err, sizeof err) != 0)
        fail_msg("%s", err);
    long added = 0;
    for (int i = 0; i < n; i++)
        added += res[i].games_added;
    return added;
}

/* Every column of game_view but the ids (id, cell_id) and the timing
 * (duration_ms, finished), in an order of natural keys. */
static const char *const content =
    "SELECT sweep, sweep_seed, game, variant, agent0_name, agent1_name,"
    " agent0, agent1, game_index, seed, side0, side1, result, winner_seat,"
    " reason, plies, moves, opening_position, opening, pair_id, openings"
    " FROM game_view ORDER BY sweep, sweep_seed, variant, agent0, agent1,"
    " game_index";

/* Every row of every table, but for ids and times, in key order. */
static const char *const all_rows =
    "SELECT name, seed, file_text FROM sweeps ORDER BY name, seed;"
    "SELECT uid, program_version, host, threads, started, ended, games,"
    " status, behaviour, shard_index, shard_count FROM runs ORDER BY uid;"
    "SELECT game, canonical, identity FROM variants ORDER BY identity;"
    "SELECT spec, identity FROM agents ORDER BY identity;"
    "SELECT s.name, c.seed_key, c.agent0_name, c.agent1_name,"
    " c.games_planned, c.stopped_at, c.game_behaviour, c.agent0_behaviour,"
    " c.agent1_behaviour, c.openings FROM cells c JOIN sweeps s ON s.id ="
    " c.sweep_id ORDER BY s.name, c.seed_key";

/* The rows of all_rows' queries, joined. */
static char *every_table(const char *path)
{
    char *out = calloc(1, 1);
    for (const char *sql = all_rows; *sql;) {
        const char *end = strchr(sql, ';');
        size_t n = end ? (size_t)(end - sql) : strlen(sql);
        char one[1024];
        snprintf(one, sizeof one, "%.*s", (int)n, sql);
        char *r = db_rows(path, one);
        out = realloc(out, strlen(out) + strlen(r) + 2);
        strcat(out, r);
        strcat(out, "#");
        free(r);
        sql += n + (end ? 1 : 0);
    }
    char *g = db_rows(path, content);
    out = realloc(out, strlen(out) + strlen(g) + 1);
    strcat(out, g);
    free(g);
    return out;
}

/* ---- shards merged ------------------------------------------------------ */

/* Three shards merged hold what a one-machine run holds; each game says
 * which run (shard, host) played it; merging again adds nothing, also
 * when OUT forgets the inputs' markers and reads them in full. */
static void test_shards_merged_equal_one_machine(void **state)
{
    (void)state;
    struct sweep s;
    make_sweep(&s, "merged", 5);
    char whole[64], part[3][64], out[64];
    db_temp_path(whole, sizeof whole);
    db_temp_path(out, sizeof out);
    run_play(&s, whole, (struct shard){0, 0, NULL});
    const char *in[3];
    for (int k = 0; k < 3; k++) {
        db_temp_path(part[k], sizeof part[k]);
        run_play(&s, part[k], (struct shard){k, 3, NULL});
        in[k] = part[k];
    }
    /* 4 cells x 5 games */
    assert_int_equal(merge_ok(out, in, 3), 20);
    char *want = db_rows(whole, content), *got = db_rows(out, content);
    assert_string_equal(want, got);
    /* provenance: every game has its run; the runs are the three shards */
    assert_int_equal(db_count(out, "SELECT COUNT(*) FROM games WHERE run_id IS"
                     " NULL"), 0);
    char *runs = db_rows(out, "SELECT shard_index, shard_count, COUNT(g.id),"
                      " r.games FROM runs r LEFT JOIN games g ON g.run_id ="
                      " r.id GROUP BY r.id ORDER BY shard_index");
    /* by shard.h's rule, (c * 5 + i) mod 3 over 20 games: 7, 7, 6 */
    assert_string_equal(runs, "0|3|7|7\n1|3|7|7\n2|3|6|6\n");
    free(runs);
    char source[128];
    snprintf(source, sizeof source, "SELECT COUNT(*) FROM runs WHERE source"
             " = '%s'", part[1]);
    assert_int_equal(db_count(out, source), 1);
    char *before = every_table(out);
    /* idempotent: again, and again in full */
    assert_int_equal(merge_ok(out, in, 3), 0);
    db_exec(out, "DELETE FROM merges");
    assert_int_equal(merge_ok(out, in, 3), 0);
    const char *one[] = {whole};
    assert_int_equal(merge_ok(out, one, 1), 0);
    char *after = every_table(out);
    /* the one-machine run adds its run row, nothing else */
    assert_int_equal(db_count(out, "SELECT COUNT(*) FROM runs"), 4);
    db_exec(out, "DELETE FROM runs WHERE shard_count IS NULL");
    free(after);
    after = every_table(out);
    assert_string_equal(before, after);
    free(before);
    free(after);
    free(want);
    free(got);
    db_remove(whole);
    db_remove(out);
    for (int k = 0; k < 3; k++)
        db_remove(part[k]);
    sweep_free(&s);
}

/* A game two inputs hold with other content stops the merge, naming the
 * game and both databases, and adds nothing of the second input. */
static void test_conflicting_game_refused(void **state)
{
    (void)state;
    struct sweep s;
    make_sweep(&s, "conflict", 3);
    char a[64], b[64], out[64], err[4096];
    db_temp_path(a, sizeof a);
    db_temp_path(b, sizeof b);
    db_temp_path(out, sizeof out);
    run_play(&s, a, (struct shard){0, 0, NULL});
    run_play(&s, b, (struct shard){0, 0, NULL});
    db_exec(b, "UPDATE games SET moves = moves || ' a1a2' WHERE game_index"
             " = 2 AND cell_id = 3");
    db_exec(b, "INSERT INTO sweeps (name, seed, file_text, created) VALUES"
             " ('extra', 1, 'x', 'now')");
    const char *first[] = {a};
    merge_ok(out, first, 1);
    char *before = every_table(out);
    const char *second[] = {b};
    assert_int_equal(merge_databases(out, second, 1, NULL, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "game 2 of cell "));
    assert_non_null(strstr(err, a));
    assert_non_null(strstr(err, b));
    assert_non_null(strstr(err, "moves differ"));
    char *after = every_table(out);
    assert_string_equal(before, after);
    assert_int_equal(db_count(out, "SELECT COUNT(*) FROM sweeps WHERE name ="
                     " 'extra'"), 0);
    free(before);
    free(after);
    db_remove(a);
    db_remove(b);
    db_remove(out);
    sweep_free(&s);
}

/* A cell OUT holds under its variant and agents with another seed key
 * (as if its identity were computed otherwise) is refused, not left
 * behind with its games. */
static void test_cell_of_other_seed_key_refused(void **state)
{
    (void)state;
    struct sweep s;
    make_sweep(&s, "seedkey", 2);
    char a[64], out[64], err[4096];
    db_temp_path(a, sizeof a);
    db_temp_path(out, sizeof out);
    run_play(&s, a, (struct shard){0, 0, NULL});
    const char *in[] = {a};
    merge_ok(out, in, 1);
    db_exec(out, "UPDATE cells SET seed_key = seed_key || 'x' WHERE id = 2;"
             " DELETE FROM merges");
    assert_int_equal(merge_databases(out, in, 1, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "under another seed key"));
    db_remove(a);
    db_remove(out);
    sweep_free(&s);
}

/* Two sweeps share one database; a sweep of the same name and seed with
 * another file text is refused, naming both databases. */
static void test_two_sweeps_and_other_file_text(void **state)
{
    (void)state;
    struct sweep s1, s2;
    make_sweep(&s1, "first", 2);
    make_sweep(&s2, "second", 3);
    char a[64], b[64], c[64], out[64], err[4096];
    db_temp_path(a, sizeof a);
    db_temp_path(b, sizeof b);
    db_temp_path(c, sizeof c);
    db_temp_path(out, sizeof out);
    run_play(&s1, a, (struct shard){0, 0, NULL});
    run_play(&s2, b, (struct shard){0, 0, NULL});
    const char *in[] = {a, b};
    /* 4 cells x 2 games, then 4 x 3 */
    assert_int_equal(merge_ok(out, in, 2), 8 + 12);
    char *per_sweep = db_rows(out, "SELECT sweep, COUNT(*) FROM game_view"
                           " GROUP BY sweep ORDER BY sweep");
    assert_string_equal(per_sweep, "first|8\nsecond|12\n");
    free(per_sweep);
    /* "first" again, with a comment added to its file text */
    struct sweep other;
    char text[2048], err2[512];
    snprintf(text, sizeof text, "; another file\n%s", s1.file_text);
    if (sweep_parse("other.ini", text, &other, err2, sizeof err2) != 0)
        fail_msg("%s", err2);
    run_play(&other, c, (struct shard){0, 0, NULL});
    const char *third[] = {c};
    assert_int_equal(merge_databases(out, third, 1, NULL, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "sweep first (seed 9): its file text"));
    assert_non_null(strstr(err, c));
    assert_non_null(strstr(err, out));
    sweep_free(&other);
    db_remove(a);
    db_remove(b);
    db_remove(c);
    db_remove(out);
    sweep_free(&s1);
    sweep_free(&s2);
}

/* A shard holding a cell the others lack (its row deleted from them) and
 * an empty shard (more shards than games) merge into the one-machine
 * result; the empty one adds its run and no game. */
static void test_cell_others_lack_and_empty_shard(void **state)
{
    (void)state;
    struct sweep s;
    make_sweep(&s, "lack", 2);
    char whole[64], part[2][64], empty[64], out[64];
    db_temp_path(whole, sizeof whole);
    db_temp_path(out, sizeof out);
    db_temp_path(empty, sizeof empty);
    run_play(&s, whole, (struct shard){0, 0, NULL});
    for (int k = 0; k < 2; k++) {
        db_temp_path(part[k], sizeof part[k]);
        run_play(&s, part[k], (struct shard){k, 2, NULL});
    }
    /* shard 1 forgets the last cell: only shard 0 has it */
    db_exec(part[1], "DELETE FROM games WHERE cell_id = 4;"
             " DELETE FROM cells WHERE id = 4");
    db_exec(part[0], "DELETE FROM games WHERE cell_id = 4 AND game_index"
             " = 1");
    /* shard 9 of 10 of 8 games: (c * 2 + i) mod 10 = 9 never */
    run_play(&s, empty, (struct shard){9, 10, NULL});
    assert_int_equal(db_count(empty, "SELECT COUNT(*) FROM games"), 0);
    const char *in[] = {part[1], empty, part[0]};
    assert_int_equal(merge_ok(out, in, 3), 7);
    /* the one game deleted from both is the one the merge lacks */
    db_exec(whole, "DELETE FROM games WHERE cell_id = 4 AND game_index = 1");
    char *want = db_rows(whole, content), *got = db_rows(out, content);
    assert_string_equal(want, got);
    assert_int_equal(db_count(out, "SELECT COUNT(*) FROM runs WHERE shard_index"
                     " = 9 AND shard_count = 10 AND games = 0"), 1);
    free(want);
    free(got);
    db_remove(whole);
    db_remove(out);
    db_remove(empty);
    for (int k = 0; k < 2; k++)
        db_remove(part[k]);
    sweep_free(&s);
}

/* A shard still being written: merge reads what it has committed, while
 * its writer holds a write transaction open and its writer lock, without
 * waiting; later merges add the rest. */
static void test_partial_shard(void **state)
{
    (void)state;
    struct sweep s;
    make_sweep(&s, "partial", 3);
    char shard[64], out[64], err[1024];
    db_temp_path(shard, sizeof shard);
    db_temp_path(out, sizeof out);
    struct store *st;
    int64_t ids[4];
    assert_int_equal(s.n_cells, 4);
    if (store_open(shard, 0, &st, err, sizeof err) != 0
        || store_begin_run(st, &s, 1, ids, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct game_record g = {0};
    g.side[0] = "attackers";
    g.side[1] = "defenders";
    g.outcome = GAME_DRAW;
    g.reason = REASON_PLY_CAP;
    g.moves = "";
    for (int i = 0; i < 3; i++) {
        g.cell_id = ids[0];
        g.game_index = i;
        g.seed = (uint64_t)i + 100;
        g.plies = i;
        assert_int_equal(store_insert_game(st, &g, err, sizeof err), 0);
    }
    assert_int_equal(store_commit(st, err, sizeof err), 0);
    g.cell_id = ids[1];
    g.game_index = 0;
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), 0);
    /* the transaction with that game is open: merge now */
    const char *in[] = {shard};
    assert_int_equal(merge_ok(out, in, 1), 3);
    assert_int_equal(db_count(out, "SELECT COUNT(*) FROM runs WHERE status ="
                     " 'running'"), 1);
    /* unchanged: skipped; then committed: the fourth game comes */
    assert_int_equal(merge_ok(out, in, 1), 0);
    assert_int_equal(store_commit(st, err, sizeof err), 0);
    assert_int_equal(store_end_run(st, "complete"), 0);
    assert_int_equal(merge_ok(out, in, 1), 1);
    assert_int_equal(db_count(out, "SELECT COUNT(*) FROM runs WHERE status ="
                     " 'complete' AND games = 4"), 1);
    assert_int_equal(db_count(out, "SELECT COUNT(*) FROM runs"), 1);
    store_close(st);
    db_remove(shard);
    db_remove(out);
    sweep_free(&s);
}

/* ---- the schema ---------------------------------------------------------- */

/* A schema-3 database made by d412ce8 migrates to today's keeping every row;
 * its runs get a uid, no shard; its games no run (not recorded then); it
 * merges into a new database. */
static void test_migration_from_schema_3(void **state)
{
    (void)state;
    char old[64], out[64], err[1024];
    db_temp_path(old, sizeof old);
    db_temp_path(out, sizeof out);
    db_exec_file(old, RULELAB_FIXTURES "/d412ce8.sql");
    assert_int_equal(db_count(old, "SELECT value FROM meta WHERE key ="
                     " 'schema_version'"), 3);
    char *games_before = db_rows(old, "SELECT * FROM games ORDER BY id");
    char *cells_before = db_rows(old, "SELECT * FROM cells ORDER BY id");
    char *runs_before = db_rows(old, "SELECT * FROM runs ORDER BY id");
    struct store *st;
    if (store_open(old, 0, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    store_close(st);
    assert_int_equal(db_count(old, "SELECT value FROM meta WHERE key ="
                     " 'schema_version'"), STORE_SCHEMA_VERSION);
    /* the old columns, row for row */
    char *games_after = db_rows(old, "SELECT id, cell_id, game_index, seed,"
                             " side0, side1, result, winner_seat, reason,"
                             " plies, duration_ms, finished, moves, opening,"
                             " opening_position, pair_id FROM games ORDER BY"
                             " id");
    char *cells_after = db_rows(old, "SELECT * FROM cells ORDER BY id");
    char *runs_after = db_rows(old,
        "SELECT id, sweep_id, program_version, host,"
        " threads, started, ended, games, status,"
        " behaviour FROM runs ORDER BY id");
    assert_string_equal(games_before, games_after);
    assert_string_equal(cells_before, cells_after);
    assert_string_equal(runs_before, runs_after);
    assert_int_equal(db_count(old, "SELECT COUNT(*) FROM games"), 3);
    assert_int_equal(db_count(old, "SELECT COUNT(*) FROM games WHERE run_id IS"
                     " NULL"), 3);
    assert_int_equal(db_count(old, "SELECT COUNT(*) FROM runs WHERE"
                     " length(uid) = 32 AND shard_index IS NULL AND"
                     " shard_count IS NULL AND source IS NULL"), 1);
    const char *in[] = {old};
    assert_int_equal(merge_ok(out, in, 1), 3);
    char *a = db_rows(old, content), *b = db_rows(out, content);
    assert_string_equal(a, b);
    free(a);
    free(b);
    free(games_before);
    free(games_after);
    free(cells_before);
    free(cells_after);
    free(runs_before);
    free(runs_after);
    db_remove(old);
    db_remove(out);
}

/* An input at another schema version is refused, naming what to do. */
static void test_old_input_refused(void **state)
{
    (void)state;
    char old[64], out[64], err[1024];
    db_temp_path(old, sizeof old);
    db_temp_path(out, sizeof out);
    db_exec_file(old, RULELAB_FIXTURES "/d412ce8.sql");
    const char *in[] = {old};
    assert_int_equal(merge_databases(out, in, 1, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "schema version 3"));
    assert_non_null(strstr(err, "rulelab migrate"));
    db_remove(old);
    db_remove(out);
}

/* merge_tables and `merges` are every table of a new database: a table a
 * later migration adds fails here until merge copies it. */
static void test_merge_copies_every_table(void **state)
{
    (void)state;
    char path[64], err[512];
    db_temp_path(path, sizeof path);
    struct store *st;
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    store_close(st);
    char *tables = db_rows(path, "SELECT name FROM sqlite_master WHERE type ="
                        " 'table' ORDER BY name");
    char want[512] = "";
    const char *names[16];
    int n = 0;
    for (int i = 0; merge_tables[i]; i++)
        names[n++] = merge_tables[i];
    names[n++] = "merges";
    /* sorted by hand ('_' sorts before letters): agents cells claims
     * game_metrics games merges meta move_stats runs sweeps tunings
     * variants */
    static const char *const order[] = {"agents", "cells", "claims",
                                        "game_metrics", "games", "merges",
                                        "meta", "move_stats", "runs",
                                        "sweeps", "tunings", "variants"};
    assert_int_equal(n, 12);
    for (int i = 0; i < 12; i++) {
        int found = 0;
        for (int j = 0; j < n; j++)
            found |= strcmp(names[j], order[i]) == 0;
        assert_true(found);
        strcat(want, order[i]);
        strcat(want, "\n");
    }
    assert_string_equal(tables, want);
    free(tables);
    db_remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shards_merged_equal_one_machine),
        cmocka_unit_test(test_conflicting_game_refused),
        cmocka_unit_test(test_cell_of_other_seed_key_refused),
        cmocka_unit_test(test_two_sweeps_and_other_file_text),
        cmocka_unit_test(test_cell_others_lack_and_empty_shard),
        cmocka_unit_test(test_partial_shard),
        cmocka_unit_test(test_migration_from_schema_3),
        cmocka_unit_test(test_old_input_refused),
        cmocka_unit_test(test_merge_copies_every_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
