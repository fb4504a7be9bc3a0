/* test_read.c: the reader: what it builds, what it keeps, what it rejects. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "ir.h"
#include "run_fixture.h"
#include "suites.h"
#include "xaif_fixture.h"

/* Line 22 on: the body of routine head. */
static const char simple[] = XAIF_HEAD XAIF_SCOPES XAIF_MAPS XAIF_CFG_OPEN
    "    <xaif:ArgumentList>\n"
    "      <xaif:ArgumentSymbolReference position=\"1\" scope_id=\"2\" symbol_id=\"x\" "
    "intent=\"in\"/>\n"
    "      <xaif:ArgumentSymbolReference position=\"2\" scope_id=\"2\" symbol_id=\"y\" "
    "intent=\"inout\"/>\n"
    "    </xaif:ArgumentList>\n"
    "    <xaif:Entry vertex_id=\"1\"/>\n"
    "    <xaif:BasicBlock vertex_id=\"2\" scope_id=\"2\">\n"
    "      <xaif:Marker statement_id=\"m1\" annotation=\"note\"/>\n"
    "      <xaif:Assignment statement_id=\"s1\" lineNumber=\"7\">\n"
    "        <xaif:AssignmentLHS du_ud=\"3\" alias=\"4\">\n"
    "          <xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"y\"/>\n"
    "        </xaif:AssignmentLHS>\n"
    "        <xaif:AssignmentRHS>\n"
    "          <xaif:Intrinsic vertex_id=\"1\" name=\"mul_scal_scal\" type=\"***\"/>\n"
    "          <xaif:VariableReference vertex_id=\"2\">\n"
    "            <xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"x\"/>\n"
    "            <xaif:ArrayElementReference vertex_id=\"2\">\n"
    "              <xaif:IndexTriplet><xaif:Index>\n"
    "                <xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"2\"/>\n"
    "              </xaif:Index></xaif:IndexTriplet>\n"
    "            </xaif:ArrayElementReference>\n"
    "            <xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n"
    "          </xaif:VariableReference>\n"
    "          <xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" position=\"1\"/>\n"
    "          <xaif:Constant vertex_id=\"3\" type=\"real\" feType=\"F8\" value=\"2.5\"/>\n"
    "          <xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" position=\"2\"/>\n"
    "        </xaif:AssignmentRHS>\n"
    "      </xaif:Assignment>\n"
    "      <xaif:SubroutineCall statement_id=\"c1\" scope_id=\"1\" symbol_id=\"head\" "
    "formalArgCount=\"2\">\n"
    "        <xaif:Argument position=\"1\"><xaif:VariableReference vertex_id=\"1\">"
    "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"x\"/>"
    "</xaif:VariableReference></xaif:Argument>\n"
    "        <xaif:Argument position=\"2\"><xaif:Constant vertex_id=\"1\" type=\"integer\" "
    "value=\"3\"/></xaif:Argument>\n"
    "      </xaif:SubroutineCall>\n"
    "    </xaif:BasicBlock>\n"
    "    <xaif:Branch vertex_id=\"3\"><xaif:Condition>"
    "<xaif:VariableReference vertex_id=\"1\"><xaif:SymbolReference vertex_id=\"1\" "
    "scope_id=\"2\" symbol_id=\"i\"/></xaif:VariableReference></xaif:Condition></xaif:Branch>\n"
    "    <xaif:Exit vertex_id=\"4\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"2\" source=\"2\" target=\"3\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"3\" source=\"3\" target=\"4\" "
    "has_condition_value=\"true\" condition_value=\"1\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"4\" source=\"3\" target=\"4\"/>\n" XAIF_TAIL;

