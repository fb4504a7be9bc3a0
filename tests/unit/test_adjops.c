/* test_adjops.c: the operations an adjoint spends (transforms/tape/adjzero.c,
 * the parallel edges of elim.c, the signs preaccumulate.c folds, the
 * constants constprop.c reads, the assignments sink.c moves past a
 * branch). Each
 * program's adjoint runs under both adjoint drivers; its Jacobian equals
 * the tangent's (a dot-product test, and entry by entry) and divided
 * differences, and the joint run does the floating-point operations the
 * program's shape predicts, counted per sweep (one sweep per output). */
#include "derive_fixture.h"
#include "suites.h"

typedef xb *(*program)(const char *name);

static const xf_driver sweeps[2] = {XF_DRIVER_ADJOINT_JOINT, XF_DRIVER_ADJOINT_SPLIT};

/* ⟨ȳ, J ẋ⟩ with fixed directions ẋ_i = 1 + i/10, ȳ_k = k - 1/2. */
static double
dot(const xf_jacobian *J)
{
    double s = 0;
    for (int k = 1; k <= J->m; k++) {
        double row = 0;
        for (int i = 1; i <= J->n; i++)
            row += jf(J, k, i) * (1 + i / 10.0);
        s += (k - 0.5) * row;
    }
    return s;
}

/* @p's adjoint under both drivers against its tangent and divided
 * differences; @st receives the joint run's counts. */
static void
check(program p, const char *name, int n, int m, xf_run_stats *st)
{
    tg tan;
    derive(&tan, p(name), "tangent", XF_ELIM_BEST, XF_DRIVER_TANGENT, n, m);
    double forward = dot(&tan.J);
    for (int k = 0; k < 2; k++) {
        tg adj;
        derive(&adj, p(name), "adjoint", XF_ELIM_BEST, sweeps[k], n, m);
        double reverse = dot(&adj.J);
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
        if (k == 0)
            *st = adj.st;
        tan_fini(&adj);
    }
    tan_fini(&tan);
}

static void
assert_ops(const xf_run_stats *st, uint64_t adds, uint64_t muls, uint64_t fns)
{
    ck_assert_msg(st->adds == adds && st->muls == muls && st->intrinsics == fns,
                  "%llu+ %llu* %llu f, expected %llu+ %llu* %llu f", (unsigned long long)st->adds,
                  (unsigned long long)st->muls, (unsigned long long)st->intrinsics,
                  (unsigned long long)adds, (unsigned long long)muls, (unsigned long long)fns);
}

/* ============================================================ adjzero.c */

/* t = x1*x2, then (a branch between: two blocks) y1 = sin(t). At x0 =
 * (1/2, 1) t > 0. The adjoint of y1 = sin(t) finds t̄ zero (t is a local
 * nothing reads after): t̄ = cos(t)·ȳ1, no addition; x̄1 += x2·t̄,
 * x̄2 += x1·t̄. A sweep: t (1*), sin and its partial cos (2 f), t̄ (1*),
 * x̄ (2*, 2+). */
static xb *
branch_after(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 1, NULL, "real t");
    xg_bb(g, "t = x(1) * x(2)");
    xg_if(g, "t > 0");
    xg_bb(g, "y(1) = sin_scal(t)");
    xg_else(g);
    xg_bb(g, "y(1) = t");
    xg_end(g);
    return b;
}

START_TEST(an_adjoint_known_zero_is_assigned)
{
    xf_run_stats st = {0};
    check(branch_after, __func__, 2, 1, &st);
    assert_ops(&st, 2, 4, 2); /* with t̄ += cos(t)·ȳ1: 3+ */
}
END_TEST

/* As branch_after, and y2 = t*x1 after the branch: t is read after
 * y1 = sin(t), so that adjoint adds to t̄ (y2's set it): the first
 * increment of t̄ in the adjoint (y2's) assigns, the second adds. A sweep:
 * t, y2 (2*), sin, cos (2 f); y2's adjoint t̄ = x1·ȳ2 (1*), x̄1 += t·ȳ2
 * (1*, 1+); y1's t̄ += cos·ȳ1 (1*, 1+); t's x̄1 += x2·t̄, x̄2 += x1·t̄
 * (2*, 2+). */
static xb *
read_again(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 2, NULL, "real t");
    xg_bb(g, "t = x(1) * x(2)");
    xg_if(g, "t > 0");
    xg_bb(g, "y(1) = sin_scal(t)");
    xg_else(g);
    xg_bb(g, "y(1) = t");
    xg_end(g);
    xg_bb(g, "y(2) = t * x(1)");
    return b;
}

