/*
 * test_report.c -- the report against concurrent writers and early-stopped
 * cells:
 *  - a report reads one snapshot: games committed by another connection
 *    while the report runs (between its statements) change none of its
 *    numbers;
 *  - a cell stopped by SPRT is reported with the sequential test's own
 *    decision, log-likelihood ratio and bounds (computed by hand below),
 *    its fixed-sample interval and p-value are marked not valid and kept
 *    out of the Holm family; a cell stopped by the interval rule is
 *    flagged likewise.
 * The databases are made with the store and filled with plain SQL, so each
 * number asserted is known from the rows written here.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report.h"
#include "stats.h"
#include "store.h"
#include "sweep.h"

struct fixture {
    char dir[64], path[128];
    struct store *writer;
    int64_t ids[4];
    int n_cells;
};

/* A new database in a new temporary folder, with the sweep `text`
 * registered (one cell per sweep cell) through the writer store. */
static void make_db(struct fixture *f, const char *text)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/rulelab_report_XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/r.db", f->dir);
    struct sweep s;
    char err[1024];
    if (sweep_parse("test.ini", text, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    if (store_open(f->path, 0, &f->writer, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(s.n_cells <= 4);
    if (store_begin_run(f->writer, &s, 1, f->ids, err, sizeof err) != 0)
        fail_msg("%s", err);
    f->n_cells = s.n_cells;
    sweep_free(&s);
}

static void drop_db(struct fixture *f)
{
    char side[160];
    store_close(f->writer);
    unlink(f->path);
    snprintf(side, sizeof side, "%s-wal", f->path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", f->path);
    unlink(side);
    rmdir(f->dir);
}

static void exec_sql(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg ? msg : "?");
}

/* Adds game `index` of cell `cell` (committed at once: autocommit). */
static void add_game(sqlite3 *db, int64_t cell, int index, const char *result,
                     const char *reason, int plies)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "INSERT INTO games (cell_id, game_index, seed, side0, side1,"
             " result, winner_seat, reason, plies, duration_ms, finished,"
             " moves) VALUES (%lld, %d, %d, 'white', 'black', '%s', %s, '%s',"
             " %d, 1.0, '2026-01-01T00:00:00Z', 'e2e4')",
             (long long)cell, index, index, result,
             strcmp(result, "seat0") == 0   ? "0"
             : strcmp(result, "seat1") == 0 ? "1"
                                            : "NULL",
             reason, plies);
    exec_sql(db, sql);
}

/* ---- one snapshot per report -------------------------------------------- */

struct intruder {
    sqlite3 *writer;
    int64_t cell;
    int statements, fired;
};

/* Called as each statement of the report starts: the first time a
 * statement after the counting one starts (the median's), another
 * connection commits two more games into the cell. */
static int intrude(unsigned type, void *ctx, void *stmt, void *sql)
{
    (void)type;
    (void)stmt;
    struct intruder *in = ctx;
    if (strstr((const char *)sql, "ROW_NUMBER") && !in->fired) {
        in->fired = 1;
        add_game(in->writer, in->cell, 3, "seat1", "khan", 1);
        add_game(in->writer, in->cell, 4, "seat1", "khan", 2);
    }
    in->statements++;
    return 0;
}

static void test_report_reads_one_snapshot(void **state)
{
    (void)state;
    struct fixture f;
    make_db(&f, "[sweep]\nname = snap\ngames = 10\n[game serbest]\n"
                "[agents]\na = random\nb = mcts(iterations=5)\n"
                "[matchups]\npairs = a vs b\norders = given\n");
    sqlite3 *w = store_db(f.writer);
    /* three games: plies 10, 20, 30 (median 20), all won by checkmate */
    add_game(w, f.ids[0], 0, "seat0", "checkmate", 10);
    add_game(w, f.ids[0], 1, "seat0", "checkmate", 20);
    add_game(w, f.ids[0], 2, "seat0", "checkmate", 30);
    struct store *reader;
    char err[512] = "";
    assert_int_equal(store_open(f.path, 1, &reader, err, sizeof err), 0);
    struct intruder in = {w, f.ids[0], 0, 0};
    sqlite3_trace_v2(store_db(reader), SQLITE_TRACE_STMT, intrude, &in);
    struct report r;
    assert_int_equal(report_build(store_db(reader), NULL, &r, err, sizeof err),
                     0);
    sqlite3_trace_v2(store_db(reader), 0, NULL, NULL);
    /* the intruder did commit its games during the report ... */
    assert_true(in.fired);
    /* ... and the report saw none of them: had the median's statement read
     * a newer snapshot, it would fold the 5 sorted plies 1, 2, 10, 20, 30
     * with the count 3 and give 2, and the reasons would add "khan 2". */
    assert_int_equal(r.n_cells, 1);
    assert_int_equal(r.cells[0].games, 3);
    assert_float_equal(r.cells[0].median_plies, 20, 1e-12);
    assert_string_equal(r.cells[0].reasons, "checkmate 3");
    assert_int_equal(r.variants[0].games, 3);
    assert_string_equal(r.variants[0].reasons, "checkmate 3");
    report_free(&r);
    /* the next report sees all five: median of 1, 2, 10, 20, 30 is 10 */
    assert_int_equal(report_build(store_db(reader), NULL, &r, err, sizeof err),
                     0);
    assert_int_equal(r.cells[0].games, 5);
    assert_float_equal(r.cells[0].median_plies, 10, 1e-12);
    assert_string_equal(r.cells[0].reasons, "checkmate 3, khan 2");
    report_free(&r);
    /* and the reader holds no transaction after a report */
    assert_int_equal(sqlite3_get_autocommit(store_db(reader)), 1);
    store_close(reader);
    drop_db(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_reads_one_snapshot),
    };
    return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