START_TEST(reads_scopes_and_symbols)
{
    xf_diag *d;
    xf_doc *doc = read_text(simple, &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    ck_assert_uint_eq(doc->kind, XF_DOC_CALLGRAPH);
    ck_assert_str_eq(doc->cg.program_name, "p");
    ck_assert_uint_eq(doc->cg.scopes.v.n, 2);
    xf_scope *s1 = xf_scope_find(doc, xf_intern(doc, "1"));
    xf_scope *s2 = xf_scope_find(doc, xf_intern(doc, "2"));
    ck_assert_ptr_nonnull(s1);
    ck_assert_ptr_eq(s2->parent, s1);
    ck_assert_ptr_null(s1->parent);
    xf_symbol *x = xf_symbol_find(s2, xf_intern(doc, "x"));
    ck_assert_ptr_nonnull(x);
    ck_assert_int_eq(x->type, XF_TYPE_REAL);
    ck_assert_int_eq(x->shape, XF_SHAPE_VECTOR);
    ck_assert_int_eq(xf_shape_rank(x->shape), 1);
    ck_assert(xf_flag_is(x->active, false));
    ck_assert_uint_eq(x->dims.n, 1);
    ck_assert_int_eq(x->dims.v[0].upper, 3);
    xf_symbol *i = xf_symbol_find(s2, xf_intern(doc, "i"));
    ck_assert(!xf_flag_is(i->active, true));
    ck_assert_int_eq(i->shape, XF_SHAPE_NONE); /* absent stays absent */
    ck_assert_ptr_null(xf_symbol_find(s1, xf_intern(doc, "x")));
    ck_assert_uint_eq(doc->nsymbols, 4);
    ck_assert(doc->cg.alias.present && doc->cg.duud.present && doc->cg.doset.present);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

START_TEST(reads_the_control_flow_graph)
{
    xf_diag *d;
    xf_doc *doc = read_text(simple, &d);
    ck_assert_ptr_nonnull(doc);
    ck_assert_uint_eq(doc->cg.routines.n, 1);
    xf_routine *rt = doc->cg.routines.v[0];
    ck_assert_ptr_eq(xf_routine_find(doc, xf_intern(doc, "10")), rt);
    ck_assert_str_eq(rt->sym->id, "head");
    ck_assert_str_eq(rt->cfg_scope->id, "2");
    ck_assert_uint_eq(rt->args.n, 2);
    ck_assert_int_eq(rt->args.v[1].intent, XF_INTENT_INOUT);
    ck_assert_str_eq(rt->args.v[1].sym->id, "y");
    ck_assert_uint_eq(rt->g.v.n, 4);
    ck_assert_uint_eq(rt->g.e.n, 4);
    xf_cvertex *br = xf_cvertex_find(&rt->g, xf_intern(doc, "3"));
    ck_assert_int_eq(br->kind, XF_CV_BRANCH);
    ck_assert_ptr_nonnull(br->cond);
    ck_assert_ptr_eq(rt->g.e.v[2]->src, br);
    ck_assert_int_eq(rt->g.e.v[2]->has_cv, XF_FLAG_TRUE);
    ck_assert_int_eq(rt->g.e.v[2]->cv, 1);
    ck_assert_int_eq(rt->g.e.v[3]->cv, XF_NOINT);
    xf_cvertex *bb = rt->g.v.v[1];
    ck_assert_int_eq(bb->kind, XF_CV_BASICBLOCK);
    ck_assert_ptr_eq(bb->scope, rt->cfg_scope);
    ck_assert_uint_eq(bb->stmts.n, 3);
    ck_assert_uint_eq(bb->h.line, 27);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

START_TEST(reads_statements_and_expressions)
{
    xf_diag *d;
    xf_doc *doc = read_text(simple, &d);
    ck_assert_ptr_nonnull(doc);
    xf_cvertex *bb = doc->cg.routines.v[0]->g.v.v[1];
    xf_stmt *m = bb->stmts.v[0], *as = bb->stmts.v[1], *call = bb->stmts.v[2];
    ck_assert_int_eq(m->kind, XF_STMT_MARKER);
    ck_assert_str_eq(m->h.annotation, "note");
    ck_assert_int_eq(as->kind, XF_STMT_ASSIGN);
    ck_assert_str_eq(as->id, "s1");
    ck_assert_int_eq(as->lineno, 7);
    ck_assert_int_eq(as->u.as.lhs.du_ud, 3);
    ck_assert_int_eq(as->u.as.lhs.alias, 4);
    ck_assert_str_eq(xf_varref_symref(&as->u.as.lhs)->sym->id, "y");
    ck_assert_ptr_null(xf_varref_arrref(&as->u.as.lhs));
    const xf_expr *rhs = &as->u.as.rhs;
    ck_assert_uint_eq(rhs->v.n, 3);
    ck_assert_uint_eq(rhs->e.n, 2);
    ck_assert_uint_eq(xf_expr_root(rhs), 0);
    ck_assert_str_eq(rhs->v.v[0].u.in.name, "mul_scal_scal");
    ck_assert_uint_eq(rhs->e.v[1].src, 2); /* the constant, read after the first edge */
    ck_assert_uint_eq(rhs->e.v[1].tgt, 0);
    ck_assert_int_eq(rhs->e.v[1].pos, 2);
    ck_assert_str_eq(rhs->v.v[2].u.c.value, "2.5");
    ck_assert_int_eq(rhs->v.v[2].u.c.type, XF_TYPE_REAL);
    /* document order of the mixed children is kept */
    ck_assert_uint_lt(rhs->e.v[0].seq, rhs->v.v[2].seq);
    const xf_varref *xr = rhs->v.v[1].u.ref;
    ck_assert_str_eq(rhs->v.v[1].id, "2");
    const xf_arrref *ar = xf_varref_arrref(xr);
    ck_assert_ptr_nonnull(ar);
    ck_assert_uint_eq(ar->t.n, 1);
    ck_assert_str_eq(ar->t.v[0].index->v.v[0].u.c.value, "2");
    ck_assert_uint_eq(xr->e.n, 1);
    ck_assert_uint_eq(xr->e.v[0].src, 0);
    ck_assert_uint_eq(xr->e.v[0].tgt, 1);
    ck_assert_int_eq(call->kind, XF_STMT_CALL);
    ck_assert_str_eq(call->u.call.sym->id, "head");
    ck_assert_int_eq(call->u.call.formal_count, 2);
    ck_assert_uint_eq(call->u.call.args.n, 2);
    ck_assert_int_eq(call->u.call.args.v[1].pos, 2);
    ck_assert_int_eq(call->u.call.args.v[1].val.v.v[0].kind, XF_EV_CONSTANT);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

START_TEST(keeps_what_it_does_not_model)
{
    static const char text[] =
        "<?xml version=\"1.0\"?>\n<!-- before -->\n"
        "<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\" xmlns:o=\"urn:other\" "
        "o:extra=\"1\" newattr=\"v\">\n"
        "  <xaif:ScopeHierarchy><!-- inside -->\n"
        "    <xaif:Scope vertex_id=\"1\"><xaif:SymbolTable/></xaif:Scope>\n"
        "    <o:note level=\"2\"><o:deep>text</o:deep></o:note>\n"
        "  </xaif:ScopeHierarchy>\n"
        "</xaif:CallGraph>\n<!-- after -->\n";
    xf_diag *d;
    xf_doc *doc = read_text(text, &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    ck_assert_uint_eq(doc->before.n, 1);
    ck_assert_str_eq(doc->before.v[0]->text, " before ");
    ck_assert_uint_eq(doc->after.n, 1);
    ck_assert_uint_eq(doc->ns.n, 2);
    const xf_extra *e = doc->cg.h.extra;
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->attrs.n, 2);
    ck_assert_str_eq(e->attrs.v[0].name, "extra");
    ck_assert_str_eq(e->attrs.v[0].ns, "urn:other");
    ck_assert_str_eq(e->attrs.v[1].name, "newattr");
    const xf_extra *se = doc->cg.scopes.h.extra;
    ck_assert_uint_eq(se->kids.n, 2);
    ck_assert_int_eq(se->kids.v[0].node->kind, XF_X_COMMENT);
    ck_assert_uint_eq(se->kids.v[0].before, 0);
    ck_assert_int_eq(se->kids.v[1].node->kind, XF_X_ELEMENT);
    ck_assert_uint_eq(se->kids.v[1].before, 1); /* after the Scope */
    ck_assert_str_eq(se->kids.v[1].node->kids.v[0]->kids.v[0]->text, "text");
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

START_TEST(reads_catalogues)
{
    static const char text[] =
        "<ii:InlinableIntrinsicDefinitions "
        "xmlns:ii=\"http://www.mcs.anl.gov/XAIFInlinableIntrinsics\""
        " xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\" language=\"F\">\n"
        " <ii:InlinableIntrinsic name=\"div_scal_scal\" nr_arguments=\"2\">\n"
        "  <ii:Function type=\"builtin\" builtin_name=\"/\"/>\n"
        "  <ii:Partial partial_id=\"1\">\n"
        "   <xaif:Intrinsic vertex_id=\"1\" name=\"div_scal_scal\"/>\n"
        "   <xaif:Constant vertex_id=\"2\" type=\"integer\" value=\"1\"/>\n"
        "   <ii:ArgumentReference vertex_id=\"3\" argument=\"2\"/>\n"
        "   <xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" position=\"1\"/>\n"
        "   <xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" position=\"2\"/>\n"
        "  </ii:Partial>\n"
        " </ii:InlinableIntrinsic>\n"
        "</ii:InlinableIntrinsicDefinitions>\n";
    xf_diag *d;
    xf_doc *doc = read_text(text, &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    ck_assert_int_eq(doc->kind, XF_DOC_INLINABLE);
    ck_assert_str_eq(doc->language, "F");
    ck_assert_uint_eq(doc->ii.n, 1);
    const xf_ii *ii = &doc->ii.v[0];
    ck_assert_int_eq(ii->nargs, 2);
    ck_assert_str_eq(ii->fn_builtin, "/");
    ck_assert_uint_eq(ii->partials.n, 1);
    ck_assert_int_eq(ii->partials.v[0].expr.v.v[2].kind, XF_EV_ARGREF);
    ck_assert_int_eq(ii->partials.v[0].expr.v.v[2].u.arg, 2);
    ck_assert_uint_eq(ii->partials.v[0].expr.e.v[1].src, 2);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

/* Each bad document and the message (with its line) it must produce. */
static const struct {
    const char *text, *message;
} bad[] = {
    {"<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\">\n<xaif:ScopeHierarchy>\n"
     "</xaif:CallGraph>",
     "t.xaif:3: error: Opening and ending tag mismatch"},
    {"", "t.xaif: error: empty file: no xaif document"},
    {"<CallGraph/>", "t.xaif:1: error: root element <CallGraph> is not xaif"},
    {"<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\">\n  <xaif:Bogus/>\n"
     "</xaif:CallGraph>",
     "t.xaif:2: error: unknown element <Bogus>"},
    {"<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\">\n  <xaif:Entry "
     "vertex_id=\"1\"/>\n"
     "</xaif:CallGraph>",
     "t.xaif:2: error: unexpected element <Entry> in <CallGraph>"},
    {"<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\"/>",
     "t.xaif:1: error: <CallGraph> has no <ScopeHierarchy>"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
     "<xaif:Entry vertex_id=\"1\"/>\n"
     "<xaif:ControlFlowEdge edge_id=\"1\" source=\"1\" target=\"9\"/>\n" XAIF_TAIL,
     "t.xaif:20: error: dangling reference: control-flow edge '1' target '9' is no vertex of head"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
     "<xaif:BasicBlock vertex_id=\"1\" scope_id=\"2\">\n"
     "<xaif:Marker statement_id=\"1\"/>\n"
     "<xaif:SubroutineCall statement_id=\"2\" scope_id=\"1\" symbol_id=\"nothere\"/>\n"
     "</xaif:BasicBlock>\n" XAIF_TAIL,
     "t.xaif:21: error: dangling reference: no symbol 'nothere' in scope 1"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
     "<xaif:BasicBlock vertex_id=\"1\" scope_id=\"7\"/>\n" XAIF_TAIL,
     "t.xaif:19: error: dangling reference: no scope '7'"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
     "<xaif:BasicBlock vertex_id=\"1\" scope_id=\"2\">\n"
     "<xaif:Assignment statement_id=\"1\" lineNumber=\"seven\"/>\n</xaif:BasicBlock>\n" XAIF_TAIL,
     "t.xaif:20: error: attribute lineNumber of <Assignment> is not an integer: 'seven'"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
     "<xaif:Entry vertex_id=\"1\"/><xaif:Exit vertex_id=\"1\"/>\n" XAIF_TAIL,
     "t.xaif:19: error: two control-flow vertices with vertex_id '1'"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
     "<xaif:BasicBlock vertex_id=\"1\" scope_id=\"2\">\n"
     "<xaif:Assignment statement_id=\"1\"><xaif:AssignmentLHS><xaif:SymbolReference "
     "vertex_id=\"1\" scope_id=\"2\" symbol_id=\"y\"/></xaif:AssignmentLHS></xaif:Assignment>\n"
     "</xaif:BasicBlock>\n" XAIF_TAIL,
     "t.xaif:20: error: <Assignment> needs an <AssignmentLHS> and an <AssignmentRHS>"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
     "<xaif:Branch vertex_id=\"1\"><xaif:Condition>\n"
     "<xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"1\"/>\n"
     "<xaif:ExpressionEdge edge_id=\"1\" source=\"1\" target=\"5\" position=\"1\"/>\n"
     "</xaif:Condition></xaif:Branch>\n" XAIF_TAIL,
     "t.xaif:21: error: dangling reference: expression edge target '5' is no vertex"},
    {XAIF_HEAD XAIF_SCOPES
     "<xaif:ControlFlowGraph vertex_id=\"1\" scope_id=\"1\" "
     "symbol_id=\"head\" controlflowgraph_scope_id=\"2\" active=\"maybe\"/>\n</xaif:CallGraph>",
     "t.xaif:18: error: attribute active of <ControlFlowGraph> is not a boolean: 'maybe'"},
    {XAIF_HEAD "<xaif:ScopeHierarchy><xaif:Scope vertex_id=\"1\"><xaif:SymbolTable>\n"
               "<xaif:Symbol symbol_id=\"a\" shape=\"cube\"/></xaif:SymbolTable></xaif:Scope>"
               "</xaif:ScopeHierarchy></xaif:CallGraph>",
     "t.xaif:4: error: attribute shape of <Symbol> is not a shape: 'cube'"},
    {XAIF_HEAD "<xaif:ScopeHierarchy><xaif:Scope vertex_id=\"1\"><xaif:SymbolTable/>"
               "</xaif:Scope>\n<xaif:ScopeEdge edge_id=\"1\" source=\"1\" target=\"3\"/>"
               "</xaif:ScopeHierarchy></xaif:CallGraph>",
     "t.xaif:4: error: dangling reference: scope edge '1' target '3' is no scope"},
    {XAIF_HEAD "<xaif:ScopeHierarchy>text</xaif:ScopeHierarchy></xaif:CallGraph>",
     "t.xaif:3: error: text is not allowed in <ScopeHierarchy>"},
    /* expression graphs: acyclic, one operand per position */
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
     "<xaif:BasicBlock vertex_id=\"1\" scope_id=\"2\">\n"
     "<xaif:Assignment statement_id=\"1\"><xaif:AssignmentLHS><xaif:SymbolReference "
     "vertex_id=\"1\" scope_id=\"2\" symbol_id=\"y\"/></xaif:AssignmentLHS>\n"
     "<xaif:AssignmentRHS><xaif:Intrinsic vertex_id=\"1\" name=\"sin_scal\"/>"
     "<xaif:Intrinsic vertex_id=\"2\" name=\"cos_scal\"/>\n"
     "<xaif:ExpressionEdge edge_id=\"1\" source=\"1\" target=\"2\" position=\"1\"/>\n"
     "<xaif:ExpressionEdge edge_id=\"2\" source=\"2\" target=\"1\" position=\"1\"/>\n"
     "</xaif:AssignmentRHS></xaif:Assignment></xaif:BasicBlock>\n" XAIF_TAIL,
     "t.xaif:23: error: expression graph has a cycle: '1' -> '2' -> '1' (edge '2')"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
     "<xaif:Branch vertex_id=\"1\"><xaif:Condition>\n"
     "<xaif:BooleanOperation vertex_id=\"1\" name=\"not\"/>\n"
     "<xaif:ExpressionEdge edge_id=\"1\" source=\"1\" target=\"1\" position=\"1\"/>\n"
     "</xaif:Condition></xaif:Branch>\n" XAIF_TAIL,
     "t.xaif:21: error: expression graph has a cycle: '1' -> '1' (edge '1')"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
     "<xaif:BasicBlock vertex_id=\"1\" scope_id=\"2\">\n"
     "<xaif:SubroutineCall statement_id=\"1\" scope_id=\"1\" symbol_id=\"head\">\n"
     "<xaif:Argument position=\"1\"><xaif:Intrinsic vertex_id=\"1\" name=\"sin_scal\"/>"
     "<xaif:Intrinsic vertex_id=\"2\" name=\"cos_scal\"/>"
     "<xaif:Intrinsic vertex_id=\"3\" name=\"exp_scal\"/>\n"
     "<xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" position=\"1\"/>\n"
     "<xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"2\" position=\"1\"/>\n"
     "<xaif:ExpressionEdge edge_id=\"3\" source=\"2\" target=\"3\" position=\"1\"/>\n"
     "</xaif:Argument></xaif:SubroutineCall></xaif:BasicBlock>\n" XAIF_TAIL,
     "t.xaif:24: error: expression graph has a cycle: '3' -> '2' -> '3' (edge '3')"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
     "<xaif:Branch vertex_id=\"1\"><xaif:Condition>\n"
     "<xaif:BooleanOperation vertex_id=\"1\" name=\"and\"/>\n"
     "<xaif:Constant vertex_id=\"2\" type=\"bool\" value=\"true\"/>"
     "<xaif:Constant vertex_id=\"3\" type=\"bool\" value=\"false\"/>\n"
     "<xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" position=\"1\"/>\n"
     "<xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" position=\"1\"/>\n"
     "</xaif:Condition></xaif:Branch>\n" XAIF_TAIL,
     "t.xaif:23: error: expression vertex '1' has two operands in position 1 (edge '2')"},
    /* a document cut short names the element left open */
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN "<xaif:BasicBlock vertex_id=\"1\" scope_id=\"2\">\n"
                                         "<xaif:Mark",
     "t.xaif:20: error: Premature end of data in tag BasicBlock line 19"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN "<xaif:BasicBlock vertex_id=\"1\" scope_id=\"",
     "t.xaif:19: error: Premature end of data in tag ControlFlowGraph line 18"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN "<xaif:BasicBlock vertex_id=\"1\" scope_id=\"2\">\n",
     "t.xaif:19: error: Premature end of data in tag BasicBlock line 19"},
    {XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN "<xaif:Entry vertex_id=\"1\"/>\n\n",
     "t.xaif:21: error: Premature end of data in tag ControlFlowGraph line 18"},
};

START_TEST(rejects_bad_input_with_file_and_line)
{
    xf_diag *d;
    xf_doc *doc = read_text(bad[_i].text, &d);
    ck_assert_ptr_null(doc);
    ck_assert_uint_ge(xf_diag_errors(d), 1);
    const char *m = first_message(d);
    ck_assert_msg(strncmp(m, bad[_i].message, strlen(bad[_i].message)) == 0,
                  "case %d: got '%s', want '%s...'", _i, m, bad[_i].message);
    xf_diag_free(d);
}
END_TEST

/* A document whose one assignment has the right-hand side @rhs (@n bytes). */
static char *
with_rhs(const char *rhs, size_t *len)
{
    static const char head[] = XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
        "<xaif:BasicBlock vertex_id=\"1\" scope_id=\"2\">\n"
        "<xaif:Assignment statement_id=\"1\"><xaif:AssignmentLHS><xaif:SymbolReference "
        "vertex_id=\"1\" scope_id=\"2\" symbol_id=\"y\"/></xaif:AssignmentLHS>\n"
        "<xaif:AssignmentRHS>\n";
    static const char tail[] =
        "</xaif:AssignmentRHS></xaif:Assignment></xaif:BasicBlock>\n" XAIF_TAIL;
    *len = strlen(head) + strlen(rhs) + strlen(tail);
    char *text = malloc(*len + 1);
    ck_assert_ptr_nonnull(text);
    snprintf(text, *len + 1, "%s%s%s", head, rhs, tail);
    return text;
}

/* sin(sin(...sin(y))) with @n sines, and with @back an edge from the
 * outermost sine back into the innermost: the check walks no recursion. */
static char *
sine_chain(int n, bool back, size_t *len)
{
    size_t cap = (size_t)n * 160 + 200, k = 0;
    char *rhs = malloc(cap);
    ck_assert_ptr_nonnull(rhs);
    for (int i = 1; i <= n; i++)
        k += (size_t)snprintf(rhs + k, cap - k,
                              "<xaif:Intrinsic vertex_id=\"%d\" name=\"sin_scal\"/>\n", i);
    k += (size_t)snprintf(
        rhs + k, cap - k,
        "<xaif:VariableReference vertex_id=\"%d\"><xaif:SymbolReference vertex_id=\"1\" "
        "scope_id=\"2\" symbol_id=\"y\"/></xaif:VariableReference>\n",
        n + 1);
    for (int i = 1; i <= n; i++)
        k += (size_t)snprintf(
            rhs + k, cap - k,
            "<xaif:ExpressionEdge edge_id=\"%d\" source=\"%d\" target=\"%d\" position=\"%d\"/>\n",
            i, i + 1, i, back && i == n ? 2 : 1);
    if (back)
        snprintf(rhs + k, cap - k,
                 "<xaif:ExpressionEdge edge_id=\"0\" source=\"1\" target=\"%d\" position=\"1\"/>\n",
                 n);
    char *text = with_rhs(rhs, len);
    free(rhs);
    return text;
}

START_TEST(long_expressions_are_checked_without_recursion)
{
    enum { N = 50000 };
    size_t len;
    char *text = sine_chain(N, false, &len);
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = xf_read_memory(text, len, "t.xaif", NULL, d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    const xf_expr *rhs = &doc->cg.routines.v[0]->g.v.v[0]->stmts.v[0]->u.as.rhs;
    ck_assert_uint_eq(rhs->v.n, N + 1);
    ck_assert_uint_eq(rhs->e.n, N);
    xf_doc_free(doc);
    free(text);
    /* every sine on the cycle: the message lists the first few */
    text = sine_chain(N, true, &len);
    ck_assert_ptr_null(xf_read_memory(text, len, "t.xaif", NULL, d));
    const char *m = first_message(d);
    ck_assert_msg(strstr(m, "error: expression graph has a cycle: '") && strstr(m, " -> ...") &&
                      strlen(m) < 500,
                  "%s", m);
    xf_diag_free(d);
    free(text);
}
END_TEST

/* An intrinsic with 40 operands (over the pairwise limit): positions
 * 1..40, or with @dup twice. */
static char *
wide(int dup, size_t *len)
{
    char rhs[40 * 200];
    size_t k =
        (size_t)snprintf(rhs, sizeof rhs, "<xaif:Intrinsic vertex_id=\"0\" name=\"max\"/>\n");
    for (int i = 1; i <= 40; i++)
        k += (size_t)snprintf(
            rhs + k, sizeof rhs - k,
            "<xaif:Constant vertex_id=\"%d\" type=\"real\" value=\"%d\"/>"
            "<xaif:ExpressionEdge edge_id=\"%d\" source=\"%d\" target=\"0\" position=\"%d\"/>\n",
            i, i, i, i, i == 33 && dup ? dup : i);
    return with_rhs(rhs, len);
}

START_TEST(operand_positions_are_distinct)
{
    size_t len;
    char *text = wide(0, &len);
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = xf_read_memory(text, len, "t.xaif", NULL, d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    xf_doc_free(doc);
    free(text);
    text = wide(17, &len);
    ck_assert_ptr_null(xf_read_memory(text, len, "t.xaif", NULL, d));
    ck_assert_str_eq(first_message(d),
                     "t.xaif:55: error: expression vertex '0' has two operands in "
                     "position 17 (edge '33')");
    xf_diag_free(d);
    free(text);
}
END_TEST

START_TEST(lenient_reading_keeps_dangling_references)
{
    static const char text[] = XAIF_HEAD XAIF_SCOPES XAIF_CFG_OPEN
        "<xaif:BasicBlock vertex_id=\"1\" scope_id=\"2\">\n"
        "<xaif:SubroutineCall statement_id=\"2\" scope_id=\"1\" symbol_id=\"nothere\"/>\n"
        "</xaif:BasicBlock>\n" XAIF_TAIL;
    xf_diag *d = xf_diag_new(NULL);
    xf_read_opts o = {.lenient = true};
    xf_doc *doc = xf_read_memory(text, strlen(text), "t.xaif", &o, d);
    ck_assert_ptr_nonnull(doc);
    ck_assert_uint_eq(xf_diag_errors(d), 0);
    ck_assert_str_eq(first_message(d), "t.xaif:20: warning: dangling reference: no symbol "
                                       "'nothere' in scope 1");
    xf_stmt *s = doc->cg.routines.v[0]->g.v.v[0]->stmts.v[0];
    ck_assert_ptr_null(s->u.call.sym);
    ck_assert_uint_eq(s->h.extra->attrs.n, 2);
    ck_assert_str_eq(s->h.extra->attrs.v[1].value, "nothere");
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

START_TEST(running_out_of_memory_is_an_error_not_a_crash)
{
    xf_diag *d = xf_diag_new(NULL);
    long n;
    for (n = 1; n < 100000; n++) {
        xf_read_opts o = {.fail_alloc = n};
        xf_doc *doc = xf_read_memory(simple, strlen(simple), "t.xaif", &o, d);
        if (doc) {
            xf_doc_free(doc);
            break;
        }
        ck_assert_uint_ge(xf_diag_errors(d), 1);
        ck_assert_msg(strstr(first_message(d), "out of memory") != NULL, "n=%ld: %s", n,
                      first_message(d));
        xf_diag_clear(d);
    }
    ck_assert_int_gt(n, 10); /* the document needs that many allocations */
    xf_diag_free(d);
}
END_TEST

START_TEST(missing_file_is_reported)
{
    xf_diag *d = xf_diag_new(NULL);
    ck_assert_ptr_null(xf_read_file("/nonexistent/dir/x.xaif", NULL, d));
    ck_assert_str_eq(first_message(d),
                     "/nonexistent/dir/x.xaif: error: cannot open: No such file or directory");
    xf_diag_free(d);
}
END_TEST

/* ---- derivative code (xf_doc.deriv) */

/* The line (from 1) of the first occurrence of @needle in @text. */
static unsigned long
line_of(const char *text, const char *needle)
{
    const char *hit = strstr(text, needle);
    ck_assert_msg(hit != NULL, "'%s' is not in the test's document", needle);
    unsigned long line = 1;
    for (const char *p = text; p < hit; p++)
        line += *p == '\n';
    return line;
}

START_TEST(front_end_input_is_no_derivative_code)
{
    xf_diag *d;
    xf_doc *doc = read_text(simple, &d);
    ck_assert_ptr_nonnull(doc);
    ck_assert_ptr_null(doc->deriv.what);
    xf_doc_free(doc);
    xf_diag_free(d);
    /* the front end's own inlinable calls are not derivative code */
    xb *b = XB_NEW();
    xg_bb(head_cfg(b, 2, 1, NULL, NULL),
          "y(1) = x(1) * x(2); inline oad_convert(y(1), x(1)); inline oad_ShapeTest(x, x)");
    doc = read_text(xb_build(b), &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    ck_assert_ptr_null(doc->deriv.what);
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

/* Each document's first construct of derivative code: element, why, line. */
static const struct {
    const char *stmts, *what, *detail, *at;
} deriv_cases[] = {
    {"y(1) = x(1); dp SetDeriv($y(1), $x(1)); $y(1) = 1", "DerivativePropagator", NULL,
     "<xaif:DerivativePropagator"},
    {"y(1) = x(1); inline oad_convert(y(1), x(1)); inline push_s0(x(1)); dp ZeroDeriv($y(1))",
     "InlinableSubroutineCall", "subroutine_name=\"push_s0\"", "subroutine_name=\"push_s0\""},
    {"y(1) = x(1); inline Saxpy(2, x(1), y(1))", "InlinableSubroutineCall",
     "subroutine_name=\"Saxpy\"", "subroutine_name=\"Saxpy\""},
    {"y(1) = x(1); $y(1) = x(1); dp ZeroDeriv($y(1))", "AssignmentLHS", "deriv=\"1\"",
     "<xaif:AssignmentLHS deriv=\"1\""},
    {"y(1) = $x(1) * 2", "VariableReference", "deriv=\"1\"", " deriv=\"1\""},
};

START_TEST(records_the_first_derivative_construct)
{
    xb *b = XB_NEW();
    xg_bb(head_cfg(b, 2, 1, NULL, NULL), deriv_cases[_i].stmts);
    const char *text = xb_build(b);
    xf_diag *d;
    xf_doc *doc = read_text(text, &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    ck_assert_ptr_nonnull(doc->deriv.what);
    ck_assert_str_eq(doc->deriv.what, deriv_cases[_i].what);
    if (deriv_cases[_i].detail)
        ck_assert_str_eq(doc->deriv.detail, deriv_cases[_i].detail);
    else
        ck_assert_ptr_null(doc->deriv.detail);
    ck_assert_uint_eq(doc->deriv.line, line_of(text, deriv_cases[_i].at));
    char buf[200];
    char want[200];
    snprintf(want, sizeof want, "<xaif:%s%s%s>", deriv_cases[_i].what,
             deriv_cases[_i].detail ? " " : "",
             deriv_cases[_i].detail ? deriv_cases[_i].detail : "");
    ck_assert_str_eq(xf_derivmark_text(&doc->deriv, buf, sizeof buf), want);
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

START_TEST(a_replacement_list_is_derivative_code)
{
    xb *b = XB_NEW();
    xb_syms(b, 1, "sub head");
    xb_scope(b, 2, 1);
    xb_syms(b, 2, "real x(1); real y(1)");
    xg_bb(xr_ph(xb_rlist(b, "head", 2, "x y"), b, 1), "y(1) = x(1)");
    const char *text = xb_build(b);
    xf_diag *d;
    xf_doc *doc = read_text(text, &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    ck_assert_str_eq(doc->deriv.what, "ReplacementList");
    ck_assert_uint_eq(doc->deriv.line, line_of(text, "<xaif:ReplacementList"));
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

START_TEST(derivative_routine_names)
{
    static const char *const yes[] = {"push",
                                      "pop",
                                      "push_s0",
                                      "pop_i_s0",
                                      "apush",
                                      "Saxpy",
                                      "sax",
                                      "SetDeriv",
                                      "ZeroDeriv",
                                      "IncDeriv",
                                      "DecDeriv",
                                      "SetNegDeriv",
                                      "CondIncZeroDeriv",
                                      "cp_arg_store_real_scalar_a",
                                      "cp_res_restore_real_vector_a"};
    static const char *const no[] = {
        "oad_convert", "oad_ShapeTest",      "oad_AllocateMatching", "pushy",
        "populate",    "convert_a2p_scalar", "cp_something",         ""};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        ck_assert_msg(xf_deriv_icall(yes[i]), "%s", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        ck_assert_msg(!xf_deriv_icall(no[i]), "%s", no[i]);
    ck_assert(!xf_deriv_icall(NULL));
}
END_TEST

Suite *
test_read_suite(void)
{
    Suite *s = suite_create("read");
    TCase *tc = tcase_create("builds");
    tcase_add_test(tc, reads_scopes_and_symbols);
    tcase_add_test(tc, reads_the_control_flow_graph);
    tcase_add_test(tc, reads_statements_and_expressions);
    tcase_add_test(tc, keeps_what_it_does_not_model);
    tcase_add_test(tc, reads_catalogues);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_loop_test(tc, rejects_bad_input_with_file_and_line, 0,
                        (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, lenient_reading_keeps_dangling_references);
    tcase_add_test(tc, running_out_of_memory_is_an_error_not_a_crash);
    tcase_add_test(tc, missing_file_is_reported);
    tcase_add_test(tc, long_expressions_are_checked_without_recursion);
    tcase_add_test(tc, operand_positions_are_distinct);
    suite_add_tcase(s, tc);
    tc = tcase_create("derivative_code");
    tcase_add_test(tc, front_end_input_is_no_derivative_code);
    tcase_add_loop_test(tc, records_the_first_derivative_construct, 0,
                        (int)(sizeof deriv_cases / sizeof deriv_cases[0]));
    tcase_add_test(tc, a_replacement_list_is_derivative_code);
    tcase_add_test(tc, derivative_routine_names);
    suite_add_tcase(s, tc);
    return s;
}
