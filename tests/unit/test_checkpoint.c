/* test_checkpoint.c: binomial checkpointing of time loops (transforms/
 * checkpoint.c, frontends/run/snapshot.c). Each time-stepping program is
 * built with the fixtures, its DO loop given a lineNumber, and transformed
 * twice by the adjoint pipeline: plainly and with --checkpoint-loop. Both
 * outputs are validated, read back and run under the joint and the split
 * driver. Asserted: the Jacobian with checkpointing equals the one without
 * (1e-12 relative) and divided differences of the original; the peak tape
 * is that of one step (plus what lies outside the loop and the schedule's 5
 * integers); the peak snapshot words are at most S states and the
 * variables the steps only read, once; every step is
 * taped and adjoined once; the forward (recomputation) steps are Griewank's
 * minimum for T steps and S snapshots:
 *
 *     r T - C(S + r, S + 1),  r the least integer with C(S + r, S) >= T
 *
 * e.g. T = 1000: S = 2: r = 44, 28 820 steps; S = 5: r = 8, 6 284;
 * S = 10: r = 4, 3 636; S = 20: r = 3, 2 747. */
#include "checkpoint.h"
#include "derive_fixture.h"
#include "suites.h"

static const xf_driver sweeps[2] = {XF_DRIVER_ADJOINT_JOINT, XF_DRIVER_ADJOINT_SPLIT};

/* C(n, k) */
static int64_t
binom(int64_t n, int64_t k)
{
    int64_t b = 1;
    for (int64_t i = 1; i <= k; i++)
        b = b * (n - k + i) / i;
    return b;
}

/* Griewank's minimum of forward steps for @T steps and @S snapshots. */
static int64_t
revolve_optimum(int64_t T, int64_t S)
{
    int64_t r = 0;
    while (binom(S + r, S) < T)
        r++;
    return r * T - binom(S + r, S + 1);
}

/* The schedule of the next transforms: 'b' binomial, 'p' periodic:K,
 * 't' two-level:K. */
static char sched_kind = 'b';
static int64_t sched_k;

/* OpenAD's output schema (the corpus's), loaded at the first use. */
static xf_schema *openad;
static bool tried;

static void
openad_free(void)
{
    xf_schema_free(openad);
    openad = NULL;
    tried = false;
}

/* What one transform and one run gave. */
typedef struct res {
    xf_jacobian J;
    xf_run_stats st;
    int rc;
    char msg[512];
} res;

/* Give the first @elem (ForLoop, PreLoop) of @text the lineNumber @line
 * (the fixtures write none). */
static char *
loop_line_nth(const char *text, const char *elem, int nth, int line)
{
    char pat[64];
    snprintf(pat, sizeof pat, "<xaif:%s vertex_id=\"", elem);
    const char *at = strstr(text, pat);
    for (int k = 1; at && k < nth; k++)
        at = strstr(at + 1, pat);
    ck_assert_ptr_nonnull(at);
    const char *close = strchr(at, '>');
    char attr[32];
    snprintf(attr, sizeof attr, " lineNumber=\"%d\"", line);
    size_t n = strlen(text), k = (size_t)(close - text);
    char *out = malloc(n + strlen(attr) + 1);
    ck_assert_ptr_nonnull(out);
    memcpy(out, text, k);
    strcpy(out + k, attr);
    strcat(out, close);
    return out;
}

static char *
loop_line(const char *text, const char *elem, int line)
{
    return loop_line_nth(text, elem, 1, line);
}

static char *
with_line(const char *text, int line)
{
    return loop_line(text, "ForLoop", line);
}

/* Transform @text (adjoint pipeline; with @loop, checkpoint it with @snaps
 * snapshots, 0: the default); validate, read back, run under @driver. */
