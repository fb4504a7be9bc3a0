/* test_ir_check.c: xf_ir_check, each invariant broken once on a document
 * that passes; the pass manager's --verify-each naming a pass that breaks
 * one (a test-only pass, not in the registry); per-routine passes and
 * their scratch arena; the one option parser. */
#include <check.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ir_check.h"
#include "passmgr.h"
#include "suites.h"
#include "xaif_fixture.h"

/* y = x(1) * y; if (y < 2) { y = 1 } else { y = 2 }: lines noted. */
static const char doc_text[] =
    XAIF_HEAD XAIF_SCOPES XAIF_MAPS XAIF_CFG_OPEN /* ControlFlowGraph: line 21 */
    "    <xaif:Entry vertex_id=\"1\"/>\n"         /* 22 */
    "    <xaif:BasicBlock vertex_id=\"2\" scope_id=\"2\">\n"
    "      <xaif:Assignment statement_id=\"s1\">\n" /* 24 */
    "        <xaif:AssignmentLHS>\n"
    "          <xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"y\"/>\n"
    "        </xaif:AssignmentLHS>\n"
    "        <xaif:AssignmentRHS>\n"                                                       /* 28 */
    "          <xaif:Intrinsic vertex_id=\"1\" name=\"mul_scal_scal\"/>\n"                 /* 29 */
    "          <xaif:VariableReference vertex_id=\"2\">\n"                                 /* 30 */
    "            <xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"x\"/>\n" /* 31 */
    "          </xaif:VariableReference>\n"
    "          <xaif:VariableReference vertex_id=\"3\">\n"
    "            <xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"y\"/>\n"
    "          </xaif:VariableReference>\n"
    "          <xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" position=\"1\"/>\n"
    "          <xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" position=\"2\"/>\n"
    "        </xaif:AssignmentRHS>\n"
    "      </xaif:Assignment>\n"
    "    </xaif:BasicBlock>\n"
    "    <xaif:If vertex_id=\"3\"><xaif:Condition>\n" /* 41 */
    "      <xaif:Constant vertex_id=\"1\" type=\"bool\" value=\"true\"/>\n"
    "    </xaif:Condition></xaif:If>\n"
    "    <xaif:BasicBlock vertex_id=\"4\" scope_id=\"2\"/>\n" /* 44 */
    "    <xaif:BasicBlock vertex_id=\"5\" scope_id=\"2\"/>\n" /* 45 */
    "    <xaif:EndBranch vertex_id=\"6\"/>\n"                 /* 46 */
    "    <xaif:Exit vertex_id=\"7\"/>\n"                      /* 47 */
    "    <xaif:ControlFlowEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"2\" source=\"2\" target=\"3\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"3\" source=\"3\" target=\"4\" "
    "has_condition_value=\"true\" condition_value=\"1\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"4\" source=\"3\" target=\"5\" "
    "has_condition_value=\"true\" condition_value=\"0\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"5\" source=\"4\" target=\"6\"/>\n" /* 52 */
    "    <xaif:ControlFlowEdge edge_id=\"6\" source=\"5\" target=\"6\"/>\n" /* 53 */
    "    <xaif:ControlFlowEdge edge_id=\"7\" source=\"6\" target=\"7\"/>\n" XAIF_TAIL;

static xf_doc *doc;
static xf_diag *diag;

static void
setup(void)
{
    doc = read_text(doc_text, &diag);
    ck_assert_msg(doc != NULL, "%s", first_message(diag));
    ck_assert_int_eq(xf_ir_check(doc, diag), 0);
}

static void
teardown(void)
{
    xf_doc_free(doc);
    xf_diag_free(diag);
}

static xf_graph *
cfg(void)
{
    return &doc->cg.routines.v[0]->g;
}

static xf_expr *
rhs(void)
{
    return &cfg()->v.v[1]->stmts.v[0]->u.as.rhs;
}

/* The check fails, with this message. */
static void
broken(const char *msg)
{
    ck_assert_int_eq(xf_ir_check(doc, diag), -1);
    ck_assert_str_eq(first_message(diag), msg);
}

START_TEST(a_document_as_read_passes)
{
    ck_assert_uint_eq(xf_diag_count(diag), 0);
}
END_TEST

