/*
 * test_tune.c -- `rulelab tune`'s parts (experiments/analysis/tune.h): the fit
 * recovers weights from data simulated with a known logistic model, the
 * log-loss against a hand computation, the L2 pull and the features that
 * carry no information, the held-out split by game, the positions and
 * labels sampled from a hand-made database, and eval_features against
 * eval_score on random positions of each game.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "db_helpers.h"
#include "random_positions.h"
#include "rng.h"
#include "store.h"
#include "sweep.h"
#include "tune.h"

static const struct tune_fit_options plain = {TUNE_SCALE, 0, 100, 1e-14};

/* A standard normal draw (Box-Muller). */
static double normal(struct rng *r)
{
    double u = rng_double(r), v = rng_double(r);
    return sqrt(-2 * log(1 - u)) * cos(6.283185307179586 * v);
}

/* Data from a known model: n positions of 4 independent features, each
 * normal with mean 0 and standard deviation sd[i], a result 1 with
 * probability sigma(w . x / 200), else 0; the fit from other weights must
 * land near w.
 *
 * The tolerance. The maximum-likelihood estimate is asymptotically normal
 * with covariance I^-1 / n, I = E[p (1 - p) x x^T] / s^2 (s = 200). With
 * the features independent and of mean 0, I is about diagonal, I_ii =
 * E[p (1 - p)] sd_i^2 / s^2. p (1 - p) = sigma'(z) = sech^2(z / 2) / 4 >=
 * (1 - z^2 / 4) / 4 (sech^2 u = 1 - tanh^2 u and tanh^2 u <= u^2), so
 * E[p (1 - p)] >= 1/4 - var(z) / 16. Here var(z) = sum w_i^2 sd_i^2 / s^2
 * = (1.2^2 * 100^2 + 0.5^2 * 100^2 + 0.8^2 * 100^2 + 30^2 * 1^2) / 200^2
 * = 0.607, so E[p (1 - p)] >= 0.212 and the standard error of w_i is at
 * most s / (sd_i sqrt(0.212 n)): with n = 40000, 0.0217 for the features
 * of sd 100 and 2.17 for the one of sd 1. Four standard errors (a miss
 * has probability below 1e-4 per weight; the seed is fixed, so the test
 * is deterministic either way). */
static void test_fit_recovers_known_weights(void **state)
{
    (void)state;
    enum { N = 40000, NF = 4 };
    static const double truth[NF] = {1.2, 0.5, -0.8, 30};
    static const double sd[NF] = {100, 100, 100, 1};
    double *x = malloc(sizeof(double) * N * NF), *y = malloc(sizeof(double) * N);
    assert_non_null(x);
    assert_non_null(y);
    struct rng r;
    rng_seed(&r, 42);
    for (int j = 0; j < N; j++) {
        double z = 0;
        for (int i = 0; i < NF; i++) {
            x[j * NF + i] = sd[i] * normal(&r);
            z += truth[i] * x[j * NF + i];
        }
        y[j] = rng_double(&r) < 1 / (1 + exp(-z / TUNE_SCALE)) ? 1 : 0;
    }
    static const double start[NF] = {0, 0, 0, 0};
    struct tune_fit_result fr;
    assert_int_equal(tune_fit(x, y, N, NF, start, &plain, &fr), 0);
    assert_true(fr.converged);
    for (int i = 0; i < NF; i++) {
        double se = TUNE_SCALE / (sd[i] * sqrt(0.212 * N));
        if (fabs(fr.w[i] - truth[i]) > 4 * se)
            fail_msg("weight %d: fitted %g, true %g, 4 se = %g", i, fr.w[i],
                     truth[i], 4 * se);
        assert_int_equal(fr.fixed[i], 0);
    }
    /* the fit's loss is no worse than the truth's on its own data */
    assert_true(tune_log_loss(x, y, N, NF, fr.w, TUNE_SCALE)
                <= tune_log_loss(x, y, N, NF, truth, TUNE_SCALE) + 1e-12);
    free(x);
    free(y);
}

/* Two positions by hand: w . x = 0 predicts 1/2, so a draw (1/2) costs
 * ln 2; w . x = 200 ln 3 predicts 3/4, so a win costs -ln(3/4). The mean
 * is (ln 2 + ln(4/3)) / 2 = ln(8/3) / 2 = 0.490415. */
