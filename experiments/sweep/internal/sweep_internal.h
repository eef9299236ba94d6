/*
 * sweep_internal.h -- what the two halves of the sweep reader share, and
 * nothing else includes: sweep_read.c (the strict INI reader: bytes,
 * lines, sections, entries) and sweep.c (interpreting the sections and
 * expanding them into cells). The public contract is sweep.h.
 */
#ifndef RULELAB_SWEEP_INTERNAL_H
#define RULELAB_SWEEP_INTERNAL_H

#include <stddef.h>

#include "sweep.h"

struct entry {
    char *key, *value; /* in the reader's copy, without spaces or comment */
    int line;
};

struct section {
    char name[16]; /* sweep, agents, matchups or game */
    const struct game *game; /* for [game NAME] */
    int line;
    int first, n_entries; /* its entries, contiguous in reader.entries */
};

struct reader {
    const char *path;
    char *copy; /* the text, split into lines in place */
    struct section *sections;
    int n_sections, cap_sections;
    struct entry *entries;
    int n_entries, cap_entries;
    char *err;
    size_t errsz;
    int failed;
    int read_files; /* 0: an openings FILE is not read (sweep_parse_stored) */
};

/* Writes "path:line: message" into r->err (the first error only), marks r
 * failed and returns -1. Line 0 leaves the line out. */
int sweep_fail(struct reader *r, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Whether c is a space or a tab. */
int sweep_is_blank(char c);

/* Narrows [*b, *e) to its text without spaces and tabs around it. */
void sweep_trim(char **b, char **e);

/* Doubles *cap (16 at first) items of `size` bytes at *items. Returns 0,
 * or -1 with "out of memory" in r. */
int sweep_grow(struct reader *r, void **items, int *cap, size_t size);

/* Writes the names of every game, comma-separated, into buf. */
void sweep_list_games(char *buf, size_t n);

/* Splits r->copy (len bytes) into sections and entries. Returns 0, or -1
 * with the error (file and line) in r. */
int sweep_read_lines(struct reader *r, size_t len);

/* Takes the next comma-separated item of the list at *p, ends it with a
 * NUL and trims it; *p moves past it (NULL after the last). An empty item
 * is an error naming `what`. Returns 0 or -1. */
int sweep_next_item(struct reader *r, int line, const char *what, char **p,
                    char **item);

#endif
