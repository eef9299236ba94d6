/*
 * test_proof_files.c -- the solver's proof files (agents/solve/proof.h) under
 * attack: proofs the solver writes for a win in 3 and one in 5 of every
 * game, then tampered with (a defender's reply deleted with its subtree,
 * a reply repeated, a leaf that does not win, an attacker's move changed,
 * the bound or the position in the header changed, ...) are rejected
 * with a message naming the broken line; and malformed files (junk after
 * a move or a number, header lines repeated or out of order, long lines,
 * NUL bytes, text after 'end', CRLF line ends) are rejected, or read, as
 * the format says. Every file starts from one check_proof accepted
 * (solver_helpers.h), so each edit is the only thing wrong with it.
 */
#include "notation.h"
#include "solver_helpers.h"

/* Whether an error message names line `line` ("line 7", "Line 7",
 * "proof:7:"): the number stands alone after "line" or a colon. */
static int mentions_line(const char *err, int line)
{
    char num[16];
    int k = snprintf(num, sizeof num, "%d", line);
    for (const char *p = strstr(err, num); p; p = strstr(p + 1, num)) {
        if ((p > err && p[-1] >= '0' && p[-1] <= '9')
            || (p[k] >= '0' && p[k] <= '9'))
            continue;
        const char *q = p;
        while (q > err && q[-1] == ' ')
            q--;
        if (q > err && q[-1] == ':')
            return 1;
        if (q - err >= 4) {
            char w[5];
            for (int i = 0; i < 4; i++)
                w[i] = (char)(q[i - 4] | 0x20);
            w[4] = '\0';
            if (strcmp(w, "line") == 0)
                return 1;
        }
    }
    return 0;
}

/* Expects proof_verify to reject f with a message naming line a or b. */
static void expect_rejected(FILE *f, int a, int b, const char *what,
                            const char *tamper)
{
    struct proof_info info;
    char err[1024] = "";
    int rc = proof_verify(f, &info, err, sizeof err);
    fclose(f);
    if (rc != -1)
        fail_msg("%s: proof_verify accepted a proof with %s", what, tamper);
    if (!mentions_line(err, a) && !mentions_line(err, b))
        fail_msg("%s: %s: the message \"%s\" names neither line %d nor %d",
                 what, tamper, err, a, b);
}

/* ---- tampered proofs -------------------------------------------------- */

/* The entry's ancestors' moves replayed from the root: the position
 * where entry k's move is played. */
static void position_at(const struct game *g, const void *root,
                        const struct tree *t, int k, void *out)
{
    int path[SOLVER_MAX_PLIES], depth = 0;
    for (int j = k - 1, want = t->ply[k] - 1; want >= 1 && j >= 0; j--)
        if (t->ply[j] == want) {
            path[depth++] = j;
            want--;
        }
    memcpy(out, root, g->state_size);
    for (int d = depth - 1; d >= 0; d--) {
        move_t m;
        char err[128];
        assert_int_equal(game_parse_move(g, out, t->move[path[d]], &m, err,
                                         sizeof err), 0);
        g->apply(out, m);
    }
}

static int last_entry_with_ply(const struct tree *t, int ply)
{
    for (int k = t->n - 1; k >= 0; k--)
        if (t->ply[k] == ply)
            return k;
    fail_msg("no proof line with ply %d", ply);
    return -1;
}

static int parent_entry(const struct tree *t, int k)
{
    for (int j = k - 1; j >= 0; j--)
        if (t->ply[j] == t->ply[k] - 1)
            return j;
    return -1;
}

/* The positions whose proofs are tampered with (a win in 3 and one in 5
 * of every game, from the table above). */
static const struct position tamper[] = {
    {"tafl", "4a4/9/9/a7a/9/9/9/4k4/9 d", 3},
    {"tafl", "9/8a/6a1k/a4a3/8a/3a5/8d/9/9 a", 5},
    {"serbest", "10/10/4K4k/10/10/10/10/10/10/10[] w", 3},
    {"serbest", "10/10/10/4K4k/10/10/10/10/10/10[] w", 5},
    {"jetan", "c8p/10/10/10/5C4/10/10/10/10/P9 b -", 3},
    {"jetan", "c8p/10/10/10/10/10/10/2C7/10/P9 b -", 5},
};

