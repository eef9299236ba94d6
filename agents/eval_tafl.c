/*
 * eval_tafl.c -- Hnefatafl's evaluation (eval.h): the men on each side, the
 * King's race to the escape squares (distance, open lines, mobility), the
 * attackers' grip on the King and on the corners, and whether the side to
 * move wins next move.
 *
 * The game is asymmetric, so each feature is defined for one side (its
 * weight's doc says which) and negated when the other side is to move;
 * only tafl_win_next is defined for the side to move itself. Everything is
 * read from the board and the rank/file occupancy masks; no legal-move list
 * is built (mobility counts each piece's slides from the occupancy masks
 * with a bit scan each way, exact but for the shuttle rule), because ab
 * calls features() at every leaf.
 *
 * capture_value and is_forcing are exact: they settle most moves from
 * the squares around the destination and the King, and play the rest on
 * a copy of the board alone (121 bytes, not the state with its repetition
 * history), taking the men and the King as tafl.c's apply() does. So is
 * threat_replies, which tells the replies to a threat of escape or of
 * capture that leave it standing. The King's lines and capture come from
 * core/tafl_king.h, which the game's wins_at_once hook shares.
 */
#include "eval.h"
#include "tafl.h"
#include "tafl_king.h"

#include <assert.h>
#include <string.h>

/* capture_value of the King's capture: it wins, so it outranks any man. */
#define KING_POINTS 10000

enum {
    F_ATTACKERS,
    F_DEFENDERS,
    F_KING_DISTANCE,
    F_KING_LINES,
    F_KING_PRESSURE,
    F_CORNER_GUARDS,
    F_ATTACKER_MOBILITY,
    F_DEFENDER_MOBILITY,
    F_KING_MOBILITY,
    F_WIN_NEXT,
    F_COUNT
};

static const struct param_spec tafl_weights[F_COUNT] = {
    [F_ATTACKERS] = {"tafl_attackers", PARAM_REAL, 50, -10000, 10000, NULL,
                     "tafl: points per attacker on the board, good for "
                     "the attackers (hand-set)", 2},
    [F_DEFENDERS] = {"tafl_defenders", PARAM_REAL, 100, -10000, 10000, NULL,
                     "tafl: points per defender on the board, King apart, "
                     "good for the defenders (hand-set)", 2},
    [F_KING_DISTANCE] = {"tafl_king_distance", PARAM_REAL, 10, -1000, 1000,
                         NULL, "tafl: points per square (files + ranks) "
                         "from the King to the nearest escape square, good "
                         "for the attackers (hand-set)", 2},
    [F_KING_LINES] = {"tafl_king_lines", PARAM_REAL, 60, -1000, 1000, NULL,
                      "tafl: points per empty line from the King to an "
                      "escape square, good for the defenders (hand-set)", 2},
    [F_KING_PRESSURE] = {"tafl_king_pressure", PARAM_REAL, 40, -1000, 1000,
                         NULL, "tafl: points per side of 4 of the King's "
                         "capture done (attackers, throne, edge; 2 per "
                         "attacker where custodial), good for the "
                         "attackers (hand-set)", 2},
    [F_CORNER_GUARDS] = {"tafl_corner_guards", PARAM_REAL, 20, -1000, 1000,
                         NULL, "tafl: points per attacker on a square next "
                         "to a corner (none with escape=edge), good for the "
                         "attackers (hand-set)", 2},
    [F_ATTACKER_MOBILITY] = {"tafl_attacker_mobility", PARAM_REAL, 1, -1000,
                             1000, NULL, "tafl: points per move of the "
                             "attackers (shuttle rule ignored), good for "
                             "them (hand-set)", 2},
    [F_DEFENDER_MOBILITY] = {"tafl_defender_mobility", PARAM_REAL, 2, -1000,
                             1000, NULL, "tafl: points per move of the "
                             "defenders, King apart (shuttle rule ignored), "
                             "good for them (hand-set)", 2},
    [F_KING_MOBILITY] = {"tafl_king_mobility", PARAM_REAL, 8, -1000, 1000,
                         NULL, "tafl: points per square the King can move "
                         "to, good for the defenders (hand-set)", 2},
    [F_WIN_NEXT] = {"tafl_win_next", PARAM_REAL, 2000, -20000, 20000, NULL,
                    "tafl: points when the side to move wins with its next "
                    "move (King escape or capture), minus when the King "
                    "escapes whatever the attackers do (hand-set)", 2},
};

