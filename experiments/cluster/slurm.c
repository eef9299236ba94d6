/*
 * slurm.c -- the sbatch scripts `rulelab slurm` writes (slurm.h), from
 * the templates tasks.sbatch.in and merge.sbatch.in beside this file. The
 * scripts are plain bash with every path quoted; what each part does is
 * said in comments inside them, since the user reads them.
 */
#include "slurm.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void slurm_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

void slurm_print_word(FILE *f, const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "0123456789/._-+=:,@%") == strlen(s))
        fputs(s, f);
    else
        slurm_quote(f, s);
}

/* FNV-1a of s: names the node-local folder after DIR, so two sweeps of
 * one name in different folders never share a live database. */
static uint32_t dir_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The texts of the templates (tasks.sbatch.in and merge.sbatch.in beside
 * this file), built into the program by cmake/embed_text.cmake. */
extern const char slurm_tasks_template[], slurm_merge_template[];

enum {
    S_TASKS, S_LAST_TASK, S_INPUT, S_DIR, S_NAME, S_CPUS, S_OPTIONS,
    S_SIGNAL, S_VARIABLES, S_LOCAL_BASE, S_DIR_HASH, S_PLAN, S_COMMAND,
    S_PLAN_OPTION, S_SNAPSHOT_EVERY, S_COUNT
};

/* The slots of the templates, @{name}: their names in S_ order. */
static const char *const slot_names[S_COUNT] = {
    "tasks", "last_task", "input", "dir", "name", "cpus", "options",
    "signal_seconds", "variables", "local_base", "dir_hash", "plan",
    "command", "plan_option", "snapshot_every"};

/* Writes the text of slot k of job j to f. */
static void write_slot(FILE *f, int k, const struct slurm_job *j)
{
    switch (k) {
    case S_TASKS: fprintf(f, "%d", j->tasks); break;
    case S_LAST_TASK: fprintf(f, "%d", j->tasks - 1); break;
    case S_INPUT: fputs(j->input, f); break;
    case S_DIR: fputs(j->dir, f); break;
    case S_NAME: fputs(j->name, f); break;
    case S_CPUS: fprintf(f, "%d", j->cpus); break;
    case S_OPTIONS: /* the #SBATCH lines given: each with its newline */
        if (j->partition)
            fprintf(f, "#SBATCH --partition=%s\n", j->partition);
        if (j->time)
            fprintf(f, "#SBATCH --time=%s\n", j->time);
        if (j->mem)
            fprintf(f, "#SBATCH --mem=%s\n", j->mem);
        break;
    case S_SIGNAL: fprintf(f, "%d", j->signal_seconds); break;
    case S_VARIABLES: /* RULELAB=, INPUT=, DIR=, N=, paths quoted */
        fputs("RULELAB=", f);
        slurm_quote(f, j->rulelab);
        fputs("\nINPUT=", f);
        slurm_quote(f, j->input);
        fputs("\nDIR=", f);
        slurm_quote(f, j->dir);
        fprintf(f, "\nN=%d\n", j->tasks);
        break;
    case S_LOCAL_BASE:
        fputs("LOCAL_BASE=", f);
        if (j->local)
            slurm_quote(f, j->local);
        else
            fputs("${TMPDIR:-/tmp}", f);
        break;
    case S_DIR_HASH: fprintf(f, "%08x", dir_hash(j->dir)); break;
    case S_PLAN: /* a plan's lines, or nothing */
        if (!j->plan)
            break;
        fputs("# The sweep stops cells early, so each shard plays whole "
              "cells, as this plan\n# deals them by their estimated cost; "
              "every task reads the same file.\nPLAN=", f);
        slurm_quote(f, j->plan);
        fputc('\n', f);
        break;
    case S_COMMAND: fputs(j->command, f); break;
    case S_PLAN_OPTION:
        if (j->plan)
            fputs(" --plan \"$PLAN\"", f);
        break;
    case S_SNAPSHOT_EVERY: fprintf(f, "%d", j->snapshot_every); break;
    }
}