static void test_tampered_proofs(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(tamper); i++) {
        const struct position *p = &tamper[i];
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        _Alignas(GAME_STATE_ALIGN) unsigned char at[GAME_MAX_STATE_SIZE];
        _Alignas(GAME_STATE_ALIGN) unsigned char after[GAME_MAX_STATE_SIZE];
        char what[600], line[128], err[128];
        setup(p, &v, st);
        const struct game *g = v.game;
        int N = p->plies, attacker = g->to_move(st);
        snprintf(what, sizeof what, "%s %s", p->variant, p->text);
        struct proof pr;
        struct tree t;
        check_proof(&v, st, N, what, &pr);
        assert_int_equal(tree_parse(&pr, &t), 0);
#define LINE(k) (t.line0 + (k) + 1) /* the file's line number of entry k */

        /* 1. a defender's reply deleted with its subtree: the last reply
         * at ply N - 1, the last child of its parent, so the line that
         * takes its place is the parent's next sibling or "end". The
         * break is at the parent (replies incomplete) or right there. */
        {
            int k = last_entry_with_ply(&t, N - 1), e = k + 1;
            while (e < t.n && t.ply[e] > N - 1)
                e++;
            int from = t.line0 + k, to = t.line0 + e;
            FILE *f = proof_write(&pr, from, to, -1, NULL);
            expect_rejected(f, LINE(parent_entry(&t, k)), LINE(k), what,
                            "a defender reply deleted");
        }

        /* 2. an attacker's move changed to an illegal one: the last at ply
         * 3 (a leaf in a win in 3, inner in a win in 5) */
        {
            int k = last_entry_with_ply(&t, 3);
            position_at(g, st, &t, k, at);
            int found = 0;
            for (int a = 0; a < g->board_files * g->board_ranks && !found; a++)
                for (int b = 0; b < g->board_files * g->board_ranks && !found; b++) {
                    move_t m;
                    if (a == b)
                        continue;
                    char *s = line + snprintf(line, sizeof line, "%d ", 3);
                    s += notation_square_text(a % g->board_files, a / g->board_files, s);
                    notation_square_text(b % g->board_files, b / g->board_files, s);
                    const char *mtext = strchr(line, ' ') + 1;
                    if (g->move_from_text(at, mtext, &m) == 0
                        && game_parse_move(g, at, mtext, &m, err, sizeof err) != 0)
                        found = 1;
                }
            assert_true(found);
            FILE *f = proof_write(&pr, 0, 0, t.line0 + k, line);
            expect_rejected(f, LINE(k), LINE(k), what,
                            "an attacker move made illegal");
        }

        /* 3. a leaf changed to a legal move that does not win */
        {
            int k = last_entry_with_ply(&t, N);
            move_t moves[GAME_MAX_MOVES];
            position_at(g, st, &t, k, at);
            int n = g->legal_moves(at, moves), found = 0;
            for (int j = 0; j < n && !found; j++) {
                memcpy(after, at, g->state_size);
                g->apply(after, moves[j]);
                if (g->status(after).outcome != win_of(attacker)) {
                    int len = snprintf(line, sizeof line, "%d ", N);
                    move_text(g, at, moves[j], line + len, sizeof line - (size_t)len);
                    found = 1;
                }
            }
            assert_true(found);
            FILE *f = proof_write(&pr, 0, 0, t.line0 + k, line);
            expect_rejected(f, LINE(k), LINE(k), what,
                            "a leaf that does not win");
        }

        /* 4. an unknown format version on line 1 */
        {
            FILE *f = proof_write(&pr, 0, 0, 0, "rulelab-proof 99");
            expect_rejected(f, 1, 1, what, "format version 99");
        }

        /* 5. the bound lowered by two: the first line deeper than the new
         * bound breaks it, or its parent, which no longer wins in time */
        {
            int k = 0;
            while (t.ply[k] <= N - 2)
                k++;
            snprintf(line, sizeof line, "plies %d", N - 2);
            FILE *f = proof_write(&pr, 0, 0, 3, line);
            expect_rejected(f, LINE(k), LINE(parent_entry(&t, k)), what,
                            "the bound lowered");
        }

        /* 6. a line that is no move at all, in place of a defender reply */
        {
            int k = last_entry_with_ply(&t, N - 1);
            snprintf(line, sizeof line, "%d zz", N - 1);
            FILE *f = proof_write(&pr, 0, 0, t.line0 + k, line);
            expect_rejected(f, LINE(k), LINE(k), what, "a line with no move");
        }

        /* 7. a defender's reply given twice: the last at ply N - 1 made a
         * copy of its first sibling (so it is legal there, and the reply
         * it replaced is missing) */
        {
            int k = last_entry_with_ply(&t, N - 1), first = parent_entry(&t, k) + 1;
            if (first != k) {
                snprintf(line, sizeof line, "%d %s", N - 1, t.move[first]);
                FILE *f = proof_write(&pr, 0, 0, t.line0 + k, line);
                expect_rejected(f, LINE(k), LINE(k), what,
                                "a defender reply given twice");
            }
        }
#undef LINE
        tree_free(&t);
        proof_free(&pr);
    }
}

