/*
 * tactics.c -- classifying a position into the tactics categories,
 * judging a move in one with the solver, the set file format, and
 * playing an agent over the set. See tactics.h for the definitions.
 *
 * Every question goes to the solver (agents/solve/solver.h), which only asks
 * "does the side to move win within N plies": the side that is not to
 * move is proven winning by asking the question after each of its
 * opponent's replies, one solver call each. That keeps the solver as it
 * is, at the price of a transposition table per call (small: the
 * questions are 1 to 3 plies deep).
 *
 * Set file (<game>.txt): lines starting with '#' are comments; every
 * other line is one position, eight fields separated by one tab:
 *     kind variant position legal source proved moves proof
 * kind is win3, win5 or defend; variant the canonical variant; position
 * the position text (the solver's questions were asked of the state set
 * up from exactly this text); legal the number of legal moves; source
 * where it was found (cell agents, game index, ply); proved what the
 * solver proved, in words; moves the winning line (win) or every move
 * that is not losing (defend), space separated; proof the line of its
 * certificate in <game>.proofs, or '-' where none is kept. The proofs
 * file is certificates in solver.h's format, one after the other.
 */
#include "tactics.h"

#include <errno.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "proof.h"

/* The defend question of one position may spend this many times the
 * per-move budget in all (Serbest has hundreds of moves a position). */
#define DEFEND_TOTAL_FACTOR 40

static const char *const kind_names[TACTIC_KINDS] = {"win3", "win5",
                                                     "defend"};

const char *tactic_kind_name(enum tactic_kind k)
{
    return kind_names[k];
}

/* The solver's answer to "does the side to move in st win within plies". */
static int ask(const struct game *g, const void *st, int plies,
               uint64_t nodes, size_t mb, struct solver_result *r,
               char *err, size_t errsz)
{
    struct solver_options so = {.plies = plies,
                                .max_nodes = nodes,
                                .max_mb = mb};
    return solver_solve(g, st, &so, r, err, errsz);
}

/* Appends move text (after a space if buf is not empty); 0, or -1 if it
 * does not fit. */
static int append_move(const struct game *g, const void *st, move_t m,
                       char *buf, size_t n)
{
    size_t len = strlen(buf);
    char text[32];
    if (g->move_to_text(st, m, text, sizeof text) < 0
        || len + strlen(text) + 2 > n)
        return -1;
    snprintf(buf + len, n - len, "%s%s", len ? " " : "", text);
    return 0;
}

/* Writes r's winning line from st as move text into buf. */
static void line_text(const struct game *g, const void *st,
                      const struct solver_result *r, char *buf, size_t n)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char cur[GAME_MAX_STATE_SIZE];
    game_copy_state(g, cur, st);
    buf[0] = '\0';
    for (int i = 0; i < r->pv_len; i++) {
        if (append_move(g, cur, r->pv[i], buf, n) != 0)
            return;
        g->apply(cur, r->pv[i]);
    }
}

/* Whether the seat `seat` won the finished game st. */
static int seat_won(const struct game *g, const void *st, int seat)
{
    enum game_outcome o = g->status(st).outcome;
    return o == (seat == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1);
}

/* Whether the move m of st is losing: 1 (the opponent wins within 3
 * plies after it, or the move loses at once), 0 (proven not), -1 (the
 * budget left it open), -2 (the solver failed). */
static int losing(const struct game *g, const void *st, move_t m,
                  uint64_t nodes, size_t mb, uint64_t *spent, char *err,
                  size_t errsz)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    int mover = g->to_move(st);
    game_copy_state(g, child, st);
    g->apply(child, m);
    if (g->status(child).outcome != GAME_ONGOING)
        return seat_won(g, child, !mover);
    /* A win within 1 is a win within 3, and asking it first costs one
     * expansion: in a must-defend position most moves lose that way. */
    struct solver_result r;
    if (ask(g, child, 1, 0, mb, &r, err, errsz) != 0)
        return -2;
    *spent += r.nodes;
    if (r.answer == SOLVER_WIN)
        return 1;
    if (ask(g, child, 3, nodes, mb, &r, err, errsz) != 0)
        return -2;
    *spent += r.nodes;
    return r.answer == SOLVER_WIN ? 1 : r.answer == SOLVER_NO_WIN ? 0 : -1;
}