static void
adjoint_run(const char *text, const char *loop, int64_t snaps, xf_driver driver, int n, int m,
            res *out)
{
    memset(out, 0, sizeof *out);
    xf_diag *d;
    xf_doc *doc = read_text(text, &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    const xf_pass *passes[XF_PM_MAX];
    char err[256];
    int np = xf_pipeline_parse("adjoint", passes, XF_PM_MAX, err, sizeof err);
    ck_assert_msg(np > 0, "%s", err);
    xf_opts o;
    xf_pm_opts_init(&o);
    /* @loop: one spec, or several separated by ';' */
    static char specs[4][32];
    int nspec = 0;
    for (const char *p = loop; p && *p && nspec < 4; nspec++) {
        const char *q = strchr(p, ';');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        snprintf(specs[nspec], sizeof specs[nspec], "%.*s", (int)len, p);
        ck_assert_int_eq(xf_pm_option(&o, "checkpoint-loop", specs[nspec], err, sizeof err), 0);
        p = q ? q + 1 : p + len;
    }
    if (snaps > 0) {
        char s[32];
        snprintf(s, sizeof s, "%lld", (long long)snaps);
        ck_assert_int_eq(xf_pm_option(&o, "snapshots", s, err, sizeof err), 0);
    }
    if (loop && sched_kind != 'b') {
        char sch[48];
        snprintf(sch, sizeof sch, "%s:%lld", sched_kind == 'p' ? "periodic" : "two-level",
                 (long long)sched_k);
        ck_assert_int_eq(xf_pm_option(&o, "schedule", sch, err, sizeof err), 0);
    }
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d, .catalogue = cat, .direct = direct};
    out->rc = xf_pipeline_run(&ctx, passes, np);
    if (out->rc) {
        snprintf(out->msg, sizeof out->msg, "%s", first_message(d));
        xf_doc_free(doc);
        xf_diag_free(d);
        return;
    }
    char *buf;
    size_t len;
    ck_assert_int_eq(xf_write_memory(doc, &buf, &len, d), 0);
    xf_doc_free(doc);
    ck_assert_msg(xf_schema_validate_memory(schema, buf, len, "ckp.xaif", d) == 0,
                  "the output is not valid xaif: %s", first_message(d));
    if (loop) { /* and against OpenAD's own output schema, when the corpus has it */
        if (!tried) {
            tried = true;
            xf_diag *d2 = xf_diag_new(NULL);
            openad = xf_schema_load(XF_CORPUS_DIR "/xaif-schema/xaif_output.xsd", d2);
            xf_diag_free(d2);
        }
        if (openad)
            ck_assert_msg(xf_schema_validate_memory(openad, buf, len, "ckp.xaif", d) == 0,
                          "the output violates OpenAD's schema: %s", first_message(d));
    }
    xf_doc *back = xf_read_memory(buf, len, "ckp.xaif", NULL, d);
    ck_assert_msg(back != NULL, "%s", first_message(d));
    xf_run_opts ro = {.driver = driver, .params = {.n = n, .m = m, .h = 1e-7}};
    int rc = xf_run(back, &ro, &out->J, &out->st, d);
    ck_assert_msg(rc == 0, "the %s run failed: %s", xf_driver_name(driver), first_message(d));
    xf_doc_free(back);
    free(buf);
    xf_diag_free(d);
}

/* Divided differences of the original. */
static void
dd_run(const char *text, int n, int m, xf_jacobian *J)
{
    xf_diag *d;
    xf_doc *doc = read_text(text, &d);
    ck_assert_ptr_nonnull(doc);
    xf_run_opts ro = {.driver = XF_DRIVER_DD, .params = {.n = n, .m = m, .h = 1e-7}};
    ck_assert_int_eq(xf_run(doc, &ro, J, NULL, d), 0);
    xf_doc_free(doc);
    xf_diag_free(d);
}

/* ------------------------------------------------------------ programs */

enum { LINE = 7 };

/* Explicit Euler for u' = p u - u v, v' = u v - v over T steps of h = 1/T:
 * x = (u0, v0, p), y = (u^2, sin v + u). The temporaries un, vn are written
 * before they are read: no part of the state, which is u and v (2 words, in
 * every snapshot); h and x are only read (4 words, stored once). In the
 * version with a call, step(a, c, p, dt) assigns a and c only. */
