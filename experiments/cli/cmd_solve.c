/*
 * cmd_solve.c -- `rulelab solve` (can the side to move force a win within
 * N plies?) and `rulelab verify` (re-check a proof file from scratch).
 *
 * A win is reported as proven only after its proof certificate has been
 * written and verified by the independent checker.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "claim.h"
#include "cli.h"
#include "proof.h"
#include "solver.h"

static void print_line(const struct game *g, const void *st,
                       const struct solver_result *r)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char cur[GAME_MAX_STATE_SIZE];
    char text[32];
    memcpy(cur, st, g->state_size);
    printf("line:     ");
    for (int i = 0; i < r->pv_len; i++) {
        g->move_to_text(cur, r->pv[i], text, sizeof text);
        printf("%s%s", i ? " " : "", text);
        g->apply(cur, r->pv[i]);
    }
    printf("\n");
}

/* Writes and verifies the proof; returns 0 if it verified. */
static int prove(const struct variant *v, const void *st,
                 const struct solver_options *o, const char *path,
                 struct solver_result *r, long *lines)
{
    char err[1024];
    FILE *f = path ? fopen(path, "w+") : tmpfile();
    if (!f) {
        perror(path ? path : "tmpfile");
        return -1;
    }
    int rc = solver_write_proof(v, st, o, f, r, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "rulelab solve: %s\n", err);
    } else if (r->answer == SOLVER_WIN) {
        struct proof_info info;
        rewind(f);
        rc = proof_verify(f, &info, err, sizeof err);
        *lines = info.nodes;
        if (rc != 0)
            fprintf(stderr, "rulelab solve: the proof does not verify: %s\n",
                    err);
    }
    if (fclose(f) != 0)
        rc = -1;
    if (path && r->answer != SOLVER_WIN)
        remove(path);
    return rc;
}

static int run_solve(int argc, char **argv)
{
    const char *position = NULL, *moves = NULL, *plies_text = NULL;
    const char *nodes_text = "0", *mb_text = "256", *proof = NULL, *pos[1];
    int npos;
    const struct cli_option opts[] = {{"--position", &position, NULL},
                                      {"--moves", &moves, NULL},
                                      {"--plies", &plies_text, NULL},
                                      {"--nodes", &nodes_text, NULL},
                                      {"--mb", &mb_text, NULL},
                                      {"--proof", &proof, NULL},
                                      {NULL, NULL, NULL}};
    int rc = cli_parse(argc, argv, opts, pos, 1, &npos, &cmd_solve);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1 || !plies_text)
        return cli_usage_error(&cmd_solve, "needs VARIANT and --plies N");
    long plies, nodes, mb;
    if (cli_parse_int(plies_text, "--plies", 1, SOLVER_MAX_PLIES, &plies)
        || cli_parse_int(nodes_text, "--nodes", 0, 0x7fffffffffffffffL, &nodes)
        || cli_parse_int(mb_text, "--mb", 1, 1 << 20, &mb))
        return CLI_USAGE;
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    if (cli_setup(pos[0], position, moves, &v, st) != 0)
        return CLI_FAIL;
    const struct game *g = v.game;
    if (g->status(st).outcome != GAME_ONGOING) {
        fprintf(stderr, "rulelab solve: the game is already over\n");
        return CLI_FAIL;
    }
    char text[1024];
    variant_canonical(&v, text, sizeof text);
    printf("variant:  %s\n", text);
    g->to_text(st, text, sizeof text);
    printf("position: %s\n", text);
    int seat = g->to_move(st);
    printf("question: can %s (seat %d, to move) force a win within %ld "
           "plies?\n", g->seat_side(st, seat), seat, plies);
    struct solver_options o = {(int)plies, (uint64_t)nodes, (size_t)mb};
    struct solver_result r;
    long lines = 0;
    rc = prove(&v, st, &o, proof, &r, &lines);
    if (rc != 0 && r.answer == SOLVER_WIN) {
        printf("answer:   unknown (the search found a win, but its proof did "
               "not verify)\n");
        return CLI_FAIL;
    }
    if (rc != 0)
        return CLI_FAIL;
    if (r.answer == SOLVER_WIN) {
        printf("answer:   proven win within %ld plies\n", plies);
        print_line(g, st, &r);
    } else if (r.answer == SOLVER_NO_WIN) {
        printf("answer:   no forced win within %ld plies (proven)\n", plies);
    } else {
        printf("answer:   unknown: node budget reached (proof number %u, "
               "disproof number %u)\n", r.root_pn, r.root_dn);
    }
    printf("nodes:    %llu in %.2f s (%.0f nodes/s)\n",
           (unsigned long long)r.nodes, r.seconds,
           r.seconds > 0 ? (double)r.nodes / r.seconds : 0.0);
    if (r.answer == SOLVER_WIN)
        printf("proof:    %ld lines, verified%s%s\n", lines,
               proof ? ", written to " : " (not kept: use --proof FILE)",
               proof ? proof : "");
    return CLI_OK;
}

