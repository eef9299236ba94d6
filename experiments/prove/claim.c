/*
 * claim.c -- sampling claim positions from stored games, solving them on
 * all threads, and storing the answers. See claim.h.
 *
 * Each answer is written as soon as its position is solved, in its own
 * statement (its own transaction), so an interruption, a crash or one
 * failing position loses at most the positions still being solved; a
 * second run of the same command finds the stored answers and skips them.
 * SIGINT and SIGTERM stop the run after the positions in flight, like
 * `rulelab run`.
 */
#include "claim.h"

#include <errno.h>
#include <omp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "disproof.h"
#include "proof.h"
#include "sha256.h"
#include "solver.h"

struct candidate {
    int64_t game_id;
    int ply;
    struct variant variant;
    char variant_text[VARIANT_TEXT_MAX];
    char position[1024];
    /* filled by the search */
    struct solver_result r;
    char pv[1024];
    /* a verified certificate: its SHA-256 (hex; "" for none) and its
     * file, <location>/<hex>.proof or .disproof (NULL for none) */
    char certificate_sha256[65];
    char *certificate;
    int failed;
    char err[256];
};

/* Set by SIGINT/SIGTERM (or the test hook below): start no new position. */
static atomic_int stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_requested, 1);
}

/* game_replay's visitor: keeps the position in *c when the game is going
 * on and its side to move could land its king on the top rank (a later
 * one replaces it). */
static int keep_claim_position(void *arg, const struct game *g,
                               const struct game_replay_step *step)
{
    struct candidate *c = arg;
    if (g->status(step->st).outcome == GAME_ONGOING
        && g->king_landing_open(step->st)) {
        c->ply = step->ply;
        g->to_text(step->st, c->position, sizeof c->position);
        c->game_id = 1; /* found; sample_game sets the id */
    }
    return 0;
}

/* Replays one stored game of a game with Kings Landing and takes its last
 * claim position (the latest moment its side to move could still land its
 * king on the top rank: the first such position is the empty board in
 * every game); plies count from the variant's start, the opening's moves
 * included. Returns 1 if c was filled, 0 for a game without one or of a
 * game without Kings Landing, -1 with a message for a game whose moves do
 * not replay. */
static int sample_game(const struct store_game *sg, struct candidate *c,
                       char *err, size_t errsz)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    char why[256];
    if (variant_parse(sg->variant, &c->variant, why, sizeof why) != 0
        || !c->variant.game->king_landing_open)
        return 0;
    size_t n = strlen(sg->opening) + strlen(sg->moves) + 2;
    char *line = malloc(n);
    if (!line)
        return game_error(err, errsz, "out of memory");
    snprintf(line, n, "%s%s%s", sg->opening, sg->opening[0] ? " " : "",
             sg->moves);
    c->game_id = 0;
    int rc = game_replay(&c->variant, st, NULL, NULL, line,
                         keep_claim_position, c, NULL, why, sizeof why);
    free(line);
    if (rc != 0)
        return game_error(err, errsz, "game %lld does not replay: %s",
                          (long long)sg->id, why);
    if (!c->game_id)
        return 0;
    c->game_id = sg->id;
    snprintf(c->variant_text, sizeof c->variant_text, "%s", sg->variant);
    return 1;
}

/* The certificate folder's path as written (dir) and as stored in the
 * table (loc), for o. */
static void certificate_dir(const struct claim_options *o, char *dir,
                            size_t dirsz, char *loc, size_t locsz)
{
    if (o->certificates) {
        snprintf(dir, dirsz, "%s", o->certificates);
        snprintf(loc, locsz, "%s", o->certificates);
    } else {
        snprintf(dir, dirsz, "%s/certificates", o->db_dir ? o->db_dir : ".");
        snprintf(loc, locsz, "certificates");
    }
}

/* Keeps the certificate in buf (size bytes) as <dir>/<hex>.<ext>, unless
 * a file of that name is there already (the same bytes: the name is their
 * hash), and sets c->certificate_sha256 and c->certificate. Returns 0,
 * or -1 with c->err. */
