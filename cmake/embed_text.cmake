# embed_text.cmake -- writes OUT, a C file that defines `const char
# NAME[]` holding the text of the file IN, so a template ships inside the
# program (no file to find at run time). Run by the build:
#   cmake -DIN=file -DOUT=file.c -DNAME=identifier -P embed_text.cmake
file(READ "${IN}" text)
string(REPLACE "\\" "\\\\" text "${text}")
string(REPLACE "\"" "\\\"" text "${text}")
string(REPLACE "\n" "\\n\"\n    \"" text "${text}")
file(WRITE "${OUT}.part" "/* ${NAME}: the text of ${IN}, written by cmake/embed_text.cmake. */\nconst char ${NAME}[] =\n    \"${text}\";\n")
file(COPY_FILE "${OUT}.part" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.part")