static char *
euler(xb **bp, int T, bool var_count, bool call)
{
    xb *b = xb_new("euler");
    xg *g = head_cfg(b, 3, 2, call ? "sub step" : NULL,
                     "real u; real v; real un; real vn; real h; integer i; integer nt");
    char s[256];
    snprintf(s, sizeof s, "u = x(1); v = x(2); h = 1.0 / %d; nt = %d", T, T);
    xg_bb(g, s);
    if (var_count)
        xg_for(g, "i = 1", "i <= nt", "i = i + 1");
    else {
        snprintf(s, sizeof s, "i <= %d", T);
        xg_for(g, "i = 1", s, "i = i + 1");
    }
    if (call)
        xg_bb(g, "call step(u, v, x(3), h)");
    else
        xg_bb(g, "un = u + h * (x(3) * u - u * v);"
                 "vn = v + h * (u * v - v);"
                 "u = un; v = vn");
    xg_end(g);
    xg_bb(g, "y(1) = u * u; y(2) = sin_scal(v) + u");
    if (call) {
        xb_scope(b, 3, 1);
        xb_syms(b, 3, "real a; real c; real p; real dt; real an");
        xg_bb(xb_cfg(b, "step", 3, "a c p dt"), "an = a + dt * (p * a - a * c);"
                                                "c = c + dt * (a * c - c); a = an");
    }
    *bp = b;
    return with_line(xb_build(b), LINE);
}

/* ------------------------------------------------------------ checks */

static double
rel(double a, double b)
{
    return fabs(a - b) / fmax(1e-300, fmax(fabs(a), fabs(b)));
}

/* The loop of @text at T steps with S snapshots, against the plain adjoint
 * of the same program (@plain) and of @half (the same program, T/2 steps)
 * for the tape of one step. */
static void
check_one(const char *text, const char *half, int T, int Thalf, int64_t S, xf_driver driver,
          int64_t state_words, int64_t input_words)
{
    const int n = 3, m = 2;
    res plain, hplain, ckp;
    char spec[32];
    snprintf(spec, sizeof spec, "head:%d", LINE);
    adjoint_run(text, NULL, 0, driver, n, m, &plain);
    ck_assert_int_eq(plain.rc, 0);
    adjoint_run(half, NULL, 0, driver, n, m, &hplain);
    ck_assert_int_eq(hplain.rc, 0);
    adjoint_run(text, spec, S, driver, n, m, &ckp);
    ck_assert_msg(ckp.rc == 0, "%s", ckp.msg);
    xf_jacobian D;
    dd_run(text, n, m, &D);
    for (size_t k = 0; k < (size_t)(n * m); k++) {
        ck_assert_msg(rel(ckp.J.f[k], plain.J.f[k]) <= 1e-12, "entry %zu: %.17g, without %.17g", k,
                      ckp.J.f[k], plain.J.f[k]);
        ck_assert_msg(fabs(ckp.J.f[k] - D.f[k]) <= 1e-5 * fmax(1, fabs(D.f[k])),
                      "entry %zu: %.17g, divided differences %.17g", k, ckp.J.f[k], D.f[k]);
    }
    /* one adjoint sweep per output: the counts below are per sweep */
    const xf_run_stats *st = &ckp.st;
    ck_assert_uint_eq(st->steps_tape, (uint64_t)m * (uint64_t)T);
    ck_assert_uint_eq(st->steps_adj, (uint64_t)m * (uint64_t)T);
    /* forward (plain) steps and snapshots, by the schedule */
    int64_t K = sched_k, steps = 1, snaps;
    if (sched_kind == 'b') {
        int64_t Seff = S;
        if (!Seff) /* the default: the least S with C(2S, S) >= T */
            for (Seff = 1; binom(2 * Seff, Seff) < T; Seff++)
                ;
        ck_assert_int_eq((int64_t)st->steps_fwd, m * revolve_optimum(T, Seff));
        snaps = Seff;
    } else if (sched_kind == 'p') {
        /* the first sweep to step T - 1, then step j from its segment's start */
        int64_t f = T - 1;
        for (int64_t j = 0; j < T - 1; j++)
            f += j % K;
        ck_assert_int_eq((int64_t)st->steps_fwd, m * f);
        snaps = (T - 1 + K - 1) / K;
    } else {
        /* every segment but the last once, plainly: at most T (1 + 1/K) */
        ck_assert_int_eq((int64_t)st->steps_fwd, m * ((T - 1) / K * K));
        ck_assert_int_le((int64_t)st->steps_fwd, m * (T + T / K));
        snaps = (T - 1) / K;
        steps = K; /* a segment is taped whole */
    }
    ck_assert_int_le(st->peak_snap, snaps * state_words + input_words);
    /* the tape of one step w1 and of what lies outside the loop w0, from the
     * plain adjoints at T and T/2 steps */
    uint64_t p = 0, h = 0;
    for (int k = 0; k < XF_WORD_KINDS; k++) {
        p += plain.st.push[k];
        h += hplain.st.push[k];
        ck_assert_uint_eq(ckp.st.push[k], ckp.st.pop[k]);
    }
    p /= (uint64_t)m;
    h /= (uint64_t)m;
    int64_t w1 = (int64_t)(p - h) / (T - Thalf), w0 = (int64_t)p - T * w1;
    ck_assert_int_gt(w1, 0);
    ck_assert_int_le(st->peak_tape, w0 + steps * w1 + 5);
    /* without checkpointing the tape (or, for calls in joint reversal, the
     * argument checkpoints) grows with T; with it, with the steps taped at once */
    if (steps < T)
        ck_assert_int_gt(plain.st.peak_tape + plain.st.peak_cp,
                         (T / (10 * steps)) * (ckp.st.peak_tape + ckp.st.peak_cp));
    xf_jacobian_fini(&plain.J);
    xf_jacobian_fini(&hplain.J);
    xf_jacobian_fini(&ckp.J);
    xf_jacobian_fini(&D);
}

