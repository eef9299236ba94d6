/*
 * runner.c -- the OpenMP runner: the work list, one game per thread, the
 * critical section that stores results, early stopping, progress and
 * signals.
 *
 * Early stopping must not depend on which games happen to finish first.
 * So with a stop rule each cell stores its games strictly in index order:
 * a game that finishes ahead of a gap waits in memory, and the rule is
 * judged after every game added to the stored prefix. Once it stops a cell,
 * later games are not started, and any already finished are dropped.
 * Without a stop rule games are stored as they finish.
 *
 * Workers never touch the database: they hand each finished game to a
 * bounded queue, and one writer thread stores, commits and prints the
 * progress line. So a commit or a WAL checkpoint never holds up play.
 *
 * Memory does not grow with the games a cell plans (up to 10^7): the work
 * is never listed. Workers take the next (cell, index) from one cursor,
 * which steps over the ranges of indices already stored (read once per
 * cell at the start, as ranges, so a resumed cell costs a few entries),
 * and games waiting for a gap in a stop-rule cell sit in a small heap.
 *
 * What threads share, and how: the cursor is under dispatch_lock; the
 * first error message under error_lock; `failed`, `last_cell`, each cell's
 * `stopped_at` and the signal flag are C11 atomics (the flag is set by a
 * sigaction handler, so it is a lock-free atomic_int); everything else
 * belongs to the writer thread until the workers and the writer are
 * joined.
 */
#include "runner.h"
#include "clock.h"

#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "ext.h"
#include "rng.h"
#include "shard.h"
#include "stats.h"

/* Set by SIGINT/SIGTERM. A handler may touch only lock-free atomics (C11
 * 7.14.1.1), which atomic_int is on every target rulelab builds for. */
static atomic_int stop_requested;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the signal flag must be lock-free");

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_requested, 1);
}

/* ---- one game ---------------------------------------------------------- */

/* Makes room in *moves for one more move of up to 31 characters. */
static int reserve_move(char **moves, size_t *cap, size_t len)
{
    if (len + 33 <= *cap)
        return 0;
    size_t grown = *cap ? 2 * *cap : 2048;
    char *p = realloc(*moves, grown);
    if (!p)
        return -1;
    *moves = p;
    *cap = grown;
    return 0;
}

/* The variant's identity: the first line of the cell's seed key. */
static void variant_identity_of(const struct sweep_cell *c, char *out,
                                size_t n)
{
    snprintf(out, n, "%.*s", (int)strcspn(c->seed_key, "\n"), c->seed_key);
}

/* Makes room for one more ply's figures in b->stats. 0, or -1. */
static int reserve_stats(struct game_buffers *b, int plies)
{
    if (plies < b->stats_cap)
        return 0;
    int cap = b->stats_cap ? 2 * b->stats_cap : 256;
    struct agent_stats *grown = realloc(b->stats, (size_t)cap * sizeof *grown);
    if (!grown)
        return -1;
    b->stats = grown;
    b->stats_cap = cap;
    return 0;
}

