/*
 * replay_main.c -- a main() for the fuzz targets without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on each file named on the command line, or
 * on each file in each directory named there. Used to replay a corpus
 * under gcc (ASan+UBSan, or --coverage for gcov) where clang's libFuzzer is
 * not available. Exits 0 after every input ran (a crash aborts it).
 */
#include <dirent.h>
#include <sys/stat.h>

#include "fuzz_util.h"

/* Feeds the file at path to the target; -1 if it cannot be read. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, len = 0, got;
    uint8_t *data = malloc(cap);
    while (data && (got = fread(data + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *grown = realloc(data, cap * 2);
            if (!grown) {
                free(data);
                data = NULL;
                break;
            }
            data = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (!data) {
        fprintf(stderr, "%s: out of memory\n", path);
        return -1;
    }
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int rc = 0, n = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            perror(argv[i]);
            rc = 1;
            continue;
        }
        if (!S_ISDIR(sb.st_mode)) {
            rc |= run_file(argv[i]) != 0;
            n++;
            continue;
        }
        struct dirent **names;
        int count = scandir(argv[i], &names, NULL, alphasort);
        for (int j = 0; j < count; j++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[j]->d_name);
            if (names[j]->d_name[0] != '.' && stat(path, &sb) == 0
                && S_ISREG(sb.st_mode)) {
                rc |= run_file(path) != 0;
                n++;
            }
            free(names[j]);
        }
        free(names);
    }
    fprintf(stderr, "replayed %d inputs\n", n);
    return rc;
}
