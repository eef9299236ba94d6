/*
 * solver.c -- depth-bounded df-pn: the search, its transposition table
 * and the principal variation of a win. Its certificates are written by
 * solver_certify.c (proofs of wins, format in solver.h) and
 * solver_disproof.c (disproofs, disproof.h).
 *
 * A node's proof and disproof numbers (pn, dn) count the leaves still to
 * settle to prove or disprove it; df-pn explores the most-proving child
 * under thresholds so it never keeps the tree, only a transposition table
 * of (pn, dn) per (state, remaining depth). Children are made once per
 * visit and kept while it lasts, which also settles every child that ends
 * the game at once: that is where the threat-driven pruning comes from (in
 * Serbest most replies to a king on rank 9 lose to a Khan move, and each is
 * proven the moment it is generated).
 */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE, beside POSIX */
#include "solver.h"
#include "clock.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "solver_internal.h"

const char *solver_answer_name(enum solver_answer a)
{
    return a == SOLVER_WIN ? "win" : a == SOLVER_NO_WIN ? "no win" : "unknown";
}

static uint32_t add_sat(uint32_t a, uint32_t b)
{
    return a >= INF - b ? INF : a + b;
}

/* A 64-bit hash of a state's used bytes (game_state_used): histories and
 * counters included, so two states share an entry only if they are the
 * same in every way the rules can see. */
static uint64_t state_key(const void *st, size_t size)
{
    /* Four independent lanes, so the multiplies overlap: this runs for
     * every child of every expansion, over the whole state. */
    const unsigned char *p = st;
    uint64_t lane[4] = {0x9e3779b97f4a7c15ULL ^ size, 0xc2b2ae3d27d4eb4fULL,
                        0x165667b19e3779f9ULL, 0x27d4eb2f165667c5ULL};
    size_t i = 0;
    for (; i + 32 <= size; i += 32)
        for (int k = 0; k < 4; k++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * (size_t)k, 8);
            lane[k] = (lane[k] ^ w) * 0xff51afd7ed558ccdULL;
            lane[k] ^= lane[k] >> 29;
        }
    uint64_t h = lane[0] ^ (lane[1] * 0x9e3779b97f4a7c15ULL)
                 ^ (lane[2] * 0xc2b2ae3d27d4eb4fULL)
                 ^ (lane[3] * 0x165667b19e3779f9ULL);
    for (; i < size; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 29);
}

/* The table's key for st: the game's search_key, which two states that
 * play alike share whatever their bytes, or else every byte hashed. Odd,
 * so that 0 is free to mark an empty slot or a settled child (the low
 * bits pick no slot: a bucket is TT_WAYS aligned entries). */
static uint64_t tt_key(const struct game *g, const void *st)
{
    uint64_t k = g->search_key ? g->search_key(st)
                               : state_key(st, game_state_used(g, st));
    return k | 1;
}

/* ---- transposition table --------------------------------------------- */

/* The lock word of an entry: its check mixed with its two value words
 * (extra multiplied by an odd constant, so that words of two writes of
 * one position do not cancel out unless by a 64-bit coincidence). */
static uint64_t tt_lock(uint64_t check, uint64_t value, uint64_t extra)
{
    return check ^ value ^ (extra * 0x9e3779b97f4a7c15ULL);
}

/* e's contents, each word loaded whole (another thread may be writing
 * it); a torn entry's check comes out wrong, so it matches nothing. */
static void tt_load(const struct tt_entry *e, struct tt_view *v)
{
    uint64_t key = atomic_load_explicit(&e->key, memory_order_relaxed);
    uint64_t lock = atomic_load_explicit(&e->lock, memory_order_relaxed);
    uint64_t value = atomic_load_explicit(&e->value, memory_order_relaxed);
    uint64_t extra = atomic_load_explicit(&e->extra, memory_order_relaxed);
    v->key = key;
    v->check = tt_lock(lock, value, extra); /* lock ^ lock's mix = check */
    v->pn = (uint32_t)value;
    v->dn = (uint32_t)(value >> 32);
    v->depth = (uint32_t)(extra & 0xffff);
}