const struct cli_command cmd_solve = {
    "solve", "prove or refute a forced win within N plies",
    "usage: rulelab solve VARIANT --plies N [--position TEXT] [--moves LIST]\n"
    "                     [--nodes M] [--mb X] [--proof FILE]\n\n"
    "Can the side to move force a win within N plies (1..64)? Depth-first\n"
    "proof-number search over the game's own rules; draws and the ply bound\n"
    "count as not-a-win. Answers: a proven win (with a winning line), no\n"
    "forced win within N plies (proven), or unknown when the node budget\n"
    "runs out. A win is reported only after its proof certificate (the\n"
    "whole winning strategy) has been checked by `rulelab verify`'s checker.\n\n"
    "  --plies N        the bound\n"
    "  --position TEXT  the position (default: the start), then --moves\n"
    "  --nodes M        node budget (default 0: none)\n"
    "  --mb X           transposition table memory in MiB (default 256)\n"
    "  --proof FILE     keep the proof certificate in FILE\n",
    run_solve};

static int run_verify(int argc, char **argv)
{
    const char *pos[1];
    int npos;
    const struct cli_option opts[] = {{NULL, NULL, NULL}};
    int rc = cli_parse(argc, argv, opts, pos, 1, &npos, &cmd_verify);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1)
        return cli_usage_error(&cmd_verify, "needs a proof file");
    FILE *f = fopen(pos[0], "r");
    if (!f) {
        perror(pos[0]);
        return CLI_FAIL;
    }
    struct proof_info info;
    char err[1024];
    rc = proof_verify(f, &info, err, sizeof err);
    fclose(f);
    if (rc != 0) {
        printf("%s: INVALID: %s\n", pos[0], err);
        return CLI_FAIL;
    }
    printf("%s: valid: in %s from %s the side to move wins within %d plies "
           "(%ld lines)\n", pos[0], info.variant, info.position, info.plies,
           info.nodes);
    return CLI_OK;
}

const struct cli_command cmd_verify = {
    "verify", "re-check a proof certificate from scratch",
    "usage: rulelab verify PROOF\n\n"
    "Replays the winning strategy in PROOF with the game's move generator:\n"
    "every attacker move legal, every legal defender move answered, every\n"
    "leaf a win by the rules, nothing deeper than the bound. Prints valid,\n"
    "or the line where it breaks (exit 1).\n",
    run_verify};

/* ---- claim -------------------------------------------------------------- */

/* Writes " word" to f, in single quotes unless it is made of characters
 * that a shell takes literally. */
static void print_shell_word(FILE *f, const char *word)
{
    if (*word && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
                        "VWXYZ0123456789-_./=:,+@%") == strlen(word)) {
        fprintf(f, " %s", word);
        return;
    }
    fputs(" '", f);
    for (const char *p = word; *p; p++)
        if (*p == '\'')
            fputs("'\\''", f);
        else
            fputc(*p, f);
    fputc('\'', f);
}

static int run_claim(int argc, char **argv)
{
    const char *sweep = NULL, *plies_text = NULL, *nodes_text = "200000";
    const char *positions_text = "0", *threads_text = NULL, *mb_text = "64";
    const char *pos[1];
    int npos;
    const struct cli_option opts[] = {{"--sweep", &sweep, NULL},
                                      {"--plies", &plies_text, NULL},
                                      {"--nodes", &nodes_text, NULL},
                                      {"--positions", &positions_text, NULL},
                                      {"--threads", &threads_text, NULL},
                                      {"--mb", &mb_text, NULL},
                                      {NULL, NULL, NULL}};
    int rc = cli_parse(argc, argv, opts, pos, 1, &npos, &cmd_claim);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1 || !plies_text)
        return cli_usage_error(&cmd_claim, "needs DB and --plies N");
    long plies, nodes, positions, threads = omp_get_num_procs(), mb;
    if (cli_parse_int(plies_text, "--plies", 1, SOLVER_MAX_PLIES, &plies)
        || cli_parse_int(nodes_text, "--nodes", 1, 0x7fffffffffffffffL, &nodes)
        || cli_parse_int(positions_text, "--positions", 0, 10000000, &positions)
        || (threads_text
            && cli_parse_int(threads_text, "--threads", 1, 4096, &threads))
        || cli_parse_int(mb_text, "--mb", 1, 1 << 20, &mb))
        return CLI_USAGE;
    struct store *st;
    char err[1024];
    if (store_open(pos[0], 0, &st, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab claim: %s\n", err);
        return CLI_FAIL;
    }
    struct claim_options o = {sweep, (int)plies, (uint64_t)nodes, (size_t)mb,
                              (int)positions, (int)threads};
    struct claim_summary s;
    rc = claim_run(st, &o, &s, err, sizeof err);
    store_close(st);
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
        for (int i = 1; i < argc; i++)
            print_shell_word(stderr, argv[i]);
        fprintf(stderr, "\n");
    }
    return rc != 0 || s.interrupted ? CLI_FAIL : CLI_OK;
}

const struct cli_command cmd_claim = {
    "claim", "test a forced-win claim on positions from stored games",
    "usage: rulelab claim DB --plies N [--sweep NAME] [--nodes M]\n"
    "                     [--positions K] [--threads T] [--mb X]\n\n"
    "Takes from DB's Serbest games (of sweep NAME, or all) the last position\n"
    "of each game where the side to move still has its king in hand and may\n"
    "drop it on its highest allowed rank (Kings Landing), asks the solver\n"
    "whether the side to move forces a win within N plies there, and stores\n"
    "every answer in the claims table (with the winning line, and the proof\n"
    "for a win, which is verified before it counts). `rulelab report` then\n"
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
    "  --mb X         transposition table per thread, MiB (default 64)\n",
    run_claim};
