/*
 * game.c -- what all games share: the registry, reason names, the
 * functions over struct game_head that stand in every game's vtable,
 * parsing a legal move, setting up a position with moves, and perft.
 */
#include "game.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

const struct game *game_list[GAME_MAX_GAMES + 1] = {&serbest_game,
                                                    &jetan_game, &tafl_game,
                                                    NULL};

int game_register(const struct game *g)
{
    int n = 0;
    while (game_list[n]) {
        if (strcmp(game_list[n]->name, g->name) == 0)
            return -1;
        n++;
    }
    if (n == GAME_MAX_GAMES)
        return -1;
    game_list[n] = g;
    game_list[n + 1] = NULL;
    return 0;
}

const struct game *game_find(const char *name)
{
    for (int i = 0; game_list[i]; i++)
        if (strcmp(game_list[i]->name, name) == 0)
            return game_list[i];
    return NULL;
}

static const char *const reason_names[REASON_COUNT] = {
    [REASON_NONE] = "none",
    [REASON_CHECKMATE] = "checkmate",
    [REASON_KHAN] = "khan",
    [REASON_STALEMATE] = "stalemate",
    [REASON_NO_MOVES] = "no_moves",
    [REASON_PRINCESS_CAPTURED] = "princess_captured",
    [REASON_CHIEF_CAPTURED] = "chief_captured",
    [REASON_CHIEF_CAPTURED_BY_OTHER] = "chief_captured_by_other",
    [REASON_ENDGAME_COUNTDOWN] = "endgame_countdown",
    [REASON_KING_ESCAPED] = "king_escaped",
    [REASON_KING_CAPTURED] = "king_captured",
    [REASON_REPETITION] = "repetition",
    [REASON_NO_CAPTURE] = "no_capture",
    [REASON_PLY_CAP] = "ply_cap",
    [REASON_FORFEIT_ILLEGAL] = "forfeit_illegal",
    [REASON_FORFEIT_TIME] = "forfeit_time",
    [REASON_FORFEIT_CRASH] = "forfeit_crash",
};

const char *end_reason_name(enum end_reason r)
{
    assert(r >= 0 && r < REASON_COUNT);
    return reason_names[r];
}

const char *game_outcome_name(enum game_outcome o)
{
    switch (o) {
    case GAME_ONGOING: return "ongoing";
    case GAME_WIN_SEAT0: return "seat 0 wins";
    case GAME_WIN_SEAT1: return "seat 1 wins";
    case GAME_DRAW: return "draw";
    }
    return "?";
}

int game_head_to_move(const void *st)
{
    const struct game_head *h = st;
    return game_seat_of_side(h, h->side);
}

struct game_status game_head_status(const void *st)
{
    const struct game_head *h = st;
    struct game_status r = {(enum game_outcome)h->outcome,
                            (enum end_reason)h->reason};
    return r;
}

uint64_t game_head_hash(const void *st)
{
    return ((const struct game_head *)st)->hash;
}

const char *game_head_side_name(const void *st, int seat,
                                const char *const names[2])
{
    const struct game_head *h = st;
    return names[seat ^ h->first];
}

