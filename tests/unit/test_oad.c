/* test_oad.c: the two passes behind xaifBooster's driver switches: rename
 * (-r) and inout (-I). */
#include <check.h>
#include <string.h>

#include "build.h"
#include "passmgr.h"
#include "read.h"
#include "suites.h"

/* head calls foo (defined here) and bar (not defined). */
static const char doc_text[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\" program_name=\"p\" "
    "prefix=\"OpenAD_\">\n"
    "  <xaif:ScopeHierarchy>\n"
    "    <xaif:Scope vertex_id=\"1\">\n"
    "      <xaif:SymbolTable>\n"
    "        <xaif:Symbol symbol_id=\"foo\" kind=\"subroutine\" type=\"void\" shape=\"scalar\"/>\n"
    "        <xaif:Symbol symbol_id=\"head\" kind=\"subroutine\" type=\"void\" shape=\"scalar\"/>\n"
    "        <xaif:Symbol symbol_id=\"bar\" kind=\"subroutine\" type=\"void\" shape=\"scalar\"/>\n"
    "      </xaif:SymbolTable>\n"
    "    </xaif:Scope>\n"
    "    <xaif:Scope vertex_id=\"2\">\n"
    "      <xaif:SymbolTable>\n"
    "        <xaif:Symbol symbol_id=\"A\" kind=\"variable\" type=\"real\" shape=\"scalar\"/>\n"
    "      </xaif:SymbolTable>\n"
    "    </xaif:Scope>\n"
    "    <xaif:Scope vertex_id=\"3\">\n"
    "      <xaif:SymbolTable>\n"
    "        <xaif:Symbol symbol_id=\"X\" kind=\"variable\" type=\"real\" shape=\"scalar\"/>\n"
    "      </xaif:SymbolTable>\n"
    "    </xaif:Scope>\n"
    "    <xaif:ScopeEdge edge_id=\"1\" source=\"2\" target=\"1\"/>\n"
    "    <xaif:ScopeEdge edge_id=\"2\" source=\"3\" target=\"1\"/>\n"
    "  </xaif:ScopeHierarchy>\n"
    "  <xaif:AliasSetMap/>\n"
    "  <xaif:DUUDSetMap/>\n"
    "  <xaif:DOSetMap/>\n"
    "  <xaif:ControlFlowGraph vertex_id=\"1\" scope_id=\"1\" symbol_id=\"foo\" "
    "controlflowgraph_scope_id=\"2\">\n"
    "    <xaif:ArgumentList>\n"
    "      <xaif:ArgumentSymbolReference position=\"1\" scope_id=\"2\" symbol_id=\"A\" "
    "intent=\"in\"/>\n"
    "    </xaif:ArgumentList>\n"
    "    <xaif:Entry vertex_id=\"1\"/>\n"
    "    <xaif:Exit vertex_id=\"2\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n"
    "  </xaif:ControlFlowGraph>\n"
    "  <xaif:ControlFlowGraph vertex_id=\"2\" scope_id=\"1\" symbol_id=\"head\" "
    "controlflowgraph_scope_id=\"3\">\n"
    "    <xaif:ArgumentList>\n"
    "      <xaif:ArgumentSymbolReference position=\"1\" scope_id=\"3\" symbol_id=\"X\" "
    "intent=\"out\"/>\n"
    "    </xaif:ArgumentList>\n"
    "    <xaif:Entry vertex_id=\"1\"/>\n"
    "    <xaif:BasicBlock vertex_id=\"2\" scope_id=\"3\">\n"
    "      <xaif:SubroutineCall statement_id=\"1\" scope_id=\"1\" symbol_id=\"foo\">\n"
    "        <xaif:Argument position=\"1\">\n"
    "          <xaif:VariableReference vertex_id=\"1\">\n"
    "            <xaif:SymbolReference vertex_id=\"1\" scope_id=\"3\" symbol_id=\"X\"/>\n"
    "          </xaif:VariableReference>\n"
    "        </xaif:Argument>\n"
    "      </xaif:SubroutineCall>\n"
    "      <xaif:SubroutineCall statement_id=\"2\" scope_id=\"1\" symbol_id=\"bar\"/>\n"
    "    </xaif:BasicBlock>\n"
    "    <xaif:Exit vertex_id=\"3\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"2\" source=\"2\" target=\"3\"/>\n"
    "  </xaif:ControlFlowGraph>\n"
    "  <xaif:CallGraphEdge edge_id=\"1\" source=\"2\" target=\"1\"/>\n"
    "</xaif:CallGraph>\n";

static xf_doc *
read_doc(xf_diag *d)
{
    xf_doc *doc = xf_read_memory(doc_text, sizeof doc_text - 1, "mini.xaif", NULL, d);
    ck_assert_ptr_nonnull(doc);
    return doc;
}

static int
run_pass(const xf_pass *p, xf_doc *doc, xf_diag *d)
{
    xf_opts o;
    xf_pm_opts_init(&o);
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d};
    return xf_pipeline_run(&ctx, &p, 1);
}

