/*
 * jetan.c -- Jetan (Martian chess) as docs/rules.md#jetan states it: the
 * state and its bookkeeping, apply and the status, text both ways.
 * Move generation is in jetan_moves.c.
 *
 * apply() settles the status once per move, so a playout asks nothing
 * twice: a capture of a Princess or Chief ends the game at once, then the
 * endgame countdown, then a side without a move, then the ply cap (a win
 * on the same ply as a draw condition counts as the win). The hash is
 * kept incrementally from Zobrist keys computed on demand (zobrist.h); the
 * move tables are `static const`, written at build time. No mutable
 * globals anywhere.
 */
#include "jetan.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"
#include "zobrist.h"

#define ZOBRIST_SALT 0x4a6574616eULL
#define SIDE_KEY_INDEX 1600 /* piece keys use 0..1599 */
#define ESCAPE_KEY_INDEX 1601 /* + side */
#define COUNTDOWN_KEY_INDEX 1610 /* + countdown code, see countdown_code */

static const char *const first_choices[] = {"black", "orange", NULL};
static const char *const escape_choices[] = {"any", "safe", "off", NULL};

static const struct param_spec jetan_params[] = {
    {.name = "endgame_equal_value", .type = PARAM_BOOL, .max = 1, .since = 1,
     .doc = "the countdown starts only if both sides have the same piece "
            "kinds"},
    {.name = "first", .type = PARAM_ENUM, .choices = first_choices,
     .doc = "which side moves first", .since = 1},
    {.name = "max_plies", .type = PARAM_INT, .def = 500, .max = 100000,
     .doc = "plies after which the game is a draw (ply_cap); 0 = none",
     .since = 1},
    {.name = "princess_escape", .type = PARAM_ENUM, .choices = escape_choices,
     .since = 1, .doc = "the once-per-game escape: to any empty square, an "
                        "unattacked one, or none"},
    {.name = "princess_safe", .type = PARAM_BOOL, .max = 1, .since = 1,
     .doc = "the Princess may never move onto an attacked square"},
    {.name = "thoat_jumps", .type = PARAM_BOOL, .max = 1,
     .doc = "the Thoat ignores blockers", .since = 1},
};

static const char piece_letters[JETAN_KINDS + 1] = "CPFDAWTN";
static const struct board_geometry geometry = {10, 10, 10, 0};

static uint64_t piece_key(int piece, int sq)
{
    return zobrist_key(ZOBRIST_SALT,
                       (uint32_t)((piece - 1) * JETAN_SQUARES + sq));
}

/* The countdown's contribution to the hash (0 while not started). */
static uint64_t countdown_key(int state, int left)
{
    if (state == JETAN_CD_NONE)
        return 0;
    int code = state == JETAN_CD_DECLINED ? 1 : 2 + left;
    return zobrist_key(ZOBRIST_SALT, (uint32_t)(COUNTDOWN_KEY_INDEX + code));
}

/* ---- board bookkeeping ---------------------------------------------- */

static void toggle_occupancy(struct jetan_state *s, int side, int kind,
                             int sq)
{
    s->occ[side][sq >> 6] ^= 1ULL << (sq & 63);
    s->kind_occ[side][kind][sq >> 6] ^= 1ULL << (sq & 63);
}

static void put_piece(struct jetan_state *s, int piece, int sq)
{
    const int side = JETAN_SIDE_OF(piece), kind = JETAN_KIND_OF(piece);
    s->board[sq] = (uint8_t)piece;
    toggle_occupancy(s, side, kind, sq);
    s->head.hash ^= piece_key(piece, sq);
    s->count[side]++;
    s->kind_count[side][kind]++;
    if (kind == JETAN_PRINCESS)
        s->princess_sq[side] = (uint8_t)sq;
    else if (kind == JETAN_CHIEF)
        s->chief_sq[side] = (uint8_t)sq;
}

static void remove_piece(struct jetan_state *s, int sq)
{
    const int piece = s->board[sq];
    const int side = JETAN_SIDE_OF(piece), kind = JETAN_KIND_OF(piece);
    s->board[sq] = 0;
    toggle_occupancy(s, side, kind, sq);
    s->head.hash ^= piece_key(piece, sq);
    s->count[side]--;
    s->kind_count[side][kind]--;
    if (kind == JETAN_PRINCESS)
        s->princess_sq[side] = JETAN_NO_SQUARE;
    else if (kind == JETAN_CHIEF)
        s->chief_sq[side] = JETAN_NO_SQUARE;
}

