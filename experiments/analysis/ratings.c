/*
 * ratings.c -- maximum-likelihood Elo ratings per variant (the model, the
 * interval method and when there is no estimate: ratings.h), read from the
 * store and printed as a table, CSV, JSON or Markdown.
 *
 * Reading: one SQL statement counts each cell's seat-0 wins, draws and
 * seat-1 wins (GROUP BY cell over the games table), inside a savepoint so
 * every number comes from one snapshot; cells are then merged here into
 * (variant, seat-0 agent, seat-1 agent) counts, so the fit works on a
 * table of at most agents^2 rows whatever the number of games.
 *
 * The fit itself is in ratings_fit.c.
 */
#include "ratings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "report.h"
#include "sweep.h"

#define Z95 1.959963984540054

/* ---- reading the store ------------------------------------------------ */

static int db_fail(sqlite3 *db, char *err, size_t errsz)
{
    snprintf(err, errsz, "reading the database: %s", sqlite3_errmsg(db));
    return -1;
}

/* Grows *array (of *cap elements of size) to hold n + 1; 0 or -1. */
static int grow(void **array, int *cap, int n, size_t size)
{
    if (n < *cap)
        return 0;
    int next = *cap ? 2 * *cap : 8;
    void *bigger = realloc(*array, size * (size_t)next);
    if (!bigger)
        return -1;
    memset((char *)bigger + size * (size_t)*cap, 0,
           size * (size_t)(next - *cap));
    *array = bigger;
    *cap = next;
    return 0;
}

struct reading {
    int cap_variants;
    int *cap_agents, *cap_rows, *cap_sweeps; /* per variant */
};

/* The index of agent `id` in v, added if new; -1 when memory ran short. */
static int agent_index(struct ratings_variant *v, int *cap, sqlite3_stmt *q,
                       int column)
{
    int64_t id = sqlite3_column_int64(q, column);
    for (int i = 0; i < v->n_agents; i++)
        if (v->agents[i].id == id)
            return i;
    if (grow((void **)&v->agents, cap, v->n_agents, sizeof *v->agents))
        return -1;
    struct ratings_agent *a = &v->agents[v->n_agents];
    a->id = id;
    snprintf(a->spec, sizeof a->spec, "%s", sqlite3_column_text(q, column + 1));
    snprintf(a->identity, sizeof a->identity, "%s",
             sqlite3_column_text(q, column + 2));
    snprintf(a->name, sizeof a->name, "%s", sqlite3_column_text(q, column + 3));
    return v->n_agents++;
}

