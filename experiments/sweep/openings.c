/*
 * openings.c -- the `openings` sweep key: reading the setting and its file,
 * checking each line against the section's variants, and playing the
 * opening of a game (openings.h says what the setting means).
 *
 * An opening is part of what a game is, so it must be the same however the
 * sweep is run: it comes from the sweep seed, the variant's identity and
 * the game index alone, through core/rng.h. Seats are not in that list, so
 * the two seat orders of a pair of agents play the same openings.
 */
#include "openings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* random_plies:N or safe_plies:N (the word before the colon is `kind`)
 * with N a decimal whole number in 0..OPENINGS_MAX_PLIES. */
static int parse_random(const char *value, const char *kind,
                        struct openings *o, char *err, size_t errsz)
{
    const char *digits = value + strlen(kind) + 1;
    long n = 0;
    int count = 0;
    for (const char *p = digits; *p; p++, count++) {
        if (*p < '0' || *p > '9' || n > OPENINGS_MAX_PLIES) {
            count = -1;
            break;
        }
        n = 10 * n + (*p - '0');
    }
    if (count <= 0 || n > OPENINGS_MAX_PLIES) {
        snprintf(err, errsz, "openings = %s: %s takes a whole number of "
                 "plies from 0 to %d (%s:4)", value, kind, OPENINGS_MAX_PLIES,
                 kind);
        return -1;
    }
    o->kind = OPENINGS_RANDOM;
    o->plies = (int)n;
    o->safe = strcmp(kind, "safe_plies") == 0;
    snprintf(o->identity, sizeof o->identity, "%s:%d", kind, o->plies);
    snprintf(o->setting, sizeof o->setting, "%s:%d", kind, o->plies);
    return 0;
}

/* The whole file at path, NUL-terminated, in *text. */
static int read_whole(const char *path, char **text, char *err, size_t errsz)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsz, "openings file %s: %s", path, strerror(errno));
        return -1;
    }
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len - 1, f);
        if (len < cap - 1)
            break;
        char *grown = realloc(buf, 2 * cap);
        if (!grown) {
            free(buf);
            buf = NULL;
        } else {
            buf = grown;
            cap *= 2;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        snprintf(err, errsz, "openings file %s: %s", path,
                 buf ? "read error" : "out of memory");
        return -1;
    }
    buf[len] = '\0';
    if (strlen(buf) < len) {
        snprintf(err, errsz, "openings file %s: a NUL byte (an openings file "
                 "is text, one opening a line)", path);
        free(buf);
        return -1;
    }
    *text = buf;
    return 0;
}

/* Cuts o->text into its openings: comments and blank lines dropped, each
 * line trimmed, a line with '/' a position, any other a move list. */
static int split_lines(struct openings *o, char *err, size_t errsz)
{
    int cap = 0, line = 1;
    for (char *p = o->text; *p; line++) {
        char *end = p + strcspn(p, "\n"), *next = *end ? end + 1 : end;
        for (char *c = p; c < end; c++)
            if ((*c == ';' || *c == '#') && (c == p || is_blank(c[-1]))) {
                end = c;
                break;
            }
        while (p < end && is_blank(*p))
            p++;
        while (end > p && is_blank(end[-1]))
            end--;
        *end = '\0';
        if (p < end) {
            if (o->n_lines == cap) {
                cap = cap ? 2 * cap : 64;
                struct opening_line *grown =
                    realloc(o->lines, sizeof *grown * (size_t)cap);
                if (!grown) {
                    snprintf(err, errsz, "%s: out of memory", o->path);
                    return -1;
                }
                o->lines = grown;
            }
            int position = strchr(p, '/') != NULL;
            if (position && strlen(p) >= OPENINGS_POSITION_MAX) {
                snprintf(err, errsz, "%s:%d: a position text of more than %d "
                         "characters", o->path, line, OPENINGS_POSITION_MAX - 1);
                return -1;
            }
            o->lines[o->n_lines++] = (struct opening_line){
                position ? p : NULL, position ? p + strlen(p) : p, line};
        }
        p = next;
    }
    if (o->n_lines == 0) {
        snprintf(err, errsz, "%s: no opening in the file (one position text "
                 "or move list a line)", o->path);
        return -1;
    }
    return 0;
}

