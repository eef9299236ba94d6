/*
 * disproof.c -- checking a disproof certificate (format and contract in
 * disproof.h) from scratch. Like proof.c it shares nothing with the
 * search: the game's own move generator and rules decide every step.
 *
 * The data is read once, as it is checked: the records are in preorder,
 * so a depth-first walk of the game tree meets them in file order. What
 * is kept: one frame per ply (the state there, its legal moves and a
 * lookup table from move to index), the move dictionary, and for each
 * node marked shared its number, bound and a 128-bit fingerprint of its
 * state (the first 16 bytes of the SHA-256 of the state's used bytes,
 * game_state_used, in its canonical form, game_canonical_copy),
 * in node order, so a REF is found by binary search and compared.
 *
 * With threads, the leaves -- where nearly all the time goes: every
 * attacker move is played there -- are checked by OpenMP tasks, LEAF_BATCH
 * at a time, each leaf with a copy of its state and its place text, while
 * the walk reads on; at most LEAF_QUEUE batches per thread wait. A leaf
 * that fails is reported before anything the walk found after it, and of
 * two, the first in file order, so the answer and the message do not
 * depend on the threads.
 *
 * The data is read by getc_unlocked: the file is the walk's alone.
 */
#define _POSIX_C_SOURCE 200809L /* getc_unlocked */
#include "disproof.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "disproof_internal.h"
#include "sha256.h"

/* Writes "node K (line: m1 m2 ...; byte B)" for the node at `ply` plies
 * from the root into buf. */
static const char *place(const struct checker *c, long node, int ply,
                         char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "node %ld (%s", node,
                                  ply ? "line:" : "the root");
    for (int i = 0; i < ply && len + 40 < n; i++)
        len += (size_t)snprintf(buf + len, n - len, " %s", c->frames[i].move);
    snprintf(buf + len, n - len, "; byte %llu)",
             (unsigned long long)c->offset);
    return buf;
}

/* ---- reading ------------------------------------------------------------ */

static int read_byte(struct checker *c, long node, int ply)
{
    int ch = getc_unlocked(c->in);
    if (ch == EOF) {
        char where[1024];
        return fail(c, "%s: the data ends inside this node%s",
                    place(c, node, ply, where, sizeof where),
                    ferror(c->in) ? " (read error)" : "");
    }
    c->offset++;
    return ch;
}

/* Reads a minimal LEB128 varint below 2^32 into *v: 0 or -1. */
static int read_varint(struct checker *c, long node, int ply, uint32_t *v)
{
    uint64_t value = 0;
    char where[1024];
    for (int shift = 0;; shift += 7) {
        int b = read_byte(c, node, ply);
        if (b < 0)
            return -1;
        if (shift > 28 || (shift == 28 && (b & 0x7f) > 0x0f))
            return fail(c, "%s: a number of 2^32 or more",
                        place(c, node, ply, where, sizeof where));
        value |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            if (b == 0 && shift > 0)
                return fail(c, "%s: a number not in its shortest form",
                            place(c, node, ply, where, sizeof where));
            *v = (uint32_t)value;
            return 0;
        }
    }
}

/* Reads a move (a definition or an id) into *text. Returns 0 or -1. */
static int read_move(struct checker *c, long node, int ply, const char **text)
{
    uint32_t v;
    char where[1024];
    if (read_varint(c, node, ply, &v))
        return -1;
    if (v > 0) {
        if (v - 1 >= c->ndict)
            return fail(c, "%s: move id %u is not defined (%u are)",
                        place(c, node, ply, where, sizeof where), v - 1,
                        c->ndict);
        *text = c->dict[v - 1];
        return 0;
    }
    int len = read_byte(c, node, ply);
    if (len < 0)
        return -1;
    if (len < 1 || len > DISPROOF_MOVE_MAX)
        return fail(c, "%s: a move text of %d bytes (1 to %d)",
                    place(c, node, ply, where, sizeof where), len,
                    DISPROOF_MOVE_MAX);
    if (c->ndict == DISPROOF_MAX_MOVE_IDS)
        return fail(c, "%s: more than %d distinct moves",
                    place(c, node, ply, where, sizeof where),
                    DISPROOF_MAX_MOVE_IDS);
    if (c->ndict == c->dict_cap) {
        uint32_t cap = c->dict_cap ? 2 * c->dict_cap : 256;
        void *grown = realloc(c->dict, sizeof *c->dict * cap);
        if (!grown)
            return fail(c, "out of memory for the move dictionary");
        c->dict = grown;
        c->dict_cap = cap;
    }
    char *d = c->dict[c->ndict];
    for (int i = 0; i < len; i++) {
        int b = read_byte(c, node, ply);
        if (b < 0)
            return -1;
        if (b <= ' ' || b > '~')
            return fail(c, "%s: byte %d in a move text",
                        place(c, node, ply, where, sizeof where), b);
        d[i] = (char)b;
    }
    d[len] = '\0';
    c->ndict++;
    *text = d;
    return 0;
}

