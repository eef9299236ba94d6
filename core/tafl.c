/*
 * tafl.c -- Hnefatafl 9x9 as docs/rules.md#hnefatafl-9x9-tafl states it.
 *
 * Speed comes from the mailbox with a border (no bounds tests while
 * sliding), per-side piece lists (no scan of empty squares), and a status
 * that apply() settles once, so a playout asks nothing twice. The moves
 * are generated in tafl_moves.c.
 */
#include "tafl.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "notation.h"
#include "zobrist.h"

#define ZOBRIST_SALT 0x7a41f1ULL
#define SIDE_KEY_INDEX 0
#define THRONE TAFL_SQ(4, 4)

static const int directions[4] = {1, -1, 11, -11};
/* The mailbox: square (file, rank) at (rank + 1) * 11 + file + 1. */
static const struct board_geometry geometry = {9, 9, 11, 12};

enum { PLAIN = 0, THRONE_SQ = 1, CORNER_SQ = 2 };

static const char *const first_choices[] = {"attackers", "defenders", NULL};
static const char *const escape_choices[] = {"corner", "edge", NULL};
static const char *const king_capture_choices[] = {"surround", "custodial",
                                                   NULL};
static const char *const king_throne_choices[] = {"free", "barred", NULL};

static const struct param_spec tafl_params[] = {
    {.name = "edge_captures_king", .type = PARAM_BOOL, .def = 1, .max = 1,
     .doc = "the board edge counts as the King's fourth side", .since = 1},
    {.name = "escape", .type = PARAM_ENUM, .choices = escape_choices,
     .doc = "the King wins on a corner, or on any edge square", .since = 1},
    {.name = "first", .type = PARAM_ENUM, .choices = first_choices,
     .doc = "which side moves first", .since = 1},
    {.name = "king_armed", .type = PARAM_BOOL, .max = 1,
     .doc = "the King takes part in captures", .since = 1},
    {.name = "king_capture", .type = PARAM_ENUM,
     .choices = king_capture_choices, .since = 1,
     .doc = "surround the King, or take it between two attackers off the "
            "throne"},
    /* Parameters since 2 (added to play Ludii's Tablut exactly): at their
     * defaults they leave every identity, perft count and bench signature
     * as it was. */
    {.name = "king_throne", .type = PARAM_ENUM, .choices = king_throne_choices,
     .since = 2, .doc = "the King may stop on and pass over the throne, or "
                        "(barred) not once it has left it"},
    {.name = "max_plies", .type = PARAM_INT, .def = 500, .max = 100000,
     .doc = "plies after which the game is a draw (ply_cap); 0 = none",
     .since = 1},
    {.name = "no_capture_limit", .type = PARAM_INT, .def = 50, .max = 1000,
     .doc = "moves per player without a capture that draw; 0 = none",
     .since = 1},
    {.name = "repetition_draw", .type = PARAM_BOOL, .def = 1, .max = 1,
     .doc = "threefold repetition is a draw", .since = 2},
    {.name = "repetition_limit", .type = PARAM_INT, .def = 3, .max = 100,
     .since = 1, .doc = "times a piece may go back and forth between two "
                        "squares; 0 = none"},
    /* A bool (0 or 1) until value 2 came: the same texts, so the same
     * identities. */
    {.name = "throne_hostile", .type = PARAM_INT, .min = 0, .max = 2,
     .doc = "1: the empty throne helps capture men of both sides; 2: the "
            "throne does, empty or not", .since = 1},
    {.name = "throne_passable", .type = PARAM_BOOL, .def = 1, .max = 1,
     .doc = "men may pass over the empty throne", .since = 1},
};

static int on_edge(int sq)
{
    int file = tafl_file(sq), rank = tafl_rank(sq);
    return file == 0 || file == 8 || rank == 0 || rank == 8;
}

static int square_kind(int sq)
{
    if (sq == THRONE)
        return THRONE_SQ;
    if (sq == TAFL_SQ(0, 0) || sq == TAFL_SQ(8, 0) || sq == TAFL_SQ(0, 8)
        || sq == TAFL_SQ(8, 8))
        return CORNER_SQ;
    return PLAIN;
}


static uint64_t piece_key(int piece, int sq)
{
    return zobrist_key(ZOBRIST_SALT, (uint32_t)(piece * TAFL_SQUARES + sq));
}

/* ---- board bookkeeping ---------------------------------------------- */


/* Flips square sq in the rank and file occupancy masks. */
static void toggle_occupancy(struct tafl_state *s, int sq)
{
    int file = tafl_file(sq), rank = tafl_rank(sq);
    s->rank_occupancy[rank] ^= (uint16_t)(1u << file);
    s->file_occupancy[file] ^= (uint16_t)(1u << rank);
}

