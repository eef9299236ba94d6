/*
 * test_split.c -- the split solve (agents/solve/solver.h's solver_split_*,
 * experiments/prove/split.h): one certificate per root move, over threads and
 * shards, resumed, and joined into one answer.
 *
 *  - The split's answer is the whole search's on known positions (a tafl
 *    win in 3 from the escape rule of docs/rules.md#tafl-the-king,
 *    test_solver.c's; Jetan from the start within 3 plies and Serbest
 *    Kings Landing 8 from the empty board within 3, "no win", as the
 *    README's table and the earliest-Khan arithmetic say).
 *  - Completeness, independently: the parts' moves are exactly the naive
 *    reference's legal root moves, and the disproof parts (24 of them,
 *    evenly spaced, where there are more) pass the walk of
 *    tests/disproof_reader.c with the reference move generators.
 *  - Shards: 2 of 3 shards leave the join unknown, naming the first move
 *    of the third; the whole run then solves only the third's and finds
 *    the rest.
 *  - Mirror images (Serbest): half the parts of the empty board are
 *    written as their twins' mirror images, and pass the reference walk
 *    like the rest, streamed ones (past the DAG's node cap) too; over 2
 *    shards the pairs are shared out whole; a lost twin is written again
 *    by searching its pair again.
 *  - The journal (DIR/verified.txt): a second join takes every part from
 *    it; a part changed since is checked again and fails; a line forged
 *    for the changed file is believed, but not with recheck.
 *  - The join refuses: a root move with two parts, a part of another
 *    question, a part that does not verify, a whole disproof among parts,
 *    a directory with none; the split refuses a directory holding another
 *    question's part.
 *  - The checker refuses parts: a part move not legal at the root, a root
 *    that lists another move than its part's, a part line on a whole
 *    disproof, a part at bound 1.
 *  - A set stop flag stops the search (unknown).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "disproof.h"
#include "disproof_reader.h"
#include "game.h"
#include "sha256.h"
#include "solver.h"
#include "split.h"

/* ---- helpers -------------------------------------------------------------- */

struct problem {
    const char *variant, *position; /* position NULL: the start */
    int plies;
    enum solver_answer answer; /* the whole search's, checked */
};

static void setup(const struct problem *p, struct variant *v, void *st)
{
    char err[512];
    if (variant_parse(p->variant, v, err, sizeof err) != 0
        || game_setup(v, st, p->position, NULL, err, sizeof err) != 0)
        fail_msg("%s: %s", p->variant, err);
}

/* A new empty directory under TMPDIR (or /tmp), into dir. */
static void make_dir(char *dir, size_t n)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, n, "%s/test_split.XXXXXX", base && *base ? base : "/tmp");
    assert_non_null(mkdtemp(dir));
}