/* Adds one cell's counts (a row of the query in ratings_build) to r. */
static int add_cell(struct ratings *r, struct reading *rd, sqlite3_stmt *q,
                    const char *anchor, const char *anchor_identity,
                    int *anchor_found)
{
    int64_t vid = sqlite3_column_int64(q, 0);
    int vi = 0;
    while (vi < r->n_variants && r->variants[vi].variant_id != vid)
        vi++;
    if (vi == r->n_variants) {
        int old = rd->cap_variants;
        if (grow((void **)&r->variants, &rd->cap_variants, r->n_variants,
                 sizeof *r->variants))
            return -1;
        if (rd->cap_variants != old) {
            int *caps[3] = {rd->cap_agents, rd->cap_rows, rd->cap_sweeps};
            for (int k = 0; k < 3; k++) {
                int *bigger = realloc(caps[k], sizeof *bigger
                                      * (size_t)rd->cap_variants);
                if (!bigger)
                    return -1;
                memset(bigger + old, 0, sizeof *bigger
                       * (size_t)(rd->cap_variants - old));
                caps[k] = bigger;
            }
            rd->cap_agents = caps[0];
            rd->cap_rows = caps[1];
            rd->cap_sweeps = caps[2];
        }
        struct ratings_variant *v = &r->variants[r->n_variants++];
        v->variant_id = vid;
        snprintf(v->variant, sizeof v->variant, "%s", sqlite3_column_text(q, 1));
        report_short_variant(v->variant, v->short_variant,
                             sizeof v->short_variant);
        v->first_sweep = sqlite3_column_int64(q, 10);
    }
    struct ratings_variant *v = &r->variants[vi];
    int a[2];
    for (int k = 0; k < 2; k++) {
        a[k] = agent_index(v, &rd->cap_agents[vi], q, 2 + 4 * k);
        if (a[k] < 0)
            return -1;
        const char *name = (const char *)sqlite3_column_text(q, 5 + 4 * k);
        if (anchor && (strcmp(name, anchor) == 0
                       || strcmp(v->agents[a[k]].identity, anchor_identity) == 0))
            v->agents[a[k]].named = *anchor_found = 1;
    }
    int ri = 0;
    while (ri < v->n_rows && (v->rows[ri].a0 != a[0] || v->rows[ri].a1 != a[1]))
        ri++;
    if (ri == v->n_rows) {
        if (grow((void **)&v->rows, &rd->cap_rows[vi], v->n_rows,
                 sizeof *v->rows))
            return -1;
        v->rows[v->n_rows++] = (struct ratings_count){a[0], a[1], 0, 0, 0};
    }
    struct ratings_count *c = &v->rows[ri];
    long w = (long)sqlite3_column_int64(q, 13), d = (long)sqlite3_column_int64(q, 14),
         l = (long)sqlite3_column_int64(q, 15);
    c->wins0 += w;
    c->draws += d;
    c->wins1 += l;
    v->games += w + d + l;
    if (a[0] != a[1])
        for (int k = 0; k < 2; k++) {
            v->agents[a[k]].games += w + d + l;
            v->agents[a[k]].points += (double)(k ? l : w) + (double)d / 2;
        }
    int64_t sid = sqlite3_column_int64(q, 10);
    int si = 0;
    while (si < v->n_sweeps && v->sweep_ids[si] != sid)
        si++;
    if (si == v->n_sweeps) {
        if (grow((void **)&v->sweep_ids, &rd->cap_sweeps[vi], v->n_sweeps,
                 sizeof *v->sweep_ids))
            return -1;
        v->sweep_ids[v->n_sweeps++] = sid;
        if (sid < v->first_sweep)
            v->first_sweep = sid;
        size_t len = strlen(v->sweeps);
        snprintf(v->sweeps + len, sizeof v->sweeps - len, "%s%s (seed %lld)",
                 len ? ", " : "", sqlite3_column_text(q, 11),
                 (long long)sqlite3_column_int64(q, 12));
    }
    return 0;
}

/* "no agent 'X' in the database; its agents: a = spec, ..." */
static void unknown_anchor(const struct ratings *r, const char *anchor,
                           char *err, size_t errsz)
{
    size_t len = (size_t)snprintf(err, errsz, "--anchor: no agent '%s' (by "
                                  "spec or short name) played in %s; its "
                                  "agents:", anchor, r->one_sweep
                                  ? "the sweep" : "the database");
    int said = 0;
    for (int v = 0; v < r->n_variants; v++)
        for (int i = 0; i < r->variants[v].n_agents && len < errsz; i++) {
            const struct ratings_agent *a = &r->variants[v].agents[i];
            int seen = 0;
            for (int w = 0; w <= v && !seen; w++)
                for (int j = 0; j < (w < v ? r->variants[w].n_agents : i); j++)
                    seen |= r->variants[w].agents[j].id == a->id;
            if (!seen)
                len += (size_t)snprintf(err + len, errsz - len, "%s %s = %s",
                                        said++ ? "," : "", a->name, a->spec);
        }
    if (!said && len < errsz)
        snprintf(err + len, errsz - len, " none");
}

/* The default anchor of v: `random` if it played, else the first agent
 * of the lowest sweep's file that played, else the first agent read. */
