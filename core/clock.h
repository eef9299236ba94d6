/*
 * clock.h -- the one clock of the program: monotonic seconds, for budgets,
 * deadlines and timings (never for results: a game's moves depend on no
 * clock unless its agent's spec asks for a time budget).
 */
#ifndef RULELAB_CLOCK_H
#define RULELAB_CLOCK_H

/* Seconds on a clock that only goes forward (CLOCK_MONOTONIC), from an
 * arbitrary start: only differences mean anything. */
double clock_seconds(void);

#endif
