/*
 * sweep_read.c -- the first half of reading a sweep file: the strict INI
 * reader, which checks the bytes of each line and splits a writable copy
 * of the text into sections and `key = value` entries (pointers into the
 * copy, so no length limits), each remembering its line. It knows nothing
 * of what the keys mean: sweep.c interprets the sections and expands them
 * into cells. sweep_internal.h is what the two share.
 *
 * Strict on purpose: sweep files decide what is played and stored, so
 * nothing in one may be read differently from what it says. Each line
 * stands alone (an indented line is read like any other, never as the
 * rest of the line above); `;` and `#` start comments, at the start of a
 * line or after a space; a key given twice in a section, a section opened
 * twice, a NUL byte, a control character or bytes that are not UTF-8 are
 * errors naming the line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_internal.h"

/* Writes "path:line: message" into r->err (the first error only) and
 * returns -1. Line 0 leaves the line out. */
int sweep_fail(struct reader *r, int line, const char *fmt, ...)
{
    if (!r->failed && r->err && r->errsz) {
        int w = line > 0 ? snprintf(r->err, r->errsz, "%s:%d: ", r->path, line)
                         : snprintf(r->err, r->errsz, "%s: ", r->path);
        va_list ap;
        va_start(ap, fmt);
        if (w >= 0 && (size_t)w < r->errsz)
            vsnprintf(r->err + w, r->errsz - (size_t)w, fmt, ap);
        va_end(ap);
    }
    r->failed = 1;
    return -1;
}

/* ---- reading lines ------------------------------------------------------- */

int sweep_is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Narrows [*b, *e) to its text without spaces and tabs around it. */
void sweep_trim(char **b, char **e)
{
    while (*b < *e && sweep_is_blank(**b))
        (*b)++;
    while (*e > *b && sweep_is_blank((*e)[-1]))
        (*e)--;
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0 if the
 * bytes there are not one (overlong forms and surrogates included). */
static size_t utf8_length(const unsigned char *p, size_t n)
{
    if (p[0] < 0x80)
        return 1;
    size_t len = p[0] >= 0xc2 && p[0] <= 0xdf   ? 2
                 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
                 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4
                                                : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f)
        || (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
        return 0;
    return len;
}

/* Checks the bytes of one line [b, e) (its '\n' excluded): UTF-8, no NUL,
 * no control character but tab, and CR only as the last byte. */
static int check_bytes(struct reader *r, int line, const char *b,
                       const char *e)
{
    for (const char *p = b; p < e;) {
        unsigned char c = (unsigned char)*p;
        if (c == 0)
            return sweep_fail(r, line, "NUL byte (a sweep file is UTF-8 text)");
        if ((c < 0x20 && c != '\t' && !(c == '\r' && p + 1 == e)) || c == 0x7f)
            return sweep_fail(r, line,
                              "control character 0x%02x (allowed: tab, "
                              "and CR before the line end)",
                              c);
        size_t len = utf8_length((const unsigned char *)p, (size_t)(e - p));
        if (len == 0)
            return sweep_fail(r, line,
                              "not UTF-8 text (byte 0x%02x; a sweep file "
                              "is UTF-8)",
                              c);
        p += len;
    }
    return 0;
}

/* Ends the line [b, *e) at its comment: `;` or `#` at its start or after
 * a space or tab, outside double quotes (an agent spec's text value,
 * core/variant.h, may hold them). */
static void cut_comment(char *b, char **e)
{
    int quoted = 0;
    for (char *p = b; p < *e; p++) {
        if (quoted && *p == '\\' && p + 1 < *e)
            p++;
        else if (*p == '"')
            quoted = !quoted;
        else if (!quoted && (*p == ';' || *p == '#')
                 && (p == b || sweep_is_blank(p[-1]))) {
            *e = p;
            return;
        }
    }
}

int sweep_grow(struct reader *r, void **items, int *cap, size_t size)
{
    int n = *cap ? 2 * *cap : 16;
    void *grown = realloc(*items, size * (size_t)n);
    if (!grown)
        return sweep_fail(r, 0, "out of memory");
    *items = grown;
    *cap = n;
    return 0;
}

void sweep_list_games(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; game_list[i]; i++) {
        int w = snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
                         game_list[i]->name);
        if (w < 0 || (size_t)w >= n - len)
            return;
        len += (size_t)w;
    }
}

