/*
 * cmd_list.c -- `rulelab list`: the games with their rule parameters
 * (default, allowed values, what each does) and the agent kinds, so that a
 * variant or an agent spec can be written without reading the code.
 */
#include <stdio.h>

#include "agent.h"
#include "cli.h"

/* `rulelab list` (the run contract of struct cli_command): every game (or
 * the one named) with its rule parameters, then, for all games, the agent
 * kinds; CLI_FAIL for an unknown game. */
static int run_list(int argc, char **argv)
{
    const struct cli_option opts[] = {
        {.name = NULL}};
    const char *pos[1];
    int npos, rc = cli_parse(argc, argv, opts, pos, 1, &npos, &cmd_list);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    const struct game *only = NULL;
    if (npos == 1 && !(only = game_find(pos[0]))) {
        fprintf(stderr, "rulelab list: unknown game '%s'\n", pos[0]);
        return CLI_FAIL;
    }
    for (int i = 0; game_list[i]; i++) {
        const struct game *g = game_list[i];
        if (only && g != only)
            continue;
        printf("%s - %s\n", g->name, g->title);
        for (int k = 0; k < g->n_params; k++) {
            const struct param_spec *p = &g->params[k];
            char def[64], allowed[256];
            param_value_text(p, p->def, def, sizeof def);
            param_allowed_text(p, allowed, sizeof allowed);
            printf("  %-20s default %-10s allowed %-22s %s\n", p->name, def,
                   allowed, p->doc);
        }
        printf("\n");
    }
    if (!only) {
        static char kinds[32768];
        if (agent_kinds_text(kinds, sizeof kinds) < 0) {
            fprintf(stderr, "rulelab list: the agents' table is too long\n");
            return CLI_FAIL;
        }
        printf("agents (rulelab play --agents SPEC0,SPEC1):\n%s", kinds);
    }
    return CLI_OK;
}

const struct cli_command cmd_list = {
    "list", "the games and their rule parameters, and the agents",
    "usage: rulelab list [GAME]\n\n"
    "Lists every game (or one) with each rule parameter: its default, the\n"
    "values it allows and what it does. A variant is written\n"
    "GAME(key=value,...), e.g. tafl(first=defenders,repetition_limit=2).\n"
    "Without GAME, also every agent kind with its parameters; an agent is\n"
    "written the same way, e.g. mcts(iterations=2000,c=1.4).\n",
    run_list, 0, NULL};
