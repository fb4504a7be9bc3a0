/* test_batch.c: xaiform batch's pure parts (shards, output names, list
 * lines, JSON strings, the list of files) and its worker pool, driven by a
 * fake conversion that can fail or die. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "suites.h"

START_TEST(shard_parse)
{
    unsigned k = 0, n = 0;
    ck_assert_int_eq(xf_shard_parse("1/2", &k, &n), 0);
    ck_assert_uint_eq(k, 1);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(xf_shard_parse("7/7", &k, &n), 0);
    ck_assert_uint_eq(k, 7);
    ck_assert_int_eq(xf_shard_parse("1000000/1000000", &k, &n), 0);
    static const char *const bad[] = {"0/2",  "3/2",  "1/0",  "a/2",   "1/2x", "1/",        "/2",
                                      "-1/2", "1 /2", "+1/2", "1/2/3", "",     "1/1000001", "2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(xf_shard_parse(bad[i], &k, &n) == -1, "accepted '%s'", bad[i]);
}
END_TEST

START_TEST(shards_partition)
{
    /* every position in exactly one shard, shards taking turns */
    for (unsigned n = 1; n <= 6; n++)
        for (size_t pos = 0; pos < 50; pos++) {
            unsigned owners = 0, owner = 0;
            for (unsigned k = 1; k <= n; k++)
                if (xf_shard_keep(pos, k, n)) {
                    owners++;
                    owner = k;
                }
            ck_assert_uint_eq(owners, 1);
            ck_assert_uint_eq(owner, pos % n + 1);
        }
}
END_TEST

static void
name_is(const char *in, const char *rel, const char *dir, const char *suffix, const char *want)
{
    xf_batch_naming nm = {.out_dir = dir, .suffix = suffix};
    char *got = xf_batch_output_name(in, rel, &nm);
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, want);
    free(got);
}

START_TEST(output_names)
{
    name_is("d/a.xaif", NULL, NULL, ".tangent.xaif", "d/a.tangent.xaif");
    name_is("a.txt", NULL, NULL, ".tangent.xaif", "a.txt.tangent.xaif");
    name_is("/x/d/a.xaif", "d/a.xaif", "out", ".t.xaif", "out/d/a.t.xaif");
    name_is("./x/y.xaif", NULL, "out/", ".t.xaif", "out/x/y.t.xaif");
    name_is(".//./x/y.xaif", NULL, "out", ".t.xaif", "out/x/y.t.xaif");
    name_is("/abs/p/y.xaif", NULL, "out", ".t.xaif", "out/y.t.xaif");
    name_is("../p/y.xaif", NULL, "out", ".t.xaif", "out/y.t.xaif");
    name_is("x/../y.xaif", NULL, "out", ".t.xaif", "out/y.t.xaif");
    name_is("x/..y.xaif", NULL, "out", ".t.xaif", "out/x/..y.t.xaif");
    name_is("x/y..", NULL, "o", ".t.xaif", "o/x/y...t.xaif");
    name_is("a.xaif", NULL, NULL, ".copy.xaif", "a.copy.xaif");
}
END_TEST

START_TEST(list_lines)
{
    char a[] = "  dir/a b.xaif \t\r\n", b[] = "# comment\n", c[] = "   \n", d[] = "\n",
         e[] = "\t#x", f[] = "x#y";
    ck_assert_str_eq(xf_batch_list_line(a), "dir/a b.xaif");
    ck_assert_ptr_null(xf_batch_list_line(b));
    ck_assert_ptr_null(xf_batch_list_line(c));
    ck_assert_ptr_null(xf_batch_list_line(d));
    ck_assert_ptr_null(xf_batch_list_line(e));
    ck_assert_str_eq(xf_batch_list_line(f), "x#y");
}
END_TEST

static void
json_is(const char *s, const char *want)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    xf_json_string(f, s);
    fclose(f);
    ck_assert_str_eq(buf, want);
    free(buf);
}

