/*
 * fuzz_sweep.c -- libFuzzer target: sweep files (sweep_parse on the input
 * as text: the INI reading, the checks and the expansion into cells).
 *
 * Properties: a rejected file comes with an error; every cell of an
 * accepted one has a variant text that parses and agents within range.
 */
#include "fuzz_util.h"
#include "sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct sweep s;
    char err[2048] = "";
    if (sweep_parse("fuzz.ini", text, &s, err, sizeof err) != 0) {
        fuzz_check(err[0] != '\0', "a rejected sweep has an error");
        goto done;
    }
    for (int i = 0; i < s.n_cells; i++) {
        struct variant v;
        const struct sweep_cell *c = &s.cells[i];
        fuzz_check(variant_parse(c->variant_text, &v, err, sizeof err) == 0,
                   "a cell's variant text parses");
        fuzz_check(c->agent[0] >= 0 && c->agent[0] < s.n_agents
                       && c->agent[1] >= 0 && c->agent[1] < s.n_agents,
                   "a cell's agents exist");
        (void)sweep_game_seed(&s, c, 0);
    }
    sweep_free(&s);
done:
    free(text);
    return 0;
}
