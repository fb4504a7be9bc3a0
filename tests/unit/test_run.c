/* test_run.c: the interpreter (frontends/run/): one small xaif document per
 * construct, run under OpenAD's drivers, with exact numbers (computed by
 * hand or in plain C next to the assertion) for the Jacobian and the
 * counters, and the messages of run-time faults. The meanings tested are
 * those of docs/xaif-execution.md (§ numbers below refer to it).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir.h"
#include "read.h"
#include "run.h"
#include "run_fixture.h"
#include "suites.h"

/* ------------------------------------------------------------ running */

typedef struct run {
    xf_doc *doc;
    xf_diag *d;
    xf_jacobian J;
    xf_run_stats st;
    int rc;
    const char *text;
    xb *b;
} run;

/* F(k, i): output k, input i (as ad.out prints it). */
#define F(r, k, i) ((r).J.f[(size_t)((i)-1) * (size_t)(r).J.m + (size_t)((k)-1)])

/* What the runs not finished yet own: a failed assertion leaves its test
 * early (and its run on a stack that is gone); the teardown frees them, so
 * that CK_FORK=no under valgrind shows only what the interpreter loses. */
enum { MAX_OPEN = 4 };
static struct owned {
    xb *b;
    xf_doc *doc;
    xf_diag *d;
    double *f;
} open_runs[MAX_OPEN];

static void
owned_free(struct owned *o)
{
    free(o->f);
    xf_doc_free(o->doc);
    xf_diag_free(o->d);
    xb_free(o->b);
    memset(o, 0, sizeof *o);
}

static void
run_fini(run *r)
{
    for (int k = 0; k < MAX_OPEN; k++)
        if (open_runs[k].b == r->b)
            memset(&open_runs[k], 0, sizeof open_runs[k]);
    xf_jacobian_fini(&r->J);
    xf_doc_free(r->doc);
    xf_diag_free(r->d);
    xb_free(r->b);
    memset(r, 0, sizeof *r);
}

static void
finish_open_runs(void)
{
    for (int k = 0; k < MAX_OPEN; k++)
        if (open_runs[k].b)
            owned_free(&open_runs[k]);
}

/* Build @b's document, read it (it must be valid) and run @drv with n inputs,
 * m outputs, step h, limits @lim (NULL: defaults), top routine @top (NULL:
 * head). @r owns @b afterwards. */
static int
run_full(run *r, xb *b, xf_driver drv, int n, int m, double h, const xf_run_limits *lim,
         const char *top)
{
    memset(r, 0, sizeof *r);
    struct owned *o = NULL;
    for (int k = 0; k < MAX_OPEN && !o; k++)
        if (!open_runs[k].b)
            o = &open_runs[k];
    ck_assert_ptr_nonnull(o);
    o->b = r->b = b;
    r->text = xb_build(b);
    r->doc = read_text(r->text, &r->d);
    o->doc = r->doc;
    o->d = r->d;
    ck_assert_msg(r->doc != NULL, "the test's document does not read: %s\n%s", first_message(r->d),
                  r->text);
    xf_diag_clear(r->d);
    xf_run_opts opts = {.driver = drv, .params = {.n = n, .m = m, .h = h, .tol = 1e-6}, .top = top};
    if (lim)
        opts.lim = *lim;
    r->rc = xf_run(r->doc, &opts, &r->J, &r->st, r->d);
    o->f = r->J.f;
    return r->rc;
}

static int
run_drv(run *r, xb *b, xf_driver drv, int n, int m)
{
    return run_full(r, b, drv, n, m, 0.5, NULL, NULL);
}

#define RUN_OK(r, b, drv, n, m)                                                                    \
    do {                                                                                           \
        int rc_ = run_drv((r), (b), (drv), (n), (m));                                              \
        ck_assert_msg(rc_ == 0, "run failed: %s", first_message((r)->d));                          \
    } while (0)

/* The run failed with a first message that names statement @stmt (its xaif
 * line and id; NULL: no statement) and contains @what. */
static void
expect_fault(const run *r, const char *stmt, const char *what)
{
    const char *msg = first_message(r->d);
    ck_assert_msg(r->rc == -1, "the run did not fail (first message: '%s')", msg);
    ck_assert_msg(strstr(msg, what) != NULL, "'%s' is not in '%s'", what, msg);
    ck_assert_msg(strstr(msg, "error") != NULL, "'%s' is no error", msg);
    if (stmt) {
        char where[64];
        unsigned long line = xb_line_of(r->text, stmt);
        ck_assert_uint_ne(line, 0);
        snprintf(where, sizeof where, "t.xaif:%lu:", line);
        ck_assert_msg(strstr(msg, where) != NULL, "'%s' is not in '%s'", where, msg);
        snprintf(where, sizeof where, "statement %s", stmt);
        ck_assert_msg(strstr(msg, where) != NULL, "'%s' is not in '%s'", where, msg);
    }
}

/* x0(i) = i/2, as the drivers set it (§6.1). */
static double
x0(int i)
{
    return i / 2.0;
}

static void
assert_y(const run *r, const double *want, int m)
{
    ck_assert_int_eq(r->J.m, m);
    for (int k = 1; k <= m; k++)
        ck_assert_msg(F(*r, k, 1) == want[k - 1], "y(%d) = %.17g, want %.17g", k, F(*r, k, 1),
                      want[k - 1]);
}

#define ASSERT_Y(r, ...)                                                                           \
    do {                                                                                           \
        const double want_[] = {__VA_ARGS__};                                                      \
        assert_y((r), want_, (int)(sizeof want_ / sizeof want_[0]));                               \
    } while (0)

static void
assert_jac(const run *r, const double *want, int m, int n)
{
    ck_assert_int_eq(r->J.m, m);
    ck_assert_int_eq(r->J.n, n);
    for (int k = 1; k <= m; k++)
        for (int i = 1; i <= n; i++)
            ck_assert_msg(F(*r, k, i) == want[(k - 1) * n + (i - 1)],
                          "F(%d,%d) = %.17g, want %.17g", k, i, F(*r, k, i),
                          want[(k - 1) * n + (i - 1)]);
}

/* The Jacobian row by row: F(1,1), F(1,2), ..., F(2,1), ... */
#define ASSERT_JAC(r, m, n, ...)                                                                   \
    do {                                                                                           \
        const double want_[] = {__VA_ARGS__};                                                      \
        ck_assert_uint_eq(sizeof want_ / sizeof want_[0], (size_t)(m) * (size_t)(n));              \
        assert_jac((r), want_, (m), (n));                                                          \
    } while (0)

/* For each condition k: if (cond) y(k) = 1 else y(k) = 2. */
static void
if_chain(xg *g, const char *const *conds, int n)
{
    char s[64];
    for (int k = 0; k < n; k++) {
        xg_if(g, conds[k]);
        snprintf(s, sizeof s, "y(%d) = 1", k + 1);
        xg_bb(g, s);
        xg_else(g);
        snprintf(s, sizeof s, "y(%d) = 2", k + 1);
        xg_bb(g, s);
        xg_end(g);
    }
}

/* ============================================================ arithmetic */

START_TEST(integer_division_truncates_and_mixed_promotes)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 8, NULL, "integer i; integer j");
    xg_bb(g, "i = 7; j = 2;"
             "y(1) = 7 / 2;"          /* 3 */
             "y(2) = -7 / 2;"         /* -(7)/2 = -3: toward zero */
             "y(3) = 7 / (-2);"       /* -3 */
             "y(4) = i / j * 2.0;"    /* (7/2)*2.0 = 6 */
             "y(5) = i / 2.0;"        /* 3.5 */
             "y(6) = x(1) / 2;"       /* 0.25 */
             "y(7) = i * j / 4;"      /* 14/4 = 3 */
             "y(8) = (i + 0.5) / j"); /* 3.75 */
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 8);
    ASSERT_Y(&r, 3, -3, -3, 6, 3.5, 0.25, 3, 3.75);
    /* real operations only: y(4) *, y(5) /, y(6) /, y(8) + and / */
    ck_assert_uint_eq(r.st.adds, 1);
    ck_assert_uint_eq(r.st.muls, 1);
    ck_assert_uint_eq(r.st.divs, 3);
    ck_assert_uint_eq(r.st.intrinsics, 0);
    ck_assert_uint_eq(r.st.statements, 10);
    run_fini(&r);
}
END_TEST

START_TEST(store_converts_to_the_target_type)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 5, NULL, "integer i; integer j; integer k; real r");
    xg_bb(g, "i = 2.7; j = -2.7; k = 7.9 / 2; r = 7;"
             "y(1) = i; y(2) = j; y(3) = k;"
             "y(4) = r / 2;"  /* a real 7: 3.5 */
             "y(5) = i / 2"); /* an integer 2: 1 */
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 5);
    ASSERT_Y(&r, 2, -2, 3, 3.5, 1);
    run_fini(&r);
}
END_TEST

START_TEST(power_with_integer_and_real_exponents)
{
    const double base = 1.3;
    /* binary powering of x**3 is x*(x*x); pow() rounds once: they differ here */
    const double p3 = base * (base * base);
    ck_assert(p3 != pow(base, 3.0));
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 8, NULL, "real bb; integer k");
    xg_bb(g, "bb = 1.3; k = 3;"
             "y(1) = bb ** 3;"
             "y(2) = bb ** 3.0;"
             "y(3) = 2 ** 10;"
             "y(4) = 2 ** (-1);"    /* integer: 1/2 = 0 */
             "y(5) = x(1) ** (-2);" /* 4 */
             "y(6) = 2 ** 0.5;"
             "y(7) = bb ** k;"
             "y(8) = (-2) ** 3 / 3"); /* integer -8/3 = -2 */
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 8);
    ASSERT_Y(&r, p3, pow(base, 3.0), 1024, 0, 4, pow(2.0, 0.5), p3, -2);
    run_fini(&r);
}
END_TEST

START_TEST(unary_minus_mod_sign_min_max)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 11, NULL, NULL);
    xg_bb(g, "y(1) = -x(1);"
             "y(2) = mod_scal_scal(-7, 3);"          /* C %: -1 */
             "y(3) = mod_scal_scal(7.5, 2.0);"       /* 1.5 */
             "y(4) = mod_scal_scal(-7.5, 2);"        /* fmod: -1.5 */
             "y(5) = sign_scal_scal(3, -2);"         /* -3 */
             "y(6) = sign_scal_scal(-2.5, 1.0);"     /* 2.5 */
             "y(7) = sign_scal_scal(x(1), -1);"      /* -0.5 */
             "y(8) = nc_min_scal_scal(3, x(3));"     /* 1.5 */
             "y(9) = nc_max_scal_scal(7, 2) / 2;"    /* integer 7/2 = 3 */
             "y(10) = nc_min_scal_scal(7, 2.0) / 4;" /* real 2/4 = 0.5 */
             "y(11) = mod_scal_scal(7, 3) / 2");     /* integer 1/2 = 0 */
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 3, 11);
    ASSERT_Y(&r, -0.5, -1, 1.5, -1.5, -3, 2.5, -0.5, 1.5, 3, 0.5, 0);
    run_fini(&r);
}
END_TEST

START_TEST(conversions_int_nint_real_abs)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 9, NULL, NULL);
    xg_bb(g, "y(1) = int_scal(2.7) / 2;"   /* integer 2/2 = 1 */
             "y(2) = int_scal(-2.7);"      /* toward zero: -2 */
             "y(3) = nint_scal(2.5);"      /* half away from zero: 3 */
             "y(4) = nint_scal(-2.5);"     /* -3 */
             "y(5) = nint_scal(2.4) / 2;"  /* integer 2/2 = 1 */
             "y(6) = real_scal(7) / 2;"    /* 3.5 */
             "y(7) = abs_scal(-7) / 2;"    /* integer 7/2 = 3 */
             "y(8) = abs_scal(-x(3));"     /* 1.5 */
             "y(9) = int_scal(x(3) * 3)"); /* int(4.5) = 4 */
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 3, 9);
    ASSERT_Y(&r, 1, -2, 3, -3, 1, 3.5, 3, 1.5, 4);
    run_fini(&r);
}
END_TEST

START_TEST(math_functions)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 13, NULL, NULL);
    xg_bb(g, "y(1) = sin_scal(x(1)); y(2) = cos_scal(x(1)); y(3) = tan_scal(x(1));"
             "y(4) = arcsin_scal(x(1)); y(5) = arccos_scal(x(1)); y(6) = arctan_scal(x(1));"
             "y(7) = sinh_scal(x(1)); y(8) = cosh_scal(x(1)); y(9) = tanh_scal(x(1));"
             "y(10) = exp_scal(x(1)); y(11) = ln_scal(x(1)); y(12) = log10(x(1));"
             "y(13) = sqrt_scal(x(1))");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 13);
    double v = x0(1);
    ASSERT_Y(&r, sin(v), cos(v), tan(v), asin(v), acos(v), atan(v), sinh(v), cosh(v), tanh(v),
             exp(v), log(v), log10(v), sqrt(v));
    ck_assert_uint_eq(r.st.intrinsics, 13);
    ck_assert_uint_eq(r.st.adds + r.st.muls + r.st.divs, 0);
    ck_assert_uint_eq(r.st.statements, 13);
    run_fini(&r);
}
END_TEST

START_TEST(flop_counts)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 3, NULL, "integer i");
    xg_bb(g, "y(1) = x(1) * x(2) + x(3) / x(1) - x(2);" /* 2 adds, 1 mul, 1 div */
             "y(2) = -x(1);"                            /* 1 add (negation) */
             "i = 3 * 4 + 1 - i / 2;"                   /* integers: nothing */
             "y(3) = x(1) ** 2");                       /* 1 intrinsic */
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 3, 3);
    ASSERT_Y(&r, 0.5 * 1.0 + 1.5 / 0.5 - 1.0, -0.5, 0.25);
    ck_assert_uint_eq(r.st.adds, 3);
    ck_assert_uint_eq(r.st.muls, 1);
    ck_assert_uint_eq(r.st.divs, 1);
    ck_assert_uint_eq(r.st.intrinsics, 1);
    ck_assert_uint_eq(r.st.statements, 4);
    run_fini(&r);
}
END_TEST

/* §4.3: F4 constants are REAL*4 literals: rounded to binary32, then widened;
 * 'e' exponents with 21 significant digits are xaifBooster's reprints. */
START_TEST(single_precision_constants)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 7, NULL, NULL);
    xg_bb(g, "y(1) = 1.2_4;"
             "y(2) = 1.2;"
             "y(3) = {real:9.0858303010e-03:F4};"
             "y(4) = {real:1.20000000000000000000e+00:F4};"
             "y(5) = {real:1.00000000000000005551e-01:F8};"
             "y(6) = 4 * 1.2_4;"
             "y(7) = {real:-2.50000000000000000000e-01}");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 7);
    ck_assert((double)1.2f != 1.2);
    ASSERT_Y(&r, (double)1.2f, 1.2, (double)9.0858303010e-03f, (double)1.2f, 0.1, 4 * (double)1.2f,
             -0.25);
    run_fini(&r);
}
END_TEST

