/*
 * test_tafl_ludii.c -- the exact Ludii preset
 * (docs/rules.md#tafl-ludiis-tablut-preset) against Ludii itself: the 300
 * random games of Ludii 1.3.13's "Tablut" (ruleset Linnaeus, observed) in
 * tests/fixtures/tablut_ludii_300_games.txt.gz (a copy of
 * ../shared/ludii/; the format in tablut_ludii_300_games.md beside it, a
 * copy of the README there), replayed move by
 * move under the preset, by the fast engine and by the naive reference
 * (tests/ref/tafl_ref.c). At every ply: the same number of legal moves as
 * Ludii had (and the same move set in both engines), the recorded move
 * legal, the same number of pieces captured, the same position after it;
 * at the end, the same ply count and winner.
 *
 * The file is read through `gzip -dc`, so the build needs no zlib.
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
#include "tafl.h"
#include "tafl_ref.h"

/* docs/rules.md#tafl-ludiis-tablut-preset, Ludii 1.3's Tablut exactly. */
#define LUDII_PRESET                                                         \
    "tafl(escape=edge,king_armed=1,king_capture=custodial,king_throne="     \
    "barred,throne_hostile=2,throne_passable=0,repetition_limit=0,"         \
    "repetition_draw=0,no_capture_limit=0,max_plies=2500)"

#define GAMES_FILE RULELAB_FIXTURES "/tablut_ludii_300_games.txt.gz"

