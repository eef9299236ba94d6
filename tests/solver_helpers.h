/*
 * solver_helpers.h -- what the solver's two suites share (test_solver.c,
 * test_proof_files.c): a position and its bound, set up from text; the
 * proof file as lines; and check_proof, which writes a proof with the
 * solver and checks it three ways (its header, proof_verify, and an
 * independent walk of the strategy tree written here against the
 * rules: every defender reply answered exactly once, every leaf a win
 * within the bound). Header-only (static inline) like the games'
 * helpers, so each suite stays one file plus this.
 */
#ifndef RULELAB_SOLVER_HELPERS_H
#define RULELAB_SOLVER_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"
#include "proof.h"
#include "solver.h"

#define COUNT(a) (sizeof(a) / sizeof(a)[0])

/* A position of a game and the bound it is tested at. */
struct position {
    const char *variant, *text;
    int plies;
};

/* Generous limits for positions this small: the solver is never expected
 * to give up on them. */
#define BIG_BUDGET 10000000u
#define TT_MB 8

static inline void setup(const struct position *p, struct variant *v, void *st)
{
    char err[512];
    if (variant_parse(p->variant, v, err, sizeof err) != 0
        || game_setup(v, st, p->text, NULL, err, sizeof err) != 0)
        fail_msg("%s %s: %s", p->variant, p->text, err);
}

static inline enum game_outcome win_of(int seat)
{
    return seat == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1;
}

static inline int is_legal(const struct game *g, const void *st, move_t m)
{
    move_t moves[GAME_MAX_MOVES];
    int n = g->legal_moves(st, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return 1;
    return 0;
}

static const char *move_text(const struct game *g, const void *st, move_t m,
                             char *buf, size_t n)
{
    if (g->move_to_text(st, m, buf, n) < 0)
        snprintf(buf, n, "(move %#x)", (unsigned)m);
    return buf;
}

/* ---- proof files ------------------------------------------------------ */

/* A proof file as text, split into lines (line[i] is line i + 1). */
struct proof {
    char *buf;
    char **line;
    int n;
};

static inline void proof_free(struct proof *p)
{
    free(p->buf);
    free(p->line);
    memset(p, 0, sizeof *p);
}

/* Reads the whole of f (from its start) into p, one entry per line. */
static inline void proof_read(FILE *f, struct proof *p)
{
    size_t cap = 4096, len = 0;
    p->buf = malloc(cap);
    assert_non_null(p->buf);
    rewind(f);
    for (;;) {
        if (len + 1 >= cap) {
            cap *= 2;
            p->buf = realloc(p->buf, cap);
            assert_non_null(p->buf);
        }
        size_t got = fread(p->buf + len, 1, cap - 1 - len, f);
        len += got;
        if (got == 0)
            break;
    }
    p->buf[len] = '\0';
    p->n = 0;
    for (size_t i = 0; i < len; i++)
        p->n += p->buf[i] == '\n';
    if (len > 0 && p->buf[len - 1] != '\n')
        p->n++;
    p->line = malloc(sizeof *p->line * (size_t)(p->n + 1));
    assert_non_null(p->line);
    char *s = p->buf;
    for (int i = 0; i < p->n; i++) {
        p->line[i] = s;
        char *nl = strchr(s, '\n');
        if (nl) {
            *nl = '\0';
            s = nl + 1;
        }
    }
}

/* Writes the lines of p to a new temporary file, leaving out lines
 * [skip_from, skip_to) and putting `replacement` in place of line
 * `replace` (indices from 0; -1 for none). */
static inline FILE *proof_write(const struct proof *p, int skip_from, int skip_to,
                         int replace, const char *replacement)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    for (int i = 0; i < p->n; i++) {
        if (i >= skip_from && i < skip_to)
            continue;
        fprintf(f, "%s\n", i == replace ? replacement : p->line[i]);
    }
    rewind(f);
    return f;
}