/* §4.3: "round to binary32": the decimal literal itself, correctly rounded.
 * This 21-digit literal lies just above the midpoint between 1 and the next
 * float; the nearest double is the midpoint itself, so rounding to double
 * first and then to float goes down (ties to even) instead of up. */
START_TEST(single_precision_constant_rounded_once)
{
    const float want = 1.00000005960464477626f; /* the compiler rounds once */
    ck_assert((float)1.00000005960464477626 != want);
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, NULL, NULL);
    xg_bb(g, "y(1) = {real:1.00000005960464477626e+00:F4}");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 1);
    /* one rounding from the decimal text to binary32, not two (via double) */
    ASSERT_Y(&r, (double)want);
    run_fini(&r);
}
END_TEST

/* §4.1: output graphs are DAGs: one vertex may feed several operators
 * (y = c + c*c with one vertex c). */
START_TEST(expression_dag_with_a_shared_vertex)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 1, NULL, NULL);
    xg_bb(g, "<xaif:Assignment statement_id=\"dag\"><xaif:AssignmentLHS>"
             "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"y\"/>"
             "<xaif:ArrayElementReference vertex_id=\"2\"><xaif:IndexTriplet><xaif:Index>"
             "<xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"1\"/></xaif:Index>"
             "</xaif:IndexTriplet></xaif:ArrayElementReference>"
             "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>"
             "</xaif:AssignmentLHS><xaif:AssignmentRHS>"
             "<xaif:Intrinsic vertex_id=\"1\" name=\"add_scal_scal\"/>"
             "<xaif:ExpressionEdge edge_id=\"1\" source=\"3\" target=\"1\" position=\"1\"/>"
             "<xaif:Intrinsic vertex_id=\"2\" name=\"mul_scal_scal\"/>"
             "<xaif:VariableReference vertex_id=\"3\">"
             "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"x\"/>"
             "<xaif:ArrayElementReference vertex_id=\"2\"><xaif:IndexTriplet><xaif:Index>"
             "<xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"3\"/></xaif:Index>"
             "</xaif:IndexTriplet></xaif:ArrayElementReference>"
             "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>"
             "</xaif:VariableReference>"
             "<xaif:ExpressionEdge edge_id=\"3\" source=\"3\" target=\"2\" position=\"2\"/>"
             "<xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"2\" position=\"1\"/>"
             "<xaif:ExpressionEdge edge_id=\"4\" source=\"2\" target=\"1\" position=\"2\"/>"
             "</xaif:AssignmentRHS></xaif:Assignment>");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 3, 1);
    ASSERT_Y(&r, 1.5 + 1.5 * 1.5);
    run_fini(&r);
}
END_TEST

/* §4.3, §4.5, §5.6: strings: constants, equality ignoring trailing blanks,
 * len of a constant, scan, the character tape and checkpoints. (len of a
 * variable is left out: the Fortran declares 80-character buffers.) */
START_TEST(strings)
{
    static const char *const conds[] = {
        "string_eq_scal_scal(s, t)",     /* 'abc' and 'abc  ': T */
        "string_eq_scal_scal(s, 'abd')", /* F */
        "string_eq_scal_scal(u, 'xyz')", /* popped last pushed: T */
        "string_eq_scal_scal(t, 'abc')", /* popped first pushed: T */
        "string_eq_scal_scal(s, 'abc')", /* restored: T */
    };
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 8, NULL, "string s; string t; string u");
    xg_bb(g, "s = 'abc'; t = 'abc  ';"
             "y(6) = len('abc  '); y(7) = scan('hello', 'l'); y(8) = scan(s, 'xyz')");
    if_chain(g, conds, 2);
    xg_bb(g,
          "u = 'xyz'; inline push_s(s); inline push_s(u); inline pop_s(u); inline pop_s(t);"
          "inline cp_arg_store_string_scalar(s); s = 'zz'; inline cp_arg_restore_string_scalar(s)");
    /* if_chain numbers its outputs from 1: continue with y(3..5) by hand */
    for (int k = 2; k < 5; k++) {
        char then_[32], else_[32];
        snprintf(then_, sizeof then_, "y(%d) = 1", k + 1);
        snprintf(else_, sizeof else_, "y(%d) = 2", k + 1);
        xg_if(g, conds[k]);
        xg_bb(g, then_);
        xg_else(g);
        xg_bb(g, else_);
        xg_end(g);
    }
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 8);
    ASSERT_Y(&r, 1, 2, 1, 1, 1, 5, 3, 0);
    ck_assert_uint_eq(r.st.push[XF_WORD_STRING], 2);
    ck_assert_uint_eq(r.st.pop[XF_WORD_STRING], 2);
    ck_assert_uint_eq(r.st.cp_push[XF_WORD_STRING], 1);
    run_fini(&r);
}
END_TEST

/* §4.5: transfer is a bit copy between double and integer(8). */
START_TEST(transfer_copies_bits)
{
    const double one = 1.0;
    int64_t bits;
    memcpy(&bits, &one, sizeof bits);
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 2, NULL, "integer k; integer mold");
    xg_bb(g, "k = transfer(x(2), mold); y(1) = k / 1024;"
             "k = transfer(x(3), mold); y(2) = transfer(k, 0.0)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 3, 2);
    const int64_t quot = bits / 1024; /* the document divides integers too */
    ASSERT_Y(&r, (double)quot, 1.5);
    run_fini(&r);
}
END_TEST

/* ============================================================ conditions */

START_TEST(comparisons_and_logic)
{
    static const char *const conds[] = {
        "x(1) < 1",                       /* T: real with integer */
        "x(2) <= 1",                      /* T */
        "x(2) > 1",                       /* F */
        "x(3) >= 1.5",                    /* T */
        "x(2) == 1",                      /* T */
        "x(2) != 1",                      /* F */
        "3 < 2",                          /* F */
        "2 == 2.5",                       /* F: compared as reals */
        "2 < 2.5",                        /* T */
        "x(1) < 1 & x(2) > 1",            /* F */
        "x(1) < 1 | x(2) > 1",            /* T */
        "!(x(1) < 1)",                    /* F */
        "7 / 2 == 3",                     /* T: integer division */
        "xor(x(1) < 1, x(2) < 2)",        /* F */
        "!(x(2) > 1) & (3 >= 3 | 1 > 2)", /* T */
    };
    enum { N = sizeof conds / sizeof conds[0] };
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, N, NULL, NULL);
    if_chain(g, conds, N);
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 3, N);
    ASSERT_Y(&r, 1, 1, 2, 1, 1, 2, 2, 2, 1, 2, 1, 2, 1, 2, 1);
    run_fini(&r);
}
END_TEST

START_TEST(if_without_else_and_nested_branches)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 3, NULL, NULL);
    xg_bb(g, "y(1) = 5; y(2) = 5; y(3) = 0");
    xg_if(g, "x(1) > 1"); /* false: nothing */
    xg_bb(g, "y(1) = 7");
    xg_end(g);
    xg_if(g, "x(1) < 1"); /* true */
    xg_if(g, "x(2) > 1"); /* false */
    xg_bb(g, "y(2) = 8");
    xg_else(g);
    xg_bb(g, "y(2) = 9");
    xg_if(g, "x(3) > 1"); /* true, inside the else arm */
    xg_bb(g, "y(3) = 4");
    xg_end(g);
    xg_end(g);
    xg_end(g);
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 3, 3);
    ASSERT_Y(&r, 5, 9, 4);
    run_fini(&r);
}
END_TEST

/* select case: one edge per case value (two values share an arm), an empty
 * arm that goes straight to the EndBranch, a default edge (§2.3). */
START_TEST(select_case_values_and_default)
{
    xb *b = XB_NEW();
    xb_syms(b, 1, "sub head");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(6); integer k");
    xg *g = xb_cfg_raw(b, "head", 2, "x y");
    xg_v_plain(g, "Entry");                      /* 1 */
    xg_v_for(g, "k = 0", "k <= 5", "k = k + 1"); /* 2 */
    xg_v_test(g, "Branch", "k");                 /* 3 */
    xg_v_bb(g, "y(k + 1) = 13");                 /* 4: case (1, 3) */
    xg_v_bb(g, "y(k + 1) = 2");                  /* 5: case (2) */
    xg_v_bb(g, "y(k + 1) = 99");                 /* 6: case default */
    xg_v_plain(g, "EndBranch");                  /* 7 */
    xg_v_plain(g, "EndLoop");                    /* 8 */
    xg_v_plain(g, "Exit");                       /* 9 */
    xg_edges(g, "1>2 2>3:1 2>9 3>4:1 3>5:2 3>4:3 3>7:5 3>6 4>7 5>7 6>7 7>8 8>2");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 6);
    /* k = 0: default; 1: 13; 2: 2; 3: 13; 4: default; 5: nothing */
    ASSERT_Y(&r, 99, 13, 2, 13, 99, 0);
    run_fini(&r);
}
END_TEST

/* §4.6: a bare logical variable, and a bare integer, as conditions. */
START_TEST(bare_variables_as_conditions)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 3, NULL, "bool l; integer k");
    xg_bb(g, "l = x(1) < 1; k = 1");
    xg_if(g, "l");
    xg_bb(g, "y(1) = 1");
    xg_else(g);
    xg_bb(g, "y(1) = 2");
    xg_end(g);
    xg_bb(g, "l = !l");
    xg_if(g, "l");
    xg_bb(g, "y(2) = 1");
    xg_else(g);
    xg_bb(g, "y(2) = 2");
    xg_end(g);
    xg_if(g, "k"); /* 1: the cv=1 arm */
    xg_bb(g, "y(3) = 1");
    xg_else(g);
    xg_bb(g, "y(3) = 2");
    xg_end(g);
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 3);
    ASSERT_Y(&r, 1, 2, 1);
    run_fini(&r);
}
END_TEST

/* §2.2: If like Branch; Label and Goto have one out-edge. */
START_TEST(if_goto_label_vertices)
{
    xb *b = XB_NEW();
    xb_syms(b, 1, "sub head");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(2)");
    xg *g = xb_cfg_raw(b, "head", 2, "x y");
    xg_v_plain(g, "Entry");             /* 1 */
    xg_v_plain(g, "Label");             /* 2 */
    xg_v_test(g, "If", "x(1) < 1");     /* 3 */
    xg_v_bb(g, "y(1) = 1; marker");     /* 4 */
    xg_v_bb(g, "y(1) = 2");             /* 5 */
    xg_v_plain(g, "Goto");              /* 6 */
    xg_v_bb(g, "y(2) = y(2) + 1");      /* 7 */
    xg_v_test(g, "Branch", "y(2) < 3"); /* 8 */
    xg_v_plain(g, "Exit");              /* 9 */
    xg_edges(g, "1>2 2>3 3>4:1 3>5 4>6 5>6 6>7 7>8 8>7:1 8>9");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 2);
    ASSERT_Y(&r, 1, 3);
    run_fini(&r);
}
END_TEST

/* ============================================================ loops */

START_TEST(for_loop_init_condition_update)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 2, NULL, "integer i");
    xg_bb(g, "y(1) = 0");
    xg_for(g, "i = 1", "i <= 4", "i = i + 1");
    xg_bb(g, "y(1) = y(1) + i * x(1)");
    xg_end(g);
    xg_bb(g, "y(2) = i"); /* Fortran leaves i = 5 */
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 2);
    ASSERT_Y(&r, 5.0, 5);
    /* y(1)=0, the initialisation, 4 updates, 4 bodies, y(2)=i */
    ck_assert_uint_eq(r.st.statements, 11);
    ck_assert_uint_eq(r.st.muls, 4);
    ck_assert_uint_eq(r.st.adds, 4);
    run_fini(&r);
}
END_TEST

START_TEST(nested_loops)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 3, NULL, "integer i; integer j");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_for(g, "j = 1", "j <= i", "j = j + 1");
    xg_bb(g, "y(1) = y(1) + 1; y(2) = y(2) + 10 * i + j");
    xg_end(g);
    xg_bb(g, "y(3) = y(3) + j"); /* j = i + 1 after the inner loop */
    xg_end(g);
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 3);
    /* 6 iterations; 11 + 21+22 + 31+32+33 = 150; 2 + 3 + 4 = 9 */
    ASSERT_Y(&r, 6, 150, 9);
    run_fini(&r);
}
END_TEST

/* A reversed explicit loop (§5.7): start lo + st*((hi-lo)/st), test >= lo, step -st. */
START_TEST(loop_counting_down)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 2, NULL, "integer i");
    xg_for(g, "i = 1 + 2 * ((6 - 1) / 2)", "i >= 1", "i = i - 2");
    xg_bb(g, "y(1) = y(1) * 10 + i");
    xg_end(g);
    xg_bb(g, "y(2) = i");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 2);
    ASSERT_Y(&r, 531, -1);
    run_fini(&r);
}
END_TEST

START_TEST(preloop_is_a_while_loop)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 2, NULL, "integer i");
    xg_bb(g, "i = 0");
    xg_while(g, "i < 5");
    xg_bb(g, "i = i + 2; y(1) = y(1) + 1");
    xg_end(g);
    xg_bb(g, "y(2) = i");
    xg_while(g, "i < 0"); /* never entered */
    xg_bb(g, "y(2) = -1");
    xg_end(g);
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 2);
    ASSERT_Y(&r, 3, 6);
    run_fini(&r);
    /* the unstructured reversal's form: body cv=1, exit cv=0, no default edge */
    b = XB_NEW();
    xb_syms(b, 1, "sub head");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(1); integer k");
    g = xb_cfg_raw(b, "head", 2, "x y");
    xg_v_plain(g, "Entry");                        /* 1 */
    xg_v_bb(g, "k = 3");                           /* 2 */
    xg_v_test(g, "PreLoop", "k > 0");              /* 3 */
    xg_v_bb(g, "y(1) = y(1) * 10 + k; k = k - 1"); /* 4 */
    xg_v_plain(g, "EndLoop");                      /* 5 */
    xg_v_plain(g, "Exit");                         /* 6 */
    xg_edges(g, "1>2 2>3 3>4:1 3>6:0 4>5 5>3");
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 1);
    ASSERT_Y(&r, 321);
    run_fini(&r);
}
END_TEST

/* An inner loop left early by an edge that bypasses its EndLoop (an exit
 * statement), inside an outer loop: entering the inner ForLoop again from
 * the outer one runs its initialisation, not its update (§2.4). */
START_TEST(loop_left_early)
{
    xb *b = XB_NEW();
    xb_syms(b, 1, "sub head");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(3); integer i; integer j");
    xg *g = xb_cfg_raw(b, "head", 2, "x y");
    xg_v_plain(g, "Entry");                       /* 1 */
    xg_v_bb(g, "y(1) = 0");                       /* 2 */
    xg_v_for(g, "j = 1", "j <= 2", "j = j + 1");  /* 3 */
    xg_v_for(g, "i = 1", "i <= 10", "i = i + 1"); /* 4 */
    xg_v_test(g, "Branch", "i == 4");             /* 5 */
    xg_v_bb(g, "y(2) = y(2) + i");                /* 6: exit */
    xg_v_bb(g, "y(1) = y(1) + i");                /* 7 */
    xg_v_plain(g, "EndLoop");                     /* 8 */
    xg_v_bb(g, "y(3) = y(3) + i");                /* 9 */
    xg_v_plain(g, "EndLoop");                     /* 10 */
    xg_v_plain(g, "Exit");                        /* 11 */
    xg_edges(g, "1>2 2>3 3>4:1 3>11 4>5:1 4>9 5>6:1 5>7 6>9 7>8 8>4 9>10 10>3");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 3);
    ASSERT_Y(&r, 12, 8, 8);
    run_fini(&r);
}
END_TEST