int runner_play_game(const struct sweep *s, const struct sweep_cell *c,
                     int index, int record_stats, struct game_record *rec,
                     struct game_buffers *b, struct opening_played *opening,
                     char *err, size_t errsz)
{
    const struct game *g = c->variant.game;
    _Alignas(GAME_STATE_ALIGN) unsigned char st[GAME_MAX_STATE_SIZE];
    struct agent *seat[2] = {NULL, NULL};
    uint64_t seed = sweep_game_seed(s, c, index), x = seed;
    double t0 = clock_seconds();
    int rc = -1;
    for (int i = 0; i < 2; i++)
        if (agent_create(s->agents[c->agent[i]].spec, rng_splitmix64(&x),
                         &seat[i], err, errsz) != 0
            || agent_plays(seat[i], g, err, errsz) != 0)
            goto done;
    char identity[VARIANT_TEXT_MAX];
    variant_identity_of(c, identity, sizeof identity);
    if (openings_play(sweep_cell_openings(s, c), s->seed, &c->variant,
                      identity, index, st, opening, err, errsz) != 0)
        goto done;
    char variant[VARIANT_TEXT_MAX];
    variant_canonical(&c->variant, variant, sizeof variant);
    for (int i = 0; i < 2; i++)
        agent_start(seat[i], g, variant, opening->position, opening->moves);
    /* The agents' seat 0 is the side to move where they start: after an
     * odd number of opening plies, the game's seat 1. */
    int flip = g->to_move(st);
    memset(rec, 0, sizeof *rec);
    rec->side[0] = g->seat_side(st, flip);
    rec->side[1] = g->seat_side(st, 1 ^ flip);
    size_t len = 0;
    if (reserve_move(&b->moves, &b->cap, len))
        goto oom;
    b->moves[0] = '\0';
    int forfeit = REASON_NONE, forfeit_seat = 0;
    while (g->status(st).outcome == GAME_ONGOING) {
        struct agent *mover = seat[g->to_move(st) ^ flip];
        move_t m = agent_choose(mover, g, st);
        if (mover->stats.forfeit) { /* the game ends here, unplayed */
            forfeit = mover->stats.forfeit;
            forfeit_seat = g->to_move(st) ^ flip;
            break;
        }
        if (reserve_move(&b->moves, &b->cap, len)
            || (record_stats && reserve_stats(b, rec->plies)))
            goto oom;
        if (record_stats)
            b->stats[rec->plies] = mover->stats;
        if (len)
            b->moves[len++] = ' ';
        len += (size_t)g->move_to_text(st, m, b->moves + len, 32);
        agent_observe(seat[0], g, st, m);
        agent_observe(seat[1], g, st, m);
        g->apply(st, m);
        rec->plies++;
    }
    struct game_status status = g->status(st);
    rec->game_index = index;
    rec->seed = seed;
    rec->outcome = status.outcome;
    if (flip && status.outcome == GAME_WIN_SEAT0)
        rec->outcome = GAME_WIN_SEAT1;
    else if (flip && status.outcome == GAME_WIN_SEAT1)
        rec->outcome = GAME_WIN_SEAT0;
    rec->reason = status.reason;
    if (forfeit) {
        rec->outcome = forfeit_seat ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1;
        rec->reason = forfeit;
    }
    rec->duration_ms = (clock_seconds() - t0) * 1e3;
    rec->moves = b->moves;
    rec->moves_len = len;
    rec->stats = record_stats ? b->stats : NULL;
    rc = 0;
    goto done;
oom:
    snprintf(err, errsz, "out of memory recording a game");
done:
    agent_free(seat[0]);
    agent_free(seat[1]);
    return rc;
}

/* ---- the shared state of a run ---------------------------------------- */

struct pending {
    struct game_record rec;
    struct opening_played opening;
    struct game_buffers buf;
    int cell; /* index into the sweep's cells */
};

/* Game indices [begin, end) of a cell already in the database. */
struct range {
    int begin, end;
};

/* Finished games past a stop-rule cell's prefix, by game index (a binary
 * min-heap: the one the prefix needs next is on top). */
struct heap {
    struct pending **items;
    int n, cap;
};

struct cell_state {
    int64_t id;
    atomic_int stopped_at; /* games after which a stop rule ended it, or -1 */
    int prefix; /* games 0..prefix-1 are stored (stop rule only) */
    long wins, draws, losses; /* seat 0's, over the stored prefix */
    struct range *stored; /* indices stored before this run, ascending */
    int n_stored;
    struct heap waiting; /* finished past the prefix (stop rule only) */
};

struct work {
    int cell, index;
};

/* The next game to hand out: cell, index, and the first stored range of
 * that cell not wholly before index. */
struct cursor {
    int cell, index, range;
};

#define QUEUE_SIZE 1024
#define WRITER_NAP 0.05 /* seconds the writer sleeps when the queue is short */