/* Opens the section of the header [b, e) (brackets and all) on `line`. */
static int open_section(struct reader *r, int line, char *b, char *e)
{
    char *close = memchr(b, ']', (size_t)(e - b));
    if (!close)
        return sweep_fail(r, line,
                          "section header without ']' (write [sweep], "
                          "[game NAME], [agents] or [matchups])");
    char *rest = close + 1;
    cut_comment(rest, &e);
    sweep_trim(&rest, &e);
    if (rest != e)
        return sweep_fail(r, line,
                          "text after the section header (only a ; or # "
                          "comment may follow it)");
    char *nb = b + 1, *ne = close;
    sweep_trim(&nb, &ne);
    *ne = '\0';
    struct section sec = {"", NULL, line, r->n_entries, 0};
    if (strcmp(nb, "sweep") == 0 || strcmp(nb, "agents") == 0
        || strcmp(nb, "matchups") == 0) {
        strcpy(sec.name, nb);
    } else if (strncmp(nb, "game", 4) == 0 && sweep_is_blank(nb[4])) {
        char *game = nb + 4, *game_end = ne;
        sweep_trim(&game, &game_end);
        strcpy(sec.name, "game");
        sec.game = game_find(game);
        if (!sec.game) {
            char games[256];
            sweep_list_games(games, sizeof games);
            return sweep_fail(r, line, "unknown game '%s' in [%s] (games: %s)",
                              game, nb, games);
        }
    } else {
        return sweep_fail(r, line,
                          "unknown section [%s] (sections: [sweep], "
                          "[game NAME], [agents], [matchups])",
                          nb);
    }
    for (int i = 0; i < r->n_sections; i++) {
        const struct section *o = &r->sections[i];
        if (strcmp(o->name, sec.name) == 0 && o->game == sec.game)
            return sweep_fail(r, line,
                              "[%s%s%s] opened twice (first at line %d); "
                              "open each section once",
                              sec.name, sec.game ? " " : "",
                              sec.game ? sec.game->name : "", o->line);
    }
    if (r->n_sections == r->cap_sections
        && sweep_grow(r, (void **)&r->sections, &r->cap_sections, sizeof sec))
        return -1;
    r->sections[r->n_sections++] = sec;
    return 0;
}

/* Reads `key = value` from the line [b, e) into the current section. */
static int add_entry(struct reader *r, int line, char *b, char *e)
{
    char *eq = memchr(b, '=', (size_t)(e - b));
    if (!eq)
        return sweep_fail(
            r, line,
            "not INI: expected [section], key = value or a "
            "; comment (each line stands alone: a list stays on one "
            "line)");
    if (r->n_sections == 0)
        return sweep_fail(r, line,
                          "key = value before any section (start with "
                          "[sweep])");
    char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
    sweep_trim(&kb, &ke);
    sweep_trim(&vb, &ve);
    if (kb == ke)
        return sweep_fail(r, line, "no key before '='");
    *ke = '\0';
    *ve = '\0';
    struct section *sec = &r->sections[r->n_sections - 1];
    for (int i = sec->first; i < sec->first + sec->n_entries; i++) {
        if (strcmp(r->entries[i].key, kb) != 0)
            continue;
        if (strcmp(sec->name, "agents") == 0)
            return sweep_fail(r, line,
                              "agent '%s' named twice (first at line %d)", kb,
                              r->entries[i].line);
        return sweep_fail(r, line,
                          "%s given twice in [%s%s%s] (first at line %d)", kb,
                          sec->name, sec->game ? " " : "",
                          sec->game ? sec->game->name : "", r->entries[i].line);
    }
    if (r->n_entries == r->cap_entries
        && sweep_grow(r, (void **)&r->entries, &r->cap_entries,
                      sizeof(struct entry)))
        return -1;
    r->entries[r->n_entries++] = (struct entry){kb, vb, line};
    sec->n_entries++;
    return 0;
}

/* Splits r->copy (len bytes) into sections and entries. */
int sweep_read_lines(struct reader *r, size_t len)
{
    char *p = r->copy, *end = r->copy + len;
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
        p += 3; /* a UTF-8 byte order mark */
    for (int line = 1; p < end; line++) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *b = p, *e = nl ? nl : end;
        p = nl ? nl + 1 : end;
        if (check_bytes(r, line, b, e))
            return -1;
        if (e > b && e[-1] == '\r')
            e--;
        cut_comment(b, &e);
        sweep_trim(&b, &e);
        if (b == e)
            continue;
        if (*b == '[' ? open_section(r, line, b, e) : add_entry(r, line, b, e))
            return -1;
    }
    return 0;
}

/* ---- lists -------------------------------------------------------------- */

/* Takes the next comma-separated item of the list at *p, ends it with a
 * NUL and trims it; *p moves past it (NULL after the last). An empty item
 * is an error naming `what`. */
int sweep_next_item(struct reader *r, int line, const char *what, char **p,
                     char **item)
{
    char *b = *p, *comma = strchr(b, ','), *e = comma ? comma : b + strlen(b);
    *p = comma ? comma + 1 : NULL;
    sweep_trim(&b, &e);
    if (b == e)
        return sweep_fail(r, line,
                          "empty item in the list of %s (values are "
                          "separated by single commas, all on one line)",
                          what);
    *e = '\0';
    *item = b;
    return 0;
}