/* ---- malformed proof files -------------------------------------------- */

/* Writes p's lines to a temporary file with one edit: line `at` (1-based)
 * replaced by `text` (insert = 0) or `text` inserted before it (insert =
 * 1; at = p->n + 1 appends). Lines end in `eol`, the last one too unless
 * `last_eol` is 0. */
static FILE *edited(const struct proof *p, int at, int insert,
                    const char *text, const char *eol, int last_eol)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    for (int i = 1; i <= p->n + 1; i++) {
        const char *line = i <= p->n ? p->line[i - 1] : NULL;
        if (i == at && text) {
            fprintf(f, "%s%s", text, eol);
            if (!insert)
                continue;
        }
        if (line)
            fprintf(f, "%s%s", line, i < p->n || last_eol ? eol : "");
    }
    rewind(f);
    return f;
}

/* Expects proof_verify to reject f naming exactly line `line` and saying
 * `why` (a part of the message). */
static void expect_line_error(FILE *f, int line, const char *why,
                              const char *what)
{
    struct proof_info info;
    char err[1024] = "", want[32];
    int rc = proof_verify(f, &info, err, sizeof err);
    fclose(f);
    snprintf(want, sizeof want, "line %d: ", line);
    if (rc != -1)
        fail_msg("%s: accepted", what);
    if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, why))
        fail_msg("%s: the message \"%s\" should start with \"%s\" and say "
                 "\"%s\"", what, err, want, why);
}

static void expect_valid(FILE *f, long nodes, const char *what)
{
    struct proof_info info;
    char err[1024] = "";
    if (proof_verify(f, &info, err, sizeof err) != 0)
        fail_msg("%s: rejected: %s", what, err);
    fclose(f);
    assert_int_equal(info.nodes, nodes);
}

