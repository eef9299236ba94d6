/*
 * outfile.h -- the one rule for every output a command writes in one go
 * (`export --out`, `run --snapshot`, `merge --snapshot` and a new merge
 * OUT, `solve --proof`, `claim --certificates`): the file appears whole or
 * not at all, and never in place of something the user did not mean to
 * lose.
 *
 *   - Before any work: the output must not be one of the command's inputs
 *     (compared by device and inode, so another name of the same file, a
 *     hard or symbolic link, is caught), its folder must take a new file
 *     (a temporary is created and removed there), and an existing file is
 *     replaced only as the caller allows (outfile_check's policy).
 *   - The output is written to PATH.tmp-HOST-PID beside it, synced, and
 *     renamed over PATH on success; on failure the temporary is removed,
 *     so PATH is as it was. A temporary left by a killed command is
 *     removed by the next command that writes PATH on the same host (its
 *     PID no longer running); one of another host is left alone and read
 *     by nothing.
 *   - A device or a pipe (/dev/stdout, /dev/full, a FIFO) is written in
 *     place: it is not a file to replace.
 */
#ifndef RULELAB_OUTFILE_H
#define RULELAB_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* What may stand at the output's path already. */
enum outfile_existing {
    OUTFILE_ANY, /* anything but a results database (a CSV written before) */
    OUTFILE_NONE, /* nothing: a new file only */
    OUTFILE_REPLACE, /* anything: the user said so (an explicit option) */
};

/* Whether path holds an SQLite database (its first 16 bytes). */
int outfile_is_sqlite(const char *path);

/* Checks, before any work, that path may be written: it is none of the n
 * inputs (same device and inode), its folder takes a new file, and what
 * stands there now is allowed by `existing`. `what` names the output in
 * messages ("--out", "--snapshot"). Returns 0, or -1 with a one-line
 * message saying what is wrong and what to do. */
int outfile_check(const char *path, const char *what,
                  const char *const *inputs, int n,
                  enum outfile_existing existing, char *err, size_t errsz);

/* The temporary beside path (PATH.tmp-HOST-PID), into tmp. Returns 0, or
 * -1 if it does not fit. */
int outfile_temp_name(const char *path, char *tmp, size_t n);

/* Removes the temporaries of path that a command on this host left when
 * it was killed (their PID no longer runs), with the -wal, -shm, -journal
 * and .lock files a temporary database has beside it. */
void outfile_clean_stale(const char *path);

/* An output being written: its path and its temporary. */
struct outfile {
    char path[4096], tmp[4200];
    FILE *f;
};

/* Opens the temporary of path for writing (stale ones cleaned first).
 * Returns 0, or -1 with a message. */
int outfile_open(struct outfile *o, const char *path, char *err,
                 size_t errsz);

/* Flushes, syncs and closes the temporary and renames it over the path.
 * Returns 0, or -1 with a message (the temporary removed, the path as it
 * was). */
int outfile_commit(struct outfile *o, char *err, size_t errsz);

/* Closes and removes the temporary: the path is as it was. */
void outfile_abort(struct outfile *o);

/* Syncs the file at path and renames it to dst (for outputs that another
 * library writes by name, as SQLite's backup does). Returns 0, or -1 with
 * a message (path then removed). */
int outfile_rename_synced(const char *path, const char *dst, char *err,
                          size_t errsz);

#endif