/* ---- the walk ------------------------------------------------------------ */

/* The first 16 bytes of the SHA-256 of st's used bytes in its canonical
 * form (game_canonical_copy). */
static void fingerprint(const struct checker *c, const void *st,
                        unsigned char fp[16])
{
    _Alignas(GAME_STATE_ALIGN) unsigned char form[GAME_MAX_STATE_SIZE];
    unsigned char digest[32];
    game_canonical_copy(c->g, form, st);
    sha256_bytes(form, game_state_used(c->g, form), digest);
    memcpy(fp, digest, 16);
}

static enum game_outcome attacker_win(const struct checker *c)
{
    return c->attacker == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1;
}

static int check_node(struct checker *c, int ply, uint32_t need, int shared);

/* The edge from the node `node` at `ply` (bound `bound`) by the move with
 * text `text`, legal there: the child is made in the next frame and its
 * slot read and checked. Returns 0 or -1. */
static int check_edge(struct checker *c, long node, int ply, uint32_t bound,
                      move_t m, const char *text)
{
    const struct game *g = c->g;
    struct frame *f = &c->frames[ply], *cf = &c->frames[ply + 1];
    char where[1024];
    int or_node = g->to_move(f->state) == c->attacker;
    snprintf(f->move, sizeof f->move, "%s", text);
    game_copy_state(g, cf->state, f->state);
    g->apply(cf->state, m);
    struct game_status s = g->status(cf->state);
    uint32_t slot, need = bound - 1;
    if (s.outcome == attacker_win(c))
        return fail(c, "%s: %s %s wins at once for the attacker (%s)",
                    place(c, node, ply, where, sizeof where),
                    or_node ? "the attacker's move" : "the defender's reply",
                    text, end_reason_name(s.reason));
    if (read_varint(c, node, ply, &slot))
        return -1;
    if (s.outcome != GAME_ONGOING || need == 0) {
        if (slot != 0)
            return fail(c, "%s: after %s %s, yet a node follows (slot %u)",
                        place(c, node, ply, where, sizeof where), text,
                        s.outcome != GAME_ONGOING ? "the game is over"
                                                  : "the bound has run out",
                        slot);
        return 0;
    }
    if (slot == 0)
        return fail(c, "%s: the line stops after %s with %u plies still to "
                    "cover and the game going on",
                    place(c, node, ply, where, sizeof where), text, need);
    if (slot <= 2)
        return check_node(c, ply + 1, need, slot == 2);
    uint64_t d = slot - 2;
    c->info->refs++;
    if (d > (uint64_t)c->next_node)
        return fail(c, "%s: after %s a link %llu nodes back, before the root",
                    place(c, node, ply, where, sizeof where), text,
                    (unsigned long long)d);
    uint64_t k = (uint64_t)c->next_node - d;
    long lo = 0, hi = c->nshared;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (c->shared[mid].index < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == c->nshared || c->shared[lo].index != k)
        return fail(c, "%s: after %s a link to node %llu, which is not marked "
                    "shared", place(c, node, ply, where, sizeof where), text,
                    (unsigned long long)k);
    const struct shared_node *e = &c->shared[lo];
    unsigned char fp[16];
    if (!e->ended)
        return fail(c, "%s: after %s a link to node %llu, whose record has "
                    "not ended (a node on this line)",
                    place(c, node, ply, where, sizeof where), text,
                    (unsigned long long)k);
    fingerprint(c, cf->state, fp);
    if (memcmp(fp, e->fp, sizeof fp) != 0)
        return fail(c, "%s: after %s a link to node %llu, which is another "
                    "position", place(c, node, ply, where, sizeof where), text,
                    (unsigned long long)k);
    if (e->bound < need)
        return fail(c, "%s: after %s a link to node %llu, proven to bound %u "
                    "only, where %u plies are needed",
                    place(c, node, ply, where, sizeof where), text,
                    (unsigned long long)k, e->bound, need);
    return 0;
}

/* Finds m in the frame's legal moves (its table filled): its index, or
 * -1. */
