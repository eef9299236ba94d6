/*
 * solver_disproof.c -- writing a disproof certificate (format in
 * disproof.h) once the search has disproven the root. The refutation is
 * rebuilt from the transposition table as a DAG: at the attacker's turns
 * every legal move, at the defender's one reply: the first in the move
 * generator's order that refutes (the table says which refute, and a
 * search without a budget where it lost one); a position met again at a
 * bound it was written with (or above) becomes a link. The DAG is then
 * written in preorder, marking the nodes linked more than once as
 * shared, so the checker keeps fingerprints of those only.
 *
 * Every choice is thus the game's, not the search's: the bytes are a
 * function of the question (variant, position, plies, part) and the
 * format version (disproof.h), whatever the table's size, the threads
 * or the parts solved before in a split's shared table.
 *
 * The bytes go out by putc_unlocked: each file is this thread's alone,
 * and with OpenMP's threads about, putc's locking took 7% of a split's
 * time.
 */
#define _POSIX_C_SOURCE 200809L /* putc_unlocked */
#include <stdlib.h>
#include <string.h>

#include "disproof.h"
#include "solver_internal.h"

/* Whether child is disproven for the attacker within depth (searching it
 * again if the table lost it). An attacker's node with one ply left is
 * never in the table (the search settles it on the spot), so it is not
 * looked up. */
static int child_disproven(struct solver *s, const void *child, uint32_t depth)
{
    uint32_t pn = 1, dn = 1;
    if (solver_settled(s, child, depth, &pn, &dn))
        return dn == 0;
    if (depth > 1 || s->g->to_move(child) != s->attacker)
        solver_tt_get(s, solver_tt_key(s, child), s->g->hash(child), depth,
                      &pn, &dn);
    if (pn != 0 && dn != 0)
        solver_search(s, child, depth, &pn, &dn);
    return dn == 0;
}

/* The refutation as a DAG: a node per (position, bound) written, its
 * edges contiguous in `edges`; child -1 is END. */
struct dnode {
    uint32_t bound, first_edge, n_edges, refs;
    int64_t emitted; /* its number in the file, -1 before */
    int or_node;
};

struct dedge {
    move_t move;
    int32_t child;
    uint32_t text; /* its move text's index in the dictionary */
};

struct dmap_entry {
    uint64_t key, check;
    int32_t id;
    uint32_t epoch; /* the entry is empty unless it is the DAG's epoch */
};

/* What dag_build and stream_node need at one depth (the recursion is as
 * deep as the bound), made on first use: a node's moves, its edges and a
 * child state. */
struct dag_scratch {
    move_t *moves;
    struct dedge *edges;
    unsigned char *child;
};

/* The DAG of one disproof. Its buffers are the solver's (s->dag), kept
 * from one disproof to the next, since a split writes hundreds of them:
 * dag_reset empties it, and the map is emptied by moving to the next
 * epoch rather than by clearing it. */
struct dag {
    struct solver *s;
    uint32_t epoch;
    struct dag_scratch scratch[SOLVER_MAX_PLIES + 1];
    struct dnode *nodes;
    size_t n, cap;
    struct dedge *edges;
    size_t ne, ecap;
    struct dmap_entry *map; /* position -> its node of highest bound */
    size_t map_mask, map_used;
    char (*texts)[DISPROOF_MOVE_MAX + 1]; /* the move dictionary */
    int32_t *text_map; /* open addressing over texts: index + 1 */
    int64_t *file_id; /* the id each text has in the file, -1 before */
    size_t ntexts, text_mask;
    int64_t ntexts_in_file;
    int too_big; /* the DAG reached s->max_dag_nodes: stream a tree */
    /* Where the records go; twin (may be NULL) gets them too, with every
     * move text mirrored: the mirror-image part of a split. */
    FILE *out, *twin;
    char err[256];
};

static int dag_fail(struct dag *d, const char *why)
{
    if (!d->err[0])
        snprintf(d->err, sizeof d->err, "%s", why);
    return -1;
}

