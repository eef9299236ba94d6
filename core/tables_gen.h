/*
 * tables_gen.h -- the output file of the build-time table generators
 * (jetan_tables_gen.c, serbest_tables_gen.c, tafl_tables_gen.c). CMake
 * runs each as `NAME OUTPUT_FILE` (rulelab_generated_table in
 * CMakeLists.txt); each writes one .inc file that a core file includes.
 */
#ifndef RULELAB_TABLES_GEN_H
#define RULELAB_TABLES_GEN_H

#include <stdio.h>

/* Opens OUTPUT_FILE, the one argument, for writing; on a wrong call or a
 * failure to open it prints why (naming `program`) and returns NULL. */
static FILE *tables_gen_open(int argc, char **argv, const char *program)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTPUT_FILE\n", program);
        return NULL;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f)
        perror(argv[1]);
    return f;
}

/* Closes f, the file at path: 0 (main's exit status), or 1 after
 * printing why the writing failed. */
static int tables_gen_close(FILE *f, const char *path)
{
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

#endif
