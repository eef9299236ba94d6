/*
 * cmd_verify.c -- `rulelab verify`: re-check a certificate from scratch
 * with the independent checkers (proof_verify, agents/solve/proof.h, for a win;
 * disproof_verify, agents/solve/disproof.h, for no win), which use nothing but
 * the game's own move generator and rules. The first line says which.
 */
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "disproof.h"
#include "proof.h"
#include "split.h"

/* Prints what the join j of dir shows: CLI_OK if it answers (a win or no
 * win), CLI_FAIL if root moves have no part. */
static int verify_answer(const char *dir, const struct split_join *j)
{
    if (j->answer == SOLVER_WIN) {
        printf("%s: valid: in %s from %s the side to move wins within %d "
               "plies (%s)\n", dir, j->variant, j->position, j->plies,
               j->win_file);
    } else if (j->answer == SOLVER_NO_WIN) {
        printf("%s: valid: in %s from %s the side to move has no forced win "
               "within %d plies (%d parts, one per root move: %ld nodes, %ld "
               "leaves, %llu data bytes; %d verified by an earlier run, by "
               "their SHA-256 in %s/verified.txt)\n", dir, j->variant,
               j->position, j->plies, j->covered, j->nodes, j->leaves,
               (unsigned long long)j->bytes, j->journaled, dir);
    } else {
        printf("%s: INCOMPLETE: every part verified, but %d of the root's %d "
               "moves have none (the first: %s)\n", dir, j->parts - j->covered,
               j->parts, j->missing);
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* `--journal FILE` after the join j of dir: each part FILE names in dir
 * with its SHA-256, format and counts. Prints the faults and a summary
 * line; CLI_OK if there is none, else CLI_FAIL. */
static int verify_journal(const char *dir, const char *journal,
                          const struct split_join *j)
{
    struct split_journal_check c;
    char err[1400];
    if (split_journal_check(dir, journal, j, stdout, &c, err,
                            sizeof err) != 0) {
        printf("%s: MISMATCH: %s\n", dir, err);
        return CLI_FAIL;
    }
    if (c.matched == c.named && !c.extra && !c.question) {
        printf("%s: matches %s: its %d parts, each with the journal's "
               "SHA-256\n", dir, journal, c.named);
        return CLI_OK;
    }
    printf("%s: MISMATCH against %s: of its %d parts %d match, %d missing, "
           "%d differ; %d parts not in it%s\n", dir, journal, c.named,
           c.matched, c.missing, c.differ, c.extra,
           c.question ? "; another question" : "");
    return CLI_FAIL;
}

/* `rulelab verify DIR`: the parts of a split solve joined, and checked
 * against the journal at path `journal` unless it is NULL. */
static int verify_split(const char *dir, int threads, int recheck,
                        const char *journal)
{
    struct split_join j;
    struct split_join_options jo = {threads, 1, recheck};
    char err[2400];
    if (split_join(dir, &jo, &j, err, sizeof err) != 0) {
        printf("%s: INVALID: %s\n", dir, err);
        return CLI_FAIL;
    }
    int rc = verify_answer(dir, &j);
    if (journal && verify_journal(dir, journal, &j) != CLI_OK)
        rc = CLI_FAIL;
    return rc;
}

/* `rulelab verify` (the run contract of struct cli_command): prints
 * "FILE: valid: ..." (CLI_OK) or "FILE: INVALID: line L: ..." (CLI_FAIL). */
static int run_verify(int argc, char **argv)
{
    int rc;
    const char *pos[1], *journal = NULL;
    int recheck = 0;
    long threads = omp_get_num_procs();
    const struct cli_option opts[] = {
        {.name = "--threads", .number = &threads, .min = 1, .max = 4096},
        {.name = "--recheck", .flag = &recheck},
        {.name = "--journal", .value = &journal},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_verify, &rc))
        return rc;
    struct stat sb;
    if (stat(pos[0], &sb) == 0 && S_ISDIR(sb.st_mode))
        return verify_split(pos[0], (int)threads, recheck, journal);
    if (journal)
        return cli_usage_error(&cmd_verify, "--journal FILE checks the parts "
                               "of a directory: give DIR, not a file");
    FILE *f = fopen(pos[0], "r");
    if (!f) {
        perror(pos[0]);
        return CLI_FAIL;
    }
    struct proof_info info;
    char err[1024], first[32] = "";
    if (!fgets(first, sizeof first, f) || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        printf("%s: INVALID: line 1: not a rulelab proof or disproof\n",
               pos[0]);
        return CLI_FAIL;
    }
    if (disproof_format_of(first)) {
        struct disproof_info dis;
        rc = disproof_verify_threads(f, (int)threads, &dis, err, sizeof err);
        fclose(f);
        if (rc != 0) {
            printf("%s: INVALID: %s\n", pos[0], err);
            return CLI_FAIL;
        }
        if (dis.part[0])
            printf("%s: valid part: in %s from %s the side to move's move %s "
                   "forces no win within %d plies (%ld nodes, %ld shared, %ld "
                   "links, %ld leaves, %llu data bytes); the other moves need "
                   "parts of their own (rulelab verify DIR)\n", pos[0],
                   dis.variant, dis.position, dis.part, dis.plies, dis.nodes,
                   dis.shared, dis.refs, dis.leaves,
                   (unsigned long long)dis.bytes);
        else
            printf("%s: valid: in %s from %s the side to move has no forced "
                   "win within %d plies (%ld nodes, %ld shared, %ld links, %ld "
                   "leaves, %llu data bytes)\n", pos[0], dis.variant,
                   dis.position, dis.plies, dis.nodes, dis.shared, dis.refs,
                   dis.leaves, (unsigned long long)dis.bytes);
        return CLI_OK;
    }
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
    "verify", "re-check a proof or disproof certificate from scratch",
    "usage: rulelab verify CERTIFICATE [--threads N]\n"
    "       rulelab verify DIR [--threads N] [--recheck] [--journal FILE]\n\n"
    "A proof (a win): replays the winning strategy with the game's move\n"
    "generator: every attacker move legal, every legal defender move\n"
    "answered, every leaf a win by the rules, nothing deeper than the bound.\n"
    "A disproof (no win within N plies): every legal attacker move refuted,\n"
    "every defender reply legal and not losing, no attacker move at a leaf\n"
    "winning at once, every bound and transposition link covering its need;\n"
    "read as a stream, in memory bounded by the bound and the shared nodes.\n"
    "Prints valid, or where it breaks (a proof's line; a disproof's node,\n"
    "its line of moves and byte) and exits 1.\n\n"
    "A directory of a split solve (`rulelab solve --split DIR`): every part\n"
    "checked as above, all of one question, and the disproof parts naming\n"
    "every legal root move once; a proof among them shows a win. Prints\n"
    "valid, INVALID (the file and where it breaks) or INCOMPLETE (root\n"
    "moves without a part; exits 1). A single part prints \"valid part\".\n"
    "Each disproof part that verifies is noted in DIR/verified.txt with its\n"
    "file's SHA-256, and a later run takes a part with that SHA-256 without\n"
    "checking it again, so a join of hours resumes; progress goes to stderr.\n\n"
    "  --threads N  threads checking a disproof's leaves, where its every\n"
    "               attacker move is played (default: all cores); the\n"
    "               answer and the message do not depend on it\n"
    "  --recheck    (DIR) check every part, DIR/verified.txt notwithstanding\n"
    "  --journal FILE  (DIR) then check DIR against FILE, another split's\n"
    "               verified.txt (such as experiments/proofs/*.verified.txt):\n"
    "               each part FILE names must be in DIR, verify, and have\n"
    "               FILE's SHA-256 (and its format and counts), DIR may hold\n"
    "               no disproof part FILE omits, nor another question's.\n"
    "               Prints a line per mismatch (\"DIR/part-IIIII.disproof:\n"
    "               MISMATCH: SHA-256 X, the journal's is Y\") and exits 1.\n\n"
    "DIR/verified.txt opens with the question (variant, position, plies),\n"
    "and states the parts' certificate format (disproof.h: 2, whose bytes\n"
    "are the question's alone; 1, a build's) and the commit of the build\n"
    "that verified them (`# format N`, `# build X` lines); journals of\n"
    "builds before 2026-12-05 have neither. scripts/regen_part.sh solves a\n"
    "journal's part again and compares its SHA-256.\n",
    run_verify, 1, "needs a proof file"};