static int keep_certificate(struct candidate *c, const struct claim_options *o,
                            const char *buf, size_t size)
{
    unsigned char digest[32];
    char hex[65], dir[4096], loc[4096], path[4200], tmp[4300];
    const char *ext = c->r.answer == SOLVER_WIN ? "proof" : "disproof";
    sha256_bytes(buf, size, digest);
    sha256_hex(digest, hex);
    certificate_dir(o, dir, sizeof dir, loc, sizeof loc);
    snprintf(path, sizeof path, "%s/%s.%s", dir, hex, ext);
    if (access(path, F_OK) != 0) {
        snprintf(tmp, sizeof tmp, "%s/.%s.%ld.%d.tmp", dir, hex, (long)getpid(),
                 omp_get_thread_num());
        FILE *f = fopen(tmp, "wb");
        int bad = !f || fwrite(buf, 1, size, f) != size;
        if (f && fclose(f) != 0)
            bad = 1;
        if (bad || rename(tmp, path) != 0) {
            snprintf(c->err, sizeof c->err, "writing %.200s: %s", path,
                     strerror(errno));
            remove(tmp);
            return -1;
        }
    }
    size_t need = strlen(loc) + strlen(hex) + strlen(ext) + 3;
    c->certificate = malloc(need);
    if (!c->certificate) {
        snprintf(c->err, sizeof c->err, "out of memory");
        return -1;
    }
    snprintf(c->certificate, need, "%s/%s.%s", loc, hex, ext);
    memcpy(c->certificate_sha256, hex, sizeof hex);
    return 0;
}

/* Solves one candidate, writing and verifying the certificate of a win or
 * a no win and keeping it (keep_certificate): fills c->r, c->pv and
 * its certificate's columns, or sets c->failed with a message in c->err. */
static void solve_candidate(struct candidate *c, const struct claim_options *o)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    struct solver_options so = {.plies = o->plies,
                                .max_nodes = o->nodes,
                                .max_mb = o->mb};
    char *buf = NULL;
    size_t size = 0;
    const struct game *g = c->variant.game;
    if (g->from_text(st, &c->variant, c->position, c->err,
                     sizeof c->err) != 0) {
        c->failed = 1;
        return;
    }
    FILE *f = open_memstream(&buf, &size);
    if (!f || solver_write_certificate(&c->variant, st, &so, f, &c->r, NULL,
                                       c->err, sizeof c->err) != 0) {
        if (f)
            fclose(f);
        free(buf);
        c->failed = 1;
        return;
    }
    fclose(f);
    if (c->r.answer != SOLVER_UNKNOWN) {
        struct proof_info info;
        struct disproof_info dinfo;
        char why[512];
        FILE *in = fmemopen(buf, size, "r");
        int ok = in && (c->r.answer == SOLVER_WIN
                            ? proof_verify(in, &info, why, sizeof why)
                            : disproof_verify(in, &dinfo, why, sizeof why)) == 0;
        if (in)
            fclose(in);
        /* never report an answer whose certificate does not check */
        if (!ok)
            c->r.answer = SOLVER_UNKNOWN;
        else if (keep_certificate(c, o, buf, size) != 0)
            c->failed = 1;
    }
    free(buf);
    if (c->failed)
        return;
    _Alignas(GAME_STATE_ALIGN) unsigned char cur[GAME_MAX_STATE_SIZE];
    game_copy_state(g, cur, st);
    size_t len = 0;
    c->pv[0] = '\0';
    for (int i = 0; i < c->r.pv_len && len + 40 < sizeof c->pv; i++) {
        if (len)
            c->pv[len++] = ' ';
        len += (size_t)g->move_to_text(cur, c->r.pv[i], c->pv + len,
                                       sizeof c->pv - len);
        g->apply(cur, c->r.pv[i]);
    }
}

/* Whether c's answer for this question, bound and budget is in the
 * claims table: 1 yes, 0 no, -1 on a database error. */
static int already_stored(sqlite3 *db, const struct candidate *c,
                          const struct claim_options *o)
{
    sqlite3_stmt *q;
    int rc = SQLITE_ERROR;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM claims WHERE game_id = ?1 AND "
                           "ply = ?2 AND question = ?3 AND plies = ?4 AND "
                           "node_budget = ?5", -1, &q, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_bind_int64(q, 1, c->game_id) == SQLITE_OK
        && sqlite3_bind_int(q, 2, c->ply) == SQLITE_OK
        && sqlite3_bind_text(q, 3, CLAIM_KING_LANDING, -1, SQLITE_STATIC)
               == SQLITE_OK
        && sqlite3_bind_int(q, 4, o->plies) == SQLITE_OK
        && sqlite3_bind_int64(q, 5, (int64_t)o->nodes) == SQLITE_OK)
        rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* Stores c's answer in one statement (its own transaction). A row for
 * the same position, question, bound and budget already there (another
 * claim on the same file got there first) is kept, and *dup set; any
 * other failure (CHECK, disk full, busy) is an error. Returns 0 or -1. */