static void
euler_case(int T, int64_t S, bool var_count, bool call)
{
    xb *b, *bh;
    char *text = euler(&b, T, var_count, call);
    char *half = euler(&bh, T / 2, var_count, call);
    for (int k = 0; k < 2; k++)
        check_one(text, half, T, T / 2, S, sweeps[k], 2, 4);
    free(text);
    free(half);
    xb_free(b);
    xb_free(bh);
}

START_TEST(euler_10_steps)
{
    euler_case(10, 3, false, false);
}
END_TEST

START_TEST(euler_100_steps)
{
    euler_case(100, 5, false, false);
}
END_TEST

START_TEST(euler_1000_steps)
{
    /* the example: T = 1000, S = 10: r = 4, 4 * 1000 - C(14, 11) = 3 636 */
    ck_assert_int_eq(revolve_optimum(1000, 10), 3636);
    euler_case(1000, 10, false, false);
}
END_TEST

START_TEST(the_optimum_at_1000_steps)
{
    ck_assert_int_eq(revolve_optimum(1000, 2), 28820);
    ck_assert_int_eq(revolve_optimum(1000, 5), 6284);
    ck_assert_int_eq(revolve_optimum(1000, 20), 2747);
    euler_case(1000, 2, false, false);
    euler_case(1000, 20, false, false);
}
END_TEST

START_TEST(default_snapshots_from_the_trip_count)
{
    euler_case(100, 0, false, false); /* C(8, 4) = 70 < 100 <= C(10, 5): S = 5 */
}
END_TEST

START_TEST(a_step_that_calls_a_subroutine)
{
    euler_case(100, 4, false, true);
}
END_TEST

START_TEST(a_trip_count_in_a_variable)
{
    euler_case(100, 3, true, false);
}
END_TEST

START_TEST(periodic_snapshots)
{
    sched_kind = 'p';
    sched_k = 10;
    euler_case(100, 0, false, false);
    sched_k = 7; /* T - 1 not a multiple of K */
    euler_case(100, 0, true, true);
    sched_kind = 'b';
}
END_TEST

START_TEST(two_level_segments)
{
    sched_kind = 't';
    sched_k = 10;
    euler_case(1000, 0, false, false); /* 990 forward steps <= 1 100 */
    sched_k = 7;
    euler_case(100, 0, false, true);
    sched_k = 200; /* one segment: nothing recomputed */
    euler_case(100, 0, true, false);
    sched_kind = 'b';
}
END_TEST

/* ------------------------------------------------------------ nested */