/* Copies the next word of the move list at *p into word (n bytes; a longer
 * word is cut, and then is no move) and moves *p past it. Returns 0 when
 * the list has no word left. */
static int next_word(const char **p, char *word, size_t n)
{
    while (is_blank(**p))
        (*p)++;
    size_t len = strcspn(*p, " \t\r");
    if (!len)
        return 0;
    snprintf(word, n, "%.*s", (int)(len < n ? len : n - 1), *p);
    *p += len;
    return 1;
}

/* The hash of the openings, in order: what the file's identity names. */
static uint64_t lines_hash(const struct openings *o)
{
    uint64_t h = 0x09e4;
    for (int i = 0; i < o->n_lines; i++) {
        const struct opening_line *l = &o->lines[i];
        h = rng_hash_string(h, l->position ? l->position : "");
        /* the moves with their spacing folded: "a  b" is "a b" */
        char word[64];
        for (const char *p = l->moves; next_word(&p, word, sizeof word);)
            h = rng_hash_string(h ^ 0x20, word);
        h = rng_hash_string(h, "\n");
    }
    return h;
}

int openings_parse(const char *value, const char *sweep_path, int read_file,
                   struct openings *o, char *err, size_t errsz)
{
    memset(o, 0, sizeof *o);
    if (strcmp(value, "none") == 0)
        return 0;
    if (strncmp(value, "random_plies:", strlen("random_plies:")) == 0)
        return parse_random(value, "random_plies", o, err, errsz);
    if (strncmp(value, "safe_plies:", strlen("safe_plies:")) == 0)
        return parse_random(value, "safe_plies", o, err, errsz);
    o->kind = OPENINGS_FILE;
    const char *slash = strrchr(sweep_path, '/');
    if (value[0] == '/' || !slash)
        snprintf(o->path, sizeof o->path, "%s", value);
    else
        snprintf(o->path, sizeof o->path, "%.*s/%s",
                 (int)(slash - sweep_path), sweep_path, value);
    snprintf(o->setting, sizeof o->setting, "file %s", value);
    /* not read: the identity stays unknown, and nothing may be played */
    snprintf(o->identity, sizeof o->identity, "file:?");
    if (!read_file)
        return 0;
    if (read_whole(o->path, &o->text, err, errsz) || split_lines(o, err, errsz)) {
        openings_free(o);
        return -1;
    }
    snprintf(o->identity, sizeof o->identity, "file:%016llx",
             (unsigned long long)lines_hash(o));
    size_t len = strlen(o->setting);
    snprintf(o->setting + len, sizeof o->setting - len, ", %d opening%s",
             o->n_lines, o->n_lines == 1 ? "" : "s");
    return 0;
}

void openings_free(struct openings *o)
{
    free(o->lines);
    free(o->text);
    o->lines = NULL;
    o->text = NULL;
    o->n_lines = 0;
}

/* Appends the text of move m (legal in st) to out->moves. */
static void add_move_text(const struct game *g, const void *st, move_t m,
                          struct opening_played *out, size_t *len)
{
    char text[32];
    int n = g->move_to_text(st, m, text, sizeof text);
    if (n > 0 && *len + (size_t)n + 2 <= sizeof out->moves) {
        *len += (size_t)snprintf(out->moves + *len, sizeof out->moves - *len,
                                 "%s%s", *len ? " " : "", text);
    }
    out->plies++;
}

/* Plays line l under v into st and out. Returns 0, or -1 with what is
 * wrong (without the file and line). */