static int store_candidate(sqlite3 *db, const struct candidate *c,
                           const struct claim_options *o, int *dup)
{
    static const char *const answers[] = {"win", "no_win", "unknown"};
    char now[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    sqlite3_stmt *q;
    *dup = 0;
    if (sqlite3_prepare_v2(db, "INSERT INTO claims (game_id, ply,"
                           " variant, position, question, plies, node_budget,"
                           " answer, nodes, seconds, pv, certificate_sha256,"
                           " certificate, created)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                           " ?11, ?12, ?13, ?14) ON CONFLICT (game_id, ply,"
                           " question, plies, node_budget) DO NOTHING",
                           -1, &q, NULL) != SQLITE_OK)
        return -1;
    /* a bind that fails (a text too long) leaves its error for the caller */
    int rc = SQLITE_ERROR;
    if (sqlite3_bind_int64(q, 1, c->game_id) == SQLITE_OK
        && sqlite3_bind_int(q, 2, c->ply) == SQLITE_OK
        && sqlite3_bind_text(q, 3, c->variant_text, -1, SQLITE_STATIC)
               == SQLITE_OK
        && sqlite3_bind_text(q, 4, c->position, -1, SQLITE_STATIC) == SQLITE_OK
        && sqlite3_bind_text(q, 5, CLAIM_KING_LANDING, -1, SQLITE_STATIC)
               == SQLITE_OK
        && sqlite3_bind_int(q, 6, o->plies) == SQLITE_OK
        && sqlite3_bind_int64(q, 7, (int64_t)o->nodes) == SQLITE_OK
        && sqlite3_bind_text(q, 8, answers[c->r.answer], -1, SQLITE_STATIC)
               == SQLITE_OK
        && sqlite3_bind_int64(q, 9, (int64_t)c->r.nodes) == SQLITE_OK
        && sqlite3_bind_double(q, 10, c->r.seconds) == SQLITE_OK
        && sqlite3_bind_text(q, 11, c->pv, -1, SQLITE_STATIC) == SQLITE_OK
        && (c->certificate
                ? sqlite3_bind_text(q, 12, c->certificate_sha256, -1,
                                    SQLITE_STATIC) == SQLITE_OK
                      && sqlite3_bind_text(q, 13, c->certificate, -1,
                                           SQLITE_STATIC) == SQLITE_OK
                : sqlite3_bind_null(q, 12) == SQLITE_OK
                      && sqlite3_bind_null(q, 13) == SQLITE_OK)
        && sqlite3_bind_text(q, 14, now, -1, SQLITE_TRANSIENT) == SQLITE_OK)
        rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc == SQLITE_DONE)
        *dup = sqlite3_changes(db) == 0;
    return rc == SQLITE_DONE ? 0 : -1;
}

/* What sample() gathers while it reads the games. */
struct sampling {
    sqlite3 *db;
    const struct claim_options *o;
    struct candidate *c;
    int n, cap, taken;
    struct claim_summary *sum;
    char *err;
    size_t errsz;
};

/* store_each_game's visitor: the claim position of one more game, kept
 * unless it is answered already. Returns 0 to go on, 1 once o->positions
 * games gave one, -1 with a message. */
static int sample_one(void *arg, const struct store_game *sg)
{
    struct sampling *s = arg;
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        struct candidate *grown = realloc(s->c, sizeof *grown * (size_t)cap);
        if (!grown)
            return game_error(s->err, s->errsz, "out of memory");
        s->c = grown;
        s->cap = cap;
    }
    struct candidate *c = &s->c[s->n];
    memset(c, 0, sizeof *c);
    int found = sample_game(sg, c, s->err, s->errsz);
    if (found <= 0)
        return found;
    s->taken++;
    int stored = already_stored(s->db, c, s->o);
    if (stored < 0)
        return game_error(s->err, s->errsz, "reading the claims: %s",
                          sqlite3_errmsg(s->db));
    if (stored)
        s->sum->skipped++;
    else
        s->n++;
    return s->o->positions && s->taken >= s->o->positions ? 1 : 0;
}

