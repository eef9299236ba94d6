/*
 * jetan_tables_gen.c -- a build-time program that writes the Jetan move
 * tables (jetan_tables.inc) for core/jetan_moves.c.
 *
 * It walks every path of every piece literally, by the step rule of
 * docs/rules.md#jetan-how-pieces-move: a move is an exact number of steps,
 * each to an orthogonally or diagonally adjacent square of the kind the
 * piece allows, no square entered twice (the start square counts), every
 * path on the board. The engine then never walks a path at run time: it
 * looks up, per piece and square,
 *  - for pieces whose moves cannot be blocked (1-step Panthan, the jumping
 *    Flier, Princess and jumping Thoat), the set of destinations;
 *  - for 2-step walkers (Thoat, Warrior, Padwar), per first square s1, the
 *    destinations reached through it, open when s1 is empty;
 *  - for 3-step walkers (Dwar, Chief), per first square s1 and second
 *    square s2, the destinations reached through both, open when both are
 *    empty;
 *  - the squares one king, orthogonal or diagonal step away, from which
 *    the generator also grows the walkers' reach a step at a time.
 * Computing the tables at build time keeps core/ free of start-up code and
 * of globals that change: the tables are `static const`.
 *
 * Usage: jetan_tables_gen OUTPUT_FILE
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables_gen.h"

#define N 10
#define SQUARES (N * N)

enum { ORTH = 1, DIAG = 2, ANY = 3 };

static const int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                               {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

struct set {
    uint64_t lo, hi;
};

static void set_add(struct set *s, int sq)
{
    if (sq < 64)
        s->lo |= 1ULL << sq;
    else
        s->hi |= 1ULL << (sq - 64);
}

static int set_empty(struct set s)
{
    return !s.lo && !s.hi;
}

/* The square one step of kind `kinds` (ORTH, DIAG or both) in direction d
 * from sq, or -1 off the board or if d is not of that kind. */
static int step(int sq, int d, int kinds)
{
    int kind = d < 4 ? ORTH : DIAG;
    if (!(kinds & kind))
        return -1;
    int file = sq % N + dirs[d][0], rank = sq / N + dirs[d][1];
    if (file < 0 || file >= N || rank < 0 || rank >= N)
        return -1;
    return rank * N + file;
}

/* Step kinds of each step of a piece; Thoat has two sequences. */
struct piece_steps {
    int n_seqs, len;
    int seq[2][3];
};

static const struct piece_steps THOAT = {2, 2, {{ORTH, DIAG}, {DIAG, ORTH}}};
static const struct piece_steps WARRIOR = {1, 2, {{ORTH, ORTH}}};
static const struct piece_steps PADWAR = {1, 2, {{DIAG, DIAG}}};
static const struct piece_steps DWAR = {1, 3, {{ORTH, ORTH, ORTH}}};
static const struct piece_steps FLIER = {1, 3, {{DIAG, DIAG, DIAG}}};
static const struct piece_steps ROYAL = {1, 3, {{ANY, ANY, ANY}}};
static const struct piece_steps KING_STEP = {1, 1, {{ANY}}};
static const struct piece_steps ORTH_STEP = {1, 1, {{ORTH}}};
static const struct piece_steps DIAG_STEP = {1, 1, {{DIAG}}};

/* Adds to *out every square that ends a path of steps seq[k..len) from
 * path[k], none of them entering a square already in path[0..k]. */
static void walk(const int *seq, int len, int *path, int k, struct set *out)
{
    if (k == len) {
        set_add(out, path[k]);
        return;
    }
    for (int d = 0; d < 8; d++) {
        int next = step(path[k], d, seq[k]);
        int seen = next < 0;
        for (int i = 0; i <= k && !seen; i++)
            seen = path[i] == next;
        if (seen)
            continue;
        path[k + 1] = next;
        walk(seq, len, path, k + 1, out);
    }
}

/* Every destination of a jumping piece from sq. */
static struct set jump_set(const struct piece_steps *p, int sq)
{
    struct set out = {0, 0};
    for (int s = 0; s < p->n_seqs; s++) {
        int path[4] = {sq};
        walk(p->seq[s], p->len, path, 0, &out);
    }
    return out;
}

/* Destinations of the walker p from sq whose path starts with the given
 * squares (prefix_len of them after sq): the paths open when those
 * squares are empty. */
