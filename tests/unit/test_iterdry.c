/* test_iterdry.c: per-iteration dry-running of loops that are not parallel
 * (transforms/loops/iterdry.c, F6), executed: the Jacobian of small programs
 * against the default adjoint's, the peak tape at least one word per
 * iteration lower, the snapshots counted apart; and the loops it leaves
 * alone, with the report's reason. Also the trimming of a dry-run loop
 * (transforms/loops/iterwise_trim.c, F5): fewer operations than without it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "derive_fixture.h"
#include "suites.h"

typedef struct f6run {
    bool per_iter, dry, no_invert, split_opt;
    bool loops_auto, joint_opt; /* --loops auto, --reversal joint */
    bool plain;                 /* with dry: --iteration-wise, not --iteration-wise-joint */
    int n, m;
    xf_driver drv;
    xf_jacobian J;
    xf_run_stats st;
    char *report; /* --report-loops, when asked for */
    bool want_report;
} f6run;

/* The adjoint of @b made with the options of @r, validated, run under
 * r->drv: the Jacobian and the counts in @r. */
static void
f6_run(xb *b, f6run *r)
{
    xf_diag *d;
    xf_doc *doc = read_text(xb_build(b), &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    const xf_pass *passes[XF_PM_MAX];
    char err[256];
    int n = xf_pipeline_parse("adjoint", passes, XF_PM_MAX, err, sizeof err);
    ck_assert_msg(n > 0, "%s", err);
    xf_opts o;
    xf_pm_opts_init(&o);
    if (r->per_iter)
        ck_assert_int_eq(xf_pm_option(&o, "per-iteration-dry-run", NULL, err, sizeof err), 0);
    if (r->dry) {
        ck_assert_int_eq(xf_pm_option(&o, r->plain ? "iteration-wise" : "iteration-wise-joint",
                                      NULL, err, sizeof err),
                         0);
        ck_assert_int_eq(xf_pm_option(&o, "dry-run", NULL, err, sizeof err), 0);
    }
    if (r->no_invert)
        ck_assert_int_eq(xf_pm_option(&o, "tape-off", "invert", err, sizeof err), 0);
    if (r->split_opt)
        o.reversal = XF_REV_SPLIT;
    if (r->loops_auto)
        ck_assert_int_eq(xf_pm_option(&o, "loops", "auto", err, sizeof err), 0);
    if (r->joint_opt)
        ck_assert_int_eq(xf_pm_option(&o, "reversal", "joint", err, sizeof err), 0);
    size_t rlen = 0;
    FILE *rep = NULL;
    if (r->want_report) {
        rep = open_memstream(&r->report, &rlen);
        ck_assert_ptr_nonnull(rep);
        o.report_loops = rep;
    }
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d, .catalogue = cat, .direct = direct};
    ck_assert_msg(xf_pipeline_run(&ctx, passes, n) == 0, "%s", first_message(d));
    if (rep)
        fclose(rep);
    char *text;
    size_t len;
    ck_assert_int_eq(xf_write_memory(doc, &text, &len, d), 0);
    xf_doc_free(doc);
    if (getenv("F6_DUMP")) { /* for a look at the code: F6_DUMP=PREFIX */
        static int k;
        char path[512];
        snprintf(path, sizeof path, "%s.%d.xaif", getenv("F6_DUMP"), k++);
        FILE *f = fopen(path, "w");
        fwrite(text, 1, len, f);
        fclose(f);
    }
    ck_assert_msg(xf_schema_validate_memory(schema, text, len, "f6.xaif", d) == 0, "%s",
                  first_message(d));
    xf_doc *out = xf_read_memory(text, len, "f6.xaif", NULL, d);
    ck_assert_ptr_nonnull(out);
    xf_run_opts ro = {.driver = r->drv, .params = {.n = r->n, .m = r->m, .h = 1e-7}};
    ck_assert_msg(xf_run(out, &ro, &r->J, &r->st, d) == 0, "%s", first_message(d));
    for (int w = 0; w < XF_WORD_KINDS; w++)
        ck_assert_uint_eq(r->st.push[w], r->st.pop[w]);
    xf_doc_free(out);
    free(text);
    xf_diag_free(d);
    xb_free(b);
}

static void
same_jacobian(const xf_jacobian *a, const xf_jacobian *b)
{
    assert_jacobians_equal(a, b, "the default adjoint's");
}

/* a(i) = x(1) i + x(2) (parallel), then the recurrence
 * a(i) = a(i - 1) sin(a(i)), i = 2..10, then y from a. With @formals the
 * array is the output y itself (no local variable). */
