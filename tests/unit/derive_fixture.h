/* derive_fixture.h: running a transform pipeline over a small document
 * (built with run_fixture.h) and its output under a derivative driver, for
 * test_tangent.c and test_adjoint.c. Every output is validated against the
 * built-in schema and read back from its text, as OpenAD's back end would;
 * the original runs under divided differences for comparison. */
#ifndef XF_TESTS_DERIVE_FIXTURE_H
#define XF_TESTS_DERIVE_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "opts_fixture.h"
#include "pipeline.h"
#include "read.h"
#include "run.h"
#include "run_fixture.h"
#include "schema.h"
#include "write.h"

typedef struct tg {
    xb *b;
    const char *text; /* the original document */
    char *out;        /* the transformed one, as written */
    size_t outlen;
    xf_pass_stats stats;
    xf_jacobian J;   /* the derivative driver on the output */
    xf_run_stats st; /* what that run did */
    xf_jacobian D;   /* divided differences on the original */
    xf_diag *d;
    int rc; /* the pipeline's return */
} tg;

/* The shared catalogues and schema, loaded once per test process. */
static xf_doc *cat, *direct;
static xf_schema *schema;
/* adjoin's --address-recovery store for the next transforms (test_addr.c) */
static bool addr_store RF_UNUSED;
/* adjoin's --tape-off for the next transforms (test_tbr.c; tbr.h) */
static unsigned tape_off RF_UNUSED;
/* template's --reversal for the next transforms (test_deadstore.c) */
static xf_rev_template rev_template RF_UNUSED;

RF void
setup(void)
{
    xf_diag *d = xf_diag_new(NULL);
    cat = xf_catalogue_load(NULL, d);
    direct = xf_direct_load(NULL, d);
    schema = xf_schema_load(NULL, d);
    ck_assert_msg(cat && direct && schema, "%s", first_message(d));
    xf_diag_free(d);
}

RF void
teardown(void)
{
    xf_doc_free(cat);
    xf_doc_free(direct);
    xf_schema_free(schema);
    cat = direct = NULL;
    schema = NULL;
}

RF void
tan_fini(tg *t)
{
    free(t->out);
    xf_jacobian_fini(&t->J);
    xf_jacobian_fini(&t->D);
    xf_diag_free(t->d);
    xb_free(t->b);
    memset(t, 0, sizeof *t);
}

/* Transform @b's document with @pipeline and order @e; the returned code
 * of the pipeline is in t->rc (its messages in t->d). */
RF int
transform(tg *t, xb *b, const char *pipeline, xf_elimination e)
{
    memset(t, 0, sizeof *t);
    t->b = b;
    t->text = xb_build(b);
    xf_doc *doc = read_text(t->text, &t->d);
    ck_assert_msg(doc != NULL, "the test's document does not read: %s\n%s", first_message(t->d),
                  t->text);
    const xf_pass *passes[XF_PM_MAX];
    char err[256];
    int n = xf_pipeline_parse(pipeline, passes, XF_PM_MAX, err, sizeof err);
    ck_assert_msg(n > 0, "%s", err);
    xf_opts o;
    opt_init(&o, e);
    opt_set(&o, "address-recovery", addr_store ? "store" : "recover");
    opt_tape_off(&o, tape_off);
    o.reversal = rev_template;
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = t->d, .catalogue = cat, .direct = direct};
    t->rc = xf_pipeline_run(&ctx, passes, n);
    t->stats = ctx.stats;
    if (t->rc == 0)
        ck_assert_int_eq(xf_write_memory(doc, &t->out, &t->outlen, t->d), 0);
    xf_doc_free(doc);
    return t->rc;
}

/* Transform with @pipeline, validate, run the output under @driver and the
 * original under divided differences (n inputs, m outputs). */
RF void
derive(tg *t, xb *b, const char *pipeline, xf_elimination e, xf_driver driver, int n, int m)
{
    ck_assert_msg(transform(t, b, pipeline, e) == 0, "the pipeline failed: %s",
                  first_message(t->d));
    int v = xf_schema_validate_memory(schema, t->out, t->outlen, "t.out.xaif", t->d);
    ck_assert_msg(v == 0, "the output is not valid xaif: %s\n%s", first_message(t->d), t->out);
    xf_doc *out = xf_read_memory(t->out, t->outlen, "t.out.xaif", NULL, t->d);
    ck_assert_msg(out != NULL, "the output does not read back: %s", first_message(t->d));
    xf_run_opts ro = {.driver = driver, .params = {.n = n, .m = m, .h = 1e-7}};
    int rc = xf_run(out, &ro, &t->J, &t->st, t->d);
    xf_doc_free(out);
    ck_assert_msg(rc == 0, "the %s run failed: %s", xf_driver_name(driver), first_message(t->d));
    xf_diag *d2;
    xf_doc *orig = read_text(t->text, &d2);
    ck_assert_ptr_nonnull(orig);
    ro.driver = XF_DRIVER_DD;
    ck_assert_int_eq(xf_run(orig, &ro, &t->D, NULL, d2), 0);
    xf_doc_free(orig);
    xf_diag_free(d2);
}

/* F(k, i) of Jacobian @j. */
RF double
jf(const xf_jacobian *j, int k, int i)
{
    return j->f[(size_t)(i - 1) * (size_t)j->m + (size_t)(k - 1)];
}

/* Jacobian @a equals @b entry by entry within 1e-13 of @b's largest entry,
 * which must not be zero; @b is named @what in a failure. */
RF void
assert_jacobians_equal(const xf_jacobian *a, const xf_jacobian *b, const char *what)
{
    ck_assert_int_eq(a->m, b->m);
    ck_assert_int_eq(a->n, b->n);
    double scale = 0;
    for (int k = 1; k <= a->m; k++)
        for (int i = 1; i <= a->n; i++)
            scale = fmax(scale, fabs(jf(a, k, i)));
    ck_assert_msg(scale > 0, "a zero Jacobian tests nothing");
    for (int k = 1; k <= a->m; k++)
        for (int i = 1; i <= a->n; i++)
            ck_assert_msg(fabs(jf(a, k, i) - jf(b, k, i)) <= 1e-13 * scale,
                          "F(%d,%d) = %.17g, %s %.17g", k, i, jf(a, k, i), what, jf(b, k, i));
}

/* Every entry within 1e-13 (relative) of @want (row by row), and within
 * 1e-5 of the divided differences. */
RF void
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

/* The drivers' point: x(i) = i/2 (xaif-execution.md §6.1). */
static const double x1 RF_UNUSED = 0.5, x2 RF_UNUSED = 1.0, x3 RF_UNUSED = 1.5;

#endif