START_TEST(json_strings)
{
    json_is(NULL, "null");
    json_is("", "\"\"");
    json_is("a\"b\\c/d", "\"a\\\"b\\\\c/d\"");
    json_is("\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\"");
    json_is("\x01\x1f\x7f", "\"\\u0001\\u001f\x7f\"");
    json_is("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
            "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    json_is("a\xff"
            "b",
            "\"a\\ufffdb\"");                                        /* not UTF-8 */
    json_is("\xc0\xaf", "\"\\ufffd\\ufffd\"");                       /* overlong '/' */
    json_is("\xe2\x82", "\"\\ufffd\\ufffd\"");                       /* cut short by the end */
    json_is("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");            /* a surrogate */
    json_is("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* above U+10FFFF */
}
END_TEST

START_TEST(signal_names)
{
    char buf[32];
    ck_assert_str_eq(xf_batch_signal_name(SIGSEGV, buf, sizeof buf), "SIGSEGV");
    ck_assert_str_eq(xf_batch_signal_name(SIGXFSZ, buf, sizeof buf), "SIGXFSZ");
    ck_assert_str_eq(xf_batch_signal_name(200, buf, sizeof buf), "signal 200");
}
END_TEST

static void
add(xf_batch_list *l, const char *path, const char *dir, const char *suffix)
{
    xf_batch_naming nm = {.out_dir = dir, .suffix = suffix};
    char err[300];
    ck_assert_int_eq(xf_batch_list_add(l, path, &nm, err, sizeof err), 0);
}

START_TEST(list_sorted_and_sharded)
{
    xf_batch_list l = {0};
    add(&l, "b.xaif", "o", ".t.xaif");
    add(&l, "a.xaif", "o", ".t.xaif");
    add(&l, "c.xaif", "o", ".t.xaif");
    add(&l, "a.xaif", "o", ".t.xaif");
    ck_assert_int_eq(xf_batch_list_finish(&l, 2, 2), 0);
    ck_assert_uint_eq(l.total, 3);
    ck_assert_uint_eq(l.n, 1);
    ck_assert_str_eq(l.v[0].input, "b.xaif");
    ck_assert_str_eq(l.v[0].output, "o/b.t.xaif");
    ck_assert_int_eq(l.v[0].status, XF_BATCH_PENDING);
    xf_batch_list_fini(&l);
}
END_TEST

START_TEST(empty_list)
{
    xf_batch_list l = {0};
    ck_assert_int_eq(xf_batch_list_finish(&l, 1, 3), 0);
    ck_assert_uint_eq(l.n, 0);
    ck_assert_uint_eq(l.total, 0);
    xf_batch_result res;
    xf_batch_run(&l, 4, NULL, NULL, &res); /* nothing to do: no worker, no ops called */
    ck_assert_int_eq(res.signal, 0);
    ck_assert_str_eq(res.trouble, "");
    xf_batch_list_fini(&l);
}
END_TEST

START_TEST(list_refuses_overwrites)
{
    xf_batch_list l = {0};
    add(&l, "x/a.xaif", NULL, ".xaif"); /* its own output */
    add(&l, "a.xaif", "o", ".t.xaif");  /* o/a.t.xaif */
    add(&l, "/abs/a.xaif", "o", ".t.xaif");
    add(&l, "p.xaif", NULL, ".t.xaif");
    add(&l, "p.t.xaif", NULL, ".u.xaif"); /* named directly: not an earlier output */
    add(&l, "q.xaif", NULL, ".xaif.t.xaif");
    ck_assert_int_eq(xf_batch_list_finish(&l, 1, 1), 0);
    ck_assert_uint_eq(l.n, 6);
    /* sorted: /abs/a.xaif a.xaif p.t.xaif p.xaif q.xaif x/a.xaif */
    ck_assert_str_eq(l.v[0].input, "/abs/a.xaif");
    ck_assert_int_eq(l.v[0].status, XF_BATCH_PENDING);
    ck_assert_int_eq(l.v[1].status, XF_BATCH_FAILED);
    ck_assert_str_eq(l.v[1].error, "o/a.t.xaif is also the output of /abs/a.xaif");
    ck_assert_int_eq(l.v[2].status, XF_BATCH_PENDING);
    ck_assert_str_eq(l.v[3].input, "p.xaif");
    ck_assert_int_eq(l.v[3].status, XF_BATCH_FAILED); /* p.t.xaif is an input */
    ck_assert_str_eq(l.v[3].error, "p.t.xaif would overwrite an input");
    ck_assert_int_eq(l.v[4].status, XF_BATCH_PENDING);
    ck_assert_int_eq(l.v[5].status, XF_BATCH_FAILED);
    ck_assert_str_eq(l.v[5].error, "x/a.xaif would overwrite an input");
    xf_batch_list_fini(&l);
}
END_TEST

/* ---- a folder on disk */

static char tmpdir[64];

static void
put(const char *rel, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void
mk(const char *rel)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    ck_assert_int_eq(mkdir(path, 0777), 0);
}

static void
setup_tree(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/xf-batch-test.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    mk("sub");
    mk("sub/deeper");
    mk(".hidden");
    put("a.xaif", "a");
    put("sub/b.xaif", "bb");
    put("sub/b.t.xaif", "earlier output");
    put("sub/deeper/crash.xaif", "c");
    put("sub/deeper/bad.xaif", "d");
    put("notes.txt", "not xaif");
    put(".hidden/h.xaif", "hidden");
    put(".top.xaif", "hidden");
}

static void
teardown_tree(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

START_TEST(folder_search)
{
    xf_batch_list l = {0};
    char out[128];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    add(&l, tmpdir, out, ".t.xaif");
    ck_assert_int_eq(xf_batch_list_finish(&l, 1, 1), 0);
    ck_assert_uint_eq(l.n, 4);
    ck_assert_uint_eq(l.skipped, 1);
    static const char *const want[] = {"a", "sub/b", "sub/deeper/bad", "sub/deeper/crash"};
    for (size_t i = 0; i < 4; i++) {
        char in[256], o[256];
        snprintf(in, sizeof in, "%s/%s.xaif", tmpdir, want[i]);
        snprintf(o, sizeof o, "%s/%s.t.xaif", out, want[i]);
        ck_assert_str_eq(l.v[i].input, in);
        ck_assert_str_eq(l.v[i].output, o);
    }
    ck_assert_uint_eq(l.v[1].in_bytes, 2);
    xf_batch_list_fini(&l);
}
END_TEST

/* Earlier outputs of every mode are left out of a folder search, not only
 * those of the batch's own suffix; a file named directly is taken. */
START_TEST(folder_search_leaves_out_outputs_of_every_mode)
{
    put("a.tangent.xaif", "t");
    put("a.adjoint.xaif", "a");
    put("sub/b.copy.xaif", "c");
    static const char *const outputs[] = {".copy.xaif", ".tangent.xaif", ".adjoint.xaif", NULL};
    xf_batch_naming nm = {.suffix = ".adjoint.xaif", .outputs = outputs};
    xf_batch_list l = {0};
    char err[300];
    ck_assert_int_eq(xf_batch_list_add(&l, tmpdir, &nm, err, sizeof err), 0);
    ck_assert_int_eq(xf_batch_list_finish(&l, 1, 1), 0);
    /* a, sub/b.t (no mode's output), sub/b, sub/deeper/bad, sub/deeper/crash */
    ck_assert_uint_eq(l.n, 5);
    ck_assert_uint_eq(l.skipped, 3);
    char in[256];
    snprintf(in, sizeof in, "%s/a.xaif", tmpdir);
    ck_assert_str_eq(l.v[0].input, in);
    snprintf(in, sizeof in, "%s/sub/b.xaif", tmpdir);
    ck_assert_str_eq(l.v[2].input, in);
    snprintf(in, sizeof in, "%s/a.tangent.xaif", tmpdir);
    ck_assert_int_eq(xf_batch_list_add(&l, in, &nm, err, sizeof err), 0);
    ck_assert_uint_eq(l.n, 6);
    xf_batch_list_fini(&l);
}
END_TEST

START_TEST(list_file)
{
    put("list", "# inputs\n\n  a.xaif\n sub/b.xaif  \n#sub/deeper/bad.xaif\n");
    char path[128];
    snprintf(path, sizeof path, "%s/list", tmpdir);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    xf_batch_list l = {0};
    xf_batch_naming nm = {.out_dir = "o", .suffix = ".t.xaif"};
    char err[300];
    ck_assert_int_eq(xf_batch_list_read(&l, f, "list", &nm, err, sizeof err), 0);
    fclose(f);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_str_eq(l.v[0].input, "a.xaif");
    ck_assert_str_eq(l.v[1].output, "o/sub/b.t.xaif");
    xf_batch_list_fini(&l);
}
END_TEST

/* A fake conversion: "crash" files kill the worker, "bad" ones fail, others
 * are copied with a prefix. */
static int init_arg = 7;

static void *
fake_init(const void *arg, xf_diag *diag)
{
    (void)diag;
    return (void *)arg;
}

static int
fake_convert(void *state, const char *in, const char *out, xf_diag *diag)
{
    ck_assert_int_eq(*(int *)state, 7);
    if (strstr(in, "crash"))
        raise(SIGKILL);
    if (strstr(in, "bad")) {
        xf_warning(diag, in, 1, "a warning first");
        xf_error(diag, in, 3, "bad file");
        return -1;
    }
    FILE *f = fopen(out, "w");
    if (!f)
        return -1;
    fputs("converted:", f);
    fclose(f);
    return 0;
}

static void
fake_fini(void *state)
{
    (void)state;
}

static void
count_done(void *arg, const xf_batch_file *f, size_t ndone, size_t nfailed, double elapsed)
{
    (void)f, (void)nfailed, (void)elapsed;
    size_t *n = arg;
    ck_assert_uint_eq(ndone, *n + 1);
    *n = ndone;
}

START_TEST(pool_converts_fails_and_survives)
{
    xf_batch_list l = {0};
    char out[128];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    add(&l, tmpdir, out, ".t.xaif");
    ck_assert_int_eq(xf_batch_list_finish(&l, 1, 1), 0);
    xf_batch_ops ops = {fake_init, fake_convert, fake_fini, &init_arg};
    size_t done = 0;
    xf_batch_events ev = {count_done, NULL, &done};
    xf_batch_result res;
    xf_batch_run(&l, _i + 1, &ops, &ev, &res);
    ck_assert_uint_eq(done, 4);
    ck_assert_int_eq(res.signal, 0);
    ck_assert_str_eq(res.trouble, "");
    ck_assert_int_eq(l.v[0].status, XF_BATCH_OK); /* a */
    ck_assert_uint_eq(l.v[0].out_bytes, 10);
    ck_assert_int_eq(l.v[1].status, XF_BATCH_OK); /* sub/b, its folder made */
    ck_assert_int_eq(l.v[2].status, XF_BATCH_FAILED);
    ck_assert_ptr_nonnull(strstr(l.v[2].error, "bad.xaif:3: error: bad file"));
    ck_assert_int_eq(l.v[3].status, XF_BATCH_FAILED);
    ck_assert_str_eq(l.v[3].error, "the worker converting it was killed by SIGKILL (Killed)");
    struct stat st;
    ck_assert_int_eq(stat(l.v[1].output, &st), 0);
    ck_assert_int_ne(stat(l.v[3].output, &st), 0);
    xf_batch_list_fini(&l);
}
END_TEST

Suite *
test_batch_suite(void)
{
    Suite *s = suite_create("batch");
    TCase *tc = tcase_create("pure");
    tcase_add_test(tc, shard_parse);
    tcase_add_test(tc, shards_partition);
    tcase_add_test(tc, output_names);
    tcase_add_test(tc, list_lines);
    tcase_add_test(tc, json_strings);
    tcase_add_test(tc, signal_names);
    tcase_add_test(tc, list_sorted_and_sharded);
    tcase_add_test(tc, list_refuses_overwrites);
    tcase_add_test(tc, empty_list);
    suite_add_tcase(s, tc);
    tc = tcase_create("files");
    tcase_add_checked_fixture(tc, setup_tree, teardown_tree);
    tcase_add_test(tc, folder_search);
    tcase_add_test(tc, folder_search_leaves_out_outputs_of_every_mode);
    tcase_add_test(tc, list_file);
    tcase_add_loop_test(tc, pool_converts_fails_and_survives, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
