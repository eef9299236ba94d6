/*
 * test_tactics.c -- the tactics suite (experiments/analysis/tactics.h): the
 * classification of hand-built positions whose answers are derived by
 * hand below (from docs/rules.md), the checker's verdict on a right and a
 * wrong move in each, and the committed set: every line of each game's
 * file parses (its position sets up, its moves are legal), and a sample
 * of each kind re-verifies (the kept certificate with proof_verify, the
 * "exactly" part with the solver, the stored move with the checker).
 * Node budgets only, no clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"
#include "solver.h"
#include "tactics.h"

/* Budgets far above what these small positions need. */
static const struct tactics_budget big = {200000, 200000, 200000, 8};
#define CHECK_NODES 200000
#define CHECK_MB 8

static struct tactic make(const char *variant, const char *position,
                          enum tactic_kind kind)
{
    struct tactic t;
    char err[512];
    memset(&t, 0, sizeof t);
    t.kind = kind;
    if (variant_parse(variant, &t.variant, err, sizeof err) != 0)
        fail_msg("%s: %s", variant, err);
    variant_canonical(&t.variant, t.variant_text, sizeof t.variant_text);
    snprintf(t.position, sizeof t.position, "%s", position);
    return t;
}

static int classify(const struct tactic *t, struct tactic out[TACTIC_KINDS])
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char err[512];
    if (tactics_setup(t, st, err, sizeof err) != 0)
        fail_msg("%s: %s", t->position, err);
    int mask = tactics_classify(&t->variant, st, &big, 7u, out, err,
                                sizeof err);
    if (mask < 0)
        fail_msg("%s: %s", t->position, err);
    return mask;
}

static enum tactic_verdict check(const struct tactic *t, const char *move)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char err[512];
    move_t m;
    /* set by tactics_check (clang cannot tell that fail_msg ends the test) */
    enum tactic_verdict v = TACTIC_UNKNOWN;
    if (tactics_setup(t, st, err, sizeof err) != 0
        || game_parse_move(t->variant.game, st, move, &m, err, sizeof err)
               != 0
        || tactics_check(t, m, CHECK_NODES, CHECK_MB, &v, NULL, err,
                         sizeof err) != 0)
        fail_msg("%s %s: %s", t->position, move, err);
    return v;
}

/* tafl: king a3, a2 and a1 empty (a1 a corner): a3a1 escapes at once,
 * a win within 1 ply, so neither win3 nor win5 (both exclude a win
 * within 1), nor defend (which needs no win within 3). */
static void test_tafl_win_in_one_is_not_win3(void **state)
{
    (void)state;
    struct tactic t = make("tafl", "4a4/9/9/9/9/9/k8/9/9 d", TACTIC_WIN3);
    struct tactic out[TACTIC_KINDS];
    assert_int_equal(classify(&t, out), 0);
}

/* tafl: king c5, attackers g7 and h8, nothing else. No corner shares a
 * rank or file with c5, so no win within 1. c5c1 (c4-c2 empty) puts the
 * king on an empty first rank: a1 through b1 and i1 through d1-h1. One
 * attacker move blocks one side at most (g7g1 or h8h1 the right one,
 * nothing reaches b1), and capturing a king on the edge takes three
 * attackers around it: the king escapes on ply 3. So win3. c5c9 forks
 * the same way on rank 9, c5a5 on the a-file (g7a7 blocks only a9) and
 * c5i5 on the i-file (over the empty throne; h8i8 blocks only i9). A
 * king move that stays off the edge (c5c4, c5d5) cannot reach a corner
 * on its next move, so the mover has no win within 2 after it: wrong.
 * (16 legal moves: the defenders' only piece is the king.) */
static void test_tafl_win3_fork(void **state)
{
    (void)state;
    struct tactic t =
        make("tafl", "9/7a1/6a2/9/2k6/9/9/9/9 d", TACTIC_WIN3);
    struct tactic out[TACTIC_KINDS];
    assert_int_equal(classify(&t, out), 1 << TACTIC_WIN3);
    const char *line = out[TACTIC_WIN3].moves;
    assert_true(strncmp(line, "c5c1 ", 5) == 0 || strncmp(line, "c5c9 ", 5) == 0
                || strncmp(line, "c5a5 ", 5) == 0
                || strncmp(line, "c5i5 ", 5) == 0);
    assert_int_equal(check(&t, "c5c1"), TACTIC_RIGHT);
    assert_int_equal(check(&t, "c5c9"), TACTIC_RIGHT);
    assert_int_equal(check(&t, "c5a5"), TACTIC_RIGHT);
    assert_int_equal(check(&t, "c5i5"), TACTIC_RIGHT);
    assert_int_equal(check(&t, "c5c4"), TACTIC_WRONG);
    assert_int_equal(check(&t, "c5d5"), TACTIC_WRONG);
    /* As a win5 position (asked of a win within 4 after the move) the
     * same moves are judged the same way. */
    t.kind = TACTIC_WIN5;
    assert_int_equal(check(&t, "c5c1"), TACTIC_RIGHT);
}

