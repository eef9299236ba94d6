/*
 * openings.h -- varied openings for a sweep's games (the `openings` key of
 * a [game NAME] section, sweep.h).
 *
 *   openings = random_plies:N   N uniformly random legal moves from the
 *                               variant's start (0 <= N <= OPENINGS_MAX_PLIES)
 *   openings = safe_plies:N     the same, drawn again while the side to
 *                               move could then win with one move, so no
 *                               game is decided by the random plies (in
 *                               Jetan about a quarter of random_plies:4
 *                               openings leave a Princess to be taken)
 *   openings = FILE             one opening per line of FILE (a path
 *                               relative to the sweep file's folder)
 *   openings = none             the same as no key: every game from the start
 *
 * A line of FILE is a position text (the format of docs/rules.md#notation
 * for the section's game; a line holding '/' is read as one) or a move
 * list from the variant's start (moves separated by spaces, in the game's
 * notation).
 * Blank lines and comments (`;` or `#` first, or after a space) are skipped,
 * as in sweep files. Each line is checked against every variant of its
 * section when the sweep is read: "FILE:LINE: ..." names a position the
 * game does not accept, a word that is no move, an illegal move, an
 * opening after which the game is over, or a line too long.
 *
 * The opening of game index i depends on the sweep seed, the variant's
 * identity and i alone -- not on the agents or their seats -- so game i of
 * cell (A vs B) and game i of cell (B vs A) start from the same position:
 * a game pair (results/README.md: games.pair_id). FILE: line (i mod lines),
 * in file order. random_plies:N: drawn by a generator seeded from (sweep
 * seed, variant identity, i); when a draw ends the game (a position with
 * no move, a win, the ply cap), the draw is made again with the next
 * attempt number mixed into the seed, up to OPENINGS_MAX_ATTEMPTS times.
 * safe_plies:N draws the same way and also draws again when the side to
 * move has a move that wins at once; its first accepted draw is random_plies
 * N's whenever that one leaves no such win.
 */
#ifndef RULELAB_OPENINGS_H
#define RULELAB_OPENINGS_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define OPENINGS_MAX_PLIES 100 /* random_plies:N and a file's move lists */
#define OPENINGS_MAX_ATTEMPTS 1000 /* random draws of one game's opening */
#define OPENINGS_TEXT_MAX (OPENINGS_MAX_PLIES * 32 + 1) /* moves as text */
#define OPENINGS_POSITION_MAX 512 /* a position text */
#define OPENINGS_SETTING_MAX 600

enum openings_kind { OPENINGS_NONE = 0, OPENINGS_RANDOM, OPENINGS_FILE };

/* One line of an openings file: a position (NULL: the variant's start)
 * and moves from it ("" for none), both pointing into the file's copy. */
struct opening_line {
    char *position, *moves;
    int line;
};

struct openings {
    enum openings_kind kind;
    int plies; /* random: N */
    int safe; /* random: 1 for safe_plies:N */
    /* What results are keyed by: "random_plies:N", "safe_plies:N", or
     * "file:" and a hash of the file's openings (so an edited file makes
     * new cells, a moved one does not); "" for none. */
    char identity[64];
    /* For people: the identity's words, or "file NAME, K openings" */
    char setting[OPENINGS_SETTING_MAX];
    char path[512]; /* FILE, resolved */
    struct opening_line *lines;
    int n_lines;
    char *text; /* the file, lines cut in place */
};

/* One game's opening as played. */
struct opening_played {
    char position[OPENINGS_POSITION_MAX]; /* "" for the variant's start */
    char moves[OPENINGS_TEXT_MAX]; /* space-separated; "" for none */
    int plies; /* moves played after the position */
};

/* Reads the value of an `openings` key: random_plies:N, safe_plies:N,
 * none, or a file (relative to the folder of sweep_path unless absolute),
 * read now unless read_file is 0 (then the setting is kept but no line is
 * loaded: what a report does with a stored sweep file). Returns 0, or -1 with a message
 * ("FILE:LINE: ..." for a line of the file). */
int openings_parse(const char *value, const char *sweep_path, int read_file,
                   struct openings *o, char *err, size_t errsz);

/* Checks every line of o against variant v: the position accepted, the
 * moves legal, and the game still going after them. Returns 0, or -1 with
 * "FILE:LINE: " and what is wrong. (Nothing to check for random.) */
int openings_check(const struct openings *o, const struct variant *v,
                   char *err, size_t errsz);

void openings_free(struct openings *o);

/* Sets st to the position the agents of game `index` start from under o
 * (the variant's start when o is NULL or none) and describes it in *out.
 * variant_identity is the variant's identity (sweep.h's seed key, first
 * line). Returns 0, or -1 with a message (a loaded file line that no
 * longer fits, or no random opening found that leaves the game going). */
int openings_play(const struct openings *o, uint64_t sweep_seed,
                  const struct variant *v, const char *variant_identity,
                  int index, void *st, struct opening_played *out, char *err,
                  size_t errsz);

#endif