static void put_piece(struct tafl_state *s, int piece, int sq)
{
    toggle_occupancy(s, sq);
    s->board[sq] = (uint8_t)piece;
    piece_list_add(&s->pieces[tafl_side_of(piece)], s->piece_index, sq);
    s->head.hash ^= piece_key(piece, sq);
    if (piece == TAFL_KING)
        s->king_sq = (uint8_t)sq;
}

static void remove_piece(struct tafl_state *s, int sq)
{
    int piece = s->board[sq];
    piece_list_remove(&s->pieces[tafl_side_of(piece)], s->piece_index, sq);
    s->board[sq] = TAFL_EMPTY;
    s->head.hash ^= piece_key(piece, sq);
    toggle_occupancy(s, sq);
    if (piece == TAFL_KING)
        s->king_sq = 0;
}

static void move_piece(struct tafl_state *s, int from, int to)
{
    int piece = s->board[from];
    piece_list_move(&s->pieces[tafl_side_of(piece)], s->piece_index, from, to);
    s->board[to] = (uint8_t)piece;
    s->board[from] = TAFL_EMPTY;
    s->head.hash ^= piece_key(piece, from) ^ piece_key(piece, to);
    toggle_occupancy(s, from);
    toggle_occupancy(s, to);
    if (piece == TAFL_KING)
        s->king_sq = (uint8_t)to;
}

static void clear_board(struct tafl_state *s, const struct variant *v)
{
    memset(s, 0, sizeof *s);
    for (int sq = 0; sq < TAFL_SQUARES; sq++) {
        int file = sq % 11 - 1, rank = sq / 11 - 1;
        s->board[sq] = (file < 0 || file > 8 || rank < 0 || rank > 8)
                           ? TAFL_OFF : TAFL_EMPTY;
    }
    s->head.first = (uint8_t)variant_get(v, "first");
    s->throne_passable = (uint8_t)variant_get(v, "throne_passable");
    s->throne_hostile = (uint8_t)variant_get(v, "throne_hostile");
    s->king_throne_barred = (uint8_t)variant_get(v, "king_throne");
    s->repetition_draw = (uint8_t)variant_get(v, "repetition_draw");
    s->king_armed = (uint8_t)variant_get(v, "king_armed");
    s->edge_captures_king = (uint8_t)variant_get(v, "edge_captures_king");
    s->king_custodial = (uint8_t)variant_get(v, "king_capture");
    s->escape_edge = (uint8_t)variant_get(v, "escape");
    s->repetition_limit = (uint16_t)variant_get(v, "repetition_limit");
    s->no_capture_limit = (uint16_t)variant_get(v, "no_capture_limit");
    s->max_plies = (uint32_t)variant_get(v, "max_plies");
    s->last_from[0] = s->last_from[1] = 0;
    s->last_to[0] = s->last_to[1] = 0;
}

static void set_side(struct tafl_state *s, int side)
{
    if (s->head.side != side)
        s->head.hash ^= zobrist_key(ZOBRIST_SALT, SIDE_KEY_INDEX);
    s->head.side = (uint8_t)side;
}

/* ---- captures -------------------------------------------------------- */

/* Whether square sq helps the side `side` enclose an enemy man: one of
 * its own pieces, a corner (escape=corner), the empty throne
 * (throne_hostile 1 or 2), or the occupied throne (throne_hostile=2; only
 * the King can stand there). */
static int hostile_to_enemy_men(const struct tafl_state *s, int sq, int side)
{
    int p = s->board[sq];
    if (side == TAFL_SIDE_ATTACKERS && p == TAFL_ATTACKER)
        return 1;
    if (side == TAFL_SIDE_DEFENDERS
        && (p == TAFL_DEFENDER || (p == TAFL_KING && s->king_armed)))
        return 1;
    if (p != TAFL_EMPTY)
        return sq == THRONE && s->throne_hostile == 2;
    int kind = square_kind(sq);
    return (kind == CORNER_SQ && !s->escape_edge)
           || (kind == THRONE_SQ && s->throne_hostile);
}

/* Captures the men enclosed by the piece that just moved to `to`.
 * Returns how many were taken. */
static int capture_men(struct tafl_state *s, int to)
{
    int piece = s->board[to], side = tafl_side_of(piece);
    if (piece == TAFL_KING && !s->king_armed)
        return 0;
    int enemy_man = side == TAFL_SIDE_ATTACKERS ? TAFL_DEFENDER : TAFL_ATTACKER;
    int taken = 0;
    for (int d = 0; d < 4; d++) {
        int victim = to + directions[d];
        if (s->board[victim] == enemy_man
            && hostile_to_enemy_men(s, victim + directions[d], side)) {
            remove_piece(s, victim);
            taken++;
        }
    }
    return taken;
}

