/*
 * disproof_reader.c -- see disproof_reader.h. The reader builds the whole
 * certificate as a tree of nodes, each with the reference's position text
 * (made by the reference from its parent's); ref_check then judges it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "disproof_reader.h"
#include "rng.h"

/* ---- the references, one interface ------------------------------------- */

/* The reference for the variant v, with its parameters read from v. */
struct ref ref_for(const struct variant *v, const char *root_text)
{
    struct ref r;
    memset(&r, 0, sizeof r);
    const char *name = v->game->name;
    if (strcmp(name, "tafl") == 0) {
        r.game = 0;
        tafl_ref_defaults(&r.tp);
        r.tp.throne_passable = variant_get(v, "throne_passable");
        r.tp.throne_hostile = variant_get(v, "throne_hostile");
        r.tp.king_armed = variant_get(v, "king_armed");
        r.tp.edge_captures_king = variant_get(v, "edge_captures_king");
        r.tp.king_custodial = variant_get(v, "king_capture");
        r.tp.escape_edge = variant_get(v, "escape");
    } else if (strcmp(name, "serbest") == 0) {
        r.game = 1;
        r.sp.kings_landing = variant_get(v, "kings_landing");
        r.sp.adjacent_drop_check = variant_get(v, "adjacent_drop_check");
        r.sp.stalemate = variant_get(v, "stalemate");
    } else {
        r.game = 2;
        r.jp.thoat_jumps = variant_get(v, "thoat_jumps");
        r.jp.princess_safe = variant_get(v, "princess_safe");
        r.jp.princess_escape = variant_get(v, "princess_escape");
    }
    r.attacker = strchr(root_text, ' ')[1];
    return r;
}

char side_of(const char *fen)
{
    return strchr(fen, ' ')[1];
}

/* The reference's legal moves at fen, sorted; the count or -1. */
int ref_moves(const struct ref *r, const char *fen, char out[][8])
{
    if (r->game == 0)
        return tafl_ref_moves(fen, &r->tp, out, TAFL_REF_MAX_MOVES);
    if (r->game == 1)
        return serbest_ref_moves(fen, &r->sp, out, SERBEST_REF_MAX_MOVES);
    return jetan_ref_moves(fen, &r->jp, out, JETAN_REF_MAX_MOVES);
}

/* Plays the legal move at fen into out: 0 the game goes on, 1 the
 * attacker has won, 2 it is over without an attacker win; -1 on error. */
int ref_play(const struct ref *r, const char *fen, const char *move,
             char *out, size_t n)
{
    char mover = side_of(fen), winner = 0;
    int over = 0;
    if (r->game == 0) {
        int result;
        if (tafl_ref_apply(fen, &r->tp, move, out, n, &result) != 0)
            return -1;
        over = result != 0;
        winner = result == 1 ? 'd' : result == 2 ? 'a' : mover;
    } else if (r->game == 1) {
        serbest_ref_result res;
        if (serbest_ref_make_move(fen, move, out, n) != 0
            || serbest_ref_result_of(out, &r->sp, &res) != 0)
            return -1;
        over = res.over;
        winner = res.winner;
    } else {
        jetan_ref_result res;
        if (jetan_ref_play_listed(fen, &r->jp, move, out, n, &res) != 0)
            return -1;
        over = res.over;
        winner = res.winner;
    }
    return !over ? 0 : winner == r->attacker ? 1 : 2;
}

/* The position after move at fen, for reading: in Serbest the move is
 * made without the reference's judging (which plays every reply to look
 * for a mate), as ref_check judges the nodes it checks; a large
 * certificate has 10^6 nodes. 0, or -1 if the move cannot be made. */
int ref_make(const struct ref *r, const char *fen, const char *move,
             char *out, size_t n)
{
    if (r->game == 1)
        return serbest_ref_make_move(fen, move, out, n);
    return ref_play(r, fen, move, out, n) < 0 ? -1 : 0;
}

/* ---- the certificate, read by this file's own reader --------------------- */

