/*
 * serbest_tables_gen.c -- a build-time program that writes the Serbest
 * near-attack table (serbest_tables.inc) for core/serbest_moves.c.
 *
 * The king's legal steps ask, for each of the up to 8 squares beside it,
 * whether the enemy attacks it. The enemy's king, knights and pawns
 * attack only a few squares around themselves, so their part of that
 * answer depends only on where such a piece stands relative to the king:
 *
 *   serbest_near_attacks[colour][kind][(dy + 3) * 8 + (dx + 3)]
 *
 * for a piece of that colour and kind standing dx files and dy ranks from
 * a king (|dx|, |dy| <= 3; a piece further off attacks nothing beside
 * the king), has bit i set when the piece attacks the square the king's
 * step i leads to, and bit 8 when it attacks the king's own square
 * (check). The steps, in the order serbest_moves.c's king_steps lists
 * them: up a rank, down a rank, right a file, left a file, then up-right,
 * up-left, down-right, down-left. Column 7 and row 7 (dx or dy 4) are 0,
 * for pieces further off, so the index can be clamped with no branch. Queens, rooks and bishops have rows of 0: their attacks
 * are blocked by what stands between, and the generator walks their rays.
 *
 * The attack patterns are those of docs/rules.md#serbest-pieces: a king
 * attacks the 8 squares beside it; a knight the squares a (1, 2) leap
 * away; a pawn the two squares diagonally forward (forward: up for white,
 * down for black); a Subedei all four diagonal neighbours. Occupancy does
 * not matter for these: each attacks its squares whatever stands on them.
 *
 * Usage: serbest_tables_gen OUTPUT_FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include "serbest.h"
#include "tables_gen.h"

/* The king's steps as (file, rank) offsets, in king_steps' order. */
static const int step_dx[8] = {0, 0, 1, -1, 1, -1, 1, -1};
static const int step_dy[8] = {1, -1, 0, 0, 1, 1, -1, -1};

/* Whether a piece of colour and kind attacks the square (ax, ay) away
 * from itself. */
static int attacks(int colour, int kind, int ax, int ay)
{
    const int adx = abs(ax), ady = abs(ay);
    const int forward = colour == SERBEST_WHITE ? 1 : -1;
    switch (kind) {
    case SERBEST_KING:
        return adx <= 1 && ady <= 1 && (adx || ady);
    case SERBEST_KNIGHT:
        return (adx == 1 && ady == 2) || (adx == 2 && ady == 1);
    case SERBEST_PAWN:
        return adx == 1 && ay == forward;
    case SERBEST_SUBEDEI:
        return adx == 1 && ady == 1;
    default:
        return 0; /* sliders: by rays, not by this table */
    }
}

/* The entry for a piece (dx, dy) from the king. */
static unsigned near_mask(int colour, int kind, int dx, int dy)
{
    unsigned mask = 0;
    for (int i = 0; i < 8; i++)
        if (attacks(colour, kind, step_dx[i] - dx, step_dy[i] - dy))
            mask |= 1u << i;
    if (attacks(colour, kind, -dx, -dy))
        mask |= 1u << 8;
    return mask;
}

int main(int argc, char **argv)
{
    FILE *f = tables_gen_open(argc, argv, "serbest_tables_gen");
    if (!f)
        return 1;
    fprintf(f, "/* Written by core/serbest_tables_gen.c at build time; "
               "see there. */\n"
               "static const uint16_t serbest_near_attacks[2][SERBEST_KINDS]"
               "[64] = {\n");
    for (int colour = 0; colour < 2; colour++) {
        fprintf(f, "  {\n");
        for (int kind = 0; kind < SERBEST_KINDS; kind++) {
            fprintf(f, "    {");
            for (int at = 0; at < 64; at++) {
                const int dx = at % 8, dy = at / 8;
                fprintf(f, "%u%s", dx < 7 && dy < 7
                                       ? near_mask(colour, kind, dx - 3, dy - 3)
                                       : 0,
                        at == 63 ? "},\n" : dx == 7 ? ",\n     " : ", ");
            }
        }
        fprintf(f, "  },\n");
    }
    fprintf(f, "};\n");
    return tables_gen_close(f, argv[1]);
}
