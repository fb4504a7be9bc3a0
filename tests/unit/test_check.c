/* test_check.c: the regression runner's records and expectations file:
 * what counts as a change (any difference, better or worse, a failure's
 * reason class included), and what lies outside a run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_results.h"
#include "expect.h"
#include "suites.h"

static void
add(xf_check_results *r, const char *name, xf_check_mode mode, xf_check_status st, int ops,
    int tape, int ref_ops, int ref_tape)
{
    xf_check_result x = {.name = (char *)name,
                         .mode = mode,
                         .status = st,
                         .have_ours = ops >= 0,
                         .have_ref = ref_ops >= 0,
                         .ops = ops >= 0 ? (uint64_t)ops : 0,
                         .tape = tape >= 0 ? (uint64_t)tape : 0,
                         .ref_ops = ref_ops >= 0 ? (uint64_t)ref_ops : 0,
                         .ref_tape = ref_tape >= 0 ? (uint64_t)ref_tape : 0};
    ck_assert_int_eq(xf_check_results_add(r, &x), 0);
}

/* The record of @name in @mode of sorted @r, to alter. */
static xf_check_result *
at(xf_check_results *r, const char *name, xf_check_mode mode)
{
    xf_check_result *x = (xf_check_result *)xf_check_results_find(r, name, mode);
    ck_assert_ptr_nonnull(x);
    return x;
}

/* The expectations of every test: a passes dd and tangent, b fails dd
 * (its Jacobian differs). */
static void
expected(xf_check_results *old)
{
    add(old, "b", XF_CHECK_DD, XF_CHECK_FAIL, -1, -1, -1, -1);
    old->v[old->n - 1].reason = XF_FAIL_JACOBIAN;
    add(old, "a", XF_CHECK_TANGENT, XF_CHECK_PASS, 10, 0, 12, 0);
    add(old, "a", XF_CHECK_DD, XF_CHECK_PASS, -1, -1, -1, -1);
    xf_check_results_sort(old);
}

/* Compare @run with expected() within @sc; the printed text in @text. */
static int
compare(xf_check_results *run, const xf_expect_scope *sc, char *text, size_t len)
{
    xf_check_results old = {0};
    expected(&old);
    xf_check_results_sort(run);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    int n = xf_expect_compare(&old, run, sc, "exp.txt", f);
    fclose(f);
    snprintf(text, len, "%s", buf);
    free(buf);
    xf_check_results_fini(&old);
    xf_check_results_fini(run);
    return n;
}

static const xf_expect_scope both = {.modes = {[XF_CHECK_DD] = true, [XF_CHECK_TANGENT] = true},
                                     .all = true};

START_TEST(the_same_run_passes)
{
    xf_check_results run = {0};
    char text[2000];
    expected(&run);
    ck_assert_int_eq(compare(&run, &both, text, sizeof text), 0);
    ck_assert_str_eq(text, "exp.txt: 0 changes\n");
}
END_TEST

START_TEST(every_change_is_named)
{
    xf_check_results run = {0};
    char text[2000];
    add(&run, "a", XF_CHECK_DD, XF_CHECK_FAIL, -1, -1, -1, -1); /* newly failing */
    run.v[0].reason = XF_FAIL_RUN;
    add(&run, "a", XF_CHECK_TANGENT, XF_CHECK_PASS, 11, 0, 12, 0);       /* one more operation */
    add(&run, "c", XF_CHECK_DD, XF_CHECK_PASS, -1, -1, -1, -1);          /* not in the file */
    add(&run, "c", XF_CHECK_REF_TANGENT, XF_CHECK_SKIP, -1, -1, -1, -1); /* another mode */
    /* b dd: in the file, not found */
    ck_assert_int_eq(compare(&run, &both, text, sizeof text), 5);
    ck_assert_str_eq(text, "changed  a dd: PASS -> FAIL (run-error)\n"
                           "changed  a tangent: operations 10 -> 11 (a rise)\n"
                           "changed  c dd: not in exp.txt, now PASS\n"
                           "changed  c ref-tangent: not in exp.txt, now SKIP\n"
                           "changed  b dd: FAIL (jacobian-mismatch) in exp.txt, not found by the "
                           "run\n"
                           "exp.txt: 5 changes\n"
                           "(to record the run as expected: the same command with --update)\n");
}
END_TEST

START_TEST(a_newly_passing_example_is_a_change)
{
    xf_check_results run = {0};
    char text[2000];
    add(&run, "a", XF_CHECK_DD, XF_CHECK_PASS, -1, -1, -1, -1);
    add(&run, "a", XF_CHECK_TANGENT, XF_CHECK_PASS, 10, 0, 12, 0);
    add(&run, "b", XF_CHECK_DD, XF_CHECK_PASS, -1, -1, -1, -1);
    ck_assert_int_eq(compare(&run, &both, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "changed  b dd: FAIL (jacobian-mismatch) -> PASS\n"));
}
END_TEST

