/*
 * store.c -- the SQLite results store: registering a run (the writer
 * lock, the sweep, its variants, agents and cells) and the batched insert
 * of finished games. (store_open.c opens a database and keeps its schema
 * up to date; store_internal.h is what the two share.)
 *
 * Durability: WAL with synchronous=FULL: each commit (one per batch of
 * games) is written to the log and fsynced before COMMIT returns, so a
 * SIGKILL, a crash of the system or a power cut loses at most the batch
 * not yet committed (the games in flight and those finished since the last
 * commit), never a committed one nor the consistency of the file, on
 * storage that honours fsync. (With synchronous=NORMAL a power cut could
 * roll back committed batches, up to the last checkpoint.) FULL costs one
 * fsync per batch: a 6,000-game sweep of about 12 batches took 0.92 s
 * against 0.91 s with NORMAL (means of 5 runs on 2 threads; the sweep and
 * the commands are in results/README.md). Games are unique per (cell,
 * index), so resuming a sweep can neither duplicate nor lose a game.
 *
 * One run writes a database at a time: store_begin_run takes an flock on
 * PATH.lock, which the kernel releases however the process ends, so the
 * next run may mark the runs left `running` as `killed`. Readers never
 * take it. A cell is found by its seed key (identities, see sweep.h), and
 * refuses to be resumed by another behaviour version of its game engine
 * or agents.
 */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "store_internal.h"
#include "version.h"

/* The time now, UTC, as the store writes it: 2024-01-31T12:00:00Z. */
static void now_text(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

#define COUNT(a) (sizeof(a) / sizeof(a)[0])

/* A value for a statement parameter (bind_values). A text is bound as
 * SQLITE_STATIC: it must stay as it is until the statement is stepped for
 * the last time; a NULL text binds NULL. */
struct value {
    enum { VALUE_NULL, VALUE_INT, VALUE_REAL, VALUE_TEXT } type;
    int64_t i;
    double r;
    const char *text;
    int len; /* the text's length in bytes; -1: up to its NUL */
};

static struct value int_value(int64_t i)
{
    return (struct value){.type = VALUE_INT, .i = i};
}

static struct value null_value(void)
{
    return (struct value){.type = VALUE_NULL};
}

static struct value text_value(const char *text)
{
    return (struct value){.type = VALUE_TEXT, .text = text, .len = -1};
}

/* Binds v[0..n-1] to the parameters ?1..?n of q. Returns 0, or -1 at the
 * first that fails (a text longer than the connection allows, out of
 * memory; the error is in sqlite3_errmsg). */
static int bind_values(sqlite3_stmt *q, const struct value *v, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        int i = (int)k + 1, rc;
        switch (v[k].type) {
        case VALUE_NULL:
            rc = sqlite3_bind_null(q, i);
            break;
        case VALUE_INT:
            rc = sqlite3_bind_int64(q, i, v[k].i);
            break;
        case VALUE_REAL:
            rc = sqlite3_bind_double(q, i, v[k].r);
            break;
        default:
            rc = sqlite3_bind_text(q, i, v[k].text, v[k].len, SQLITE_STATIC);
            break;
        }
        if (rc != SQLITE_OK)
            return -1;
    }
    return 0;
}

/* Runs the one statement sql with v[0..n-1] bound to ?1..?n. With ncols 0
 * it must yield no row (an INSERT, an UPDATE); otherwise it must yield a
 * row (an upsert with RETURNING, a SELECT of one row), whose first ncols
 * columns are read, as integers, into row[]. Returns 0, or -1 (the error
 * in sqlite3_errmsg). */
static int run_sql(struct store *st, const char *sql, const struct value *v,
                   size_t n, int64_t *row, int ncols)
{
    sqlite3_stmt *q = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK
        || bind_values(q, v, n)
        || sqlite3_step(q) != (ncols ? SQLITE_ROW : SQLITE_DONE))
        goto done;
    for (int i = 0; i < ncols; i++)
        row[i] = sqlite3_column_int64(q, i);
    rc = 0;