static int file_of(int sq)
{
    return sq % 11 - 1;
}

static int rank_of(int sq)
{
    return sq / 11 - 1;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

static int next_to(int a, int b)
{
    int d = a - b;
    return d == 1 || d == -1 || d == 11 || d == -11;
}

/* Whether the attacker that has just moved to `to` on board captures the
 * King on ks (tafl.c's captures_king). */
static int king_taken(const struct tafl_state *s, const uint8_t *board,
                      int to, int ks)
{
    int dir = ks - to;
    if (dir != 1 && dir != -1 && dir != 11 && dir != -11)
        return 0;
    if (tafl_custodial_applies(s, ks))
        return board[ks + dir] == TAFL_ATTACKER;
    for (int d = 0; d < 4; d++)
        if (!tafl_encloses_king(s, board, ks + tafl_directions[d]))
            return 0;
    return 1;
}

/* How much of the King's capture is done, in sides of 4: under the
 * surround rule the enclosing sides (0 where the King cannot be surrounded
 * where it stands: beside a corner, or on the edge with
 * edge_captures_king=0); custodially, 2 per attacker on the better line. */
static int king_pressure(const struct tafl_state *s, int ks)
{
    const uint8_t *board = s->board;
    if (tafl_custodial_applies(s, ks)) {
        int best = 0;
        for (int axis = 0; axis < 4; axis += 2) {
            int a = ks + tafl_directions[axis], b = ks - tafl_directions[axis];
            if (board[a] == TAFL_OFF || board[b] == TAFL_OFF
                || !tafl_man_may_stop(s, a) || !tafl_man_may_stop(s, b))
                continue;
            int attackers = (board[a] == TAFL_ATTACKER)
                            + (board[b] == TAFL_ATTACKER);
            if (attackers > best)
                best = attackers;
        }
        return 2 * best;
    }
    int closed = 0;
    for (int d = 0; d < 4; d++) {
        int sq = ks + tafl_directions[d];
        if (tafl_encloses_king(s, board, sq))
            closed++;
        else if (board[sq] == TAFL_OFF || !tafl_man_may_stop(s, sq))
            return 0;
    }
    return closed;
}

/* ---- mobility ----------------------------------------------------------- */

/* The empty squares above square p of a 9-square line, up to the first
 * occupied one or the end: a sentinel bit just past square 8 stops the
 * scan. */
static inline int run_up(uint32_t occupied, int p)
{
    return __builtin_ctz((occupied | 1u << 9) >> (p + 1));
}

/* The same below p: a sentinel is shifted in below square 0, and the
 * squares from p up are shifted out. */
static inline int run_down(uint32_t occupied, int p)
{
    return __builtin_clz((occupied << 1 | 1u) << (31 - p));
}

/* The moves of a man on square p of line (a rank or file index) with that
 * occupancy. Men may not stop on the throne (square 4 of line 4), nor on
 * the corners (squares 0 and 8 of lines 0 and 8) with escape=corner; a
 * slide reaches one of those exactly when its run gets that far. */
static inline int man_line_moves(const struct tafl_state *s,
                                 uint32_t occupied, int line, int p)
{
    if (line == 4 && !s->throne_passable)
        occupied |= 1u << 4;
    int up = run_up(occupied, p), down = run_down(occupied, p);
    int n = up + down;
    if (line == 4)
        n -= p < 4 ? up >= 4 - p : down >= p - 4;
    else if ((line == 0 || line == 8) && !s->escape_edge)
        n -= (down == p) + (up == 8 - p);
    return n;
}

/* The moves of the King on square p of line: every empty square up to a
 * blocker, but with king_throne=barred the throne blocks it like a piece
 * (a King on the throne is on its own square, which the runs leave out). */
static inline int king_line_moves(const struct tafl_state *s,
                                  uint32_t occupied, int line, int p)
{
    if (line == 4 && s->king_throne_barred)
        occupied |= 1u << 4;
    return run_up(occupied, p) + run_down(occupied, p);
}

enum { MOB_ATTACKERS, MOB_DEFENDERS, MOB_KING };

/* The moves of the attackers' men, the defenders' men and the King, as
 * tafl.c generates them, into mob[MOB_*]. The pieces are found rank by
 * rank from the occupancy masks, so each one's file and rank come free. */
static void mobility(const struct tafl_state *s, int mob[3])
{
    mob[MOB_ATTACKERS] = mob[MOB_DEFENDERS] = mob[MOB_KING] = 0;
    for (int rank = 0; rank < 9; rank++) {
        const uint32_t rank_occ = s->rank_occupancy[rank];
        for (uint32_t left = rank_occ; left; left &= left - 1) {
            const int file = __builtin_ctz(left);
            const uint32_t file_occ = s->file_occupancy[file];
            const int piece = s->board[TAFL_SQ(file, rank)];
            if (piece == TAFL_KING)
                mob[MOB_KING] = king_line_moves(s, rank_occ, rank, file)
                                + king_line_moves(s, file_occ, file, rank);
            else
                mob[piece == TAFL_ATTACKER ? MOB_ATTACKERS : MOB_DEFENDERS] +=
                    man_line_moves(s, rank_occ, rank, file)
                    + man_line_moves(s, file_occ, file, rank);
        }
    }
}

/* ---- the features ------------------------------------------------------- */

/* Files plus ranks from ks to the nearest escape square. */
static int king_distance(const struct tafl_state *s, int ks)
{
    int file = file_of(ks), rank = rank_of(ks);
    int to_file_edge = min_int(file, 8 - file);
    int to_rank_edge = min_int(rank, 8 - rank);
    if (s->escape_edge)
        return min_int(to_file_edge, to_rank_edge);
    return to_file_edge + to_rank_edge;
}

static int corner_guards(const struct tafl_state *s)
{
    static const int guard_squares[8] = {
        TAFL_SQ(1, 0), TAFL_SQ(0, 1), TAFL_SQ(7, 0), TAFL_SQ(8, 1),
        TAFL_SQ(0, 7), TAFL_SQ(1, 8), TAFL_SQ(7, 8), TAFL_SQ(8, 7)};
    if (s->escape_edge)
        return 0;
    int n = 0;
    for (int i = 0; i < 8; i++)
        n += s->board[guard_squares[i]] == TAFL_ATTACKER;
    return n;
}

/* 1 if the side to move wins with its next move, -1 if the attackers, to
 * move, cannot stop an escape (two open lines and no capture of the King),
 * else 0. The defenders' shuttle never forbids an escape: its forbidden
 * move returns to where the side's last move started, and a King that
 * stood on an escape square had already won. */
static int win_next(const struct tafl_state *s, int ks, int lines)
{
    if (s->head.side == TAFL_SIDE_DEFENDERS)
        return lines > 0;
    if (tafl_king_capturable(s, s->board, ks, tafl_forbidden_now(s)))
        return 1;
    return lines >= 2 ? -1 : 0;
}

static void tafl_features(const void *st, double *f)
{
    const struct tafl_state *s = st;
    const int ks = s->king_sq;
    /* eval.h asks for a game not over; all the features need is the King. */
    assert(ks);
    /* sign: the attackers' view; -sign: the defenders'. */
    const double sign = s->head.side == TAFL_SIDE_ATTACKERS ? 1 : -1;
    const int lines = tafl_open_lines(s, s->board, ks);
    f[F_ATTACKERS] = sign * s->pieces[TAFL_SIDE_ATTACKERS].count;
    f[F_DEFENDERS] = -sign * (s->pieces[TAFL_SIDE_DEFENDERS].count - 1);
    f[F_KING_DISTANCE] = sign * king_distance(s, ks);
    f[F_KING_LINES] = -sign * lines;
    f[F_KING_PRESSURE] = sign * king_pressure(s, ks);
    f[F_CORNER_GUARDS] = sign * corner_guards(s);
    int mob[3];
    mobility(s, mob);
    f[F_ATTACKER_MOBILITY] = sign * mob[MOB_ATTACKERS];
    f[F_DEFENDER_MOBILITY] = -sign * mob[MOB_DEFENDERS];
    f[F_KING_MOBILITY] = -sign * mob[MOB_KING];
    f[F_WIN_NEXT] = win_next(s, ks, lines);
}

/* ---- captures and threats ----------------------------------------------- */

/* Whether square sq helps `side` enclose an enemy man (tafl.c's
 * hostile_to_enemy_men). */
static int hostile_to_men(const struct tafl_state *s, const uint8_t *board,
                          int sq, int side)
{
    int p = board[sq];
    if (p != TAFL_EMPTY)
        return (side == TAFL_SIDE_ATTACKERS
                    ? p == TAFL_ATTACKER
                    : p == TAFL_DEFENDER || (p == TAFL_KING && s->king_armed))
               || (sq == TAFL_THRONE && s->throne_hostile == 2);
    return (tafl_is_corner(sq) && !s->escape_edge)
           || (sq == TAFL_THRONE && s->throne_hostile);
}

/* men_taken's loop, for a move of `side` landing beside an enemy man. */
static __attribute__((noinline)) int men_taken_beside(
    const struct tafl_state *s, int to, int side, int enemy_man)
{
    int taken = 0;
    for (int d = 0; d < 4; d++)
        if (s->board[to + tafl_directions[d]] == enemy_man
            && hostile_to_men(s, s->board, to + 2 * tafl_directions[d], side))
            taken |= 1 << d;
    return taken;
}

/* The enemy men the piece moving from -> to takes, as a set of bits
 * (1 << d: the man at to + tafl_directions[d]). The board before the move
 * serves: the square beyond a victim is never `from`, since the move's
 * path cannot cross the victim. Most moves land beside no enemy man and
 * are settled here; ab asks this of every move it orders, so the loop is
 * apart and this part inlines. */
static inline int men_taken(const struct tafl_state *s, int from, int to)
{
    const int piece = s->board[from];
    if (piece == TAFL_KING && !s->king_armed)
        return 0;
    const int side = piece == TAFL_ATTACKER ? TAFL_SIDE_ATTACKERS
                                            : TAFL_SIDE_DEFENDERS;
    const int enemy_man = side == TAFL_SIDE_ATTACKERS ? TAFL_DEFENDER
                                                      : TAFL_ATTACKER;
    const uint8_t *b = s->board;
    if (b[to + 1] != enemy_man && b[to - 1] != enemy_man
        && b[to + 11] != enemy_man && b[to - 11] != enemy_man)
        return 0;
    return men_taken_beside(s, to, side, enemy_man);
}

/* Writes s's board after m into board (the mover moved, the men it takes
 * removed) and returns the King's square after m, 0 if m captures it. */
static int board_after(const struct tafl_state *s, move_t m, uint8_t *board)
{
    const int from = TAFL_FROM(m), to = TAFL_TO(m);
    const int piece = s->board[from];
    const int taken = men_taken(s, from, to);
    memcpy(board, s->board, TAFL_SQUARES);
    for (int d = 0; d < 4; d++)
        if (taken >> d & 1)
            board[to + tafl_directions[d]] = TAFL_EMPTY;
    board[to] = (uint8_t)piece;
    board[from] = TAFL_EMPTY;
    int ks = piece == TAFL_KING ? to : s->king_sq;
    if (piece == TAFL_ATTACKER && king_taken(s, board, to, ks))
        return 0;
    return ks;
}

/* Whether m takes the King (played on a copy of the board). */
static __attribute__((noinline)) int takes_king(const struct tafl_state *s,
                                                move_t m)
{
    uint8_t board[TAFL_SQUARES];
    return board_after(s, m, board) == 0;
}

static int tafl_capture_value(const void *st, move_t m)
{
    const struct tafl_state *s = st;
    const int from = TAFL_FROM(m), to = TAFL_TO(m);
    if (s->board[from] == TAFL_ATTACKER && next_to(to, s->king_sq)
        && takes_king(s, m))
        return KING_POINTS;
    if (!men_taken(s, from, to))
        return 0;
    /* All the men one move takes are of one kind. */
    return (int)tafl_weights[s->board[from] == TAFL_ATTACKER ? F_DEFENDERS
                                                              : F_ATTACKERS]
        .def;
}

/* Whether after m the King stands on an escape square or has an open
 * line, m played on a copy of the board (apart from defender_threatens,
 * so that its first tests inline without this frame). */
static __attribute__((noinline)) int king_line_after(
    const struct tafl_state *s, move_t m)
{
    uint8_t board[TAFL_SQUARES];
    int after = board_after(s, m, board);
    return tafl_is_escape(s, after) || tafl_open_lines(s, board, after) > 0;
}

/* Whether the defenders' move m wins at once, or gives the King an open
 * line it did not have (with one already, the defenders to move would
 * just escape). With escape=corner only a King on an edge line has lines,
 * and only its own move takes it there, so most moves are settled without
 * playing them. */
static int defender_threatens(const struct tafl_state *s, move_t m)
{
    const int to = TAFL_TO(m), ks = s->king_sq;
    const int king_moves = s->board[TAFL_FROM(m)] == TAFL_KING;
    const int may_have_lines = s->escape_edge || tafl_on_edge(ks);
    if (may_have_lines && tafl_open_lines(s, s->board, ks) > 0)
        return king_moves && tafl_is_escape(s, to);
    if (!king_moves && !may_have_lines)
        return 0;
    return king_line_after(s, m);
}

static int attacker_beside(const struct tafl_state *s, int ks)
{
    for (int d = 0; d < 4; d++)
        if (s->board[ks + tafl_directions[d]] == TAFL_ATTACKER)
            return 1;
    return 0;
}

static int enclosed_sides(const struct tafl_state *s, int ks)
{
    int closed = 0;
    for (int d = 0; d < 4; d++)
        closed += tafl_encloses_king(s, s->board, ks + tafl_directions[d]);
    return closed;
}

/* attacker_threatens past its first test, apart so that the test inlines
 * without this frame: whether m leaves the King capturable when it was
 * not, m played on a copy of the board. */
static __attribute__((noinline)) int king_capturable_after(
    const struct tafl_state *s, move_t m)
{
    const int from = TAFL_FROM(m), to = TAFL_TO(m), ks = s->king_sq;
    if (tafl_king_capturable(s, s->board, ks, tafl_forbidden_now(s)))
        return 0;
    uint8_t board[TAFL_SQUARES];
    if (board_after(s, m, board) == 0)
        return 0;
    const int a = TAFL_SIDE_ATTACKERS;
    const int shuttle = from == s->last_to[a] && to == s->last_from[a]
                            ? s->shuttle_len[a] + 1 : 1;
    return tafl_king_capturable(s, board, ks,
                                tafl_shuttle_forbidden(s, from, to, shuttle));
}

/* Whether the attackers' move m leaves the King capturable next move when
 * it was not already (then the attackers would just capture); a move that
 * captures the King is a capture, not a threat. One move closes at most
 * one side of the King, so most moves are settled without playing them. */
static int attacker_threatens(const struct tafl_state *s, move_t m)
{
    const int to = TAFL_TO(m), ks = s->king_sq;
    const int closes = next_to(to, ks);
    if (tafl_custodial_applies(s, ks) ? !closes && !attacker_beside(s, ks)
                                 : enclosed_sides(s, ks) + closes < 3)
        return 0;
    return king_capturable_after(s, m);
}

static int tafl_is_forcing(const void *st, move_t m)
{
    const struct tafl_state *s = st;
    return s->head.side == TAFL_SIDE_DEFENDERS ? defender_threatens(s, m)
                                               : attacker_threatens(s, m);
}

/* ---- replies to a threat ------------------------------------------------ */

/* Marks in on_line (121 entries) the squares of the King's open lines,
 * from beside it to the escape square; returns how many lines. */
static int mark_open_lines(const struct tafl_state *s, int ks,
                           uint8_t *on_line)
{
    memset(on_line, 0, TAFL_SQUARES);
    int lines = 0;
    for (int d = 0; d < 4; d++) {
        if (!tafl_line_open(s, s->board, ks, d))
            continue;
        lines++;
        for (int sq = ks + tafl_directions[d]; s->board[sq] != TAFL_OFF;
             sq += tafl_directions[d])
            on_line[sq] = 1;
    }
    return lines;
}

/* Whether the King stays capturable (by a move other than `forbidden`)
 * after the defenders' move m, one that takes nothing and is not the
 * King's: played on a copy of the board. Only a man landing on the square
 * that completes the capture, or on an attacker's way to it, can stop
 * it; those squares are beside the King and on their rank or file, so a
 * move landing two files and two ranks away or more cannot. */
static int capture_stands_after(const struct tafl_state *s, move_t m, int ks,
                                move_t forbidden)
{
    const int from = TAFL_FROM(m), to = TAFL_TO(m);
    const int df = file_of(to) - file_of(ks), dr = rank_of(to) - rank_of(ks);
    if ((df > 1 || df < -1) && (dr > 1 || dr < -1))
        return 1;
    uint8_t board[TAFL_SQUARES];
    memcpy(board, s->board, sizeof board);
    board[to] = board[from];
    board[from] = TAFL_EMPTY;
    return tafl_king_capturable(s, board, ks, forbidden);
}

/* tafl_eval.threat_replies (eval.h). Two threats to win at once:
 *  - the attackers to move, the King with an open line: only a man
 *    landing on a line can close it (a move elsewhere only opens
 *    squares), and the escape is never forbidden by the shuttle rule
 *    (win_next); captures are kept (one may take the King);
 *  - the defenders to move, the King capturable: the King's moves and
 *    the captures are kept, the other moves are judged on the board after
 *    them (capture_stands_after); a defenders' move leaves the attackers'
 *    shuttle, and so their forbidden move, as it was.
 * A quiet move that meets a draw rule ends the game, so it is kept. The
 * side threatened keeps a legal move after any reply: the winning one. */
static int tafl_threat_replies(const void *st, const move_t *mv, int n,
                               unsigned char *keep)
{
    const struct tafl_state *s = st;
    const int ks = s->king_sq, a = TAFL_SIDE_ATTACKERS;
    if (s->head.side == a) {
        uint8_t on_line[TAFL_SQUARES];
        if (!mark_open_lines(s, ks, on_line))
            return 0;
        for (int i = 0; i < n; i++)
            keep[i] = on_line[TAFL_TO(mv[i])]
                      || tafl_capture_value(s, mv[i]) > 0
                      || tafl_quiet_move_draws(s, mv[i]);
        return 1;
    }
    const move_t forbidden = tafl_shuttle_forbidden(
        s, s->last_from[a], s->last_to[a], s->shuttle_len[a]);
    if (!tafl_king_capturable(s, s->board, ks, forbidden))
        return 0;
    for (int i = 0; i < n; i++) {
        const int from = TAFL_FROM(mv[i]), to = TAFL_TO(mv[i]);
        keep[i] = s->board[from] == TAFL_KING || men_taken(s, from, to)
                  || tafl_quiet_move_draws(s, mv[i])
                  || !capture_stands_after(s, mv[i], ks, forbidden);
    }
    return 1;
}


const struct game_eval tafl_eval = {&tafl_game, tafl_weights, F_COUNT,
                                    tafl_features, tafl_capture_value,
                                    tafl_is_forcing, tafl_threat_replies};