static int legal_index(const struct checker *c, const struct frame *f,
                       move_t m)
{
    size_t h = ((size_t)m * 0x9e3779b1u) & c->table_mask;
    for (;; h = (h + 1) & c->table_mask) {
        int16_t v = f->table[h];
        if (v == 0)
            return -1;
        if (f->moves[v - 1] == m)
            return v - 1;
    }
}

/* Fills the frame's table from its legal moves (on), or empties it. */
static void table_fill(const struct checker *c, struct frame *f, int on)
{
    for (int i = 0; i < f->n; i++) {
        size_t h = ((size_t)f->moves[i] * 0x9e3779b1u) & c->table_mask;
        if (on) {
            while (f->table[h] != 0)
                h = (h + 1) & c->table_mask;
            f->table[h] = (int16_t)(i + 1);
        } else {
            while (f->table[h] != 0) { /* every entry goes: order is free */
                f->table[h] = 0;
                h = (h + 1) & c->table_mask;
            }
        }
    }
}

/* Whether the attacker, to move in the leaf st with its n legal moves,
 * wins at once: writes why (naming `where`) into out and returns 1. child
 * is scratch. */
static int leaf_wins(const struct checker *c, const void *st,
                     const move_t *moves, int n, void *child,
                     const char *where, char *out, size_t outsz)
{
    const struct game *g = c->g;
    char text[64];
    for (int i = 0; i < n; i++) {
        game_copy_state(g, child, st);
        g->apply(child, moves[i]);
        struct game_status s = g->status(child);
        if (s.outcome == attacker_win(c)) {
            g->move_to_text(st, moves[i], text, sizeof text);
            snprintf(out, outsz, "%s: a leaf (bound 1), but the attacker "
                     "wins at once with %s (%s)", where, text,
                     end_reason_name(s.reason));
            return 1;
        }
    }
    return 0;
}

/* A task's work: every leaf of b, the first that fails recorded (the
 * lowest node among the tasks'). */
static void check_batch(struct checker *c, struct leaf_batch *b)
{
    const struct game *g = c->g;
    move_t *moves = malloc(sizeof *moves * (size_t)g->max_moves);
    unsigned char *child = aligned_alloc(GAME_STATE_ALIGN, c->state_stride);
    char why[sizeof c->bad_why];
    for (int k = 0; k < b->n; k++) {
        const unsigned char *st = b->states + (size_t)k * c->state_stride;
        if (!moves || !child) {
            snprintf(why, sizeof why, "%s: out of memory for the leaf's "
                     "check", b->where[k]);
        } else if (!leaf_wins(c, st, moves, g->legal_moves(st, moves), child,
                              b->where[k], why, sizeof why)) {
            continue;
        }
#pragma omp critical(disproof_bad_leaf)
        if (c->bad_leaf < 0 || b->node[k] < c->bad_leaf) {
            snprintf(c->bad_why, sizeof c->bad_why, "%s", why);
#pragma omp atomic write
            c->bad_leaf = b->node[k]; /* the walk reads it unlocked */
        }
        break;
    }
    free(moves);
    free(child);
}

/* Hands the batch being filled to a task, first waiting for the tasks if
 * LEAF_QUEUE batches per thread are out. */
static void dispatch_batch(struct checker *c)
{
    struct leaf_batch *b = c->batch;
    int out;
    c->batch = NULL;
    if (!b)
        return;
#pragma omp atomic read
    out = c->in_flight;
    if (out >= LEAF_QUEUE * c->threads) {
#pragma omp taskwait
    }
#pragma omp atomic
    c->in_flight++;
#pragma omp task firstprivate(b)
    {
        check_batch(c, b);
        free(b->states);
        free(b);
#pragma omp atomic
        c->in_flight--;
    }
}

/* A leaf: the attacker to move with one ply left; no move may win. With
 * threads it joins the batch (made if need be), which goes to a task when
 * full; -1 once a task has found a leaf that fails. */
static int check_leaf(struct checker *c, long node, int ply)
{
    struct frame *f = &c->frames[ply], *cf = &c->frames[ply + 1];
    char where[PLACE_MAX], why[sizeof c->bad_why];
    place(c, node, ply, where, sizeof where);
    if (c->threads <= 1) {
        if (leaf_wins(c, f->state, f->moves, f->n, cf->state, where, why,
                      sizeof why))
            return fail(c, "%s", why);
        c->info->leaves++;
        return 0;
    }
    long bad;
#pragma omp atomic read
    bad = c->bad_leaf;
    if (bad >= 0)
        return -1;
    if (!c->batch) {
        c->batch = calloc(1, sizeof *c->batch);
        if (c->batch)
            c->batch->states = aligned_alloc(
                GAME_STATE_ALIGN, LEAF_BATCH * c->state_stride);
        if (!c->batch || !c->batch->states) {
            if (c->batch)
                free(c->batch);
            c->batch = NULL;
            return fail(c, "%s: out of memory for the leaves' checks", where);
        }
    }
    struct leaf_batch *b = c->batch;
    game_copy_state(c->g, b->states + (size_t)b->n * c->state_stride,
                    f->state);
    b->node[b->n] = node;
    memcpy(b->where[b->n], where, sizeof where);
    if (++b->n == LEAF_BATCH)
        dispatch_batch(c);
    c->info->leaves++;
    return 0;
}

