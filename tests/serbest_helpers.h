/*
 * serbest_helpers.h -- what the Serbest suites share: a position's text
 * (docs/rules.md#notation-serbest) from a grid of piece letters.
 * Header-only (static) so each suite stays one file plus this.
 */
#ifndef RULELAB_SERBEST_HELPERS_H
#define RULELAB_SERBEST_HELPERS_H

#include <stdio.h>

/* The text of the board grid[rank][file] (rank 0 is rank 1, file 0 is
 * file a; 0 for an empty square), then "[hands] " and the rest (the side
 * to move and any counters), into out (n bytes). */
static inline void serbest_grid_text(char grid[10][10],
                                     const char *hands, const char *rest,
                                     char *out, size_t n)
{
    size_t len = 0;
    for (int rank = 9; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 10; file++) {
            if (!grid[rank][file]) {
                empty++;
                continue;
            }
            if (empty)
                len += (size_t)snprintf(out + len, n - len, "%d", empty);
            empty = 0;
            out[len++] = grid[rank][file];
        }
        if (empty)
            len += (size_t)snprintf(out + len, n - len, "%d", empty);
        if (rank)
            out[len++] = '/';
    }
    snprintf(out + len, n - len, "[%s] %s", hands, rest);
}

#endif
