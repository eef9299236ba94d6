/*
 * records_internal.h -- what the two writers of records.h share (records.c
 * the game records, records_csv.c the CSV rows), and nothing else
 * includes.
 */
#ifndef RULELAB_RECORDS_INTERNAL_H
#define RULELAB_RECORDS_INTERNAL_H

#include <stddef.h>

#include <sqlite3.h>

/* Runs sql in one read transaction (every row from one snapshot, even
 * while a sweep writes) and hands each row to row(arg, q, err, errsz),
 * whose non-zero return stops it. Returns 0, row's return (its message
 * in err), or -1 with a message. */
int records_each_row(sqlite3 *db, const char *sql,
                     int (*row)(void *arg, sqlite3_stmt *q, char *err,
                                size_t errsz),
                     void *arg, char *err, size_t errsz);

#endif
