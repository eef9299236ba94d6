/*
 * tactics_gen.c -- the fixed procedure that makes the tactics set from
 * the games of one sweep (experiments/sweeps/dev/tactics_source.ini). It is
 * written so that rerunning it on the same database gives the same files
 * byte for byte: the order is fixed, every budget is a node count (never
 * a time), and work shared out over threads is merged in a fixed order.
 *
 * The procedure, for each game in game_list order:
 *  1. Read the sweep's games of that game ordered by variant, seat-0
 *     agent name, seat-1 agent name and game index (not by row id, which
 *     depends on the order threads finished them).
 *  2. Replay each game that was won and take the positions of its last
 *     plies (the game's plan says how many), oldest first, each set up again from its own
 *     position text (so the state the solver sees is the one the text
 *     gives back, without repetition history). Drop a position whose
 *     variant and text came before. A position where the game's winner
 *     is to move is tried for win3, and for win5 in the last few plies
 *     (the game's plan says how many); one where its loser is to move for
 *     defend
 *     (where such positions mostly are: the solver's budget goes to the
 *     likely ones).
 *  3. Classify the positions in chunks of CHUNK (tactics_classify, with
 *     the game's budgets, trying only the categories not yet full when
 *     the chunk starts), and take them in order, keeping a position in a
 *     category while the category has fewer than the game's cap.
 *  4. Solve each kept win again with the same budget, write its proof
 *     certificate and verify it (proof_verify); keep it in <game>.proofs
 *     if it is at most the game's proof size limit.
 *  5. Write <game>.txt: a comment header with these figures, then the
 *     positions, category by category in the order taken.
 */
#include "tactics.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "proof.h"
#include "store.h"

#define CHUNK 32
#define TACTICS_CAP_MAX 512

/* The budgets, caps and proof size limit of one game. */
struct plan {
    const char *game;
    struct tactics_budget budget;
    int cap; /* per category */
    long proof_max_bytes;
    int last_plies; /* the positions of the last this many plies */
    int win5_last_plies; /* win5 is tried in the last this many plies */
};

/* tafl's win5 proofs take 20000 to 50000 nodes (every attacker reply
 * needs its own win-within-3 proof), and so do its disproofs: its budget
 * is larger. Jetan games against the random player end within a few
 * dozen plies, mostly on a blunder answered at once: its window is
 * longer, to find more. Serbest nodes cost the most (hundreds of moves a
 * position): its budgets and cap are the smallest. */
static const struct plan plans[] = {
    {"serbest", {3000, 2000, 1000, 4}, 50, 16384, 12, 8},
    {"jetan", {20000, 10000, 2000, 4}, 100, 65536, 30, 16},
    {"tafl", {20000, 30000, 2000, 4}, 100, 65536, 12, 12},
};

struct candidate {
    struct variant variant;
    char position[1024];
    char source[96];
    uint64_t key; /* hash of the variant and position, for step 2 */
    unsigned kinds; /* the categories tried: see step 2 */
    int mask; /* what tactics_classify found */
};

struct pool {
    struct candidate *c;
    int n, cap;
};

static const struct plan *plan_of(const struct game *g)
{
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++)
        if (strcmp(plans[i].game, g->name) == 0)
            return &plans[i];
    return NULL;
}

