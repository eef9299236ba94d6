/*
 * big_proof.c -- writes a valid, arbitrarily large proof certificate, to
 * measure what `rulelab verify` needs on big proofs (scripts/
 * verify_memory.sh) and to test deep proofs (tests/test_claim.sh does not;
 * tests/test_verify.sh does).
 *
 * The position (Serbest, White to move): White's king on a9, Black's bare
 * king on e10, Black's hand empty, White's hand full. White wins by Khan
 * (its king onto rank 10) on a10 whenever it likes: a10 can only be
 * attacked from b9, b10 or a9's own square, and Black's king may never
 * stand next to White's, so nothing Black does stops it. The strategy
 * written here waits: for its first W turns White drops a piece on rank 1
 * (the first legal such drop), and only then plays a9a10; every legal
 * Black king move is answered. Black's king, 9 ranks away from its own
 * far rank (rank 1), cannot become Khan within 8 moves, nor reach a piece
 * on rank 1 to capture it, so W <= 8. The tree has one line per node:
 * about 2 * 6^W lines (W = 8: some 3 million lines, 25 MB).
 *
 * Usage: big_proof WAITS > FILE   (WAITS 0..8; the bound is 2 WAITS + 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "serbest.h"

static const char *const position_text =
    "4k5/K9/10/10/10/10/10/10/10/10[QRRBBNNPPPPPPSS] w 0 0";

/* Writes the subtree below st, where it is White's turn at `ply` (the
 * plies played so far) with `waits` waiting moves left. Returns the
 * number of lines written, or -1 if the strategy breaks (a bug here). */
static long white_turn(const void *st, int ply, int waits);

static long black_turn(const void *st, int ply, int waits)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    char text[32];
    long lines = 0;
    int n = serbest_game.legal_moves(st, moves);
    for (int i = 0; i < n; i++) {
        serbest_game.move_to_text(st, moves[i], text, sizeof text);
        printf("%d %s\n", ply + 1, text);
        lines++;
        memcpy(child, st, serbest_game.state_size);
        serbest_game.apply(child, moves[i]);
        if (serbest_game.status(child).outcome != GAME_ONGOING)
            return -1; /* Black can end the game: not this position */
        long below = white_turn(child, ply + 1, waits);
        if (below < 0)
            return -1;
        lines += below;
    }
    return lines;
}

static long white_turn(const void *st, int ply, int waits)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    char text[32];
    int n = serbest_game.legal_moves(st, moves);
    if (waits == 0) {
        move_t khan = SERBEST_MOVE(SERBEST_SQ(0, 8), SERBEST_SQ(0, 9));
        for (int i = 0; i < n; i++)
            if (moves[i] == khan) {
                serbest_game.move_to_text(st, khan, text, sizeof text);
                printf("%d %s\n", ply + 1, text);
                memcpy(child, st, serbest_game.state_size);
                serbest_game.apply(child, khan);
                return serbest_game.status(child).outcome == GAME_WIN_SEAT0
                           ? 1 : -1;
            }
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (!SERBEST_DROP_KIND(moves[i]) || SERBEST_RANK(SERBEST_TO(moves[i])))
            continue;
        memcpy(child, st, serbest_game.state_size);
        serbest_game.apply(child, moves[i]);
        enum game_outcome o = serbest_game.status(child).outcome;
        if (o != GAME_ONGOING && o != GAME_WIN_SEAT0)
            continue;
        serbest_game.move_to_text(st, moves[i], text, sizeof text);
        printf("%d %s\n", ply + 1, text);
        if (o == GAME_WIN_SEAT0)
            return 1;
        long below = black_turn(child, ply + 1, waits - 1);
        return below < 0 ? -1 : below + 1;
    }
    return -1;
}

int main(int argc, char **argv)
{
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char err[256], canon[VARIANT_TEXT_MAX];
    int waits = argc == 2 ? atoi(argv[1]) : -1;
    if (waits < 0 || waits > 8) {
        fprintf(stderr, "usage: big_proof WAITS > FILE  (WAITS 0..8)\n");
        return 2;
    }
    if (variant_parse("serbest", &v, err, sizeof err) != 0
        || serbest_game.from_text(st, &v, position_text, err, sizeof err) != 0) {
        fprintf(stderr, "big_proof: %s\n", err);
        return 1;
    }
    variant_canonical(&v, canon, sizeof canon);
    serbest_game.to_text(st, err, sizeof err);
    printf("rulelab-proof 1\nvariant %s\nposition %s\nplies %d\nmoves\n",
           canon, err, 2 * waits + 1);
    long lines = white_turn(st, 0, waits);
    printf("end\n");
    if (lines < 0 || fflush(stdout) != 0) {
        fprintf(stderr, "big_proof: the waiting strategy broke (a bug)\n");
        return 1;
    }
    fprintf(stderr, "big_proof: %ld move lines, bound %d plies\n", lines,
            2 * waits + 1);
    return 0;
}
