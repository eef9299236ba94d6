/*
 * game.h -- the one interface every game implements.
 *
 * A game is a const table of function pointers (struct game), shared by all
 * threads. Its state is plain fixed-size data with no pointers, so callers
 * copy it with memcpy (game_copy_state copies only the bytes in use) and
 * keep it on the stack in a buffer of GAME_MAX_STATE_SIZE bytes. A move
 * is a 32-bit integer whose bit layout each game documents beside its own
 * code; callers treat it as opaque.
 *
 * Seats: seat 0 is the side that moves first under the variant, seat 1 the
 * other. Outcomes are reported by seat; seat_side() names the side (colour)
 * a seat plays, so first-mover and colour advantage can be told apart.
 */
#ifndef RULELAB_GAME_H
#define RULELAB_GAME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "variant.h"

typedef uint32_t move_t;
struct rng;

/* Upper bounds for buffers sized by callers; every game stays within them
 * (each game's own max_moves and state_size are checked in the tests). */
#define GAME_MAX_MOVES 2048
#define GAME_MAX_STATE_SIZE 8192
/* States hold 64-bit fields: a buffer for any state is declared
 * `_Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE]`. */
#define GAME_STATE_ALIGN 16

enum game_outcome {
    GAME_ONGOING = 0,
    GAME_WIN_SEAT0,
    GAME_WIN_SEAT1,
    GAME_DRAW
};

/* Why a game ended. Names (end_reason_name) are what the database stores. */
enum end_reason {
    REASON_NONE = 0,
    REASON_CHECKMATE,
    REASON_KHAN,
    REASON_STALEMATE,
    REASON_NO_MOVES,
    REASON_PRINCESS_CAPTURED,
    REASON_CHIEF_CAPTURED,
    REASON_CHIEF_CAPTURED_BY_OTHER,
    REASON_ENDGAME_COUNTDOWN,
    REASON_KING_ESCAPED,
    REASON_KING_CAPTURED,
    REASON_REPETITION,
    REASON_NO_CAPTURE,
    REASON_PLY_CAP,
    /* Not the rules' but the harness's: an agent playing through another
     * program gave up the game (agents/ext.h): an illegal or malformed
     * move, no reply in time, or the program ended. */
    REASON_FORFEIT_ILLEGAL,
    REASON_FORFEIT_TIME,
    REASON_FORFEIT_CRASH,
    REASON_COUNT
};

struct game_status {
    enum game_outcome outcome;
    enum end_reason reason; /* REASON_NONE while ongoing */
};

struct game {
    const char *name; /* as written in variant strings, e.g. "tafl" */
    const char *title; /* one line for `rulelab list` */
    const struct param_spec *params; /* n_params entries */
    int n_params;
    /* Bumped by every change after which the same variant, moves and
     * seeds give a different game (rules, move order, move generation
     * order an agent draws from). Results record it, and a sweep cell is
     * never resumed under another (results/README.md). 1 at first. */
    int behaviour_version;
    size_t state_size; /* <= GAME_MAX_STATE_SIZE */
    int max_moves; /* legal_moves never writes more; <= GAME_MAX_MOVES */
    int board_files, board_ranks; /* for drawing the board */
    /* The deepest `rulelab perft` from the start runs without --force:
     * the last depth that ends in seconds (0: 3, for a game not yet
     * measured). */
    int perft_max_depth;

    /* Sets up the start position of the variant v (v->game is this game). */
    void (*init)(void *st, const struct variant *v);
    /* Writes every legal move of the side to move into out and returns how
     * many; returns 0 once the game is over. */
    int (*legal_moves)(const void *st, move_t *out);
    /* Plays move m, which must be legal in st; updates the hash, counters
     * and the status. */
    void (*apply)(void *st, move_t m);
    /* The seat (0 or 1) whose turn it is. */
    int (*to_move)(const void *st);
    /* Ongoing, or the outcome with its reason. O(1): apply keeps it. */
    struct game_status (*status)(const void *st);
    /* Zobrist hash of what repetition compares (board, side to move, and
     * whatever else the game's repetition rule includes). Incremental. */
    uint64_t (*hash)(const void *st);