/* Reads the candidates from the stored games: the claim positions of the
 * first o->positions games that have one (all if 0), in game id order,
 * less those already answered (counted in sum->skipped). A game with an
 * opening is replayed through the opening's moves, then the agents'; one
 * that starts from a position text is left out (its plies could not be
 * counted from the start). Returns how many, or -1 with a message. */
static int sample(sqlite3 *db, const struct claim_options *o,
                  struct candidate **out, struct claim_summary *sum,
                  char *err, size_t errsz)
{
    struct sampling s = {db, o, NULL, 0, 0, 0, sum, err, errsz};
    struct store_game_filter f = {.sweep = o->sweep, .from_start = 1,
                                  .order = STORE_BY_ID};
    *out = NULL;
    if (store_each_game(db, &f, sample_one, &s, err, errsz) < 0) {
        free(s.c);
        return -1;
    }
    *out = s.c;
    return s.n;
}

/* The test hook: RULELAB_CLAIM_STOP_AFTER=K acts as a SIGINT arriving
 * right after the K-th answer of this run is stored (0 or unset: never),
 * so the tests can interrupt a claim at an exact point. */
static long stop_after(void)
{
    const char *s = getenv("RULELAB_CLAIM_STOP_AFTER");
    return s ? atol(s) : 0;
}

int claim_run(struct store *st, const struct claim_options *o,
              struct claim_summary *sum, char *err, size_t errsz)
{
    sqlite3 *db = store_db(st);
    struct candidate *c;
    struct sigaction act, old_int, old_term;
    int store_failed = 0;
    long dups = 0, limit = stop_after();
    memset(sum, 0, sizeof *sum);
    int n = sample(db, o, &c, sum, err, errsz);
    if (n < 0)
        return -1;
    char dir[4096], loc[4096];
    certificate_dir(o, dir, sizeof dir, loc, sizeof loc);
    if (n > 0 && mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errsz, "making the certificate folder %s: %s", dir,
                 strerror(errno));
        free(c);
        return -1;
    }
    atomic_store(&stop_requested, 0);
    memset(&act, 0, sizeof act);
    act.sa_handler = on_signal;
    sigemptyset(&act.sa_mask);
    act.sa_flags = SA_RESETHAND; /* a second signal ends the program */
    sigaction(SIGINT, &act, &old_int);
    sigaction(SIGTERM, &act, &old_term);
    #pragma omp parallel for schedule(dynamic, 1) num_threads(o->threads)
    for (int i = 0; i < n; i++) {
        if (atomic_load(&stop_requested))
            continue;
        solve_candidate(&c[i], o);
        #pragma omp critical(claim_store)
        {
            int dup = 0;
            if (c[i].failed) {
                if (!sum->failed)
                    snprintf(err, errsz, "game %lld ply %d: %s",
                             (long long)c[i].game_id, c[i].ply, c[i].err);
                sum->failed++;
            } else if (store_failed) {
                /* the database refused an earlier answer: stop */
            } else if (store_candidate(db, &c[i], o, &dup) != 0) {
                snprintf(err, errsz, "storing the answer for game %lld ply "
                         "%d: %s", (long long)c[i].game_id, c[i].ply,
                         sqlite3_errmsg(db));
                store_failed = 1;
                atomic_store(&stop_requested, 1);
            } else if (dup) {
                sum->skipped++;
                dups++;
            } else {
                sum->positions++;
                sum->wins += c[i].r.answer == SOLVER_WIN;
                sum->no_wins += c[i].r.answer == SOLVER_NO_WIN;
                sum->unknown += c[i].r.answer == SOLVER_UNKNOWN;
                if (limit && sum->positions >= limit)
                    atomic_store(&stop_requested, 1);
            }
            free(c[i].certificate);
            c[i].certificate = NULL;
        }
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sum->left = n - sum->positions - sum->failed - dups;
    sum->interrupted = !store_failed && atomic_load(&stop_requested);
    free(c);
    return store_failed || sum->failed ? -1 : 0;
}
