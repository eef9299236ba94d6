/*
 * table.h -- the output primitives that the report, the ratings and the
 * tuning print through, so that every command writes its tables, CSV,
 * Markdown and JSON the same way: a table of text cells printed aligned,
 * as CSV or as Markdown, section titles, and JSON strings, numbers and intervals that are valid JSON
 * whatever bytes or values they are given.
 */
#ifndef RULELAB_TABLE_H
#define RULELAB_TABLE_H

#include <stdio.h>

#include "variant.h"

/* The formats every printing command offers (--format). */
enum report_format { REPORT_TABLE, REPORT_CSV, REPORT_JSON, REPORT_MARKDOWN };

#define TABLE_MAX_COLUMNS 17

/* A table of text cells, each of VARIANT_TEXT_MAX bytes. */
struct table {
    int n_columns, n_rows;
    const char *header[TABLE_MAX_COLUMNS];
    char (*cells)[TABLE_MAX_COLUMNS][VARIANT_TEXT_MAX]; /* n_rows rows */
};

/* A table of n_rows rows under headers (n_columns of them, at most
 * TABLE_MAX_COLUMNS), its cells zeroed; the caller frees t->cells.
 * Returns 0, or -1 if memory could not be had. */
int table_new(struct table *t, const char *const *headers, int n_columns,
              int n_rows);

/* Prints t's header and rows in format f (not REPORT_JSON): aligned
 * columns, CSV (a cell holding a comma, quote or line end quoted, RFC
 * 4180), or a Markdown table (a '|' escaped, a line end as a space). */
void table_print(const struct table *t, enum report_format f, FILE *out);

/* A section's title: "### title" (Markdown), the title (table), or
 * "# csv_name" (CSV). */
void table_section_title(const char *title, const char *csv_name,
                         enum report_format f, FILE *out);

/* A whole section: its title (table_section_title), then t
 * (table_print); frees t->cells and sets it to NULL. */
void table_print_section(struct table *t, const char *title,
                         const char *csv_name, enum report_format f,
                         FILE *out);

/* Writes x in the printf format (a double conversion) into out, a table
 * cell of VARIANT_TEXT_MAX bytes, or "n/a" when x is not finite. */
void table_number_text(char *out, const char *format, double x);

/* Writes text as a JSON string (RFC 8259): quotes, backslashes and control
 * characters escaped, each ill-formed UTF-8 subsequence as U+FFFD, so the
 * output is valid JSON in UTF-8 whatever bytes text holds. */
void json_string(FILE *out, const char *text);

/* Writes one more member of a JSON object, `, "key": ` and text as
 * json_string; key is written as it is (a name of ours, never data). */
void json_key_string(FILE *out, const char *key, const char *text);

/* Writes x as a JSON number in the printf format (a double conversion,
 * e.g. "%.6f"), or null when x is not finite (JSON has no NaN or
 * infinity). */
void json_number(FILE *out, const char *format, double x);

/* Writes [lo, hi] (each as json_number), or null when valid is 0. */
void json_interval(FILE *out, const char *format, int valid, double lo,
                   double hi);

#endif
