/*
 * solver.h -- "can the side to move force a win within N plies?"
 *
 * Depth-first proof-number search (df-pn, Nagai 2002) with a depth bound,
 * over any game behind core/game.h. The side to move at the root is the
 * attacker: OR nodes are its turns, AND nodes the defender's. A position
 * where the game ended is a proof if the attacker won, a disproof
 * otherwise (draws and the ply bound count as not-a-win). A transposition
 * table (size from max_mb) is keyed by the game's search_key (a hash of
 * the whole state where the game has none), checked against the game's
 * Zobrist hash.
 *
 * A proven win can be written out as a proof certificate (a strategy
 * tree), which proof_verify (proof.h) re-checks from scratch with the move
 * generator alone; the command line never reports a win whose proof does
 * not verify. A proven "no win within N" is written out the same way as a
 * disproof certificate (solver_write_certificate; format and checker in
 * disproof.h), and the command line never reports one that does not
 * verify either.
 *
 * Proof file format (text, one item per line):
 *
 *     rulelab-proof 1
 *     variant <canonical variant>
 *     position <position text>
 *     plies <N>
 *     moves
 *     <ply> <move>            one line per node of the strategy tree, in
 *     ...                     preorder: the attacker's chosen move at its
 *     end                     turns, every legal defender move at theirs
 *
 * <ply> is the node's distance from the root (1 for the attacker's first
 * move); <move> is in the game's notation. A line's children are the lines
 * after it with ply one greater, up to the next line with ply no greater.
 *
 * The reader is strict: the header lines come once each, in this order; a
 * header value follows its key after one space; <N> and <ply> are 1 to
 * SOLVER_MAX_PLIES in plain digits (no sign, no leading zero); a move line
 * is <ply>, one space, <move>, and nothing else; no line after 'end'
 * (an empty one neither); lines end in "\n" or "\r\n" (the last may lack
 * it) and hold at most 2047 characters and no NUL byte.
 */
#ifndef RULELAB_SOLVER_H
#define RULELAB_SOLVER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"

#define SOLVER_MAX_PLIES 64

enum solver_answer { SOLVER_WIN, SOLVER_NO_WIN, SOLVER_UNKNOWN };

struct solver_options {
    int plies; /* 1..SOLVER_MAX_PLIES: the bound on the game's length */
    uint64_t max_nodes; /* nodes expanded before giving up; 0 = no limit */
    size_t max_mb; /* transposition table memory */
    /* A disproof is built as a DAG in memory (sharing transpositions) up
     * to this many nodes, 40 bytes or so each, and beyond is written as
     * a tree without links, streamed through a temporary file; 0 means
     * SOLVER_DAG_NODES. */
    size_t max_dag_nodes;
    /* The search gives up (answering unknown, as at the node budget) once
     * *stop is nonzero, which another thread may set; NULL: never. */
    const atomic_int *stop;
    /* The table's entries instead of max_mb's (rounded down to a power of
     * two, at least 4); 0 means from max_mb. For tests: a table small
     * enough to lose what the disproof's writer looks for. */
    size_t tt_entries;
    /* A table to use instead of one of the solver's own (max_mb and
     * tt_entries then say nothing): one table for the solvers of a
     * split's threads, each seeing what the others found. NULL: the
     * solver's own. */
    struct solver_table *table;
};

/* A transposition table that solvers on several threads may share (its
 * entries are read and written whole, and a torn one reads as a miss):
 * max_mb's worth, or tt_entries, of o. NULL out of memory. Close it
 * after every solver using it is freed. */
struct solver_table;
struct solver_table *solver_table_open(const struct solver_options *o);
void solver_table_close(struct solver_table *t);

#define SOLVER_DAG_NODES ((size_t)1 << 24)

struct solver_result {
    enum solver_answer answer;
    move_t pv[SOLVER_MAX_PLIES]; /* a winning line, for SOLVER_WIN: the
                                  * attacker's proving moves, and at each
                                  * defender turn its first reply that does
                                  * not lose at once */
    int pv_len;
    uint64_t nodes; /* expansions */
    double seconds;
    uint32_t root_pn, root_dn; /* proof and disproof numbers reached */
};