static struct set through(const struct piece_steps *p, int s,
                          const int *prefix, int prefix_len)
{
    struct set out = {0, 0};
    int path[4];
    memcpy(path, prefix, sizeof(int) * (size_t)(prefix_len + 1));
    /* The prefix must itself be a path of sequence s. */
    for (int k = 0; k < prefix_len; k++) {
        int ok = 0;
        for (int d = 0; d < 8 && !ok; d++)
            ok = step(path[k], d, p->seq[s][k]) == path[k + 1];
        if (!ok)
            return out;
    }
    walk(p->seq[s], p->len, path, prefix_len, &out);
    return out;
}

static void print_set(FILE *f, struct set s)
{
    fprintf(f, "JT_BB(0x%llxu, 0x%llxu)", (unsigned long long)s.hi,
            (unsigned long long)s.lo);
}

static void print_jump_table(FILE *f, const char *name,
                             const struct piece_steps *p)
{
    fprintf(f, "static const jt_bb %s[%d] = {\n", name, SQUARES);
    for (int sq = 0; sq < SQUARES; sq++) {
        fprintf(f, "    ");
        print_set(f, jump_set(p, sq));
        fprintf(f, ",\n");
    }
    fprintf(f, "};\n\n");
}

static void print_panthan(FILE *f)
{
    fprintf(f, "static const jt_bb jt_panthan[2][%d] = {\n", SQUARES);
    for (int side = 0; side < 2; side++) {
        int fwd = side == 0 ? 1 : -1; /* Black moves up the ranks */
        fprintf(f, "  {\n");
        for (int sq = 0; sq < SQUARES; sq++) {
            struct set s = {0, 0};
            const int moves[5][2] = {{0, fwd}, {1, fwd}, {-1, fwd}, {1, 0},
                                     {-1, 0}};
            for (int i = 0; i < 5; i++) {
                int file = sq % N + moves[i][0], rank = sq / N + moves[i][1];
                if (file >= 0 && file < N && rank >= 0 && rank < N)
                    set_add(&s, rank * N + file);
            }
            fprintf(f, "    ");
            print_set(f, s);
            fprintf(f, ",\n");
        }
        fprintf(f, "  },\n");
    }
    fprintf(f, "};\n\n");
}

/* The squares one step from sq allowed as a first step by some sequence
 * of p, in a fixed order. */
static int first_steps(const struct piece_steps *p, int sq, int *out)
{
    int n = 0;
    for (int d = 0; d < 8; d++) {
        for (int s = 0; s < p->n_seqs; s++) {
            int next = step(sq, d, p->seq[s][0]);
            if (next >= 0) {
                out[n++] = next;
                break;
            }
        }
    }
    return n;
}

static struct set union_over_seqs(const struct piece_steps *p,
                                  const int *prefix, int prefix_len)
{
    struct set out = {0, 0};
    for (int s = 0; s < p->n_seqs; s++) {
        struct set t = through(p, s, prefix, prefix_len);
        out.lo |= t.lo;
        out.hi |= t.hi;
    }
    return out;
}

/* struct jt_walk2 { jt_bb dest[8]; uint8_t n; uint8_t mid[8]; } */
static void print_walk2(FILE *f, const char *name, const struct piece_steps *p)
{
    fprintf(f, "static const struct jt_walk2 %s[%d] = {\n", name, SQUARES);
    for (int sq = 0; sq < SQUARES; sq++) {
        int s1[8], n1 = first_steps(p, sq, s1), n = 0;
        int mids[8];
        struct set dests[8];
        for (int i = 0; i < n1; i++) {
            int prefix[2] = {sq, s1[i]};
            struct set d = union_over_seqs(p, prefix, 1);
            if (set_empty(d))
                continue;
            mids[n] = s1[i];
            dests[n++] = d;
        }
        /* (C11 has no empty braces: an empty list is written {0}) */
        fprintf(f, "    {.dest = {%s", n ? "" : "0");
        for (int i = 0; i < n; i++) {
            print_set(f, dests[i]);
            fprintf(f, ", ");
        }
        fprintf(f, "}, .n = %d, .mid = {%s", n, n ? "" : "0");
        for (int i = 0; i < n; i++)
            fprintf(f, "%d, ", mids[i]);
        fprintf(f, "}},\n");
    }
    fprintf(f, "};\n\n");
}