/* The strategy tree of a proof: entry k is line line0 + k of the file. */
struct tree {
    int n, line0;
    int *ply;
    const char **move;
};

/* Parses the lines between "moves" and "end" into t; 0 or -1. */
static inline int tree_parse(const struct proof *p, struct tree *t)
{
    int start = -1, end = -1;
    for (int i = 0; i < p->n; i++) {
        if (start < 0 && strcmp(p->line[i], "moves") == 0)
            start = i + 1;
        else if (start >= 0 && strcmp(p->line[i], "end") == 0) {
            end = i;
            break;
        }
    }
    if (start < 0 || end < 0)
        return -1;
    t->n = end - start;
    t->line0 = start;
    t->ply = malloc(sizeof *t->ply * (size_t)(t->n + 1));
    t->move = malloc(sizeof *t->move * (size_t)(t->n + 1));
    assert_true(t->ply && t->move);
    for (int k = 0; k < t->n; k++) {
        const char *s = p->line[start + k];
        char *rest;
        long ply = strtol(s, &rest, 10);
        if (rest == s || *rest != ' ' || ply < 1 || ply > SOLVER_MAX_PLIES)
            return -1;
        t->ply[k] = (int)ply;
        t->move[k] = rest + 1;
    }
    return 0;
}

static inline void tree_free(struct tree *t)
{
    free(t->ply);
    free(t->move);
}

/* The independent check of a strategy tree: entry *k is the attacker's
 * move at st (ply `ply`, attacker to move). Valid if the move is legal and
 * either wins at once (a leaf) or, within the bound, is followed by every
 * legal defender reply exactly once, each a win at once or followed by a
 * valid attacker entry. Advances *k past the subtree. */
static inline int tree_check(const struct game *g, const void *st,
                      const struct tree *t, int *k, int ply, int bound,
                      int attacker, char *why, size_t whysz)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char grand[GAME_MAX_STATE_SIZE];
    move_t legal[GAME_MAX_MOVES], m;
    char err[256];
    if (*k >= t->n || t->ply[*k] != ply) {
        snprintf(why, whysz, "no attacker move at ply %d (entry %d)", ply, *k);
        return 0;
    }
    int at = t->line0 + *k + 1; /* the file's line number */
    if (game_parse_move(g, st, t->move[*k], &m, err, sizeof err) != 0) {
        snprintf(why, whysz, "line %d: %s: %s", at, t->move[*k], err);
        return 0;
    }
    memcpy(child, st, g->state_size);
    g->apply(child, m);
    ++*k;
    struct game_status s = g->status(child);
    if (s.outcome != GAME_ONGOING) {
        if (s.outcome != win_of(attacker)) {
            snprintf(why, whysz, "line %d: ends the game without a win", at);
            return 0;
        }
        if (*k < t->n && t->ply[*k] > ply) {
            snprintf(why, whysz, "line %d: lines below a won game", at);
            return 0;
        }
        return 1;
    }
    if (ply >= bound) {
        snprintf(why, whysz, "line %d: not a win at the bound", at);
        return 0;
    }
    int n = g->legal_moves(child, legal), replies = 0;
    char seen[GAME_MAX_MOVES] = {0};
    while (*k < t->n && t->ply[*k] == ply + 1) {
        int rat = t->line0 + *k + 1, idx = -1;
        if (game_parse_move(g, child, t->move[*k], &m, err, sizeof err) != 0) {
            snprintf(why, whysz, "line %d: %s: %s", rat, t->move[*k], err);
            return 0;
        }
        for (int i = 0; i < n; i++)
            if (legal[i] == m)
                idx = i;
        if (idx < 0 || seen[idx]) {
            snprintf(why, whysz, "line %d: reply repeated", rat);
            return 0;
        }
        seen[idx] = 1;
        replies++;
        memcpy(grand, child, g->state_size);
        g->apply(grand, m);
        ++*k;
        s = g->status(grand);
        if (s.outcome != GAME_ONGOING) {
            if (s.outcome != win_of(attacker)) {
                snprintf(why, whysz, "line %d: the defender escapes", rat);
                return 0;
            }
            continue;
        }
        if (!tree_check(g, grand, t, k, ply + 2, bound, attacker, why, whysz))
            return 0;
    }
    if (replies != n) {
        snprintf(why, whysz, "line %d: %d of %d replies", at, replies, n);
        return 0;
    }
    if (*k < t->n && t->ply[*k] > ply + 1) {
        snprintf(why, whysz, "line %d: too deep", t->line0 + *k + 1);
        return 0;
    }
    return 1;
}