/* §2.4: DO i = l, u, s with a run-time stride is encoded as the condition
 * not_equal(i, u) and the update i = i + s; it means i <= u for s > 0 and
 * i >= u for s < 0 (u need not be reached exactly). */
START_TEST(strided_do_with_runtime_stride)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 4, NULL, "integer i; integer l; integer u; integer s");
    xg_bb(g, "l = 1; u = 6; s = 2");
    xg_for(g, "i = l", "not_equal(i, u)", "i = i + s");
    xg_bb(g, "y(1) = y(1) + i"); /* 1 + 3 + 5 */
    xg_end(g);
    xg_bb(g, "l = 6; u = 1; s = -2");
    xg_for(g, "i = l", "not_equal(i, u)", "i = i + s");
    xg_bb(g, "y(2) = y(2) + i"); /* 6 + 4 + 2 */
    xg_end(g);
    xg_bb(g, "l = 1; u = 5; s = 2");
    xg_for(g, "i = l", "not_equal(i, u)", "i = i + s");
    xg_bb(g, "y(3) = y(3) + i"); /* 1 + 3 + 5: u itself is included */
    xg_end(g);
    xg_bb(g, "l = 1; u = 6; s = -2; y(4) = 0");
    xg_for(g, "i = l", "not_equal(i, u)", "i = i + s");
    xg_bb(g, "y(4) = y(4) + 1"); /* no trip */
    xg_end(g);
    run r;
    xf_run_limits lim = {.max_steps = 100000};
    int rc = run_full(&r, b, XF_DRIVER_PLAIN, 1, 4, 0.5, &lim, NULL);
    ck_assert_msg(rc == 0, "%s", first_message(r.d));
    ASSERT_Y(&r, 9, 12, 9, 0);
    run_fini(&r);
}
END_TEST

/* The same encoding with a literal upper bound: DO i = 1, 6, s. */
START_TEST(strided_do_with_literal_bound)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, NULL, "integer i; integer s");
    xg_bb(g, "s = 2");
    xg_for(g, "i = 1", "not_equal(i, 6)", "i = i + s");
    xg_bb(g, "y(1) = y(1) + i");
    xg_end(g);
    run r;
    xf_run_limits lim = {.max_steps = 100000};
    int rc = run_full(&r, b, XF_DRIVER_PLAIN, 1, 1, 0.5, &lim, NULL);
    /* with a literal bound, i != 6 alone would never stop */
    ck_assert_msg(rc == 0, "%s", first_message(r.d));
    ASSERT_Y(&r, 9);
    run_fini(&r);
}
END_TEST

/* §2.3: has_condition_value "1"/"true" without condition_value means 1;
 * "0"/"false" (even with a condition_value) makes the default edge. */
START_TEST(condition_value_spellings)
{
    xb *b = XB_NEW();
    xb_syms(b, 1, "sub head");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(2); integer k");
    xg *g = xb_cfg_raw(b, "head", 2, "x y");
    xg_v_plain(g, "Entry");          /* 1 */
    xg_v_bb(g, "k = 1");             /* 2 */
    xg_v_test(g, "Branch", "k");     /* 3 */
    xg_v_bb(g, "y(1) = 10");         /* 4 */
    xg_v_bb(g, "y(1) = 20");         /* 5 */
    xg_v_plain(g, "EndBranch");      /* 6 */
    xg_v_test(g, "Branch", "k - 1"); /* 7 */
    xg_v_bb(g, "y(2) = 30");         /* 8 */
    xg_v_bb(g, "y(2) = 40");         /* 9 */
    xg_v_plain(g, "EndBranch");      /* 10 */
    xg_v_plain(g, "Exit");           /* 11 */
    xg_edges(g, "1>2 2>3");
    xg_edge_attrs(g, 3, 4, "has_condition_value=\"0\" condition_value=\"1\"");
    xg_edge_attrs(g, 3, 5, "has_condition_value=\"1\"");
    xg_edges(g, "4>6 5>6 6>7");
    xg_edge_attrs(g, 7, 8, "has_condition_value=\"true\" condition_value=\"0\"");
    xg_edge_attrs(g, 7, 9, "has_condition_value=\"false\"");
    xg_edges(g, "8>10 9>10 10>11");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 2);
    ASSERT_Y(&r, 20, 30);
    run_fini(&r);
}
END_TEST

/* The same encoding with a literal stride: DO i = 1, u, 2 written as
 * not_equal(i, u) and i = i + 2 (§2.4 states the rule for the encoding, the
 * corpus has it only with a variable stride). */
START_TEST(strided_do_with_literal_stride)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, NULL, "integer i; integer u");
    xg_bb(g, "u = 6");
    xg_for(g, "i = 1", "not_equal(i, u)", "i = i + 2");
    xg_bb(g, "y(1) = y(1) + i");
    xg_end(g);
    run r;
    xf_run_limits lim = {.max_steps = 100000};
    int rc = run_full(&r, b, XF_DRIVER_PLAIN, 1, 1, 0.5, &lim, NULL);
    /* the same with a literal stride */
    ck_assert_msg(rc == 0, "%s", first_message(r.d));
    ASSERT_Y(&r, 9);
    run_fini(&r);
}
END_TEST

/* ============================================================ arrays */

/* §1.2: a(0:2,-1:2) is written with the bounds of dimension 2 first;
 * lbound/ubound/size honour the declared bounds (§1.3 rule 6). */
START_TEST(bounds_listed_last_dimension_first)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 8, NULL, "real a(0:2,-1:2)");
    xg_bb(g, "y(1) = size(a); y(2) = size(a, 1); y(3) = size(a, 2);"
             "y(4) = lbound(a, 1); y(5) = ubound(a, 1); y(6) = lbound(a, 2); y(7) = ubound(a, 2);"
             "a(2, -1) = 5; a(0, 2) = 7; y(8) = a(2, -1) + a(0, 2)");
    ck_assert(strstr(xb_build(b), "<xaif:DimensionBounds lower=\"-1\" upper=\"2\"/>"
                                  "<xaif:DimensionBounds lower=\"0\" upper=\"2\"/>") != NULL);
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 8);
    ASSERT_Y(&r, 12, 3, 4, 0, 2, -1, 2, 12);
    run_fini(&r);
}
END_TEST

/* Column-major storage seen through sequence association: a(0:2,-1:2) passed
 * whole to v(12) (§3.2). */
START_TEST(column_major_storage)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 12, "sub flat", "real a(0:2,-1:2); integer i; integer j");
    xg_for(g, "i = 0", "i <= 2", "i = i + 1");
    xg_for(g, "j = -1", "j <= 2", "j = j + 1");
    xg_bb(g, "a(i, j) = 10 * i + j");
    xg_end(g);
    xg_end(g);
    xg_bb(g, "call flat(a, y)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v(12); real o(12)");
    xg *f = xb_cfg(b, "flat", 3, "v o");
    xg_bb(f, "o = v");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 12);
    ASSERT_Y(&r, -1, 9, 19, 0, 10, 20, 1, 11, 21, 2, 12, 22);
    run_fini(&r);
}
END_TEST

START_TEST(whole_array_assignment_and_broadcast)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 7, NULL, "real a(3); real c(3)");
    xg_bb(g, "a = 2.0;"
             "c = a * x(1) + 1;" /* 3 muls, 3 adds */
             "y(1:3) = c + a;"   /* 3 adds */
             "a = c;"
             "y(4) = a(3)");
    /* the right side is evaluated whole before the store: a(2:3) = a(1:2) */
    xg_bb(g,
          "a(1) = 1; a(2) = 2; a(3) = 3; a(2:3) = a(1:2); y(5) = a(1); y(6) = a(2); y(7) = a(3)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 7);
    ASSERT_Y(&r, 4, 4, 4, 2, 1, 1, 2);
    ck_assert_uint_eq(r.st.muls, 3);
    ck_assert_uint_eq(r.st.adds, 6);
    run_fini(&r);
}
END_TEST

/* §4.2: every IndexTriplet form, negative strides, lower bounds != 1. */
START_TEST(array_sections)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 13, NULL, "real a(10); real c(0:4); real m(3,3); integer i; integer j");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "a(i) = i");
    xg_end(g);
    xg_for(g, "i = 0", "i <= 4", "i = i + 1");
    xg_bb(g, "c(i) = i");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_for(g, "j = 1", "j <= 3", "j = j + 1");
    xg_bb(g, "m(i, j) = 10 * i + j");
    xg_end(g);
    xg_end(g);
    xg_bb(g, "y(1) = sum_arr(a(2:8:3));"   /* Index Bound Stride: 2+5+8 */
             "y(2) = sum_arr(a(:3));"      /* Bound: 1+2+3 */
             "y(3) = sum_arr(a(:4:2));"    /* Bound Stride: 1+3 */
             "y(4) = sum_arr(a(8::1));"    /* Index Stride: 8+9+10 */
             "y(5) = sum_arr(a(::3));"     /* Stride: 1+4+7+10 */
             "y(6) = sum_arr(a(4:6));"     /* Index Bound: 4+5+6 */
             "y(7) = sum_arr(a(10:1:-4));" /* 10+6+2 */
             "y(8) = a(2) + a(4);"         /* 6 */
             "a(1:5:2) = 0;"
             "y(9) = sum_arr(a);"               /* 55-1-3-5 */
             "y(10) = sum_arr(c(:2));"          /* from the lower bound 0: 0+1+2 */
             "y(11) = sum_arr(c(3::1));"        /* 3+4 */
             "y(12) = sum_arr(m(2, ::1));"      /* 21+22+23 */
             "y(13) = sum_arr(m(1:3:2, 2:3))"); /* 12+32+13+33 */
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 13);
    ASSERT_Y(&r, 15, 6, 4, 27, 22, 15, 18, 6, 46, 3, 7, 66, 90);
    run_fini(&r);
}
END_TEST

/* size/lbound/ubound of a section: its own shape, lower bounds 1. */
START_TEST(inquiry_of_a_section)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 4, NULL, "real a(10); real m(3,3)");
    xg_bb(g, "y(1) = size(a(2:9:2)); y(2) = size(m(1:3:2, 2:3), 1); y(3) = size(m(2, ::1));"
             "y(4) = ubound(a(3:5), 1)");
    run r;
    /* inquiries of a section see the section's own shape */
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 4);
    ASSERT_Y(&r, 4, 2, 3, 3);
    run_fini(&r);
}
END_TEST

START_TEST(vector_subscripts_and_maxloc)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 10, NULL,
                     "real a(4); real c(3); integer iv(3); integer loc(1); real mm(2,2); "
                     "integer loc2(2)");
    xg_bb(g, "a(1) = 10; a(2) = 40; a(3) = 30; a(4) = 40;"
             "iv(1) = 3; iv(2) = 1; iv(3) = 2;"
             "y(1:3) = a(iv);"                     /* 30, 10, 40 */
             "y(4:4) = a(maxloc_arr(a));"          /* x(maxloc(x)) as in maxLoc: 40 */
             "loc = maxloc_arr(a); y(5) = loc(1);" /* the first maximum: 2 */
             "c(iv) = y(1:3);"                     /* c(3) = 30, c(1) = 10, c(2) = 40 */
             "y(6) = c(1); y(7) = c(3);"
             "mm(1, 1) = 1; mm(2, 1) = 9; mm(1, 2) = 5; mm(2, 2) = 9;"
             "loc2 = maxloc_arr(mm); y(8) = loc2(1); y(9) = loc2(2);" /* (2,1) */
             "loc = minloc_arr(a); y(10) = loc(1)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 10);
    ASSERT_Y(&r, 30, 10, 40, 40, 2, 10, 30, 2, 1, 1);
    run_fini(&r);
}
END_TEST

START_TEST(reductions)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 6, NULL, "real a(4); integer ia(3)");
    xg_bb(g, "a(1) = 3; a(2) = 7; a(3) = 7; a(4) = 1; ia(1) = 4; ia(2) = -2; ia(3) = 9;"
             "y(1) = nc_maxval(a); y(2) = nc_minval(a); y(3) = sum_arr(a);"
             "y(4) = nc_maxval(ia) / 2;" /* an integer: 9/2 = 4 */
             "y(5) = sum_arr(ia) / 2;"   /* 11/2 = 5 */
             "y(6) = nc_minval(ia) * x(1)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 6);
    ASSERT_Y(&r, 7, 1, 18, 4, 5, -1);
    run_fini(&r);
}
END_TEST

START_TEST(transpose_and_reshape)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 6, NULL,
                     "real m(2,3); real t(3,2); real r(3,2); real v(6); integer sh(2); "
                     "integer sh1(1); integer i; integer j");
    xg_for(g, "i = 1", "i <= 2", "i = i + 1");
    xg_for(g, "j = 1", "j <= 3", "j = j + 1");
    xg_bb(g, "m(i, j) = 10 * i + j");
    xg_end(g);
    xg_end(g);
    xg_bb(g, "t = transpose_arr(m); y(1) = t(3, 1); y(2) = t(1, 2);"
             "sh(1) = 3; sh(2) = 2; r = reshape_arr(m, sh);" /* 11 21 12 22 13 23 */
             "y(3) = r(3, 1); y(4) = r(2, 2); y(5) = r(1, 2);"
             "sh1(1) = 6; v = reshape_arr(m, sh1); y(6) = v(4)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 6);
    ASSERT_Y(&r, 13, 21, 12, 13, 22, 22);
    run_fini(&r);
}
END_TEST

/* §1.3 rule 6: local arrays without bounds take their shape from a
 * whole-array assignment, from the subscripts written, or from
 * oad_AllocateMatching. */
START_TEST(local_arrays_without_bounds)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 7, NULL, "real w(:); real u(:); real v(:)");
    xg_bb(g, "w = x * 2; y(1) = size(w); y(2) = w(3);"
             "u(1) = 1; u(4) = 4; y(3) = size(u); y(4) = u(4) + u(2) + u(1);"
             "inline oad_AllocateMatching(v, x); y(5) = size(v); v = 3; y(6) = sum_arr(v);"
             "inline oad_AllocateMatching(v, y); y(7) = size(v)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 3, 7);
    ASSERT_Y(&r, 3, 3, 4, 5, 3, 9, 7);
    run_fini(&r);
}
END_TEST

/* §1.3 rule 6: a later activation reuses the shape learned; its elements
 * start at zero like every local's. */
START_TEST(learned_shape_is_kept_for_later_activations)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 4, "sub s", NULL);
    xg_bb(g, "call s(y(1), y(2), 1); call s(y(3), y(4), 2)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real o1; real o2; integer k; real t(:)");
    xg *f = xb_cfg(b, "s", 3, "o1 o2 k");
    xg_if(f, "k == 1");
    xg_bb(f, "t(2) = 5");
    xg_end(f);
    xg_bb(f, "o1 = size(t); o2 = t(2)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 4);
    ASSERT_Y(&r, 2, 5, 2, 0);
    run_fini(&r);
}
END_TEST

