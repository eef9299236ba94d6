/*
 * cmd_play.c -- `rulelab play`: one game between two agents, or between a
 * person at the terminal and an agent, printed move by move.
 *
 * The person is not an agent kind (agents know nothing of terminals): the
 * spec `human` makes this command read that seat's moves from stdin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "cli.h"
#include "ext.h"
#include "rng.h"

#define HUMAN NULL /* a seat whose agent is NULL is played from stdin */

/* Splits "a(x=1,y=2),b" at the comma outside parentheses and double
 * quotes into two specs. Returns 0, -1 when text is not two specs, or -2
 * when one is longer than n - 1 bytes. */
static int split_agents(const char *text, char *first, char *second,
                        size_t n)
{
    int depth = 0, quoted = 0;
    for (const char *c = text; *c; c++) {
        if (quoted && *c == '\\' && c[1]) {
            c++; /* an escaped byte inside quotes */
            continue;
        }
        quoted ^= *c == '"';
        if (quoted)
            continue;
        depth += (*c == '(') - (*c == ')');
        if (*c == ',' && depth == 0) {
            size_t len = (size_t)(c - text);
            if (len >= n || strlen(c + 1) >= n)
                return -2;
            memcpy(first, text, len);
            first[len] = '\0';
            strcpy(second, c + 1);
            return strchr(second, ',') && !strchr(second, '(') ? -1 : 0;
        }
    }
    return -1;
}

#define HUMAN_LINE_MAX 255 /* bytes of a person's line, newline apart */

/* Reads one whole line of stdin (any length) into line (n bytes), without
 * its line end. Returns 1 for a line that fits, 0 for one longer than
 * n - 1 bytes (read to its end and dropped: never taken in pieces), or -1
 * at end of input. */
static int read_whole_line(char *line, size_t n)
{
    size_t len = 0;
    int c, long_line = 0;
    while ((c = getchar()) != EOF && c != '\n') {
        if (len + 1 < n)
            line[len++] = (char)c;
        else
            long_line = 1;
    }
    if (c == EOF && len == 0 && !long_line)
        return -1;
    line[len] = '\0';
    line[strcspn(line, "\r")] = '\0';
    return long_line ? 0 : 1;
}

/* Reads a legal move for the person to move. Returns 0, or -1 at end of
 * input or on "quit". A line over HUMAN_LINE_MAX bytes is an error said
 * to the person, who is asked again. */
static int read_human_move(const struct game *g, const void *st, move_t *m)
{
    char line[HUMAN_LINE_MAX + 1], err[256];
    for (;;) {
        printf("your move as %s (or 'moves', 'quit'): ",
               g->seat_side(st, g->to_move(st)));
        fflush(stdout);
        int got = read_whole_line(line, sizeof line);
        if (got < 0)
            return -1;
        if (got == 0) {
            printf("that line is longer than %d characters: type one move, "
                   "e.g. one from 'moves'\n", HUMAN_LINE_MAX);
            continue;
        }
        char *text = line + strspn(line, " \t");
        if (strcmp(text, "quit") == 0)
            return -1;
        if (strcmp(text, "moves") == 0 || strcmp(text, "?") == 0) {
            cli_print_legal_moves(g, st);
            continue;
        }
        if (*text && game_parse_move(g, st, text, m, err, sizeof err) == 0)
            return 0;
        printf("%s\n", *text ? err : "type a move, e.g. one from 'moves'");
    }
}

/* Prints the last search's statistics of agent a (for --show); nothing
 * for an agent that does not search. */
static void print_stats(const struct agent *a)
{
    const struct agent_stats *s = &a->stats;
    if (!s->iterations)
        return;
    printf("    %llu iterations, %u nodes, depth %d, value %.3f%s%s\n",
           (unsigned long long)s->iterations, s->nodes, s->depth, s->value,
           s->proven > 0 ? ", proven win" : s->proven < 0 ? ", proven loss" : "",
           s->hit_cap ? ", node pool full" : "");
}

/* Plays the game out; returns CLI_OK, or CLI_FAIL if a person quit. */
static int play_game(const struct game *g, void *st, struct agent *seats[2],
                     int show)
{
    char text[VARIANT_TEXT_MAX];
    for (int ply = 1; g->status(st).outcome == GAME_ONGOING; ply++) {
        int seat = g->to_move(st);
        move_t m;
        if (seats[seat] == HUMAN) {
            if (show || ply == 1)
                cli_draw_board(g, st);
            if (read_human_move(g, st, &m) != 0) {
                printf("game abandoned\n");
                return CLI_FAIL;
            }
        } else {
            m = agent_choose(seats[seat], g, st);
            if (seats[seat]->stats.forfeit) {
                printf("result: seat %d wins by %s of seat %d (%s)\n",
                       1 - seat, end_reason_name(seats[seat]->stats.forfeit),
                       seat, seats[seat]->spec);
                return CLI_OK;
            }
        }
        g->move_to_text(st, m, text, sizeof text);
        printf("%3d. seat %d (%s): %s\n", ply, seat, g->seat_side(st, seat),
               text);
        if (show && seats[seat] != HUMAN)
            print_stats(seats[seat]);
        for (int i = 0; i < 2; i++)
            if (seats[i] != HUMAN)
                agent_observe(seats[i], g, st, m);
        g->apply(st, m);
        if (show)
            cli_draw_board(g, st);
    }
    struct game_status s = g->status(st);
    printf("result: %s by %s", game_outcome_name(s.outcome),
           end_reason_name(s.reason));
    if (s.outcome == GAME_WIN_SEAT0 || s.outcome == GAME_WIN_SEAT1) {
        int w = s.outcome == GAME_WIN_SEAT0 ? 0 : 1;
        printf(" (%s, %s)", g->seat_side(st, w),
               seats[w] == HUMAN ? "human" : seats[w]->spec);
    }
    printf("\n");
    return CLI_OK;
}