START_TEST(an_adjoint_read_later_is_incremented)
{
    xf_run_stats st = {0};
    check(read_again, __func__, 2, 2, &st);
    assert_ops(&st, 2 * 4, 2 * 7, 2 * 2); /* with t̄ += x1·ȳ2: 5+ */
}
END_TEST

/* t is written in each iteration and read in the block after a branch in
 * the same iteration: after that read, the next iteration overwrites t (or
 * the loop and the routine end), so its adjoint finds t̄ zero in every
 * iteration: t̄ = x(i)·ȳ(i). An iteration: t, y(i) (2*), t̄ (1*),
 * x̄(i) += t·ȳ(i) (1*, 1+), x̄(i) += 2x(i)·t̄ (2x(i): 1+; 1*, 1+). */
static xb *
loop_local(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer i; real t");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "t = x(i) * x(i)");
    xg_if(g, "t > 0");
    xg_bb(g, "y(i) = t * x(i)");
    xg_else(g);
    xg_bb(g, "y(i) = x(i)");
    xg_end(g);
    xg_end(g);
    return b;
}

START_TEST(a_loop_local_is_assigned_each_iteration)
{
    xf_run_stats st = {0};
    check(loop_local, __func__, 3, 3, &st);
    /* per sweep 3 iterations: 3+ and 5* each */
    assert_ops(&st, 3 * 3 * 3, 3 * 3 * 5, 0);
}
END_TEST

/* A local array written in one loop and read in the next, a(i) in the
 * iteration over i: each element's derivative is read once, after which
 * nothing reads the array, so each adjoint finds ā(i) zero and assigns:
 * ā(i) = x(i)·ȳ(i), no addition. An iteration: sin, cos (2 f); y(i)
 * (1*); ā(i) (1*); x̄(i) += a(i)·ȳ(i) (1*, 1+); x̄(i) += cos·ā(i)
 * (1*, 1+). */
static xb *
array_once(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer i; real a(3)");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "a(i) = sin_scal(x(i))");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "y(i) = a(i) * x(i)");
    xg_end(g);
    return b;
}

START_TEST(a_local_array_read_once_per_element_is_assigned)
{
    xf_run_stats st = {0};
    check(array_once, __func__, 3, 3, &st);
    /* per sweep 3 iterations: 2+ 4* 2f each (ā(i) += : 3+) */
    assert_ops(&st, 3 * 3 * 2, 3 * 3 * 4, 3 * 3 * 2);
}
END_TEST

/* As array_once, two-dimensional, the loops in the other order than the
 * subscripts (a(i,j) under j outer, i inner): still one read per
 * element. An iteration of the reading nest: y(j) += a(i,j)·x(i) (1*,
 * 1+); in the adjoint ā(i,j) = x(i)·ȳ(j) (1*; ā += : 1+ more),
 * x̄(i) += a(i,j)·ȳ(j) (1*, 1+). Of the writing nest: a(i,j) = x(i)·x(j)
 * (1*); x̄(i) += x(j)·ā, x̄(j) += x(i)·ā (2*, 2+). */
static xb *
array_nest(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 2, NULL, "integer i; integer j; real a(2,2)");
    xg_for(g, "i = 1", "i <= 2", "i = i + 1");
    xg_for(g, "j = 1", "j <= 2", "j = j + 1");
    xg_bb(g, "a(i,j) = x(i) * x(j)");
    xg_end(g);
    xg_end(g);
    xg_for(g, "j = 1", "j <= 2", "j = j + 1");
    xg_bb(g, "y(j) = 0.0");
    xg_for(g, "i = 1", "i <= 2", "i = i + 1");
    xg_bb(g, "y(j) = y(j) + a(i,j) * x(i)");
    xg_end(g);
    xg_end(g);
    return b;
}

START_TEST(a_local_array_read_once_in_a_nest_is_assigned)
{
    xf_run_stats st = {0};
    check(array_nest, __func__, 2, 2, &st);
    /* per sweep 4 iterations of each nest: 2+ 3* each */
    assert_ops(&st, 2 * 4 * (2 + 2), 2 * 4 * (3 + 3), 0);
}
END_TEST

/* As array_once, the reading loop run twice (an outer loop over j that
 * the subscript does not follow): a(i) is read twice, and the second
 * adjoint (j = 1's) must add to what j = 2's left in ā(i). The adjoint of
 * y(i) at j = 1 finds ȳ(i) zero (j = 2 overwrote y(i)), so only a run
 * tells the Jacobian; an assignment would lose j = 2's share. */
