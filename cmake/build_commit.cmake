# build_commit.cmake -- run by the build (cmake -P, with SRC the source
# tree and OUT the file to write): writes OUT, a C file that defines
# rulelab_build_commit (experiments/store/version.h) as `git describe --always
# --dirty` of SRC ("unknown" outside a git checkout), and rewrites it only
# when that text changes, so a build recompiles it only after a commit or
# an edit. The journals of verified certificates record it.
execute_process(
  COMMAND git describe --always --dirty --abbrev=7
  WORKING_DIRECTORY ${SRC}
  OUTPUT_VARIABLE commit
  RESULT_VARIABLE rc
  ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
endif()
set(text "/* Written by cmake/build_commit.cmake: the commit of this build. */
#include \"version.h\"

const char rulelab_build_commit[] = \"${commit}\";
")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
