/*
 * test_schema7.c -- schema 7: a claim's certificate in its own columns
 * (claims.certificate_sha256, claims.certificate) instead of one text in
 * claims.proof, and runs.deal, the fingerprint of a shard's games
 * (shard_deal_fingerprint). A schema-6 database made by cd0d8e7
 * (tests/fixtures/cd0d8e7.sql: two shards of one sweep and two claims)
 * migrates keeping every row, its certificates moved out of `proof`; a
 * proof text kept in `proof` by the first claims stays where it is; the
 * migrated shard runs have no deal, so resuming them is not refused;
 * merge copies both; and the fingerprint tells deals apart as shard.h
 * says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "db_helpers.h"
#include "merge.h"
#include "migration_helpers.h"
#include "run_helpers.h"
#include "shard.h"
#include "store.h"
#include "sweep.h"

#ifndef RULELAB_FIXTURES
#error "RULELAB_FIXTURES must name tests/fixtures"
#endif

/* The two certificates of tests/fixtures/cd0d8e7.sql, as cd0d8e7's
 * `rulelab claim` wrote them into claims.proof (copied from the dump):
 * "sha256:<hex> certificates/<hex>.disproof". */
#define CERT1 "ae7e9aff60902f83e876528192eba735123c0c7f6b46a356f6d4983a1b558b39"
#define CERT2 "698af263c1f247e4c568c5a9af0271108cf101ad152d4c609fca5f2939216232"

/* Every table but claims keeps every row in the columns it had. */
static void test_migration_keeps_rows(void **state)
{
    (void)state;
    char path[64];
    db_temp_path(path, sizeof path);
    static const char *const tables[] = {"games", "cells", "runs", "sweeps",
                                         "variants", "agents"};
    migrate_keeping_rows(path, RULELAB_FIXTURES "/cd0d8e7.sql", 6, tables, 6);
    /* tests/fixtures/cd0d8e7.ini: 4 games, two shard runs, two claims */
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM games"), 4);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM runs WHERE deal"
                              " IS NULL AND shard_count = 2"), 2);
    assert_int_equal(db_count(path, "SELECT COUNT(*) FROM claims"), 2);
    db_remove(path);
}

/* Certificates move out of `proof`; a proof text stays in it. */
static void test_certificates_move_out(void **state)
{
    (void)state;
    char path[64];
    db_temp_path(path, sizeof path);
    db_exec_file(path, RULELAB_FIXTURES "/cd0d8e7.sql");
    /* a row as the first claims wrote it: a win's proof text in `proof` */
    db_exec(path, "INSERT INTO claims (game_id, ply, variant, position,"
            " question, plies, node_budget, answer, nodes, seconds, pv,"
            " proof, created) VALUES (NULL, 0, 'serbest', 'x', 'king_landing',"
            " 1, 1, 'win', 1, 0.0, 'e1e2', 'rulelab-proof 1\nend\n', 'then')");
    struct store *st;
    char err[1024];
    if (store_open(path, 0, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    store_close(st);
    char *rows = db_rows(path, "SELECT game_id, certificate_sha256,"
                         " certificate, proof FROM claims ORDER BY id");
    assert_string_equal(rows,
                        "1|" CERT1 "|certificates/" CERT1 ".disproof|NULL\n"
                        "2|" CERT2 "|certificates/" CERT2 ".disproof|NULL\n"
                        "NULL|NULL|NULL|rulelab-proof 1\nend\n\n");
    free(rows);
    db_remove(path);
}

/* The migrated shard runs have no deal: the shard resumes, and its run
 * then records its deal; merge copies the deal and the certificates. */
static void test_migrated_shard_resumes(void **state)
{
    (void)state;
    char path[64], err[1024];
    db_temp_path(path, sizeof path);
    db_exec_file(path, RULELAB_FIXTURES "/cd0d8e7.sql");
    struct sweep s;
    if (sweep_load(RULELAB_FIXTURES "/cd0d8e7.ini", &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct shard sh = {.k = 0, .n = 2};
    assert_int_equal(run_play(&s, path, sh), 0); /* all stored already */
    char want[65], sql[160];
    shard_deal_fingerprint(&s, &sh, want);
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM runs WHERE deal = '%s'",
             want);
    assert_int_equal(db_count(path, sql), 1);
    /* merge copies the new columns: the certificates and the deal */
    char out[64];
    db_temp_path(out, sizeof out);
    const char *in[] = {path};
    if (merge_databases(out, in, 1, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(db_count(out, sql), 1);
    const char *certs = "SELECT certificate_sha256, certificate FROM claims"
                        " ORDER BY 1";
    char *a = db_rows(path, certs), *b = db_rows(out, certs);
    assert_string_equal(a, b);
    assert_non_null(strstr(b, CERT1 "|certificates/" CERT1 ".disproof"));
    free(a);
    free(b);
    sweep_free(&s);
    db_remove(path);
    db_remove(out);
}

/* Fingerprints: the same deal gives the same one; another shard, games
 * count, stop rule or plan another. */
static void test_deal_fingerprints(void **state)
{
    (void)state;
    struct sweep s;
    char err[1024], a[65], b[65];
    const char *text = "[sweep]\nname = d\nseed = 1\ngames = 4\n"
                       "[game tafl]\nmax_plies = 10, 20, 30\n[agents]\n"
                       "r = random\n[matchups]\npairs = r vs r\n";
    if (sweep_parse("d.ini", text, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct shard sh = {.k = 0, .n = 2};
    shard_deal_fingerprint(&s, &sh, a);
    assert_int_equal(strlen(a), 64);
    shard_deal_fingerprint(&s, &sh, b);
    assert_string_equal(a, b);
    sh.k = 1;
    shard_deal_fingerprint(&s, &sh, b);
    assert_string_not_equal(a, b);
    sh.k = 0;
    s.games_per_cell = 5;
    shard_deal_fingerprint(&s, &sh, b);
    assert_string_not_equal(a, b);
    s.games_per_cell = 4;
    s.stop = STOP_SPRT; /* whole cells: 0 and 2 for shard 0 */
    shard_deal_fingerprint(&s, &sh, a);
    assert_string_not_equal(a, b);
    const int same[3] = {0, 1, 0}, other[3] = {1, 0, 0};
    sh.plan = same;
    shard_deal_fingerprint(&s, &sh, b);
    assert_string_equal(a, b); /* the round-robin deal, written as a plan */
    sh.plan = other;
    shard_deal_fingerprint(&s, &sh, b);
    assert_string_not_equal(a, b);
    sweep_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_migration_keeps_rows),
        cmocka_unit_test(test_certificates_move_out),
        cmocka_unit_test(test_migrated_shard_resumes),
        cmocka_unit_test(test_deal_fingerprints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
