/*
 * split_journal.c -- the journal of a split's verified disproof parts
 * (DIR/verified.txt, format in split_internal.h): read, searched and
 * appended by the join (split_join.c), and a directory's parts checked
 * against a journal, such as one committed beside a claim
 * (split_journal_check, split.h): each part it names present, with its
 * SHA-256, format and counts.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "split_internal.h"
#include "version.h"

/* The value of the header line "# <key> <value>" into out (n bytes):
 * 1, or 0 when line is no such line. */
static int header_value(const char *line, const char *key, char *out,
                        size_t n)
{
    size_t k = strlen(key);
    if (strncmp(line, "# ", 2) != 0 || strncmp(line + 2, key, k) != 0
        || line[2 + k] != ' ')
        return 0;
    const char *v = line + 3 + k;
    snprintf(out, n, "%.*s", (int)strcspn(v, "\n"), v);
    return 1;
}

/* A header line ("# key value") into jn; other '#' lines are comments. */
static void journal_header_line(struct journal *jn, const char *line)
{
    char number[16];
    if (header_value(line, "variant", jn->variant, sizeof jn->variant)
        || header_value(line, "position", jn->position, sizeof jn->position)
        || header_value(line, "build", jn->build, sizeof jn->build))
        return;
    if (header_value(line, "plies", number, sizeof number))
        jn->plies = atoi(number);
    else if (header_value(line, "format", number, sizeof number))
        jn->format = atoi(number);
}

/* Appends e to jn's lines: 0, or -1 out of memory. */
static int journal_push(struct journal *jn, const struct journal_entry *e,
                        int *cap)
{
    if (jn->n == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        struct journal_entry *grown = realloc(jn->e, sizeof *grown
                                                         * (size_t)*cap);
        if (!grown)
            return -1;
        jn->e = grown;
    }
    jn->e[jn->n++] = *e;
    return 0;
}

int journal_read(struct journal *jn, const char *path)
{
    char line[2048];
    int cap = 0;
    memset(jn, 0, sizeof *jn);
    snprintf(jn->path, sizeof jn->path, "%s", path);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        struct journal_entry e;
        char end;
        if (line[0] == '#') {
            journal_header_line(jn, line);
            continue;
        }
        if (sscanf(line, "%31s %64s %ld %ld %llu%c", e.name, e.hex, &e.nodes,
                   &e.leaves, &e.bytes, &end) != 6 || end != '\n'
            || strlen(e.hex) != 64)
            continue; /* a line cut short by a stop: verified again */
        e.format = jn->format;
        if (journal_push(jn, &e, &cap) != 0)
            break;
    }
    fclose(f);
    return 0;
}

const struct journal_entry *journal_find(const struct journal *jn,
                                         const char *name, const char *hex)
{
    for (int i = jn->n - 1; i >= 0; i--)
        if (strcmp(jn->e[i].name, name) == 0 && strcmp(jn->e[i].hex, hex) == 0)
            return &jn->e[i];
    return NULL;
}

/* The header lines jn's file lacks before a line of di's part. */
static void journal_add_header(struct journal *jn,
                               const struct disproof_info *di)
{
    if (!jn->plies) {
        fprintf(jn->append, "# rulelab journal of verified disproof parts\n"
                "# variant %s\n# position %s\n# plies %d\n", di->variant,
                di->position, di->plies);
        snprintf(jn->variant, sizeof jn->variant, "%s", di->variant);
        snprintf(jn->position, sizeof jn->position, "%s", di->position);
        jn->plies = di->plies;
    }
    if (jn->format != di->format) {
        fprintf(jn->append, "# format %d\n", di->format);
        jn->format = di->format;
    }
    if (strcmp(jn->build, rulelab_build_commit) != 0) {
        fprintf(jn->append, "# build %s\n", rulelab_build_commit);
        snprintf(jn->build, sizeof jn->build, "%s", rulelab_build_commit);
    }
}

