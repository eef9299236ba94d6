/*
 * cmd_verify.c -- `rulelab verify`: re-check a proof certificate from
 * scratch with the independent checker (proof_verify, agents/proof.h),
 * which uses nothing but the game's own move generator and rules.
 */
#include <stdio.h>

#include "cli.h"
#include "proof.h"

/* `rulelab verify` (the run contract of struct cli_command): prints
 * "FILE: valid: ..." (CLI_OK) or "FILE: INVALID: line L: ..." (CLI_FAIL). */
static int run_verify(int argc, char **argv)
{
    const char *pos[1];
    const struct cli_option opts[] = {{NULL, NULL, NULL}};
    int rc;
    if (!cli_parse_exact(argc, argv, opts, pos, 1, &cmd_verify,
                         "needs a proof file", &rc))
        return rc;
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
