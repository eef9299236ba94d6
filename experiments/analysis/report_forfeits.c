/*
 * report_forfeits.c -- the report's forfeits: games that a program outside
 * rulelab gave up (docs/protocol.md: an illegal move, a late reply, an
 * exit), counted per cell and seat apart from the games played out, with
 * the seat-0 score of the played-out games beside the score with them, so
 * that a score built on forfeits shows as such. Nothing is printed for a
 * report without forfeits.
 */
#include <math.h>
#include <stdlib.h>

#include "report_internal.h"
#include "table.h"

/* Whether any cell of r has a forfeit. */
static int any_forfeit(const struct report *r)
{
    for (int i = 0; i < r->n_cells; i++)
        if (r->cells[i].forfeits[0] || r->cells[i].forfeits[1])
            return 1;
    return 0;
}

double report_score_without_forfeits(const struct report_row *c)
{
    /* A forfeit by seat 0 is a seat-1 win and the other way round. */
    long games = c->games - c->forfeits[0] - c->forfeits[1];
    double points = (double)(c->wins[0] - c->forfeits[1])
                    + (double)(c->draws_rules + c->draws_cap) / 2.0;
    return games > 0 ? points / (double)games : NAN;
}

void report_print_forfeits(const struct report *r, enum report_format f,
                           FILE *out)
{
    static const char *const headers[] = {
        "variant", "seat0", "seat1", "games", "s0_forfeits", "s1_forfeits",
        "s0_score", "s0_score_played"};
    if (!any_forfeit(r))
        return;
    int n = 0;
    for (int i = 0; i < r->n_cells; i++)
        n += r->cells[i].forfeits[0] || r->cells[i].forfeits[1];
    struct table t;
    if (table_new(&t, headers, 8, n) != 0)
        return;
    for (int i = 0, row = 0; i < r->n_cells; i++) {
        const struct report_row *c = &r->cells[i];
        if (!c->forfeits[0] && !c->forfeits[1])
            continue;
        char (*cell)[VARIANT_TEXT_MAX] = t.cells[row++];
        snprintf(cell[0], VARIANT_TEXT_MAX, "%s",
                 f == REPORT_CSV ? c->variant : c->short_variant);
        snprintf(cell[1], VARIANT_TEXT_MAX, "%s", c->agent[0]);
        snprintf(cell[2], VARIANT_TEXT_MAX, "%s", c->agent[1]);
        snprintf(cell[3], VARIANT_TEXT_MAX, "%ld", c->games);
        snprintf(cell[4], VARIANT_TEXT_MAX, "%ld", c->forfeits[0]);
        snprintf(cell[5], VARIANT_TEXT_MAX, "%ld", c->forfeits[1]);
        snprintf(cell[6], VARIANT_TEXT_MAX, "%.3f", c->score0);
        double played = report_score_without_forfeits(c);
        snprintf(cell[7], VARIANT_TEXT_MAX, isnan(played) ? "n/a" : "%.3f",
                 played);
    }
    const char *title = "forfeits: games an outside program gave up "
                        "(docs/protocol.md), and seat 0's score over the "
                        "games played out";
    table_print_section(&t, title, "forfeits", f, out);
}