static void remove_dir(const char *dir)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    unsigned char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void spill(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* The disproof DAG's node cap of run_split (0: the default). */
static size_t dag_cap;

static void run_split(const struct problem *p, const char *dir, int shard,
                      int shards, int threads, struct split_outcome *out)
{
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    struct solver_options o = {.plies = p->plies,
                               .max_mb = 8,
                               .max_dag_nodes = dag_cap};
    struct split_options so = {dir, shard, shards, threads, 0, 0};
    char err[2400];
    setup(p, &v, st);
    if (split_solve(&v, st, &o, &so, out, err, sizeof err) != 0)
        fail_msg("%s: %s", p->variant, err);
}

static void join(const char *dir, struct split_join *j)
{
    struct split_join_options jo = {2, 0, 0};
    char err[2400];
    if (split_join(dir, &jo, j, err, sizeof err) != 0)
        fail_msg("join: %s", err);
}

/* The join's error message (it must fail). */
static void join_fails(const char *dir, const char *expect)
{
    struct split_join j;
    struct split_join_options jo = {1, 0, 1}; /* every part checked */
    char err[2400];
    assert_int_equal(split_join(dir, &jo, &j, err, sizeof err), -1);
    if (!strstr(err, expect))
        fail_msg("join: expected '%s' in '%s'", expect, err);
}

static void part_file(const char *dir, int index, const char *kind,
                      char *path, size_t n)
{
    snprintf(path, n, "%s/part-%05d.%s", dir, index, kind);
}

/* ---- the split against the whole search ----------------------------------- */

static const struct problem problems[] = {
    /* docs/rules.md#tafl-the-king (escape=corner): the king on e2 reaches
     * a corner in 3 plies whatever the attackers do (test_solver.c's win
     * in 3) */
    {"tafl", "4a4/9/9/a7a/9/9/9/4k4/9 d", 3, SOLVER_WIN},
    /* the same with 2 plies: no king move reaches a corner */
    {"tafl", "4a4/9/9/a7a/9/9/9/4k4/9 d", 2, SOLVER_NO_WIN},
    /* Jetan's start: no win within 5 plies (test_disproof.c writes that
     * disproof, and walks it with the reference), so none within 3 */
    {"jetan", NULL, 3, SOLVER_NO_WIN},
    /* a Khan from rank 8 needs ply 1 + 2 x 2 = 5 (the earliest-Khan
     * arithmetic) */
    {"serbest(kings_landing=8)", NULL, 3, SOLVER_NO_WIN},
};

/* Parts walked with the reference per problem at most (Serbest's 680
 * parts, with the naive generator judging every move of every leaf, took
 * a minute in all). */
#define PARTS_WALKED 24

/* The pairs of st's legal moves that are each other's mirror images
 * (moves whose mirror image is another move, halved); 0 where the game
 * has no mirror texts or st is not its own mirror image. */
static int mirror_pairs(const struct variant *v, const void *st)
{
    const struct game *g = v->game;
    move_t moves[GAME_MAX_MOVES];
    char pos[1024], mpos[1024], text[64], mtext[64];
    if (!g->mirror_move_text)
        return 0;
    g->to_text(st, pos, sizeof pos);
    g->mirror_position_text(pos, mpos, sizeof mpos);
    if (strcmp(pos, mpos) != 0)
        return 0;
    int n = g->legal_moves(st, moves), others = 0;
    for (int i = 0; i < n; i++) {
        g->move_to_text(st, moves[i], text, sizeof text);
        g->mirror_move_text(text, mtext, sizeof mtext);
        others += strcmp(text, mtext) != 0;
    }
    return others / 2;
}

/* The reference's legal root moves of p, sorted, against the parts' (all
 * of them); PARTS_WALKED of the parts, evenly spaced, walked with it. */
static void check_parts_complete(const struct problem *p, const char *dir,
                                 const struct split_join *j)
{
    static char ref[SERBEST_REF_MAX_MOVES][8];
    struct variant v;
    char err[256];
    assert_int_equal(variant_parse(j->variant, &v, err, sizeof err), 0);
    struct ref r = ref_for(&v, j->position);
    int n = ref_moves(&r, j->position, ref);
    assert_true(n > 0);
    assert_int_equal(j->parts, n);
    assert_int_equal(j->covered, n);
    char (*seen)[DISPROOF_MOVE_MAX + 1] = calloc((size_t)n, sizeof *seen);
    assert_non_null(seen);
    for (int i = 0; i < n; i++) {
        char path[1200];
        size_t len;
        part_file(dir, i, "disproof", path, sizeof path);
        unsigned char *buf = slurp(path, &len);
        if (i % (n / PARTS_WALKED + 1) == 0) {
            struct tcert *t = cert_read(buf, len);
            ref_check(t, (uint64_t)i, p->variant);
            cert_free(t);
        }
        /* the part line, read here: the 5th line of the header */
        const char *line = (const char *)buf;
        for (int k = 0; k < 4; k++) {
            line = memchr(line, '\n', len - (size_t)(line - (char *)buf));
            assert_non_null(line);
            line++;
        }
        assert_int_equal(strncmp(line, "part ", 5), 0);
        const char *end = memchr(line, '\n', len - (size_t)(line - (char *)buf));
        assert_non_null(end);
        assert_true(end - line - 5 <= DISPROOF_MOVE_MAX);
        memcpy(seen[i], line + 5, (size_t)(end - line - 5));
        free(buf);
    }
    qsort(seen, (size_t)n, sizeof *seen, (int (*)(const void *,
                                                  const void *))strcmp);
    for (int i = 0; i < n; i++)
        if (strcmp(seen[i], ref[i]) != 0)
            fail_msg("%s: the parts have %s where the reference's root "
                     "move is %s", p->variant, seen[i], ref[i]);
    free(seen);
}

static void test_split_matches_whole(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof problems / sizeof problems[0]; k++) {
        const struct problem *p = &problems[k];
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        struct solver_options o = {.plies = p->plies, .max_mb = 8};
        struct solver_result r;
        char err[512], dir[1024];
        setup(p, &v, st);
        assert_int_equal(solver_solve(v.game, st, &o, &r, err, sizeof err), 0);
        assert_int_equal(r.answer, p->answer);
        make_dir(dir, sizeof dir);
        struct split_outcome out;
        struct split_join j;
        /* one thread where a part wins: with two, the part beside the
         * first win may win too before the stop reaches it, so how many
         * win files there are would depend on the timing */
        run_split(p, dir, 0, 1, p->answer == SOLVER_WIN ? 1 : 2, &out);
        assert_int_equal(out.parts, v.game->legal_moves(st, (move_t[GAME_MAX_MOVES]){0}));
        join(dir, &j);
        assert_int_equal(j.answer, p->answer);
        assert_int_equal(j.plies, p->plies);
        if (p->answer == SOLVER_WIN) {
            /* the win and, the position being its own mirror image, the
             * twin written with it */
            assert_true(out.win_index >= 0);
            assert_int_equal(out.wins, 2);
            assert_true(strstr(j.win_file, ".proof") != NULL);
        } else {
            assert_int_equal(out.no_wins, out.parts);
            assert_int_equal(out.win_index, -1);
            check_parts_complete(p, dir, &j);
            /* one part of each pair of root moves that are each other's
             * mirror images is written from the other's search: Serbest's
             * empty board has 340 pairs (10 files, no drop on a middle
             * file), the tafl position's King on e2 moves up its own file
             * or to either side; Jetan has no mirror texts */
            assert_int_equal(out.mirrored, mirror_pairs(&v, st));
        }
        remove_dir(dir);
    }
}

