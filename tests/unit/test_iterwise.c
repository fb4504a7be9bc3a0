/* test_iterwise.c: the iteration-wise adjoint of loops whose body is more
 * than basic blocks (a branch, an inner loop), the selection rule
 * --loops auto (transforms/loops/iterwise.c, F8) and its decision lines, and the
 * interpreter's measure of each loop's tape (run --loop-tape,
 * frontends/run/looptape.c): each executed under the joint and the split
 * driver against the adjoint without the rule. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive_fixture.h"
#include "iterwise.h"
#include "suites.h"

/* What one run printed: the decision lines, the loop-tape lines. */
typedef struct printed {
    char *report, *tape;
    size_t nreport, ntape;
} printed;

static void
printed_fini(printed *p)
{
    free(p->report);
    free(p->tape);
}

/* The adjoint of @b with the pass options @opts (name, argument pairs, NULL
 * ending; an argument may be NULL), validated, run under @drv with n = 2
 * and m = 2: the Jacobian in *@J, the counts in *@st, and when @p is not
 * NULL what --report-loops and run --loop-tape printed. */
static void
run_with(xb *b, const char *const *opts, xf_driver drv, xf_jacobian *J, xf_run_stats *st,
         printed *p)
{
    xf_diag *d;
    xf_doc *doc = read_text(xb_build(b), &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    const xf_pass *passes[XF_PM_MAX];
    char err[256];
    int n = xf_pipeline_parse("adjoint", passes, XF_PM_MAX, err, sizeof err);
    ck_assert_msg(n > 0, "%s", err);
    xf_opts o;
    xf_pm_opts_init(&o);
    for (int k = 0; opts && opts[k]; k += 2)
        ck_assert_msg(xf_pm_option(&o, opts[k], opts[k + 1], err, sizeof err) == 0, "%s", err);
    FILE *rep = NULL, *lt = NULL;
    if (p) {
        memset(p, 0, sizeof *p);
        rep = open_memstream(&p->report, &p->nreport);
        lt = open_memstream(&p->tape, &p->ntape);
        ck_assert(rep && lt);
        o.report_loops = rep;
    }
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d, .catalogue = cat, .direct = direct};
    ck_assert_msg(xf_pipeline_run(&ctx, passes, n) == 0, "%s", first_message(d));
    char *text;
    size_t len;
    ck_assert_int_eq(xf_write_memory(doc, &text, &len, d), 0);
    xf_doc_free(doc);
    ck_assert_msg(xf_schema_validate_memory(schema, text, len, "iw.xaif", d) == 0, "%s",
                  first_message(d));
    xf_doc *out = xf_read_memory(text, len, "iw.xaif", NULL, d);
    ck_assert_ptr_nonnull(out);
    xf_run_opts ro = {.driver = drv, .params = {.n = 2, .m = 2, .h = 1e-7}, .loop_tape = lt};
    ck_assert_msg(xf_run(out, &ro, J, st, d) == 0, "%s", first_message(d));
    for (int w = 0; w < XF_WORD_KINDS; w++)
        ck_assert_uint_eq(st->push[w], st->pop[w]);
    if (p) {
        fclose(rep);
        fclose(lt);
    }
    xf_doc_free(out);
    free(text);
    xf_diag_free(d);
    xb_free(b);
}

static void
assert_same_jacobian(const xf_jacobian *a, const xf_jacobian *b)
{
    assert_jacobians_equal(a, b, "without the rule");
}

/* The @k-th line (from 0) of @text that starts with @start and holds
 * @has, or "". */
static const char *
line_of(const char *text, const char *start, const char *has, int k, char *buf, size_t len)
{
    buf[0] = 0;
    for (const char *s = text ? text : ""; *s;) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (!strncmp(s, start, strlen(start)) && n < len) {
            memcpy(buf, s, n);
            buf[n] = 0;
            if (strstr(buf, has) && k-- == 0)
                return buf;
        }
        s += n + (e != NULL);
    }
    buf[0] = 0;
    return buf;
}

