/*
 * test_disproof.c -- disproof certificates (agents/disproof.h): written by
 * the solver for "no win within N plies", checked by disproof_verify, and
 * checked again here by a reader of the format of its own that walks the
 * certificate with the naive reference move generators of tests/ref
 * (serbest_ref, jetan_ref, tafl_ref) instead of the engine.
 *
 *  - On random small positions of every game (tests/random_positions.h),
 *    at bounds 1 to 5, the solver's answer is checked against the
 *    exhaustive minimax (tests/ref/minimax.c): where minimax says no win
 *    the solver writes a disproof that verifies; where it says win, the
 *    disproof of a smaller bound with its bound raised to this one is
 *    rejected (the checker accepts a disproof exactly when minimax says
 *    no win, on these positions).
 *  - Each disproof is walked with the references: every attacker node's
 *    move list is exactly the reference's legal moves, every leaf has no
 *    reference move that wins at once, every defender reply is legal for
 *    the reference and every END stands where the reference says the game
 *    is over or the bound has run out; every link's target is in the same
 *    position text as the child. A certificate with more than 1,000
 *    attacker nodes is checked on a seeded sample of 1,000 of them (Jetan
 *    from the start within 5 plies has 6,000 or so).
 *  - The committed Kings Landing disproof (argv[1]: rank 8, 3 plies from
 *    the empty board) verifies and passes the same walk with serbest_ref.
 *  - Tampered disproofs are rejected with the node named: an attacker move
 *    left out, a defender reply that loses, a bound too short, a line
 *    stopped early, a link to another position; and so are truncated or
 *    extended files.
 *  - SHA-256 (core/sha256.h, the links' fingerprints) on the FIPS 180-4
 *    examples.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "disproof.h"
#include "game.h"
#include "jetan_ref.h"
#include "minimax.h"
#include "random_positions.h"
#include "rng.h"
#include "serbest_ref.h"
#include "sha256.h"
#include "solver.h"
#include "tafl_ref.h"

static const char *committed_path; /* argv[1] */

/* ---- the references, one interface ------------------------------------- */

struct ref {
    int game; /* 0 tafl, 1 serbest, 2 jetan */
    tafl_ref_params tp;
    serbest_ref_params sp;
    jetan_ref_params jp;
    char attacker; /* the side letter to move at the root */
};

/* The reference for the variant v, with its parameters read from v. */
static struct ref ref_for(const struct variant *v, const char *root_text)
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

static char side_of(const char *fen)
{
    return strchr(fen, ' ')[1];
}

/* The reference's legal moves at fen, sorted; the count or -1. */
static int ref_moves(const struct ref *r, const char *fen, char out[][8])
{
    if (r->game == 0)
        return tafl_ref_moves(fen, &r->tp, out, TAFL_REF_MAX_MOVES);
    if (r->game == 1)
        return serbest_ref_moves(fen, &r->sp, out, SERBEST_REF_MAX_MOVES);
    return jetan_ref_moves(fen, &r->jp, out, JETAN_REF_MAX_MOVES);
}

/* Plays the legal move at fen into out: 0 the game goes on, 1 the
 * attacker has won, 2 it is over without an attacker win; -1 on error. */
static int ref_play(const struct ref *r, const char *fen, const char *move,
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

/* ---- the certificate, read by this file's own reader --------------------- */

enum { SLOT_END, SLOT_NEW, SLOT_SHARED, SLOT_REF };

struct tedge {
    char move[DISPROOF_MOVE_MAX + 1];
    int slot;
    long child; /* the node number for NEW, SHARED and REF */
};

struct tnode {
    int bound, or_node, ply;
    int n; /* edges */
    struct tedge *e;
    char fen[160]; /* the reference's position text */
    long parent; /* -1 for the root */
};

struct tcert {
    char variant[VARIANT_TEXT_MAX], position[1024];
    int plies;
    struct tnode *nodes;
    long n, cap;
    struct ref ref;
    /* reading */
    const unsigned char *data;
    size_t len, pos;
    char dict[DISPROOF_MAX_MOVE_IDS][DISPROOF_MOVE_MAX + 1];
    long ndict;
    char err[512];
};

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
        if (ref_play(&t->ref, t->nodes[k].fen, e[i].move, child,
                     sizeof child) != 0)
            return cert_fail(t, "node %ld: the reference cannot play %s "
                             "before a node", k, e[i].move);
        if (get_node(t, child, ply + 1, k))
            return -1;
        e = t->nodes[k].e; /* nodes may have moved; edges have not */
    }
    return 0;
}

