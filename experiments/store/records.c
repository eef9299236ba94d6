/*
 * records.c -- writing the games of a database as PGN-style records
 * (records.h); reading them back is records_import.c.
 *
 * The writer reads one snapshot (a read transaction) and writes the games
 * sweep by sweep, cell by cell, in index order, each sweep's file first.
 * Every text is the stored one: a record holds what the database holds,
 * nothing recomputed.
 */
#include "records.h"

#include <stdint.h>
#include <string.h>

#include "records_internal.h"

/* Writes value as a tag's quoted text: `"` and `\` escaped. */
static void tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\')
            fputc('\\', out);
        fputc(*c, out);
    }
    fputs("\"]\n", out);
}

static void tag_number(FILE *out, const char *name, long long value)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", value);
    tag(out, name, text);
}

/* The PGN result token of a stored result. */
static const char *result_token(const char *result)
{
    return strcmp(result, "seat0") == 0   ? "1-0"
           : strcmp(result, "seat1") == 0 ? "0-1"
                                          : "1/2-1/2";
}

/* Writes a sweep's file as a record of its own. */
static void write_sweep(FILE *out, const char *name, long long seed,
                        const char *text)
{
    tag(out, "SweepFile", name);
    tag_number(out, "SweepSeed", seed);
    fputs("{\n", out);
    for (const char *c = text; *c; c++) {
        if (*c == '}' || *c == '\\')
            fputc('\\', out);
        fputc(*c, out);
    }
    fputs("}\n\n", out);
}

/* Writes the moves numbered as PGN does, lines under 80 columns, and the
 * result token. */
static void write_moves(FILE *out, const char *moves, const char *token)
{
    int column = 0, ply = 0;
    const char *p = moves;
    while (*p) {
        size_t len = strcspn(p, " ");
        char number[16] = "";
        if (ply % 2 == 0)
            snprintf(number, sizeof number, "%d. ", ply / 2 + 1);
        size_t width = strlen(number) + len + 1;
        if (column && column + width > 79) {
            fputc('\n', out);
            column = 0;
        }
        column += fprintf(out, "%s%.*s ", number, (int)len, p);
        ply++;
        p += len;
        while (*p == ' ')
            p++;
    }
    if (column + strlen(token) > 79)
        fputc('\n', out);
    fprintf(out, "%s\n\n", token);
}

enum {
    C_SWEEP_ID, C_SWEEP, C_SWEEP_SEED, C_FILE, C_VARIANT, C_NAME0, C_NAME1,
    C_SPEC0, C_SPEC1, C_INDEX, C_SEED, C_POSITION, C_OPENING, C_SIDE0,
    C_SIDE1, C_RESULT, C_REASON, C_PLIES, C_DURATION, C_MOVES, C_GB, C_AB0,
    C_AB1
};

static const char *const games_sql =
    "SELECT s.id, s.name, s.seed, s.file_text, v.canonical, c.agent0_name,"
    " c.agent1_name, a0.spec, a1.spec, g.game_index, g.seed,"
    " g.opening_position, g.opening, g.side0, g.side1, g.result, g.reason,"
    " g.plies, g.duration_ms, g.moves, c.game_behaviour, c.agent0_behaviour,"
    " c.agent1_behaviour"
    " FROM games g JOIN cells c ON c.id = g.cell_id"
    " JOIN sweeps s ON s.id = c.sweep_id JOIN variants v ON v.id = c.variant_id"
    " JOIN agents a0 ON a0.id = c.agent0_id JOIN agents a1 ON a1.id = c.agent1_id"
    " ORDER BY s.id, c.id, g.game_index";

/* Column i of q as text ("" for NULL). */
static const char *text_of(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return t ? (const char *)t : "";
}

static void write_game(FILE *out, sqlite3_stmt *q)
{
    char duration[64];
    tag(out, "Sweep", text_of(q, C_SWEEP));
    tag_number(out, "SweepSeed", sqlite3_column_int64(q, C_SWEEP_SEED));
    tag(out, "Variant", text_of(q, C_VARIANT));
    tag(out, "Seat0", text_of(q, C_NAME0));
    tag(out, "Seat0Spec", text_of(q, C_SPEC0));
    tag(out, "Seat1", text_of(q, C_NAME1));
    tag(out, "Seat1Spec", text_of(q, C_SPEC1));
    tag_number(out, "Index", sqlite3_column_int64(q, C_INDEX));
    char seed[32];
    snprintf(seed, sizeof seed, "%llu",
             (unsigned long long)(uint64_t)sqlite3_column_int64(q, C_SEED));
    tag(out, "Seed", seed);
    if (*text_of(q, C_POSITION))
        tag(out, "OpeningPosition", text_of(q, C_POSITION));
    if (*text_of(q, C_OPENING))
        tag(out, "Opening", text_of(q, C_OPENING));
    tag(out, "Side0", text_of(q, C_SIDE0));
    tag(out, "Side1", text_of(q, C_SIDE1));
    tag(out, "Result", result_token(text_of(q, C_RESULT)));
    tag(out, "Reason", text_of(q, C_REASON));
    tag_number(out, "Plies", sqlite3_column_int64(q, C_PLIES));
    snprintf(duration, sizeof duration, "%.17g",
             sqlite3_column_double(q, C_DURATION));
    tag(out, "DurationMs", duration);
    char behaviour[64];
    snprintf(behaviour, sizeof behaviour, "%lld %lld %lld",
             sqlite3_column_int64(q, C_GB), sqlite3_column_int64(q, C_AB0),
             sqlite3_column_int64(q, C_AB1));
    tag(out, "Behaviour", behaviour);
    write_moves(out, text_of(q, C_MOVES),
                result_token(text_of(q, C_RESULT)));
}

int records_each_row(sqlite3 *db, const char *sql,
                     int (*row)(void *arg, sqlite3_stmt *q, char *err,
                                size_t errsz),
                     void *arg, char *err, size_t errsz)
{
    sqlite3_stmt *q = NULL;
    int rc = -1, step = SQLITE_ERROR;
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK
        || sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) {
        snprintf(err, errsz, "%s", sqlite3_errmsg(db));
        goto done;
    }
    while ((step = sqlite3_step(q)) == SQLITE_ROW)
        if ((rc = row(arg, q, err, errsz)) != 0)
            goto done;
    if (step != SQLITE_DONE)
        snprintf(err, errsz, "%s", sqlite3_errmsg(db));
    rc = step == SQLITE_DONE ? 0 : -1;
done:
    sqlite3_finalize(q);
    if (!sqlite3_get_autocommit(db))
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    return rc;
}

/* What write_row carries from row to row. */
struct writing {
    FILE *out;
    long long sweep; /* the last row's sweep, whose file is written */
};

/* records_each_row's row: the sweep's file when it is new, the game. */
static int write_row(void *arg, sqlite3_stmt *q, char *err, size_t errsz)
{
    struct writing *w = arg;
    (void)err, (void)errsz;
    if (sqlite3_column_int64(q, C_SWEEP_ID) != w->sweep) {
        w->sweep = sqlite3_column_int64(q, C_SWEEP_ID);
        write_sweep(w->out, text_of(q, C_SWEEP),
                    sqlite3_column_int64(q, C_SWEEP_SEED), text_of(q, C_FILE));
    }
    write_game(w->out, q);
    return 0;
}

int records_write(sqlite3 *db, FILE *out, char *err, size_t errsz)
{
    struct writing w = {out, -1};
    fputs("; rulelab game records, version 1 (docs/play.md, Games as text)"
          "\n\n", out);
    return records_each_row(db, games_sql, write_row, &w, err, errsz);
}
