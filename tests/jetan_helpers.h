/*
 * jetan_helpers.h -- small helpers the Jetan suites share: build a position
 * from a list of pieces, play moves by their text, list a piece's
 * destinations. Header-only (static) so each suite stays one file plus
 * this.
 */
#ifndef RULELAB_JETAN_HELPERS_H
#define RULELAB_JETAN_HELPERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jetan.h"

/* Reads a square like "e5" or "a10" at p into file and rank; returns its
 * length (2 or 3), or 0 if it is none. */
static inline int read_square(const char *p, int *file, int *rank)
{
    if (p[0] < 'a' || p[0] > 'j' || p[1] < '1' || p[1] > '9')
        return 0;
    *file = p[0] - 'a';
    if (p[1] == '1' && p[2] == '0') {
        *rank = 9;
        return 3;
    }
    *rank = p[1] - '1';
    return 2;
}

/* Builds position text from "C:e1 p:e10 N:b2 ..." (letters as in the
 * position text) and the fields after the board, e.g. "b Pp". */
static inline void jetan_fen(const char *pieces, const char *fields,
                             char *out)
{
    char board[10][10];
    memset(board, 0, sizeof board);
    for (const char *p = pieces; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        int file, rank, len = read_square(p + 2, &file, &rank);
        if (p[1] != ':' || !len) {
            fprintf(stderr, "jetan_fen: bad piece '%s'\n", p);
            abort();
        }
        board[rank][file] = p[0];
        p += 2 + len;
    }
    int len = 0;
    for (int r = 9; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 10; f++) {
            if (!board[r][f]) {
                empty++;
                continue;
            }
            if (empty)
                len += sprintf(out + len, "%d", empty), empty = 0;
            out[len++] = board[r][f];
        }
        if (empty)
            len += sprintf(out + len, "%d", empty);
        if (r)
            out[len++] = '/';
    }
    sprintf(out + len, " %s", fields);
}

/* Sets up st from variant text, pieces and fields; fails the test on an
 * error. */
static inline void jetan_setup(struct jetan_state *st, const char *variant,
                               const char *pieces, const char *fields)
{
    struct variant v;
    char fen[160], err[256] = "";
    jetan_fen(pieces, fields, fen);
    if (variant_parse(variant, &v, err, sizeof err) != 0
        || jetan_game.from_text(st, &v, fen, err, sizeof err) != 0)
        fail_msg("setup %s [%s]: %s", variant, fen, err);
    assert_true(jetan_game.state_ok(st));
}

static inline int is_legal(const struct jetan_state *st, const char *text)
{
    move_t m;
    return game_parse_move(&jetan_game, st, text, &m, NULL, 0) == 0;
}

/* Plays a space-separated list of moves; fails the test on an illegal one. */
static inline void play(struct jetan_state *st, const char *moves)
{
    char buf[512], err[256];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        move_t m;
        if (game_parse_move(&jetan_game, st, tok, &m, err, sizeof err) != 0)
            fail_msg("playing %s: %s", tok, err);
        jetan_game.apply(st, m);
        assert_true(jetan_game.state_ok(st));
    }
}

static inline char at(const struct jetan_state *st, const char *sq)
{
    int file = 0, rank = 0;
    assert_true(read_square(sq, &file, &rank) > 0);
    return jetan_game.piece_at(st, file, rank);
}

static inline int count_moves(const struct jetan_state *st)
{
    move_t buf[GAME_MAX_MOVES];
    return jetan_game.legal_moves(st, buf);
}

static inline int jetan_cmp_words(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorts the space-separated words of text in place (strcmp order). */
static inline void sort_words(char *text)
{
    char copy[2048], *words[512];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", text);
    for (char *w = strtok(copy, " "); w && n < 512; w = strtok(NULL, " "))
        words[n++] = w;
    qsort(words, (size_t)n, sizeof *words, jetan_cmp_words);
    int len = 0;
    text[0] = '\0';
    for (int i = 0; i < n; i++)
        len += sprintf(text + len, "%s%s", i ? " " : "", words[i]);
}

/* The destinations of the legal moves from square `from` (escapes apart:
 * only escapes if `escapes`, else only normal moves), sorted, as
 * "d4 e6 ..."; returns how many. */
static inline int destinations(const struct jetan_state *st, const char *from,
                               int escapes, char *out)
{
    move_t moves[GAME_MAX_MOVES];
    int n = jetan_game.legal_moves(st, moves), count = 0, len = 0;
    size_t flen = strlen(from);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        char text[16];
        jetan_game.move_to_text(st, moves[i], text, sizeof text);
        if (strncmp(text, from, flen) != 0
            || (text[flen] >= '0' && text[flen] <= '9'))
            continue;
        int is_escape = text[flen] == '^';
        if (is_escape != escapes)
            continue;
        len += sprintf(out + len, "%s%s", count ? " " : "",
                       text + flen + is_escape);
        count++;
    }
    sort_words(out);
    return count;
}

/* Checks the destinations from `from` equal the words of `expected`
 * (any order). */
static inline void expect_destinations(const struct jetan_state *st,
                                       const char *from, const char *expected)
{
    char got[2048], want[2048];
    destinations(st, from, 0, got);
    snprintf(want, sizeof want, "%s", expected);
    sort_words(want);
    if (strcmp(got, want) != 0)
        fail_msg("moves from %s: got '%s', expected '%s'", from, got, want);
}

/* The corners for the royal pieces not under test, Black to move first. */
#define CORNERS_BLACK_FIRST "C:a1 P:j1 c:a10 p:j10"

/* Fails unless st's status is outcome for reason; an ended game has no
 * legal move. (With cmocka included before this header.) */
static inline void expect_status(const struct jetan_state *st,
                                 enum game_outcome outcome,
                                 enum end_reason reason)
{
    struct game_status s = jetan_game.status(st);
    if (s.outcome != outcome || s.reason != reason)
        fail_msg("status %s (%s), expected %s (%s)",
                 game_outcome_name(s.outcome), end_reason_name(s.reason),
                 game_outcome_name(outcome), end_reason_name(reason));
    if (outcome != GAME_ONGOING)
        assert_int_equal(count_moves(st), 0);
}

#endif
