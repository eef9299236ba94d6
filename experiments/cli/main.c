/* main.c -- the rulelab executable: everything is in cli_main. */
#include "cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
