/* test_adjoint.c: the adjoint pipeline (transforms/: template, adjoin,
 * reverse after linearize and preaccumulate). Each program is transformed,
 * validated, read back and run under both of OpenAD's adjoint drivers
 * (joint and split reversal); the Jacobian must equal the one worked out by
 * hand next to the assertion (and divided differences of the original), and
 * every word pushed on a tape must have been popped. */
#include "adjoint_fixture.h"
#include "suites.h"

/* ============================================================ blocks */

/* y = p sin(x1) x2 with p a passive variable: the propagation as
 * linearized applies (and an adjoint tapes) four partials, cos(x1), p, x2
 * and p sin(x1); preaccumulated, the two entries p cos(x1) x2 and
 * p sin(x1) take as many operations and half the tape words, and an
 * adjoint's taping sweep counts its tape words in the choice. */
static xb *
product_chain(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 1, NULL, "real p passive");
    xg_bb(g, "p = 3.5");
    xg_bb(g, "y(1) = p * sin_scal(x(1)) * x(2)");
    return b;
}

START_TEST(tape_words_count_in_the_choice)
{
    xf_run_stats st;
    ADJOINT(product_chain, &st, 1, 2, 3.5 * cos(x1) * x2, 3.5 * sin(x1));
    /* one sweep: the two entries of the local Jacobian */
    ck_assert_uint_eq(st.push[XF_WORD_REAL], 2);
}
END_TEST

static xb *
straight_line(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 4, NULL, NULL);
    xg_bb(g, "y(1) = x(1) * x(2);"
             "y(2) = x(1) / x(2);"
             "y(3) = sin_scal(x(1)) * exp_scal(x(2));"
             "y(4) = sqrt_scal(x(1) + x(2)) - x(2) ** 3");
    return b;
}

START_TEST(statements_of_one_block)
{
    double s = sqrt(x1 + x2);
    ADJOINT(straight_line, NULL, 4, 2, x2, x1,    /* */
            1 / x2, -x1 / (x2 * x2),              /* */
            cos(x1) * exp(x2), sin(x1) * exp(x2), /* */
            0.5 / s, 0.5 / s - 3 * x2 * x2);
}
END_TEST

/* t is read and written by the same statements: its adjoint must not be
 * zeroed before the reads are done. t = (x1 x2)^2 + x1 x2. */
static xb *
in_place(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 1, NULL, "real t");
    xg_bb(g, "t = x(1); t = t * x(2); t = t * t + t; y(1) = t");
    return b;
}

START_TEST(a_variable_overwritten_in_place)
{
    ADJOINT(in_place, NULL, 1, 2, 2 * x1 * x2 * x2 + x2, 2 * x1 * x1 * x2 + x1);
}
END_TEST

/* a(i) and a(j) are one element at run time; a(1) = x1 x2, y = a(1)^2 + a(2) x3. */
static xb *
aliased_elements(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 1, NULL, "real a(2); integer i; integer j");
    xg_bb(g, "i = 1; j = 1; a(2) = x(3);"
             "a(i) = x(1); a(j) = a(i) * x(2); y(1) = a(i) * a(j) + a(2) * x(3)");
    return b;
}

START_TEST(elements_that_alias_at_run_time)
{
    ADJOINT(aliased_elements, NULL, 1, 3, 2 * x1 * x2 * x2, 2 * x1 * x1 * x2, 2 * x3);
}
END_TEST

/* ============================================================ control flow */

/* Nested branches; the forward run takes: the outer else, the inner then,
 * and the else of the second branch. */
static xb *
branches(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 3, NULL, NULL);
    xg_bb(g, "y(1) = x(1)");
    xg_if(g, "x(1) > 0.7");
    xg_bb(g, "y(1) = y(1) * x(2)");
    xg_else(g);
    xg_if(g, "x(2) > 0.7");
    xg_bb(g, "y(1) = y(1) * y(1)");
    xg_else(g);
    xg_bb(g, "y(1) = sin_scal(y(1))");
    xg_end(g);
    xg_end(g);
    xg_bb(g, "y(2) = y(1) * x(2)");
    xg_if(g, "x(2) < 0.7");
    xg_bb(g, "y(3) = x(1)");
    xg_else(g);
    xg_bb(g, "y(3) = x(2) * x(2)");
    xg_end(g);
    return b;
}

START_TEST(nested_branches)
{
    /* y1 = x1^2, y2 = x1^2 x2, y3 = x2^2 */
    ADJOINT(branches, NULL, 3, 2, 2 * x1, 0, 2 * x1 * x2, x1 * x1, 0, 2 * x2);
}
END_TEST

