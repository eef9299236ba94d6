/*
 * ext.c -- the ext agent kind: a program outside rulelab that plays over
 * the line protocol (protocol.h, docs/protocol.md).
 *
 * The programs live in a pool shared by the threads. A new agent takes an
 * idle program started with the same command, or starts one and says
 * hello; when its game ends the program goes back to the pool for the next
 * game (a newgame between), so a sweep on T threads keeps about T of them.
 * A program that fails -- an illegal or malformed move, no reply by the
 * deadline, an exit -- forfeits its game (agent_stats.forfeit) and is
 * stopped; the next game starts a new one. After EXT_FORFEITS_MAX forfeits
 * in a row by one command, making its agent fails.
 *
 * Programs run in a process group of their own, so a Ctrl-C meant for
 * rulelab (which lets the games in flight finish) does not kill them.
 */
#define _GNU_SOURCE
#include "ext.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "protocol.h"
#include "text_buffer.h"

/* ---- the programs ------------------------------------------------------ */

struct program {
    /* what starts it (an engine's name "" for a cmd= spec): what programs
     * are pooled and forfeits counted by is `key` (the command, or
     * "engine NAME") */
    struct ext_engine launch;
    char key[SPEC_TEXT_MAX + 16];
    pid_t pid;
    int to; /* its stdin */
    struct line_reader from; /* its stdout */
    int log; /* its stderr's file, or -1 */
    char name[PROTO_NAME_MAX], version[PROTO_NAME_MAX];
    int want_legal;
    int busy, dead;
    struct program *next;
};

/* Forfeits in a row of one program key. */
struct streak {
    char key[SPEC_TEXT_MAX + 16];
    int n;
    const char *last; /* the last forfeit's reason */
    struct streak *next;
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct program *pool; /* guarded by pool_lock */
static struct streak *streaks; /* guarded by pool_lock */
static char log_dir[4096];
static int log_serial; /* guarded by pool_lock */
static pthread_once_t ignore_sigpipe_once = PTHREAD_ONCE_INIT;

void ext_set_log_dir(const char *dir)
{
    snprintf(log_dir, sizeof log_dir, "%s", dir ? dir : "");
}

/* A write to a program that has exited fails with EPIPE instead of
 * killing rulelab. */
static void ignore_sigpipe(void)
{
    signal(SIGPIPE, SIG_IGN);
    atexit(ext_shutdown);
}

/* Writes all of text to fd. 0, or -1 (the program is gone). */
static int write_all(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, text, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        text += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Writes a line from rulelab into the program's log, if it has one. */
static void note(struct program *p, const char *fmt, const char *detail)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "rulelab: ");
    n += snprintf(line + n, sizeof line - (size_t)n, fmt, detail);
    if (p->log >= 0 && n > 0 && (size_t)n < sizeof line - 1) {
        line[n++] = '\n';
        (void)write_all(p->log, line, (size_t)n);
    }
}

/* Opens the next log file (with pool_lock held), or returns -1 to leave
 * stderr as it is. */
static int open_log(void)
{
    if (!log_dir[0])
        return -1;
    char path[4200];
    mkdir(log_dir, 0777); /* it may be there already */
    snprintf(path, sizeof path, "%s/engine-%d.log", log_dir, ++log_serial);
    return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

/* Stops p's process (its whole group) and closes its pipes. */
static void program_stop(struct program *p)
{
    if (p->pid > 0) {
        kill(-p->pid, SIGKILL);
        while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        p->pid = 0;
    }
    if (p->to >= 0)
        close(p->to);
    if (p->from.fd >= 0)
        close(p->from.fd);
    if (p->log >= 0)
        close(p->log);
    p->to = p->from.fd = p->log = -1;
    line_reader_free(&p->from);
    p->dead = 1;
}

/* Starts `sh -c cmd` with pipes to its stdin and stdout. 0 or -1. */
static int program_spawn(struct program *p, char *err, size_t errsz)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return game_error(err, errsz, "cannot make a pipe: %s",
                          strerror(errno));
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return game_error(err, errsz, "cannot make a pipe: %s",
                          strerror(errno));
    }
    pid_t pid = fork();
    if (pid == 0) { /* only async-signal-safe calls until exec */
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        dup2(in[0], 0);
        dup2(out[1], 1);
        if (p->log >= 0)
            dup2(p->log, 2);
        if (p->launch.folder[0] && chdir(p->launch.folder) != 0)
            _exit(126);
        execl("/bin/sh", "sh", "-c", p->launch.command, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        close(in[1]);
        close(out[0]);
        return game_error(err, errsz, "cannot start a process: %s",
                          strerror(errno));
    }
    setpgid(pid, pid); /* also here: whichever runs first */
    p->pid = pid;
    p->to = in[1];
    line_reader_init(&p->from, out[0]);
    return 0;
}