/* Reads and checks the node record for the state in frame `ply`, which
 * needs bound `need` (>= 1); `shared` if its slot marked it so. */
static int check_node(struct checker *c, int ply, uint32_t need, int shared)
{
    const struct game *g = c->g;
    struct frame *f = &c->frames[ply];
    char where[1024];
    long node = c->next_node++;
    uint32_t bound, count;
    struct shared_node *e = NULL;
    c->info->nodes++;
    if (node >= c->nodes_declared)
        return fail(c, "%s: more node records than the header's %ld",
                    place(c, node, ply, where, sizeof where),
                    c->nodes_declared);
    if (read_varint(c, node, ply, &bound))
        return -1;
    if (bound < need || bound > (uint32_t)SOLVER_MAX_PLIES - (uint32_t)ply)
        return fail(c, "%s: proven to bound %u, where %u plies are needed%s",
                    place(c, node, ply, where, sizeof where), bound, need,
                    bound >= need ? " (and more than the format allows)" : "");
    if (shared) {
        if (c->nshared == c->shared_cap)
            return fail(c, "%s: more shared nodes than the header's %ld",
                        place(c, node, ply, where, sizeof where),
                        c->shared_cap);
        e = &c->shared[c->nshared++];
        e->index = (uint64_t)node;
        e->bound = (uint8_t)bound;
        e->ended = 0;
        fingerprint(c, f->state, e->fp);
        c->info->shared++;
    }
    f->n = g->legal_moves(f->state, f->moves);
    int or_node = g->to_move(f->state) == c->attacker;
    if (or_node && bound == 1) {
        if (check_leaf(c, node, ply))
            return -1;
    } else if (or_node) {
        if (read_varint(c, node, ply, &count))
            return -1;
        if (count > (uint32_t)f->n)
            return fail(c, "%s: %u attacker moves listed, but it has %d legal "
                        "moves", place(c, node, ply, where, sizeof where),
                        count, f->n);
        if (ply == 0 && c->part && count != 1)
            return fail(c, "%s: a part's root lists %u moves, not its own "
                        "move alone", place(c, node, ply, where, sizeof where),
                        count);
        memset(f->seen, 0, (size_t)f->n);
        table_fill(c, f, 1);
        int rc = 0;
        for (uint32_t i = 0; i < count && rc == 0; i++) {
            const char *text;
            move_t m;
            if (read_move(c, node, ply, &text)) {
                rc = -1;
                break;
            }
            int k = g->move_from_text(f->state, text, &m) == 0
                         ? legal_index(c, f, m) : -1;
            if (k < 0)
                rc = fail(c, "%s: %s is not a legal attacker move here",
                          place(c, node, ply, where, sizeof where), text);
            else if (ply == 0 && c->part && m != c->part_move)
                rc = fail(c, "%s: the part's root lists %s, not its own move "
                          "%s", place(c, node, ply, where, sizeof where), text,
                          c->info->part);
            else if (f->seen[k])
                rc = fail(c, "%s: the attacker's move %s is listed twice",
                          place(c, node, ply, where, sizeof where), text);
            else {
                f->seen[k] = 1;
                c->info->attacker_moves++;
                rc = check_edge(c, node, ply, bound, m, text);
            }
        }
        table_fill(c, f, 0);
        if (rc)
            return -1;
        for (int k = 0; k < f->n && !(ply == 0 && c->part); k++)
            if (!f->seen[k]) {
                char text[64];
                g->move_to_text(f->state, f->moves[k], text, sizeof text);
                return fail(c, "%s: the attacker's move %s is not refuted "
                            "(%u of its %d legal moves are listed)",
                            place(c, node, ply, where, sizeof where), text,
                            count, f->n);
            }
    } else {
        const char *text;
        move_t m;
        if (read_move(c, node, ply, &text))
            return -1;
        int k = -1;
        if (g->move_from_text(f->state, text, &m) == 0)
            for (int i = 0; i < f->n && k < 0; i++)
                if (f->moves[i] == m)
                    k = i;
        if (k < 0)
            return fail(c, "%s: the defender's reply %s is not legal here",
                        place(c, node, ply, where, sizeof where), text);
        if (check_edge(c, node, ply, bound, m, text))
            return -1;
    }
    if (e)
        e->ended = 1;
    return 0;
}