static int default_anchor(sqlite3 *db, struct ratings_variant *v,
                          const char *random_identity, char *err, size_t errsz)
{
    for (int i = 0; i < v->n_agents; i++)
        if (strcmp(v->agents[i].identity, random_identity) == 0) {
            snprintf(v->anchor_note, sizeof v->anchor_note,
                     "default: random at 0");
            return i;
        }
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT name, file_text FROM sweeps WHERE id"
                           " = ?1", -1, &q, NULL) != SQLITE_OK
        || sqlite3_bind_int64(q, 1, v->first_sweep) != SQLITE_OK) {
        sqlite3_finalize(q);
        return db_fail(db, err, errsz) - 1;
    }
    int rc = sqlite3_step(q), found = -1;
    if (rc == SQLITE_ROW && sqlite3_column_text(q, 1)) {
        struct sweep s;
        char why[512];
        if (sweep_parse_stored((const char *)sqlite3_column_text(q, 1), &s,
                               why, sizeof why) == 0) {
            for (int k = 0; k < s.n_agents && found < 0; k++) {
                char identity[VARIANT_TEXT_MAX];
                if (agent_identity(s.agents[k].spec, identity, sizeof identity,
                                   why, sizeof why) < 0)
                    continue;
                for (int i = 0; i < v->n_agents && found < 0; i++)
                    if (strcmp(v->agents[i].identity, identity) == 0)
                        found = i;
            }
            sweep_free(&s);
        }
        if (found >= 0)
            snprintf(v->anchor_note, sizeof v->anchor_note, "default: the "
                     "first agent of sweep %s's file (no random), at 0",
                     sqlite3_column_text(q, 0));
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return db_fail(db, err, errsz) - 1;
    if (found < 0) {
        snprintf(v->anchor_note, sizeof v->anchor_note, "default: the first "
                 "agent read (no random, sweep file unreadable), at 0");
        found = 0;
    }
    return found;
}

/* Anchors and fits variant v, and orders its agents by rating. */
static int rate_variant(sqlite3 *db, struct ratings_variant *v,
                        const char *anchor, double anchor_elo,
                        const char *random_identity, char *err, size_t errsz)
{
    v->anchor = -1;
    for (int i = 0; i < v->n_agents && v->anchor < 0; i++)
        if (v->agents[i].named) {
            v->anchor = i;
            v->anchor_elo = anchor_elo;
            snprintf(v->anchor_note, sizeof v->anchor_note, "--anchor");
        }
    if (v->anchor < 0) {
        v->anchor = default_anchor(db, v, random_identity, err, errsz);
        if (v->anchor < 0)
            return -1;
        v->anchor_elo = 0;
        if (anchor) {
            size_t len = strlen(v->anchor_note);
            snprintf(v->anchor_note + len, sizeof v->anchor_note - len,
                     " (--anchor %s did not play this variant)", anchor);
        }
    }
    const char **names = ratings_calloc((size_t)v->n_agents, sizeof *names);
    v->order = ratings_calloc((size_t)v->n_agents, sizeof *v->order);
    if (!names || !v->order) {
        free(names);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    for (int i = 0; i < v->n_agents; i++)
        names[i] = v->agents[i].name;
    int rc = ratings_fit(v->rows, v->n_rows, v->n_agents, v->anchor,
                         v->anchor_elo, names, &v->fit, err, errsz);
    free(names);
    if (rc)
        return -1;
    /* rated by rating (all of them if the fit failed: first-read order),
     * then the unrated */
    int n = 0, ok = v->fit.status == RATINGS_OK;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < v->n_agents; i++) {
            if (v->fit.rated[i] != !pass)
                continue;
            int k = n++;
            while (ok && pass == 0 && k > 0
                   && v->fit.elo[v->order[k - 1]] < v->fit.elo[i]) {
                v->order[k] = v->order[k - 1];
                k--;
            }
            v->order[k] = i;
        }
    return 0;
}