/* Ranks 4 and 5 (array4d, array5d): bounds last dimension first, column-major. */
START_TEST(rank_four_and_five)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 4, "sub pick", "real a(2,3,1:2,0:1); real c(2,1,2,1,3)");
    xg_bb(g, "a(2, 3, 2, 1) = 5; a(1, 2, 1, 0) = 7; c(2, 1, 1, 1, 3) = 9;"
             "call pick(a, c, y)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v(24); real w(12); real o(4)");
    xg *f = xb_cfg(b, "pick", 3, "v w o");
    /* a(2,3,2,1): 1 + 2*(2 + 3*(1 + 2*1)) = 23 from 0; a(1,2,1,0): 2;
     * c(2,1,1,1,3): 1 + 2*(0 + 1*(0 + 2*(0 + 1*2))) = 9 from 0 */
    xg_bb(f, "o(1) = v(24); o(2) = v(3); o(3) = w(10); o(4) = size(v)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 4);
    ASSERT_Y(&r, 5, 7, 9, 24);
    run_fini(&r);
}
END_TEST

/* allocated, oad_AllocateShape (§5.6). */
START_TEST(allocation_helpers)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 5, NULL, "real mm(:,:); real v(:)");
    xg_if(g, "allocated(mm)");
    xg_bb(g, "y(1) = 1");
    xg_else(g);
    xg_bb(g, "y(1) = 2");
    xg_end(g);
    xg_bb(g, "inline oad_AllocateShape(mm, 2, 3); y(2) = size(mm); y(3) = size(mm, 2);"
             "mm(2, 3) = 4; y(4) = mm(2, 3)");
    xg_if(g, "allocated(mm)");
    xg_bb(g, "y(5) = 1");
    xg_else(g);
    xg_bb(g, "y(5) = 2");
    xg_end(g);
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 5);
    ASSERT_Y(&r, 2, 6, 3, 4, 1);
    run_fini(&r);
}
END_TEST

/* ============================================================ calls */

START_TEST(scalar_argument_by_reference)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 4, "sub inc", "real p; real a(3)");
    xg_bb(g, "p = 5; call inc(p); call inc(p); y(1) = p;"
             "y(2) = 0.5; call inc(y(2)); call inc(y(2));"
             "a(2) = 7; call inc(a); call inc(a(2)); y(3) = a(1); y(4) = a(2)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v");
    xg *f = xb_cfg(b, "inc", 3, "v");
    xg_bb(f, "v = v + 1");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 4);
    /* a whole array to a scalar formal: its first element */
    ASSERT_Y(&r, 7, 2.5, 1, 8);
    run_fini(&r);
}
END_TEST

/* §3.2: an element passed to a vector formal: the formal's elements are the
 * consecutive storage elements from it on (also to a formal with lower bound 0). */
START_TEST(element_to_vector_formal)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 4, "sub s3; sub z3", "real a(5); integer i");
    xg_for(g, "i = 1", "i <= 5", "i = i + 1");
    xg_bb(g, "a(i) = i");
    xg_end(g);
    xg_bb(g, "call s3(a(2), y(1)); y(2) = a(4); y(3) = a(5); call z3(a(3), y(4))");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v(3); real s");
    xg *f = xb_cfg(b, "s3", 3, "v s");
    xg_bb(f, "s = v(1) * 100 + v(2) * 10 + v(3); v(3) = 0");
    xb_scope(b, 4, 1);
    xb_syms(b, 4, "real w(0:2); real s");
    xg *h = xb_cfg(b, "z3", 4, "w s");
    xg_bb(h, "s = w(0) * 100 + w(1) * 10 + w(2)"); /* a(3), a(4) = 0, a(5) */
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 4);
    ASSERT_Y(&r, 234, 0, 5, 305);
    run_fini(&r);
}
END_TEST

/* §3.2: a whole 2x2 matrix to x(4) (argumentConversion_4d), and a matrix
 * element to a vector formal (argumentConversion_4a ax(1,2)). */
START_TEST(matrix_to_vector_formal)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 8, "sub cp4", "real m(2,2); real m3(2,3); integer i; integer j");
    xg_bb(g, "m(1, 1) = 11; m(2, 1) = 21; m(1, 2) = 12; m(2, 2) = 22");
    xg_for(g, "i = 1", "i <= 2", "i = i + 1");
    xg_for(g, "j = 1", "j <= 3", "j = j + 1");
    xg_bb(g, "m3(i, j) = 10 * i + j");
    xg_end(g);
    xg_end(g);
    xg_bb(g, "call cp4(m, y); call cp4(m3(1, 2), y(5))");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v(4); real o(4)");
    xg *f = xb_cfg(b, "cp4", 3, "v o");
    xg_bb(f, "o = v");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 8);
    ASSERT_Y(&r, 11, 21, 12, 22, 12, 22, 13, 23);
    run_fini(&r);
}
END_TEST

/* §3.2: a strided section (a row, argumentConversion_4b) is copy-in/copy-out;
 * passed on from the formal as an element it still means the section's elements. */
START_TEST(section_argument_copy_in_copy_out)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 8, "sub dbl; sub two; sub one", "real a(3,3); integer i; integer j");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_for(g, "j = 1", "j <= 3", "j = j + 1");
    xg_bb(g, "a(i, j) = 10 * i + j");
    xg_end(g);
    xg_end(g);
    xg_bb(g, "call dbl(a(2, ::1));"
             "y(1) = a(2, 1); y(2) = a(2, 2); y(3) = a(2, 3); y(4) = a(1, 2); y(5) = a(3, 3);"
             "call two(a(3, 1:3));"
             "y(6) = a(3, 1); y(7) = a(3, 2); y(8) = a(3, 3)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v(3)");
    xg *f = xb_cfg(b, "dbl", 3, "v");
    xg_bb(f, "v(1) = v(1) * 2 + 1; v(2) = v(2) * 2 + 2; v(3) = v(3) * 2 + 3");
    xb_scope(b, 4, 1);
    xb_syms(b, 4, "real v(3)");
    xg *t = xb_cfg(b, "two", 4, "v");
    xg_bb(t, "call one(v(2))");
    xb_scope(b, 5, 1);
    xb_syms(b, 5, "real w(2)");
    xg *o = xb_cfg(b, "one", 5, "w");
    xg_bb(o, "w(1) = 1; w(2) = 2");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 8);
    ASSERT_Y(&r, 43, 46, 49, 12, 33, 31, 1, 2);
    run_fini(&r);
}
END_TEST

/* §3.2: an array formal without bounds takes the actual's shape, lower bounds 1;
 * a section actual gives its own shape and is copied back. */
START_TEST(assumed_shape_formal)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 7, "sub inq", "real m(0:1,3); real q(7)");
    xg_bb(g, "m(1, 3) = 7; call inq(m, y); y(6) = m(0, 1);"
             "call inq(m(0:1, 2:3), q);"
             "y(7) = q(2) * 1000 + q(7) * 100 + q(5) * 10 + m(0, 2) / 42");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real f(:,:); real o(7)");
    xg *f = xb_cfg(b, "inq", 3, "f o");
    xg_bb(f, "o(1) = size(f, 1); o(2) = size(f, 2); o(3) = lbound(f, 1); o(4) = ubound(f, 2);"
             "o(5) = f(2, size(f, 2)); o(7) = size(f); f(1, 1) = 42");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 7);
    /* second call: 2x2, f(2,2) = m(1,3) = 7, f(1,1) is m(0,2) */
    ASSERT_Y(&r, 2, 3, 1, 3, 7, 42, 2471);
    run_fini(&r);
}
END_TEST

/* §3.2: a Constant argument is a fresh temporary of the formal's type. */
START_TEST(constant_arguments)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 3, "sub half; sub twice", NULL);
    xg_bb(g, "call half(7, y(1)); call twice(2.5, y(2)); call twice({real:-1.5e+00:F8}, y(3))");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "integer n; real o");
    xg *h = xb_cfg(b, "half", 3, "n o");
    xg_bb(h, "o = n / 2");
    xb_scope(b, 4, 1);
    xb_syms(b, 4, "real c; real o");
    xg *t = xb_cfg(b, "twice", 4, "c o");
    xg_bb(t, "o = c * 2");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 3);
    ASSERT_Y(&r, 3, 5, -3);
    run_fini(&r);
}
END_TEST

static xb *
globals_doc(const char *test)
{
    xb *b = xb_new(test);
    xg *g = head_cfg(b, 3, 2, "sub acc; real gsum; integer ncalls", NULL);
    xg_bb(g, "call acc(x(1)); call acc(x(3)); y(1) = gsum; y(2) = ncalls");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v");
    xg *f = xb_cfg(b, "acc", 3, "v");
    xg_bb(f, "gsum = gsum + v; ncalls = ncalls + 1");
    return b;
}

/* §1.3 rule 3: scope-1 variables are one storage for every routine and keep
 * their values over all calls of the driver. */
START_TEST(global_variables_are_shared_and_kept)
{
    run r;
    RUN_OK(&r, globals_doc(__func__), XF_DRIVER_PLAIN, 3, 2);
    ASSERT_Y(&r, 2.0, 2);
    run_fini(&r);
    /* dd (h = 0.5) calls head 4 times: gsum = 2, 4.5, 6.5, 9; ncalls = 2, 4, 6, 8 */
    RUN_OK(&r, globals_doc(__func__), XF_DRIVER_DD, 3, 2);
    ASSERT_JAC(&r, 2, 3, (4.5 - 2) / 0.5, (6.5 - 2) / 0.5, (9.0 - 2) / 0.5, /**/ 4, 8, 12);
    run_fini(&r);
}
END_TEST

/* §1.3 rule 4: scope-1 members G_11, G_12 of one common block are one
 * storage; generated symbols (temp, OpenAD_) are not merged. */
START_TEST(common_block_members_merge_by_base_name)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 4,
                     "sub setg; real G_11; real G_12; real OpenAD_Symbol_1; "
                     "real OpenAD_Symbol_2; real T_1 temp; real T_2 temp",
                     NULL);
    xg_bb(g, "call setg(x(3)); y(1) = G_12; y(2) = OpenAD_Symbol_2; y(3) = T_2; y(4) = G_11");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v");
    xg *f = xb_cfg(b, "setg", 3, "v");
    xg_bb(f, "G_11 = v; OpenAD_Symbol_1 = 7; T_1 = 5");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 3, 4);
    ASSERT_Y(&r, 1.5, 0, 0, 1.5);
    run_fini(&r);
}
END_TEST

/* §1.3 rule 2: an internal procedure (scope 3 inside head's scope 2) sees
 * the host's locals of its most recent activation. */
START_TEST(host_association)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 2, "sub inner", "real h");
    xg_bb(g, "h = 3; call inner(); y(1) = h; call inner(); y(2) = h");
    xb_scope(b, 3, 2);
    xb_syms(b, 3, "real q");
    xg *f = xb_cfg(b, "inner", 3, NULL);
    xg_bb(f, "q = q + h * 2; h = q + 1");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 2);
    /* q is inner's local, zero on each call: 6+1 = 7, then 14+1 = 15 */
    ASSERT_Y(&r, 7, 15);
    run_fini(&r);
}
END_TEST

/* §1.3 rule 1: every local (scalar, array, integer) is zero on each activation. */
START_TEST(locals_are_zero_on_each_activation)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 2, "sub cnt", NULL);
    xg_bb(g, "call cnt(y(1)); call cnt(y(2))");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real o; real c; real arr(2); integer k");
    xg *f = xb_cfg(b, "cnt", 3, "o");
    xg_bb(f, "c = c + 1; arr(2) = arr(2) + 5; k = k + 3; o = c * 100 + arr(2) + k");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 2);
    ASSERT_Y(&r, 108, 108);
    run_fini(&r);
}
END_TEST

static xb *
fact_doc(const char *test, const char *arg)
{
    char s[64];
    xb *b = xb_new(test);
    xg *g = head_cfg(b, 1, 1, "sub fact", NULL);
    snprintf(s, sizeof s, "call fact(%s, y(1))", arg);
    xg_bb(g, s);
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "integer n; real r; integer m");
    xg *f = xb_cfg(b, "fact", 3, "n r");
    xg_if(f, "n <= 1");
    xg_bb(f, "r = 1");
    xg_else(f);
    xg_bb(f, "m = n - 1; [rec] call fact(m, r); r = r * n");
    xg_end(f);
    return b;
}

/* A recursive routine: each activation has its own locals (n of one level is
 * m of the level above); the depth limit counts nested calls. */
START_TEST(recursion_and_its_depth_limit)
{
    run r;
    xf_run_limits lim = {.max_depth = 10};
    int rc = run_full(&r, fact_doc(__func__, "5"), XF_DRIVER_PLAIN, 1, 1, 0.5, &lim, NULL);
    ck_assert_msg(rc == 0, "%s", first_message(r.d));
    ASSERT_Y(&r, 120);
    run_fini(&r);
    lim.max_depth = 3;
    run_full(&r, fact_doc(__func__, "5"), XF_DRIVER_PLAIN, 1, 1, 0.5, &lim, NULL);
    expect_fault(&r, "rec", "deeper than 3");
    run_fini(&r);
}
END_TEST

/* §3.2: an omitted argument position is an absent optional argument. */
START_TEST(absent_optional_argument)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 2, "sub opt", NULL);
    xg_bb(g, "call opt(y(1)); call opt(y(2), x(1))");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real o; real a");
    xg *f = xb_cfg(b, "opt", 3, "o a");
    xg_if(f, "present(a)");
    xg_bb(f, "o = a * 10");
    xg_else(f);
    xg_bb(f, "o = -1");
    xg_end(f);
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 2);
    ASSERT_Y(&r, -1, 5);
    run_fini(&r);
}
END_TEST

/* §6.1: the top routine may be head__<n> or OpenAD_head__<n>, with scalar
 * formals (mini1) that see the driver's first element. */
START_TEST(top_routine_names_and_scalar_formals)
{
    static const char *const names[] = {"head__24", "OpenAD_head__7"};
    for (int k = 0; k < 2; k++) {
        char decl[64];
        xb *b = XB_NEW();
        snprintf(decl, sizeof decl, "sub foo; sub %s", names[k]);
        xb_syms(b, 1, decl);
        xb_scope(b, 2, 1);
        xb_syms(b, 2, "real X_1; real Y_2");
        xg_bb(xb_cfg(b, "foo", 2, "X_1 Y_2"), "Y_2 = 0");
        xb_scope(b, 3, 1);
        xb_syms(b, 3, "real X_1; real Y_2");
        xg_bb(xb_cfg(b, names[k], 3, "X_1 Y_2"), "Y_2 = sin_scal(X_1 * X_1)");
        run r;
        RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 1);
        ASSERT_Y(&r, sin(0.25));
        run_fini(&r);
    }
}
END_TEST

/* ============================================================ propagators */