static void cert_free(struct tcert *t)
{
    for (long i = 0; i < t->n; i++)
        free(t->nodes[i].e);
    free(t->nodes);
    free(t);
}

/* Reads a whole certificate file (header, data) into a new tcert. */
static struct tcert *cert_read(const unsigned char *buf, size_t len)
{
    struct tcert *t = calloc(1, sizeof *t);
    struct variant v;
    char err[256], *lines[7];
    size_t pos = 0;
    assert_non_null(t);
    char *copy = malloc(len + 1);
    assert_non_null(copy);
    memcpy(copy, buf, len);
    copy[len] = '\0';
    for (int i = 0; i < 7; i++) {
        char *nl = memchr(copy + pos, '\n', len - pos);
        assert_non_null(nl);
        *nl = '\0';
        lines[i] = copy + pos;
        pos = (size_t)(nl - copy) + 1;
    }
    assert_string_equal(lines[0], DISPROOF_MAGIC);
    assert_int_equal(strncmp(lines[1], "variant ", 8), 0);
    snprintf(t->variant, sizeof t->variant, "%s", lines[1] + 8);
    snprintf(t->position, sizeof t->position, "%s", lines[2] + 9);
    t->plies = atoi(lines[3] + 6);
    assert_string_equal(lines[6], "data");
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

/* ---- writing a (tampered) certificate back ------------------------------- */

struct writer {
    const struct tcert *t;
    FILE *f;
    long *num; /* each node's number in the new file, -1 before */
    long next, shared;
    char (*dict)[DISPROOF_MOVE_MAX + 1];
    long ndict;
    int failed;
};

static void put_varint(FILE *f, uint64_t v)
{
    while (v >= 0x80) {
        putc((int)(v & 0x7f) | 0x80, f);
        v >>= 7;
    }
    putc((int)v, f);
}

static void put_move(struct writer *w, const char *move)
{
    for (long i = 0; i < w->ndict; i++)
        if (strcmp(w->dict[i], move) == 0) {
            put_varint(w->f, (uint64_t)i + 1);
            return;
        }
    strcpy(w->dict[w->ndict++], move);
    put_varint(w->f, 0);
    putc((int)strlen(move), w->f);
    fputs(move, w->f);
}

static void put_node(struct writer *w, long k)
{
    const struct tnode *nd = &w->t->nodes[k];
    w->num[k] = w->next++;
    put_varint(w->f, (uint64_t)nd->bound);
    int listed = nd->or_node && nd->bound >= 2;
    if (listed)
        put_varint(w->f, (uint64_t)nd->n);
    if (nd->or_node && !listed)
        return;
    for (int i = 0; i < nd->n; i++) {
        const struct tedge *e = &nd->e[i];
        put_move(w, e->move);
        if (e->slot == SLOT_END) {
            put_varint(w->f, 0);
        } else if (e->slot == SLOT_REF) {
            if (w->num[e->child] < 0)
                w->failed = 1;
            put_varint(w->f, 2 + (uint64_t)(w->next - w->num[e->child]));
        } else {
            put_varint(w->f, (uint64_t)e->slot);
            w->shared += e->slot == SLOT_SHARED;
            put_node(w, e->child);
        }
    }
}

/* Writes t as a certificate file into *buf (malloc'd): 0, or -1 if a link
 * names a node no longer written before it. */
static int cert_write(const struct tcert *t, char **buf, size_t *len)
{
    struct writer w;
    char *data = NULL;
    size_t dlen = 0;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.num = malloc(sizeof *w.num * (size_t)t->n);
    w.dict = malloc(sizeof *w.dict * DISPROOF_MAX_MOVE_IDS);
    assert_true(w.num && w.dict);
    for (long i = 0; i < t->n; i++)
        w.num[i] = -1;
    w.f = open_memstream(&data, &dlen);
    assert_non_null(w.f);
    put_node(&w, 0);
    fclose(w.f);
    FILE *f = open_memstream(buf, len);
    assert_non_null(f);
    fprintf(f, "%s\nvariant %s\nposition %s\nplies %d\nnodes %ld\nshared "
            "%ld\ndata\n", DISPROOF_MAGIC, t->variant, t->position, t->plies,
            w.next, w.shared);
    fwrite(data, 1, dlen, f);
    fputs("end\n", f);
    fclose(f);
    free(data);
    free(w.num);
    free(w.dict);
    return w.failed ? -1 : 0;
}

/* disproof_verify on a buffer: 0 or -1 with err. */
static int verify_buf(const char *buf, size_t len, struct disproof_info *info,
                      char *err, size_t errsz)
{
    FILE *f = fmemopen((void *)buf, len, "r");
    assert_non_null(f);
    int rc = disproof_verify(f, info, err, errsz);
    fclose(f);
    return rc;
}

/* "node K (line: m1 m2 ..." as the checker names node k of t. */
static void place_of(const struct tcert *t, long k, char *out, size_t n)
{
    const char *moves[SOLVER_MAX_PLIES + 1];
    int depth = 0;
    for (long c = k; t->nodes[c].parent >= 0; c = t->nodes[c].parent) {
        const struct tnode *p = &t->nodes[t->nodes[c].parent];
        for (int i = 0; i < p->n; i++)
            if ((p->e[i].slot == SLOT_NEW || p->e[i].slot == SLOT_SHARED)
                && p->e[i].child == c)
                moves[depth++] = p->e[i].move;
    }
    size_t len = (size_t)snprintf(out, n, "node %ld (%s", k,
                                  depth ? "line:" : "the root");
    while (depth > 0)
        len += (size_t)snprintf(out + len, n - len, " %s", moves[--depth]);
    snprintf(out + len, n - len, ";");
}

/* Writes t, expects the checker to reject it naming node k (with its
 * line) and saying `why`. */
static void expect_rejected(const struct tcert *t, long k, const char *why,
                            const char *what)
{
    char *buf, err[1024], where[1024];
    size_t len;
    struct disproof_info info;
    assert_int_equal(cert_write(t, &buf, &len), 0);
    int rc = verify_buf(buf, len, &info, err, sizeof err);
    free(buf);
    place_of(t, k, where, sizeof where);
    if (rc == 0)
        fail_msg("%s: the tampered disproof verifies", what);
    if (!strstr(err, where) || !strstr(err, why))
        fail_msg("%s: expected '%s ... %s', got: %s", what, where, why, err);
}

/* ---- the walk with the references ----------------------------------------- */

static int cmp_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Checks t with the reference alone (see the top of the file): every
 * node's edges, and the attacker nodes (all, or a seeded sample of 1,000
 * when there are more) against the reference's move lists. Returns the
 * number of attacker nodes whose lists or leaves were checked. */
