/* test_unstruct.c: the adjoint of unstructured control flow (transforms/
 * reverse.c, issue 12 item 4; Utke et al. [000] §5). Each program is a
 * control-flow graph the fixtures build vertex by vertex: early returns,
 * gotos out of nested loops, loops entered in the middle, loops left from
 * one arm of a branch, while loops that run zero times, a loop closed at its
 * bottom. Each is transformed, validated, read back and run under both of
 * OpenAD's adjoint drivers (joint and split reversal): the Jacobian must be
 * the one worked out by hand beside the test (and divided differences of
 * the original, run by the interpreter), every tape word pushed must be
 * popped, and the tangent and the adjoint must pass the dot-product test
 * <ybar, J xdot> = <J^T ybar, xdot>. Graphs the reversal cannot handle are
 * refused with a message naming the construct and the routine. */
#include "adjoint_fixture.h"
#include "suites.h"

/* A graph of head's (x(n), y(m) and @locals) whose vertices and edges the
 * test writes; marked structured="0". */
static xg *
raw_head(xb *b, int n, int m, const char *subs, const char *locals)
{
    head_scopes(b, n, m, subs, locals);
    xb_unstructured(b, "head");
    return xb_cfg_raw(b, "head", 2, "x y");
}

/* The dot-product test: with the tangent's Jacobian J (column i from the
 * run with xdot = e_i) and the adjoint's A (row k from ybar = e_k),
 * <ybar, J xdot> = <A^T ybar, xdot> for a fixed xdot and ybar with no zero
 * entry, under both adjoint drivers. */
static void
dot_product(program p, const char *name, int m, int n)
{
    static const double xdot[] = {0.3, -1.7, 2.1, 0.9}, ybar[] = {1.3, -0.4, 0.7};
    ck_assert(n <= 4 && m <= 3);
    tg tan;
    derive(&tan, p(name), "tangent", XF_ELIM_BEST, XF_DRIVER_TANGENT, n, m);
    double lhs = 0, scale = 0;
    for (int k = 1; k <= m; k++)
        for (int i = 1; i <= n; i++) {
            lhs += ybar[k - 1] * jf(&tan.J, k, i) * xdot[i - 1];
            scale += fabs(ybar[k - 1] * jf(&tan.J, k, i) * xdot[i - 1]);
        }
    ck_assert_msg(scale > 0, "a zero Jacobian tests nothing");
    for (int s = 0; s < 2; s++) {
        tg adj;
        derive(&adj, p(name), "adjoint", XF_ELIM_BEST, sweeps[s], n, m);
        double rhs = 0;
        for (int i = 1; i <= n; i++) {
            double g = 0; /* (A^T ybar)_i */
            for (int k = 1; k <= m; k++)
                g += jf(&adj.J, k, i) * ybar[k - 1];
            rhs += g * xdot[i - 1];
        }
        ck_assert_msg(fabs(lhs - rhs) <= 1e-13 * scale,
                      "%s: <ybar, J xdot> = %.17g, <J^T ybar, "
                      "xdot> = %.17g",
                      xf_driver_name(sweeps[s]), lhs, rhs);
        tan_fini(&adj);
    }
    tan_fini(&tan);
}

/* ============================================================ early return */

/* s is multiplied by x1 in a loop marked explicit until it drops below 0.2,
 * when the routine returns from inside the loop (an edge from the If to
 * Exit); a(i) is subscripted by the loop variable, which the adjoint cannot
 * run backwards here. At x = (0.5, 1): three trips, y = x2 x1^3 (the
 * statement after the loop, y = 100 y, is not reached). */
static xb *
return_from_loop(const char *name)
{
    xb *b = xb_new(name);
    xg *g = raw_head(b, 2, 1, NULL, "real s; integer i; real a(5)");
    g->reversal = "explicit";
    xg_v_plain(g, "Entry");                               /* 1 */
    xg_v_bb(g, "s = x(2)");                               /* 2 */
    xg_v_for(g, "i = 1", "i <= 5", "i = i + 1");          /* 3 */
    xg_v_bb(g, "a(i) = s * x(1); s = a(i); y(1) = a(i)"); /* 4 */
    xg_v_test(g, "If", "s < 0.2");                        /* 5 */
    xg_v_plain(g, "EndLoop");                             /* 6 */
    xg_v_bb(g, "y(1) = 100 * y(1)");                      /* 7 */
    xg_v_plain(g, "Exit");                                /* 8 */
    xg_edges(g, "1>2 2>3 3>4:1 3>7 4>5 5>8:1 5>6 6>3 7>8");
    return b;
}

