/*
 * report_html.c -- `rulelab report DB --format html`: the report as one
 * self-contained page (no network, no external script, style or font; it
 * opens from a USB stick): a summary on top with each variant's seat-0
 * score, its interval and the verdict in words; a figure of those scores
 * against the 0.5 line (svg.h); the variants and cells tables, sortable by
 * a few lines of inline script and readable without it. Every number is
 * the one the JSON report gives (the same struct report), and every piece
 * of text from the database goes through html_text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "report_internal.h"
#include "stats.h"
#include "svg.h"

/* The page's style: black on white, readable in greyscale. */
static const char style[] =
    "body{font-family:sans-serif;margin:2em;color:#000;background:#fff}\n"
    "p,ul,figure{max-width:60em}\n"
    "div.wide{overflow-x:auto}\n"
    "table{border-collapse:collapse;margin:1em 0}\n"
    "th,td{border:1px solid #999;padding:.2em .5em;text-align:right}\n"
    "th{background:#eee;cursor:pointer}\n"
    "td.text{text-align:left;white-space:nowrap}\n"
    "p.note{color:#333}\n"
    "svg.chart text{font-family:sans-serif;font-size:12px}\n";

/* Sorts a table by the column clicked (numbers as numbers, the rest as
 * text; a second click reverses). Without script the tables read as they
 * are printed. */
static const char sort_script[] =
    "document.querySelectorAll('table.sortable th').forEach(function(th){"
    "th.addEventListener('click',function(){"
    "var i=th.cellIndex,tb=th.closest('table').tBodies[0],"
    "rows=Array.from(tb.rows),"
    "up=th.dataset.up!=='1';th.dataset.up=up?'1':'0';"
    "rows.sort(function(a,b){var x=a.cells[i].dataset.v||a.cells[i].textContent,"
    "y=b.cells[i].dataset.v||b.cells[i].textContent,"
    "nx=parseFloat(x),ny=parseFloat(y),"
    "c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);"
    "return up?c:-c;});rows.forEach(function(r){tb.appendChild(r);});});});";

/* The verdict on a row's seat-0 score, in words. */
static const char *verdict(const struct report_row *r)
{
    if (!r->fixed_sample || isnan(r->lo))
        return "no interval (a stop rule ended a cell early)";
    if (r->lo > 0.5)
        return "seat 0 is ahead (its whole 95% interval is above 0.5)";
    if (r->hi < 0.5)
        return "seat 1 is ahead (seat 0's whole 95% interval is below 0.5)";
    return "no side shown ahead (the 95% interval holds 0.5)";
}

/* A label for a row: the variant by what differs from its defaults, with
 * the agents for a cell. */
static void row_label(const struct report_row *r, int cell, char *buf,
                      size_t n)
{
    if (cell)
        snprintf(buf, n, "%s, %s vs %s", r->short_variant, r->agent[0],
                 r->agent[1]);
    else
        snprintf(buf, n, "%s", r->short_variant);
}

/* One table cell: a number (data-v holds it for sorting) or text. */
static void td_number(FILE *out, const char *format, double x)
{
    if (isnan(x)) {
        fputs("<td data-v=\"\">n/a</td>", out);
        return;
    }
    fputs("<td data-v=\"", out);
    fprintf(out, "%.17g", x);
    fputs("\">", out);
    fprintf(out, format, x);
    fputs("</td>", out);
}

static void td_text(FILE *out, const char *text)
{
    fputs("<td class=\"text\"", out);
    fputs(" title=\"", out);
    html_text(out, text);
    fputs("\">", out);
    html_text(out, text);
    fputs("</td>", out);
}

/* A table of rows (cells when cell is set: with the agents), each cell of
 * the page naming its full canonical variant on hover. */
