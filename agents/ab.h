/*
 * ab.h -- `ab`, an alpha-beta agent: iterative-deepening negamax with
 * principal-variation search, a transposition table, move ordering and a
 * quiescence search, over any game behind core/game.h, evaluated through
 * agents/eval.h.
 *
 * Parameters (spec `ab(key=value,...)`, see `rulelab list`; every
 * evaluation weight is a parameter too):
 *   depth       deepest iteration of the iterative deepening (1..60)
 *   nodes       node budget per move (reproducible; 0 = none)
 *   ms          wall-clock budget per move in ms (0 = none)
 *   tt_mb       transposition table MiB (0 = no table): the memory cap,
 *               allocated once when the agent is made, never grown
 *   quiescence  search captures and forcing moves past the horizon (0/1)
 *   qdepth      most plies of quiescence (0..32)
 *   qforcing    in quiescence, also forcing moves (eval.h's is_forcing)
 *               and every reply to them (0/1)
 *   contempt    points a draw by the rules costs the side the agent
 *               plays (and gains its opponent), so that it avoids draws
 *               unless behind by more
 *   lmr         late move reductions: plies (0..2; 0 = off, the
 *               default) a late quiet move is first searched shallower
 *               (ab_search.c says which moves; README "How strong" what they
 *               measured)
 *   repdraw     a position the game or the search line has met before
 *               scores as a draw (-contempt for the root's side) inside
 *               the search, whatever the game's repetition rule (0/1; off
 *               by default): with contempt, the side ahead steers away
 *               from repeating where repetition is no draw by the rules.
 *               The agent learns the game's positions from observe, so
 *               it must be told every move of the game
 * A spec with nodes=0 and ms=0 needs a depth of at most 20: without a
 * budget the search would never end (agent_create refuses it).
 * The search stops at the first budget reached (depth, nodes or ms), but
 * always completes depth 1, so a legal move is returned whatever the
 * budget; the move is that of the deepest completed iteration, or of the
 * unfinished one if a root move it searched to the end beat the previous
 * best. At a depth or nodes budget the same spec and seed give the same
 * move on every machine. Plain `ab` stops at 100000 nodes (about 0.15 s
 * a move in tafl and Serbest, 0.02 s in Jetan, on a shared 2-core VM:
 * `rulelab bench`). A node is a position the search makes: searched, or
 * looked at for a win at once.
 *
 * Quiescence stands pat, then plays captures by value and, in its first
 * two plies, forcing moves; after a forcing move the opponent may not
 * stand pat (every reply is searched) and after each reply the threat is
 * cashed if it still wins at once.
 *
 * Scores are points from eval.h (about 100 to a pawn-like piece) for the
 * side to move; a win is AB_WIN less the plies to it (the fastest win and
 * the slowest loss are preferred); a draw by the rules is -contempt for
 * the root's side to move (+contempt for the other). Equal root
 * scores are broken by the root's move order, shuffled by the agent's
 * seeded generator at every move (the previous iteration's best first).
 *
 * The transposition table keys a position by its game's search key
 * (eval.h: the Zobrist hash mixed with the counters, the live repetition
 * stretch and the rules, so two positions share an entry only if every
 * rule sees them alike), checked against the game's Zobrist hash. With
 * contempt the root's seat is mixed in too (a draw's value depends on
 * it). Buckets of four entries; a store replaces the entry of the same
 * position, else the one from the oldest search, the shallowest among
 * those. The table is kept between the moves of a game.
 *
 * agent_stats: iterations = nodes searched, depth = deepest completed
 * iteration, value = eval_win_probability(score, AB_VALUE_SCALE) or 1 / 0
 * for a proven win / loss, proven = +1 / -1 when the search proved a win
 * / loss for the mover, hit_cap = the table was nearly full (this search
 * replaced more of its own entries than an eighth of the table holds),
 * nodes = nodes searched too (capped at UINT32_MAX).
 */
#ifndef RULELAB_AB_H
#define RULELAB_AB_H

#include <stddef.h>

#include "agent.h"

#define AB_WIN 1000000
/* Scores at least AB_WIN - AB_MATE_RANGE are proven wins. */
#define AB_MATE_RANGE 1000
/* The score whose odds are e:1 in agent_stats.value. */
#define AB_VALUE_SCALE 200.0

extern const struct agent_kind ab_kind;

/* What the last choose() of an ab agent found. */
struct ab_info {
    int score; /* for the mover, as above */
    int depth; /* deepest completed iteration */
    unsigned long long nodes;
    move_t move;
};

/* The last search of agent a, which must be of kind ab. */
void ab_last_search(const struct agent *a, struct ab_info *out);

/* Bytes ab allocates at create for the parameter values: the table of
 * tt_mb MiB (at most) and the per-ply buffers for depth + qdepth plies. */
size_t ab_memory_bytes(int depth, int qdepth, int tt_mb);

#endif