/* Finished games on their way from the workers to the writer. */
struct queue {
    pthread_mutex_t lock;
    pthread_cond_t not_empty, not_full;
    struct pending *items[QUEUE_SIZE];
    int head, count, closed;
};

struct run {
    const struct sweep *s;
    struct store *st;
    const struct run_options *o;
    struct cell_state *cells;
    long n_work, done, since_commit, dropped;
    double t0, last_commit, last_progress;
    int tty;
    atomic_int failed, last_cell;
    pthread_mutex_t dispatch_lock, error_lock;
    struct cursor cursor;
    char *err; /* the first error, written under error_lock */
    size_t errsz;
    struct queue queue;
};

/* Records the first error of the run (later ones are consequences) and
 * makes everyone stop taking games. Any thread. */
static void set_error(struct run *r, const char *message)
{
    pthread_mutex_lock(&r->error_lock);
    if (!atomic_load(&r->failed))
        snprintf(r->err, r->errsz, "%s", message);
    atomic_store(&r->failed, 1);
    pthread_mutex_unlock(&r->error_lock);
}

static void free_pending(struct pending *p)
{
    free(p->buf.moves);
    free(p->buf.stats);
    free(p);
}

/* ---- the heap of waiting games ------------------------------------------ */

static int heap_less(const struct heap *h, int a, int b)
{
    return h->items[a]->rec.game_index < h->items[b]->rec.game_index;
}

static void heap_swap(struct heap *h, int a, int b)
{
    struct pending *t = h->items[a];
    h->items[a] = h->items[b];
    h->items[b] = t;
}

/* Adds p. Returns 0, or -1 when memory is short (p is then not taken). */
static int heap_push(struct heap *h, struct pending *p)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 16;
        struct pending **grown = realloc(h->items, sizeof *grown * (size_t)cap);
        if (!grown)
            return -1;
        h->items = grown;
        h->cap = cap;
    }
    int i = h->n++;
    h->items[i] = p;
    while (i > 0 && heap_less(h, i, (i - 1) / 2)) {
        heap_swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    return 0;
}

/* Removes and returns the game of the smallest index; h->n > 0. */
static struct pending *heap_pop(struct heap *h)
{
    struct pending *top = h->items[0];
    h->items[0] = h->items[--h->n];
    for (int i = 0;;) {
        int least = i, l = 2 * i + 1, rt = l + 1;
        if (l < h->n && heap_less(h, l, least))
            least = l;
        if (rt < h->n && heap_less(h, rt, least))
            least = rt;
        if (least == i)
            break;
        heap_swap(h, i, least);
        i = least;
    }
    return top;
}

/* Frees every game in h and h itself; returns how many games there were. */
static long heap_clear(struct heap *h)
{
    long n = h->n;
    for (int i = 0; i < h->n; i++)
        free_pending(h->items[i]);
    free(h->items);
    memset(h, 0, sizeof *h);
    return n;
}

/* Whether the stored prefix of a cell meets the sweep's stop rule. */
static int should_stop(const struct sweep *s, const struct cell_state *c)
{
    long n = c->wins + c->draws + c->losses;
    if (s->stop == STOP_NONE || n < s->min_games)
        return 0;
    if (s->stop == STOP_SPRT) {
        double llr;
        return stats_sprt(c->wins, c->draws, c->losses, s->sprt_p0,
                          s->sprt_p1, s->alpha, s->beta, &llr)
               != STATS_SPRT_CONTINUE;
    }
    double lo, hi;
    stats_wilson((double)c->wins + 0.5 * (double)c->draws, (double)n, 1.96,
                 &lo, &hi);
    return hi - lo <= s->ci_width;
}

static void count_result(struct cell_state *c, enum game_outcome o)
{
    if (o == GAME_WIN_SEAT0)
        c->wins++;
    else if (o == GAME_WIN_SEAT1)
        c->losses++;
    else
        c->draws++;
}