/* A while loop with a data-independent count, a loop that runs zero times,
 * nested loops whose inner count depends on the outer variable. */
static xb *
counted_loops(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 1, NULL, "real s; integer k; integer i; integer j");
    xg_bb(g, "s = x(2); k = 3");
    xg_while(g, "k > 0");
    xg_bb(g, "s = s * x(1); k = k - 1");
    xg_end(g);
    xg_for(g, "j = 1", "j <= 0", "j = j + 1");
    xg_bb(g, "s = s * s");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 2", "i = i + 1");
    xg_for(g, "j = 1", "j <= i", "j = j + 1");
    xg_bb(g, "s = s + x(1) * x(2)");
    xg_end(g);
    xg_end(g);
    xg_bb(g, "y(1) = s");
    return b;
}

START_TEST(loops_reversed_by_counting)
{
    /* s = x2 x1^3 + 3 x1 x2 */
    ADJOINT(counted_loops, NULL, 1, 2, 3 * x2 * x1 * x1 + 3 * x2, x1 * x1 * x1 + 3 * x1);
}
END_TEST

/* Loops marked explicit run backwards in the adjoint: nothing but the one
 * variable bound (n) goes on the integer tape; the subscripts are the loop
 * variable, recomputed. */
static xb *
explicit_loops(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer n; integer i");
    g->reversal = "explicit";
    xg_bb(g, "n = 3");
    xg_for(g, "i = 1", "i <= n", "i = i + 1");
    xg_bb(g, "y(i) = x(1) * x(i)");
    xg_end(g);
    xg_for(g, "i = 3", "i >= 1", "i = i - 1");
    xg_bb(g, "y(i) = y(i) * x(2)");
    xg_end(g);
    xg_for(g, "i = 1", "i < 4", "i = i + 2");
    xg_bb(g, "y(i) = y(i) + x(3)");
    xg_end(g);
    return b;
}

START_TEST(explicit_loops_run_backwards)
{
    xf_run_stats st;
    /* y1 = x1^2 x2 + x3, y2 = x1 x2^2, y3 = x1 x2 x3 + x3 */
    ADJOINT(explicit_loops, &st, 3, 3, /* */
            2 * x1 * x2, x1 * x1, 1,   /* */
            x2 * x2, 2 * x1 * x2, 0,   /* */
            x2 * x3, x1 * x3, x1 * x2 + 1);
    /* three sweeps (one per input), one bound each */
    ck_assert_uint_eq(st.push[XF_WORD_INT], 3);
}
END_TEST

/* Explicit loops with strides known at run time: DO i = 1, 3, s and
 * DO i = 3, 1, -s as the front end writes them (i != U, i = i + S), one
 * that runs zero times, and a <= loop with a variable stride; a branch on
 * the loop variable inside. The adjoint runs each loop backwards from
 * popped bounds and strides and evaluates the branch's condition again:
 * the integer tape holds the bounds and strides that read variables and
 * no branch number and no subscript. */
static xb *
strided_loops(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, NULL, "integer s; integer t; integer i");
    g->reversal = "explicit";
    xg_bb(g, "s = 2; t = 0 - 2");
    xg_for(g, "i = 1", "i != 3", "i = i + s");
    xg_if(g, "i < 2");
    xg_bb(g, "y(i) = x(1) * x(i)");
    xg_else(g);
    xg_bb(g, "y(i) = x(2) * x(i)");
    xg_end(g);
    xg_end(g);
    xg_for(g, "i = 3", "i != 1", "i = i + t");
    xg_bb(g, "y(i) = y(i) * x(3)");
    xg_end(g);
    xg_for(g, "i = 3", "i != 1", "i = i + s");
    xg_bb(g, "y(i) = y(i) * y(i)");
    xg_end(g);
    xg_for(g, "i = 2", "i <= 2", "i = i + s");
    xg_bb(g, "y(i) = x(2) + x(3)");
    xg_end(g);
    return b;
}

START_TEST(explicit_loops_with_run_time_strides)
{
    xf_run_stats st;
    /* y1 = x1^2 x3, y2 = x2 + x3, y3 = x2 x3^2 */
    ADJOINT(strided_loops, &st, 3, 3, /* */
            2 * x1 * x3, 0, x1 * x1,  /* */
            0, 1, 1,                  /* */
            0, x3 * x3, 2 * x2 * x3);
    /* per sweep: the stride of each of the 4 loops (s, t, s, s) */
    ck_assert_uint_eq(st.push[XF_WORD_INT], 3 * 4);
}
END_TEST

/* A branch in an explicit loop whose condition reads a variable the loop
 * changes (k) is taped: evaluated again in the adjoint, it would see k's
 * last value and take the wrong arm. */
