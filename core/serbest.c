/*
 * serbest.c -- Serbest (KhanChess 10x10 with drops): the state, making
 * moves, the end of the game, and text. Move generation and attacks are in
 * serbest_moves.c.
 *
 * The hash covers the board, both hands and the side to move, which is
 * exactly what threefold repetition compares. Captures and drops can never
 * be undone (captured pieces leave the game), so the repetition history
 * starts again after each, and is never longer than the no-capture count.
 */
#include "serbest.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "notation.h"
#include "zobrist.h"

#define ZOBRIST_SALT 0x5e4b357ULL
#define SIDE_KEY_INDEX 0
#define HAND_KEY_BASE 4000

static const char piece_letters[SERBEST_KINDS + 1] = ".KQRBNPS";
/* The mailbox: square (file, rank) at (rank + 2) * 12 + file + 1. */
static const struct board_geometry geometry = {10, 10, 12, 25};
static const int start_hand[SERBEST_KINDS] = {0, 1, 1, 2, 2, 2, 6, 2};

static const char *const stalemate_choices[] = {"loss", "draw", "win", NULL};

static const struct param_spec serbest_params[] = {
    {.name = "adjacent_drop_check", .type = PARAM_BOOL, .max = 1, .since = 1,
     .doc = "a dropped piece may give check from beside the king"},
    {.name = "kings_landing", .type = PARAM_INT, .def = 7, .min = 1, .max = 9,
     .doc = "a king may be dropped on ranks 1..N counted from its own side",
     .since = 1},
    {.name = "max_plies", .type = PARAM_INT, .def = 500, .max = 100000,
     .doc = "plies after which the game is a draw (ply_cap); 0 = none",
     .since = 1},
    {.name = "no_capture_limit", .type = PARAM_INT, .def = 50, .max = 1000,
     .since = 1, .doc = "moves per player without a capture or drop that "
                        "draw; 0 = none"},
    {.name = "stalemate", .type = PARAM_ENUM, .choices = stalemate_choices,
     .doc = "what stalemate does to the stalemated side", .since = 1},
};

/* ---- hashing and bookkeeping ------------------------------------------ */

static uint64_t piece_key(int piece, int sq)
{
    return zobrist_key(ZOBRIST_SALT, (uint32_t)(piece * SERBEST_SQUARES + sq + 1));
}

static uint64_t hand_key(int colour, int kind, int count)
{
    return zobrist_key(ZOBRIST_SALT,
                       (uint32_t)(HAND_KEY_BASE + (colour * 8 + kind) * 32 + count));
}

static uint64_t side_key(void)
{
    return zobrist_key(ZOBRIST_SALT, SIDE_KEY_INDEX);
}

static void set_hand(struct serbest_state *s, int colour, int kind, int count)
{
    int old = s->hand[colour][kind];
    if (old)
        s->head.hash ^= hand_key(colour, kind, old);
    if (count)
        s->head.hash ^= hand_key(colour, kind, count);
    s->hand[colour][kind] = (uint8_t)count;
}

static void put_piece(struct serbest_state *s, int piece, int sq)
{
    int colour = SERBEST_COLOUR(piece);
    s->board[sq] = (uint8_t)piece;
    piece_list_add(&s->pieces[colour], s->piece_index, sq);
    s->head.hash ^= piece_key(piece, sq);
    if (SERBEST_KIND(piece) == SERBEST_KING)
        s->king_sq[colour] = (uint8_t)sq;
}

static void remove_piece(struct serbest_state *s, int sq)
{
    int piece = s->board[sq], colour = SERBEST_COLOUR(piece);
    piece_list_remove(&s->pieces[colour], s->piece_index, sq);
    s->board[sq] = SERBEST_EMPTY;
    s->head.hash ^= piece_key(piece, sq);
    if (SERBEST_KIND(piece) == SERBEST_KING)
        s->king_sq[colour] = 0;
}

static void move_piece(struct serbest_state *s, int from, int to)
{
    int piece = s->board[from], colour = SERBEST_COLOUR(piece);
    piece_list_move(&s->pieces[colour], s->piece_index, from, to);
    s->board[to] = (uint8_t)piece;
    s->board[from] = SERBEST_EMPTY;
    s->head.hash ^= piece_key(piece, from) ^ piece_key(piece, to);
    if (SERBEST_KIND(piece) == SERBEST_KING)
        s->king_sq[colour] = (uint8_t)to;
}