/* §5.2: every DerivativePropagator operation, and what it costs. */
START_TEST(derivative_propagator_operations)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 7, NULL, "real a passive");
    xg_bb(g, "a = 3;"
             "dp SetDeriv(y(1), x(1));"
             "dp SetNegDeriv(y(2), x(2));"
             "dp SetDeriv(y(3), x(1)); dp IncDeriv(y(3), x(2));"
             "dp SetDeriv(y(4), x(1)); dp DecDeriv(y(4), x(2));"
             "dp SetDeriv(y(5), x(2)); dp ZeroDeriv(y(5));"
             "dp Sax(2.5, x(1), a, x(2), y(6));"
             "dp SetDeriv(y(7), x(1)); dp Saxpy(4, x(2), y(7))");
    run r;
    RUN_OK(&r, b, XF_DRIVER_TANGENT, 2, 7);
    ASSERT_JAC(&r, 7, 2, 1, 0, /* SetDeriv */
               0, -1,          /* SetNegDeriv */
               1, 1,           /* IncDeriv */
               1, -1,          /* DecDeriv */
               0, 0,           /* ZeroDeriv */
               2.5, 3,         /* Sax */
               1, 4);          /* Saxpy */
    /* per call: 1 assignment + 11 operations; SetNegDeriv, IncDeriv,
     * DecDeriv one add each, Sax 2 muls + 1 add, Saxpy 1 mul + 1 add;
     * two tangent calls (the preliminary passes are not counted) */
    ck_assert_uint_eq(r.st.statements, 24); /* 2 x 12 */
    ck_assert_uint_eq(r.st.adds, 10);       /* 2 x 5 */
    ck_assert_uint_eq(r.st.muls, 6);        /* 2 x 3 */
    ck_assert_uint_eq(r.st.divs, 0);
    run_fini(&r);
}
END_TEST

static xb *
deriv_attr_doc(const char *test)
{
    xb *b = xb_new(test);
    xg *g = head_cfg(b, 2, 3, NULL, NULL);
    xg_bb(g, "$y(1) = 2 * $x(1) + x(2);"
             "y(2) = 7; $y(2) = $x(2) * x(1);"
             "$y(3) = $x(2); y(3) = 99"); /* a plain assignment leaves the derivative */
    return b;
}

/* §3.1, §4.2: deriv="1" on the LHS writes the derivative component, on a
 * reference reads it. */
START_TEST(deriv_attribute_on_references)
{
    run r;
    RUN_OK(&r, deriv_attr_doc(__func__), XF_DRIVER_TANGENT, 2, 3);
    ASSERT_JAC(&r, 3, 2, 2 + 1.0, 0 + 1.0, /**/ 0, 0.5, /**/ 0, 1);
    run_fini(&r);
    RUN_OK(&r, deriv_attr_doc(__func__), XF_DRIVER_PLAIN, 2, 3);
    ASSERT_Y(&r, 0, 7, 99);
    run_fini(&r);
}
END_TEST

/* §5.2 (-N): a non-inlinable intrinsic applied to derivative components. */
START_TEST(intrinsic_on_derivative_components)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 4, 2, NULL, "real mm(2,2); real tt(2,2)");
    xg_bb(g, "dp SetDeriv(mm(1, 1), x(1)); dp SetDeriv(mm(2, 1), x(2));"
             "dp SetDeriv(mm(1, 2), x(3)); dp SetDeriv(mm(2, 2), x(4));"
             "$tt = transpose_arr($mm);"
             "dp SetDeriv(y(1), tt(1, 2)); dp SetDeriv(y(2), tt(2, 1))");
    run r;
    RUN_OK(&r, b, XF_DRIVER_TANGENT, 4, 2);
    ASSERT_JAC(&r, 2, 4, 0, 1, 0, 0, /**/ 0, 0, 1, 0);
    run_fini(&r);
}
END_TEST

/* §1.3 rule 1: the derivative component of an active local starts at 0 too. */
START_TEST(active_local_derivative_zero_on_each_activation)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 2, "sub acc", NULL);
    xg_bb(g, "call acc(x(1), y(1)); call acc(x(1), y(2))");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v; real o; real t");
    xg *f = xb_cfg(b, "acc", 3, "v o");
    xg_bb(f, "dp IncDeriv(t, v); dp SetDeriv(o, t)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_TANGENT, 1, 2);
    ASSERT_JAC(&r, 2, 1, 1, 1);
    run_fini(&r);
}
END_TEST

/* §6.2: one direction per call; y is not reset between calls. */
START_TEST(tangent_driver_keeps_y_between_directions)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 2, NULL, NULL);
    xg_bb(g, "y(1) = y(1) + x(1); dp Sax(2, x(1), 1, y(1), y(1));"
             "x(1) = x(1) + 1; $y(2) = x(1)"); /* x is reset to x0 for each direction */
    run r;
    RUN_OK(&r, b, XF_DRIVER_TANGENT, 2, 2);
    /* direction 1: 2*1 + 0; direction 2: 2*0 + 2 (left over) */
    ASSERT_JAC(&r, 2, 2, 2, 2, /**/ 1.5, 1.5);
    run_fini(&r);
}
END_TEST

/* §5.2: propagators on arrays work elementwise; a vector factor A (abs_f_arg). */
START_TEST(propagators_on_arrays)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 3, NULL, "real lin(3) passive");
    xg_bb(g, "lin(1) = 1; lin(2) = 2; lin(3) = 3; dp Sax(lin, x, y); dp Saxpy({integer:-1}, x(1), "
             "y(3))");
    run r;
    RUN_OK(&r, b, XF_DRIVER_TANGENT, 3, 3);
    ASSERT_JAC(&r, 3, 3, 1, 0, 0, /**/ 0, 2, 0, /**/ -1, 0, 3);
    run_fini(&r);
}
END_TEST

/* ============================================================ inlinable calls */

START_TEST(tape_scalars_lifo)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 5, NULL,
                     "real a; real c; integer i; integer j; integer k; integer l; real r");
    xg_bb(g, "a = 1; c = 2; i = 4; j = 9;"
             "inline push_s0(a); inline push_s0(c); inline push_s0(x(3));"
             "inline push_i_s0(i); inline push_i_s0(j);"
             "inline pop_i_s0(k); inline pop_i_s0(l);"
             "inline pop_s0(y(1)); inline pop_s0(y(2)); inline pop_s0(y(3));"
             "y(4) = k * 10 + l;"
             "inline push_s0(i); inline pop_s0(r); y(5) = r / 8"); /* an integer on the real tape */
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 3, 5);
    ASSERT_Y(&r, 1.5, 2, 1, 94, 0.5);
    ck_assert_uint_eq(r.st.push[XF_WORD_REAL], 4);
    ck_assert_uint_eq(r.st.pop[XF_WORD_REAL], 4);
    ck_assert_uint_eq(r.st.push[XF_WORD_INT], 2);
    ck_assert_uint_eq(r.st.pop[XF_WORD_INT], 2);
    ck_assert_int_eq(r.st.peak_tape, 5);
    ck_assert_uint_eq(r.st.cp_push[XF_WORD_REAL], 0);
    run_fini(&r);
}
END_TEST

/* §5.6: push_s1/push_s2 push all elements column-major (the last on top);
 * pop_s1/pop_s2 restore them in the same order. */
START_TEST(tape_vector_and_matrix_blocks)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 9, NULL,
                     "real v(3); real w(3); real m(2,2); real mm(2,2); real a; real c; "
                     "integer iv(2); integer jv(2)");
    xg_bb(g, "v(1) = 1; v(2) = 2; v(3) = 3; m(1, 1) = 11; m(2, 1) = 21; m(1, 2) = 12;"
             "m(2, 2) = 22; a = 7;"
             "inline push_s0(a); inline push_s1(v); inline push_s2(m);"
             "inline pop_s2(mm); inline pop_s1(w); inline pop_s0(c);"
             "y(1) = w(1); y(2) = w(3); y(3) = mm(2, 1); y(4) = mm(1, 2); y(5) = c;"
             "inline push_s1(v); inline pop_s0(y(6)); inline pop_s0(y(7)); inline pop_s0(y(8));"
             "iv(1) = 5; iv(2) = 6; inline push_i_s1(iv); inline pop_i_s1(jv);"
             "y(9) = jv(1) * 10 + jv(2)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 9);
    ASSERT_Y(&r, 1, 3, 21, 12, 7, 3, 2, 1, 56);
    ck_assert_uint_eq(r.st.push[XF_WORD_REAL], 11);
    ck_assert_uint_eq(r.st.pop[XF_WORD_REAL], 11);
    ck_assert_uint_eq(r.st.push[XF_WORD_INT], 2);
    ck_assert_int_eq(r.st.peak_tape, 8);
    run_fini(&r);
}
END_TEST

/* §5.6: Saxpy(a, x, y): y.d += x.d*a; IncDeriv(x, y): y.d += x.d (the first
 * argument is the source); DecDeriv; ZeroDeriv. */
START_TEST(inline_derivative_operations)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 4, NULL, "real a passive");
    xg_bb(g, "a = 0.5;"
             "inline ZeroDeriv(y(1)); inline Saxpy(3, x(1), y(1)); inline Saxpy(a, x(2), y(1));"
             "inline ZeroDeriv(y(2)); inline IncDeriv(x(2), y(2));"
             "inline ZeroDeriv(y(3)); inline DecDeriv(x(1), y(3));"
             "inline IncDeriv(x(1), y(4)); inline ZeroDeriv(y(4))");
    run r;
    RUN_OK(&r, b, XF_DRIVER_TANGENT, 2, 4);
    ASSERT_JAC(&r, 4, 2, 3, 0.5, /**/ 0, 1, /**/ -1, 0, /**/ 0, 0);
    /* per call: 10 statements; Saxpy 1 mul + 1 add, IncDeriv and DecDeriv 1 add */
    ck_assert_uint_eq(r.st.statements, 20); /* 2 x 10 */
    ck_assert_uint_eq(r.st.muls, 4);        /* 2 x 2 */
    ck_assert_uint_eq(r.st.adds, 10);       /* 2 x 5 */
    run_fini(&r);
}
END_TEST

/* §5.6: on vectors they act elementwise, a scalar broadcasts. */
START_TEST(inline_operations_on_vectors)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 3, NULL, NULL);
    xg_bb(g, "inline ZeroDeriv(y); inline Saxpy(2, x, y); inline IncDeriv(x(1), y)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_TANGENT, 3, 3);
    ASSERT_JAC(&r, 3, 3, 3, 0, 0, /**/ 1, 2, 0, /**/ 1, 0, 2);
    run_fini(&r);
}
END_TEST

static xb *
convert_doc(const char *test)
{
    xb *b = xb_new(test);
    xg *g = head_cfg(b, 2, 2, NULL, "real p passive; real c passive");
    xg_bb(g, "c = 5; dp SetDeriv(y(1), x(1)); inline oad_convert(y(1), c);"
             "dp ZeroDeriv(y(2)); inline oad_convert(p, x(2)); inline oad_convert(y(2), x(2));"
             "y(2) = y(2) + p");
    return b;
}

/* §5.6: oad_convert copies values only; the derivatives stay. */
START_TEST(oad_convert_copies_values_only)
{
    run r;
    RUN_OK(&r, convert_doc(__func__), XF_DRIVER_PLAIN, 2, 2);
    ASSERT_Y(&r, 5, 2.0);
    run_fini(&r);
    RUN_OK(&r, convert_doc(__func__), XF_DRIVER_TANGENT, 2, 2);
    ASSERT_JAC(&r, 2, 2, 1, 0, /**/ 0, 0);
    run_fini(&r);
}
END_TEST

/* §5.6: cp_arg_restore_* pops in reverse order of the stores: each variable
 * gets its own value back; integers go to their own stack. */
START_TEST(checkpoint_store_and_restore)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 5, NULL, "real a; real c; integer i; real v(2)");
    xg_bb(g, "a = 1; c = 2; i = 3; v(1) = 4; v(2) = 5;"
             "inline cp_arg_store_real_scalar(a); inline cp_arg_store_integer_scalar(i);"
             "inline cp_arg_store_real_vector(v); inline cp_arg_store_real_scalar(c);"
             "a = 0; c = 0; i = 0; v = 0;"
             "inline cp_arg_restore_real_scalar(c); inline cp_arg_restore_real_vector(v);"
             "inline cp_arg_restore_integer_scalar(i); inline cp_arg_restore_real_scalar(a);"
             "y(1) = a; y(2) = c; y(3) = i; y(4) = v(1); y(5) = v(2)");
    run r;
    RUN_OK(&r, b, XF_DRIVER_PLAIN, 1, 5);
    ASSERT_Y(&r, 1, 2, 3, 4, 5);
    ck_assert_uint_eq(r.st.cp_push[XF_WORD_REAL], 4);
    ck_assert_uint_eq(r.st.cp_pop[XF_WORD_REAL], 4);
    ck_assert_uint_eq(r.st.cp_push[XF_WORD_INT], 1);
    ck_assert_uint_eq(r.st.cp_pop[XF_WORD_INT], 1);
    ck_assert_int_eq(r.st.peak_cp, 5);
    ck_assert_uint_eq(r.st.push[XF_WORD_REAL], 0);
    ck_assert_int_eq(r.st.peak_tape, 0);
    run_fini(&r);
}
END_TEST

static xb *
checkpoint_d_doc(const char *test)
{
    xb *b = xb_new(test);
    xg *g = head_cfg(b, 1, 2, NULL, "real t");
    xg_bb(g, "t = 7; dp SetDeriv(t, x(1));"
             "inline cp_arg_store_real_scalar_a_d(t);" /* the derivative */
             "inline cp_arg_store_real_scalar_a(t);"   /* the value */
             "t = 0; dp ZeroDeriv(t);"
             "inline cp_arg_restore_real_scalar_a(t);" /* t = 7, t.d stays 0 */
             "y(1) = t; dp SetDeriv(y(1), t);"
             "inline cp_arg_restore_real_scalar_a_d(t);" /* t.d = x.d, t stays 7 */
             "t = t + 1; y(2) = t; dp SetDeriv(y(2), t)");
    return b;
}

/* §5.6: _a stores the value of an active variable, _a_d its derivative. */
START_TEST(checkpoint_derivative_variants)
{
    run r;
    RUN_OK(&r, checkpoint_d_doc(__func__), XF_DRIVER_PLAIN, 1, 2);
    ASSERT_Y(&r, 7, 8);
    run_fini(&r);
    RUN_OK(&r, checkpoint_d_doc(__func__), XF_DRIVER_TANGENT, 1, 2);
    ASSERT_JAC(&r, 2, 1, 0, 1);
    run_fini(&r);
}
END_TEST

/* ============================================================ templates */

/* head as a ReplacementList whose placeholders count their runs in scope-1
 * integers; placeholder 1 reports in y, placeholder 3 in x(1).d. */