/* Writes template to f for job j: a line starting with "#@" (the
 * template's own note) left out, each @{name} replaced by its slot's
 * text. Returns 0, or -1 when a write failed or the template names no
 * slot of slot_names (the template's fault, which the tests would show). */
static int fill(FILE *f, const char *template, const struct slurm_job *j)
{
    for (const char *p = template; *p;) {
        if ((p == template || p[-1] == '\n') && p[0] == '#' && p[1] == '@') {
            p += strcspn(p, "\n");
            p += *p == '\n';
            continue;
        }
        if (p[0] != '@' || p[1] != '{') {
            fputc(*p++, f);
            continue;
        }
        size_t len = strcspn(p + 2, "}");
        int k = 0;
        while (k < S_COUNT && (strlen(slot_names[k]) != len
                               || strncmp(p + 2, slot_names[k], len) != 0))
            k++;
        if (k == S_COUNT || p[2 + len] != '}')
            return -1;
        write_slot(f, k, j);
        p += len + 3;
    }
    return ferror(f) ? -1 : 0;
}

int slurm_write_tasks(FILE *f, const struct slurm_job *j)
{
    return fill(f, slurm_tasks_template, j);
}

int slurm_write_merge(FILE *f, const struct slurm_job *j)
{
    return fill(f, slurm_merge_template, j);
}

/* Writes one script to DIR/NAME through DIR/NAME.tmp. */
static int write_one(const struct slurm_job *j, const char *name,
                     int (*text)(FILE *, const struct slurm_job *), char *err,
                     size_t errsz)
{
    char path[4200], tmp[4210];
    snprintf(path, sizeof path, "%s/%s", j->dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errsz, "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    int rc = text(f, j);
    if (fclose(f) != 0)
        rc = -1;
    if (rc == 0 && chmod(tmp, 0755) == 0 && rename(tmp, path) == 0)
        return 0;
    snprintf(err, errsz, "writing %s failed: %s", path, strerror(errno));
    unlink(tmp);
    return -1;
}

int slurm_write_scripts(const struct slurm_job *j, char *err, size_t errsz)
{
    const char *sub[] = {"shards", "logs"};
    for (int i = 0; i < 2; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", j->dir, sub[i]);
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errsz, "cannot make %s: %s", path, strerror(errno));
            return -1;
        }
    }
    if (write_one(j, "tasks.sbatch", slurm_write_tasks, err, errsz) != 0
        || write_one(j, "merge.sbatch", slurm_write_merge, err, errsz) != 0)
        return -1;
    return 0;
}

int slurm_submit(const char *args, const char *script, char *id, size_t n,
                 char *err, size_t errsz)
{
    char cmd[PATH_MAX * 2 + 200];
    int len = snprintf(cmd, sizeof cmd, "sbatch --parsable %s ", args);
    FILE *f = fmemopen(cmd + len, sizeof cmd - (size_t)len, "w");
    if (!f) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    slurm_quote(f, script);
    fclose(f);
    FILE *p = popen(cmd, "r");
    if (!p) {
        snprintf(err, errsz, "cannot run sbatch: %s", strerror(errno));
        return -1;
    }
    char line[256] = "";
    if (!fgets(line, sizeof line, p))
        line[0] = '\0';
    int status = pclose(p);
    line[strcspn(line, ";\r\n")] = '\0'; /* "ID" or "ID;CLUSTER" */
    if (status != 0 || !line[0] || strspn(line, "0123456789") != strlen(line)) {
        snprintf(err, errsz, "`%s` failed%s (is Slurm's sbatch on PATH, and "
                 "SLURM_CONF right?)", cmd,
                 status == 127 * 256 ? ": sbatch not found" : "");
        return -1;
    }
    snprintf(id, n, "%s", line);
    return 0;
}