done:
    sqlite3_finalize(q);
    return rc;
}

/* Finds or adds the sweep (by name and seed), keeping the file text of
 * its last run. Returns its id, or -1 (the error in sqlite3_errmsg). */
static int64_t sweep_id(struct store *st, const struct sweep *s)
{
    char now[32];
    int64_t id;
    now_text(now, sizeof now);
    const struct value v[] = {text_value(s->name), int_value((int64_t)s->seed),
                              text_value(s->file_text), text_value(now)};
    if (run_sql(st, "INSERT INTO sweeps (name, seed, file_text, created)"
                " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (name, seed) DO UPDATE"
                " SET file_text = ?3 RETURNING id", v, COUNT(v), &id, 1))
        return -1;
    return id;
}

/* What identifies a cell, and what its games were played by. */
struct cell_keys {
    char variant_key[VARIANT_TEXT_MAX], agent_key[2][VARIANT_TEXT_MAX];
    int behaviour[3]; /* the game engine's, seat 0's and seat 1's agent's */
    const char *engine[3]; /* their names: the game, the agent kinds */
};

/* Splits c->seed_key into its three identities and looks up the behaviour
 * versions. Returns 0, or -1 with a message for a spec of no known kind. */
static int cell_keys(const struct sweep *s, const struct sweep_cell *c,
                     struct cell_keys *k, char *err, size_t errsz)
{
    char *part[3] = {k->variant_key, k->agent_key[0], k->agent_key[1]};
    const char *p = c->seed_key;
    for (int i = 0; i < 3; i++) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(part[i], VARIANT_TEXT_MAX, "%.*s", (int)n, p);
        p += n + (end ? 1 : 0);
    }
    k->engine[0] = c->variant.game->name;
    k->behaviour[0] = c->variant.game->behaviour_version;
    for (int i = 0; i < 2; i++) {
        const char *spec = s->agents[c->agent[i]].spec;
        const struct agent_kind *kind = agent_kind_of(spec);
        if (!kind) {
            snprintf(err, errsz, "%s: no agent kind", spec);
            return -1;
        }
        k->engine[1 + i] = kind->name;
        k->behaviour[1 + i] = kind->behaviour_version;
    }
    return 0;
}

/* Checks that a cell still to be played holds only games of the engine and
 * agent behaviour versions of this program: a cell without games takes
 * them; one with nothing left to play keeps its own; otherwise -1 with a
 * message saying which version changed and how to continue. */
static int check_behaviour(struct store *st, int64_t id, const int *stored,
                           const struct cell_keys *k, const struct sweep *s,
                           char *err, size_t errsz)
{
    static const char *const what[3] = {"game engine", "agent", "agent"};
    if (stored[0] == k->behaviour[0] && stored[1] == k->behaviour[1]
        && stored[2] == k->behaviour[2])
        return 0;
    /* games, those of an index below the plan, whether it stopped early */
    int64_t count[3];
    const struct value v[] = {int_value(id), int_value(s->games_per_cell)};
    if (run_sql(st, "SELECT COUNT(*), TOTAL(game_index < ?2), (SELECT"
                " stopped_at IS NOT NULL FROM cells WHERE id = ?1) FROM games"
                " WHERE cell_id = ?1", v, COUNT(v), count, 3))
        return store_error(st->db, err, errsz, "counting a cell's games");
    int games = (int)count[0], planned_stored = (int)count[1];
    int stopped = (int)count[2];
    /* A cell with nothing left to play (all its planned games stored, or
     * stopped early) mixes nothing: it keeps its games and versions. */
    if (games > 0 && (stopped || planned_stored >= s->games_per_cell))
        return 0;
    if (games == 0) {
        const struct value b[] = {int_value(id), int_value(k->behaviour[0]),
                                  int_value(k->behaviour[1]),
                                  int_value(k->behaviour[2])};
        if (run_sql(st, "UPDATE cells SET game_behaviour = ?2,"
                    " agent0_behaviour = ?3, agent1_behaviour = ?4 WHERE"
                    " id = ?1", b, COUNT(b), NULL, 0))
            return store_error(st->db, err, errsz, "updating a cell");
        return 0;
    }
    size_t len = (size_t)snprintf(
        err, errsz, "sweep %s (seed %llu), cell %s %s vs %s: its %d games "
        "were played by another version of", s->name,
        (unsigned long long)s->seed, k->variant_key, k->agent_key[0],
        k->agent_key[1], games);
    for (int i = 0; i < 3 && len < errsz; i++)
        if (stored[i] != k->behaviour[i])
            len += (size_t)snprintf(err + len, errsz - len, " the %s %s "
                                    "(behaviour version %d stored, %d here);",
                                    what[i], k->engine[i], stored[i],
                                    k->behaviour[i]);
    if (len < errsz)
        snprintf(err + len, errsz - len, " the same spec now plays different "
                 "games, so resuming would mix the two in one cell. To "
                 "continue, give the sweep a new seed or name (its games go "
                 "to new cells; the stored ones stay as they are)");
    return -1;
}