START_TEST(early_return_from_a_loop)
{
    ADJOINT(return_from_loop, NULL, 1, 2, 3 * x2 * x1 * x1, x1 * x1 * x1);
    dot_product(return_from_loop, __func__, 1, 2);
}
END_TEST

/* f(a, c): a = a c; return if a < 0.6; a = a + sin(c). Called from a loop
 * with c = x(i): at x = (0.5, 1, 1.5) it returns early in the first two
 * calls (a = x1, then x1 x2) and not in the third: y = x1 x2 x3 + sin(x3). */
static xb *
return_in_callee(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 3, 1, "sub f", "integer i; real s");
    xg_bb(g, "s = 1");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "call f(s, x(i))");
    xg_end(g);
    xg_bb(g, "y(1) = s");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a; real c");
    xb_unstructured(b, "f");
    xg *f = xb_cfg_raw(b, "f", 3, "a c");
    xg_v_plain(f, "Entry");            /* 1 */
    xg_v_bb(f, "a = a * c");           /* 2 */
    xg_v_test(f, "If", "a < 0.6");     /* 3 */
    xg_v_bb(f, "a = a + sin_scal(c)"); /* 4 */
    xg_v_plain(f, "Exit");             /* 5 */
    xg_edges(f, "1>2 2>3 3>5:1 3>4 4>5");
    return b;
}

START_TEST(early_return_in_a_routine_called_from_a_loop)
{
    ADJOINT(return_in_callee, NULL, 1, 3, x2 * x3, x1 * x3, x1 * x2 + cos(x3));
    dot_product(return_in_callee, __func__, 1, 3);
}
END_TEST

/* ============================================================ gotos */

/* Two loops marked explicit, a call f(s, x(i), x(j)) that adds x(i) x(j) to
 * s in the inner one (its arguments' subscripts taped), and a goto
 * out of both once s > 2.2, to a Label after the outer loop. At x = (0.5,
 * 1, 1.5) the jump is taken at i = 2, j = 1: s = x1 + x1^2 + 2 x1 x2 + x1 x3;
 * y1 = s, y2 = s x3. */
static xb *
goto_out_of_nest(const char *name)
{
    xb *b = xb_new(name);
    xg *g = raw_head(b, 3, 2, "sub f", "real s; integer i; integer j");
    g->reversal = "explicit";
    xg_v_plain(g, "Entry");                      /* 1 */
    xg_v_bb(g, "s = x(1)");                      /* 2 */
    xg_v_for(g, "i = 1", "i <= 3", "i = i + 1"); /* 3 */
    xg_v_for(g, "j = 1", "j <= 3", "j = j + 1"); /* 4 */
    xg_v_bb(g, "call f(s, x(i), x(j))");         /* 5 */
    xg_v_test(g, "If", "s > 2.2");               /* 6 */
    xg_v_plain(g, "EndLoop");                    /* 7: j */
    xg_v_plain(g, "EndLoop");                    /* 8: i */
    xg_v_plain(g, "Goto");                       /* 9 */
    xg_v_plain(g, "Label");                      /* 10 */
    xg_v_bb(g, "y(1) = s; y(2) = s * x(3)");     /* 11 */
    xg_v_plain(g, "Exit");                       /* 12 */
    xg_edges(g, "1>2 2>3 3>4:1 3>10 4>5:1 4>8 5>6 6>9:1 6>7 7>4 8>3 9>10 10>11 11>12");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a; real u; real v");
    xg_bb(xb_cfg(b, "f", 3, "a u v"), "a = a + u * v");
    return b;
}

START_TEST(goto_out_of_a_nested_loop)
{
    double s = x1 + x1 * x1 + 2 * x1 * x2 + x1 * x3, s1 = 1 + 2 * x1 + 2 * x2 + x3;
    ADJOINT(goto_out_of_nest, NULL, 2, 3, s1, 2 * x1, x1, /* */
            s1 * x3, 2 * x1 * x3, x1 * x3 + s);
    dot_product(goto_out_of_nest, __func__, 2, 3);
}
END_TEST