/* The Euler loop inside a branch ('b') or run 3 times by an outer loop
 * ('l'; 'e': both loops marked reversal="explicit"), which damps u between
 * the runs; the inner loop carries LINE. */
static char *
nested(xb **bp, int T, char kind)
{
    xb *b = xb_new("nested");
    xg *g = head_cfg(b, 3, 2, NULL, "real u; real v; real un; real h; integer i; integer k");
    char s[128];
    snprintf(s, sizeof s, "u = x(1); v = x(2); h = 1.0 / %d", T);
    xg_bb(g, s);
    if (kind == 'b')
        xg_if(g, "x(2) > 0");
    else {
        g->reversal = kind == 'e' ? "explicit" : NULL;
        xg_for(g, "k = 1", "k <= 3", "k = k + 1");
    }
    snprintf(s, sizeof s, "i <= %d", T);
    xg_for(g, "i = 1", s, "i = i + 1");
    xg_bb(g, "un = u + h * (x(3) * u - u * v); v = v + h * (u * v - v); u = un");
    xg_end(g);
    if (kind != 'b')
        xg_bb(g, "u = 0.5 * u + 0.1 * v");
    xg_end(g);
    xg_bb(g, "y(1) = u * u; y(2) = sin_scal(v) + u");
    *bp = b;
    return loop_line_nth(xb_build(b), "ForLoop", kind == 'b' ? 1 : 2, LINE);
}

static void
nested_case(char kind, int reps)
{
    const int T = 100, S = 4, n = 3, m = 2;
    xb *b;
    char *text = nested(&b, T, kind);
    char spec[32];
    snprintf(spec, sizeof spec, "head:%d", LINE);
    xf_jacobian D;
    dd_run(text, n, m, &D);
    for (int k = 0; k < 2; k++) {
        res plain, ckp;
        adjoint_run(text, NULL, 0, sweeps[k], n, m, &plain);
        ck_assert_int_eq(plain.rc, 0);
        adjoint_run(text, spec, S, sweeps[k], n, m, &ckp);
        ck_assert_msg(ckp.rc == 0, "%s", ckp.msg);
        for (size_t e = 0; e < (size_t)(n * m); e++) {
            ck_assert_msg(rel(ckp.J.f[e], plain.J.f[e]) <= 1e-12, "entry %zu: %.17g, without %.17g",
                          e, ckp.J.f[e], plain.J.f[e]);
            ck_assert_msg(fabs(ckp.J.f[e] - D.f[e]) <= 1e-5 * fmax(1, fabs(D.f[e])),
                          "entry %zu: %.17g, divided differences %.17g", e, ckp.J.f[e], D.f[e]);
        }
        ck_assert_uint_eq(ckp.st.steps_tape, (uint64_t)(m * reps * T));
        ck_assert_uint_eq(ckp.st.steps_adj, (uint64_t)(m * reps * T));
        ck_assert_int_eq((int64_t)ckp.st.steps_fwd, m * reps * revolve_optimum(T, S));
        /* the tape holds one step of the inner loop at a time, plus what
         * the outer loop tapes per run (a few words) */
        ck_assert_int_lt(ckp.st.peak_tape * 10, plain.st.peak_tape);
        xf_jacobian_fini(&plain.J);
        xf_jacobian_fini(&ckp.J);
    }
    xf_jacobian_fini(&D);
    free(text);
    xb_free(b);
}

