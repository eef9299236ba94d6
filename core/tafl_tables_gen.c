/*
 * tafl_tables_gen.c -- a build-time program that writes tafl's line reach
 * table (tafl_tables.inc) for core/tafl_moves.c.
 *
 * Every tafl piece moves like a rook: along its rank or its file, over
 * empty squares only. A rank or file of the 9x9 board is a 9-bit
 * occupancy mask (bit i = square i of the line, as tafl.h keeps them), so
 * the squares a piece at position p of a line reaches depend only on p
 * and that mask:
 *
 *   tafl_line_reach[p][occupancy]
 *
 * has bit i set for each square i it reaches: walking from p each way,
 * every square up to (not including) the first occupied one or the end
 * of the line. p's own bit in occupancy is ignored. The rules' special
 * squares (the throne, the corners) are the caller's: it adds those that
 * block to the occupancy and removes those a piece may not stop on from
 * the reach. One lookup replaces some twenty instructions of bit
 * arithmetic per line.
 *
 * Usage: tafl_tables_gen OUTPUT_FILE
 */
#include <stdio.h>

#include "tables_gen.h"

#define LINE 9

/* The squares a piece at p reaches on a line with this occupancy. */
static unsigned reach(int p, unsigned occupancy)
{
    unsigned r = 0;
    for (int i = p + 1; i < LINE && !(occupancy >> i & 1); i++)
        r |= 1u << i;
    for (int i = p - 1; i >= 0 && !(occupancy >> i & 1); i--)
        r |= 1u << i;
    return r;
}

int main(int argc, char **argv)
{
    FILE *f = tables_gen_open(argc, argv, "tafl_tables_gen");
    if (!f)
        return 1;
    fprintf(f, "/* Written by core/tafl_tables_gen.c at build time; see "
               "there. */\n"
               "static const uint16_t tafl_line_reach[%d][%d] = {\n",
            LINE, 1 << LINE);
    for (int p = 0; p < LINE; p++) {
        fprintf(f, "  {");
        for (unsigned occ = 0; occ < 1u << LINE; occ++)
            fprintf(f, "%u%s", reach(p, occ),
                    occ + 1 == 1u << LINE ? "},\n"
                    : occ % 16 == 15      ? ",\n   "
                                          : ", ");
    }
    fprintf(f, "};\n");
    return tables_gen_close(f, argv[1]);
}
