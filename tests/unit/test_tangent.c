/* test_tangent.c: the tangent pipeline (transforms/: linearize,
 * preaccumulate, propagate). Each test builds a small program, transforms
 * it, checks that the output is valid xaif, reads the written text back (as
 * OpenAD's back end would) and runs it under the tangent driver; the
 * Jacobian is compared with the one worked out by hand next to the
 * assertion, and with divided differences of the original program. */
#include "derive_fixture.h"
#include "suites.h"

/* The tangent of @b's document under the tangent driver. */
static void
tangent(tg *t, xb *b, xf_elimination e, int n, int m)
{
    derive(t, b, "tangent", e, XF_DRIVER_TANGENT, n, m);
}

/* ============================================================ statements */

START_TEST(products_quotients_and_intrinsics)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 4, NULL, NULL);
    xg_bb(g, "y(1) = x(1) * x(2);"
             "y(2) = x(1) / x(2);"
             "y(3) = sin_scal(x(1)) * exp_scal(x(2));"
             "y(4) = sqrt_scal(x(1) + x(2)) - x(2) ** 3");
    tg t;
    tangent(&t, b, XF_ELIM_BEST, 2, 4);
    double s = sqrt(x1 + x2);
    ASSERT_JAC(&t, 4, 2, x2, x1,                     /* */
               1 / x2, -x1 / (x2 * x2),              /* */
               cos(x1) * exp(x2), sin(x1) * exp(x2), /* */
               0.5 / s, 0.5 / s - 3 * x2 * x2);
    tan_fini(&t);
}
END_TEST

/* A variable read and written by the same statements: t = x1 x2, then
 * t = t*t + t = (x1 x2)^2 + x1 x2. */
START_TEST(a_variable_overwritten_in_place)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 1, NULL, "real t");
    xg_bb(g, "t = x(1); t = t * x(2); t = t * t + t; y(1) = t");
    tg t;
    tangent(&t, b, XF_ELIM_BEST, 2, 1);
    ASSERT_JAC(&t, 1, 2, 2 * x1 * x2 * x2 + x2, 2 * x1 * x1 * x2 + x1);
    tan_fini(&t);
}
END_TEST

/* a(i) and a(j) are the same element at run time: the graph must not take
 * them for two variables. a(1) = x1 x2; y = a(1)^2 + a(2) x3. */
START_TEST(elements_that_alias_at_run_time)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 1, NULL, "real a(2); integer i; integer j");
    xg_bb(g, "i = 1; j = 1; a(2) = x(3);"
             "a(i) = x(1); a(j) = a(i) * x(2); y(1) = a(i) * a(j) + a(2) * x(3)");
    tg t;
    tangent(&t, b, XF_ELIM_BEST, 3, 1);
    ASSERT_JAC(&t, 1, 3, 2 * x1 * x2 * x2, 2 * x1 * x1 * x2, 2 * x3);
    tan_fini(&t);
}
END_TEST

/* y(1) gets a passive value after an active one; y(2) an integer. */
START_TEST(passive_values_have_zero_derivatives)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 3, NULL, "integer k");
    xg_bb(g, "y(1) = x(1) * x(2); y(1) = 2.5; k = 3; y(2) = k * x(2); y(3) = x(1) * k");
    tg t;
    tangent(&t, b, XF_ELIM_BEST, 2, 3);
    ASSERT_JAC(&t, 3, 2, 0, 0, 0, 3, 3, 0);
    tan_fini(&t);
}
END_TEST

/* bratu's loop body: a statement's temporaries are read after the sequence
 * is cut (f(i) may be f(i-1)); every order must keep their propagation. */
