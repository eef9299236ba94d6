/*
 * test_solver.c -- the depth-bounded df-pn solver (agents/solve/solver.h),
 * written against its header alone and checked against tests/ref/minimax.c,
 * a plain exhaustive search that shares nothing with it.
 *
 * Known positions of every game: wins in 1, 3 and 5 plies are found, with
 * a winning first move and a winning line, and their proofs verify (both
 * with proof_verify and with an independent check of the strategy tree
 * here); positions with no win within the bound (losses, draws by the
 * rules, counters running out) are not wins; a win whose only first move
 * is quiet is found; a budget too small gives SOLVER_UNKNOWN; and on
 * hundreds of random small positions the solver agrees with minimax at
 * 1, 2 and 3 plies (5 in tafl and Serbest). Tampered and malformed
 * proof files are test_proof_files.c's; the helpers both use are in
 * solver_helpers.h.
 *
 * Every position's answer below was confirmed with the reference minimax
 * before it was written down, and the tests confirm it again with minimax
 * before blaming the solver.
 */
#include "minimax.h"
#include "rng.h"
#include "random_positions.h"
#include "solver_helpers.h"

/* The reference: whether the move m, legal at st, wins for the side to
 * move there within `plies` plies (m itself counted): the game is won at
 * once, or after every reply minimax finds a win in plies - 2. */
static int wins_with(const struct game *g, const void *st, move_t m, int plies)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char reply[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    int attacker = g->to_move(st);
    memcpy(child, st, g->state_size);
    g->apply(child, m);
    struct game_status s = g->status(child);
    if (s.outcome != GAME_ONGOING)
        return s.outcome == win_of(attacker);
    if (plies < 3)
        return 0;
    int n = g->legal_moves(child, moves);
    for (int i = 0; i < n; i++) {
        memcpy(reply, child, g->state_size);
        g->apply(reply, moves[i]);
        if (!minimax_forced_win(g, reply, plies - 2))
            return 0;
    }
    return n > 0;
}

static struct solver_result solve(const struct game *g, const void *st,
                                  int plies, uint64_t max_nodes,
                                  const char *what)
{
    struct solver_options o = {.plies = plies,
                               .max_nodes = max_nodes,
                               .max_mb = TT_MB};
    struct solver_result r;
    char err[512];
    memset(&r, 0, sizeof r);
    if (solver_solve(g, st, &o, &r, err, sizeof err) != 0)
        fail_msg("%s, %d plies: solver_solve failed: %s", what, plies, err);
    return r;
}

/* Checks the line a SOLVER_WIN reports: legal moves from st, the game
 * going on until its last move, which wins for the attacker, within the
 * bound; and at least min_len plies long (the defender's longest
 * resistance cannot end before the shortest forced win). */
static void check_pv(const struct game *g, const void *st,
                     const struct solver_result *r, int plies, int min_len,
                     const char *what)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char cur[GAME_MAX_STATE_SIZE];
    char text[64];
    int attacker = g->to_move(st);
    if (r->pv_len < 1 || r->pv_len > plies)
        fail_msg("%s, %d plies: pv_len %d", what, plies, r->pv_len);
    memcpy(cur, st, g->state_size);
    for (int i = 0; i < r->pv_len; i++) {
        if (g->status(cur).outcome != GAME_ONGOING)
            fail_msg("%s: the pv goes on after the game ended (ply %d)", what,
                     i + 1);
        if (!is_legal(g, cur, r->pv[i]))
            fail_msg("%s: pv move %d (%s) is illegal", what, i + 1,
                     move_text(g, cur, r->pv[i], text, sizeof text));
        g->apply(cur, r->pv[i]);
    }
    if (g->status(cur).outcome != win_of(attacker))
        fail_msg("%s, %d plies: the pv (%d plies) does not end in the "
                 "attacker's win", what, plies, r->pv_len);
    if (r->pv_len < min_len)
        fail_msg("%s, %d plies: the pv lasts %d plies, but no win is shorter "
                 "than %d, so the defender's longest resistance lasts that long",
                 what, plies, r->pv_len, min_len);
}

/* ---- the known positions ---------------------------------------------- */