/* tafl, attackers to move: king c1 with a defender on d1, attackers c2,
 * b7, h5 (46 legal moves: b7 16, h5 15, c2 15). The king threatens c1a1
 * (b1 empty): every move but b7b1 lets it escape at once, a loss within
 * 1 ply after the move. After b7b1 the king has no move (b1, c2
 * attackers, d1 its own man) and no capture frees it (the king is
 * unarmed, so it encloses nothing); the defenders' only try is to clear
 * d1 (d1 up the d-file) for c1-i1, which h5h1 blocks (an attacker on d1
 * would even capture the king: b1, c2, d1 and the edge), so they have no
 * win within 3: one move of 46 avoids the loss, a must-defend position.
 * The attackers have no win within 3 themselves: the king's fourth side
 * d1 is a defender they cannot capture (the edge is below it). */
static void test_tafl_must_defend(void **state)
{
    (void)state;
    struct tactic t =
        make("tafl", "9/9/1a7/9/7a1/9/9/2a6/2kd5 a", TACTIC_DEFEND);
    struct tactic out[TACTIC_KINDS];
    assert_int_equal(classify(&t, out) & 1 << TACTIC_DEFEND,
                     1 << TACTIC_DEFEND);
    assert_string_equal(out[TACTIC_DEFEND].moves, "b7b1");
    assert_int_equal(out[TACTIC_DEFEND].legal, 46);
    assert_int_equal(check(&t, "b7b1"), TACTIC_RIGHT);
    assert_int_equal(check(&t, "h5h1"), TACTIC_WRONG);
    assert_int_equal(check(&t, "c2c3"), TACTIC_WRONG);
}

/* Serbest, black to move, hands empty: white king e9, black rook a1,
 * black king j5 (23 legal moves: rook 18, king 5). White threatens a
 * Khan (king onto rank 10: d10, e10, f10 all empty and unattacked). The
 * only defence is a1a10: the rook then attacks b10-j10, so no king step
 * onto rank 10 is legal, and the white king (alone) can neither take the
 * rook nor block it within its next two moves: no white win within 3.
 * A check does not help (a1e1 leaves d10 and f10, a1a9 all three, the
 * king escapes onto rank 10), nor does any other rook or king move. The
 * black king is four moves from rank 1, and a lone king cannot be
 * mated, so black has no win within 3 either. */
static void test_serbest_must_defend(void **state)
{
    (void)state;
    struct tactic t =
        make("serbest", "10/4K5/10/10/10/9k/10/10/10/r9[] b", TACTIC_DEFEND);
    struct tactic out[TACTIC_KINDS];
    assert_int_equal(classify(&t, out) & 1 << TACTIC_DEFEND,
                     1 << TACTIC_DEFEND);
    assert_string_equal(out[TACTIC_DEFEND].moves, "a1a10");
    assert_int_equal(out[TACTIC_DEFEND].legal, 23);
    assert_int_equal(check(&t, "a1a10"), TACTIC_RIGHT);
    assert_int_equal(check(&t, "a1e1"), TACTIC_WRONG);
    assert_int_equal(check(&t, "j5j6"), TACTIC_WRONG);
}

/* A win-in-1 position is never must-defend and a right answer still
 * counts: the tafl king a3 (above) wins with a3a1; as a win3 position
 * the immediate win is right (the mover has won), a3a4 is not (from a4
 * no corner in one move). */
static void test_check_immediate_win(void **state)
{
    (void)state;
    struct tactic t = make("tafl", "4a4/9/9/9/9/9/k8/9/9 d", TACTIC_WIN3);
    assert_int_equal(check(&t, "a3a1"), TACTIC_RIGHT);
    assert_int_equal(check(&t, "a3b3"), TACTIC_WRONG);
}

/* A budget too small to settle the question is unknown, never right:
 * in the tafl must-defend position above, proving that the defenders
 * have no win within 3 after b7b1 takes more than one node (every
 * defender move must be answered). */