    /* Move text in the notation of docs/rules.md#notation. Writes a
     * NUL-terminated string and returns its length, or -1 if it does not
     * fit in n. */
    int (*move_to_text)(const void *st, move_t m, char *buf, size_t n);
    /* Parses move text; 0 on success, -1 if the text is no move of this game
     * (checking legality is game_parse_move's job). */
    int (*move_from_text)(const void *st, const char *text, move_t *m);
    /* Position as one FEN-like line with all counters; length or -1. */
    int (*to_text)(const void *st, char *buf, size_t n);
    /* Sets up a position from text under variant v. Returns 0, or -1 with
     * a message in err naming what is wrong. History-based counters that
     * the text does not carry start at zero. */
    int (*from_text)(void *st, const struct variant *v, const char *text,
                     char *err, size_t errsz);
    /* The piece letter on a square (file, rank from 0 at a1), '.' if empty;
     * used to draw the board. */
    char (*piece_at)(const void *st, int file, int rank);
    /* The name of the side a seat plays in this state ("attackers"). */
    const char *(*seat_side)(const void *st, int seat);
    /* Recomputes hash and derived data from scratch and compares them with
     * the incremental ones. 1 if consistent; for tests and debug asserts. */
    int (*state_ok)(const void *st);

    /* Kings Landing (docs/rules.md#serbest-kings-landing): whether the side
     * to move has a legal drop of its king on the highest rank its variant
     * allows (0 once the game is over). `rulelab claim` samples such
     * positions. NULL in games without Kings Landing. */
    int (*king_landing_open)(const void *st);

    /* For searches' transposition tables (agents/ab_search.c,
     * agents/solve/solver.c).
     * search_key: a 64-bit key of st, the Zobrist hash mixed with
     * everything else in the state the rules read from here on (side to
     * move, counters, the live repetition stretch, the variant's rules),
     * so two states that play alike share it even where their bytes
     * differ (piece lists in another order, the history ring's unused
     * slots), and two that may not differ in it but for a 64-bit
     * collision. Far cheaper than hashing the whole state. A search runs
     * within one variant, so a rule left out (tafl's king_throne and
     * repetition_draw, which came later) is harmless; keys are part of ab's
     * behaviour (its table's slots), so the mixing stays as it is.
     * wins_at_once: for an ongoing st, 1 if the side to move has a legal
     * move that wins the game at once, 0 if it has none, or -1 where the
     * game cannot tell cheaply (the solver and ab then play every
     * move). NULL: always -1. Every game has one. */
    uint64_t (*search_key)(const void *st);
    int (*wins_at_once)(const void *st);

    /* Where the rules are the same seen in a mirror, left to right (file
     * a <-> the last file, with every move, drop, hand and counter
     * mirrored or unchanged alike: docs/rules.md says nothing of the files),
     * the mirror image of a move's text and of a position's text, each
     * returning its length or -1 if it does not fit; NULL where they are
     * not. A split solve (agents/solve/solver.h) writes the part of a
     * mirror-image root move as the mirror image of its twin's; the
     * checker checks it like any other, so a rule that broke the symmetry
     * would show as a part that does not verify. */
    int (*mirror_move_text)(const char *text, char *buf, size_t n);
    int (*mirror_position_text)(const char *text, char *buf, size_t n);

    /* How many leading bytes of st hold it (<= state_size): copying them
     * copies the state whole, and nothing reads the bytes after them (a
     * repetition ring's unused slots, history.h). Use game_copy_state and
     * game_state_used rather than state_size wherever states are copied,
     * hashed or compared. NULL: all state_size bytes. */
    size_t (*state_used)(const void *st);