START_TEST(symbol_reference_resolves)
{
    rhs()->v.v[1].u.ref->v.v[0].u.sym.sym = NULL;
    broken("t.xaif:31: error: routine head: a SymbolReference does not resolve to a symbol");
}
END_TEST

START_TEST(symbol_belongs_to_its_scope)
{
    /* x's reference made to point at scope 1, which holds only head */
    rhs()->v.v[1].u.ref->v.v[0].u.sym.scope = xf_scope_find(doc, xf_intern(doc, "1"));
    broken("t.xaif:31: error: routine head: a SymbolReference names symbol x, which scope 1 "
           "does not hold");
}
END_TEST

START_TEST(expression_edge_stays_in_its_graph)
{
    rhs()->e.v[0].src = 7;
    broken("t.xaif:36: error: routine head: ExpressionEdge 1 leads outside its graph");
}
END_TEST

START_TEST(positions_run_from_one_to_n)
{
    rhs()->e.v[1].pos = 3; /* operands 1 and 3 of two */
    broken("t.xaif:37: error: routine head: operand position 3 of vertex 1, which has 2 operands "
           "(positions must run 1..n)");
}
END_TEST

START_TEST(positions_are_distinct)
{
    rhs()->e.v[1].pos = 1;
    broken("t.xaif:37: error: routine head: two operands at position 1 of vertex 1");
}
END_TEST

START_TEST(expression_has_one_result)
{
    rhs()->e.n = 1; /* y's reference is no operand any more */
    broken("t.xaif:28: error: routine head: an expression with 2 results (vertices that are no "
           "edge's source)");
}
END_TEST

START_TEST(expression_is_acyclic)
{
    /* 2 -> 1 and 3 -> 1 as read; make 3 also an operand of 2 and 2 of 3:
     * still one result (1) and positions 1..n everywhere, but a cycle */
    xf_expr *x = rhs();
    xf_eedge a = {.src = 2, .tgt = 1, .pos = 1}, b = {.src = 1, .tgt = 2, .pos = 1};
    ck_assert(XF_VEC_PUSH(doc->arena, x->e, a));
    ck_assert(XF_VEC_PUSH(doc->arena, x->e, b));
    broken("t.xaif:28: error: routine head: an expression graph with a cycle");
}
END_TEST

START_TEST(one_entry)
{
    cfg()->v.v[4]->kind = XF_CV_ENTRY; /* block 5 */
    broken("t.xaif:45: error: routine head: a second Entry vertex, 5 (the first is 1)");
}
END_TEST

START_TEST(one_exit)
{
    cfg()->v.v[6]->kind = XF_CV_BASICBLOCK;
    broken("t.xaif:21: error: routine head: a control-flow graph without an Exit vertex");
}
END_TEST

START_TEST(every_vertex_reached)
{
    cfg()->e.v[3]->tgt = cfg()->v.v[3]; /* both arms to block 4: 5 unreached */
    broken("t.xaif:45: error: routine head: BasicBlock vertex 5 is not reached from Entry");
}
END_TEST

START_TEST(edge_ends_in_its_graph)
{
    xf_cvertex *stranger = XF_NEW(doc->arena, xf_cvertex);
    stranger->index = 99;
    cfg()->e.v[6]->tgt = stranger;
    broken("t.xaif:54: error: routine head: ControlFlowEdge 7: its target is not a vertex of its "
           "graph");
}
END_TEST

START_TEST(branches_nest)
{
    /* arm 4 jumps straight to Exit: the If's arms do not meet at one EndBranch */
    cfg()->e.v[4]->tgt = cfg()->v.v[6];
    broken("t.xaif:41: error: routine head: If vertex 3: its arms do not meet at one EndBranch; "
           "a graph whose branches and loops do not nest must be marked structured=\"0\"");
}
END_TEST

START_TEST(unstructured_when_marked)
{
    cfg()->e.v[4]->tgt = cfg()->v.v[6];
    doc->cg.routines.v[0]->structured = XF_FLAG_0;
    ck_assert_int_eq(xf_ir_check(doc, diag), 0);
    ck_assert_int_eq(xf_ir_check_some(doc, XF_IR_FLOW, diag), 0);
}
END_TEST

