/* test_addr.c: address recovery by inverse computation (Utke, Naumann,
 * Lyons et al. [003]): the token game on the paper's examples, the
 * inversion rules, and its §4 experiment (the loop of Fig. 8 inside the
 * outer loop of Fig. 10) transformed with --address-recovery recover and
 * store, run under both adjoint drivers and divided differences. */
#include "derive_fixture.h"
#include "suites.h"

/* ============================================================ §4 experiment */

enum { ILB = 10 };

/* The loop L of [003] Fig. 8(a) (inner bound ILB) in the wrapper of
 * Fig. 10 (outer bound olb), as Fortran DO loops: a(0:na-1) starts at
 * x1 + x2 - 1/2 (1 at the drivers' point, so every product stays 1),
 * p(0:81) = 1 is passive; y1 = a(12), y2 = a(20). */
static xb *
experiment(const char *name, int olb, int na)
{
    char decl[160], hi[32];
    xb *b = xb_new(name);
    snprintf(decl, sizeof decl,
             "real a(0:%d); real p(0:81) passive; integer i; integer j; integer k; integer m;"
             "integer l; integer o; integer q",
             na - 1);
    xg *g = head_cfg(b, 2, 2, NULL, decl);
    g->reversal = "explicit";
    snprintf(hi, sizeof hi, "q <= %d", na - 1);
    xg_for(g, "q = 0", hi, "q = q + 1");
    xg_bb(g, "a(q) = x(1) + x(2) - 0.5");
    xg_end(g);
    xg_for(g, "q = 0", "q <= 81", "q = q + 1");
    xg_bb(g, "p(q) = 1.0");
    xg_end(g);
    snprintf(hi, sizeof hi, "o <= %d", olb - 1);
    xg_for(g, "o = 0", hi, "o = o + 1");
    xg_bb(g, "i = o; j = o");
    xg_for(g, "l = 0", "l <= 9", "l = l + 1");
    xg_bb(g, "k = i - j; m = k + 3 + l; i = k + 2 * l;"
             "a(i) = a(j) * p(k) * a(m);"
             "j = j + m + 4; i = i + j + 1;"
             "a(j) = a(i) * p(k) * a(m)");
    xg_end(g);
    xg_end(g);
    xg_bb(g, "y(1) = a(12); y(2) = a(20)");
    return b;
}

/* The words of @kind pushed by a run. */
static uint64_t
words(const tg *t, int kind)
{
    return t->st.push[kind];
}

/* Transform @p's program with @store, run under @drv; Jacobian checked
 * against @want and divided differences; every word pushed is popped. */
static void
adjoint_run(xb *(*p)(const char *), const char *name, bool store, xf_driver drv, const double *want,
            int m, int n, tg *t)
{
    addr_store = store;
    derive(t, p(name), "adjoint", XF_ELIM_BEST, drv, n, m);
    addr_store = false;
    assert_jac(t, want, m, n);
    for (int w = 0; w < XF_WORD_KINDS; w++)
        ck_assert_uint_eq(t->st.push[w], t->st.pop[w]);
}

/* dy/dx1 = dy/dx2 of y = a(q) in the experiment: the number of factors of
 * a(q), worked out by running the index recurrence itself. */
static void
factors(int olb, int na, double *f12, double *f20)
{
    double *c = malloc(sizeof *c * (size_t)na);
    ck_assert_ptr_nonnull(c);
    for (int q = 0; q < na; q++)
        c[q] = 1;
    for (int o = 0; o < olb; o++) {
        int i = o, j = o;
        for (int l = 0; l < ILB; l++) {
            int k = i - j, m = k + 3 + l;
            i = k + 2 * l;
            c[i] = c[j] + c[m];
            j = j + m + 4;
            i = i + j + 1;
            c[j] = c[i] + c[m];
        }
    }
    *f12 = c[12];
    *f20 = c[20];
    free(c);
}

static xb *
experiment_100(const char *name)
{
    return experiment(name, 100, 600);
}

