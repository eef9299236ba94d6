/*
 * solver_split.c -- the split search of solver.h (solver_split_*): one
 * root move at a time, each a search of the root with its other moves
 * left out, on one solver whose transposition table is kept from part to
 * part; and the mirror-image part of a move, where the game has mirror
 * texts and the root is its own mirror image. The parts' certificates
 * are written by solver_certify.c's solver_certify, the twin's with every move
 * mirrored.
 */
#include "solver.h"

#include <stdlib.h>
#include <string.h>

#include "solver_internal.h"

/* A split: one solver for all its parts, and its root as the
 * certificates state it. */
struct solver_split {
    struct solver s;
    const struct variant *v;
    struct solver_options o;
    _Alignas(GAME_STATE_ALIGN) unsigned char root[GAME_MAX_STATE_SIZE];
    char position[1024];
    move_t moves[GAME_MAX_MOVES];
    int n;
    int symmetric; /* the game has mirror texts and the root is its own
                    * mirror image */
};

int solver_split_open(struct solver_split **out, const struct variant *v,
                      const void *st, const struct solver_options *o,
                      char *err, size_t errsz)
{
    const struct game *g = v->game;
    struct solver_split *sp = aligned_alloc(GAME_STATE_ALIGN, sizeof *sp);
    *out = NULL;
    if (!sp) {
        snprintf(err, errsz, "out of memory for the split");
        return -1;
    }
    if (o->plies < 2) {
        snprintf(err, errsz, "a split search needs a bound of 2 plies or "
                 "more");
        free(sp);
        return -1;
    }
    if (solver_root_from_text(v, st, sp->root, sp->position, sizeof sp->position,
                       err, errsz)
        || solver_init(&sp->s, g, sp->root, o, err, errsz)) {
        free(sp);
        return -1;
    }
    sp->v = v;
    sp->o = *o;
    sp->n = g->legal_moves(sp->root, sp->moves);
    char mirrored[sizeof sp->position];
    sp->symmetric = g->mirror_move_text && g->mirror_position_text
                    && g->mirror_position_text(sp->position, mirrored,
                                               sizeof mirrored) >= 0
                    && strcmp(mirrored, sp->position) == 0;
    *out = sp;
    return 0;
}

int solver_split_mirror(const struct solver_split *sp, int index)
{
    const struct game *g = sp->v->game;
    char text[64], mirrored[64];
    move_t m;
    if (!sp->symmetric || index < 0 || index >= sp->n
        || g->move_to_text(sp->root, sp->moves[index], text, sizeof text) < 0
        || g->mirror_move_text(text, mirrored, sizeof mirrored) < 0
        || g->move_from_text(sp->root, mirrored, &m) != 0)
        return -1;
    for (int i = 0; i < sp->n; i++)
        if (sp->moves[i] == m)
            return i == index ? -1 : i;
    return -1;
}

int solver_split_moves(const struct solver_split *sp, move_t *moves)
{
    if (moves)
        memcpy(moves, sp->moves, sizeof *moves * (size_t)sp->n);
    return sp->n;
}

int solver_split_part(struct solver_split *sp, int index, FILE *out,
                      FILE *twin, struct solver_result *r,
                      struct solver_certificate *cert, char *err,
                      size_t errsz)
{
    struct solver *s = &sp->s;
    if (index < 0 || index >= sp->n) {
        snprintf(err, errsz, "part %d of a split with %d", index, sp->n);
        return -1;
    }
    if (twin && solver_split_mirror(sp, index) < 0) {
        snprintf(err, errsz, "part %d has no mirror-image part", index);
        return -1;
    }
    s->only = 1;
    s->only_move = sp->moves[index];
    s->root_depth = (uint32_t)sp->o.plies;
    s->nodes = 0;
    s->out_of_budget = 0;
    return solver_certify(s, sp->v, sp->root, sp->position, sp->o.plies, 1,
                          out, twin, r, cert, err, errsz);
}

void solver_split_close(struct solver_split *sp)
{
    if (!sp)
        return;
    solver_free(&sp->s);
    free(sp);
}