static int next_to_throne(int sq)
{
    for (int d = 0; d < 4; d++)
        if (sq + directions[d] == THRONE)
            return 1;
    return 0;
}

/* The King on ks enclosed on all four sides (attackers, the throne, and
 * the edge if edge_captures_king). */
static int king_surrounded(const struct tafl_state *s, int ks)
{
    for (int d = 0; d < 4; d++) {
        int sq = ks + directions[d];
        int p = s->board[sq];
        if (p == TAFL_ATTACKER || sq == THRONE
            || (p == TAFL_OFF && s->edge_captures_king))
            continue;
        return 0;
    }
    return 1;
}

/* Whether the attacker that just moved to `to` captures the King. */
static int captures_king(const struct tafl_state *s, int to)
{
    int ks = s->king_sq;
    if (!ks)
        return 0;
    int dir = ks - to;
    if (dir != 1 && dir != -1 && dir != 11 && dir != -11)
        return 0;
    if (s->king_custodial && ks != THRONE && !next_to_throne(ks))
        return s->board[ks + dir] == TAFL_ATTACKER;
    return king_surrounded(s, ks);
}

/* ---- status ---------------------------------------------------------- */

/* Settles the status after a move by `mover` (or of a position read from
 * text, mover < 0): wins first, then draws by the rules, then the ply cap. */
static void settle_status(struct tafl_state *s, int mover)
{
    int ks = s->king_sq;
    struct game_head *h = &s->head;
    if (!ks) {
        game_set_result(h, TAFL_SIDE_ATTACKERS, REASON_KING_CAPTURED);
    } else if (s->escape_edge ? on_edge(ks) : square_kind(ks) == CORNER_SQ) {
        game_set_result(h, TAFL_SIDE_DEFENDERS, REASON_KING_ESCAPED);
    } else if (!tafl_has_legal_move(s)) {
        game_set_result(h, h->side ^ 1, REASON_NO_MOVES);
    } else {
        int reps = mover >= 0 && s->repetition_draw
                       ? history_repetitions(&s->history, h->hash)
                       : 0;
        enum end_reason draw = game_count_draw(reps, s->history.quiet_plies,
                                               s->no_capture_limit, s->ply,
                                               s->max_plies);
        if (draw != REASON_NONE)
            game_set_result(h, -1, draw);
        else
            game_set_ongoing(h);
    }
}

int tafl_quiet_move_draws(const struct tafl_state *s, move_t m)
{
    const int from = TAFL_FROM(m), to = TAFL_TO(m), piece = s->board[from];
    const struct history *h = &s->history;
    const unsigned quiet = h->quiet_plies < UINT16_MAX ? h->quiet_plies + 1u
                                                       : h->quiet_plies;
    int reps = 0;
    if (s->repetition_draw) {
        uint64_t hash = s->head.hash ^ piece_key(piece, from)
                        ^ piece_key(piece, to)
                        ^ zobrist_key(ZOBRIST_SALT, SIDE_KEY_INDEX);
        reps = history_repetitions_after(h, hash);
    }
    return game_count_draw(reps, quiet, s->no_capture_limit, s->ply + 1,
                           s->max_plies) != REASON_NONE;
}

/* ---- the game interface --------------------------------------------- */

static void tafl_init(void *st, const struct variant *v)
{
    static const char *start =
        "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3";
    struct tafl_state *s = st;
    clear_board(s, v);
    int rank = 8, file = 0;
    for (const char *c = start; *c; c++) {
        if (*c == '/')
            rank--, file = 0;
        else if (*c >= '1' && *c <= '9')
            file += *c - '0';
        else
            put_piece(s, *c == 'a' ? TAFL_ATTACKER
                         : *c == 'd' ? TAFL_DEFENDER : TAFL_KING,
                      TAFL_SQ(file++, rank));
    }
    set_side(s, s->head.first);
    history_start(&s->history, s->head.hash);
}

