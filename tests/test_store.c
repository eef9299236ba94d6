/*
 * test_store.c -- the results database: the migration chain on a database
 * made by release cbdcb07 (tests/fixtures/cbdcb07.sql, from
 * tests/fixtures/cbdcb07.ini), the versions readers and writers accept,
 * identity keys that survive a new parameter at its default, behaviour
 * versions, and what the store reports back about each game it is given.
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
#include "agent.h"
#include "runner.h"
#include "store.h"
#include "sweep.h"

#ifndef RULELAB_FIXTURES
#error "RULELAB_FIXTURES must name tests/fixtures"
#endif

/* ---- helpers ------------------------------------------------------------ */

/* A database as release cbdcb07 left it, at path. */
static void make_fixture_db(const char *path)
{
    db_exec_file(path, RULELAB_FIXTURES "/cbdcb07.sql");
}

static void load_sweep(const char *path, struct sweep *s)
{
    char err[1024];
    if (sweep_load(path, s, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* Every column that version 1 had, of every table, in a fixed order. */
static const char *const v1_rows =
    "SELECT * FROM sweeps ORDER BY id;"
    "SELECT id, sweep_id, program_version, host, threads, started, ended,"
    " games, status FROM runs ORDER BY id;"
    "SELECT id, game, canonical FROM variants ORDER BY id;"
    "SELECT id, spec FROM agents ORDER BY id;"
    "SELECT id, sweep_id, variant_id, agent0_id, agent1_id, agent0_name,"
    " agent1_name, games_planned, stopped_at FROM cells ORDER BY id;"
    "SELECT id, cell_id, game_index, seed, side0, side1, result, winner_seat,"
    " reason, plies, duration_ms, finished, moves FROM games ORDER BY id;"
    "SELECT * FROM claims ORDER BY id";

/* All of v1_rows' results, concatenated. */
static char *all_v1_rows(const char *path)
{
    char *out = calloc(1, 1);
    const char *sql = v1_rows;
    while (*sql) {
        const char *end = strchr(sql, ';');
        size_t n = end ? (size_t)(end - sql) : strlen(sql);
        char one[512];
        snprintf(one, sizeof one, "%.*s", (int)n, sql);
        char *rows = db_rows(path, one);
        out = realloc(out, strlen(out) + strlen(rows) + 2);
        strcat(out, rows);
        strcat(out, "#");
        free(rows);
        sql += n + (end ? 1 : 0);
    }
    return out;
}

/* rows with the row text `stored` (as "|stored\n") replaced by current;
 * a new string. */
static char *with_row_text(const char *rows, const char *stored,
                           const char *current)
{
    char old_row[VARIANT_TEXT_MAX];
    snprintf(old_row, sizeof old_row, "|%s\n", stored);
    const char *at = strstr(rows, old_row);
    assert_non_null(at);
    size_t head = (size_t)(at - rows) + 1;
    char *out = malloc(strlen(rows) + strlen(current) + 1);
    snprintf(out, strlen(rows) + strlen(current) + 1, "%.*s%s%s", (int)head,
             rows, current, at + strlen(old_row) - 1);
    return out;
}

/* rows with the agent spec text `stored` replaced by the canonical text
 * this program writes for spec; a new string. */
static char *with_current_spec(const char *rows, const char *stored,
                               const char *spec)
{
    struct agent *a;
    char err[512];
    if (agent_create(spec, 1, &a, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
    char *out = with_row_text(rows, stored, a->spec);
    agent_free(a);
    return out;
}

/* rows with the variant text `stored` replaced by the canonical text this
 * program writes for variant; a new string. */
static char *with_current_variant(const char *rows, const char *stored,
                                  const char *variant)
{
    struct variant v;
    char err[512], canonical[VARIANT_TEXT_MAX];
    if (variant_parse(variant, &v, err, sizeof err) != 0)
        fail_msg("%s: %s", variant, err);
    assert_true(variant_canonical(&v, canonical, sizeof canonical) > 0);
    return with_row_text(rows, stored, canonical);
}

/* ---- the migration chain ------------------------------------------------ */

/* The fixture migrates to the current version with every row unchanged,
 * and resuming its sweep plays nothing: no new cell, no new game, and the
 * seeds cbdcb07 stored are the seeds this program derives. */
static void test_fixture_migrates_and_resumes(void **state)
{
    (void)state;
    char path[64], err[1024];
    db_temp_path(path, sizeof path);
    make_fixture_db(path);
    assert_int_equal(db_count(path, "SELECT value FROM meta"), 1);
    char *before = all_v1_rows(path);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM games"), 6);

    struct store *st;
    if (store_open(path, 0, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    store_close(st);
    assert_int_equal(db_count(path, "SELECT value FROM meta WHERE key = "
                               "'schema_version'"), STORE_SCHEMA_VERSION);
    char *after = all_v1_rows(path);
    assert_string_equal(before, after);

    struct sweep s;
    load_sweep(RULELAB_FIXTURES "/cbdcb07.ini", &s);
    assert_int_equal(s.n_cells, 2);
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    struct run_options o = {1, 1, 2.0, 500, {0, 0, NULL}};
    struct run_result r;
    if (runner_run(&s, st, &o, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(r.total, 0);
    assert_int_equal(r.played, 0);
    /* the cells found are the fixture's two, in the sweep's order */
    int64_t ids[2];
    assert_int_equal(store_begin_run(st, &s, 1, ids, err, sizeof err), 0);
    assert_int_equal(ids[0], 1);
    assert_int_equal(ids[1], 2);
    store_close(st);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM cells"), 2);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM games"), 6);
    char *again = all_v1_rows(path);
    /* only the runs table grew: two more runs, with 0 games */
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM runs"), 3);
    assert_int_equal(db_count(path, "SELECT SUM(games) FROM runs WHERE "
                               "id > 1"), 0);
    /* ... and every other row is as cbdcb07 wrote it, but for the spec
     * text of mcts and the variant text of tafl: the store keeps the
     * canonical text of the last rulelab to run an agent or a variant
     * (results/README.md), which lists the parameters mcts and tafl have
     * gained since (at version 2: their identities are unchanged) */
    char *runs_before = strstr(before, "#"), *runs_again = strstr(again, "#");
    char *rest_before = strstr(runs_before + 1, "#");
    char *rest_again = strstr(runs_again + 1, "#");
    char *agents_now = with_current_spec(rest_before, "mcts(c=1.4,decisive=1,"
        "iterations=10,max_mb=64,max_nodes=0,ms=0,playout=random,"
        "playout_cap=0,reuse=1,solver=1)", "mcts(iterations=10)");
    char *expected = with_current_variant(agents_now, "tafl(edge_captures_"
        "king=1,escape=corner,first=attackers,king_armed=0,king_capture="
        "surround,max_plies=60,no_capture_limit=50,repetition_limit=3,"
        "throne_hostile=0,throne_passable=1)", "tafl(max_plies=60)");
    assert_string_equal(expected, rest_again);
    free(agents_now);
    free(expected);
    /* every stored seed is what this program derives for that game */
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 3; i++) {
            char sql[160];
            snprintf(sql, sizeof sql, "SELECT seed FROM games WHERE "
                     "cell_id = %d AND game_index = %d", c + 1, i);
            char *rows = db_rows(path, sql);
            assert_int_equal(strtoll(rows, NULL, 10),
                             (int64_t)sweep_game_seed(&s, &s.cells[c], i));
            free(rows);
        }
    sweep_free(&s);
    free(before);
    free(after);
    free(again);
    db_remove(path);
}

/* A new database and a migrated one have the same schema, text for text. */
static void test_new_schema_equals_migrated(void **state)
{
    (void)state;
    char old[64], fresh[64], err[512];
    db_temp_path(old, sizeof old);
    db_temp_path(fresh, sizeof fresh);
    make_fixture_db(old);
    struct store *st;
    assert_int_equal(store_open(old, 0, &st, err, sizeof err), 0);
    store_close(st);
    assert_int_equal(store_open(fresh, 0, &st, err, sizeof err), 0);
    store_close(st);
    const char *sql = "SELECT type, name, tbl_name, sql FROM sqlite_master "
                      "ORDER BY type, name";
    char *a = db_rows(old, sql), *b = db_rows(fresh, sql);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "seed_key"));
    free(a);
    free(b);
    db_remove(old);
    db_remove(fresh);
}

/* Readers take exactly this version; writers migrate older ones and refuse
 * newer ones; each message names the versions and what to do. */
static void test_versions_readers_and_writers_accept(void **state)
{
    (void)state;
    char path[64], err[1024];
    struct store *st;
    db_temp_path(path, sizeof path);
    make_fixture_db(path);
    assert_int_equal(store_open(path, 1, &st, err, sizeof err), -1);
    assert_null(st);
    assert_non_null(strstr(err, "schema version 1, older than this "
                                "rulelab's 7"));
    assert_non_null(strstr(err, "rulelab migrate"));
    assert_int_equal(db_count(path, "SELECT value FROM meta"), 1);

    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    store_close(st);
    assert_int_equal(store_open(path, 1, &st, err, sizeof err), 0);
    store_close(st);

    db_exec(path, "UPDATE meta SET value = '99' WHERE key = "
             "'schema_version'");
    for (int readonly = 0; readonly < 2; readonly++) {
        assert_int_equal(store_open(path, readonly, &st, err, sizeof err), -1);
        assert_non_null(strstr(err, "schema version 99, newer than this "
                                    "rulelab knows (1 to 7)"));
    }
    db_exec(path, "UPDATE meta SET value = 'two' WHERE key = "
             "'schema_version'");
    assert_int_equal(store_open(path, 1, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a rulelab database"));
    db_remove(path);

    /* another program's database, and no database at all */
    db_temp_path(path, sizeof path);
    db_exec(path, "CREATE TABLE t (x)");
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a rulelab database"));
    db_remove(path);
    FILE *f = fopen(path, "w");
    fputs("this is not SQLite, but long enough to have a header page ....."
          "...............................................................",
          f);
    fclose(f);
    assert_int_equal(store_open(path, 1, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, path));
    db_remove(path);
    assert_int_equal(store_open("", 0, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, "no database path"));
}

/* A migration that fails part-way changes nothing: it is one transaction
 * with its version bump. (A column the migration to version 2 adds is
 * already there, so its fourth statement fails after three succeeded.) */
static void test_failed_migration_changes_nothing(void **state)
{
    (void)state;
    char path[64], err[1024];
    struct store *st;
    db_temp_path(path, sizeof path);
    make_fixture_db(path);
    db_exec(path, "ALTER TABLE agents ADD COLUMN identity TEXT");
    const char *schema = "SELECT sql FROM sqlite_master ORDER BY name";
    char *before = db_rows(path, schema), *rows = all_v1_rows(path);
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, "duplicate column name: identity"));
    char *after = db_rows(path, schema), *rows_after = all_v1_rows(path);
    assert_string_equal(before, after);
    assert_string_equal(rows, rows_after);
    assert_int_equal(db_count(path, "SELECT value FROM meta"), 1);
    free(before);
    free(after);
    free(rows);
    free(rows_after);
    db_remove(path);
}


/* ---- identity ----------------------------------------------------------- */

/* tafl with one more parameter, added at identity version 2 with a default
 * that keeps the old behaviour. */
static struct param_spec fake_params[VARIANT_MAX_PARAMS];
static struct game fake_tafl;

static const struct game *make_fake_tafl(void)
{
    const struct game *tafl = game_find("tafl");
    fake_tafl = *tafl;
    memcpy(fake_params, tafl->params, sizeof *fake_params * (size_t)tafl->n_params);
    fake_params[tafl->n_params] = (struct param_spec){
        "fake", PARAM_INT, 0, 0, 5, NULL, "a parameter added later", 2};
    fake_tafl.params = fake_params;
    fake_tafl.n_params = tafl->n_params + 1;
    return &fake_tafl;
}

/* Puts cell c of s on the fake game, with the fake parameter at value. */
static void use_fake(struct sweep *s, struct sweep_cell *c, int value)
{
    char err[512];
    c->variant.game = make_fake_tafl();
    c->variant.values[fake_tafl.n_params - 1] = value;
    variant_canonical(&c->variant, c->variant_text, sizeof c->variant_text);
    assert_int_equal(sweep_cell_seed_key(s, c, err, sizeof err), 0);
}

/* The seeds release cbdcb07 stored for cell 1 (tests/fixtures/cbdcb07.sql:
 * games 1 to 3). */
static const int64_t fixture_seeds[3] = {2297731752410430368LL,
                                         -5459667193177177347LL,
                                         7609759159429474072LL};

static void test_new_parameter_at_default_keeps_identity(void **state)
{
    (void)state;
    struct sweep s;
    load_sweep(RULELAB_FIXTURES "/cbdcb07.ini", &s);
    struct sweep_cell *c = &s.cells[0];
    char before[SWEEP_SEED_KEY_MAX];
    strcpy(before, c->seed_key);
    /* the fixture's key: the canonical texts cbdcb07 keyed its cells by */
    assert_string_equal(before,
        "tafl(edge_captures_king=1,escape=corner,first=attackers,"
        "king_armed=0,king_capture=surround,max_plies=60,"
        "no_capture_limit=50,repetition_limit=3,throne_hostile=0,"
        "throne_passable=1)\nrandom\nmcts(c=1.4,decisive=1,iterations=10,"
        "max_mb=64,max_nodes=0,ms=0,playout=random,playout_cap=0,reuse=1,"
        "solver=1)");
    for (int i = 0; i < 3; i++)
        assert_int_equal((int64_t)sweep_game_seed(&s, c, i), fixture_seeds[i]);

    use_fake(&s, c, 0);
    assert_non_null(strstr(c->variant_text, "fake=0"));
    assert_string_equal(c->seed_key, before);
    for (int i = 0; i < 3; i++)
        assert_int_equal((int64_t)sweep_game_seed(&s, c, i), fixture_seeds[i]);

    use_fake(&s, c, 3);
    assert_string_not_equal(c->seed_key, before);
    assert_non_null(strstr(c->seed_key, ",fake=3,first=attackers,"));
    for (int i = 0; i < 3; i++)
        assert_int_not_equal((int64_t)sweep_game_seed(&s, c, i),
                             fixture_seeds[i]);
    sweep_free(&s);

    /* the same for agents: mcts with a parameter added at version 2 */
    const struct agent_kind *mcts = agent_kind_of("mcts");
    struct param_spec params[VARIANT_MAX_PARAMS];
    double values[VARIANT_MAX_PARAMS];
    memcpy(params, mcts->params, sizeof *params * (size_t)mcts->n_params);
    params[mcts->n_params] = (struct param_spec){
        "zeta", PARAM_REAL, 0.5, 0, 1, NULL, "added later", 2};
    for (int i = 0; i <= mcts->n_params; i++)
        values[i] = params[i].def;
    char id[VARIANT_TEXT_MAX], old_id[VARIANT_TEXT_MAX], err[256];
    assert_true(agent_identity("mcts", old_id, sizeof old_id, err,
                               sizeof err) > 0);
    spec_identity("mcts", params, mcts->n_params + 1, values, NULL, id,
                  sizeof id);
    assert_string_equal(id, old_id);
    values[mcts->n_params] = 0.25;
    spec_identity("mcts", params, mcts->n_params + 1, values, NULL, id,
                  sizeof id);
    assert_non_null(strstr(id, ",zeta=0.25)"));
    /* a kind without parameters stays its bare name, as cbdcb07 wrote it */
    assert_int_equal(agent_identity("random()", id, sizeof id, err,
                                    sizeof err), 6);
    assert_string_equal(id, "random");
}

/* The store finds the fixture's cells by identity: a sweep whose variant
 * has gained a parameter at its default resumes them (no new cell, no
 * game to play) and the variant's text is brought up to date; one that
 * sets the parameter gets cells of its own. */
static void test_cells_are_found_by_identity(void **state)
{
    (void)state;
    char path[64], err[1024];
    db_temp_path(path, sizeof path);
    make_fixture_db(path);
    struct sweep s;
    load_sweep(RULELAB_FIXTURES "/cbdcb07.ini", &s);
    for (int i = 0; i < s.n_cells; i++)
        use_fake(&s, &s.cells[i], 0);
    struct store *st;
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    struct run_options o = {1, 1, 2.0, 500, {0, 0, NULL}};
    struct run_result r;
    if (runner_run(&s, st, &o, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(r.total, 0);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM cells"), 2);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM variants WHERE "
                               "canonical LIKE '%fake=0%'"), 1);
    for (int i = 0; i < s.n_cells; i++)
        use_fake(&s, &s.cells[i], 2);
    if (runner_run(&s, st, &o, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(r.total, 6);
    assert_int_equal(r.played, 6);
    store_close(st);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM cells"), 4);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM games"), 12);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM cells WHERE "
                               "seed_key LIKE '%fake=2%'"), 2);
    sweep_free(&s);
    db_remove(path);
}

/* ---- behaviour versions ------------------------------------------------- */

/* Every parameter says since when it exists, and every engine and agent
 * kind its behaviour version (a 0 would be a table that forgot it). */
static void test_versions_are_declared(void **state)
{
    (void)state;
    for (int i = 0; game_list[i]; i++) {
        assert_true(game_list[i]->behaviour_version >= 1);
        for (int k = 0; k < game_list[i]->n_params; k++)
            assert_true(game_list[i]->params[k].since >= 1);
    }
    for (int i = 0; agent_kinds[i]; i++) {
        assert_true(agent_kinds[i]->behaviour_version >= 1);
        for (int k = 0; k < agent_kinds[i]->n_params; k++)
            assert_true(agent_kinds[i]->params[k].since >= 1);
    }
}

static void test_changed_behaviour_is_refused(void **state)
{
    (void)state;
    char path[64], err[2048];
    db_temp_path(path, sizeof path);
    make_fixture_db(path);
    struct sweep s;
    load_sweep(RULELAB_FIXTURES "/cbdcb07.ini", &s);
    struct store *st;
    int64_t ids[2];
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    /* The fixture's games were played by mcts at behaviour version 1, this
     * program's is 2 (agents/mcts.c; ab's, agents/ab.c, is 5; ext's,
     * agents/ext.c, 1); its cells
     * have nothing left to play, so there is nothing to mix, and the run
     * starts. This program's versions are recorded with the run. */
    assert_int_equal(store_begin_run(st, &s, 1, ids, err, sizeof err), 0);
    char *b = db_rows(path, "SELECT behaviour FROM runs ORDER BY id DESC "
                       "LIMIT 1");
    assert_string_equal(b, "serbest=1 jetan=1 tafl=1 random=1 mcts=2 ab=5 "
                           "ext=1\n");
    free(b);
    /* One more game per cell: now each cell is still to be played. */
    s.games_per_cell = 4;
    assert_int_equal(store_begin_run(st, &s, 1, ids, err, sizeof err), -1);
    assert_non_null(strstr(err, "the agent mcts (behaviour version 1 stored, "
                                "2 here)"));
    /* From here on, as if the fixture had been played by this mcts. */
    db_exec(path, "UPDATE cells SET agent0_behaviour = 2 WHERE id = 2");
    db_exec(path, "UPDATE cells SET agent1_behaviour = 2 WHERE id = 1");

    /* a tafl engine at behaviour version 2 meets the fixture's games */
    struct game bumped = *game_find("tafl");
    bumped.behaviour_version = 2;
    s.cells[1].variant.game = &bumped;
    assert_int_equal(store_begin_run(st, &s, 1, ids, err, sizeof err), -1);
    assert_non_null(strstr(err, "its 3 games were played by another version "
                                "of the game engine tafl (behaviour version 1"
                                " stored, 2 here)"));
    assert_non_null(strstr(err, "give the sweep a new seed or name"));
    /* refused before anything was written */
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM runs"), 2);

    /* an agent kind changed since (as if mcts had been 3 then) */
    s.cells[1].variant.game = game_find("tafl");
    db_exec(path, "UPDATE cells SET agent0_behaviour = 3 WHERE id = 2");
    assert_int_equal(store_begin_run(st, &s, 1, ids, err, sizeof err), -1);
    assert_non_null(strstr(err, "the agent mcts (behaviour version 3 stored, "
                                "2 here)"));
    assert_null(strstr(err, "game engine"));

    /* a cell without games takes this program's versions */
    db_exec(path, "DELETE FROM games WHERE cell_id = 2");
    assert_int_equal(store_begin_run(st, &s, 1, ids, err, sizeof err), 0);
    assert_int_equal(db_count(path, "SELECT agent0_behaviour FROM cells "
                               "WHERE id = 2"), 2);
    store_close(st);
    sweep_free(&s);
    db_remove(path);
}

/* ---- storing games ------------------------------------------------------ */

/* A new database with the fixture's sweep registered; ids of its cells. */
static struct store *open_with_run(const char *path, struct sweep *s,
                                   int64_t *ids)
{
    char err[1024];
    struct store *st;
    load_sweep(RULELAB_FIXTURES "/cbdcb07.ini", s);
    if (store_open(path, 0, &st, err, sizeof err) != 0
        || store_begin_run(st, s, 1, ids, err, sizeof err) != 0)
        fail_msg("%s", err);
    return st;
}

/* store_insert_game says whether it stored the game; only a game already
 * there is passed over, and every row the schema rejects is an error. */
static void test_insert_says_what_it_stored(void **state)
{
    (void)state;
    char path[64], err[512];
    struct sweep s;
    int64_t ids[2];
    db_temp_path(path, sizeof path);
    struct store *st = open_with_run(path, &s, ids);
    struct game_record g = {ids[0], 0, 42, {"attackers", "defenders"},
                            GAME_WIN_SEAT1, REASON_KING_ESCAPED, 17, 1.0,
                            "a1a2", 4, NULL};
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), 0);
    g.plies = 99;
    assert_int_equal(store_insert_game(st, &g, err, sizeof err),
                     STORE_GAME_ALREADY);
    g.game_index = 1;
    g.side[0] = NULL;
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "storing game 1 of cell"));
    assert_non_null(strstr(err, "NOT NULL constraint failed: games.side0"));
    g.side[0] = "attackers";
    g.outcome = GAME_ONGOING;
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "it has not ended"));
    g.outcome = GAME_DRAW;
    g.cell_id = 999;
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "FOREIGN KEY constraint failed"));
    /* the transaction goes on after a rejected row */
    g.cell_id = ids[1];
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), 0);
    assert_int_equal(store_commit(st, err, sizeof err), 0);
    assert_int_equal(store_games_committed(st), 2);
    store_close(st);
    char *rows = db_rows(path, "SELECT cell_id, game_index, plies, result,"
                          " winner_seat FROM games ORDER BY id");
    /* game 0 of cell 1 as first stored (17 plies), then game 1 of cell 2 */
    assert_string_equal(rows, "1|0|17|seat1|1\n2|1|99|draw|NULL\n");
    free(rows);
    sweep_free(&s);
    db_remove(path);
}