static int cert_fail(struct tcert *t, const char *fmt, ...)
{
    if (!t->err[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->err, sizeof t->err, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int get_varint(struct tcert *t, uint32_t *v)
{
    uint64_t x = 0;
    for (int shift = 0; shift < 35; shift += 7) {
        if (t->pos >= t->len)
            return cert_fail(t, "the data ends at byte %zu", t->pos);
        unsigned b = t->data[t->pos++];
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = (uint32_t)x;
            return 0;
        }
    }
    return cert_fail(t, "a long number at byte %zu", t->pos);
}

static int get_move(struct tcert *t, char *out)
{
    uint32_t v;
    if (get_varint(t, &v))
        return -1;
    if (v > 0) {
        if ((long)v - 1 >= t->ndict)
            return cert_fail(t, "move id %u undefined", v - 1);
        strcpy(out, t->dict[v - 1]);
        return 0;
    }
    if (t->pos >= t->len)
        return cert_fail(t, "the data ends in a move");
    size_t n = t->data[t->pos++];
    if (n < 1 || n > DISPROOF_MOVE_MAX || t->pos + n > t->len)
        return cert_fail(t, "a bad move text at byte %zu", t->pos);
    memcpy(t->dict[t->ndict], t->data + t->pos, n);
    t->dict[t->ndict][n] = '\0';
    t->pos += n;
    strcpy(out, t->dict[t->ndict++]);
    return 0;
}

/* Reads the node at fen (reference text) and everything inside it. */
static int get_node(struct tcert *t, const char *fen, int ply, long parent)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->nodes = realloc(t->nodes, sizeof *t->nodes * (size_t)t->cap);
        assert_non_null(t->nodes);
    }
    long k = t->n++;
    struct tnode *nd = &t->nodes[k];
    uint32_t bound, count = 1;
    memset(nd, 0, sizeof *nd);
    snprintf(nd->fen, sizeof nd->fen, "%s", fen);
    nd->ply = ply;
    nd->parent = parent;
    if (get_varint(t, &bound))
        return -1;
    nd->bound = (int)bound;
    nd->or_node = side_of(fen) == t->ref.attacker;
    if (nd->or_node && bound == 1)
        count = 0;
    else if (nd->or_node && get_varint(t, &count))
        return -1;
    struct tedge *e = calloc(count ? count : 1, sizeof *e);
    assert_non_null(e);
    t->nodes[k].e = e;
    t->nodes[k].n = (int)count;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t slot;
        char child[160];
        if (get_move(t, e[i].move) || get_varint(t, &slot))
            return -1;
        e[i].slot = slot >= 3 ? SLOT_REF : (int)slot;
        if (slot >= 3) {
            e[i].child = t->n - (long)(slot - 2);
            continue;
        }
        if (slot == 0)
            continue;
        e[i].child = t->n;
        if (ref_make(&t->ref, t->nodes[k].fen, e[i].move, child,
                     sizeof child) != 0)
            return cert_fail(t, "node %ld: the reference cannot play %s "
                             "before a node", k, e[i].move);
        if (get_node(t, child, ply + 1, k))
            return -1;
        e = t->nodes[k].e; /* nodes may have moved; edges have not */
    }
    return 0;
}

void cert_free(struct tcert *t)
{
    for (long i = 0; i < t->n; i++)
        free(t->nodes[i].e);
    free(t->nodes);
    free(t);
}

/* Reads a whole certificate file (header, data) into a new tcert. */
struct tcert *cert_read(const unsigned char *buf, size_t len)
{
    struct tcert *t = calloc(1, sizeof *t);
    struct variant v;
    char err[256], *lines[8];
    size_t pos = 0;
    assert_non_null(t);
    char *copy = malloc(len + 1);
    assert_non_null(copy);
    memcpy(copy, buf, len);
    copy[len] = '\0';
    int part = 0; /* a split's part: "part <move>" after the plies */
    for (int i = 0; i < 7 + part; i++) {
        char *nl = memchr(copy + pos, '\n', len - pos);
        assert_non_null(nl);
        *nl = '\0';
        lines[i] = copy + pos;
        pos = (size_t)(nl - copy) + 1;
        if (i == 4 && strncmp(lines[4], "part ", 5) == 0)
            part = 1;
    }
    if (part)
        snprintf(t->part, sizeof t->part, "%s", lines[4] + 5);
    assert_true(disproof_format_of(lines[0]) != 0);
    assert_int_equal(strncmp(lines[1], "variant ", 8), 0);
    snprintf(t->variant, sizeof t->variant, "%s", lines[1] + 8);
    snprintf(t->position, sizeof t->position, "%s", lines[2] + 9);
    t->plies = atoi(lines[3] + 6);
    assert_string_equal(lines[6 + part], "data");
    free(copy);
    if (variant_parse(t->variant, &v, err, sizeof err) != 0)
        fail_msg("%s", err);
    t->ref = ref_for(&v, t->position);
    t->data = buf + pos;
    t->len = len - pos;
    if (get_node(t, t->position, 0, -1) != 0)
        fail_msg("the test's reader: %s", t->err);
    if (t->len - t->pos != 4 || memcmp(t->data + t->pos, "end\n", 4) != 0)
        fail_msg("the test's reader: no 'end' after the root");
    return t;
}

/* disproof_verify on a buffer: 0 or -1 with err; under 1 MB, checked
 * again on 3 threads (disproof_verify_threads), which must give the same
 * answer, counts and message. */
int verify_buf(const char *buf, size_t len, struct disproof_info *info,
               char *err, size_t errsz)
{
    FILE *f = fmemopen((void *)buf, len, "r");
    assert_non_null(f);
    int rc = disproof_verify(f, info, err, errsz);
    fclose(f);
    if (len < ((size_t)1 << 20)) {
        struct disproof_info again;
        char why[2048] = "";
        f = fmemopen((void *)buf, len, "r");
        assert_non_null(f);
        int rc3 = disproof_verify_threads(f, 3, &again, why, sizeof why);
        fclose(f);
        assert_int_equal(rc3, rc);
        if (rc != 0)
            assert_string_equal(why, err);
        else
            assert_memory_equal(&again, info, sizeof again);
    }
    return rc;
}

