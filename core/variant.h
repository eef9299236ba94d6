/*
 * variant.h -- specs `name(key=value,...)`: rule variants of games, and the
 * same syntax for agents (`mcts(iterations=2000,c=1.4)`).
 *
 * Each game (and each agent kind) declares its parameters as a table of
 * param_spec. A variant is the game plus one integer value per parameter
 * (an enum parameter stores the index of its choice). The canonical form
 * lists every key, sorted, with defaults filled in; results are keyed by
 * the identity, the canonical form without the later parameters (since > 1)
 * that are at their defaults, so adding one changes no key.
 */
#ifndef RULELAB_VARIANT_H
#define RULELAB_VARIANT_H

#include <stddef.h>

struct game;

/* PARAM_REAL and PARAM_TEXT are for agents only; game parameters are
 * whole numbers. A text value is written bare when it is a plain word
 * (letters, digits and _ . / : + -) or in double quotes, inside which \"
 * is a quote and \\ a backslash; commas, parentheses, `;` and `#` inside
 * quotes are text. A text parameter's def is -1 (the empty text). */
enum param_type { PARAM_INT, PARAM_BOOL, PARAM_ENUM, PARAM_REAL, PARAM_TEXT };

struct param_spec {
    const char *name;
    enum param_type type;
    double def; /* default value; for PARAM_ENUM the index into choices */
    double min, max; /* PARAM_INT, PARAM_REAL: allowed range, inclusive */
    const char *const *choices; /* PARAM_ENUM: NULL-terminated */
    const char *doc; /* one line */
    /* The identity version that added the parameter: 1 for those there
     * were when identities were introduced. A parameter added later gets
     * the next version and a default that keeps the old behaviour; it then
     * enters identities only when not at its default (spec_identity). */
    int since;
};

#define VARIANT_MAX_PARAMS 64
#define VARIANT_TEXT_MAX 2048

/* The text values of one spec: a PARAM_TEXT parameter's value (in the
 * values array) is the index of its text here, or -1 for the empty text. */
#define SPEC_MAX_TEXTS 4
#define SPEC_TEXT_MAX 512
struct spec_texts {
    int n;
    char text[SPEC_MAX_TEXTS][SPEC_TEXT_MAX];
};

/* The text a PARAM_TEXT value stands for ("" for -1). */
const char *spec_text_value(const struct spec_texts *texts, double value);

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

/* Writes the identity of v (see spec_identity). Length, or -1. */
int variant_identity(const struct variant *v, char *buf, size_t n);

/* The value of parameter `name`; asserts that the game has it. */
int variant_get(const struct variant *v, const char *name);

/* ---- the spec syntax, shared with agents ---------------------------- */

/* Splits text into its name and the text between its parentheses.
 * *args is NULL when there are none ("mcts"), else [*args, *args_end).
 * Returns 0, or -1 with an error for unbalanced or trailing text. */
int spec_split(const char *text, char *name, size_t name_size,
               const char **args, const char **args_end, char *err,
               size_t errsz);

/* Sets values[] to the defaults of params, then to the key=value pairs in
 * [args, args_end) (args may be NULL). Text values go into texts (reset
 * first), which may be NULL when params has no PARAM_TEXT. Errors name
 * `owner` (the game or agent), the bad key or value, and what is allowed.
 * Returns 0 or -1. */
int spec_parse_args(const char *owner, const struct param_spec *params,
                    int n_params, const char *args, const char *args_end,
                    double *values, struct spec_texts *texts, char *err,
                    size_t errsz);

/* Writes owner(key=value,...) with every key, sorted; texts as
 * spec_parse_args left them (NULL without text parameters). Length or
 * -1. */
int spec_canonical(const char *owner, const struct param_spec *params,
                   int n_params, const double *values,
                   const struct spec_texts *texts, char *buf, size_t n);

/* The first c in [b, e) outside double quotes (a quote's backslash
 * escapes skipped), or NULL when there is none. */
const char *spec_find_unquoted(const char *b, const char *e, char c);

/* Reads a decimal number, the one number syntax of specs and sweep files:
 * an optional '-', digits (leading zeros allowed: 010 is ten) and, unless
 * `whole`, an optional fraction and exponent (2.5, .5, 25e-1). No '+',
 * spaces, hex, inf or nan; any length. Returns 0 with *out set (-0 is 0),
 * or -1 when text is not such a number or its value overflows. */
int spec_parse_number(const char *text, int whole, double *out);

/* Writes the identity of owner(values): the canonical form restricted to
 * the parameters of identity version 1 and the later ones not at their
 * default; just `owner` when no parameter is left (as agents without
 * parameters have always been written). Length, or -1 if it does not fit. */
int spec_identity(const char *owner, const struct param_spec *params,
                  int n_params, const double *values,
                  const struct spec_texts *texts, char *buf, size_t n);

/* Writes a parameter's value as text (a choice name, or the number; for
 * PARAM_TEXT, whose text it cannot see, "" for the default and "(text)"
 * otherwise). */
int param_value_text(const struct param_spec *p, double value, char *buf,
                     size_t n);

/* Writes what a parameter allows ("0..100", "0 or 1", "corner|edge"). */
int param_allowed_text(const struct param_spec *p, char *buf, size_t n);

#endif