    /* Rewrites st into the one form its position has whatever the moves
     * that led to it: the bytes that record only the route, which the
     * rules never read (the order of the piece lists, the slots of
     * squares left empty), set to a fixed form; everything else as it
     * was. The state then plays alike (the same moves, as a set, and the
     * same outcomes) but may list its moves in another order, so it is
     * for fingerprints, not for play: a disproof's links compare states
     * in this form, so a position reached by two drop orders is one node.
     * Use game_canonical_copy. NULL: the bytes are in one form already. */
    void (*canonical)(void *st);

    /* The move of a uniformly random playout, found without writing every
     * legal move: returns n, the number of legal moves (0 once the game
     * is over, with *m and r untouched), and sets *m to
     * moves[rng_below(r, n)] for the moves legal_moves writes, in its
     * order, drawing from r exactly as that would. So a playout plays the
     * same games with it as without (the bench signature stays), and
     * tests/test_random_move.c compares the two at every ply of seeded
     * games. Use game_random_move. NULL: it generates every move. */
    int (*random_move)(const void *st, struct rng *r, move_t *m);
};

/* The bytes of st that hold it: g->state_used(st), or g->state_size. */
static inline size_t game_state_used(const struct game *g, const void *st)
{
    return g->state_used ? g->state_used(st) : g->state_size;
}

/* Copies the state src to dst (buffers of g->state_size bytes that do not
 * overlap): only the bytes game_state_used names, so the rest of dst keeps
 * whatever it held, which nothing reads. */
static inline void game_copy_state(const struct game *g, void *dst,
                                   const void *src)
{
    memcpy(dst, src, game_state_used(g, src));
}

/* Copies src to dst as game_copy_state does, then rewrites dst in its
 * canonical form (g->canonical): for fingerprints and keys only. */
static inline void game_canonical_copy(const struct game *g, void *dst,
                                       const void *src)
{
    game_copy_state(g, dst, src);
    if (g->canonical)
        g->canonical(dst);
}

/* Whether states a and b are the same state: the same used bytes. */
static inline int game_same_state(const struct game *g, const void *a,
                                  const void *b)
{
    size_t n = game_state_used(g, a);
    return n == game_state_used(g, b) && memcmp(a, b, n) == 0;
}

/* The fields every game's state starts with, as its first member `head`,
 * so that the functions below serve every game: the vtable's to_move,
 * status and hash are game_head_to_move, game_head_status and
 * game_head_hash. `side` is the side (colour) to move in the game's own
 * numbering (0 or 1); `first` the side that moves first, which plays seat
 * 0 (a game whose seat 0 is always the same colour keeps it 0); outcome
 * and reason are an enum game_outcome and an enum end_reason, kept by
 * apply so that status is O(1). */
struct game_head {
    uint64_t hash; /* Zobrist hash, as struct game's hash describes */
    uint8_t side, first;
    uint8_t outcome, reason;
};

/* The seat (0 or 1) that plays `side` in a state with head h. */
static inline int game_seat_of_side(const struct game_head *h, int side)
{
    return side ^ h->first;
}

/* Ends the game: winner_side (a side, not a seat) wins for `reason`, or
 * a draw if winner_side < 0. */
static inline void game_set_result(struct game_head *h, int winner_side,
                                   enum end_reason reason)
{
    if (winner_side < 0)
        h->outcome = GAME_DRAW;
    else
        h->outcome = game_seat_of_side(h, winner_side) == 0 ? GAME_WIN_SEAT0
                                                            : GAME_WIN_SEAT1;
    h->reason = (uint8_t)reason;
}

/* Marks the game as going on (no outcome, no reason). */
static inline void game_set_ongoing(struct game_head *h)
{
    h->outcome = GAME_ONGOING;
    h->reason = REASON_NONE;
}

/* One step of a search_key's mixing: h with the value v folded in. */
static inline uint64_t game_key_mix(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0x9fb21c651e98df25ULL;
    return h ^ (h >> 29);
}

