/*
 * ext_engines.c -- the engines files of the ext agent: named programs,
 * each with its command, working folder, declared version and the options
 * sent to it at start (ext.h, docs/protocol.md).
 *
 * The files loaded make one table for the process, read by every thread
 * (loaded before play starts, never changed after). A name defined twice
 * the same way is one engine; defined two ways, an error.
 *
 *   ; a comment line
 *   [engine NAME]
 *   command = python3 my_engine.py --fast   ; run by /bin/sh
 *   folder = engines/mine                   ; relative to this file
 *   version = 1.2                           ; what its `id version` says
 *   option Depth = 3                        ; sent as `option Depth 3`
 */
#include <ctype.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ext.h"

#define MAX_ENGINES 64

static struct ext_engine engines[MAX_ENGINES];
static int n_engines;
static pthread_mutex_t engines_lock = PTHREAD_MUTEX_INITIALIZER;

const struct ext_engine *ext_engine_find(const char *name)
{
    pthread_mutex_lock(&engines_lock);
    const struct ext_engine *found = NULL;
    for (int i = 0; i < n_engines && !found; i++)
        if (strcmp(engines[i].name, name) == 0)
            found = &engines[i];
    pthread_mutex_unlock(&engines_lock);
    return found;
}

/* Narrows [*b, *e) to its text without surrounding spaces. */
static void trim(char **b, char **e)
{
    while (*b < *e && isspace((unsigned char)**b))
        (*b)++;
    while (*e > *b && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

/* Copies [b, e) into buf (n bytes). 0, or -1 when it does not fit. */
static int copy(const char *b, const char *e, char *buf, size_t n)
{
    if ((size_t)(e - b) >= n)
        return -1;
    memcpy(buf, b, (size_t)(e - b));
    buf[e - b] = '\0';
    return 0;
}

/* Whether name is a plain word (letters, digits, _ . -). */
static int plain_word(const char *name)
{
    if (!*name)
        return 0;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("_.-", *c))
            return 0;
    return 1;
}

/* Reads `key = value` of engine e on line `line`. 0 or -1 (said). */
static int read_key(struct ext_engine *e, char *kb, char *ke, char *vb,
                    char *ve, const char *path, int line, char *err,
                    size_t errsz)
{
    char key[64], value[SPEC_TEXT_MAX];
    if (copy(kb, ke, key, sizeof key) || copy(vb, ve, value, sizeof value))
        return game_error(err, errsz, "%s:%d: too long", path, line);
    if (strncmp(key, "option ", 7) == 0) {
        const char *name = key + 7;
        while (*name == ' ')
            name++;
        size_t len = strlen(e->options);
        if (!plain_word(name) || !plain_word(value))
            return game_error(err, errsz, "%s:%d: an option is `option NAME "
                              "= VALUE`, each a plain word (letters, digits, "
                              "_ . -)", path, line);
        if (snprintf(e->options + len, sizeof e->options - len, "%s%s=%s",
                     len ? " " : "", name, value)
            >= (int)(sizeof e->options - len))
            return game_error(err, errsz, "%s:%d: too many options", path,
                              line);
        return 0;
    }
    char *field = strcmp(key, "command") == 0   ? e->command
                  : strcmp(key, "folder") == 0  ? e->folder
                  : strcmp(key, "version") == 0 ? e->version
                                                : NULL;
    if (!field)
        return game_error(err, errsz, "%s:%d: unknown key '%s' (keys: "
                          "command, folder, version, option NAME)", path,
                          line, key);
    snprintf(field, SPEC_TEXT_MAX, "%s", value);
    return 0;
}

/* Adds e (its folder made relative to dir) to the table. 0 or -1. */
static int add_engine(struct ext_engine *e, const char *dir, const char *path,
                      char *err, size_t errsz)
{
    if (!e->command[0])
        return game_error(err, errsz, "%s: engine %s has no command", path,
                          e->name);
    char folder[SPEC_TEXT_MAX];
    snprintf(folder, sizeof folder, "%s", e->folder[0] ? e->folder : ".");
    if (folder[0] != '/'
        && snprintf(e->folder, sizeof e->folder, "%s/%s", dir, folder)
               >= (int)sizeof e->folder)
        return game_error(err, errsz, "%s: engine %s: folder too long", path,
                          e->name);
    const struct ext_engine *old = ext_engine_find(e->name);
    if (old)
        return memcmp(old, e, sizeof *e) == 0
                   ? 0
                   : game_error(err, errsz, "%s: engine %s is defined "
                                "otherwise in another engines file", path,
                                e->name);
    pthread_mutex_lock(&engines_lock);
    int full = n_engines == MAX_ENGINES;
    if (!full)
        engines[n_engines++] = *e;
    pthread_mutex_unlock(&engines_lock);
    return full ? game_error(err, errsz, "%s: more than %d engines", path,
                             MAX_ENGINES)
                : 0;
}

int ext_engines_load(const char *path, char *err, size_t errsz)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return game_error(err, errsz, "cannot read the engines file %s",
                          path);
    char dir[4096], copy_of_path[4096], line[4096];
    snprintf(copy_of_path, sizeof copy_of_path, "%s", path);
    snprintf(dir, sizeof dir, "%s", dirname(copy_of_path));
    struct ext_engine e;
    int have = 0, rc = 0;
    for (int n = 1; rc == 0 && fgets(line, sizeof line, f); n++) {
        char *b = line, *end = line + strlen(line);
        if (end > b && end[-1] != '\n' && !feof(f)) {
            rc = game_error(err, errsz, "%s:%d: a line over %zu bytes", path,
                            n, sizeof line - 2);
            break;
        }
        trim(&b, &end);
        if (b == end || *b == ';' || *b == '#') /* a comment line */
            continue;
        if (*b == '[') {
            char name[64];
            if (have && (rc = add_engine(&e, dir, path, err, errsz)) != 0)
                break;
            memset(&e, 0, sizeof e);
            have = 1;
            if (strncmp(b, "[engine ", 8) != 0 || end[-1] != ']'
                || copy(b + 8, end - 1, name, sizeof name)
                || !plain_word(name)) {
                rc = game_error(err, errsz, "%s:%d: expected [engine NAME] "
                                "(NAME letters, digits, _ . -)", path, n);
                break;
            }
            snprintf(e.name, sizeof e.name, "%s", name);
            continue;
        }
        char *eq = strchr(b, '=');
        if (!have || !eq) {
            rc = game_error(err, errsz, "%s:%d: expected [engine NAME] or "
                            "key = value", path, n);
            break;
        }
        char *kb = b, *ke = eq, *vb = eq + 1, *ve = end;
        trim(&kb, &ke);
        trim(&vb, &ve);
        rc = read_key(&e, kb, ke, vb, ve, path, n, err, errsz);
    }
    if (rc == 0 && have)
        rc = add_engine(&e, dir, path, err, errsz);
    fclose(f);
    return rc;
}