static int store_one(struct run *r, const struct pending *p)
{
    char err[1024];
    const struct game_record *rec = &p->rec;
    const struct sweep *s = r->s;
    const struct sweep_cell *c = &s->cells[p->cell];
    struct game_opening o = {p->opening.moves, p->opening.position,
                             sweep_pair_id(s, c, rec->game_index)};
    int rc = store_insert_opened_game(r->st, rec, sweep_cell_openings(s, c)
                                                      ? &o : NULL,
                                      err, sizeof err);
    if (rc == STORE_GAME_ALREADY)
        snprintf(err, sizeof err, "game %d of cell %lld was stored by "
                 "another run while this one played it", rec->game_index,
                 (long long)rec->cell_id);
    if (rc != 0) {
        set_error(r, err);
        return -1;
    }
    r->done++;
    r->since_commit++;
    return 0;
}

/* Stores the finished games of a stop-rule cell that extend its prefix,
 * judging the rule after each. Takes ownership of p. */
static int store_in_order(struct run *r, struct cell_state *c,
                          struct pending *p)
{
    int limit = r->s->games_per_cell, stopped_at = atomic_load(&c->stopped_at);
    if (stopped_at >= 0 && p->rec.game_index >= stopped_at) {
        free_pending(p);
        r->dropped++;
        return 0;
    }
    if (heap_push(&c->waiting, p) != 0) {
        free_pending(p);
        set_error(r, "out of memory");
        return -1;
    }
    while (c->prefix < limit && c->waiting.n
           && c->waiting.items[0]->rec.game_index == c->prefix) {
        struct pending *next = heap_pop(&c->waiting);
        int rc = store_one(r, next);
        count_result(c, next->rec.outcome);
        free_pending(next);
        if (rc)
            return -1;
        c->prefix++;
        if (should_stop(r->s, c)) {
            atomic_store(&c->stopped_at, c->prefix);
            if (store_set_stopped(r->st, c->id, c->prefix)) {
                set_error(r, "recording an early stop failed");
                return -1;
            }
            r->dropped += heap_clear(&c->waiting);
            break;
        }
    }
    return 0;
}

static void progress(struct run *r, const struct sweep_cell *cell, int force)
{
    double now = clock_seconds();
    if (r->o->quiet || (!force && now - r->last_progress < (r->tty ? 0.5 : 10)))
        return;
    r->last_progress = now;
    double rate = r->done / (now - r->t0 + 1e-9);
    long left = r->n_work - r->done - r->dropped;
    double eta = rate > 0 ? (double)left / rate : 0;
    fprintf(stderr, "%s%ld/%ld games (%.0f%%), %.1f games/s, ETA %dm%02ds, "
            "cell: %s %s vs %s%s", r->tty ? "\r\033[K" : "", r->done,
            r->n_work, r->n_work ? 100.0 * (double)(r->done + r->dropped)
                                   / (double)r->n_work : 100.0,
            rate, (int)eta / 60, (int)eta % 60, cell->variant_text,
            r->s->agents[cell->agent[0]].name,
            r->s->agents[cell->agent[1]].name, r->tty ? "" : "\n");
    fflush(stderr);
}

/* ---- the queue and the writer ------------------------------------------ */

/* A worker hands over a finished game (and its moves buffer). */
static void queue_push(struct queue *q, struct pending *p)
{
    pthread_mutex_lock(&q->lock);
    while (q->count == QUEUE_SIZE)
        pthread_cond_wait(&q->not_full, &q->lock);
    q->items[(q->head + q->count++) % QUEUE_SIZE] = p;
    /* Waking the writer for every game costs more than storing it: it
     * naps and drains the queue, and is woken early only when half full. */
    if (q->count == QUEUE_SIZE / 2)
        pthread_cond_signal(&q->not_empty);
    pthread_mutex_unlock(&q->lock);
}