/* ---- shards and resuming ------------------------------------------------- */

static void test_shards_and_resume(void **state)
{
    (void)state;
    const struct problem *p = &problems[2]; /* Jetan, 3 plies */
    char dir[1024];
    struct split_outcome out;
    struct split_join j;
    make_dir(dir, sizeof dir);
    run_split(p, dir, 0, 3, 1, &out);
    int n = out.parts, shard0 = out.mine;
    assert_int_equal(shard0, (n + 2) / 3); /* indices 0, 3, 6, ... */
    assert_int_equal(out.found, 0);
    run_split(p, dir, 1, 3, 2, &out);
    int shard1 = out.mine;
    assert_int_equal(shard1, (n + 1) / 3);
    join(dir, &j);
    assert_int_equal(j.answer, SOLVER_UNKNOWN);
    assert_int_equal(j.covered, shard0 + shard1);
    /* the first move without a part is the third shard's first, index 2 */
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    char text[64];
    setup(p, &v, st);
    assert_int_equal(v.game->legal_moves(st, moves), n);
    v.game->move_to_text(st, moves[2], text, sizeof text);
    assert_string_equal(j.missing, text);
    /* the whole run solves only what is missing */
    run_split(p, dir, 0, 1, 2, &out);
    assert_int_equal(out.found, shard0 + shard1);
    assert_int_equal(out.no_wins, n - shard0 - shard1);
    join(dir, &j);
    assert_int_equal(j.answer, SOLVER_NO_WIN);
    /* and again: nothing left to solve */
    run_split(p, dir, 0, 1, 1, &out);
    assert_int_equal(out.found, n);
    assert_int_equal(out.no_wins + out.wins + out.unknowns, 0);
    remove_dir(dir);
}

