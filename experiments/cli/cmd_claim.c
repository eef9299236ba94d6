/*
 * cmd_claim.c -- `rulelab claim`: test a forced-win claim on positions
 * from stored games. The work (choosing the positions, solving them on
 * threads, verifying and storing each answer) is claim_run's
 * (experiments/prove/claim.h); this file reads the options and prints the
 * summary, and after an interruption the command that resumes.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <omp.h>

#include "claim.h"
#include "cli.h"
#include "slurm.h"
#include "solver.h"

/* Whether the certificate folder dir can take files: it is a writable
 * folder, or does not exist and its parent is one. Returns 0, or -1 after
 * saying on stderr what is wrong and what to do. */
static int check_certificate_folder(const char *dir)
{
    struct stat sb;
    char parent[4300];
    snprintf(parent, sizeof parent, "%s", dir);
    const char *why = NULL;
    if (stat(dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode))
            why = "it is not a folder";
        else if (access(dir, W_OK | X_OK) != 0)
            why = strerror(errno);
    } else if (errno != ENOENT) {
        why = strerror(errno);
    } else if (access(dirname(parent), W_OK | X_OK) != 0) {
        why = errno == ENOENT ? "its parent folder does not exist"
                              : strerror(errno);
    }
    if (!why)
        return 0;
    fprintf(stderr, "rulelab claim: the certificate folder %s cannot be "
            "written (%s): give --certificates a folder you can write; "
            "nothing was solved\n", dir, why);
    return -1;
}

/* `rulelab claim` (the run contract of struct cli_command): runs claim_run
 * on DB and prints the summary; CLI_FAIL when a position could not be
 * solved, the claim stopped early or was interrupted (then it prints the
 * command that resumes). */
static int run_claim(int argc, char **argv)
{
    const char *sweep = NULL, *certificates = NULL, *pos[1];
    long plies = 0, nodes = 200000, positions = 0, mb = 64;
    long threads = omp_get_num_procs();
    int rc;
    const struct cli_option opts[] = {
        {.name = "--sweep", .value = &sweep},
        {.name = "--certificates", .value = &certificates},
        {.name = "--plies", .number = &plies, .min = 1,
         .max = SOLVER_MAX_PLIES},
        {.name = "--nodes", .number = &nodes, .min = 1,
         .max = 0x7fffffffffffffffL},
        {.name = "--positions", .number = &positions, .max = 10000000},
        {.name = "--threads", .number = &threads, .min = 1, .max = 4096},
        {.name = "--mb", .number = &mb, .min = 1, .max = 1 << 20},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_claim, &rc))
        return rc;
    if (!plies)
        return cli_usage_error(&cmd_claim, "%s", cmd_claim.needs);
    char folder[4200], db_dir[4096];
    snprintf(db_dir, sizeof db_dir, "%s", pos[0]);
    snprintf(folder, sizeof folder, "%s/certificates", dirname(db_dir));
    if (check_certificate_folder(certificates ? certificates : folder) != 0)
        return CLI_FAIL;
    struct store *st;
    char err[1024];
    if (store_open(pos[0], 0, &st, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab claim: %s\n", err);
        return CLI_FAIL;
    }
    char *db_copy = strdup(pos[0]);
    if (!db_copy) {
        store_close(st);
        return CLI_FAIL;
    }
    struct claim_options o = {sweep, (int)plies, (uint64_t)nodes, (size_t)mb,
                              (int)positions, (int)threads, certificates,
                              dirname(db_copy)};
    struct claim_summary s;
    rc = claim_run(st, &o, &s, err, sizeof err);
    store_close(st);
    free(db_copy);
    printf("%ld positions solved within %ld plies (%ld nodes each at most): "
           "%ld proven wins, %ld proven not, %ld unknown; %ld already stored"
           "\n", s.positions, plies, nodes, s.wins, s.no_wins, s.unknown,
           s.skipped);
    if (s.failed)
        fprintf(stderr, "rulelab claim: %ld position%s could not be solved; "
                "the first: %s\n", s.failed, s.failed == 1 ? "" : "s", err);
    else if (rc != 0)
        fprintf(stderr, "rulelab claim: %s\n", err);
    if (s.interrupted || (rc != 0 && !s.failed)) {
        fprintf(stderr, "%s: the %ld answers found are saved, %ld positions "
                "are left. To resume, run the same command again:\n "
                "rulelab claim", s.interrupted ? "interrupted" : "stopped",
                s.positions, s.left);
        for (int i = 1; i < argc; i++) {
            fputc(' ', stderr);
            slurm_print_word(stderr, argv[i]);
        }
        fprintf(stderr, "\n");
    }
    return rc != 0 || s.interrupted ? CLI_FAIL : CLI_OK;
}

const struct cli_command cmd_claim = {
    "claim", "test a forced-win claim on positions from stored games",
    "usage: rulelab claim DB --plies N [--sweep NAME] [--nodes M]\n"
    "                     [--positions K] [--threads T] [--mb X]\n"
    "                     [--certificates DIR]\n\n"
    "Takes from DB's Serbest games (of sweep NAME, or all) the last position\n"
    "of each game where the side to move still has its king in hand and may\n"
    "drop it on its highest allowed rank (Kings Landing), asks the solver\n"
    "whether the side to move forces a win within N plies there, and stores\n"
    "every answer in the claims table (with the winning line). A win's proof\n"
    "and a no-win's disproof are verified before the answer counts, kept as\n"
    "DIR/<sha256>.proof or .disproof, and the table's certificate_sha256\n"
    "and certificate columns give its hash and its file (relative to DB's\n"
    "folder). `rulelab report` then\n"
    "gives the share of proven wins with its interval. Each answer is\n"
    "stored as soon as it is found; positions already answered with the\n"
    "same bound and budget are skipped, so running the same command again\n"
    "resumes an interrupted claim. Ctrl-C (or SIGTERM) stops after the\n"
    "positions being solved, keeps every answer, says how to resume and\n"
    "exits 1.\n\n"
    "  --plies N      the bound\n"
    "  --nodes M      node budget per position (default 200000)\n"
    "  --positions K  the positions of the first K games that have one,\n"
    "                 answered before or not (default 0: every game's)\n"
    "  --threads T    solver threads (default: every core)\n"
    "  --mb X         transposition table per thread, MiB (default 64)\n"
    "  --certificates DIR  where certificates go (default: certificates/ in\n"
    "                 DB's folder)\n",
    run_claim, 1, "needs DB and --plies N"};