const char *solver_answer_name(enum solver_answer a);

/* Searches st (game not over) for a forced win of the side to move within
 * o->plies plies. Returns 0 with the answer in *r, or -1 with a message
 * (out of memory, bad options). */
int solver_solve(const struct game *g, const void *st,
                 const struct solver_options *o, struct solver_result *r,
                 char *err, size_t errsz);

/* Solves st as above and, if the answer is a win, writes its proof
 * certificate to out (v is the variant st was set up under). Returns 0
 * with the answer in *r (nothing is written unless it is SOLVER_WIN), or
 * -1 with a message. */
int solver_write_proof(const struct variant *v, const void *st,
                       const struct solver_options *o, FILE *out,
                       struct solver_result *r, char *err, size_t errsz);

/* The root a certificate is about: st's text into position, and root
 * set up from it, the position exactly as the checker will rebuild it,
 * so no history the text lacks can make the two disagree. Returns 0, or
 * -1 with a message. */
int solver_root_from_text(const struct variant *v, const void *st,
                          void *root, char *position, size_t possz,
                          char *err, size_t errsz);

/* What solver_write_certificate wrote for a no-win answer. */
struct solver_certificate {
    long nodes, shared; /* the disproof's node records; those shared */
};

/* Solves st as above and writes the certificate of the answer to out: a
 * proof (the format above) for SOLVER_WIN; for SOLVER_NO_WIN a disproof (the format of disproof.h: every attacker move
 * refuted, a DAG sharing transpositions), its counts in *cert (may be
 * NULL); nothing for SOLVER_UNKNOWN. Rebuilding a certificate may search
 * again past o->max_nodes (the answer is known by then). Returns 0 with
 * the answer in *r, or -1 with a message. */
int solver_write_certificate(const struct variant *v, const void *st,
                             const struct solver_options *o, FILE *out,
                             struct solver_result *r,
                             struct solver_certificate *cert, char *err,
                             size_t errsz);

/* ---- a split search: one root move at a time ------------------------ */

/* "No forced win within N" holds exactly when no legal root move forces
 * one: a split search answers that question for each root move on its
 * own (with the root's other moves left out), so the moves can be shared
 * out over threads and machines and their certificates joined after
 * (experiments/prove/split.h). A root move that wins gives an ordinary proof
 * (solver.h's format: the attacker's chosen move is that one); one that
 * does not gives a disproof part: a disproof (disproof.h) whose header
 * names the move and whose root lists that move alone. A split keeps its
 * transposition table from part to part (positions below the root are
 * worth the same whichever root move led there). */
struct solver_split;

/* Opens a split of st (set up under v; the game not over, o->plies >= 2):
 * the root's legal moves in the move generator's order are the parts.
 * Returns 0 with *out, or -1 with a message. */
int solver_split_open(struct solver_split **out, const struct variant *v,
                      const void *st, const struct solver_options *o,
                      char *err, size_t errsz);

/* The number of parts (root moves); their moves into moves (may be NULL;
 * GAME_MAX_MOVES room). */
int solver_split_moves(const struct solver_split *sp, move_t *moves);

/* The part whose move is the mirror image of part index's, where the
 * game has mirror texts (game.h) and the root is its own mirror image;
 * -1 where there is none (or the move is its own mirror image). */
int solver_split_mirror(const struct solver_split *sp, int index);

/* Solves part `index` (0 .. parts - 1) within o->plies (o->max_nodes
 * counting this part alone) and writes its certificate to out: a proof
 * for SOLVER_WIN (the move wins), a disproof part for SOLVER_NO_WIN (its
 * counts in *cert, which may be NULL), nothing for SOLVER_UNKNOWN. If
 * twin is not NULL (only where solver_split_mirror(sp, index) is a part),
 * the mirror image of that certificate goes to twin: the certificate of
 * the mirror part, unsearched, for the checker to judge like any other.
 * Returns 0 with the answer in *r, or -1 with a message. */
int solver_split_part(struct solver_split *sp, int index, FILE *out,
                      FILE *twin, struct solver_result *r,
                      struct solver_certificate *cert, char *err,
                      size_t errsz);

void solver_split_close(struct solver_split *sp);

#endif