/* The side to move wins in exactly `plies` plies: a win within that bound
 * and (for 3 and 5) none within plies - 2. */
static const struct position wins[] = {
    /* tafl, 1: the king on b1 steps into the corner a1 */
    {"tafl", "9/9/9/a8/a8/9/9/9/1k5a1 d", 1},
    /* tafl, 3: the king on e2 reaches the first rank (e1, a2 or i2) with
     * two corners to run to; the attackers on a6 and i6 can block only one
     * of them, and no single move closes both (test_agents' position) */
    {"tafl", "4a4/9/9/a7a/9/9/9/4k4/9 d", 3},
    /* the same with 97 plies already without a capture: the escape on the
     * third ply is also the 100th, and a win on the ply that reaches the
     * no-capture limit counts */
    {"tafl", "4a4/9/9/a7a/9/9/9/4k4/9 d 97", 3},
    /* tafl, 5, for the attackers: the king on i7 stands on the edge under
     * i8. g7h7 boxes it (i8, h7, edge) and threatens f6i6 capturing it;
     * the defender on i3 cannot get past i5, so the king must step to i6;
     * f6h6 boxes it again (i5, h6, edge), and whether it steps back to i7
     * (h6i6) or stays (i8i7) the fourth side is closed. No attacker move
     * captures sooner: the king has two free sides to start with. */
    {"tafl", "9/8a/6a1k/a4a3/8a/3a5/8d/9/9 a", 5},
    /* serbest, 1: Khan, the king on e9 steps onto rank 10 */
    {"serbest", "10/4K5/10/10/10/10/10/10/k9/10[] w", 1},
    /* serbest, 1, by a drop: R@a10 (any of a10-h10) checks the king on
     * j10 along rank 10; i9 and j9 are the white king's (i8), so it is
     * mate. (R@i9 stalemates it, a loss for black by default.) */
    {"serbest", "9k/10/8K1/10/10/10/10/10/10/10[R] w", 1},
    /* serbest, 3: the king on e8 steps to rank 9 and then onto one of
     * three squares of rank 10; the bare black king on j8 cannot cover
     * them (test_agents' position) */
    {"serbest", "10/10/4K4k/10/10/10/10/10/10/10[] w", 3},
    /* serbest, 5: the same race from e7, three king moves to rank 10; the
     * black king starts five files away and can never cover all of the
     * three squares in front of the white king, nor come next to it */
    {"serbest", "10/10/10/4K4k/10/10/10/10/10/10[] w", 5},
    /* jetan, 1: the Orange Flier on c4 jumps d3 and e2 onto the Princess
     * on f1 (test_agents' position) */
    {"jetan", "4pc4/10/10/10/10/10/2f7/3N6/4N5/4CP4 o -", 1},
    /* jetan, 3: the Chief on f6 steps into g7-i9 and then reaches j10 and
     * every square the cornered Princess can move to (escapes used); the
     * Orange Chief on a10 is too far from the Princess on a1 to help
     * (test_agents' position) */
    {"jetan", "c8p/10/10/10/5C4/10/10/10/10/P9 b -", 3},
    /* the same with 3 plies left on the endgame countdown (both sides
     * have at most three pieces): the capture on its last ply still wins */
    {"jetan", "c8p/10/10/10/5C4/10/10/10/10/P9 b - 3", 3},
    /* jetan, 5: the same hunt with the Black Chief on c3, one move further
     * away: c3e4 (or e4-f6) brings it near the corner without letting the
     * Princess out of reach; she moves three squares at most, and the
     * Orange Chief on a10 needs three moves to take the Princess on a1
     * and is taken by the Black Chief if it comes near */
    {"jetan", "c8p/10/10/10/10/10/10/2C7/10/P9 b -", 5},
};