static void move_piece(struct jetan_state *s, int from, int to)
{
    const int piece = s->board[from];
    const int side = JETAN_SIDE_OF(piece), kind = JETAN_KIND_OF(piece);
    s->board[to] = (uint8_t)piece;
    s->board[from] = 0;
    toggle_occupancy(s, side, kind, from);
    toggle_occupancy(s, side, kind, to);
    s->head.hash ^= piece_key(piece, from) ^ piece_key(piece, to);
    if (kind == JETAN_PRINCESS)
        s->princess_sq[side] = (uint8_t)to;
    else if (kind == JETAN_CHIEF)
        s->chief_sq[side] = (uint8_t)to;
}

static void set_side(struct jetan_state *s, int side)
{
    if (s->head.side != side)
        s->head.hash ^= zobrist_key(ZOBRIST_SALT, SIDE_KEY_INDEX);
    s->head.side = (uint8_t)side;
}

static void set_escape(struct jetan_state *s, int side, int available)
{
    if (s->escape[side] != available)
        s->head.hash ^= zobrist_key(ZOBRIST_SALT,
                               (uint32_t)(ESCAPE_KEY_INDEX + side));
    s->escape[side] = (uint8_t)available;
}

static void set_countdown(struct jetan_state *s, int state, int left)
{
    s->head.hash ^= countdown_key(s->countdown, s->countdown_left)
               ^ countdown_key(state, left);
    s->countdown = (uint8_t)state;
    s->countdown_left = (uint8_t)left;
}

static void clear_board(struct jetan_state *s, const struct variant *v)
{
    memset(s, 0, sizeof *s);
    s->princess_sq[0] = s->princess_sq[1] = JETAN_NO_SQUARE;
    s->chief_sq[0] = s->chief_sq[1] = JETAN_NO_SQUARE;
    s->head.first = (uint8_t)variant_get(v, "first");
    s->thoat_jumps = (uint8_t)variant_get(v, "thoat_jumps");
    s->princess_escape = (uint8_t)variant_get(v, "princess_escape");
    s->princess_safe = (uint8_t)variant_get(v, "princess_safe");
    s->equal_value = (uint8_t)variant_get(v, "endgame_equal_value");
    s->max_plies = (uint32_t)variant_get(v, "max_plies");
}

/* ---- status ---------------------------------------------------------- */

static void set_result(struct jetan_state *s, int winner_side,
                       enum end_reason reason)
{
    game_set_result(&s->head, winner_side, reason);
}

/* Called when both sides have at most 3 pieces and the countdown has not
 * been decided: it starts, unless endgame_equal_value=1 and the sides'
 * piece kinds differ, and then it never starts. */
static void decide_countdown(struct jetan_state *s)
{
    if (s->equal_value
        && memcmp(s->kind_count[0], s->kind_count[1], JETAN_KINDS) != 0)
        set_countdown(s, JETAN_CD_DECLINED, 0);
    else
        set_countdown(s, JETAN_CD_RUNNING, JETAN_COUNTDOWN_PLIES);
}

static int countdown_due(const struct jetan_state *s)
{
    return s->countdown == JETAN_CD_NONE && s->count[0] <= 3
           && s->count[1] <= 3;
}

/* The draws that do not come from a capture of a royal piece, in order:
 * the countdown run out, no move for the side to move, the ply cap. */
static void settle_draws(struct jetan_state *s)
{
    if (s->countdown == JETAN_CD_RUNNING && s->countdown_left == 0)
        set_result(s, -1, REASON_ENDGAME_COUNTDOWN);
    else if (!jetan_has_move(s))
        set_result(s, -1, REASON_NO_MOVES);
    else if (s->max_plies && s->ply >= s->max_plies)
        set_result(s, -1, REASON_PLY_CAP);
    else
        game_set_ongoing(&s->head);
}

/* ---- the game interface --------------------------------------------- */

static int jetan_from_text(void *st, const struct variant *v,
                           const char *text, char *err, size_t errsz);

/* The start position of docs/rules.md#jetan-setup, with `first` to move. */
static void jetan_init(void *st, const struct variant *v)
{
    static const char *const start[2] = {
        "wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW b Pp",
        "wadfpcfdaw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WADFCPFDAW o Pp"};
    int rc = jetan_from_text(st, v, start[variant_get(v, "first")], NULL, 0);
    assert(rc == 0);
    (void)rc;
}