/* The writer takes the next game, waiting up to `seconds`; NULL when the
 * queue is closed and empty, or on time-out (then *timed_out is set). */
static struct pending *queue_pop(struct queue *q, double seconds,
                                 int *timed_out)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)seconds;
    until.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    struct pending *p = NULL;
    *timed_out = 0;
    pthread_mutex_lock(&q->lock);
    while (q->count == 0 && !q->closed && !*timed_out)
        *timed_out = pthread_cond_timedwait(&q->not_empty, &q->lock, &until)
                     != 0;
    if (q->count) {
        p = q->items[q->head];
        q->head = (q->head + 1) % QUEUE_SIZE;
        q->count--;
        pthread_cond_signal(&q->not_full);
    }
    pthread_mutex_unlock(&q->lock);
    return p;
}

static void queue_close(struct queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->closed = 1;
    pthread_cond_broadcast(&q->not_empty);
    pthread_mutex_unlock(&q->lock);
}

/* Stores one finished game; takes ownership of p. */
static int write_game(struct run *r, struct pending *p)
{
    struct cell_state *c = &r->cells[p->cell];
    p->rec.cell_id = c->id;
    if (r->s->stop != STOP_NONE)
        return store_in_order(r, c, p);
    int rc = store_one(r, p);
    free_pending(p);
    return rc;
}

/* The writer thread: stores what the workers finish until the queue is
 * closed, committing every commit_games games or commit_seconds. */
static void *writer_main(void *arg)
{
    struct run *r = arg;
    /* After a store error the games left are dropped; after a worker's
     * error (an agent that cannot be made) the games finished before it
     * are still stored. */
    int store_failed = 0;
    for (;;) {
        int timed_out;
        struct pending *p = queue_pop(&r->queue, WRITER_NAP, &timed_out);
        if (!p && !timed_out)
            break;
        if (p && store_failed) {
            free_pending(p);
            continue;
        }
        int rc = p ? write_game(r, p) : 0;
        store_failed |= rc != 0;
        double now = clock_seconds();
        if (!rc && (r->since_commit >= r->o->commit_games
                    || now - r->last_commit >= r->o->commit_seconds)) {
            char err[1024];
            if (store_commit(r->st, err, sizeof err) != 0) {
                set_error(r, err);
                store_failed = 1;
            }
            r->since_commit = 0;
            r->last_commit = now;
        }
        if (p)
            progress(r, &r->s->cells[atomic_load(&r->last_cell)], 0);
    }
    return NULL;
}

/* ---- the run ------------------------------------------------------------ */

/* What read_cell's visitor needs. */
struct cell_reader {
    struct run *r;
    struct cell_state *c;
    int cap; /* of c->stored */
};

/* store_cell_games' visitor: adds stored game `index` to the cell's ranges
 * and, for a stop rule, to the results of the stored prefix. */
static int add_stored_game(void *arg, int index, enum game_outcome outcome)
{
    struct cell_reader *cr = arg;
    struct cell_state *c = cr->c;
    if (c->n_stored && c->stored[c->n_stored - 1].end == index) {
        c->stored[c->n_stored - 1].end++;
    } else {
        if (c->n_stored == cr->cap) {
            int cap = cr->cap ? 2 * cr->cap : 4;
            struct range *grown = realloc(c->stored,
                                          sizeof *grown * (size_t)cap);
            if (!grown)
                return -1;
            c->stored = grown;
            cr->cap = cap;
        }
        c->stored[c->n_stored++] = (struct range){index, index + 1};
    }
    if (cr->r->s->stop != STOP_NONE && index == c->prefix) {
        count_result(c, outcome);
        c->prefix++;
    }
    return 0;
}

/* Reads what cell c already holds: the stored indices below the planned
 * games as ranges, the early stop, and for a stop rule the results of the
 * stored prefix. Memory: one range per run of stored indices. Returns 0,
 * or -1 with the error set. */
