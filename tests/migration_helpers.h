/*
 * migration_helpers.h -- the check every schema migration gets: a database
 * made by an older release (a dump in tests/fixtures/) migrated by opening
 * it for writing, every row of its tables the same after as before.
 * Include after <cmocka.h>.
 */
#ifndef RULELAB_MIGRATION_HELPERS_H
#define RULELAB_MIGRATION_HELPERS_H

#include <stdio.h>
#include <stdlib.h>

#include "db_helpers.h"
#include "store.h"

/* Loads the dump `fixture` into path, checks it is at schema version
 * `from`, opens it for writing (which migrates it to STORE_SCHEMA_VERSION,
 * checked), and checks that each of the n tables (SELECT *, ordered by its
 * first two columns) holds the same rows as before. At most 16 tables. */
static inline void migrate_keeping_rows(const char *path, const char *fixture,
                                        int from, const char *const *tables,
                                        int n)
{
    char *before[16], sql[128], err[1024];
    assert_true(n <= 16);
    db_exec_file(path, fixture);
    assert_int_equal(db_count(path, "SELECT value FROM meta WHERE key ="
                     " 'schema_version'"), from);
    for (int i = 0; i < n; i++) {
        snprintf(sql, sizeof sql, "SELECT * FROM %s ORDER BY 1, 2", tables[i]);
        before[i] = db_rows(path, sql);
    }
    struct store *st;
    if (store_open(path, 0, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    store_close(st);
    assert_int_equal(db_count(path, "SELECT value FROM meta WHERE key ="
                     " 'schema_version'"), STORE_SCHEMA_VERSION);
    for (int i = 0; i < n; i++) {
        snprintf(sql, sizeof sql, "SELECT * FROM %s ORDER BY 1, 2", tables[i]);
        char *after = db_rows(path, sql);
        assert_string_equal(before[i], after);
        free(after);
        free(before[i]);
    }
}

#endif
