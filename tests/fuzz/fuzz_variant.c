/*
 * fuzz_variant.c -- libFuzzer target: variant specs (variant_parse, and
 * the spec syntax under it: spec_split, spec_parse_args).
 *
 * Properties: a rejected spec comes with an error; an accepted one has a
 * canonical form that parses to the same variant and the same canonical
 * text (results are keyed by it), and an identity (what cells and seeds
 * are keyed by) that parses to a variant of the same identity.
 */
#include "fuzz_util.h"
#include "game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct variant v, again;
    char err[2048] = "", canon[VARIANT_TEXT_MAX], canon2[VARIANT_TEXT_MAX];
    if (variant_parse(text, &v, err, sizeof err) != 0) {
        fuzz_check(err[0] != '\0', "a rejected variant has an error");
        goto done;
    }
    int len = variant_canonical(&v, canon, sizeof canon);
    fuzz_check(len > 0, "an accepted variant has a canonical form");
    fuzz_check(variant_parse(canon, &again, err, sizeof err) == 0,
               "the canonical form parses");
    fuzz_check(again.game == v.game
                   && memcmp(again.values, v.values,
                             sizeof(int) * (size_t)v.game->n_params) == 0,
               "the canonical form is the same variant");
    fuzz_check(variant_canonical(&again, canon2, sizeof canon2) == len
                   && strcmp(canon, canon2) == 0,
               "the canonical form is stable");
    char id[VARIANT_TEXT_MAX], id2[VARIANT_TEXT_MAX];
    int id_len = variant_identity(&v, id, sizeof id);
    fuzz_check(id_len > 0, "an accepted variant has an identity");
    fuzz_check(variant_parse(id, &again, err, sizeof err) == 0,
               "the identity parses");
    fuzz_check(variant_identity(&again, id2, sizeof id2) == id_len
                   && strcmp(id, id2) == 0,
               "the identity names the variant it came from");
done:
    free(text);
    return 0;
}