/* A better figure is a change too: else a count could fall from 10 to 9
 * and climb back to 10 unseen. */
START_TEST(a_fall_is_a_change)
{
    xf_check_results run = {0};
    char text[2000];
    expected(&run);
    xf_check_results_sort(&run);
    at(&run, "a", XF_CHECK_TANGENT)->ops = 9;
    ck_assert_int_eq(compare(&run, &both, text, sizeof text), 1);
    ck_assert_str_eq(text, "changed  a tangent: operations 10 -> 9 (a fall)\n"
                           "exp.txt: 1 change\n"
                           "(to record the run as expected: the same command with --update)\n");
    expected(&run);
    xf_check_results_sort(&run);
    at(&run, "a", XF_CHECK_TANGENT)->ref_tape = 0; /* unchanged */
    at(&run, "a", XF_CHECK_TANGENT)->ref_ops = 13; /* xaifBooster's, either way */
    ck_assert_int_eq(compare(&run, &both, text, sizeof text), 1);
    ck_assert_ptr_nonnull(
        strstr(text, "changed  a tangent: xaifBooster's operations 12 -> 13 (a rise)\n"));
}
END_TEST

/* The same status failing for another reason is a change. */
START_TEST(a_new_reason_is_a_change)
{
    xf_check_results run = {0};
    char text[2000];
    expected(&run);
    xf_check_results_sort(&run);
    at(&run, "b", XF_CHECK_DD)->reason = XF_FAIL_RUN;
    ck_assert_int_eq(compare(&run, &both, text, sizeof text), 1);
    ck_assert_str_eq(text, "changed  b dd: FAIL (jacobian-mismatch) -> FAIL (run-error)\n"
                           "exp.txt: 1 change\n"
                           "(to record the run as expected: the same command with --update)\n");
}
END_TEST

START_TEST(tape_and_xaifboosters_counts)
{
    xf_check_results run = {0};
    char text[2000];
    expected(&run);
    run.v[1].tape = 2;
    run.v[1].ref_ops = 11; /* xaifBooster's changed: the counting did */
    ck_assert_int_eq(compare(&run, &both, text, sizeof text), 2);
    ck_assert_ptr_nonnull(strstr(text, "changed  a tangent: tape words 0 -> 2 (a rise)\n"));
    ck_assert_ptr_nonnull(
        strstr(text, "changed  a tangent: xaifBooster's operations 12 -> 11 (a fall)\n"));
    expected(&run);
    run.v[1].have_ours = run.v[1].have_ref = false; /* the counts went missing */
    ck_assert_int_eq(compare(&run, &both, text, sizeof text), 4);
    ck_assert_ptr_nonnull(strstr(text, "changed  a tangent: operations 10 -> -\n"));
}
END_TEST

START_TEST(lines_outside_the_run_are_not_compared)
{
    xf_check_results run = {0};
    char text[2000];
    /* only the tangent mode ran: the dd lines do not count */
    xf_expect_scope tangent = {.modes = {[XF_CHECK_TANGENT] = true}, .all = true};
    add(&run, "a", XF_CHECK_TANGENT, XF_CHECK_PASS, 10, 0, 12, 0);
    ck_assert_int_eq(compare(&run, &tangent, text, sizeof text), 0);
    /* only example a was named: b's line does not count */
    xf_expect_scope named = both;
    named.all = false;
    add(&run, "a", XF_CHECK_TANGENT, XF_CHECK_PASS, 10, 0, 12, 0);
    add(&run, "a", XF_CHECK_DD, XF_CHECK_PASS, -1, -1, -1, -1);
    ck_assert_int_eq(compare(&run, &named, text, sizeof text), 0);
    /* ... but a's missing dd line does */
    add(&run, "a", XF_CHECK_TANGENT, XF_CHECK_PASS, 10, 0, 12, 0);
    ck_assert_int_eq(compare(&run, &named, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "changed  a dd: PASS in exp.txt, not found by the run\n"));
}
END_TEST

START_TEST(two_examples_of_one_name)
{
    xf_check_results run = {0};
    char text[2000];
    add(&run, "a", XF_CHECK_DD, XF_CHECK_PASS, -1, -1, -1, -1);
    add(&run, "a", XF_CHECK_DD, XF_CHECK_PASS, -1, -1, -1, -1);
    ck_assert_int_eq(compare(&run, &both, text, sizeof text), -1);
    ck_assert_ptr_nonnull(strstr(text, "two examples are named a"));
}
END_TEST