/* The defend question for st (the mover has no win within 3): fills t's
 * moves with every move that is not losing and returns 1 if st is a
 * must-defend position, 0 if not, if a move stayed open or if the whole
 * question took more than DEFEND_TOTAL_FACTOR times the per-move budget,
 * -1 if the solver failed. Moves are tried a sample of eight spread over
 * the list first, then in order, and it stops as soon as more than a
 * quarter are not losing: most positions are not must-defend, and that
 * shows after a few moves. */
static int classify_defend(const struct game *g, const void *st,
                           const struct tactics_budget *b, struct tactic *t,
                           uint64_t *spent, char *err, size_t errsz)
{
    move_t moves[GAME_MAX_MOVES];
    signed char verdict[GAME_MAX_MOVES];
    int n = g->legal_moves(st, moves), safe = 0;
    memset(verdict, -1, sizeof verdict);
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < (pass ? n : 8); k++) {
            int i = pass ? k : (int)((long)k * n / 8);
            if (verdict[i] >= 0)
                continue;
            int l = losing(g, st, moves[i], b->nodes_defend, b->mb, spent,
                           err, errsz);
            if (l == -2)
                return -1;
            if (l < 0)
                return 0;
            if (*spent > DEFEND_TOTAL_FACTOR * b->nodes_defend)
                return 0;
            verdict[i] = (signed char)l;
            safe += !l;
            if (4 * safe > n)
                return 0;
        }
    if (safe == 0)
        return 0;
    t->moves[0] = '\0';
    for (int i = 0; i < n; i++)
        if (!verdict[i]
            && append_move(g, st, moves[i], t->moves, sizeof t->moves) != 0)
            return 0;
    snprintf(t->proved, sizeof t->proved,
             "no win within 3; %d of %d moves lose within 3 more plies "
             "(solver win), %d proven not (no_win)", n - safe, n, safe);
    return 1;
}

int tactics_classify(const struct variant *v, const void *st,
                     const struct tactics_budget *b, unsigned wanted,
                     struct tactic out[TACTIC_KINDS], char *err,
                     size_t errsz)
{
    const struct game *g = v->game;
    struct solver_result r1, r3, r5;
    move_t moves[GAME_MAX_MOVES];
    unsigned found = 0;
    struct tactic base;
    memset(&base, 0, sizeof base);
    base.variant = *v;
    variant_canonical(v, base.variant_text, sizeof base.variant_text);
    if (g->to_text(st, base.position, sizeof base.position) < 0)
        return game_error(err, errsz, "the position text does not fit");
    base.legal = g->legal_moves(st, moves);
    if (ask(g, st, 1, 0, b->mb, &r1, err, errsz) != 0)
        return -1;
    if (r1.answer != SOLVER_NO_WIN)
        return 0;
    if (ask(g, st, 3, b->nodes3, b->mb, &r3, err, errsz) != 0)
        return -1;
    if (r3.answer == SOLVER_WIN && (wanted & 1u << TACTIC_WIN3)) {
        struct tactic *t = &out[TACTIC_WIN3];
        *t = base;
        t->kind = TACTIC_WIN3;
        line_text(g, st, &r3, t->moves, sizeof t->moves);
        snprintf(t->proved, sizeof t->proved,
                 "win within 3 (%llu nodes); no win within 1",
                 (unsigned long long)r3.nodes);
        found |= 1u << TACTIC_WIN3;
    }
    if (r3.answer != SOLVER_NO_WIN)
        return (int)found;
    if (wanted & 1u << TACTIC_WIN5) {
        if (ask(g, st, 5, b->nodes5, b->mb, &r5, err, errsz) != 0)
            return -1;
        if (r5.answer == SOLVER_WIN) {
            struct tactic *t = &out[TACTIC_WIN5];
            *t = base;
            t->kind = TACTIC_WIN5;
            line_text(g, st, &r5, t->moves, sizeof t->moves);
            snprintf(t->proved, sizeof t->proved,
                     "win within 5 (%llu nodes); no win within 3 (%llu "
                     "nodes)", (unsigned long long)r5.nodes,
                     (unsigned long long)r3.nodes);
            found |= 1u << TACTIC_WIN5;
        }
    }
    if (wanted & 1u << TACTIC_DEFEND) {
        struct tactic *t = &out[TACTIC_DEFEND];
        uint64_t spent = 0;
        *t = base;
        t->kind = TACTIC_DEFEND;
        int d = classify_defend(g, st, b, t, &spent, err, errsz);
        if (d < 0)
            return -1;
        if (d)
            found |= 1u << TACTIC_DEFEND;
    }
    return (int)found;
}