static long ref_check(const struct tcert *t, uint64_t seed, const char *what)
{
    static char moves[SERBEST_REF_MAX_MOVES][8], listed[SERBEST_REF_MAX_MOVES][8];
    char child[160];
    long attackers = 0, checked = 0;
    for (long k = 0; k < t->n; k++)
        attackers += t->nodes[k].or_node;
    struct rng r;
    rng_seed(&r, seed);
    long want = attackers < 1000 ? attackers : 1000, left = attackers;
    for (long k = 0; k < t->n; k++) {
        const struct tnode *nd = &t->nodes[k];
        int need = nd->bound - 1;
        int nm = ref_moves(&t->ref, nd->fen, moves);
        if (nm < 0)
            fail_msg("%s: node %ld: the reference cannot read %s", what, k,
                     nd->fen);
        if (nd->or_node) {
            /* selection sampling: each node in with probability want/left */
            int sampled = (long)rng_below(&r, (uint32_t)left) < want;
            left--;
            if (sampled) {
                want--;
                checked++;
                if (nd->bound == 1) {
                    for (int i = 0; i < nm; i++)
                        if (ref_play(&t->ref, nd->fen, moves[i], child,
                                     sizeof child) == 1)
                            fail_msg("%s: leaf node %ld (%s): the reference "
                                     "wins at once with %s", what, k, nd->fen,
                                     moves[i]);
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

/* ---- the cross-check against minimax -------------------------------------- */

/* Solves st at `plies` writing its certificate into *buf. */
static struct solver_result certify(const struct variant *v, const void *st,
                                    int plies, char **buf, size_t *len)
{
    struct solver_options o = {plies, 10000000u, 8};
    struct solver_result r;
    char err[512];
    FILE *f = open_memstream(buf, len);
    assert_non_null(f);
    if (solver_write_certificate(v, st, &o, f, &r, NULL, err, sizeof err) != 0)
        fail_msg("solver_write_certificate: %s", err);
    fclose(f);
    return r;
}

struct tally {
    long disproofs, raised_rejected, nodes, links, checked;
};

static void cross_check(int game, int count, int max_plies, uint64_t seed,
                        struct tally *tl)
{
    struct rng r;
    rng_seed(&r, seed);
    for (int i = 0; i < count; i++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        char what[VARIANT_TEXT_MAX + 700], text[512], canon[VARIANT_TEXT_MAX];
        char *prev = NULL, err[1024];
        size_t prev_len = 0;
        random_position(game, &r, &v, st);
        const struct game *g = v.game;
        g->to_text(st, text, sizeof text);
        variant_canonical(&v, canon, sizeof canon);
        /* Jetan's text carries a running countdown the reference ignores */
        const char *cd = strrchr(text, ' ');
        int ref_ok = game != 2
                     || (cd[-2] == ' ' && (cd[-1] == '-' || cd[-1] == 'x'));
        for (int d = 1; d <= max_plies; d++) {
            snprintf(what, sizeof what, "random position %d, %d plies: %s %s",
                     i, d, canon, text);
            int expect = minimax_forced_win(g, st, d);
            char *buf;
            size_t len;
            struct solver_result res = certify(&v, st, d, &buf, &len);
            if (res.answer != (expect ? SOLVER_WIN : SOLVER_NO_WIN))
                fail_msg("%s: solver %s, minimax %s", what,
                         solver_answer_name(res.answer),
                         expect ? "win" : "no win");
            if (expect) {
                free(buf);
                if (!prev)
                    continue;
                /* the last disproof, its bound raised to this one */
                struct tcert *t = cert_read((unsigned char *)prev, prev_len);
                t->plies = d;
                t->nodes[0].bound = d;
                char *raised;
                size_t rlen;
                struct disproof_info info;
                assert_int_equal(cert_write(t, &raised, &rlen), 0);
                if (verify_buf(raised, rlen, &info, err, sizeof err) == 0)
                    fail_msg("%s: minimax finds a win, yet the disproof of a "
                             "smaller bound raised to %d verifies", what, d);
                tl->raised_rejected++;
                free(raised);
                cert_free(t);
                continue;
            }
            struct disproof_info info;
            if (verify_buf(buf, len, &info, err, sizeof err) != 0)
                fail_msg("%s: the solver's disproof does not verify: %s", what,
                         err);
            assert_int_equal(info.plies, d);
            tl->disproofs++;
            tl->nodes += info.nodes;
            tl->links += info.refs;
            struct tcert *t = cert_read((unsigned char *)buf, len);
            assert_int_equal(t->n, info.nodes);
            if (ref_ok)
                tl->checked += ref_check(t, seed + (uint64_t)i, what);
            cert_free(t);
            free(prev);
            prev = buf;
            prev_len = len;
        }
        free(prev);
    }
}

static void run_cross_check(int game, int count, int max_plies, uint64_t seed,
                            int want_raised)
{
    struct tally tl;
    memset(&tl, 0, sizeof tl);
    cross_check(game, count, max_plies, seed, &tl);
    print_message("%s: %d positions at 1..%d plies: %ld disproofs verified "
                  "(%ld nodes, %ld links), %ld attacker nodes checked with the "
                  "reference, %ld raised disproofs rejected\n",
                  random_position_variants[game][0], count, max_plies,
                  tl.disproofs, tl.nodes, tl.links, tl.checked,
                  tl.raised_rejected);
    assert_true(tl.disproofs >= count / 2);
    assert_true(tl.raised_rejected >= want_raised);
}

static void test_cross_tafl(void **state)
{
    (void)state;
    run_cross_check(0, 30, 5, 501, 1);
}

static void test_cross_serbest(void **state)
{
    (void)state;
    run_cross_check(1, 30, 5, 502, 1);
}

static void test_cross_jetan(void **state)
{
    (void)state;
    /* 5 plies of Jetan minimax are slow: many positions to 3, a few to 5 */
    run_cross_check(2, 30, 3, 503, 0);
    run_cross_check(2, 4, 5, 504, 0);
}

/* ---- tampered disproofs ---------------------------------------------------- */

/* The disproof of the position `text` of variant `spec` within `plies`. */
static struct tcert *disproof_of(const char *spec, const char *text, int plies)
{
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char err[256], *buf;
    size_t len;
    if (variant_parse(spec, &v, err, sizeof err) != 0
        || game_setup(&v, st, text, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct solver_result r = certify(&v, st, plies, &buf, &len);
    assert_int_equal(r.answer, SOLVER_NO_WIN);
    struct tcert *t = cert_read((unsigned char *)buf, len);
    /* t->data points into buf: the tests below only write t back */
    t->data = NULL;
    free(buf);
    return t;
}

static int is_ancestor(const struct tcert *t, long a, long k)
{
    for (; k >= 0; k = t->nodes[k].parent)
        if (k == a)
            return 1;
    return 0;
}

/* Jetan from the start within 5 plies: 11,693 nodes, with links. */
static void test_tampered_jetan(void **state)
{
    (void)state;
    struct tcert *t = disproof_of("jetan", NULL, 5);
    int done[4] = {0};
    for (long k = 1; k < t->n; k++) {
        struct tnode *nd = &t->nodes[k];
        /* (a) an attacker move left out: the last of a listed node */
        if (!done[0] && nd->or_node && nd->bound >= 2 && nd->n >= 2) {
            nd->n--;
            char *buf;
            size_t len;
            int ok = cert_write(t, &buf, &len) == 0;
            free(buf);
            if (ok) {
                char why[128];
                snprintf(why, sizeof why, "the attacker's move %s is not "
                         "refuted", nd->e[nd->n].move);
                expect_rejected(t, k, why, "an attacker move left out");
                done[0] = 1;
            }
            nd->n++;
        }
        /* (c) a bound too short, and a line stopped before the bound */
        if (!done[1] && !nd->or_node && nd->bound >= 2
            && nd->e[0].slot != SLOT_END) {
            char why[128];
            nd->bound--;
            snprintf(why, sizeof why, "proven to bound %d, where %d plies are "
                     "needed", nd->bound, nd->bound + 1);
            expect_rejected(t, k, why, "a bound too short");
            nd->bound++;
            int slot = nd->e[0].slot;
            nd->e[0].slot = SLOT_END;
            char *buf;
            size_t len;
            int ok = cert_write(t, &buf, &len) == 0;
            free(buf);
            if (ok) {
                snprintf(why, sizeof why, "the line stops after %s with %d "
                         "plies still to cover", nd->e[0].move, nd->bound - 1);
                expect_rejected(t, k, why, "a line stopped early");
                done[1] = 1;
            }
            nd->e[0].slot = slot;
        }
        /* (d) a link to another position */
        for (int i = 0; i < nd->n && !done[2]; i++) {
            struct tedge *e = &nd->e[i];
            if (e->slot != SLOT_REF)
                continue;
            for (long j = e->child - 1; j > 0 && !done[2]; j--) {
                const struct tnode *other = &t->nodes[j];
                const struct tnode *parent = &t->nodes[other->parent];
                int shared = 0;
                for (int q = 0; q < parent->n; q++)
                    shared |= parent->e[q].child == j
                              && parent->e[q].slot == SLOT_SHARED;
                if (!shared || is_ancestor(t, j, k)
                    || strcmp(other->fen, t->nodes[e->child].fen) == 0)
                    continue;
                long right = e->child;
                e->child = j;
                char why[128];
                snprintf(why, sizeof why, "after %s a link to node %ld, which "
                         "is another position", e->move, j);
                expect_rejected(t, k, why, "a wrong link");
                e->child = right;
                done[2] = 1;
            }
        }
    }
    assert_true(done[0] && done[1] && done[2]);
    /* more than 1,000 attacker nodes: the reference checks a sample */
    long checked = ref_check(t, 5, "jetan from the start, 5 plies");
    print_message("jetan from the start, 5 plies: %ld nodes, %ld attacker "
                  "nodes checked with jetan_ref\n", t->n, checked);
    assert_int_equal(checked, 1000);
    /* the untouched one still verifies */
    char *buf, err[1024];
    size_t len;
    struct disproof_info info;
    assert_int_equal(cert_write(t, &buf, &len), 0);
    if (verify_buf(buf, len, &info, err, sizeof err) != 0)
        fail_msg("rewritten unchanged: %s", err);
    assert_true(info.refs > 0 && info.shared > 0);
    /* cut short, and with a byte after 'end' */
    assert_int_not_equal(verify_buf(buf, len - 10, &info, err, sizeof err), 0);
    assert_non_null(strstr(err, "the data ends inside this node"));
    char *longer = malloc(len + 1);
    memcpy(longer, buf, len);
    longer[len] = 'x';
    assert_int_not_equal(verify_buf(longer, len + 1, &info, err, sizeof err), 0);
    assert_non_null(strstr(err, "data after 'end'"));
    free(longer);
    free(buf);
    cert_free(t);
}

/* (b) a defender reply that loses: on random tafl and Serbest positions,
 * a defender node at bound 2 whose reply is swapped for one after which
 * the reference finds a win at once for the attacker (or which loses at
 * once itself). */
static void test_losing_reply(void **state)
{
    (void)state;
    struct rng r;
    int found = 0;
    rng_seed(&r, 99);
    for (int tries = 0; tries < 400 && found < 4; tries++) {
        int game = tries % 2 ? 1 : 0;
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        char *buf, text[512];
        size_t len;
        random_position(game, &r, &v, st);
        if (minimax_forced_win(v.game, st, 3))
            continue;
        v.game->to_text(st, text, sizeof text);
        certify(&v, st, 3, &buf, &len);
        struct tcert *t = cert_read((unsigned char *)buf, len);
        int here = 0;
        for (long k = 1; k < t->n && !here; k++) {
            struct tnode *nd = &t->nodes[k];
            if (nd->or_node || nd->bound != 2 || nd->e[0].slot == SLOT_END)
                continue;
            static char moves[SERBEST_REF_MAX_MOVES][8];
            static char replies[SERBEST_REF_MAX_MOVES][8];
            char after[160], after2[160];
            int nr = ref_moves(&t->ref, nd->fen, replies);
            for (int i = 0; i < nr && !here; i++) {
                int res = ref_play(&t->ref, nd->fen, replies[i], after,
                                   sizeof after);
                int loses = res == 1;
                if (res == 0) {
                    int nm = ref_moves(&t->ref, after, moves);
                    for (int j = 0; j < nm && !loses; j++)
                        loses = ref_play(&t->ref, after, moves[j], after2,
                                         sizeof after2) == 1;
                }
                if (!loses)
                    continue;
                long leaf = nd->e[0].child;
                memcpy(nd->e[0].move, replies[i], sizeof replies[i]);
                if (res == 1) {
                    char why[128];
                    snprintf(why, sizeof why, "the defender's reply %.7s wins at "
                             "once for the attacker", replies[i]);
                    expect_rejected(t, k, why, "a losing reply");
                } else {
                    expect_rejected(t, leaf, "a leaf (bound 1), but the "
                                    "attacker wins at once", "a losing reply");
                }
                found++;
                here = 1;
            }
        }
        cert_free(t);
        free(buf);
    }
    assert_int_equal(found, 4);
}

/* ---- the committed Kings Landing disproof --------------------------------- */

static void test_committed(void **state)
{
    (void)state;
    FILE *f = fopen(committed_path, "rb");
    if (!f)
        fail_msg("cannot open %s", committed_path);
    char *buf = NULL, err[1024];
    size_t len = 0, got;
    char chunk[65536];
    FILE *m = open_memstream(&buf, &len);
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, got, m);
    fclose(m);
    fclose(f);
    struct disproof_info info;
    if (verify_buf(buf, len, &info, err, sizeof err) != 0)
        fail_msg("%s: %s", committed_path, err);
    struct tcert *t = cert_read((unsigned char *)buf, len);
    assert_int_equal(info.plies, 3);
    assert_non_null(strstr(t->variant, "kings_landing=8"));
    long checked = ref_check(t, 8, committed_path);
    print_message("%s: %ld nodes, %ld attacker nodes checked with "
                  "serbest_ref (%ld leaves)\n", committed_path, t->n, checked,
                  info.leaves);
    assert_true(checked >= 681 || checked >= 1000);
    cert_free(t);
    free(buf);
}

static void test_sha256(void **state)
{
    (void)state;
    unsigned char d[32];
    char hex[65];
    static const char *const cases[][2] = {
        {"abc",
         "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sha256_bytes(cases[i][0], strlen(cases[i][0]), d);
        sha256_hex(d, hex);
        assert_string_equal(hex, cases[i][1]);
    }
    /* a million 'a', fed in uneven pieces (FIPS 180-4's third example) */
    struct sha256 c;
    static char a[1001];
    memset(a, 'a', sizeof a);
    sha256_init(&c);
    for (int i = 0; i < 1000; i++)
        sha256_update(&c, a, i % 2 ? 999 : 1001);
    sha256_final(&c, d);
    sha256_hex(d, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e"
                             "046d39ccc7112cd0");
}

int main(int argc, char **argv)
{
    committed_path = argc > 1 ? argv[1] : "serbest_kl8_nowin3.disproof";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256),
        cmocka_unit_test(test_tampered_jetan),
        cmocka_unit_test(test_losing_reply),
        cmocka_unit_test(test_committed),
        cmocka_unit_test(test_cross_tafl),
        cmocka_unit_test(test_cross_serbest),
        cmocka_unit_test(test_cross_jetan),
    };
    return cmocka_run_group_tests_name("disproof", tests, NULL, NULL);
}
