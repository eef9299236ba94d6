/*
 * disproof_internal.h -- what the disproof checker's two files share:
 * disproof.c (the walk over the data) and disproof_header.c (the header).
 * For them alone; everything else uses disproof.h.
 */
#ifndef RULELAB_DISPROOF_INTERNAL_H
#define RULELAB_DISPROOF_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "disproof.h"
#include "solver.h" /* SOLVER_MAX_PLIES */

#define LINE_MAX_LEN 2047

struct frame {
    unsigned char *state;
    move_t *moves;
    int n;
    unsigned char *seen;
    int16_t *table; /* move -> index + 1, open addressing */
    char move[DISPROOF_MOVE_MAX + 1]; /* the move played from here */
};

struct shared_node {
    uint64_t index;
    unsigned char fp[16];
    uint8_t bound, ended;
};

#define LEAF_BATCH 32
#define LEAF_QUEUE 4
#define PLACE_MAX 1024

/* Leaves waiting for a task: their states and place texts. */
struct leaf_batch {
    int n;
    long node[LEAF_BATCH];
    char where[LEAF_BATCH][PLACE_MAX];
    unsigned char *states; /* LEAF_BATCH states, GAME_STATE_ALIGN apart */
};

struct checker {
    const struct game *g;
    int threads; /* 1: leaves checked in the walk */
    struct leaf_batch *batch; /* being filled; NULL when none */
    size_t state_stride;
    int in_flight; /* batches handed to tasks and not yet done */
    long bad_leaf; /* the first failing leaf's node, -1 while none */
    char bad_why[1024 + PLACE_MAX];
    int attacker;
    int part; /* the header names a part: the root lists part_move alone */
    move_t part_move;
    FILE *in;
    int line; /* header lines read */
    uint64_t offset; /* data bytes read */
    char (*dict)[DISPROOF_MOVE_MAX + 1];
    uint32_t ndict, dict_cap;
    struct shared_node *shared;
    long nshared, shared_cap;
    long next_node, nodes_declared;
    struct frame frames[SOLVER_MAX_PLIES + 2];
    size_t table_mask; /* table size - 1: a power of two >= 2 max_moves */
    struct disproof_info *info;
    int failed;
    char *err;
    size_t errsz;
};

/* Records the first failure's message (printf-style) in c->err; returns
 * -1, so error paths read `return fail(c, ...)`. Static here, so that
 * both files call it by its short name. */
static inline int fail(struct checker *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static inline int fail(struct checker *c, const char *fmt, ...)
{
    if (!c->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, c->errsz, fmt, ap);
        va_end(ap);
        c->failed = 1;
    }
    return -1;
}

/* Reads and checks the header, sets up v and the root position, and
 * allocates the shared-node table. Returns 0, or -1 after fail(). */
int disproof_check_header(struct checker *c, struct variant *v, void *root);

#endif