/* The scratch of depth (<= SOLVER_MAX_PLIES), or NULL out of memory. */
static struct dag_scratch *dag_scratch(struct dag *d, uint32_t depth)
{
    struct dag_scratch *sc = &d->scratch[depth];
    size_t n = (size_t)d->s->g->max_moves;
    if (!sc->moves) {
        sc->moves = malloc(sizeof *sc->moves * n);
        sc->edges = malloc(sizeof *sc->edges * n);
        sc->child = aligned_alloc(GAME_STATE_ALIGN, GAME_MAX_STATE_SIZE);
    }
    if (!sc->moves || !sc->edges || !sc->child) {
        dag_fail(d, "out of memory for the disproof");
        return NULL;
    }
    return sc;
}

static uint64_t text_hash(const char *t)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *t; t++)
        h = (h ^ (unsigned char)*t) * 0x100000001b3ULL;
    return h;
}

/* The dictionary index of text, added if new; -1 when full. */
static int64_t dag_text(struct dag *d, const char *text)
{
    if (!d->text_map) {
        d->text_mask = 2 * DISPROOF_MAX_MOVE_IDS - 1;
        d->text_map = calloc(d->text_mask + 1, sizeof *d->text_map);
        d->texts = malloc(sizeof *d->texts * DISPROOF_MAX_MOVE_IDS);
        d->file_id = malloc(sizeof *d->file_id * DISPROOF_MAX_MOVE_IDS);
        if (!d->text_map || !d->texts || !d->file_id)
            return dag_fail(d, "out of memory for the move dictionary");
    }
    size_t h = text_hash(text) & d->text_mask;
    for (;; h = (h + 1) & d->text_mask) {
        int32_t v = d->text_map[h];
        if (v == 0)
            break;
        if (strcmp(d->texts[v - 1], text) == 0)
            return v - 1;
    }
    size_t len = strlen(text);
    if (d->ntexts == DISPROOF_MAX_MOVE_IDS || len > DISPROOF_MOVE_MAX)
        return dag_fail(d, "too many distinct moves for a disproof");
    memcpy(d->texts[d->ntexts], text, len + 1); /* len + 1 <= its size */
    d->file_id[d->ntexts] = -1;
    d->text_map[h] = (int32_t)++d->ntexts;
    return (int64_t)d->ntexts - 1;
}

/* The node written for this position at a bound >= depth, or -1. */
static int32_t dag_find(const struct dag *d, uint64_t key, uint64_t check,
                        uint32_t depth)
{
    if (!d->map)
        return -1;
    for (size_t h = key & d->map_mask;; h = (h + 1) & d->map_mask) {
        const struct dmap_entry *e = &d->map[h];
        if (e->epoch != d->epoch)
            return -1;
        if (e->key == key && e->check == check)
            return d->nodes[e->id].bound >= depth ? e->id : -1;
    }
}

/* Records id as the node of its position (if its bound is the highest). */
static int dag_remember(struct dag *d, uint64_t key, uint64_t check,
                        int32_t id)
{
    if (2 * (d->map_used + 1) > d->map_mask + 1 || !d->map) {
        size_t size = d->map ? 2 * (d->map_mask + 1) : 1 << 12;
        struct dmap_entry *old = d->map, *grown = malloc(sizeof *grown * size);
        size_t old_size = d->map ? d->map_mask + 1 : 0;
        if (!grown)
            return dag_fail(d, "out of memory for the disproof's table");
        for (size_t i = 0; i < size; i++)
            grown[i].epoch = 0; /* epochs start at 1 */
        d->map = grown;
        d->map_mask = size - 1;
        d->map_used = 0;
        for (size_t i = 0; i < old_size; i++)
            if (old[i].epoch == d->epoch)
                dag_remember(d, old[i].key, old[i].check, old[i].id);
        free(old);
    }
    size_t h = key & d->map_mask;
    for (;; h = (h + 1) & d->map_mask) {
        struct dmap_entry *e = &d->map[h];
        if (e->epoch != d->epoch) {
            e->key = key;
            e->check = check;
            e->id = id;
            e->epoch = d->epoch;
            d->map_used++;
            return 0;
        }
        if (e->key == key && e->check == check) {
            if (d->nodes[id].bound > d->nodes[e->id].bound)
                e->id = id;
            return 0;
        }
    }
}

