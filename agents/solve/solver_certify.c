/*
 * solver_certify.c -- the solver's certificates: after a search, the
 * proof of a win rebuilt from the transposition table (searching again
 * where the table lost a proven child) and written as the strategy tree
 * of solver.h's format, or for no win the disproof (solver_disproof.c);
 * with a twin file, the mirror image of either as well (a split's
 * mirror-image part, solver_split.c). The search itself is solver.c's.
 */
#include "solver.h"

#include <stdio.h>
#include <string.h>

#include "solver_internal.h"

/* Writes the strategy tree below a proven st, `ply` plies from the root,
 * to out, and its mirror image to twin unless it is NULL. Returns 0, or
 * -1 if a needed proof cannot be found again. */
static int write_tree(struct solver *s, const void *st, uint32_t depth,
                      int ply, FILE *out, FILE *twin)
{
    const struct game *g = s->g;
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    char text[32];
    int n = solver_moves(s, st, depth, moves);
    int or_node = g->to_move(st) == s->attacker;
    int written = 0;
    for (int i = 0; i < n; i++) {
        game_copy_state(g, child, st);
        g->apply(child, moves[i]);
        int proven = solver_child_proven(s, child, depth - 1);
        if (or_node && !proven)
            continue;
        if (!proven)
            return -1; /* a defender move the proof does not answer */
        g->move_to_text(st, moves[i], text, sizeof text);
        fprintf(out, "%d %s\n", ply + 1, text);
        if (twin) {
            char mirrored[32];
            if (g->mirror_move_text(text, mirrored, sizeof mirrored) < 0)
                return -1;
            fprintf(twin, "%d %s\n", ply + 1, mirrored);
        }
        written++;
        if (g->status(child).outcome == GAME_ONGOING
            && write_tree(s, child, depth - 1, ply + 1, out, twin) != 0)
            return -1;
        if (or_node)
            return 0;
    }
    return or_node || written == 0 ? -1 : 0;
}

static int write_certificate(const struct variant *v, const void *st,
                             const struct solver_options *o, int disproof,
                             FILE *out, struct solver_result *r,
                             struct solver_certificate *cert, char *err,
                             size_t errsz);

int solver_write_proof(const struct variant *v, const void *st,
                       const struct solver_options *o, FILE *out,
                       struct solver_result *r, char *err, size_t errsz)
{
    return write_certificate(v, st, o, 0, out, r, NULL, err, errsz);
}

/* solver_internal.h */
int solver_certify(struct solver *s, const struct variant *v,
                   const void *root, const char *position, int plies,
                   int disproof, FILE *out, FILE *twin,
                   struct solver_result *r, struct solver_certificate *cert,
                   char *err, size_t errsz)
{
    char canonical[VARIANT_TEXT_MAX];
    if (cert)
        memset(cert, 0, sizeof *cert);
    solver_solve_with(s, root, plies, r);
    const atomic_int *stop = s->stop;
    uint64_t budget = s->max_nodes;
    s->max_nodes = 0;
    s->out_of_budget = 0;
    s->stop = NULL;
    int rc = 0;
    if (s->out_of_memory) {
        snprintf(err, errsz, "out of memory during the search");
        rc = -1;
    } else if (r->answer == SOLVER_WIN) {
        variant_canonical(v, canonical, sizeof canonical);
        for (int k = 0; k < (twin ? 2 : 1); k++)
            fprintf(k ? twin : out, "rulelab-proof 1\nvariant %s\nposition "
                    "%s\nplies %d\nmoves\n", canonical, position, plies);
        if (write_tree(s, root, (uint32_t)plies, 0, out, twin) != 0) {
            snprintf(err, errsz, "the proof could not be rebuilt");
            rc = -1;
        } else {
            fprintf(out, "end\n");
            if (twin)
                fprintf(twin, "end\n");
        }
    } else if (r->answer == SOLVER_NO_WIN && disproof) {
        rc = solver_write_disproof(s, v, root, position, plies, out, twin,
                                   cert, err, errsz);
        if (rc == 0 && s->out_of_memory) {
            snprintf(err, errsz, "out of memory rebuilding the disproof");
            rc = -1;
        }
    }
    if (rc == 0 && r->answer != SOLVER_UNKNOWN
        && (ferror(out) || (twin && ferror(twin)))) {
        snprintf(err, errsz, "writing the certificate failed");
        rc = -1;
    }
    s->max_nodes = budget;
    s->stop = stop;
    return rc;
}

/* solver_internal.h */
int solver_root_from_text(const struct variant *v, const void *st,
                          void *root, char *position, size_t possz,
                          char *err, size_t errsz)
{
    const struct game *g = v->game;
    if (g->to_text(st, position, possz) < 0
        || g->from_text(root, v, position, err, errsz) != 0) {
        snprintf(err, errsz, "the position does not round-trip through text");
        return -1;
    }
    return 0;
}

/* solver_write_proof (disproof 0) and solver_write_certificate. */
static int write_certificate(const struct variant *v, const void *st,
                             const struct solver_options *o, int disproof,
                             FILE *out, struct solver_result *r,
                             struct solver_certificate *cert, char *err,
                             size_t errsz)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char root[GAME_MAX_STATE_SIZE];
    char position[1024];
    struct solver s;
    if (solver_root_from_text(v, st, root, position, sizeof position, err,
                              errsz)
        || solver_init(&s, v->game, root, o, err, errsz))
        return -1;
    int rc = solver_certify(&s, v, root, position, o->plies, disproof, out,
                            NULL, r, cert, err, errsz);
    solver_free(&s);
    return rc;
}

int solver_write_certificate(const struct variant *v, const void *st,
                             const struct solver_options *o, FILE *out,
                             struct solver_result *r,
                             struct solver_certificate *cert, char *err,
                             size_t errsz)
{
    return write_certificate(v, st, o, 1, out, r, cert, err, errsz);
}