/* Refuses a cell that the sweep already holds under other openings: a
 * cell whose seed key is this one's first three lines (variant, agents in
 * seat order) with another fourth line, or none where this has one, or the
 * reverse. Games from other starting positions are other games: in one
 * sweep the variant and pair rows of the report would mix them. Returns 0,
 * or -1 with a message saying what is stored and how to go on. */
static int check_openings(struct store *st, int64_t sweep,
                          const struct sweep *s, const struct sweep_cell *c,
                          const struct cell_keys *k, char *err, size_t errsz)
{
    size_t base = strlen(c->seed_key);
    const char *nl = c->seed_key;
    for (int i = 0; i < 3 && nl; i++)
        nl = strchr(nl + (i ? 1 : 0), '\n');
    if (nl)
        base = (size_t)(nl - c->seed_key);
    const struct value v[] = {int_value(sweep), text_value(c->seed_key),
                              {.type = VALUE_TEXT, .text = c->seed_key,
                               .len = (int)base}};
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(st->db, "SELECT openings, (SELECT COUNT(*) FROM"
                           " games WHERE cell_id = cells.id) FROM cells WHERE"
                           " sweep_id = ?1 AND seed_key <> ?2 AND"
                           " substr(seed_key, 1, length(?3)) = ?3 AND"
                           " (length(seed_key) = length(?3) OR"
                           " substr(seed_key, length(?3) + 1, 1) = char(10))"
                           " LIMIT 1", -1, &q, NULL) != SQLITE_OK
        || bind_values(q, v, COUNT(v))) {
        sqlite3_finalize(q);
        return store_error(st->db, err, errsz, "looking up a cell");
    }
    int step = sqlite3_step(q), rc = 0;
    if (step == SQLITE_ROW) {
        const char *stored = (const char *)sqlite3_column_text(q, 0);
        const struct openings *o = sweep_cell_openings(s, c);
        snprintf(err, errsz, "sweep %s (seed %llu), cell %s %s vs %s: the "
                 "database holds it (%d games) with openings = %s, and this "
                 "sweep file says openings = %s. Games from other openings "
                 "must not mix in one sweep: give the sweep a new seed or "
                 "name (its games go to new cells; the stored ones stay as "
                 "they are), or set openings back", s->name,
                 (unsigned long long)s->seed, k->variant_key, k->agent_key[0],
                 k->agent_key[1], sqlite3_column_int(q, 1),
                 stored && stored[0] ? stored : "none",
                 o ? o->setting : "none");
        rc = -1;
    } else if (step != SQLITE_DONE) {
        rc = store_error(st->db, err, errsz, "looking up a cell");
    }
    sqlite3_finalize(q);
    return rc;
}

