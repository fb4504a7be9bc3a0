/* test_oom.c: a refused allocation ends in "out of memory" (issue 26):
 * the tangent, the adjoint, and the adjoint with each loop option over a program of nested and
 * sequential loops, with the document's arena, or each scratch arena, or
 * each pass's private arena (the analyses' own tables), refusing its N-th request for growing N
 * until the run succeeds. Every failing run must report "out of memory" (and no crash: the
 * sanitizer build runs it), and every run that succeeds must write what the run without a refusal
 * writes: a refusal in a pass's private arena (xf_pass_arena, xf_arena_new_like: the analyses'
 * tables) that was swallowed would change the output. Also XF_VEC_PUSH keeps a vector intact when
 * it cannot grow. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive_fixture.h"
#include "suites.h"
#include "write.h"

/* do i: do j: y(1) = y(1) + x(1) * x(2) (not parallel in i); then a
 * parallel loop a(i) = x(1) * i, and s carried through another. */
static const char *
program(void)
{
    static char *text;
    if (text)
        return text;
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 2, NULL, "real a(4); real s; integer i; integer j");
    xg_bb(g, "s = x(2); y(1) = 0; y(2) = 0");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_for(g, "j = 1", "j <= 2", "j = j + 1");
    xg_bb(g, "s = s * sin_scal(x(1)) + x(2)");
    xg_end(g);
    xg_end(g);
    xg_for(g, "i = 1", "i <= 4", "i = i + 1");
    xg_bb(g, "a(i) = x(1) * i");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 4", "i = i + 1");
    xg_bb(g, "s = s + a(i) * x(2)");
    xg_end(g);
    xg_bb(g, "y(1) = s; y(2) = a(3) * s");
    text = strdup(xb_build(b));
    xb_free(b);
    return text;
}

typedef struct optset {
    const char *name, *arg, *name2;
    const char *pipeline; /* NULL: adjoint */
} optset;

static const optset sets[] = {
    {"loops", "auto", NULL, NULL},
    {"iteration-wise", NULL, NULL, NULL},
    {"iteration-wise", NULL, "dry-run", NULL},
    {"per-iteration-dry-run", NULL, NULL, NULL},
    {"report-loops", NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL},      /* the default adjoint */
    {NULL, NULL, NULL, "tangent"}, /* the tangent */
};

/* A pass appended to the pipeline after the parsed ones, or NULL: the
 * mutant below, to show that the sweep's comparison can fail. */
static const xf_pass *extra_pass;

/* Which arenas refuse: the document's, each scratch arena, each pass's
 * private arena (the analyses' tables). */
typedef enum which { DOC, SCRATCH, PRIVATE } which;
static const char *const which_name[] = {"the document's", "each scratch", "each private"};

/* The adjoint under @set with the arenas @w refusing their @n-th request
 * (0: none), its output in *@out when it succeeded: 0 when it succeeded;
 * 1 when it failed saying "out of memory". */
static int
run_failing(const optset *set, which w, long n, char **out)
{
    xf_diag *d;
    xf_doc *doc = read_text(program(), &d);
    ck_assert_ptr_nonnull(doc);
    const xf_pass *passes[XF_PM_MAX];
    char err[256];
    int np = xf_pipeline_parse(set->pipeline ? set->pipeline : "adjoint", passes, XF_PM_MAX, err,
                               sizeof err);
    ck_assert_int_gt(np, 0);
    if (extra_pass)
        passes[np++] = extra_pass;
    xf_opts o;
    xf_pm_opts_init(&o);
    if (set->name)
        ck_assert_int_eq(xf_pm_option(&o, set->name, set->arg, err, sizeof err), 0);
    if (set->name2)
        ck_assert_int_eq(xf_pm_option(&o, set->name2, NULL, err, sizeof err), 0);
    FILE *quiet = fopen("/dev/null", "w");
    if (o.report_loops)
        o.report_loops = quiet;
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d, .catalogue = cat, .direct = direct};
    if (w == DOC)
        xf_arena_fail_after(doc->arena, n - 1);
    else if (w == SCRATCH)
        ctx.fail_scratch = n;
    else
        ctx.fail_private = n;
    int ret = xf_pipeline_run(&ctx, passes, np);
    bool oom = false;
    for (size_t k = 0; k < xf_diag_count(d); k++)
        oom |= strstr(xf_diag_message(d, k), "out of memory") != NULL;
    ck_assert_msg(ret == 0 || oom, "%s --%s%s%s, %s arena refusing request %ld: failed with '%s'",
                  set->pipeline ? set->pipeline : "adjoint", set->name ? set->name : "",
                  set->name2 ? " --" : "", set->name2 ? set->name2 : "", which_name[w], n,
                  first_message(d));
    ck_assert_msg(ret != 0 || !xf_arena_failed(doc->arena),
                  "a refusal of the document's arena went unreported");
    size_t len;
    if (ret == 0)
        ck_assert_int_eq(xf_write_memory(doc, out, &len, d), 0);
    fclose(quiet);
    xf_doc_free(doc);
    xf_diag_free(d);
    return ret != 0;
}

