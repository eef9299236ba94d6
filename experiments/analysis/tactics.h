/*
 * tactics.h -- the tactics suite: positions with a forced win in exactly
 * 3 or exactly 5 plies, and must-defend positions, each proven by the
 * solver (agents/solve/solver.h); how they are found in stored games; and how
 * an agent's move in one of them is judged, again by the solver.
 *
 * Definitions (plies count both sides' moves; "win within N" is the
 * solver's question: the side to move forces a win in at most N plies,
 * draws and the bound counting as not-a-win):
 *   win3    the side to move wins within 3 plies and not within 1.
 *   win5    it wins within 5 plies and not within 3.
 *   defend  the side to move does not win within 3 plies; after each of
 *           its legal moves, either the game is over or the solver
 *           settles whether the opponent (then to move) wins within 3
 *           plies (a move after which it does is a "losing move": a loss
 *           within 3 plies after our move, 4 from the position); at
 *           least one move is not losing, proven so (the solver answers
 *           no_win, or the move ends the game without an opponent win),
 *           and at most a quarter of the legal moves are not losing.
 * A move is right in a win-in-k position if after it the mover still
 * wins within k - 1 plies: it wins at once, or every opponent reply
 * leaves it a win within k - 2 (each reply is checked with its own
 * solver call; a reply that ends the game must end it in the mover's
 * favour). It is right in a defend position if it is not losing. A check
 * the solver cannot settle within its node budget is unknown, never
 * right.
 *
 * The set is kept as one text file per game, <game>.txt, one position a
 * line, with the proofs of its wins in <game>.proofs (tactics.c tells
 * the formats).
 */
#ifndef RULELAB_TACTICS_H
#define RULELAB_TACTICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"
#include "solver.h"

enum tactic_kind { TACTIC_WIN3, TACTIC_WIN5, TACTIC_DEFEND, TACTIC_KINDS };

enum tactic_verdict { TACTIC_RIGHT, TACTIC_WRONG, TACTIC_UNKNOWN };

#define TACTIC_MOVES_MAX 8192

/* One position of the set. */
struct tactic {
    enum tactic_kind kind;
    struct variant variant;
    char variant_text[VARIANT_TEXT_MAX]; /* canonical */
    char position[1024];
    char source[96]; /* where the generator found it */
    char proved[160]; /* what the solver proved, in words (set file) */
    /* win: the winning line; defend: every move that is not losing */
    char moves[TACTIC_MOVES_MAX];
    int legal; /* legal moves of the position */
    long proof_line; /* line of its certificate in <game>.proofs, 0 none */
};

/* Solver budgets of the classification (tactics_classify). */
struct tactics_budget {
    uint64_t nodes3; /* the win-within-3 question */
    uint64_t nodes5; /* the win-within-5 question */
    uint64_t nodes_defend; /* each move's opponent-wins-within-3 question;
                            * the whole defend question of a position
                            * may spend 40 times this (then it is left
                            * out) */
    size_t mb; /* transposition table of each solver call */
};

/* "win3", "win5", "defend". */
const char *tactic_kind_name(enum tactic_kind k);

/* Which categories st (a state of v's game, not over, set up from its
 * position text) belongs to, as a bit mask (bit k for enum tactic_kind
 * k), with the solver under budget b; only the categories in `wanted`
 * are tried (the win-within-1 and -3 questions are always asked). For
 * each category found, out[k] is filled: kind, variant, position,
 * proved, moves (the winning line, or the moves that are not losing),
 * legal. Any answer the budget leaves unknown leaves the category out.
 * Returns the mask (0 for none), or -1 with a message (the solver
 * failed: out of memory). */
int tactics_classify(const struct variant *v, const void *st,
                     const struct tactics_budget *b, unsigned wanted,
                     struct tactic out[TACTIC_KINDS], char *err,
                     size_t errsz);

/* Judges move m (legal in t's position) by the definitions above, each
 * solver call limited to `nodes` nodes and `mb` MiB. Adds the nodes
 * spent to *nodes_spent if not NULL. Returns 0 with the verdict in *out,
 * or -1 with a message (bad position text, the solver failed). */
int tactics_check(const struct tactic *t, move_t m, uint64_t nodes, size_t mb,
                  enum tactic_verdict *out, uint64_t *nodes_spent, char *err,
                  size_t errsz);

/* Sets st up from t's position text. Returns 0, or -1 with a message. */
int tactics_setup(const struct tactic *t, void *st, char *err, size_t errsz);

/* Writes t as one line of a set file (with its newline) to f; proof_line
 * is the line of its certificate in the proofs file, 0 if none. */
void tactics_write_line(FILE *f, const struct tactic *t, long proof_line);

/* Reads the set file at path: every line a position of `game` (comment
 * lines start with '#'). *out is malloc'd (free it), *n its length.
 * Returns 0, or -1 with a message "PATH line L: what is wrong" (a line
 * that does not parse, a position that does not set up, a move that is
 * not legal in it, another game's variant); nothing is skipped. */
int tactics_load(const char *path, const struct game *game,
                 struct tactic **out, int *n, char *err, size_t errsz);

/* Re-checks the certificate of t (t->proof_line > 0) in the proofs file
 * at path: it is the one that follows line proof_line, it verifies with
 * proof_verify, and its variant, position and bound are t's (3 or 5).
 * Returns 0 if so, or -1 with a message. */
int tactics_verify_certificate(const char *path, const struct tactic *t,
                               char *err, size_t errsz);

/* What `rulelab tactics` runs: one agent over positions. */
struct tactics_play_options {
    uint64_t nodes; /* per solver call of the check */
    size_t mb;
    int threads;
    uint64_t seed; /* the agent's seed in position i is seed + i */
    /* Called (from one thread at a time) after each position, may be NULL */
    void (*progress)(long done, long total, void *ctx);
    void *ctx;
};

/* Creates the agent of `spec` afresh for each of the n positions (seeded
 * as above), lets it choose a move, and checks that move: verdicts[i]
 * and, if moves is not NULL, moves[i] (the move chosen). Positions are
 * shared out over threads, and each one's result is its own, so results
 * do not depend on the thread count unless the agent's spec asks for a
 * wall-clock budget. Returns 0, or -1 with a message (a bad spec: then
 * nothing is played; a failed check). */
int tactics_play(const struct tactic *set, int n, const char *spec,
                 const struct tactics_play_options *o,
                 enum tactic_verdict *verdicts, move_t *moves, char *err,
                 size_t errsz);

/* ---- generation (tactics_gen.c) ---------------------------------------- */

struct store;

struct tactics_gen_options {
    const char *sweep; /* the source sweep's name */
    const char *out_dir; /* <game>.txt and <game>.proofs are written here */
    const char *games; /* comma-separated game names; NULL = every game */
    int cap; /* per category, 1..512; 0 = the game's own (the set's) */
    int threads;
    int verbose; /* progress on stderr */
};

/* The fixed procedure of the committed set (tactics_gen.c tells it step
 * by step): walks the last plies of every game of the sweep in db in a
 * fixed order, classifies each distinct position with the per-game
 * budgets, keeps the first ones up to the caps, proves and verifies the
 * wins' certificates, and writes the files. The same database gives the
 * same files byte for byte, on any number of threads. Returns 0, or -1
 * with a message. */
int tactics_generate(struct store *db, const struct tactics_gen_options *o,
                     char *err, size_t errsz);

#endif
