/*
 * nim.c -- a test-only game: take-away Nim, to show that a game outside
 * core/ joins every command through the registry alone (game_register in
 * core/game.h) and passes the same conformance suite as the three games
 * (tests/test_conformance.c). It is never in the shipped `rulelab`: only
 * the test build's `rulelab-testgames` (tests/games/main.c) registers it.
 *
 * The rules: a row of `stones` stones (default 21); the two sides, first
 * and second, take turns taking 1 to `take` of them (default 3); whoever
 * takes the last stone wins, that is, the side to move with no stone left
 * has no move and loses (no_moves). Theory, for the tests: the side to
 * move loses exactly when stones is a multiple of take + 1, and the
 * winner's fastest win is then forced: a position of s stones, s not a
 * multiple of 4 (take 3), is won within 2 * floor(s / 4) + 1 plies and
 * no sooner, as every round of two plies removes exactly 4 when the
 * winner answers k with 4 - k.
 *
 * Notation: a move is the number of stones taken ("1" to "9"); a position
 * is "STONES SIDE", SIDE f (first) or s (second) to move, e.g. "21 f".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "rng.h"

#define NIM_MAX_STONES 50

struct nim_state {
    struct game_head head;
    int stones, take;
};

static const char *const first_choices[] = {"first", "second", NULL};

static const struct param_spec nim_params[] = {
    {.name = "first", .type = PARAM_ENUM, .choices = first_choices,
     .doc = "which side moves first", .since = 1},
    {.name = "stones", .type = PARAM_INT, .def = 21, .min = 1,
     .max = NIM_MAX_STONES, .doc = "stones in the row at the start",
     .since = 1},
    {.name = "take", .type = PARAM_INT, .def = 3, .min = 1, .max = 9,
     .doc = "the most stones a move takes", .since = 1},
};

/* The hash of what the rules read: stones, side to move, take. */
static uint64_t nim_hash_of(const struct nim_state *s)
{
    uint64_t x = (uint64_t)s->stones * 64 + (uint64_t)s->take * 2
                 + s->head.side;
    return rng_splitmix64(&x);
}

/* Sets the result once the side to move has no stone to take. */
static void nim_settle(struct nim_state *s)
{
    s->head.outcome = GAME_ONGOING;
    s->head.reason = REASON_NONE;
    if (s->stones == 0)
        game_set_result(&s->head, s->head.side ^ 1, REASON_NO_MOVES);
}

static void nim_init(void *st, const struct variant *v)
{
    struct nim_state *s = st;
    memset(s, 0, sizeof *s);
    s->head.first = (uint8_t)v->values[0];
    s->head.side = s->head.first;
    s->stones = v->values[1];
    s->take = v->values[2];
    s->head.hash = nim_hash_of(s);
    nim_settle(s);
}

static int nim_legal_moves(const void *st, move_t *out)
{
    const struct nim_state *s = st;
    int n = s->stones < s->take ? s->stones : s->take;
    for (int k = 1; k <= n; k++)
        out[k - 1] = (move_t)k;
    return n;
}

static void nim_apply(void *st, move_t m)
{
    struct nim_state *s = st;
    s->stones -= (int)m;
    s->head.side ^= 1;
    s->head.hash = nim_hash_of(s);
    nim_settle(s);
}

static int nim_move_to_text(const void *st, move_t m, char *buf, size_t n)
{
    (void)st;
    int w = snprintf(buf, n, "%u", (unsigned)m);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int nim_move_from_text(const void *st, const char *text, move_t *m)
{
    (void)st;
    if (text[0] < '1' || text[0] > '9' || text[1] != '\0')
        return -1;
    *m = (move_t)(text[0] - '0');
    return 0;
}

static int nim_to_text(const void *st, char *buf, size_t n)
{
    const struct nim_state *s = st;
    int w = snprintf(buf, n, "%d %c", s->stones,
                     s->head.side == 0 ? 'f' : 's');
    return w < 0 || (size_t)w >= n ? -1 : w;
}

static int nim_from_text(void *st, const struct variant *v, const char *text,
                         char *err, size_t errsz)
{
    struct nim_state *s = st;
    int stones, used = 0;
    char side;
    if (sscanf(text, "%d %c%n", &stones, &side, &used) != 2
        || text[used] != '\0' || (side != 'f' && side != 's'))
        return game_error(err, errsz, "'%s' is not a nim position (STONES "
                          "f|s, e.g. \"21 f\")", text);
    if (stones < 0 || stones > NIM_MAX_STONES)
        return game_error(err, errsz, "%d stones: from 0 to %d", stones,
                          NIM_MAX_STONES);
    nim_init(s, v);
    s->stones = stones;
    s->head.side = side == 'f' ? 0 : 1;
    s->head.hash = nim_hash_of(s);
    nim_settle(s);
    return 0;
}

/* Ten stones a rank, from a1: 'o' for a stone, '.' for none. */
static char nim_piece_at(const void *st, int file, int rank)
{
    const struct nim_state *s = st;
    return rank * 10 + file < s->stones ? 'o' : '.';
}

static const char *nim_seat_side(const void *st, int seat)
{
    const struct nim_state *s = st;
    return (seat ^ s->head.first) == 0 ? "first" : "second";
}

static int nim_state_ok(const void *st)
{
    const struct nim_state *s = st;
    return s->stones >= 0 && s->stones <= NIM_MAX_STONES && s->take >= 1
           && s->head.side <= 1 && s->head.hash == nim_hash_of(s)
           && (s->head.outcome != GAME_ONGOING) == (s->stones == 0);
}

/* The side to move wins at once when it can take every stone left. */
static int nim_wins_at_once(const void *st)
{
    const struct nim_state *s = st;
    return s->stones > 0 && s->stones <= s->take;
}

const struct game nim_game = {
    .name = "nim",
    .title = "take-away Nim (test only): the last stone taken wins",
    .params = nim_params,
    .n_params = (int)(sizeof nim_params / sizeof nim_params[0]),
    .behaviour_version = 1,
    .state_size = sizeof(struct nim_state),
    .max_moves = 9,
    .board_files = 10,
    .board_ranks = NIM_MAX_STONES / 10,
    .perft_max_depth = 12,
    .init = nim_init,
    .legal_moves = nim_legal_moves,
    .apply = nim_apply,
    .to_move = game_head_to_move,
    .status = game_head_status,
    .hash = game_head_hash,
    .move_to_text = nim_move_to_text,
    .move_from_text = nim_move_from_text,
    .to_text = nim_to_text,
    .from_text = nim_from_text,
    .piece_at = nim_piece_at,
    .seat_side = nim_seat_side,
    .state_ok = nim_state_ok,
    .search_key = game_head_hash,
    .wins_at_once = nim_wins_at_once,
};