/* FNV-1a of the variant's values and the position text. */
static uint64_t position_key(const struct variant *v, const char *position)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < v->game->n_params; i++)
        h = (h ^ (uint64_t)(unsigned)v->values[i]) * 0x100000001b3ULL;
    for (const char *s = position; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

/* Whether pool already holds this variant and position (a linear scan
 * over keys: the pools are a few thousand positions). */
static int seen(const struct pool *p, const struct variant *v,
                const char *position, uint64_t key)
{
    for (int i = 0; i < p->n; i++) {
        const struct candidate *c = &p->c[i];
        if (c->key != key || strcmp(c->position, position) != 0)
            continue;
        int same = 1;
        for (int k = 0; k < v->game->n_params; k++)
            same &= c->variant.values[k] == v->values[k];
        if (same)
            return 1;
    }
    return 0;
}

/* One game add_game replays: where its positions go, and what it is. */
struct adding {
    struct pool *p;
    const struct variant *v;
    const struct plan *pl;
    int winner, total; /* the winning seat (-1: none); its moves */
    const char *label;
    char *err;
    size_t errsz;
};

/* game_replay's visitor: adds a position an agent moved from among the
 * game's last pl->last_plies, if the game was won, is still going there,
 * the position reads back from its text, and the pool lacks it. */
static int add_position(void *arg, const struct game *g,
                        const struct game_replay_step *step)
{
    struct adding *a = arg;
    _Alignas(GAME_STATE_ALIGN) unsigned char fresh[GAME_MAX_STATE_SIZE];
    char text[1024];
    int ply = step->ply;
    if (!step->move || a->winner < 0 || ply < a->total - a->pl->last_plies
        || g->status(step->st).outcome != GAME_ONGOING
        || g->to_text(step->st, text, sizeof text) < 0
        || g->from_text(fresh, a->v, text, a->err, a->errsz) != 0
        || seen(a->p, a->v, text, position_key(a->v, text)))
        return 0;
    struct pool *p = a->p;
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 1024;
        struct candidate *grown = realloc(p->c, sizeof *grown * (size_t)p->cap);
        if (!grown) {
            game_error(a->err, a->errsz, "out of memory");
            return 2; /* add_game: the message is in err */
        }
        p->c = grown;
    }
    struct candidate *c = &p->c[p->n++];
    memset(c, 0, sizeof *c);
    c->variant = *a->v;
    snprintf(c->position, sizeof c->position, "%s", text);
    snprintf(c->source, sizeof c->source, "%s@%d", a->label, ply);
    c->key = position_key(a->v, text);
    c->kinds = g->to_move(step->st) != a->winner ? 1u << TACTIC_DEFEND
               : ply >= a->total - a->pl->win5_last_plies
                   ? 1u << TACTIC_WIN3 | 1u << TACTIC_WIN5
                   : 1u << TACTIC_WIN3;
    return 0;
}

/* Replays one game's moves and adds its last positions to p. Returns 0,
 * or -1 with a message (a stored game that does not replay). */
static int add_game(struct pool *p, const struct variant *v, const char *moves,
                    int winner, const struct plan *pl, const char *label,
                    char *err, size_t errsz)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    struct adding a = {p, v, pl, winner, 0, label, err, errsz};
    for (const char *q = moves; *q; a.total++) {
        while (*q == ' ')
            q++;
        if (!*q)
            break;
        q += strcspn(q, " ");
    }
    char why[256];
    int rc = game_replay(v, st, NULL, NULL, moves, add_position, &a, NULL,
                         why, sizeof why);
    if (rc == -1)
        return game_error(err, errsz, "%s: %s", label, why);
    return rc ? -1 : 0;
}

/* Whether the sweep's games start from openings (a database whose games
 * have an opening column, schema 3 on): they are replayed from the start
 * here, so such a sweep is refused rather than misread. An older
 * database, without the column, has none. */
static int has_openings(sqlite3 *db, const char *sweep)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM game_view WHERE sweep = ?1"
                           " AND (opening <> '' OR opening_position <> '')"
                           " LIMIT 1", -1, &q, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(q, 1, sweep, -1, SQLITE_STATIC);
    int found = sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
    return found;
}

/* What read_games gathers: the pool and the plan. */
struct reading {
    struct pool *p;
    const struct plan *pl;
    int games;
    char *err;
    size_t errsz;
};

/* store_each_game's visitor: adds one stored game's last positions. */
static int read_game(void *arg, const struct store_game *sg)
{
    struct reading *r = arg;
    struct variant v;
    char label[80];
    if (variant_parse(sg->variant, &v, r->err, r->errsz) != 0)
        return -1;
    snprintf(label, sizeof label, "%s-%s#%d", sg->agent_name[0],
             sg->agent_name[1], sg->game_index);
    if (add_game(r->p, &v, sg->moves, sg->winner_seat, r->pl, label, r->err,
                 r->errsz) != 0)
        return -1;
    r->games++;
    return 0;
}

/* Reads the sweep's games of g, in the fixed order (by variant, agent
 * names and game index), into p. */
static int read_games(sqlite3 *db, const char *sweep, const struct plan *pl,
                      const struct game *g, struct pool *p, int *games,
                      char *err, size_t errsz)
{
    *games = 0;
    if (has_openings(db, sweep))
        return game_error(err, errsz, "sweep %s has games that start from "
                          "openings: not supported", sweep);
    struct reading r = {p, pl, 0, err, errsz};
    struct store_game_filter f = {.sweep = sweep, .game = g->name,
                                  .order = STORE_BY_CELL};
    int rc = store_each_game(db, &f, read_game, &r, err, errsz);
    *games = r.games;
    return rc;
}

/* The kept positions of one game, by category, in the order taken. */
struct selection {
    struct tactic *t[TACTIC_KINDS];
    int n[TACTIC_KINDS];
};