static void tt_store(struct tt_entry *e, const struct tt_view *v)
{
    uint64_t value = (uint64_t)v->pn | (uint64_t)v->dn << 32;
    uint64_t extra = (uint64_t)(v->depth & 0xffff);
    atomic_store_explicit(&e->key, v->key, memory_order_relaxed);
    atomic_store_explicit(&e->lock, tt_lock(v->check, value, extra),
                          memory_order_relaxed);
    atomic_store_explicit(&e->value, value, memory_order_relaxed);
    atomic_store_explicit(&e->extra, extra, memory_order_relaxed);
}

static const struct tt_entry *tt_bucket(const struct solver *s, uint64_t key)
{
    return &s->tt[key & s->tt_mask & ~(size_t)(TT_WAYS - 1)];
}

/* Looks st up at `depth` plies left: an exact entry, or a proof made with
 * fewer plies (a win within fewer is a win within more), or a disproof
 * made with more. Misses give (1, 1). */
static void tt_get(const struct solver *s, uint64_t key, uint64_t check,
                   uint32_t depth, uint32_t *pn, uint32_t *dn)
{
    *pn = *dn = 1;
    const struct tt_entry *bucket = tt_bucket(s, key);
    for (int w = 0; w < TT_WAYS; w++) {
        struct tt_view e;
        tt_load(&bucket[w], &e);
        if (e.key != key || e.check != check)
            continue;
        if (e.depth == depth || (e.pn == 0 && e.depth <= depth)
            || (e.dn == 0 && e.depth >= depth)) {
            *pn = e.pn;
            *dn = e.dn;
            if (e.depth == depth || e.pn == 0 || e.dn == 0)
                return;
        }
    }
}

/* Asks the cache for the bucket of key ahead of its tt_get: a node's
 * children are looked up after all are made, so their misses overlap. */
static void tt_prefetch(const struct solver *s, uint64_t key)
{
    const char *bucket = (const char *)tt_bucket(s, key);
    __builtin_prefetch(bucket);
    __builtin_prefetch(bucket + 64); /* a bucket is 128 bytes */
}

/* Whether an entry is open (neither proven nor disproven). */
static int tt_open(const struct tt_view *e)
{
    return e->pn && e->dn;
}

/* Stores (pn, dn) for key at depth. */
static void tt_put(struct solver *s, uint64_t key, uint64_t check,
                   uint32_t depth, uint32_t pn, uint32_t dn)
{
    struct tt_entry *bucket = (struct tt_entry *)tt_bucket(s, key);
    int victim = -1;
    struct tt_view best = {0}, e;
    for (int w = 0; w < TT_WAYS; w++) {
        tt_load(&bucket[w], &e);
        if (e.key == key && e.check == check && e.depth == depth) {
            victim = w;
            break;
        }
        /* Keep settled results over open ones, deep over shallow. */
        if (victim < 0 || (e.key == 0 && best.key != 0)
            || (tt_open(&e) && !tt_open(&best))
            || (tt_open(&e) == tt_open(&best) && e.depth < best.depth)) {
            victim = w;
            best = e;
        }
    }
    struct tt_view v = {.key = key, .check = check, .pn = pn, .dn = dn,
                        .depth = depth}; /* <= SOLVER_MAX_PLIES */
    tt_store(&bucket[victim], &v);
}

/* ---- df-pn -------------------------------------------------------------- */

static struct level *level_for(struct solver *s, int depth)
{
    if (!s->levels[depth])
        s->levels[depth] = malloc(sizeof(struct level));
    return s->levels[depth];
}

/* The values of a state where the game is over or no plies are left. */
static int settled(const struct solver *s, const void *st, uint32_t depth,
                   uint32_t *pn, uint32_t *dn)
{
    enum game_outcome o = s->g->status(st).outcome;
    if (o == GAME_ONGOING && depth > 0)
        return 0;
    int win = o == (s->attacker == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1);
    *pn = win ? 0 : INF;
    *dn = win ? INF : 0;
    return 1;
}

