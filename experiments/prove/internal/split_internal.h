/*
 * split_internal.h -- what split_join.c (the join of a split's parts) and
 * split_journal.c (the journal of the parts verified, and the check of a
 * directory against a journal) share. Nothing else includes it.
 *
 * The journal, DIR/verified.txt: one line per disproof part the join has
 * verified, "<name> <SHA-256 of the file> <nodes> <leaves> <data bytes>",
 * appended as each passes, and header lines beginning with '#':
 *
 *     # rulelab journal of verified disproof parts
 *     # variant <canonical variant>      the question, from the first
 *     # position <position text>         part verified into a journal
 *     # plies <N>                        without it
 *     # format <version>                 the parts' certificate format
 *     # build <git describe>             the build whose join verified
 *
 * "format" and "build" hold for the lines below them, until the next
 * such line (a join by another build, or a part of another format, adds
 * one). Journals of builds before 2026-12-05 have no header lines.
 */
#ifndef RULELAB_SPLIT_INTERNAL_H
#define RULELAB_SPLIT_INTERNAL_H

#include <stdio.h>

#include "disproof.h"
#include "split.h"

#define SPLIT_JOURNAL "verified.txt"

struct journal_entry {
    char name[32], hex[65];
    long nodes, leaves;
    unsigned long long bytes;
    int format; /* the "# format" above the line; 0 if none */
};

struct journal {
    struct journal_entry *e;
    int n;
    char variant[VARIANT_TEXT_MAX], position[1024];
    int plies; /* 0 while the journal states no question */
    int format; /* the last "# format" line's; 0 if none */
    char build[64]; /* the last "# build" line's; "" if none */
    FILE *append; /* NULL until the first new line */
    char path[1100];
};

/* Reads the journal at path into jn (emptied first): its lines and
 * header. Returns 0, or -1 if there is no such file (jn then empty); a
 * line cut short by a stop is skipped. */
int journal_read(struct journal *jn, const char *path);
/* The part name's line with this SHA-256 (the last), or NULL. */
const struct journal_entry *journal_find(const struct journal *jn,
                                         const char *name, const char *hex);
/* Appends name's line (verified as di says) to jn's file, after the
 * header lines it lacks: the question, and format or build where they
 * differ from the last stated. A directory that cannot be written is
 * left unjournaled. */
void journal_add(struct journal *jn, const char *name, const char *hex,
                 const struct disproof_info *di);
void journal_close(struct journal *jn);

/* The SHA-256 of the file at path, in hex: 0, or -1 if it cannot be read. */
int file_sha256(const char *path, char hex[65]);
/* A disproof part's header (variant, position, plies, part, format) into
 * di, without checking the rest: 0, or -1 if it does not read as one. */
int read_part_header(const char *path, struct disproof_info *di);

#endif