/* No win for the side to move within `plies` plies. */
static const struct position no_wins[] = {
    /* the position of the tafl win in 3 after the king's first move: the
     * attackers to move cannot stop both corners, let alone win */
    {"tafl", "4a4/9/9/a7a/9/9/9/9/4k4 a", 3},
    {"tafl", "4a4/9/9/a7a/9/9/9/9/4k4 a", 5},
    /* the tafl win in 3 with 98 plies without a capture: the attackers'
     * reply (no capture is possible) is the 100th and draws first */
    {"tafl", "4a4/9/9/a7a/9/9/9/4k4/9 d 98", 3},
    /* the tafl win in 5 at 3 plies: the king has two free sides and
     * one move cannot close both */
    {"tafl", "9/8a/6a1k/a4a3/8a/3a5/8d/9/9 a", 3},
    /* the Serbest race with a rook in black's hand: after the king reaches
     * rank 9 black drops the rook on rank 10 (or checks), and the king
     * never gets there in time */
    {"serbest", "10/10/4K4k/10/10/10/10/10/10/10[r] w", 3},
    {"serbest", "10/10/4K4k/10/10/10/10/10/10/10[r] w", 5},
    /* stalemate as a draw: h2b8 takes a9, b9 and b10 from the king on
     * a10 without check, a stalemate, which wins under the default rule
     * (stalemate=loss, see below) but only draws here; the white king on
     * e1 is too far to help a mate within three plies */
    {"serbest(stalemate=draw)", "k9/10/10/10/10/10/10/10/7Q2/4K5[] w", 1},
    {"serbest(stalemate=draw)", "k9/10/10/10/10/10/10/10/7Q2/4K5[] w", 3},
    /* the Serbest win in 5 at 3 plies: the king needs three moves */
    {"serbest", "10/10/10/4K4k/10/10/10/10/10/10[] w", 3},
    /* jetan: the Black Warrior on a1 can take the Orange Chief on c1, but
     * a Chief taken by another piece is a draw, and nothing of Black's
     * gets near the Princess on j10 */
    {"jetan", "P8p/10/10/10/10/10/10/10/10/W1c6C b -", 1},
    {"jetan", "P8p/10/10/10/10/10/10/10/10/W1c6C b -", 3},
    /* the jetan win in 3 with only 2 plies left on the countdown: drawn
     * before the capture */
    {"jetan", "c8p/10/10/10/5C4/10/10/10/10/P9 b - 2", 3},
    /* the jetan win in 3 after f6h8, Orange to move: its Chief on a10 is
     * nowhere near the Princess on a1 (test_agents' lost position) */
    {"jetan", "c8p/10/7C2/10/10/10/10/10/10/P9 o -", 3},
    /* the jetan win in 5 at 3 plies: the Chief needs two moves to get
     * within reach */
    {"jetan", "c8p/10/10/10/10/10/10/2C7/10/P9 b -", 3},
};

/* The same position wins under the default Serbest rule, where the
 * stalemated side loses: h2b8 is a win in one (and a quiet move). */
static const struct position stalemate_wins = {
    "serbest", "k9/10/10/10/10/10/10/10/7Q2/4K5[] w", 1};

static void check_win(const struct position *p)
{
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char after[GAME_MAX_STATE_SIZE];
    char what[600], text[64];
    setup(p, &v, st);
    const struct game *g = v.game;
    snprintf(what, sizeof what, "%s %s", p->variant, p->text);
    /* the reference agrees that this is a win in exactly p->plies */
    if (!minimax_forced_win(g, st, p->plies))
        fail_msg("%s: minimax finds no win in %d", what, p->plies);
    if (p->plies > 2 && minimax_forced_win(g, st, p->plies - 2))
        fail_msg("%s: minimax finds a win in %d", what, p->plies - 2);

    struct solver_result r = solve(g, st, p->plies, BIG_BUDGET, what);
    if (r.answer != SOLVER_WIN)
        fail_msg("%s, %d plies: %s", what, p->plies,
                 solver_answer_name(r.answer));
    assert_true(is_legal(g, st, r.pv[0]));
    if (p->plies == 1) {
        memcpy(after, st, g->state_size);
        g->apply(after, r.pv[0]);
        if (g->status(after).outcome != win_of(g->to_move(st)))
            fail_msg("%s: %s does not win", what,
                     move_text(g, st, r.pv[0], text, sizeof text));
    } else if (!wins_with(g, st, r.pv[0], p->plies)) {
        fail_msg("%s: the first move %s does not win in %d by minimax", what,
                 move_text(g, st, r.pv[0], text, sizeof text), p->plies);
    }
    check_pv(g, st, &r, p->plies, p->plies, what);
    check_proof(&v, st, p->plies, what, NULL);

    /* and one bound shorter is not enough */
    if (p->plies > 2) {
        r = solve(g, st, p->plies - 2, BIG_BUDGET, what);
        if (r.answer != SOLVER_NO_WIN)
            fail_msg("%s, %d plies: %s, expected no win", what, p->plies - 2,
                     solver_answer_name(r.answer));
    }
}