/* Serbest's shards with mirror-image parts: each pair is searched by the
 * shard of its lower index; a twin lost (as if the run had stopped
 * between the two renames) makes the run search its pair again. */
static void test_mirror_shards(void **state)
{
    (void)state;
    const struct problem *p = &problems[3]; /* Serbest KL 8, 3 plies */
    char dir[1024], path[1200], err[512];
    struct split_outcome a, b, out;
    struct split_join j;
    make_dir(dir, sizeof dir);
    run_split(p, dir, 0, 2, 1, &a);
    run_split(p, dir, 1, 2, 2, &b);
    assert_int_equal(a.mine + b.mine, a.parts);
    assert_int_equal(a.mirrored + b.mirrored, a.parts / 2);
    join(dir, &j);
    assert_int_equal(j.answer, SOLVER_NO_WIN);
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    struct solver_options o = {.plies = p->plies, .max_mb = 1};
    struct solver_split *sp;
    setup(p, &v, st);
    assert_int_equal(solver_split_open(&sp, &v, st, &o, err, sizeof err), 0);
    int twin = solver_split_mirror(sp, 0);
    assert_true(twin > 0);
    assert_int_equal(solver_split_mirror(sp, twin), 0);
    solver_split_close(sp);
    part_file(dir, twin, "disproof", path, sizeof path);
    assert_int_equal(remove(path), 0);
    run_split(p, dir, 0, 1, 1, &out);
    assert_int_equal(out.found, out.parts - 1);
    assert_int_equal(out.no_wins, 2); /* part 0 again, and its twin */
    assert_int_equal(out.mirrored, 1);
    join(dir, &j);
    assert_int_equal(j.answer, SOLVER_NO_WIN);
    remove_dir(dir);
}

/* Parts past the DAG's node cap are streamed as trees, their mirror
 * twins too: Serbest's parts with a cap of 2 nodes still join, and the
 * twins pass the reference walk. */
static void test_streamed_twins(void **state)
{
    (void)state;
    const struct problem *p = &problems[3];
    char dir[1024];
    struct split_outcome out;
    struct split_join j;
    make_dir(dir, sizeof dir);
    dag_cap = 2;
    run_split(p, dir, 0, 1, 2, &out);
    dag_cap = 0;
    assert_int_equal(out.mirrored, out.parts / 2);
    join(dir, &j);
    assert_int_equal(j.answer, SOLVER_NO_WIN);
    check_parts_complete(p, dir, &j);
    remove_dir(dir);
}

/* The journal: a second join takes every disproof part from it; a part
 * changed since is checked again (and fails); a journal line forged for
 * the changed file is believed without --recheck, and not with it. */