static void mid(struct solver *s, const void *st, uint32_t depth,
                uint32_t th_pn, uint32_t th_dn, uint32_t *out_pn,
                uint32_t *out_dn);

/* Whether the attacker, to move in the ongoing st, has a move that wins
 * at once: the game's own shortcut where it has one, else every move
 * played until one wins. */
static int attacker_wins_at_once(const struct solver *s, const void *st)
{
    const struct game *g = s->g;
    int known = g->wins_at_once ? g->wins_at_once(st) : -1;
    return known >= 0 ? known : game_mover_wins_at_once(g, st);
}

/* The last two plies of the bound, settled exactly without a level: an
 * attacker to move with one ply left wins iff a move wins at once; a
 * defender with two left is disproven by its first reply (in the order
 * of the move generator) that leaves no such move, and proven if none
 * does, so a refuted node costs the replies tried, not all of them.
 * Returns 0 (and the values) if st is no such node. */
static int settle_near_bound(struct solver *s, const void *st, uint32_t depth,
                             int or_node, uint32_t *pn, uint32_t *dn)
{
    const struct game *g = s->g;
    int win;
    if (depth == 1 && or_node) {
        win = attacker_wins_at_once(s, st);
    } else if (depth == 2 && !or_node) {
        unsigned char *child = solver_line(s, 1);
        move_t moves[GAME_MAX_MOVES];
        int n = g->legal_moves(st, moves);
        win = 1;
        for (int i = 0; i < n && win; i++) {
            uint32_t cpn, cdn;
            game_copy_state(g, child, st);
            g->apply(child, moves[i]);
            if (settled(s, child, 1, &cpn, &cdn))
                win = cpn == 0;
            else
                win = attacker_wins_at_once(s, child);
        }
    } else {
        return 0;
    }
    *pn = win ? 0 : INF;
    *dn = win ? INF : 0;
    return 1;
}

/* Expands st into its level: each child made in turn in the solver's
 * line, settled ones valued, the others' table slots fetched ahead and
 * then read; a child the table does not know that settle_near_bound can
 * settle is settled at once (made again), which spares the search loop a
 * pass over every child per child, and stops the expansion when it
 * decides st (a proven child of an OR node, a disproven one of an AND
 * node). Returns the child count, or -1 out of memory. */
static int expand(struct solver *s, const void *st, uint32_t depth,
                  struct level **out)
{
    const struct game *g = s->g;
    struct level *l = level_for(s, (int)depth);
    if (!l)
        return -1;
    const int or_node = g->to_move(st) == s->attacker;
    unsigned char *child = solver_line(s, depth - 1);
    int n = solver_moves(s, st, depth, l->moves);
    for (int i = 0; i < n; i++) {
        game_copy_state(g, child, st);
        g->apply(child, l->moves[i]);
        l->key[i] = 0;
        if (settled(s, child, depth - 1, &l->pn[i], &l->dn[i]))
            continue;
        l->key[i] = tt_key(g, child); /* never 0, which marks settled */
        l->check[i] = g->hash(child);
        tt_prefetch(s, l->key[i]);
    }
    for (int i = 0; i < n; i++) {
        if (l->key[i])
            tt_get(s, l->key[i], l->check[i], depth - 1, &l->pn[i],
                   &l->dn[i]);
        if (l->key[i] && depth - 1 <= 2 && l->pn[i] && l->dn[i]
            && !s->out_of_budget) {
            game_copy_state(g, child, st);
            g->apply(child, l->moves[i]);
            if (settle_near_bound(s, child, depth - 1,
                                  g->to_move(child) == s->attacker,
                                  &l->pn[i], &l->dn[i])) {
                if (++s->nodes > s->max_nodes && s->max_nodes)
                    s->out_of_budget = 1;
                if (depth - 1 == 2)
                    tt_put(s, l->key[i], l->check[i], depth - 1, l->pn[i],
                           l->dn[i]);
            }
        }
        if (or_node ? l->pn[i] == 0 : l->dn[i] == 0) {
            n = i + 1; /* st is decided: the rest need not be made */
            break;
        }
    }
    *out = l;
    return n;
}