int ratings_build(sqlite3 *db, const char *sweep, const char *anchor,
                  double anchor_elo, struct ratings *r, char *err,
                  size_t errsz)
{
    memset(r, 0, sizeof *r);
    if (errsz)
        *err = '\0';
    if (sweep) {
        r->one_sweep = 1;
        snprintf(r->sweep, sizeof r->sweep, "%s", sweep);
    }
    char anchor_identity[VARIANT_TEXT_MAX] = "", random_identity[64], why[256];
    if (anchor && agent_identity(anchor, anchor_identity,
                                 sizeof anchor_identity, why, sizeof why) < 0)
        anchor_identity[0] = '\0'; /* not a spec: a short name, maybe */
    if (agent_identity("random", random_identity, sizeof random_identity, why,
                       sizeof why) < 0)
        snprintf(random_identity, sizeof random_identity, "random");
    if (sqlite3_exec(db, "SAVEPOINT rulelab_ratings", NULL, NULL, NULL)
        != SQLITE_OK)
        return db_fail(db, err, errsz);
    /* Counted per cell first (the games' own index on cell_id serves the
     * GROUP BY), then joined with the few cells. */
    static const char *const sql =
        "SELECT c.variant_id, v.canonical,"
        " a0.id, a0.spec, a0.identity, c.agent0_name,"
        " a1.id, a1.spec, a1.identity, c.agent1_name,"
        " s.id, s.name, s.seed, g.w, g.d, g.l"
        " FROM (SELECT cell_id, SUM(result = 'seat0') AS w,"
        " SUM(result = 'draw') AS d, SUM(result = 'seat1') AS l"
        " FROM games GROUP BY cell_id) g"
        " JOIN cells c ON c.id = g.cell_id JOIN sweeps s ON s.id = c.sweep_id"
        " JOIN variants v ON v.id = c.variant_id"
        " JOIN agents a0 ON a0.id = c.agent0_id"
        " JOIN agents a1 ON a1.id = c.agent1_id"
        " WHERE (?1 IS NULL OR s.name = ?1) ORDER BY c.id";
    struct reading rd = {0, NULL, NULL, NULL};
    sqlite3_stmt *q = NULL;
    int rc = -1, step = SQLITE_DONE, anchor_found = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK
        || (sweep && sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC)
                         != SQLITE_OK)) {
        db_fail(db, err, errsz);
        goto done;
    }
    while ((step = sqlite3_step(q)) == SQLITE_ROW)
        if (add_cell(r, &rd, q, anchor, anchor_identity, &anchor_found)) {
            snprintf(err, errsz, "out of memory");
            goto done;
        }
    if (step != SQLITE_DONE) {
        db_fail(db, err, errsz);
        goto done;
    }
    if (anchor && !anchor_found) {
        unknown_anchor(r, anchor, err, errsz);
        goto done;
    }
    for (int v = 0; v < r->n_variants; v++)
        if (rate_variant(db, &r->variants[v], anchor, anchor_elo,
                         random_identity, err, errsz))
            goto done;
    rc = 0;
done:
    sqlite3_finalize(q);
    free(rd.cap_agents);
    free(rd.cap_rows);
    free(rd.cap_sweeps);
    if (sqlite3_exec(db, "RELEASE rulelab_ratings", NULL, NULL, NULL)
        != SQLITE_OK && rc == 0)
        rc = db_fail(db, err, errsz);
    if (rc)
        ratings_free(r);
    return rc;
}

void ratings_free(struct ratings *r)
{
    for (int v = 0; v < r->n_variants; v++) {
        struct ratings_variant *x = &r->variants[v];
        free(x->agents);
        free(x->rows);
        free(x->sweep_ids);
        free(x->order);
        ratings_fit_free(&x->fit);
    }
    free(r->variants);
    memset(r, 0, sizeof *r);
}

/* ---- printing ------------------------------------------------------------ */

static const char *const model_text =
    "Elo ratings by maximum likelihood: Davidson's Bradley-Terry model with"
    " draws (a draw counts half a point) and a first-move term fitted with"
    " them; 95% intervals from the inverse Hessian, relative to the anchor;"
    " LOS = P(stronger than the next agent down), normal approximation.";

static const char *const status_names[] = {"ok", "no_games", "infinite",
                                           "not_converged"};