/* Allocates the frames for game g: 0 or -1. */
static int frames_alloc(struct checker *c)
{
    const struct game *g = c->g;
    size_t size = 1;
    while (size < 2 * (size_t)g->max_moves)
        size *= 2;
    c->table_mask = size - 1;
    for (int i = 0; i < SOLVER_MAX_PLIES + 2; i++) {
        struct frame *f = &c->frames[i];
        f->state = aligned_alloc(GAME_STATE_ALIGN,
                                 (g->state_size + GAME_STATE_ALIGN - 1)
                                     / GAME_STATE_ALIGN * GAME_STATE_ALIGN);
        f->moves = malloc(sizeof *f->moves * (size_t)g->max_moves);
        f->seen = malloc((size_t)g->max_moves);
        f->table = calloc(size, sizeof *f->table);
        if (!f->state || !f->moves || !f->seen || !f->table)
            return fail(c, "out of memory for the walk");
    }
    return 0;
}

static void checker_free(struct checker *c)
{
    for (int i = 0; i < SOLVER_MAX_PLIES + 2; i++) {
        free(c->frames[i].state);
        free(c->frames[i].moves);
        free(c->frames[i].seen);
        free(c->frames[i].table);
    }
    free(c->dict);
    free(c->shared);
}

/* The walk from the root, its leaves checked in tasks of c->threads
 * threads when there are more than one. */
static int check_root(struct checker *c, uint32_t plies)
{
    int rc;
    if (c->threads <= 1)
        return check_node(c, 0, plies, 0);
#pragma omp parallel num_threads(c->threads)
#pragma omp single
    {
        rc = check_node(c, 0, plies, 0);
        dispatch_batch(c); /* the last, part full */
#pragma omp taskwait
    }
    if (c->bad_leaf >= 0) { /* before anything the walk found after it */
        c->failed = 0;
        rc = fail(c, "%s", c->bad_why);
    }
    return rc;
}

int disproof_verify(FILE *in, struct disproof_info *info, char *err,
                    size_t errsz)
{
    return disproof_verify_threads(in, 1, info, err, errsz);
}

int disproof_verify_threads(FILE *in, int threads,
                            struct disproof_info *info, char *err,
                            size_t errsz)
{
    struct checker c;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char root[GAME_MAX_STATE_SIZE];
    memset(&c, 0, sizeof c);
    memset(info, 0, sizeof *info);
    c.threads = threads < 1 ? 1 : threads;
    c.bad_leaf = -1;
    c.in = in;
    c.info = info;
    c.err = err;
    c.errsz = errsz;
    int rc = disproof_check_header(&c, &v, root);
    if (rc == 0) {
        c.g = v.game;
        c.attacker = v.game->to_move(root);
        c.state_stride = (c.g->state_size + GAME_STATE_ALIGN - 1)
                         / GAME_STATE_ALIGN * GAME_STATE_ALIGN;
        if (c.state_stride % 4096 == 0)
            c.state_stride += GAME_STATE_ALIGN; /* no 4K-aliased copies */
        rc = frames_alloc(&c);
    }
    if (rc == 0) {
        game_copy_state(c.g, c.frames[0].state, root);
        rc = check_root(&c, (uint32_t)info->plies);
    }
    if (rc == 0) {
        char tail[4];
        size_t got = fread(tail, 1, sizeof tail, in);
        c.offset += got;
        if (got != 4 || memcmp(tail, "end\n", 4) != 0)
            rc = fail(&c, "byte %llu: the root's record is over, but 'end' "
                      "does not follow", (unsigned long long)(c.offset - got));
        else if (getc(in) != EOF)
            rc = fail(&c, "byte %llu: data after 'end'",
                      (unsigned long long)c.offset);
        else if (c.next_node != c.nodes_declared)
            rc = fail(&c, "the header says %ld nodes, the data has %ld",
                      c.nodes_declared, c.next_node);
        else if (c.nshared != c.shared_cap)
            rc = fail(&c, "the header says %ld shared nodes, the data has %ld",
                      c.shared_cap, c.nshared);
    }
    info->bytes = c.offset;
    checker_free(&c);
    return c.failed ? -1 : rc;
}