static xb *
branch_on_changing_variable(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 2, NULL, "integer k; integer i");
    g->reversal = "explicit";
    xg_bb(g, "k = 0");
    xg_for(g, "i = 1", "i <= 2", "i = i + 1");
    xg_bb(g, "k = k + 1");
    xg_if(g, "k < 2");
    xg_bb(g, "y(i) = x(1) * x(2)");
    xg_else(g);
    xg_bb(g, "y(i) = x(2) * x(2)");
    xg_end(g);
    xg_end(g);
    return b;
}

START_TEST(branch_on_a_changing_variable_is_taped)
{
    xf_run_stats st;
    ADJOINT(branch_on_changing_variable, &st, 2, 2, x2, x1, 0, 2 * x2);
    /* per sweep: the arm of each of the 2 iterations */
    ck_assert_uint_eq(st.push[XF_WORD_INT], 2 * 2);
}
END_TEST

/* An unstructured graph (an If whose arms meet at a Goto, a backward
 * Branch), marked structured="0" as xf_ir_check wants: reversed by numbering its blocks. y2 grows
 * by y1 x1 = 0.25 until it reaches 2.9: 12 times at x = (0.5, 1). */
static xb *
unstructured(const char *name)
{
    xb *b = xb_new(name);
    xb_syms(b, 1, "sub head");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(2); real y(2)");
    xg *g = xb_cfg_raw(b, "head", 2, "x y");
    xg_v_plain(g, "Entry");                     /* 1 */
    xg_v_plain(g, "Label");                     /* 2 */
    xg_v_test(g, "If", "x(1) < 1");             /* 3 */
    xg_v_bb(g, "y(2) = 0; y(1) = x(1) * x(2)"); /* 4 */
    xg_v_bb(g, "y(2) = 0; y(1) = x(2)");        /* 5 */
    xg_v_plain(g, "Goto");                      /* 6 */
    xg_v_bb(g, "y(2) = y(2) + y(1) * x(1)");    /* 7 */
    xg_v_test(g, "Branch", "y(2) < 2.9");       /* 8 */
    xg_v_plain(g, "Exit");                      /* 9 */
    xg_edges(g, "1>2 2>3 3>4:1 3>5 4>6 5>6 6>7 7>8 8>7:1 8>9");
    xb_unstructured(b, "head");
    return b;
}

START_TEST(unstructured_control_flow)
{
    ADJOINT(unstructured, NULL, 2, 2, x2, x1, 12 * 2 * x1 * x2, 12 * x1 * x1);
}
END_TEST

/* ============================================================ calls */

/* sqk squares its first argument and increments its second: the subscript
 * of the first must be the one at the call, in the adjoint too. */
static xb *
calls(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 3, "sub sqk", "integer i");
    xg_bb(g, "i = 1; y(1) = x(1); call sqk(y(i), i);"
             "y(i) = x(2); call sqk(y(i), i);"
             "y(i) = x(3) * y(2)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a; integer k");
    xg_bb(xb_cfg(b, "sqk", 3, "a k"), "a = a * a; k = k + 1");
    return b;
}

START_TEST(calls_with_changing_subscripts)
{
    /* y1 = x1^2, y2 = x2^2, y3 = x3 x2^2 */
    ADJOINT(calls, NULL, 3, 3, 2 * x1, 0, 0, 0, 2 * x2, 0, 0, 2 * x2 * x3, x2 * x2);
}
END_TEST

/* The adjoint's Jacobian is the tangent's transposed (the dot-product
 * test, entry by entry) on a program with calls, branches and loops. */
static xb *
mixed(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 2, "sub f", "integer i; real s");
    xg_bb(g, "s = x(1)");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_if(g, "s < 2");
    xg_bb(g, "call f(s, x(i))");
    xg_else(g);
    xg_bb(g, "s = s - x(2)");
    xg_end(g);
    xg_end(g);
    xg_bb(g, "y(1) = s; y(2) = s * x(3)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a; real c");
    xg_bb(xb_cfg(b, "f", 3, "a c"), "a = a * c + cos_scal(c)");
    return b;
}

START_TEST(adjoint_equals_tangent)
{
    tg tan;
    derive(&tan, mixed(__func__), "tangent", XF_ELIM_BEST, XF_DRIVER_TANGENT, 3, 2);
    for (int k = 0; k < 2; k++) {
        tg adj;
        derive(&adj, mixed(__func__), "adjoint", XF_ELIM_BEST, sweeps[k], 3, 2);
        for (int r = 1; r <= 2; r++)
            for (int c = 1; c <= 3; c++) {
                double a = jf(&adj.J, r, c), t = jf(&tan.J, r, c);
                ck_assert_msg(fabs(a - t) <= 1e-13 * fmax(1, fabs(t)), "F(%d,%d): %.17g vs %.17g",
                              r, c, a, t);
                ck_assert_msg(fabs(a - jf(&adj.D, r, c)) <= 1e-5 * fmax(1, fabs(a)),
                              "F(%d,%d) vs divided differences", r, c);
            }
        tan_fini(&adj);
    }
    tan_fini(&tan);
}
END_TEST

