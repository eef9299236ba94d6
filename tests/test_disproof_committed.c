/*
 * test_disproof_committed.c -- the committed Kings Landing disproofs of
 * experiments/proofs, from the empty board (argv: each file, then its
 * bound; the rank is read from its variant):
 *   serbest_kl8_nowin3.disproof  rank 8, no forced win within 3 plies
 *   serbest_kl8_nowin5.disproof  rank 8, no forced win within 5 plies
 * Each is verified by disproof_verify (the engine's moves) and walked
 * with serbest_ref alone by tests/disproof_reader.c: all of its attacker
 * move lists and leaves, or a seeded sample of 1,000 of each where there
 * are more (the 5-ply one has 420,700 leaves), and the edges of every
 * node, or of the nodes drawn where there are over 100,000.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "disproof_reader.h"

static int n_files;
static char **files; /* path, bound, path, bound, ... */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    char *buf = NULL, chunk[65536];
    size_t got;
    FILE *m = open_memstream(&buf, len);
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, got, m);
    fclose(m);
    fclose(f);
    return buf;
}

static void check_committed(const char *path, int plies)
{
    char err[1024];
    size_t len = 0;
    char *buf = slurp(path, &len);
    struct disproof_info info;
    if (verify_buf(buf, len, &info, err, sizeof err) != 0)
        fail_msg("%s: %s", path, err);
    struct tcert *t = cert_read((unsigned char *)buf, len);
    assert_int_equal(info.plies, plies);
    assert_int_equal(t->plies, plies);
    assert_non_null(strstr(t->variant, "kings_landing=8"));
    assert_int_equal(t->n, info.nodes);
    long checked = ref_check(t, 8, path);
    long lists = 0, leaves = 0;
    for (long k = 0; k < t->n; k++) {
        lists += t->nodes[k].or_node && t->nodes[k].bound > 1;
        leaves += t->nodes[k].or_node && t->nodes[k].bound == 1;
    }
    print_message("%s: %ld nodes; %ld checked with serbest_ref, of its %ld "
                  "attacker move lists and %ld leaves (all, or a seeded "
                  "1,000 of each)\n", path, t->n, checked, lists, leaves);
    assert_int_equal(leaves, info.leaves);
    assert_int_equal(checked, (lists < 1000 ? lists : 1000)
                                  + (leaves < 1000 ? leaves : 1000));
    cert_free(t);
    free(buf);
}

static void test_committed(void **state)
{
    (void)state;
    assert_true(n_files > 0);
    for (int i = 0; i < n_files; i++)
        check_committed(files[2 * i], atoi(files[2 * i + 1]));
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc % 2 == 0) {
        fprintf(stderr, "usage: %s FILE BOUND [FILE BOUND ...]\n", argv[0]);
        return 2;
    }
    n_files = (argc - 1) / 2;
    files = argv + 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_committed),
    };
    return cmocka_run_group_tests_name("disproof_committed", tests, NULL,
                                       NULL);
}