int game_error(char *err, size_t errsz, const char *fmt, ...)
{
    if (err && errsz) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errsz, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int game_parse_move(const struct game *g, const void *st, const char *text,
                    move_t *m, char *err, size_t errsz)
{
    if (g->status(st).outcome != GAME_ONGOING) {
        game_error(err, errsz, "move '%s': the game is already over", text);
        return -1;
    }
    if (g->move_from_text(st, text, m) != 0) {
        game_error(err, errsz, "'%s' is not a %s move", text, g->name);
        return -1;
    }
    move_t *moves = malloc(sizeof *moves * (size_t)g->max_moves);
    if (!moves) {
        game_error(err, errsz, "out of memory");
        return -1;
    }
    int n = g->legal_moves(st, moves), found = 0;
    for (int i = 0; i < n && !found; i++)
        found = moves[i] == *m;
    free(moves);
    if (!found) {
        game_error(err, errsz, "move '%s' is not legal here", text);
        return -1;
    }
    return 0;
}

int game_setup(const struct variant *v, void *st, const char *position,
               const char *moves, char *err, size_t errsz)
{
    return game_setup_told(v, st, position, moves, NULL, NULL, err, errsz);
}

int game_setup_told(const struct variant *v, void *st, const char *position,
                    const char *moves, game_move_seen seen, void *arg,
                    char *err, size_t errsz)
{
    const struct game *g = v->game;
    if (position) {
        if (g->from_text(st, v, position, err, errsz) != 0)
            return -1;
    } else {
        g->init(st, v);
    }
    if (!moves)
        return 0;
    const char *s = moves;
    int ply = 1;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == ',')
            s++;
        if (*s == '\0')
            return 0;
        char tok[32];
        size_t len = strcspn(s, " \t,");
        if (len >= sizeof tok)
            len = sizeof tok - 1;
        memcpy(tok, s, len);
        tok[len] = '\0';
        s += strcspn(s, " \t,");
        move_t m;
        char why[128];
        if (game_parse_move(g, st, tok, &m, why, sizeof why) != 0) {
            game_error(err, errsz, "move %d: %s", ply, why);
            return -1;
        }
        if (seen)
            seen(arg, g, st, m);
        g->apply(st, m);
        ply++;
    }
}

int game_replay(const struct variant *v, void *st, const char *position,
                const char *opening, const char *moves,
                game_replay_visit visit, void *arg, int *plies, char *err,
                size_t errsz)
{
    const struct game *g = v->game;
    move_t legal[GAME_MAX_MOVES];
    char why[256], text[GAME_MOVE_TEXT_MAX + 1];
    struct game_replay_step step = {st, 0, legal, 0, NULL, 0};
    if (plies)
        *plies = 0;
    if (game_setup(v, st, position && position[0] ? position : NULL,
                   opening && opening[0] ? opening : NULL, why, sizeof why)
        != 0)
        return game_error(err, errsz, "the opening does not replay: %s", why);
    for (const char *p = moves ? moves : "";; step.ply++) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        int over = g->status(st).outcome != GAME_ONGOING;
        step.n_legal = over ? 0 : g->legal_moves(st, legal);
        step.move = NULL;
        step.m = 0;
        if (len == 0) {
            if (plies)
                *plies = step.ply;
            return visit ? visit(arg, g, &step) : 0;
        }
        if (len > GAME_MOVE_TEXT_MAX)
            return game_error(err, errsz, "move %d '%.20s...' is longer than "
                              "any move (%d characters)", step.ply + 1, p,
                              GAME_MOVE_TEXT_MAX);
        memcpy(text, p, len);
        text[len] = '\0';
        p += len;
        if (over)
            return game_error(err, errsz, "move %d '%s' comes after the end "
                              "of the game", step.ply + 1, text);
        if (g->move_from_text(st, text, &step.m) != 0)
            return game_error(err, errsz, "move %d '%s' is not a %s move",
                              step.ply + 1, text, g->name);
        int found = 0;
        for (int i = 0; i < step.n_legal && !found; i++)
            found = legal[i] == step.m;
        if (!found)
            return game_error(err, errsz, "move %d '%s' is not legal there",
                              step.ply + 1, text);
        step.move = text;
        if (visit) {
            int rc = visit(arg, g, &step);
            if (rc != 0)
                return rc;
        }
        g->apply(st, step.m);
        game_check_invariants(g, st, step.m);
        if (plies)
            *plies = step.ply + 1;
    }
}

void game_invariant_failed(const struct game *g, const void *st, move_t m)
{
    char position[1024];
    if (g->to_text(st, position, sizeof position) < 0)
        snprintf(position, sizeof position, "(too long to print)");
    fprintf(stderr, "rulelab: invariant broken: %s state_ok fails just after "
            "applying move code 0x%08x; the position now reads: %s\n",
            g->name, (unsigned)m, position);
    abort();
}