static xb *
placeholders_doc(const char *test)
{
    static const char report[] = "n1 * 10000 + n2 * 1000 + n3 * 100 + n4 * 10 + n6";
    char s[256];
    xb *b = xb_new(test);
    xb_syms(b, 1, "sub head; integer n1; integer n2; integer n3; integer n4; integer n6");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(2)");
    xb_routine *r = xb_rlist(b, "head", 2, "x y");
    snprintf(s, sizeof s, "n1 = n1 + 1; y(1) = x(1) * 2; y(2) = %s", report);
    xg_bb(xr_ph(r, b, 1), s);
    xg_bb(xr_ph(r, b, 2), "n2 = n2 + 1");
    snprintf(s, sizeof s, "n3 = n3 + 1; $x(1) = %s", report);
    xg_bb(xr_ph(r, b, 3), s);
    xg_bb(xr_ph(r, b, 4), "n4 = n4 + 1");
    xg_bb(xr_ph(r, b, 6), "n6 = n6 + 1");
    return b;
}

/* §5.4, §6: plain and dd run placeholder 1; joint and split run 2 then 3
 * once per sweep; the top-level call neither stores nor restores. */
START_TEST(placeholders_run_by_each_driver)
{
    run r;
    RUN_OK(&r, placeholders_doc(__func__), XF_DRIVER_PLAIN, 1, 2);
    ASSERT_Y(&r, 1.0, 10000);
    run_fini(&r);
    RUN_OK(&r, placeholders_doc(__func__), XF_DRIVER_DD, 1, 2);
    ASSERT_JAC(&r, 2, 1, (2.0 - 1.0) / 0.5, (20000.0 - 10000.0) / 0.5);
    run_fini(&r);
    /* the dd pass ran placeholder 1 twice; sweep k ran 2 and 3 k times */
    RUN_OK(&r, placeholders_doc(__func__), XF_DRIVER_ADJOINT_JOINT, 1, 2);
    ASSERT_JAC(&r, 2, 1, 21100, 22200);
    run_fini(&r);
    RUN_OK(&r, placeholders_doc(__func__), XF_DRIVER_ADJOINT_SPLIT, 1, 2);
    ASSERT_JAC(&r, 2, 1, 21100, 22200);
    run_fini(&r);
}
END_TEST

/* head calls sq(u, w): w = u*u, both ReplacementLists. Joint mode: while
 * head tapes, sq stores its argument (4) and runs plain (1); head then
 * overwrites the actual (t = 100); head's adjoint sweep makes sq restore it
 * (6), tape (2) and run its adjoint (3). Without the restore the adjoint
 * would use 100. x(2).d reports the placeholder counts. */
static xb *
nested_adjoint_doc(const char *test)
{
    xb *b = xb_new(test);
    xb_syms(b, 1, "sub head; sub sq; integer c1; integer c2; integer c3; integer c4; integer c6");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(2); real y(1); real t");
    xb_routine *h = xb_rlist(b, "head", 2, "x y");
    xg_bb(xr_ph(h, b, 1), "call sq(x(1), y(1))");
    xg_bb(xr_ph(h, b, 2), "t = x(1); call sq(t, y(1)); t = 100");
    xg_bb(xr_ph(h, b, 3), "call sq(t, y(1)); inline IncDeriv(t, x(1));"
                          "$x(2) = c1 * 10000 + c2 * 1000 + c3 * 100 + c4 * 10 + c6");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real u; real w; real p passive; real f passive");
    xb_routine *s = xb_rlist(b, "sq", 3, "u w");
    xg_bb(xr_ph(s, b, 1), "c1 = c1 + 1; w = u * u");
    xg_bb(xr_ph(s, b, 2), "c2 = c2 + 1; w = u * u; inline push_s0(u)");
    xg_bb(xr_ph(s, b, 3), "c3 = c3 + 1; inline pop_s0(p); f = 2 * p; inline Saxpy(f, w, u);"
                          "inline ZeroDeriv(w)");
    xg_bb(xr_ph(s, b, 4), "c4 = c4 + 1; inline cp_arg_store_real_scalar_a(u)");
    xg_bb(xr_ph(s, b, 6), "c6 = c6 + 1; inline cp_arg_restore_real_scalar_a(u)");
    return b;
}

START_TEST(nested_call_joint_restores_arguments)
{
    run r;
    /* dd: head(x) = x(1)**2 through placeholder 1, h = 0.5: (1 - 0.25)/0.5 */
    RUN_OK(&r, nested_adjoint_doc(__func__), XF_DRIVER_DD, 2, 1);
    ASSERT_JAC(&r, 1, 2, 1.5, 0);
    run_fini(&r);
    /* joint: dd pass 3 x (1); the sweep: sq 4, 1, then 6, 2, 3 */
    RUN_OK(&r, nested_adjoint_doc(__func__), XF_DRIVER_ADJOINT_JOINT, 2, 1);
    ASSERT_JAC(&r, 1, 2, 2 * x0(1), 41111);
    ck_assert_uint_eq(r.st.cp_push[XF_WORD_REAL], 1);
    ck_assert_uint_eq(r.st.cp_pop[XF_WORD_REAL], 1);
    ck_assert_uint_eq(r.st.push[XF_WORD_REAL], 1);
    ck_assert_uint_eq(r.st.pop[XF_WORD_REAL], 1);
    run_fini(&r);
    /* split: dd pass 3 x (1); the taping sweep 2, the adjoint sweep 3 */
    RUN_OK(&r, nested_adjoint_doc(__func__), XF_DRIVER_ADJOINT_SPLIT, 2, 1);
    ASSERT_JAC(&r, 1, 2, 2 * x0(1), 31100);
    ck_assert_uint_eq(r.st.cp_push[XF_WORD_REAL], 0);
    ck_assert_uint_eq(r.st.push[XF_WORD_REAL], 1);
    run_fini(&r);
}
END_TEST

/* Joint mode three levels deep: head -> a -> b. Each placeholder appends its
 * digit to a trace (a: 1 2 3 4 6, b: 7 8 9 5 0 for 1 2 3 4 6). While head
 * tapes, a stores (4) and runs plain (1), b only plain (7); head's adjoint
 * makes a restore (6) and tape (2) -- now b stores (5) and runs plain (7) --
 * then a's adjoint (3) makes b restore (0), tape (8) and reverse (9). */
static xb *
three_levels_doc(const char *test)
{
    xb *b = xb_new(test);
    xb_syms(b, 1, "sub head; sub a; sub b; integer trace");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(1)");
    xb_routine *h = xb_rlist(b, "head", 2, "x y");
    xg_bb(xr_ph(h, b, 1), "call a(x(1))");
    xg_bb(xr_ph(h, b, 2), "trace = 0; call a(x(1))");
    xg_bb(xr_ph(h, b, 3), "call a(x(1)); $x(1) = trace");
    static const char *const names[] = {"a", "b"};
    static const char digits[2][14] = {{0, '1', '2', '3', '4', 0, '6'},
                                       {0, '7', '8', '9', '5', 0, '0'}};
    for (int k = 0; k < 2; k++) {
        xb_scope(b, 3 + k, 1);
        xb_syms(b, 3 + k, "real u");
        xb_routine *r = xb_rlist(b, names[k], 3 + k, "u");
        static const int ph[] = {1, 2, 3, 4, 6};
        for (int j = 0; j < 5; j++) {
            char st[96];
            snprintf(st, sizeof st, "trace = trace * 10 + %c%s", digits[k][ph[j]],
                     k == 0 && ph[j] <= 3 ? "; call b(u)" : "");
            xg_bb(xr_ph(r, b, ph[j]), st);
        }
    }
    return b;
}

START_TEST(joint_template_three_levels)
{
    run r;
    RUN_OK(&r, three_levels_doc(__func__), XF_DRIVER_ADJOINT_JOINT, 1, 1);
    ASSERT_JAC(&r, 1, 1, 41762573089.0);
    run_fini(&r);
    RUN_OK(&r, three_levels_doc(__func__), XF_DRIVER_ADJOINT_SPLIT, 1, 1);
    ASSERT_JAC(&r, 1, 1, 2839);
    run_fini(&r);
}
END_TEST

/* y(1) = x(1)*x(2), y(2) = sin(x(1)) as xaifBooster would reverse it. */
static xb *
adjoint_doc(const char *test)
{
    xb *b = xb_new(test);
    xb_syms(b, 1, "sub head");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(2); real y(2); real l1 passive; real l2 passive; real l3 passive");
    xb_routine *r = xb_rlist(b, "head", 2, "x y");
    xg_bb(xr_ph(r, b, 1), "y(1) = x(1) * x(2); y(2) = sin_scal(x(1))");
    xg_bb(xr_ph(r, b, 2), "l1 = x(2); l2 = x(1); l3 = cos_scal(x(1));"
                          "y(1) = x(1) * x(2); y(2) = sin_scal(x(1));"
                          "inline push_s0(l1); inline push_s0(l2); inline push_s0(l3)");
    xg_bb(xr_ph(r, b, 3), "inline pop_s0(l3); inline pop_s0(l2); inline pop_s0(l1);"
                          "inline Saxpy(l3, y(2), x(1)); inline ZeroDeriv(y(2));"
                          "inline Saxpy(l1, y(1), x(1)); inline Saxpy(l2, y(1), x(2));"
                          "inline ZeroDeriv(y(1))");
    return b;
}

/* §6.3: joint and split give the same Jacobian (input index outer). */
START_TEST(joint_and_split_agree)
{
    run r;
    RUN_OK(&r, adjoint_doc(__func__), XF_DRIVER_ADJOINT_JOINT, 2, 2);
    ASSERT_JAC(&r, 2, 2, x0(2), x0(1), /**/ cos(x0(1)), 0);
    /* per sweep 3 words pushed and popped */
    ck_assert_uint_eq(r.st.push[XF_WORD_REAL], 6);
    ck_assert_uint_eq(r.st.pop[XF_WORD_REAL], 6);
    ck_assert_int_eq(r.st.peak_tape, 3);
    run_fini(&r);
    RUN_OK(&r, adjoint_doc(__func__), XF_DRIVER_ADJOINT_SPLIT, 2, 2);
    ASSERT_JAC(&r, 2, 2, x0(2), x0(1), /**/ cos(x0(1)), 0);
    run_fini(&r);
    RUN_OK(&r, adjoint_doc(__func__), XF_DRIVER_PLAIN, 2, 2);
    ASSERT_Y(&r, x0(1) * x0(2), sin(x0(1)));
    run_fini(&r);
}
END_TEST

/* §1.3 rule 3: the scope of a module's routine body is static storage, in
 * a tangent document (a CFG without Entry) and in an adjoint one (a
 * ReplacementList whose code placeholders are empty, as xaifBooster writes
 * modules: only checkpoint placeholders have an Entry). */
static xb *
module_doc(const char *test, bool adjoint)
{
    xb *b = xb_new(test);
    xb_syms(b, 1, "sub head; sub mymod");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(2)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real mv");
    const char *code = "mv@3 = mv@3 + x(1) * 2; y(1) = mv@3";
    if (adjoint) {
        xb_routine *m = xb_rlist(b, "mymod", 3, NULL);
        xg_bb(xr_ph(m, b, 4), "marker");
        xg_bb(xr_ph(m, b, 6), "marker");
        xb_routine *h = xb_rlist(b, "head", 2, "x y");
        xg_bb(xr_ph(h, b, 1), code);
    } else {
        xb_cfg_empty(b, "mymod", 3);
        xg_bb(xb_cfg(b, "head", 2, "x y"), code);
    }
    return b;
}

START_TEST(module_scope_variables_are_static)
{
    run r;
    RUN_OK(&r, module_doc(__func__, false), XF_DRIVER_PLAIN, 1, 2);
    ASSERT_Y(&r, 1.0, 0);
    run_fini(&r);
    /* a module's list has only checkpoint placeholders: its scope is static */
    RUN_OK(&r, module_doc(__func__, true), XF_DRIVER_PLAIN, 1, 2);
    ASSERT_Y(&r, 1.0, 0);
    run_fini(&r);
}
END_TEST

/* §6.3: each sweep starts from x = x0, x.d = 0, y = 0, y.d = e_i. */
static xb *
sweep_start_doc(const char *test)
{
    xb *b = xb_new(test);
    xb_syms(b, 1, "sub head");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(2)");
    xb_routine *r = xb_rlist(b, "head", 2, "x y");
    xg_bb(xr_ph(r, b, 2), "y(1) = y(1) + x(1); x(1) = x(1) * 3");
    xg_bb(xr_ph(r, b, 3), "$x(1) = $x(1) + y(1) * 1000 + x(1) * 10 + $y(1) + 2 * $y(2);"
                          "$y(1) = 7; $y(2) = 7");
    return b;
}

START_TEST(adjoint_sweeps_start_afresh)
{
    run r;
    RUN_OK(&r, sweep_start_doc(__func__), XF_DRIVER_ADJOINT_JOINT, 1, 2);
    ASSERT_JAC(&r, 2, 1, 500 + 15 + 1, 500 + 15 + 2);
    run_fini(&r);
    RUN_OK(&r, sweep_start_doc(__func__), XF_DRIVER_ADJOINT_SPLIT, 1, 2);
    ASSERT_JAC(&r, 2, 1, 500 + 15 + 1, 500 + 15 + 2);
    run_fini(&r);
}
END_TEST

/* §5.2 table, §5.4: the placeholders of one activation share its locals
 * (joint: taping and adjoint in one call); split runs the adjoint sweep in
 * a call of its own, whose locals start at zero. */
static xb *
locals_across_placeholders_doc(const char *test)
{
    xb *b = xb_new(test);
    xb_syms(b, 1, "sub head");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(1); real s");
    xb_routine *r = xb_rlist(b, "head", 2, "x y");
    xg_bb(xr_ph(r, b, 2), "s = 5");
    xg_bb(xr_ph(r, b, 3), "$x(1) = s + 1");
    return b;
}

START_TEST(placeholders_share_the_activation)
{
    run r;
    RUN_OK(&r, locals_across_placeholders_doc(__func__), XF_DRIVER_ADJOINT_JOINT, 1, 1);
    ASSERT_JAC(&r, 1, 1, 6);
    run_fini(&r);
    RUN_OK(&r, locals_across_placeholders_doc(__func__), XF_DRIVER_ADJOINT_SPLIT, 1, 1);
    ASSERT_JAC(&r, 1, 1, 1);
    run_fini(&r);
}
END_TEST

/* Joint mode, two calls of sq: the checkpoints nest (last stored, first restored). */
static xb *
two_calls_doc(const char *test)
{
    xb *b = xb_new(test);
    xb_syms(b, 1, "sub head; sub sq");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(2); real y(2); real t1; real t2");
    xb_routine *h = xb_rlist(b, "head", 2, "x y");
    xg_bb(xr_ph(h, b, 1), "call sq(x(1), y(1)); call sq(x(2), y(2))");
    xg_bb(xr_ph(h, b, 2), "t1 = x(1); call sq(t1, y(1)); t2 = x(2); call sq(t2, y(2));"
                          "t1 = 100; t2 = 200");
    xg_bb(xr_ph(h, b, 3), "call sq(t2, y(2)); inline IncDeriv(t2, x(2));"
                          "call sq(t1, y(1)); inline IncDeriv(t1, x(1))");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real u; real w; real p passive; real f passive");
    xb_routine *s = xb_rlist(b, "sq", 3, "u w");
    xg_bb(xr_ph(s, b, 1), "w = u * u");
    xg_bb(xr_ph(s, b, 2), "w = u * u; inline push_s0(u)");
    xg_bb(xr_ph(s, b, 3),
          "inline pop_s0(p); f = 2 * p; inline Saxpy(f, w, u); inline ZeroDeriv(w)");
    xg_bb(xr_ph(s, b, 4), "inline cp_arg_store_real_scalar_a(u)");
    xg_bb(xr_ph(s, b, 6), "inline cp_arg_restore_real_scalar_a(u)");
    return b;
}

