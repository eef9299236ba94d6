/*
 * migration_helpers.h -- the check every schema migration gets: a database
 * made by an older release (a dump in tests/fixtures/) migrated by opening
 * it for writing, every row of its tables the same after as before (in
 * the columns they had).
 * Include after <cmocka.h>.
 */
#ifndef RULELAB_MIGRATION_HELPERS_H
#define RULELAB_MIGRATION_HELPERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_helpers.h"
#include "store.h"

/* The columns table t of the database at path has, as "a, b, c" (to be
 * freed). */
static inline char *migration_columns(const char *path, const char *t)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT group_concat(name, ', ') FROM"
             " pragma_table_info('%s')", t);
    char *cols = db_rows(path, sql);
    cols[strcspn(cols, "\n")] = '\0';
    assert_true(cols[0] != '\0');
    return cols;
}

/* Loads the dump `fixture` into path, checks it is at schema version
 * `from`, opens it for writing (which migrates it to STORE_SCHEMA_VERSION,
 * checked), and checks that each of the n tables (ordered by its first
 * two columns) holds the same rows as before in the columns it had before
 * (a later migration may add columns). At most 16 tables. */
static inline void migrate_keeping_rows(const char *path, const char *fixture,
                                        int from, const char *const *tables,
                                        int n)
{
    char *before[16], *cols[16], sql[1024], err[1024];
    assert_true(n <= 16);
    db_exec_file(path, fixture);
    assert_int_equal(db_count(path, "SELECT value FROM meta WHERE key ="
                     " 'schema_version'"), from);
    for (int i = 0; i < n; i++) {
        cols[i] = migration_columns(path, tables[i]);
        snprintf(sql, sizeof sql, "SELECT %s FROM %s ORDER BY 1, 2", cols[i],
                 tables[i]);
        before[i] = db_rows(path, sql);
    }
    struct store *st;
    if (store_open(path, 0, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    store_close(st);
    assert_int_equal(db_count(path, "SELECT value FROM meta WHERE key ="
                     " 'schema_version'"), STORE_SCHEMA_VERSION);
    for (int i = 0; i < n; i++) {
        snprintf(sql, sizeof sql, "SELECT %s FROM %s ORDER BY 1, 2", cols[i],
                 tables[i]);
        char *after = db_rows(path, sql);
        assert_string_equal(before[i], after);
        free(after);
        free(before[i]);
        free(cols[i]);
    }
}

#endif