/* Refuse the n-th request for n = 1, 2, ... (in growing steps past 32)
 * until the run succeeds: each failing run says "out of memory". True
 * when the run that succeeds writes what the run without a refusal writes. */
static bool
sweep_same(const optset *set, which w)
{
    char *want = NULL, *got = NULL;
    ck_assert_int_eq(run_failing(set, w, 0, &want), 0); /* no refusal */
    long n = 1, fails = 0;
    while (run_failing(set, w, n, &got)) {
        fails++;
        n += n < 32 ? 1 : n / 8;
        ck_assert_int_lt(n, 10000000);
    }
    /* something was refused (the tangent asks no private arena for anything here) */
    ck_assert_int_gt(fails + (w == PRIVATE && set->pipeline), 0);
    bool same = strcmp(got, want) == 0;
    free(got);
    free(want);
    return same;
}

static void
sweep(const optset *set, which w)
{
    ck_assert_msg(sweep_same(set, w), "refusing a request changed the output");
}

/* The mutant: a pass that asks its private arena for many small blocks and,
 * when one is refused, says nothing and leaves out its visible change (the
 * program's name): what a swallowed refusal looks like. */
static int
swallowing_run(xf_pass_ctx *ctx)
{
    xf_arena *a = xf_pass_arena(ctx);
    bool ok = a != NULL;
    for (int k = 0; ok && k < 100; k++)
        ok = xf_arena_alloc(a, 16) != NULL;
    if (a)
        xf_arena_free(a);
    if (ok)
        ctx->doc->cg.program_name = "renamed";
    return 0;
}

static const xf_pass swallowing = {.name = "swallowing", .run = swallowing_run};

/* The sweep's comparison catches such a pass: with it appended to the
 * tangent, refusing a private request succeeds with another output. */
START_TEST(test_oom_swallowed_refusal_is_caught)
{
    extra_pass = &swallowing;
    bool same = sweep_same(&sets[6], PRIVATE);
    extra_pass = NULL;
    ck_assert_msg(!same, "a swallowed refusal went unseen");
    /* and without the refusal swallowed, the same pipeline passes */
    sweep(&sets[6], PRIVATE);
}
END_TEST

START_TEST(test_oom_scratch)
{
    sweep(&sets[_i], SCRATCH);
}
END_TEST

START_TEST(test_oom_private)
{
    sweep(&sets[_i], PRIVATE);
}
END_TEST

START_TEST(test_oom_document)
{
    sweep(&sets[_i], DOC);
}
END_TEST

/* A push that cannot grow leaves the vector as it was. */
START_TEST(test_oom_push_keeps)
{
    xf_arena *a = xf_arena_new();
    XF_VEC(int) v = {0};
    ck_assert(XF_VEC_PUSH(a, v, 1));
    uint32_t cap = v.cap;
    while (v.n < v.cap)
        ck_assert(XF_VEC_PUSH(a, v, 2));
    xf_arena_fail_after(a, 0);
    ck_assert(!XF_VEC_PUSH(a, v, 3));
    ck_assert_ptr_nonnull(v.v);
    ck_assert_uint_eq(v.n, cap);
    ck_assert_int_eq(v.v[0], 1);
    ck_assert(xf_arena_failed(a));
    xf_arena_free(a);
}
END_TEST

Suite *
test_oom_suite(void)
{
    Suite *s = suite_create("oom");
    TCase *tc = tcase_create("oom");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_oom_push_keeps);
    tcase_add_test(tc, test_oom_swallowed_refusal_is_caught);
    int n = (int)(sizeof sets / sizeof sets[0]);
    tcase_add_loop_test(tc, test_oom_scratch, 0, n);
    tcase_add_loop_test(tc, test_oom_private, 0, n);
    tcase_add_loop_test(tc, test_oom_document, 0, n);
    suite_add_tcase(s, tc);
    return s;
}