/* Finds or adds the cell (and its variant and agent rows) by its keys.
 * Returns its id, or -1 with a message. */
static int64_t cell_id(struct store *st, int64_t sweep, const struct sweep *s,
                       const struct sweep_cell *c, char *err, size_t errsz)
{
    struct cell_keys k;
    int64_t variant, agent[2], row[4];
    if (cell_keys(s, c, &k, err, errsz))
        return -1;
    const struct value v[] = {text_value(c->variant.game->name),
                              text_value(c->variant_text),
                              text_value(k.variant_key)};
    if (run_sql(st, "INSERT INTO variants (game, canonical, identity) VALUES"
                " (?1, ?2, ?3) ON CONFLICT (identity) DO UPDATE SET canonical"
                " = ?2 RETURNING id", v, COUNT(v), &variant, 1))
        return store_error(st->db, err, errsz,
                           "registering a variant or agent");
    for (int i = 0; i < 2; i++) {
        const struct value a[] = {text_value(s->agents[c->agent[i]].spec),
                                  text_value(k.agent_key[i])};
        if (run_sql(st, "INSERT INTO agents (spec, identity) VALUES (?1, ?2)"
                    " ON CONFLICT (identity) DO UPDATE SET spec = ?1"
                    " RETURNING id", a, COUNT(a), &agent[i], 1))
            return store_error(st->db, err, errsz,
                               "registering a variant or agent");
    }
    const struct openings *o = sweep_cell_openings(s, c);
    if (check_openings(st, sweep, s, c, &k, err, errsz))
        return -1;
    const struct value cv[] = {
        int_value(sweep), int_value(variant), int_value(agent[0]),
        int_value(agent[1]), text_value(s->agents[c->agent[0]].name),
        text_value(s->agents[c->agent[1]].name),
        int_value(s->games_per_cell), text_value(c->seed_key),
        int_value(k.behaviour[0]), int_value(k.behaviour[1]),
        int_value(k.behaviour[2]), text_value(o ? o->setting : "")};
    if (run_sql(st, "INSERT INTO cells (sweep_id, variant_id, agent0_id,"
                " agent1_id, agent0_name, agent1_name, games_planned, seed_key,"
                " game_behaviour, agent0_behaviour, agent1_behaviour, openings)"
                " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
                " ON CONFLICT (sweep_id, seed_key) DO UPDATE SET"
                " games_planned = ?7, agent0_name = ?5, agent1_name = ?6,"
                " openings = ?12 RETURNING id, game_behaviour,"
                " agent0_behaviour, agent1_behaviour", cv, COUNT(cv), row, 4))
        return store_error(st->db, err, errsz, "registering a cell");
    const int stored[3] = {(int)row[1], (int)row[2], (int)row[3]};
    if (check_behaviour(st, row[0], stored, &k, s, err, errsz))
        return -1;
    return row[0];
}

/* The behaviour versions of every game engine and agent kind, as recorded
 * in runs.behaviour: "jetan=1 serbest=1 tafl=1 mcts=1 random=1". */
static void behaviour_text(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; game_list[i] && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%d", len ? " " : "",
                                game_list[i]->name,
                                game_list[i]->behaviour_version);
    for (int i = 0; agent_kinds[i] && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, " %s=%d",
                                agent_kinds[i]->name,
                                agent_kinds[i]->behaviour_version);
}

/* The command that writes, named in the lock file (store_set_command). */
static char writer_command[64] = "rulelab";

void store_set_command(const char *command)
{
    snprintf(writer_command, sizeof writer_command, "rulelab %s", command);
}

/* Takes the writer lock: an flock() on PATH.lock, which then says who
 * holds it (pid, host, since when, and which command). Returns 0 (also when this store holds it already), or -1 with
 * a message naming the holder. The file stays when the lock is released:
 * removing it would let a third process lock a file no longer linked. */
