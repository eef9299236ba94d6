/*
 * cli.c -- command dispatch, the option parser shared by all commands,
 * and the small helpers several of them use (numbers, variant and position
 * setup, opening a database to read, checking that the output was
 * written).
 *
 * The parser is small on purpose: long options only, values either glued
 * with '=' or in the next argument, and every unknown option is an error
 * that names itself, so a typo never silently changes an experiment.
 */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store.h"

static const struct cli_command *const commands[] = {
    &cmd_run, &cmd_report, &cmd_ratings, &cmd_tune, &cmd_replay, &cmd_export,
    &cmd_import, &cmd_play, &cmd_engine, &cmd_solve, &cmd_verify, &cmd_claim,
    &cmd_list, &cmd_show, &cmd_perft, &cmd_bench, &cmd_migrate, &cmd_tactics,
    &cmd_merge, &cmd_slurm, &cmd_metrics, NULL};

/* Writes the program's usage, with each command's one-line summary, to f. */
static void print_main_usage(FILE *f)
{
    fprintf(f, "usage: rulelab <command> [options]\n\n"
               "A self-play research harness for rule balancing.\n\n"
               "commands:\n");
    for (int i = 0; commands[i]; i++)
        fprintf(f, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f, "\n`rulelab <command> --help` tells more about each.\n");
}

int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "rulelab %s: ", cmd->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see `rulelab %s --help`)\n", cmd->name);
    return CLI_USAGE;
}

int cli_parse(int argc, char **argv, const struct cli_option *opts,
              const char **positional, int max_positional, int *n_positional,
              const struct cli_command *cmd)
{
    *n_positional = 0;
    unsigned char given[64] = {0}; /* options seen, by index in opts */
    const char *number_text[64] = {NULL}; /* whole-number options' values */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(cmd->usage, stdout);
            return -1;
        }
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            if (*n_positional == max_positional)
                return cli_usage_error(cmd, "unexpected argument '%s'", arg);
            positional[(*n_positional)++] = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct cli_option *o = opts;
        while (o->name && (strlen(o->name) != len
                           || strncmp(o->name, arg, len) != 0))
            o++;
        if (!o->name)
            return cli_usage_error(cmd, "unknown option '%.*s'", (int)len, arg);
        size_t at = (size_t)(o - opts);
        if (at < sizeof given && given[at]++ && !o->flag)
            return cli_usage_error(cmd, "option %s is given twice; give it "
                                   "once (a second value would silently "
                                   "replace the first)", o->name);
        if (o->flag) {
            if (eq)
                return cli_usage_error(cmd, "option %s takes no value",
                                       o->name);
            *o->flag = 1;
            continue;
        }
        const char *text;
        if (eq)
            text = eq + 1;
        else if (i + 1 < argc)
            text = argv[++i];
        else
            return cli_usage_error(cmd, "option %s needs a value", o->name);
        if (o->value)
            *o->value = text;
        if (o->number && at < sizeof given)
            number_text[at] = text;
    }
    for (size_t at = 0; at < sizeof given && opts[at].name; at++)
        if (number_text[at]
            && cli_parse_int(number_text[at], opts[at].name, opts[at].min,
                             opts[at].max, opts[at].number) != 0)
            return CLI_USAGE;
    return 0;
}

int cli_parse_exact(int argc, char **argv, const struct cli_option *opts,
                    const char **positional, const struct cli_command *cmd,
                    int *status)
{
    int n = cmd->n_positional, got;
    int rc = cli_parse(argc, argv, opts, positional, n, &got, cmd);
    *status = rc < 0 ? CLI_OK : rc;
    if (rc)
        return 0;
    if (got != n) {
        *status = cli_usage_error(cmd, "%s", cmd->needs);
        return 0;
    }
    return 1;
}

int cli_parse_int(const char *text, const char *what, long min, long max,
                  long *out)
{
    char *end;
    errno = 0;
    long x = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || errno || x < min || x > max) {
        fprintf(stderr, "rulelab: %s must be a whole number from %ld to %ld, "
                        "not '%s'\n", what, min, max, text);
        return -1;
    }
    *out = x;
    return 0;
}