int tactics_setup(const struct tactic *t, void *st, char *err, size_t errsz)
{
    const struct game *g = t->variant.game;
    if (g->from_text(st, &t->variant, t->position, err, errsz) != 0)
        return -1;
    if (g->status(st).outcome != GAME_ONGOING)
        return game_error(err, errsz, "the game is over in this position");
    return 0;
}

/* The win-in-k check of a move whose child (opponent to move) is not
 * over: every reply must leave the mover a win within k - 2. */
static int check_replies(const struct game *g, const void *child, int mover,
                         int plies, uint64_t nodes, size_t mb,
                         enum tactic_verdict *out, uint64_t *spent, char *err,
                         size_t errsz)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char gc[GAME_MAX_STATE_SIZE];
    move_t replies[GAME_MAX_MOVES];
    int n = g->legal_moves(child, replies), open = 0;
    for (int i = 0; i < n; i++) {
        game_copy_state(g, gc, child);
        g->apply(gc, replies[i]);
        if (g->status(gc).outcome != GAME_ONGOING) {
            if (!seat_won(g, gc, mover)) {
                *out = TACTIC_WRONG;
                return 0;
            }
            continue;
        }
        struct solver_result r;
        if (ask(g, gc, plies, nodes, mb, &r, err, errsz) != 0)
            return -1;
        *spent += r.nodes;
        if (r.answer == SOLVER_NO_WIN) {
            *out = TACTIC_WRONG;
            return 0;
        }
        open += r.answer == SOLVER_UNKNOWN;
    }
    *out = open ? TACTIC_UNKNOWN : TACTIC_RIGHT;
    return 0;
}

int tactics_check(const struct tactic *t, move_t m, uint64_t nodes, size_t mb,
                  enum tactic_verdict *out, uint64_t *nodes_spent, char *err,
                  size_t errsz)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    const struct game *g = t->variant.game;
    uint64_t spent = 0;
    int rc = 0;
    if (tactics_setup(t, st, err, errsz) != 0)
        return -1;
    int mover = g->to_move(st);
    game_copy_state(g, child, st);
    g->apply(child, m);
    if (t->kind == TACTIC_DEFEND) {
        int l = losing(g, st, m, nodes, mb, &spent, err, errsz);
        if (l == -2)
            return -1;
        *out = l == 1 ? TACTIC_WRONG : l == 0 ? TACTIC_RIGHT : TACTIC_UNKNOWN;
    } else if (g->status(child).outcome != GAME_ONGOING) {
        *out = seat_won(g, child, mover) ? TACTIC_RIGHT : TACTIC_WRONG;
    } else {
        int k = t->kind == TACTIC_WIN3 ? 3 : 5;
        rc = check_replies(g, child, mover, k - 2, nodes, mb, out, &spent,
                           err, errsz);
    }
    if (nodes_spent)
        *nodes_spent += spent;
    return rc;
}

/* ---- the set file ----------------------------------------------------- */

void tactics_write_line(FILE *f, const struct tactic *t, long proof_line)
{
    fprintf(f, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t", kind_names[t->kind],
            t->variant_text, t->position, t->legal, t->source, t->proved,
            t->moves);
    if (proof_line > 0)
        fprintf(f, "%ld\n", proof_line);
    else
        fprintf(f, "-\n");
}