static xb *
recurrence(bool formals)
{
    xb *b = XB_NEW();
    if (formals) {
        xg *g = head_cfg(b, 2, 10, NULL, "integer i");
        xg_for(g, "i = 1", "i <= 10", "i = i + 1");
        xg_bb(g, "y(i) = x(1) * i * 0.1 + x(2)");
        xg_end(g);
        xg_for(g, "i = 2", "i <= 10", "i = i + 1");
        xg_bb(g, "y(i) = y(i - 1) * sin_scal(y(i))");
        xg_end(g);
        return b;
    }
    xg *g = head_cfg(b, 2, 2, NULL, "real a(10); integer i");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "a(i) = x(1) * i * 0.1 + x(2)");
    xg_end(g);
    xg_for(g, "i = 2", "i <= 10", "i = i + 1");
    xg_bb(g, "a(i) = a(i - 1) * sin_scal(a(i))");
    xg_end(g);
    xg_bb(g, "y(1) = a(10) * x(2); y(2) = a(5) + a(9)");
    return b;
}

/* A scalar carried from iteration to iteration: s = s * x(i), i = 1..10. */
static xb *
carried_scalar(void)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 10, 2, NULL, "real s; integer i");
    xg_bb(g, "s = x(1) + 1");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "s = s * x(i)");
    xg_end(g);
    xg_bb(g, "y(1) = s; y(2) = s * x(2)");
    return b;
}

/* head calls f(t, x(1)), whose loop is the recurrence over its formal
 * array: F6 in a called routine, for the joint template. */
static xb *
called_recurrence(void)
{
    xb *b = XB_NEW();
    head_scopes(b, 2, 2, "sub f", "real t(10); integer i");
    xg *g = xb_cfg(b, "head", 2, "x y");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "t(i) = x(1) * i * 0.1 + x(2)");
    xg_end(g);
    xg_bb(g, "call f(t, x(1)); y(1) = t(10) * x(2); y(2) = t(5) + t(9)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a(10); real c; integer k");
    xg *gf = xb_cfg(b, "f", 3, "a c");
    xg_for(gf, "k = 2", "k <= 10", "k = k + 1");
    xg_bb(gf, "a(k) = a(k - 1) * sin_scal(a(k)) * c");
    xg_end(gf);
    return b;
}

/* Run @make's program with and without F6 under @drv and compare. */
static void
against_default(xb *(*make)(void), bool formals, int n, int m, int iters, xf_driver drv,
                bool no_invert, bool split_opt)
{
    f6run r0 = {.n = n, .m = m, .drv = drv, .no_invert = no_invert, .split_opt = split_opt};
    f6run r1 = r0;
    r1.per_iter = true;
    r1.want_report = true;
    f6_run(make ? make() : recurrence(formals), &r0);
    f6_run(make ? make() : recurrence(formals), &r1);
    ck_assert_msg(r1.report && strstr(r1.report, "per-iteration dry run: head line") &&
                      strstr(r1.report, ": yes, "),
                  "report: %s", r1.report ? r1.report : "(none)");
    same_jacobian(&r1.J, &r0.J);
    ck_assert_msg(r0.st.peak_tape - r1.st.peak_tape >= iters, "%s: peak tape %lld, was %lld",
                  xf_driver_name(drv), (long long)r1.st.peak_tape, (long long)r0.st.peak_tape);
    /* the snapshots are counted apart: one per iteration at least */
    ck_assert_msg(r1.st.snap_stored >= (uint64_t)iters, "snapshot words %llu",
                  (unsigned long long)r1.st.snap_stored);
    ck_assert_uint_eq(r0.st.snap_stored, 0);
    xf_jacobian_fini(&r0.J);
    xf_jacobian_fini(&r1.J);
    free(r1.report);
}

START_TEST(recurrence_joint)
{
    against_default(NULL, false, 2, 2, 9, XF_DRIVER_ADJOINT_JOINT, false, false);
}
END_TEST

/* The loop counted (no inversion): ckp_top sets the loop variable. */
START_TEST(recurrence_joint_counted)
{
    against_default(NULL, false, 2, 2, 9, XF_DRIVER_ADJOINT_JOINT, true, false);
}
END_TEST

START_TEST(carried_scalar_joint)
{
    against_default(carried_scalar, false, 10, 2, 10, XF_DRIVER_ADJOINT_JOINT, false, false);
}
END_TEST

START_TEST(called_routine_joint)
{
    against_default(called_recurrence, false, 2, 2, 9, XF_DRIVER_ADJOINT_JOINT, false, false);
}
END_TEST

/* Split reversal: a loop over formals only, made with --reversal split. */
START_TEST(recurrence_formals_split)
{
    against_default(NULL, true, 2, 10, 9, XF_DRIVER_ADJOINT_SPLIT, false, true);
    against_default(NULL, true, 2, 10, 9, XF_DRIVER_ADJOINT_JOINT, false, false);
}
END_TEST

