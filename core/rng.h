/*
 * rng.h -- the project's only source of randomness.
 *
 * xoshiro256** seeded through splitmix64: fast, small, and the same stream
 * on every machine for the same seed. Every agent and worker owns its own
 * generator; nothing is global.
 */
#ifndef RULELAB_RNG_H
#define RULELAB_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s[4];
};

/* One step of splitmix64 on *x; also a good 64-bit mixer for deriving seeds. */
uint64_t rng_splitmix64(uint64_t *x);

/* A 64-bit hash of a string folded into a seed (FNV-1a then splitmix). */
uint64_t rng_hash_string(uint64_t seed, const char *s);

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);

/* Uniform in [0, n) without bias; n > 0. */
uint32_t rng_below(struct rng *r, uint32_t n);

/* Uniform in [0, 1). */
double rng_double(struct rng *r);

#endif
