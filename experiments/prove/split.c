/*
 * split.c -- the split solve and its join (contract in split.h).
 *
 * split_solve: the root is set up from its own text (as every certificate
 * states it), its legal moves numbered in the move generator's order, and
 * this shard's moves that have no whole part in the directory yet are
 * dealt to the threads one at a time, each thread with its own split
 * solver (solver.h), all of them sharing one transposition table, which
 * serves every part solved. A part that wins stops the others (their
 * searches answer unknown and leave nothing). A part already in the directory
 * counts as done only if its header is this question's, byte for byte.
 *
 * The join is split_join.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "split.h"
#include "clock.h"

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "disproof.h"
#include "proof.h"

#define HEAD_MAX (VARIANT_TEXT_MAX + 1200)

/* The root as the certificates state it: st's text and the state set up
 * from it, and its legal moves. */
struct split_root {
    const struct variant *v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char canonical[VARIANT_TEXT_MAX];
    char position[1024];
    move_t moves[GAME_MAX_MOVES];
    int n;
};

static int root_setup(struct split_root *root, const struct variant *v,
                      const void *st, char *err, size_t errsz)
{
    const struct game *g = v->game;
    root->v = v;
    if (solver_root_from_text(v, st, root->st, root->position,
                              sizeof root->position, err, errsz) != 0)
        return -1;
    variant_canonical(v, root->canonical, sizeof root->canonical);
    root->n = g->legal_moves(root->st, root->moves);
    return 0;
}

void split_part_path(const char *dir, int index, int proof, char *buf,
                     size_t n)
{
    snprintf(buf, n, "%s/part-%05d.%s", dir, index,
             proof ? "proof" : "disproof");
}

/* The first bytes a part of move `index` begins with, as the solver
 * writes it: a disproof part's header up to its part line, or a proof's
 * header and its first move line. */
static void part_head(const struct split_root *root, int plies, int index,
                      int proof, char *buf, size_t n)
{
    char text[64];
    root->v->game->move_to_text(root->st, root->moves[index], text,
                                sizeof text);
    if (proof)
        snprintf(buf, n, "rulelab-proof 1\nvariant %s\nposition %s\nplies %d\n"
                 "moves\n1 %s\n", root->canonical, root->position, plies,
                 text);
    else
        snprintf(buf, n, "%s\nvariant %s\nposition %s\nplies %d\npart %s\n",
                 DISPROOF_MAGIC, root->canonical, root->position, plies, text);
}

/* Whether the file at path begins with head: 1, 0 if not, -1 if there
 * is no such file. */
static int begins_with(const char *path, const char *head)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t len = strlen(head), got;
    char *buf = malloc(len);
    got = buf ? fread(buf, 1, len, f) : 0;
    int same = buf && got == len && memcmp(buf, head, len) == 0;
    free(buf);
    fclose(f);
    return same;
}

/* What the directory holds for part `index`: 0 nothing, 1 its disproof
 * part, 2 its proof; -1 with a message if a file there is another
 * question's. */
static int part_found(const char *dir, const struct split_root *root,
                      int plies, int index, char *err, size_t errsz)
{
    char path[1100], head[HEAD_MAX];
    for (int proof = 0; proof <= 1; proof++) {
        split_part_path(dir, index, proof, path, sizeof path);
        part_head(root, plies, index, proof, head, sizeof head);
        int same = begins_with(path, head);
        if (same == 0) {
            snprintf(err, errsz, "%s is not this question's part %d (another "
                     "variant, position, bound or move): use another "
                     "directory", path, index);
            return -1;
        }
        if (same == 1)
            return proof ? 2 : 1;
    }
    return 0;
}

/* What the threads of split_solve share. */
struct split_run {
    const struct split_root *root;
    const struct split_options *so;
    const int *mirror; /* each part's mirror-image part, or -1 */
    struct split_outcome *out;
    atomic_int stop; /* a part won, or something failed */
    int failed;
    char err[2200];
    double t0, last_line;
    int done, todo;
};

/* Opens the temporary file of part index in dir (name into tmp). */
static FILE *open_tmp(const char *dir, int index, char *tmp, size_t n,
                      char *err, size_t errsz)
{
    snprintf(tmp, n, "%s/.part-%05d.tmp", dir, index);
    FILE *f = fopen(tmp, "w");
    if (!f)
        snprintf(err, errsz, "%s: %s", tmp, strerror(errno));
    return f;
}

/* Closes part index's temporary file f (tmp) and, if rc is 0 and the
 * answer is known, renames it to the part's name; otherwise removes it.
 * Returns rc, or -1 with a message if closing or renaming fails. */
static int close_part(FILE *f, const char *tmp, const char *dir, int index,
                      enum solver_answer answer, int rc, char *err,
                      size_t errsz)
{
    char path[1100];
    if (!f)
        return -1;
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, errsz, "%s: writing failed", tmp);
        rc = -1;
    }
    if (rc == 0 && answer != SOLVER_UNKNOWN) {
        split_part_path(dir, index, answer == SOLVER_WIN, path, sizeof path);
        if (rename(tmp, path) != 0) {
            snprintf(err, errsz, "%s: %s", path, strerror(errno));
            rc = -1;
        }
    }
    if (rc != 0 || answer == SOLVER_UNKNOWN)
        remove(tmp);
    return rc;
}

