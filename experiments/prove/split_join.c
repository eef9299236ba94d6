/*
 * split_join.c -- the join of a split solve's parts (contract in split.h).
 *
 * The directory's parts are read in index order and each is checked with
 * proof_verify or disproof_verify_threads (or found in the journal of
 * parts verified before, by its file's SHA-256: split_journal.c), then
 * the disproof parts' moves against the root's legal moves from the move
 * generator.
 */
#define _POSIX_C_SOURCE 200809L
#include "split.h"
#include "clock.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disproof.h"
#include "proof.h"
#include "split_internal.h"

/* ---- the join ------------------------------------------------------------ */

/* A part file of the directory: its index and kind. */
struct part_file {
    int index, proof;
};

static int by_index(const void *a, const void *b)
{
    const struct part_file *x = a, *y = b;
    return x->index != y->index ? (x->index > y->index) - (x->index < y->index)
                                : x->proof - y->proof;
}

/* The part files of dir (part-IIIII.proof or .disproof), in index order,
 * into *out (malloc'd). Returns their number, or -1 with a message. */
static int list_parts(const char *dir, struct part_file **out, char *err,
                      size_t errsz)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0, cap = 0;
    *out = NULL;
    if (!d) {
        snprintf(err, errsz, "%s: %s", dir, strerror(errno));
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        int index;
        char suffix[16], name[64];
        if (sscanf(e->d_name, "part-%5d.%15s", &index, suffix) != 2
            || index < 0
            || (strcmp(suffix, "proof") != 0 && strcmp(suffix, "disproof") != 0))
            continue;
        snprintf(name, sizeof name, "part-%05d.%s", index, suffix);
        if (strcmp(name, e->d_name) != 0)
            continue; /* only the names split_solve writes */
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            struct part_file *grown = realloc(*out, sizeof **out * (size_t)cap);
            if (!grown) {
                closedir(d);
                snprintf(err, errsz, "out of memory");
                return -1;
            }
            *out = grown;
        }
        (*out)[n].index = index;
        (*out)[n++].proof = strcmp(suffix, "proof") == 0;
    }
    closedir(d);
    if (n == 0) {
        snprintf(err, errsz, "%s holds no parts (part-IIIII.proof or "
                 ".disproof)", dir);
        return -1;
    }
    qsort(*out, (size_t)n, sizeof **out, by_index);
    return n;
}

/* ---- checking the parts ------------------------------------------------ */

/* Checks one part file (name in dir at path): verified, or taken from the
 * journal when verified before; its root's variant, position and plies
 * into the join (the first) or against it, and a disproof part's move
 * into *move. Returns 0, or -1 with a message. */
static int join_part(const char *path, const char *name, int proof,
                     int threads, struct journal *jn, struct split_join *j,
                     int first, char *move, char *err, size_t errsz)
{
    char why[1024], hex[65] = "";
    const char *variant, *position;
    int plies, rc;
    struct proof_info pi;
    struct disproof_info di;
    const struct journal_entry *known = NULL;
    if (!proof && file_sha256(path, hex) == 0)
        known = journal_find(jn, name, hex);
    if (known && read_part_header(path, &di) == 0) {
        di.nodes = known->nodes;
        di.leaves = known->leaves;
        di.bytes = known->bytes;
        variant = di.variant, position = di.position, plies = di.plies;
        j->journaled++;
    } else {
        FILE *f = fopen(path, "r");
        if (!f) {
            snprintf(err, errsz, "%s: %s", path, strerror(errno));
            return -1;
        }
        if (proof) {
            rc = proof_verify(f, &pi, why, sizeof why);
            variant = pi.variant, position = pi.position, plies = pi.plies;
        } else {
            rc = disproof_verify_threads(f, threads, &di, why, sizeof why);
            variant = di.variant, position = di.position, plies = di.plies;
        }
        fclose(f);
        if (rc != 0) {
            snprintf(err, errsz, "%s: INVALID: %s", path, why);
            return -1;
        }
        if (!proof && hex[0] && di.part[0])
            journal_add(jn, name, hex, &di);
    }
    if (!proof && !di.part[0]) {
        snprintf(err, errsz, "%s: a whole disproof, not a part", path);
        return -1;
    }
    if (first) {
        snprintf(j->variant, sizeof j->variant, "%s", variant);
        snprintf(j->position, sizeof j->position, "%s", position);
        j->plies = plies;
    } else if (strcmp(variant, j->variant) != 0
               || strcmp(position, j->position) != 0 || plies != j->plies) {
        snprintf(err, errsz, "%s: a part of another question (variant, "
                 "position or plies differ from the first part's)", path);
        return -1;
    }
    if (!proof) {
        snprintf(move, DISPROOF_MOVE_MAX + 1, "%s", di.part);
        j->nodes += di.nodes;
        j->leaves += di.leaves;
        j->bytes += di.bytes;
    }
    return 0;
}

