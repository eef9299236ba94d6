/*
 * main.c -- the rulelab executable: everything is in cli_main (cli.c);
 * only main() exits, with the command's status (0, 1 or 2, cli.h).
 */
#include "cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