static int far_rank(int colour)
{
    return colour == SERBEST_WHITE ? 9 : 0;
}

/* An empty board with the variant's rules and empty hands. */
static void clear_state(struct serbest_state *s, const struct variant *v)
{
    memset(s, 0, sizeof *s);
    memset(s->board, SERBEST_OFF, sizeof s->board);
    for (int rank = 0; rank < 10; rank++)
        for (int file = 0; file < 10; file++)
            s->board[SERBEST_SQ(file, rank)] = SERBEST_EMPTY;
    s->kings_landing = (uint8_t)variant_get(v, "kings_landing");
    s->adjacent_drop_check = (uint8_t)variant_get(v, "adjacent_drop_check");
    s->stalemate = (uint8_t)variant_get(v, "stalemate");
    s->no_capture_limit = (uint16_t)variant_get(v, "no_capture_limit");
    s->max_plies = (uint32_t)variant_get(v, "max_plies");
}

/* Settles the status of the side to move: wins first, then draws by the
 * rules, then the ply cap. `khan` says the last move made its king Khan.
 * White is seat 0 in every variant (head.first stays 0). */
static void settle_status(struct serbest_state *s, int khan)
{
    struct game_head *h = &s->head;
    const int to_move = h->side, mover = to_move ^ 1;
    game_set_ongoing(h);
    if (khan) {
        game_set_result(h, mover, REASON_KHAN);
    } else if (!serbest_has_legal_move(s)) {
        if (serbest_in_check(s, to_move))
            game_set_result(h, mover, REASON_CHECKMATE);
        else if (s->stalemate == SERBEST_STALEMATE_LOSS)
            game_set_result(h, mover, REASON_STALEMATE);
        else if (s->stalemate == SERBEST_STALEMATE_WIN)
            game_set_result(h, to_move, REASON_STALEMATE);
        else
            game_set_result(h, -1, REASON_STALEMATE);
    } else {
        enum end_reason draw = game_count_draw(
            history_repetitions(&s->history, h->hash),
            s->history.quiet_plies, s->no_capture_limit, s->ply, s->max_plies);
        if (draw != REASON_NONE)
            game_set_result(h, -1, draw);
    }
}

/* ---- the game interface ------------------------------------------------ */

static void serbest_init(void *st, const struct variant *v)
{
    struct serbest_state *s = st;
    clear_state(s, v);
    for (int colour = 0; colour < 2; colour++)
        for (int kind = 1; kind < SERBEST_KINDS; kind++)
            set_hand(s, colour, kind, start_hand[kind]);
    history_start(&s->history, s->head.hash);
}

static void serbest_apply(void *st, move_t m)
{
    struct serbest_state *s = st;
    const int us = s->head.side, to = SERBEST_TO(m), kind = SERBEST_DROP_KIND(m);
    int irreversible = 1, khan = 0;
    assert(s->head.outcome == GAME_ONGOING);
    if (kind) {
        assert(s->hand[us][kind] > 0 && s->board[to] == SERBEST_EMPTY);
        put_piece(s, SERBEST_PIECE(kind, us), to);
        set_hand(s, us, kind, s->hand[us][kind] - 1);
    } else {
        const int from = SERBEST_FROM(m);
        assert(SERBEST_COLOUR(s->board[from]) == us);
        irreversible = s->board[to] != SERBEST_EMPTY;
        if (irreversible)
            remove_piece(s, to);
        move_piece(s, from, to);
        khan = SERBEST_KIND(s->board[to]) == SERBEST_KING
               && SERBEST_RANK(to) == far_rank(us);
    }
    s->head.side ^= 1;
    s->head.hash ^= side_key();
    s->ply++;
    history_push(&s->history, s->head.hash, irreversible);
    settle_status(s, khan);
}

static int serbest_move_to_text(const void *st, move_t m, char *buf, size_t n)
{
    (void)st;
    int kind = SERBEST_DROP_KIND(m);
    if (!kind)
        return notation_move_text(&geometry, SERBEST_FROM(m), "",
                                  SERBEST_TO(m), buf, n);
    const char drop[3] = {piece_letters[kind], '@', '\0'};
    return notation_move_text(&geometry, -1, drop, SERBEST_TO(m), buf, n);
}