static void mid(struct solver *s, const void *st, uint32_t depth,
                uint32_t th_pn, uint32_t th_dn, uint32_t *out_pn,
                uint32_t *out_dn)
{
    const struct game *g = s->g;
    if (settled(s, st, depth, out_pn, out_dn))
        return;
    const int or_node = g->to_move(st) == s->attacker;
    const uint64_t key = tt_key(g, st), check = g->hash(st);
    struct level *l;
    s->nodes++;
    if (settle_near_bound(s, st, depth, or_node, out_pn, out_dn)) {
        if (depth == 2)
            tt_put(s, key, check, depth, *out_pn, *out_dn);
        return;
    }
    if ((s->max_nodes && s->nodes > s->max_nodes)
        || (s->stop && atomic_load_explicit(s->stop, memory_order_relaxed)))
        s->out_of_budget = 1;
    int n = s->out_of_budget ? -2 : expand(s, st, depth, &l);
    if (n < 0) {
        s->out_of_memory |= n == -1;
        tt_get(s, key, check, depth, out_pn, out_dn);
        return;
    }
    uint32_t pn = 0, dn = 0;
    int pick = 0;
    for (;;) {
        /* OR: pn = min, dn = sum; AND: the other way round. */
        uint32_t best = UINT32_MAX, second = INF;
        pick = 0;
        pn = or_node ? INF : 0;
        dn = or_node ? 0 : INF;
        for (int i = 0; i < n; i++) {
            uint32_t mine = or_node ? l->pn[i] : l->dn[i];
            if (or_node) {
                pn = pn < l->pn[i] ? pn : l->pn[i];
                dn = add_sat(dn, l->dn[i]);
            } else {
                pn = add_sat(pn, l->pn[i]);
                dn = dn < l->dn[i] ? dn : l->dn[i];
            }
            if (mine < best) {
                second = best < second ? best : second;
                best = mine;
                pick = i;
            } else if (mine < second) {
                second = mine;
            }
        }
        if (n == 0)
            pn = or_node ? INF : 0, dn = or_node ? 0 : INF;
        if (pn >= th_pn || dn >= th_dn || s->out_of_budget || s->out_of_memory)
            break;
        uint32_t c_pn, c_dn;
        if (or_node) {
            c_pn = th_pn < add_sat(second, 1) ? th_pn : add_sat(second, 1);
            c_dn = th_dn >= INF ? INF : add_sat(th_dn - dn, l->dn[pick]);
        } else {
            c_dn = th_dn < add_sat(second, 1) ? th_dn : add_sat(second, 1);
            c_pn = th_pn >= INF ? INF : add_sat(th_pn - pn, l->pn[pick]);
        }
        /* The child's own level is deeper, so l stays valid. */
        unsigned char *child = solver_line(s, depth - 1);
        game_copy_state(g, child, st);
        g->apply(child, l->moves[pick]);
        mid(s, child, depth - 1, c_pn, c_dn, &l->pn[pick], &l->dn[pick]);
    }
    if (!(s->only && depth == s->root_depth))
        tt_put(s, key, check, depth, pn, dn);
    *out_pn = pn;
    *out_dn = dn;
}

/* ---- the search ----------------------------------------------------------- */

/* A zeroed table of bytes (a multiple of 128), aligned to 2 MiB and
 * offered huge pages where the system has them: the search reads it at
 * random, and with 4 KiB pages nearly every read is also a TLB miss. */
static struct tt_entry *table_alloc(size_t bytes)
{
    const size_t huge = (size_t)2 << 20;
    size_t rounded = (bytes + huge - 1) / huge * huge;
    void *p = aligned_alloc(huge, rounded);
    if (!p)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE); /* a hint: failing is harmless */