/* Counts part index's answer r (rc 0) or failure, and prints progress. */
static void count_part(struct split_run *run, int index, int rc,
                       const struct solver_result *r, const char *err)
{
    const struct split_options *so = run->so;
    struct split_outcome *out = run->out;
    char text[64];
    int files = run->mirror[index] >= 0 ? 2 : 1;
    run->root->v->game->move_to_text(run->root->st, run->root->moves[index],
                                     text, sizeof text);
#pragma omp critical(split_run)
    {
        if (rc != 0) {
            if (!run->failed)
                snprintf(run->err, sizeof run->err, "part %d (%s): %s",
                         index, text, err);
            run->failed = 1;
            atomic_store(&run->stop, 1);
        } else {
            out->nodes += r->nodes;
            out->wins += files * (r->answer == SOLVER_WIN);
            out->no_wins += files * (r->answer == SOLVER_NO_WIN);
            out->mirrored += (files - 1) * (r->answer != SOLVER_UNKNOWN);
            if (r->answer == SOLVER_UNKNOWN && atomic_load(&run->stop))
                out->stopped += files; /* not the budget: a win stopped it */
            else
                out->unknowns += files * (r->answer == SOLVER_UNKNOWN);
            if (r->answer == SOLVER_WIN && out->win_index < 0) {
                out->win_index = index;
                out->win = *r;
                atomic_store(&run->stop, 1);
            }
        }
        run->done++;
        double t = clock_seconds();
        if (so->progress && rc == 0
            && (t - run->last_line >= 1.0 || run->done == run->todo
                || r->answer == SOLVER_WIN)) {
            fprintf(stderr, "split: %d of %d searches done (%d parts no win, "
                    "%d win, %d unknown) in %.1f s; part %d (%s)%s: %s, %llu "
                    "nodes, %.2f s\n", run->done, run->todo, out->no_wins,
                    out->wins, out->unknowns, t - run->t0, index, text,
                    files == 2 ? " and its mirror image" : "",
                    solver_answer_name(r->answer),
                    (unsigned long long)r->nodes, r->seconds);
            run->last_line = t;
        }
    }
}

/* Solves part `index` on the thread's split solver sp into the directory
 * (and its mirror-image part, where it has one, from the same search):
 * written to temporary names, renamed when whole, removed when the
 * answer is unknown. */
static void solve_part(struct split_run *run, struct solver_split *sp,
                       int index)
{
    const char *dir = run->so->dir;
    const int twin = run->mirror[index];
    char tmp[1100], twin_tmp[1100], err[2048];
    struct solver_result r;
    int rc = -1;
    memset(&r, 0, sizeof r);
    r.answer = SOLVER_UNKNOWN; /* until the search says otherwise */
    FILE *f = open_tmp(dir, index, tmp, sizeof tmp, err, sizeof err);
    FILE *tf = f && twin >= 0 ? open_tmp(dir, twin, twin_tmp,
                                         sizeof twin_tmp, err, sizeof err)
                              : NULL;
    if (f && (twin < 0 || tf))
        rc = solver_split_part(sp, index, f, tf, &r, NULL, err, sizeof err);
    rc = close_part(f, tmp, dir, index, r.answer, rc, err, sizeof err);
    if (twin >= 0)
        rc = close_part(tf, twin_tmp, dir, twin, r.answer, rc, err,
                        sizeof err);
    count_part(run, index, rc, &r, err);
}

/* The searches this shard still owes into todo (the number returned):
 * each part of its own that has nothing in the directory, or whose
 * mirror-image part has nothing (a part with a mirror image is searched
 * by the shard of the lower of the two indices, and writes both); a
 * found proof sets out->win_index. -1 with a message on a foreign file. */
static int parts_to_do(const struct split_root *root, int plies,
                       const struct split_options *so, const int *mirror,
                       struct split_outcome *out, int *todo, char *err,
                       size_t errsz)
{
    int n = 0, from = so->shard, step = so->shards;
    if (so->only) { /* one part: the search that writes it */
        int part = so->only - 1;
        from = mirror[part] >= 0 && mirror[part] < part ? mirror[part] : part;
        step = root->n;
    }
    for (int i = from; i < root->n; i += step) {
        if (mirror[i] >= 0 && mirror[i] < i)
            continue; /* the twin of a lower part: written with it */
        int found = 0, whole = 1;
        for (int k = 0; k < (mirror[i] >= 0 ? 2 : 1); k++) {
            int part = k ? mirror[i] : i;
            int got = part_found(so->dir, root, plies, part, err, errsz);
            if (got < 0)
                return -1;
            out->mine++;
            found += got > 0;
            whole &= got > 0;
            if (got == 2 && out->win_index < 0)
                out->win_index = part;
        }
        out->found += found;
        if (!whole)
            todo[n++] = i;
    }
    return n;
}