static xb *
experiment_10000(const char *name)
{
    return experiment(name, 10000, 10500);
}

static const xf_driver sweeps[2] = {XF_DRIVER_ADJOINT_JOINT, XF_DRIVER_ADJOINT_SPLIT};

/* [003] §4: store-all tapes 52 olB integer words, inversion 2 olB (ratio
 * 26). Here store-all tapes the three subscripts of each of the inner
 * body's two propagators (6 ilB olB = 60 olB per sweep); recovery pushes
 * the i and j that the outer body's i = o; j = o overwrite (2 olB) and
 * hands i and j from the routine's end to its adjoint (2). */
static void
experiment_ratio(xb *(*p)(const char *), const char *name, int olb, int na, int drivers)
{
    double f12, f20;
    factors(olb, na, &f12, &f20);
    const double want[] = {f12, f12, f20, f20};
    for (int k = 0; k < drivers; k++) {
        tg r, s;
        adjoint_run(p, name, false, sweeps[k], want, 2, 2, &r);
        adjoint_run(p, name, true, sweeps[k], want, 2, 2, &s);
        for (int e = 0; e < 4; e++)
            ck_assert(r.J.f[e] == s.J.f[e]); /* the same operations in the same order */
        /* two sweeps (one per output) */
        ck_assert_uint_eq(words(&s, XF_WORD_INT), 2u * 60u * (unsigned)olb);
        ck_assert_uint_eq(words(&r, XF_WORD_INT), 2u * (2u * (unsigned)olb + 2u));
        ck_assert_uint_eq(words(&r, XF_WORD_REAL), words(&s, XF_WORD_REAL));
        double ratio = (double)words(&s, XF_WORD_INT) / (double)words(&r, XF_WORD_INT);
        ck_assert_msg(fabs(ratio / 26.0 - 1) <= 0.2, "store-all / recover = %g, the paper's 26",
                      ratio);
        tan_fini(&r);
        tan_fini(&s);
    }
}

START_TEST(paper_experiment_olb_100)
{
    experiment_ratio(experiment_100, __func__, 100, 600, 2);
}
END_TEST

START_TEST(paper_experiment_olb_10000)
{
    /* the joint driver only: the split one runs the same output (3 minutes
     * fewer in the sanitizer build) */
    experiment_ratio(experiment_10000, __func__, 10000, 10500, 1);
}
END_TEST

/* ============================================================ Fig. 2 */

/* [003] Fig. 2(a): j = 1; do while (j < 6): k = j + 1; j = k + 2;
 * a(j) = a(k) * a(j). With a(q) = x + q and y = a(4) + a(7):
 * y = (x + 2)(x + 4) + (x + 5)(x + 7), dy/dx = 4x + 18 = 20. */
static xb *
fig2(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 1, 1, NULL, "real a(7); integer j; integer k; integer q");
    g->reversal = "explicit";
    xg_for(g, "q = 1", "q <= 7", "q = q + 1");
    xg_bb(g, "a(q) = x(1) + q");
    xg_end(g);
    g->reversal = NULL;
    xg_bb(g, "j = 1");
    xg_while(g, "j < 6");
    xg_bb(g, "k = j + 1; j = k + 2; a(j) = a(k) * a(j)");
    xg_end(g);
    xg_bb(g, "y(1) = a(4) + a(7)");
    return b;
}

