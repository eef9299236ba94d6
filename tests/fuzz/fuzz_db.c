/*
 * fuzz_db.c -- libFuzzer target: a results database as `report`, `export`
 * and `replay` open it. The input bytes are written to a temporary file
 * (its -wal and -shm removed first), which the commands then open
 * read-only through store_open, exactly as from the command line:
 *
 *     rulelab report DB --format F        for each of the four formats
 *     rulelab report DB --sweep NAME      "fuzz" (the corpus's) and "nosuch"
 *     rulelab export DB --csv --out /dev/null
 *     rulelab replay DB ID                for game ids 1 (with --show), 2,
 *                                         3 and 1000000
 *
 * Only memory safety and undefined behaviour are checked: the commands may
 * fail (exit 1) on a damaged file. A crash inside SQLite itself is to be
 * reported upstream, not fixed here. Standard output goes to /dev/null.
 */
#include <unistd.h>

#include "cli.h"
#include "fuzz_util.h"

static char db_path[64];

static void remove_db(void)
{
    char side[80];
    if (!db_path[0])
        return;
    unlink(db_path);
    snprintf(side, sizeof side, "%s-wal", db_path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", db_path);
    unlink(side);
    snprintf(side, sizeof side, "%s-journal", db_path);
    unlink(side);
}

/* Makes the temporary file once per process and sends stdout away. */
static void set_up(void)
{
    const char *dir = getenv("TMPDIR");
    snprintf(db_path, sizeof db_path, "%s/rulelab_fuzz_db_XXXXXX",
             dir && strlen(dir) < 30 ? dir : "/tmp");
    int fd = mkstemp(db_path);
    fuzz_check(fd >= 0, "mkstemp");
    close(fd);
    atexit(remove_db);
    fuzz_check(freopen("/dev/null", "w", stdout) != NULL, "stdout to /dev/null");
}

static int run(const struct cli_command *cmd, int argc, const char **argv)
{
    return cmd->run(argc, (char **)argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!db_path[0])
        set_up();
    remove_db();
    FILE *f = fopen(db_path, "wb");
    fuzz_check(f != NULL, "open the temporary database");
    fuzz_check(fwrite(data, 1, size, f) == size && fclose(f) == 0,
               "write the temporary database");
    static const char *const formats[] = {"table", "csv", "json", "markdown"};
    for (int i = 0; i < 4; i++) {
        const char *argv[] = {"report", db_path, "--format", formats[i], NULL};
        run(&cmd_report, 4, argv);
    }
    static const char *const sweeps[] = {"fuzz", "nosuch"};
    for (int i = 0; i < 2; i++) {
        const char *argv[] = {"report", db_path, "--sweep", sweeps[i], NULL};
        run(&cmd_report, 4, argv);
    }
    const char *export[] = {"export", db_path, "--csv", "--out", "/dev/null",
                            NULL};
    run(&cmd_export, 5, export);
    const char *show[] = {"replay", db_path, "1", "--show", NULL};
    run(&cmd_replay, 4, show);
    static const char *const ids[] = {"2", "3", "1000000"};
    for (int i = 0; i < 3; i++) {
        const char *argv[] = {"replay", db_path, ids[i], NULL};
        run(&cmd_replay, 3, argv);
    }
    fflush(stdout);
    return 0;
}
