/*
 * snapshot_every.c -- a thread that keeps a snapshot of a live database
 * (snapshot.h, snapshot_every_start): every few seconds it copies the
 * database with snapshot_write while the runner writes it, until told to
 * stop. A copy that fails in passing is said on stderr and tried again at
 * the next interval; the caller writes the last copy itself, after the
 * run, and that one decides the run's status.
 */
#include "snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

/* The thread: waits `seconds` (or the stop signal), copies, and again. */
static void *snapshot_main(void *arg)
{
    struct snapshot_every *sn = arg;
    pthread_mutex_lock(&sn->lock);
    while (!sn->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += (time_t)sn->seconds;
        until.tv_nsec += (long)((sn->seconds - (double)(time_t)sn->seconds)
                                * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        int rc = 0;
        while (!sn->stop && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&sn->wake, &sn->lock, &until);
        if (sn->stop)
            break;
        pthread_mutex_unlock(&sn->lock);
        char err[1024];
        if (snapshot_write(sn->db, sn->path, err, sizeof err) != 0)
            fprintf(stderr, "%s: snapshot: %s\n", sn->who, err);
        pthread_mutex_lock(&sn->lock);
    }
    pthread_mutex_unlock(&sn->lock);
    return NULL;
}

int snapshot_every_start(struct snapshot_every *sn, const char *db,
                         const char *path, double seconds, const char *who,
                         char *err, size_t errsz)
{
    sn->db = db;
    sn->path = path;
    sn->seconds = seconds;
    sn->who = who;
    sn->stop = 0;
    pthread_mutex_init(&sn->lock, NULL);
    pthread_cond_init(&sn->wake, NULL);
    if (pthread_create(&sn->thread, NULL, snapshot_main, sn) != 0) {
        pthread_cond_destroy(&sn->wake);
        pthread_mutex_destroy(&sn->lock);
        snprintf(err, errsz, "cannot start the snapshot thread");
        return -1;
    }
    return 0;
}

void snapshot_every_stop(struct snapshot_every *sn)
{
    pthread_mutex_lock(&sn->lock);
    sn->stop = 1;
    pthread_cond_signal(&sn->wake);
    pthread_mutex_unlock(&sn->lock);
    pthread_join(sn->thread, NULL);
    pthread_cond_destroy(&sn->wake);
    pthread_mutex_destroy(&sn->lock);
}
