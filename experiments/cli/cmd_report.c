/*
 * cmd_report.c -- the commands that read a results database: `report`
 * (what the games say), `replay` (check a stored game move by move) and
 * `export` (one CSV row per game). All open the database read-only, so they
 * are safe while a sweep is writing it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"
#include "store.h"

static int open_readonly(const char *path, struct store **st)
{
    char err[1024];
    if (store_open(path, 1, st, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab: %s\n", err);
        return -1;
    }
    return 0;
}

/* Ends the output of a command: flushes it and checks that every write
 * succeeded (a full disk, /dev/full, a closed pipe), closing it unless it
 * is stdout. Returns 0, or -1 after saying what failed. */
static int finish_output(FILE *out, const char *command, const char *name)
{
    int failed = fflush(out) != 0 || ferror(out);
    int saved = errno;
    if (out != stdout && fclose(out) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (failed)
        fprintf(stderr, "rulelab %s: writing %s failed: %s\n", command, name,
                saved ? strerror(saved) : "write error");
    return failed ? -1 : 0;
}

/* Whether db holds a sweep named `name`; if not, says so with the names of
 * the sweeps it does hold. Returns 1 if found, 0 if not, -1 on an error. */
static int sweep_exists(sqlite3 *db, const char *path, const char *name)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT name FROM sweeps GROUP BY name "
                           "ORDER BY MIN(id)", -1, &q, NULL) != SQLITE_OK) {
        fprintf(stderr, "rulelab report: %s: %s\n", path, sqlite3_errmsg(db));
        return -1;
    }
    char held[1024] = "";
    size_t len = 0;
    int found = 0, n = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *each = (const char *)sqlite3_column_text(q, 0);
        found |= strcmp(each, name) == 0;
        if (len < sizeof held)
            len += (size_t)snprintf(held + len, sizeof held - len, "%s%s",
                                    n ? ", " : "", each);
        n++;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "rulelab report: %s: %s\n", path, sqlite3_errmsg(db));
        return -1;
    }
    if (!found)
        fprintf(stderr, "rulelab report: %s holds no sweep named '%s'; %s%s\n",
                path, name, n ? "its sweeps: " : "it holds no sweeps",
                n ? held : "");
    return found;
}

/* ---- report ------------------------------------------------------------ */

static int run_report(int argc, char **argv)
{
    const char *format = "table", *sweep = NULL, *pos[1];
    int npos;
    const struct cli_option opts[] = {{"--format", &format, NULL},
                                      {"--sweep", &sweep, NULL},
                                      {NULL, NULL, NULL}};
    int rc = cli_parse(argc, argv, opts, pos, 1, &npos, &cmd_report);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1)
        return cli_usage_error(&cmd_report, "needs a database");
    static const char *const names[] = {"table", "csv", "json", "markdown"};
    int f = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(format, names[i]) == 0)
            f = i;
    if (f < 0)
        return cli_usage_error(&cmd_report, "--format must be table, csv, json"
                               " or markdown, not '%s'", format);
    struct store *st;
    if (open_readonly(pos[0], &st) != 0)
        return CLI_FAIL;
    if (sweep && sweep_exists(store_db(st), pos[0], sweep) != 1) {
        store_close(st);
        return CLI_FAIL;
    }
    struct report r;
    char err[1024] = "";
    if (report_build(store_db(st), sweep, &r, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab report: %s\n", err);
        store_close(st);
        return CLI_FAIL;
    }
    if (r.n_cells == 0)
        fprintf(stderr, "rulelab report: %s holds no games%s%s\n", pos[0],
                sweep ? " of sweep " : "", sweep ? sweep : "");
    report_print(&r, (enum report_format)f, stdout);
    report_free(&r);
    store_close(st);
    return finish_output(stdout, "report", "the report") ? CLI_FAIL : CLI_OK;
}