/* Two loops entered in the middle. A while loop (k < 3: s = s x2 | label:
 * s = s + x1 x3; k = k + 1) that a goto enters at its label when x2 > 0.7;
 * then a ForLoop marked explicit (y2 = y2 x(i) | label: y2 = y2 + x(i))
 * entered at its label with i = 2, so that its update (not its
 * initialisation) runs first. At x = (0.5, 1, 1.5):
 * s = x1 x2^2 + x1 x3 x2^2 + x1 x3 x2 + x1 x3 and y2 = x3^2 + x2 x3 + x3. */
static xb *
entered_in_the_middle(const char *name)
{
    xb *b = xb_new(name);
    xg *g = raw_head(b, 3, 2, NULL, "real s; integer k; integer i");
    g->reversal = "explicit";
    xg_v_plain(g, "Entry");                       /* 1 */
    xg_v_bb(g, "s = x(1); k = 0");                /* 2 */
    xg_v_test(g, "If", "x(2) > 0.7");             /* 3 */
    xg_v_plain(g, "Goto");                        /* 4 */
    xg_v_test(g, "PreLoop", "k < 3");             /* 5 */
    xg_v_bb(g, "s = s * x(2)");                   /* 6 */
    xg_v_plain(g, "Label");                       /* 7 */
    xg_v_bb(g, "s = s + x(1) * x(3); k = k + 1"); /* 8 */
    xg_v_plain(g, "EndLoop");                     /* 9 */
    xg_v_bb(g, "y(1) = s; y(2) = x(3); i = 2");   /* 10 */
    xg_v_plain(g, "Goto");                        /* 11 */
    xg_v_for(g, "i = 1", "i <= 3", "i = i + 1");  /* 12 */
    xg_v_bb(g, "y(2) = y(2) * x(i)");             /* 13 */
    xg_v_plain(g, "Label");                       /* 14 */
    xg_v_bb(g, "y(2) = y(2) + x(i)");             /* 15 */
    xg_v_plain(g, "EndLoop");                     /* 16 */
    xg_v_plain(g, "Exit");                        /* 17 */
    xg_edges(g, "1>2 2>3 3>4:1 3>5 4>7 5>6:1 5>10 6>7 7>8 8>9 9>5 "
                "10>11 11>14 12>13:1 12>17 13>14 14>15 15>16 16>12");
    return b;
}

START_TEST(loops_entered_in_the_middle)
{
    ADJOINT(entered_in_the_middle, NULL, 2, 3, x2 * x2 + x3 * x2 * x2 + x3 * x2 + x3,
            2 * x1 * x2 + 2 * x1 * x3 * x2 + x1 * x3, x1 * x2 * x2 + x1 * x2 + x1, /* */
            0, x3, 2 * x3 + x2 + 1);
    dot_product(entered_in_the_middle, __func__, 2, 3);
}
END_TEST

/* ============================================================ while loops */

/* Two while loops whose exits depend on the data: the first (s > x2) runs
 * zero times at x = (0.5, 1), the second (s < 1.2: s = s + x1 x2) twice;
 * then an early return when y1 = s x1 > 0.7 skips y1 = 100 y1.
 * @raw: the same program as a graph marked structured="0"; otherwise the
 * while loops alone, nested, reversed by counting. s = x1 + 2 x1 x2. */
static xb *
while_loops(const char *name, bool raw)
{
    xb *b = xb_new(name);
    if (!raw) {
        xg *g = head_cfg(b, 2, 1, NULL, "real s");
        xg_bb(g, "s = x(1)");
        xg_while(g, "s > x(2)");
        xg_bb(g, "s = s * 0.5");
        xg_end(g);
        xg_while(g, "s < 1.2");
        xg_bb(g, "s = s + x(1) * x(2)");
        xg_end(g);
        xg_bb(g, "y(1) = s * x(1)");
        return b;
    }
    xg *g = raw_head(b, 2, 1, NULL, "real s");
    xg_v_plain(g, "Entry");              /* 1 */
    xg_v_bb(g, "s = x(1)");              /* 2 */
    xg_v_test(g, "PreLoop", "s > x(2)"); /* 3 */
    xg_v_bb(g, "s = s * 0.5");           /* 4 */
    xg_v_plain(g, "EndLoop");            /* 5 */
    xg_v_test(g, "PreLoop", "s < 1.2");  /* 6 */
    xg_v_bb(g, "s = s + x(1) * x(2)");   /* 7 */
    xg_v_plain(g, "EndLoop");            /* 8 */
    xg_v_bb(g, "y(1) = s * x(1)");       /* 9 */
    xg_v_test(g, "If", "y(1) > 0.7");    /* 10 */
    xg_v_bb(g, "y(1) = 100 * y(1)");     /* 11 */
    xg_v_plain(g, "Exit");               /* 12 */
    xg_edges(g, "1>2 2>3 3>4:1 3>6 4>5 5>3 6>7:1 6>9 7>8 8>6 9>10 10>12:1 10>11 11>12");
    return b;
}

