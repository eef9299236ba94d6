/*
 * disproof.h -- disproof certificates: "the side to move has no forced win
 * within N plies", written by the solver (solver_write_certificate,
 * solver.h) and re-checked here from scratch with the game's own move
 * generator and rules alone.
 *
 * What a disproof shows. The side to move at the root is the attacker. A
 * node is a position with a remaining bound b >= 1 and claims: from here
 * the attacker cannot force a win within b plies. At the attacker's turns
 * the node lists every legal move, each with what refutes it; at the
 * defender's turns it gives one reply that keeps the attacker from
 * winning; an attacker's turn with b = 1 is a leaf, where the checker plays
 * every legal move itself and none may win at once. Lines end where the
 * game ends without an attacker win or the bound runs out. The nodes form
 * a DAG: a position reached again (a transposition) is written once and
 * referred to by its number; a node proven at bound b covers any need at
 * bound <= b (a win within fewer plies is a win within more).
 *
 * File format (version 2; version 1 reads the same). A text header, one
 * item per line ("\n"):
 *
 *     rulelab-disproof 2        or 1 (below)
 *     variant <canonical variant>
 *     position <position text>
 *     plies <N>                 1..SOLVER_MAX_PLIES, the root's need
 *     part <move>               optional: a part of a split (below)
 *     nodes <count>             node records in the data
 *     shared <count>            of them marked shared (see slot 2)
 *     data
 *     <binary records: the root node, its descendants inside it>
 *     end
 *
 * The data is one node record (the root), then the four bytes "end\n",
 * then the end of the file. Every number in it is an unsigned LEB128
 * varint (7 bits a byte, low first, the high bit set on all but the last
 * byte; minimal: no last byte 0 after the first; below 2^32).
 *
 *     node  := bound body        bound >= 1, and >= the need where it stands
 *     body  := count edge*count  the attacker to move, bound >= 2: count
 *                                is the number of its legal moves, and
 *                                the edges name each exactly once
 *            | (nothing)         the attacker to move, bound 1: a leaf
 *            | edge              the defender to move: its one reply
 *     edge  := move slot         the child is the position after move,
 *                                needing bound - 1
 *     move  := 0 len text        a move text (1..31 bytes, the game's
 *                                notation), which becomes the next move id
 *                                (0, 1, 2, ... in order of definition)
 *            | id + 1            a move defined earlier
 *     slot  := 0                 END: nothing more is needed: the game is
 *                                over (not an attacker win) or the need is
 *                                0. Required exactly then.
 *            | 1 node            NEW: the child's node, referred to nowhere
 *            | 2 node            NEW shared: the same, and later slots may
 *                                refer to it
 *            | 2 + d             REF (d >= 1): the child is node next - d,
 *                                where next is the number of node records
 *                                begun so far (d = 1: the latest begun)
 *
 * Nodes are numbered 0 (the root), 1, 2, ... in the order their records
 * begin (preorder). A REF must name a shared node whose record has ended,
 * in the same position as the child (the same game state in every byte
 * it uses, core/game.h's game_state_used, once both are in their
 * canonical form, game_canonical_copy: the checker compares the SHA-256
 * of those bytes), at a bound >= the need. A repetition ring's unused
 * slots are not compared, nor the order of the piece lists (a position
 * reached by two drop orders is one position); checkers before
 * 2026-12-02 compared both, and so reject some links this one accepts.
 * Which side is to move (attacker or defender) is the game's to decide,
 * from the position.
 *
 * A part. With the line "part <move>" (a legal move at the root, in the
 * game's notation; N >= 2) the file is one part of a split disproof
 * (solver.h, solver_split_*): its root lists that attacker move alone, so
 * on its own it shows only that this move forces no win within N plies.
 * Parts of every legal root move, each once, with the same variant,
 * position and plies, together make the whole disproof; `rulelab verify
 * DIR` checks each and that they cover the root (experiments/prove/split.h).
 *
 * Versions. The records of versions 1 and 2 are read alike; the version
 * says how the writer chose where the game leaves a choice, so that a
 * version 2 file's bytes are a function of the question (variant,
 * position, plies, part) and the version alone: at a defender's turn the
 * reply is the first legal move, in the move generator's order, after
 * which the attacker cannot win within the remaining bound; an
 * attacker's moves are listed in that order; a position met again (its
 * state's canonical bytes) at a bound at or below one it was written
 * with links to that node, and the DAG is written in preorder (up to
 * SOLVER_DAG_NODES nodes, a tree without links beyond). Version 1 files
 * (builds before 2026-12-05) took the defender's reply the search's
 * transposition table kept, and builds wrote them with different links
 * over time, so their bytes are a build's, not the question's: a
 * journal's SHA-256s of version 1 parts name the files checked, not
 * files a rerun makes again. The checker trusts neither rule: it checks
 * what the file says.
 *
 * The encoding is compact binary (moves by dictionary index, varints,
 * transpositions shared); like the win proofs it uses no general-purpose
 * compression (the project has no compression library); xz or gzip shrink
 * it further for storage, and `rulelab verify` reads the file as a stream.
 */
