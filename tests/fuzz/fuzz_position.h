/*
 * fuzz_position.h -- the body shared by the three position-text targets
 * (fuzz_position_tafl.c, _jetan.c, _serbest.c): the input's first line is
 * a position text of one game, read under the game's default variant; the
 * rest, if any, is move texts separated by spaces, each parsed (and played
 * if legal) from that position.
 *
 * Properties checked besides memory safety: a rejected text comes with an
 * error message; an accepted one gives a consistent state (state_ok), is
 * written back as text that reads to the same text again, and every legal
 * move in it is written and read back as the same move and can be played;
 * a move text either is rejected with an error or plays to a consistent
 * state.
 */
#ifndef RULELAB_FUZZ_POSITION_H
#define RULELAB_FUZZ_POSITION_H

#include "fuzz_util.h"
#include "game.h"

static void fuzz_moves_round_trip(const struct game *g, const void *st)
{
    static move_t moves[GAME_MAX_MOVES];
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    int n = g->legal_moves(st, moves);
    fuzz_check(n >= 0 && n <= g->max_moves, "legal move count in range");
    for (int i = 0; i < n; i++) {
        char text[64], err[256];
        move_t back;
        fuzz_check(g->move_to_text(st, moves[i], text, sizeof text) > 0,
                   "a legal move has text");
        fuzz_check(game_parse_move(g, st, text, &back, err, sizeof err) == 0
                       && back == moves[i],
                   "a legal move's text reads back as the same move");
        memcpy(child, st, g->state_size);
        g->apply(child, moves[i]);
        fuzz_check(g->state_ok(child), "state_ok after a legal move");
    }
}

/* Parses each space-separated move text in `moves` from st. */
static void fuzz_move_texts(const struct game *g, const void *st, char *moves)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    for (char *tok = strtok(moves, " \n"); tok; tok = strtok(NULL, " \n")) {
        char err[256] = "";
        move_t m;
        if (game_parse_move(g, st, tok, &m, err, sizeof err) != 0) {
            fuzz_check(err[0] != '\0', "a rejected move text has an error");
            continue;
        }
        memcpy(child, st, g->state_size);
        g->apply(child, m);
        fuzz_check(g->state_ok(child), "state_ok after a parsed move");
    }
}

/* Runs the position checks for game `name` on the input. */
static int fuzz_position(const char *name, const uint8_t *data, size_t size)
{
    const struct game *g = game_find(name);
    fuzz_check(g != NULL, "the game exists");
    char *text = fuzz_text(data, size);
    char *moves = strchr(text, '\n');
    if (moves)
        *moves++ = '\0';
    struct variant v;
    variant_default(g, &v);
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char again[GAME_MAX_STATE_SIZE];
    char err[512] = "", out[2048], out2[2048];
    if (g->from_text(st, &v, text, err, sizeof err) != 0) {
        fuzz_check(err[0] != '\0', "a rejected position has an error");
        goto done;
    }
    fuzz_check(g->state_ok(st), "state_ok after from_text");
    int len = g->to_text(st, out, sizeof out);
    fuzz_check(len > 0, "an accepted position can be written");
    fuzz_check(g->from_text(again, &v, out, err, sizeof err) == 0,
               "a written position reads back");
    fuzz_check(g->to_text(again, out2, sizeof out2) == len
                   && strcmp(out, out2) == 0,
               "a written position reads back as the same text");
    for (int f = 0; f < g->board_files; f++)
        for (int r = 0; r < g->board_ranks; r++)
            (void)g->piece_at(st, f, r);
    (void)g->seat_side(st, 0);
    (void)g->seat_side(st, 1);
    fuzz_moves_round_trip(g, st);
    if (moves)
        fuzz_move_texts(g, st, moves);
done:
    free(text);
    return 0;
}

#endif