/* Two time loops one after the other (lines 7 and 9), both checkpointed. */
START_TEST(two_loops_in_one_routine)
{
    const int T = 50, S = 3, n = 3, m = 2;
    xb *b = xb_new("two");
    xg *g = head_cfg(b, 3, 2, NULL, "real u; real v; real un; real h; integer i; integer k");
    xg_bb(g, "u = x(1); v = x(2); h = 0.02");
    xg_for(g, "i = 1", "i <= 50", "i = i + 1");
    xg_bb(g, "un = u + h * (x(3) * u - u * v); v = v + h * (u * v - v); u = un");
    xg_end(g);
    xg_for(g, "k = 1", "k <= 50", "k = k + 1");
    xg_bb(g, "u = u + h * sin_scal(v); v = v - h * u * u");
    xg_end(g);
    xg_bb(g, "y(1) = u * u; y(2) = sin_scal(v) + u");
    char *t1 = loop_line_nth(xb_build(b), "ForLoop", 1, 7);
    char *text = loop_line_nth(t1, "ForLoop", 2, 9);
    free(t1);
    xf_jacobian D;
    dd_run(text, n, m, &D);
    for (int k = 0; k < 2; k++) {
        res plain, ckp;
        adjoint_run(text, NULL, 0, sweeps[k], n, m, &plain);
        adjoint_run(text, "head:7;head:9", S, sweeps[k], n, m, &ckp);
        ck_assert_msg(plain.rc == 0 && ckp.rc == 0, "%s", ckp.msg);
        for (size_t e = 0; e < (size_t)(n * m); e++) {
            ck_assert_msg(rel(ckp.J.f[e], plain.J.f[e]) <= 1e-12, "entry %zu: %.17g, without %.17g",
                          e, ckp.J.f[e], plain.J.f[e]);
            ck_assert_msg(fabs(ckp.J.f[e] - D.f[e]) <= 1e-5 * fmax(1, fabs(D.f[e])),
                          "entry %zu: %.17g, divided differences %.17g", e, ckp.J.f[e], D.f[e]);
        }
        ck_assert_uint_eq(ckp.st.steps_tape, (uint64_t)(m * 2 * T));
        ck_assert_int_eq((int64_t)ckp.st.steps_fwd, m * 2 * revolve_optimum(T, S));
        ck_assert_int_lt(ckp.st.peak_tape * 10, plain.st.peak_tape);
        xf_jacobian_fini(&plain.J);
        xf_jacobian_fini(&ckp.J);
    }
    xf_jacobian_fini(&D);
    free(text);
    xb_free(b);
}
END_TEST

/* The time loop in a routine head calls, named with the front end's
 * suffix (integrate__3) and found as "integrate"; its optional argument w
 * is not passed. */
START_TEST(a_loop_in_a_called_routine)
{
    const int T = 60, S = 4, n = 3, m = 2;
    xb *b = xb_new("callee");
    xg *g = head_cfg(b, 3, 2, "sub integrate__3", "real u; real v");
    xg_bb(g, "u = x(1); v = x(2); call integrate__3(u, v, x(3))");
    xg_bb(g, "y(1) = u * u; y(2) = sin_scal(v) + u");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a; real c; real p; real an; integer i");
    xb_syms(b, 3, "real w");
    /* w, an optional argument head leaves out, is part of the state: its
     * snapshots are taken only when it is present */
    xg *f = xb_cfg(b, "integrate__3", 3, "a c p w");
    xg_for(f, "i = 1", "i <= 60", "i = i + 1");
    xg_bb(f, "an = a + 0.01 * (p * a - a * c); c = c + 0.01 * (a * c - c); a = an");
    xg_if(f, "present(w)");
    xg_bb(f, "w = w + a");
    xg_end(f);
    xg_end(f);
    char *text = with_line(xb_build(b), LINE);
    xf_jacobian D;
    dd_run(text, n, m, &D);
    for (int k = 0; k < 2; k++) {
        res plain, ckp;
        adjoint_run(text, NULL, 0, sweeps[k], n, m, &plain);
        adjoint_run(text, "INTEGRATE:7", S, sweeps[k], n, m, &ckp);
        ck_assert_msg(plain.rc == 0 && ckp.rc == 0, "%s", ckp.msg);
        for (size_t e = 0; e < (size_t)(n * m); e++) {
            ck_assert_msg(rel(ckp.J.f[e], plain.J.f[e]) <= 1e-12, "entry %zu: %.17g, without %.17g",
                          e, ckp.J.f[e], plain.J.f[e]);
            ck_assert_msg(fabs(ckp.J.f[e] - D.f[e]) <= 1e-5 * fmax(1, fabs(D.f[e])),
                          "entry %zu: %.17g, divided differences %.17g", e, ckp.J.f[e], D.f[e]);
        }
        ck_assert_uint_eq(ckp.st.steps_tape, (uint64_t)(m * T));
        ck_assert_int_eq((int64_t)ckp.st.steps_fwd, m * revolve_optimum(T, S));
        ck_assert_int_lt(ckp.st.peak_tape * 10, plain.st.peak_tape);
        xf_jacobian_fini(&plain.J);
        xf_jacobian_fini(&ckp.J);
    }
    xf_jacobian_fini(&D);
    free(text);
    xb_free(b);
}
END_TEST

