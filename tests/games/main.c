/*
 * main.c -- `rulelab-testgames`: the rulelab command line with the
 * test-only games registered (nim.c), built for the tests alone; the
 * shipped `rulelab` never has them. tests/test_testgame.sh runs perft,
 * play, a sweep, its report and solve on Nim through it.
 */
#include <stdio.h>

#include "cli.h"
#include "game.h"

extern const struct game nim_game;

int main(int argc, char **argv)
{
    if (game_register(&nim_game) != 0) {
        fprintf(stderr, "rulelab-testgames: cannot register nim\n");
        return 1;
    }
    return cli_main(argc, argv);
}