static int play_line(const struct opening_line *l, const struct variant *v,
                     void *st, struct opening_played *out, char *err,
                     size_t errsz)
{
    const struct game *g = v->game;
    memset(out, 0, sizeof *out);
    if (l->position) {
        char why[256];
        if (g->from_text(st, v, l->position, why, sizeof why) != 0) {
            snprintf(err, errsz, "not a %s position: %s", g->name, why);
            return -1;
        }
        snprintf(out->position, sizeof out->position, "%s", l->position);
    } else {
        g->init(st, v);
    }
    size_t len = 0;
    char word[64], why[256];
    for (const char *p = l->moves; next_word(&p, word, sizeof word);) {
        if (out->plies == OPENINGS_MAX_PLIES) {
            snprintf(err, errsz, "more than %d moves (the most an opening "
                     "may have)", OPENINGS_MAX_PLIES);
            return -1;
        }
        move_t m;
        if (game_parse_move(g, st, word, &m, why, sizeof why) != 0) {
            snprintf(err, errsz, "move %d '%s': %s", out->plies + 1, word,
                     g->status(st).outcome != GAME_ONGOING ? "the game is "
                     "already over" : why);
            return -1;
        }
        add_move_text(g, st, m, out, &len);
        g->apply(st, m);
    }
    struct game_status s = g->status(st);
    if (s.outcome != GAME_ONGOING) {
        snprintf(err, errsz, "the game is over after this opening (%s, %s): "
                 "an opening must leave it going", game_outcome_name(s.outcome),
                 end_reason_name(s.reason));
        return -1;
    }
    return 0;
}

int openings_check(const struct openings *o, const struct variant *v,
                   char *err, size_t errsz)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    struct opening_played played;
    char why[512], variant[VARIANT_TEXT_MAX];
    for (int i = 0; o->kind == OPENINGS_FILE && i < o->n_lines; i++)
        if (play_line(&o->lines[i], v, st, &played, why, sizeof why) != 0) {
            if (variant_canonical(v, variant, sizeof variant) < 0)
                snprintf(variant, sizeof variant, "%s", v->game->name);
            snprintf(err, errsz, "%s:%d: %s (in %s)", o->path,
                     o->lines[i].line, why, variant);
            return -1;
        }
    return 0;
}

/* A random opening of o->plies plies: attempt k draws from a generator
 * seeded by (seed, k); the first attempt that leaves the game going (and,
 * for safe_plies, the side to move with no win at once) wins. */
static int random_opening(const struct openings *o, uint64_t seed,
                          const struct variant *v, void *st,
                          struct opening_played *out, char *err, size_t errsz)
{
    const struct game *g = v->game;
    move_t moves[GAME_MAX_MOVES];
    for (uint64_t attempt = 0; attempt < OPENINGS_MAX_ATTEMPTS; attempt++) {
        uint64_t x = seed ^ attempt * 0xbf58476d1ce4e5b9ULL;
        struct rng r;
        rng_seed(&r, rng_splitmix64(&x));
        memset(out, 0, sizeof *out);
        g->init(st, v);
        size_t len = 0;
        while (out->plies < o->plies && g->status(st).outcome == GAME_ONGOING) {
            int n = g->legal_moves(st, moves);
            if (n <= 0)
                break;
            move_t m = moves[rng_below(&r, (uint32_t)n)];
            add_move_text(g, st, m, out, &len);
            g->apply(st, m);
        }
        if (out->plies == o->plies && g->status(st).outcome == GAME_ONGOING
            && !(o->safe && game_mover_wins_at_once(g, st)))
            return 0;
    }
    snprintf(err, errsz, "openings = %s: no draw in %d left the game going%s",
             o->setting, OPENINGS_MAX_ATTEMPTS,
             o->safe ? " with no win at once" : "");
    return -1;
}

int openings_play(const struct openings *o, uint64_t sweep_seed,
                  const struct variant *v, const char *variant_identity,
                  int index, void *st, struct opening_played *out, char *err,
                  size_t errsz)
{
    memset(out, 0, sizeof *out);
    if (!o || o->kind == OPENINGS_NONE) {
        v->game->init(st, v);
        return 0;
    }
    if (o->kind == OPENINGS_FILE) {
        if (o->n_lines == 0) {
            snprintf(err, errsz, "openings file %s was not read", o->path);
            return -1;
        }
        const struct opening_line *l = &o->lines[index % o->n_lines];
        char why[512];
        if (play_line(l, v, st, out, why, sizeof why) != 0) {
            snprintf(err, errsz, "%s:%d: %s", o->path, l->line, why);
            return -1;
        }
        return 0;
    }
    /* the seat order and the agents are left out on purpose (a pair) */
    uint64_t h = rng_hash_string(sweep_seed ^ 0x09e419, variant_identity);
    h ^= (uint64_t)index * 0x9e3779b97f4a7c15ULL;
    return random_opening(o, rng_splitmix64(&h), v, st, out, err, errsz);
}