static const char *const rule_joint[] = {"loops", "auto", "reversal", "joint", NULL};
static const char *const rule_both[] = {"loops", "auto", NULL}; /* no --reversal: split's rules */
static const char *const rule_split[] = {"loops", "auto", "reversal", "split", NULL};
static const char *const rule_both_taped[] = {"loops", "auto", "tape-off", "values", NULL};
/* split's rule with partials taped that could be recomputed from values
 * nothing overwrites (tbr_values.c): without that saving, three_loops's
 * second loop has a tape worth keeping its reads for */
static const char *const rule_split_taped[] = {"loops",    "auto",   "reversal", "split",
                                               "tape-off", "values", NULL};

/* The rule under both drivers (the split driver runs the adjoint made with
 * --reversal split) against the adjoint without it: the same Jacobian, a
 * peak at least @drop words lower; head's first loop given its tape back
 * every iteration in the taping sweep, and the rule's decision for it. */
static void
assert_rule_shrinks(xb *(*make)(void), int64_t drop)
{
    for (int s = 0; s < 2; s++) {
        xf_driver drv = s ? XF_DRIVER_ADJOINT_SPLIT : XF_DRIVER_ADJOINT_JOINT;
        xf_jacobian J0, J1;
        xf_run_stats st0, st1;
        printed p0, p1;
        run_with(make(), NULL, drv, &J0, &st0, &p0);
        run_with(make(), s ? rule_split : rule_joint, drv, &J1, &st1, &p1);
        assert_same_jacobian(&J1, &J0);
        ck_assert_msg(st0.peak_tape - st1.peak_tape >= drop, "%s: peak tape %lld, was %lld",
                      xf_driver_name(drv), (long long)st1.peak_tape, (long long)st0.peak_tape);
        char buf[400];
        const char *t0 = p0.tape ? p0.tape : "", *t1 = p1.tape ? p1.tape : "";
        ck_assert_msg(
            strstr(line_of(t0, "loop-tape: head ", "taping", 0, buf, sizeof buf), "released no"),
            "%s", t0);
        ck_assert_msg(
            strstr(line_of(t1, "loop-tape: head ", "taping", 0, buf, sizeof buf), "released yes"),
            "%s", t1);
        const char *r1 = p1.report ? p1.report : "";
        ck_assert_msg(strstr(line_of(r1, "decision: head ", "", 0, buf, sizeof buf),
                             ": iteration-wise (parallel, terminal)"),
                      "%s", r1);
        printed_fini(&p0);
        printed_fini(&p1);
        xf_jacobian_fini(&J0);
        xf_jacobian_fini(&J1);
    }
}

/* A terminal parallel loop whose body branches: each arm tapes something. */
static xb *
branch_body(void)
{
    xb *b = xb_new("branch_body");
    xg *g = head_cfg(b, 2, 2, NULL, "real t; integer i");
    xg_bb(g, "y(1) = 0; y(2) = 0");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_if(g, "x(1) * i > 2");
    xg_bb(g, "t = sin_scal(x(1) * i) * x(2)");
    xg_else(g);
    xg_bb(g, "t = exp_scal(x(2) * 0.1 * i) * x(1)");
    xg_end(g);
    xg_bb(g, "y(1) = y(1) + t * t; y(2) = y(2) + t * x(2)");
    xg_end(g);
    return b;
}

START_TEST(branch_in_body)
{
    assert_rule_shrinks(branch_body, 10);
}
END_TEST

/* A terminal parallel loop with an inner loop in its body: the outer loop
 * is adjoined iteration by iteration, the inner loop's adjoint with it. */
static xb *
nested_body(void)
{
    xb *b = xb_new("nested_body");
    xg *g = head_cfg(b, 2, 2, NULL, "real t; integer i; integer j");
    xg_bb(g, "y(1) = 0; y(2) = 0");
    xg_for(g, "i = 1", "i <= 6", "i = i + 1");
    xg_bb(g, "t = x(1) * i; y(2) = y(2) + cos_scal(t) * x(2)");
    xg_for(g, "j = 1", "j <= 4", "j = j + 1");
    xg_bb(g, "y(1) = y(1) + sin_scal(t * j) * x(2)");
    xg_end(g);
    xg_end(g);
    return b;
}