void journal_add(struct journal *jn, const char *name, const char *hex,
                 const struct disproof_info *di)
{
    if (!jn->append)
        jn->append = fopen(jn->path, "a");
    if (!jn->append)
        return; /* a read-only directory: the join works, unjournaled */
    journal_add_header(jn, di);
    fprintf(jn->append, "%s %s %ld %ld %llu\n", name, hex, di->nodes,
            di->leaves, (unsigned long long)di->bytes);
    fflush(jn->append);
}

void journal_close(struct journal *jn)
{
    if (jn->append)
        fclose(jn->append);
    free(jn->e);
    jn->e = NULL;
    jn->append = NULL;
}

int file_sha256(const char *path, char hex[65])
{
    FILE *f = fopen(path, "rb");
    unsigned char buf[65536], digest[32];
    struct sha256 c;
    size_t got;
    if (!f)
        return -1;
    sha256_init(&c);
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&c, buf, got);
    int bad = ferror(f);
    fclose(f);
    sha256_final(&c, digest);
    sha256_hex(digest, hex);
    return bad ? -1 : 0;
}

/* One of the four header lines after the first (k: 0 variant, 1
 * position, 2 plies, 3 part) into di: 1 if it reads, else 0. */
static int part_header_line(int k, const char *line, struct disproof_info *di)
{
    if (k == 0 && strncmp(line, "variant ", 8) == 0)
        return snprintf(di->variant, sizeof di->variant, "%s", line + 8) > 0;
    if (k == 1 && strncmp(line, "position ", 9) == 0)
        return snprintf(di->position, sizeof di->position, "%s", line + 9)
               > 0;
    if (k == 2)
        return sscanf(line, "plies %d", &di->plies) == 1;
    if (k == 3 && strncmp(line, "part ", 5) == 0)
        return snprintf(di->part, sizeof di->part, "%s", line + 5) > 0;
    return 0;
}

int read_part_header(const char *path, struct disproof_info *di)
{
    char line[4096];
    FILE *f = fopen(path, "r");
    int got = 0;
    memset(di, 0, sizeof *di);
    if (f && fgets(line, sizeof line, f)
        && (di->format = disproof_format_of(line)) != 0)
        for (int k = 0; k < 4 && fgets(line, sizeof line, f); k++) {
            line[strcspn(line, "\n")] = '\0';
            got += part_header_line(k, line, di);
        }
    if (f)
        fclose(f);
    return got == 4 ? 0 : -1;
}

/* ---- a directory against a journal ------------------------------------ */

#define REPORT_MAX 20 /* fault lines printed; the rest counted */

/* What the check is doing: the directory, the report and its counts. */
struct journal_check {
    const char *dir;
    FILE *report;
    int lines;
    struct split_journal_check *out;
};

/* Reports one fault ("<dir>/<name>: ..."), or counts it past REPORT_MAX. */
static void fault(struct journal_check *c, const char *name, const char *fmt,
                  const char *a, const char *b)
{
    if (c->lines++ < REPORT_MAX) {
        fprintf(c->report, "%s/%s: MISMATCH: ", c->dir, name);
        fprintf(c->report, fmt, a, b);
        fputc('\n', c->report);
    }
}

/* Whether entry k is the last line naming its part (the one that holds). */
static int last_of_name(const struct journal *jn, int k)
{
    for (int i = k + 1; i < jn->n; i++)
        if (strcmp(jn->e[i].name, jn->e[k].name) == 0)
            return 0;
    return 1;
}

/* Checks the part of journal entry e against the file in the directory
 * and the directory's own journal own (its verified counts). */