START_TEST(joint_checkpoints_nest)
{
    run r;
    RUN_OK(&r, two_calls_doc(__func__), XF_DRIVER_ADJOINT_JOINT, 2, 2);
    ASSERT_JAC(&r, 2, 2, 2 * x0(1), 0, /**/ 0, 2 * x0(2));
    ck_assert_int_eq(r.st.peak_cp, 2);
    run_fini(&r);
    RUN_OK(&r, two_calls_doc(__func__), XF_DRIVER_ADJOINT_SPLIT, 2, 2);
    ASSERT_JAC(&r, 2, 2, 2 * x0(1), 0, /**/ 0, 2 * x0(2));
    run_fini(&r);
}
END_TEST

/* ============================================================ drivers, format */

START_TEST(dd_driver_and_its_printout)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 2, NULL, NULL);
    xg_bb(g, "y(1) = x(1) * x(1) + x(2); y(2) = x(1) * x(2)");
    run r;
    const double h = 0.5, a = x0(1), c = x0(2);
    RUN_OK(&r, b, XF_DRIVER_DD, 2, 2);
    ASSERT_JAC(&r, 2, 2, ((a + h) * (a + h) + c - (a * a + c)) / h,
               (a * a + c + h - (a * a + c)) / h,
               /**/ ((a + h) * c - a * c) / h, (a * (c + h) - a * c) / h);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    xf_jacobian_print(f, &r.J, " DD");
    fclose(f);
    ck_assert_str_eq(text, " DD\n"
                           "F(  1,  1)=   1.5000000000000000E+000\n"
                           "F(  2,  1)=   1.0000000000000000E+000\n"
                           "F(  1,  2)=   1.0000000000000000E+000\n"
                           "F(  2,  2)= 500.0000000000000000E-003\n");
    free(text);
    run_fini(&r);
}
END_TEST

/* §6.5: EN26.16E3, rounded to 19 digits, then half-up. The first two are
 * lines of ref/ad.out (cos_f_arg, ConsFold); 31.2499... is graphEx1's case
 * where correct single rounding would end in 64. */
START_TEST(format_en)
{
    static const struct {
        double v;
        const char *s;
    } cases[] = {
        {0.0, "   0.0000000000000000E+000"},
        {999.99999999999999999, "   1.0000000000000000E+003"},
        {1234.5, "   1.2345000000000000E+003"},
        {123456.789, " 123.4567890000000043E+003"},
        {0.5, " 500.0000000000000000E-003"},
        {-2.0, "  -2.0000000000000000E+000"},
        {1e300, "   1.0000000000000001E+300"},
        {2.5e-7, " 249.9999999999999887E-009"},
        {1e-3, "   1.0000000000000000E-003"},
    };
    char buf[64];
    xf_format_en(-sin(0.5), buf);
    ck_assert_str_eq(buf, "-479.4255386042030054E-003");
    xf_format_en(exp(0.5), buf);
    ck_assert_str_eq(buf, "   1.6487212707001282E+000");
    xf_format_en(nextafter(31.25, 0.0), buf);
    ck_assert_str_eq(buf, "  31.2499999999999965E+000");
    xf_format_en(nextafter(1e-3, 0.0), buf);
    ck_assert_str_eq(buf, " 999.9999999999998040E-006");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        xf_format_en(cases[k].v, buf);
        ck_assert_str_eq(buf, cases[k].s);
        ck_assert_uint_eq(strlen(buf), 26);
    }
}
END_TEST

/* A file in /tmp with @text; the caller unlinks @path. */
static void
temp_file(char *path, size_t n, const char *text)
{
    snprintf(path, n, "/tmp/xf_test_run_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(jacobian_print_and_read_round_trip)
{
    double vals[] = {0.5, -sin(0.5), exp(0.5), 1234.5, 0.0, -1e-300};
    xf_jacobian j = {.m = 3, .n = 2, .f = vals};
    char path[64];
    snprintf(path, sizeof path, "/tmp/xf_test_run_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    xf_jacobian_print(f, &j, " AD");
    fclose(f);
    f = fopen(path, "r");
    char text[1024] = "";
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = 0;
    ck_assert_str_eq(text, " AD\n"
                           "F(  1,  1)= 500.0000000000000000E-003\n"
                           "F(  2,  1)=-479.4255386042030054E-003\n"
                           "F(  3,  1)=   1.6487212707001282E+000\n"
                           "F(  1,  2)=   1.2345000000000000E+003\n"
                           "F(  2,  2)=   0.0000000000000000E+000\n"
                           "F(  3,  2)=  -1.0000000000000000E-300\n");
    xf_diag *d = xf_diag_new(NULL);
    xf_jacobian back;
    ck_assert_int_eq(xf_jacobian_read(path, &back, d), 0);
    unlink(path);
    ck_assert_int_eq(back.m, 3);
    ck_assert_int_eq(back.n, 2);
    for (int k = 0; k < 6; k++)
        ck_assert_msg(back.f[k] == vals[k], "entry %d: %.17g, want %.17g", k, back.f[k], vals[k]);
    xf_jacobian_fini(&back);
    /* a line that is no entry */
    temp_file(path, sizeof path, " AD\nF(  1,  1)= 1.0E+000\nF(  2,  1)= abc\n");
    ck_assert_int_eq(xf_jacobian_read(path, &back, d), -1);
    ck_assert_ptr_null(back.f);
    char where[96];
    snprintf(where, sizeof where, "%s:3:", path);
    ck_assert_msg(strstr(first_message(d), where) != NULL, "%s", first_message(d));
    unlink(path);
    xf_diag_free(d);
}
END_TEST

/* §6.1: n, m, h (Fortran notation, D exponents), the tolerance. */
START_TEST(params_read)
{
    char path[64];
    xf_params p;
    xf_diag *d = xf_diag_new(NULL);
    temp_file(path, sizeof path, "2\n3\n1.0D-8\n0.00001\n");
    ck_assert_int_eq(xf_params_read(path, &p, d), 0);
    unlink(path);
    ck_assert_int_eq(p.n, 2);
    ck_assert_int_eq(p.m, 3);
    ck_assert(p.h == 1.0e-8);
    ck_assert(p.tol == 0.00001);
    temp_file(path, sizeof path,
              "4 \n1 \n0.1D-8\n0.000001\n"); /* trailing blanks as in the corpus */
    ck_assert_int_eq(xf_params_read(path, &p, d), 0);
    unlink(path);
    ck_assert_int_eq(p.n, 4);
    ck_assert_int_eq(p.m, 1);
    ck_assert(p.h == 0.1e-8);
    ck_assert(p.tol == 0.000001);
    /* no 4th line: n, m and h are enough */
    temp_file(path, sizeof path, "1\n1\n0.00001\n");
    ck_assert_msg(xf_params_read(path, &p, d) == 0, "%s", first_message(d));
    unlink(path);
    ck_assert_int_eq(p.n, 1);
    ck_assert(p.h == 0.00001);
    /* no final newline (dfdcfj) */
    temp_file(path, sizeof path, "25\n25\n0.0001\n0.0001");
    ck_assert_int_eq(xf_params_read(path, &p, d), 0);
    unlink(path);
    ck_assert_int_eq(p.n, 25);
    ck_assert(p.tol == 0.0001);
    /* F8.1 without a decimal point: the last digit is the fraction */
    temp_file(path, sizeof path, "1\n1\n5\n");
    ck_assert_int_eq(xf_params_read(path, &p, d), 0);
    unlink(path);
    ck_assert(p.h == 0.5);
    /* too short */
    xf_diag_clear(d);
    temp_file(path, sizeof path, "1\n1\n");
    ck_assert_int_eq(xf_params_read(path, &p, d), -1);
    ck_assert(strstr(first_message(d), path) != NULL);
    unlink(path);
    xf_diag_free(d);
}
END_TEST

/* F8.1 with an exponent but no decimal point: "9D-9" is 0.9 x 10**-9, the
 * decimal value correctly rounded as a Fortran read gives it. */
START_TEST(params_read_implied_point_with_exponent)
{
    char path[64];
    xf_params p;
    xf_diag *d = xf_diag_new(NULL);
    temp_file(path, sizeof path, "1\n1\n9D-9\n1D-10\n");
    int rc = xf_params_read(path, &p, d);
    unlink(path);
    xf_diag_free(d);
    ck_assert_int_eq(rc, 0);
    /* the implied decimal point with an exponent: one rounding */
    ck_assert_msg(p.h == 0.9e-9, "h = %.17g", p.h);
    ck_assert_msg(p.tol == 0.1e-10, "tol = %.17g", p.tol);
}
END_TEST

/* ============================================================ faults */

START_TEST(fault_index_out_of_bounds)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 2, NULL, NULL);
    xg_bb(g, "[ok1@16] y(1) = x(3); [bad@17] y(2) = x(4)");
    run r;
    run_drv(&r, b, XF_DRIVER_PLAIN, 3, 2);
    expect_fault(&r, "bad", "x");
    ck_assert(strstr(first_message(r.d), "in head") != NULL);
    ck_assert(strstr(first_message(r.d), "lineNumber 17") != NULL);
    run_fini(&r);

    /* a declared lower bound 0: a(0) is fine, a(-1) is not */
    b = XB_NEW();
    g = head_cfg(b, 1, 1, NULL, "real a(0:2)");
    xg_bb(g, "a(0) = 1; [low@5] y(1) = a(-1)");
    run_drv(&r, b, XF_DRIVER_PLAIN, 1, 1);
    expect_fault(&r, "low", "a");
    run_fini(&r);

    /* in a callee, through sequence association: v(3) of 2 elements */
    b = XB_NEW();
    g = head_cfg(b, 1, 2, "sub g2", NULL);
    xg_bb(g, "call g2(y)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v(2)");
    xg *f = xb_cfg(b, "g2", 3, "v");
    xg_bb(f, "v(2) = 1; [cb@3] v(3) = 1");
    run_drv(&r, b, XF_DRIVER_PLAIN, 1, 2);
    expect_fault(&r, "cb", "v");
    ck_assert(strstr(first_message(r.d), "in g2") != NULL);
    run_fini(&r);

    /* a section beyond the bounds */
    b = XB_NEW();
    g = head_cfg(b, 3, 2, NULL, NULL);
    xg_bb(g, "[sec] y(1:2) = x(3:4)");
    run_drv(&r, b, XF_DRIVER_PLAIN, 3, 2);
    expect_fault(&r, "sec", "x");
    run_fini(&r);
}
END_TEST

START_TEST(fault_call_of_undefined_routine)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, "sub ghost", NULL);
    xg_bb(g, "[c1@9] call ghost(y(1))");
    run r;
    run_drv(&r, b, XF_DRIVER_PLAIN, 1, 1);
    expect_fault(&r, "c1", "ghost");
    run_fini(&r);
}
END_TEST

START_TEST(fault_pop_from_empty_tape)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, NULL, NULL);
    xg_bb(g, "[p1] inline pop_s0(y(1))");
    run r;
    run_drv(&r, b, XF_DRIVER_PLAIN, 1, 1);
    expect_fault(&r, "p1", "empty");
    run_fini(&r);
    /* the integer tape is empty even when the real one is not */
    b = XB_NEW();
    g = head_cfg(b, 1, 1, NULL, "integer k");
    xg_bb(g, "inline push_s0(x(1)); [p2] inline pop_i_s0(k)");
    run_drv(&r, b, XF_DRIVER_PLAIN, 1, 1);
    expect_fault(&r, "p2", "empty");
    run_fini(&r);
    /* and a checkpoint restore without a store */
    b = XB_NEW();
    g = head_cfg(b, 1, 1, NULL, NULL);
    xg_bb(g, "[r1] inline cp_arg_restore_real_scalar(y(1))");
    run_drv(&r, b, XF_DRIVER_PLAIN, 1, 1);
    expect_fault(&r, "r1", "empty");
    run_fini(&r);
}
END_TEST

START_TEST(fault_unknown_intrinsic)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, NULL, NULL);
    xg_bb(g, "[u1@4] y(1) = frobnicate_scal(x(1))");
    run r;
    run_drv(&r, b, XF_DRIVER_PLAIN, 1, 1);
    expect_fault(&r, "u1", "frobnicate_scal");
    run_fini(&r);
}
END_TEST

START_TEST(fault_unknown_inlinable_routine)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, NULL, NULL);
    xg_bb(g, "[i1] inline frob(y(1))");
    run r;
    run_drv(&r, b, XF_DRIVER_PLAIN, 1, 1);
    expect_fault(&r, "i1", "frob");
    run_fini(&r);
}
END_TEST

START_TEST(fault_step_limit)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, NULL, NULL);
    xg_while(g, "1 == 1");
    xg_bb(g, "y(1) = y(1) + 1");
    xg_end(g);
    run r;
    xf_run_limits lim = {.max_steps = 1000};
    run_full(&r, b, XF_DRIVER_PLAIN, 1, 1, 0.5, &lim, NULL);
    expect_fault(&r, NULL, "1000");
    ck_assert(strstr(first_message(r.d), "step") != NULL);
    run_fini(&r);
}
END_TEST

START_TEST(fault_tape_limit)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, NULL, NULL);
    xg_while(g, "1 == 1");
    xg_bb(g, "[push] inline push_s0(x(1))");
    xg_end(g);
    run r;
    xf_run_limits lim = {.max_tape = 100};
    run_full(&r, b, XF_DRIVER_PLAIN, 1, 1, 0.5, &lim, NULL);
    expect_fault(&r, "push", "tape");
    ck_assert(strstr(first_message(r.d), "100") != NULL);
    run_fini(&r);
    /* the checkpoint stacks count too */
    b = XB_NEW();
    g = head_cfg(b, 1, 1, NULL, NULL);
    xg_while(g, "1 == 1");
    xg_bb(g, "[store] inline cp_arg_store_real_scalar(x(1))");
    xg_end(g);
    run_full(&r, b, XF_DRIVER_PLAIN, 1, 1, 0.5, &lim, NULL);
    expect_fault(&r, "store", "100");
    run_fini(&r);
}
END_TEST

static xb *
foo_doc(const char *test)
{
    xb *b = xb_new(test);
    xb_syms(b, 1, "sub foo");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(1)");
    xg_bb(xb_cfg(b, "foo", 2, "x y"), "y(1) = x(1) * 3");
    return b;
}

START_TEST(fault_no_top_routine)
{
    run r;
    run_full(&r, foo_doc(__func__), XF_DRIVER_PLAIN, 1, 1, 0.5, NULL, NULL);
    expect_fault(&r, NULL, "no top routine");
    run_fini(&r);
    /* named explicitly it runs */
    int rc = run_full(&r, foo_doc(__func__), XF_DRIVER_PLAIN, 1, 1, 0.5, NULL, "foo");
    ck_assert_msg(rc == 0, "%s", first_message(r.d));
    ASSERT_Y(&r, 1.5);
    run_fini(&r);
    run_full(&r, foo_doc(__func__), XF_DRIVER_PLAIN, 1, 1, 0.5, NULL, "bar");
    expect_fault(&r, NULL, "bar");
    run_fini(&r);
}
END_TEST