START_TEST(inner_loop_in_body)
{
    assert_rule_shrinks(nested_body, 5 * 4);
}
END_TEST

/* The inner loop of nested_body is terminal within each outer iteration
 * only (the next one reads y again): under joint reversal it is adjoined
 * iteration by iteration inside the outer loop's iterations, and its own
 * tape is then one inner iteration's. It reads the outer iteration's local
 * t, whose adjoint the split template loses between its two activations:
 * under --reversal split it is left alone, and says so. */
START_TEST(inner_loop_within_outer)
{
    xf_jacobian J0, J1, J2;
    xf_run_stats st0, st1, st2;
    printed p0, p1, p2;
    char buf[400];
    run_with(nested_body(), NULL, XF_DRIVER_ADJOINT_JOINT, &J0, &st0, &p0);
    run_with(nested_body(), rule_joint, XF_DRIVER_ADJOINT_JOINT, &J1, &st1, &p1);
    run_with(nested_body(), rule_split, XF_DRIVER_ADJOINT_SPLIT, &J2, &st2, &p2);
    assert_same_jacobian(&J1, &J0);
    assert_same_jacobian(&J2, &J0);
    const char *r1 = p1.report ? p1.report : "", *r2 = p2.report ? p2.report : "";
    const char *t0 = p0.tape ? p0.tape : "", *t1 = p1.tape ? p1.tape : "";
    ck_assert_msg(strstr(line_of(r1, "decision: head ", "", 1, buf, sizeof buf),
                         ": iteration-wise (parallel, terminal within each iteration of the "
                         "loop around it, adjoined so too)"),
                  "%s", r1);
    ck_assert_msg(strstr(line_of(r2, "decision: head ", "", 1, buf, sizeof buf),
                         ": left alone (not terminal; within each iteration of the loop around "
                         "it: it reads a local variable"),
                  "%s", r2);
    ck_assert_msg(
        strstr(line_of(t0, "loop-tape: head ", "taping", 1, buf, sizeof buf), "released no"), "%s",
        t0);
    ck_assert_msg(
        strstr(line_of(t1, "loop-tape: head ", "taping", 1, buf, sizeof buf), "released yes"), "%s",
        t1);
    /* one inner iteration and what the outer iteration keeps, against all
     * 6 x 4 inner iterations */
    ck_assert_msg(st1.peak_tape * 4 <= st0.peak_tape, "peak %lld, was %lld",
                  (long long)st1.peak_tape, (long long)st0.peak_tape);
    printed_fini(&p0);
    printed_fini(&p1);
    printed_fini(&p2);
    xf_jacobian_fini(&J0);
    xf_jacobian_fini(&J1);
    xf_jacobian_fini(&J2);
}
END_TEST

/* A loop of a called routine that writes the routine's output (terminal
 * in joint reversal only), two partials taped per iteration. Under the
 * split template f's adjoint sweep runs after head has overwritten u, the
 * array the loop reads: the rule dry-runs the loop with u (and s) kept for
 * that sweep (iterwise_snap.c), 11 words against a tape of 20. */
static xb *
called_loop(void)
{
    xb *b = xb_new("called_loop");
    xg *g = head_cfg(b, 2, 2, "sub f", "real u(10); real v(10); integer i");
    xg_bb(g, "y(1) = 0; y(2) = 0");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "u(i) = x(1) * i + x(2)");
    xg_end(g);
    xg_bb(g, "call f(u, x(2), v)");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "u(i) = 0; y(1) = y(1) + v(i); y(2) = y(2) + v(i) * x(1)");
    xg_end(g);
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real p(10); real s; real q(10); integer j");
    xg *f = xb_cfg(b, "f", 3, "p s q");
    xg_for(f, "j = 1", "j <= 10", "j = j + 1");
    xg_bb(f, "q(j) = sin_scal(p(j) * s) * p(j)");
    xg_end(f);
    return b;
}