static void test_log_loss_by_hand(void **state)
{
    (void)state;
    double x[2] = {0, TUNE_SCALE * log(3)}, y[2] = {0.5, 1}, w = 1;
    assert_float_equal(tune_log_loss(x, y, 2, 1, &w, TUNE_SCALE),
                       log(8.0 / 3) / 2, 1e-12);
    assert_true(isnan(tune_log_loss(x, y, 0, 1, &w, TUNE_SCALE)));
}

/* The pull toward the prior: a huge l2 leaves the fitted weights at the
 * prior; a feature that is 0 in every position keeps its prior weight and
 * is reported fixed, whatever l2 is, while the others move. */
static void test_l2_and_fixed_features(void **state)
{
    (void)state;
    enum { N = 400 };
    double x[N * 2], y[N];
    struct rng r;
    rng_seed(&r, 7);
    for (int j = 0; j < N; j++) {
        x[j * 2] = 100 * normal(&r);
        x[j * 2 + 1] = 0;
        y[j] = x[j * 2] > 0 ? 1 : rng_double(&r) < 0.3;
    }
    double prior[2] = {0.25, 17};
    struct tune_fit_options strong = {TUNE_SCALE, 1e9, 100, 1e-14};
    struct tune_fit_result fr;
    assert_int_equal(tune_fit(x, y, N, 2, prior, &strong, &fr), 0);
    assert_float_equal(fr.w[0], prior[0], 1e-6);
    assert_float_equal(fr.w[1], prior[1], 0);
    assert_int_equal(fr.fixed[1], 1);
    assert_int_equal(tune_fit(x, y, N, 2, prior, &plain, &fr), 0);
    assert_true(fr.converged);
    assert_true(fr.w[0] > 1); /* the positive feature wins most games */
    assert_float_equal(fr.w[1], prior[1], 0);
    assert_int_equal(fr.fixed[0], 0);
    assert_int_equal(fr.fixed[1], 1);
    /* two copies of one feature and no pull: no unique maximum; the fit
     * says so and leaves the prior */
    for (int j = 0; j < N; j++)
        x[j * 2 + 1] = x[j * 2];
    assert_int_equal(tune_fit(x, y, N, 2, prior, &plain, &fr), -1);
    assert_float_equal(fr.w[0], prior[0], 0);
    assert_float_equal(fr.w[1], prior[1], 0);
}

/* The split: a hash of the seed and the game id; over 2000 ids, a share
 * of 0.3 holds out 600 +- 5 sd (sd = sqrt(2000 * 0.3 * 0.7) = 20.5), and
 * another seed holds out other games. */
static void test_split_share(void **state)
{
    (void)state;
    int held = 0, differ = 0;
    for (int64_t id = 1; id <= 2000; id++) {
        held += tune_is_held_out(5, id, 0.3);
        differ += tune_is_held_out(5, id, 0.3) != tune_is_held_out(6, id, 0.3);
        assert_int_equal(tune_is_held_out(5, id, 0), 0);
    }
    assert_true(held > 600 - 103 && held < 600 + 103);
    assert_true(differ > 0);
}

/* ---- a hand-made database --------------------------------------------- */

/* tafl's start (docs/rules.md#hnefatafl-9x9-tafl): attackers a4-a6 b5,
 * i4-i6 h5, d1-f1 e2, d9-f9 e8; defenders c5 d5 f5 g5 e3 e4 e6 e7; the
 * king e5; attackers first. */

/* A position of game C: the king on a3 with the a-file open to both
 * corners (a1 and a9), one defender on e6, attackers on g9 and h9;
 * defenders to move. */
#define KING_ON_A3 "6aa1/9/9/4d4/9/9/k8/9/9 d"

/* Writes three games into a new database at path, through the store:
 *  A (no opening): d1c1 g5g7 c1b1 g7g8, won by seat 0 (the attackers);
 *  B (opening d1c1, so the defenders move first and are seat 0): g5g7
 *    c1b1 g7g8, won by seat 1 (the attackers);
 *  C (from KING_ON_A3; the defenders are seat 0): e6e7 h9h8 a3a1, the
 *    king's escape, won by seat 0. */