static int take_writer_lock(struct store *st, char *err, size_t errsz)
{
    char lock[4200], holder[256] = "", host[200] = "?", now[32], text[400];
    if (st->lock_fd >= 0 || strcmp(st->path, ":memory:") == 0)
        return 0;
    snprintf(lock, sizeof lock, "%s.lock", st->path);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        snprintf(err, errsz, "%s: %s", lock, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        ssize_t n = pread(fd, holder, sizeof holder - 1, 0);
        holder[n > 0 ? n : 0] = '\0';
        holder[strcspn(holder, "\n")] = '\0';
        if (e == EWOULDBLOCK)
            snprintf(err, errsz, "%s is being written by another rulelab "
                     "command (%s; lock file %s): one writer at a time per "
                     "database. Wait for it to end, or stop it, then try "
                     "again (a run resumes); report, export and sqlite3 can "
                     "read the database meanwhile", st->path,
                     holder[0] ? holder : "it has not said who it is yet",
                     lock);
        else
            snprintf(err, errsz, "%s: cannot lock it: %s", lock, strerror(e));
        goto fail;
    }
    gethostname(host, sizeof host - 1);
    now_text(now, sizeof now);
    int len = snprintf(text, sizeof text, "pid %ld on host %s since %s: "
                       "%s\n", (long)getpid(), host, now, writer_command);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)len, 0) != len) {
        snprintf(err, errsz, "%s: cannot write it: %s", lock, strerror(errno));
        goto fail;
    }
    st->lock_fd = fd;
    return 0;
fail:
    close(fd);
    return -1;
}

/* Refuses shard k of n under `deal` when an earlier run of the sweep
 * (s->name, s->seed) here played that shard under another deal. Runs in
 * store_begin_shard_run's transaction, before it writes the sweep or cells, so
 * a refused run leaves no row changed. Returns 0, or -1 with a message. */
static int check_shard_deal(struct store *st, const struct sweep *s,
                            const struct store_shard *shard, char *err,
                            size_t errsz)
{
    const struct value v[] = {text_value(s->name), int_value((int64_t)s->seed),
                              int_value(shard->k), int_value(shard->n),
                              text_value(shard->deal)};
    int64_t others;
    if (run_sql(st, "SELECT COUNT(*) FROM runs JOIN sweeps ON sweeps.id ="
                " runs.sweep_id WHERE sweeps.name = ?1 AND sweeps.seed = ?2"
                " AND shard_index = ?3 AND shard_count = ?4 AND deal <> ?5",
                v, COUNT(v), &others, 1))
        return store_error(st->db, err, errsz, "reading the shard's runs");
    if (others == 0)
        return 0;
    snprintf(err, errsz, "%s: shard %d/%d of this sweep was played here"
             " under another deal of its games (another plan file, games"
             " count or stop rule); resuming it under this one could leave"
             " games that no shard plays. Resume it with the sweep file and"
             " plan it was started with, or give this deal its own --db",
             st->path, shard->k, shard->n);
    return -1;
}

int store_begin_run(struct store *st, const struct sweep *s, int threads,
                    int64_t *cell_ids, char *err, size_t errsz)
{
    return store_begin_shard_run(st, s, threads, NULL, cell_ids, err, errsz);
}