static xb *
array_twice(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer i; integer j; real a(3)");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "a(i) = sin_scal(x(i))");
    xg_end(g);
    xg_for(g, "j = 1", "j <= 2", "j = j + 1");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "y(i) = a(i) * x(i)");
    xg_end(g);
    xg_end(g);
    return b;
}

START_TEST(a_local_array_read_twice_is_incremented)
{
    xf_run_stats st = {0};
    check(array_twice, __func__, 3, 3, &st);
    /* per sweep: the writing loop 3 x (2f; 1*, 1+), the reading nest
     * 6 x (1*; ā(i) += x(i)·ȳ(i) 1*, 1+; x̄(i) += a(i)·ȳ(i) 1*, 1+) */
    assert_ops(&st, 3 * (3 * 1 + 6 * 2), 3 * (3 * 1 + 6 * 3), 3 * 3 * 2);
}
END_TEST

/* As array_once, then a call reads a(1) and a(2): after the reading
 * loop's term the array is still read, so ā(i) there holds the call's
 * share and the term must add to it; an assignment would lose it (the
 * Jacobian shows it, under both drivers). */
static xb *
array_then_call(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, "sub g", "integer i; real a(3)");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "a(i) = sin_scal(x(i))");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "y(i) = a(i) * x(i)");
    xg_end(g);
    xg_bb(g, "call g(a, y)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real v(3); real w(3)");
    xg_bb(xb_cfg(b, "g", 3, "v w"), "w(3) = w(3) + v(1) * v(2)");
    return b;
}

START_TEST(a_local_array_a_call_reads_later_is_incremented)
{
    xf_run_stats st = {0};
    check(array_then_call, __func__, 3, 3, &st); /* the Jacobians: the assertion here */
}
END_TEST

/* ============================================================ elim.c, preaccumulate.c */

/* y1 = x1*x1*x2: the two partials of x1*x1 (x1, x1) are added first
 * (2x1: 1+), then multiplied once by x2 (1*) instead of each (2*, 1+).
 * A sweep: the values (2*); 2x1 (1+), its product with x2 (1*);
 * x̄1 += (2x1x2)·ȳ, x̄2 += (x1x1)·ȳ (2*, 2+). */
static xb *
square(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 1, NULL, NULL);
    xg_bb(g, "y(1) = x(1) * x(1) * x(2)");
    return b;
}

START_TEST(parallel_partials_are_added_first)
{
    xf_run_stats st = {0};
    check(square, __func__, 2, 1, &st);
    assert_ops(&st, 3, 5, 0);
}
END_TEST

/* y1 = cos(x1): the partial -sin(x1) is taped as sin(x1), and the adjoint
 * is p̄ = sin(x1)·ȳ1, x̄1 -= p̄: cos, sin (2 f), 1*, 1+ (the negation
 * and x̄1 += -sin(x1)·ȳ1 were 2+, 1*). y2 = cos(x1*x2): the sign goes
 * through the products of the elimination (x2·sin, x1·sin: 2*) for
 * nothing, then the same two-operation adjoint per entry (2*, 2+); with
 * the values, 1* and 2 f. */
static xb *
cosines(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 2, NULL, NULL);
    xg_bb(g, "y(1) = cos_scal(x(1)); y(2) = cos_scal(x(1) * x(2))");
    return b;
}

START_TEST(negated_partials_cost_no_negation)
{
    xf_run_stats st = {0};
    check(cosines, __func__, 2, 2, &st);
    /* per sweep: y1 1+ 1* 2f; y2 2+ 5* 2f */
    assert_ops(&st, 2 * 3, 2 * 6, 2 * 4);
}
END_TEST

/* ============================================================ constprop.c */

/* c = 1.0, set once before anything reads it: y1 = x1*c*x2 is read as
 * x1*x2 (the product by 1 goes). A sweep: the value (1*); x̄1 += x2·ȳ1,
 * x̄2 += x1·ȳ1 (2*, 2+). Read as a variable, c costs the product x1*c
 * and the partial c*x2 (2* more). */
static xb *
constant_once(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 1, NULL, "real c");
    xg_bb(g, "c = 1.0; y(1) = x(1) * c * x(2)");
    return b;
}

START_TEST(a_local_set_once_to_one_costs_nothing)
{
    xf_run_stats st = {0};
    check(constant_once, __func__, 2, 1, &st);
    assert_ops(&st, 2, 3, 0);
}
END_TEST