/* Appends a node with the n edges in buf; returns its id or -1. */
static int32_t dag_add(struct dag *d, uint32_t bound, int or_node,
                       const struct dedge *buf, int n)
{
    if (d->n >= d->s->max_dag_nodes) {
        d->too_big = 1;
        return dag_fail(d, "the disproof's DAG would pass its node cap");
    }
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 1024;
        void *grown = realloc(d->nodes, sizeof *d->nodes * cap);
        if (!grown || cap > INT32_MAX)
            return dag_fail(d, "out of memory for the disproof");
        d->nodes = grown;
        d->cap = cap;
    }
    while (d->ne + (size_t)n > d->ecap) {
        size_t cap = d->ecap ? 2 * d->ecap : 4096;
        void *grown = realloc(d->edges, sizeof *d->edges * cap);
        if (!grown || cap > UINT32_MAX)
            return dag_fail(d, "out of memory for the disproof");
        d->edges = grown;
        d->ecap = cap;
    }
    struct dnode *node = &d->nodes[d->n];
    node->bound = bound;
    node->first_edge = (uint32_t)d->ne;
    node->n_edges = (uint32_t)n;
    node->refs = 1;
    node->emitted = -1;
    node->or_node = or_node;
    if (n > 0) /* a leaf has no edges, and edges may not exist yet */
        memcpy(d->edges + d->ne, buf, sizeof *buf * (size_t)n);
    d->ne += (size_t)n;
    return (int32_t)d->n++;
}

/* The node of st at `depth` plies left, found or built (below). */
static int dag_build(struct dag *d, const void *st, uint32_t depth,
                     int32_t *out);

/* What dag_edge and stream_node share, for the move m from st to child
 * (made by the caller): the child's outcome into *o and m's dictionary
 * index into *text. Returns 0, or -1 when m wins for the attacker (the
 * table was wrong) or its text does not fit. */
static int edge_move(struct dag *d, const void *st, move_t m,
                     const void *child, enum game_outcome *o, uint32_t *text)
{
    const struct game *g = d->s->g;
    char buf[64];
    *o = g->status(child).outcome;
    if (*o == (d->s->attacker == 0 ? GAME_WIN_SEAT0 : GAME_WIN_SEAT1))
        return dag_fail(d, "the disproof could not be rebuilt (a move wins)");
    if (g->move_to_text(st, m, buf, sizeof buf) < 0)
        return dag_fail(d, "a move text too long for a disproof");
    int64_t t = dag_text(d, buf);
    if (t < 0)
        return -1;
    *text = (uint32_t)t;
    return 0;
}

/* The edge e from st by m to child (made by the caller): END, an
 * existing node or a new one built below. Returns 0 or -1. */
static int dag_edge(struct dag *d, const void *st, move_t m, const void *child,
                    uint32_t depth, struct dedge *e)
{
    enum game_outcome o;
    e->move = m;
    e->child = -1;
    if (edge_move(d, st, m, child, &o, &e->text) != 0)
        return -1;
    if (o != GAME_ONGOING || depth == 1)
        return 0;
    return dag_build(d, child, depth - 1, &e->child);
}

/* The defender's reply at st (depth plies left, disproven): the first of
 * its nm moves, in the move generator's order, after which the attacker
 * cannot win within depth - 1 plies (child_disproven: the table where it
 * knows, else a search without a budget). That reply is a fact of the
 * game, not of the search, so the certificate's bytes do not depend on
 * what the table holds (its size, the parts solved before in it, the
 * threads sharing it): the reason of format 2 (disproof.h). Its index in
 * moves, or -1. child is scratch, holding the reply's child on return. */
static int first_refutation(struct dag *d, const void *st, uint32_t depth,
                            const move_t *moves, int nm, void *child)
{
    const struct game *g = d->s->g;
    for (int i = 0; i < nm; i++) {
        game_copy_state(g, child, st);
        g->apply(child, moves[i]);
        if (child_disproven(d->s, child, depth - 1))
            return i;
    }
    return -1;
}

/* The edges of an attacker's node st into sc->edges (*n of them): one
 * per move, each child disproven; none at a leaf (depth 1), whose moves
 * the checker plays itself. Returns 0 or -1. */
static int attacker_edges(struct dag *d, const void *st, uint32_t depth,
                          struct dag_scratch *sc, int *n)
{
    struct solver *s = d->s;
    const struct game *g = s->g;
    int rc = 0, nm = depth < 2 ? 0 : solver_moves(s, st, depth, sc->moves);
    for (int i = 0; i < nm && rc == 0; i++) {
        game_copy_state(g, sc->child, st);
        g->apply(sc->child, sc->moves[i]);
        if (g->status(sc->child).outcome == GAME_ONGOING
            && !child_disproven(s, sc->child, depth - 1))
            return dag_fail(d, "the disproof could not be rebuilt");
        rc = dag_edge(d, st, sc->moves[i], sc->child, depth,
                      &sc->edges[(*n)++]);
    }
    return rc;
}

