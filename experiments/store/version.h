/* version.h -- the program version recorded with every run, and the
 * commit the build was made from. */
#ifndef RULELAB_VERSION_H
#define RULELAB_VERSION_H

#define RULELAB_VERSION "0.1.0"

/* `git describe --always --dirty` of the source tree when it was built
 * (a commit, "-dirty" with uncommitted edits; "unknown" outside git):
 * written at each build by cmake/build_commit.cmake. */
extern const char rulelab_build_commit[];

#endif