START_TEST(flow_left_to_a_later_pass)
{
    cfg()->v.v[6]->kind = XF_CV_BASICBLOCK; /* no Exit */
    ck_assert_int_eq(xf_ir_check_some(doc, XF_IR_FLOW, diag), 0);
    ck_assert_int_eq(xf_ir_check(doc, diag), -1);
}
END_TEST

/* ------------------------------------------------------- the manager */

/* A pass that breaks an invariant: the second operand's position becomes 5. */
static int
break_positions(xf_pass_ctx *ctx)
{
    ctx->doc->cg.routines.v[0]->g.v.v[1]->stmts.v[0]->u.as.rhs.e.v[1].pos = 5;
    return 0;
}

static const xf_pass breaker = {.name = "breaker", .summary = "test only", .run = break_positions};

static int calls;

static int
count_routines(xf_pass_ctx *ctx, xf_routine *rt)
{
    (void)rt;
    calls++;
    ck_assert_ptr_nonnull(ctx->scratch);
    ck_assert_uint_eq(xf_arena_used(ctx->scratch), 0); /* empty: nothing of the last routine */
    ck_assert_ptr_nonnull(xf_arena_alloc(ctx->scratch, 1000));
    return 0;
}

static const xf_pass counter = {
    .name = "counter", .summary = "test only", .run_routine = count_routines};

START_TEST(verify_each_names_the_pass)
{
    xf_opts o;
    xf_pm_opts_init(&o);
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = diag};
    const xf_pass *list[] = {&counter, &breaker, &counter};
    xf_pm_conf conf = {.verify_each = true};
    calls = 0;
    ck_assert_int_eq(xf_pm_run(&ctx, list, 3, &conf), -1);
    ck_assert_int_eq(calls, 1); /* the run stopped after the breaker */
    ck_assert_uint_eq(xf_diag_internal_errors(diag), 1);
    ck_assert_str_eq(first_message(diag),
                     "xaiform: error: after pass breaker: t.xaif:37: routine head: operand "
                     "position 5 of vertex 1, which has 2 operands (positions must run 1..n)");
}
END_TEST

START_TEST(per_routine_passes_get_a_scratch_arena)
{
    xf_opts o;
    xf_pm_opts_init(&o);
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = diag};
    const xf_pass *list[] = {&counter};
    xf_pm_conf conf = {.verify_each = true};
    calls = 0;
    ck_assert_int_eq(xf_pm_run(&ctx, list, 1, &conf), 0);
    ck_assert_int_eq(calls, (int)doc->cg.routines.n);
    ck_assert_ptr_null(ctx.scratch); /* freed after the routine */
}
END_TEST

START_TEST(time_table_names_each_pass)
{
    xf_opts o;
    xf_pm_opts_init(&o);
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = diag};
    const xf_pass *list[] = {&counter, &counter};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    xf_pm_conf conf = {.time_passes = f};
    ck_assert_int_eq(xf_pm_run(&ctx, list, 2, &conf), 0);
    fclose(f);
    /* a header, a row per pass, the total; the scratch column shows 1000 bytes as 1 KiB+ */
    ck_assert_msg(!strncmp(text, "pass ", 5), "%s", text);
    ck_assert_ptr_nonnull(strstr(text, "scratch KiB"));
    char *row = strstr(text, "\ncounter ");
    ck_assert_ptr_nonnull(row);
    ck_assert_ptr_nonnull(strstr(row + 1, "\ncounter "));
    ck_assert_ptr_nonnull(strstr(text, "\ntotal "));
    free(text);
}
END_TEST