START_TEST(temporaries_read_across_a_cut)
{
    static const xf_elimination orders[] = {XF_ELIM_BEST, XF_ELIM_FORWARD, XF_ELIM_REVERSE,
                                            XF_ELIM_MARKOWITZ};
    for (size_t k = 0; k < sizeof orders / sizeof orders[0]; k++) {
        xb *b = XB_NEW();
        xg *g = head_cfg(b, 3, 3, NULL, "real f(3); integer i");
        xg_bb(g, "f(1) = x(1); f(2) = x(2); f(3) = x(3)");
        xg_for(g, "i = 2", "i <= 2", "i = i + 1");
        xg_bb(
            g,
            "f(i - 1) = x(i) + f(i - 1) + exp_scal(x(i) / (x(i) * x(3) + 1)) * (x(3) * 0.25 / 12);"
            "f(i) = exp_scal(x(i) / (x(i) * x(3) + 1)) * (x(3) * 0.25 / 1.2) + (f(i) - x(i) * 2);"
            "f(i + 1) = x(i) + exp_scal(x(i) / (x(i) * x(3) + 1)) * (x(3) / 12)");
        xg_end(g);
        xg_bb(g, "y(1) = f(1); y(2) = f(2); y(3) = f(3)");
        tg t;
        tangent(&t, b, orders[k], 3, 3);
        for (int r = 1; r <= 3; r++)
            for (int c = 1; c <= 3; c++) {
                double got = jf(&t.J, r, c), dd = jf(&t.D, r, c);
                ck_assert_msg(fabs(got - dd) <= 1e-6 * fmax(1, fabs(dd)),
                              "order %zu: F(%d,%d) = %.17g, divided differences %.17g", k, r, c,
                              got, dd);
            }
        tan_fini(&t);
    }
}
END_TEST

/* Partials of integer operands stay real: d(x/12)/dx = 1/12, not 1/12 in
 * integer arithmetic (0); likewise ln and arctan of x/3. */
START_TEST(partials_of_integer_constants_are_real)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 3, NULL, NULL);
    xg_bb(g, "y(1) = x(1) / 12; y(2) = ln_scal(x(1) / 3); y(3) = arctan_scal(x(1) / 3)");
    tg t;
    tangent(&t, b, XF_ELIM_BEST, 1, 3);
    double u = x1 / 3;
    ASSERT_JAC(&t, 3, 1, 1.0 / 12, 1 / x1, (1.0 / 3) / (1 + u * u));
    tan_fini(&t);
}
END_TEST

/* ============================================================ elimination */

/* A block with shared intermediates (a diamond and a chain): every order
 * gives the same derivatives, and best costs no more than any one order. */
START_TEST(elimination_orders_agree)
{
    static const xf_elimination orders[] = {XF_ELIM_FORWARD, XF_ELIM_REVERSE, XF_ELIM_MARKOWITZ,
                                            XF_ELIM_BEST};
    double u = sin(x1 * x2), v = cos(x1 * x2), w = u * v + x3;
    double dw1 = (cos(x1 * x2) * v - u * sin(x1 * x2)) * x2;
    double dw2 = (cos(x1 * x2) * v - u * sin(x1 * x2)) * x1;
    double best = 0, cheapest = INFINITY;
    for (size_t k = 0; k < sizeof orders / sizeof orders[0]; k++) {
        xb *b = XB_NEW();
        xg *g = head_cfg(b, 3, 2, NULL, "real p; real u; real v; real w");
        xg_bb(g, "p = x(1) * x(2); u = sin_scal(p); v = cos_scal(p); w = u * v + x(3);"
                 "y(1) = w * w; y(2) = exp_scal(w) * u");
        tg t;
        tangent(&t, b, orders[k], 3, 2);
        ASSERT_JAC(&t, 2, 3, 2 * w * dw1, 2 * w * dw2, 2 * w, /* */
                   exp(w) * (dw1 * u + cos(x1 * x2) * x2), exp(w) * (dw2 * u + cos(x1 * x2) * x1),
                   exp(w) * u);
        ck_assert_uint_ge(t.stats.blocks, 1);
        double c = (double)(t.stats.elim_muls + t.stats.elim_adds);
        if (orders[k] == XF_ELIM_BEST)
            best = c;
        else
            cheapest = fmin(cheapest, c);
        tan_fini(&t);
    }
    ck_assert_msg(best <= cheapest, "best costs %g, an order %g", best, cheapest);
}
END_TEST

/* ============================================================ control flow */

START_TEST(loops_branches_and_calls)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 2, "sub sq", "integer i; real s");
    xg_bb(g, "s = x(2)");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "s = s * x(1)");
    xg_end(g);
    xg_if(g, "x(1) > 0");
    xg_bb(g, "call sq(s, y(1))");
    xg_else(g);
    xg_bb(g, "y(1) = 0");
    xg_end(g);
    xg_bb(g, "y(2) = s + y(1)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a; real r");
    xg *f = xb_cfg(b, "sq", 3, "a r");
    xg_bb(f, "r = a * a");
    tg t;
    tangent(&t, b, XF_ELIM_BEST, 2, 2);
    /* s = x2 x1^3; y1 = s^2 = x2^2 x1^6; y2 = s + y1 */
    double ds1 = 3 * x2 * x1 * x1, ds2 = x1 * x1 * x1;
    double s = x2 * x1 * x1 * x1;
    ASSERT_JAC(&t, 2, 2, 2 * s * ds1, 2 * s * ds2, ds1 + 2 * s * ds1, ds2 + 2 * s * ds2);
    tan_fini(&t);
}
END_TEST