/* Each commit is fsynced: synchronous=FULL (2) on the writer's connection,
 * which the durability promise in results/README.md rests on. */
static void test_commits_are_synced(void **state)
{
    (void)state;
    char path[64], err[256];
    struct store *st;
    db_temp_path(path, sizeof path);
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(store_db(st), "PRAGMA synchronous",
                                        -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 2);
    sqlite3_finalize(q);
    assert_int_equal(sqlite3_prepare_v2(store_db(st), "PRAGMA journal_mode",
                                        -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal(sqlite3_column_text(q, 0), "wal");
    sqlite3_finalize(q);
    store_close(st);
    db_remove(path);
}

/* Two cells of a sweep that are one database cell (the same identities in
 * the same seats) are refused before anything is written: their games
 * would be played twice and one of each pair dropped. */
static void test_aliasing_cells_are_refused(void **state)
{
    (void)state;
    char path[64], err[1024];
    struct sweep s;
    struct store *st;
    int64_t ids[2];
    db_temp_path(path, sizeof path);
    load_sweep(RULELAB_FIXTURES "/cbdcb07.ini", &s);
    s.cells[1] = s.cells[0];
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    assert_int_equal(store_begin_run(st, &s, 1, ids, err, sizeof err), -1);
    assert_non_null(strstr(err, "cells 1 and 2 are the same cell"));
    store_close(st);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM cells"), 0);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM runs"), 0);
    sweep_free(&s);
    db_remove(path);
}