/* After `ready`: an engine's declared version checked against the one
 * it says, then its options sent. 0, or -1 with a message. */
static int program_setup(struct program *p, char *err, size_t errsz)
{
    const struct ext_engine *e = &p->launch;
    if (e->version[0] && strcmp(e->version, p->version) != 0)
        return game_error(err, errsz, "it says version '%s', its engines "
                          "file declares '%s'", p->version, e->version);
    char line[SPEC_TEXT_MAX + 16];
    for (const char *o = e->options; *o;) {
        size_t len = strcspn(o, " ");
        const char *eq = memchr(o, '=', len);
        int n = snprintf(line, sizeof line, "option %.*s %.*s\n",
                         (int)(eq - o), o, (int)(o + len - eq - 1), eq + 1);
        if (write_all(p->to, line, (size_t)n) != 0)
            return game_error(err, errsz, "it exited at its options");
        o += len + (o[len] == ' ');
    }
    return 0;
}

/* Says hello and reads the program's id up to `ready`. 0, or -1 with
 * what went wrong in err. */
static int program_hello(struct program *p, char *err, size_t errsz)
{
    char hello[32], *line, why[256] = "";
    snprintf(hello, sizeof hello, "rulelab %d\n", PROTO_VERSION);
    if (write_all(p->to, hello, strlen(hello)) != 0)
        return game_error(err, errsz, "it exited before the hello");
    double deadline = clock_seconds() + EXT_HELLO_SECONDS;
    for (;;) {
        enum line_status got = line_read(&p->from, deadline, &line);
        if (got == LINE_TIMEOUT)
            return game_error(err, errsz, "no 'ready' within %d s of the "
                              "hello", EXT_HELLO_SECONDS);
        if (got != LINE_OK)
            return game_error(err, errsz, "it exited (or wrote a line over "
                              "%d bytes) before 'ready'", PROTO_LINE_MAX);
        struct reply r;
        switch (proto_parse_reply(line, &r, why, sizeof why)) {
        case REPLY_ID_NAME:
            snprintf(p->name, sizeof p->name, "%s", r.text);
            break;
        case REPLY_ID_VERSION:
            snprintf(p->version, sizeof p->version, "%s", r.text);
            break;
        case REPLY_WANT_LEGAL:
            p->want_legal = 1;
            break;
        case REPLY_READY:
            if (r.version != PROTO_VERSION)
                return game_error(err, errsz, "it speaks protocol %s%d, "
                                  "rulelab %d", r.version > PROTO_VERSION
                                  ? "above " : "", r.version > PROTO_VERSION
                                  ? PROTO_VERSION : r.version, PROTO_VERSION);
            return program_setup(p, err, errsz);
        case REPLY_BAD:
            return game_error(err, errsz, "bad line before 'ready': %s", why);
        default:
            break;
        }
    }
}

/* Starts the program e says, pooled by key. Returns it, or NULL with a
 * message in err. */