/* Passive actuals of active formals go through OpenAD_tyc_* temporaries
 * (oad_convert before and after the call): a passive scalar, a passive
 * element to a scalar formal, and a passive element that starts the
 * sequence of an array formal (the whole array is converted). */
START_TEST(arguments_change_activity_through_temporaries)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 3, "sub sq; sub dbl", "real p passive; real a(3) passive; integer i");
    xg_bb(g, "p = 3; call sq(p, y(1)); i = 2; a(1) = 1; a(2) = 1.5; a(3) = 2;"
             "call sq(a(i), y(2)); call dbl(a(1)); y(3) = a(2) * x(2) + a(3) * x(1)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real u; real v");
    xg_bb(xb_cfg(b, "sq", 3, "u v"), "v = u * u");
    xb_scope(b, 4, 1);
    xb_syms(b, 4, "real w(3)");
    xg_bb(xb_cfg(b, "dbl", 4, "w"), "w(1) = w(1) * 2; w(2) = w(2) * 2; w(3) = w(3) * 2");
    tg t;
    tangent(&t, b, XF_ELIM_BEST, 2, 3);
    /* a = (2, 3, 4) after dbl: y(3) = 3 x2 + 4 x1 */
    ASSERT_JAC(&t, 3, 2, 0, 0, 0, 0, 4, 3);
    int converts = 0;
    for (const char *q = t.out; (q = strstr(q, "subroutine_name=\"oad_convert\"")); q++)
        converts++;
    ck_assert_int_eq(converts, 6);
    ck_assert_ptr_nonnull(strstr(t.out, "symbol_id=\"OpenAD_tyc_2\""));
    ck_assert_ptr_null(strstr(t.out, "symbol_id=\"OpenAD_tyc_3\""));
    tan_fini(&t);
}
END_TEST

/* ============================================================ errors */

START_TEST(an_intrinsic_without_partials_is_reported)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, NULL, NULL);
    xg_bb(g, "[s7] y(1) = frobnicate(x(1))");
    tg t;
    ck_assert_int_eq(transform(&t, b, "tangent", XF_ELIM_BEST), -1);
    const char *msg = first_message(t.d);
    char where[64];
    snprintf(where, sizeof where, "t.xaif:%lu:", xb_line_of(t.text, "s7"));
    ck_assert_msg(strstr(msg, where) && strstr(msg, "frobnicate") && strstr(msg, "s7"),
                  "message: %s", msg);
    tan_fini(&t);
}
END_TEST

START_TEST(a_pass_before_its_prerequisites_is_refused)
{
    const xf_pass *p[8];
    char err[256] = "";
    ck_assert_int_eq(xf_pipeline_parse("propagate,linearize", p, 8, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "propagate") != NULL, "%s", err);
    ck_assert_int_eq(xf_pipeline_parse("linearize,nosuchpass", p, 8, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "nosuchpass") != NULL, "%s", err);
    ck_assert_int_eq(xf_pipeline_parse("linearize,preaccumulate", p, 8, err, sizeof err), 2);
    ck_assert_ptr_eq(p[1], &xf_pass_preaccumulate);
}
END_TEST

Suite *
test_tangent_suite(void)
{
    Suite *s = suite_create("tangent");
    TCase *tc = tcase_create("tangent");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, products_quotients_and_intrinsics);
    tcase_add_test(tc, a_variable_overwritten_in_place);
    tcase_add_test(tc, elements_that_alias_at_run_time);
    tcase_add_test(tc, passive_values_have_zero_derivatives);
    tcase_add_test(tc, elimination_orders_agree);
    tcase_add_test(tc, temporaries_read_across_a_cut);
    tcase_add_test(tc, partials_of_integer_constants_are_real);
    tcase_add_test(tc, loops_branches_and_calls);
    tcase_add_test(tc, arguments_change_activity_through_temporaries);
    tcase_add_test(tc, an_intrinsic_without_partials_is_reported);
    tcase_add_test(tc, a_pass_before_its_prerequisites_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
