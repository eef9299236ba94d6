/*
 * cmd_solve.c -- `rulelab solve`: can the side to move force a win within
 * N plies? It asks the df-pn solver (agents/solve/solver.h) and prints the
 * answer with a winning line.
 *
 * A win, and a "no win", are reported as proven only after their
 * certificate (a proof, agents/solve/proof.h, or a disproof,
 * agents/solve/disproof.h)
 * has been written and verified by the independent checker `rulelab
 * verify` runs.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "disproof.h"
#include "outfile.h"
#include "proof.h"
#include "shard.h"
#include "solver.h"
#include "split.h"

/* Prints "line:" and the winning line r->pv from st, in the game's
 * notation (r holds a SOLVER_WIN answer for st). */
static void print_line(const struct game *g, const void *st,
                       const struct solver_result *r)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char cur[GAME_MAX_STATE_SIZE];
    char text[32];
    game_copy_state(g, cur, st);
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
 * checker `rulelab verify` runs. The certificate is written beside path
 * and renamed onto it only once it verifies (outfile.h): path is as it was
 * when the answer is unknown or anything fails. Returns 0 if the search
 * answered and, for a win or no win, the certificate verified; -1 after a
 * message on stderr when the search could not run or a file failed
 * (r->answer then SOLVER_UNKNOWN); -2 after a message when the
 * certificate did not verify. */
static int prove(const struct variant *v, const void *st,
                 const struct solver_options *o, const char *path,
                 struct solver_result *r, struct checked *ck)
{
    char err[1024], tmp[4200];
    memset(ck, 0, sizeof *ck);
    memset(r, 0, sizeof *r);
    r->answer = SOLVER_UNKNOWN;
    if (path && outfile_temp_name(path, tmp, sizeof tmp) != 0) {
        fprintf(stderr, "rulelab solve: --proof %s: path too long\n", path);
        return -1;
    }
    FILE *f = path ? fopen(tmp, "w+") : tmpfile();
    if (!f) {
        fprintf(stderr, "rulelab solve: cannot write %s: %s\n",
                path ? tmp : "a temporary file", strerror(errno));
        return -1;
    }
    int rc = solver_write_certificate(v, st, o, f, r, NULL, err, sizeof err);
    if (rc != 0) {
        r->answer = SOLVER_UNKNOWN;
        fprintf(stderr, "rulelab solve: %s%s\n", err,
                strstr(err, "out of memory") ? " (more than this machine "
                "gives: give a smaller --mb)" : "");
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
        if (rc != 0) {
            fprintf(stderr, "rulelab solve: the %s does not verify: %s\n",
                    r->answer == SOLVER_WIN ? "proof" : "disproof", err);
            rc = -2;
        }
    }
    if (fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "rulelab solve: writing %s failed: %s\n", tmp,
                strerror(errno));
        rc = -1;
        r->answer = SOLVER_UNKNOWN;
    }
    if (!path)
        return rc;
    if (r->answer == SOLVER_UNKNOWN || rc != 0) {
        remove(tmp);
    } else if (outfile_rename_synced(tmp, path, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab solve: %s\n", err);
        r->answer = SOLVER_UNKNOWN;
        rc = -1;
    }
    return rc;
}

/* Prints what the join of the directory's parts shows (after a split):
 * the answer, and for a win its proof's line. Returns CLI_OK, or
 * CLI_FAIL after a message when a part does not verify. */
