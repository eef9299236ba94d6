/*
 * sha256.h -- SHA-256 (FIPS 180-4), for the fingerprints a disproof
 * certificate's checker compares transposition links by (agents/
 * disproof.c) and for the hash `rulelab claim` stores of each certificate.
 * Plain C, no state outside the context; tested on the FIPS examples.
 */
#ifndef RULELAB_SHA256_H
#define RULELAB_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
    uint32_t h[8];
    uint64_t length; /* bytes hashed so far */
    unsigned char block[64];
    size_t used; /* bytes waiting in block */
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t n);
/* Writes the 32-byte digest; c must be initialised again before reuse. */
void sha256_final(struct sha256 *c, unsigned char digest[32]);
/* The digest of n bytes at data, in one call. */
void sha256_bytes(const void *data, size_t n, unsigned char digest[32]);
/* Writes the digest as 64 lowercase hex digits and a NUL into hex. */
void sha256_hex(const unsigned char digest[32], char hex[65]);

#endif
