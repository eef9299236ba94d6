/*
 * cmd_tune.c -- `rulelab tune`: fits one game's evaluation weights to the
 * stored results of its games, per variant (experiments/analysis/tune.h
 * says how; the help below says it to the user), and prints them with the
 * log-loss of hand-set and fitted weights and the fitted agent spec. Like
 * `report` it opens the database read-only, so it is safe while a sweep
 * writes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "cli.h"
#include "store.h"
#include "tune.h"

/* Reads a real option in [min, max]; -1 after a usage error. */
static int parse_real(const char *text, const char *what, double min,
                      double max, double *out)
{
    if (spec_parse_number(text, 0, out) != 0 || *out < min || *out > max) {
        cli_usage_error(&cmd_tune, "%s takes a number from %g to %g, not "
                        "'%s'", what, min, max, text);
        return -1;
    }
    return 0;
}

/* Checks that agent names a kind that evaluates, or is such a spec that
 * takes the fitted weights of r. Returns 0, or -1 after an error. */
static int check_agent(const char *agent, const struct tune_result *r)
{
    const struct agent_kind *k = agent_kind_of(agent);
    if (!k || !k->uses_eval) {
        cli_usage_error(&cmd_tune, "--agent takes an agent kind or spec that "
                        "uses the evaluation (ab, mcts), not '%s'", agent);
        return -1;
    }
    char spec[VARIANT_TEXT_MAX], id[VARIANT_TEXT_MAX], err[1024];
    tune_spec(r, agent, spec, sizeof spec);
    if (agent_identity(spec, id, sizeof id, err, sizeof err) < 0) {
        cli_usage_error(&cmd_tune, "--agent '%s' with the fitted weights is "
                        "no spec: %s", agent, err);
        return -1;
    }
    return 0;
}

/* --save: the results into path's tunings table, through a store of its
 * own opened for writing. Returns 0, or -1 after saying why on stderr. */
static int save_results(const char *path, const struct tune_result *r, int n,
                        const char *sweep, const char *agent)
{
    struct store *st;
    char err[1024];
    if (store_open(path, 0, &st, err, sizeof err) != 0
        || tune_save(st, r, n, sweep, agent, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab tune: --save: %s\n", err);
        return -1;
    }
    store_close(st);
    fprintf(stderr, "rulelab tune: saved the fitted weights of %d variant%s "
            "in %s (rulelab report shows them)\n", n, n == 1 ? "" : "s", path);
    return 0;
}

/* The options of `rulelab tune`, read and checked by read_args. */
struct tune_args {
    const char *db, *format_text, *sweep, *agent;
    int format, save;
    const struct game *game;
    struct tune_options o;
    char wanted[VARIANT_TEXT_MAX]; /* --variant's canonical text, or "" */
};

/* Reads --holdout and --l2 (real numbers; the whole-number options are
 * read by cli_parse). 0, or -1 after a usage error. */
static int read_reals(struct tune_args *a, const char *holdout_text,
                      const char *l2_text)
{
    if (holdout_text
        && parse_real(holdout_text, "--holdout", 0, 0.9, &a->o.holdout))
        return -1;
    if (l2_text && parse_real(l2_text, "--l2", 0, 1e6, &a->o.fit.l2))
        return -1;
    return 0;
}

/* Reads and checks the options into *a. Returns 1 to go on, or 0 with the
 * command's status in *rc (a usage error, or --help). */
static int read_args(int argc, char **argv, struct tune_args *a, int *rc)
{
    const char *game_name = NULL, *variant_text = NULL, *holdout_text = NULL,
               *l2_text = NULL, *pos[1];
    *a = (struct tune_args){.format_text = "table", .agent = "ab",
                            .o = {NULL, TUNE_SKIP_PLIES, 50000, 0.2, 1,
                                  {TUNE_SCALE, 1e-3, 100, 1e-12}}};
    long skip = a->o.skip_plies, positions = a->o.max_positions;
    long seed = (long)a->o.seed;
    const struct cli_option opts[] = {
        {.name = "--format", .value = &a->format_text},
        {.name = "--sweep", .value = &a->sweep},
        {.name = "--game", .value = &game_name},
        {.name = "--variant", .value = &variant_text},
        {.name = "--positions", .number = &positions, .min = 1,
         .max = 10000000},
        {.name = "--holdout", .value = &holdout_text},
        {.name = "--seed", .number = &seed, .max = 0x7fffffffffffffffL},
        {.name = "--l2", .value = &l2_text},
        {.name = "--skip-plies", .number = &skip, .max = 100000},
        {.name = "--agent", .value = &a->agent},
        {.name = "--save", .flag = &a->save},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_tune, rc))
        return 0;
    a->db = pos[0];
    a->o.sweep = a->sweep;
    a->o.skip_plies = (int)skip;
    a->o.max_positions = (int)positions;
    a->o.seed = (uint64_t)seed;
    *rc = CLI_USAGE;
    if ((a->format = cli_parse_format(&cmd_tune, a->format_text)) < 0)
        return 0;
    if (!game_name) {
        cli_usage_error(&cmd_tune, "needs --game (tafl, serbest or jetan)");
        return 0;
    }
    a->game = game_find(game_name);
    if (!a->game || !eval_of(a->game)) {
        cli_usage_error(&cmd_tune, "unknown game '%s' (tafl, serbest or "
                        "jetan)", game_name);
        return 0;
    }
    if (read_reals(a, holdout_text, l2_text) != 0)
        return 0;
    if (variant_text) {
        struct variant v;
        char err[1024];
        if (variant_parse(variant_text, &v, err, sizeof err) != 0) {
            cli_usage_error(&cmd_tune, "--variant: %s", err);
            return 0;
        }
        if (v.game != a->game) {
            cli_usage_error(&cmd_tune, "--variant '%s' is a variant of %s, "
                            "not of %s", variant_text, v.game->name,
                            a->game->name);
            return 0;
        }
        variant_canonical(&v, a->wanted, sizeof a->wanted);
    }
    return 1;
}