static void jetan_apply(void *st, move_t m)
{
    struct jetan_state *s = st;
    const int from = JETAN_FROM(m), to = JETAN_TO(m), side = s->head.side;
    assert(s->head.outcome == GAME_ONGOING);
    assert(from < JETAN_SQUARES && to < JETAN_SQUARES);
    assert(s->board[from] && JETAN_SIDE_OF(s->board[from]) == side);
    const int mover = JETAN_KIND_OF(s->board[from]);
    const int captured = s->board[to];
    assert(!captured || JETAN_SIDE_OF(captured) != side);

    if (captured)
        remove_piece(s, to);
    move_piece(s, from, to);
    if (JETAN_IS_ESCAPE(m))
        set_escape(s, side, 0);
    set_side(s, side ^ 1);
    s->ply++;

    if (captured && JETAN_KIND_OF(captured) == JETAN_PRINCESS) {
        set_result(s, side, REASON_PRINCESS_CAPTURED);
        return;
    }
    if (captured && JETAN_KIND_OF(captured) == JETAN_CHIEF) {
        if (mover == JETAN_CHIEF)
            set_result(s, side, REASON_CHIEF_CAPTURED);
        else
            set_result(s, -1, REASON_CHIEF_CAPTURED_BY_OTHER);
        return;
    }
    if (s->countdown == JETAN_CD_RUNNING)
        set_countdown(s, JETAN_CD_RUNNING, s->countdown_left - 1);
    else if (captured && countdown_due(s))
        decide_countdown(s);
    settle_draws(s);
}

static int jetan_move_to_text(const void *st, move_t m, char *buf, size_t n)
{
    (void)st;
    return notation_move_text(&geometry, JETAN_FROM(m),
                              JETAN_IS_ESCAPE(m) ? "^" : "", JETAN_TO(m), buf,
                              n);
}

static int jetan_move_from_text(const void *st, const char *text, move_t *m)
{
    (void)st;
    const char *p = text;
    int from = notation_read_square(&p, &geometry);
    if (from < 0)
        return -1;
    int escape = *p == '^';
    p += escape;
    int to = notation_read_square(&p, &geometry);
    if (to < 0 || *p != '\0')
        return -1;
    *m = JETAN_MOVE(from, to, escape);
    return 0;
}

static char piece_char(int piece)
{
    if (!piece)
        return '.';
    char c = piece_letters[JETAN_KIND_OF(piece)];
    return JETAN_SIDE_OF(piece) == JETAN_BLACK ? c : (char)(c - 'A' + 'a');
}

static char jetan_piece_at(const void *st, int file, int rank)
{
    const struct jetan_state *s = st;
    return piece_char(s->board[JETAN_SQ(file, rank)]);
}

static int jetan_to_text(const void *st, char *buf, size_t n)
{
    const struct jetan_state *s = st;
    char tmp[160];
    int len = notation_write_board(tmp, s, jetan_piece_at, 10, 10);
    char escapes[3] = "-";
    if (s->escape[0] || s->escape[1])
        snprintf(escapes, sizeof escapes, "%s%s", s->escape[0] ? "P" : "",
                 s->escape[1] ? "p" : "");
    char countdown[4] = "-";
    if (s->countdown == JETAN_CD_DECLINED)
        countdown[0] = 'x';
    else if (s->countdown == JETAN_CD_RUNNING)
        snprintf(countdown, sizeof countdown, "%d", s->countdown_left);
    len += sprintf(tmp + len, " %c %s %s %u", s->head.side ? 'o' : 'b',
                   escapes, countdown, (unsigned)s->ply);
    return notation_copy_out(tmp, len, buf, n);
}

/* Puts the piece of letter c on (file, rank) while a position is read
 * (notation_put_fn; ctx is the state). */
static int put_letter(void *ctx, char c, int file, int rank, char *err,
                      size_t errsz)
{
    struct jetan_state *s = ctx;
    int kind = notation_letter_index(piece_letters, c);
    int side = c >= 'a' ? JETAN_ORANGE : JETAN_BLACK;
    if (s->count[side] == JETAN_MAX_PIECES
        || ((kind == JETAN_CHIEF || kind == JETAN_PRINCESS)
            && s->kind_count[side][kind]))
        return game_error(err, errsz, "jetan position: too many pieces (at "
                          "most %d a side, one Chief and one Princess)",
                          JETAN_MAX_PIECES);
    put_piece(s, JETAN_PIECE(side, kind), JETAN_SQ(file, rank));
    return 0;
}

/* Splits text into at most max space-separated words of fewer than 12
 * characters; returns how many, or -1 if there are more or one is longer. */
