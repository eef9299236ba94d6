/*
 * ext.h -- the ext agent kind: a program outside rulelab that plays over
 * the line protocol of docs/protocol.md, e.g.
 * `ext(cmd="python3 agents/outside/random_engine.py",ms=100)`.
 */
#ifndef RULELAB_EXT_H
#define RULELAB_EXT_H

#include "agent.h"

extern const struct agent_kind ext_kind;

/* Forfeits in a row by one command after which making its agent fails
 * (which stops a sweep with that error; the games before stay stored). */
#define EXT_FORFEITS_MAX 5

/* Seconds a program has to say `ready` after it starts. */
#define EXT_HELLO_SECONDS 10

/* Sends the programs' stderr to files in dir (made when needed), one a
 * program: dir/engine-N.log, with a line from rulelab before each
 * forfeit. Without it (or dir ""), they write to rulelab's stderr. Call
 * before the first ext agent is made. */
void ext_set_log_dir(const char *dir);

/* A named program of an engines file (ext_engines.c has the format). */
struct ext_engine {
    char name[64];
    char command[SPEC_TEXT_MAX];
    char folder[SPEC_TEXT_MAX]; /* where it runs */
    char version[SPEC_TEXT_MAX]; /* declared; "" for none */
    char options[SPEC_TEXT_MAX]; /* "NAME=VALUE ..." in the file's order */
};

/* Reads the engines file at path into the process's table: ext(engine=
 * NAME) then plays NAME. Load before any spec naming one is read (a sweep's
 * `engines` key, play's --engines). Returns 0, or -1 with a message naming
 * the line. */
int ext_engines_load(const char *path, char *err, size_t errsz);

/* The engine called name, or NULL. */
const struct ext_engine *ext_engine_find(const char *name);

/* Ends every program not in a game: `quit`, a second to exit, then
 * SIGKILL. Safe to call when there are none; the next ext agent starts
 * new ones. */
void ext_shutdown(void);

#endif