static xb *
endless_doc(const char *test)
{
    xb *b = xb_new(test);
    xg *g = head_cfg(b, 1, 1, "sub r", NULL);
    xg_bb(g, "call r()");
    xb_scope(b, 3, 1);
    xg_bb(xb_cfg(b, "r", 3, NULL), "[rec] call r()");
    return b;
}

START_TEST(fault_endless_recursion)
{
    run r;
    xf_run_limits lim = {.max_depth = 50};
    run_full(&r, endless_doc(__func__), XF_DRIVER_PLAIN, 1, 1, 0.5, &lim, NULL);
    expect_fault(&r, "rec", "50");
    run_fini(&r);
    run_full(&r, endless_doc(__func__), XF_DRIVER_PLAIN, 1, 1, 0.5, NULL, NULL);
    expect_fault(&r, "rec", "recursion");
    run_fini(&r);
}
END_TEST

START_TEST(fault_adjoint_driver_needs_an_adjoint_document)
{
    run r;
    run_full(&r, foo_doc(__func__), XF_DRIVER_ADJOINT_JOINT, 1, 1, 0.5, NULL, "foo");
    expect_fault(&r, NULL, "ReplacementList");
    run_fini(&r);
}
END_TEST

START_TEST(fault_array_sizes_differ)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 3, 2, NULL, NULL);
    xg_bb(g, "[sz@8] y(1:2) = x(1:3)");
    run r;
    run_drv(&r, b, XF_DRIVER_PLAIN, 3, 2);
    expect_fault(&r, "sz", "y");
    run_fini(&r);
}
END_TEST

START_TEST(fault_integer_division_by_zero)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, NULL, "integer i");
    xg_bb(g, "[dz@2] y(1) = 7 / i");
    run r;
    run_drv(&r, b, XF_DRIVER_PLAIN, 1, 1);
    expect_fault(&r, "dz", "zero");
    run_fini(&r);
}
END_TEST

/* §3.2: a formal longer than what its actual has from the element on. */
START_TEST(fault_formal_longer_than_actual)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 1, 1, "sub s3", "real a(5)");
    xg_bb(g, "[seq@12] call s3(a(4))");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v(3)");
    xg_bb(xb_cfg(b, "s3", 3, "v"), "v(1) = 1");
    run r;
    run_drv(&r, b, XF_DRIVER_PLAIN, 1, 1);
    expect_fault(&r, "seq", "v");
    run_fini(&r);
}
END_TEST

/* ---- what the drivers refuse before anything runs */

/* A tangent or adjoint driver over a document without derivative code would
 * print zeros: refused, naming the file and the active output; plain and
 * dd run it, and so does the tangent driver with a propagator, or with a y
 * that is passive or not real. */
START_TEST(derivative_drivers_refuse_a_document_without_derivative_code)
{
    run r;
    xb *b = XB_NEW();
    xg_bb(head_cfg(b, 2, 1, NULL, NULL), "y(1) = x(1) * x(2)");
    run_drv(&r, b, XF_DRIVER_TANGENT, 2, 1);
    expect_fault(&r, NULL, "t.xaif: error: t.xaif has no derivative code");
    expect_fault(&r, NULL,
                 "head's output y is active: the tangent driver would print a zero "
                 "Jacobian");
    run_fini(&r);
    b = XB_NEW();
    xg_bb(head_cfg(b, 2, 1, NULL, NULL), "y(1) = x(1) * x(2)");
    RUN_OK(&r, b, XF_DRIVER_DD, 2, 1);
    run_fini(&r);
    /* with a propagator it runs: dy = x(2) dx(1) + x(1) dx(2) */
    b = XB_NEW();
    xg_bb(head_cfg(b, 2, 1, NULL, NULL),
          "y(1) = x(1) * x(2); dp Sax(x(2), $x(1), x(1), $x(2), $y(1))");
    RUN_OK(&r, b, XF_DRIVER_TANGENT, 2, 1);
    ASSERT_JAC(&r, 1, 2, 1.0, 0.5);
    run_fini(&r);
    /* a y that is passive or not real has a zero Jacobian by the front
     * end's own analysis (OpenAD's int_f_arg: an integer y): it runs */
    static const char *const decls[] = {"real x(2); real y(1) passive", "real x(2); integer y(1)"};
    for (int k = 0; k < 2; k++) {
        b = XB_NEW();
        xb_syms(b, 1, "sub head");
        xb_scope(b, 2, 1);
        xb_syms(b, 2, decls[k]);
        xg_bb(xb_cfg(b, "head", 2, "x y"), "y(1) = 3");
        RUN_OK(&r, b, XF_DRIVER_TANGENT, 2, 1);
        ASSERT_JAC(&r, 1, 2, 0.0, 0.0);
        run_fini(&r);
    }
}
END_TEST

/* Run @b's document under the plain driver with n, m, and the params options. */
static int
run_sized(run *r, xb *b, int n, int m, const char *params_name, bool loose)
{
    memset(r, 0, sizeof *r);
    r->b = b;
    r->text = xb_build(b);
    r->doc = read_text(r->text, &r->d);
    ck_assert_msg(r->doc != NULL, "%s", first_message(r->d));
    xf_run_opts o = {.driver = XF_DRIVER_PLAIN,
                     .params = {.n = n, .m = m, .h = 0.5},
                     .params_name = params_name,
                     .loose_sizes = loose};
    r->rc = xf_run(r->doc, &o, &r->J, &r->st, r->d);
    return r->rc;
}

static xb *
sized_doc(const char *test, const char *decls)
{
    xb *b = xb_new(test);
    xb_syms(b, 1, "sub head");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, decls);
    xg_bb(xb_cfg(b, "head", 2, "x y"), "y(1) = 2");
    return b;
}

/* n and m other than the sizes head declares for x and y are refused with
 * both named (a larger n would give zero columns); an array without bounds
 * takes any n; --loose-sizes lets n or m be larger, not smaller. */
START_TEST(params_that_do_not_fit_head_are_refused)
{
    run r;
    run_sized(&r, sized_doc(__func__, "real x(2); real y(1)"), 3, 1, "params.conf", false);
    ck_assert_int_eq(r.rc, -1);
    ck_assert_str_eq(first_message(r.d), "params.conf: error: n = 3, but head's independents x "
                                         "in t.xaif have 2 elements");
    run_fini(&r);
    run_sized(&r, sized_doc(__func__, "real x(2); real y(1)"), 2, 4, NULL, false);
    ck_assert_str_eq(first_message(r.d),
                     "t.xaif: error: -m 4, but head's dependents y have 1 element");
    run_fini(&r);
    run_sized(&r, sized_doc(__func__, "real x(2); real y(1)"), 1, 1, NULL, true);
    ck_assert_str_eq(first_message(r.d),
                     "t.xaif: error: -n 1, but head's independents x have 2 elements");
    run_fini(&r);
    run_sized(&r, sized_doc(__func__, "real x; real y(1)"), 2, 1, "p.conf", false);
    ck_assert_str_eq(first_message(r.d),
                     "p.conf: error: n = 2, but head's independents x in t.xaif are a scalar");
    run_fini(&r);
    run_sized(&r, sized_doc(__func__, "real x(0:1,2); real y(1)"), 5, 1, "p.conf", false);
    ck_assert_str_eq(first_message(r.d),
                     "p.conf: error: n = 5, but head's independents x in t.xaif have 4 elements");
    run_fini(&r);
    ck_assert_int_eq(run_sized(&r, sized_doc(__func__, "real x(:); real y(1)"), 5, 1, NULL, false),
                     0);
    run_fini(&r);
    ck_assert_int_eq(run_sized(&r, sized_doc(__func__, "real x(2); real y(1)"), 3, 2, NULL, true),
                     0);
    ASSERT_Y(&r, 2.0, 0.0);
    run_fini(&r);
}
END_TEST

/* ============================================================ suite */

Suite *
test_run_suite(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("arithmetic");
    tcase_add_checked_fixture(tc, NULL, finish_open_runs);
    tcase_add_test(tc, integer_division_truncates_and_mixed_promotes);
    tcase_add_test(tc, store_converts_to_the_target_type);
    tcase_add_test(tc, power_with_integer_and_real_exponents);
    tcase_add_test(tc, unary_minus_mod_sign_min_max);
    tcase_add_test(tc, conversions_int_nint_real_abs);
    tcase_add_test(tc, math_functions);
    tcase_add_test(tc, flop_counts);
    tcase_add_test(tc, single_precision_constants);
    tcase_add_test(tc, single_precision_constant_rounded_once);
    tcase_add_test(tc, expression_dag_with_a_shared_vertex);
    tcase_add_test(tc, strings);
    tcase_add_test(tc, transfer_copies_bits);
    suite_add_tcase(s, tc);

    tc = tcase_create("control_flow");
    tcase_add_checked_fixture(tc, NULL, finish_open_runs);
    tcase_add_test(tc, comparisons_and_logic);
    tcase_add_test(tc, if_without_else_and_nested_branches);
    tcase_add_test(tc, select_case_values_and_default);
    tcase_add_test(tc, condition_value_spellings);
    tcase_add_test(tc, bare_variables_as_conditions);
    tcase_add_test(tc, if_goto_label_vertices);
    tcase_add_test(tc, for_loop_init_condition_update);
    tcase_add_test(tc, nested_loops);
    tcase_add_test(tc, loop_counting_down);
    tcase_add_test(tc, preloop_is_a_while_loop);
    tcase_add_test(tc, loop_left_early);
    tcase_add_test(tc, strided_do_with_runtime_stride);
    tcase_add_test(tc, strided_do_with_literal_bound);
    tcase_add_test(tc, strided_do_with_literal_stride);
    suite_add_tcase(s, tc);

    tc = tcase_create("calls");
    tcase_add_checked_fixture(tc, NULL, finish_open_runs);
    tcase_add_test(tc, scalar_argument_by_reference);
    tcase_add_test(tc, element_to_vector_formal);
    tcase_add_test(tc, matrix_to_vector_formal);
    tcase_add_test(tc, section_argument_copy_in_copy_out);
    tcase_add_test(tc, assumed_shape_formal);
    tcase_add_test(tc, constant_arguments);
    tcase_add_test(tc, global_variables_are_shared_and_kept);
    tcase_add_test(tc, common_block_members_merge_by_base_name);
    tcase_add_test(tc, host_association);
    tcase_add_test(tc, locals_are_zero_on_each_activation);
    tcase_add_test(tc, recursion_and_its_depth_limit);
    tcase_add_test(tc, module_scope_variables_are_static);
    tcase_add_test(tc, absent_optional_argument);
    tcase_add_test(tc, top_routine_names_and_scalar_formals);
    suite_add_tcase(s, tc);

    tc = tcase_create("propagators");
    tcase_add_checked_fixture(tc, NULL, finish_open_runs);
    tcase_add_test(tc, derivative_propagator_operations);
    tcase_add_test(tc, deriv_attribute_on_references);
    tcase_add_test(tc, intrinsic_on_derivative_components);
    tcase_add_test(tc, active_local_derivative_zero_on_each_activation);
    tcase_add_test(tc, tangent_driver_keeps_y_between_directions);
    tcase_add_test(tc, propagators_on_arrays);
    suite_add_tcase(s, tc);

    tc = tcase_create("inlinable_calls");
    tcase_add_checked_fixture(tc, NULL, finish_open_runs);
    tcase_add_test(tc, tape_scalars_lifo);
    tcase_add_test(tc, tape_vector_and_matrix_blocks);
    tcase_add_test(tc, inline_derivative_operations);
    tcase_add_test(tc, inline_operations_on_vectors);
    tcase_add_test(tc, oad_convert_copies_values_only);
    tcase_add_test(tc, checkpoint_store_and_restore);
    tcase_add_test(tc, checkpoint_derivative_variants);
    suite_add_tcase(s, tc);

    tc = tcase_create("templates");
    tcase_add_checked_fixture(tc, NULL, finish_open_runs);
    tcase_add_test(tc, placeholders_run_by_each_driver);
    tcase_add_test(tc, nested_call_joint_restores_arguments);
    tcase_add_test(tc, joint_template_three_levels);
    tcase_add_test(tc, joint_and_split_agree);
    tcase_add_test(tc, adjoint_sweeps_start_afresh);
    tcase_add_test(tc, placeholders_share_the_activation);
    tcase_add_test(tc, joint_checkpoints_nest);
    suite_add_tcase(s, tc);

    tc = tcase_create("drivers_and_format");
    tcase_add_checked_fixture(tc, NULL, finish_open_runs);
    tcase_add_test(tc, dd_driver_and_its_printout);
    tcase_add_test(tc, format_en);
    tcase_add_test(tc, jacobian_print_and_read_round_trip);
    tcase_add_test(tc, params_read);
    tcase_add_test(tc, params_read_implied_point_with_exponent);
    suite_add_tcase(s, tc);

    tc = tcase_create("faults");
    tcase_add_checked_fixture(tc, NULL, finish_open_runs);
    tcase_add_test(tc, fault_index_out_of_bounds);
    tcase_add_test(tc, fault_call_of_undefined_routine);
    tcase_add_test(tc, fault_pop_from_empty_tape);
    tcase_add_test(tc, fault_unknown_intrinsic);
    tcase_add_test(tc, fault_unknown_inlinable_routine);
    tcase_add_test(tc, fault_step_limit);
    tcase_add_test(tc, fault_tape_limit);
    tcase_add_test(tc, fault_no_top_routine);
    tcase_add_test(tc, fault_endless_recursion);
    tcase_add_test(tc, fault_adjoint_driver_needs_an_adjoint_document);
    tcase_add_test(tc, fault_array_sizes_differ);
    tcase_add_test(tc, fault_integer_division_by_zero);
    tcase_add_test(tc, fault_formal_longer_than_actual);
    tcase_add_test(tc, derivative_drivers_refuse_a_document_without_derivative_code);
    tcase_add_test(tc, params_that_do_not_fit_head_are_refused);
    suite_add_tcase(s, tc);
    /* last: inquiry_of_a_section crashes the interpreter, which ends a CK_FORK=no run */
    tc = tcase_create("arrays");
    tcase_add_checked_fixture(tc, NULL, finish_open_runs);
    tcase_add_test(tc, bounds_listed_last_dimension_first);
    tcase_add_test(tc, column_major_storage);
    tcase_add_test(tc, whole_array_assignment_and_broadcast);
    tcase_add_test(tc, array_sections);
    tcase_add_test(tc, vector_subscripts_and_maxloc);
    tcase_add_test(tc, reductions);
    tcase_add_test(tc, transpose_and_reshape);
    tcase_add_test(tc, local_arrays_without_bounds);
    tcase_add_test(tc, learned_shape_is_kept_for_later_activations);
    tcase_add_test(tc, rank_four_and_five);
    tcase_add_test(tc, allocation_helpers);
    tcase_add_test(tc, inquiry_of_a_section); /* last of all */
    suite_add_tcase(s, tc);
    return s;
}
