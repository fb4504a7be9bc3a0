/* test_tangent.c: the tangent pipeline (transforms/: linearize,
 * preaccumulate, propagate). Each test builds a small program, transforms
 * it, checks that the output is valid xaif, reads the written text back (as
 * OpenAD's back end would) and runs it under the tangent driver; the
 * Jacobian is compared with the one worked out by hand next to the
 * assertion, and with divided differences of the original program. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "pipeline.h"
#include "read.h"
#include "run.h"
#include "run_fixture.h"
#include "schema.h"
#include "suites.h"
#include "write.h"

/* ------------------------------------------------------------ transforming */

typedef struct tg {
    xb *b;
    const char *text; /* the original document */
    char *out;        /* the transformed one, as written */
    size_t outlen;
    xf_pass_stats stats;
    xf_jacobian J; /* the tangent driver on the output */
    xf_jacobian D; /* divided differences on the original */
    xf_diag *d;
    int rc; /* the pipeline's return */
} tg;

/* The shared catalogues and schema, loaded once per test process. */
static xf_doc *cat, *direct;
static xf_schema *schema;

static void
setup(void)
{
    xf_diag *d = xf_diag_new(NULL);
    cat = xf_catalogue_load(NULL, d);
    direct = xf_direct_load(NULL, d);
    schema = xf_schema_load(NULL, d);
    ck_assert_msg(cat && direct && schema, "%s", first_message(d));
    xf_diag_free(d);
}

static void
teardown(void)
{
    xf_doc_free(cat);
    xf_doc_free(direct);
    xf_schema_free(schema);
    cat = direct = NULL;
    schema = NULL;
}

static void
tan_fini(tg *t)
{
    free(t->out);
    xf_jacobian_fini(&t->J);
    xf_jacobian_fini(&t->D);
    xf_diag_free(t->d);
    xb_free(t->b);
    memset(t, 0, sizeof *t);
}

/* Transform @b's document with the tangent pipeline and order @e; the
 * returned code of the pipeline is in t->rc (its messages in t->d). */
static int
transform(tg *t, xb *b, xf_elimination e)
{
    memset(t, 0, sizeof *t);
    t->b = b;
    t->text = xb_build(b);
    xf_doc *doc = read_text(t->text, &t->d);
    ck_assert_msg(doc != NULL, "the test's document does not read: %s\n%s", first_message(t->d),
                  t->text);
    const xf_pass *passes[8];
    char err[256];
    int n = xf_pipeline_parse("tangent", passes, 8, err, sizeof err);
    ck_assert_int_eq(n, 4);
    xf_opts o = {.elimination = e};
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = t->d, .catalogue = cat, .direct = direct};
    t->rc = xf_pipeline_run(&ctx, passes, n);
    t->stats = ctx.stats;
    if (t->rc == 0)
        ck_assert_int_eq(xf_write_memory(doc, &t->out, &t->outlen, t->d), 0);
    xf_doc_free(doc);
    return t->rc;
}

/* Transform, validate, run the output under the tangent driver and the
 * original under divided differences (n inputs, m outputs). */
static void
tangent(tg *t, xb *b, xf_elimination e, int n, int m)
{
    ck_assert_msg(transform(t, b, e) == 0, "the pipeline failed: %s", first_message(t->d));
    int v = xf_schema_validate_memory(schema, t->out, t->outlen, "t.out.xaif", t->d);
    ck_assert_msg(v == 0, "the output is not valid xaif: %s\n%s", first_message(t->d), t->out);
    xf_doc *out = xf_read_memory(t->out, t->outlen, "t.out.xaif", NULL, t->d);
    ck_assert_msg(out != NULL, "the output does not read back: %s", first_message(t->d));
    xf_run_opts ro = {.driver = XF_DRIVER_TANGENT, .params = {.n = n, .m = m, .h = 1e-7}};
    int rc = xf_run(out, &ro, &t->J, NULL, t->d);
    xf_doc_free(out);
    ck_assert_msg(rc == 0, "the tangent run failed: %s\n%s", first_message(t->d), t->out);
    xf_diag *d2;
    xf_doc *orig = read_text(t->text, &d2);
    ck_assert_ptr_nonnull(orig);
    ro.driver = XF_DRIVER_DD;
    ck_assert_int_eq(xf_run(orig, &ro, &t->D, NULL, d2), 0);
    xf_doc_free(orig);
    xf_diag_free(d2);
}

/* F(k, i) of Jacobian @j. */
static double
jf(const xf_jacobian *j, int k, int i)
{
    return j->f[(size_t)(i - 1) * (size_t)j->m + (size_t)(k - 1)];
}

/* Every entry within 1e-13 (relative) of @want (row by row), and within
 * 1e-5 of the divided differences. */
static void
assert_jac(const tg *t, const double *want, int m, int n)
{
    ck_assert_int_eq(t->J.m, m);
    ck_assert_int_eq(t->J.n, n);
    for (int k = 1; k <= m; k++)
        for (int i = 1; i <= n; i++) {
            double got = jf(&t->J, k, i), w = want[(k - 1) * n + (i - 1)];
            ck_assert_msg(fabs(got - w) <= 1e-13 * fmax(1, fabs(w)), "F(%d,%d) = %.17g, want %.17g",
                          k, i, got, w);
            double dd = jf(&t->D, k, i);
            ck_assert_msg(fabs(got - dd) <= 1e-5 * fmax(1, fabs(dd)),
                          "F(%d,%d) = %.17g, divided differences %.17g", k, i, got, dd);
        }
}

#define ASSERT_JAC(t, m, n, ...)                                                                   \
    do {                                                                                           \
        const double want_[] = {__VA_ARGS__};                                                      \
        ck_assert_uint_eq(sizeof want_ / sizeof want_[0], (size_t)(m) * (size_t)(n));              \
        assert_jac((t), want_, (m), (n));                                                          \
    } while (0)

/* head(x(n), y(m)) with @locals in scope 2 and subroutines @subs in scope 1. */
static xg *
head_cfg(xb *b, int n, int m, const char *subs, const char *locals)
{
    char decl[128];
    xb_syms(b, 1, "sub head");
    if (subs)
        xb_syms(b, 1, subs);
    xb_scope(b, 2, 1);
    snprintf(decl, sizeof decl, "real x(%d); real y(%d)", n, m);
    xb_syms(b, 2, decl);
    if (locals)
        xb_syms(b, 2, locals);
    return xb_cfg(b, "head", 2, "x y");
}

/* The drivers' point: x(i) = i/2 (xaif-execution.md §6.1). */
static const double x1 = 0.5, x2 = 1.0, x3 = 1.5;

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
    ck_assert_int_eq(transform(&t, b, XF_ELIM_BEST), -1);
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
    tcase_add_test(tc, loops_branches_and_calls);
    tcase_add_test(tc, arguments_change_activity_through_temporaries);
    tcase_add_test(tc, an_intrinsic_without_partials_is_reported);
    tcase_add_test(tc, a_pass_before_its_prerequisites_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