/* Marks the root moves the disproof parts name (texts, n of them, with
 * their files' paths in paths) in the join: each once. */
static int join_cover(struct split_join *j, char (*texts)[DISPROOF_MOVE_MAX + 1],
                      char (*paths)[1100], int n, char *err, size_t errsz)
{
    struct variant v;
    char why[512];
    unsigned char *root = aligned_alloc(GAME_STATE_ALIGN, GAME_MAX_STATE_SIZE);
    move_t *moves = malloc(sizeof *moves * GAME_MAX_MOVES);
    unsigned char *seen = calloc(GAME_MAX_MOVES, 1);
    int rc = 0;
    if (!root || !moves || !seen) {
        snprintf(err, errsz, "out of memory");
        rc = -1;
    } else if (variant_parse(j->variant, &v, why, sizeof why) != 0
               || v.game->from_text(root, &v, j->position, why, sizeof why)) {
        snprintf(err, errsz, "the parts' root: %s", why);
        rc = -1;
    }
    const struct game *g = rc == 0 ? v.game : NULL;
    int nroot = g ? g->legal_moves(root, moves) : 0;
    for (int k = 0; k < n && rc == 0; k++) {
        move_t m;
        int at = -1;
        if (g->move_from_text(root, texts[k], &m) == 0)
            for (int i = 0; i < nroot && at < 0; i++)
                if (moves[i] == m)
                    at = i;
        if (at < 0 || seen[at]) { /* the checker found it legal */
            snprintf(err, errsz, "%s: the root move %s has another part too",
                     paths[k], texts[k]);
            rc = -1;
        } else {
            seen[at] = 1;
            j->covered++;
        }
    }
    j->parts = nroot;
    for (int i = 0; i < nroot && rc == 0 && !j->missing[0]; i++)
        if (!seen[i])
            g->move_to_text(root, moves[i], j->missing, sizeof j->missing);
    free(seen);
    free(moves);
    free(root);
    return rc;
}

int split_join(const char *dir, const struct split_join_options *o,
               struct split_join *out, char *err, size_t errsz)
{
    struct part_file *files;
    struct journal jn;
    memset(out, 0, sizeof *out);
    out->answer = SOLVER_UNKNOWN;
    int n = list_parts(dir, &files, err, errsz);
    if (n < 0)
        return -1;
    char (*texts)[DISPROOF_MOVE_MAX + 1] = malloc(sizeof *texts * (size_t)n);
    char (*paths)[1100] = malloc(sizeof *paths * (size_t)n);
    int ntexts = 0, rc = 0;
    double t0 = clock_seconds(), last = t0;
    if (!texts || !paths) {
        snprintf(err, errsz, "out of memory");
        rc = -1;
    }
    char journal_path[1100];
    snprintf(journal_path, sizeof journal_path, "%s/%s", dir, SPLIT_JOURNAL);
    if (journal_read(&jn, journal_path) == 0 && o->recheck)
        jn.n = 0; /* every part verified again, and journaled after */
    for (int k = 0; k < n && rc == 0; k++) {
        char name[32];
        split_part_path(dir, files[k].index, files[k].proof, paths[ntexts],
                        sizeof paths[ntexts]);
        snprintf(name, sizeof name, "part-%05d.%s", files[k].index,
                 files[k].proof ? "proof" : "disproof");
        rc = join_part(paths[ntexts], name, files[k].proof, o->threads, &jn,
                       out, k == 0, texts[ntexts], err, errsz);
        if (rc == 0 && files[k].proof && out->proofs++ == 0)
            snprintf(out->win_file, sizeof out->win_file, "%s",
                     paths[ntexts]);
        ntexts += rc == 0 && !files[k].proof;
        double t = clock_seconds();
        if (o->progress && rc == 0 && (t - last >= 10.0 || k == n - 1)) {
            fprintf(stderr, "join: %d of %d parts checked (%d from %s/%s) in "
                    "%.0f s\n", k + 1, n, out->journaled, dir, SPLIT_JOURNAL,
                    t - t0);
            last = t;
        }
    }
    journal_close(&jn);
    if (rc == 0)
        rc = join_cover(out, texts, paths, ntexts, err, errsz);
    if (rc == 0)
        out->answer = out->proofs ? SOLVER_WIN
                      : out->covered == out->parts ? SOLVER_NO_WIN
                                                   : SOLVER_UNKNOWN;
    free(texts);
    free(paths);
    free(files);
    return rc;
}
