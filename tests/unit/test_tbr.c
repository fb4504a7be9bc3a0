/* test_tbr.c: what the adjoint need not tape (transforms/tape/tbr*.c, Naumann
 * et al. [002] §3). Each program is transformed with and without the
 * saving (adjoin's --tape-off), run under both adjoint drivers, and its
 * Jacobian checked against the tangent's (a dot-product test, and entry
 * by entry) and divided differences; the words pushed are those the
 * program's shape predicts, and every word pushed is popped. */
#include "derive_fixture.h"
#include "suites.h"
#include "tbr.h"

typedef xb *(*program)(const char *name);

static const xf_driver sweeps[2] = {XF_DRIVER_ADJOINT_JOINT, XF_DRIVER_ADJOINT_SPLIT};

/* ⟨ȳ, J ẋ⟩ with fixed directions ẋ_i = 1 + i/10, ȳ_k = k - 1/2. */
static double
dot(const xf_jacobian *J, bool transposed)
{
    double s = 0;
    for (int k = 1; k <= J->m; k++) {
        double yb = k - 0.5, row = 0;
        for (int i = 1; i <= J->n; i++)
            row += jf(J, k, i) * (1 + i / 10.0);
        s += transposed ? row * yb : yb * row;
    }
    return s;
}

/* Run @p's adjoint with @off under both drivers: its Jacobian equals the
 * tangent's (⟨ȳ, J·ẋ⟩ = ⟨Jᵀ·ȳ, ẋ⟩ to 1e-12, and each entry to 1e-13) and
 * divided differences (1e-5); every word pushed is popped. @st receives
 * the joint run's counts. */
static void
check_adjoint(program p, const char *name, unsigned off, int n, int m, xf_run_stats *st)
{
    tg tan;
    derive(&tan, p(name), "tangent", XF_ELIM_BEST, XF_DRIVER_TANGENT, n, m);
    double forward = dot(&tan.J, false);
    for (int k = 0; k < 2; k++) {
        tg adj;
        tape_off = off;
        derive(&adj, p(name), "adjoint", XF_ELIM_BEST, sweeps[k], n, m);
        tape_off = 0;
        double reverse = dot(&adj.J, true);
        ck_assert_msg(fabs(forward - reverse) <= 1e-12 * fmax(1, fabs(forward)),
                      "%s: dot-product test: <yb, J xd> = %.17g, <J^T yb, xd> = %.17g",
                      xf_driver_name(sweeps[k]), forward, reverse);
        for (int r = 1; r <= m; r++)
            for (int c = 1; c <= n; c++) {
                double a = jf(&adj.J, r, c), t = jf(&tan.J, r, c), d = jf(&adj.D, r, c);
                ck_assert_msg(fabs(a - t) <= 1e-13 * fmax(1, fabs(t)), "F(%d,%d): %.17g vs %.17g",
                              r, c, a, t);
                ck_assert_msg(fabs(a - d) <= 1e-5 * fmax(1, fabs(d)),
                              "F(%d,%d) = %.17g, divided differences %.17g", r, c, a, d);
            }
        for (int w = 0; w < XF_WORD_KINDS; w++)
            ck_assert_msg(adj.st.push[w] == adj.st.pop[w],
                          "%s: %llu words of kind %d pushed, %llu popped",
                          xf_driver_name(sweeps[k]), (unsigned long long)adj.st.push[w], w,
                          (unsigned long long)adj.st.pop[w]);
        if (k == 0)
            *st = adj.st;
        tan_fini(&adj);
    }
    tan_fini(&tan);
}

/* The joint runs of @p with the saving @bit and without it, the savings
 * @base left out in both. */
static void
with_and_without_over(program p, const char *name, unsigned base, unsigned bit, int n, int m,
                      xf_run_stats *on, xf_run_stats *offst)
{
    check_adjoint(p, name, base, n, m, on);
    check_adjoint(p, name, base | bit, n, m, offst);
}

static void
with_and_without(program p, const char *name, unsigned bit, int n, int m, xf_run_stats *on,
                 xf_run_stats *offst)
{
    with_and_without_over(p, name, 0, bit, n, m, on, offst);
}

/* ============================================================ inversion (D9) */

/* y(i) = x(i)*x(1) over i = 1..3 (not x(i)*x(i): preaccumulation adds
 * the two partials of a square into one). Counting tapes, per sweep (one per output),
 * the trip count and the subscript i of each iteration (1 + 3 words);
 * inverted, i runs backwards in the adjoint and no integer is taped. */
static xb *
squares(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer i");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "y(i) = x(i) * x(1)");
    xg_end(g);
    xg_bb(g, "marker"); /* the last block, as front ends write it */
    return b;
}

