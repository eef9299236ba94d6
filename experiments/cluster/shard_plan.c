/*
 * shard_plan.c -- shard plans: whole cells of a sweep with an early-stop
 * rule dealt to N shards by their estimated cost (shard.h), and the text
 * file that carries such a plan to every shard.
 *
 * The deal is the classic longest-first greedy rule: cells by falling
 * cost, each to the least loaded shard. It is computed once, from one
 * calibration, and written down, because calibrated costs differ from one
 * run to the next and two shards that computed their own plans could both
 * skip a cell. The file names the sweep by its name, seed and the SHA-256
 * of its file text, so a plan cannot be read against another sweep, and a
 * reader checks that every cell has exactly one shard.
 *
 * The file, one item a line ('#' starts a comment line):
 *
 *   rulelab-shard-plan 1
 *   sweep NAME SEED sha256:HEX
 *   shards N
 *   cells C
 *   cell INDEX SHARD CPU_SECONDS        (C lines; INDEX from 0)
 */
#include "shard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"

#define PLAN_MAGIC "rulelab-shard-plan 1"

/* ---- the deal ----------------------------------------------------------- */

struct ranked {
    double cost;
    int cell;
};

static int by_cost_then_index(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return (x->cell > y->cell) - (x->cell < y->cell);
}

int shard_plan_balance(const double *cost, int n_cells, int n, int *plan)
{
    struct ranked *r = malloc((size_t)(n_cells ? n_cells : 1) * sizeof *r);
    double *load = calloc((size_t)n, sizeof *load);
    if (!r || !load) {
        free(r);
        free(load);
        return -1;
    }
    for (int c = 0; c < n_cells; c++)
        r[c] = (struct ranked){cost[c], c};
    qsort(r, (size_t)n_cells, sizeof *r, by_cost_then_index);
    for (int i = 0; i < n_cells; i++) {
        int least = 0;
        for (int k = 1; k < n; k++)
            if (load[k] < load[least])
                least = k;
        plan[r[i].cell] = least;
        load[least] += r[i].cost;
    }
    free(r);
    free(load);
    return 0;
}

/* ---- the file ----------------------------------------------------------- */

/* The SHA-256 of s's file text as 64 hex digits. */
static void sweep_digest(const struct sweep *s, char hex[65])
{
    unsigned char d[32];
    sha256_bytes(s->file_text, strlen(s->file_text), d);
    sha256_hex(d, hex);
}

