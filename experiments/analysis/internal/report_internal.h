/*
 * report_internal.h -- what the parts of the report share, and nothing
 * else includes: report.c (the cells, variants, pairs and claims, and
 * report_print), report_pairs.c (the agent pairs), report_compare.c
 * (variants compared: adjacent values and trends), report_metrics.c (the
 * game metrics per cell), report_skill.c (the skill trace) and
 * report_tunings.c (the saved fitted weights). The public contract is
 * report.h; the table and JSON primitives are table.h.
 */
#ifndef RULELAB_REPORT_INTERNAL_H
#define RULELAB_REPORT_INTERNAL_H

#include <stdio.h>

#include <sqlite3.h>

#include "report.h"

/* Fills r->pairs from r->cells and their game pairs (report.h defines
 * them). Returns 0, or -1 with a message. */
int report_build_pairs(sqlite3 *db, struct report *r, char *err,
                       size_t errsz);

/* The agent pairs table (f not REPORT_JSON), and the JSON member
 * ",\n  \"pairs\": [...]". */
void report_print_pairs(const struct report *r, enum report_format f,
                        FILE *out);
void report_json_pairs(const struct report *r, FILE *out);

/* The forfeits table (f not REPORT_JSON; nothing when no cell has a
 * forfeit). */
void report_print_forfeits(const struct report *r, enum report_format f,
                           FILE *out);

/* Seat 0's score in cell c over the games not forfeited (NAN if none). */
double report_score_without_forfeits(const struct report_row *c);

/* Fills r->compares and r->trends from r->cells (report.h defines what
 * is compared). Returns 0, or -1 if memory could not be had. */
int report_build_compared(struct report *r);

/* The comparison and trend tables (f not REPORT_JSON), and both as the
 * JSON members ",\n  \"compared\": [...],\n  \"trends\": [...]". */
void report_print_compared(const struct report *r, enum report_format f,
                           FILE *out);
void report_print_trends(const struct report *r, enum report_format f,
                         FILE *out);
void report_json_compared(const struct report *r, FILE *out);

/* Prepares sql, whose ?1 is the sweep reported on (NULL: every sweep).
 * Returns 0 with *q ready to step, or -1 with a message and *q NULL. */
int report_prepare_for_sweep(sqlite3 *db, const char *sql, const char *sweep,
                             sqlite3_stmt **q, char *err, size_t errsz);

/* Fills the cells' branching factor and lead metrics (report.h) from
 * game_metrics and move_stats, for the cells of sweep `sweep` (NULL: all).
 * Returns 0, or -1 with a message. */
int report_read_play_metrics(sqlite3 *db, const char *sweep,
                             struct report *r, char *err, size_t errsz);

/* Fills r->tunings: the latest saved tuning of each of r->variants.
 * Returns 0, or -1 with a message. */
int report_read_tunings(sqlite3 *db, struct report *r, char *err,
                        size_t errsz);

/* The fitted weights table (f not REPORT_JSON; nothing when none), and
 * the JSON member ",\n  \"tunings\": [...]". */
void report_print_tunings(const struct report *r, enum report_format f,
                          FILE *out);
void report_json_tunings(const struct report *r, FILE *out);

/* The game metrics table (f not REPORT_JSON), and the JSON member
 * ",\n  \"metrics\": [...]". */
void report_print_metrics(const struct report *r, enum report_format f,
                          FILE *out);
void report_json_metrics(const struct report *r, FILE *out);

/* The skill trace's two tables (f not REPORT_JSON), its JSON member
 * ",\n  \"skill_trace\": {...}", and freeing it (report_free does). */
void report_print_skill(const struct report *r, enum report_format f,
                        FILE *out);
void report_json_skill(const struct report *r, FILE *out);
void report_free_skill(struct report *r);

#endif