/* Split driver: the Jacobian is the default adjoint's (the rerun reads the
 * u f was called with, not head's zeros), the decision line says what was
 * kept, the peak tape falls by at least a word per iteration, and the
 * snapshot holds u. Without --reversal the output is the same and right
 * under the joint driver too. */
START_TEST(called_loop_kept_under_split)
{
    xf_jacobian J0, J1, J2;
    xf_run_stats st0, st1, st2;
    printed p;
    run_with(called_loop(), NULL, XF_DRIVER_ADJOINT_SPLIT, &J0, &st0, NULL);
    run_with(called_loop(), rule_split, XF_DRIVER_ADJOINT_SPLIT, &J1, &st1, &p);
    run_with(called_loop(), rule_both, XF_DRIVER_ADJOINT_JOINT, &J2, &st2, NULL);
    assert_same_jacobian(&J1, &J0);
    assert_same_jacobian(&J2, &J0);
    char buf[400];
    const char *r = p.report ? p.report : "";
    ck_assert_msg(strstr(line_of(r, "decision: f ", "", 0, buf, sizeof buf),
                         ": dry run (parallel, terminal in joint reversal only; what it reads "
                         "kept for the adjoint sweep of split reversal)"),
                  "%s", r);
    ck_assert_msg(st0.peak_tape - st1.peak_tape >= 10, "peak %lld, was %lld",
                  (long long)st1.peak_tape, (long long)st0.peak_tape);
    ck_assert_msg(st1.peak_snap >= 10, "snapshot peak %lld", (long long)st1.peak_snap);
    printed_fini(&p);
    xf_jacobian_fini(&J0);
    xf_jacobian_fini(&J1);
    xf_jacobian_fini(&J2);
}
END_TEST

/* One decision line per loop: a recurrence (not parallel: per-iteration
 * dry-running, pass iterdry), a parallel terminal loop that reads a local
 * array (iteration-wise in joint reversal; under --reversal split dry-run,
 * what it reads kept for the adjoint sweep: iterwise_snap.c). */
static xb *
three_loops(void)
{
    xb *b = xb_new("three_loops");
    xg *g = head_cfg(b, 2, 2, NULL, "real a(10); integer i");
    xg_bb(g, "a(1) = x(1); y(1) = 0; y(2) = 0");
    xg_for(g, "i = 2", "i <= 10", "i = i + 1");
    xg_bb(g, "a(i) = a(i - 1) * 0.5 + x(2)");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "y(1) = y(1) + sin_scal(a(i)); y(2) = y(2) + a(i) * x(1)");
    xg_end(g);
    return b;
}

/* Loops that overwrite elements of a local array they read from before
 * them. @terminal: three_loops's second loop sets a(i) = 0 once it has read
 * it: in split reversal its adjoint may not run early, in the taping sweep,
 * since the adjoint of a's values from before it, which the first loop's
 * adjoint reads, lives in the taping sweep's activation (loopdep's
 * local_input). Otherwise the second loop writes b(i) and then a(i) = 0, and
 * a third loop reads b: run again in the adjoint sweep (dry-running), the
 * second loop would read the zeros its first run left (input_rewritten). */
static xb *
overwrites(bool terminal)
{
    xb *b = xb_new("overwrites");
    xg *g = head_cfg(b, 2, 2, NULL, "real a(10); real b(10); integer i");
    xg_bb(g, "a(1) = x(1); y(1) = 0; y(2) = 0");
    xg_for(g, "i = 2", "i <= 10", "i = i + 1");
    xg_bb(g, "a(i) = a(i - 1) * 0.5 + x(2)");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    if (terminal) {
        xg_bb(g, "y(1) = y(1) + sin_scal(a(i)); y(2) = y(2) + a(i) * x(1); a(i) = 0");
    } else {
        xg_bb(g, "b(i) = sin_scal(a(i)) * x(1); a(i) = 0");
        xg_end(g);
        xg_for(g, "i = 1", "i <= 10", "i = i + 1");
        xg_bb(g, "y(1) = y(1) + b(i); y(2) = y(2) + b(i) * x(2)");
    }
    xg_end(g);
    return b;
}