/* Writes the proof of st (a win within `plies`) and checks it: the file
 * has the header of the format with this variant, position and bound;
 * proof_verify accepts it and reports the same; and the independent check
 * above accepts its tree. The file's text is left in *out if not NULL. */
static inline void check_proof(const struct variant *v, const void *st, int plies,
                        const char *what, struct proof *out)
{
    const struct game *g = v->game;
    struct solver_options o = {.plies = plies,
                               .max_nodes = BIG_BUDGET,
                               .max_mb = TT_MB};
    struct solver_result r;
    struct proof_info info;
    char err[1024], canon[VARIANT_TEXT_MAX], text[1024], header[VARIANT_TEXT_MAX + 16];
    FILE *f = tmpfile();
    assert_non_null(f);
    if (solver_write_proof(v, st, &o, f, &r, err, sizeof err) != 0)
        fail_msg("%s: solver_write_proof failed: %s", what, err);
    if (r.answer != SOLVER_WIN)
        fail_msg("%s, %d plies: solver_write_proof says %s", what, plies,
                 solver_answer_name(r.answer));
    fflush(f);
    rewind(f);
    memset(&info, 0, sizeof info);
    if (proof_verify(f, &info, err, sizeof err) != 0)
        fail_msg("%s, %d plies: the solver's own proof does not verify: %s",
                 what, plies, err);

    struct proof p;
    proof_read(f, &p);
    fclose(f);
    assert_true(variant_canonical(v, canon, sizeof canon) > 0);
    assert_true(g->to_text(st, text, sizeof text) > 0);
    assert_true(p.n >= 7);
    assert_string_equal(p.line[0], "rulelab-proof 1");
    snprintf(header, sizeof header, "variant %s", canon);
    assert_string_equal(p.line[1], header);
    assert_string_equal(info.variant, canon);
    assert_int_equal(info.plies, plies);
    snprintf(header, sizeof header, "plies %d", plies);
    assert_string_equal(p.line[3], header);
    /* the position line sets up a position with the same text as st */
    {
        struct variant pv;
        _Alignas(GAME_STATE_ALIGN) unsigned char ps[GAME_MAX_STATE_SIZE];
        char ptext[1024];
        assert_int_equal(strncmp(p.line[2], "position ", 9), 0);
        assert_string_equal(info.position, p.line[2] + 9);
        if (variant_parse(info.variant, &pv, err, sizeof err) != 0
            || g->from_text(ps, &pv, info.position, err, sizeof err) != 0)
            fail_msg("%s: proof position: %s", what, err);
        g->to_text(ps, ptext, sizeof ptext);
        assert_string_equal(ptext, text);
    }

    struct tree t;
    if (tree_parse(&p, &t) != 0)
        fail_msg("%s: the proof has no readable moves ... end section", what);
    assert_int_equal(info.nodes, t.n);
    assert_string_equal(p.line[p.n - 1], "end");
    int k = 0;
    char why[512];
    if (!tree_check(g, st, &t, &k, 1, plies, g->to_move(st), why, sizeof why))
        fail_msg("%s, %d plies: proof rejected by the test's own check: %s",
                 what, plies, why);
    if (k != t.n)
        fail_msg("%s: proof lines after the strategy tree (line %d)", what,
                 t.line0 + k + 1);
    tree_free(&t);
    if (out)
        *out = p;
    else
        proof_free(&p);
}

#endif