static int read_cell(struct run *r, struct cell_state *c)
{
    struct cell_reader cr = {r, c, 0};
    char err[1024] = "out of memory";
    int stopped_at;
    int rc = store_cell_games(r->st, c->id, r->s->games_per_cell, &stopped_at,
                              add_stored_game, &cr, err, sizeof err);
    atomic_store(&c->stopped_at, stopped_at);
    if (rc != 0) {
        set_error(r, err);
        return -1;
    }
    return 0;
}

/* The games cell c may still play: up to its early stop, if any. */
static int cell_limit(const struct run *r, struct cell_state *c)
{
    int stopped_at = atomic_load(&c->stopped_at), n = r->s->games_per_cell;
    return stopped_at >= 0 && stopped_at < n ? stopped_at : n;
}

/* Finds what is left to play: fills r->cells and counts r->n_work. */
static int plan(struct run *r, const int64_t *ids)
{
    const struct sweep *s = r->s;
    r->cells = calloc((size_t)(s->n_cells ? s->n_cells : 1), sizeof *r->cells);
    if (!r->cells) {
        set_error(r, "out of memory");
        return -1;
    }
    for (int i = 0; i < s->n_cells; i++) {
        struct cell_state *c = &r->cells[i];
        c->id = ids[i];
        if (read_cell(r, c) != 0)
            return -1;
        if (s->stop != STOP_NONE && atomic_load(&c->stopped_at) < 0
            && should_stop(s, c))
            atomic_store(&c->stopped_at, c->prefix);
        int limit = cell_limit(r, c);
        long left = shard_count(s, &r->o->shard, i, 0, limit);
        for (int k = 0; k < c->n_stored && c->stored[k].begin < limit; k++)
            left -= shard_count(s, &r->o->shard, i, c->stored[k].begin,
                                c->stored[k].end < limit ? c->stored[k].end
                                                         : limit);
        r->n_work += left;
    }
    return 0;
}

/* Hands out the next game to play, in (cell, index) order, skipping the
 * games stored before this run, those past a cell's early stop and those
 * of other shards (shard.h).
 * Returns 1 with *w set, or 0 when none is left. Any worker. */
static int next_work(struct run *r, struct work *w)
{
    int found = 0;
    pthread_mutex_lock(&r->dispatch_lock);
    struct cursor *k = &r->cursor;
    while (!found && k->cell < r->s->n_cells) {
        struct cell_state *c = &r->cells[k->cell];
        if (k->index >= cell_limit(r, c)) {
            *k = (struct cursor){k->cell + 1, 0, 0};
            continue;
        }
        while (k->range < c->n_stored && c->stored[k->range].end <= k->index)
            k->range++;
        if (k->range < c->n_stored && c->stored[k->range].begin <= k->index) {
            k->index = c->stored[k->range].end;
            continue;
        }
        int owned = shard_next(r->s, &r->o->shard, k->cell, k->index);
        if (owned != k->index) {
            k->index = owned;
            continue;
        }
        *w = (struct work){k->cell, k->index++};
        found = 1;
    }
    pthread_mutex_unlock(&r->dispatch_lock);
    return found;
}

/* A worker's game: played, then handed to the writer with its buffer. */
static void play_one(struct run *r, const struct work *w)
{
    char err[512];
    struct pending *p = calloc(1, sizeof *p);
    if (!p || runner_play_game(r->s, &r->s->cells[w->cell], w->index,
                               r->s->record_search, &p->rec, &p->buf,
                               &p->opening, err, sizeof err) != 0) {
        set_error(r, p ? err : "out of memory");
        if (p)
            free_pending(p);
        return;
    }
    p->cell = w->cell;
    atomic_store(&r->last_cell, w->cell);
    queue_push(&r->queue, p);
}

/* Every worker takes games from the cursor until none is left, a signal
 * asks to stop, or something failed. */
