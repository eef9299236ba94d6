/*
 * periodic.c -- a thread that calls work every few seconds until stopped
 * (periodic.h).
 */
#include "periodic.h"

#include <errno.h>
#include <time.h>

/* The thread: waits an interval (or the stop), works, and again. */
static void *periodic_main(void *arg)
{
    struct periodic *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += (time_t)p->seconds;
        until.tv_nsec += (long)((p->seconds - (double)(time_t)p->seconds)
                                * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        int rc = 0;
        while (!p->stop && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&p->wake, &p->lock, &until);
        if (p->stop)
            break;
        pthread_mutex_unlock(&p->lock);
        p->work(p->arg);
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int periodic_start(struct periodic *p, double seconds,
                   void (*work)(void *arg), void *arg)
{
    p->seconds = seconds;
    p->work = work;
    p->arg = arg;
    p->stop = 0;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    if (pthread_create(&p->thread, NULL, periodic_main, p) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        return -1;
    }
    return 0;
}

void periodic_stop(struct periodic *p)
{
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
}