int cli_setup(const char *variant_text, const char *position,
              const char *moves, struct variant *v, void *st)
{
    char err[512];
    if (variant_parse(variant_text, v, err, sizeof err) != 0
        || game_setup(v, st, position, moves, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab: %s\n", err);
        return -1;
    }
    return 0;
}

int cli_open_readonly(const char *path, struct store **st)
{
    char err[1024];
    if (store_open(path, 1, st, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab: %s\n", err);
        return -1;
    }
    return 0;
}

int cli_parse_format(const struct cli_command *cmd, const char *text)
{
    static const char *const names[] = {"table", "csv", "json", "markdown"};
    for (int i = 0; i < 4; i++)
        if (strcmp(text, names[i]) == 0)
            return i;
    cli_usage_error(cmd, "--format must be table, csv, json or markdown, not"
                    " '%s'", text);
    return -1;
}

/* Whether db (opened from path) holds a sweep named `name`; if not, says
 * so with the names of the sweeps it does hold. Returns 1 if found, 0 if
 * not, -1 on an error (said). */
static int sweep_exists(sqlite3 *db, const char *path, const char *name,
                        const char *command)
{
    char held[1024], err[512];
    int found, n = store_sweep_names(db, name, &found, held, sizeof held, err,
                                     sizeof err);
    if (n < 0) {
        fprintf(stderr, "rulelab %s: %s: %s\n", command, path, err);
        return -1;
    }
    if (!found)
        fprintf(stderr, "rulelab %s: %s holds no sweep named '%s'; %s%s\n",
                command, path, name, n ? "its sweeps: " : "it holds no sweeps",
                n ? held : "");
    return found;
}

int cli_open_sweep(const char *path, const char *sweep, const char *command,
                   struct store **st)
{
    if (cli_open_readonly(path, st) != 0)
        return -1;
    if (sweep && sweep_exists(store_db(*st), path, sweep, command) != 1) {
        store_close(*st);
        *st = NULL;
        return -1;
    }
    return 0;
}

int cli_finish_output(FILE *out, const char *command, const char *name)
{
    int failed = fflush(out) != 0 || ferror(out);
    int saved = errno;
    if (out != stdout && fclose(out) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (failed)
        fprintf(stderr, "rulelab %s: writing %s failed: %s\n", command, name,
                saved ? strerror(saved) : "write error");
    return failed ? -1 : 0;
}

/* A command's exit status once its standard output is flushed: a command
 * that succeeded but whose output was lost (a full disk, /dev/full) fails,
 * after saying so. A command that already failed keeps its status. */
static int check_stdout(const char *command, int rc)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    if (rc == CLI_OK) {
        fprintf(stderr, "rulelab %s: writing the output failed: %s\n",
                command, errno ? strerror(errno) : "write error");
        return CLI_FAIL;
    }
    return rc;
}

int cli_main(int argc, char **argv)
{
    if (argc < 2) {
        print_main_usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0
        || strcmp(argv[1], "help") == 0) {
        print_main_usage(stdout);
        return CLI_OK;
    }
    for (int i = 0; commands[i]; i++) {
        if (strcmp(argv[1], commands[i]->name) != 0)
            continue;
        store_set_command(commands[i]->name); /* named in writer locks */
        return check_stdout(commands[i]->name,
                            commands[i]->run(argc - 1, argv + 1));
    }
    fprintf(stderr, "rulelab: unknown command '%s'\n\n", argv[1]);
    print_main_usage(stderr);
    return CLI_USAGE;
}

void cli_progress_cells(int done, int n)
{
    static int shown;
    if (!isatty(fileno(stderr)))
        return;
    if (done < 0) {
        if (shown)
            fputc('\n', stderr);
        shown = 0;
        return;
    }
    fprintf(stderr, "\rcalibrated %d of %d cells", done, n);
    shown = 1;
}