/* The step is an internal procedure (Fortran's CONTAINS: its scope's
 * parent is head's) with neither arguments nor side-effect lists, as f2xaif
 * writes it: it reads and writes head's u and v by host association. They
 * are the step's state all the same: without them in the snapshots, the
 * steps recomputed from a snapshot started from u and v as the last step
 * left them (F(1,1) = -1.496 for 2.946 in joint reversal, before the fix). */
START_TEST(a_step_in_an_internal_procedure)
{
    const int T = 20, S = 3, n = 3, m = 2;
    xb *b = xb_new("host");
    xg *g = head_cfg(b, 3, 2, "sub step__3", "real u; real v; integer i");
    xg_bb(g, "u = x(1); v = x(2)");
    xg_for(g, "i = 1", "i <= 20", "i = i + 1");
    xg_bb(g, "call step__3()");
    xg_end(g);
    xg_bb(g, "y(1) = u * u; y(2) = sin_scal(v) + u");
    xb_scope(b, 3, 2);
    xb_syms(b, 3, "real un");
    xg *f = xb_cfg(b, "step__3", 3, "");
    xg_bb(f, "un = u + 0.05 * (x(3) * u - u * v); v = v + 0.05 * (u * v - v); u = un");
    char *text = with_line(xb_build(b), LINE);
    xf_jacobian D;
    dd_run(text, n, m, &D);
    for (int k = 0; k < 2; k++) {
        res plain, ckp;
        adjoint_run(text, NULL, 0, sweeps[k], n, m, &plain);
        adjoint_run(text, "HEAD:7", S, sweeps[k], n, m, &ckp);
        ck_assert_msg(plain.rc == 0 && ckp.rc == 0, "%s", ckp.msg);
        for (size_t e = 0; e < (size_t)(n * m); e++) {
            ck_assert_msg(fabs(plain.J.f[e] - D.f[e]) <= 1e-5 * fmax(1, fabs(D.f[e])),
                          "entry %zu without checkpoints: %.17g, divided differences %.17g", e,
                          plain.J.f[e], D.f[e]);
            ck_assert_msg(rel(ckp.J.f[e], plain.J.f[e]) <= 1e-12, "entry %zu: %.17g, without %.17g",
                          e, ckp.J.f[e], plain.J.f[e]);
        }
        ck_assert_uint_eq(ckp.st.steps_tape, (uint64_t)(m * T));
        ck_assert_int_eq((int64_t)ckp.st.steps_fwd, m * revolve_optimum(T, S));
        xf_jacobian_fini(&plain.J);
        xf_jacobian_fini(&ckp.J);
    }
    xf_jacobian_fini(&D);
    free(text);
    xb_free(b);
}
END_TEST

START_TEST(a_loop_inside_a_branch)
{
    nested_case('b', 1);
}
END_TEST

START_TEST(a_loop_inside_a_loop)
{
    nested_case('l', 3);
    nested_case('e', 3);
}
END_TEST

/* ------------------------------------------------------------ refusals */

/* @spec is refused with @why, and the message names t.xaif and a line > 0
 * (@lined: the routine's or the loop's). */
static void
refused(const char *text, const char *spec, const char *why, bool lined)
{
    res r;
    adjoint_run(text, spec, 3, XF_DRIVER_ADJOINT_JOINT, 3, 2, &r);
    ck_assert_int_ne(r.rc, 0);
    ck_assert_msg(strstr(r.msg, why), "the message '%s' does not say '%s'", r.msg, why);
    const char *at = strstr(r.msg, "t.xaif:");
    ck_assert_msg(at, "no FILE in '%s'", r.msg);
    if (lined)
        ck_assert_msg(strtol(at + 7, NULL, 10) > 0, "no LINE in '%s'", r.msg);
}

