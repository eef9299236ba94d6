/*
 * records.h -- games as text: PGN-style records that another tool can read
 * and write (docs/play.md, "Games as text"), from a results database and
 * back into one; and the games as CSV rows.
 *
 * A record is tag pairs `[Name "value"]` and then its moves, numbered as
 * in PGN and ending with the result (1-0: seat 0 won, 0-1, 1/2-1/2). Seat
 * 0 is the agents' seat 0, the side to move after the opening. A sweep's
 * file is written once, before its first game, as a record with the tag
 * SweepFile and the file's text in braces; import then registers the same
 * sweep and cells the games were played in, so a report, ratings or a
 * resumed run read the imported games like the original ones.
 */
#ifndef RULELAB_RECORDS_H
#define RULELAB_RECORDS_H

#include <stdio.h>

#include <sqlite3.h>

#include "store.h"

/* Writes every game of db (one read snapshot) to out as records, each
 * sweep's file before its first game. Returns 0, or -1 with a message. */
int records_write(sqlite3 *db, FILE *out, char *err, size_t errsz);

/* Writes the header and one CSV row per game of db (the columns of the
 * game_view view) to out, from one read snapshot (records_csv.c). Returns
 * 0, or -1 with a message in err (a text holding a NUL byte, which CSV
 * cannot carry, names its game). */
int records_write_csv(sqlite3 *db, FILE *out, char *err, size_t errsz);

struct records_summary {
    long games; /* stored by the import */
    long already; /* in the database before (the stored one kept) */
    int sweeps; /* sweeps the games belong to */
};

/* Reads the records in text (len bytes; `name` names it in errors) and
 * checks every one before anything is written: the variant, a sweep and
 * cell for its agents (from the file's SweepFile records, or, for games
 * without one, a sweep made for their variant and agents), every move
 * legal from its opening, and its result, reason and plies those of the
 * game replayed. Then stores the games in st, as runs of their sweeps.
 * Returns 0 with *out filled, or -1 with a message naming the record (its
 * line, sweep, cell and game index) and, for a move, the ply; nothing is
 * stored then. */
int records_import(struct store *st, const char *text, size_t len,
                   const char *name, struct records_summary *out, char *err,
                   size_t errsz);

#endif