/* ============================================================ structure */

/* Every routine becomes a ReplacementList with 13 placeholders; a called
 * routine checkpoints what it reads. */
START_TEST(replacement_lists_and_checkpoints)
{
    tg t;
    ck_assert_int_eq(transform(&t, calls(__func__), "adjoint", XF_ELIM_BEST), 0);
    const char *p = t.out;
    int lists = 0, reps = 0;
    for (const char *q = p; (q = strstr(q, "<xaif:ReplacementList ")); q++)
        lists++;
    for (const char *q = p; (q = strstr(q, "<xaif:Replacement placeholder=")); q++)
        reps++;
    ck_assert_int_eq(lists, 2);
    ck_assert_int_eq(reps, 26);
    ck_assert_ptr_null(strstr(p, "<xaif:ControlFlowGraph"));
    tan_fini(&t);
}
END_TEST

/* A front end's call without formalArgCount (as in some of OpenAD's
 * adm.xaif) gets the callee's count of formals in the tangent and the
 * adjoint: OpenAD's output schema requires it. */
START_TEST(calls_get_their_formal_count)
{
    static const char *const pipelines[2] = {"tangent", "adjoint"};
    for (int k = 0; k < 2; k++) {
        xb *b = calls(__func__);
        char *text = strdup(xb_build(b));
        /* drop every formalArgCount="N" */
        char *w = text;
        for (const char *r = text; *r;) {
            if (!strncmp(r, " formalArgCount=\"", 17)) {
                r = strchr(r + 17, '"') + 1;
                continue;
            }
            *w++ = *r++;
        }
        *w = 0;
        ck_assert_ptr_null(strstr(text, "formalArgCount"));
        xf_diag *d;
        xf_doc *doc = read_text(text, &d);
        ck_assert_ptr_nonnull(doc);
        const xf_pass *passes[XF_PM_MAX];
        char err[256];
        int n = xf_pipeline_parse(pipelines[k], passes, XF_PM_MAX, err, sizeof err);
        ck_assert_msg(n > 0, "%s", err);
        xf_opts o;
        xf_pm_opts_init(&o);
        xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d, .catalogue = cat, .direct = direct};
        ck_assert_int_eq(xf_pipeline_run(&ctx, passes, n), 0);
        char *out;
        size_t len;
        ck_assert_int_eq(xf_write_memory(doc, &out, &len, d), 0);
        int calls = 0;
        for (const char *q = out; (q = strstr(q, "<xaif:SubroutineCall ")); q++) {
            const char *end = strchr(q, '>');
            const char *f = strstr(q, " formalArgCount=\"2\"");
            ck_assert_msg(f && f < end, "%s: a call without formalArgCount=\"2\": %.*s",
                          pipelines[k], (int)(end - q + 1), q);
            calls++;
        }
        ck_assert_int_eq(calls, k == 0 ? 2 : 6); /* the adjoint: in placeholders 1, 2 and 3 */
        free(out);
        xf_doc_free(doc);
        xf_diag_free(d);
        free(text);
        xb_free(b);
    }
}
END_TEST

Suite *
test_adjoint_suite(void)
{
    Suite *s = suite_create("adjoint");
    TCase *tc = tcase_create("adjoint");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, statements_of_one_block);
    tcase_add_test(tc, tape_words_count_in_the_choice);
    tcase_add_test(tc, a_variable_overwritten_in_place);
    tcase_add_test(tc, elements_that_alias_at_run_time);
    tcase_add_test(tc, nested_branches);
    tcase_add_test(tc, loops_reversed_by_counting);
    tcase_add_test(tc, explicit_loops_run_backwards);
    tcase_add_test(tc, explicit_loops_with_run_time_strides);
    tcase_add_test(tc, branch_on_a_changing_variable_is_taped);
    tcase_add_test(tc, unstructured_control_flow);
    tcase_add_test(tc, calls_with_changing_subscripts);
    tcase_add_test(tc, adjoint_equals_tangent);
    tcase_add_test(tc, replacement_lists_and_checkpoints);
    tcase_add_test(tc, calls_get_their_formal_count);
    suite_add_tcase(s, tc);
    return s;
}