static void test_malformed_proofs(void **state)
{
    (void)state;
    /* the tafl win in 3: lines 1-5 the header, 6 the attacker's first
     * move, then the replies, the last line 'end' */
    const struct position *p = &tamper[0];
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char line[4200], move[32];
    setup(p, &v, st);
    struct proof pr;
    check_proof(&v, st, p->plies, "tafl win in 3", &pr);
    long nodes = pr.n - 6; /* every line but the header and 'end' */
    const char *first = pr.line[5]; /* "1 <move>" */
    assert_int_equal(sscanf(first, "1 %31s", move), 1);
    int last = pr.n; /* the 'end' line */

    /* the file as written, with CRLF line ends, and without the last
     * newline, is valid */
    expect_valid(edited(&pr, 0, 0, NULL, "\n", 1), nodes, "as written");
    expect_valid(edited(&pr, 0, 0, NULL, "\r\n", 1), nodes, "CRLF");
    expect_valid(edited(&pr, 0, 0, NULL, "\n", 0), nodes, "no last newline");

    /* the bound: digits only, 1..64 */
    static const char *const bad_plies[] = {"plies 3abc", "plies 03",
        "plies +3", "plies 3 ", "plies -3", "plies 0", "plies 65",
        "plies 99999999999", "plies  3", "plies 3.0"};
    for (size_t i = 0; i < COUNT(bad_plies); i++)
        expect_line_error(edited(&pr, 4, 0, bad_plies[i], "\n", 1), 4,
                          "ply bound", bad_plies[i]);
    expect_line_error(edited(&pr, 4, 0, "plies", "\n", 1), 4, "empty",
                      "plies without a value");

    /* header lines repeated: each is an error at the repeat */
    expect_line_error(edited(&pr, 2, 1, pr.line[0], "\n", 1), 2,
                      "expected 'variant <variant>'", "line 1 repeated");
    expect_line_error(edited(&pr, 3, 1, pr.line[1], "\n", 1), 3,
                      "repeated", "the variant line repeated");
    expect_line_error(edited(&pr, 4, 1, pr.line[2], "\n", 1), 4,
                      "repeated", "the position line repeated");
    expect_line_error(edited(&pr, 5, 1, pr.line[3], "\n", 1), 5,
                      "repeated", "the plies line repeated");
    expect_line_error(edited(&pr, 5, 1, "plies 5", "\n", 1), 5,
                      "repeated", "a second, different plies line");
    expect_line_error(edited(&pr, 6, 1, "moves", "\n", 1), 6,
                      "expected '<ply> <move>'", "the moves line repeated");
    /* out of order: the position before the variant */
    {
        FILE *f = tmpfile();
        assert_non_null(f);
        fprintf(f, "%s\n%s\n%s\n", pr.line[0], pr.line[2], pr.line[1]);
        for (int i = 3; i < pr.n; i++)
            fprintf(f, "%s\n", pr.line[i]);
        rewind(f);
        expect_line_error(f, 2, "where the 'variant' line must be",
                          "position before variant");
    }
    /* a header line missing: the proof goes on with 'moves' at line 4 */
    expect_line_error(edited(&pr, 4, 0, "moves", "\n", 1), 4,
                      "expected 'plies <plies>'", "no plies line");
    /* a bad variant or position names its own line */
    expect_line_error(edited(&pr, 2, 0, "variant tafl(frist=1)", "\n", 1), 2,
                      "frist", "an unknown variant key");
    expect_line_error(edited(&pr, 3, 0, "position 9/9 d", "\n", 1), 3,
                      "", "a bad position");

    /* junk after a move, or around it */
    snprintf(line, sizeof line, "%s junk", first);
    expect_line_error(edited(&pr, 6, 0, line, "\n", 1), 6,
                      "' junk' after the move", "junk after a move");
    snprintf(line, sizeof line, "%s ", first);
    expect_line_error(edited(&pr, 6, 0, line, "\n", 1), 6,
                      "after the move", "a space after a move");
    snprintf(line, sizeof line, "%s\t1", first);
    expect_line_error(edited(&pr, 6, 0, line, "\n", 1), 6,
                      "after the move", "a tab and text after a move");
    snprintf(line, sizeof line, "1  %s", move);
    expect_line_error(edited(&pr, 6, 0, line, "\n", 1), 6,
                      "expected '<ply> <move>'", "two spaces");
    snprintf(line, sizeof line, "01 %s", move);
    expect_line_error(edited(&pr, 6, 0, line, "\n", 1), 6,
                      "expected '<ply> <move>'", "a leading zero");
    snprintf(line, sizeof line, "1x %s", move);
    expect_line_error(edited(&pr, 6, 0, line, "\n", 1), 6,
                      "expected '<ply> <move>'", "junk after the ply");
    snprintf(line, sizeof line, "99999999999 %s", move);
    expect_line_error(edited(&pr, 6, 0, line, "\n", 1), 6,
                      "expected '<ply> <move>'", "a huge ply");
    expect_line_error(edited(&pr, 7, 1, "", "\n", 1), 7,
                      "expected '<ply> <move>'", "an empty line in the moves");

    /* a line longer than any proof line: named, and the lines after it
     * keep their numbers (a long line is not read as two) */
    memset(line, 'x', 3000);
    line[3000] = '\0';
    memcpy(line, "2 ", 2);
    expect_line_error(edited(&pr, 7, 0, line, "\n", 1), 7, "longer than",
                      "a 3000-character move line");
    memcpy(line, "variant ", 8);
    expect_line_error(edited(&pr, 2, 0, line, "\n", 1), 2, "longer than",
                      "a 3000-character variant line");

    /* a NUL byte in a move line */
    {
        FILE *f = tmpfile();
        assert_non_null(f);
        for (int i = 0; i < 6; i++)
            fprintf(f, "%s\n", pr.line[i]);
        fwrite("2 a\0b\n", 1, 6, f);
        for (int i = 7; i < pr.n; i++)
            fprintf(f, "%s\n", pr.line[i]);
        rewind(f);
        expect_line_error(f, 7, "NUL", "a NUL byte");
    }

    /* the end: missing, or followed by anything (an empty line too) */
    {
        FILE *f = tmpfile();
        assert_non_null(f);
        for (int i = 0; i < pr.n - 1; i++)
            fprintf(f, "%s\n", pr.line[i]);
        rewind(f);
        expect_line_error(f, last, "ends before its 'end' line", "no end");
    }
    expect_line_error(edited(&pr, last + 1, 1, "", "\n", 1), last + 1,
                      "text after 'end'", "an empty line after end");
    expect_line_error(edited(&pr, last + 1, 1, "end", "\n", 1), last + 1,
                      "text after 'end'", "end twice");
    /* the file cut inside the header */
    {
        FILE *f = tmpfile();
        assert_non_null(f);
        fprintf(f, "%s\n%s\n", pr.line[0], pr.line[1]);
        rewind(f);
        expect_line_error(f, 3, "ends in its header", "cut in the header");
    }
    proof_free(&pr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tampered_proofs),
        cmocka_unit_test(test_malformed_proofs),
    };
    return cmocka_run_group_tests_name("proof_files", tests, NULL, NULL);
}
