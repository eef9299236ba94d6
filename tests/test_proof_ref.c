/*
 * test_proof_ref.c -- the committed Kings Landing proof
 * (experiments/proofs/serbest_kl9_win5.proof: with kings_landing=9 the
 * first player forces a win within 5 plies) checked with the naive
 * reference tests/ref/serbest_ref.c instead of the engine's own move
 * generator, so that a bug shared by the solver, its proof checker
 * (agents/solve/proof.c) and core/serbest.c cannot make the claim pass.
 *
 * The file is read here by a parser of its own (the format of
 * agents/solve/solver.h: header lines, then "<ply> <move>" lines in preorder,
 * then "end"), independent of proof.c. The strategy tree is walked with
 * texts only: every attacker move must be legal under serbest_ref, every
 * defender node must list exactly the legal moves serbest_ref generates
 * (no more, no fewer, no repeats), every line after which serbest_ref's
 * endings say the game is over must be a win of the attacker with nothing
 * below it, and every other line must have replies below it within the
 * ply bound. The history rules serbest_ref does not judge cannot act
 * here: the root's counters are zero, a threefold repetition needs 8
 * plies, the no-capture limit is checked to exceed the bound and so is
 * max_plies.
 *
 * Tampered copies of the proof (a defender reply left out, an illegal
 * attacker move, a line that stops before a win) must be rejected, so the
 * check is known to bite.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serbest_ref.h"

static const char *proof_path; /* argv[1] */

struct proof_line {
    int ply, number; /* number: line number in the file */
    char move[8];
};

struct proof {
    serbest_ref_params params;
    char position[512];
    int plies;
    struct proof_line *lines;
    int n;
};

/* What a check found: counts, or the first error. */
struct walk {
    const struct proof *pf;
    int next;             /* the next line to read */
    char attacker;        /* 'w' or 'b': the side to move at the root */
    long defender_nodes, attacker_moves, wins;
    char err[512];
};