static const char *games_origin(const struct ratings *r,
                                const struct ratings_variant *v, char *buf,
                                size_t n)
{
    if (v->n_sweeps > 1)
        snprintf(buf, n, "pooled across %d sweeps%s: %s", v->n_sweeps,
                 r->one_sweep ? " of that name" : "", v->sweeps);
    else
        snprintf(buf, n, "from sweep %s", v->sweeps);
    return buf;
}

/* Sets t up with n_columns headers and n_rows empty rows; 0 or -1. */
static int table_init(struct table *t, const char *const *headers,
                      int n_columns, int n_rows)
{
    memset(t, 0, sizeof *t);
    t->n_columns = n_columns;
    t->n_rows = n_rows;
    memcpy(t->header, headers, sizeof *headers * (size_t)n_columns);
    t->cells = ratings_calloc((size_t)n_rows, sizeof *t->cells);
    return t->cells ? 0 : -1;
}

/* One agent's row: rank, agent, spec, games, score, elo, ci95, los_next
 * (table and Markdown); CSV puts the variant first and the interval in
 * two columns. */
static void fill_agent(const struct ratings_variant *v, int k, int csv,
                       char (*cell)[VARIANT_TEXT_MAX])
{
    const struct ratings_fit *fit = &v->fit;
    int i = v->order[k], c = 0, ok = fit->status == RATINGS_OK;
    const struct ratings_agent *a = &v->agents[i];
    if (csv)
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%s", v->variant);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%d", k + 1);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%s", a->name);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%s", a->spec);
    snprintf(cell[c++], VARIANT_TEXT_MAX, "%ld", a->games);
    if (a->games)
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%.3f",
                 a->points / (double)a->games);
    else
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%s", csv ? "" : "-");
    const char *none = csv ? "" : !fit->rated[i] ? "not rated" : "-";
    if (ok && fit->rated[i]) {
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%.1f", fit->elo[i]);
        double lo = fit->elo[i] - Z95 * fit->se[i],
               hi = fit->elo[i] + Z95 * fit->se[i];
        if (csv) {
            snprintf(cell[c++], VARIANT_TEXT_MAX, "%.1f", lo);
            snprintf(cell[c++], VARIANT_TEXT_MAX, "%.1f", hi);
        } else if (i == v->anchor) {
            snprintf(cell[c++], VARIANT_TEXT_MAX, "anchor");
        } else {
            snprintf(cell[c++], VARIANT_TEXT_MAX, "%.1f to %.1f", lo, hi);
        }
    } else {
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%s", none);
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%s", csv ? "" : !fit->rated[i]
                 ? "never met the anchor's group" : "-");
        if (csv)
            snprintf(cell[c++], VARIANT_TEXT_MAX, "%s", "");
    }
    int next = k + 1 < v->n_agents ? v->order[k + 1] : -1;
    if (ok && fit->rated[i] && next >= 0 && fit->rated[next])
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%.3f",
                 ratings_los(fit, i, next));
    else
        snprintf(cell[c++], VARIANT_TEXT_MAX, "%s", "");
}

static void print_text_variant(const struct ratings *r,
                               const struct ratings_variant *v,
                               enum report_format f, FILE *out)
{
    const struct ratings_fit *fit = &v->fit;
    char origin[700];
    const char *item = f == REPORT_MARKDOWN ? "- " : "  ";
    if (f == REPORT_MARKDOWN)
        fprintf(out, "\n### %s\n\n", v->short_variant);
    else
        fprintf(out, "\n%s\n", v->short_variant);
    fprintf(out, "%s%ld games, %s\n", item, v->games,
            games_origin(r, v, origin, sizeof origin));
    fprintf(out, "%sanchor: %s = %g (%s)\n", item, v->agents[v->anchor].name,
            v->anchor_elo, v->anchor_note);
    if (fit->status != RATINGS_OK) {
        fprintf(out, "%sno ratings: %s\n", item, fit->message);
    } else {
        fprintf(out, "%sfirst-move advantage: %+.1f Elo (95%% %+.1f to %+.1f)"
                "\n", item, fit->adv, fit->adv - Z95 * fit->adv_se,
                fit->adv + Z95 * fit->adv_se);
        if (fit->has_draws)
            fprintf(out, "%sdraw parameter nu: %.3f (95%% %.3f to %.3f): "
                    "equal agents, seats alike, draw %.1f%% of games\n", item,
                    fit->nu, fit->nu_lo, fit->nu_hi,
                    100 * fit->nu / (2 + fit->nu));
        else
            fprintf(out, "%sdraw parameter nu: 0 (no game was drawn)\n", item);
    }
    static const char *const headers[] = {"rank", "agent", "spec", "games",
                                          "score", "elo", "ci95", "los_next"};
    struct table t;
    if (table_init(&t, headers, 8, v->n_agents))
        return;
    for (int k = 0; k < v->n_agents; k++)
        fill_agent(v, k, 0, t.cells[k]);
    if (f == REPORT_MARKDOWN)
        fputc('\n', out);
    table_print(&t, f, out);
    free(t.cells);
}