/* Each rule under the driver of its template against the adjoint without
 * it (itself against divided differences), and the second loop's decision. */
static void
assert_overwrites(bool terminal, const char *joint_decision, const char *split_decision)
{
    static const char *const *const rules[] = {rule_joint, rule_both, rule_split, rule_both_taped,
                                               rule_split_taped};
    xf_jacobian J0, D;
    xf_run_stats st0;
    run_with(overwrites(terminal), NULL, XF_DRIVER_ADJOINT_JOINT, &J0, &st0, NULL);
    run_with(overwrites(terminal), NULL, XF_DRIVER_DD, &D, &st0, NULL);
    for (int k = 0; k < J0.m * J0.n; k++)
        ck_assert_msg(fabs(J0.f[k] - D.f[k]) <= 1e-5 * (1 + fabs(D.f[k])), "entry %d: %g, dd %g", k,
                      J0.f[k], D.f[k]);
    char buf[400];
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
        for (int d = r == 0 ? 0 : 1; d >= 0; d--) {
            xf_jacobian J;
            xf_run_stats st;
            printed p;
            run_with(overwrites(terminal), rules[r],
                     d ? XF_DRIVER_ADJOINT_SPLIT : XF_DRIVER_ADJOINT_JOINT, &J, &st, &p);
            assert_same_jacobian(&J, &J0);
            const char *want = r == 0 ? joint_decision : split_decision;
            const char *rep = p.report ? p.report : "";
            ck_assert_msg(strstr(line_of(rep, "decision: head ", "", 1, buf, sizeof buf), want),
                          "rule %zu: %s", r, rep);
            printed_fini(&p);
            xf_jacobian_fini(&J);
        }
    xf_jacobian_fini(&J0);
    xf_jacobian_fini(&D);
}

/* split's rules: not iteration-wise (a local input), not dry-run either */
static const char overwrites_no[] = ": left alone (it overwrites a value it reads from before it: "
                                    "run again, it would read the new one (no dry run))";

START_TEST(overwritten_local_split)
{
    assert_overwrites(true, ": iteration-wise (parallel, terminal)", overwrites_no);
}
END_TEST

START_TEST(overwritten_input_not_rerun)
{
    assert_overwrites(false, overwrites_no, overwrites_no);
}
END_TEST