int store_begin_shard_run(struct store *st, const struct sweep *s,
                          int threads, const struct store_shard *shard,
                          int64_t *cell_ids, char *err, size_t errsz)
{
    if (st->readonly) {
        snprintf(err, errsz, "the database is open read-only");
        return -1;
    }
    if (store_commit(st, err, errsz) || take_writer_lock(st, err, errsz))
        goto fail;
    st->committed = 0;
    if (store_exec(st, "BEGIN IMMEDIATE", err, errsz))
        goto fail;
    /* Holding the lock proves that no run marked running is alive. */
    if (store_exec(st, "UPDATE runs SET status = 'killed' WHERE status = "
             "'running'", err, errsz))
        goto fail;
    if (shard && check_shard_deal(st, s, shard, err, errsz))
        goto fail;
    int64_t sweep = sweep_id(st, s);
    if (sweep < 0) {
        store_error(st->db, err, errsz, "registering the sweep");
        goto fail;
    }
    for (int i = 0; i < s->n_cells; i++) {
        if ((cell_ids[i] = cell_id(st, sweep, s, &s->cells[i], err, errsz)) < 0)
            goto fail;
        for (int j = 0; j < i; j++)
            if (cell_ids[j] == cell_ids[i]) {
                const struct sweep_cell *c = &s->cells[i];
                snprintf(err, errsz, "%s: cells %d and %d are the same cell "
                         "(%s, %s vs %s): the same variant and agent specs "
                         "in the same seats; list each once", s->path, j + 1,
                         i + 1, c->variant_text, s->agents[c->agent[0]].spec,
                         s->agents[c->agent[1]].spec);
                goto fail;
            }
    }
    char host[256] = "?", now[32], behaviour[512];
    gethostname(host, sizeof host - 1);
    now_text(now, sizeof now);
    behaviour_text(behaviour, sizeof behaviour);
    const struct value v[] = {
        int_value(sweep), text_value(RULELAB_VERSION), text_value(host),
        int_value(threads), text_value(now), text_value(behaviour),
        shard ? int_value(shard->k) : null_value(),
        shard ? int_value(shard->n) : null_value(),
        shard ? text_value(shard->deal) : null_value()};
    /* uid: a run's name across databases (merge copies it) */
    if (run_sql(st, "INSERT INTO runs (sweep_id, program_version, host,"
                " threads, started, behaviour, uid, shard_index, shard_count,"
                " deal) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
                " lower(hex(randomblob(16))), ?7, ?8, ?9)", v, COUNT(v), NULL,
                0)) {
        store_error(st->db, err, errsz, "recording the run");
        goto fail;
    }
    st->run_id = sqlite3_last_insert_rowid(st->db);
    if (store_exec(st, "COMMIT", err, errsz))
        goto fail;
    return 0;
fail:
    store_rollback(st, err, errsz);
    return -1;
}

int store_lock_writer(struct store *st, char *err, size_t errsz)
{
    return take_writer_lock(st, err, errsz);
}

/* Readies a cached statement: prepared the first time, reset and cleared
 * after. (sqlite3_reset returns the error of the statement's last step,
 * which was reported then: it is not this call's failure.) */
static int prepare(struct store *st, sqlite3_stmt **q, const char *sql)
{
    if (*q) {
        sqlite3_reset(*q);
        return sqlite3_clear_bindings(*q) == SQLITE_OK ? 0 : -1;
    }
    return sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, q,
                              NULL) == SQLITE_OK ? 0 : -1;
}