static int split_words(const char *c, char words[][12], int max)
{
    int n = 0;
    for (;;) {
        while (*c == ' ')
            c++;
        if (!*c)
            return n;
        size_t len = strcspn(c, " ");
        if (n == max || len >= 12)
            return -1;
        memcpy(words[n], c, len);
        words[n++][len] = '\0';
        c += len;
    }
}

/* Reads "<b|o> <escapes> [<countdown> [<ply>]]" after the board. */
static int parse_fields(struct jetan_state *s, const char *c, char *err,
                        size_t errsz)
{
    char w[4][12];
    int n = c[0] == ' ' ? split_words(c, w, 4) : 0;
    if (n < 0)
        return game_error(err, errsz, "jetan position: unexpected text after "
                          "the escapes (optional fields: countdown, ply)");
    if (n < 1 || (strcmp(w[0], "b") != 0 && strcmp(w[0], "o") != 0))
        return game_error(err, errsz, "jetan position: expected the side to "
                          "move ('b' or 'o') after the board");
    if (n < 2 || (strcmp(w[1], "-") != 0 && strcmp(w[1], "P") != 0
                  && strcmp(w[1], "p") != 0 && strcmp(w[1], "Pp") != 0
                  && strcmp(w[1], "pP") != 0))
        return game_error(err, errsz, "jetan position: expected the escapes "
                          "available (Pp, P, p or -) after the side");
    set_side(s, w[0][0] == 'o');
    set_escape(s, JETAN_BLACK, strchr(w[1], 'P') != NULL);
    set_escape(s, JETAN_ORANGE, strchr(w[1], 'p') != NULL);
    if (n == 4) {
        char *end;
        unsigned long ply = strtoul(w[3], &end, 10);
        if (*end || w[3][0] < '0' || w[3][0] > '9' || ply > UINT32_MAX)
            return game_error(err, errsz, "jetan position: bad ply '%s'",
                              w[3]);
        s->ply = (uint32_t)ply;
    }
    if (n < 3 || strcmp(w[2], "-") == 0)
        return 0;
    int both_low = s->count[0] <= 3 && s->count[1] <= 3;
    if (strcmp(w[2], "x") == 0) {
        if (!both_low)
            return game_error(err, errsz, "jetan position: countdown 'x' but "
                              "a side has more than 3 pieces");
        set_countdown(s, JETAN_CD_DECLINED, 0);
        return 0;
    }
    char *end;
    long left = strtol(w[2], &end, 10);
    if (*end || w[2][0] < '0' || w[2][0] > '9' || left > JETAN_COUNTDOWN_PLIES)
        return game_error(err, errsz, "jetan position: bad countdown '%s' "
                          "(allowed: -, x, 0..10)", w[2]);
    if (!both_low)
        return game_error(err, errsz, "jetan position: a countdown runs but "
                          "a side has more than 3 pieces");
    set_countdown(s, JETAN_CD_RUNNING, (int)left);
    return 0;
}

static int jetan_from_text(void *st, const struct variant *v,
                           const char *text, char *err, size_t errsz)
{
    struct jetan_state *s = st;
    clear_board(s, v);
    static const struct board_format format = {
        "jetan", 10, 10, "CPFDAWTNcpfdawtn",
        "pieces are C P F D A W T N, Orange lowercase", " "};
    const char *c = notation_read_board(text, &format, put_letter, s, err,
                                        errsz);
    if (!c || parse_fields(s, c, err, errsz) != 0)
        return -1;
    int black_p = s->princess_sq[JETAN_BLACK] != JETAN_NO_SQUARE;
    int orange_p = s->princess_sq[JETAN_ORANGE] != JETAN_NO_SQUARE;
    if (!black_p && !orange_p)
        return game_error(err, errsz, "jetan position: neither side has a "
                          "Princess");
    if (!black_p || !orange_p)
        set_result(s, black_p ? JETAN_BLACK : JETAN_ORANGE,
                   REASON_PRINCESS_CAPTURED);
    else if (s->chief_sq[0] == JETAN_NO_SQUARE
             || s->chief_sq[1] == JETAN_NO_SQUARE)
        set_result(s, -1, REASON_CHIEF_CAPTURED_BY_OTHER);
    else {
        if (countdown_due(s))
            decide_countdown(s);
        settle_draws(s);
    }
    return 0;
}

static const char *jetan_seat_side(const void *st, int seat)
{
    static const char *const names[2] = {"black", "orange"};
    return game_head_side_name(st, seat, names);
}

