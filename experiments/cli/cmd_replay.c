/*
 * cmd_replay.c -- `rulelab replay`: play a stored game again move by move
 * with the game's own rules, and check that every move is legal and that
 * the stored result, reason and length follow. A game of a sweep with
 * openings is set up from its opening (position, then moves, each checked
 * too) before the agents' moves; its stored length and result are the
 * agents' (seat 0: the side to move after the opening). It opens the
 * database read-only, so it is safe while a sweep is writing it.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "store.h"

/* Plays the space-separated moves onto st (a state of g), each checked
 * for legality, printing each move and the board when show is set (with
 * the agents' seat: the game's seat xor flip); the count played goes to
 * *plies. Returns 0, or -1 after printing "ply N:" and why the move is not
 * legal. */
static int replay_moves(const struct game *g, void *st, const char *moves,
                        int show, int flip, int *plies)
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
            printf("%3d. seat %d (%s): %s\n", *plies, seat ^ flip,
                   g->seat_side(st, seat), buf);
            cli_draw_board(g, st);
        }
    }
    return 0;
}

/* `rulelab replay` (the run contract of struct cli_command): replays a
 * stored game and compares the result, reason and length; CLI_FAIL when
 * the game is missing or damaged, a move is illegal or anything differs
 * from what is stored. */
static int run_replay(int argc, char **argv)
{
    const char *pos[2];
    int show = 0;
    const struct cli_option opts[] = {{"--show", NULL, &show},
                                      {NULL, NULL, NULL}};
    int rc;
    if (!cli_parse_exact(argc, argv, opts, pos, 2, &cmd_replay,
                         "needs DB and GAME_ID", &rc))
        return rc;
    long id;
    if (cli_parse_int(pos[1], "GAME_ID", 1, 0x7fffffffffffffffL, &id) != 0)
        return CLI_USAGE;
    struct store *st;
    if (cli_open_readonly(pos[0], &st) != 0)
        return CLI_FAIL;
    sqlite3_stmt *q;
    rc = CLI_FAIL;
    if (sqlite3_prepare_v2(store_db(st), "SELECT variant, moves, result, "
                           "reason, plies, agent0, agent1, opening_position, "
                           "opening FROM game_view WHERE id = ?1", -1, &q,
                           NULL) != SQLITE_OK) {
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
    const char *position = (const char *)sqlite3_column_text(q, 7);
    const char *opening = (const char *)sqlite3_column_text(q, 8);
    if (!variant || !moves || !result || !reason || !sqlite3_column_text(q, 5)
        || !sqlite3_column_text(q, 6) || !position || !opening) {
        fprintf(stderr, "rulelab replay: game %ld in %s has an empty (NULL) "
                "column\n", id, pos[0]);
        goto done;
    }
    printf("game %ld: %s\nseat 0: %s\nseat 1: %s\n", id, variant,
           sqlite3_column_text(q, 5), sqlite3_column_text(q, 6));
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char state[GAME_MAX_STATE_SIZE];
    if (position[0] || opening[0])
        printf("opening: %s%s%s\n", position[0] ? position : "the start",
               opening[0] ? ", then " : "", opening);
    if (cli_setup(variant, position[0] ? position : NULL, opening, &v, state)
        != 0)
        goto done;
    /* the seat that moves first after the opening is the agents' seat 0 */
    int flip = v.game->to_move(state);
    if (show && (position[0] || opening[0]))
        cli_draw_board(v.game, state);
    if (replay_moves(v.game, state, moves, show, flip, &plies) != 0)
        goto done;
    struct game_status s = v.game->status(state);
    if (flip && s.outcome != GAME_DRAW && s.outcome != GAME_ONGOING)
        s.outcome = s.outcome == GAME_WIN_SEAT0 ? GAME_WIN_SEAT1
                                                : GAME_WIN_SEAT0;
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
    "follow; a game with an opening is set up from it first (its length\n"
    "counts the agents' moves). Exits 0 when consistent, 1 otherwise.\n\n"
    "  --show   print each move and the board after it\n",
    run_replay};
