/*
 * cli.h -- the `rulelab` command line: the command table and the small
 * option parser every command shares, with the helpers several commands
 * use (cli.c) and the board drawing (board.c). Each command is one
 * cmd_<name>.c in this folder defining its struct cli_command; the harness
 * it drives (experiments/: sweeps, runner, store, stats, reports, claims)
 * knows nothing of the command line.
 *
 * Exit codes: 0 success, 1 a failure the user can read about on stderr
 * (bad position, illegal move, I/O), 2 a usage error (unknown command or
 * option, missing argument).
 */
#ifndef RULELAB_CLI_H
#define RULELAB_CLI_H

#include <stdio.h>

#include "game.h"

struct store;

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

struct cli_command {
    const char *name;
    const char *summary; /* one line for `rulelab --help` */
    const char *usage; /* the whole --help text */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    /* For cli_parse_exact: how many positional arguments the command
     * takes, and what it says when they are not there ("needs a
     * database"); 0 and NULL where it parses with cli_parse. */
    int n_positional;
    const char *needs;
};

/* One option of a command. A flag sets *flag to 1; an option with a value
 * stores a pointer to it in *value. */
/* One option of a command, of one of three kinds: a flag (flag set), a
 * text (value set: it gets the text), or a whole number (number set: it
 * gets the value, checked to lie in [min, max]; left as it was when the
 * option is not given, so its initial value is the default). Write them
 * with designated initializers, e.g.
 *   {.name = "--threads", .number = &threads, .min = 1, .max = 4096}. */
struct cli_option {
    const char *name; /* "--seed" */
    const char **value; /* a text option */
    int *flag; /* a flag */
    long *number; /* a whole-number option, in [min, max] */
    long min, max;
};

/* Parses argv[1..] against opts (NULL-name terminated): options may come
 * anywhere, as `--name value` or `--name=value`; everything else goes into
 * positional (at most max_positional). Unknown options are named; an
 * option with a value given twice is a usage error (a flag given twice
 * is the flag); a whole-number option's value is parsed and its range
 * checked here, with cli_parse_int's message. `--help` prints the usage
 * and returns -1 (the caller then exits 0). Returns 0, or CLI_USAGE after
 * printing what was wrong. */
int cli_parse(int argc, char **argv, const struct cli_option *opts,
              const char **positional, int max_positional, int *n_positional,
              const struct cli_command *cmd);

/* The prologue of a command with exactly cmd->n_positional positional
 * arguments: cli_parse, then the count checked. Returns 1 when the
 * command goes on (positional[0..n_positional-1] set); 0 when it must
 * return *status at once: CLI_OK after --help, CLI_USAGE after a usage
 * error (a wrong count says "rulelab CMD: " cmd->needs and the usage
 * hint). */
int cli_parse_exact(int argc, char **argv, const struct cli_option *opts,
                    const char **positional, const struct cli_command *cmd,
                    int *status);

/* Prints "rulelab CMD: message" and the usage hint on stderr; returns
 * CLI_USAGE. */
int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...);

/* Parses a whole number in [min, max]; 0 or -1 with a message on stderr. */
int cli_parse_int(const char *text, const char *what, long min, long max,
                  long *out);

/* Parses the variant, then sets up st from the position (may be NULL) and
 * moves (may be NULL). Prints the error on stderr and returns -1 on
 * failure. */
int cli_setup(const char *variant_text, const char *position,
              const char *moves, struct variant *v, void *st);

/* Opens the results database at path read-only into *st (the commands
 * that only read: report, replay, export). Returns 0, or -1 after printing
 * "rulelab: " and why on stderr. */
int cli_open_readonly(const char *path, struct store **st);

/* Reads a --format value: the index of table, csv, json or markdown (the
 * order of enum report_format), or -1 after a usage error naming them. */
int cli_parse_format(const struct cli_command *cmd, const char *text);

/* cli_open_readonly, then, if sweep is not NULL, checks that the database
 * holds a sweep of that name; if not, says so on stderr ("rulelab
 * COMMAND: ...") with the names of the sweeps it does hold. Returns 0
 * with *st open, or -1 (said, and nothing left open). */
int cli_open_sweep(const char *path, const char *sweep, const char *command,
                   struct store **st);

/* Ends a command's output: flushes out and checks that every write
 * succeeded (a full disk, /dev/full, a closed pipe), closing it unless it
 * is stdout. Returns 0, or -1 after printing "rulelab COMMAND: writing
 * NAME failed: why" on stderr. */
int cli_finish_output(FILE *out, const char *command, const char *name);

/* board.c: the drawings several commands share. */

/* Draws the board of st (a state of g) as text on stdout: ranks from the
 * top, each square the game's piece letter, files lettered below. */
void cli_draw_board(const struct game *g, const void *st);

/* Prints "legal moves (N):" and the legal moves of st (a state of g) in
 * the game's notation on stdout, twelve to a line. */
void cli_print_legal_moves(const struct game *g, const void *st);

/* A calibration's progress line on stderr, "calibrated D of N cells",
 * rewritten in place when stderr is a terminal (nothing otherwise);
 * done -1 ends the line. */
void cli_progress_cells(int done, int n);

/* The commands, each defined in its cmd_<name>.c. */
extern const struct cli_command cmd_list, cmd_perft, cmd_show, cmd_bench,
    cmd_engine, cmd_import,
    cmd_play, cmd_run, cmd_report, cmd_replay, cmd_export, cmd_solve,
    cmd_verify, cmd_claim, cmd_migrate, cmd_ratings, cmd_tactics, cmd_merge,
    cmd_tune, cmd_slurm, cmd_metrics;

/* Dispatches argv (argv[0] the program) to a command and returns the exit
 * status: the command's, or CLI_FAIL when a command that succeeded could
 * not write its standard output; CLI_USAGE for no or an unknown command
 * (with the usage on stderr); CLI_OK for --help. */
int cli_main(int argc, char **argv);

#endif