static void tafl_apply(void *st, move_t m)
{
    struct tafl_state *s = st;
    const int from = TAFL_FROM(m), to = TAFL_TO(m), side = s->head.side;
    assert(s->head.outcome == GAME_ONGOING);
    assert(s->board[from] != TAFL_EMPTY
           && tafl_side_of(s->board[from]) == side);

    if (from == s->last_to[side] && to == s->last_from[side])
        s->shuttle_len[side]++;
    else
        s->shuttle_len[side] = 1;
    s->last_from[side] = (uint8_t)from;
    s->last_to[side] = (uint8_t)to;

    move_piece(s, from, to);
    int taken = capture_men(s, to);
    if (side == TAFL_SIDE_ATTACKERS && captures_king(s, to)) {
        remove_piece(s, s->king_sq);
        taken++;
    }
    set_side(s, side ^ 1);
    s->ply++;
    history_push(&s->history, s->head.hash, taken);
    settle_status(s, side);
}

static int tafl_move_to_text(const void *st, move_t m, char *buf, size_t n)
{
    (void)st;
    return notation_move_text(&geometry, TAFL_FROM(m), "", TAFL_TO(m), buf, n);
}

/* tafl_game.mirror_move_text: the board, the throne (e5), the corners and
 * every rule of docs/rules.md#hnefatafl-9x9-tafl are the same seen in a
 * mirror (no rule names a file); tests/test_mirror.c checks it with the
 * reference. */
static int tafl_mirror_move_text(const char *text, char *buf, size_t n)
{
    return notation_mirror_move(&geometry, text, buf, n);
}

static int tafl_move_from_text(const void *st, const char *text, move_t *m)
{
    (void)st;
    const char *p = text;
    int from = notation_read_square(&p, &geometry);
    int to = from < 0 ? -1 : notation_read_square(&p, &geometry);
    if (to < 0 || *p != '\0')
        return -1;
    *m = TAFL_MOVE(from, to);
    return 0;
}

static char piece_char(int piece)
{
    static const char chars[] = ".adk";
    return chars[piece];
}

static char tafl_piece_at(const void *st, int file, int rank)
{
    const struct tafl_state *s = st;
    return piece_char(s->board[TAFL_SQ(file, rank)]);
}

static int tafl_to_text(const void *st, char *buf, size_t n)
{
    const struct tafl_state *s = st;
    char tmp[128];
    int len = notation_write_board(tmp, s, tafl_piece_at, 9, 9);
    len += sprintf(tmp + len, " %c %u %u", s->head.side ? 'd' : 'a',
                   (unsigned)s->history.quiet_plies, (unsigned)s->ply);
    return notation_copy_out(tmp, len, buf, n);
}

/* Puts the piece of letter c on (file, rank) while a position is read
 * (notation_put_fn; ctx is the state). */
static int put_letter(void *ctx, char c, int file, int rank, char *err,
                      size_t errsz)
{
    struct tafl_state *s = ctx;
    int piece = c == 'a' ? TAFL_ATTACKER
                : c == 'd' ? TAFL_DEFENDER : TAFL_KING;
    if (s->pieces[tafl_side_of(piece)].count == PIECE_LIST_MAX
        || (piece == TAFL_KING && s->king_sq))
        return game_error(err, errsz, "tafl position: too many pieces (at "
                          "most 16 a side, one king)");
    int sq = TAFL_SQ(file, rank);
    if (piece != TAFL_KING && tafl_restricted(s, sq))
        return game_error(err, errsz, "tafl position: only the king may "
                          "stand on %c%d", 'a' + file, rank + 1);
    put_piece(s, piece, sq);
    return 0;
}

static int tafl_from_text(void *st, const struct variant *v, const char *text,
                          char *err, size_t errsz)
{
    struct tafl_state *s = st;
    clear_board(s, v);
    static const struct board_format format = {
        "tafl", 9, 9, "adk", "pieces are a, d, k", " "};
    const char *c = notation_read_board(text, &format, put_letter, s, err,
                                        errsz);
    if (!c)
        return -1;
    int side;
    unsigned nocap, ply;
    if (game_parse_side_and_counters(c, "tafl", "ad", &side, &nocap, &ply, err,
                                     errsz) != 0)
        return -1;
    set_side(s, side);
    s->history.quiet_plies = (uint16_t)nocap;
    s->ply = ply;
    history_start(&s->history, s->head.hash);
    settle_status(s, -1);
    return 0;
}

static const char *tafl_seat_side(const void *st, int seat)
{
    static const char *const names[2] = {"attackers", "defenders"};
    return game_head_side_name(st, seat, names);
}

