/*
 * cmd_solve.c -- `rulelab solve`: can the side to move force a win within
 * N plies? It asks the df-pn solver (agents/solver.h) and prints the
 * answer with a winning line.
 *
 * A win, and a "no win", are reported as proven only after their
 * certificate (a proof, agents/proof.h, or a disproof, agents/disproof.h)
 * has been written and verified by the independent checker `rulelab
 * verify` runs.
 */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "disproof.h"
#include "proof.h"
#include "solver.h"

/* Prints "line:" and the winning line r->pv from st, in the game's
 * notation (r holds a SOLVER_WIN answer for st). */
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

/* What prove() checked: the certificate's size. */
struct checked {
    long lines; /* a proof's move lines */
    struct disproof_info dis; /* a disproof's counts */
    long bytes;
};

/* Solves st (set up under v) with options o into *r and writes the
 * answer's certificate (a proof for a win, a disproof for no win) to path
 * (a temporary file when path is NULL), then verifies it with the
 * checker `rulelab verify` runs. Returns 0 if the search answered and,
 * for a win or no win, the certificate verified; -1 after a message on
 * stderr. A file at path is removed when the answer is unknown. */
static int prove(const struct variant *v, const void *st,
                 const struct solver_options *o, const char *path,
                 struct solver_result *r, struct checked *ck)
{
    char err[1024];
    FILE *f = path ? fopen(path, "w+") : tmpfile();
    memset(ck, 0, sizeof *ck);
    if (!f) {
        perror(path ? path : "tmpfile");
        return -1;
    }
    int rc = solver_write_certificate(v, st, o, f, r, NULL, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "rulelab solve: %s\n", err);
    } else if (r->answer != SOLVER_UNKNOWN) {
        fflush(f);
        ck->bytes = ftell(f);
        rewind(f);
        if (r->answer == SOLVER_WIN) {
            struct proof_info info;
            rc = proof_verify(f, &info, err, sizeof err);
            ck->lines = info.nodes;
        } else {
            rc = disproof_verify_threads(f, omp_get_num_procs(), &ck->dis,
                                         err, sizeof err);
        }
        if (rc != 0)
            fprintf(stderr, "rulelab solve: the %s does not verify: %s\n",
                    r->answer == SOLVER_WIN ? "proof" : "disproof", err);
    }
    if (fclose(f) != 0)
        rc = -1;
    if (path && (r->answer == SOLVER_UNKNOWN || rc != 0))
        remove(path);
    return rc;
}

/* `rulelab solve` (the run contract of struct cli_command): prints the
 * question and the answer; exits CLI_FAIL when the game is over, the
 * search fails or a win's proof does not verify. */
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
    struct solver_options o = {(int)plies, (uint64_t)nodes, (size_t)mb, 0};
    struct solver_result r;
    struct checked ck;
    rc = prove(&v, st, &o, proof, &r, &ck);
    if (rc != 0 && r.answer != SOLVER_UNKNOWN) {
        printf("answer:   unknown (the search found %s, but its %s did not "
               "verify)\n", r.answer == SOLVER_WIN ? "a win" : "no win",
               r.answer == SOLVER_WIN ? "proof" : "disproof");
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
        printf("proof:    %ld lines, verified%s%s\n", ck.lines,
               proof ? ", written to " : " (not kept: use --proof FILE)",
               proof ? proof : "");
    else if (r.answer == SOLVER_NO_WIN)
        printf("disproof: %ld nodes (%ld shared, %ld links, %ld leaves), %ld "
               "bytes, verified%s%s\n", ck.dis.nodes, ck.dis.shared,
               ck.dis.refs, ck.dis.leaves, ck.bytes,
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
    "whole winning strategy), and no win only after its disproof (every\n"
    "attacker move refuted; transpositions shared up to 2^24 nodes, a\n"
    "larger one streamed as a tree) has been checked by `rulelab verify`'s\n"
    "checker.\n\n"
    "  --plies N        the bound\n"
    "  --position TEXT  the position (default: the start), then --moves\n"
    "  --nodes M        node budget (default 0: none)\n"
    "  --mb X           transposition table memory in MiB (default 256)\n"
    "  --proof FILE     keep the certificate (proof or disproof) in FILE\n",
    run_solve};
