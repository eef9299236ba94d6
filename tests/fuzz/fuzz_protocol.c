/*
 * fuzz_protocol.c -- libFuzzer target: lines of the outside-program
 * protocol (agents/protocol.h), both sides' parsers, and the line reader.
 *
 * The input is written into a pipe and read back line by line, each line
 * parsed as an engine's reply and as the harness's command. Properties: a
 * line holds no '\n' and no more than PROTO_LINE_MAX bytes; a malformed
 * known line comes with an error; a bestmove's move is one word; a
 * position's words lie inside the line; go's budget is never negative.
 */
#include <unistd.h>

#include "fuzz_util.h"
#include "protocol.h"

static char *words[PROTO_WORDS_MAX];

static void check_line(char *line)
{
    char err[512] = "";
    struct reply r;
    fuzz_check(!strchr(line, '\n') && strlen(line) <= PROTO_LINE_MAX,
               "a line is one line");
    enum reply_kind k = proto_parse_reply(line, &r, err, sizeof err);
    fuzz_check(k != REPLY_BAD || err[0], "a bad reply has an error");
    fuzz_check(k != REPLY_BESTMOVE || (r.text[0] && !strchr(r.text, ' ')),
               "a move is one word");
    size_t len = strlen(line);
    struct command c;
    err[0] = '\0';
    enum command_kind ck = proto_parse_command(line, words, &c, err,
                                               sizeof err);
    fuzz_check(ck != COMMAND_BAD || err[0], "a bad command has an error");
    for (int i = 0; ck == COMMAND_POSITION && i < c.n_moves; i++)
        fuzz_check(c.moves[i] >= line && c.moves[i] < line + len
                       && c.moves[i][0],
                   "a position's moves are words of the line");
    fuzz_check(ck != COMMAND_GO || (c.ms >= 0 && c.nodes >= 0
                                    && c.limit >= 0),
               "a budget is not negative");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd[2];
    if (size > 65536 || pipe(fd) != 0)
        return 0;
    if (write(fd[1], data, size) != (ssize_t)size) { /* fits the pipe */
        close(fd[0]);
        close(fd[1]);
        return 0;
    }
    close(fd[1]);
    struct line_reader r;
    char *line;
    line_reader_init(&r, fd[0]);
    while (line_read(&r, -1, &line) == LINE_OK)
        check_line(line);
    line_reader_free(&r);
    close(fd[0]);
    return 0;
}