/* serbest_game.mirror_move_text: no rule of docs/rules.md#serbest names
 * a file or a square colour (no castling, bishops drop anywhere, pawns
 * move and capture alike to both sides), so the game is the same in a
 * mirror; tests/test_mirror.c checks it with the reference. */
static int serbest_mirror_move_text(const char *text, char *buf, size_t n)
{
    return notation_mirror_move(&geometry, text, buf, n);
}

/* The kind (1..7) of a piece letter of either colour, or 0. */
static int kind_of_letter(char c)
{
    int kind = notation_letter_index(piece_letters, c);
    return kind > 0 ? kind : 0;
}

static int serbest_move_from_text(const void *st, const char *text, move_t *m)
{
    (void)st;
    const char *p = text;
    if (text[0] && text[1] == '@') {
        int kind = kind_of_letter(text[0]);
        p += 2;
        int to = notation_read_square(&p, &geometry);
        if (!kind || to < 0 || *p)
            return -1;
        *m = SERBEST_DROP(kind, to);
        return 0;
    }
    int from = notation_read_square(&p, &geometry);
    int to = from < 0 ? -1 : notation_read_square(&p, &geometry);
    if (to < 0 || *p)
        return -1;
    *m = SERBEST_MOVE(from, to);
    return 0;
}

static char piece_char(int piece)
{
    char c = piece_letters[SERBEST_KIND(piece)];
    return SERBEST_COLOUR(piece) ? (char)tolower((unsigned char)c) : c;
}

static char serbest_piece_at(const void *st, int file, int rank)
{
    const struct serbest_state *s = st;
    int p = s->board[SERBEST_SQ(file, rank)];
    return p == SERBEST_EMPTY ? '.' : piece_char(p);
}

static int serbest_to_text(const void *st, char *buf, size_t n)
{
    const struct serbest_state *s = st;
    char tmp[256];
    int len = notation_write_board(tmp, s, serbest_piece_at, 10, 10);
    tmp[len++] = '[';
    for (int colour = 0; colour < 2; colour++)
        for (int kind = 1; kind < SERBEST_KINDS; kind++)
            for (int i = 0; i < s->hand[colour][kind]; i++)
                tmp[len++] = piece_char(SERBEST_PIECE(kind, colour));
    len += sprintf(tmp + len, "] %c %u %u", s->head.side ? 'b' : 'w',
                   (unsigned)s->history.quiet_plies, (unsigned)s->ply);
    return notation_copy_out(tmp, len, buf, n);
}

/* Counts a piece of `colour` and `kind` against the starting material. */
static int count_piece(int counts[2][SERBEST_KINDS], int colour, int kind,
                       char *err, size_t errsz)
{
    if (++counts[colour][kind] > start_hand[kind])
        return game_error(err, errsz, "serbest position: too many %c (a side "
                          "has %d, board and hand together)",
                          piece_char(SERBEST_PIECE(kind, colour)),
                          start_hand[kind]);
    return 0;
}

/* What reading a position keeps: the state, and each colour's pieces so
 * far by kind (board and hand together). */
struct reader {
    struct serbest_state *s;
    int counts[2][SERBEST_KINDS];
};

/* The colour and kind of piece letter c; 0 if c is no piece letter. */
static int letter_piece(char c, int *colour, int *kind)
{
    *kind = isalpha((unsigned char)c) ? kind_of_letter(c) : 0;
    *colour = islower((unsigned char)c) ? SERBEST_BLACK : SERBEST_WHITE;
    return *kind != 0;
}

/* Puts the piece of letter c on (file, rank) (notation_put_fn). */
static int put_letter(void *ctx, char c, int file, int rank, char *err,
                      size_t errsz)
{
    struct reader *r = ctx;
    int colour, kind;
    letter_piece(c, &colour, &kind);
    if (count_piece(r->counts, colour, kind, err, errsz))
        return -1;
    put_piece(r->s, SERBEST_PIECE(kind, colour), SERBEST_SQ(file, rank));
    return 0;
}

