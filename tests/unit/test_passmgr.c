/* test_passmgr.c: the pass manager's rules, as each pass declares them
 * (xf_pass.after, .before, .once): a list that breaks one is refused with
 * a message naming the pass and the rule, one test per rule; the lists
 * checked are made from the registry's declarations and pipelines, so a
 * pass added with a rule is tested without a new line here. And what
 * --verify-each checks of a pass's promise (xf_pass.verify). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "passmgr.h"
#include "suites.h"
#include "xaif_fixture.h"

enum { MAXP = XF_PM_MAX };

/* The names of @n passes, comma-separated, in @buf. */
static const char *
join(const xf_pass *const *p, int n, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "," : "", p[i]->name);
    ck_assert_uint_lt(at, len);
    return buf;
}

/* The passes of the named pipeline that has @name, expanded, in @out. */
static int
pipeline_with(const char *name, const xf_pass **out)
{
    char err[300];
    for (size_t k = 0; xf_pipeline_name(k); k++) {
        int n = xf_pipeline_parse(xf_pipeline_name(k), out, MAXP, err, sizeof err);
        ck_assert_msg(n > 0, "%s: %s", xf_pipeline_name(k), err);
        for (int i = 0; i < n; i++)
            if (!strcmp(out[i]->name, name))
                return n;
    }
    return 0;
}

/* Is @list refused with exactly @want? */
static void
refused(const char *list, const char *want)
{
    const xf_pass *p[MAXP];
    char err[300] = "";
    ck_assert_msg(xf_pipeline_parse(list, p, MAXP, err, sizeof err) == -1, "accepted: %s", list);
    ck_assert_str_eq(err, want);
}

START_TEST(the_everyday_pipelines_pass_their_own_rules)
{
    const xf_pass *p[MAXP];
    char err[300], text[1024];
    size_t k = 0;
    for (; xf_pipeline_name(k); k++) {
        const char *list = xf_pipeline_expand(xf_pipeline_name(k));
        int n = xf_pipeline_parse(xf_pipeline_name(k), p, MAXP, err, sizeof err);
        ck_assert_msg(n > 0, "%s: %s", xf_pipeline_name(k), err);
        ck_assert_str_eq(join(p, n, text, sizeof text), list);
        ck_assert_int_eq(xf_pipeline_check(p, n, err, sizeof err), 0);
    }
    ck_assert_uint_ge(k, 2); /* tangent and adjoint at least */
}
END_TEST

/* A rule naming no pass would never apply: every name is the registry's. */
START_TEST(the_rules_name_passes_of_the_registry)
{
    int names = 0;
    for (const xf_pass *const *q = xf_passes; *q; q++) {
        for (const char *const *a = (*q)->after; a && *a; a++, names++)
            ck_assert_msg(xf_pass_find(*a) != NULL, "%s needs '%s', no such pass", (*q)->name, *a);
        for (const char *const *b = (*q)->before; b && *b; b++, names++)
            ck_assert_msg(xf_pass_find(*b) != NULL, "%s runs before '%s', no such pass", (*q)->name,
                          *b);
        ck_assert_msg(!(*q)->verify || (*q)->promise, "%s: a verify without its promise",
                      (*q)->name);
    }
    ck_assert_int_ge(names, 15);
}
END_TEST

START_TEST(an_unknown_name_is_refused)
{
    refused("linearize,nosuchpass",
            "no pass or pipeline named 'nosuchpass' (xaiform passes --list)");
    refused("", "no passes");
}
END_TEST

/* Rule: runs once. Each pass that declares it, listed again right after
 * itself in a pipeline that runs it, is refused; one that does not may
 * repeat. */
START_TEST(a_pass_that_runs_once_listed_twice_is_refused)
{
    const xf_pass *p[MAXP];
    char list[1024], want[200], err[300];
    int once = 0, repeats = 0;
    for (const xf_pass *const *q = xf_passes; *q; q++) {
        int n = pipeline_with((*q)->name, p);
        if (!n)
            continue;
        const xf_pass *twice[MAXP + 1];
        int m = 0;
        for (int i = 0; i < n; i++) {
            twice[m++] = p[i];
            if (p[i] == *q)
                twice[m++] = p[i];
        }
        join(twice, m, list, sizeof list);
        if ((*q)->once) {
            snprintf(want, sizeof want, "%s: listed twice; a pass of this kind runs once",
                     (*q)->name);
            refused(list, want);
            once++;
        } else {
            ck_assert_msg(xf_pipeline_parse(list, p, MAXP, err, sizeof err) > 0, "%s: %s", list,
                          err);
            repeats++;
        }
    }
    ck_assert_int_ge(once, 8);
    ck_assert_int_ge(repeats, 3); /* constprop, sink, deadstore, loopdep */
    /* the lists of issue 22 */
    refused("linearize,linearize,preaccumulate,propagate",
            "linearize: listed twice; a pass of this kind runs once");
    refused("template,linearize,preaccumulate,adjoin,adjoin,reverse",
            "adjoin: listed twice; a pass of this kind runs once");
    refused("linearize,propagate,propagate",
            "propagate: listed twice; a pass of this kind runs once");
    refused("rename,rename", "rename: listed twice; a pass of this kind runs once");
}
END_TEST