int store_cell_games(struct store *st, int64_t cell_id, int n, int *stopped_at,
                     int (*visit)(void *arg, int index,
                                  enum game_outcome outcome),
                     void *arg, char *err, size_t errsz)
{
    int rc = -1, step, visited = 0;
    const struct value v[] = {int_value(cell_id), int_value(n)};
    *stopped_at = -1;
    if (prepare(st, &st->cell_stop, "SELECT stopped_at FROM cells WHERE "
                "id = ?1")
        || bind_values(st->cell_stop, v, 1))
        goto done;
    step = sqlite3_step(st->cell_stop);
    if (step == SQLITE_ROW
        && sqlite3_column_type(st->cell_stop, 0) != SQLITE_NULL)
        *stopped_at = sqlite3_column_int(st->cell_stop, 0);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        goto done;
    if (prepare(st, &st->cell_games, "SELECT game_index, result FROM games "
                "WHERE cell_id = ?1 AND game_index >= 0 AND game_index < ?2 "
                "ORDER BY game_index")
        || bind_values(st->cell_games, v, 2))
        goto done;
    while (!visited && (step = sqlite3_step(st->cell_games)) == SQLITE_ROW) {
        const char *result =
            (const char *)sqlite3_column_text(st->cell_games, 1);
        if (!result) /* NOT NULL in the schema: out of memory */
            goto done;
        enum game_outcome outcome = strcmp(result, "seat0") == 0 ? GAME_WIN_SEAT0
                                    : strcmp(result, "seat1") == 0
                                        ? GAME_WIN_SEAT1
                                        : GAME_DRAW;
        visited = visit(arg, sqlite3_column_int(st->cell_games, 0), outcome);
    }
    rc = visited ? visited : step == SQLITE_DONE ? 0 : -1;
done:
    /* a database error, not one of visit's answers */
    if (rc == -1 && !visited && err && errsz)
        snprintf(err, errsz, "reading the stored games of cell %lld: %s",
                 (long long)cell_id, sqlite3_errmsg(st->db));
    /* (a reset returns the error its statement's last step met, said above) */
    if (st->cell_stop)
        sqlite3_reset(st->cell_stop);
    if (st->cell_games)
        sqlite3_reset(st->cell_games);
    return rc;
}

/* Stores g's per-move search figures (g->stats) as move_stats rows of game
 * game_id, in the open transaction; a move whose figures are all zero (an
 * agent that does not search) gets no row. Returns 0, or -1 with a
 * message. */
