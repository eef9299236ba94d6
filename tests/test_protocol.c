/*
 * test_protocol.c -- the line protocol of docs/protocol.md: both sides'
 * parsers against good and malformed lines, the line reader against a
 * pipe (a line in many writes, many lines in one, a deadline, a line too
 * long, the end of input), and the ext agent's spec and identity.
 */
#define _DEFAULT_SOURCE /* mkstemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "ext.h"
#include "clock.h"
#include "protocol.h"

static void test_replies(void **state)
{
    (void)state;
    struct reply r;
    char err[256];
    assert_int_equal(proto_parse_reply("id name my engine 2", &r, err,
                                       sizeof err), REPLY_ID_NAME);
    assert_string_equal(r.text, "my engine 2");
    assert_int_equal(proto_parse_reply("id  version\t1.2 ", &r, err,
                                       sizeof err), REPLY_ID_VERSION);
    assert_string_equal(r.text, "1.2");
    assert_int_equal(proto_parse_reply("want legal", &r, err, sizeof err),
                     REPLY_WANT_LEGAL);
    assert_int_equal(proto_parse_reply("want colours", &r, err, sizeof err),
                     REPLY_OTHER);
    assert_int_equal(proto_parse_reply("ready 1", &r, err, sizeof err),
                     REPLY_READY);
    assert_int_equal(r.version, 1);
    assert_int_equal(proto_parse_reply("info depth 7 nodes 1234 score 0.25 "
                                       "pv a1a2", &r, err, sizeof err),
                     REPLY_INFO);
    assert_int_equal(r.depth, 7);
    assert_int_equal(r.nodes, 1234);
    assert_true(r.score == 0.25);
    assert_int_equal(proto_parse_reply("info nodes 5", &r, err, sizeof err),
                     REPLY_INFO);
    assert_int_equal(r.depth, -1); /* not given */
    assert_int_equal(proto_parse_reply("bestmove e2e4", &r, err, sizeof err),
                     REPLY_BESTMOVE);
    assert_string_equal(r.text, "e2e4");
    assert_int_equal(proto_parse_reply("", &r, err, sizeof err), REPLY_OTHER);
    assert_int_equal(proto_parse_reply("hello there", &r, err, sizeof err),
                     REPLY_OTHER);
    const char *bad[][2] = {
        {"bestmove", "expected 'bestmove MOVE'"},
        {"bestmove e2e4 ponder e7e5", "expected 'bestmove MOVE'"},
        {"ready", "expected 'ready N'"},
        {"ready one", "expected 'ready N'"},
        {"ready 0", "expected 'ready N'"},
        {"id name", "id name: expected 1 to"},
        {"info depth -1", "no whole number"},
        {"info nodes 1e3", "no whole number"},
        {"info score 1.5", "from 0 to 1"},
        {"info score nan", "from 0 to 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        if (proto_parse_reply(bad[i][0], &r, err, sizeof err) != REPLY_BAD
            || !strstr(err, bad[i][1]))
            fail_msg("'%s': kind %d, error '%s'", bad[i][0], r.kind, err);
    }
}