/* Copies the next tab-separated field of *p into buf (n bytes); 0, or -1
 * if there is none or it does not fit. */
static int next_field(char **p, char *buf, size_t n)
{
    if (!*p)
        return -1;
    char *tab = strchr(*p, '\t');
    size_t len = tab ? (size_t)(tab - *p) : strlen(*p);
    if (len >= n)
        return -1;
    memcpy(buf, *p, len);
    buf[len] = '\0';
    *p = tab ? tab + 1 : NULL;
    return 0;
}

/* Checks that every move of a space-separated list is legal in turn from
 * st (win: a line, played on) or each from st itself (defend). */
static int check_moves(const struct tactic *t, const void *st, char *err,
                       size_t errsz)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char cur[GAME_MAX_STATE_SIZE];
    const struct game *g = t->variant.game;
    char list[TACTIC_MOVES_MAX], *save = NULL;
    game_copy_state(g, cur, st);
    snprintf(list, sizeof list, "%s", t->moves);
    int count = 0;
    for (char *tok = strtok_r(list, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save), count++) {
        move_t m;
        if (game_parse_move(g, cur, tok, &m, err, errsz) != 0)
            return -1;
        if (t->kind != TACTIC_DEFEND)
            g->apply(cur, m);
    }
    if (!count)
        return game_error(err, errsz, "no moves");
    return 0;
}

/* Parses one set line into t; 0, or -1 with a message. */
static int parse_line(char *line, const struct game *game, struct tactic *t,
                      char *err, size_t errsz)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char kind[16], legal[16], proof[24], *p = line, *end;
    memset(t, 0, sizeof *t);
    if (next_field(&p, kind, sizeof kind)
        || next_field(&p, t->variant_text, sizeof t->variant_text)
        || next_field(&p, t->position, sizeof t->position)
        || next_field(&p, legal, sizeof legal)
        || next_field(&p, t->source, sizeof t->source)
        || next_field(&p, t->proved, sizeof t->proved)
        || next_field(&p, t->moves, sizeof t->moves)
        || next_field(&p, proof, sizeof proof) || p)
        return game_error(err, errsz, "not eight tab-separated fields");
    int k = 0;
    while (k < TACTIC_KINDS && strcmp(kind, kind_names[k]) != 0)
        k++;
    if (k == TACTIC_KINDS)
        return game_error(err, errsz, "unknown kind '%s'", kind);
    t->kind = (enum tactic_kind)k;
    if (variant_parse(t->variant_text, &t->variant, err, errsz) != 0)
        return -1;
    if (t->variant.game != game)
        return game_error(err, errsz, "a variant of %s, not of %s",
                          t->variant.game->name, game->name);
    variant_canonical(&t->variant, t->variant_text, sizeof t->variant_text);
    if (tactics_setup(t, st, err, errsz) != 0)
        return -1;
    t->legal = (int)strtol(legal, &end, 10);
    move_t moves[GAME_MAX_MOVES];
    if (*end || t->legal != game->legal_moves(st, moves))
        return game_error(err, errsz, "legal move count '%s' is not the "
                          "position's", legal);
    t->proof_line = strcmp(proof, "-") == 0 ? 0 : strtol(proof, &end, 10);
    if (strcmp(proof, "-") != 0 && (*end || t->proof_line < 1))
        return game_error(err, errsz, "bad proof line '%s'", proof);
    return check_moves(t, st, err, errsz);
}

int tactics_load(const char *path, const struct game *game,
                 struct tactic **out, int *n, char *err, size_t errsz)
{
    FILE *f = fopen(path, "r");
    char line[TACTIC_MOVES_MAX + 4096], why[512];
    int cap = 0, lineno = 0;
    *out = NULL;
    *n = 0;
    if (!f)
        return game_error(err, errsz, "%s: cannot open it (%s): give "
                          "--set the folder of the tactics files "
                          "(experiments/tactics in the source tree)", path,
                          strerror(errno));
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        else if (!feof(f))
            goto bad_long;
        if (line[0] == '#')
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            struct tactic *grown = realloc(*out, sizeof *grown * (size_t)cap);
            if (!grown) {
                snprintf(why, sizeof why, "out of memory");
                goto bad;
            }
            *out = grown;
        }
        if (parse_line(line, game, &(*out)[*n], why, sizeof why) != 0)
            goto bad;
        (*n)++;
    }
    fclose(f);
    return 0;