static xb *
while_structured(const char *name)
{
    return while_loops(name, false);
}

static xb *
while_unstructured(const char *name)
{
    return while_loops(name, true);
}

START_TEST(while_loops_with_zero_trips)
{
    /* y = (x1 + 2 x1 x2) x1 */
    double s = x1 + 2 * x1 * x2;
    ADJOINT(while_structured, NULL, 1, 2, s + (1 + 2 * x2) * x1, 2 * x1 * x1);
    ADJOINT(while_unstructured, NULL, 1, 2, s + (1 + 2 * x2) * x1, 2 * x1 * x1);
    dot_product(while_unstructured, __func__, 1, 2);
}
END_TEST

/* A loop closed at its bottom: a Label, the body, and a PostLoop whose
 * condition value 1 goes back to the Label (repeat s = s x1 + x2 until
 * s >= 2). At x = (0.5, 1): s = 1.5, 1.75, 1.875, ... y = s after 4 trips
 * from s = x2: y = x2 (x1^4 + x1^3 + x1^2 + x1 + 1), 1.9375. */
static xb *
bottom_tested_loop(const char *name)
{
    xb *b = xb_new(name);
    xg *g = raw_head(b, 2, 1, NULL, "real s");
    xg_v_plain(g, "Entry");              /* 1 */
    xg_v_bb(g, "s = x(2)");              /* 2 */
    xg_v_plain(g, "Label");              /* 3 */
    xg_v_bb(g, "s = s * x(1) + x(2)");   /* 4 */
    xg_v_test(g, "PostLoop", "s < 1.9"); /* 5 */
    xg_v_bb(g, "y(1) = s");              /* 6 */
    xg_v_plain(g, "Exit");               /* 7 */
    xg_edges(g, "1>2 2>3 3>4 4>5 5>3:1 5>6 6>7");
    return b;
}

START_TEST(a_loop_tested_at_its_bottom)
{
    double p = 1 + x1 + x1 * x1 + x1 * x1 * x1 + x1 * x1 * x1 * x1;
    double dp = 1 + 2 * x1 + 3 * x1 * x1 + 4 * x1 * x1 * x1;
    ADJOINT(bottom_tested_loop, NULL, 1, 2, x2 * dp, p);
}
END_TEST

/* ============================================================ branches */

/* A branch inside a loop marked explicit: one arm (s > 1.1) scales s by x2
 * and leaves the loop (a goto to a Label after it), the other adds
 * x(i) x3. At x = (0.5, 1, 1.5): the else arm at i = 1, the exit at i = 2:
 * s = (x1 + x1 x3) x2; y1 = s, y2 = s x(i) with the i of the exit (2). */
static xb *
exit_from_an_arm(const char *name)
{
    xb *b = xb_new(name);
    xg *g = raw_head(b, 3, 2, NULL, "real s; integer i");
    g->reversal = "explicit";
    xg_v_plain(g, "Entry");                      /* 1 */
    xg_v_bb(g, "s = x(1)");                      /* 2 */
    xg_v_for(g, "i = 1", "i <= 4", "i = i + 1"); /* 3 */
    xg_v_test(g, "If", "s > 1.1");               /* 4 */
    xg_v_bb(g, "s = s * x(2)");                  /* 5 */
    xg_v_plain(g, "Goto");                       /* 6 */
    xg_v_bb(g, "s = s + x(i) * x(3)");           /* 7 */
    xg_v_plain(g, "EndBranch");                  /* 8 */
    xg_v_plain(g, "EndLoop");                    /* 9 */
    xg_v_plain(g, "Label");                      /* 10 */
    xg_v_bb(g, "y(1) = s; y(2) = s * x(i)");     /* 11 */
    xg_v_plain(g, "Exit");                       /* 12 */
    xg_edges(g, "1>2 2>3 3>4:1 3>10 4>5:1 4>7 5>6 6>10 7>8 8>9 9>3 10>11 11>12");
    return b;
}