/* ---- the walk with the references ----------------------------------------- */

static int cmp_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* A seeded draw of `want` items out of `left`, by selection sampling. */
struct draw {
    long want, left;
};

static struct draw draw_of(long items, long want)
{
    struct draw d = {items < want ? items : want, items};
    return d;
}

/* Whether the next item is drawn (with probability want / left). */
static int draw_next(struct rng *r, struct draw *d)
{
    int in = (long)rng_below(r, (uint32_t)d->left) < d->want;
    d->left--;
    d->want -= in;
    return in;
}

/* Checks t with the reference alone (test_disproof.c's opening says how):
 * the attacker nodes' move lists against the reference's, and the
 * leaves' (attacker nodes with one ply left) moves' results, each all or
 * a seeded sample of 1,000 when there are more; and every node's edges,
 * or in a certificate of over 100,000 nodes those of the attacker nodes
 * and leaves drawn and of 1,000 defender nodes drawn the same way.
 * Returns the number of attacker nodes (leaves included) checked. */
long ref_check(const struct tcert *t, uint64_t seed, const char *what)
{
    static char moves[SERBEST_REF_MAX_MOVES][8], listed[SERBEST_REF_MAX_MOVES][8];
    char child[160];
    long lists = 0, leaves = 0, checked = 0;
    for (long k = 0; k < t->n; k++) {
        lists += t->nodes[k].or_node && t->nodes[k].bound > 1;
        leaves += t->nodes[k].or_node && t->nodes[k].bound == 1;
    }
    struct rng r;
    rng_seed(&r, seed);
    struct draw d_lists = draw_of(lists, 1000), d_leaves = draw_of(leaves, 1000);
    struct draw d_defenders = draw_of(t->n - lists - leaves, 1000);
    const int all_edges = t->n <= 100000;
    for (long k = 0; k < t->n; k++) {
        const struct tnode *nd = &t->nodes[k];
        int need = nd->bound - 1;
        int sampled = !nd->or_node ? all_edges || draw_next(&r, &d_defenders)
                      : nd->bound > 1 ? draw_next(&r, &d_lists)
                                      : draw_next(&r, &d_leaves);
        if (!sampled && !all_edges)
            continue;
        int nm = ref_moves(&t->ref, nd->fen, moves);
        if (nm < 0)
            fail_msg("%s: node %ld: the reference cannot read %s", what, k,
                     nd->fen);
        if (nd->or_node) {
            if (sampled) {
                checked++;
                if (nd->bound == 1) {
                    for (int i = 0; i < nm; i++)
                        if (ref_play(&t->ref, nd->fen, moves[i], child,
                                     sizeof child) == 1)
                            fail_msg("%s: leaf node %ld (%s): the reference "
                                     "wins at once with %s", what, k, nd->fen,
                                     moves[i]);
                } else if (k == 0 && t->part[0]) {
                    if (nd->n != 1 || strcmp(nd->e[0].move, t->part) != 0)
                        fail_msg("%s: a part of %s whose root lists %d moves "
                                 "(the first %s)", what, t->part, nd->n,
                                 nd->n ? nd->e[0].move : "none");
                } else {
                    if (nd->n != nm)
                        fail_msg("%s: node %ld (%s): %d moves listed, the "
                                 "reference has %d", what, k, nd->fen, nd->n,
                                 nm);
                    for (int i = 0; i < nd->n; i++)
                        strcpy(listed[i], nd->e[i].move);
                    qsort(listed, (size_t)nd->n, sizeof listed[0], cmp_text);
                    for (int i = 0; i < nm; i++)
                        if (strcmp(listed[i], moves[i]) != 0)
                            fail_msg("%s: node %ld (%s): listed %s where the "
                                     "reference has %s", what, k, nd->fen,
                                     listed[i], moves[i]);
                }
            }
        }
        for (int i = 0; i < nd->n; i++) {
            const struct tedge *e = &nd->e[i];
            int legal = 0;
            for (int j = 0; j < nm && !legal; j++)
                legal = strcmp(moves[j], e->move) == 0;
            if (!legal)
                fail_msg("%s: node %ld: %s is not legal for the reference",
                         what, k, e->move);
            int res = ref_play(&t->ref, nd->fen, e->move, child, sizeof child);
            if (res == 1 || res < 0)
                fail_msg("%s: node %ld: after %s the reference says the "
                         "attacker has won", what, k, e->move);
            if ((e->slot == SLOT_END) != (res == 2 || need == 0))
                fail_msg("%s: node %ld: after %s the slot is %s, the "
                         "reference says %s with %d plies left", what, k,
                         e->move, e->slot == SLOT_END ? "END" : "a node",
                         res == 2 ? "over" : "going on", need);
            if (e->slot == SLOT_END)
                continue;
            const struct tnode *c = &t->nodes[e->child];
            if (strcmp(c->fen, child) != 0 || c->bound < need)
                fail_msg("%s: node %ld: after %s the child node %ld is %s at "
                         "bound %d, the reference reaches %s needing %d", what,
                         k, e->move, e->child, c->fen, c->bound, child, need);
        }
    }
    return checked;
}