const struct cli_command cmd_report = {
    "report", "win rates, intervals and tests from a results database",
    "usage: rulelab report DB [--format table|csv|json|markdown] [--sweep NAME]\n\n"
    "Per cell (variant x seat-0 agent x seat-1 agent), per variant and per\n"
    "agent pair: games, wins of each seat, draws by the rules and by the ply\n"
    "cap, wins by reason, mean and median plies; the seat-0 score (wins +\n"
    "draws/2, over games) with its 95% Wilson interval; the exact two-sided\n"
    "binomial p-value of \"seat 0 wins half the decisive games\", and the\n"
    "same Holm-corrected across the rows of the table; for agent pairs, each\n"
    "agent's score over both seat orders. Safe while a sweep is writing.\n"
    "A cell that the sweep's stop rule (sprt, ci) ended early had its number\n"
    "of games chosen by its results: its stop column gives the sequential\n"
    "test's own decision (SPRT: accept H0 or H1, the log-likelihood ratio\n"
    "and the bound it crossed), and its interval and p are n/a (null in\n"
    "JSON) and left out of Holm, as are variant and pair rows that include\n"
    "it.\n\n"
    "  --format F   table (default), csv, json or markdown\n"
    "  --sweep NAME only the games of this sweep\n",
    run_report};

/* ---- replay ------------------------------------------------------------ */

static int replay_moves(const struct game *g, void *st, const char *moves,
                        int show, int *plies)
{
    char buf[64], err[256];
    *plies = 0;
    for (const char *p = moves; *p;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 63 ? len : 63), p);
        p += len;
        move_t m;
        if (game_parse_move(g, st, buf, &m, err, sizeof err) != 0) {
            printf("ply %d: %s\n", *plies + 1, err);
            return -1;
        }
        int seat = g->to_move(st);
        g->apply(st, m);
        ++*plies;
        if (show) {
            printf("%3d. seat %d (%s): %s\n", *plies, seat,
                   g->seat_side(st, seat), buf);
            cli_draw_board(g, st);
        }
    }
    return 0;
}

static int run_replay(int argc, char **argv)
{
    const char *pos[2];
    int show = 0, npos;
    const struct cli_option opts[] = {{"--show", NULL, &show},
                                      {NULL, NULL, NULL}};
    int rc = cli_parse(argc, argv, opts, pos, 2, &npos, &cmd_replay);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 2)
        return cli_usage_error(&cmd_replay, "needs DB and GAME_ID");
    long id;
    if (cli_parse_int(pos[1], "GAME_ID", 1, 0x7fffffffffffffffL, &id) != 0)
        return CLI_USAGE;
    struct store *st;
    if (open_readonly(pos[0], &st) != 0)
        return CLI_FAIL;
    sqlite3_stmt *q;
    rc = CLI_FAIL;
    if (sqlite3_prepare_v2(store_db(st), "SELECT variant, moves, result, "
                           "reason, plies, agent0, agent1 FROM game_view "
                           "WHERE id = ?1", -1, &q, NULL) != SQLITE_OK) {
        fprintf(stderr, "rulelab replay: %s\n", sqlite3_errmsg(store_db(st)));
        store_close(st);
        return CLI_FAIL;
    }
    sqlite3_bind_int64(q, 1, id);
    if (sqlite3_step(q) != SQLITE_ROW) {
        fprintf(stderr, "rulelab replay: no game %ld in %s\n", id, pos[0]);
        goto done;
    }
    const char *variant = (const char *)sqlite3_column_text(q, 0);
    const char *moves = (const char *)sqlite3_column_text(q, 1);
    const char *result = (const char *)sqlite3_column_text(q, 2);
    const char *reason = (const char *)sqlite3_column_text(q, 3);
    int stored_plies = sqlite3_column_int(q, 4), plies;
    if (!variant || !moves || !result || !reason || !sqlite3_column_text(q, 5)
        || !sqlite3_column_text(q, 6)) {
        fprintf(stderr, "rulelab replay: game %ld in %s has an empty (NULL) "
                "column\n", id, pos[0]);
        goto done;
    }
    printf("game %ld: %s\nseat 0: %s\nseat 1: %s\n", id, variant,
           sqlite3_column_text(q, 5), sqlite3_column_text(q, 6));
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char state[GAME_MAX_STATE_SIZE];
    if (cli_setup(variant, NULL, NULL, &v, state) != 0)
        goto done;
    if (replay_moves(v.game, state, moves, show, &plies) != 0)
        goto done;
    struct game_status s = v.game->status(state);
    static const char *const results[] = {"ongoing", "seat0", "seat1", "draw"};
    int same = strcmp(results[s.outcome], result) == 0
               && strcmp(end_reason_name(s.reason), reason) == 0
               && plies == stored_plies;
    printf("replayed %d plies: %s by %s; stored: %s by %s in %d plies: %s\n",
           plies, results[s.outcome], end_reason_name(s.reason), result,
           reason, stored_plies, same ? "consistent" : "MISMATCH");
    rc = same ? CLI_OK : CLI_FAIL;