START_TEST(a_loop_runs_backwards_instead_of_taping)
{
    xf_run_stats on, off;
    /* (the cut left out: it would tape x(i) once for both partials) */
    with_and_without_over(squares, __func__, XF_TAPE_OFF_CUT, XF_TAPE_OFF_INVERT, 3, 3, &on, &off);
    ck_assert_uint_eq(on.push[XF_WORD_INT], 0);
    ck_assert_uint_eq(off.push[XF_WORD_INT], 3 * (1 + 3));
    /* inverted, x(i) can be read again in the adjoint: x is handed over
     * (3 words a sweep) instead of the partials x(1), x(i) (6); counted,
     * i is not known there and the partials are taped */
    ck_assert_uint_eq(on.push[XF_WORD_REAL], 3 * 3);
    ck_assert_uint_eq(off.push[XF_WORD_REAL], 3 * 2 * 3);
}
END_TEST

/* A bound read from a variable is taped once after the loop (1 word per
 * sweep) instead of the count and the subscripts (4). */
static xb *
variable_bound(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer i; integer n");
    xg_bb(g, "n = 3");
    xg_for(g, "i = 1", "i <= n", "i = i + 1");
    xg_bb(g, "y(i) = sin_scal(x(i)) * x(i)");
    xg_end(g);
    return b;
}

START_TEST(a_variable_bound_is_taped_once)
{
    xf_run_stats on, off;
    with_and_without(variable_bound, __func__, XF_TAPE_OFF_INVERT, 3, 3, &on, &off);
    ck_assert_uint_eq(on.push[XF_WORD_INT], 3 * 1);
    ck_assert_uint_eq(off.push[XF_WORD_INT], 3 * (1 + 3));
}
END_TEST

/* The body writes the bound: the loop is counted as before. */
static xb *
bound_written(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer i; integer n");
    xg_bb(g, "n = 3");
    xg_for(g, "i = 1", "i <= n", "i = i + 1");
    xg_bb(g, "n = 3; y(i) = x(i) * x(i)");
    xg_end(g);
    return b;
}

/* The body writes the loop's variable (to the same value). */
static xb *
variable_written(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer i; integer k");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "k = i; i = k; y(i) = x(i) * x(i)");
    xg_end(g);
    return b;
}

/* The loop's variable is an argument of a call, which may write it. */
static xb *
variable_passed(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, "sub f", "integer i");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "y(i) = x(i); call f(y(i), i)");
    xg_end(g);
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a; integer c");
    xg_bb(xb_cfg(b, "f", 3, "a c"), "a = a * a * c");
    return b;
}

/* The bound is not a local and the body calls a routine (which could
 * write it through a module or an alias): counted. */
static xb *
global_bound_and_call(const char *name)
{
    xb *b = xb_new(name);
    xb_syms(b, 1, "integer nglob");
    xg *g = head_cfg(b, 3, 3, "sub f", "integer i");
    xg_bb(g, "nglob@1 = 3");
    xg_for(g, "i = 1", "i <= nglob@1", "i = i + 1");
    xg_bb(g, "y(i) = x(i); call f(y(i))");
    xg_end(g);
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a");
    xg_bb(xb_cfg(b, "f", 3, "a"), "a = a * a");
    return b;
}

START_TEST(loops_that_may_change_are_counted)
{
    program unsafe[] = {bound_written, variable_written, variable_passed, global_bound_and_call};
    for (size_t k = 0; k < sizeof unsafe / sizeof unsafe[0]; k++) {
        xf_run_stats on, off;
        with_and_without(unsafe[k], __func__, XF_TAPE_OFF_INVERT, 3, 3, &on, &off);
        ck_assert_msg(
            on.push[XF_WORD_INT] == off.push[XF_WORD_INT] && on.push[XF_WORD_INT] >= 3 * (1 + 3),
            "program %zu: %llu integer words (%llu counted)", k,
            (unsigned long long)on.push[XF_WORD_INT], (unsigned long long)off.push[XF_WORD_INT]);
    }
}
END_TEST

/* y(i) = x(i) (x1 + x2 + x3) by two nested loops: both run backwards. */
static xb *
nested(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer i; integer j");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "y(i) = 0");
    xg_for(g, "j = 1", "j <= 3", "j = j + 1");
    xg_bb(g, "y(i) = y(i) + x(i) * x(j)");
    xg_end(g);
    xg_end(g);
    return b;
}

/* The inner loop writes its bound: neither loop is inverted (the outer
 * loop's mark would make the inner one explicit too). */
