/*
 * cmd_engine.c -- `rulelab engine --agent SPEC`: any rulelab agent served
 * over the line protocol (docs/protocol.md) on stdin and stdout, so that
 * another harness, a GUI, or rulelab's own ext agent can play it.
 *
 * The agent is made at a game's first position from the newgame's seed
 * and told, as the runner tells an agent, every move after the opening:
 * behind `ext` it plays the games it plays in process (at node budgets;
 * time budgets differ between any two runs). A position that does not
 * extend the last one starts the agent afresh on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "cli.h"
#include "protocol.h"
#include "text_buffer.h"
#include "version.h"

/* The agent being served and what it has been told. */
struct session {
    const char *spec;
    struct agent *agent; /* NULL until a game's first position */
    struct variant variant;
    int have_variant;
    uint64_t seed;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    int valid; /* st is the last position sent, and the agent knows it */
    struct text_buffer told; /* what the agent was told (told_text) */
    int told_moves; /* moves the agent has been told */
};

/* Reports a problem on stderr; the harness sees it as a bad move. */
static void complain(const char *what, const char *detail)
{
    fprintf(stderr, "rulelab engine: %s%s\n", what, detail);
}

/* Appends word and a space to t. 0 or -1 (memory). */
static int add_word(struct text_buffer *t, const char *word)
{
    return text_buffer_append(t, word) || text_buffer_append(t, " ") ? -1 : 0;
}

/* Writes into t (emptied) the words of c's start, its opening and its
 * first n moves, with a '|' after the start and after the opening: what
 * the agent has been told once it knows those moves. 0 or -1. */
static int told_text(const struct command *c, int n, struct text_buffer *t)
{
    text_buffer_truncate(t, 0);
    int fail = add_word(t, c->position[0] ? c->position : "startpos")
               || add_word(t, "|");
    for (int i = 0; i < c->n_opening; i++)
        fail |= add_word(t, c->opening[i]);
    fail |= add_word(t, "|");
    for (int i = 0; i < n; i++)
        fail |= add_word(t, c->moves[i]);
    return fail ? -1 : 0;
}

/* Whether c's position extends what the agent has been told. */
static int extends(struct session *s, const struct command *c)
{
    struct text_buffer t = {0};
    int same = s->valid && s->agent && c->n_moves >= s->told_moves
               && told_text(c, s->told_moves, &t) == 0
               && t.len == s->told.len && memcmp(t.s, s->told.s, t.len) == 0;
    free(t.s);
    return same;
}

/* Makes the agent afresh for c's start and opening. 0 or -1 (said). */
static int restart(struct session *s, const struct command *c)
{
    char err[4096], opening[16384] = "", canonical[VARIANT_TEXT_MAX];
    agent_free(s->agent);
    s->agent = NULL;
    s->told_moves = 0;
    if (game_setup(&s->variant, s->st, c->position[0] ? c->position : NULL,
                   NULL, err, sizeof err) != 0) {
        complain("bad position: ", err);
        return -1;
    }
    const struct game *g = s->variant.game;
    size_t len = 0;
    for (int i = 0; i < c->n_opening; i++) {
        move_t m;
        if (game_parse_move(g, s->st, c->opening[i], &m, err, sizeof err)) {
            complain("bad opening move: ", err);
            return -1;
        }
        g->apply(s->st, m);
        len += (size_t)snprintf(opening + len, sizeof opening - len, "%s%s",
                                i ? " " : "", c->opening[i]);
        if (len >= sizeof opening) {
            complain("opening too long", "");
            return -1;
        }
    }
    if (agent_create(s->spec, s->seed, &s->agent, err, sizeof err) != 0
        || agent_plays(s->agent, g, err, sizeof err) != 0) {
        complain("", err);
        return -1;
    }
    variant_canonical(&s->variant, canonical, sizeof canonical);
    agent_start(s->agent, g, canonical, c->position, opening);
    return told_text(c, 0, &s->told);
}

/* Brings the agent to c's position. */
static void set_position(struct session *s, const struct command *c)
{
    if (!s->have_variant) {
        complain("position before newgame", "");
        s->valid = 0;
        return;
    }
    if (!extends(s, c))
        s->valid = restart(s, c) == 0;
    const struct game *g = s->variant.game;
    for (int i = s->told_moves; s->valid && i < c->n_moves; i++) {
        move_t m;
        char err[512];
        if (game_parse_move(g, s->st, c->moves[i], &m, err, sizeof err)) {
            complain("bad move: ", err);
            s->valid = 0;
            break;
        }
        agent_observe(s->agent, g, s->st, m);
        g->apply(s->st, m);
        s->told_moves++;
        s->valid = add_word(&s->told, c->moves[i]) == 0;
    }
}