int shard_plan_write(const char *path, const struct sweep *s, int n,
                     const int *plan, const double *cost, char *err,
                     size_t errsz)
{
    char tmp[4200], hex[65];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errsz, "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    sweep_digest(s, hex);
    fprintf(f, "%s\n"
               "# Written by `rulelab run %s --dry-run --write-plan`: the "
               "sweep's whole cells\n"
               "# (it stops cells early) dealt to %d shards by their "
               "estimated CPU-seconds,\n"
               "# costliest first, each to the least loaded shard. Every "
               "shard reads this one\n"
               "# file: rulelab run SWEEP --shard K/%d --plan THIS_FILE\n",
            PLAN_MAGIC, s->path, n, n);
    fprintf(f, "sweep %s %llu sha256:%s\nshards %d\ncells %d\n", s->name,
            (unsigned long long)s->seed, hex, n, s->n_cells);
    fputs("# cell INDEX (from 0, in file order), its SHARD and its "
          "estimated CPU-seconds;\n# below each, its variant and its "
          "agents, seat 0 first\n", f);
    for (int c = 0; c < s->n_cells; c++) {
        const struct sweep_cell *cell = &s->cells[c];
        fprintf(f, "cell %d %d %.3f\n# %s: %s vs %s\n", c, plan[c], cost[c],
                cell->variant_text, s->agents[cell->agent[0]].name,
                s->agents[cell->agent[1]].name);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        snprintf(err, errsz, "writing %s failed: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* What a reader holds while it reads a plan file. */
struct plan_reader {
    const char *path;
    const struct sweep *s;
    int n;
    int *plan;
    int line, stage; /* stage: how many header lines have been read */
    int cells_seen;
    char *err;
    size_t errsz;
};

/* Sets the error "PATH line L: message"; returns -1. */
static int plan_error(struct plan_reader *r, const char *message)
{
    snprintf(r->err, r->errsz, "%s line %d: %s", r->path, r->line, message);
    return -1;
}

/* Reads one header line (stage 0 to 3) into the reader. */
static int read_header(struct plan_reader *r, const char *text)
{
    char name[SWEEP_NAME_MAX + 1], hex[80], msg[1400];
    unsigned long long seed;
    int value, used = -1;
    switch (r->stage) {
    case 0:
        if (strcmp(text, PLAN_MAGIC) != 0)
            return plan_error(r, "not a shard plan (it starts with '"
                              PLAN_MAGIC "'; write one with `rulelab run "
                              "SWEEP --dry-run --write-plan FILE --shards N`)");
        break;
    case 1:
        if (sscanf(text, "sweep %64s %llu sha256:%79s%n", name, &seed, hex,
                   &used) != 3 || used != (int)strlen(text))
            return plan_error(r, "expected 'sweep NAME SEED sha256:HEX'");
        char want[65];
        sweep_digest(r->s, want);
        if (strcmp(name, r->s->name) != 0 || seed != r->s->seed
            || strcmp(hex, want) != 0) {
            snprintf(msg, sizeof msg, "the plan is for sweep %s (seed %llu) "
                     "with other file text than %s (sweep %s, seed %llu); "
                     "write a new plan for this file", name, seed,
                     r->s->path, r->s->name, (unsigned long long)r->s->seed);
            return plan_error(r, msg);
        }
        break;
    case 2:
    case 3:
        if (sscanf(text, r->stage == 2 ? "shards %9d%n" : "cells %9d%n", &value,
                   &used) != 1 || used != (int)strlen(text))
            return plan_error(r, r->stage == 2 ? "expected 'shards N'"
                                               : "expected 'cells C'");
        if (r->stage == 2 && value != r->n) {
            snprintf(msg, sizeof msg, "the plan deals %d shards, not %d: "
                     "--shard K/%d needs a plan written with --shards %d",
                     value, r->n, r->n, r->n);
            return plan_error(r, msg);
        }
        if (r->stage == 3 && value != r->s->n_cells) {
            snprintf(msg, sizeof msg, "the plan has %d cells, the sweep %d",
                     value, r->s->n_cells);
            return plan_error(r, msg);
        }
        break;
    }
    r->stage++;
    return 0;
}

/* Reads one "cell INDEX SHARD COST" line. */
static int read_cell(struct plan_reader *r, const char *text)
{
    int cell, shard, used = -1;
    double cost;
    char msg[200];
    /* at most 9 digits each, so no number overflows; more leave text
     * unread, which is an error below */
    if (sscanf(text, "cell %9d %9d %lf%n", &cell, &shard, &cost, &used) != 3
        || used != (int)strlen(text))
        return plan_error(r, "expected 'cell INDEX SHARD CPU_SECONDS'");
    if (cell < 0 || cell >= r->s->n_cells || shard < 0 || shard >= r->n) {
        snprintf(msg, sizeof msg, "cell %d shard %d: cells go from 0 to %d, "
                 "shards from 0 to %d", cell, shard, r->s->n_cells - 1,
                 r->n - 1);
        return plan_error(r, msg);
    }
    if (r->plan[cell] >= 0) {
        snprintf(msg, sizeof msg, "cell %d is dealt twice", cell);
        return plan_error(r, msg);
    }
    r->plan[cell] = shard;
    r->cells_seen++;
    return 0;
}

int shard_plan_read(const char *path, const struct sweep *s, int n,
                    int *plan, char *err, size_t errsz)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct plan_reader r = {path, s, n, plan, 0, 0, 0, err, errsz};
    for (int c = 0; c < s->n_cells; c++)
        plan[c] = -1;
    char *text = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&text, &cap, f)) >= 0) {
        r.line++;
        while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
            text[--len] = '\0';
        if (len == 0 || text[0] == '#')
            continue;
        rc = r.stage < 4 ? read_header(&r, text) : read_cell(&r, text);
    }
    free(text);
    if (rc == 0 && ferror(f)) {
        snprintf(err, errsz, "reading %s failed: %s", path, strerror(errno));
        rc = -1;
    }
    fclose(f);
    if (rc == 0 && (r.stage < 4 || r.cells_seen < s->n_cells)) {
        int missing = 0;
        while (missing < s->n_cells && plan[missing] >= 0)
            missing++;
        if (r.stage < 4)
            snprintf(err, errsz, "%s: cut short (no %s line)", path,
                     (const char *[]){"first", "sweep", "shards",
                                      "cells"}[r.stage]);
        else
            snprintf(err, errsz, "%s: cell %d has no shard (the plan is cut "
                     "short)", path, missing);
        rc = -1;
    }
    return rc;
}