START_TEST(read_a_file)
{
    xf_check_results r = {0};
    ck_assert_int_eq(xf_expect_read(XF_TEST_DATA "/check/summary.txt", &r, stderr), 0);
    ck_assert_uint_eq(r.n, 9);
    const xf_check_result *x = xf_check_results_find(&r, "beta", XF_CHECK_ADJOINT_JOINT);
    ck_assert_ptr_nonnull(x);
    ck_assert_int_eq(x->status, XF_CHECK_PASS_DD);
    ck_assert(x->have_ours && !x->have_ref);
    ck_assert_uint_eq(x->ops, 30);
    ck_assert_uint_eq(x->tape, 9);
    x = xf_check_results_find(&r, "gamma", XF_CHECK_DD);
    ck_assert(x && x->status == XF_CHECK_SKIP && !x->have_ours && x->reason == XF_FAIL_NONE);
    x = xf_check_results_find(&r, "beta", XF_CHECK_DD);
    ck_assert(x && x->status == XF_CHECK_FAIL && x->reason == XF_FAIL_JACOBIAN);
    x = xf_check_results_find(&r, "gamma", XF_CHECK_ADJOINT_JOINT);
    ck_assert(x && x->status == XF_CHECK_FAIL && x->reason == XF_FAIL_RUN && !x->have_ours);
    ck_assert_ptr_null(xf_check_results_find(&r, "gamma", XF_CHECK_ADJOINT_SPLIT));
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    xf_check_summary(&r, f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "tangent operations over 2 examples: ours 30, "
                                      "xaifBooster's 40 (0.750)\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\ndd failed by reason: jacobian-mismatch 1\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\nadjoint-joint failed by reason: run-error 1\n"));
    free(buf);
    xf_check_results_fini(&r);
    f = open_memstream(&buf, &size);
    ck_assert_int_eq(xf_expect_read(XF_TEST_DATA "/check/bad.txt", &r, f), -1);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "/check/bad.txt:3: error: unknown status"));
    free(buf);
    xf_check_results_fini(&r);
}
END_TEST

/* An adjoint mode run from tlm.xaif (no adm.xaif): the input column. */
START_TEST(the_input_column)
{
    xf_check_results r = {0};
    ck_assert_int_eq(xf_expect_read(XF_TEST_DATA "/check/input.txt", &r, stderr), 0);
    ck_assert_uint_eq(r.n, 3);
    const xf_check_result *x = xf_check_results_find(&r, "delta", XF_CHECK_ADJOINT_JOINT);
    ck_assert(x && x->from_tlm && x->status == XF_CHECK_PASS_DD && x->have_ours);
    ck_assert_uint_eq(x->tape, 16);
    x = xf_check_results_find(&r, "delta", XF_CHECK_ADJOINT_SPLIT);
    ck_assert(x && x->from_tlm && x->status == XF_CHECK_FAIL_DD && !x->have_ours &&
              x->reason == XF_FAIL_TRANSFORM);
    x = xf_check_results_find(&r, "delta", XF_CHECK_TANGENT);
    ck_assert(x && !x->from_tlm);
    /* the same example from adm.xaif is a change, whatever its status */
    xf_check_results run = {0};
    for (size_t i = 0; i < r.n; i++) {
        xf_check_result y = r.v[i];
        y.from_tlm = y.from_tlm && y.mode != XF_CHECK_ADJOINT_JOINT;
        ck_assert_int_eq(xf_check_results_add(&run, &y), 0);
    }
    xf_check_results_sort(&run);
    xf_expect_scope sc = {.modes = {[XF_CHECK_ADJOINT_JOINT] = true,
                                    [XF_CHECK_ADJOINT_SPLIT] = true,
                                    [XF_CHECK_TANGENT] = true},
                          .all = true};
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_int_eq(xf_expect_compare(&r, &run, &sc, "in.txt", f), 1);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "changed  delta adjoint-joint: PASS-DD from tlm.xaif in "
                                      "in.txt -> PASS-DD from adm.xaif\n"));
    free(buf);
    xf_check_results_fini(&run);
    xf_check_results_fini(&r);
    f = open_memstream(&buf, &size);
    ck_assert_int_eq(xf_expect_read(XF_TEST_DATA "/check/bad-input.txt", &r, f), -1);
    fclose(f);
    ck_assert_ptr_nonnull(
        strstr(buf, "/check/bad-input.txt:3: error: only the adjoint modes run from tlm.xaif"));
    free(buf);
    xf_check_results_fini(&r);
}
END_TEST