START_TEST(loops_that_cannot_be_checkpointed)
{
    xb *b;
    char *text = euler(&b, 10, false, false);
    refused(text, "head:8", "no loop at that line", true);
    refused(text, "tail:7", "no routine of that name", false);
    free(text);
    xb_free(b);
    /* the body writes its own bound */
    b = xb_new("bound");
    xg *g = head_cfg(b, 3, 2, NULL, "real u; integer i; integer nt");
    xg_bb(g, "u = x(1); nt = 5");
    xg_for(g, "i = 1", "i <= nt", "i = i + 1");
    xg_bb(g, "u = u * x(2); nt = nt - 1");
    xg_end(g);
    xg_bb(g, "y(1) = u; y(2) = u");
    text = with_line(xb_build(b), LINE);
    refused(text, "head:7", "the body writes nt", true);
    free(text);
    xb_free(b);
    /* a while loop: its trip count is not known when it starts */
    b = xb_new("while");
    g = head_cfg(b, 3, 2, NULL, "real u; integer nt");
    xg_bb(g, "u = x(1); nt = 5");
    xg_while(g, "nt > 0");
    xg_bb(g, "u = u * x(2); nt = nt - 1");
    xg_end(g);
    xg_bb(g, "y(1) = u; y(2) = u");
    text = loop_line(xb_build(b), "PreLoop", LINE);
    refused(text, "head:7", "a while loop", true);
    free(text);
    xb_free(b);
    /* a character variable in the state */
    b = xb_new("chars");
    g = head_cfg(b, 3, 2, NULL, "real u; integer i; string c");
    xg_bb(g, "u = x(1); c = 'a'");
    xg_for(g, "i = 1", "i <= 4", "i = i + 1");
    xg_bb(g, "u = u * x(2); c = c");
    xg_end(g);
    xg_bb(g, "y(1) = u; y(2) = u");
    text = with_line(xb_build(b), LINE);
    refused(text, "head:7", "the step's state holds c, of type string", true);
    free(text);
    xb_free(b);
    /* schedules */
    xf_opts o;
    char err[256];
    xf_pm_opts_init(&o);
    ck_assert_int_eq(xf_pm_option(&o, "schedule", "weekly", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "unknown schedule 'weekly'"), "%s", err);
    ck_assert_int_eq(xf_pm_option(&o, "schedule", "two-level:0", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "K must be"), "%s", err);
    ck_assert_int_eq(xf_pm_option(&o, "snapshots", "0", err, sizeof err), -1);
    ck_assert_int_eq(xf_pm_option(&o, "schedule", "periodic:12", err, sizeof err), 0);
    const xf_ckp_opts *own = xf_pass_own_c(&o, &xf_pass_checkpoint);
    ck_assert_int_eq(own->k, 12);
    ck_assert_int_eq(own->schedule, 1);
}
END_TEST

Suite *
test_checkpoint_suite(void)
{
    Suite *s = suite_create("checkpoint");
    TCase *tc = tcase_create("binomial");
    tcase_set_timeout(tc, 600);
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_unchecked_fixture(tc, NULL, openad_free);
    tcase_add_test(tc, euler_10_steps);
    tcase_add_test(tc, euler_100_steps);
    tcase_add_test(tc, euler_1000_steps);
    tcase_add_test(tc, the_optimum_at_1000_steps);
    tcase_add_test(tc, default_snapshots_from_the_trip_count);
    tcase_add_test(tc, a_step_that_calls_a_subroutine);
    tcase_add_test(tc, a_trip_count_in_a_variable);
    tcase_add_test(tc, periodic_snapshots);
    tcase_add_test(tc, two_level_segments);
    tcase_add_test(tc, two_loops_in_one_routine);
    tcase_add_test(tc, a_loop_in_a_called_routine);
    tcase_add_test(tc, a_step_in_an_internal_procedure);
    tcase_add_test(tc, a_loop_inside_a_branch);
    tcase_add_test(tc, a_loop_inside_a_loop);
    tcase_add_test(tc, loops_that_cannot_be_checkpointed);
    suite_add_tcase(s, tc);
    return s;
}
