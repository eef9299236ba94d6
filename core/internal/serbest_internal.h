/*
 * serbest_internal.h -- what serbest_moves.c (attacks and move generation)
 * shares with serbest_wins.c (wins_at_once, the searches' hook): the
 * checks and pins seen from a king, and the generator's pieces. For
 * Serbest's own files only; everything else sees the game through game.h
 * (and its tests through serbest.h).
 */
#ifndef RULELAB_SERBEST_INTERNAL_H
#define RULELAB_SERBEST_INTERNAL_H

#include "serbest.h"

/* Mailbox steps of a knight, and of a pawn of colour c capturing
 * (forward first, then, Subedei only, backward). */
extern const int serbest_knight_jumps[8];
extern const int serbest_pawn_captures[2][4];

/* Where one colour's pieces can attack from, seen from the other
 * colour's king: lines[0] has a bit per rank (from 0) that holds one of
 * its rooks or queens, lines[1] per file; lines[2] a bit per diagonal
 * (file - rank + 9) that holds one of its bishops or queens, lines[3]
 * per anti-diagonal (file + rank). A ray that finds a slider lies on the
 * slider's line, so the searches for checks, pins and attacks on the
 * king's steps walk only the rays along lines that hold one. `near` says
 * what its king, knights and pawns attack around the other king: bit i
 * the square of the king's step i (serbest_moves.c's king_steps order),
 * bit 8 the king's own square (serbest_tables_gen.c). */
struct attackers {
    uint32_t lines[4];
    unsigned near;
};

struct king_safety {
    struct attackers them; /* the other colour's */
    int checkers; /* 0, 1 or 2 (2 means two or more) */
    int checker_sq; /* the checker, when checkers == 1 */
    int check_step; /* step from the king toward a sliding checker, or 0 */
    int pinned_count;
    int pinned_sq[8];
    int pin_step[8]; /* step from the king along that piece's pin line */
};

/* Looks outward from the king on ksq of colour us for checks and pins,
 * and fills ks->them; with ksq 0 (the king in hand), none. */
void serbest_find_checks_and_pins(const struct serbest_state *s, int us,
                                  int ksq, struct king_safety *ks);

/* Whether a piece of colour us may move onto square sq of board b: the
 * square is empty or holds a piece of the other colour (not the border). */
int serbest_enterable(const uint8_t *b, int sq, int us);

/* The legal steps of the king on ksq, whose checks and pins ks holds,
 * written into out; returns how many. */
int serbest_king_moves(const struct serbest_state *s,
                       const struct king_safety *ks, int ksq, int us,
                       move_t *out);

/* The legal moves of the non-king piece on `from`, given the checks and
 * pins found from the king on ksq (0 if the king is in hand), written
 * into out; returns how many. It may write one slot past them. */
int serbest_legal_piece_moves(const struct serbest_state *s,
                              const struct king_safety *ks, int ksq,
                              int from, move_t *out);

/* The drops of the nkinds non-king kinds in kinds on the empty square sq,
 * less those the drop-check rule forbids beside enemy_king (0: none). */
int serbest_drops_on(const struct serbest_state *s, int sq, const int *kinds,
                     int nkinds, int enemy_king, move_t *out);

/* The kinds other than the king that the side to move holds, in order;
 * returns how many. */
int serbest_hand_kinds(const struct serbest_state *s,
                       int kinds[SERBEST_KINDS]);

#endif
