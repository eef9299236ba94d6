/*
 * periodic.h -- a thread that does one piece of work every few seconds
 * until it is stopped: what keeps a snapshot of a live database
 * (snapshot.h) and the page of a running sweep (live_html.h). The wait is
 * on a condition variable, so a stop is seen at once, not at the end of
 * the interval; work under way when the stop comes is finished first.
 */
#ifndef RULELAB_PERIODIC_H
#define RULELAB_PERIODIC_H

#include <pthread.h>

struct periodic {
    double seconds;
    void (*work)(void *arg);
    void *arg;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stop;
};

/* Starts the thread: work(arg) every `seconds` (the first after one
 * interval). Returns 0, or -1 when the thread cannot be started. */
int periodic_start(struct periodic *p, double seconds,
                   void (*work)(void *arg), void *arg);

/* Stops the thread and waits for it (work under way finishes first). */
void periodic_stop(struct periodic *p);

#endif