static int insert_move_stats(struct store *st, const struct game_record *g,
                             int64_t game_id, char *err, size_t errsz)
{
    for (int ply = 0; ply < g->plies; ply++) {
        const struct agent_stats *a = &g->stats[ply];
        if (!a->iterations && !a->nodes && !a->depth && a->value == 0
            && !a->proven)
            continue;
        if (prepare(st, &st->insert_move_stats, "INSERT INTO move_stats"
                    " (game_id, ply, iterations, nodes, depth, value, proven)"
                    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"))
            return store_error(st->db, err, errsz,
                               "preparing the move_stats insert");
        const struct value v[] = {
            int_value(game_id), int_value(ply),
            int_value((int64_t)a->iterations), int_value(a->nodes),
            int_value(a->depth),
            (struct value){.type = VALUE_REAL, .r = a->value},
            int_value(a->proven)};
        if (bind_values(st->insert_move_stats, v, COUNT(v))
            || sqlite3_step(st->insert_move_stats) != SQLITE_DONE) {
            char what[96];
            snprintf(what, sizeof what, "storing move %d of game %d of cell "
                     "%lld", ply, g->game_index, (long long)g->cell_id);
            return store_error(st->db, err, errsz, what);
        }
    }
    return 0;
}

int store_insert_game(struct store *st, const struct game_record *g, char *err,
                      size_t errsz)
{
    return store_insert_opened_game(st, g, NULL, err, errsz);
}

int store_insert_opened_game(struct store *st, const struct game_record *g,
                             const struct game_opening *o, char *err,
                             size_t errsz)
{
    static const char *const results[] = {NULL, "seat0", "seat1", "draw"};
    if (g->outcome != GAME_WIN_SEAT0 && g->outcome != GAME_WIN_SEAT1
        && g->outcome != GAME_DRAW) {
        snprintf(err, errsz, "storing game %d of cell %lld: it has not ended",
                 g->game_index, (long long)g->cell_id);
        return -1;
    }
    if (!st->in_transaction) {
        if (store_exec(st, "BEGIN IMMEDIATE", err, errsz))
            return -1;
        st->in_transaction = 1;
    }
    /* The conflict target is the one uniqueness a resumed game may meet;
     * a CHECK, NOT NULL or foreign-key violation is an error. */
    if (prepare(st, &st->insert_game, "INSERT INTO games (cell_id,"
                " game_index, seed, side0, side1, result, winner_seat, reason,"
                " plies, duration_ms, finished, moves, opening,"
                " opening_position, pair_id, run_id) VALUES (?1, ?2, ?3, ?4,"
                " ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"
                " ON CONFLICT"
                " (cell_id, game_index) DO NOTHING"))
        return store_error(st->db, err, errsz, "preparing the game insert");
    if (time(NULL) != st->clock) {
        st->clock = time(NULL);
        now_text(st->now, sizeof st->now);
    }
    const struct value v[] = {
        int_value(g->cell_id), int_value(g->game_index),
        int_value((int64_t)g->seed), text_value(g->side[0]),
        text_value(g->side[1]), text_value(results[g->outcome]),
        g->outcome == GAME_DRAW
            ? (struct value){.type = VALUE_NULL}
            : int_value(g->outcome == GAME_WIN_SEAT0 ? 0 : 1),
        text_value(end_reason_name(g->reason)), int_value(g->plies),
        (struct value){.type = VALUE_REAL, .r = g->duration_ms},
        text_value(st->now),
        {.type = VALUE_TEXT, .text = g->moves, .len = (int)g->moves_len},
        text_value(o && o->moves ? o->moves : ""),
        text_value(o && o->position ? o->position : ""),
        o && o->pair_id ? int_value(o->pair_id)
                        : (struct value){.type = VALUE_NULL},
        st->run_id ? int_value(st->run_id)
                   : (struct value){.type = VALUE_NULL}};
    if (bind_values(st->insert_game, v, COUNT(v))
        || sqlite3_step(st->insert_game) != SQLITE_DONE) {
        char what[96];
        snprintf(what, sizeof what, "storing game %d of cell %lld",
                 g->game_index, (long long)g->cell_id);
        return store_error(st->db, err, errsz, what);
    }
    if (sqlite3_changes(st->db) == 0)
        return STORE_GAME_ALREADY;
    if (g->stats && insert_move_stats(st, g, sqlite3_last_insert_rowid(st->db),
                                      err, errsz) != 0)
        return -1;
    st->pending++;
    return 0;
}

int store_set_stopped(struct store *st, int64_t cell_id, int games)
{
    const struct value v[] = {int_value(cell_id), int_value(games)};
    if (run_sql(st, "UPDATE cells SET stopped_at = ?2 WHERE id = ?1", v,
                COUNT(v), NULL, 0))
        return -1;
    return sqlite3_changes(st->db) == 1 ? 0 : -1;
}

/* Adds the games of the open transaction to the run's count, in it. */
static int count_pending(struct store *st, char *err, size_t errsz)
{
    if (!st->run_id || !st->pending)
        return 0;
    const struct value v[] = {int_value(st->run_id), int_value(st->pending)};
    if (run_sql(st, "UPDATE runs SET games = games + ?2 WHERE id = ?1", v,
                COUNT(v), NULL, 0))
        return store_error(st->db, err, errsz, "counting the run's games");
    return 0;
}

int store_commit(struct store *st, char *err, size_t errsz)
{
    if (!st->in_transaction)
        return 0;
    st->in_transaction = 0;
    if (count_pending(st, err, errsz) == 0
        && store_exec(st, "COMMIT", err, errsz) == 0) {
        st->committed += st->pending;
        st->pending = 0;
        return 0;
    }
    /* A failed COMMIT (a full disk) may leave the transaction open: end it,
     * so its games are neither counted nor half-kept. */
    store_rollback(st, err, errsz);
    st->pending = 0;
    return -1;
}

long store_games_committed(const struct store *st)
{
    return st->committed;
}

int store_end_run(struct store *st, const char *status)
{
    char now[32];
    now_text(now, sizeof now);
    const struct value v[] = {int_value(st->run_id), text_value(now),
                              text_value(status)};
    if (store_commit(st, NULL, 0)
        || run_sql(st, "UPDATE runs SET ended = ?2, status = ?3 WHERE"
                   " id = ?1", v, COUNT(v), NULL, 0))
        return -1;
    return 0;
}