static void preset_ref_params(tafl_ref_params *p)
{
    tafl_ref_defaults(p);
    p->escape_edge = 1;
    p->king_armed = 1;
    p->king_custodial = 1;
    p->king_throne_barred = 1;
    p->throne_hostile = 2;
    p->throne_passable = 0;
    /* repetition_limit=0, repetition_draw=0, no_capture_limit=0: none of
     * the history rules the reference leaves out is on; max_plies=2500 is
     * far beyond the longest game of the file. */
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static int pieces_on_board(const struct tafl_state *st)
{
    return st->pieces[0].count + st->pieces[1].count;
}

/* Expands the board field of a position text into 81 letters (rank 9
 * first), '.' for empty squares. */
static void expand_board(const char *fen, char out[82])
{
    int k = 0;
    for (const char *c = fen; *c && *c != ' ' && k < 81; c++) {
        if (*c == '/')
            continue;
        if (*c >= '1' && *c <= '9')
            for (int i = 0; i < *c - '0' && k < 81; i++)
                out[k++] = '.';
        else
            out[k++] = *c;
    }
    while (k < 81)
        out[k++] = '?';
    out[81] = '\0';
}

struct replay {
    struct variant v;
    tafl_ref_params p;
    struct tafl_state st;
    int game, in_game;
    long games, plies;
    int winners[3];
};

static void start_game(struct replay *r, int game)
{
    if (r->in_game)
        fail_msg("game %d starts before game %d has an end line", game,
                 r->game);
    r->game = game;
    r->in_game = 1;
    tafl_game.init(&r->st, &r->v);
}

/* One `P ply nlegal move captured fen` line. */
static void replay_ply(struct replay *r, unsigned ply, int nlegal,
                       const char *mt, int captured, const char *fen,
                       const char *side)
{
    static char fast[GAME_MAX_MOVES][8], ref[TAFL_REF_MAX_MOVES][8];
    struct tafl_state *st = &r->st;
    char text[128], after[128], ref_after[128], err[256];
    if (!r->in_game || st->ply != ply
        || tafl_game.status(st).outcome != GAME_ONGOING)
        fail_msg("game %d: ply %u out of turn (engine at ply %u, %s)",
                 r->game, ply, st->ply,
                 end_reason_name(tafl_game.status(st).reason));
    tafl_game.to_text(st, text, sizeof text);

    /* the legal moves: Ludii's count; fast and reference the same set */
    move_t moves[GAME_MAX_MOVES];
    int nf = tafl_game.legal_moves(st, moves);
    for (int i = 0; i < nf; i++)
        tafl_game.move_to_text(st, moves[i], fast[i], 8);
    qsort(fast, (size_t)nf, 8, cmp_text);
    int nr = tafl_ref_moves(text, &r->p, ref, TAFL_REF_MAX_MOVES);
    if (nf != nlegal || nr != nlegal)
        fail_msg("game %d ply %u [%s]: Ludii has %d legal moves, fast %d, "
                 "reference %d", r->game, ply, text, nlegal, nf, nr);
    for (int i = 0; i < nf; i++)
        if (strcmp(fast[i], ref[i]) != 0)
            fail_msg("game %d ply %u [%s]: fast and reference differ at %s "
                     "/ %s", r->game, ply, text, fast[i], ref[i]);

    /* the move: legal, capturing as many, leading to the same position */
    move_t m;
    if (game_parse_move(&tafl_game, st, mt, &m, err, sizeof err) != 0)
        fail_msg("game %d ply %u [%s]: Ludii's move %s: %s", r->game, ply,
                 text, mt, err);
    int before = pieces_on_board(st);
    tafl_game.apply(st, m);
    /* Ludii counts the men it removes; a captured King stays on its
     * board and is not counted (the capture just ends the game). */
    int taken = before - pieces_on_board(st)
                - (tafl_game.status(st).reason == REASON_KING_CAPTURED);
    if (taken != captured)
        fail_msg("game %d ply %u [%s] %s: Ludii captures %d, fast %d",
                 r->game, ply, text, mt, captured, taken);
    int result = -1;
    assert_int_equal(tafl_ref_apply(text, &r->p, mt, ref_after,
                                    sizeof ref_after, &result), 0);
    tafl_game.to_text(st, after, sizeof after);
    char fast_board[82], ref_board[82], ludii_board[82];
    expand_board(after, fast_board);
    expand_board(ref_after, ref_board);
    expand_board(fen, ludii_board);
    struct game_status s = tafl_game.status(st);
    if (strcmp(fast_board, ref_board) != 0)
        fail_msg("game %d ply %u [%s] %s: fast %s, reference %s", r->game,
                 ply, text, mt, after, ref_after);
    /* Ludii leaves a captured King on the board (the capture just ends
     * the game) and keeps the side to move once the game is over. */
    if (s.reason == REASON_KING_CAPTURED)
        for (int i = 0; i < 81; i++)
            if (ludii_board[i] == 'k')
                ludii_board[i] = '.';
    if (strcmp(fast_board, ludii_board) != 0
        || (s.outcome == GAME_ONGOING && after[strcspn(after, " ") + 1]
                                             != side[0]))
        fail_msg("game %d ply %u [%s] %s: Ludii %s %s, fast %s", r->game,
                 ply, text, mt, fen, side, after);
    enum end_reason expected[] = {REASON_NONE, REASON_KING_ESCAPED,
                                  REASON_KING_CAPTURED, REASON_NO_MOVES};
    if (result < 0 || result > 3 || s.reason != expected[result])
        fail_msg("game %d ply %u [%s] %s: fast ends with %s, reference "
                 "result %d", r->game, ply, text, mt,
                 end_reason_name(s.reason), result);
    r->plies++;
}

/* One `E plies nlegal_at_end winner endType over` line. */
static void end_game(struct replay *r, unsigned plies, int nlegal,
                     int winner, const char *end_type)
{
    struct tafl_state *st = &r->st;
    struct game_status s = tafl_game.status(st);
    if (!r->in_game || st->ply != plies)
        fail_msg("game %d: Ludii ends after %u plies, the replay is at %u",
                 r->game, plies, st->ply);
    move_t moves[GAME_MAX_MOVES];
    if (s.outcome == GAME_ONGOING || strcmp(end_type, "NaturalEnd") != 0
        || tafl_game.legal_moves(st, moves) != nlegal)
        fail_msg("game %d: Ludii ends (%s, %d legal moves), fast says %s",
                 r->game, end_type, nlegal, end_reason_name(s.reason));
    /* Ludii's player 1 is the attackers, who move first: seat 0. */
    int fast_winner = s.outcome == GAME_WIN_SEAT0   ? 1
                      : s.outcome == GAME_WIN_SEAT1 ? 2 : 0;
    if (fast_winner != winner)
        fail_msg("game %d: Ludii's winner %d, fast's %d (%s)", r->game,
                 winner, fast_winner, end_reason_name(s.reason));
    r->winners[winner >= 0 && winner <= 2 ? winner : 0]++;
    r->games++;
    r->in_game = 0;
}

static void test_ludii_games_replay_exactly(void **state)
{
    (void)state;
    static struct replay r;
    char err[256];
    memset(&r, 0, sizeof r);
    if (variant_parse(LUDII_PRESET, &r.v, err, sizeof err) != 0)
        fail_msg("%s", err);
    preset_ref_params(&r.p);
    FILE *f = popen("gzip -dc '" GAMES_FILE "'", "r");
    assert_non_null(f);
    char line[512];
    long lines = 0;
    while (fgets(line, sizeof line, f)) {
        char move[16], board[128], side[4], end_type[64], over[16];
        unsigned ply;
        int a, b, c;
        lines++;
        if (sscanf(line, "G %d %d", &a, &b) == 2)
            start_game(&r, a);
        else if (sscanf(line, "P %u %d %15s %d %127s %3s", &ply, &a, move, &b,
                        board, side) == 6)
            replay_ply(&r, ply, a, move, b, board, side);
        else if (sscanf(line, "E %u %d %d %63s %15s", &ply, &a, &c, end_type,
                        over) == 5)
            end_game(&r, ply, a, c, end_type);
        else
            fail_msg("line %ld: not a G, P or E record: %s", lines, line);
    }
    assert_int_equal(pclose(f), 0);
    assert_false(r.in_game);
    print_message("Ludii: %ld games, %ld plies replayed exactly (attackers "
                  "won %d, defenders %d)\n", r.games, r.plies, r.winners[1],
                  r.winners[2]);
    /* the whole file: 300 games, 41 won by the attackers */
    assert_int_equal(r.games, 300);
    assert_int_equal(r.winners[1], 41);
    assert_int_equal(r.winners[2], 259);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ludii_games_replay_exactly),
    };
    return cmocka_run_group_tests_name("tafl_ludii", tests, NULL, NULL);
}
