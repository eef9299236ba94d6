/*
 * fuzz_moves.c -- libFuzzer target: a move list played from the start
 * position or a given one. The input's first line is a variant spec
 * ("tafl", "serbest(kings_landing=7)"); then, optionally, a line
 * "position TEXT" (as `--position` takes it); the rest is the move list as
 * `--moves` takes it (moves separated by spaces, tabs or commas; newlines
 * are turned into spaces). game_setup parses and plays it.
 *
 * Properties: a rejected list comes with an error; after an accepted one
 * the state is consistent (state_ok) and its text reads back unchanged.
 */
#include "fuzz_util.h"
#include "game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *moves = strchr(text, '\n'), *position = NULL;
    if (moves)
        *moves++ = '\0';
    if (moves && strncmp(moves, "position ", 9) == 0) {
        position = moves + 9;
        moves = strchr(position, '\n');
        if (moves)
            *moves++ = '\0';
    }
    for (char *p = moves; p && *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    struct variant v;
    char err[1024] = "", out[2048], out2[2048];
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char again[GAME_MAX_STATE_SIZE];
    if (variant_parse(text, &v, err, sizeof err) != 0)
        goto done;
    const struct game *g = v.game;
    if (game_setup(&v, st, position, moves, err, sizeof err) != 0) {
        fuzz_check(err[0] != '\0', "a rejected move list has an error");
        goto done;
    }
    fuzz_check(g->state_ok(st), "state_ok after the moves");
    int len = g->to_text(st, out, sizeof out);
    fuzz_check(len > 0, "the position after the moves can be written");
    fuzz_check(g->from_text(again, &v, out, err, sizeof err) == 0,
               "the position after the moves reads back");
    fuzz_check(g->to_text(again, out2, sizeof out2) == len
                   && strcmp(out, out2) == 0,
               "the position after the moves reads back as the same text");
done:
    free(text);
    return 0;
}