/* Does @p need a pass named @name, or one of @gone[0..@n)? */
static bool
needs_any(const xf_pass *p, const char *name, const xf_pass *const *gone, int n)
{
    for (const char *const *a = p->after; a && *a; a++) {
        if (!strcmp(*a, name))
            return true;
        for (int i = 0; i < n; i++)
            if (!strcmp(*a, gone[i]->name))
                return true;
    }
    return false;
}

/* Rule: needs (after). For each pass P and each pass A it needs: P's
 * everyday pipeline up to P without A (and without what else needs A). */
START_TEST(a_missing_prerequisite_is_refused)
{
    const xf_pass *p[MAXP], *kept[MAXP], *gone[MAXP];
    char list[1024], want[200];
    int rules = 0;
    for (const xf_pass *const *q = xf_passes; *q; q++)
        for (const char *const *a = (*q)->after; a && *a; a++) {
            int n = pipeline_with((*q)->name, p), m = 0, g = 0;
            for (int i = 0; i < n; i++) {
                if (p[i] == *q) {
                    kept[m++] = p[i];
                    break;
                }
                if (!strcmp(p[i]->name, *a) || needs_any(p[i], *a, gone, g))
                    gone[g++] = p[i];
                else
                    kept[m++] = p[i];
            }
            if (!n) /* in no everyday pipeline: alone */
                kept[m++] = *q;
            snprintf(want, sizeof want, "%s: needs %s, which the list does not have before it",
                     (*q)->name, *a);
            refused(join(kept, m, list, sizeof list), want);
            rules++;
        }
    ck_assert_int_ge(rules, 7);
    /* listed, but after it */
    refused("propagate,linearize", "propagate: needs linearize, which the list does not have "
                                   "before it");
}
END_TEST

/* Rule: runs before (before). Each pass P that runs before B, moved in a
 * pipeline that has both to right after B. */
START_TEST(a_pass_after_one_it_runs_before_is_refused)
{
    const xf_pass *p[MAXP], *moved[MAXP];
    char list[1024], want[200];
    int rules = 0;
    for (const xf_pass *const *q = xf_passes; *q; q++)
        for (const char *const *b = (*q)->before; b && *b; b++) {
            int n = pipeline_with((*q)->name, p), m = 0;
            bool has_b = false;
            for (int i = 0; i < n; i++)
                has_b |= !strcmp(p[i]->name, *b);
            if (!has_b) { /* not in an everyday pipeline together: B then P alone */
                const xf_pass *two[2] = {xf_pass_find(*b), *q};
                ck_assert_ptr_nonnull(two[0]);
                snprintf(want, sizeof want, "%s: runs before %s, which the list has before it",
                         (*q)->name, *b);
                char err[300];
                ck_assert_int_eq(xf_pipeline_check(two, 2, err, sizeof err), -1);
                ck_assert_str_eq(err, want);
                rules++;
                continue;
            }
            for (int i = 0; i < n; i++) {
                if (p[i] != *q)
                    moved[m++] = p[i];
                if (!strcmp(p[i]->name, *b))
                    moved[m++] = *q;
            }
            snprintf(want, sizeof want, "%s: runs before %s, which the list has before it",
                     (*q)->name, *b);
            refused(join(moved, m, list, sizeof list), want);
            rules++;
        }
    ck_assert_int_ge(rules, 6);
    refused("linearize,sink", "sink: runs before linearize, which the list has before it");
}
END_TEST

/* --verify-each: a pass's promise is checked right after it. The test
 * passes below run nothing and claim the promise of a real pass. */