static int print_join(const char *dir, int threads, long plies)
{
    struct split_join j;
    struct split_join_options jo = {threads, 1, 0};
    char err[2400];
    if (split_join(dir, &jo, &j, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab solve: %s\n", err);
        printf("answer:   unknown (a part did not verify)\n");
        return CLI_FAIL;
    }
    if (j.answer == SOLVER_WIN)
        printf("answer:   proven win within %ld plies\nproof:    %s, "
               "verified\n", plies, j.win_file);
    else if (j.answer == SOLVER_NO_WIN)
        printf("answer:   no forced win within %ld plies (proven)\n"
               "parts:    %d of %d root moves, every part verified (%ld "
               "nodes, %ld leaves, %llu data bytes) in %s%s\n", plies,
               j.covered, j.parts, j.nodes, j.leaves,
               (unsigned long long)j.bytes, dir,
               j.journaled ? " (some by an earlier join: verified.txt)" : "");
    else
        printf("answer:   unknown until every shard is done: %d of %d root "
               "moves have a part in %s (the first without: %s); run the "
               "others, then `rulelab verify %s`\n", j.covered, j.parts, dir,
               j.missing, dir);
    return CLI_OK;
}

/* The CPU time this process has used, all threads together. */
static double cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* `rulelab solve --split DIR`: the root's moves solved one by one as the
 * parts of shard sh (or part only - 1 alone, if only > 0), on `threads`
 * threads, then the directory joined. */
static int run_split(const struct variant *v, const void *st,
                     const struct solver_options *o, const char *dir,
                     const struct shard *sh, int only, int threads)
{
    struct split_options so = {dir, sh->k, sh->n, threads, 1, only};
    struct split_outcome out;
    char err[2400];
    if (only)
        printf("split:    parts in %s, part %d alone, %d thread%s\n", dir,
               only - 1, threads, threads == 1 ? "" : "s");
    else
        printf("split:    parts in %s, shard %d/%d, %d thread%s\n", dir,
               sh->k, sh->n, threads, threads == 1 ? "" : "s");
    fflush(stdout);
    if (split_solve(v, st, o, &so, &out, err, sizeof err) != 0) {
        fprintf(stderr, "rulelab solve: %s\n", err);
        return CLI_FAIL;
    }
    printf("parts:    %d root moves, %d in this shard: %d already done, %d "
           "solved now (%d no win, %d win, %d unknown: node budget)",
           out.parts, out.mine, out.found, out.wins + out.no_wins
           + out.unknowns, out.no_wins, out.wins, out.unknowns);
    if (out.stopped)
        printf(", %d stopped by the win", out.stopped);
    printf("\n");
    if (out.mirrored)
        printf("mirror:   %d of them written as the mirror image of another "
               "(one search for both)\n", out.mirrored);
    printf("nodes:    %llu in %.2f s (%.1f s of CPU time)\n",
           (unsigned long long)out.nodes, out.seconds, cpu_seconds());
    fflush(stdout); /* before the join, which may take hours */
    if (out.unknowns > 0 && out.win_index < 0) {
        printf("answer:   unknown: %d part%s reached the node budget; run "
               "again with a larger --nodes to resume\n", out.unknowns,
               out.unknowns == 1 ? "" : "s");
        return CLI_OK;
    }
    if (out.win_index < 0 && out.present < out.parts) {
        printf("answer:   unknown until every shard is done: %d of %d root "
               "moves have a part in %s; run the others, then `rulelab "
               "verify %s`\n", out.present, out.parts, dir, dir);
        return CLI_OK;
    }
    return print_join(dir, threads, o->plies);
}

/* `rulelab solve` (the run contract of struct cli_command): prints the
 * question and the answer; exits CLI_FAIL when the game is over, the
 * search fails or a win's proof does not verify. */
static int run_solve(int argc, char **argv)
{
    const char *position = NULL, *moves = NULL, *proof = NULL, *pos[1];
    const char *split = NULL, *shard_text = NULL;
    /* 0 threads and part -1: not given (their ranges start above) */
    long plies = 0, nodes = 0, mb = 256, threads = 0, part = -1;
    int rc;
    const struct cli_option opts[] = {
        {.name = "--position", .value = &position},
        {.name = "--moves", .value = &moves},
        {.name = "--plies", .number = &plies, .min = 1,
         .max = SOLVER_MAX_PLIES},
        {.name = "--nodes", .number = &nodes, .max = 0x7fffffffffffffffL},
        {.name = "--mb", .number = &mb, .min = 1, .max = 1 << 20},
        {.name = "--proof", .value = &proof},
        {.name = "--split", .value = &split},
        {.name = "--shard", .value = &shard_text},
        {.name = "--threads", .number = &threads, .min = 1, .max = 4096},
        {.name = "--part", .number = &part, .max = GAME_MAX_MOVES - 1},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_solve, &rc))
        return rc;
    if (!plies)
        return cli_usage_error(&cmd_solve, "%s", cmd_solve.needs);
    struct shard sh = {0, 1, NULL};
    char why[512];
    if ((shard_text || threads || part >= 0) && !split)
        return cli_usage_error(&cmd_solve, "--shard, --part and --threads "
                               "split the root: they need --split DIR");
    if (shard_text && part >= 0)
        return cli_usage_error(&cmd_solve, "--part I takes one part, --shard "
                               "K/N a share of them: give one of the two");
    if (!threads)
        threads = omp_get_num_procs();
    if (split && proof)
        return cli_usage_error(&cmd_solve, "--split writes its certificates "
                               "into DIR: leave out --proof");
    if (split && plies < 2)
        return cli_usage_error(&cmd_solve, "--split needs --plies 2 or more");
    if (shard_text && shard_parse(shard_text, &sh, why, sizeof why) != 0)
        return cli_usage_error(&cmd_solve, "%s", why);
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
    struct solver_options o = {.plies = (int)plies,
                               .max_nodes = (uint64_t)nodes,
                               .max_mb = (size_t)mb};
    if (split)
        return run_split(&v, st, &o, split, &sh, (int)part + 1, (int)threads);
    if (proof && outfile_check(proof, "--proof", NULL, 0, OUTFILE_ANY, why,
                               sizeof why) != 0) {
        fprintf(stderr, "rulelab solve: %s\n", why);
        return CLI_FAIL;
    }
    struct solver_result r;
    struct checked ck;
    rc = prove(&v, st, &o, proof, &r, &ck);
    if (rc == -2) {
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
    "                     [--nodes M] [--mb X] [--proof FILE]\n"
    "       rulelab solve VARIANT --plies N [...] --split DIR\n"
    "                     [--shard K/N | --part I] [--threads T]\n\n"
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
    "  --proof FILE     keep the certificate (proof or disproof) in FILE\n\n"
    "Split by root move (for searches of hours, on threads and machines):\n"
    "  --split DIR      solve each root move on its own and keep its\n"
    "                   certificate in DIR: part-IIIII.disproof if the move\n"
    "                   forces no win, part-IIIII.proof if it wins (IIIII: its\n"
    "                   index in the move generator's order); parts already\n"
    "                   in DIR are kept (run again to resume); a win stops\n"
    "                   the rest. Once every root move has a part, the parts\n"
    "                   are joined and checked as `rulelab verify DIR` does.\n"
    "                   --nodes is then a budget per part; the threads\n"
    "                   share one table of --mb.\n"
    "  --shard K/N      only the root moves whose index is K mod N (K from 0):\n"
    "                   run shards 0/N .. N-1/N on N machines (a Slurm array)\n"
    "                   into one shared DIR, or copy their parts into one.\n"
    "                   Where the rules and the root are mirror symmetric\n"
    "                   (Serbest, tafl), a move and its mirror image are one\n"
    "                   search, by the shard of the lower index, whose\n"
    "                   certificate is mirrored for the other (and checked)\n"
    "  --part I         only root move I's part (and its mirror image's:\n"
    "                   one search writes both, as in the whole split), to\n"
    "                   solve one part of a journal again\n"
    "                   (scripts/regen_part.sh)\n"
    "  --threads T      parts solved at once (default: all cores)\n\n"
    "A disproof's bytes (a part's too) are a function of the question\n"
    "(variant, position, plies, part) and the certificate format (its line\n"
    "1: `rulelab-disproof 2`) alone, whatever --threads, --mb, --shard or\n"
    "--part: at a defender's turn the first refuting reply in the move\n"
    "generator's order, links by the position's canonical bytes.\n",
    run_solve, 1, "needs VARIANT and --plies N"};