START_TEST(early_exit_from_one_arm_of_a_branch)
{
    double s = (x1 + x1 * x3) * x2;
    ADJOINT(exit_from_an_arm, NULL, 2, 3, (1 + x3) * x2, x1 + x1 * x3, x1 * x2, /* */
            (1 + x3) * x2 * x2, (x1 + x1 * x3) * x2 + s, x1 * x2 * x2);
    dot_product(exit_from_an_arm, __func__, 2, 3);
}
END_TEST

/* ============================================================ no adjoint code */

/* g(n) counts with integers behind an early return: nothing of it has an
 * adjoint, so its reversal tapes nothing and dispatches on nothing (no
 * loop popping block numbers that no block pushes). y = x(k) x1, k = 1. */
static xb *
passive_callee(const char *name)
{
    xb *b = xb_new(name);
    xg *g = head_cfg(b, 2, 1, "sub g", "integer k");
    xg_bb(g, "k = 1; call g(k); y(1) = x(k) * x(1)");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "integer n");
    xb_unstructured(b, "g");
    xg *f = xb_cfg_raw(b, "g", 3, "n");
    xg_v_plain(f, "Entry");      /* 1 */
    xg_v_bb(f, "n = n + 1");     /* 2 */
    xg_v_test(f, "If", "n > 5"); /* 3 */
    xg_v_bb(f, "n = n - 1");     /* 4 */
    xg_v_plain(f, "Exit");       /* 5 */
    xg_edges(f, "1>2 2>3 3>5:1 3>4 4>5");
    return b;
}

START_TEST(an_unstructured_routine_without_adjoint_code)
{
    ADJOINT(passive_callee, NULL, 1, 2, 2 * x1, 0);
    tg t;
    ck_assert_int_eq(transform(&t, passive_callee(__func__), "adjoint", XF_ELIM_BEST), 0);
    ck_assert_ptr_null(strstr(t.out, "<xaif:PreLoop"));
    ck_assert_ptr_null(strstr(t.out, "<xaif:Branch"));
    tan_fini(&t);
}
END_TEST

/* ============================================================ refused */

/* The line (from 1) of ControlFlowEdge @id in @text; 0 if none. */
static unsigned long
edge_line(const char *text, const char *id)
{
    char pat[96];
    snprintf(pat, sizeof pat, "<xaif:ControlFlowEdge edge_id=\"%s\"", id);
    const char *hit = strstr(text, pat);
    unsigned long line = 1;
    for (const char *p = text; hit && p < hit; p++)
        line += *p == '\n';
    return hit ? line : 0;
}

/* The adjoint pipeline refuses @b: its first message is an error at
 * t.xaif:@line naming routine head and containing @what. */
static void
expect_refusal(xb *b, unsigned long line, const char *what)
{
    tg t;
    ck_assert_int_ne(transform(&t, b, "adjoint", XF_ELIM_BEST), 0);
    const char *msg = first_message(t.d);
    char where[64];
    snprintf(where, sizeof where, "t.xaif:%lu: error: adjoint of routine head: ", line);
    ck_assert_msg(strstr(msg, where) == msg, "'%s' does not start with '%s'", msg, where);
    ck_assert_msg(strstr(msg, what) != NULL, "'%s' is not in '%s'", what, msg);
    ck_assert_ptr_null(t.out);
    tan_fini(&t);
}

/* An edge back into Entry (k counts the runs through it): the interpreter
 * passes through Entry, y = s = x1^2 + x1 x2; a reversal by block numbers
 * would read the 0 the second pass pushes as the start of the run and
 * drop the first pass's adjoint, so the adjoint is refused. */