/* Reads the board and hands; returns the rest of the text or NULL. */
static const char *parse_board(struct serbest_state *s, const char *text,
                               char *err, size_t errsz)
{
    struct reader r = {s, {{0}}};
    static const struct board_format format = {
        "serbest", 10, 10, "KQRBNPSkqrbnps",
        "pieces are K Q R B N P S, black lowercase", "[ "};
    const char *c = notation_read_board(text, &format, put_letter, &r, err,
                                        errsz);
    if (!c)
        return NULL;
    if (*c != '[')
        return game_error(err, errsz, "serbest position: expected the hands "
                          "in brackets after the board"), NULL;
    for (c++; *c && *c != ']'; c++) {
        int colour, kind;
        if (!letter_piece(*c, &colour, &kind))
            return game_error(err, errsz, "serbest position: unexpected '%c' "
                              "in the hands", *c), NULL;
        if (count_piece(r.counts, colour, kind, err, errsz))
            return NULL;
        set_hand(s, colour, kind, s->hand[colour][kind] + 1);
    }
    if (*c != ']')
        return game_error(err, errsz, "serbest position: the hands need a "
                          "closing ']'"), NULL;
    return c + 1;
}

/* Reads a position; with need_kings, also requires each side's king on
 * the board or in hand. */
static int from_text(struct serbest_state *s, const struct variant *v,
                     const char *text, int need_kings, char *err,
                     size_t errsz)
{
    clear_state(s, v);
    const char *c = parse_board(s, text, err, errsz);
    if (!c)
        return -1;
    int side;
    unsigned nocap, ply;
    if (game_parse_side_and_counters(c, "serbest", "wb", &side, &nocap, &ply,
                                     err, errsz) != 0)
        return -1;
    s->head.side = (uint8_t)side;
    if (side)
        s->head.hash ^= side_key();
    s->history.quiet_plies = (uint16_t)nocap;
    s->ply = ply;
    if (serbest_in_check(s, s->head.side ^ 1))
        return game_error(err, errsz, "serbest position: the side not to "
                          "move is in check");
    int white_khan = s->king_sq[0] && SERBEST_RANK(s->king_sq[0]) == 9;
    int black_khan = s->king_sq[1] && SERBEST_RANK(s->king_sq[1]) == 0;
    if (white_khan && black_khan)
        return game_error(err, errsz, "serbest position: both kings are on "
                          "their far ranks");
    /* A king is never captured (a game ends at checkmate), so in a
     * position reached by play each king is on the board or in its owner's
     * hand. */
    for (int colour = 0; colour < 2 && need_kings; colour++)
        if (!s->king_sq[colour] && !s->hand[colour][SERBEST_KING])
            return game_error(err, errsz, "serbest position: %s has no king "
                              "on the board or in hand (each side has "
                              "exactly one; kings are never captured)",
                              colour ? "black" : "white");
    history_start(&s->history, s->head.hash);
    settle_status(s, 0);
    if (white_khan || black_khan)
        game_set_result(&s->head, white_khan ? SERBEST_WHITE : SERBEST_BLACK,
                        REASON_KHAN);
    return 0;
}

static int serbest_from_text(void *st, const struct variant *v,
                             const char *text, char *err, size_t errsz)
{
    return from_text(st, v, text, 1, err, errsz);
}

int serbest_from_text_fragment(struct serbest_state *s,
                               const struct variant *v, const char *text,
                               char *err, size_t errsz)
{
    return from_text(s, v, text, 0, err, errsz);
}

static const char *serbest_seat_side(const void *st, int seat)
{
    static const char *const names[2] = {"white", "black"};
    return game_head_side_name(st, seat, names);
}

static int serbest_state_ok(const void *st)
{
    const struct serbest_state *s = st;
    uint64_t h = s->head.side ? side_key() : 0;
    int counted[2] = {0, 0}, kings[2] = {0, 0};
    for (int sq = 0; sq < SERBEST_SQUARES; sq++) {
        int p = s->board[sq];
        if (p == SERBEST_OFF || p == SERBEST_EMPTY)
            continue;
        int colour = SERBEST_COLOUR(p);
        h ^= piece_key(p, sq);
        counted[colour]++;
        if (!piece_list_holds(&s->pieces[colour], s->piece_index, sq))
            return 0;
        if (SERBEST_KIND(p) == SERBEST_KING)
            kings[colour] = sq;
    }
    for (int colour = 0; colour < 2; colour++)
        for (int kind = 1; kind < SERBEST_KINDS; kind++)
            if (s->hand[colour][kind])
                h ^= hand_key(colour, kind, s->hand[colour][kind]);
    return h == s->head.hash && counted[0] == s->pieces[0].count
           && counted[1] == s->pieces[1].count && kings[0] == s->king_sq[0]
           && kings[1] == s->king_sq[1];
}