/* Read @text as an expectations file: the messages into @msg. */
static int
read_text(const char *text, char *msg, size_t len)
{
    char path[] = "/tmp/xf-check-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    xf_check_results r = {0};
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    int ret = xf_expect_read(path, &r, f);
    fclose(f);
    snprintf(msg, len, "%s", buf);
    free(buf);
    xf_check_results_fini(&r);
    unlink(path);
    return ret;
}

/* Every failing line names its reason class, and no other line does. */
START_TEST(the_reason_column)
{
    char msg[1000];
    xf_check_results r = {0};
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_int_eq(xf_expect_read(XF_TEST_DATA "/check/bad-reason.txt", &r, f), -1);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "/check/bad-reason.txt:4: error: a failing line ends with "
                                      "its reason class (example-error, read-error, "));
    free(buf);
    xf_check_results_fini(&r);
    /* ... which --update reads, to rewrite a file from before the classes */
    ck_assert_int_eq(xf_expect_read_old(XF_TEST_DATA "/check/bad-reason.txt", &r, stderr), 0);
    ck_assert_uint_eq(r.n, 3);
    ck_assert_int_eq(xf_check_results_find(&r, "beta", XF_CHECK_DD)->reason, XF_FAIL_NONE);
    xf_check_results_fini(&r);
    ck_assert_int_eq(read_text("a dd PASS run-error\n", msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, ":1: error: only a failing line has a reason class\n"));
    ck_assert_int_eq(read_text("a dd FAIL slow\n", msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, ":1: error: a column after the counts is the input"));
    ck_assert_int_eq(read_text("a adjoint-joint FAIL-XB tlm.xaif schema-invalid\n"
                               "a dd FAIL - - - - jacobian-shape\n",
                               msg, sizeof msg),
                     0);
    /* each class by its name, and back */
    for (int k = XF_FAIL_NONE + 1; k < XF_CHECK_REASONS; k++) {
        xf_check_reason back = XF_FAIL_NONE;
        ck_assert(xf_check_reason_parse(xf_check_reason_name((xf_check_reason)k), &back));
        ck_assert_int_eq(back, k);
    }
    xf_check_reason none;
    ck_assert(!xf_check_reason_parse("-", &none));
}
END_TEST

/* The writer puts the reason last; what it writes reads back the same. */
START_TEST(write_and_read_back)
{
    char path[] = "/tmp/xf-check-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    xf_check_results old = {0}, run = {0}, back = {0};
    expected(&run);
    add(&run, "c", XF_CHECK_ADJOINT_SPLIT, XF_CHECK_FAIL_DD, -1, -1, -1, -1);
    run.v[run.n - 1].reason = XF_FAIL_SCHEMA;
    run.v[run.n - 1].from_tlm = true;
    xf_check_results_sort(&run);
    xf_expect_scope all = {.all = true};
    ck_assert_int_eq(xf_expect_write(path, &old, &run, &all, "test", stderr), 0);
    ck_assert_int_eq(xf_expect_read(path, &back, stderr), 0);
    ck_assert_uint_eq(back.n, run.n);
    for (size_t i = 0; i < run.n; i++) {
        ck_assert_str_eq(back.v[i].name, run.v[i].name);
        ck_assert_int_eq(back.v[i].status, run.v[i].status);
        ck_assert_int_eq(back.v[i].reason, run.v[i].reason);
        ck_assert_int_eq(back.v[i].from_tlm, run.v[i].from_tlm);
        ck_assert_uint_eq(back.v[i].ops, run.v[i].ops);
    }
    /* a failing record without a class is not written */
    at(&run, "b", XF_CHECK_DD)->reason = XF_FAIL_NONE;
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_int_eq(xf_expect_write(path, &old, &run, &all, "test", f), -1);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "b dd: a failing line needs a reason class"));
    free(buf);
    unlink(path);
    xf_check_results_fini(&run);
    xf_check_results_fini(&back);
}
END_TEST

Suite *
test_check_suite(void)
{
    Suite *s = suite_create("check");
    TCase *tc = tcase_create("expect");
    tcase_add_test(tc, the_same_run_passes);
    tcase_add_test(tc, every_change_is_named);
    tcase_add_test(tc, a_newly_passing_example_is_a_change);
    tcase_add_test(tc, a_fall_is_a_change);
    tcase_add_test(tc, a_new_reason_is_a_change);
    tcase_add_test(tc, tape_and_xaifboosters_counts);
    tcase_add_test(tc, lines_outside_the_run_are_not_compared);
    tcase_add_test(tc, two_examples_of_one_name);
    tcase_add_test(tc, read_a_file);
    tcase_add_test(tc, the_input_column);
    tcase_add_test(tc, the_reason_column);
    tcase_add_test(tc, write_and_read_back);
    suite_add_tcase(s, tc);
    return s;
}
