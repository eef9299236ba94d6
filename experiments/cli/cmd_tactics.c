/*
 * cmd_tactics.c -- `rulelab tactics`: the share of the tactics suite an
 * agent solves, each answer checked with the solver; `tactics generate`
 * makes the set from a sweep's games; `tactics verify` re-checks the
 * stored set. The work is experiments/analysis/tactics.h's; this file reads the
 * options, splits the agent list, and prints the table or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <omp.h>

#include "agent.h"
#include "cli.h"
#include "stats.h"
#include "store.h"
#include "tactics.h"

#define MAX_AGENTS 16

/* Splits a comma-separated list of specs at the commas outside
 * parentheses, into specs[] (pointers into buf). Returns how many, or -1
 * if there are more than max or one is empty. */
static int split_specs(char *buf, char **specs, int max)
{
    int n = 0, depth = 0;
    char *start = buf;
    for (char *p = buf;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if (*p == '\0' || (*p == ',' && depth == 0)) {
            int last = *p == '\0';
            *p = '\0';
            if (n == max || *start == '\0')
                return -1;
            specs[n++] = start;
            if (last)
                return n;
            start = p + 1;
        }
    }
}

/* Fills games[] from a comma-separated list of names (NULL: every game).
 * Returns how many, or -1 after a usage error naming the unknown one. */
static int parse_games(const char *list, const struct game **games)
{
    int n = 0;
    if (!list) {
        while (game_list[n]) {
            games[n] = game_list[n];
            n++;
        }
        return n;
    }
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        const struct game *g = game_find(tok);
        if (!g) {
            cli_usage_error(&cmd_tactics, "unknown game '%s'", tok);
            return -1;
        }
        games[n++] = g;
    }
    if (!n)
        cli_usage_error(&cmd_tactics, "--games names no game");
    return n ? n : -1;
}

struct progress_ctx {
    const char *spec, *game;
    int tty;
};

static void show_progress(long done, long total, void *ctx)
{
    const struct progress_ctx *p = ctx;
    if (p->tty)
        fprintf(stderr, "\rtactics: %s on %s: %ld/%ld", p->spec, p->game,
                done, total);
    else if (done == total || done % 100 == 0)
        fprintf(stderr, "tactics: %s on %s: %ld/%ld\n", p->spec, p->game,
                done, total);
    if (p->tty && done == total)
        fprintf(stderr, "\n");
}

/* One row of the report. */
static void print_row(int json, int *first, const char *spec,
                      const char *game, enum tactic_kind k, long n,
                      long right, long wrong, long unknown)
{
    double lo, hi;
    stats_wilson((double)right, (double)n, 1.959963984540054, &lo, &hi);
    double share = n ? (double)right / (double)n : 0;
    if (json) {
        printf("%s\n  {\"agent\": \"", *first ? "" : ",");
        for (const char *c = spec; *c; c++)
            printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
        printf("\", \"game\": \"%s\", \"kind\": \"%s\", \"positions\": %ld, "
               "\"solved\": %ld, \"wrong\": %ld, \"unknown\": %ld, "
               "\"share\": %.4f, \"lo\": %.4f, \"hi\": %.4f}", game,
               tactic_kind_name(k), n, right, wrong, unknown, share, lo, hi);
    } else {
        printf("%-32s %-8s %-7s %9ld %6ld %5ld %7ld  %5.3f  [%5.3f, %5.3f]\n",
               spec, game, tactic_kind_name(k), n, right, wrong, unknown,
               share, lo, hi);
    }
    *first = 0;
}

/* One position the agent did not solve, on stderr (--missed): the agent,
 * game, kind, verdict, the move chosen, the variant and the position. */
static void print_missed(const char *spec, const struct game *g,
                         const struct tactic *t, move_t m,
                         enum tactic_verdict v)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char move[64] = "?", err[256];
    if (tactics_setup(t, st, err, sizeof err) == 0)
        g->move_to_text(st, m, move, sizeof move);
    fprintf(stderr, "missed\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", spec, g->name,
            tactic_kind_name(t->kind),
            v == TACTIC_WRONG ? "wrong" : "unknown", move, t->variant_text,
            t->position);
}

/* Plays one agent over one game's set and prints its rows (and, with
 * missed, each position not solved). */
