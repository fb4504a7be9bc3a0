/* test_check.c: the regression runner's records and expectations file:
 * what counts as a change, an improvement, and what lies outside a run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The expectations of every test: a passes dd and tangent, b fails dd. */
static void
expected(xf_check_results *old)
{
    add(old, "b", XF_CHECK_DD, XF_CHECK_FAIL, -1, -1, -1, -1);
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
    ck_assert_str_eq(text, "exp.txt: 0 changes, 0 improvements\n");
}
END_TEST

START_TEST(every_change_is_named)
{
    xf_check_results run = {0};
    char text[2000];
    add(&run, "a", XF_CHECK_DD, XF_CHECK_FAIL, -1, -1, -1, -1);          /* newly failing */
    add(&run, "a", XF_CHECK_TANGENT, XF_CHECK_PASS, 11, 0, 12, 0);       /* one more operation */
    add(&run, "c", XF_CHECK_DD, XF_CHECK_PASS, -1, -1, -1, -1);          /* not in the file */
    add(&run, "c", XF_CHECK_REF_TANGENT, XF_CHECK_SKIP, -1, -1, -1, -1); /* another mode */
    /* b dd: in the file, not found */
    ck_assert_int_eq(compare(&run, &both, text, sizeof text), 5);
    ck_assert_str_eq(text, "changed  a dd: PASS -> FAIL\n"
                           "changed  a tangent: operations 10 -> 11 (a rise)\n"
                           "changed  c dd: not in exp.txt, now PASS\n"
                           "changed  c ref-tangent: not in exp.txt, now SKIP\n"
                           "changed  b dd: FAIL in exp.txt, not found by the run\n"
                           "exp.txt: 5 changes, 0 improvements\n"
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
    ck_assert_ptr_nonnull(strstr(text, "changed  b dd: FAIL -> PASS\n"));
}
END_TEST

START_TEST(a_fall_is_an_improvement)
{
    xf_check_results run = {0};
    char text[2000];
    expected(&run);
    run.v[1].ops = 9; /* a tangent, sorted after a dd */
    ck_assert_str_eq(run.v[1].name, "a");
    ck_assert_int_eq(compare(&run, &both, text, sizeof text), 0);
    ck_assert_str_eq(text, "improved a tangent: operations 10 -> 9\n"
                           "exp.txt: 0 changes, 1 improvement\n"
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
    ck_assert_ptr_nonnull(strstr(text, "changed  a tangent: xaifBooster's operations 12 -> 11\n"));
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
    ck_assert(x && x->status == XF_CHECK_SKIP && !x->have_ours);
    ck_assert_ptr_null(xf_check_results_find(&r, "gamma", XF_CHECK_ADJOINT_SPLIT));
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    xf_check_summary(&r, f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "tangent operations over 2 examples: ours 30, "
                                      "xaifBooster's 40 (0.750)\n"));
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
    ck_assert(x && x->from_tlm && x->status == XF_CHECK_FAIL_DD && !x->have_ours);
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

Suite *
test_check_suite(void)
{
    Suite *s = suite_create("check");
    TCase *tc = tcase_create("expect");
    tcase_add_test(tc, the_same_run_passes);
    tcase_add_test(tc, every_change_is_named);
    tcase_add_test(tc, a_newly_passing_example_is_a_change);
    tcase_add_test(tc, a_fall_is_an_improvement);
    tcase_add_test(tc, tape_and_xaifboosters_counts);
    tcase_add_test(tc, lines_outside_the_run_are_not_compared);
    tcase_add_test(tc, two_examples_of_one_name);
    tcase_add_test(tc, read_a_file);
    tcase_add_test(tc, the_input_column);
    suite_add_tcase(s, tc);
    return s;
}
