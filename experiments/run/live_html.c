/*
 * live_html.c -- the page of a running sweep (live_html.h): the report
 * built from a read-only connection (the runner's writes go on beside it,
 * as `rulelab report` reads a live database), written through the
 * one-shot output rule (outfile.h) and rewritten by a periodic thread
 * (periodic.h).
 */
#include "live_html.h"
#include "clock.h"

#include <stdio.h>
#include <time.h>

#include "outfile.h"
#include "ratings.h"
#include "report.h"
#include "store.h"

int live_html_write(const char *db_path, const char *path,
                    int reload_seconds, char *err, size_t errsz)
{
    struct store *st;
    if (store_open(db_path, 1, &st, err, errsz) != 0)
        return -1;
    struct report r;
    struct ratings rt = {0};
    sqlite3 *db = store_db(st);
    /* the report and its ratings from one snapshot */
    int snapshot = store_read_begin(db, err, errsz) == 0;
    if (report_build(db, NULL, &r, err, errsz) != 0) {
        store_close(st);
        return -1;
    }
    if (ratings_build(db, NULL, NULL, 0.0, &rt, err, errsz) != 0) {
        report_free(&r);
        ratings_free(&rt);
        store_close(st);
        return -1;
    }
    if (snapshot)
        store_read_end(db, err, errsz);
    char last_run[512] = "", written[32] = "";
    store_last_run_text(db, NULL, last_run, sizeof last_run);
    store_close(st);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(written, sizeof written, "%Y-%m-%dT%H:%M:%SZ", &tm);
    struct html_page page = {db_path, last_run, reload_seconds, written,
                             &rt};
    struct outfile o;
    int rc = -1;
    if (outfile_open(&o, path, err, errsz) == 0) {
        report_print_html(&r, &page, o.f);
        rc = outfile_commit(&o, err, errsz);
    }
    report_free(&r);
    ratings_free(&rt);
    return rc;
}

/* One page (periodic's work), timed. */
static void write_once(void *arg)
{
    struct live_html *lh = arg;
    char err[1024];
    double t0 = clock_seconds();
    if (live_html_write(lh->db, lh->path, lh->seconds, err, sizeof err) != 0)
        fprintf(stderr, "rulelab run: --html: %s\n", err);
    lh->writes++;
    lh->write_seconds += clock_seconds() - t0;
}

int live_html_start(struct live_html *lh, const char *db, const char *path,
                    int seconds, char *err, size_t errsz)
{
    lh->db = db;
    lh->path = path;
    lh->seconds = seconds;
    lh->writes = 0;
    lh->write_seconds = 0;
    if (live_html_write(db, path, seconds, err, errsz) != 0)
        return -1;
    if (periodic_start(&lh->every, seconds, write_once, lh) != 0) {
        snprintf(err, errsz, "cannot start the page's thread");
        return -1;
    }
    return 0;
}

void live_html_stop(struct live_html *lh)
{
    periodic_stop(&lh->every);
}