/* Fits every variant of a's game that db holds (or --variant's alone)
 * into results (room for n_variants), *n_results of them. Returns 0, or
 * -1 after a message on stderr (none fitted, a fit failed). */
static int fit_variants(sqlite3 *db, const struct tune_args *a,
                        char (*variants)[VARIANT_TEXT_MAX], int n_variants,
                        struct tune_result *results, int *n_results)
{
    char err[4096] = "";
    *n_results = 0;
    for (int i = 0; i < n_variants; i++) {
        if (a->wanted[0] && strcmp(a->wanted, variants[i]) != 0)
            continue;
        if (tune_variant(db, variants[i], &a->o, &results[*n_results], err,
                         sizeof err) != 0) {
            fprintf(stderr, "rulelab tune: %s\n", err);
            return -1;
        }
        ++*n_results;
    }
    if (*n_results > 0)
        return 0;
    fprintf(stderr, "rulelab tune: %s holds no games of %s%s%s; it holds %d "
            "variant%s of %s:\n", a->db, a->wanted,
            a->sweep ? " in sweep " : "", a->sweep ? a->sweep : "",
            n_variants, n_variants == 1 ? "" : "s", a->game->name);
    for (int i = 0; i < n_variants; i++)
        fprintf(stderr, "  %s\n", variants[i]);
    return -1;
}

/* `rulelab tune` (the run contract of struct cli_command): the fitted
 * weights of every variant of the game (or of --variant) on stdout;
 * CLI_FAIL when the database cannot be read, holds no games of the game,
 * too few positions, or the output is lost; CLI_USAGE for bad options. */
