/*
 * db_helpers.h -- what the suites that read databases (test_store.c,
 * test_harness.c, test_report.c, test_openings.c) share: a fresh path for
 * a database, removing it with its side files, and reading or writing it
 * with the plain SQLite API, apart from the store under test. Each helper
 * fails the test with SQLite's message when a statement is bad.
 * Header-only (static), like agent_helpers.h.
 */
#ifndef RULELAB_DB_HELPERS_H
#define RULELAB_DB_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes to path (n bytes) the name of a file that does not exist, made
 * unique in /tmp by mkstemp so suites running side by side never meet. */
static inline void db_temp_path(char *path, size_t n)
{
    snprintf(path, n, "/tmp/rulelab_test_db_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
}

/* Removes the database at path and every side file the store or SQLite
 * may leave beside it (-wal, -shm, .lock); missing ones are no error. */
static inline void db_remove(const char *path)
{
    static const char *const sides[] = {"", "-wal", "-shm", ".lock"};
    char side[600];
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        snprintf(side, sizeof side, "%s%s", path, sides[i]);
        unlink(side);
    }
}

/* Runs sql (any number of statements) on the database at path, waiting
 * up to 10 s for a writer that holds it. */
static inline void db_exec(const char *path, const char *sql)
{
    sqlite3 *db;
    char *msg = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 10000);
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg);
    sqlite3_close(db);
}

/* Runs the SQL text of the file at sql_path (a fixture made by an older
 * release, say) on the database at path. */
static inline void db_exec_file(const char *path, const char *sql_path)
{
    FILE *f = fopen(sql_path, "rb");
    if (!f)
        fail_msg("cannot open %s", sql_path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *sql = malloc((size_t)n + 1);
    assert_non_null(sql);
    assert_int_equal(fread(sql, 1, (size_t)n, f), (size_t)n);
    sql[n] = '\0';
    fclose(f);
    db_exec(path, sql);
    free(sql);
}

/* The rows of one query on the database at path, opened read-only: one
 * line each, columns joined by '|', NULL written "NULL". The caller frees
 * the text. */
static inline char *db_rows(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    size_t len = 0, cap = 1 << 16;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = '\0';
    while (sqlite3_step(q) == SQLITE_ROW) {
        int n = sqlite3_column_count(q);
        for (int c = 0; c < n; c++) {
            const char *t = (const char *)sqlite3_column_text(q, c);
            size_t need = len + (t ? strlen(t) : 4) + 2;
            if (need >= cap) {
                out = realloc(out, cap = 2 * need);
                assert_non_null(out);
            }
            len += (size_t)sprintf(out + len, "%s%c", t ? t : "NULL",
                                   c == n - 1 ? '\n' : '|');
        }
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    return out;
}

/* The number in the first column of the first row of sql (0 if none). */
static inline long db_count(const char *path, const char *sql)
{
    char *rows = db_rows(path, sql);
    long n = atol(rows);
    free(rows);
    return n;
}

/* Every stored game but its ids and timing columns, one line per game in
 * a fixed order: what two runs of the same sweep must agree on. */
#define DB_GAME_COLUMNS                                                     \
    "SELECT variant, agent0, agent1, game_index, seed, side0, side1, "     \
    "result, winner_seat, reason, plies, moves FROM game_view"

static inline char *db_game_rows(const char *path)
{
    return db_rows(path, DB_GAME_COLUMNS
                   " ORDER BY variant, agent0, agent1, game_index");
}

#endif