static void print_csv(const struct ratings *r, FILE *out)
{
    static const char *const vheaders[] = {
        "variant", "games", "sweeps", "pooled", "anchor", "anchor_spec",
        "anchor_elo", "status", "message", "first_move_elo", "first_move_lo",
        "first_move_hi", "draw_nu", "draw_nu_lo", "draw_nu_hi"};
    struct table t;
    if (table_init(&t, vheaders, 15, r->n_variants))
        return;
    int rows = 0;
    for (int i = 0; i < r->n_variants; i++) {
        const struct ratings_variant *v = &r->variants[i];
        const struct ratings_fit *fit = &v->fit;
        char (*cell)[VARIANT_TEXT_MAX] = t.cells[i];
        int ok = fit->status == RATINGS_OK;
        rows += v->n_agents;
        snprintf(cell[0], VARIANT_TEXT_MAX, "%s", v->variant);
        snprintf(cell[1], VARIANT_TEXT_MAX, "%ld", v->games);
        snprintf(cell[2], VARIANT_TEXT_MAX, "%s", v->sweeps);
        snprintf(cell[3], VARIANT_TEXT_MAX, "%d", v->n_sweeps > 1);
        snprintf(cell[4], VARIANT_TEXT_MAX, "%s", v->agents[v->anchor].name);
        snprintf(cell[5], VARIANT_TEXT_MAX, "%s", v->agents[v->anchor].spec);
        snprintf(cell[6], VARIANT_TEXT_MAX, "%g", v->anchor_elo);
        snprintf(cell[7], VARIANT_TEXT_MAX, "%s", status_names[fit->status]);
        snprintf(cell[8], VARIANT_TEXT_MAX, "%s", fit->message);
        double values[6] = {fit->adv, fit->adv - Z95 * fit->adv_se,
                            fit->adv + Z95 * fit->adv_se, fit->nu, fit->nu_lo,
                            fit->nu_hi};
        for (int k = 0; k < 6; k++)
            if (ok && (k < 3 || fit->has_draws))
                snprintf(cell[9 + k], VARIANT_TEXT_MAX, k < 3 ? "%.1f" : "%.4f",
                         values[k]);
            else if (ok)
                snprintf(cell[9 + k], VARIANT_TEXT_MAX, "0");
    }
    fprintf(out, "# variants\n");
    table_print(&t, REPORT_CSV, out);
    free(t.cells);
    static const char *const aheaders[] = {
        "variant", "rank", "agent", "spec", "games", "score", "elo", "elo_lo",
        "elo_hi", "los_next"};
    struct table u;
    if (table_init(&u, aheaders, 10, rows))
        return;
    for (int i = 0, row = 0; i < r->n_variants; i++)
        for (int k = 0; k < r->variants[i].n_agents; k++)
            fill_agent(&r->variants[i], k, 1, u.cells[row++]);
    fprintf(out, "\n# ratings\n");
    table_print(&u, REPORT_CSV, out);
    free(u.cells);
}