static int jetan_state_ok(const void *st)
{
    const struct jetan_state *s = st;
    uint64_t h = s->head.side ? zobrist_key(ZOBRIST_SALT, SIDE_KEY_INDEX) : 0;
    uint64_t occ[2][2] = {{0, 0}, {0, 0}};
    uint64_t kind_occ[2][JETAN_KINDS][2];
    memset(kind_occ, 0, sizeof kind_occ);
    int count[2] = {0, 0}, kinds[2][JETAN_KINDS];
    int royal[2][2] = {{JETAN_NO_SQUARE, JETAN_NO_SQUARE},
                       {JETAN_NO_SQUARE, JETAN_NO_SQUARE}};
    memset(kinds, 0, sizeof kinds);
    for (int sq = 0; sq < JETAN_SQUARES; sq++) {
        int p = s->board[sq];
        if (!p)
            continue;
        if (p > 16)
            return 0;
        int side = JETAN_SIDE_OF(p), kind = JETAN_KIND_OF(p);
        h ^= piece_key(p, sq);
        occ[side][sq >> 6] |= 1ULL << (sq & 63);
        kind_occ[side][kind][sq >> 6] |= 1ULL << (sq & 63);
        count[side]++;
        kinds[side][kind]++;
        if (kind == JETAN_CHIEF || kind == JETAN_PRINCESS)
            royal[side][kind] = sq;
    }
    for (int side = 0; side < 2; side++) {
        if (s->escape[side])
            h ^= zobrist_key(ZOBRIST_SALT, (uint32_t)(ESCAPE_KEY_INDEX + side));
        if (count[side] != s->count[side] || count[side] > JETAN_MAX_PIECES
            || occ[side][0] != s->occ[side][0]
            || occ[side][1] != s->occ[side][1]
            || royal[side][JETAN_CHIEF] != s->chief_sq[side]
            || royal[side][JETAN_PRINCESS] != s->princess_sq[side])
            return 0;
        for (int k = 0; k < JETAN_KINDS; k++)
            if (kinds[side][k] != s->kind_count[side][k])
                return 0;
    }
    if (memcmp(kind_occ, s->kind_occ, sizeof kind_occ) != 0)
        return 0;
    h ^= countdown_key(s->countdown, s->countdown_left);
    if (s->countdown != JETAN_CD_NONE && (count[0] > 3 || count[1] > 3))
        return 0;
    if (s->countdown == JETAN_CD_RUNNING
        && s->countdown_left > JETAN_COUNTDOWN_PLIES)
        return 0;
    return h == s->head.hash;
}

/* jetan_game.search_key (game.h): the Zobrist hash (board, side to move,
 * escapes, countdown) with the head, every counter and the rules mixed in
 * again. */
static uint64_t jetan_search_key(const void *st)
{
    const struct jetan_state *s = st;
    uint64_t h = game_head_key(&s->head, s->ply);
    h = game_key_mix(h, (uint64_t)s->escape[0]
                            | (uint64_t)s->escape[1] << 8
                            | (uint64_t)s->countdown << 16
                            | (uint64_t)s->countdown_left << 24
                            | (uint64_t)s->max_plies << 32);
    h = game_key_mix(h, (uint64_t)s->thoat_jumps
                            | (uint64_t)s->princess_escape << 8
                            | (uint64_t)s->princess_safe << 16
                            | (uint64_t)s->equal_value << 24);
    return game_key_mix(h, 0);
}

const struct game jetan_game = {
    .name = "jetan",
    .title = "Jetan (Martian chess, 10x10): take the Princess",
    .params = jetan_params,
    .n_params = (int)(sizeof jetan_params / sizeof jetan_params[0]),
    .behaviour_version = 1,
    .state_size = sizeof(struct jetan_state),
    /* 18 pieces reach at most 16 squares each, the Chief and the Princess
     * 48 each, and an escape at most 99: 483 */
    .max_moves = 512,
    .board_files = 10,
    .board_ranks = 10,
    .perft_max_depth = 5,
    .init = jetan_init,
    .legal_moves = jetan_legal_moves,
    .random_move = jetan_random_move,
    .apply = jetan_apply,
    .to_move = game_head_to_move,
    .status = game_head_status,
    .hash = game_head_hash,
    .move_to_text = jetan_move_to_text,
    .move_from_text = jetan_move_from_text,
    .to_text = jetan_to_text,
    .from_text = jetan_from_text,
    .piece_at = jetan_piece_at,
    .seat_side = jetan_seat_side,
    .state_ok = jetan_state_ok,
    .search_key = jetan_search_key,
    .wins_at_once = jetan_wins_at_once,
};
