/*
 * test_disproof.c -- disproof certificates (agents/solve/disproof.h):
 * written by the solver for "no win within N plies", checked by
 * disproof_verify, and checked again here by a reader of the format of its
 * own that walks the
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
 *    position text as the child. Where a certificate has more than 1,000
 *    attacker nodes with moves to list, or 1,000 leaves, a seeded sample
 *    of 1,000 of each is checked (Jetan from the start within 5 plies has
 *    3,758 leaves).
 *  - The committed Kings Landing disproofs pass the same walk in
 *    test_disproof_committed.c; the reader and the walk are
 *    tests/disproof_reader.c, written from the format's description.
 *  - Tampered disproofs are rejected with the node named: an attacker move
 *    left out, a defender reply that loses, a bound too short, a line
 *    stopped early, a link to another position; and so are truncated or
 *    extended files.
 *  - A table too small to keep what the writer reads (64 entries): the
 *    writer searches again, and its disproof verifies and passes the walk.
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
#include "disproof_reader.h"
#include "game.h"
#include "jetan_ref.h"
#include "minimax.h"
#include "random_positions.h"
#include "rng.h"
#include "serbest_ref.h"
#include "sha256.h"
#include "solver.h"
#include "tafl_ref.h"

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

/* ---- the cross-check against minimax -------------------------------------- */

/* Solves st at `plies` writing its certificate into *buf; a disproof of
 * more than dag_nodes nodes (0: the default cap) is streamed as a tree. */
static struct solver_result certify(const struct variant *v, const void *st,
                                    int plies, size_t dag_nodes, char **buf,
                                    size_t *len)
{
    struct solver_options o = {.plies = plies,
                               .max_nodes = 10000000u,
                               .max_mb = 8,
                               .max_dag_nodes = dag_nodes};
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
            struct solver_result res = certify(&v, st, d, 0, &buf, &len);
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
    struct solver_result r = certify(&v, st, plies, 0, &buf, &len);
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

/* Jetan from the start within 5 plies: 7,761 nodes, with links. */
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
    /* more than 1,000 leaves: the reference checks a sample of them */
    long checked = ref_check(t, 5, "jetan from the start, 5 plies");
    long lists = 0, leaves = 0;
    for (long k = 0; k < t->n; k++) {
        lists += t->nodes[k].or_node && t->nodes[k].bound > 1;
        leaves += t->nodes[k].or_node && t->nodes[k].bound == 1;
    }
    print_message("jetan from the start, 5 plies: %ld nodes, %ld attacker "
                  "nodes checked with jetan_ref (%ld lists, %ld leaves)\n",
                  t->n, checked, lists, leaves);
    assert_true(leaves > 1000);
    assert_int_equal(checked, (lists < 1000 ? lists : 1000) + 1000);
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
        certify(&v, st, 3, 0, &buf, &len);
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

/* A disproof over the DAG's node cap is streamed as a tree without links:
 * where the DAG has none (Kings Landing rank 8, 3 plies) the bytes are
 * the same; where it has (Jetan from the start, 5 plies) the tree is
 * larger, has no shared node, and verifies all the same. */
static void test_streamed(void **state)
{
    (void)state;
    static const struct {
        const char *spec;
        int plies;
    } cases[] = {{"serbest(kings_landing=8)", 3}, {"jetan", 5}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        char err[1024], *dag, *tree;
        size_t dag_len, tree_len;
        struct disproof_info a, b;
        if (variant_parse(cases[i].spec, &v, err, sizeof err) != 0)
            fail_msg("%s", err);
        v.game->init(st, &v);
        certify(&v, st, cases[i].plies, 0, &dag, &dag_len);
        certify(&v, st, cases[i].plies, 100, &tree, &tree_len);
        if (verify_buf(dag, dag_len, &a, err, sizeof err) != 0
            || verify_buf(tree, tree_len, &b, err, sizeof err) != 0)
            fail_msg("%s: %s", cases[i].spec, err);
        assert_true(a.nodes > 100);
        assert_int_equal(b.shared, 0);
        assert_int_equal(b.refs, 0);
        if (a.refs == 0) {
            assert_int_equal(dag_len, tree_len);
            assert_memory_equal(dag, tree, dag_len);
        } else {
            assert_true(b.nodes > a.nodes);
        }
        print_message("%s within %d: the DAG %ld nodes (%ld links), the "
                      "streamed tree %ld\n", cases[i].spec, cases[i].plies,
                      a.nodes, a.refs, b.nodes);
        free(dag);
        free(tree);
    }
}

/* The writer takes each defender's first refuting reply in the move
 * generator's order, asking the search's table and searching again for
 * every child the table has lost. Jetan from the start within 5 plies,
 * with an 8 MiB table (which loses nothing there) and with one of 64
 * entries (which loses nearly everything, so that the search counts
 * twice the nodes): both disproofs verify and pass the reference walk,
 * and they are the same bytes (format 2: the question's, not the
 * table's). */
static void test_small_table(void **state)
{
    (void)state;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char err[1024], *buf[2];
    size_t len[2];
    if (variant_parse("jetan", &v, err, sizeof err) != 0)
        fail_msg("%s", err);
    v.game->init(st, &v);
    for (int k = 0; k < 2; k++) {
        struct solver_options o = {.plies = 5,
                                   .max_mb = 8,
                                   .tt_entries = k ? 64 : 0};
        struct solver_result r;
        struct disproof_info info;
        FILE *f = open_memstream(&buf[k], &len[k]);
        assert_non_null(f);
        if (solver_write_certificate(&v, st, &o, f, &r, NULL, err,
                                     sizeof err) != 0)
            fail_msg("solver_write_certificate: %s", err);
        fclose(f);
        assert_int_equal(r.answer, SOLVER_NO_WIN);
        if (verify_buf(buf[k], len[k], &info, err, sizeof err) != 0)
            fail_msg("%s table: %s", k ? "a 64-entry" : "an 8 MiB", err);
        struct tcert *t = cert_read((unsigned char *)buf[k], len[k]);
        assert_true(ref_check(t, 77, "jetan within 5 plies") > 0);
        cert_free(t);
        print_message("jetan within 5, %s table: %llu search nodes, a "
                      "disproof of %ld nodes (%ld links)\n",
                      k ? "a 64-entry" : "an 8 MiB",
                      (unsigned long long)r.nodes, info.nodes, info.refs);
    }
    assert_int_equal(len[0], len[1]);
    assert_memory_equal(buf[0], buf[1], len[0]);
    free(buf[0]);
    free(buf[1]);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256),
        cmocka_unit_test(test_tampered_jetan),
        cmocka_unit_test(test_losing_reply),
        cmocka_unit_test(test_streamed),
        cmocka_unit_test(test_small_table),
        cmocka_unit_test(test_cross_tafl),
        cmocka_unit_test(test_cross_serbest),
        cmocka_unit_test(test_cross_jetan),
    };
    return cmocka_run_group_tests_name("disproof", tests, NULL, NULL);
}
