/*
 * records_csv.c -- the games of a database as CSV (records.h): one row a
 * game, the columns of the game_view view (results/README.md), quoted as
 * RFC 4180 says, with text that a spreadsheet would run as a formula
 * guarded.
 */
#include "records.h"

#include <string.h>

#include "game.h"
#include "records_internal.h"

/* Whether a spreadsheet would read text as a formula (OWASP's CSV
 * injection advice): it starts with '=', '+', '-', '@', a tab or a
 * carriage return. */
static int formula_like(const char *text)
{
    return text[0] && strchr("=+-@\t\r", text[0]) != NULL;
}

/* Writes column i of row q to out as one CSV field, after a comma unless
 * it is the first (RFC 4180, with LF line ends): NULL an empty field;
 * a number as it is; text always quoted, quotes doubled, and prefixed with
 * a single quote inside the quotes where a spreadsheet would run it as a
 * formula. Returns 0, or -1 for text holding a NUL byte, which CSV cannot
 * carry (nothing written for the field). */
static int csv_column(FILE *out, sqlite3_stmt *q, int i)
{
    if (i)
        fputc(',', out);
    int type = sqlite3_column_type(q, i);
    if (type == SQLITE_NULL)
        return 0;
    const char *text = (const char *)sqlite3_column_text(q, i);
    size_t len = (size_t)sqlite3_column_bytes(q, i);
    if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
        fputs(text, out);
        return 0;
    }
    if (strlen(text) != len)
        return -1;
    fputc('"', out);
    if (formula_like(text))
        fputc('\'', out);
    for (; *text; text++) {
        if (*text == '"')
            fputc('"', out);
        fputc(*text, out);
    }
    fputc('"', out);
    return 0;
}

static const char *const columns[] = {
    "id", "sweep", "sweep_seed", "game", "variant", "agent0_name",
    "agent1_name", "agent0", "agent1", "game_index", "seed", "side0",
    "side1", "result", "winner_seat", "reason", "plies", "duration_ms",
    "finished", "moves", "opening_position", "opening", "pair_id",
    "openings"};
enum { N_COLUMNS = sizeof columns / sizeof columns[0] };

/* records_each_row's row: one CSV line. */
static int csv_row(void *arg, sqlite3_stmt *q, char *err, size_t errsz)
{
    FILE *out = arg;
    for (int i = 0; i < N_COLUMNS; i++)
        if (csv_column(out, q, i) != 0)
            return game_error(err, errsz, "game %lld: its %s holds a NUL "
                              "byte, which CSV cannot carry; mend that row "
                              "(sqlite3) and export again",
                              sqlite3_column_int64(q, 0), columns[i]);
    fputc('\n', out);
    return 0;
}

int records_write_csv(sqlite3 *db, FILE *out, char *err, size_t errsz)
{
    char sql[640] = "SELECT ";
    for (int i = 0; i < N_COLUMNS; i++) {
        fprintf(out, "%s%s", i ? "," : "", columns[i]);
        strcat(sql, columns[i]);
        strcat(sql, i < N_COLUMNS - 1 ? ", " : " FROM game_view ORDER BY id");
    }
    fputc('\n', out);
    return records_each_row(db, sql, csv_row, out, err, errsz);
}
