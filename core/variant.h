/*
 * variant.h -- rule variants as strings `game(key=value,...)`.
 *
 * Each game declares its parameters as a table of param_spec. A variant is
 * the game plus one integer value per parameter (an enum parameter stores the
 * index of its choice). The canonical form lists every key, sorted, with
 * defaults filled in; results are keyed by it.
 */
#ifndef RULELAB_VARIANT_H
#define RULELAB_VARIANT_H

#include <stddef.h>

struct game;

enum param_type { PARAM_INT, PARAM_BOOL, PARAM_ENUM };

struct param_spec {
    const char *name;
    enum param_type type;
    int def; /* default value; for PARAM_ENUM the index into choices */
    int min, max; /* PARAM_INT: allowed range, inclusive */
    const char *const *choices; /* PARAM_ENUM: NULL-terminated */
    const char *doc; /* one line */
};

#define VARIANT_MAX_PARAMS 16
#define VARIANT_TEXT_MAX 512

struct variant {
    const struct game *game;
    int values[VARIANT_MAX_PARAMS]; /* indexed like game->params */
};

/* Parses `game`, `game()` or `game(key=value,...)` (spaces allowed around
 * names, values and punctuation). Returns 0, or -1 with a message in err
 * naming the bad game, key or value and listing what is allowed. */
int variant_parse(const char *text, struct variant *v, char *err, size_t errsz);

/* The defaults of game g. */
void variant_default(const struct game *g, struct variant *v);

/* Writes the canonical form (every key, sorted, defaults filled in).
 * Returns its length, or -1 if it does not fit in n. */
int variant_canonical(const struct variant *v, char *buf, size_t n);

/* The value of parameter `name`; asserts that the game has it. */
int variant_get(const struct variant *v, const char *name);

/* Writes a parameter's value as text (a choice name, or the number). */
int variant_value_text(const struct param_spec *p, int value, char *buf,
                       size_t n);

/* Writes what a parameter allows ("0..100", "0 or 1", "corner|edge"). */
int param_allowed_text(const struct param_spec *p, char *buf, size_t n);

#endif