/* A value the store cannot bind (a text longer than the connection allows:
 * SQLITE_LIMIT_LENGTH) is an error with SQLite's message, never a NULL
 * stored in its place: registering a run is rolled back whole (the sweep
 * row it had written included), a game is refused, and the store goes on
 * once the value fits. */
static void test_unbindable_values_are_errors(void **state)
{
    (void)state;
    char path[64], err[1024], moves[300];
    struct sweep s;
    struct store *st;
    int64_t ids[2];
    db_temp_path(path, sizeof path);
    load_sweep(RULELAB_FIXTURES "/cbdcb07.ini", &s);
    assert_int_equal(store_open(path, 0, &st, err, sizeof err), 0);
    sqlite3 *db = store_db(st);
    /* the sweep's texts fit, its variant's canonical text does not */
    char *file_text = s.file_text;
    s.file_text = "[sweep]";
    assert_true(strlen(s.cells[0].variant_text) > 100);
    int old = sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 100);
    assert_int_equal(store_begin_run(st, &s, 1, ids, err, sizeof err), -1);
    assert_non_null(strstr(err, "registering a variant or agent: string or "
                                "blob too big"));
    assert_int_equal(sqlite3_get_autocommit(db), 1);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM sweeps"), 0);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM runs"), 0);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, old);
    s.file_text = file_text;
    assert_int_equal(store_begin_run(st, &s, 1, ids, err, sizeof err), 0);

    memset(moves, 'a', sizeof moves - 1);
    moves[sizeof moves - 1] = '\0';
    struct game_record g = {ids[0], 0, 1, {"attackers", "defenders"},
                            GAME_DRAW, REASON_PLY_CAP, 60, 1.0, moves,
                            sizeof moves - 1, NULL};
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 200);
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "storing game 0 of cell 1: string or blob "
                                "too big"));
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, old);
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), 0);
    assert_int_equal(store_end_run(st, "complete"), 0);
    store_close(st);
    assert_int_equal(db_count(path, "SELECT LENGTH(moves) FROM games"),
                     (long)sizeof moves - 1);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM sweeps"), 1);
    sweep_free(&s);
    db_remove(path);
}