START_TEST(decisions_reported)
{
    xf_jacobian J0, J1, J2;
    xf_run_stats st0, st1, st2;
    printed pj, ps;
    char buf[400];
    run_with(three_loops(), NULL, XF_DRIVER_ADJOINT_JOINT, &J0, &st0, NULL);
    run_with(three_loops(), rule_joint, XF_DRIVER_ADJOINT_JOINT, &J1, &st1, &pj);
    run_with(three_loops(), rule_split_taped, XF_DRIVER_ADJOINT_SPLIT, &J2, &st2, &ps);
    assert_same_jacobian(&J1, &J0);
    assert_same_jacobian(&J2, &J0);
    const char *rj = pj.report ? pj.report : "", *rs = ps.report ? ps.report : "";
    ck_assert_msg(
        strstr(line_of(rj, "decision: head ", "", 0, buf, sizeof buf),
               ": per-iteration dry run if pass iterdry takes it (not parallel: offset a)"),
        "%s", rj);
    ck_assert_msg(strstr(line_of(rj, "decision: head ", "", 1, buf, sizeof buf),
                         ": iteration-wise (parallel, terminal)"),
                  "%s", rj);
    ck_assert_msg(strstr(line_of(rs, "decision: head ", "", 1, buf, sizeof buf),
                         ": dry run (parallel, terminal, not adjoined in the taping sweep of "
                         "split reversal; what it reads kept for the adjoint sweep of split "
                         "reversal)"),
                  "%s", rs);
    ck_assert_msg(st0.peak_tape - st1.peak_tape >= 10, "peak %lld, was %lld",
                  (long long)st1.peak_tape, (long long)st0.peak_tape);
    /* the second loop of the taping sweep: given back in joint, kept in split */
    const char *tj = pj.tape ? pj.tape : "", *ts = ps.tape ? ps.tape : "";
    ck_assert_msg(
        strstr(line_of(tj, "loop-tape: head ", "taping", 1, buf, sizeof buf), "released yes"), "%s",
        tj);
    /* in split, the second loop is dry-run, what it reads kept: its rerun
     * in the adjoint sweep gives its tape back every iteration */
    ck_assert_msg(strstr(line_of(ts, "loop-tape: head ", "adjoint sweep: runs 2, iterations 20", 0,
                                 buf, sizeof buf),
                         "released yes"),
                  "%s", ts);
    xf_jacobian J3;
    xf_run_stats st3;
    run_with(three_loops(), NULL, XF_DRIVER_ADJOINT_SPLIT, &J3, &st3, NULL);
    assert_same_jacobian(&J2, &J3);
    ck_assert_msg(st3.peak_tape - st2.peak_tape >= 10 && st2.peak_snap > 0,
                  "split peak %lld (snapshots %lld), was %lld", (long long)st2.peak_tape,
                  (long long)st2.peak_snap, (long long)st3.peak_tape);
    xf_jacobian_fini(&J3);
    /* without --reversal the output is for both templates: split's
     * decision, and the Jacobian right under both drivers */
    for (int d = 0; d < 2; d++) {
        xf_jacobian Jb;
        xf_run_stats stb;
        printed pb;
        run_with(three_loops(), rule_both_taped,
                 d ? XF_DRIVER_ADJOINT_SPLIT : XF_DRIVER_ADJOINT_JOINT, &Jb, &stb, &pb);
        assert_same_jacobian(&Jb, &J0);
        const char *rb = pb.report ? pb.report : "";
        ck_assert_msg(strstr(line_of(rb, "decision: head ", "", 1, buf, sizeof buf),
                             ": dry run (parallel, terminal, not adjoined in the taping "
                             "sweep of split reversal; what it reads kept"),
                      "%s", rb);
        printed_fini(&pb);
        xf_jacobian_fini(&Jb);
    }
    printed_fini(&pj);
    printed_fini(&ps);
    xf_jacobian_fini(&J0);
    xf_jacobian_fini(&J1);
    xf_jacobian_fini(&J2);
}
END_TEST

/* The measure itself: without the rule the terminal loop keeps its tape
 * (exit above entry by what its iterations pushed, every one of them);
 * the largest iteration is what one iteration pushes. */
START_TEST(loop_tape_figures)
{
    xf_jacobian J;
    xf_run_stats st;
    printed p;
    char buf[400];
    run_with(branch_body(), NULL, XF_DRIVER_ADJOINT_JOINT, &J, &st, &p);
    const char *l = line_of(p.tape, "loop-tape: head ", "taping", 0, buf, sizeof buf);
    long long runs, iters, entry, exit, kept, most;
    const char *at = strstr(l, "runs ");
    ck_assert_msg(at && sscanf(at,
                               "runs %lld, iterations %lld, entry %lld, exit %lld, kept %lld, "
                               "largest iteration %lld",
                               &runs, &iters, &entry, &exit, &kept, &most) == 6,
                  "%s", p.tape ? p.tape : "");
    ck_assert_int_eq(runs, 2); /* m = 2 adjoint sweeps */
    ck_assert_int_eq(iters, 20);
    ck_assert_int_eq(exit - entry, kept);
    ck_assert_int_ge(most, 1);
    ck_assert_int_ge(kept, 10 * most - 10 * most / 2); /* every iteration tapes */
    ck_assert_int_le(kept, 10 * most);
    ck_assert_int_le(kept, st.peak_tape);
    printed_fini(&p);
    xf_jacobian_fini(&J);
}
END_TEST