static int solve_parts(const struct split_root *root, const struct variant *v,
                       const struct solver_options *o,
                       const struct split_options *so, const int *mirror,
                       const int *todo, int n, struct split_outcome *out,
                       char *err, size_t errsz);

/* Each part's mirror-image part, or -1, into mirror (root->n entries). */
static int mirror_parts(const struct split_root *root,
                        const struct solver_options *o, int *mirror,
                        char *err, size_t errsz)
{
    struct solver_split *sp;
    struct solver_options small = *o;
    small.max_mb = 1; /* only its root is asked about */
    if (solver_split_open(&sp, root->v, root->st, &small, err, errsz) != 0)
        return -1;
    for (int i = 0; i < root->n; i++)
        mirror[i] = solver_split_mirror(sp, i);
    solver_split_close(sp);
    return 0;
}

int split_solve(const struct variant *v, const void *st,
                const struct solver_options *o, const struct split_options *so,
                struct split_outcome *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    out->win_index = -1;
    if (so->shards < 1 || so->shard < 0 || so->shard >= so->shards
        || so->threads < 1 || o->plies < 2 || so->only < 0) {
        snprintf(err, errsz, "a split needs shard K of N (0 <= K < N), a "
                 "thread or more, and a bound of 2 plies or more");
        return -1;
    }
    struct split_root *root = aligned_alloc(GAME_STATE_ALIGN, sizeof *root);
    int *todo = malloc(sizeof *todo * GAME_MAX_MOVES), n = -1;
    int *mirror = malloc(sizeof *mirror * GAME_MAX_MOVES);
    if (!root || !todo || !mirror)
        snprintf(err, errsz, "out of memory");
    else if (root_setup(root, v, st, err, errsz) != 0
             || mirror_parts(root, o, mirror, err, errsz) != 0)
        ;
    else if (mkdir(so->dir, 0777) != 0 && errno != EEXIST)
        snprintf(err, errsz, "%s: %s", so->dir, strerror(errno));
    else if (so->only > root->n)
        snprintf(err, errsz, "part %d: the root has %d moves, parts 0 to %d",
                 so->only - 1, root->n, root->n - 1);
    else
        n = parts_to_do(root, o->plies, so, mirror, out, todo, err, errsz);
    if (root)
        out->parts = root->n;
    if (n > 0 && out->win_index < 0)
        n = solve_parts(root, v, o, so, mirror, todo, n, out, err, errsz);
    for (int i = 0; n >= 0 && i < root->n; i++) {
        int found = part_found(so->dir, root, o->plies, i, err, errsz);
        if (found < 0)
            n = -1;
        out->present += found > 0;
    }
    free(root);
    free(todo);
    free(mirror);
    return n < 0 ? -1 : 0;
}

/* Solves the n parts in todo on the threads (split_solve). Returns 0, or
 * -1 with a message. */
static int solve_parts(const struct split_root *root, const struct variant *v,
                       const struct solver_options *o,
                       const struct split_options *so, const int *mirror,
                       const int *todo, int n, struct split_outcome *out,
                       char *err, size_t errsz)
{
    struct split_run run;
    memset(&run, 0, sizeof run);
    run.root = root;
    run.so = so;
    run.mirror = mirror;
    run.out = out;
    run.t0 = run.last_line = clock_seconds();
    run.todo = n;
    atomic_init(&run.stop, 0);
    struct solver_options po = *o;
    po.stop = &run.stop;
    int threads = so->threads < n ? so->threads : n;
    /* One table for all the threads: a position found below one root
     * move is found again below others (drops in another order), and
     * with a table each the threads searched ~20% more nodes. */
    po.table = threads > 1 ? solver_table_open(o) : NULL;
    if (threads > 1 && !po.table) {
        snprintf(err, errsz, "out of memory for the transposition table");
        return -1;
    }
#pragma omp parallel num_threads(threads)
    {
        struct solver_split *sp = NULL;
        char why[1024];
        if (solver_split_open(&sp, v, root->st, &po, why, sizeof why) != 0) {
#pragma omp critical(split_run)
            if (!run.failed) {
                snprintf(run.err, sizeof run.err, "%s", why);
                run.failed = 1;
            }
            atomic_store(&run.stop, 1);
        }
        /* One part at a time: the threads share one table, so a run of
         * neighbouring parts gains nothing from staying on one thread,
         * and guided runs (the first half the parts) left one thread
         * idle at the end while the other finished its first run. */
#pragma omp for schedule(dynamic, 1)
        for (int k = 0; k < n; k++)
            if (sp && !atomic_load(&run.stop))
                solve_part(&run, sp, todo[k]);
        solver_split_close(sp);
    }
    solver_table_close(po.table);
    out->seconds = clock_seconds() - run.t0;
    if (run.failed) {
        snprintf(err, errsz, "%s", run.err);
        return -1;
    }
    return 0;
}