static void play_all(struct run *r)
{
    #pragma omp parallel num_threads(r->o->threads)
    {
        struct work w;
        while (!atomic_load(&stop_requested) && !atomic_load(&r->failed)
               && next_work(r, &w))
            play_one(r, &w);
    }
}

int runner_run(const struct sweep *s, struct store *st,
               const struct run_options *o, struct run_result *out, char *err,
               size_t errsz)
{
    struct run r = {0};
    r.s = s;
    r.st = st;
    r.o = o;
    r.err = err;
    r.errsz = errsz;
    r.tty = isatty(STDERR_FILENO);
    atomic_init(&r.failed, 0);
    atomic_init(&r.last_cell, 0);
    pthread_mutex_init(&r.dispatch_lock, NULL);
    pthread_mutex_init(&r.error_lock, NULL);
    memset(out, 0, sizeof *out);
    int64_t *ids = malloc(sizeof *ids * (size_t)(s->n_cells ? s->n_cells : 1));
    int rc = -1;
    if (!ids) {
        snprintf(err, errsz, "out of memory");
        goto done;
    }
    char deal[65];
    struct store_shard shard = {o->shard.k, o->shard.n, deal};
    if (o->shard.n > 0)
        shard_deal_fingerprint(s, &o->shard, deal);
    if (store_begin_shard_run(st, s, o->threads, o->shard.n > 0 ? &shard
                              : NULL, ids, err, errsz) != 0
        || plan(&r, ids) != 0)
        goto done;
    out->total = r.n_work;
    r.t0 = r.last_commit = clock_seconds();
    r.last_progress = r.t0 - 1e9;
    pthread_t writer;
    pthread_mutex_init(&r.queue.lock, NULL);
    pthread_cond_init(&r.queue.not_empty, NULL);
    pthread_cond_init(&r.queue.not_full, NULL);
    if (pthread_create(&writer, NULL, writer_main, &r) != 0) {
        snprintf(err, errsz, "cannot start the writer thread");
        goto done;
    }
    /* A second signal ends the program at once (SA_RESETHAND). */
    struct sigaction on_stop = {0}, old_int, old_term;
    on_stop.sa_handler = on_signal;
    on_stop.sa_flags = SA_RESETHAND | SA_RESTART;
    sigemptyset(&on_stop.sa_mask);
    atomic_store(&stop_requested, 0);
    sigaction(SIGINT, &on_stop, &old_int);
    sigaction(SIGTERM, &on_stop, &old_term);
    play_all(&r);
    ext_shutdown(); /* the outside programs of ext agents, now idle */
    queue_close(&r.queue);
    pthread_join(writer, NULL);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    pthread_mutex_destroy(&r.queue.lock);
    pthread_cond_destroy(&r.queue.not_empty);
    pthread_cond_destroy(&r.queue.not_full);
    int interrupted = atomic_load(&stop_requested), failed = atomic_load(&r.failed);
    out->seconds = clock_seconds() - r.t0;
    out->played = r.done;
    out->dropped = r.dropped;
    out->interrupted = interrupted;
    if (!failed && r.n_work)
        progress(&r, &s->cells[atomic_load(&r.last_cell)], 1);
    if (!o->quiet && r.n_work && r.tty)
        fputc('\n', stderr);
    if (failed) {
        store_commit(st, NULL, 0);
        out->played = store_games_committed(st);
        store_end_run(st, "failed");
        goto done;
    }
    if (store_commit(st, err, errsz) != 0) {
        out->played = store_games_committed(st);
        store_end_run(st, "failed");
        goto done;
    }
    out->played = store_games_committed(st);
    store_end_run(st, interrupted ? "interrupted" : "complete");
    rc = 0;
done:
    if (r.cells)
        for (int i = 0; i < s->n_cells; i++) {
            heap_clear(&r.cells[i].waiting);
            free(r.cells[i].stored);
        }
    free(r.cells);
    free(ids);
    pthread_mutex_destroy(&r.dispatch_lock);
    pthread_mutex_destroy(&r.error_lock);
    return rc;
}
