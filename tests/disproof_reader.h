/*
 * disproof_reader.h -- the disproof tests' own reader of the format of
 * agents/solve/disproof.h and their walk of a certificate with the naive
 * reference move generators of tests/ref (serbest_ref, jetan_ref,
 * tafl_ref) instead of the engine: shared by test_disproof.c (minimax
 * cross-checks, tampering) and test_disproof_committed.c (the committed
 * Kings Landing disproofs). Written from the format's description, not
 * from agents/solve/disproof.c.
 */
#ifndef RULELAB_DISPROOF_READER_H
#define RULELAB_DISPROOF_READER_H

#include <stddef.h>
#include <stdint.h>

#include "disproof.h"
#include "jetan_ref.h"
#include "serbest_ref.h"
#include "tafl_ref.h"
#include "variant.h"

struct ref {
    int game; /* 0 tafl, 1 serbest, 2 jetan */
    tafl_ref_params tp;
    serbest_ref_params sp;
    jetan_ref_params jp;
    char attacker; /* the side letter to move at the root */
};

enum { SLOT_END, SLOT_NEW, SLOT_SHARED, SLOT_REF };

struct tedge {
    char move[DISPROOF_MOVE_MAX + 1];
    int slot;
    long child; /* the node number for NEW, SHARED and REF */
};

struct tnode {
    int bound, or_node, ply;
    int n; /* edges */
    struct tedge *e;
    char fen[160]; /* the reference's position text */
    long parent; /* -1 for the root */
};

struct tcert {
    char variant[VARIANT_TEXT_MAX], position[1024];
    int plies;
    char part[DISPROOF_MOVE_MAX + 1]; /* a split's part's move, or "" */
    struct tnode *nodes;
    long n, cap;
    struct ref ref;
    /* reading */
    const unsigned char *data;
    size_t len, pos;
    char dict[DISPROOF_MAX_MOVE_IDS][DISPROOF_MOVE_MAX + 1];
    long ndict;
    char err[512];
};

/* The reference for the variant v, with its parameters read from v. */
struct ref ref_for(const struct variant *v, const char *root_text);

/* The side to move ('w', 'b', 'a', 'd', ...) of a position text. */
char side_of(const char *fen);

/* The reference's legal moves at fen, sorted; the count or -1. */
int ref_moves(const struct ref *r, const char *fen, char out[][8]);

/* Plays the legal move at fen into out: 0 the game goes on, 1 the
 * attacker has won, 2 it is over without an attacker win; -1 on error. */
int ref_play(const struct ref *r, const char *fen, const char *move,
             char *out, size_t n);

/* The position after move at fen, for reading: in Serbest the move is
 * made without the reference's judging (which plays every reply to look
 * for a mate), as ref_check judges the nodes it checks; a large
 * certificate has 10^6 nodes. 0, or -1 if the move cannot be made. */
int ref_make(const struct ref *r, const char *fen, const char *move,
             char *out, size_t n);

/* Frees what cert_read made. */
void cert_free(struct tcert *t);

/* Reads a whole certificate file (header, data) into a new tcert. */
struct tcert *cert_read(const unsigned char *buf, size_t len);

/* disproof_verify on a buffer: 0 or -1 with err; under 1 MB, checked
 * again on 3 threads (disproof_verify_threads), which must give the same
 * answer, counts and message. */
int verify_buf(const char *buf, size_t len, struct disproof_info *info,
               char *err, size_t errsz);

/* Checks t with the reference alone (test_disproof.c's opening says how;
 * a split's part lists its own move alone at the root, legal for the
 * reference):
 * the attacker nodes (all, or a seeded sample of 1,000 when there are more)
 * against the reference's move lists or, at a leaf, its moves' results;
 * and every node's edges, or in a certificate of over 100,000 nodes
 * those of the sampled attacker nodes and of 1,000 defender nodes drawn
 * the same way. Returns the number of attacker nodes checked. */
long ref_check(const struct tcert *t, uint64_t seed, const char *what);

#endif