#ifndef RULELAB_DISPROOF_H
#define RULELAB_DISPROOF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"

/* The first line the writer writes, and the version it names. */
#define DISPROOF_MAGIC "rulelab-disproof 2"
#define DISPROOF_FORMAT 2
/* The first line of a version 1 file (still read). */
#define DISPROOF_MAGIC_V1 "rulelab-disproof 1"
/* The longest move text, and the most distinct moves, a file may define. */
#define DISPROOF_MOVE_MAX 31
#define DISPROOF_MAX_MOVE_IDS 65536

/* What disproof_verify found. */
struct disproof_info {
    char variant[VARIANT_TEXT_MAX];
    char position[1024];
    int plies;
    char part[DISPROOF_MOVE_MAX + 1]; /* a part's root move; "" if whole */
    int format; /* the version its first line names: 1 or 2 */
    long nodes, shared; /* node records read; those marked shared */
    long leaves; /* attacker nodes at bound 1 (every move played there) */
    long refs; /* transposition links followed */
    long attacker_moves; /* edges of attacker nodes */
    uint64_t bytes; /* data bytes read */
};

/* The format version a disproof's first line names (line with or
 * without its "\n"): 1 or 2, or 0 when it is no disproof's first line. */
int disproof_format_of(const char *line);

/* Re-checks a disproof file from scratch, reading it once as a stream:
 * the header parses and the position is ongoing; every attacker node
 * lists each of its legal moves exactly once; every defender reply is
 * legal; no move the attacker makes, at a node or at a leaf, wins at
 * once, nor does any defender reply lose at once; END stands exactly
 * where the game is over or the need is 0; every bound covers its need;
 * every REF names an ended shared node in the same state at a bound that
 * covers the need; the counts match the header and the file ends after
 * "end\n". Memory: a frame per ply down to the deepest bound the format
 * allows (SOLVER_MAX_PLIES + 2 frames), each one state, one move list and
 * its lookup table (state_size + 9 max_moves bytes: 11.4 KiB in Serbest,
 * 750 KiB for all frames), the move dictionary (32 bytes a move, at most
 * DISPROOF_MAX_MOVE_IDS), and 32 bytes per shared node (the header's
 * count, allocated once) -- not the file's size. Returns 0 if valid, or
 * -1 with a message naming the place: the node number, its line of moves
 * from the root and the byte offset in the data (header errors name the
 * line). */
int disproof_verify(FILE *in, struct disproof_info *info, char *err,
                    size_t errsz);

/* disproof_verify with the leaves (where the attacker's every move is
 * played) checked on `threads` threads (OpenMP tasks) while the walk reads
 * on; the answer and the message are those of disproof_verify. Memory
 * grows by LEAF_QUEUE x LEAF_BATCH (128) leaves a thread, a state and
 * 1 KiB each. threads <= 1 is disproof_verify. */
int disproof_verify_threads(FILE *in, int threads,
                            struct disproof_info *info, char *err,
                            size_t errsz);

#endif