static void test_wins(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(wins); i++)
        check_win(&wins[i]);
    check_win(&stalemate_wins);
}

static void test_no_wins(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(no_wins); i++) {
        const struct position *p = &no_wins[i];
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        char what[600], err[512];
        setup(p, &v, st);
        snprintf(what, sizeof what, "%s %s", p->variant, p->text);
        if (minimax_forced_win(v.game, st, p->plies))
            fail_msg("%s: minimax finds a win in %d", what, p->plies);
        struct solver_result r = solve(v.game, st, p->plies, BIG_BUDGET, what);
        if (r.answer != SOLVER_NO_WIN)
            fail_msg("%s, %d plies: %s, expected no win", what, p->plies,
                     solver_answer_name(r.answer));
        /* and no proof is written */
        struct solver_options o = {.plies = p->plies,
                                   .max_nodes = BIG_BUDGET,
                                   .max_mb = TT_MB};
        FILE *f = tmpfile();
        assert_non_null(f);
        if (solver_write_proof(&v, st, &o, f, &r, err, sizeof err) != 0)
            fail_msg("%s: %s", what, err);
        assert_int_equal(r.answer, SOLVER_NO_WIN);
        fflush(f);
        assert_int_equal(ftell(f), 0);
        fclose(f);
    }
}

/* ---- a quiet first move ----------------------------------------------- */

/* Positions whose only win within 5 plies starts with a quiet move: no
 * capture, no check or immediate threat -- were the mover to move again
 * at once, it would have no win in one. */
static const struct position quiet[] = {
    /* tafl, defenders: the king on f1 is shut in by its own man on g1 and
     * the attacker on e1. Stepping g1 up at once (g1g2) is met by h3h1,
     * closing the way to i1. The only win is c2h2, which moves neither
     * the king nor g1 and threatens nothing yet: it puts a defender
     * between the h3 attacker and h1. Then g1g2 opens g1-h1 and no
     * attacker can reach either square (the h-file is blocked at h2, the
     * g-file at g2, e1 is on the king's other side), so f1i1 follows. */
    {"tafl", "3a5/7a1/9/9/9/9/a6a1/2d6/4akd2 d", 5},
    /* serbest: white K c2, Q i4, R a6; black K b7, empty hands. The only
     * win is Qi4-c4: no check (c4 does not see b7), no capture, and no
     * mate in one if white moved again. It takes the c-file and guards
     * the rook on a6, so with the rook holding rank 6 and the a-file the
     * king's only square is b8; then Rb6+ drives it to a7, a8 or a9 and
     * the queen mates on c6, c7 or c8. Every other first move, the
     * checks Qb4+, Qi7+ and Ra7+ included, leaves the king a way out that
     * lasts past the fifth ply (minimax, below). */
    {"serbest", "10/10/10/1k8/R9/10/8Q1/10/2K7/10[] w", 5},
};

/* Sets `out` to st with the other side to move (through the position
 * text); 0, or -1 if that position is not legal (e.g. a side not to move
 * in check). */
static int pass_turn(const struct variant *v, const void *st, void *out)
{
    const struct game *g = v->game;
    char text[1024], err[256];
    assert_true(g->to_text(st, text, sizeof text) > 0);
    char *side = strchr(text, ' ');
    assert_non_null(side);
    side++;
    static const char pairs[][3] = {"ad", "da", "bo", "ob", "wb", "bw"};
    int serbest = strcmp(g->name, "serbest") == 0;
    char to = 0;
    for (size_t i = 0; i < COUNT(pairs); i++)
        if (pairs[i][0] == *side && (serbest == (i >= 4)))
            to = pairs[i][1];
    assert_true(to != 0);
    *side = to;
    return g->from_text(out, v, text, err, sizeof err);
}

