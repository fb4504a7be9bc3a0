/* test_deadstore.c: dead stores out of the taping sweep (pass deadstore).
 * Each program is transformed with and without the pass (or with and
 * without --reversal joint), run under the adjoint drivers, and its
 * Jacobian compared with the one without the saving and with divided
 * differences; the operations saved are those the program's shape
 * predicts. */
#include "derive_fixture.h"
#include "suites.h"

/* The registry's adjoint pipeline without deadstore. */
static const char *
adjoint_without_deadstore(void)
{
    static char list[512];
    const char *p = xf_pipeline_expand("adjoint");
    size_t at = 0;
    ck_assert_ptr_nonnull(p);
    list[0] = 0;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n != strlen("deadstore") || strncmp(p, "deadstore", n) != 0)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%.*s", at ? "," : "", (int)n, p);
        ck_assert_uint_lt(at, sizeof list);
        p += n + (p[n] == ',');
    }
    ck_assert_ptr_null(strstr(list, "deadstore"));
    return list;
}

static uint64_t
ops(const xf_run_stats *s)
{
    return s->adds + s->muls + s->divs + s->intrinsics;
}

/* head calls f(x(1), x(2), t), which sets its formal c = a*a*b + b and
 * tapes the partials 2ab and a*a + 1; head reads t. */
static xb *
callee_output(void)
{
    xb *b = xb_new("callee_output");
    xg *g = head_cfg(b, 2, 2, "sub f", "real t");
    xg_bb(g, "call f(x(1), x(2), t); y(1) = t * x(1); y(2) = t + x(2)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a; real b; real c");
    xg_bb(xb_cfg(b, "f", 3, "a b c"), "c = a * a * b + b");
    return b;
}

/* Under the joint template f's taping sweep runs only in head's adjoint
 * sweep, right before f's adjoint, which reads c's adjoint and not c: with
 * --reversal joint the store goes, and what only it read (a*a*b + b less
 * a*a, which a partial reads: a multiplication and an addition), once per
 * sweep (2 outputs). The Jacobian under the joint driver is the
 * default output's. The default output and --reversal split's keep it:
 * their runs count the same operations, and the joint-only output is
 * wrong under the split driver (head's taping sweep reads t from f's). */
START_TEST(callee_store_dead_under_joint_only)
{
    tg def, joint, split, wrong;
    rev_template = XF_REV_BOTH;
    derive(&def, callee_output(), "adjoint", XF_ELIM_BEST, XF_DRIVER_ADJOINT_JOINT, 2, 2);
    rev_template = XF_REV_JOINT;
    derive(&joint, callee_output(), "adjoint", XF_ELIM_BEST, XF_DRIVER_ADJOINT_JOINT, 2, 2);
    derive(&wrong, callee_output(), "adjoint", XF_ELIM_BEST, XF_DRIVER_ADJOINT_SPLIT, 2, 2);
    rev_template = XF_REV_SPLIT;
    derive(&split, callee_output(), "adjoint", XF_ELIM_BEST, XF_DRIVER_ADJOINT_JOINT, 2, 2);
    rev_template = XF_REV_BOTH;
    /* y1 = t x1, y2 = t + x2 with t = x1^2 x2 + x2 */
    double t = x1 * x1 * x2 + x2;
    ASSERT_JAC(&def, 2, 2, 2 * x1 * x2 * x1 + t, (x1 * x1 + 1) * x1, 2 * x1 * x2, x1 * x1 + 1 + 1);
    assert_jacobians_equal(&joint.J, &def.J, "the default output's");
    assert_jacobians_equal(&split.J, &def.J, "the default output's");
    ck_assert_uint_eq(ops(&split.st), ops(&def.st));
    ck_assert_msg(ops(&joint.st) + 2 * 2 == ops(&def.st), "joint %llu operations, default %llu",
                  (unsigned long long)ops(&joint.st), (unsigned long long)ops(&def.st));
    bool differs = false;
    for (int k = 1; k <= 2; k++)
        for (int i = 1; i <= 2; i++)
            differs = differs || fabs(jf(&wrong.J, k, i) - jf(&def.J, k, i)) > 1e-6;
    ck_assert_msg(differs, "the joint-only output gave the right Jacobian under the split driver");
    tan_fini(&def);
    tan_fini(&joint);
    tan_fini(&split);
    tan_fini(&wrong);
}
END_TEST