done:
    sqlite3_finalize(q);
    store_close(st);
    return rc;
}

const struct cli_command cmd_replay = {
    "replay", "replay a stored game and check it",
    "usage: rulelab replay DB GAME_ID [--show]\n\n"
    "Replays game GAME_ID (the games.id column) move by move, checking that\n"
    "every move is legal and that the stored result, reason and length\n"
    "follow. Exits 0 when consistent, 1 otherwise.\n\n"
    "  --show   print each move and the board after it\n",
    run_replay};

/* ---- export ------------------------------------------------------------ */

static void csv_field(FILE *out, const char *text, int first)
{
    if (!first)
        fputc(',', out);
    if (!text)
        return;
    if (!strpbrk(text, ",\"\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (; *text; text++) {
        if (*text == '"')
            fputc('"', out);
        fputc(*text, out);
    }
    fputc('"', out);
}

static int run_export(int argc, char **argv)
{
    const char *out_path = NULL, *pos[1];
    int csv = 0, npos;
    const struct cli_option opts[] = {{"--csv", NULL, &csv},
                                      {"--out", &out_path, NULL},
                                      {NULL, NULL, NULL}};
    int rc = cli_parse(argc, argv, opts, pos, 1, &npos, &cmd_export);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1 || !csv)
        return cli_usage_error(&cmd_export, "needs DB and --csv");
    struct store *st;
    if (open_readonly(pos[0], &st) != 0)
        return CLI_FAIL;
    FILE *out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) {
        perror(out_path);
        store_close(st);
        return CLI_FAIL;
    }
    static const char *const columns[] = {
        "id", "sweep", "sweep_seed", "game", "variant", "agent0_name",
        "agent1_name", "agent0", "agent1", "game_index", "seed", "side0",
        "side1", "result", "winner_seat", "reason", "plies", "duration_ms",
        "finished", "moves"};
    char sql[512] = "SELECT ";
    for (int i = 0; i < 20; i++) {
        csv_field(out, columns[i], i == 0);
        strcat(sql, columns[i]);
        strcat(sql, i < 19 ? ", " : " FROM game_view ORDER BY id");
    }
    fputc('\n', out);
    /* One read transaction for the whole export, as for report: every row
     * comes from one snapshot even if more statements are added. */
    sqlite3_stmt *q;
    rc = CLI_FAIL;
    if (sqlite3_exec(store_db(st), "BEGIN", NULL, NULL, NULL) == SQLITE_OK
        && sqlite3_prepare_v2(store_db(st), sql, -1, &q, NULL) == SQLITE_OK) {
        int step;
        while ((step = sqlite3_step(q)) == SQLITE_ROW) {
            for (int i = 0; i < 20; i++)
                csv_field(out, (const char *)sqlite3_column_text(q, i), i == 0);
            fputc('\n', out);
        }
        if (step == SQLITE_DONE)
            rc = CLI_OK;
        sqlite3_finalize(q);
    }
    if (rc != CLI_OK)
        fprintf(stderr, "rulelab export: %s\n", sqlite3_errmsg(store_db(st)));
    if (!sqlite3_get_autocommit(store_db(st)))
        sqlite3_exec(store_db(st), "COMMIT", NULL, NULL, NULL);
    if (finish_output(out, "export", out_path ? out_path : "the CSV"))
        rc = CLI_FAIL;
    store_close(st);
    return rc;
}

const struct cli_command cmd_export = {
    "export", "write every stored game as CSV",
    "usage: rulelab export DB --csv [--out FILE]\n\n"
    "Writes one row per game (the columns of the game_view view, see\n"
    "results/README.md), to stdout or FILE.\n",
    run_export};
