/*
 * outfile.c -- one-shot outputs written beside their path and renamed
 * into place, refused before any work where they would overwrite an input
 * or something the caller does not allow (outfile.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int outfile_is_sqlite(const char *path)
{
    static const char magic[16] = "SQLite format 3";
    char head[16];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return got == sizeof head && memcmp(head, magic, sizeof head) == 0;
}

/* This host's name for temporaries: [A-Za-z0-9.-] only, "host" if none. */
static void host_name(char *out, size_t n)
{
    char h[256] = "";
    if (gethostname(h, sizeof h - 1) != 0 || !h[0])
        strcpy(h, "host");
    size_t j = 0;
    for (size_t i = 0; h[i] && j + 1 < n; i++) {
        char c = h[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                 || (c >= '0' && c <= '9') || c == '.' || c == '-';
        out[j++] = ok ? c : '_';
    }
    out[j] = '\0';
}

int outfile_temp_name(const char *path, char *tmp, size_t n)
{
    char host[256];
    host_name(host, sizeof host);
    int len = snprintf(tmp, n, "%s.tmp-%s-%ld", path, host, (long)getpid());
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* The folder and the file name of path, into dir and base. */
static void split_path(const char *path, char *dir, char *base, size_t n)
{
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s", path);
    snprintf(b, sizeof b, "%s", path);
    snprintf(dir, n, "%s", dirname(a));
    snprintf(base, n, "%s", basename(b));
}

void outfile_clean_stale(const char *path)
{
    char dir[4096], base[4096], host[256], prefix[4400];
    split_path(path, dir, base, sizeof dir);
    host_name(host, sizeof host);
    int plen = snprintf(prefix, sizeof prefix, "%s.tmp-%s-", base, host);
    DIR *d = opendir(dir);
    if (!d || plen < 0 || (size_t)plen >= sizeof prefix) {
        if (d)
            closedir(d);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, (size_t)plen) != 0)
            continue;
        char *end;
        long pid = strtol(e->d_name + plen, &end, 10);
        /* the temporary, or a file SQLite or the writer lock keeps beside
         * a temporary database */
        static const char *const sides[] = {"", "-wal", "-shm", "-journal",
                                            ".lock", NULL};
        int side = 0;
        while (sides[side] && strcmp(end, sides[side]) != 0)
            side++;
        if (!sides[side] || pid <= 0 || pid == (long)getpid()
            || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char stale[8600];
        snprintf(stale, sizeof stale, "%s/%s", dir, e->d_name);
        unlink(stale);
    }
    closedir(d);
}

/* Whether a and b (both existing) are one file. */
static int same_file(const struct stat *a, const char *b)
{
    struct stat sb;
    return stat(b, &sb) == 0 && sb.st_dev == a->st_dev
           && sb.st_ino == a->st_ino;
}

int outfile_check(const char *path, const char *what,
                  const char *const *inputs, int n,
                  enum outfile_existing existing, char *err, size_t errsz)
{
    if (!path[0]) {
        snprintf(err, errsz, "%s needs a file name", what);
        return -1;
    }
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    for (int i = 0; exists && i < n; i++)
        if (inputs[i] && same_file(&sb, inputs[i])) {
            snprintf(err, errsz, "%s %s is the same file as the input %s: "
                     "writing it would destroy the input; choose another "
                     "path", what, path, inputs[i]);
            return -1;
        }
    if (exists && S_ISDIR(sb.st_mode)) {
        snprintf(err, errsz, "%s %s is a folder: give a file name", what,
                 path);
        return -1;
    }
    if (exists && existing == OUTFILE_NONE) {
        snprintf(err, errsz, "%s %s exists already and would be replaced: "
                 "remove it or choose another path", what, path);
        return -1;
    }
    if (exists && existing == OUTFILE_ANY && outfile_is_sqlite(path)) {
        snprintf(err, errsz, "%s %s is a database, which this output would "
                 "replace: choose another path (or remove it first)", what,
                 path);
        return -1;
    }
    if (exists && !S_ISREG(sb.st_mode))
        return 0; /* a device or pipe is written in place, not replaced */
    char tmp[4200];
    if (outfile_temp_name(path, tmp, sizeof tmp) != 0) {
        snprintf(err, errsz, "%s: the path is too long", what);
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        snprintf(err, errsz, "%s %s cannot be written: %s (its folder must "
                 "exist and be writable)", what, path, strerror(errno));
        return -1;
    }
    close(fd);
    unlink(tmp);
    return 0;
}

int outfile_open(struct outfile *o, const char *path, char *err,
                 size_t errsz)
{
    memset(o, 0, sizeof *o);
    if ((size_t)snprintf(o->path, sizeof o->path, "%s", path)
            >= sizeof o->path
        || outfile_temp_name(path, o->tmp, sizeof o->tmp) != 0) {
        snprintf(err, errsz, "%s: the path is too long", path);
        return -1;
    }
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        o->tmp[0] = '\0'; /* a device or pipe: written in place */
        o->f = fopen(path, "w");
    } else {
        outfile_clean_stale(path);
        unlink(o->tmp);
        o->f = fopen(o->tmp, "w");
    }
    if (!o->f) {
        snprintf(err, errsz, "cannot write %s: %s", o->tmp[0] ? o->tmp : path,
                 strerror(errno));
        o->tmp[0] = '\0';
        return -1;
    }
    return 0;
}

/* fsync()s the file at path. Returns 0, or -1 with errno set. */
static int sync_path(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

int outfile_rename_synced(const char *path, const char *dst, char *err,
                          size_t errsz)
{
    if (sync_path(path) != 0) {
        snprintf(err, errsz, "syncing %s: %s", path, strerror(errno));
        unlink(path);
        return -1;
    }
    if (rename(path, dst) != 0) {
        snprintf(err, errsz, "renaming %s to %s: %s", path, dst,
                 strerror(errno));
        unlink(path);
        return -1;
    }
    return 0;
}

int outfile_commit(struct outfile *o, char *err, size_t errsz)
{
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int saved = errno;
    if (fclose(o->f) != 0 && !bad)
        bad = 1, saved = errno;
    o->f = NULL;
    if (bad) {
        snprintf(err, errsz, "writing %s failed: %s%s", o->path,
                 strerror(saved), o->tmp[0] ? " (the file is as it was)" : "");
        if (o->tmp[0])
            unlink(o->tmp);
        return -1;
    }
    return o->tmp[0] ? outfile_rename_synced(o->tmp, o->path, err, errsz) : 0;
}

void outfile_abort(struct outfile *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp[0])
        unlink(o->tmp);
}
