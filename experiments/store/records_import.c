/*
 * records_import.c -- reading PGN-style game records (records.h) into a
 * results database, every game checked before anything is written.
 *
 * Four steps: read the text into records (tags, and a sweep file's text or
 * a game's moves); find each game's sweep (the file's SweepFile record of
 * the same name and seed, or one made for games without it: their
 * variant, their two agents, `orders = given`); check each game (its cell
 * in the sweep, every move legal from its opening, its result, reason and
 * plies those of the game replayed); and only then store the games, one
 * run per sweep, in one transaction.
 */
#include "records.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "game.h"
#include "sweep.h"
#include "variant.h"

#define MAX_TAGS 32

struct record {
    int line; /* where it starts */
    int n_tags;
    char *tag[MAX_TAGS], *value[MAX_TAGS];
    char *body; /* a sweep file's text, or the moves joined by spaces */
    char result[8]; /* a game's result token */
    int is_sweep;
};

struct import_sweep {
    char name[SWEEP_NAME_MAX];
    uint64_t seed;
    char *text; /* its file (made: written once every game is read) */
    int made; /* made here for games without a sweep file: */
    const struct record *first; /* its first game, whose variant and
                                   agents it has */
    int games; /* the games its cell needs (the highest index + 1) */
    int used; /* a game of the file is in it */
    struct sweep s;
    int parsed;
    int64_t *cell_ids;
};

/* A game checked and ready to store. */
struct checked {
    int sweep, cell;
    struct game_record rec;
    struct game_opening opening;
    char side[2][32];
};

struct import {
    const char *name;
    struct record *records;
    int n_records, cap_records;
    int *sweep_of, *index_of; /* per game record: its sweep and index */
    struct import_sweep *sweeps;
    int n_sweeps, cap_sweeps;
    struct checked *games;
    int n_games;
    char *err;
    size_t errsz;
};