START_TEST(one_parser_for_the_options)
{
    xf_opts o;
    char err[200];
    xf_pm_opts_init(&o);
    const xf_pass *owner = NULL;
    ck_assert_ptr_nonnull(xf_pm_option_find("elimination", &owner));
    ck_assert_str_eq(owner->name, "preaccumulate");
    ck_assert_ptr_nonnull(xf_pm_option_find("reversal", &owner));
    ck_assert_str_eq(owner->name, "template");
    ck_assert_int_eq(xf_pm_option(&o, "elimination", "markowitz", err, sizeof err), 0);
    ck_assert_str_eq(xf_pm_option_show(&o, "elimination"), "markowitz");
    /* the option lives in preaccumulate's own bytes of o, nowhere else */
    xf_opts d;
    xf_pm_opts_init(&d);
    ck_assert_str_eq(xf_pm_option_show(&d, "elimination"), "best");
    ck_assert_int_ne(memcmp(xf_pass_own_c(&o, &xf_pass_preaccumulate),
                            xf_pass_own_c(&d, &xf_pass_preaccumulate),
                            xf_pass_preaccumulate.own_size),
                     0);
    ck_assert_int_eq(memcmp(&o, &d, offsetof(xf_opts, own)), 0);
    ck_assert_int_eq(xf_pm_option(&o, "elimination", "fast", err, sizeof err), -1);
    ck_assert_str_eq(err, "unknown elimination order 'fast' (forward, reverse, markowitz or best)");
    ck_assert_int_eq(xf_pm_option(&o, "reversal", "split", err, sizeof err), 0);
    ck_assert_int_eq(o.reversal, XF_REV_SPLIT);
    ck_assert_int_eq(xf_pm_option(&o, "report", NULL, err, sizeof err), 0);
    ck_assert_int_eq(xf_pm_option(&o, "report", "x", err, sizeof err), -1);
    ck_assert_str_eq(err, "--report takes no argument");
    ck_assert_int_eq(xf_pm_option(&o, "colour", "red", err, sizeof err), -1);
    ck_assert_str_eq(err, "no pass has an option --colour");
}
END_TEST

START_TEST(dump_after_names_a_pass_of_the_list)
{
    const xf_pass *list[XF_PM_MAX];
    char err[600], want[600];
    int n = xf_pipeline_parse("tangent", list, XF_PM_MAX, err, sizeof err);
    ck_assert_int_gt(n, 2);
    /* the message names the passes of the registry's tangent pipeline */
    size_t at =
        (size_t)snprintf(want, sizeof want, "--dump-after adjoin: no such pass in the list (");
    for (const char *p = xf_pipeline_expand("tangent"); *p; p++)
        at += (size_t)snprintf(want + at, sizeof want - at, "%s%c", *p == ',' ? "," : "",
                               *p == ',' ? ' ' : *p);
    snprintf(want + at, sizeof want - at, ", or all)");
    xf_pm_conf conf = {.dump_after = "linearize"};
    ck_assert_int_eq(xf_pm_conf_check(&conf, list, n, err, sizeof err), 0);
    conf.dump_after = "all";
    ck_assert_int_eq(xf_pm_conf_check(&conf, list, n, err, sizeof err), 0);
    conf.dump_after = "adjoin";
    ck_assert_int_eq(xf_pm_conf_check(&conf, list, n, err, sizeof err), -1);
    ck_assert_str_eq(err, want);
}
END_TEST

Suite *
test_ir_check_suite(void)
{
    Suite *s = suite_create("ir_check");
    TCase *tc = tcase_create("invariants");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_document_as_read_passes);
    tcase_add_test(tc, symbol_reference_resolves);
    tcase_add_test(tc, symbol_belongs_to_its_scope);
    tcase_add_test(tc, expression_edge_stays_in_its_graph);
    tcase_add_test(tc, positions_run_from_one_to_n);
    tcase_add_test(tc, positions_are_distinct);
    tcase_add_test(tc, expression_has_one_result);
    tcase_add_test(tc, expression_is_acyclic);
    tcase_add_test(tc, one_entry);
    tcase_add_test(tc, one_exit);
    tcase_add_test(tc, every_vertex_reached);
    tcase_add_test(tc, edge_ends_in_its_graph);
    tcase_add_test(tc, branches_nest);
    tcase_add_test(tc, unstructured_when_marked);
    tcase_add_test(tc, flow_left_to_a_later_pass);
    suite_add_tcase(s, tc);
    tc = tcase_create("manager");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, verify_each_names_the_pass);
    tcase_add_test(tc, per_routine_passes_get_a_scratch_arena);
    tcase_add_test(tc, time_table_names_each_pass);
    tcase_add_test(tc, one_parser_for_the_options);
    tcase_add_test(tc, dump_after_names_a_pass_of_the_list);
    suite_add_tcase(s, tc);
    return s;
}