static const char doc_text[] = XAIF_HEAD XAIF_SCOPES XAIF_MAPS XAIF_CFG_OPEN
    "    <xaif:Entry vertex_id=\"1\"/>\n"
    "    <xaif:BasicBlock vertex_id=\"2\" scope_id=\"2\">\n"
    "      <xaif:Assignment statement_id=\"s1\">\n" /* line 24 */
    "        <xaif:AssignmentLHS>\n"
    "          <xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"y\"/>\n"
    "        </xaif:AssignmentLHS>\n"
    "        <xaif:AssignmentRHS>\n"
    "          <xaif:VariableReference vertex_id=\"1\">\n"
    "            <xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"x\"/>\n"
    "          </xaif:VariableReference>\n"
    "        </xaif:AssignmentRHS>\n"
    "      </xaif:Assignment>\n"
    "    </xaif:BasicBlock>\n"
    "    <xaif:Exit vertex_id=\"3\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"2\" source=\"2\" target=\"3\"/>\n" XAIF_TAIL;

static int
nothing(xf_pass_ctx *ctx, xf_routine *rt)
{
    (void)ctx;
    (void)rt;
    return 0;
}

/* Leaves the first statement an empty DerivativePropagator. */
static int
empty_propagator(xf_pass_ctx *ctx, xf_routine *rt)
{
    (void)ctx;
    for (uint32_t i = 0; i < rt->g.v.n; i++)
        if (rt->g.v.v[i]->stmts.n) {
            xf_stmt *s = rt->g.v.v[i]->stmts.v[0];
            s->kind = XF_STMT_DERIVPROP;
            memset(&s->u, 0, sizeof s->u);
            return 0;
        }
    return 0;
}

static int
nothing_at_all(xf_pass_ctx *ctx)
{
    (void)ctx;
    return 0;
}

static void
run_one(const xf_pass *p, bool verify_each, int want, const char *msg)
{
    xf_diag *diag = NULL;
    xf_doc *doc = read_text(doc_text, &diag);
    ck_assert_msg(doc != NULL, "%s", first_message(diag));
    xf_opts o;
    xf_pm_opts_init(&o);
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = diag};
    xf_pm_conf conf = {.verify_each = verify_each};
    ck_assert_int_eq(xf_pm_run(&ctx, &p, 1, &conf), want);
    if (msg)
        ck_assert_str_eq(first_message(diag), msg);
    xf_doc_free(doc);
    xf_diag_free(diag);
}

START_TEST(verify_each_checks_what_a_pass_promises)
{
    xf_pass tpl = xf_pass_template;
    tpl.run = NULL;
    tpl.run_routine = nothing;
    tpl.begin = NULL, tpl.scan = NULL, tpl.end = NULL;
    run_one(&tpl, true, -1,
            "xaiform: error: after pass template: it promises every routine is a "
            "ReplacementList: t.xaif:21: routine head is not a ReplacementList");
    xf_pass prop = xf_pass_propagate;
    prop.run_routine = empty_propagator;
    run_one(&prop, true, -1,
            "xaiform: error: after pass propagate: it promises no empty propagator; no one-term "
            "Sax or Saxpy with the partial 1 or -1: t.xaif:24: an empty propagator is left");
    xf_pass ren = xf_pass_rename;
    ren.run = nothing_at_all;
    run_one(&ren, true, -1,
            "xaiform: error: after pass rename: it promises every routine the document defines is "
            "named with the prefix (OpenAD_): t.xaif:21: routine head does not begin with OpenAD_");
    /* without --verify-each the promise is checked only in a Debug build */
#ifdef XF_VERIFY_ALWAYS
    run_one(&tpl, false, -1, NULL);
#else
    run_one(&tpl, false, 0, NULL);
#endif
    /* the real passes keep their promises */
    run_one(&xf_pass_propagate, true, 0, NULL);
    run_one(&xf_pass_inout, true, 0, NULL);
    run_one(&xf_pass_rename, true, 0, NULL);
}
END_TEST

Suite *
test_passmgr_suite(void)
{
    Suite *s = suite_create("passmgr");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, the_everyday_pipelines_pass_their_own_rules);
    tcase_add_test(tc, the_rules_name_passes_of_the_registry);
    tcase_add_test(tc, an_unknown_name_is_refused);
    tcase_add_test(tc, a_pass_that_runs_once_listed_twice_is_refused);
    tcase_add_test(tc, a_missing_prerequisite_is_refused);
    tcase_add_test(tc, a_pass_after_one_it_runs_before_is_refused);
    tcase_add_test(tc, verify_each_checks_what_a_pass_promises);
    suite_add_tcase(s, tc);
    return s;
}