static int serbest_king_landing_open(const void *st)
{
    const struct serbest_state *s = st;
    const int us = s->head.side;
    if (s->head.outcome != GAME_ONGOING || !s->hand[us][SERBEST_KING])
        return 0;
    int top = us == SERBEST_WHITE ? s->kings_landing - 1
                                  : 10 - s->kings_landing;
    move_t moves[GAME_MAX_MOVES];
    int n = serbest_legal_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (SERBEST_DROP_KIND(moves[i]) == SERBEST_KING
            && SERBEST_RANK(SERBEST_TO(moves[i])) == top)
            return 1;
    return 0;
}

/* serbest_game.search_key (game.h): the Zobrist hash (board, hands, side
 * to move) with the head, the repetition stretch, the ply and the rules
 * mixed in. */
static uint64_t serbest_search_key(const void *st)
{
    const struct serbest_state *s = st;
    uint64_t h = game_head_key(&s->head, s->ply);
    h = game_key_mix(h, (uint64_t)s->kings_landing
                            | (uint64_t)s->adjacent_drop_check << 8
                            | (uint64_t)s->stalemate << 16);
    h = game_key_mix(h, (uint64_t)s->no_capture_limit
                            | (uint64_t)s->max_plies << 32);
    return game_key_mix(history_key(h, &s->history), 0);
}

/* serbest_game.state_used: everything up to the history, and the
 * history's used slots (history is the state's last member). */
_Static_assert(offsetof(struct serbest_state, history) + sizeof(struct history)
                   == sizeof(struct serbest_state),
               "the history is the state's last member");
static size_t serbest_state_used(const void *st)
{
    const struct serbest_state *s = st;
    return offsetof(struct serbest_state, history)
           + history_used_bytes(&s->history);
}

/* serbest_game.canonical: the piece lists in rising square order, and
 * every slot and list entry not in use 0. */
static void serbest_canonical(void *st)
{
    struct serbest_state *s = st;
    memset(s->pieces, 0, sizeof s->pieces);
    memset(s->piece_index, 0, sizeof s->piece_index);
    for (int sq = 0; sq < SERBEST_SQUARES; sq++)
        if (s->board[sq] != SERBEST_EMPTY && s->board[sq] != SERBEST_OFF)
            piece_list_add(&s->pieces[SERBEST_COLOUR(s->board[sq])],
                           s->piece_index, sq);
}

const struct game serbest_game = {
    .name = "serbest",
    .title = "Serbest (KhanChess 10x10 with drops): Kings Landing, Khan, mate",
    .params = serbest_params,
    .n_params = (int)(sizeof serbest_params / sizeof serbest_params[0]),
    .behaviour_version = 1,
    .state_size = sizeof(struct serbest_state),
    .max_moves = 1024,
    .board_files = 10,
    .board_ranks = 10,
    .perft_max_depth = 3,
    .init = serbest_init,
    .legal_moves = serbest_legal_moves,
    .random_move = serbest_random_move,
    .apply = serbest_apply,
    .to_move = game_head_to_move,
    .status = game_head_status,
    .hash = game_head_hash,
    .move_to_text = serbest_move_to_text,
    .move_from_text = serbest_move_from_text,
    .to_text = serbest_to_text,
    .from_text = serbest_from_text,
    .piece_at = serbest_piece_at,
    .seat_side = serbest_seat_side,
    .state_ok = serbest_state_ok,
    .king_landing_open = serbest_king_landing_open,
    .search_key = serbest_search_key,
    .wins_at_once = serbest_wins_at_once,
    .mirror_move_text = serbest_mirror_move_text,
    .mirror_position_text = notation_mirror_position,
    .state_used = serbest_state_used,
    .canonical = serbest_canonical,
};