/* game_move_seen for --moves: both seats' agents are told each move. */
static void tell_seats(void *arg, const struct game *g, const void *st,
                       move_t m)
{
    struct agent **seats = arg;
    for (int i = 0; i < 2; i++)
        if (seats[i] != HUMAN)
            agent_observe(seats[i], g, st, m);
}

/* `rulelab play` (the run contract of struct cli_command): sets up the
 * two seats and plays the game out; CLI_FAIL when an agent spec or the
 * position is wrong, or a person quits. */
static int run_play(int argc, char **argv)
{
    const char *agents_text = NULL, *position = NULL, *moves = NULL, *pos[1];
    const char *engines = NULL;
    long seed = 1;
    int show = 0, rc;
    const struct cli_option opts[] = {
        {.name = "--agents", .value = &agents_text},
        {.name = "--seed", .number = &seed, .max = 0x7fffffffL},
        {.name = "--position", .value = &position},
        {.name = "--moves", .value = &moves},
        {.name = "--show", .flag = &show},
        {.name = "--engines", .value = &engines},
        {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, pos, &cmd_play, &rc))
        return rc;
    char why[4096];
    if (engines && ext_engines_load(engines, why, sizeof why) != 0)
        return cli_usage_error(&cmd_play, "--engines: %s", why);
    if (!agents_text)
        return cli_usage_error(&cmd_play, "%s", cmd_play.needs);
    char specs[2][VARIANT_TEXT_MAX];
    int split = split_agents(agents_text, specs[0], specs[1], sizeof specs[0]);
    if (split == -2)
        return cli_usage_error(&cmd_play, "--agents: a spec is longer than "
                               "%zu characters", sizeof specs[0] - 1);
    if (split != 0)
        return cli_usage_error(&cmd_play, "--agents needs two specs separated "
                               "by a comma, e.g. random,mcts(iterations=500)");
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    if (cli_setup(pos[0], position, moves, &v, st) != 0)
        return CLI_FAIL;
    struct agent *seats[2] = {HUMAN, HUMAN};
    for (int i = 0; i < 2; i++) {
        char err[4096];
        uint64_t x = (uint64_t)seed * 2 + (uint64_t)i;
        if (strcmp(specs[i], "human") == 0)
            continue;
        if (agent_create(specs[i], rng_splitmix64(&x), &seats[i], err,
                         sizeof err) != 0
            || agent_plays(seats[i], v.game, err, sizeof err) != 0) {
            fprintf(stderr, "rulelab play: seat %d: %s\n", i, err);
            agent_free(seats[0]);
            agent_free(seats[1]);
            return CLI_FAIL;
        }
    }
    char canonical[VARIANT_TEXT_MAX];
    variant_canonical(&v, canonical, sizeof canonical);
    for (int i = 0; i < 2; i++)
        if (seats[i] != HUMAN)
            agent_start(seats[i], v.game, canonical, position ? position : "",
                        "");
    /* the agents are told the --moves that led here (an agent that keeps
     * the game's history, as ab with repdraw, needs them) */
    char err[512];
    if (moves && game_setup_told(&v, st, position, moves, tell_seats, seats,
                                 err, sizeof err) != 0) {
        fprintf(stderr, "rulelab play: %s\n", err); /* checked above */
        agent_free(seats[0]);
        agent_free(seats[1]);
        return CLI_FAIL;
    }
    printf("variant: %s\n", canonical);
    for (int i = 0; i < 2; i++)
        printf("seat %d (%s): %s\n", i, v.game->seat_side(st, i),
               seats[i] ? seats[i]->spec : "human");
    rc = play_game(v.game, st, seats, show);
    agent_free(seats[0]);
    agent_free(seats[1]);
    ext_shutdown();
    return rc;
}

const struct cli_command cmd_play = {
    "play", "play one game between two agents (or you and an agent)",
    "usage: rulelab play VARIANT --agents SPEC0,SPEC1 [--seed N] [--show]\n"
    "                    [--position TEXT] [--moves \"m1 m2 ...\"]\n"
    "                    [--engines FILE]\n\n"
    "Plays one game of VARIANT; seat 0 (SPEC0) moves first. Prints every\n"
    "move in the game's notation and the result with its reason.\n\n"
    "  --agents A,B     agent specs, e.g. random,mcts(iterations=2000,c=1.4);\n"
    "                   `human` plays a seat from the terminal ('moves' lists\n"
    "                   the legal moves); `rulelab list` shows every agent\n"
    "  --seed N         seed of both agents (default 1): same seed, same game\n"
    "  --show           the board after each move and the search statistics\n"
    "  --position TEXT  start from this position instead\n"
    "  --moves LIST     play these moves first\n"
    "  --engines FILE   the engines file that names the programs of\n"
    "                   ext(engine=NAME) agents (docs/protocol.md)\n",
    run_play, 1, "needs VARIANT and --agents SPEC0,SPEC1"};