static int piece_count(const struct game *g, const void *st)
{
    int n = 0;
    for (int f = 0; f < g->board_files; f++)
        for (int rk = 0; rk < g->board_ranks; rk++)
            n += g->piece_at(st, f, rk) != '.';
    return n;
}

static void test_quiet_first_move(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(quiet); i++) {
        const struct position *p = &quiet[i];
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        _Alignas(GAME_STATE_ALIGN) unsigned char after[GAME_MAX_STATE_SIZE];
        _Alignas(GAME_STATE_ALIGN) unsigned char passed[GAME_MAX_STATE_SIZE];
        move_t moves[GAME_MAX_MOVES], only = 0;
        char what[600], text[64], text2[64];
        setup(p, &v, st);
        const struct game *g = v.game;
        snprintf(what, sizeof what, "%s %s", p->variant, p->text);

        /* the reference: exactly one first move wins, none in 3 plies,
         * and that move is quiet */
        assert_false(minimax_forced_win(g, st, 3));
        int n = g->legal_moves(st, moves), winners = 0;
        for (int k = 0; k < n; k++)
            if (wins_with(g, st, moves[k], p->plies)) {
                winners++;
                only = moves[k];
            }
        if (winners != 1)
            fail_msg("%s: %d winning first moves", what, winners);
        memcpy(after, st, g->state_size);
        g->apply(after, only);
        assert_int_equal(g->status(after).outcome, GAME_ONGOING);
        assert_int_equal(piece_count(g, after), piece_count(g, st));
        if (pass_turn(&v, after, passed) != 0)
            fail_msg("%s: %s gives check", what,
                     move_text(g, st, only, text, sizeof text));
        if (minimax_forced_win(g, passed, 1))
            fail_msg("%s: %s threatens a win in one", what,
                     move_text(g, st, only, text, sizeof text));

        /* the solver finds it */
        struct solver_result r = solve(g, st, p->plies, BIG_BUDGET, what);
        if (r.answer != SOLVER_WIN)
            fail_msg("%s: %s", what, solver_answer_name(r.answer));
        if (r.pv[0] != only)
            fail_msg("%s: pv starts with %s, the only win is %s", what,
                     move_text(g, st, r.pv[0], text, sizeof text),
                     move_text(g, st, only, text2, sizeof text2));
        check_pv(g, st, &r, p->plies, p->plies, what);
        check_proof(&v, st, p->plies, what, NULL);
    }
}

/* ---- budget and options ----------------------------------------------- */

static void test_small_budget(void **state)
{
    (void)state;
    /* the wins in 5: no proof fits in a handful of expansions */
    static const struct position deep[] = {
        {"tafl", "9/8a/6a1k/a4a3/8a/3a5/8d/9/9 a", 5},
        {"serbest", "10/10/10/4K4k/10/10/10/10/10/10[] w", 5},
        {"jetan", "c8p/10/10/10/10/10/10/2C7/10/P9 b -", 5},
    };
    for (size_t i = 0; i < COUNT(deep); i++) {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        char err[512];
        setup(&deep[i], &v, st);
        for (uint64_t budget = 1; budget <= 3; budget++) {
            struct solver_result r = solve(v.game, st, 5, budget, deep[i].text);
            if (r.answer != SOLVER_UNKNOWN)
                fail_msg("%s, %llu nodes: %s", deep[i].text,
                         (unsigned long long)budget,
                         solver_answer_name(r.answer));
        }
        /* nothing is written for an unknown answer */
        struct solver_options o = {.plies = 5, .max_nodes = 1, .max_mb = TT_MB};
        struct solver_result r;
        FILE *f = tmpfile();
        assert_non_null(f);
        assert_int_equal(solver_write_proof(&v, st, &o, f, &r, err, sizeof err), 0);
        assert_int_equal(r.answer, SOLVER_UNKNOWN);
        fflush(f);
        assert_int_equal(ftell(f), 0);
        fclose(f);
    }
}