static void print_rows(FILE *out, const char *id, const struct report_row *rows,
                       int n, int cell)
{
    fprintf(out, "<div class=\"wide\"><table class=\"sortable\" id=\"%s\">\n"
            "<thead><tr><th>variant</th>%s<th>games</th><th>seat 0 wins</th>"
            "<th>seat 1 wins</th><th>draws</th><th>mean plies</th>"
            "<th>seat-0 score</th><th>95%% low</th><th>95%% high</th>"
            "<th>p</th><th>p (Holm)</th><th>how games ended</th>%s"
            "</tr></thead>\n<tbody>\n", id,
            cell ? "<th>seat 0</th><th>seat 1</th>" : "",
            cell ? "<th>stop rule</th>" : "");
    for (int i = 0; i < n; i++) {
        const struct report_row *r = &rows[i];
        fputs("<tr><td class=\"text\" title=\"", out);
        html_text(out, r->variant);
        fputs("\">", out);
        html_text(out, r->short_variant);
        fputs("</td>", out);
        if (cell) {
            td_text(out, r->agent[0]);
            td_text(out, r->agent[1]);
        }
        td_number(out, "%.0f", (double)r->games);
        td_number(out, "%.0f", (double)r->wins[0]);
        td_number(out, "%.0f", (double)r->wins[1]);
        td_number(out, "%.0f", (double)(r->draws_rules + r->draws_cap));
        td_number(out, "%.1f", r->mean_plies);
        td_number(out, "%.3f", r->score0);
        td_number(out, "%.3f", r->lo);
        td_number(out, "%.3f", r->hi);
        td_number(out, "%.3g", r->p);
        td_number(out, "%.3g", r->p_holm);
        td_text(out, r->reasons);
        if (cell) {
            char stop[512];
            report_stop_text(r, stop, sizeof stop);
            td_text(out, stop);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody>\n</table></div>\n", out);
}

/* The cells with forfeits (report_forfeits.c): each seat's, and seat 0's
 * score over the games played out. Nothing when there are none. */
static void print_forfeits(FILE *out, const struct report *r)
{
    int any = 0;
    for (int i = 0; i < r->n_cells; i++) {
        const struct report_row *c = &r->cells[i];
        if (!c->forfeits[0] && !c->forfeits[1])
            continue;
        if (!any++)
            fputs("<h2>Forfeits</h2>\n<p class=\"note\">Games an outside "
                  "program gave up (an illegal move, a late reply, an "
                  "exit), among the losses above; seat 0's score over the "
                  "games played out beside it.</p>\n<div class=\"wide\">"
                  "<table class=\"sortable\" id=\"forfeits\">\n<thead><tr>"
                  "<th>variant</th><th>seat 0</th><th>seat 1</th>"
                  "<th>games</th><th>seat 0 forfeits</th>"
                  "<th>seat 1 forfeits</th><th>seat-0 score</th>"
                  "<th>seat-0 score, played out</th></tr></thead>\n"
                  "<tbody>\n", out);
        fputs("<tr>", out);
        td_text(out, c->short_variant);
        td_text(out, c->agent[0]);
        td_text(out, c->agent[1]);
        td_number(out, "%.0f", (double)c->games);
        td_number(out, "%.0f", (double)c->forfeits[0]);
        td_number(out, "%.0f", (double)c->forfeits[1]);
        td_number(out, "%.3f", c->score0);
        td_number(out, "%.3f", report_score_without_forfeits(c));
        fputs("</tr>\n", out);
    }
    if (any)
        fputs("</tbody>\n</table></div>\n", out);
}

/* Variants compared (report.h, struct compare_row): a figure of each
 * change's difference in seat-0 score with its interval against 0, and
 * the table. Nothing when no two cells differ in one parameter alone. */
static void print_compared(FILE *out, const struct report *r)
{
    if (r->n_compares == 0)
        return;
    struct svg_interval_row *rows = calloc((size_t)r->n_compares,
                                           sizeof *rows);
    /* the parameter, its two values and the two agents' names */
    char (*labels)[2 * VARIANT_TEXT_MAX + 256] =
        calloc((size_t)r->n_compares, sizeof *labels);
    if (!rows || !labels) {
        free(rows);
        free(labels);
        return;
    }
    fputs("<h2>Variants compared</h2>\n<p class=\"note\">Two cells of one "
          "sweep with the same agents in the same seats whose variants differ "
          "in one parameter alone: the later value's seat-0 score minus the "
          "earlier's, with Newcombe's 95% interval.</p>\n", out);
    for (int i = 0; i < r->n_compares; i++) {
        const struct compare_row *c = &r->compares[i];
        snprintf(labels[i], sizeof labels[i], "%s %s->%s (%s vs %s)",
                 c->param, c->value[0], c->value[1], c->agent[0],
                 c->agent[1]);
        rows[i] = (struct svg_interval_row){labels[i], c->score_diff,
                                            c->fixed_sample ? c->score_lo
                                                            : NAN,
                                            c->fixed_sample ? c->score_hi
                                                            : NAN};
    }
    fputs("<figure>\n", out);
    svg_interval_chart(out, "Change in seat-0 score per compared pair of "
                       "variants, with its 95% interval; the dashed line is "
                       "no change", rows, r->n_compares, -1, 1, 0);
    fputs("<figcaption>Change in seat-0 score (a dot), its 95% interval (a "
          "bar) and no change (dashed); the numbers are in the table below."
          "</figcaption>\n</figure>\n", out);
    fputs("<div class=\"wide\"><table class=\"sortable\" id=\"compared\">"
          "\n<thead><tr>"
          "<th>sweep</th><th>seat 0</th><th>seat 1</th><th>change</th>"
          "<th>games before</th><th>games after</th><th>score before</th>"
          "<th>score after</th><th>difference</th><th>95% low</th>"
          "<th>95% high</th><th>p</th></tr></thead>\n<tbody>\n", out);
    for (int i = 0; i < r->n_compares; i++) {
        const struct compare_row *c = &r->compares[i];
        char change[256];
        snprintf(change, sizeof change, "%s %s->%s", c->param, c->value[0],
                 c->value[1]);
        fputs("<tr>", out);
        td_text(out, c->sweep);
        td_text(out, c->agent[0]);
        td_text(out, c->agent[1]);
        td_text(out, change);
        td_number(out, "%.0f", (double)c->games[0]);
        td_number(out, "%.0f", (double)c->games[1]);
        td_number(out, "%.3f", c->score[0]);
        td_number(out, "%.3f", c->score[1]);
        td_number(out, "%+.3f", c->score_diff);
        td_number(out, "%+.3f", c->fixed_sample ? c->score_lo : NAN);
        td_number(out, "%+.3f", c->fixed_sample ? c->score_hi : NAN);
        td_number(out, "%.3g", c->score_p);
        fputs("</tr>\n", out);
    }
    fputs("</tbody>\n</table></div>\n", out);
    free(rows);
    free(labels);
}

/* The skill trace (report_skill.c), after report_build_skill: per
 * variant its verdict in words, a figure of each rung's seat-0 score with
 * its interval (the rungs by rating), and their table with the Elo. */
static void print_skill(FILE *out, const struct report *r)
{
    if (!r->skill_trace)
        return;
    fprintf(out, "<h2>Skill trace</h2>\n<p class=\"note\">Each agent that "
            "played itself is a rung; the verdict compares the seat-0 scores "
            "of the two highest-rated rungs of one agent family: converged "
            "when their difference is shown inside +/-%.3g (TOST at level "
            "%.3g).</p>\n", r->skill_delta, r->skill_alpha);
    for (int v = 0; v < r->n_skill; v++) {
        const struct skill_variant *sv = &r->skill[v];
        fputs("<h3>", out);
        html_text(out, sv->short_variant);
        fputs(": ", out);
        html_text(out, report_skill_verdict_name(sv->test.verdict));
        fputs("</h3>\n<p>", out);
        html_text(out, sv->why);
        fputs("</p>\n", out);
        if (sv->n_rungs == 0)
            continue; /* no agent played itself: nothing to draw */
        struct svg_interval_row *rows = calloc((size_t)sv->n_rungs + 1,
                                               sizeof *rows);
        char (*labels)[VARIANT_TEXT_MAX + 64] =
            calloc((size_t)sv->n_rungs + 1, sizeof *labels);
        if (!rows || !labels) {
            free(rows);
            free(labels);
            continue;
        }
        for (int i = 0; i < sv->n_rungs; i++) {
            const struct skill_rung *g = &sv->rungs[i];
            if (g->rated)
                snprintf(labels[i], sizeof labels[i], "%s (Elo %.0f)",
                         g->agent, g->elo);
            else
                snprintf(labels[i], sizeof labels[i], "%s (not rated)",
                         g->agent);
            rows[i] = (struct svg_interval_row){labels[i], g->score,
                                                g->score_lo, g->score_hi};
        }
        fputs("<figure>\n", out);
        svg_interval_chart(out, "Seat-0 score in self-play per strength "
                           "rung, weakest first, with its 95% interval; the "
                           "dashed line is 0.5", rows, sv->n_rungs, 0, 1,
                           0.5);
        fputs("<figcaption>Seat-0 score in self-play per rung (a dot), its "
              "95% interval (a bar) and 0.5 (dashed).</figcaption>\n"
              "</figure>\n<div class=\"wide\"><table class=\"sortable\">"
              "\n<thead><tr><th>rung</th><th>games</th><th>seat-0 score</th>"
              "<th>95% low</th><th>95% high</th><th>draws</th><th>Elo</th>"
              "<th>Elo 95% low</th><th>Elo 95% high</th></tr></thead>\n"
              "<tbody>\n", out);
        for (int i = 0; i < sv->n_rungs; i++) {
            const struct skill_rung *g = &sv->rungs[i];
            fputs("<tr><td class=\"text\" title=\"", out);
            html_text(out, g->spec);
            fputs("\">", out);
            html_text(out, g->agent);
            fputs("</td>", out);
            td_number(out, "%.0f", (double)g->games);
            td_number(out, "%.3f", g->score);
            td_number(out, "%.3f", g->score_lo);
            td_number(out, "%.3f", g->score_hi);
            td_number(out, "%.3f", g->draw);
            td_number(out, "%.0f", g->rated ? g->elo : NAN);
            td_number(out, "%.0f", g->rated ? g->elo_lo : NAN);
            td_number(out, "%.0f", g->rated ? g->elo_hi : NAN);
            fputs("</tr>\n", out);
        }
        fputs("</tbody>\n</table></div>\n", out);
        free(rows);
        free(labels);
    }
}

/* The game metrics per cell (report.h, report_metrics), with --metrics. */
static void print_metrics(FILE *out, const struct report *r)
{
    fputs("<h2>Game metrics</h2>\n<p class=\"note\">Per cell: shares of "
          "games decisive (won by either seat), drawn by the rules and "
          "drawn by the ply cap, with 95% Wilson intervals; the length in "
          "plies, mean with its 95% interval and median; legal moves per "
          "position (games cached by rulelab metrics); lead changes a game "
          "and the share of a decisive game before its winner led for good "
          "(sweeps with record = search). n/a: no such games.</p>\n"
          "<div class=\"wide\"><table class=\"sortable\" id=\"metrics\">"
          "\n<thead><tr><th>variant</th><th>seat 0</th><th>seat 1</th>"
          "<th>games</th><th>decisive</th><th>95% low</th><th>95% high</th>"
          "<th>drawn by the rules</th><th>95% low</th><th>95% high</th>"
          "<th>drawn by the cap</th><th>95% low</th><th>95% high</th>"
          "<th>mean plies</th><th>95% low</th><th>95% high</th>"
          "<th>median plies</th><th>branching</th><th>lead changes</th>"
          "<th>lead settled</th></tr></thead>\n<tbody>\n", out);
    for (int i = 0; i < r->n_cells; i++) {
        const struct report_row *c = &r->cells[i];
        struct report_metrics m;
        report_metrics(c, &m);
        int ok = c->fixed_sample;
        const double shares[][3] = {
            {m.decisive, m.decisive_lo, m.decisive_hi},
            {m.rule_draws, m.rule_draws_lo, m.rule_draws_hi},
            {m.cap_draws, m.cap_draws_lo, m.cap_draws_hi},
            {m.mean_plies, m.mean_lo, m.mean_hi}};
        fputs("<tr><td class=\"text\" title=\"", out);
        html_text(out, c->variant);
        fputs("\">", out);
        html_text(out, c->short_variant);
        fputs("</td>", out);
        td_text(out, c->agent[0]);
        td_text(out, c->agent[1]);
        td_number(out, "%.0f", (double)c->games);
        for (int k = 0; k < 4; k++) {
            const char *format = k == 3 ? "%.1f" : "%.3f";
            td_number(out, format, shares[k][0]);
            td_number(out, format, ok ? shares[k][1] : NAN);
            td_number(out, format, ok ? shares[k][2] : NAN);
        }
        td_number(out, "%.1f", m.median_plies);
        td_number(out, "%.2f", c->branching);
        td_number(out, "%.2f", c->lead_changes);
        td_number(out, "%.2f", c->lead_settled);
        fputs("</tr>\n", out);
    }
    fputs("</tbody>\n</table></div>\n", out);
}

/* Per variant, a bar chart of its game lengths. */
static void print_lengths(FILE *out, const struct report *r)
{
    fputs("<h2>Game lengths</h2>\n<p class=\"note\">Games per length, in "
          "plies, per variant (all agent pairs together).</p>\n", out);
    for (int i = 0; i < r->n_variants; i++) {
        const struct report_row *v = &r->variants[i];
        struct svg_bar_row rows[REPORT_LENGTH_BINS];
        char labels[REPORT_LENGTH_BINS][48], title[VARIANT_TEXT_MAX + 64];
        int n = 0;
        for (int b = 0; b < REPORT_LENGTH_BINS; b++)
            if (v->length_bins[b])
                n = b + 1;
        for (int b = 0; b < n; b++) {
            snprintf(labels[b], sizeof labels[b], "%ld-%ld plies",
                     b * v->length_bin, (b + 1) * v->length_bin - 1);
            rows[b] = (struct svg_bar_row){labels[b], v->length_bins[b]};
        }
        snprintf(title, sizeof title, "Game lengths of %s: games per "
                 "length in plies", v->short_variant);
        fputs("<figure>\n", out);
        svg_bar_chart(out, title, rows, n);
        fputs("<figcaption>", out);
        html_text(out, v->short_variant);
        fprintf(out, ": %ld games, mean %.1f plies, median %.1f."
                "</figcaption>\n</figure>\n", v->games, v->mean_plies,
                v->median_plies);
    }
}

/* Per variant, a bar chart of how its games ended. */
static void print_endings(FILE *out, const struct report *r)
{
    fputs("<h2>How games ended</h2>\n<p class=\"note\">Games per reason "
          "(docs/rules.md names each; draws among them: repetition, "
          "no_capture, stalemate where it draws, ply_cap the ply cap), "
          "per variant.</p>\n", out);
    for (int i = 0; i < r->n_variants; i++) {
        const struct report_row *v = &r->variants[i];
        struct svg_bar_row rows[REASON_COUNT];
        char title[VARIANT_TEXT_MAX + 64];
        for (int k = 0; k < v->n_endings; k++)
            rows[k] = (struct svg_bar_row){v->endings[k].reason,
                                           v->endings[k].games};
        snprintf(title, sizeof title, "How the games of %s ended: games "
                 "per reason", v->short_variant);
        fputs("<figure>\n", out);
        svg_bar_chart(out, title, rows, v->n_endings);
        fputs("<figcaption>", out);
        html_text(out, v->short_variant);
        fputs("</figcaption>\n</figure>\n", out);
    }
}

/* The ratings of one variant: a sentence, the interval chart, the rows of
 * the ratings table. */
static void print_variant_ratings(FILE *out, const struct ratings_variant *v)
{
    const struct ratings_fit *fit = &v->fit;
    fputs("<h3>", out);
    html_text(out, v->short_variant);
    fputs("</h3>\n<p>", out);
    if (fit->status != RATINGS_OK) {
        fputs("No ratings: ", out);
        html_text(out, fit->message);
        fputs("</p>\n", out);
        return;
    }
    fprintf(out, "%ld games. First-move advantage %+.0f Elo (%+.0f to "
            "%+.0f). Anchor: ", fit->games, fit->adv,
            fit->adv - STATS_Z95 * fit->adv_se,
            fit->adv + STATS_Z95 * fit->adv_se);
    html_text(out, v->anchor_note);
    fputs(".</p>\n", out);
    struct svg_interval_row rows[64];
    int n = 0;
    double lo = v->anchor_elo, hi = v->anchor_elo;
    for (int k = 0; k < v->n_agents && n < 64; k++) {
        int a = v->order[k];
        if (!fit->rated[a])
            continue;
        double d = STATS_Z95 * fit->se[a];
        rows[n++] = (struct svg_interval_row){v->agents[a].name, fit->elo[a],
                                              fit->elo[a] - d,
                                              fit->elo[a] + d};
        lo = fmin(lo, fit->elo[a] - d);
        hi = fmax(hi, fit->elo[a] + d);
    }
    if (n < 2) { /* the anchor alone: nothing to draw against it */
        fputs("<p>Only the anchor is rated: no other agent played a game "
              "against it or against an agent that did.</p>\n", out);
        return;
    }
    double pad = (hi - lo) * 0.05 + 10;
    fputs("<figure>\n", out);
    svg_interval_chart(out, "Elo per agent with its 95% interval, relative "
                       "to the anchor (dashed)", rows, n, lo - pad, hi + pad,
                       v->anchor_elo);
    fputs("<figcaption>Elo per agent (a dot), its 95% interval (a bar) and "
          "the anchor (dashed).</figcaption>\n</figure>\n", out);
}

/* Ratings per variant (ratings.h): the chart, and one table of every
 * rated agent with its Elo and interval (none without one). Nothing
 * without ratings. */
static void print_ratings(FILE *out, const struct ratings *rt)
{
    if (!rt || rt->n_variants == 0)
        return;
    fputs("<h2>Ratings</h2>\n<p class=\"note\">Elo per agent and variant "
          "by maximum likelihood, with a first-move term, as rulelab "
          "ratings computes them.</p>\n", out);
    for (int i = 0; i < rt->n_variants; i++)
        print_variant_ratings(out, &rt->variants[i]);
    int rows = 0;
    for (int i = 0; i < rt->n_variants; i++) {
        const struct ratings_variant *v = &rt->variants[i];
        for (int k = 0; k < v->n_agents && v->fit.status == RATINGS_OK; k++) {
            int a = v->order[k];
            if (!v->fit.rated[a])
                continue;
            if (!rows++)
                fputs("<div class=\"wide\"><table class=\"sortable\" "
                      "id=\"ratings\">\n<thead><tr><th>variant</th>"
                      "<th>agent</th><th>games</th><th>Elo</th>"
                      "<th>95% low</th><th>95% high</th></tr></thead>\n"
                      "<tbody>\n", out);
            double d = STATS_Z95 * v->fit.se[a];
            fputs("<tr><td class=\"text\" title=\"", out);
            html_text(out, v->variant);
            fputs("\">", out);
            html_text(out, v->short_variant);
            fputs("</td>", out);
            td_text(out, v->agents[a].name);
            td_number(out, "%.0f", (double)v->agents[a].games);
            td_number(out, "%.0f", v->fit.elo[a]);
            td_number(out, "%.0f", v->fit.elo[a] - d);
            td_number(out, "%.0f", v->fit.elo[a] + d);
            fputs("</tr>\n", out);
        }
    }
    if (rows)
        fputs("</tbody>\n</table></div>\n", out);
}

/* The cells' figure: each cell's seat-0 score with its interval (none
 * for a cell an early stop ended). */
static void print_cells_figure(FILE *out, const struct report *r)
{
    size_t n = (size_t)r->n_cells + 1;
    struct svg_interval_row *rows = calloc(n, sizeof *rows);
    char (*labels)[3 * VARIANT_TEXT_MAX + 16] = calloc(n, sizeof *labels);
    for (int i = 0; rows && labels && i < r->n_cells; i++) {
        const struct report_row *c = &r->cells[i];
        row_label(c, 1, labels[i], sizeof labels[i]);
        rows[i] = (struct svg_interval_row){labels[i], c->score0,
                                            c->fixed_sample ? c->lo : NAN,
                                            c->fixed_sample ? c->hi : NAN};
    }
    if (rows && labels) {
        fputs("<figure>\n", out);
        svg_interval_chart(out, "Seat-0 score per cell, with its 95% "
                           "interval; the dashed line is 0.5, a fair game",
                           rows, r->n_cells, 0, 1, 0.5);
        fputs("<figcaption>Seat-0 score per cell (a dot), its 95% Wilson "
              "interval (a bar) and 0.5 (dashed); the numbers are in the "
              "cells table below.</figcaption>\n</figure>\n", out);
    }
    free(rows);
    free(labels);
}

/* The figure: each variant's seat-0 score with its interval. */
static void print_figure(FILE *out, const struct report *r)
{
    struct svg_interval_row *rows = calloc((size_t)r->n_variants + 1,
                                           sizeof *rows);
    if (!rows)
        return;
    for (int i = 0; i < r->n_variants; i++) {
        const struct report_row *v = &r->variants[i];
        rows[i] = (struct svg_interval_row){v->short_variant, v->score0,
                                            v->fixed_sample ? v->lo : NAN,
                                            v->fixed_sample ? v->hi : NAN};
    }
    fputs("<figure>\n", out);
    svg_interval_chart(out, "Seat-0 score per variant, with its 95% "
                       "interval; the dashed line is 0.5, a fair game",
                       rows, r->n_variants, 0, 1, 0.5);
    fputs("<figcaption>Seat-0 score per variant (a dot), its 95% Wilson "
          "interval (a bar) and 0.5 (dashed). The numbers are in the "
          "variants table below.</figcaption>\n</figure>\n", out);
    free(rows);
}

/* The page's head, its title and the lines on the run and the page. */
static void print_head(const struct html_page *page, FILE *out)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
          "<meta charset=\"utf-8\">\n", out);
    if (page->reload_seconds > 0)
        fprintf(out, "<meta http-equiv=\"refresh\" content=\"%d\">\n",
                page->reload_seconds);
    fputs("<title>rulelab report: ", out);
    html_text(out, page->source);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
    fputs("<h1>rulelab report: ", out);
    html_text(out, page->source);
    fputs("</h1>\n", out);
    if (page->reload_seconds > 0) {
        fputs("<p class=\"note\"><strong>Written while a sweep runs</strong>,"
              " at ", out);
        html_text(out, page->written);
        fprintf(out, " (UTC); it reloads itself every %d s while the run "
                "goes on. A page written more than a minute or two ago is "
                "from a run that has stopped without ending it (killed): "
                "its last run below still says running.</p>\n",
                page->reload_seconds);
    }
    if (page->last_run[0]) {
        fputs("<p>Runs: ", out);
        html_text(out, page->last_run);
        fputs(".</p>\n", out);
    }
}