static void test_commands(void **state)
{
    (void)state;
    static char *words[PROTO_WORDS_MAX];
    struct command c;
    char err[256], line[512];
    strcpy(line, "rulelab 1");
    assert_int_equal(proto_parse_command(line, words, &c, err, sizeof err),
                     COMMAND_HELLO);
    assert_int_equal(c.version, 1);
    strcpy(line, "newgame tafl(first=defenders) 18446744073709551615");
    assert_int_equal(proto_parse_command(line, words, &c, err, sizeof err),
                     COMMAND_NEWGAME);
    assert_string_equal(c.variant, "tafl(first=defenders)");
    assert_true(c.seed == UINT64_MAX);
    strcpy(line, "position startpos opening a4a2 e3c3 moves d9d7");
    assert_int_equal(proto_parse_command(line, words, &c, err, sizeof err),
                     COMMAND_POSITION);
    assert_string_equal(c.position, "");
    assert_int_equal(c.n_opening, 2);
    assert_string_equal(c.opening[1], "e3c3");
    assert_int_equal(c.n_moves, 1);
    assert_string_equal(c.moves[0], "d9d7");
    strcpy(line, "position text 3aaa3/9 a 0  0 moves");
    assert_int_equal(proto_parse_command(line, words, &c, err, sizeof err),
                     COMMAND_POSITION);
    assert_string_equal(c.position, "3aaa3/9 a 0 0");
    assert_int_equal(c.n_opening + c.n_moves, 0);
    strcpy(line, "go ms 100 nodes 5000 limit 1100");
    assert_int_equal(proto_parse_command(line, words, &c, err, sizeof err),
                     COMMAND_GO);
    assert_true(c.ms == 100 && c.nodes == 5000 && c.limit == 1100);
    strcpy(line, "ponderhit");
    assert_int_equal(proto_parse_command(line, words, &c, err, sizeof err),
                     COMMAND_OTHER);
    const char *bad[][2] = {
        {"rulelab", "expected 'rulelab N'"},
        {"newgame tafl", "expected 'newgame VARIANT SEED'"},
        {"newgame tafl 18446744073709551616", "below 2^64"},
        {"newgame tafl -1", "below 2^64"},
        {"position", "expected 'position startpos'"},
        {"position fen x", "expected 'position startpos'"},
        {"position text moves a1a2", "no position"},
        {"position startpos extra", "unexpected 'extra'"},
        {"go ms", "go ms: expected a whole number"},
        {"go nodes many", "go nodes: expected a whole number"},
        {"option Hash", "expected 'option NAME VALUE'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        strcpy(line, bad[i][0]);
        if (proto_parse_command(line, words, &c, err, sizeof err)
                != COMMAND_BAD
            || !strstr(err, bad[i][1]))
            fail_msg("'%s': kind %d, error '%s'", bad[i][0], c.kind, err);
    }
}

/* A reply split over many writes, and many replies in one write, read the
 * same; a deadline with nothing to read times out; the end of input is
 * the end. */
static void test_reader(void **state)
{
    (void)state;
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    struct line_reader r;
    char *line;
    line_reader_init(&r, fd[0]);
    assert_int_equal(line_read(&r, clock_seconds() + 0.05, &line), LINE_TIMEOUT);
    assert_int_equal(write(fd[1], "bestm", 5), 5);
    assert_int_equal(line_read(&r, clock_seconds() + 0.05, &line), LINE_TIMEOUT);
    assert_int_equal(write(fd[1], "ove a1", 6), 6);
    assert_int_equal(write(fd[1], "a2\r\ninfo depth 1\nready 1\npart", 29),
                     29);
    assert_int_equal(line_read(&r, -1, &line), LINE_OK);
    assert_string_equal(line, "bestmove a1a2");
    assert_int_equal(line_read(&r, -1, &line), LINE_OK);
    assert_string_equal(line, "info depth 1");
    assert_int_equal(line_read(&r, -1, &line), LINE_OK);
    assert_string_equal(line, "ready 1");
    close(fd[1]);
    /* a last line without its end is not a line */
    assert_int_equal(line_read(&r, -1, &line), LINE_EOF);
    line_reader_free(&r);
    close(fd[0]);
}

/* A line over PROTO_LINE_MAX bytes is refused, not cut. */
static void test_reader_long_line(void **state)
{
    (void)state;
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    if (fork() == 0) {
        static char chunk[4096];
        memset(chunk, 'x', sizeof chunk);
        for (int i = 0; i <= PROTO_LINE_MAX / (int)sizeof chunk + 1; i++)
            if (write(fd[1], chunk, sizeof chunk) < 0)
                _exit(0);
        _exit(0);
    }
    close(fd[1]);
    struct line_reader r;
    char *line;
    line_reader_init(&r, fd[0]);
    assert_int_equal(line_read(&r, clock_seconds() + 10, &line), LINE_TOO_LONG);
    line_reader_free(&r);
    close(fd[0]);
}

/* ext's spec: a command and a budget are required; the identity is the
 * spec's own text (the command as written), so the same spec on two
 * machines has one identity. */
static void test_ext_spec(void **state)
{
    (void)state;
    char id[VARIANT_TEXT_MAX], err[1024];
    assert_true(agent_identity("ext(cmd=\"python3 e.py --depth 3\",ms=100)",
                               id, sizeof id, err, sizeof err) > 0);
    assert_string_equal(id, "ext(cmd=\"python3 e.py --depth 3\",grace=2000,"
                            "ms=100,nodes=0)");
    assert_int_equal(agent_identity("ext(ms=100)", id, sizeof id, err,
                                    sizeof err), -1);
    assert_non_null(strstr(err, "give the program's command"));
    assert_int_equal(agent_identity("ext(cmd=x)", id, sizeof id, err,
                                    sizeof err), -1);
    assert_non_null(strstr(err, "a budget"));
    /* a program that does not start is an error naming it */
    struct agent *a;
    assert_int_equal(agent_create("ext(cmd=\"exit 3\",ms=10)", 1, &a, err,
                                  sizeof err), -1);
    assert_non_null(strstr(err, "the program `exit 3` did not start"));
}

/* Writes text to a new temporary file; its path into path (room 64). */
static void temp_file(char *path, const char *text)
{
    strcpy(path, "/tmp/rulelab_engines_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* An engines file: an engine's identity is its name, declared version and
 * options (not its command or folder); a spec that contradicts the file is
 * refused; the file's errors name the line. */
static void test_engines_file(void **state)
{
    (void)state;
    char path[64], id[VARIANT_TEXT_MAX], err[1024];
    temp_file(path, "; two engines\n[engine e1]\ncommand = ./e1 --x\n"
                    "folder = /opt/e1\nversion = 1.5\noption Depth = 3\n"
                    "option Hash = 16\n\n[engine e2]\ncommand = e2\n");
    assert_int_equal(ext_engines_load(path, err, sizeof err), 0);
    assert_true(agent_identity("ext(engine=e1,ms=5)", id, sizeof id, err,
                               sizeof err) > 0);
    assert_string_equal(id, "ext(engine=e1,grace=2000,ms=5,nodes=0,options="
                            "\"Depth=3 Hash=16\",version=1.5)");
    assert_true(agent_identity("ext(engine=e2,nodes=9)", id, sizeof id, err,
                               sizeof err) > 0);
    assert_string_equal(id, "ext(engine=e2,grace=2000,ms=0,nodes=9)");
    assert_int_equal(agent_identity("ext(engine=e1,ms=5,version=9)", id,
                                    sizeof id, err, sizeof err), -1);
    assert_non_null(strstr(err, "the spec's version is \"9\", its engines "
                                "file's \"1.5\""));
    assert_int_equal(agent_identity("ext(engine=e1,cmd=x,ms=5)", id,
                                    sizeof id, err, sizeof err), -1);
    assert_non_null(strstr(err, "one of the two"));
    /* the same name defined otherwise in a second file is refused */
    char other[64];
    temp_file(other, "[engine e1]\ncommand = ./e1 --y\n");
    assert_int_equal(ext_engines_load(other, err, sizeof err), -1);
    assert_non_null(strstr(err, "engine e1 is defined otherwise"));
    unlink(other);
    const char *bad[][2] = {
        {"[engine e3]\nspeed = 3\n", ":2: unknown key 'speed'"},
        {"[engine a b]\n", ":1: expected [engine NAME]"},
        {"command = x\n", ":1: expected [engine NAME] or key = value"},
        {"[engine e4]\noption D = 1 2\n", ":2: an option is"},
        {"[engine e5]\nversion = 1\n", "engine e5 has no command"},
    };
    /* a line longer than the reader takes is an error, not two lines */
    static char long_line[5000];
    memset(long_line, 'x', sizeof long_line - 2);
    memcpy(long_line, "[engine e6]\ncommand = ", 22);
    long_line[sizeof long_line - 2] = '\n';
    temp_file(other, long_line);
    assert_int_equal(ext_engines_load(other, err, sizeof err), -1);
    assert_non_null(strstr(err, ":2: a line over"));
    unlink(other);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        temp_file(other, bad[i][0]);
        err[0] = '\0';
        if (ext_engines_load(other, err, sizeof err) != -1
            || !strstr(err, bad[i][1]))
            fail_msg("'%s': error '%s'", bad[i][0], err);
        unlink(other);
    }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replies),
        cmocka_unit_test(test_commands),
        cmocka_unit_test(test_reader),
        cmocka_unit_test(test_reader_long_line),
        cmocka_unit_test(test_ext_spec),
        cmocka_unit_test(test_engines_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