#endif
    memset(p, 0, rounded);
    return p;
}

/* Sets t up with the entries o asks for (tt_entries, else max_mb's
 * worth, rounded down to a power of two). Returns 0, or -1 out of
 * memory. */
static int table_init(struct solver_table *t, const struct solver_options *o)
{
    size_t entries = o->tt_entries ? o->tt_entries
                     : (o->max_mb ? o->max_mb : 64) * 1024 * 1024
                           / sizeof(struct tt_entry);
    size_t size = TT_WAYS;
    while (size * 2 <= entries)
        size *= 2;
    t->entries = table_alloc(size * sizeof *t->entries);
    t->mask = size - 1;
    return t->entries ? 0 : -1;
}

struct solver_table *solver_table_open(const struct solver_options *o)
{
    struct solver_table *t = malloc(sizeof *t);
    if (t && table_init(t, o) != 0) {
        free(t);
        t = NULL;
    }
    return t;
}

void solver_table_close(struct solver_table *t)
{
    if (t)
        free(t->entries);
    free(t);
}

int solver_init(struct solver *s, const struct game *g, const void *st,
                const struct solver_options *o, char *err, size_t errsz)
{
    memset(s, 0, sizeof *s);
    if (o->plies < 1 || o->plies > SOLVER_MAX_PLIES) {
        snprintf(err, errsz, "the ply bound must be 1 to %d", SOLVER_MAX_PLIES);
        return -1;
    }
    s->g = g;
    s->attacker = g->to_move(st);
    s->max_nodes = o->max_nodes;
    s->stop = o->stop;
    s->max_dag_nodes = o->max_dag_nodes ? o->max_dag_nodes : SOLVER_DAG_NODES;
    s->line_stride = (g->state_size + 63) / 64 * 64;
    if (s->line_stride % 4096 == 0)
        s->line_stride += 64;
    s->line = aligned_alloc(64, (SOLVER_MAX_PLIES + 1) * s->line_stride);
    s->table = o->table ? o->table : &s->own_table;
    if (!s->line || (!o->table && table_init(&s->own_table, o) != 0)) {
        free(s->line);
        snprintf(err, errsz, "out of memory for the transposition table");
        return -1;
    }
    s->tt = s->table->entries;
    s->tt_mask = s->table->mask;
    return 0;
}

void solver_free(struct solver *s)
{
    for (int i = 0; i <= SOLVER_MAX_PLIES; i++)
        free(s->levels[i]);
    solver_dag_free(s);
    free(s->line);
    if (s->table == &s->own_table)
        free(s->own_table.entries);
}

/* Proves or disproves st within depth, as far as the budget goes. */
static void search(struct solver *s, const void *st, uint32_t depth,
                   uint32_t *pn, uint32_t *dn)
{
    mid(s, st, depth, INF, INF, pn, dn);
}

/* solver_internal.h */
int solver_child_proven(struct solver *s, const void *child, uint32_t depth)
{
    uint32_t pn, dn;
    if (settled(s, child, depth, &pn, &dn))
        return pn == 0;
    tt_get(s, tt_key(s->g, child), s->g->hash(child), depth, &pn, &dn);
    if (pn != 0 && dn != 0)
        search(s, child, depth, &pn, &dn);
    return pn == 0;
}

/* Follows the proof from a proven st: the attacker's proving move, the
 * defender's first reply that does not end the game at once (so the line
 * shows play, not an immediate loss). */