/* Sets w->err (the first error only) and returns -1. */
static int walk_fail(struct walk *w, const char *fmt, ...)
{
    if (!w->err[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->err, sizeof w->err, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Reads `key=value,...` inside the parentheses of a Serbest variant text
 * into *p; returns 0, or -1 with a message naming the key. Every key must
 * be known, so a parameter added later makes this test stop and ask. */
static int read_variant(const char *text, int plies, serbest_ref_params *p,
                        char *err, size_t errsz)
{
    char buf[512];
    serbest_ref_params defaults = {7, 0, 0};
    *p = defaults;
    if (strncmp(text, "serbest(", 8) != 0 || text[strlen(text) - 1] != ')') {
        snprintf(err, errsz, "variant '%.200s' is not serbest(...)", text);
        return -1;
    }
    snprintf(buf, sizeof buf, "%.*s", (int)strlen(text) - 9, text + 8);
    for (char *item = strtok(buf, ","); item; item = strtok(NULL, ",")) {
        char key[64], value[64], extra;
        if (sscanf(item, "%63[a-z_]=%63[a-z0-9]%c", key, value, &extra) != 2) {
            snprintf(err, errsz, "variant item '%s' is not key=value", item);
            return -1;
        }
        long number = strtol(value, NULL, 10);
        if (strcmp(key, "kings_landing") == 0)
            p->kings_landing = (int)number;
        else if (strcmp(key, "adjacent_drop_check") == 0)
            p->adjacent_drop_check = (int)number;
        else if (strcmp(key, "stalemate") == 0)
            p->stalemate = strcmp(value, "loss") == 0   ? 0
                         : strcmp(value, "draw") == 0 ? 1
                         : strcmp(value, "win") == 0  ? 2
                                                      : -1;
        else if (strcmp(key, "no_capture_limit") == 0) {
            /* the limit counts moves of each player: 2 x limit plies */
            if (number != 0 && 2 * number <= plies) {
                snprintf(err, errsz, "no_capture_limit %ld can act within "
                         "%d plies", number, plies);
                return -1;
            }
        } else if (strcmp(key, "max_plies") == 0) {
            if (number != 0 && number <= plies) {
                snprintf(err, errsz, "max_plies %ld can act within %d plies",
                         number, plies);
                return -1;
            }
        } else {
            snprintf(err, errsz, "variant key '%s' unknown to this test", key);
            return -1;
        }
    }
    return 0;
}

/* Reads a proof file into *pf (lines malloc'ed). Returns 0, or -1 with a
 * message naming the line. */
static int read_proof(FILE *in, struct proof *pf, char *err, size_t errsz)
{
    char line[1024], variant[512] = "";
    int number = 0, cap = 0, ended = 0;
    const char *header[] = {"rulelab-proof 1", "variant ", "position ",
                            "plies ", "moves"};
    memset(pf, 0, sizeof *pf);
    while (fgets(line, sizeof line, in)) {
        number++;
        size_t len = strlen(line);
        if (len == 0 || line[len - 1] != '\n') {
            snprintf(err, errsz, "line %d: too long or not ended", number);
            return -1;
        }
        line[--len] = '\0';
        if (ended) {
            snprintf(err, errsz, "line %d: text after 'end'", number);
            return -1;
        }
        if (number <= 5) {
            const char *want = header[number - 1];
            if (strncmp(line, want, strlen(want)) != 0
                || (number == 1 || number == 5 ? len != strlen(want)
                                               : len == strlen(want))) {
                snprintf(err, errsz, "line %d: expected '%s...'", number,
                         want);
                return -1;
            }
            const char *rest = line + strlen(want);
            if (number == 2)
                snprintf(variant, sizeof variant, "%s", rest);
            if (number == 3)
                snprintf(pf->position, sizeof pf->position, "%s", rest);
            if (number == 4) {
                char extra;
                if (sscanf(rest, "%d%c", &pf->plies, &extra) != 1
                    || pf->plies < 1 || pf->plies > 64) {
                    snprintf(err, errsz, "line %d: bad ply bound", number);
                    return -1;
                }
            }
            continue;
        }
        if (strcmp(line, "end") == 0) {
            ended = 1;
            continue;
        }
        struct proof_line l = {0, number, ""};
        char move[16], extra;
        if (sscanf(line, "%d %15s%c", &l.ply, move, &extra) != 2
            || l.ply < 1 || strlen(move) > 7) {
            snprintf(err, errsz, "line %d: expected '<ply> <move>'", number);
            return -1;
        }
        memcpy(l.move, move, strlen(move) + 1); /* at most 7 + NUL */
        if (pf->n == cap) {
            cap = cap ? 2 * cap : 1024;
            struct proof_line *grown = realloc(pf->lines, sizeof *grown
                                                              * (size_t)cap);
            if (!grown) {
                snprintf(err, errsz, "out of memory");
                return -1;
            }
            pf->lines = grown;
        }
        pf->lines[pf->n++] = l;
    }
    if (!ended) {
        snprintf(err, errsz, "no 'end' line");
        return -1;
    }
    if (number < 5) {
        snprintf(err, errsz, "header incomplete");
        return -1;
    }
    return read_variant(variant, pf->plies, &pf->params, err, errsz);
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Checks the node at `fen` (game on, `ply` plies from the root, whose
 * legal moves by the reference are legal[0..n_legal-1], sorted) and the
 * subtree listed below it, from w->next on. Returns 0 or -1. */
static int check_node(struct walk *w, const char *fen, int ply,
                      char (*legal)[8], int n_legal)
{
    const struct proof *pf = w->pf;
    char side = strchr(fen, ' ')[1];
    int or_node = side == w->attacker;
    char (*listed)[8] = malloc(sizeof *listed * SERBEST_REF_MAX_MOVES);
    char (*below)[8] = malloc(sizeof *below * SERBEST_REF_MAX_MOVES);
    int n_listed = 0, rc = 0;
    if (!listed || !below) {
        rc = walk_fail(w, "out of memory");
        goto done;
    }
    if (ply >= pf->plies) {
        rc = walk_fail(w, "line %d: the game goes on at the bound of %d "
                       "plies", pf->lines[w->next - 1].number, pf->plies);
        goto done;
    }
    while (rc == 0 && w->next < pf->n && pf->lines[w->next].ply == ply + 1) {
        const struct proof_line *l = &pf->lines[w->next++];
        char after[512];
        serbest_ref_result result;
        if (n_listed == SERBEST_REF_MAX_MOVES) {
            rc = walk_fail(w, "line %d: too many replies", l->number);
            break;
        }
        memcpy(listed[n_listed++], l->move, 8);
        if (!bsearch(l->move, legal, (size_t)n_legal, 8, cmp_text)
            || serbest_ref_make_move(fen, l->move, after, sizeof after) != 0) {
            rc = walk_fail(w, "line %d: %s is not legal in %s for the "
                           "reference", l->number, l->move, fen);
            break;
        }
        int n_below = serbest_ref_judge(after, &pf->params, below,
                                        SERBEST_REF_MAX_MOVES, &result);
        if (n_below < 0) {
            rc = walk_fail(w, "line %d: the reference cannot judge %s",
                           l->number, after);
            break;
        }
        if (!result.over) {
            rc = check_node(w, after, ply + 1, below, n_below);
        } else if (result.winner != w->attacker) {
            rc = walk_fail(w, "line %d: after %s the game ends in %s, won "
                           "by %c", l->number, l->move, result.reason,
                           result.winner);
        } else if (w->next < pf->n && pf->lines[w->next].ply > ply + 1) {
            rc = walk_fail(w, "line %d: a move after the game ended",
                           pf->lines[w->next].number);
        } else {
            w->wins++;
        }
    }
    if (rc != 0)
        goto done;
    if (or_node) {
        if (n_listed != 1)
            rc = walk_fail(w, "line %d: %d attacker moves listed at ply %d, "
                           "expected 1", w->next < pf->n
                               ? pf->lines[w->next].number : -1,
                           n_listed, ply + 1);
        w->attacker_moves += n_listed;
        goto done;
    }
    /* defender node: exactly the reference's legal moves */
    w->defender_nodes++;
    qsort(listed, (size_t)n_listed, 8, cmp_text);
    int same = n_legal == n_listed;
    for (int i = 0; same && i < n_listed; i++)
        same = strcmp(listed[i], legal[i]) == 0;
    if (!same)
        rc = walk_fail(w, "defender node %s (ply %d): %d replies listed, the "
                       "reference has %d legal moves", fen, ply, n_listed,
                       n_legal);
done:
    free(listed);
    free(below);
    return rc;
}

/* Checks a whole proof; returns 0, or -1 with the reason in w->err. */
static int check_proof(const struct proof *pf, struct walk *w)
{
    serbest_ref_result root;
    memset(w, 0, sizeof *w);
    w->pf = pf;
    /* the side to move, then the optional counters: all zero */
    const char *fields = strchr(pf->position, ' ');
    if (!fields || (fields[1] != 'w' && fields[1] != 'b'))
        return walk_fail(w, "position: no side to move");
    w->attacker = fields[1];
    for (const char *c = fields + 2; *c; c++)
        if (*c != ' ' && *c != '0')
            return walk_fail(w, "position: counters other than 0");
    char (*legal)[8] = malloc(sizeof *legal * SERBEST_REF_MAX_MOVES);
    if (!legal)
        return walk_fail(w, "out of memory");
    int n_legal = serbest_ref_judge(pf->position, &pf->params, legal,
                                    SERBEST_REF_MAX_MOVES, &root);
    int rc = n_legal < 0 ? walk_fail(w, "position: the reference cannot "
                                     "read it")
           : root.over ? walk_fail(w, "position: the game is already over")
                       : check_node(w, pf->position, 0, legal, n_legal);
    free(legal);
    if (rc == 0 && w->next != pf->n)
        rc = walk_fail(w, "line %d: not reached from the root",
                       pf->lines[w->next].number);
    return rc;
}

static void load(struct proof *pf)
{
    char err[256];
    FILE *in = fopen(proof_path, "r");
    if (!in)
        fail_msg("cannot open %s", proof_path ? proof_path : "(no path)");
    int rc = read_proof(in, pf, err, sizeof err);
    fclose(in);
    if (rc != 0)
        fail_msg("%s: %s", proof_path, err);
}

static void test_committed_proof(void **state)
{
    (void)state;
    struct proof pf;
    struct walk w;
    load(&pf);
    assert_int_equal(pf.params.kings_landing, 9);
    assert_int_equal(pf.plies, 5);
    /* the start position of docs/rules.md#notation-serbest, white to move */
    assert_string_equal(pf.position, "10/10/10/10/10/10/10/10/10/10"
                        "[KQRRBBNNPPPPPPSSkqrrbbnnppppppss] w 0 0");
    if (check_proof(&pf, &w) != 0)
        fail_msg("%s: %s", proof_path, w.err);
    print_message("%s: %d lines; %ld defender nodes list exactly the "
                  "reference's moves, %ld attacker moves legal, %ld wins\n",
                  proof_path, pf.n, w.defender_nodes, w.attacker_moves,
                  w.wins);
    assert_true(w.defender_nodes > 0 && w.wins > 0);
    free(pf.lines);
}

/* Tampered copies must fail: the check is not vacuous. */
static void test_tampered_proofs_fail(void **state)
{
    (void)state;
    struct proof pf;
    struct walk w;
    load(&pf);
    struct proof_line *original = malloc(sizeof *original * (size_t)pf.n);
    assert_non_null(original);
    memcpy(original, pf.lines, sizeof *original * (size_t)pf.n);
    int n = pf.n;

    /* a defender reply and its subtree left out */
    int first = -1, end = -1;
    for (int i = 0; i < n && end < 0; i++)
        if (original[i].ply == 2 && first < 0)
            first = i;
        else if (first >= 0 && original[i].ply <= 2)
            end = i;
    assert_true(first >= 0 && end > first);
    memmove(pf.lines + first, original + end,
            sizeof *original * (size_t)(n - end));
    pf.n = n - (end - first);
    assert_int_equal(check_proof(&pf, &w), -1);
    print_message("reply left out: %s\n", w.err);

    /* an illegal attacker move: a king drop beyond Kings Landing */
    memcpy(pf.lines, original, sizeof *original * (size_t)n);
    pf.n = n;
    assert_int_equal(pf.lines[0].ply, 1);
    snprintf(pf.lines[0].move, sizeof pf.lines[0].move, "K@b10");
    assert_int_equal(check_proof(&pf, &w), -1);
    print_message("illegal move: %s\n", w.err);

    /* a winning king move replaced by one that wins nothing */
    memcpy(pf.lines, original, sizeof *original * (size_t)n);
    int changed = 0;
    for (int i = 0; i < n && !changed; i++)
        if (strcmp(pf.lines[i].move, "b9b10") == 0) {
            snprintf(pf.lines[i].move, sizeof pf.lines[i].move, "b9b8");
            changed = 1;
        }
    assert_true(changed);
    assert_int_equal(check_proof(&pf, &w), -1);
    print_message("no win: %s\n", w.err);
    free(original);
    free(pf.lines);
}

int main(int argc, char **argv)
{
    proof_path = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_committed_proof),
        cmocka_unit_test(test_tampered_proofs_fail),
    };
    return cmocka_run_group_tests_name("proof_ref", tests, NULL, NULL);
}