/* The Assignments in placeholder 2 of routine @name's ReplacementList in @text. */
static int
taping_assignments(const char *text, const char *name)
{
    char pat[96];
    snprintf(pat, sizeof pat, "symbol_id=\"%s\"", name);
    const char *r = text;
    while ((r = strstr(r, "<xaif:ReplacementList")) != NULL) {
        const char *close = strchr(r, '>');
        const char *hit = strstr(r, pat);
        if (close && hit && hit < close)
            break;
        r++;
    }
    ck_assert_msg(r != NULL, "no ReplacementList for %s", name);
    const char *q = strstr(r, "placeholder=\"2\"");
    const char *end = q ? strstr(q, "placeholder=\"3\"") : NULL;
    ck_assert_msg(q && end, "no placeholders 2 and 3 for %s", name);
    int n = 0;
    for (const char *s = q; (s = strstr(s, "<xaif:Assignment ")) && s < end; s++)
        n++;
    return n;
}

/* The top routine (nothing calls it) keeps its stores under --reversal
 * joint: the driver reads its outputs. f loses its one store to c. */
START_TEST(top_routine_keeps_outputs)
{
    tg def, joint;
    rev_template = XF_REV_BOTH;
    ck_assert_int_eq(transform(&def, callee_output(), "adjoint", XF_ELIM_BEST), 0);
    rev_template = XF_REV_JOINT;
    ck_assert_int_eq(transform(&joint, callee_output(), "adjoint", XF_ELIM_BEST), 0);
    rev_template = XF_REV_BOTH;
    int h0 = taping_assignments(def.out, "head"), h1 = taping_assignments(joint.out, "head");
    int f0 = taping_assignments(def.out, "f"), f1 = taping_assignments(joint.out, "f");
    ck_assert_int_ge(h0, 2);
    ck_assert_int_eq(h1, h0);
    ck_assert_msg(f1 < f0, "f's taping sweep: %d assignments, default %d", f1, f0);
    tan_fini(&def);
    tan_fini(&joint);
}
END_TEST

/* A local array written and never read: a(1) = x(1)*2, a(2) = x(2)*3 (one
 * multiplication each) go from the taping sweep without any option, once
 * per sweep (2 outputs) under both drivers; the Jacobian is unchanged. */
static xb *
dead_local_array(void)
{
    xb *b = xb_new("dead_local_array");
    xg *g = head_cfg(b, 2, 2, NULL, "real a(3)");
    xg_bb(g, "a(1) = x(1) * 2; a(2) = x(2) * 3; y(1) = x(1) * x(2); y(2) = sin_scal(x(1)) + x(2)");
    return b;
}

START_TEST(dead_local_array_store)
{
    static const xf_driver drv[2] = {XF_DRIVER_ADJOINT_JOINT, XF_DRIVER_ADJOINT_SPLIT};
    for (int k = 0; k < 2; k++) {
        tg on, off;
        derive(&on, dead_local_array(), "adjoint", XF_ELIM_BEST, drv[k], 2, 2);
        derive(&off, dead_local_array(), adjoint_without_deadstore(), XF_ELIM_BEST, drv[k], 2, 2);
        ASSERT_JAC(&on, 2, 2, x2, x1, cos(x1), 1);
        assert_jacobians_equal(&on.J, &off.J, "without deadstore");
        ck_assert_msg(ops(&on.st) + 2 * 2 == ops(&off.st), "%s: %llu operations, without %llu",
                      xf_driver_name(drv[k]), (unsigned long long)ops(&on.st),
                      (unsigned long long)ops(&off.st));
        tan_fini(&on);
        tan_fini(&off);
    }
}
END_TEST

/* An element read after the loop keeps the whole array's stores: a(i) =
 * x(1)*i for i = 1..3, then y(1) = a(2)*x(2). Nothing goes. */
static xb *
array_read_later(void)
{
    xb *b = xb_new("array_read_later");
    xg *g = head_cfg(b, 2, 2, NULL, "real a(3); integer i");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "a(i) = x(1) * i");
    xg_end(g);
    xg_bb(g, "y(1) = a(2) * x(2); y(2) = x(1)");
    return b;
}

START_TEST(array_element_read_keeps_stores)
{
    tg on, off;
    derive(&on, array_read_later(), "adjoint", XF_ELIM_BEST, XF_DRIVER_ADJOINT_JOINT, 2, 2);
    derive(&off, array_read_later(), adjoint_without_deadstore(), XF_ELIM_BEST,
           XF_DRIVER_ADJOINT_JOINT, 2, 2);
    ASSERT_JAC(&on, 2, 2, 2 * x2, 2 * x1, 1, 0);
    ck_assert_uint_eq(ops(&on.st), ops(&off.st));
    tan_fini(&on);
    tan_fini(&off);
}
END_TEST

Suite *
test_deadstore_suite(void)
{
    Suite *s = suite_create("deadstore");
    TCase *tc = tcase_create("deadstore");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, callee_store_dead_under_joint_only);
    tcase_add_test(tc, top_routine_keeps_outputs);
    tcase_add_test(tc, dead_local_array_store);
    tcase_add_test(tc, array_element_read_keeps_stores);
    suite_add_tcase(s, tc);
    return s;
}