static xb *
nested_inner_unsafe(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer i; integer j; integer m");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "y(i) = 0; m = 3");
    xg_for(g, "j = 1", "j <= m", "j = j + 1");
    xg_bb(g, "m = 3; y(i) = y(i) + x(i) * x(j)");
    xg_end(g);
    xg_end(g);
    return b;
}

START_TEST(nested_loops)
{
    xf_run_stats on, off;
    with_and_without(nested, __func__, XF_TAPE_OFF_INVERT, 3, 3, &on, &off);
    ck_assert_uint_eq(on.push[XF_WORD_INT], 0);
    ck_assert_uint_gt(off.push[XF_WORD_INT], 3 * 3 * 2);
    with_and_without(nested_inner_unsafe, __func__, XF_TAPE_OFF_INVERT, 3, 3, &on, &off);
    ck_assert_uint_eq(on.push[XF_WORD_INT], off.push[XF_WORD_INT]);
}
END_TEST

/* ============================================================ stable values (D6, D7) */

/* squares' partials x(1), x(i) read x, which nothing overwrites: the
 * adjoint recomputes them from x, handed over once per sweep at the
 * routine's end (3 words), instead of popping 2 per iteration (6). */
START_TEST(partials_from_values_no_statement_overwrites)
{
    xf_run_stats on, off;
    with_and_without_over(squares, __func__, XF_TAPE_OFF_CUT, XF_TAPE_OFF_VALUES, 3, 3, &on, &off);
    ck_assert_uint_eq(on.push[XF_WORD_REAL], 3 * 3);
    ck_assert_uint_eq(off.push[XF_WORD_REAL], 3 * 2 * 3);
    ck_assert_uint_eq(on.push[XF_WORD_INT], 0);
}
END_TEST

/* x is overwritten after its partials are taken. */
static xb *
overwritten(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer i");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "y(i) = x(i) * x(1)");
    xg_end(g);
    xg_bb(g, "x(2) = 1.5");
    return b;
}

/* x is an argument and the routine calls another, which could reach it. */
static xb *
argument_and_call(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, "sub f", "integer i");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "y(i) = x(i) * x(1)");
    xg_end(g);
    xg_bb(g, "call f(y(1))");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a");
    xg_bb(xb_cfg(b, "f", 3, "a"), "a = a * a");
    return b;
}

START_TEST(values_that_may_change_are_taped)
{
    program unsafe[] = {overwritten, argument_and_call};
    for (size_t k = 0; k < sizeof unsafe / sizeof unsafe[0]; k++) {
        xf_run_stats on, off;
        /* without the cut, which tapes x once instead of x(1), x(i) */
        with_and_without_over(unsafe[k], __func__, XF_TAPE_OFF_CUT, XF_TAPE_OFF_VALUES, 3, 3, &on,
                              &off);
        ck_assert_msg(
            on.push[XF_WORD_REAL] == off.push[XF_WORD_REAL] && on.push[XF_WORD_REAL] >= 3 * 2 * 3,
            "program %zu: %llu real words (%llu taped)", k,
            (unsigned long long)on.push[XF_WORD_REAL], (unsigned long long)off.push[XF_WORD_REAL]);
    }
}
END_TEST

/* ============================================================ adjoint liveness (D6) */

/* v = sin(x2) and w = x1 + x3 are locals nothing reads: the derivatives
 * the propagation sets for them are never read, so their adjoints go (and
 * the partial cos(x2) they would pop: one real word a sweep), and so do
 * their assignments and cos(x2)'s in the taping sweep. */
static xb *
locals_nothing_reads(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 2, NULL, "real t; real v; real w");
    xg_bb(g, "t = x(1) * x(2); v = sin_scal(x(2)); w = x(1) + x(3);"
             "y(1) = t * t; y(2) = t * x(3)");
    return b;
}

START_TEST(derivatives_nothing_reads_are_not_adjoined)
{
    xf_run_stats on, off;
    /* without the recomputation from x and the cut (which would hide the count) */
    with_and_without_over(locals_nothing_reads, __func__, XF_TAPE_OFF_VALUES | XF_TAPE_OFF_CUT,
                          XF_TAPE_OFF_LIVE, 3, 2, &on, &off);
    ck_assert_uint_eq(on.push[XF_WORD_REAL] + 2 * 1, off.push[XF_WORD_REAL]);
    /* per sweep: cos, x1 + x3, and the adjoints x1b += wb, x3b += wb,
     * x2b += cos*vb (sin's assignment, dead, leaves the taping sweep
     * without D6 too: pass deadstore) */
    ck_assert_uint_eq(on.intrinsics + 2 * 1, off.intrinsics);
    ck_assert_uint_lt(on.adds + on.muls, off.adds + off.muls);
}
END_TEST