/* Step 3: classifies p chunk by chunk and fills sel. */
static int select_positions(struct pool *p, const struct plan *pl,
                            int threads, int verbose, struct selection *sel,
                            char *err, size_t errsz)
{
    struct tactic(*found)[TACTIC_KINDS] = calloc(CHUNK, sizeof *found);
    int failed = 0;
    if (!found)
        return game_error(err, errsz, "out of memory");
    for (int k = 0; k < TACTIC_KINDS; k++) {
        sel->t[k] = calloc((size_t)pl->cap, sizeof *sel->t[k]);
        sel->n[k] = 0;
        if (!sel->t[k] && !failed++)
            game_error(err, errsz, "out of memory");
    }
    for (int start = 0; !failed && start < p->n; start += CHUNK) {
        unsigned wanted = 0;
        for (int k = 0; k < TACTIC_KINDS; k++)
            if (sel->n[k] < pl->cap)
                wanted |= 1u << k;
        if (!wanted)
            break;
        int end = start + CHUNK < p->n ? start + CHUNK : p->n;
        #pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (int i = start; i < end; i++) {
            _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
            char why[256];
            struct candidate *c = &p->c[i];
            c->mask = c->variant.game->from_text(st, &c->variant, c->position,
                                                 why, sizeof why) != 0
                          ? -1
                          : tactics_classify(&c->variant, st, &pl->budget,
                                             wanted & c->kinds,
                                             found[i - start], why,
                                             sizeof why);
            if (c->mask < 0) {
                #pragma omp critical(tactics_gen_error)
                if (!failed++)
                    game_error(err, errsz, "%s: %s", c->source, why);
            }
        }
        for (int i = start; !failed && i < end; i++)
            for (int k = 0; k < TACTIC_KINDS; k++) {
                struct candidate *c = &p->c[i];
                if (!(c->mask & 1 << k) || sel->n[k] >= pl->cap)
                    continue;
                struct tactic *t = &sel->t[k][sel->n[k]++];
                *t = found[i - start][k];
                snprintf(t->source, sizeof t->source, "%s", c->source);
            }
        if (verbose)
            fprintf(stderr, "tactics generate: %s %d/%d positions, win3 %d, "
                    "win5 %d, defend %d\n", pl->game, end, p->n,
                    sel->n[TACTIC_WIN3], sel->n[TACTIC_WIN5],
                    sel->n[TACTIC_DEFEND]);
    }
    free(found);
    return failed ? -1 : 0;
}

/* Step 4: the certificate of a kept win, verified; *text malloc'd, or
 * NULL when it is over the plan's limit. Returns 0, or -1 with a
 * message. */
static int certificate(const struct tactic *t, const struct plan *pl,
                       char **text, char *err, size_t errsz)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    int plies = t->kind == TACTIC_WIN3 ? 3 : 5;
    struct solver_options so = {.plies = plies,
                                .max_nodes = plies == 3
                                                 ? pl->budget.nodes3
                                                 : pl->budget.nodes5,
                                .max_mb = pl->budget.mb};
    struct solver_result r;
    struct proof_info info;
    size_t size = 0;
    *text = NULL;
    if (tactics_setup(t, st, err, errsz) != 0)
        return -1;
    FILE *f = open_memstream(text, &size);
    if (!f)
        return game_error(err, errsz, "out of memory");
    int rc = solver_write_proof(&t->variant, st, &so, f, &r, err, errsz);
    fclose(f);
    if (rc == 0 && r.answer != SOLVER_WIN)
        rc = game_error(err, errsz, "the win was not found again");
    FILE *in = rc == 0 ? fmemopen(*text, size, "r") : NULL;
    if (rc == 0 && (!in || proof_verify(in, &info, err, errsz) != 0))
        rc = -1;
    if (in)
        fclose(in);
    if (rc != 0 || (long)size > pl->proof_max_bytes) {
        free(*text);
        *text = NULL;
    }
    return rc;
}