static int run_tune(int argc, char **argv)
{
    struct tune_args a;
    int rc;
    if (!read_args(argc, argv, &a, &rc))
        return rc;
    struct store *st;
    if (cli_open_sweep(a.db, a.sweep, "tune", &st) != 0)
        return CLI_FAIL;
    char (*variants)[VARIANT_TEXT_MAX] = NULL;
    struct tune_result *results = NULL;
    int n_variants = 0, n_results = 0;
    char err[4096] = "";
    rc = CLI_FAIL;
    if (tune_variants(store_db(st), a.game->name, a.sweep, &variants,
                      &n_variants, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab tune: %s\n", err);
        goto cleanup;
    }
    if (n_variants == 0) {
        fprintf(stderr, "rulelab tune: %s holds no games of %s%s%s\n", a.db,
                a.game->name, a.sweep ? " in sweep " : "",
                a.sweep ? a.sweep : "");
        goto cleanup;
    }
    results = calloc((size_t)n_variants, sizeof *results);
    if (!results) {
        fprintf(stderr, "rulelab tune: out of memory\n");
        goto cleanup;
    }
    if (fit_variants(store_db(st), &a, variants, n_variants, results,
                     &n_results) != 0)
        goto cleanup;
    if (check_agent(a.agent, &results[0]) != 0) {
        rc = CLI_USAGE;
        goto cleanup;
    }
    tune_print(results, n_results, &a.o, a.agent, (enum report_format)a.format,
               stdout);
    rc = cli_finish_output(stdout, "tune", "the weights") ? CLI_FAIL : CLI_OK;
    if (rc == CLI_OK && a.save
        && save_results(a.db, results, n_results, a.sweep, a.agent) != 0)
        rc = CLI_FAIL;
cleanup:
    free(results);
    free(variants);
    store_close(st);
    return rc;
}

const struct cli_command cmd_tune = {
    "tune", "fit a game's evaluation weights to the stored results",
    "usage: rulelab tune DB --game G [--variant SPEC] [--sweep NAME]\n"
    "                    [--positions N] [--skip-plies K] [--holdout F]\n"
    "                    [--seed S] [--l2 L]"
" [--agent SPEC] [--save]\n"
    "                    [--format table|csv|json|markdown]\n\n"
    "Fits the evaluation weights of game G (every <game>_<feature> parameter\n"
    "of the agents that evaluate) to the stored games, Texel-style, each\n"
    "variant of G in the database on its own (a variant's fitted piece\n"
    "values are a finding about it):\n"
    "  - positions: every stored game is replayed from its opening; a\n"
    "    position counts when K or more agent plies came before it (the\n"
    "    opening's plies never count), the game goes on, and the side to\n"
    "    move has no winning move at once; N of them are drawn uniformly\n"
    "    (seeded) from all such positions;\n"
    "  - label: the game's final result for the side to move: win 1, draw\n"
    "    1/2, loss 0;\n"
    "  - split: a share F of the games (not positions) is held out, chosen\n"
    "    by a hash of the seed and the game's id;\n"
    "  - fit: the weights w minimising, over the training positions, the\n"
    "    mean log-loss of eval_win_probability(w . features, 200) (the\n"
    "    logistic ab and mcts read scores with; the scale is fixed, as only\n"
    "    w / scale is identified), plus L/2 sum_i (r_i (w_i - hand_i))^2, r_i\n"
    "    the root mean square of feature i over 200: a pull toward the\n"
    "    hand-set weights measured in logit units, so weights the positions\n"
    "    say little about stay near them; a feature 0 in every position\n"
    "    keeps its hand-set weight. Newton's method with a line search, at\n"
    "    most 100 steps, until half the Newton decrement is below 1e-12.\n"
    "    A fitted weight beyond its parameter's range is clamped (said).\n"
    "Prints the mean log-loss of the hand-set and the fitted weights on the\n"
    "train and the held-out positions, every weight, and the fitted spec.\n"
    "Fails (exit 1) when the database holds no games of G (or of the\n"
    "variant), or a variant has fewer than 20 training positions a weight\n"
    "or no held-out position. Safe while a sweep is writing.\n\n"
    "  --game G        tafl, serbest or jetan (required)\n"
    "  --variant SPEC  only this variant of G (any spelling)\n"
    "  --sweep NAME    only games of sweeps of this name\n"
    "  --positions N   positions sampled per variant (default 50000)\n"
    "  --skip-plies K  agent plies skipped at the start of each game\n"
    "                  (default 2)\n"
    "  --holdout F     share of games held out, 0 to 0.9 (default 0.2)\n"
    "  --seed S        seed of the sample and the split (default 1)\n"
    "  --l2 L          the pull toward the hand-set weights (default 0.001;\n"
    "                  0: plain maximum likelihood)\n"
    "  --agent SPEC    the kind (default ab) or a spec (ab(nodes=20000))\n"
    "                  the fitted weights are printed into\n"
    "  --format F      table (default), csv, json or markdown\n"
    "  --save          also keep the fitted weights in DB's tunings table\n"
    "                  (it writes DB, so not while a run writes it); `rulelab\n"
    "                  report` then shows each variant's latest\n",
    run_tune, 1, "needs a database"};