/* t is read in the next block: its derivative is live. */
static xb *
local_read_later(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 2, NULL, "real t");
    xg_bb(g, "t = x(1) * x(2); y(1) = t * x(3)");
    xg_if(g, "x(1) > 0");
    xg_bb(g, "y(2) = t * t");
    xg_else(g);
    xg_bb(g, "y(2) = t");
    xg_end(g);
    return b;
}

START_TEST(derivatives_read_later_are_adjoined)
{
    xf_run_stats on, off;
    with_and_without(local_read_later, __func__, XF_TAPE_OFF_LIVE, 3, 2, &on, &off);
    ck_assert_uint_eq(on.push[XF_WORD_REAL], off.push[XF_WORD_REAL]);
    ck_assert_uint_eq(on.adds + on.muls, off.adds + off.muls);
}
END_TEST

/* ============================================================ values or partials (A9) */

/* [002] §3: y1..y3 = sin, cos, exp of x1 have three partials, cos(x1),
 * -sin(x1) and exp(x1) (which the value y3 already holds in a temporary
 * t): those two values are taped instead (2 words a sweep against 3). The unary
 * chain t1 = sin(x1); t2 = exp(t1); y = cos(t2 t2) has one partial (the
 * preaccumulated product) from one value: a tie, the partial stays. Both
 * with the recomputation from stable values left out (it would take x1
 * from the routine's end instead). */
static xb *
three_of_one(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 1, 3, NULL, NULL);
    xg_bb(g, "y(1) = sin_scal(x(1)); y(2) = cos_scal(x(1)); y(3) = exp_scal(x(1))");
    return b;
}

static xb *
unary_chain(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 1, 1, NULL, "real t1; real t2");
    xg_bb(g, "t1 = sin_scal(x(1)); t2 = exp_scal(t1); y(1) = cos_scal(t2 * t2)");
    return b;
}

START_TEST(the_smaller_cut_is_taped)
{
    xf_run_stats on, off;
    with_and_without_over(three_of_one, __func__, XF_TAPE_OFF_VALUES, XF_TAPE_OFF_CUT, 1, 3, &on,
                          &off);
    ck_assert_uint_eq(on.push[XF_WORD_REAL], 3 * 2);
    ck_assert_uint_eq(off.push[XF_WORD_REAL], 3 * 3);
    with_and_without_over(unary_chain, __func__, XF_TAPE_OFF_VALUES, XF_TAPE_OFF_CUT, 1, 1, &on,
                          &off);
    ck_assert_uint_eq(on.push[XF_WORD_REAL], off.push[XF_WORD_REAL]);
}
END_TEST

/* t is overwritten between the partials' assignments and the propagator:
 * its value there is not theirs, so the partials are taped. */
static xb *
leaf_overwritten(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 1, 4, NULL, "real t");
    xg_bb(g, "t = x(1); y(1) = sin_scal(t); y(2) = cos_scal(t); y(3) = 3 * sin_scal(t);"
             "t = 2 * x(1); y(4) = t");
    return b;
}

START_TEST(values_overwritten_before_the_propagator_are_not_taped)
{
    xf_run_stats on, off;
    with_and_without_over(leaf_overwritten, __func__, XF_TAPE_OFF_VALUES, XF_TAPE_OFF_CUT, 1, 4,
                          &on, &off);
    ck_assert_uint_eq(on.push[XF_WORD_REAL], off.push[XF_WORD_REAL]);
}
END_TEST

Suite *
test_tbr_suite(void)
{
    Suite *s = suite_create("tbr");
    TCase *tc = tcase_create("invert");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_loop_runs_backwards_instead_of_taping);
    tcase_add_test(tc, a_variable_bound_is_taped_once);
    tcase_add_test(tc, loops_that_may_change_are_counted);
    tcase_add_test(tc, nested_loops);
    suite_add_tcase(s, tc);
    tc = tcase_create("values");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, partials_from_values_no_statement_overwrites);
    tcase_add_test(tc, values_that_may_change_are_taped);
    suite_add_tcase(s, tc);
    tc = tcase_create("live");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, derivatives_nothing_reads_are_not_adjoined);
    tcase_add_test(tc, derivatives_read_later_are_adjoined);
    suite_add_tcase(s, tc);
    tc = tcase_create("cut");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, the_smaller_cut_is_taped);
    tcase_add_test(tc, values_overwritten_before_the_propagator_are_not_taped);
    suite_add_tcase(s, tc);
    return s;
}