static uint64_t perft_rec(const struct game *g, const void *st, int depth,
                          move_t *buf)
{
    int n = g->legal_moves(st, buf);
    if (depth == 1)
        return (uint64_t)n;
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        game_copy_state(g, child, st);
        g->apply(child, buf[i]);
        game_check_invariants(g, child, buf[i]);
        total += perft_rec(g, child, depth - 1, buf + g->max_moves);
    }
    return total;
}

int game_mover_wins_at_once(const struct game *g, const void *st)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    enum game_outcome win = g->to_move(st) == 0 ? GAME_WIN_SEAT0
                                                : GAME_WIN_SEAT1;
    int n = g->legal_moves(st, moves);
    for (int i = 0; i < n; i++) {
        game_copy_state(g, child, st);
        g->apply(child, moves[i]);
        if (g->status(child).outcome == win)
            return 1;
    }
    return 0;
}

int game_random_move(const struct game *g, const void *st, struct rng *r,
                     move_t *m)
{
    if (g->random_move)
        return g->random_move(st, r, m);
    move_t moves[GAME_MAX_MOVES];
    int n = g->legal_moves(st, moves);
    if (n > 0)
        *m = moves[rng_below(r, (uint32_t)n)];
    return n;
}

int game_perft(const struct game *g, const void *st, int depth,
               uint64_t *count)
{
    assert(g->state_size <= GAME_MAX_STATE_SIZE);
    *count = 0;
    if (depth <= 0) {
        *count = 1;
        return 0;
    }
    move_t *buf = malloc(sizeof *buf * (size_t)g->max_moves * (size_t)depth);
    if (!buf)
        return -1;
    *count = perft_rec(g, st, depth, buf);
    free(buf);
    return 0;
}

/* Reads one counter word (decimal digits only, at most `max`) into *out.
 * Returns 0, or -1 with an error naming the counter and the text. */
static int parse_counter(const char *word, size_t len, const char *game,
                         const char *name, unsigned long max, unsigned *out,
                         char *err, size_t errsz)
{
    uint64_t value = 0;
    for (size_t i = 0; i < len; i++) {
        if (word[i] < '0' || word[i] > '9')
            return game_error(err, errsz, "%s position: unexpected text "
                              "'%.*s' as the %s (a whole number from 0 to "
                              "%lu)", game, (int)len, word, name, max);
        value = value * 10 + (uint64_t)(word[i] - '0');
        if (value > max)
            return game_error(err, errsz, "%s position: the %s '%.*s' is "
                              "too large (at most %lu)", game, name,
                              (int)len, word, max);
    }
    *out = (unsigned)value;
    return 0;
}

int game_parse_side_and_counters(const char *text, const char *game,
                                 const char sides[2], int *side,
                                 unsigned *no_capture_plies, unsigned *ply,
                                 char *err, size_t errsz)
{
    static const char *const counter_names[2] = {"no-capture plies", "ply"};
    static const unsigned long counter_max[2] = {UINT16_MAX, UINT32_MAX};
    unsigned *counters[2] = {no_capture_plies, ply};
    const char *const separators = " \t\r\n";
    *no_capture_plies = *ply = 0;
    const char *c = text + strspn(text, separators);
    size_t len = strcspn(c, separators);
    if (text[0] != ' ' || len != 1 || (c[0] != sides[0] && c[0] != sides[1]))
        return game_error(err, errsz, "%s position: expected the side to "
                          "move ('%c' or '%c') after the board", game,
                          sides[0], sides[1]);
    *side = c[0] == sides[1];
    c += len;
    for (int k = 0;; k++) {
        c += strspn(c, separators);
        if (*c == '\0')
            return 0;
        len = strcspn(c, separators);
        if (k == 2)
            return game_error(err, errsz, "%s position: unexpected text '%.*s'"
                              " after the ply (optional fields after the side "
                              "to move: no-capture plies, ply)", game,
                              (int)len, c);
        if (parse_counter(c, len, game, counter_names[k], counter_max[k],
                          counters[k], err, errsz) != 0)
            return -1;
        c += len;
    }
}