static unsigned
count(const char *text, const char *what)
{
    unsigned n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* Fig. 2(c): the one pop(j) before the loop; k = j - 2 and j = k - 1
 * inverted in its body; nothing stored per iteration (the while loop's
 * count is control-flow reversal's, one word). Store-all: j and k in
 * each of the two iterations. */
START_TEST(fig2_becomes_fig2c)
{
    const double want[] = {20};
    for (int k = 0; k < 2; k++) {
        tg r, s;
        adjoint_run(fig2, __func__, false, sweeps[k], want, 1, 1, &r);
        adjoint_run(fig2, __func__, true, sweeps[k], want, 1, 1, &s);
        ck_assert_uint_eq(words(&r, XF_WORD_INT), 2); /* j at the end, the count */
        ck_assert_uint_eq(words(&s, XF_WORD_INT), 5); /* 2 iterations x (j, k), the count */
        ck_assert_uint_eq(count(r.out, "statement_id=\"_addr_invert\""), 2);
        ck_assert_uint_eq(count(r.out, "statement_id=\"_addr_store\""), 0);
        ck_assert_uint_eq(count(r.out, "statement_id=\"_addr_restore\""), 1); /* j */
        ck_assert_uint_eq(count(s.out, "_addr_"), 0);
        tan_fini(&r);
        tan_fini(&s);
    }
}
END_TEST

/* ============================================================ inversion rules */

/* DO l = 1, 3: j = G(j); v(j) = v(j) + x^2; y = sum of v: dy/dx = 6x = 3. */
static xb *
rule(const char *name, const char *update)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 1, 1, NULL, "real v(16); integer j; integer l");
    g->reversal = "explicit";
    xg_bb(g, "j = 1");
    xg_for(g, "l = 1", "l <= 3", "l = l + 1");
    xg_bb(g, update);
    xg_bb(g, "v(j) = v(j) + x(1) * x(1)");
    xg_end(g);
    xg_bb(g, "y(1) = v(1) + v(2) + v(3) + v(4) + v(5) + v(6) + v(7) + v(8) + v(9) + v(10)");
    return b;
}

static xb *
rule_add(const char *name)
{
    return rule(name, "j = j + 1");
}
static xb *
rule_sub(const char *name)
{
    return rule(name, "j = 9 - j");
}
static xb *
rule_mul(const char *name)
{
    return rule(name, "j = 2 * j");
}
static xb *
rule_neg(const char *name)
{
    return rule(name, "j = -(j - 5) + 1");
}
static xb *
rule_div(const char *name)
{
    return rule(name, "j = (j + 7) / 2");
}
static xb *
rule_twice(const char *name)
{
    return rule(name, "j = j + j - 1 + 1");
}

/* +, -, unary - and multiplication by a constant invert: the one word is
 * j handed from the routine's end. Integer division does not, nor an
 * operand read twice: j's old value is stored in each of the 3 iterations.
 * Store-all: the subscript j of each iteration. */
START_TEST(inversion_rules)
{
    static const struct {
        xb *(*p)(const char *);
        unsigned recover;
    } rules[] = {{rule_add, 1}, {rule_sub, 1}, {rule_mul, 1},
                 {rule_neg, 1}, {rule_div, 4}, {rule_twice, 4}};
    const double want[] = {3};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        tg r, s;
        adjoint_run(rules[i].p, __func__, false, XF_DRIVER_ADJOINT_JOINT, want, 1, 1, &r);
        adjoint_run(rules[i].p, __func__, true, XF_DRIVER_ADJOINT_JOINT, want, 1, 1, &s);
        ck_assert_msg(words(&r, XF_WORD_INT) == rules[i].recover, "rule %zu: %llu words", i,
                      (unsigned long long)words(&r, XF_WORD_INT));
        ck_assert_uint_eq(words(&s, XF_WORD_INT), 3);
        ck_assert_uint_eq(count(r.out, "statement_id=\"_addr_invert\""), rules[i].recover == 1);
        tan_fini(&r);
        tan_fini(&s);
    }
}
END_TEST

Suite *
test_addr_suite(void)
{
    Suite *s = suite_create("addr");
    TCase *tc = tcase_create("game");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, fig2_becomes_fig2c);
    tcase_add_test(tc, inversion_rules);
    suite_add_tcase(s, tc);
    tc = tcase_create("experiment");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, paper_experiment_olb_100);
    /* XF_UNIT_SMALL (the valgrind run): the olB = 100 case only; the
     * sanitizer build runs both */
    if (!getenv("XF_UNIT_SMALL"))
        tcase_add_test(tc, paper_experiment_olb_10000);
    suite_add_tcase(s, tc);
    return s;
}