/* A parallel loop that is not terminal (the next loop reads a), whose body
 * branches and whose header tbr inverts (a local counter, constant bounds):
 * dry-run under joint reversal, the adjoint sweep running it again
 * forwards over a copy of its taping body. */
static xb *
branch_not_terminal(void)
{
    xb *b = xb_new("branch_not_terminal");
    xg *g = head_cfg(b, 2, 2, NULL, "real a(10); integer i");
    xg_bb(g, "y(1) = 0; y(2) = 0");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_if(g, "x(1) * i > 2");
    xg_bb(g, "a(i) = sin_scal(x(1) * i) * x(2)");
    xg_else(g);
    xg_bb(g, "a(i) = exp_scal(x(2) * 0.1 * i) * x(1)");
    xg_end(g);
    xg_end(g);
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "y(1) = y(1) + a(i) * x(2); y(2) = y(2) + a(i) * x(1)");
    xg_end(g);
    return b;
}

START_TEST(inverted_branch_dry_run)
{
    xf_jacobian J0, J1;
    xf_run_stats st0, st1;
    printed p0, p1;
    char buf[400];
    run_with(branch_not_terminal(), NULL, XF_DRIVER_ADJOINT_JOINT, &J0, &st0, &p0);
    run_with(branch_not_terminal(), rule_joint, XF_DRIVER_ADJOINT_JOINT, &J1, &st1, &p1);
    assert_same_jacobian(&J1, &J0);
    const char *r1 = p1.report ? p1.report : "", *t1 = p1.tape ? p1.tape : "";
    ck_assert_msg(strstr(line_of(r1, "decision: head ", "", 0, buf, sizeof buf),
                         ": dry run (parallel, not terminal)"),
                  "%s", r1);
    ck_assert_msg(
        strstr(line_of(t1, "loop-tape: head ", "taping", 0, buf, sizeof buf), "released yes"), "%s",
        t1);
    ck_assert_msg(st0.peak_tape - st1.peak_tape >= 10, "peak tape %lld, was %lld",
                  (long long)st1.peak_tape, (long long)st0.peak_tape);
    printed_fini(&p0);
    printed_fini(&p1);
    xf_jacobian_fini(&J0);
    xf_jacobian_fini(&J1);
}
END_TEST

START_TEST(bad_rule_refused)
{
    xf_opts o;
    char err[256];
    xf_pm_opts_init(&o);
    ck_assert_int_ne(xf_pm_option(&o, "loops", "sometimes", err, sizeof err), 0);
    ck_assert_msg(strstr(err, "sometimes") != NULL, "%s", err);
    ck_assert_int_eq(xf_pm_option(&o, "loops", "auto", err, sizeof err), 0);
    const xf_iw_opts *own = xf_pass_own_c(&o, &xf_pass_iterwise);
    ck_assert(own->loops_auto);
    ck_assert_int_eq(xf_pm_option(&o, "loops", "off", err, sizeof err), 0);
    ck_assert(!own->loops_auto);
}
END_TEST

Suite *
test_iterwise_suite(void)
{
    Suite *s = suite_create("iterwise");
    TCase *tc = tcase_create("rule");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, branch_in_body);
    tcase_add_test(tc, inner_loop_in_body);
    tcase_add_test(tc, inner_loop_within_outer);
    tcase_add_test(tc, overwritten_local_split);
    tcase_add_test(tc, overwritten_input_not_rerun);
    tcase_add_test(tc, decisions_reported);
    tcase_add_test(tc, called_loop_kept_under_split);
    tcase_add_test(tc, loop_tape_figures);
    tcase_add_test(tc, inverted_branch_dry_run);
    tcase_add_test(tc, bad_rule_refused);
    suite_add_tcase(s, tc);
    return s;
}