/* The one edge of a defender's node st into sc->edges (*n = 1): its
 * first refutation. Returns 0 or -1. */
static int defender_edge(struct dag *d, const void *st, uint32_t depth,
                         struct dag_scratch *sc, int *n)
{
    *n = 1;
    int nm = solver_moves(d->s, st, depth, sc->moves);
    int pick = first_refutation(d, st, depth, sc->moves, nm, sc->child);
    if (pick < 0)
        return dag_fail(d, "the disproof could not be rebuilt (no reply)");
    return dag_edge(d, st, sc->moves[pick], sc->child, depth, &sc->edges[0]);
}

/* The node of st at `depth` plies left (disproven), found or built. */
static int dag_build(struct dag *d, const void *st, uint32_t depth,
                     int32_t *out)
{
    struct solver *s = d->s;
    const struct game *g = s->g;
    const uint64_t key = solver_state_key(g, st), check = g->hash(st);
    int32_t id = dag_find(d, key, check, depth);
    if (id >= 0) {
        d->nodes[id].refs++;
        *out = id;
        return 0;
    }
    const int or_node = g->to_move(st) == s->attacker;
    struct dag_scratch *sc = dag_scratch(d, depth);
    int n = 0;
    if (!sc)
        return -1;
    if (or_node ? attacker_edges(d, st, depth, sc, &n)
                : defender_edge(d, st, depth, sc, &n))
        return -1;
    id = dag_add(d, depth, or_node, sc->edges, n);
    *out = id;
    return id < 0 ? -1 : dag_remember(d, key, check, id);
}

static void put_varint(struct dag *d, uint64_t v)
{
    while (v >= 0x80) {
        putc_unlocked((int)(v & 0x7f) | 0x80, d->out);
        if (d->twin)
            putc_unlocked((int)(v & 0x7f) | 0x80, d->twin);
        v >>= 7;
    }
    putc_unlocked((int)v, d->out);
    if (d->twin)
        putc_unlocked((int)v, d->twin);
}

static void put_text(FILE *out, const char *text)
{
    size_t len = strlen(text);
    putc_unlocked(0, out);
    putc_unlocked((int)len, out);
    fwrite(text, 1, len, out);
}

/* Writes the move of dictionary entry `text`: its number in the file, or
 * on its first use 0 and the text itself (which gives it the next one);
 * to the twin, the text's mirror image (of the same length: a square's
 * mirror differs in its file letter alone). Returns 0 or -1. */
static int put_move(struct dag *d, uint32_t text)
{
    if (d->file_id[text] >= 0) {
        put_varint(d, (uint64_t)d->file_id[text] + 1);
        return 0;
    }
    put_text(d->out, d->texts[text]);
    if (d->twin) {
        char mirror[DISPROOF_MOVE_MAX + 1];
        int len = d->s->g->mirror_move_text(d->texts[text], mirror,
                                            sizeof mirror);
        if (len != (int)strlen(d->texts[text]))
            return dag_fail(d, "a move's mirror image has another length");
        put_text(d->twin, mirror);
    }
    d->file_id[text] = d->ntexts_in_file++;
    return 0;
}

/* Writes node id's record (its first visit) and below. Returns 0 or -1. */
static int dag_emit(struct dag *d, int32_t id, int64_t *next)
{
    struct dnode *node = &d->nodes[id];
    node->emitted = (*next)++;
    put_varint(d, node->bound);
    if (node->or_node && node->bound >= 2)
        put_varint(d, node->n_edges);
    for (uint32_t i = 0; i < node->n_edges; i++) {
        const struct dedge *e = &d->edges[node->first_edge + i];
        if (put_move(d, e->text) != 0)
            return -1;
        if (e->child < 0) {
            put_varint(d, 0);
        } else if (d->nodes[e->child].emitted >= 0) {
            put_varint(d, 2 + (uint64_t)(*next - d->nodes[e->child].emitted));
        } else {
            put_varint(d, d->nodes[e->child].refs >= 2 ? 2 : 1);
            if (dag_emit(d, e->child, next) != 0)
                return -1;
        }
    }
    return 0;
}

