/*
 * live_html.h -- `rulelab run SWEEP --html FILE`: the report of the
 * database as one HTML page (report --format html), rewritten while the
 * run plays, at most every few seconds, each time written whole beside
 * FILE and renamed over it, so a browser never reads half a page. While
 * the run goes on the page reloads itself and says when it was written;
 * the last page, written when the run ends (whatever its end), is what
 * `rulelab report DB --format html` prints.
 */
#ifndef RULELAB_LIVE_HTML_H
#define RULELAB_LIVE_HTML_H

#include <stddef.h>

#include "periodic.h"

/* Writes the page of db's report to path once (reload_seconds > 0: a page
 * that reloads itself every that many seconds and says when it was
 * written). Returns 0, or -1 with a message. */
int live_html_write(const char *db, const char *path, int reload_seconds,
                    char *err, size_t errsz);

/* The thread that rewrites the page. */
struct live_html {
    const char *db, *path;
    int seconds;
    long writes;          /* pages written by the thread */
    double write_seconds; /* the time they took, in all */
    struct periodic every;
};

/* Writes the page at once, then starts the thread that writes it every
 * `seconds` (a page that fails in passing is said on stderr and tried
 * again at the next interval). Returns 0, or -1 with a message. */
int live_html_start(struct live_html *lh, const char *db, const char *path,
                    int seconds, char *err, size_t errsz);

/* Stops the thread (a page under way is finished first). The caller then
 * writes the last page with live_html_write(db, path, 0, ...). */
void live_html_stop(struct live_html *lh);

#endif
