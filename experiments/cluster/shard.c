/*
 * shard.c -- the partition of a sweep's games into shards (shard.h says
 * which game goes where, and why it is stable and balanced).
 *
 * Without a stop rule the owner of (c, i) is (c * G + i) mod N, so the
 * indices of cell c that shard k plays are those congruent to
 * first(c) = (k - c * G) mod N, modulo N: counting and stepping over them
 * is arithmetic, and nothing is listed.
 */
#include "shard.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"

/* Reads the digits [b, e) as a whole number up to SHARD_MAX into *v.
 * Returns 0, or -1 for anything else (empty, a sign, too large). */
static int read_whole(const char *b, const char *e, long *v)
{
    if (b == e || e - b > 9)
        return -1;
    long x = 0;
    for (const char *p = b; p < e; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        x = 10 * x + (*p - '0');
    }
    *v = x;
    return 0;
}

int shard_parse(const char *text, struct shard *out, char *err,
                size_t errsz)
{
    const char *slash = strchr(text, '/');
    long k, n;
    if (!slash || read_whole(text, slash, &k)
        || read_whole(slash + 1, slash + strlen(slash), &n)) {
        snprintf(err, errsz, "--shard '%s': write K/N, shard K (counted "
                 "from 0) of N, in decimal digits, e.g. --shard 0/4", text);
        return -1;
    }
    if (n < 1 || n > SHARD_MAX) {
        snprintf(err, errsz, "--shard '%s': N must be from 1 to %d, not %ld",
                 text, SHARD_MAX, n);
        return -1;
    }
    if (k >= n) {
        snprintf(err, errsz, "--shard '%s': K counts from 0, so it must be "
                 "below N (0 to %ld), not %ld", text, n - 1, k);
        return -1;
    }
    out->k = (int)k;
    out->n = (int)n;
    return 0;
}

/* The smallest index of cell c that shard sh plays without a stop rule. */
static int first_index(const struct sweep *s, const struct shard *sh, int c)
{
    long long offset = (long long)c * s->games_per_cell % sh->n;
    return (int)(((long long)sh->k - offset + sh->n) % sh->n);
}

/* The shard of whole cell `cell` (a sweep with a stop rule). */
static int cell_owner(const struct shard *sh, int cell)
{
    return sh->plan ? sh->plan[cell] : cell % sh->n;
}

int shard_owns(const struct sweep *s, const struct shard *sh, int cell,
               int index)
{
    if (sh->n <= 1)
        return 1;
    if (s->stop != STOP_NONE)
        return cell_owner(sh, cell) == sh->k;
    return ((long long)cell * s->games_per_cell + index) % sh->n == sh->k;
}

int shard_next(const struct sweep *s, const struct shard *sh, int cell,
               int from)
{
    if (sh->n <= 1)
        return from;
    if (s->stop != STOP_NONE)
        return cell_owner(sh, cell) == sh->k ? from : INT_MAX;
    int first = first_index(s, sh, cell);
    if (from <= first)
        return first;
    long long steps = ((long long)from - first + sh->n - 1) / sh->n;
    long long next = first + steps * sh->n;
    return next > INT_MAX ? INT_MAX : (int)next;
}

/* The indices in [0, x) of cell `cell` the shard plays (no stop rule). */
static long count_below(const struct sweep *s, const struct shard *sh,
                        int cell, int x)
{
    int first = first_index(s, sh, cell);
    return x > first ? (long)((x - first - 1) / sh->n) + 1 : 0;
}

long shard_count(const struct sweep *s, const struct shard *sh, int cell,
                 int begin, int end)
{
    if (end <= begin)
        return 0;
    if (sh->n <= 1)
        return end - begin;
    if (s->stop != STOP_NONE)
        return cell_owner(sh, cell) == sh->k ? end - begin : 0;
    return count_below(s, sh, cell, end) - count_below(s, sh, cell, begin);
}

void shard_deal_fingerprint(const struct sweep *s, const struct shard *sh,
                            char hex[65])
{
    struct sha256 c;
    unsigned char digest[32];
    char text[64];
    sha256_init(&c);
    if (s->stop != STOP_NONE) {
        snprintf(text, sizeof text, "cells %d %d:", sh->n, sh->k);
        sha256_update(&c, text, strlen(text));
        for (int cell = 0; cell < s->n_cells; cell++) {
            if (sh->n > 1 && cell_owner(sh, cell) != sh->k)
                continue;
            snprintf(text, sizeof text, " %d", cell);
            sha256_update(&c, text, strlen(text));
        }
    } else {
        snprintf(text, sizeof text, "games %d %d %d %d", sh->n, sh->k,
                 s->games_per_cell, s->n_cells);
        sha256_update(&c, text, strlen(text));
    }
    sha256_final(&c, digest);
    sha256_hex(digest, hex);
}