/* The start of every game's search_key: the Zobrist hash with the head's
 * side, first seat and result and the ply (the ply cap reads it). */
static inline uint64_t game_head_key(const struct game_head *h, uint32_t ply)
{
    return game_key_mix(h->hash, (uint64_t)h->side | (uint64_t)h->first << 8
                                     | (uint64_t)h->outcome << 16
                                     | (uint64_t)h->reason << 24
                                     | (uint64_t)ply << 32);
}

/* The vtable functions every game shares; st points to a state whose first
 * member is a struct game_head. */
int game_head_to_move(const void *st);
struct game_status game_head_status(const void *st);
uint64_t game_head_hash(const void *st);
/* The name of the side seat plays, from names[side]. */
const char *game_head_side_name(const void *st, int seat,
                                const char *const names[2]);

/* The draws by count that tafl and Serbest share, in their order after
 * the wins (docs/rules.md#serbest-end-of-the-game and
 * docs/rules.md#tafl-end-of-the-game): threefold repetition (repetitions
 * counts the current position's occurrences; pass 0 to skip the rule), no
 * capture for no_capture_limit moves of each player (0 = no limit), and
 * the ply cap (0 = none). Returns the reason, or REASON_NONE if none
 * applies. */
static inline enum end_reason game_count_draw(int repetitions,
                                              unsigned no_capture_plies,
                                              unsigned no_capture_limit,
                                              uint32_t ply, uint32_t max_plies)
{
    if (repetitions >= 3)
        return REASON_REPETITION;
    if (no_capture_limit && no_capture_plies >= 2u * no_capture_limit)
        return REASON_NO_CAPTURE;
    if (max_plies && ply >= max_plies)
        return REASON_PLY_CAP;
    return REASON_NONE;
}

/* The games, declared here so that a module can name one without its
 * internals (a game's own header is for that game's files and tests). */
extern const struct game serbest_game, jetan_game, tafl_game;

/* The most games the registry holds: the three, and room for more. */
#define GAME_MAX_GAMES 8

/* Every game, NULL-terminated, in the order `rulelab list` shows them:
 * the three games, then any that game_register added. */
extern const struct game *game_list[GAME_MAX_GAMES + 1];
const struct game *game_find(const char *name);

/* Adds g to game_list, before any game is played or a variant parsed
 * (not thread-safe): how a game outside core/, such as the test-only game
 * of tests/games/, joins every command. Returns 0, or -1 when the list is
 * full or holds a game of that name already. */
int game_register(const struct game *g);

const char *end_reason_name(enum end_reason r);

/* Writes a printf-style message into err (if err and errsz are set) and
 * returns -1, so error paths read `return game_error(err, errsz, ...)`. */