/* solver_internal.h */
void solver_dag_free(struct solver *s)
{
    struct dag *d = s->dag;
    if (!d)
        return;
    for (int i = 0; i <= SOLVER_MAX_PLIES; i++) {
        free(d->scratch[i].moves);
        free(d->scratch[i].edges);
        free(d->scratch[i].child);
    }
    free(d->nodes);
    free(d->edges);
    free(d->map);
    free(d->texts);
    free(d->text_map);
    free(d->file_id);
    free(d);
    s->dag = NULL;
}

/* The solver's DAG, emptied for a new disproof; NULL out of memory. */
static struct dag *dag_reset(struct solver *s)
{
    struct dag *d = s->dag;
    if (!d && !(d = s->dag = calloc(1, sizeof *d)))
        return NULL;
    d->s = s;
    d->epoch++;
    if (d->epoch == 0) { /* wrapped: no entry may look current */
        for (size_t i = 0; d->map && i <= d->map_mask; i++)
            d->map[i].epoch = 0;
        d->epoch = 1;
    }
    d->n = d->ne = d->map_used = 0;
    if (d->text_map)
        memset(d->text_map, 0, sizeof *d->text_map * (d->text_mask + 1));
    d->ntexts = 0;
    d->ntexts_in_file = 0;
    d->too_big = 0;
    d->out = d->twin = NULL;
    d->err[0] = 0;
    return d;
}

/* ---- the tree streamed, for a disproof too big for the DAG ------------ */

/* Writes the record of st (disproven at depth plies left) and those below
 * it straight to out, in the order dag_emit would, every child a new node
 * (no links: nothing is kept to link to); counts them in *nodes. */
static int stream_node(struct dag *d, const void *st, uint32_t depth,
                       long *nodes)
{
    struct solver *s = d->s;
    const struct game *g = s->g;
    const int or_node = g->to_move(st) == s->attacker;
    struct dag_scratch *sc = dag_scratch(d, depth);
    (*nodes)++;
    put_varint(d, depth);
    if (!sc)
        return -1;
    if (or_node && depth == 1)
        return 0; /* a leaf: the checker plays every move itself */
    move_t *moves = sc->moves;
    unsigned char *child = sc->child;
    int rc = 0, from = 0, to = solver_moves(s, st, depth, moves);
    if (or_node) {
        put_varint(d, (uint64_t)to);
    } else { /* a defender: its first refutation alone */
        from = first_refutation(d, st, depth, moves, to, child);
        to = from + 1;
        if (from < 0)
            return dag_fail(d, "the disproof could not be rebuilt (no reply)");
    }
    for (int i = from; i < to && rc == 0; i++) {
        enum game_outcome o;
        uint32_t t;
        if (or_node) { /* a defender's reply is made already */
            game_copy_state(g, child, st);
            g->apply(child, moves[i]);
        }
        if (edge_move(d, st, moves[i], child, &o, &t) != 0) {
            rc = -1;
            break;
        }
        if (o == GAME_ONGOING && depth > 1 && or_node
            && !child_disproven(s, child, depth - 1)) {
            rc = dag_fail(d, "the disproof could not be rebuilt");
            break;
        }
        if (put_move(d, t) != 0) {
            rc = -1;
            break;
        }
        if (o != GAME_ONGOING || depth == 1) {
            put_varint(d, 0);
        } else {
            put_varint(d, 1);
            rc = stream_node(d, child, depth - 1, nodes);
        }
    }
    return rc;
}

/* Copies the temporary data file to out after its header head and the
 * node counts, then "end". */
static void copy_data(FILE *data, const char *head, long nodes, FILE *out)
{
    char chunk[65536];
    size_t got;
    fprintf(out, "%snodes %ld\nshared 0\ndata\n", head, nodes);
    rewind(data);
    while ((got = fread(chunk, 1, sizeof chunk, data)) > 0)
        fwrite(chunk, 1, got, out);
    fputs("end\n", out);
}

/* Streams the disproof of root into a temporary file (and its twin's
 * into another), then writes the header (which counts the nodes) and the
 * data to out (and twin). */