static void test_journal(void **state)
{
    (void)state;
    const struct problem *p = &problems[2]; /* Jetan, 3 plies */
    char dir[1024], path[1200], line[256];
    struct split_outcome out;
    struct split_join j;
    size_t len;
    make_dir(dir, sizeof dir);
    run_split(p, dir, 0, 1, 1, &out);
    join(dir, &j);
    assert_int_equal(j.journaled, 0);
    snprintf(path, sizeof path, "%s/verified.txt", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int lines = 0, question = 0, format = 0;
    while (fgets(line, sizeof line, f)) {
        lines += line[0] != '#';
        question += strcmp(line, "# plies 3\n") == 0;
        format += strcmp(line, "# format 2\n") == 0;
    }
    fclose(f);
    assert_int_equal(lines, out.parts);
    assert_int_equal(question, 1); /* the header, once */
    assert_int_equal(format, 1);
    join(dir, &j);
    assert_int_equal(j.journaled, out.parts);
    assert_int_equal(j.answer, SOLVER_NO_WIN);
    /* part 3 changed: its last data byte */
    part_file(dir, 3, "disproof", path, sizeof path);
    unsigned char *buf = slurp(path, &len);
    buf[len - 5] ^= 1;
    spill(path, buf, len);
    struct split_join_options jo = {1, 0, 0};
    char err[2400];
    assert_int_equal(split_join(dir, &jo, &j, err, sizeof err), -1);
    assert_non_null(strstr(err, "part-00003.disproof: INVALID"));
    /* a line forged for it: believed, unless rechecked */
    unsigned char digest[32];
    char hex[65];
    sha256_bytes(buf, len, digest);
    sha256_hex(digest, hex);
    snprintf(path, sizeof path, "%s/verified.txt", dir);
    f = fopen(path, "a");
    assert_non_null(f);
    fprintf(f, "part-00003.disproof %s 1 1 1\n", hex);
    fclose(f);
    assert_int_equal(split_join(dir, &jo, &j, err, sizeof err), 0);
    assert_int_equal(j.journaled, out.parts);
    jo.recheck = 1;
    assert_int_equal(split_join(dir, &jo, &j, err, sizeof err), -1);
    assert_non_null(strstr(err, "part-00003.disproof: INVALID"));
    free(buf);
    remove_dir(dir);
}

/* ---- what the join and the split refuse -------------------------------- */

static void test_join_refuses(void **state)
{
    (void)state;
    const struct problem *p = &problems[2];
    char dir[1024], other[1024], a[1200], b[1200];
    struct split_outcome out;
    size_t len;
    make_dir(dir, sizeof dir);
    join_fails(dir, "holds no parts");
    run_split(p, dir, 0, 1, 2, &out);
    /* a root move with two parts: part 0's file copied to a new index */
    part_file(dir, 0, "disproof", a, sizeof a);
    unsigned char *buf = slurp(a, &len);
    part_file(dir, 9999, "disproof", b, sizeof b);
    spill(b, buf, len);
    join_fails(dir, "has another part too");
    remove(b);
    /* a part that does not verify: its last data byte before "end" */
    buf[len - 5] ^= 1;
    spill(a, buf, len);
    join_fails(dir, "INVALID");
    buf[len - 5] ^= 1;
    spill(a, buf, len);
    /* a part of another question: Jetan within 2 plies */
    make_dir(other, sizeof other);
    struct problem p2 = *p;
    p2.plies = 2;
    run_split(&p2, other, 0, 1, 1, &out);
    free(buf);
    part_file(other, 1, "disproof", b, sizeof b);
    buf = slurp(b, &len);
    part_file(dir, 1, "disproof", b, sizeof b);
    spill(b, buf, len);
    join_fails(dir, "another question");
    /* ... and the split will not resume into it */
    {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        struct solver_options o = {.plies = p->plies, .max_mb = 8};
        struct split_options so = {dir, 0, 1, 1, 0, 0};
        char err[2400];
        setup(p, &v, st);
        assert_int_equal(split_solve(&v, st, &o, &so, &out, err, sizeof err),
                         -1);
        assert_non_null(strstr(err, "is not this question's part 1"));
    }
    free(buf);
    remove_dir(other);
    /* a whole disproof among the parts */
    {
        struct variant v;
        _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
        struct solver_options o = {.plies = p->plies, .max_mb = 8};
        struct solver_result r;
        char err[512];
        setup(p, &v, st);
        FILE *f = fopen(b, "w");
        assert_non_null(f);
        assert_int_equal(solver_write_certificate(&v, st, &o, f, &r, NULL, err,
                                                  sizeof err), 0);
        fclose(f);
        join_fails(dir, "a whole disproof, not a part");
    }
    remove_dir(dir);
}

/* ---- what the checker refuses in a part --------------------------------- */

/* buf's text with the first `from` replaced by `to`, checked: the
 * checker's message must hold `expect`. */
static void part_rejected(const unsigned char *buf, size_t len,
                          const char *from, const char *to,
                          const char *expect)
{
    size_t head = 0, flen = strlen(from);
    while (head + flen <= len && memcmp(buf + head, from, flen) != 0)
        head++;
    assert_true(head + flen <= len);
    size_t tlen = strlen(to), n = len - flen + tlen;
    char *edited = malloc(n);
    assert_non_null(edited);
    memcpy(edited, buf, head);
    memcpy(edited + head, to, tlen);
    memcpy(edited + head + tlen, buf + head + flen, len - head - flen);
    struct disproof_info info;
    char err[2048];
    assert_int_equal(verify_buf(edited, n, &info, err, sizeof err), -1);
    if (!strstr(err, expect))
        fail_msg("expected '%s' in '%s'", expect, err);
    free(edited);
}

static void test_checker_refuses_parts(void **state)
{
    (void)state;
    const struct problem *p = &problems[2];
    char dir[1024], path[1200], line[256];
    struct split_outcome out;
    struct disproof_info info;
    char err[2048];
    size_t len;
    make_dir(dir, sizeof dir);
    run_split(p, dir, 0, 1, 1, &out);
    part_file(dir, 0, "disproof", path, sizeof path);
    unsigned char *buf = slurp(path, &len);
    assert_int_equal(verify_buf((const char *)buf, len, &info, err,
                                sizeof err), 0);
    assert_true(info.part[0] != '\0');
    /* another move's text in the header: legal, but not what the root
     * lists */
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    char text[64], other[64];
    setup(p, &v, st);
    v.game->legal_moves(st, moves);
    v.game->move_to_text(st, moves[0], text, sizeof text);
    v.game->move_to_text(st, moves[1], other, sizeof other);
    assert_string_equal(info.part, text);
    char from[128], to[128];
    snprintf(from, sizeof from, "part %s\n", text);
    snprintf(to, sizeof to, "part %s\n", other);
    snprintf(line, sizeof line, "lists %s, not its own move %s", text, other);
    part_rejected(buf, len, from, to, line);
    part_rejected(buf, len, from, "part z99z99\n",
                  "is not a legal move at the root");
    part_rejected(buf, len, "plies 3\n", "plies 1\n",
                  "a part needs a bound of 2 plies or more");
    free(buf);
    /* a part line on a whole disproof: its root lists every move */
    struct solver_options o = {.plies = p->plies, .max_mb = 8};
    struct solver_result r;
    char *whole = NULL;
    size_t wlen = 0;
    FILE *f = open_memstream(&whole, &wlen);
    assert_int_equal(solver_write_certificate(&v, st, &o, f, &r, NULL, err,
                                              sizeof err), 0);
    fclose(f);
    snprintf(line, sizeof line, "a part's root lists %d moves",
             out.parts);
    snprintf(to, sizeof to, "plies 3\npart %s\n", text);
    part_rejected((unsigned char *)whole, wlen, "plies 3\n", to, line);
    free(whole);
    remove_dir(dir);
}

/* ---- the stop flag -------------------------------------------------------- */

static void test_stop_flag(void **state)
{
    (void)state;
    const struct problem p = {"serbest(kings_landing=8)", NULL, 5,
                              SOLVER_NO_WIN};
    struct variant v;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    atomic_int stop;
    atomic_init(&stop, 1);
    struct solver_options o = {.plies = 5, .max_mb = 8, .stop = &stop};
    struct solver_result r;
    char err[512];
    setup(&p, &v, st);
    assert_int_equal(solver_solve(v.game, st, &o, &r, err, sizeof err), 0);
    assert_int_equal(r.answer, SOLVER_UNKNOWN);
    assert_true(r.nodes <= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_checker_refuses_parts),
        cmocka_unit_test(test_join_refuses),
        cmocka_unit_test(test_shards_and_resume),
        cmocka_unit_test(test_mirror_shards),
        cmocka_unit_test(test_journal),
        cmocka_unit_test(test_streamed_twins),
        cmocka_unit_test(test_split_matches_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