static int tafl_state_ok(const void *st)
{
    const struct tafl_state *s = st;
    uint64_t h = s->head.side ? zobrist_key(ZOBRIST_SALT, SIDE_KEY_INDEX) : 0;
    int counted[2] = {0, 0}, king = 0;
    for (int sq = 0; sq < TAFL_SQUARES; sq++) {
        int p = s->board[sq];
        if (p == TAFL_OFF || p == TAFL_EMPTY)
            continue;
        int side = tafl_side_of(p);
        h ^= piece_key(p, sq);
        counted[side]++;
        if (!piece_list_holds(&s->pieces[side], s->piece_index, sq))
            return 0;
        if (p == TAFL_KING)
            king = sq;
    }
    for (int line = 0; line < 9; line++) {
        uint32_t rank_bits = 0, file_bits = 0;
        for (int i = 0; i < 9; i++) {
            rank_bits |= (uint32_t)(s->board[TAFL_SQ(i, line)] != TAFL_EMPTY) << i;
            file_bits |= (uint32_t)(s->board[TAFL_SQ(line, i)] != TAFL_EMPTY) << i;
        }
        if (rank_bits != s->rank_occupancy[line]
            || file_bits != s->file_occupancy[line])
            return 0;
    }
    return h == s->head.hash && counted[0] == s->pieces[0].count
           && counted[1] == s->pieces[1].count && king == s->king_sq;
}

/* tafl_game.search_key (game.h): the Zobrist hash (board, side to move)
 * with the head, the shuttles, the repetition stretch, the ply and the
 * rules mixed in. */
static uint64_t tafl_search_key(const void *st)
{
    const struct tafl_state *s = st;
    uint64_t h = game_head_key(&s->head, s->ply);
    h = game_key_mix(h, (uint64_t)s->last_from[0]
                            | (uint64_t)s->last_from[1] << 8
                            | (uint64_t)s->last_to[0] << 16
                            | (uint64_t)s->last_to[1] << 24
                            | (uint64_t)s->shuttle_len[0] << 32
                            | (uint64_t)s->shuttle_len[1] << 48);
    h = game_key_mix(h, (uint64_t)s->throne_passable
                            | (uint64_t)s->throne_hostile << 8
                            | (uint64_t)s->king_armed << 16
                            | (uint64_t)s->edge_captures_king << 24
                            | (uint64_t)s->king_custodial << 32
                            | (uint64_t)s->escape_edge << 40);
    h = game_key_mix(h, (uint64_t)s->repetition_limit
                            | (uint64_t)s->no_capture_limit << 16
                            | (uint64_t)s->max_plies << 32);
    return game_key_mix(history_key(h, &s->history), 0);
}

/* tafl_game.state_used: everything up to the history, and the
 * history's used slots (history is the state's last member). */
_Static_assert(offsetof(struct tafl_state, history) + sizeof(struct history)
                   == sizeof(struct tafl_state),
               "the history is the state's last member");
static size_t tafl_state_used(const void *st)
{
    const struct tafl_state *s = st;
    return offsetof(struct tafl_state, history)
           + history_used_bytes(&s->history);
}

/* tafl_game.canonical: the piece lists in rising square order, and every
 * slot and list entry not in use 0. */
static void tafl_canonical(void *st)
{
    struct tafl_state *s = st;
    memset(s->pieces, 0, sizeof s->pieces);
    memset(s->piece_index, 0, sizeof s->piece_index);
    for (int sq = 0; sq < TAFL_SQUARES; sq++)
        if (s->board[sq] != TAFL_EMPTY && s->board[sq] != TAFL_OFF)
            piece_list_add(&s->pieces[tafl_side_of(s->board[sq])],
                           s->piece_index, sq);
}

const struct game tafl_game = {
    .name = "tafl",
    .title = "Hnefatafl 9x9 (Tablut cross): attackers against the King",
    .params = tafl_params,
    .n_params = (int)(sizeof tafl_params / sizeof tafl_params[0]),
    .behaviour_version = 1,
    .state_size = sizeof(struct tafl_state),
    .max_moves = 16 * 16,
    .board_files = 9,
    .board_ranks = 9,
    .perft_max_depth = 5,
    .init = tafl_init,
    .legal_moves = tafl_legal_moves,
    .apply = tafl_apply,
    .to_move = game_head_to_move,
    .status = game_head_status,
    .hash = game_head_hash,
    .move_to_text = tafl_move_to_text,
    .move_from_text = tafl_move_from_text,
    .to_text = tafl_to_text,
    .from_text = tafl_from_text,
    .piece_at = tafl_piece_at,
    .seat_side = tafl_seat_side,
    .state_ok = tafl_state_ok,
    .search_key = tafl_search_key,
    .wins_at_once = tafl_wins_at_once,
    .mirror_move_text = tafl_mirror_move_text,
    .mirror_position_text = notation_mirror_position,
    .state_used = tafl_state_used,
    .canonical = tafl_canonical,
    .random_move = tafl_random_move,
};