static struct program *program_start(const struct ext_engine *e,
                                     const char *key, char *err,
                                     size_t errsz)
{
    pthread_once(&ignore_sigpipe_once, ignore_sigpipe);
    struct program *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->launch = *e;
    snprintf(p->key, sizeof p->key, "%s", key);
    p->to = p->log = -1;
    line_reader_init(&p->from, -1);
    pthread_mutex_lock(&pool_lock);
    p->log = open_log();
    int serial = log_serial;
    pthread_mutex_unlock(&pool_lock);
    char why[512] = "";
    if (program_spawn(p, why, sizeof why) != 0
        || program_hello(p, why, sizeof why) != 0) {
        note(p, "did not start: %s", why);
        program_stop(p);
        free(p);
        char where[4200] = "";
        if (log_dir[0])
            snprintf(where, sizeof where, " (its stderr: %s/engine-%d.log)",
                     log_dir, serial);
        game_error(err, errsz, "ext: %s%s%s did not start: %s%s",
                   e->name[0] ? "engine " : "the program `",
                   e->name[0] ? e->name : e->command, e->name[0] ? "" : "`",
                   why, where);
        return NULL;
    }
    return p;
}

/* Whether p's process has exited (then reaped). */
static int program_exited(struct program *p)
{
    if (p->dead)
        return 1;
    if (p->pid > 0 && waitpid(p->pid, NULL, WNOHANG) == p->pid) {
        p->pid = 0;
        return 1;
    }
    return 0;
}

/* The streak of key (made when missing; NULL when memory is short), with
 * pool_lock held. */
static struct streak *streak_of(const char *key)
{
    for (struct streak *s = streaks; s; s = s->next)
        if (strcmp(s->key, key) == 0)
            return s;
    struct streak *s = calloc(1, sizeof *s);
    if (s) {
        snprintf(s->key, sizeof s->key, "%s", key);
        s->next = streaks;
        streaks = s;
    }
    return s;
}

/* Takes an idle program of key from the pool (dropping those that have
 * exited), or NULL when there is none. */
static struct program *pool_take(const char *key)
{
    struct program *found = NULL, **link = &pool;
    pthread_mutex_lock(&pool_lock);
    while (*link && !found) {
        struct program *p = *link;
        if (p->busy || strcmp(p->key, key) != 0) {
            link = &p->next;
        } else if (program_exited(p)) {
            *link = p->next;
            program_stop(p);
            free(p);
        } else {
            p->busy = 1;
            found = p;
        }
    }
    pthread_mutex_unlock(&pool_lock);
    return found;
}

static void pool_put(struct program *p)
{
    pthread_mutex_lock(&pool_lock);
    p->busy = 1;
    p->next = pool;
    pool = p;
    pthread_mutex_unlock(&pool_lock);
}

/* Gives p back (busy 0), or, when it failed, takes it out and stops it. */
static void pool_return(struct program *p)
{
    pthread_mutex_lock(&pool_lock);
    if (p->dead) {
        for (struct program **link = &pool; *link; link = &(*link)->next)
            if (*link == p) {
                *link = p->next;
                break;
            }
    } else {
        p->busy = 0;
    }
    pthread_mutex_unlock(&pool_lock);
    if (p->dead) {
        program_stop(p);
        free(p);
    }
}

