/*
 * split.h -- a solve shared out by root move over threads and machines,
 * and the join that checks its parts into one answer.
 *
 * "No forced win within N plies" holds exactly when no legal root move
 * forces one, so the question splits into one part per root move
 * (solver.h's split search). A split writes each part's certificate into
 * a directory: part-IIIII.proof when that move forces a win (an ordinary
 * proof of the whole root), part-IIIII.disproof when it does not (a
 * disproof part, disproof.h), IIIII the move's index in the move
 * generator's order. A part is written under a temporary name
 * (.part-IIIII.tmp) and renamed when whole, so a stopped run leaves only
 * whole parts, and run again it skips them: it resumes. A shard K of N
 * (K counted from 0, as `rulelab run --shard` counts) takes the moves
 * whose index is K modulo N, so N machines (a Slurm array) can share a
 * root, and each machine's threads share its moves.
 *
 * Mirror images. Where the game's rules are mirror symmetric (game.h's
 * mirror texts) and the root is its own mirror image (as Serbest's empty
 * board is), a root move and its mirror image are one search: the lower
 * index's part is searched (by that index's shard) and the other's is
 * written from it with every move mirrored. Nothing trusts the symmetry:
 * the mirrored part is checked like any other.
 *
 * split_join checks a directory with the independent checkers alone:
 * every part verifies, all parts are of one root (variant, position,
 * plies), and -- for "no win" -- the disproof parts name every legal
 * root move exactly once. A verified proof among them answers "win".
 */
#ifndef RULELAB_SPLIT_H
#define RULELAB_SPLIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "solver.h"

struct split_options {
    const char *dir; /* where the parts go (made if missing) */
    int shard, shards; /* this is shard `shard` (0..shards-1) of `shards` */
    int threads; /* parts solved at once, sharing one table of o->max_mb */
    int progress; /* lines on stderr as parts finish */
    int only; /* I + 1: only root move I's part (searched as the whole
               * split searches it: with its mirror twin where that is
               * the lower index), the shard then ignored; 0: the shard's */
};

struct split_outcome {
    int parts; /* the root's legal moves */
    int mine; /* of them in this shard */
    int found; /* of those, already whole in the directory */
    int wins, no_wins, unknowns; /* solved by this run (unknown: the
                                  * node budget ran out) */
    int stopped; /* parts whose search a win elsewhere stopped */
    int mirrored; /* of the parts written, those written as the mirror
                   * image of another's certificate (unsearched) */
    int present; /* root moves (of every shard) with a part in the
                  * directory when the run ended */
    int win_index; /* a part that wins (this run's or found), or -1 */
    struct solver_result win; /* its search, when this run solved it */
    uint64_t nodes; /* expansions by this run, every part */
    double seconds;
};

/* Solves the parts of shard so->shard of st (set up under v, the game
 * not over) within o->plies (o->plies >= 2; o->max_nodes a part), those
 * not already whole in so->dir, on so->threads threads; stops early when
 * a part wins. Returns 0 with *out (every part solved or left unknown by
 * its budget), or -1 with a message (the directory cannot be written, it
 * holds parts of another question, a search ran out of memory). */
int split_solve(const struct variant *v, const void *st,
                const struct solver_options *o, const struct split_options *so,
                struct split_outcome *out, char *err, size_t errsz);

struct split_join {
    enum solver_answer answer; /* UNKNOWN: root moves without a part */
    char variant[VARIANT_TEXT_MAX];
    char position[1024];
    int plies;
    int parts; /* the root's legal moves */
    int covered; /* of them with a disproof part */
    int proofs; /* proof files (each verified) */
    char win_file[1100]; /* the first proof's path, for SOLVER_WIN */
    char missing[64]; /* the first root move without a part, if any */
    int journaled; /* parts taken from the journal, not verified again */
    long nodes, leaves; /* the disproof parts' records and leaves */
    uint64_t bytes; /* their data bytes */
};

struct split_join_options {
    int threads; /* disproof leaves checked on this many threads */
    int progress; /* a line on stderr every 10 s */
    int recheck; /* verify every part, the journal notwithstanding */
};

/* Verifies every part in dir and whether together they answer the root.
 * A disproof part that verifies is journaled in dir/verified.txt (its
 * name, its file's SHA-256 and counts), and a later join takes a part
 * whose file has the journaled SHA-256 without verifying it again
 * (unless o->recheck), so a long join resumes. Returns 0 with *out when
 * every part verified (out->answer says what they show), or -1 with a
 * message naming the file and the fault (a part that does not verify,
 * parts of different roots, a root move with two parts, no parts). */
int split_join(const char *dir, const struct split_join_options *o,
               struct split_join *out, char *err, size_t errsz);

/* What split_journal_check found. */
struct split_journal_check {
    int named; /* parts the journal names (each once: its last line) */
    int matched; /* of them in the directory as the journal has them */
    int missing; /* of them not in the directory */
    int differ; /* of them with another SHA-256, format or counts */
    int extra; /* disproof parts in the directory the journal omits */
    int question; /* 1: the journal's question is not the parts' */
};

/* Checks the disproof parts in dir against the journal at path (a split's
 * verified.txt, e.g. one committed beside a claim): each part it names
 * must be in dir with the journal's SHA-256, its certificate format
 * (where the journal states one) and verified counts (those dir's own
 * journal noted), and dir may hold no disproof part it does not name,
 * nor parts of another question. j is dir's join (split_join, run first,
 * which verified every part and journaled it in dir). Each fault is a
 * line "DIR/NAME: MISMATCH: ..." on report (20 at most, then a count).
 * Returns 0 with *out (a clean check: matched == named and no other
 * count), or -1 with a message when the journal cannot be read or names
 * no part. */
int split_journal_check(const char *dir, const char *path,
                        const struct split_join *j, FILE *report,
                        struct split_journal_check *out, char *err,
                        size_t errsz);

/* The path of part `index` in dir: part-IIIII.proof or .disproof. */
void split_part_path(const char *dir, int index, int proof, char *buf,
                     size_t n);

#endif