/* ---- one writer at a time ----------------------------------------------- */

/* A second writer is refused while the first holds the lock, naming it;
 * readers are not blocked; once the first is gone (here: closed without
 * ending its run, as a killed process leaves it), the next writer marks
 * its run killed, with the games it committed. */
static void test_one_writer_at_a_time(void **state)
{
    (void)state;
    char path[64], err[1024], expect[64];
    struct sweep s;
    int64_t ids[2], ids2[2];
    db_temp_path(path, sizeof path);
    struct store *first = open_with_run(path, &s, ids), *second, *reader;
    struct game_record g = {ids[0], 0, 1, {"attackers", "defenders"},
                            GAME_DRAW, REASON_PLY_CAP, 60, 1.0, "a1a2", 4, NULL};
    assert_int_equal(store_insert_game(first, &g, err, sizeof err), 0);
    g.game_index = 1;
    assert_int_equal(store_insert_game(first, &g, err, sizeof err), 0);
    assert_int_equal(store_commit(first, err, sizeof err), 0);
    g.game_index = 2;
    assert_int_equal(store_insert_game(first, &g, err, sizeof err), 0);
    /* the first holds the lock and an open write transaction */
    assert_int_equal(store_open(path, 0, &second, err, sizeof err), 0);
    assert_int_equal(store_begin_run(second, &s, 1, ids2, err, sizeof err), -1);
    snprintf(expect, sizeof expect, "(pid %ld on host ", (long)getpid());
    assert_non_null(strstr(err, "is being written by another rulelab command"));
    assert_non_null(strstr(err, expect));
    assert_int_equal(store_open(path, 1, &reader, err, sizeof err), 0);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(store_db(reader), "SELECT COUNT(*) "
                                        "FROM games", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 2);
    sqlite3_finalize(q);
    store_close(reader);
    /* the first goes without ending its run (store_close commits game 2) */
    store_close(first);
    assert_int_equal(store_begin_run(second, &s, 1, ids2, err, sizeof err), 0);
    char *runs = db_rows(path,
                         "SELECT id, games, status FROM runs ORDER BY id");
    assert_string_equal(runs, "1|3|killed\n2|0|running\n");
    free(runs);
    assert_int_equal(store_end_run(second, "complete"), 0);
    store_close(second);
    sweep_free(&s);
    db_remove(path);
}

