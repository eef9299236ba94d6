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
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "store.h"

/* What `replay` shows as it replays. */
struct showing {
    int show, flip; /* print each move; the agents' seat 0 */
    int opening; /* the game has an opening: draw where the agents start */
};

/* game_replay's visitor: with --show, prints each move and the board
 * after it (the agents' seat: the game's seat xor flip). The board after
 * a move is the position of the next step, so each step prints the move
 * before it is played and the board once it is. */
static int show_move(void *arg, const struct game *g,
                     const struct game_replay_step *step)
{
    struct showing *sh = arg;
    if (step->ply == 0)
        sh->flip = g->to_move(step->st);
    if (!sh->show)
        return 0;
    if (step->ply > 0 || sh->opening)
        cli_draw_board(g, step->st);
    if (step->move) {
        int seat = g->to_move(step->st);
        printf("%3d. seat %d (%s): %s\n", step->ply + 1, seat ^ sh->flip,
               g->seat_side(step->st, seat), step->move);
    }
    return 0;
}

/* The stored game `replay` checks, found by store_each_game. */
struct stored {
    int found;
    char variant[VARIANT_TEXT_MAX];
    char agent[2][VARIANT_TEXT_MAX];
    char *position, *opening, *moves, *result, *reason;
    int plies;
};

/* store_each_game's visitor: keeps a copy of the one game asked for;
 * 2 when memory is short. */
static int keep_game(void *arg, const struct store_game *g)
{
    struct stored *s = arg;
    s->found = 1;
    snprintf(s->variant, sizeof s->variant, "%s", g->variant);
    snprintf(s->agent[0], sizeof s->agent[0], "%s", g->agent_spec[0]);
    snprintf(s->agent[1], sizeof s->agent[1], "%s", g->agent_spec[1]);
    s->position = strdup(g->opening_position);
    s->opening = strdup(g->opening);
    s->moves = strdup(g->moves);
    s->result = strdup(g->result);
    s->reason = strdup(g->reason);
    s->plies = g->plies;
    if (!s->position || !s->opening || !s->moves || !s->result || !s->reason)
        return 2; /* run_replay: out of memory */
    return 0;
}

/* Compares the replayed end of the game with the stored one and says so.
 * Returns CLI_OK when they agree, CLI_FAIL otherwise. */
static int compare_end(const struct game *g, const void *state, int flip,
                       int plies, const struct stored *s)
{
    struct game_status end = g->status(state);
    if (flip && end.outcome != GAME_DRAW && end.outcome != GAME_ONGOING)
        end.outcome = end.outcome == GAME_WIN_SEAT0 ? GAME_WIN_SEAT1
                                                    : GAME_WIN_SEAT0;
    static const char *const results[] = {"ongoing", "seat0", "seat1", "draw"};
    int same = strcmp(results[end.outcome], s->result) == 0
               && strcmp(end_reason_name(end.reason), s->reason) == 0
               && plies == s->plies;
    printf("replayed %d plies: %s by %s; stored: %s by %s in %d plies: %s\n",
           plies, results[end.outcome], end_reason_name(end.reason),
           s->result, s->reason, s->plies, same ? "consistent" : "MISMATCH");
    return same ? CLI_OK : CLI_FAIL;
}

/* `rulelab replay` (the run contract of struct cli_command): replays a
 * stored game and compares the result, reason and length; CLI_FAIL when
 * the game is missing or damaged, a move is illegal or anything differs
 * from what is stored. */
static int run_replay(int argc, char **argv)
{
    int rc;
    const char *pos[2];
    int show = 0;
    const struct cli_option opts[] = {
        {.name = "--show", .flag = &show},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_replay, &rc))
        return rc;
    long id;
    if (cli_parse_int(pos[1], "GAME_ID", 1, 0x7fffffffffffffffL, &id) != 0)
        return CLI_USAGE;
    struct store *st;
    if (cli_open_readonly(pos[0], &st) != 0)
        return CLI_FAIL;
    struct stored s = {0};
    struct store_game_filter f = {.id = id};
    char err[512];
    rc = CLI_FAIL;
    int read = store_each_game(store_db(st), &f, keep_game, &s, err,
                               sizeof err);
    if (read != 0) {
        fprintf(stderr, "rulelab replay: %s\n",
                read == 2 ? "out of memory" : err);
        goto done;
    }
    if (!s.found) {
        fprintf(stderr, "rulelab replay: no game %ld in %s\n", id, pos[0]);
        goto done;
    }
    printf("game %ld: %s\nseat 0: %s\nseat 1: %s\n", id, s.variant,
           s.agent[0], s.agent[1]);
    if (s.position[0] || s.opening[0])
        printf("opening: %s%s%s\n", s.position[0] ? s.position : "the start",
               s.opening[0] ? ", then " : "", s.opening);
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char state[GAME_MAX_STATE_SIZE];
    if (variant_parse(s.variant, &v, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab replay: %s\n", err);
        goto done;
    }
    struct showing sh = {show, 0, s.position[0] || s.opening[0]};
    int plies;
    if (game_replay(&v, state, s.position, s.opening, s.moves, show_move, &sh,
                    &plies, err, sizeof err) != 0) {
        printf("%s\n", err);
        goto done;
    }
    rc = compare_end(v.game, state, sh.flip, plies, &s);
done:
    free(s.position);
    free(s.opening);
    free(s.moves);
    free(s.result);
    free(s.reason);
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
    run_replay, 2, "needs DB and GAME_ID"};