static long count_lines(const char *s)
{
    long n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Steps 4 and 5 for one game. */
static int write_game(const char *dir, const struct plan *pl, int games,
                      int candidates, struct selection *sel, int threads,
                      char *err, size_t errsz)
{
    char path[4096], proofs_path[4096];
    snprintf(path, sizeof path, "%s/%s.txt", dir, pl->game);
    snprintf(proofs_path, sizeof proofs_path, "%s/%s.proofs", dir, pl->game);
    int failed = 0;
    long kept = 0, line = 1;
    char *certs[2][TACTICS_CAP_MAX] = {{NULL}};
    for (int k = TACTIC_WIN3; k <= TACTIC_WIN5; k++) {
        #pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (int i = 0; i < sel->n[k]; i++) {
            char why[256];
            if (certificate(&sel->t[k][i], pl, &certs[k][i], why, sizeof why)
                != 0) {
                #pragma omp critical(tactics_gen_error)
                if (!failed++)
                    game_error(err, errsz, "%s: %s", sel->t[k][i].source, why);
            }
        }
    }
    FILE *f = failed ? NULL : fopen(path, "w");
    FILE *pf = f ? fopen(proofs_path, "w") : NULL;
    if (!failed && (!f || !pf))
        failed = game_error(err, errsz, "%s: cannot write it", dir) != 0;
    if (pf) {
        for (int k = TACTIC_WIN3; k <= TACTIC_WIN5; k++)
            for (int i = 0; i < sel->n[k]; i++)
                kept += certs[k][i] != NULL;
        fprintf(f, "# rulelab tactics set: %s (format:"
                " experiments/analysis/tactics.c; definitions:"
                " experiments/analysis/tactics.h)\n"
                "# made by `rulelab tactics generate` from the %d games of "
                "experiments/sweeps/dev/tactics_source.ini:\n"
                "# the last %d plies of each won game (win5: %d), %d distinct "
                "positions in all, classified in the order read\n"
                "# budgets (nodes): win-within-3 %llu, win-within-5 %llu, each "
                "defend move %llu; cap %d per category\n"
                "# positions: win3 %d, win5 %d, defend %d; certificates kept "
                "(at most %ld bytes each) in %s.proofs: %ld\n",
                pl->game, games, pl->last_plies, pl->win5_last_plies,
                candidates,
                (unsigned long long)pl->budget.nodes3,
                (unsigned long long)pl->budget.nodes5,
                (unsigned long long)pl->budget.nodes_defend, pl->cap,
                sel->n[TACTIC_WIN3], sel->n[TACTIC_WIN5],
                sel->n[TACTIC_DEFEND], pl->proof_max_bytes, pl->game, kept);
        for (int k = 0; k < TACTIC_KINDS; k++)
            for (int i = 0; i < sel->n[k]; i++) {
                char *cert = k == TACTIC_DEFEND ? NULL : certs[k][i];
                tactics_write_line(f, &sel->t[k][i], cert ? line : 0);
                if (cert) {
                    fputs(cert, pf);
                    line += count_lines(cert);
                }
            }
    }
    for (int k = TACTIC_WIN3; k <= TACTIC_WIN5; k++)
        for (int i = 0; i < sel->n[k]; i++)
            free(certs[k][i]);
    if (f && fclose(f) != 0 && !failed)
        failed = game_error(err, errsz, "writing %s failed", path) != 0;
    if (pf && fclose(pf) != 0 && !failed)
        failed = game_error(err, errsz, "writing %s failed", proofs_path) != 0;
    return failed ? -1 : 0;
}

/* Whether name is one of the comma-separated names in list. */
static int listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list;; p++) {
        if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
            return 1;
        p = strchr(p, ',');
        if (!p)
            return 0;
    }
}

int tactics_generate(struct store *db, const struct tactics_gen_options *o,
                     char *err, size_t errsz)
{
    for (int gi = 0; game_list[gi]; gi++) {
        const struct game *g = game_list[gi];
        const struct plan *found = plan_of(g);
        struct pool p = {NULL, 0, 0};
        struct selection sel = {{NULL}, {0}};
        int games, rc = -1;
        if (!found)
            return game_error(err, errsz, "no plan for %s", g->name);
        if (o->games && !listed(o->games, g->name))
            continue;
        struct plan pl = *found;
        if (o->cap)
            pl.cap = o->cap;
        if (pl.cap < 1 || pl.cap > TACTICS_CAP_MAX)
            return game_error(err, errsz, "the cap must be 1 to %d",
                              TACTICS_CAP_MAX);
        if (read_games(store_db(db), o->sweep, &pl, g, &p, &games, err,
                       errsz) == 0
            && select_positions(&p, &pl, o->threads, o->verbose, &sel, err,
                                errsz) == 0)
            rc = write_game(o->out_dir, &pl, games, p.n, &sel, o->threads,
                            err, errsz);
        free(p.c);
        for (int k = 0; k < TACTIC_KINDS; k++)
            free(sel.t[k]);
        if (rc != 0)
            return -1;
    }
    return 0;
}