static xf_stmt *
call_stmt(xf_routine *rt, int k)
{
    for (uint32_t i = 0; i < rt->g.v.n; i++)
        if (rt->g.v.v[i]->stmts.n > (uint32_t)k)
            return rt->g.v.v[i]->stmts.v[k];
    return NULL;
}

START_TEST(rename_prefixes_defined_routines_and_their_calls)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = read_doc(d);
    ck_assert_int_eq(run_pass(&xf_pass_rename, doc, d), 0);
    xf_routine *foo = doc->cg.routines.v[0], *head = doc->cg.routines.v[1];
    ck_assert_str_eq(foo->sym->id, "OpenAD_foo");
    ck_assert_str_eq(head->sym->id, "OpenAD_head");
    /* the new symbols sit beside the old ones, in scope 1 */
    xf_scope *s1 = foo->scope;
    ck_assert_ptr_eq(xf_symbol_find(s1, xf_intern(doc, "OpenAD_foo")), foo->sym);
    ck_assert_ptr_nonnull(xf_symbol_find(s1, xf_intern(doc, "foo")));
    ck_assert_int_eq(foo->sym->kind, XF_SYMKIND_SUBROUTINE);
    /* the call of foo follows; the call of bar (not defined here) does not */
    ck_assert_str_eq(call_stmt(head, 0)->u.call.sym->id, "OpenAD_foo");
    ck_assert_str_eq(call_stmt(head, 1)->u.call.sym->id, "bar");
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

START_TEST(rename_refuses_a_name_taken)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = read_doc(d);
    ck_assert_int_eq(run_pass(&xf_pass_rename, doc, d), 0);
    /* a second time: OpenAD_OpenAD_foo is free, so it renames again */
    ck_assert_int_eq(run_pass(&xf_pass_rename, doc, d), 0);
    ck_assert_str_eq(doc->cg.routines.v[0]->sym->id, "OpenAD_OpenAD_foo");
    xf_doc_free(doc);
    doc = read_doc(d);
    /* a symbol OpenAD_foo already in scope 1: an error naming it */
    ck_assert_ptr_nonnull(xf_new_symbol(doc, doc->cg.routines.v[0]->scope, "OpenAD_foo",
                                        XF_TYPE_VOID, XF_SHAPE_SCALAR, false, false));
    ck_assert_int_eq(run_pass(&xf_pass_rename, doc, d), -1);
    ck_assert_ptr_nonnull(strstr(xf_diag_message(d, 0), "already has a symbol OpenAD_foo"));
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

START_TEST(inout_makes_every_argument_inout)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = read_doc(d);
    ck_assert_int_eq(doc->cg.routines.v[0]->args.v[0].intent, XF_INTENT_IN);
    ck_assert_int_eq(doc->cg.routines.v[1]->args.v[0].intent, XF_INTENT_OUT);
    ck_assert_int_eq(run_pass(&xf_pass_inout, doc, d), 0);
    ck_assert_int_eq(doc->cg.routines.v[0]->args.v[0].intent, XF_INTENT_INOUT);
    ck_assert_int_eq(doc->cg.routines.v[1]->args.v[0].intent, XF_INTENT_INOUT);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

Suite *
test_oad_suite(void)
{
    Suite *s = suite_create("oad");
    TCase *tc = tcase_create("passes");
    tcase_add_test(tc, rename_prefixes_defined_routines_and_their_calls);
    tcase_add_test(tc, rename_refuses_a_name_taken);
    tcase_add_test(tc, inout_makes_every_argument_inout);
    suite_add_tcase(s, tc);
    return s;
}