static void test_bad_options(void **state)
{
    (void)state;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    struct solver_result r;
    char err[512];
    setup(&wins[0], &v, st);
    int bad[] = {0, -1, SOLVER_MAX_PLIES + 1};
    for (size_t i = 0; i < COUNT(bad); i++) {
        struct solver_options o = {.plies = bad[i],
                                   .max_nodes = 1000,
                                   .max_mb = TT_MB};
        err[0] = '\0';
        assert_int_equal(solver_solve(v.game, st, &o, &r, err, sizeof err), -1);
        assert_true(err[0] != '\0');
    }
    const char *names[] = {solver_answer_name(SOLVER_WIN),
                           solver_answer_name(SOLVER_NO_WIN),
                           solver_answer_name(SOLVER_UNKNOWN)};
    for (int i = 0; i < 3; i++) {
        assert_non_null(names[i]);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(names[i], names[j]);
    }
}

/* ---- the cross-check against minimax ---------------------------------- */


/* Solver and minimax on `count` random positions of each game at bounds
 * 1..max_plies; every win's first move, line and proof checked; at the
 * deepest bound both wins and non-wins must be common. */
static void cross_check(const int *games, int ngames, int count, int max_plies,
                        uint64_t seed)
{
    for (int gi = 0; gi < ngames; gi++) {
        int game = games[gi], wins_seen = 0, no_wins_seen = 0;
        struct rng r;
        rng_seed(&r, seed + (uint64_t)game);
        for (int i = 0; i < count; i++) {
            struct variant v;
            _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
            char what[VARIANT_TEXT_MAX + 600], text[512], canon[VARIANT_TEXT_MAX];
            random_position(game, &r, &v, st);
            const struct game *g = v.game;
            g->to_text(st, text, sizeof text);
            variant_canonical(&v, canon, sizeof canon);
            snprintf(what, sizeof what, "random position %d: %s %s", i, canon,
                     text);
            int shortest = 0; /* the shortest win, 0 if none yet */
            for (int d = 1; d <= max_plies; d++) {
                int expect = minimax_forced_win(g, st, d);
                if (expect && !shortest)
                    shortest = d;
                struct solver_result res = solve(g, st, d, BIG_BUDGET, what);
                if (res.answer == SOLVER_UNKNOWN)
                    fail_msg("%s, %d plies: unknown after %llu nodes", what, d,
                             (unsigned long long)res.nodes);
                if ((res.answer == SOLVER_WIN) != expect)
                    fail_msg("%s, %d plies: solver %s, minimax %s", what, d,
                             solver_answer_name(res.answer),
                             expect ? "win" : "no win");
                if (d == max_plies && expect)
                    wins_seen++;
                else if (d == max_plies)
                    no_wins_seen++;
                if (!expect)
                    continue;
                if (!wins_with(g, st, res.pv[0], d))
                    fail_msg("%s, %d plies: the first move does not win", what, d);
                check_pv(g, st, &res, d, shortest, what);
                check_proof(&v, st, d, what, NULL);
            }
        }
        print_message("%s: %d positions, %d wins and %d non-wins within %d plies\n",
                      random_position_variants[game][0], count, wins_seen, no_wins_seen,
                      max_plies);
        /* the sample is not one-sided */
        assert_true(wins_seen >= count / 10);
        assert_true(no_wins_seen >= count / 10);
    }
}

static void test_cross_check(void **state)
{
    (void)state;
    static const int all[] = {0, 1, 2};
    cross_check(all, 3, 120, 3, 20240611);
}

static void test_cross_check_five(void **state)
{
    (void)state;
    /* 5 plies of minimax are quick in tafl and Serbest positions this
     * small; Jetan's Chiefs and Princesses (48 squares each) are not */
    static const int some[] = {0, 1};
    cross_check(some, 2, 30, 5, 77);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wins),
        cmocka_unit_test(test_no_wins),
        cmocka_unit_test(test_quiet_first_move),
        cmocka_unit_test(test_small_budget),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_cross_check),
        cmocka_unit_test(test_cross_check_five),
    };
    return cmocka_run_group_tests_name("solver", tests, NULL, NULL);
}