static xb *
into_entry(const char *name)
{
    xb *b = xb_new(name);
    xg *g = raw_head(b, 2, 1, NULL, "integer k; real s");
    xg_v_plain(g, "Entry");                       /* 1 */
    xg_v_bb(g, "k = k + 1; s = s + x(1) * x(k)"); /* 2 */
    xg_v_test(g, "If", "k < 2");                  /* 3 */
    xg_v_bb(g, "y(1) = s");                       /* 4 */
    xg_v_plain(g, "Exit");                        /* 5 */
    xg_edges(g, "1>2 2>3 3>1:1 3>4 4>5");
    return b;
}

START_TEST(a_jump_back_into_entry_is_refused)
{
    xb *b = into_entry(__func__);
    unsigned long line = edge_line(xb_build(b), "3");
    ck_assert_uint_ne(line, 0);
    expect_refusal(b, line, "control-flow edge 3 leads back into Entry vertex 1");
    /* the original runs: divided differences of y = x1^2 + x1 x2 */
    xf_diag *d;
    xf_doc *doc = read_text(xb_build(b = into_entry(__func__)), &d);
    ck_assert_ptr_nonnull(doc);
    xf_jacobian D = {0};
    xf_run_opts ro = {.driver = XF_DRIVER_DD, .params = {.n = 2, .m = 1, .h = 1e-7}};
    ck_assert_int_eq(xf_run(doc, &ro, &D, NULL, d), 0);
    ck_assert_msg(fabs(jf(&D, 1, 1) - (2 * x1 + x2)) < 1e-6, "%g", jf(&D, 1, 1));
    ck_assert_msg(fabs(jf(&D, 1, 2) - x1) < 1e-6, "%g", jf(&D, 1, 2));
    xf_jacobian_fini(&D);
    xf_diag_free(d);
    xb_free(b);
    xf_doc_free(doc);
}
END_TEST

/* A BasicBlock with two out-edges without conditions: neither the
 * interpreter (which cannot choose) nor the reversal takes it. */
static xb *
two_ways(const char *name)
{
    xb *b = xb_new(name);
    xg *g = raw_head(b, 2, 1, NULL, NULL);
    xg_v_plain(g, "Entry");           /* 1 */
    xg_v_bb(g, "y(1) = x(1) * x(2)"); /* 2 */
    xg_v_bb(g, "y(1) = y(1) * x(1)"); /* 3 */
    xg_v_plain(g, "Exit");            /* 4 */
    xg_edges(g, "1>2 2>3 2>4 3>4");
    return b;
}

START_TEST(a_block_with_two_successors_is_refused)
{
    xb *b = two_ways(__func__);
    const char *text = xb_build(b);
    char pat[] = "<xaif:BasicBlock vertex_id=\"2\"";
    unsigned long line = 1;
    const char *hit = strstr(text, pat);
    ck_assert_ptr_nonnull(hit);
    for (const char *p = text; p < hit; p++)
        line += *p == '\n';
    expect_refusal(b, line, "BasicBlock vertex 2 has 2 out-edges, not one");
    /* the interpreter refuses to run it */
    xf_diag *d;
    xf_doc *doc = read_text(xb_build(b = two_ways(__func__)), &d);
    ck_assert_ptr_nonnull(doc);
    xf_jacobian J = {0};
    xf_run_opts ro = {.driver = XF_DRIVER_PLAIN, .params = {.n = 2, .m = 1, .h = 1e-7}};
    ck_assert_int_ne(xf_run(doc, &ro, &J, NULL, d), 0);
    ck_assert_msg(strstr(first_message(d), "BasicBlock vertex 2 has 2 out-edges, not one"), "%s",
                  first_message(d));
    xf_jacobian_fini(&J);
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

/* ============================================================ suite */

Suite *
test_unstruct_suite(void)
{
    Suite *s = suite_create("unstruct");
    TCase *tc = tcase_create("reverse");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, early_return_from_a_loop);
    tcase_add_test(tc, early_return_in_a_routine_called_from_a_loop);
    tcase_add_test(tc, goto_out_of_a_nested_loop);
    tcase_add_test(tc, loops_entered_in_the_middle);
    tcase_add_test(tc, while_loops_with_zero_trips);
    tcase_add_test(tc, a_loop_tested_at_its_bottom);
    tcase_add_test(tc, early_exit_from_one_arm_of_a_branch);
    tcase_add_test(tc, an_unstructured_routine_without_adjoint_code);
    tcase_add_test(tc, a_jump_back_into_entry_is_refused);
    tcase_add_test(tc, a_block_with_two_successors_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