/* The report's reason for a loop left alone, with F6 asked for. */
static void
refused(xb *b, bool split_opt, const char *want)
{
    f6run r = {.n = 2,
               .m = 2,
               .drv = XF_DRIVER_ADJOINT_JOINT,
               .per_iter = true,
               .want_report = true,
               .split_opt = split_opt};
    f6_run(b, &r);
    ck_assert_msg(r.report && strstr(r.report, want), "want '%s' in: %s", want,
                  r.report ? r.report : "(none)");
    ck_assert_uint_eq(r.st.snap_stored, 0);
    xf_jacobian_fini(&r.J);
    free(r.report);
}

START_TEST(refusals)
{
    /* a(2) overwritten after the recurrence */
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 2, NULL, "real a(10); integer i");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "a(i) = x(1) * i");
    xg_end(g);
    xg_for(g, "i = 2", "i <= 10", "i = i + 1");
    xg_bb(g, "a(i) = a(i - 1) * sin_scal(a(i))");
    xg_end(g);
    xg_bb(g, "y(1) = a(10); a(2) = x(2); y(2) = a(2) * a(3)");
    refused(b, false, "line ?: no, a value it reads from before it is overwritten after it");
    /* a recurrence that tapes nothing: a(i) = a(i) + 0.5 a(i - 1), inverted */
    b = XB_NEW();
    g = head_cfg(b, 2, 2, NULL, "real a(10); integer i");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "a(i) = x(1) * i + x(2)");
    xg_end(g);
    xg_for(g, "i = 2", "i <= 10", "i = i + 1");
    xg_bb(g, "a(i) = a(i) + 0.5 * a(i - 1)");
    xg_end(g);
    xg_bb(g, "y(1) = a(10); y(2) = a(4)");
    refused(b, false, "no, it tapes nothing per iteration");
    /* the parallel loop of the same program is not F6's */
    b = XB_NEW();
    g = head_cfg(b, 2, 2, NULL, "real a(10); integer i");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "a(i) = sin_scal(x(1) * i)");
    xg_end(g);
    xg_bb(g, "y(1) = a(10); y(2) = a(4)");
    refused(b, false, "no, its iterations are independent");
    /* split reversal and a local array */
    refused(recurrence(false), true, "adjoint sweep of split reversal does not have");
}
END_TEST

/* --loops auto takes per-iteration dry-running of a called routine's loop
 * (right under the joint template only) with --reversal joint; without
 * --reversal the output is for both templates and split's rule leaves the
 * loop alone. Both Jacobians are the default adjoint's under the joint
 * driver, and the one without --reversal under the split driver too. */
START_TEST(loops_auto_by_reversal)
{
    f6run r0 = {.n = 2, .m = 2, .drv = XF_DRIVER_ADJOINT_JOINT};
    f6_run(called_recurrence(), &r0);
    f6run rj = r0;
    rj.loops_auto = rj.joint_opt = rj.want_report = true;
    f6_run(called_recurrence(), &rj);
    ck_assert_msg(rj.report && strstr(rj.report, "per-iteration dry run: f line ?: yes"), "%s",
                  rj.report ? rj.report : "(none)");
    ck_assert_uint_gt(rj.st.snap_stored, 0);
    same_jacobian(&rj.J, &r0.J);
    for (int d = 0; d < 2; d++) {
        f6run rb = r0;
        rb.loops_auto = rb.want_report = true;
        rb.drv = d ? XF_DRIVER_ADJOINT_SPLIT : XF_DRIVER_ADJOINT_JOINT;
        f6_run(called_recurrence(), &rb);
        ck_assert_msg(rb.report && strstr(rb.report, "per-iteration dry run: f line ?: no, the "
                                                     "routine is called"),
                      "%s", rb.report ? rb.report : "(none)");
        ck_assert_uint_eq(rb.st.snap_stored, 0);
        same_jacobian(&rb.J, &r0.J);
        xf_jacobian_fini(&rb.J);
        free(rb.report);
    }
    xf_jacobian_fini(&r0.J);
    xf_jacobian_fini(&rj.J);
    free(rj.report);
}
END_TEST

/* The kernel's shape in small (a parallel loop that is not terminal,
 * dry-run): trimming leaves fewer operations than running the loop twice
 * in full, which costs the forward statements once more; the Jacobian is
 * the default adjoint's. */