static void make_db(const char *path)
{
    char err[2048];
    struct sweep s;
    if (sweep_parse("t.ini", "[sweep]\nname = t\ngames = 3\n[game tafl]\n"
                    "openings = random_plies:1\n[agents]\na = random\nb = "
                    "mcts(iterations=10)\n[matchups]\npairs = a vs b\norders = "
                    "given\n", &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct store *st;
    int64_t id;
    if (store_open(path, 0, &st, err, sizeof err) != 0
        || store_begin_run(st, &s, 1, &id, err, sizeof err) != 0)
        fail_msg("%s", err);
    static const char *const opening[3] = {"", "d1c1", ""};
    static const char *const position[3] = {"", "", KING_ON_A3};
    static const char *const moves[3] = {"d1c1 g5g7 c1b1 g7g8",
                                         "g5g7 c1b1 g7g8", "e6e7 h9h8 a3a1"};
    static const enum game_outcome result[3] = {GAME_WIN_SEAT0,
                                                GAME_WIN_SEAT1, GAME_WIN_SEAT0};
    for (int i = 0; i < 3; i++) {
        struct game_record g = {id, i, 1, {"attackers", "defenders"},
                                result[i], REASON_KING_ESCAPED, 4, 1.0,
                                moves[i], strlen(moves[i]), NULL};
        struct game_opening o = {opening[i], position[i], 0};
        if (store_insert_opened_game(st, &g, &o, err, sizeof err) != 0)
            fail_msg("%s", err);
    }
    if (store_commit(st, err, sizeof err) != 0)
        fail_msg("%s", err);
    store_end_run(st, "complete");
    store_close(st);
    sweep_free(&s);
}

/* The positions of the three games, derived by hand (games.id 1, 2, 3 in
 * insertion order):
 *  A, skip 2: agent plies 2 (attackers to move: seat 0, who won: 1), 3
 *    (defenders: 0), 4 (attackers, the moves ran out: 1).
 *  B, skip 2: agent plies 2 (defenders to move, seat 0, lost: 0), 3
 *    (attackers, seat 1, won: 1).
 *  C, skip 0: ply 0 (defenders, king a3-a1 wins at once: skipped), ply 1
 *    (attackers, no win in one with two attackers far off: seat 1, lost:
 *    0), ply 2 (defenders, the win again: skipped), ply 3 over.
 * So with skip 2: A2 A3 A4 B2 B3 (C has no ply 2 or later that counts);
 * with skip 0 also A0 A1 B0 B1 C1. */
static void test_sample_hand_made_db(void **state)
{
    (void)state;
    char path[128], err[2048];
    db_temp_path(path, sizeof path);
    make_db(path);
    struct store *st;
    if (store_open(path, 1, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    char (*variants)[VARIANT_TEXT_MAX];
    int nv;
    assert_int_equal(tune_variants(store_db(st), "jetan", NULL, &variants, &nv,
                                   err, sizeof err), 0);
    assert_int_equal(nv, 0);
    free(variants);
    assert_int_equal(tune_variants(store_db(st), "tafl", NULL, &variants, &nv,
                                   err, sizeof err), 0);
    assert_int_equal(nv, 1);
    struct tune_options o = {NULL, 2, 1000, 0, 1, plain};
    struct tune_sample s;
    if (tune_sample_variant(store_db(st), variants[0], &o, &s, err, sizeof err))
        fail_msg("%s", err);
    static const int64_t id2[] = {1, 1, 1, 2, 2};
    static const int ply2[] = {2, 3, 4, 2, 3};
    static const double label2[] = {1, 0, 1, 0, 1};
    assert_int_equal(s.n, 5);
    assert_int_equal(s.games, 3);
    assert_int_equal(s.eligible, 5);
    for (int j = 0; j < 5; j++) {
        assert_int_equal(s.p[j].game_id, id2[j]);
        assert_int_equal(s.p[j].ply, ply2[j]);
        assert_float_equal(s.p[j].label, label2[j], 0);
    }
    tune_sample_free(&s);
    o.skip_plies = 0;
    assert_int_equal(tune_sample_variant(store_db(st), variants[0], &o, &s,
                                         err, sizeof err), 0);
    static const int64_t id0[] = {1, 1, 1, 1, 1, 2, 2, 2, 2, 3};
    static const int ply0[] = {0, 1, 2, 3, 4, 0, 1, 2, 3, 1};
    static const double label0[] = {1, 0, 1, 0, 1, 0, 1, 0, 1, 0};
    assert_int_equal(s.n, 10);
    for (int j = 0; j < 10; j++) {
        assert_int_equal(s.p[j].game_id, id0[j]);
        assert_int_equal(s.p[j].ply, ply0[j]);
        assert_float_equal(s.p[j].label, label0[j], 0);
    }
    tune_sample_free(&s);
    /* at most 3 of the 10, drawn from them: distinct, ordered */
    o.max_positions = 3;
    assert_int_equal(tune_sample_variant(store_db(st), variants[0], &o, &s,
                                         err, sizeof err), 0);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.eligible, 10);
    for (int j = 1; j < 3; j++)
        assert_true(s.p[j - 1].game_id < s.p[j].game_id
                    || (s.p[j - 1].game_id == s.p[j].game_id
                        && s.p[j - 1].ply < s.p[j].ply));
    tune_sample_free(&s);
    /* too few positions to fit; no games of a variant not stored */
    struct tune_result tr;
    o.max_positions = 1000;
    assert_int_equal(tune_variant(store_db(st), variants[0], &o, &tr, err,
                                  sizeof err), -1);
    assert_non_null(strstr(err, "too few positions"));
    assert_int_equal(tune_variant(store_db(st), "tafl(first=defenders)", &o,
                                  &tr, err, sizeof err), -1);
    assert_non_null(strstr(err, "no stored games"));
    free(variants);
    store_close(st);
    db_remove(path);
}

/* The held-out set is by game: on the hand-made database, with shares
 * from 0.1 to 0.9, every position is held out exactly when its game is
 * (tune_is_held_out of its id), so no game has positions in both sets. */
static void test_split_by_game(void **state)
{
    (void)state;
    char path[128], err[2048];
    db_temp_path(path, sizeof path);
    make_db(path);
    struct store *st;
    if (store_open(path, 1, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    for (int k = 1; k <= 9; k++) {
        struct tune_options o = {NULL, 0, 1000, k / 10.0, (uint64_t)k, plain};
        struct tune_sample s;
        char (*v)[VARIANT_TEXT_MAX];
        int nv;
        assert_int_equal(tune_variants(store_db(st), "tafl", NULL, &v, &nv,
                                       err, sizeof err), 0);
        assert_int_equal(tune_sample_variant(store_db(st), v[0], &o, &s, err,
                                             sizeof err), 0);
        assert_int_equal(s.n, 10);
        long held_games = 0;
        for (int64_t id = 1; id <= 3; id++)
            held_games += tune_is_held_out(o.seed, id, o.holdout);
        assert_int_equal(s.games_held_out, held_games);
        for (int j = 0; j < s.n; j++) {
            assert_int_equal(s.p[j].held_out,
                             tune_is_held_out(o.seed, s.p[j].game_id,
                                              o.holdout));
            for (int i = 0; i < j; i++)
                if (s.p[i].game_id == s.p[j].game_id)
                    assert_int_equal(s.p[i].held_out, s.p[j].held_out);
        }
        tune_sample_free(&s);
        free(v);
    }
    store_close(st);
    db_remove(path);
}

/* eval_score is the dot product of eval_features with the weights: on 200
 * seeded random positions of each game, with the hand-set weights and
 * with random ones. */
static void test_features_dot_weights(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 99);
    for (int game = 0; game < 3; game++) {
        for (int k = 0; k < 200; k++) {
            struct variant v;
            _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
            random_position(game, &r, &v, st);
            const struct game_eval *e = eval_of(v.game);
            assert_non_null(e);
            double f[EVAL_MAX_FEATURES], w[EVAL_MAX_FEATURES];
            eval_features(e, st, f);
            for (int pass = 0; pass < 2; pass++) {
                double dot = 0, size = 0;
                for (int i = 0; i < e->n_features; i++) {
                    w[i] = pass ? 200 * rng_double(&r) - 100
                                : e->weights[i].def;
                    dot += w[i] * f[i];
                    size += fabs(w[i] * f[i]);
                }
                assert_float_equal(eval_score(e, w, st), dot,
                                   1e-12 * (1 + size));
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_recovers_known_weights),
        cmocka_unit_test(test_log_loss_by_hand),
        cmocka_unit_test(test_l2_and_fixed_features),
        cmocka_unit_test(test_split_share),
        cmocka_unit_test(test_sample_hand_made_db),
        cmocka_unit_test(test_split_by_game),
        cmocka_unit_test(test_features_dot_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
