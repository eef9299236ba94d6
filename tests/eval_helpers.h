/*
 * eval_helpers.h -- what the evaluation suites (test_eval_jetan.c,
 * test_eval_tafl.c) share: the check of a game's threat_replies hook
 * (agents/eval.h) against playing every move. Header-only (static), like
 * agent_helpers.h; include it after <cmocka.h>.
 */
#ifndef RULELAB_EVAL_HELPERS_H
#define RULELAB_EVAL_HELPERS_H

#include "eval.h"

/* What check_threat_replies saw, summed over the positions it checked. */
struct threat_tally {
    int ruled_out; /* moves threat_replies ruled out */
    int saving;    /* moves after which the opponent cannot win at once */
};

/* threat_replies' contract on st, a position of g: where it answers,
 * every move it rules out leaves the game going with the opponent to win
 * at once (apply() plays each move, and game_mover_wins_at_once plays
 * every reply). Fails the test with the position and the move where one
 * it ruled out saves. Returns 1 where threat_replies answered (a threat),
 * 0 where it did not (tally unchanged). */
static inline int check_threat_replies(const struct game *g, const void *st,
                                       struct threat_tally *tally)
{
    move_t moves[GAME_MAX_MOVES];
    unsigned char keep[GAME_MAX_MOVES];
    const int n = g->legal_moves(st, moves);
    if (!eval_of(g)->threat_replies(st, moves, n, keep))
        return 0;
    for (int i = 0; i < n; i++) {
        _Alignas(GAME_STATE_ALIGN) unsigned char after[GAME_MAX_STATE_SIZE];
        game_copy_state(g, after, st);
        g->apply(after, moves[i]);
        const int loses = g->status(after).outcome == GAME_ONGOING
                          && game_mover_wins_at_once(g, after);
        if (!keep[i] && !loses) {
            char text[512], move[16];
            g->to_text(st, text, sizeof text);
            g->move_to_text(st, moves[i], move, sizeof move);
            fail_msg("threat_replies(%s) rules out %s, which saves", text,
                     move);
        }
        tally->ruled_out += !keep[i];
        tally->saving += !loses;
    }
    return 1;
}

#endif