static void test_check_budget_unknown(void **state)
{
    (void)state;
    struct tactic t =
        make("tafl", "9/9/1a7/9/7a1/9/9/2a6/2kd5 a", TACTIC_DEFEND);
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char err[512];
    move_t m;
    enum tactic_verdict v;
    assert_int_equal(tactics_setup(&t, st, err, sizeof err), 0);
    assert_int_equal(game_parse_move(t.variant.game, st, "b7b1", &m, err,
                                     sizeof err), 0);
    assert_int_equal(tactics_check(&t, m, 1, 1, &v, NULL, err, sizeof err), 0);
    assert_int_equal(v, TACTIC_UNKNOWN);
}

/* The set: each game's file loads (tactics_load checks every field, that
 * the position sets up and that its moves are legal, and fails on any
 * bad line); the first SAMPLE positions of each kind re-verify. */
#define SAMPLE 3

static void reverify(const struct game *g, const struct tactic *t)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char err[512], path[4096], first[32];
    struct solver_result r;
    move_t m;
    enum tactic_verdict v;
    assert_int_equal(tactics_setup(t, st, err, sizeof err), 0);
    if (t->kind != TACTIC_DEFEND) {
        /* exactly: no win within k - 2 */
        struct solver_options so = {.plies = t->kind == TACTIC_WIN3 ? 1 : 3,
                                    .max_nodes = 2000000,
                                    .max_mb = 8};
        assert_int_equal(solver_solve(g, st, &so, &r, err, sizeof err), 0);
        assert_int_equal(r.answer, SOLVER_NO_WIN);
        if (t->proof_line) {
            snprintf(path, sizeof path, "%s/%s.proofs", RULELAB_TACTICS_DIR,
                     g->name);
            if (tactics_verify_certificate(path, t, err, sizeof err) != 0)
                fail_msg("%s: %s", t->source, err);
        }
    }
    /* the stored move (a win's first, a defence's first) is right */
    size_t len = strcspn(t->moves, " ");
    assert_true(len < sizeof first);
    memcpy(first, t->moves, len);
    first[len] = '\0';
    assert_int_equal(game_parse_move(g, st, first, &m, err, sizeof err), 0);
    assert_int_equal(tactics_check(t, m, 2000000, 8, &v, NULL, err,
                                   sizeof err), 0);
    assert_int_equal(v, TACTIC_RIGHT);
}

static void test_stored_set(void **state)
{
    (void)state;
    for (int gi = 0; game_list[gi]; gi++) {
        const struct game *g = game_list[gi];
        char path[4096], err[1024];
        struct tactic *set;
        int n, seen[TACTIC_KINDS] = {0};
        snprintf(path, sizeof path, "%s/%s.txt", RULELAB_TACTICS_DIR,
                 g->name);
        if (tactics_load(path, g, &set, &n, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_true(n > 0);
        for (int i = 0; i < n; i++)
            if (seen[set[i].kind]++ < SAMPLE)
                reverify(g, &set[i]);
        free(set);
    }
}

/* A bad line is an error naming the file and line, never skipped. */
static void test_bad_set_line(void **state)
{
    (void)state;
    char path[] = "/tmp/test_tactics_XXXXXX", err[1024];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    struct tactic t = make("tafl", "9/7a1/6a2/9/2k6/9/9/9/9 d", TACTIC_WIN3);
    snprintf(t.moves, sizeof t.moves, "c5c1");
    snprintf(t.source, sizeof t.source, "hand");
    snprintf(t.proved, sizeof t.proved, "hand");
    t.legal = 0;
    fprintf(f, "# comment\n");
    tactics_write_line(f, &t, 0);
    fclose(f);
    struct tactic *set;
    int n;
    /* legal 0 is not the position's count */
    assert_int_equal(tactics_load(path, &tafl_game, &set, &n, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "line 2"));
    /* the right count loads */
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    assert_int_equal(tactics_setup(&t, st, err, sizeof err), 0);
    t.legal = tafl_game.legal_moves(st, moves);
    f = fopen(path, "w");
    tactics_write_line(f, &t, 0);
    fclose(f);
    assert_int_equal(tactics_load(path, &tafl_game, &set, &n, err, sizeof err),
                     0);
    assert_int_equal(n, 1);
    assert_string_equal(set[0].moves, "c5c1");
    free(set);
    /* another game's file */
    assert_int_equal(tactics_load(path, &jetan_game, &set, &n, err,
                                  sizeof err), -1);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tafl_win_in_one_is_not_win3),
        cmocka_unit_test(test_tafl_win3_fork),
        cmocka_unit_test(test_tafl_must_defend),
        cmocka_unit_test(test_serbest_must_defend),
        cmocka_unit_test(test_check_immediate_win),
        cmocka_unit_test(test_check_budget_unknown),
        cmocka_unit_test(test_bad_set_line),
        cmocka_unit_test(test_stored_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