bad_long:
    snprintf(why, sizeof why, "line too long");
bad:
    fclose(f);
    free(*out);
    *out = NULL;
    *n = 0;
    return game_error(err, errsz, "%s line %d: %s", path, lineno, why);
}

int tactics_verify_certificate(const char *path, const struct tactic *t,
                               char *err, size_t errsz)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    char *buf = NULL;
    size_t size = 0;
    long lineno = 0;
    if (!f)
        return game_error(err, errsz, "%s: cannot open it", path);
    FILE *mem = open_memstream(&buf, &size);
    int found_end = 0;
    while (mem && !found_end && fgets(line, sizeof line, f))
        if (++lineno >= t->proof_line) {
            fputs(line, mem);
            found_end = strcmp(line, "end\n") == 0;
        }
    fclose(f);
    if (!mem)
        return game_error(err, errsz, "out of memory");
    fclose(mem);
    struct proof_info info;
    FILE *in = fmemopen(buf, size, "r");
    int rc = in && found_end ? proof_verify(in, &info, err, errsz) : -1;
    if (in)
        fclose(in);
    free(buf);
    if (rc != 0)
        return found_end ? -1
                         : game_error(err, errsz, "%s: no certificate at line "
                                      "%ld", path, t->proof_line);
    /* The certificate's variant as this program writes it: a text
     * written before a parameter was added (tafl's king_throne) names the
     * same variant without it. */
    struct variant cert_variant;
    char cert_canonical[VARIANT_TEXT_MAX];
    if (variant_parse(info.variant, &cert_variant, NULL, 0) != 0
        || variant_canonical(&cert_variant, cert_canonical,
                             sizeof cert_canonical) < 0)
        cert_canonical[0] = '\0';
    if (strcmp(cert_canonical, t->variant_text) != 0
        || strcmp(info.position, t->position) != 0
        || info.plies != (t->kind == TACTIC_WIN3 ? 3 : 5))
        return game_error(err, errsz, "%s line %ld: the certificate is of "
                          "another position or bound", path, t->proof_line);
    return 0;
}

/* ---- playing an agent over the set ------------------------------------ */

int tactics_play(const struct tactic *set, int n, const char *spec,
                 const struct tactics_play_options *o,
                 enum tactic_verdict *verdicts, move_t *moves, char *err,
                 size_t errsz)
{
    struct agent *probe;
    if (agent_create(spec, o->seed, &probe, err, errsz) != 0)
        return -1;
    agent_free(probe);
    int failed = 0;
    long done = 0;
    #pragma omp parallel for schedule(dynamic, 1) num_threads(o->threads)
    for (int i = 0; i < n; i++) {
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        char why[512] = "";
        struct agent *a = NULL;
        int bad = 0;
        if (tactics_setup(&set[i], st, why, sizeof why) != 0
            || agent_create(spec, o->seed + (uint64_t)i, &a, why, sizeof why)
                   != 0) {
            bad = 1;
        } else {
            move_t m = agent_choose(a, set[i].variant.game, st);
            if (moves)
                moves[i] = m;
            bad = tactics_check(&set[i], m, o->nodes, o->mb, &verdicts[i],
                                NULL, why, sizeof why) != 0;
        }
        agent_free(a);
        #pragma omp critical(tactics_progress)
        {
            if (bad && !failed++)
                snprintf(err, errsz, "position %d (%s): %s", i + 1,
                         set[i].position, why);
            done++;
            if (o->progress)
                o->progress(done, n, o->ctx);
        }
    }
    return failed ? -1 : 0;
}