static void print_json_variant(const struct ratings_variant *v, FILE *out)
{
    const struct ratings_fit *fit = &v->fit;
    int ok = fit->status == RATINGS_OK;
    fprintf(out, "{\"variant\": ");
    json_string(out, v->variant);
    json_key_string(out, "short_variant", v->short_variant);
    fprintf(out, ", \"games\": %ld, \"sweeps\": ", v->games);
    json_string(out, v->sweeps);
    fprintf(out, ", \"pooled\": %s, \"anchor\": {\"agent\": ",
            v->n_sweeps > 1 ? "true" : "false");
    json_string(out, v->agents[v->anchor].name);
    json_key_string(out, "spec", v->agents[v->anchor].spec);
    fprintf(out, ", \"elo\": %g, \"how\": ", v->anchor_elo);
    json_string(out, v->anchor_note);
    fprintf(out, "},\n     \"status\": \"%s\", \"message\": ",
            status_names[fit->status]);
    json_string(out, fit->message);
    fprintf(out, ", \"first_move_elo\": ");
    json_number(out, "%.4f", ok ? fit->adv : NAN);
    fprintf(out, ", \"first_move_ci95\": ");
    json_interval(out, "%.4f", ok, fit->adv - Z95 * fit->adv_se,
                  fit->adv + Z95 * fit->adv_se);
    fprintf(out, ", \"draw_nu\": ");
    json_number(out, "%.6f", ok ? fit->nu : NAN);
    fprintf(out, ", \"draw_nu_ci95\": ");
    json_interval(out, "%.4f", ok && fit->has_draws, fit->nu_lo,
                  fit->nu_hi);
    fprintf(out, ",\n     \"agents\": [");
    for (int k = 0; k < v->n_agents; k++) {
        int i = v->order[k], next = k + 1 < v->n_agents ? v->order[k + 1] : -1;
        const struct ratings_agent *a = &v->agents[i];
        int rated = ok && fit->rated[i];
        fprintf(out, "%s\n      {\"rank\": %d, \"agent\": ", k ? "," : "",
                k + 1);
        json_string(out, a->name);
        json_key_string(out, "spec", a->spec);
        fprintf(out, ", \"games\": %ld, \"score\": ", a->games);
        json_number(out, "%.6f",
                    a->games ? a->points / (double)a->games : NAN);
        fprintf(out, ", \"rated\": %s, \"elo\": ",
                fit->rated[i] ? "true" : "false");
        json_number(out, "%.4f", rated ? fit->elo[i] : NAN);
        fprintf(out, ", \"se\": ");
        json_number(out, "%.4f", rated ? fit->se[i] : NAN);
        fprintf(out, ", \"ci95\": ");
        json_interval(out, "%.4f", rated, fit->elo[i] - Z95 * fit->se[i],
                      fit->elo[i] + Z95 * fit->se[i]);
        fprintf(out, ", \"los_next\": ");
        json_number(out, "%.6f", rated && next >= 0 && fit->rated[next]
                                     ? ratings_los(fit, i, next) : NAN);
        fputc('}', out);
    }
    fprintf(out, "\n    ]}");
}

void ratings_print(const struct ratings *r, enum report_format f, FILE *out)
{
    if (f == REPORT_JSON) {
        fprintf(out, "{\n  \"model\": ");
        json_string(out, model_text);
        fprintf(out, ",\n  \"sweep\": ");
        if (r->one_sweep)
            json_string(out, r->sweep);
        else
            fputs("null", out);
        fprintf(out, ",\n  \"variants\": [");
        for (int i = 0; i < r->n_variants; i++) {
            fprintf(out, "%s\n    ", i ? "," : "");
            print_json_variant(&r->variants[i], out);
        }
        fprintf(out, "\n  ]\n}\n");
        return;
    }
    if (f == REPORT_CSV) {
        print_csv(r, out);
        return;
    }
    fprintf(out, "%s\n", model_text);
    if (r->one_sweep)
        fprintf(out, "Games of sweep %s only.\n", r->sweep);
    else
        fprintf(out, "Each variant pools the games of every sweep that "
                "played it (--sweep NAME takes one).\n");
    for (int i = 0; i < r->n_variants; i++)
        print_text_variant(r, &r->variants[i], f, out);
}