/* The same with c set again after the first read (c = 3.0, then y2 =
 * x1*c): c is no constant, both reads stay. Per sweep (2): the values
 * (3*), the partial c*x2 (1*); the adjoints x̄1 += c·ȳ2, x̄1 += (c·x2)·ȳ1,
 * x̄2 += (x1·c)·ȳ1 (3*, 3+). */
static xb *
constant_twice(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 2, NULL, "real c");
    xg_bb(g, "c = 1.0; y(1) = x(1) * c * x(2); c = 3.0; y(2) = x(1) * c");
    return b;
}

START_TEST(a_local_set_twice_is_read)
{
    xf_run_stats st = {0};
    check(constant_twice, __func__, 2, 2, &st);
    assert_ops(&st, 2 * 3, 2 * 7, 0);
}
END_TEST

/* ============================================================ sink.c */

/* t = x1*x1, u = t*x1, then a branch on x2 writing y2 only, then
 * y1 = x2*t + u. The branch touches neither t, u nor x1: the two
 * assignments move into the block after it, whose Jacobian is then
 * eliminated in one piece, y1 over x1 directly. At x0 the branch takes its
 * then-arm (y2 = x2: no operation). Per sweep (2): the values t, u, x2*t
 * (3*, 1+); the partials 2x1 (1+), x1·2x1 + t (1*, 1+), x2·2x1 + 3x1² (1*,
 * 1+); x̄1 += J·ȳ1, x̄2 += t·ȳ1 (2*, 2+); x̄2 += ȳ2 (1+): 7*, 7+. Cut in
 * two by the branch, t and u carry adjoints across the cut: t̄ = x2·ȳ1,
 * then x̄1 += 2x1·t̄ and x̄1 += 3x1²·ū, one multiplication more a sweep
 * (and a partial more on the tape). */
static xb *
chain_over_branch(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 2, NULL, "real t; real u");
    xg_bb(g, "t = x(1) * x(1); u = t * x(1)");
    xg_if(g, "x(2) > 0");
    xg_bb(g, "y(2) = x(2)");
    xg_else(g);
    xg_bb(g, "y(2) = x(2) * x(2)");
    xg_end(g);
    xg_bb(g, "y(1) = x(2) * t + u");
    return b;
}

START_TEST(a_chain_moves_past_a_branch_that_does_not_touch_it)
{
    xf_run_stats st = {0};
    check(chain_over_branch, __func__, 2, 2, &st);
    assert_ops(&st, 2 * 7, 2 * 7, 0);
}
END_TEST

/* The same with the branch reading u (y2 = u in its then-arm, no
 * operation either): u = t*x1 stays before it, and so does t = x1*x1 (u
 * reads t): per sweep the multiplication more that the cut costs. */
static xb *
chain_read_in_branch(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 2, NULL, "real t; real u");
    xg_bb(g, "t = x(1) * x(1); u = t * x(1)");
    xg_if(g, "x(2) > 0");
    xg_bb(g, "y(2) = u");
    xg_else(g);
    xg_bb(g, "y(2) = x(2) * x(2)");
    xg_end(g);
    xg_bb(g, "y(1) = x(2) * t + u");
    return b;
}

START_TEST(a_chain_the_branch_reads_stays)
{
    xf_run_stats st = {0};
    check(chain_read_in_branch, __func__, 2, 2, &st);
    assert_ops(&st, 2 * 7, 2 * 8, 0);
}
END_TEST

Suite *
test_adjops_suite(void)
{
    Suite *s = suite_create("adjops");
    TCase *tc = tcase_create("zero");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, an_adjoint_known_zero_is_assigned);
    tcase_add_test(tc, an_adjoint_read_later_is_incremented);
    tcase_add_test(tc, a_loop_local_is_assigned_each_iteration);
    tcase_add_test(tc, a_local_array_read_once_per_element_is_assigned);
    tcase_add_test(tc, a_local_array_read_once_in_a_nest_is_assigned);
    tcase_add_test(tc, a_local_array_read_twice_is_incremented);
    tcase_add_test(tc, a_local_array_a_call_reads_later_is_incremented);
    suite_add_tcase(s, tc);
    tc = tcase_create("partials");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, parallel_partials_are_added_first);
    tcase_add_test(tc, negated_partials_cost_no_negation);
    suite_add_tcase(s, tc);
    tc = tcase_create("constants");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_local_set_once_to_one_costs_nothing);
    tcase_add_test(tc, a_local_set_twice_is_read);
    suite_add_tcase(s, tc);
    tc = tcase_create("sink");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_chain_moves_past_a_branch_that_does_not_touch_it);
    tcase_add_test(tc, a_chain_the_branch_reads_stays);
    suite_add_tcase(s, tc);
    return s;
}