START_TEST(dry_run_trimmed)
{
    f6run r0 = {.n = 2, .m = 2, .drv = XF_DRIVER_ADJOINT_JOINT};
    f6run r1 = r0;
    r1.dry = true;
    for (int k = 0; k < 2; k++) {
        xb *b = XB_NEW();
        xg *g = head_cfg(b, 2, 2, NULL, "real a(10); real q(10); integer i");
        xg_bb(g, "y(1) = 0; y(2) = 0");
        xg_for(g, "i = 1", "i <= 10", "i = i + 1");
        xg_bb(g, "a(i) = sin_scal(x(1) * i) * x(2); q(i) = a(i) * a(i) + x(1); "
                 "y(2) = y(2) + q(i) * x(2)");
        xg_end(g);
        xg_bb(g, "y(1) = a(3) * x(2) + q(4)");
        f6_run(b, k ? &r1 : &r0);
    }
    same_jacobian(&r1.J, &r0.J);
    ck_assert_msg(r0.st.peak_tape - r1.st.peak_tape >= 10, "peak %lld, was %lld",
                  (long long)r1.st.peak_tape, (long long)r0.st.peak_tape);
    /* the driver runs both sweeps once per output (m = 2). Per iteration
     * the loop's forward statements are 7 operations (x(1) i, sin, * x(2),
     * a(i) a(i), + x(1), q(i) x(2), the + of y(2)); run twice in full, the
     * dry-run loop would cost 11 more (its untaped run with the partials),
     * trimmed it costs the 7 of the untaped run less the 2 that the run in
     * the adjoint sweep skips (q(i) x(2) and y(2)'s update, which nothing
     * there reads): measured, 5 per iteration */
    uint64_t ops0 = r0.st.muls + r0.st.adds + r0.st.intrinsics;
    uint64_t ops1 = r1.st.muls + r1.st.adds + r1.st.intrinsics;
    ck_assert_msg(ops1 > ops0 && ops1 - ops0 <= 2 * 10 * 5, "operations %llu, default %llu",
                  (unsigned long long)ops1, (unsigned long long)ops0);
    xf_jacobian_fini(&r0.J);
    xf_jacobian_fini(&r1.J);
}
END_TEST

/* A dry-run loop that loop inversion takes, with a bound in a local
 * variable (n, which the inversion tapes after the loop): with
 * --iteration-wise-joint its run in the adjoint sweep takes the forward
 * header, and under the joint driver the Jacobian is the default
 * adjoint's, the tape one iteration's. With --iteration-wise the loop is
 * dry-run too, n and x kept for the split template's adjoint sweep (which
 * would not have them), and the Jacobian is right under the split driver. */
static xb *
variable_bound(void)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 2, NULL, "real a(10); integer i; integer n");
    xg_bb(g, "n = 10; y(2) = 0");
    xg_for(g, "i = 1", "i <= n", "i = i + 1");
    xg_bb(g, "a(i) = sin_scal(x(1) * i) * x(2) + x(1) * x(1)");
    xg_end(g);
    xg_bb(g, "y(1) = a(3) * x(2) + a(7) * a(2)");
    return b;
}

START_TEST(dry_run_inverted_variable_bound)
{
    for (int k = 0; k < 2; k++) {
        xf_driver drv = k ? XF_DRIVER_ADJOINT_SPLIT : XF_DRIVER_ADJOINT_JOINT;
        f6run r0 = {.n = 2, .m = 2, .drv = drv};
        f6run r1 = r0;
        r1.dry = true;
        r1.plain = k == 1;
        r1.want_report = true;
        f6_run(variable_bound(), &r0);
        f6_run(variable_bound(), &r1);
        same_jacobian(&r1.J, &r0.J);
        /* in split reversal n, and what else the loop reads, is kept for
         * the adjoint sweep (iterwise_snap.c) */
        ck_assert_msg(r1.report && strstr(r1.report, "yes, dry run"), "%s", r1.report);
        ck_assert_msg(r0.st.peak_tape - r1.st.peak_tape >= 10, "peak %lld, was %lld",
                      (long long)r1.st.peak_tape, (long long)r0.st.peak_tape);
        ck_assert_msg((k == 1) == (r1.st.peak_snap > 0), "snapshot peak %lld",
                      (long long)r1.st.peak_snap);
        xf_jacobian_fini(&r0.J);
        xf_jacobian_fini(&r1.J);
        free(r1.report);
    }
}
END_TEST

Suite *
test_iterdry_suite(void)
{
    Suite *s = suite_create("iterdry");
    TCase *tc = tcase_create("run");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, recurrence_joint);
    tcase_add_test(tc, recurrence_joint_counted);
    tcase_add_test(tc, carried_scalar_joint);
    tcase_add_test(tc, called_routine_joint);
    tcase_add_test(tc, recurrence_formals_split);
    tcase_add_test(tc, loops_auto_by_reversal);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, dry_run_trimmed);
    tcase_add_test(tc, dry_run_inverted_variable_bound);
    suite_add_tcase(s, tc);
    return s;
}