int game_error(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

const char *game_outcome_name(enum game_outcome o);

/* Parses move text and checks it is legal in st. Returns 0, or -1 with a
 * message in err ("not a move" or "illegal here"). */
int game_parse_move(const struct game *g, const void *st, const char *text,
                    move_t *m, char *err, size_t errsz);

/* Sets st to the start position of v, or to the position text if it is not
 * NULL, then plays the space-separated moves (may be NULL). Returns 0, or -1
 * with a message naming the bad text or the first illegal move. */
int game_setup(const struct variant *v, void *st, const char *position,
               const char *moves, char *err, size_t errsz);

/* Told of each move game_setup_told plays: m, about to be played from st. */
typedef void (*game_move_seen)(void *arg, const struct game *g,
                               const void *st, move_t m);

/* game_setup, calling seen(arg, ...) before each move is played (seen may
 * be NULL): so that agents are told the moves that led to a position. */
int game_setup_told(const struct variant *v, void *st, const char *position,
                    const char *moves, game_move_seen seen, void *arg,
                    char *err, size_t errsz);

/* The longest move text game_replay takes (a stored move is shorter). */
#define GAME_MOVE_TEXT_MAX 63

/* One position of a replayed game (game_replay), as its visitor sees it. */
struct game_replay_step {
    const void *st;      /* the position */
    int ply;             /* the game's moves played before it (0: the first
                            position after the opening) */
    const move_t *legal; /* its legal moves: none once the game is over */
    int n_legal;
    const char *move;    /* the move played from it, NULL at the last */
    move_t m;            /* that move, checked legal (0 at the last) */
};

/* Told of each position of a replayed game; a non-zero return stops the
 * replay, which returns it. */
typedef int (*game_replay_visit)(void *arg, const struct game *g,
                                 const struct game_replay_step *step);

/* Replays a game as the results database keeps it: sets st to position
 * (NULL or "": v's start), plays opening (the moves before the agents',
 * NULL or "" for none), then the space-separated moves, each parsed and
 * checked legal. Calls visit(arg, ...) (visit may be NULL) at each
 * position a move of `moves` is played from, before it is played, and
 * once more at the last position, with move NULL. *plies (plies may be
 * NULL) gets the moves played. Returns 0; visit's non-zero return; or -1
 * with a message: the position or opening does not set up, or "move K
 * 'TEXT' ..." (K counts from 1) for a move that is not a move of the game,
 * is not legal there, comes after the end of the game, or is longer than
 * GAME_MOVE_TEXT_MAX. On -1, st holds the position before the bad move. */
int game_replay(const struct variant *v, void *st, const char *position,
                const char *opening, const char *moves,
                game_replay_visit visit, void *arg, int *plies, char *err,
                size_t errsz);

/* Parses what follows the board in tafl's and Serbest's position text:
 * " <side> [no_capture_plies [ply]]", the side one of the two letters in
 * `sides`. Sets *side to 0 for the first letter, 1 for the second. Returns
 * 0, or -1 with an error that starts with `game`. */
int game_parse_side_and_counters(const char *text, const char *game,
                                 const char sides[2], int *side,
                                 unsigned *no_capture_plies, unsigned *ply,
                                 char *err, size_t errsz);

/* 1 when the side to move in st has a legal move that ends the game with
 * its own win, else 0 (also once the game is over). Plays every move on a
 * copy, the plain way: for what runs once a game (openings, tune), not for
 * searches (they have the wins_at_once hook). */
int game_mover_wins_at_once(const struct game *g, const void *st);

/* A uniformly random legal move of st into *m, as g->random_move
 * describes: returns the number of legal moves, 0 (nothing drawn) once
 * the game is over. */
int game_random_move(const struct game *g, const void *st, struct rng *r,
                     move_t *m);

/* Counts the legal move sequences of length depth from st into *count (a
 * game that ended earlier adds nothing; depth <= 0 counts 1). Returns 0, or
 * -1 (with *count 0) if memory for the move buffers (max_moves * depth
 * moves) could not be allocated. */
int game_perft(const struct game *g, const void *st, int depth,
               uint64_t *count);

/* Prints which invariant broke (game, move, position) to stderr and aborts.
 * Called by game_check_invariants only. */
void game_invariant_failed(const struct game *g, const void *st, move_t m)
    __attribute__((noreturn));

/* The invariant check after every apply in perft and playouts: with
 * RULELAB_CHECK_INVARIANTS defined (CMake option of the same name, on in
 * Debug builds) it calls g->state_ok on st, just after move m was applied,
 * and aborts with a message if it fails; otherwise it compiles to nothing,
 * so Release builds pay nothing. It does not depend on NDEBUG. */
static inline void game_check_invariants(const struct game *g, const void *st,
                                         move_t m)
{
#ifdef RULELAB_CHECK_INVARIANTS
    if (!g->state_ok(st))
        game_invariant_failed(g, st, m);
#else
    (void)g;
    (void)st;
    (void)m;
#endif
}

#endif
