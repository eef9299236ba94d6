/*
 * merge.h -- `rulelab merge`: copies the rows of results databases (the
 * shards of a sweep, or any databases of this schema) into one.
 *
 * Rows are matched by their natural keys, never by the inputs' ids: a
 * sweep by name and seed, a variant and an agent by identity, a cell by
 * its sweep and seed key, a game by its cell and game index, a run by its
 * uid, a claim by its game and question. Merging is idempotent (a row
 * already there adds nothing) and several sweeps may share one database.
 * It refuses a sweep whose name and seed match one in OUT but whose file
 * text differs, a cell whose early stops or behaviour versions disagree,
 * and a game that two databases hold with different content (the columns
 * that a one-machine run and a shard give the same: everything but ids,
 * run, duration and finish time), naming both databases and the game.
 *
 * Each input is read inside one transaction on OUT, through ATTACH in
 * read-only mode: one consistent snapshot of it, even while a `rulelab
 * run` writes it (WAL: a reader neither waits for nor blocks the writer;
 * merge never takes an input's writer lock, only OUT's). An input whose
 * content marker (its tables' row counts and largest ids, its runs' uids,
 * statuses and game counts, its cells' early stops, its cached metrics'
 * engine versions) is the one recorded
 * in OUT's `merges` table at its last merge is skipped at once.
 */
#ifndef RULELAB_MERGE_H
#define RULELAB_MERGE_H

#include <stddef.h>

/* What merging one input did. */
struct merge_input_result {
    long games_added; /* games new to OUT */
    long games_in; /* games the input held */
    int skipped; /* unchanged since its last merge: not read again */
};

/* The tables merge copies, NULL-terminated: every table of the schema
 * (store.h's STORE_SCHEMA_VERSION) but `merges`, which is OUT's own
 * record of its inputs. */
extern const char *const merge_tables[];

/* Merges inputs[0..n-1] into out (created if missing, brought up to the
 * current schema; its writer lock held meanwhile), one input after the
 * other, each in its own transaction: an input that fails leaves OUT as
 * it was before that input, and stops the merge. Before anything is
 * written: every input must exist and be readable and not be OUT (by
 * device and inode), and an existing OUT must pass SQLite's quick_check.
 * A new OUT is built beside its path and renamed into place once an input
 * is merged, so a merge that merges nothing leaves no OUT behind. results[i] (when
 * results is not NULL) gets what input i did. Returns 0, or -1 with a
 * message naming the databases and what conflicts. */
int merge_databases(const char *out, const char *const *inputs, int n,
                    struct merge_input_result *results, char *err,
                    size_t errsz);

#endif