/* runs.games counts the games committed: a batch whose COMMIT fails (here
 * a foreign key checked at COMMIT; on a full disk, the log's write) is
 * rolled back and not counted. */
static void test_games_count_only_when_committed(void **state)
{
    (void)state;
    char path[64], err[512];
    struct sweep s;
    int64_t ids[2];
    db_temp_path(path, sizeof path);
    struct store *st = open_with_run(path, &s, ids);
    struct game_record g = {ids[0], 0, 1, {"attackers", "defenders"},
                            GAME_DRAW, REASON_PLY_CAP, 60, 1.0, "a1a2", 4, NULL};
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), 0);
    assert_int_equal(store_commit(st, err, sizeof err), 0);
    assert_int_equal(sqlite3_exec(store_db(st), "PRAGMA defer_foreign_keys"
                                  " = ON", NULL, NULL, NULL), SQLITE_OK);
    g.game_index = 1;
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), 0);
    g.cell_id = 999;
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), 0);
    assert_int_equal(store_commit(st, err, sizeof err), -1);
    assert_non_null(strstr(err, "FOREIGN KEY constraint failed"));
    assert_int_equal(store_games_committed(st), 1);
    /* the store goes on: the next batch commits and is counted */
    g.cell_id = ids[1];
    assert_int_equal(store_insert_game(st, &g, err, sizeof err), 0);
    assert_int_equal(store_end_run(st, "complete"), 0);
    assert_int_equal(store_games_committed(st), 2);
    store_close(st);
    char *rows = db_rows(path, "SELECT (SELECT COUNT(*) FROM games), games,"
                          " status FROM runs");
    assert_string_equal(rows, "2|2|complete\n");
    free(rows);
    sweep_free(&s);
    db_remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_migrates_and_resumes),
        cmocka_unit_test(test_new_schema_equals_migrated),
        cmocka_unit_test(test_versions_readers_and_writers_accept),
        cmocka_unit_test(test_failed_migration_changes_nothing),
        cmocka_unit_test(test_new_parameter_at_default_keeps_identity),
        cmocka_unit_test(test_cells_are_found_by_identity),
        cmocka_unit_test(test_versions_are_declared),
        cmocka_unit_test(test_changed_behaviour_is_refused),
        cmocka_unit_test(test_insert_says_what_it_stored),
        cmocka_unit_test(test_commits_are_synced),
        cmocka_unit_test(test_aliasing_cells_are_refused),
        cmocka_unit_test(test_unbindable_values_are_errors),
        cmocka_unit_test(test_one_writer_at_a_time),
        cmocka_unit_test(test_games_count_only_when_committed),
    };
    return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
