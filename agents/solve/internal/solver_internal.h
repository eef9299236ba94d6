/*
 * solver_internal.h -- what solver.c (the search), solver_certify.c
 * (writing a proof, or having the disproof written), solver_disproof.c
 * (rebuilding and writing a disproof from the search's table) and
 * solver_split.c (the split search) share: the solver's state and the few
 * functions of the search they call. Nothing outside agents/solver*.c
 * includes it.
 */
#ifndef RULELAB_SOLVER_INTERNAL_H
#define RULELAB_SOLVER_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "solver.h"

#define INF 0x3fffffffu

struct dag;

/* A table entry: 32 bytes, 4 to a 128-byte bucket, in four words that
 * the threads of a split may read and write at once (one table serves
 * them all; see struct solver_table): each word is loaded and stored
 * whole (relaxed atomics, plain moves on x86-64), and `lock` holds the
 * Zobrist check mixed with the two value words (solver.c's tt_lock), so
 * an entry torn by two writers (words of each) fails its check and reads
 * as a miss, never as another position's values. (No refuting reply is
 * kept: which reply refuted depends on what the table held, and the
 * disproof's writer takes the first that refutes in the move generator's
 * order, so that its bytes do not.)
 *
 *     value: pn (bits 0-31) | dn (bits 32-63)
 *     extra: depth (bits 0-15)
 */
struct tt_entry {
    _Atomic uint64_t key, lock, value, extra;
};

/* An entry's contents, read or to be written whole. */
struct tt_view {
    uint64_t key, check;
    uint32_t pn, dn, depth;
};

/* The transposition table: owned by one solver, or shared by the
 * solvers of a split's threads (solver_table_open). */
struct solver_table {
    struct tt_entry *entries;
    size_t mask; /* entries - 1 */
};

#define TT_WAYS 4

/* The children of one node being searched, kept for its whole visit: the
 * moves and their values, not the states (a Serbest state is 2.5 KiB and
 * a node has ~700 children); a child is made again in the solver's line
 * (below) each time it is searched. */
struct level {
    move_t moves[GAME_MAX_MOVES];
    uint32_t pn[GAME_MAX_MOVES], dn[GAME_MAX_MOVES];
    uint64_t key[GAME_MAX_MOVES], check[GAME_MAX_MOVES];
};

struct solver {
    const struct game *g;
    int attacker; /* seat */
    struct tt_entry *tt; /* table->entries */
    size_t tt_mask;
    struct solver_table *table, own_table; /* &own_table, or shared */
    uint64_t nodes, max_nodes;
    size_t max_dag_nodes; /* solver_options' (SOLVER_DAG_NODES for 0) */
    int out_of_budget, out_of_memory;
    const atomic_int *stop; /* solver_options' */
    /* A split's part: the root (the only node `root_depth` plies from
     * the bound) lists only_move alone, and its value is not stored (it
     * is not the position's). */
    int only;
    move_t only_move;
    uint32_t root_depth;
    struct level *levels[SOLVER_MAX_PLIES + 1];
    /* One scratch state per remaining depth: a node at depth d makes its
     * children in solver_line(s, d - 1). They lie line_stride bytes apart,
     * never a multiple of 4 KiB: glibc's memcpy of a 2.5 KiB state (rep
     * movsb) ran 3x slower on the 2-core AMD EPYC between buffers at the
     * same offset in their pages (4K aliasing), as per-level buffers were. */
    unsigned char *line;
    size_t line_stride;
    /* The disproof writer's buffers (solver_disproof.c), kept from one
     * disproof to the next: a split writes hundreds. */
    struct dag *dag;
};

static inline unsigned char *solver_line(const struct solver *s, uint32_t d)
{
    return s->line + (size_t)d * s->line_stride;
}

/* The moves the solver considers at st with depth plies left into moves:
 * its legal moves, or at a split part's root only the part's move. */
int solver_moves(const struct solver *s, const void *st, uint32_t depth,
                 move_t *moves);

/* A 64-bit hash of a state's used bytes (game_state_used) in its
 * canonical form (game_canonical_copy): what the disproof's DAG shares
 * positions by, as the checker fingerprints those bytes. */
uint64_t solver_state_key(const struct game *g, const void *st);
/* The table's key for st (the game's search_key, or every byte). */
uint64_t solver_tt_key(const struct solver *s, const void *st);
/* The table's (pn, dn) for a state at depth plies left ((1, 1) if none). */
void solver_tt_get(const struct solver *s, uint64_t key, uint64_t check,
                   uint32_t depth, uint32_t *pn, uint32_t *dn);
/* 1 with (pn, dn) if the game is over at st or no plies are left. */
int solver_settled(const struct solver *s, const void *st, uint32_t depth,
                   uint32_t *pn, uint32_t *dn);
/* Searches st at depth plies left as far as the budget goes. */
void solver_search(struct solver *s, const void *st, uint32_t depth,
                   uint32_t *pn, uint32_t *dn);

/* Initialises s to search st (the attacker: its side to move) under o;
 * 0, or -1 with a message. solver_free releases it. */
int solver_init(struct solver *s, const struct game *g, const void *st,
                const struct solver_options *o, char *err, size_t errsz);
void solver_free(struct solver *s);

/* Runs the search of st within plies on an initialised s and fills r
 * (with the principal variation of a win, found without a budget). */
void solver_solve_with(struct solver *s, const void *st, int plies,
                       struct solver_result *r);
/* Whether child, depth plies from the bound, is proven for the attacker
 * (searching it again, without a budget, if the table lost it). */
int solver_child_proven(struct solver *s, const void *child, uint32_t depth);

/* Searches root (its text `position`, set up under v) on the initialised
 * s and writes the answer's certificate to out: a proof for a win; for
 * no win a disproof if `disproof`; the mirror image of either to twin
 * unless it is NULL. The rebuild searches again without a budget or a
 * stop (the answer is known by then). Returns 0 with the answer in *r,
 * or -1 with a message. */
int solver_certify(struct solver *s, const struct variant *v,
                   const void *root, const char *position, int plies,
                   int disproof, FILE *out, FILE *twin,
                   struct solver_result *r, struct solver_certificate *cert,
                   char *err, size_t errsz);

/* Frees the disproof writer's buffers (solver_free calls it). */
void solver_dag_free(struct solver *s);

/* Writes the disproof of root (disproven within plies; position is its
 * text) to out in the format of disproof.h, searching again without a
 * budget where the table lost a child; and, if twin is not NULL, its
 * mirror image to twin (the game's mirror_move_text on every move: a
 * split's mirror-image part, the root being its own mirror image).
 * Returns 0 with the counts in *cert (may be NULL), or -1 with a
 * message. */
int solver_write_disproof(struct solver *s, const struct variant *v,
                          const void *root, const char *position, int plies,
                          FILE *out, FILE *twin,
                          struct solver_certificate *cert, char *err,
                          size_t errsz);

#endif