void ext_shutdown(void)
{
    pthread_mutex_lock(&pool_lock);
    struct program **link = &pool, *idle = NULL;
    while (*link) { /* the idle ones leave the pool */
        struct program *p = *link;
        if (p->busy) {
            link = &p->next;
            continue;
        }
        *link = p->next;
        p->next = idle;
        idle = p;
    }
    pthread_mutex_unlock(&pool_lock);
    for (struct program *p = idle; p; p = p->next) {
        (void)write_all(p->to, "quit\n", 5);
        close(p->to);
        p->to = -1;
    }
    for (int waited = 0; waited < 100; waited++) { /* a second in all */
        int running = 0;
        for (struct program *p = idle; p; p = p->next)
            running += p->pid > 0 && !program_exited(p);
        if (!running)
            break;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    while (idle) {
        struct program *next = idle->next;
        program_stop(idle);
        free(idle);
        idle = next;
    }
}

/* ---- the agent ---------------------------------------------------------- */

enum { P_CMD, P_ENGINE, P_GRACE, P_MS, P_NODES, P_OPTIONS, P_VERSION,
       P_COUNT };

/* The text parameters are of identity version 2 (variant.h): each enters
 * an identity only when given, so `cmd` alone, or `engine` with its
 * version and options, is what results are keyed by. */
static const struct param_spec ext_params[P_COUNT] = {
    [P_CMD] = {"cmd", PARAM_TEXT, -1, 0, 0, NULL,
               "the command that starts the program (run by /bin/sh)", 2},
    [P_ENGINE] = {"engine", PARAM_TEXT, -1, 0, 0, NULL,
                  "the program by its name in an engines file, instead of "
                  "cmd", 2},
    [P_GRACE] = {"grace", PARAM_INT, 2000, 0, 3600000, NULL,
                 "ms a reply may take past ms (with nodes alone, its whole "
                 "time) before the game is forfeited", 1},
    [P_MS] = {"ms", PARAM_INT, 0, 0, 3600000, NULL,
              "time per move the program is given, ms (0: none)", 1},
    [P_NODES] = {"nodes", PARAM_INT, 0, 0, 1e15, NULL,
                 "nodes per move the program is given (0: none)", 1},
    [P_OPTIONS] = {"options", PARAM_TEXT, -1, 0, 0, NULL,
                   "an engine's options (from its engines file)", 2},
    [P_VERSION] = {"version", PARAM_TEXT, -1, 0, 0, NULL,
                   "an engine's declared version (from its engines file)",
                   2},
};

struct ext_agent {
    struct program *p;
    uint64_t seed;
    long long ms, nodes, grace;
    int started;
    enum end_reason forfeited; /* REASON_NONE, or why it forfeited */
    struct text_buffer line; /* "position" line so far: start, opening,
                              * moves */
    int n_moves; /* moves after the opening */
};

static int ext_check(const double *values, const struct spec_texts *texts,
                     char *err, size_t errsz)
{
    int cmd = spec_text_value(texts, values[P_CMD])[0] != '\0';
    int engine = spec_text_value(texts, values[P_ENGINE])[0] != '\0';
    if (cmd == engine)
        return game_error(err, errsz, "ext: give the program's command, "
                          "e.g. ext(cmd=\"python3 engine.py\",ms=100), or "
                          "its name in an engines file, ext(engine=NAME,"
                          "ms=100): one of the two");
    if (values[P_MS] == 0 && values[P_NODES] == 0)
        return game_error(err, errsz, "ext: give the program a budget: "
                          "ms=N, nodes=N or both");
    return 0;
}

/* Sets text parameter p to text from the engines file, unless the spec
 * gave it: then they must agree. 0 or -1. */
static int resolve_text(double *values, struct spec_texts *texts, int p,
                        const char *text, const char *engine, char *err,
                        size_t errsz)
{
    const char *given = spec_text_value(texts, values[p]);
    if (given[0])
        return strcmp(given, text) == 0
                   ? 0
                   : game_error(err, errsz, "ext: engine %s: the spec's %s "
                                "is \"%s\", its engines file's \"%s\"",
                                engine, ext_params[p].name, given, text);
    if (!text[0])
        return 0;
    if (texts->n == SPEC_MAX_TEXTS)
        return game_error(err, errsz, "ext: no room for %s",
                          ext_params[p].name);
    snprintf(texts->text[texts->n], SPEC_TEXT_MAX, "%s", text);
    values[p] = texts->n++;
    return 0;
}

/* agent_kind.resolve: an engine's version and options from the engines
 * file loaded (none loaded, as for a report on another machine: the spec
 * as written). */
static int ext_resolve(double *values, struct spec_texts *texts, char *err,
                       size_t errsz)
{
    const char *name = spec_text_value(texts, values[P_ENGINE]);
    const struct ext_engine *e = name[0] ? ext_engine_find(name) : NULL;
    if (!e)
        return 0;
    return resolve_text(values, texts, P_VERSION, e->version, name, err,
                        errsz)
           || resolve_text(values, texts, P_OPTIONS, e->options, name, err,
                           errsz)
               ? -1 : 0;
}

/* Appends text to the agent's position line. 0 or -1 (memory). */
static int append(struct ext_agent *a, const char *text)
{
    return text_buffer_append(&a->line, text);
}

/* Sends text to the program; a failed write marks it dead. */
static void send_text(struct ext_agent *a, const char *text, size_t len)
{
    if (!a->p->dead && write_all(a->p->to, text, len) != 0) {
        note(a->p, "%s", "its stdin is closed: it has exited");
        a->p->dead = 1;
    }
}

static void ext_start(void *self, const struct game *g, const char *variant,
                      const char *position, const char *opening)
{
    struct ext_agent *a = self;
    char line[VARIANT_TEXT_MAX + 64];
    (void)g;
    a->started = 1;
    text_buffer_truncate(&a->line, 0);
    a->n_moves = 0;
    int n = snprintf(line, sizeof line, "newgame %s %llu\n", variant,
                     (unsigned long long)a->seed);
    if (n < 0 || (size_t)n >= sizeof line)
        a->p->dead = 1; /* no variant text is that long */
    else
        send_text(a, line, (size_t)n);
    if (append(a, "position ") || append(a, position[0] ? "text " : "startpos")
        || append(a, position) || append(a, opening[0] ? " opening " : "")
        || append(a, opening))
        a->p->dead = 1;
}

/* Without agent_start (a command that hands the agent positions), the
 * game starts at st, as its text, under the game's default variant. */
static void start_here(struct ext_agent *a, const struct game *g,
                       const void *st)
{
    if (a->started)
        return;
    char position[1024];
    if (g->to_text(st, position, sizeof position) < 0)
        position[0] = '\0';
    ext_start(a, g, g->name, position, "");
}

static void ext_observe(void *self, const struct game *g, const void *st,
                        move_t m)
{
    struct ext_agent *a = self;
    char text[64];
    start_here(a, g, st);
    g->move_to_text(st, m, text, sizeof text);
    if (append(a, a->n_moves++ ? " " : " moves ") || append(a, text))
        a->p->dead = 1;
}

/* Sends the position, the legal moves when wanted, and go. */
static void send_turn(struct ext_agent *a, const struct game *g,
                      const void *st, long long limit)
{
    char go[128];
    move_t moves[GAME_MAX_MOVES];
    size_t mark = a->line.len;
    int fail = append(a, "\n");
    if (a->p->want_legal) {
        int n = g->legal_moves(st, moves);
        fail |= append(a, "legal");
        for (int i = 0; i < n && !fail; i++) {
            char text[64] = " ";
            g->move_to_text(st, moves[i], text + 1, sizeof text - 1);
            fail |= append(a, text);
        }
        fail |= append(a, "\n");
    }
    snprintf(go, sizeof go, "go ms %lld nodes %lld limit %lld\n", a->ms,
             a->nodes, limit);
    fail |= append(a, go);
    if (fail)
        a->p->dead = 1;
    else
        send_text(a, a->line.s, a->line.len);
    /* the position line again, without its end */
    text_buffer_truncate(&a->line, mark);
}

/* Ends the agent's game by forfeit: why into the log, the program stopped. */
static move_t forfeit(struct ext_agent *a, struct agent_stats *stats,
                      enum end_reason reason, const char *why)
{
    note(a->p, "forfeit (%s)", why);
    stats->forfeit = reason;
    a->forfeited = reason;
    a->p->dead = 1;
    return 0;
}

static move_t ext_choose(void *self, const struct game *g, const void *st,
                         struct agent_stats *stats)
{
    struct ext_agent *a = self;
    memset(stats, 0, sizeof *stats);
    start_here(a, g, st);
    long long limit = a->ms + a->grace;
    send_turn(a, g, st, limit);
    double deadline = clock_seconds() + (double)limit / 1e3;
    char *line, why[512];
    while (!a->p->dead) {
        enum line_status got = line_read(&a->p->from, deadline, &line);
        if (got == LINE_TIMEOUT) {
            snprintf(why, sizeof why, "no bestmove within %lld ms", limit);
            return forfeit(a, stats, REASON_FORFEIT_TIME, why);
        }
        if (got == LINE_TOO_LONG)
            return forfeit(a, stats, REASON_FORFEIT_ILLEGAL,
                           "a line over the protocol's length");
        if (got != LINE_OK)
            break;
        struct reply r;
        move_t m;
        switch (proto_parse_reply(line, &r, why, sizeof why)) {
        case REPLY_INFO:
            stats->depth = r.depth >= 0 ? (int)r.depth : stats->depth;
            stats->iterations = r.nodes >= 0 ? (uint64_t)r.nodes
                                             : stats->iterations;
            stats->value = r.score >= 0 ? r.score : stats->value;
            break;
        case REPLY_BESTMOVE:
            if (game_parse_move(g, st, r.text, &m, why, sizeof why) != 0)
                return forfeit(a, stats, REASON_FORFEIT_ILLEGAL, why);
            return m;
        case REPLY_BAD:
            return forfeit(a, stats, REASON_FORFEIT_ILLEGAL, why);
        default:
            break;
        }
    }
    return forfeit(a, stats, REASON_FORFEIT_CRASH, "the program exited");
}

/* What starts the program of a spec, and the key it is pooled by: the
 * command for cmd=, the engines file's entry for engine=. 0, or -1. */
static int launch_of(const double *values, const struct spec_texts *texts,
                     struct ext_engine *e, char *key, size_t n, char *err,
                     size_t errsz)
{
    const char *name = spec_text_value(texts, values[P_ENGINE]);
    memset(e, 0, sizeof *e);
    if (!name[0]) {
        snprintf(e->command, sizeof e->command, "%s",
                 spec_text_value(texts, values[P_CMD]));
        snprintf(key, n, "%s", e->command);
        return 0;
    }
    const struct ext_engine *found = ext_engine_find(name);
    if (!found)
        return game_error(err, errsz, "ext: no engine %s in an engines file "
                          "(a sweep's `engines = FILE`, play's --engines "
                          "FILE; docs/protocol.md)", name);
    *e = *found;
    snprintf(key, n, "engine %s", name);
    return 0;
}

static void *ext_create(const double *values, const struct spec_texts *texts,
                        uint64_t seed, char *err, size_t errsz)
{
    struct ext_engine launch;
    char key[SPEC_TEXT_MAX + 16];
    if (launch_of(values, texts, &launch, key, sizeof key, err, errsz))
        return NULL;
    pthread_mutex_lock(&pool_lock);
    struct streak *s = streak_of(key);
    int n = s ? s->n : 0;
    const char *last = s ? s->last : NULL;
    pthread_mutex_unlock(&pool_lock);
    if (n >= EXT_FORFEITS_MAX) {
        game_error(err, errsz, "ext: %s%s%s forfeited %d games in a row (the "
                   "last: %s); stopping%s%s", launch.name[0] ? "" : "the "
                   "program `", key, launch.name[0] ? "" : "`", n, last,
                   log_dir[0] ? "; its stderr is in " : "", log_dir);
        return NULL;
    }
    struct ext_agent *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->seed = seed;
    a->ms = (long long)values[P_MS];
    a->nodes = (long long)values[P_NODES];
    a->grace = (long long)values[P_GRACE];
    a->p = pool_take(key);
    if (!a->p && (a->p = program_start(&launch, key, err, errsz)) != NULL)
        pool_put(a->p);
    if (!a->p) {
        free(a);
        return NULL;
    }
    return a;
}

static void ext_destroy(void *self)
{
    struct ext_agent *a = self;
    pthread_mutex_lock(&pool_lock);
    struct streak *s = streak_of(a->p->key);
    if (s) {
        s->n = a->forfeited ? s->n + 1 : 0;
        s->last = a->forfeited ? end_reason_name(a->forfeited) : NULL;
    }
    pthread_mutex_unlock(&pool_lock);
    pool_return(a->p);
    free(a->line.s);
    free(a);
}

const struct agent_kind ext_kind = {
    .name = "ext",
    .doc = "a program outside rulelab, over the line protocol "
           "(docs/protocol.md)",
    .params = ext_params,
    .n_params = P_COUNT,
    .create = ext_create,
    .start = ext_start,
    .choose = ext_choose,
    .observe = ext_observe,
    .destroy = ext_destroy,
    .behaviour_version = 1,
    .check = ext_check,
    .resolve = ext_resolve,
    .external = 1,
};