/* Answers go: the agent's move, or `bestmove none` without one. */
static void go(struct session *s)
{
    const struct game *g = s->variant.game;
    if (!s->valid || g->status(s->st).outcome != GAME_ONGOING) {
        complain("go without a position to move in", "");
        printf("bestmove none\n");
        return;
    }
    move_t m = agent_choose(s->agent, g, s->st);
    const struct agent_stats *st = &s->agent->stats;
    char text[64];
    g->move_to_text(s->st, m, text, sizeof text);
    if (st->iterations)
        printf("info depth %d nodes %llu score %.4f\n", st->depth,
               (unsigned long long)st->iterations, st->value);
    printf("bestmove %s\n", text);
}

/* Answers one command. Returns 1 at quit. */
static int answer(struct session *s, const struct command *c)
{
    char err[4096];
    switch (c->kind) {
    case COMMAND_HELLO:
        printf("id name rulelab %s\nid version %s\nready %d\n", s->spec,
               RULELAB_VERSION, PROTO_VERSION);
        break;
    case COMMAND_NEWGAME:
        s->valid = 0;
        s->have_variant = variant_parse(c->variant, &s->variant, err,
                                        sizeof err) == 0;
        if (!s->have_variant)
            complain("bad variant: ", err);
        s->seed = c->seed;
        break;
    case COMMAND_POSITION:
        set_position(s, c);
        break;
    case COMMAND_GO:
        go(s);
        break;
    case COMMAND_QUIT:
        return 1;
    default: /* options, legal moves and lines of later versions */
        break;
    }
    fflush(stdout);
    return 0;
}

/* `rulelab engine` (the run contract of struct cli_command). */
static int run_engine(int argc, char **argv)
{
    int rc;
    const char *spec = NULL;
    const struct cli_option opts[] = {{.name = "--agent", .value = &spec},
                                      {.name = NULL}};
    if (!cli_parse_exact(argc, argv, opts, NULL, &cmd_engine, &rc))
        return rc;
    char err[4096], canonical[VARIANT_TEXT_MAX];
    if (!spec)
        return cli_usage_error(&cmd_engine, "needs --agent SPEC");
    if (agent_canonical(spec, canonical, sizeof canonical, err, sizeof err) < 0)
        return cli_usage_error(&cmd_engine, "--agent: %s", err);
    struct session s = {.spec = canonical};
    struct line_reader in;
    char **words = malloc(sizeof *words * PROTO_WORDS_MAX), *line;
    if (!words) {
        fprintf(stderr, "rulelab engine: out of memory\n");
        return CLI_FAIL;
    }
    line_reader_init(&in, 0);
    for (;;) {
        enum line_status got = line_read(&in, -1, &line);
        if (got != LINE_OK) {
            if (got != LINE_EOF)
                complain("a line too long or no memory: stopping", "");
            rc = got == LINE_EOF ? CLI_OK : CLI_FAIL;
            break;
        }
        struct command c;
        if (proto_parse_command(line, words, &c, err, sizeof err)
            == COMMAND_BAD)
            complain("bad line: ", err);
        else if (answer(&s, &c))
            break;
    }
    agent_free(s.agent);
    line_reader_free(&in);
    free(words);
    free(s.told.s);
    return rc;
}

const struct cli_command cmd_engine = {
    "engine", "serve an agent over the line protocol on stdin and stdout",
    "usage: rulelab engine --agent SPEC\n\n"
    "Plays SPEC (any agent, as in `rulelab play`) for another program over\n"
    "the line protocol of docs/protocol.md: commands on stdin, replies on\n"
    "stdout, problems on stderr. It ends at `quit` or at the end of input.\n"
    "Behind rulelab's own ext agent it plays the games SPEC plays in\n"
    "process when SPEC's budget is in nodes or iterations:\n"
    "  ext(cmd=\"rulelab engine --agent 'ab(nodes=5000)'\",nodes=1)\n\n"
    "  --agent SPEC  the agent to serve, e.g. ab(nodes=5000)\n",
    run_engine, 0, NULL};