static int fail(struct import *im, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(struct import *im, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(im->err, im->errsz, "%s: ", im->name);
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < im->errsz)
        vsnprintf(im->err + n, im->errsz - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* The value of tag name in r, or NULL. */
static const char *tag_of(const struct record *r, const char *name)
{
    for (int i = 0; i < r->n_tags; i++)
        if (strcmp(r->tag[i], name) == 0)
            return r->value[i];
    return NULL;
}

/* The value of tag name in r, or "" (for the tags every game has, checked
 * when its sweep is found). */
static const char *tag_text(const struct record *r, const char *name)
{
    const char *v = tag_of(r, name);
    return v ? v : "";
}

/* ---- reading the text ---------------------------------------------------- */

struct cursor {
    const char *p, *end;
    int line;
};

static void skip_space(struct cursor *c)
{
    while (c->p < c->end) {
        if (*c->p == '\n')
            c->line++;
        if (*c->p == ';') { /* a comment to the end of the line */
            while (c->p < c->end && *c->p != '\n')
                c->p++;
            continue;
        }
        if (!isspace((unsigned char)*c->p))
            return;
        c->p++;
    }
}

/* Reads `[Name "value"]` into r. 0 or -1 (said). */
static int read_tag(struct import *im, struct cursor *c, struct record *r)
{
    const char *b = ++c->p;
    while (c->p < c->end && (isalnum((unsigned char)*c->p) || *c->p == '_'))
        c->p++;
    size_t len = (size_t)(c->p - b);
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
        c->p++;
    if (!len || c->p == c->end || *c->p != '"')
        return fail(im, "line %d: expected [Name \"value\"]", c->line);
    if (r->n_tags == MAX_TAGS)
        return fail(im, "line %d: more than %d tags", c->line, MAX_TAGS);
    char *value = malloc((size_t)(c->end - c->p)), *v = value;
    char *name = malloc(len + 1);
    r->tag[r->n_tags] = name;
    r->value[r->n_tags++] = value;
    if (!value || !name)
        return fail(im, "out of memory");
    memcpy(name, b, len);
    name[len] = '\0';
    for (c->p++; c->p < c->end && *c->p != '"' && *c->p != '\n'; c->p++) {
        if (*c->p == '\\' && c->p + 1 < c->end)
            c->p++;
        *v++ = *c->p;
    }
    *v = '\0';
    if (c->p + 1 >= c->end || *c->p != '"' || c->p[1] != ']')
        return fail(im, "line %d: tag %s: expected \"value\"] on one line",
                    c->line, name);
    c->p += 2;
    return 0;
}

/* Reads `{ text }` (with \} and \\ escaped) into r->body. 0 or -1. */
static int read_braces(struct import *im, struct cursor *c, struct record *r)
{
    char *t = malloc((size_t)(c->end - c->p) + 1);
    r->body = t;
    if (!t)
        return fail(im, "out of memory");
    c->p++;
    if (c->p < c->end && *c->p == '\n')
        c->p++, c->line++;
    for (; c->p < c->end && *c->p != '}'; c->p++) {
        if (*c->p == '\\' && c->p + 1 < c->end)
            c->p++;
        c->line += *c->p == '\n';
        *t++ = *c->p;
    }
    *t = '\0';
    if (c->p == c->end)
        return fail(im, "line %d: the sweep file's '{' is never closed",
                    r->line);
    c->p++;
    return 0;
}

/* Whether word [b, b+len) is a move number ("12." or "12..."). */
static int move_number(const char *b, size_t len)
{
    size_t digits = 0;
    while (digits < len && isdigit((unsigned char)b[digits]))
        digits++;
    return digits && digits < len && strspn(b + digits, ".") == len - digits;
}

/* Reads moves up to the result token into r. 0 or -1 (said). */
static int read_moves(struct import *im, struct cursor *c, struct record *r)
{
    char *t = malloc((size_t)(c->end - c->p) + 1);
    size_t n = 0;
    r->body = t;
    if (!t)
        return fail(im, "out of memory");
    for (;;) {
        skip_space(c);
        if (c->p == c->end || *c->p == '[' || *c->p == '{')
            return fail(im, "line %d: the game of line %d has no result "
                        "(1-0, 0-1 or 1/2-1/2) after its moves", c->line,
                        r->line);
        const char *b = c->p;
        while (c->p < c->end && !isspace((unsigned char)*c->p))
            c->p++;
        size_t len = (size_t)(c->p - b);
        static const char *const results[] = {"1-0", "0-1", "1/2-1/2"};
        for (int i = 0; i < 3; i++)
            if (strlen(results[i]) == len && memcmp(b, results[i], len) == 0) {
                strcpy(r->result, results[i]);
                t[n] = '\0';
                return 0;
            }
        if (move_number(b, len))
            continue;
        if (n)
            t[n++] = ' ';
        memcpy(t + n, b, len);
        n += len;
    }
}

static int read_records(struct import *im, const char *text, size_t len)
{
    struct cursor c = {text, text + len, 1};
    for (;;) {
        skip_space(&c);
        if (c.p == c.end)
            return 0;
        if (*c.p != '[')
            return fail(im, "line %d: expected a record's tags ([Name "
                        "\"value\"])", c.line);
        if (im->n_records == im->cap_records) {
            int cap = im->cap_records ? 2 * im->cap_records : 64;
            struct record *grown = realloc(im->records, sizeof *grown
                                                            * (size_t)cap);
            if (!grown)
                return fail(im, "out of memory");
            im->records = grown;
            im->cap_records = cap;
        }
        struct record *r = &im->records[im->n_records++];
        memset(r, 0, sizeof *r);
        r->line = c.line;
        while (c.p < c.end && *c.p == '[') {
            if (read_tag(im, &c, r))
                return -1;
            skip_space(&c);
        }
        r->is_sweep = tag_of(r, "SweepFile") != NULL;
        if (r->is_sweep ? c.p == c.end || *c.p != '{' || read_braces(im, &c, r)
                        : read_moves(im, &c, r))
            return r->is_sweep && (c.p == c.end || *c.p != '{')
                       ? fail(im, "line %d: a SweepFile record needs the "
                              "file's text in braces", r->line)
                       : -1;
    }
}

/* ---- the sweeps ---------------------------------------------------------- */

/* Reads a whole number below 2^64 from text. 0 or -1. */
static int read_u64(const char *text, uint64_t *out)
{
    if (!text || !*text || strspn(text, "0123456789") != strlen(text)
        || strlen(text) > 20)
        return -1;
    errno = 0;
    unsigned long long x = strtoull(text, NULL, 10);
    if (errno)
        return -1;
    *out = x;
    return 0;
}

static struct import_sweep *add_sweep(struct import *im)
{
    if (im->n_sweeps == im->cap_sweeps) {
        int cap = im->cap_sweeps ? 2 * im->cap_sweeps : 8;
        struct import_sweep *grown = realloc(im->sweeps, sizeof *grown
                                                             * (size_t)cap);
        if (!grown)
            return NULL;
        im->sweeps = grown;
        im->cap_sweeps = cap;
    }
    struct import_sweep *s = &im->sweeps[im->n_sweeps++];
    memset(s, 0, sizeof *s);
    return s;
}

/* The sweep of name and seed, or -1. */
static int find_sweep(const struct import *im, const char *name,
                      uint64_t seed)
{
    for (int i = 0; i < im->n_sweeps; i++)
        if (strcmp(im->sweeps[i].name, name) == 0
            && im->sweeps[i].seed == seed)
            return i;
    return -1;
}

/* The sweeps of the file's SweepFile records. 0 or -1 (said). */
static int file_sweeps(struct import *im)
{
    for (int i = 0; i < im->n_records; i++) {
        struct record *r = &im->records[i];
        uint64_t seed;
        if (!r->is_sweep)
            continue;
        const char *name = tag_of(r, "SweepFile");
        if (read_u64(tag_of(r, "SweepSeed"), &seed) != 0)
            return fail(im, "line %d: a SweepFile record needs [SweepSeed "
                        "\"N\"]", r->line);
        if (strlen(name) >= SWEEP_NAME_MAX)
            return fail(im, "line %d: sweep name too long", r->line);
        if (find_sweep(im, name, seed) >= 0)
            return fail(im, "line %d: sweep %s (seed %llu) given twice",
                        r->line, name, (unsigned long long)seed);
        struct import_sweep *s = add_sweep(im);
        if (!s)
            return fail(im, "out of memory");
        strcpy(s->name, name);
        s->seed = seed;
        s->text = r->body;
    }
    return 0;
}

/* Whether two game records have the same variant and agents (what a made
 * sweep holds). */
static int same_cell(const struct record *a, const struct record *b)
{
    static const char *const tags[] = {"Variant", "Seat0", "Seat0Spec",
                                       "Seat1", "Seat1Spec"};
    for (int i = 0; i < 5; i++) {
        const char *x = tag_of(a, tags[i]), *y = tag_of(b, tags[i]);
        if (!x || !y || strcmp(x, y) != 0)
            return 0;
    }
    return 1;
}

/* Finds (or makes) each game record's sweep and reads its index. */
static int assign_sweeps(struct import *im)
{
    im->sweep_of = calloc((size_t)im->n_records + 1, sizeof(int));
    im->index_of = calloc((size_t)im->n_records + 1, sizeof(int));
    if (!im->sweep_of || !im->index_of)
        return fail(im, "out of memory");
    for (int i = 0; i < im->n_records; i++) {
        const struct record *r = &im->records[i];
        static const char *const needed[] = {"Variant", "Seat0", "Seat0Spec",
                                             "Seat1", "Seat1Spec", "Result",
                                             "Reason"};
        if (r->is_sweep)
            continue;
        for (int k = 0; k < 7; k++)
            if (!tag_of(r, needed[k]))
                return fail(im, "line %d: the game has no %s tag", r->line,
                            needed[k]);
        const char *name = tag_of(r, "Sweep") ? tag_of(r, "Sweep")
                                              : "imported";
        uint64_t seed = 1, index;
        if (tag_of(r, "SweepSeed") && read_u64(tag_of(r, "SweepSeed"), &seed))
            return fail(im, "line %d: SweepSeed is no whole number", r->line);
        int si = find_sweep(im, name, seed);
        if (si < 0) {
            struct import_sweep *s = add_sweep(im);
            if (!s)
                return fail(im, "out of memory");
            snprintf(s->name, sizeof s->name, "%s", name);
            s->seed = seed;
            s->made = 1;
            s->first = r;
            si = im->n_sweeps - 1;
        }
        struct import_sweep *s = &im->sweeps[si];
        if (s->made && !same_cell(s->first, r))
            return fail(im, "line %d: the games of sweep %s have no sweep "
                        "file, and this one's variant or agents differ from "
                        "line %d's (give each variant and agent pair a Sweep "
                        "tag of its own, or the SweepFile)", r->line, name,
                        s->first->line);
        if (!tag_of(r, "Index") && s->made)
            index = (uint64_t)s->games;
        else if (read_u64(tag_of(r, "Index"), &index) || index >= 1000000000)
            return fail(im, "line %d: the game needs [Index \"N\"], its "
                        "index in its cell", r->line);
        if (s->made && (int)index >= s->games)
            s->games = (int)index + 1;
        s->used = 1;
        im->sweep_of[i] = si;
        im->index_of[i] = (int)index;
    }
    return 0;
}

/* Writes the sweep file of a made sweep: the first game's variant (every
 * key), its two agents, that pair alone. 0 or -1 (said). */
static int make_sweep_text(struct import *im, struct import_sweep *s)
{
    const struct record *r = s->first;
    struct variant v;
    char err[1024];
    if (variant_parse(tag_text(r, "Variant"), &v, err, sizeof err) != 0)
        return fail(im, "line %d: Variant: %s", r->line, err);
    size_t cap = 8192 + 4 * VARIANT_TEXT_MAX, len = 0;
    char *t = malloc(cap);
    s->text = t;
    if (!t)
        return fail(im, "out of memory");
    len += (size_t)snprintf(t + len, cap - len, "; made by rulelab import "
                            "for games without their sweep file\n[sweep]\n"
                            "name = %s\nseed = %llu\ngames = %d\n[game %s]\n",
                            s->name, (unsigned long long)s->seed, s->games,
                            v.game->name);
    for (int k = 0; k < v.game->n_params && len < cap; k++) {
        char value[64];
        param_value_text(&v.game->params[k], v.values[k], value,
                         sizeof value);
        len += (size_t)snprintf(t + len, cap - len, "%s = %s\n",
                                v.game->params[k].name, value);
    }
    /* one agent when both seats play one spec (a sweep refuses an agent
     * under two names): the cell is found by the specs alone */
    const char *n0 = tag_text(r, "Seat0"), *n1 = tag_text(r, "Seat1");
    char spec[2][VARIANT_TEXT_MAX];
    int one = strcmp(n0, n1) == 0;
    if (agent_canonical(tag_text(r, "Seat0Spec"), spec[0], sizeof spec[0], err,
                        sizeof err) >= 0
        && agent_canonical(tag_text(r, "Seat1Spec"), spec[1], sizeof spec[1],
                           err, sizeof err) >= 0
        && strcmp(spec[0], spec[1]) == 0) {
        one = 1;
        n1 = n0;
    }
    len += (size_t)snprintf(t + len, cap - len, "[agents]\n%s = %s\n", n0,
                            tag_text(r, "Seat0Spec"));
    if (!one)
        len += (size_t)snprintf(t + len, cap - len, "%s = %s\n", n1,
                                tag_text(r, "Seat1Spec"));
    len += (size_t)snprintf(t + len, cap - len, "[matchups]\npairs = %s vs "
                            "%s\norders = given\n", n0, n1);
    if (len >= cap)
        return fail(im, "line %d: the sweep made for the game is too long",
                    r->line);
    return 0;
}

/* Parses every sweep a game is in (making the made ones' files). */
static int parse_sweeps(struct import *im)
{
    for (int i = 0; i < im->n_sweeps; i++) {
        struct import_sweep *s = &im->sweeps[i];
        char err[4096];
        if (!s->used)
            continue;
        if (s->made && make_sweep_text(im, s))
            return -1;
        if (sweep_parse_stored(s->text, &s->s, err, sizeof err) != 0)
            return fail(im, "sweep %s%s does not parse: %s", s->name,
                        s->made ? " (made for games without their sweep "
                        "file)" : "", err);
        s->parsed = 1;
        if (strcmp(s->s.name, s->name) != 0 || s->s.seed != s->seed)
            return fail(im, "the SweepFile record of %s (seed %llu) holds "
                        "sweep %s (seed %llu)", s->name,
                        (unsigned long long)s->seed, s->s.name,
                        (unsigned long long)s->s.seed);
    }
    return 0;
}

/* ---- checking each game -------------------------------------------------- */

/* The reason called name, or REASON_NONE. */
static enum end_reason reason_named(const char *name)
{
    for (int i = REASON_NONE + 1; i < REASON_COUNT; i++)
        if (strcmp(end_reason_name((enum end_reason)i), name) == 0)
            return (enum end_reason)i;
    return REASON_NONE;
}

static int is_forfeit(enum end_reason r)
{
    return r == REASON_FORFEIT_ILLEGAL || r == REASON_FORFEIT_TIME
           || r == REASON_FORFEIT_CRASH;
}

/* The cell of sweep s with variant canonical and the agents of r's specs,
 * or -1 (with a message). */
static int find_cell(struct import *im, const struct import_sweep *s,
                     const struct record *r, const char *canonical)
{
    char spec[2][VARIANT_TEXT_MAX], err[4096];
    for (int k = 0; k < 2; k++)
        if (agent_canonical(tag_text(r, k ? "Seat1Spec" : "Seat0Spec"), spec[k],
                            sizeof spec[k], err, sizeof err) < 0)
            return fail(im, "line %d: Seat%dSpec: %s", r->line, k, err);
    for (int c = 0; c < s->s.n_cells; c++) {
        const struct sweep_cell *cell = &s->s.cells[c];
        if (strcmp(cell->variant_text, canonical) == 0
            && strcmp(s->s.agents[cell->agent[0]].spec, spec[0]) == 0
            && strcmp(s->s.agents[cell->agent[1]].spec, spec[1]) == 0)
            return c;
    }
    return fail(im, "line %d: sweep %s has no cell of %s with %s vs %s",
                r->line, s->name, canonical, spec[0], spec[1]);
}

/* Fails with "line N (sweep S, VARIANT, A vs B, game I): ...". */
static int fail_game(struct import *im, const struct record *r,
                     const char *what)
{
    return fail(im, "line %d (sweep %s, %s, %s vs %s, game %s): %s", r->line,
                tag_of(r, "Sweep") ? tag_of(r, "Sweep") : "imported",
                tag_of(r, "Variant"), tag_of(r, "Seat0"), tag_of(r, "Seat1"),
                tag_of(r, "Index") ? tag_of(r, "Index") : "?", what);
}

/* Checks that the replayed game st (the agents' seat 0 being the game's
 * seat flip) ended as r says, and fills the outcome and reason. */
static int check_ending(struct import *im, const struct record *r,
                        const struct game *g, const void *st, int flip,
                        struct game_record *rec)
{
    char why[256];
    enum end_reason reason = reason_named(tag_text(r, "Reason"));
    if (strcmp(tag_text(r, "Result"), r->result) != 0) {
        snprintf(why, sizeof why, "the Result tag says %s, the moves end "
                 "with %s", tag_text(r, "Result"), r->result);
        return fail_game(im, r, why);
    }
    rec->outcome = strcmp(r->result, "1-0") == 0   ? GAME_WIN_SEAT0
                   : strcmp(r->result, "0-1") == 0 ? GAME_WIN_SEAT1
                                                   : GAME_DRAW;
    rec->reason = reason;
    struct game_status status = g->status(st);
    if (reason == REASON_NONE) {
        snprintf(why, sizeof why, "unknown reason '%s'", tag_text(r, "Reason"));
        return fail_game(im, r, why);
    }
    if (is_forfeit(reason)) {
        int loser = g->to_move(st) ^ flip;
        if (status.outcome != GAME_ONGOING)
            return fail_game(im, r, "a forfeit after the game was over");
        if (rec->outcome != (loser ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1))
            return fail_game(im, r, "a forfeit is the mover's loss, and the "
                             "result says otherwise");
        return 0;
    }
    if (status.outcome == GAME_ONGOING)
        return fail_game(im, r, "the moves end before the game does");
    enum game_outcome played = status.outcome;
    if (flip && played != GAME_DRAW)
        played = played == GAME_WIN_SEAT0 ? GAME_WIN_SEAT1 : GAME_WIN_SEAT0;
    if (played != rec->outcome || status.reason != reason) {
        snprintf(why, sizeof why, "the moves end in %s by %s, the record "
                 "says %s by %s", played == GAME_DRAW ? "1/2-1/2"
                 : played == GAME_WIN_SEAT0 ? "1-0" : "0-1",
                 end_reason_name(status.reason), r->result,
                 tag_text(r, "Reason"));
        return fail_game(im, r, why);
    }
    return 0;
}

/* Checks the tags that must agree with the game replayed or with this
 * program: Plies, Side0 and Side1, Behaviour. */
static int check_tags(struct import *im, const struct record *r,
                      const struct game *g, const struct checked *c)
{
    char want[128];
    snprintf(want, sizeof want, "%d", c->rec.plies);
    if (tag_of(r, "Plies") && strcmp(tag_of(r, "Plies"), want) != 0)
        return fail_game(im, r, "Plies differs from the moves");
    for (int k = 0; k < 2; k++) {
        const char *side = tag_of(r, k ? "Side1" : "Side0");
        if (side && strcmp(side, c->side[k]) != 0)
            return fail_game(im, r, "Side0 or Side1 is not the side that "
                             "seat plays");
    }
    const struct agent_kind *a0 = agent_kind_of(tag_of(r, "Seat0Spec"));
    const struct agent_kind *a1 = agent_kind_of(tag_of(r, "Seat1Spec"));
    snprintf(want, sizeof want, "%d %d %d", g->behaviour_version,
             a0->behaviour_version, a1->behaviour_version);
    if (tag_of(r, "Behaviour") && strcmp(tag_of(r, "Behaviour"), want) != 0) {
        char why[256];
        snprintf(why, sizeof why, "played at behaviour versions %s (game, "
                 "seat 0, seat 1), this rulelab's are %s: import it with the "
                 "rulelab that played it", tag_of(r, "Behaviour"), want);
        return fail_game(im, r, why);
    }
    return 0;
}

/* Checks game record r and fills c. 0 or -1 (said). */
static int check_game(struct import *im, int i, struct checked *c)
{
    const struct record *r = &im->records[i];
    struct import_sweep *s = &im->sweeps[im->sweep_of[i]];
    struct variant v;
    char err[4096], canonical[VARIANT_TEXT_MAX];
    if (variant_parse(tag_of(r, "Variant"), &v, err, sizeof err) != 0)
        return fail(im, "line %d: Variant: %s", r->line, err);
    variant_canonical(&v, canonical, sizeof canonical);
    memset(c, 0, sizeof *c);
    c->sweep = im->sweep_of[i];
    if ((c->cell = find_cell(im, s, r, canonical)) < 0)
        return -1;
    int index = im->index_of[i];
    if (index >= s->s.games_per_cell)
        return fail_game(im, r, "Index is past the sweep's games a cell");
    const char *position = tag_of(r, "OpeningPosition");
    const char *opening = tag_of(r, "Opening");
    const struct game *g = v.game;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    if (game_replay(&v, st, position, opening, "", NULL, NULL, NULL, err,
                    sizeof err) != 0)
        return fail_game(im, r, err);
    int flip = g->to_move(st);
    for (int k = 0; k < 2; k++)
        snprintf(c->side[k], sizeof c->side[k], "%s",
                 g->seat_side(st, k ^ flip));
    if (game_replay(&v, st, position, opening, r->body, NULL, NULL,
                    &c->rec.plies, err, sizeof err) != 0)
        return fail_game(im, r, err); /* "move K 'TEXT' ...": the ply */
    if (check_ending(im, r, g, st, flip, &c->rec) || check_tags(im, r, g, c))
        return -1;
    const struct sweep_cell *cell = &s->s.cells[c->cell];
    c->rec.game_index = index;
    if (tag_of(r, "Seed") ? read_u64(tag_of(r, "Seed"), &c->rec.seed)
                          : (c->rec.seed = sweep_game_seed(&s->s, cell,
                                                           index), 0))
        return fail_game(im, r, "Seed is no whole number below 2^64");
    c->rec.duration_ms = 0;
    if (tag_of(r, "DurationMs")
        && (spec_parse_number(tag_of(r, "DurationMs"), 0, &c->rec.duration_ms)
            || c->rec.duration_ms < 0))
        return fail_game(im, r, "DurationMs is no number of milliseconds");
    c->rec.side[0] = c->side[0];
    c->rec.side[1] = c->side[1];
    c->rec.moves = r->body;
    c->rec.moves_len = strlen(r->body);
    c->opening.moves = opening ? opening : "";
    c->opening.position = position ? position : "";
    c->opening.pair_id = sweep_pair_id(&s->s, cell, index);
    return 0;
}

/* ---- storing ------------------------------------------------------------- */

/* Stores the checked games of sweep si as one run. */
static int store_sweep(struct import *im, struct store *st, int si,
                       struct records_summary *out)
{
    struct import_sweep *s = &im->sweeps[si];
    char err[4096];
    s->cell_ids = calloc((size_t)s->s.n_cells + 1, sizeof *s->cell_ids);
    if (!s->cell_ids)
        return fail(im, "out of memory");
    if (store_begin_run(st, &s->s, 1, s->cell_ids, err, sizeof err) != 0)
        return fail(im, "sweep %s: %s", s->name, err);
    for (int i = 0; i < im->n_games; i++) {
        struct checked *c = &im->games[i];
        if (c->sweep != si)
            continue;
        c->rec.side[0] = c->side[0];
        c->rec.side[1] = c->side[1];
        c->rec.cell_id = s->cell_ids[c->cell];
        int rc = store_insert_opened_game(st, &c->rec, s->s.cells[c->cell]
                                              .openings >= 0 ? &c->opening
                                                             : NULL,
                                          err, sizeof err);
        if (rc < 0) {
            store_rollback(st, NULL, 0);
            store_end_run(st, "failed");
            return fail(im, "sweep %s: %s", s->name, err);
        }
        rc == STORE_GAME_ALREADY ? out->already++ : out->games++;
    }
    if (store_commit(st, err, sizeof err) != 0) {
        store_end_run(st, "failed");
        return fail(im, "sweep %s: %s", s->name, err);
    }
    out->sweeps++;
    return store_end_run(st, "complete") == 0 ? 0
           : fail(im, "sweep %s: ending the run failed", s->name);
}

static void import_free(struct import *im)
{
    for (int i = 0; i < im->n_records; i++) {
        for (int k = 0; k < im->records[i].n_tags; k++) {
            free(im->records[i].tag[k]);
            free(im->records[i].value[k]);
        }
        free(im->records[i].body);
    }
    for (int i = 0; i < im->n_sweeps; i++) {
        if (im->sweeps[i].made)
            free(im->sweeps[i].text);
        if (im->sweeps[i].parsed)
            sweep_free(&im->sweeps[i].s);
        free(im->sweeps[i].cell_ids);
    }
    free(im->records);
    free(im->sweeps);
    free(im->games);
    free(im->sweep_of);
    free(im->index_of);
}

int records_import(struct store *st, const char *text, size_t len,
                   const char *name, struct records_summary *out, char *err,
                   size_t errsz)
{
    struct import im = {.name = name, .err = err, .errsz = errsz};
    memset(out, 0, sizeof *out);
    int rc = -1;
    if (memchr(text, '\0', len)) {
        fail(&im, "a NUL byte: game records are text");
        goto done;
    }
    if (read_records(&im, text, len) || file_sweeps(&im)
        || assign_sweeps(&im) || parse_sweeps(&im))
        goto done;
    im.games = calloc((size_t)im.n_records + 1, sizeof *im.games);
    if (!im.games) {
        fail(&im, "out of memory");
        goto done;
    }
    for (int i = 0; i < im.n_records; i++)
        if (!im.records[i].is_sweep
            && check_game(&im, i, &im.games[im.n_games++]) != 0)
            goto done;
    for (int i = 0; i < im.n_sweeps; i++)
        if (im.sweeps[i].used && store_sweep(&im, st, i, out) != 0)
            goto done;
    rc = 0;
done:
    import_free(&im);
    return rc;
}