static void check_entry(struct journal_check *c, const struct journal *own,
                        const struct journal_entry *e)
{
    char path[1200], hex[65], want[64], got[64];
    struct disproof_info di;
    snprintf(path, sizeof path, "%s/%s", c->dir, e->name);
    c->out->named++;
    if (file_sha256(path, hex) != 0) {
        c->out->missing++;
        fault(c, e->name, "%s%s", "missing (the journal names it)", "");
        return;
    }
    const struct journal_entry *mine = journal_find(own, e->name, hex);
    if (strcmp(hex, e->hex) != 0) {
        fault(c, e->name, "SHA-256 %s, the journal's is %s", hex, e->hex);
    } else if (read_part_header(path, &di) == 0 && e->format
               && di.format != e->format) {
        snprintf(got, sizeof got, "%d", di.format);
        snprintf(want, sizeof want, "%d", e->format);
        fault(c, e->name, "certificate format %s, the journal's is %s", got,
              want);
    } else if (mine && (mine->nodes != e->nodes || mine->leaves != e->leaves
                        || mine->bytes != e->bytes)) {
        snprintf(got, sizeof got, "%ld %ld %llu", mine->nodes, mine->leaves,
                 mine->bytes);
        snprintf(want, sizeof want, "%ld %ld %llu", e->nodes, e->leaves,
                 e->bytes);
        fault(c, e->name, "verified as %s nodes, leaves, bytes; the "
              "journal's are %s", got, want);
    } else {
        c->out->matched++;
        return;
    }
    c->out->differ++;
}

/* Counts (and reports) the disproof parts in the directory that the
 * journal jn does not name: those of the directory's own journal own
 * (where the join just noted every part it verified) still there. */
static void check_extra(struct journal_check *c, const struct journal *own,
                        const struct journal *jn)
{
    for (int k = 0; k < own->n; k++) {
        int named = 0;
        for (int i = 0; i < jn->n && !named; i++)
            named = strcmp(jn->e[i].name, own->e[k].name) == 0;
        for (int i = 0; i < k && !named; i++)
            named = strcmp(own->e[i].name, own->e[k].name) == 0; /* seen */
        char file[1200];
        snprintf(file, sizeof file, "%s/%s", c->dir, own->e[k].name);
        FILE *f = named ? NULL : fopen(file, "r");
        if (!f)
            continue; /* named, or a stale line of a file since removed */
        fclose(f);
        c->out->extra++;
        fault(c, own->e[k].name, "%s%s", "in the directory but not in the "
              "journal", "");
    }
}

/* The journal's question against the join's: 1 (and a report) if they
 * differ. */
static int check_question(struct journal_check *c, const struct journal *jn,
                          const struct split_join *j)
{
    if (!jn->plies || (strcmp(jn->variant, j->variant) == 0
                       && strcmp(jn->position, j->position) == 0
                       && jn->plies == j->plies))
        return 0;
    c->lines++;
    fprintf(c->report, "%s: MISMATCH: the journal's question (%s from %s "
            "within %d plies) is not the parts' (%s from %s within %d "
            "plies)\n", c->dir, jn->variant, jn->position, jn->plies,
            j->variant, j->position, j->plies);
    return 1;
}

int split_journal_check(const char *dir, const char *path,
                        const struct split_join *j, FILE *report,
                        struct split_journal_check *out, char *err,
                        size_t errsz)
{
    struct journal jn, own;
    char own_path[1100];
    struct journal_check c = {dir, report, 0, out};
    memset(out, 0, sizeof *out);
    int unread = journal_read(&jn, path);
    if (unread || jn.n == 0) {
        snprintf(err, errsz, "%s %s: give the verified.txt of a split solve",
                 path, unread ? "cannot be read" : "names no parts");
        journal_close(&jn);
        return -1;
    }
    snprintf(own_path, sizeof own_path, "%s/%s", dir, SPLIT_JOURNAL);
    journal_read(&own, own_path);
    out->question = check_question(&c, &jn, j);
    for (int k = 0; k < jn.n; k++)
        if (last_of_name(&jn, k))
            check_entry(&c, &own, &jn.e[k]);
    check_extra(&c, &own, &jn);
    if (c.lines > REPORT_MAX)
        fprintf(report, "%s: MISMATCH: ... and %d more\n", dir,
                c.lines - REPORT_MAX);
    journal_close(&jn);
    journal_close(&own);
    return 0;
}
