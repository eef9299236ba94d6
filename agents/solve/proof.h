/*
 * proof.h -- checking a proof certificate from scratch (agents/solve/proof.c).
 *
 * A proof certificate is the whole winning strategy of a proven win: the
 * attacker's move at each of its turns and every legal defender reply,
 * down to positions the rules score as won. solver_write_proof writes it;
 * the file format, and how strictly it is read, are documented in
 * solver.h. The checker here shares nothing with the search: only the
 * game's own move generator and rules decide whether each line holds, so
 * a bug in the solver cannot make a wrong proof pass. The command line
 * (`rulelab solve`, `verify`, `claim`) never reports a win whose proof
 * does not verify.
 */
#ifndef RULELAB_PROOF_H
#define RULELAB_PROOF_H

#include <stddef.h>
#include <stdio.h>

#include "game.h"

/* What proof_verify found. */
struct proof_info {
    char variant[VARIANT_TEXT_MAX];
    char position[1024];
    int plies;
    long nodes; /* lines of the strategy tree */
};

/* Re-checks a proof file from scratch: the header parses, every attacker
 * move is legal, every legal defender move is present, every leaf is a win
 * of the attacker by the rules, no line is deeper than the bound. Reads
 * the file once, as it checks: memory is bounded by the bound (one state
 * and one move list per ply), not by the file's size. Returns 0 if valid,
 * or -1 with a message "line L: what is wrong" naming the file line where
 * it breaks (info->nodes then counts the move lines read so far). */
int proof_verify(FILE *in, struct proof_info *info, char *err, size_t errsz);

#endif