static void principal_variation(struct solver *s, const void *st,
                                uint32_t depth, struct solver_result *r)
{
    const struct game *g = s->g;
    _Alignas(GAME_STATE_ALIGN) unsigned char cur[GAME_MAX_STATE_SIZE];
    _Alignas(GAME_STATE_ALIGN) unsigned char child[GAME_MAX_STATE_SIZE];
    move_t moves[GAME_MAX_MOVES];
    game_copy_state(g, cur, st);
    r->pv_len = 0;
    while (depth > 0 && g->status(cur).outcome == GAME_ONGOING) {
        int n = solver_moves(s, cur, depth, moves), chosen = -1;
        int or_node = g->to_move(cur) == s->attacker;
        for (int i = 0; i < n && (chosen < 0 || !or_node); i++) {
            game_copy_state(g, child, cur);
            g->apply(child, moves[i]);
            if (or_node ? solver_child_proven(s, child, depth - 1)
                        : g->status(child).outcome == GAME_ONGOING || chosen < 0)
                chosen = i;
            if (!or_node && g->status(child).outcome == GAME_ONGOING)
                break;
        }
        if (chosen < 0)
            return;
        r->pv[r->pv_len++] = moves[chosen];
        g->apply(cur, moves[chosen]);
        depth--;
    }
}

/* solver_internal.h */
void solver_solve_with(struct solver *s, const void *st, int plies,
                       struct solver_result *r)
{
    double t0 = clock_seconds();
    uint32_t pn, dn;
    memset(r, 0, sizeof *r);
    search(s, st, (uint32_t)plies, &pn, &dn);
    r->answer = pn == 0 ? SOLVER_WIN : dn == 0 ? SOLVER_NO_WIN : SOLVER_UNKNOWN;
    r->root_pn = pn;
    r->root_dn = dn;
    if (r->answer == SOLVER_WIN) {
        uint64_t budget = s->max_nodes;
        const atomic_int *stop = s->stop;
        s->max_nodes = 0; /* the line of a proven win must be completed */
        s->out_of_budget = 0;
        s->stop = NULL;
        principal_variation(s, st, (uint32_t)plies, r);
        s->max_nodes = budget;
        s->stop = stop;
    }
    r->nodes = s->nodes;
    r->seconds = clock_seconds() - t0;
}

int solver_solve(const struct game *g, const void *st,
                 const struct solver_options *o, struct solver_result *r,
                 char *err, size_t errsz)
{
    struct solver s;
    if (solver_init(&s, g, st, o, err, errsz))
        return -1;
    solver_solve_with(&s, st, o->plies, r);
    int oom = s.out_of_memory;
    solver_free(&s);
    if (oom) {
        snprintf(err, errsz, "out of memory during the search");
        return -1;
    }
    return 0;
}

/* ---- what solver_disproof.c uses (solver_internal.h) -------------------- */

uint64_t solver_state_key(const struct game *g, const void *st)
{
    _Alignas(GAME_STATE_ALIGN) unsigned char form[GAME_MAX_STATE_SIZE];
    game_canonical_copy(g, form, st);
    return state_key(form, game_state_used(g, form));
}

uint64_t solver_tt_key(const struct solver *s, const void *st)
{
    return tt_key(s->g, st);
}

void solver_tt_get(const struct solver *s, uint64_t key, uint64_t check,
                   uint32_t depth, uint32_t *pn, uint32_t *dn)
{
    tt_get(s, key, check, depth, pn, dn);
}

int solver_settled(const struct solver *s, const void *st, uint32_t depth,
                   uint32_t *pn, uint32_t *dn)
{
    return settled(s, st, depth, pn, dn);
}

void solver_search(struct solver *s, const void *st, uint32_t depth,
                   uint32_t *pn, uint32_t *dn)
{
    search(s, st, depth, pn, dn);
}

/* Whether the part a split's solver is set to (s->only) is found in
 * moves (n of them); moves[0] is then that move alone. */
static int keep_only_move(const struct solver *s, move_t *moves, int n)
{
    for (int i = 0; i < n; i++)
        if (moves[i] == s->only_move) {
            moves[0] = moves[i];
            return 1;
        }
    return 0;
}

int solver_moves(const struct solver *s, const void *st, uint32_t depth,
                 move_t *moves)
{
    int n = s->g->legal_moves(st, moves);
    if (s->only && depth == s->root_depth)
        n = keep_only_move(s, moves, n);
    return n;
}