/* struct TYPE { jt_bb dest[A * B]; uint8_t n1; uint8_t s1[A];
 *               uint8_t n2[A]; uint8_t s2[A * B]; }, pair (i, j) at
 * index i * B + j (one walk3 in jetan_moves.c reads both types) */
static void print_walk3(FILE *f, const char *type, const char *name,
                        const struct piece_steps *p, int max_a, int max_b)
{
    fprintf(f, "static const struct %s %s[%d] = {\n", type, name, SQUARES);
    for (int sq = 0; sq < SQUARES; sq++) {
        int first[8], n_first = first_steps(p, sq, first), n1 = 0;
        int s1[8], n2[8] = {0}, s2[8][8];
        struct set dests[8][8];
        for (int i = 0; i < n_first; i++) {
            int second[8], n_second = 0;
            /* second squares: any step of the second kind from first[i],
             * not back to sq */
            for (int d = 0; d < 8; d++) {
                int next = step(first[i], d, ANY);
                if (next >= 0 && next != sq)
                    second[n_second++] = next;
            }
            int n = 0;
            for (int j = 0; j < n_second; j++) {
                int prefix[3] = {sq, first[i], second[j]};
                struct set d = union_over_seqs(p, prefix, 2);
                if (set_empty(d))
                    continue;
                s2[n1][n] = second[j];
                dests[n1][n++] = d;
            }
            if (n == 0)
                continue;
            if (n > max_b) {
                fprintf(stderr, "jetan_tables_gen: %s: %d > %d\n", name, n,
                        max_b);
                exit(1);
            }
            s1[n1] = first[i];
            n2[n1++] = n;
        }
        if (n1 > max_a) {
            fprintf(stderr, "jetan_tables_gen: %s: %d > %d\n", name, n1,
                    max_a);
            exit(1);
        }
        if (n1 == 0) {
            fprintf(f, "    {.n1 = 0},\n");
            continue;
        }
        fprintf(f, "    {.dest = {");
        for (int i = 0; i < n1; i++) {
            for (int j = 0; j < n2[i]; j++) {
                fprintf(f, "[%d] = ", i * max_b + j);
                print_set(f, dests[i][j]);
                fprintf(f, ", ");
            }
        }
        fprintf(f, "},\n     .n1 = %d, .s1 = {", n1);
        for (int i = 0; i < n1; i++)
            fprintf(f, "%d, ", s1[i]);
        fprintf(f, "}, .n2 = {");
        for (int i = 0; i < n1; i++)
            fprintf(f, "%d, ", n2[i]);
        fprintf(f, "}, .s2 = {");
        for (int i = 0; i < n1; i++)
            for (int j = 0; j < n2[i]; j++)
                fprintf(f, "[%d] = %d, ", i * max_b + j, s2[i][j]);
        fprintf(f, "}},\n");
    }
    fprintf(f, "};\n\n");
}

int main(int argc, char **argv)
{
    FILE *f = tables_gen_open(argc, argv, "jetan_tables_gen");
    if (!f)
        return 1;
    fprintf(f, "/* jetan_tables.inc -- written by jetan_tables_gen at build "
               "time; do not edit.\n * Squares are rank * 10 + file; see "
               "core/jetan_tables_gen.c. */\n\n");
    print_panthan(f);
    print_jump_table(f, "jt_flier", &FLIER);
    print_jump_table(f, "jt_princess", &ROYAL);
    print_jump_table(f, "jt_thoat_jump", &THOAT);
    print_jump_table(f, "jt_king_step", &KING_STEP);
    print_jump_table(f, "jt_orth_step", &ORTH_STEP);
    print_jump_table(f, "jt_diag_step", &DIAG_STEP);
    print_walk2(f, "jt_thoat", &THOAT);
    print_walk2(f, "jt_warrior", &WARRIOR);
    print_walk2(f, "jt_padwar", &PADWAR);
    print_walk3(f, "jt_walk3_dwar", "jt_dwar", &DWAR, 4, 3);
    print_walk3(f, "jt_walk3_chief", "jt_chief", &ROYAL, 8, 7);
    return tables_gen_close(f, argv[1]);
}