static int stream_disproof(struct dag *d, const void *root, int plies,
                           const char *head, FILE *out, const char *twin_head,
                           FILE *twin, long *nodes)
{
    FILE *data = tmpfile(), *twin_data = twin ? tmpfile() : NULL;
    int rc = 0;
    *nodes = 0;
    if (!data || (twin && !twin_data))
        rc = dag_fail(d, "cannot make a temporary file for the disproof");
    d->out = data;
    d->twin = twin_data;
    if (rc == 0)
        rc = stream_node(d, root, (uint32_t)plies, nodes);
    if (rc == 0
        && (fflush(data) != 0 || ferror(data)
            || (twin_data && (fflush(twin_data) != 0 || ferror(twin_data)))))
        rc = dag_fail(d, "writing the disproof's temporary file failed");
    if (rc == 0) {
        copy_data(data, head, *nodes, out);
        if (twin)
            copy_data(twin_data, twin_head, *nodes, twin);
    }
    if (data)
        fclose(data);
    if (twin_data)
        fclose(twin_data);
    return rc;
}

/* The header up to the node count into head (n bytes): a split's part
 * names its move (the root's only one) -- in a twin, that move's mirror
 * image. Returns 0 or -1. */
static int disproof_head(const struct solver *s, const struct variant *v,
                         const void *root, const char *position, int plies,
                         int mirror, char *head, size_t n)
{
    char canonical[VARIANT_TEXT_MAX], text[64], mirrored[64];
    variant_canonical(v, canonical, sizeof canonical);
    int len = snprintf(head, n, "%s\nvariant %s\nposition %s\nplies %d\n",
                       DISPROOF_MAGIC, canonical, position, plies);
    if (!s->only)
        return 0;
    if (s->g->move_to_text(root, s->only_move, text, sizeof text) < 0
        || (mirror && s->g->mirror_move_text(text, mirrored,
                                             sizeof mirrored) < 0))
        return -1;
    snprintf(head + len, n - (size_t)len, "part %s\n",
             mirror ? mirrored : text);
    return 0;
}

/* solver_internal.h */
int solver_write_disproof(struct solver *s, const struct variant *v,
                          const void *root, const char *position, int plies,
                          FILE *out, FILE *twin,
                          struct solver_certificate *cert, char *err,
                          size_t errsz)
{
    char head[2 * VARIANT_TEXT_MAX + 1200], twin_head[sizeof head];
    int32_t root_id;
    struct dag *d = dag_reset(s);
    if (!d) {
        snprintf(err, errsz, "out of memory for the disproof");
        return -1;
    }
    if (disproof_head(s, v, root, position, plies, 0, head, sizeof head)
        || (twin && disproof_head(s, v, root, position, plies, 1, twin_head,
                                  sizeof twin_head))) {
        snprintf(err, errsz, "a move text too long for a disproof");
        return -1;
    }
    if (dag_build(d, root, (uint32_t)plies, &root_id) != 0) {
        if (d->too_big) {
            long nodes;
            d = dag_reset(s);
            int rc = stream_disproof(d, root, plies, head, out, twin_head,
                                     twin, &nodes);
            if (rc == 0 && cert) {
                cert->nodes = nodes;
                cert->shared = 0;
            }
            if (rc != 0)
                snprintf(err, errsz, "%s", d->err);
            return rc;
        }
        snprintf(err, errsz, "%s", d->err);
        return -1;
    }
    long shared = 0;
    for (size_t i = 0; i < d->n; i++)
        shared += d->nodes[i].refs >= 2 && (int32_t)i != root_id;
    d->nodes[root_id].refs = 1; /* the root has no slot */
    fprintf(out, "%snodes %zu\nshared %ld\ndata\n", head, d->n, shared);
    if (twin)
        fprintf(twin, "%snodes %zu\nshared %ld\ndata\n", twin_head, d->n,
                shared);
    int64_t next = 0;
    d->out = out;
    d->twin = twin;
    int rc = dag_emit(d, root_id, &next);
    fputs("end\n", out);
    if (twin)
        fputs("end\n", twin);
    if (cert) {
        cert->nodes = (long)d->n;
        cert->shared = shared;
    }
    if (rc != 0)
        snprintf(err, errsz, "%s", d->err);
    if (rc == 0 && (size_t)next != d->n) {
        snprintf(err, errsz, "the disproof's DAG has nodes out of reach");
        return -1;
    }
    return rc;
}