void report_print_html(const struct report *r, const struct html_page *page,
                       FILE *out)
{
    long games = 0;
    for (int i = 0; i < r->n_variants; i++)
        games += r->variants[i].games;
    print_head(page, out);
    fprintf(out, "<p>%ld game%s in %d cell%s of %d variant%s. The seat-0 "
            "score is (wins + draws / 2) / games for the seat that moves "
            "first; its 95%% interval is Wilson's.</p>\n", games,
            games == 1 ? "" : "s", r->n_cells, r->n_cells == 1 ? "" : "s",
            r->n_variants, r->n_variants == 1 ? "" : "s");
    if (r->n_variants == 0) {
        fputs("<p>The database holds no games to report.</p>\n</body>\n"
              "</html>\n", out);
        return;
    }
    fputs("<h2>Summary</h2>\n<ul>\n", out);
    for (int i = 0; i < r->n_variants; i++) {
        const struct report_row *v = &r->variants[i];
        char label[VARIANT_TEXT_MAX + 8];
        row_label(v, 0, label, sizeof label);
        fputs("<li><strong>", out);
        html_text(out, label);
        fprintf(out, "</strong>: seat 0 scores %.3f", v->score0);
        if (v->fixed_sample && !isnan(v->lo))
            fprintf(out, " (%.3f to %.3f)", v->lo, v->hi);
        fprintf(out, " over %ld games: ", v->games);
        html_text(out, verdict(v));
        fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
    print_figure(out, r);
    fputs("<h2>Variants</h2>\n<p class=\"note\">All agent pairs together; "
          "hover a variant for its full text. Click a heading to sort.</p>\n",
          out);
    print_rows(out, "variants", r->variants, r->n_variants, 0);
    fputs("<h2>Cells</h2>\n<p class=\"note\">Variant x seat-0 agent x seat-1 "
          "agent.</p>\n", out);
    print_cells_figure(out, r);
    print_rows(out, "cells", r->cells, r->n_cells, 1);
    print_forfeits(out, r);
    print_compared(out, r);
    print_skill(out, r);
    if (r->print_metrics)
        print_metrics(out, r);
    print_lengths(out, r);
    print_endings(out, r);
    print_ratings(out, page->ratings);
    fprintf(out, "<script>%s</script>\n</body>\n</html>\n", sort_script);
}