static int run_one(const char *spec, const struct game *g,
                   const struct tactic *set, int n,
                   const struct tactics_play_options *base, int json,
                   int quiet, int missed, int *first)
{
    enum tactic_verdict *v = malloc(sizeof *v * (size_t)(n ? n : 1));
    move_t *moves = malloc(sizeof *moves * (size_t)(n ? n : 1));
    struct progress_ctx ctx = {spec, g->name, isatty(2)};
    struct tactics_play_options o = *base;
    char err[1024];
    if (!v || !moves) {
        fprintf(stderr, "rulelab tactics: out of memory\n");
        free(v);
        free(moves);
        return CLI_FAIL;
    }
    o.progress = quiet ? NULL : show_progress;
    o.ctx = &ctx;
    if (tactics_play(set, n, spec, &o, v, moves, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab tactics: %s on %s: %s\n", spec, g->name, err);
        free(v);
        free(moves);
        return CLI_FAIL;
    }
    for (int i = 0; missed && i < n; i++)
        if (v[i] != TACTIC_RIGHT)
            print_missed(spec, g, &set[i], moves[i], v[i]);
    for (int k = 0; k < TACTIC_KINDS; k++) {
        long count = 0, tally[3] = {0, 0, 0};
        for (int i = 0; i < n; i++)
            if (set[i].kind == (enum tactic_kind)k) {
                count++;
                tally[v[i]]++;
            }
        print_row(json, first, spec, g->name, (enum tactic_kind)k, count,
                  tally[TACTIC_RIGHT], tally[TACTIC_WRONG],
                  tally[TACTIC_UNKNOWN]);
    }
    free(v);
    free(moves);
    return CLI_OK;
}

/* Loads the set of g from dir (the first `limit` positions of each
 * kind when limit > 0). */
static int load_set(const char *dir, const struct game *g, long limit,
                    struct tactic **set, int *n)
{
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/%s.txt", dir, g->name);
    if (tactics_load(path, g, set, n, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab tactics: %s\n", err);
        return -1;
    }
    if (limit > 0) {
        int kept = 0, per[TACTIC_KINDS] = {0};
        for (int i = 0; i < *n; i++)
            if (per[(*set)[i].kind]++ < limit)
                (*set)[kept++] = (*set)[i];
        *n = kept;
    }
    return 0;
}

/* `tactics verify`: each kept certificate verifies, and the stored moves
 * are right by tactics_check (the first move of a win's line; every move
 * a defend line lists). */
static int verify_set(const char *dir, const struct game *g,
                      const struct tactic *set, int n, uint64_t nodes,
                      size_t mb)
{
    char path[4096], err[1024];
    long certs = 0, bad = 0;
    snprintf(path, sizeof path, "%s/%s.proofs", dir, g->name);
    for (int i = 0; i < n; i++) {
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        const struct tactic *t = &set[i];
        char list[TACTIC_MOVES_MAX], *save = NULL;
        if (t->proof_line) {
            certs++;
            if (tactics_verify_certificate(path, t, err, sizeof err) != 0) {
                fprintf(stderr, "rulelab tactics: %s: %s\n", t->source, err);
                bad++;
            }
        }
        snprintf(list, sizeof list, "%s", t->moves);
        tactics_setup(t, st, err, sizeof err);
        for (char *tok = strtok_r(list, " ", &save); tok;
             tok = t->kind == TACTIC_DEFEND ? strtok_r(NULL, " ", &save)
                                            : NULL) {
            move_t m;
            enum tactic_verdict v = TACTIC_UNKNOWN;
            if (game_parse_move(g, st, tok, &m, err, sizeof err) != 0
                || tactics_check(t, m, nodes, mb, &v, NULL, err, sizeof err)
                       != 0
                || v != TACTIC_RIGHT) {
                fprintf(stderr, "rulelab tactics: %s: %s is %s\n", t->source,
                        tok, v == TACTIC_WRONG ? "wrong" : "not proven right");
                bad++;
            }
        }
    }
    printf("%s: %d positions, %ld certificates: %s\n", g->name, n, certs,
           bad ? "FAILED" : "all verified");
    return bad ? -1 : 0;
}

static int run_generate(const char *db_path, const char *out, const char *sweep,
                        const char *games, long cap, int threads, int quiet)
{
    struct store *st;
    char err[1024];
    if (!db_path)
        return cli_usage_error(&cmd_tactics, "generate needs --db DB");
    if (cli_open_sweep(db_path, sweep, "tactics", &st) != 0)
        return CLI_FAIL;
    struct tactics_gen_options o = {sweep, out, games, (int)cap, threads,
                                    !quiet};
    int rc = tactics_generate(st, &o, err, sizeof err);
    store_close(st);
    if (rc != 0) {
        fprintf(stderr, "rulelab tactics generate: %s\n", err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* The default set: experiments/tactics of the current directory where it
 * is one (a run from the source tree), else of the source tree this
 * program was built from. */
static const char *default_set(void)
{
    struct stat sb;
    if (stat("experiments/tactics", &sb) == 0 && S_ISDIR(sb.st_mode))
        return "experiments/tactics";
    return RULELAB_SOURCE_DIR "/experiments/tactics";
}

/* `rulelab tactics` (the run contract of struct cli_command). */
static int run_tactics(int argc, char **argv)
{
    const char *agents = "mcts(iterations=1000)", *games_text = NULL;
    const char *dir = NULL, *db = NULL, *sweep = "tactics_source", *pos[1];
    long nodes = 100000, mb = 16, threads = omp_get_num_procs(), seed = 1;
    long limit = 0, cap = 0;
    int json = 0, quiet = 0, missed = 0, npos;
    const struct cli_option opts[] = {
        {.name = "--agents", .value = &agents},
        {.name = "--games", .value = &games_text},
        {.name = "--set", .value = &dir},
        {.name = "--out", .value = &dir},
        {.name = "--nodes", .number = &nodes, .min = 1,
         .max = 0x7fffffffffffffffL},
        {.name = "--mb", .number = &mb, .min = 1, .max = 4096},
        {.name = "--threads", .number = &threads, .min = 1, .max = 4096},
        {.name = "--seed", .number = &seed, .max = 0x7fffffffffffffffL},
        {.name = "--limit", .number = &limit, .max = 1000000},
        {.name = "--db", .value = &db},
        {.name = "--sweep", .value = &sweep},
        {.name = "--cap", .number = &cap, .max = 512},
        {.name = "--json", .flag = &json},
        {.name = "--quiet", .flag = &quiet},
        {.name = "--missed", .flag = &missed},
        {.name = NULL}};
    int rc = cli_parse(argc, argv, opts, pos, 1, &npos, &cmd_tactics);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (!dir)
        dir = default_set();
    const char *action = npos ? pos[0] : "run";
    if (strcmp(action, "run") && strcmp(action, "generate")
        && strcmp(action, "verify"))
        return cli_usage_error(&cmd_tactics, "unknown action '%s'", action);
    const struct game *games[8];
    int ngames = parse_games(games_text, games);
    if (ngames < 0)
        return CLI_USAGE;
    if (strcmp(action, "generate") == 0)
        return run_generate(db, dir, sweep, games_text, cap, (int)threads,
                            quiet);
    char buf[4096], *specs[MAX_AGENTS];
    snprintf(buf, sizeof buf, "%s", agents);
    int nspecs = split_specs(buf, specs, MAX_AGENTS);
    if (nspecs < 0)
        return cli_usage_error(&cmd_tactics, "--agents: 1 to %d specs, comma "
                               "separated, none empty", MAX_AGENTS);
    for (int i = 0; i < nspecs; i++) {
        struct agent *a;
        char err[1024];
        if (agent_create(specs[i], 1, &a, err, sizeof err) != 0) {
            fprintf(stderr, "rulelab tactics: bad agent '%s': %s\n", specs[i],
                    err);
            return CLI_USAGE;
        }
        agent_free(a);
    }
    struct tactics_play_options o = {(uint64_t)nodes, (size_t)mb, (int)threads,
                                     (uint64_t)seed, NULL, NULL};
    int first = 1, status = CLI_OK;
    if (json)
        printf("[");
    else if (strcmp(action, "run") == 0)
        printf("%-32s %-8s %-7s %9s %6s %5s %7s  %5s  %s\n", "agent", "game",
               "kind", "positions", "solved", "wrong", "unknown", "share",
               "95% interval");
    for (int gi = 0; gi < ngames && status == CLI_OK; gi++) {
        struct tactic *set;
        int n;
        if (load_set(dir, games[gi], limit, &set, &n) != 0) {
            status = CLI_FAIL;
            break;
        }
        if (strcmp(action, "verify") == 0) {
            if (verify_set(dir, games[gi], set, n, (uint64_t)nodes,
                           (size_t)mb) != 0)
                status = CLI_FAIL;
        } else {
            for (int i = 0; i < nspecs && status == CLI_OK; i++)
                status = run_one(specs[i], games[gi], set, n, &o, json, quiet,
                                 missed, &first);
        }
        free(set);
    }
    if (json)
        printf("\n]\n");
    if (cli_finish_output(stdout, "tactics", "stdout") != 0)
        return CLI_FAIL;
    return status;
}

const struct cli_command cmd_tactics = {
    "tactics", "how much of the tactics suite an agent solves",
    "usage: rulelab tactics [--agents SPEC[,SPEC...]] [--games LIST]\n"
    "                       [--set DIR] [--nodes N] [--mb X] [--threads T]\n"
    "                       [--seed S] [--limit K] [--json] [--quiet]\n"
    "                       [--missed]\n"
    "       rulelab tactics verify [--set DIR] [--games LIST] [--limit K]\n"
    "       rulelab tactics generate --db DB [--out DIR] [--sweep NAME]\n"
    "                       [--games LIST] [--cap K] [--threads T]\n\n"
    "The tactics suite (experiments/tactics/<game>.txt): positions where the\n"
    "side to move wins in exactly 3 plies (win3: a win within 3, none\n"
    "within 1), in exactly 5 (win5), and must-defend positions (defend: at\n"
    "most a quarter of the legal moves avoid a loss within 3 plies after\n"
    "them, at least one does). Definitions: experiments/analysis/tactics.h.\n\n"
    "For each agent spec (its budget is part of the spec) and each position,\n"
    "the agent, made afresh with seed S + position index, chooses a move,\n"
    "and the solver judges it: in a win-in-k position it is solved if the\n"
    "mover still wins within k - 1 plies after it (every reply is checked);\n"
    "in a defend position if the opponent then has no win within 3 plies\n"
    "(solver no_win). A check the node budget leaves open is counted as\n"
    "unknown, never as solved. Prints, per agent, game and kind: positions,\n"
    "solved, wrong, unknown, the share solved and its 95% Wilson interval.\n"
    "Progress goes to stderr. Results do not depend on T unless an agent\n"
    "has a wall-clock budget (ms=...); such agents share the cores.\n\n"
    "  --agents SPECS  comma-separated agent specs (default\n"
    "                  mcts(iterations=1000)); `rulelab list` shows kinds\n"
    "  --games LIST    comma-separated games (default: all three)\n"
    "  --set DIR       the set (default experiments/tactics: in the current\n"
    "                  directory if it has one, else in the source tree this\n"
    "                  rulelab was built from)\n"
    "  --nodes N       node budget of each solver call of a check (default\n"
    "                  100000)\n"
    "  --mb X          transposition table of each call, MiB (default 16)\n"
    "  --threads T     positions played at once (default: every core)\n"
    "  --seed S        agent seeds start at S (default 1)\n"
    "  --limit K       only the first K positions of each kind per game\n"
    "  --json          a JSON array of rows instead of the table\n"
    "  --quiet         no progress\n"
    "  --missed        also list on stderr, one tab-separated line each,\n"
    "                  every position not solved: `missed`, agent, game,\n"
    "                  kind, wrong or unknown, the move chosen, variant,\n"
    "                  position\n\n"
    "verify re-checks the set: every kept proof certificate verifies\n"
    "(proof_verify) and is of its position and bound, and the stored moves\n"
    "(a win's first move, every move a defend line lists) are right by the\n"
    "check above. generate rebuilds the set from the games of sweep NAME\n"
    "(default tactics_source: run experiments/sweeps/dev/tactics_source.ini\n"
    "first) in DB into DIR (--out, default experiments/tactics) by the fixed\n"
    "procedure of experiments/analysis/tactics_gen.c; --cap K changes the\n"
    "per-kind cap (the committed set uses each game's own) and --games the\n"
    "games.\n"
    "Exit status: 0, 1 on a failure (a missing or bad set file, a check\n"
    "that failed, verify finding a bad line), 2 on a usage error.\n",
    run_tactics, 0, NULL};
