/* test_compare.c: what counts as the same document. */
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "suites.h"
#include "xaif_shape.h"

static int
cmp(const char *a, const char *b, char *why)
{
    return xf_xml_compare(a, strlen(a), b, strlen(b), why, 300);
}

START_TEST(formatting_does_not_count)
{
    char why[300];
    ck_assert_int_eq(cmp("<p:a xmlns:p=\"u\" x=\"1\" y=\"2\"><!-- c --><p:b/>\n</p:a>",
                         "<q:a xmlns:q=\"u\" y=\"2\"    x=\"1\">  <q:b></q:b></q:a>", why),
                     0);
}
END_TEST

START_TEST(content_counts)
{
    char why[300];
    ck_assert_int_eq(cmp("<a x=\"1\"/>", "<a x=\"2\"/>", why), 1);
    ck_assert_str_eq(why, "line 1 / line 1: <a> attribute x: '1' became '2'");
    ck_assert_int_eq(cmp("<a x=\"1\"/>", "<a/>", why), 1);
    ck_assert_int_eq(cmp("<a/>", "<a x=\"1\"/>", why), 1);
    ck_assert_int_eq(cmp("<a><b/><c/></a>", "<a><c/><b/></a>", why), 1);
    ck_assert_str_eq(why, "line 1 / line 1: <b> became <c>");
    ck_assert_int_eq(cmp("<a><b/><c/></a>", "<a><b/></a>", why), 1);
    ck_assert_int_eq(cmp("<a xmlns=\"u\"/>", "<a xmlns=\"v\"/>", why), 1);
    ck_assert_int_eq(cmp("<a>t</a>", "<a>u</a>", why), 1);
    ck_assert_int_eq(cmp("<a><b><c/></b></a>", "<a><b><c/></b><d/></a>", why), 1);
    ck_assert_int_eq(cmp("<a>", "<a/>", why), -1);
}
END_TEST

/* a routine foo(a, b) in OpenAD's names, with a loop; @intent is b's */
static char *
xaif(const char *intent, const char *shape, const char *extra, const char *loop)
{
    static const char fmt[] =
        "<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\" program_name=\"p\">"
        "<xaif:ScopeHierarchy><xaif:Scope vertex_id=\"1\"><xaif:SymbolTable>"
        "<xaif:Symbol symbol_id=\"foo__3\" kind=\"subroutine\" type=\"void\"/>"
        "</xaif:SymbolTable></xaif:Scope><xaif:Scope vertex_id=\"2\"><xaif:SymbolTable>"
        "<xaif:Symbol symbol_id=\"A_1\" kind=\"variable\" type=\"real\" shape=\"%s\"/>"
        "<xaif:Symbol symbol_id=\"B_2\" kind=\"variable\" type=\"real\" shape=\"scalar\"/>%s"
        "</xaif:SymbolTable></xaif:Scope></xaif:ScopeHierarchy>"
        "<xaif:ControlFlowGraph vertex_id=\"9\" scope_id=\"1\" symbol_id=\"foo__3\" "
        "controlflowgraph_scope_id=\"2\"><xaif:ArgumentList>"
        "<xaif:ArgumentSymbolReference position=\"2\" scope_id=\"2\" symbol_id=\"B_2\" "
        "intent=\"%s\"/>"
        "<xaif:ArgumentSymbolReference position=\"1\" scope_id=\"2\" symbol_id=\"A_1\" "
        "intent=\"in\"/>"
        "</xaif:ArgumentList><xaif:Entry vertex_id=\"1\"/><xaif:BasicBlock vertex_id=\"2\"/>"
        "%s<xaif:Exit vertex_id=\"3\"/></xaif:ControlFlowGraph></xaif:CallGraph>";
    static char buf[4][2048];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], fmt, shape, extra, intent, loop);
    return b;
}

static int
structure(const char *a, const char *b, char *out, size_t len)
{
    FILE *f = fmemopen(out, len, "w");
    ck_assert_ptr_nonnull(f);
    int ret = xf_xaif_shape_compare(a, strlen(a), "A", b, strlen(b), "B", f);
    fclose(f);
    return ret;
}

START_TEST(structure_names)
{
    char n[64];
    xf_xaif_shape_name("head__24", n, sizeof n);
    ck_assert_str_eq(n, "head");
    xf_xaif_shape_name("X_1", n, sizeof n);
    ck_assert_str_eq(n, "x");
    xf_xaif_shape_name("T2_12", n, sizeof n);
    ck_assert_str_eq(n, "t2");
    xf_xaif_shape_name("foo", n, sizeof n);
    ck_assert_str_eq(n, "foo");
}
END_TEST

START_TEST(structure_same)
{
    char out[1024];
    const char *loop = "<xaif:ForLoop vertex_id=\"4\"/><xaif:EndLoop vertex_id=\"5\"/>";
    /* a temporary only one side has is a note, not a difference */
    const char *tmp = "<xaif:Symbol symbol_id=\"OAD_CTMP0_3\" kind=\"variable\" type=\"real\" "
                      "shape=\"scalar\"/>";
    ck_assert_int_eq(structure(xaif("inout", "vector", tmp, loop),
                               xaif("inout", "vector", "", loop), out, sizeof out),
                     0);
    ck_assert_str_eq(out, "note: foo: temporary oad_ctmp0 only in A\n");
    /* "inout" is true of any argument; an empty block is no statement; a
     * callee declared in the caller's scope is no variable */
    const char *pad = "<xaif:ForLoop vertex_id=\"4\"/><xaif:BasicBlock vertex_id=\"6\"/>"
                      "<xaif:EndLoop vertex_id=\"5\"/>";
    const char *callee = "<xaif:Symbol symbol_id=\"bar__4\" kind=\"subroutine\" type=\"void\"/>";
    ck_assert_int_eq(structure(xaif("inout", "vector", callee, loop),
                               xaif("out", "vector", "", pad), out, sizeof out),
                     0);
    ck_assert_str_eq(out, "note: foo: argument 2 (b): intent 'inout' in A, 'out' in B\n"
                          "note: foo: subroutine bar only in A\n");
}
END_TEST

START_TEST(structure_differs)
{
    char out[1024];
    const char *loop = "<xaif:ForLoop vertex_id=\"4\"/><xaif:EndLoop vertex_id=\"5\"/>";
    ck_assert_int_eq(
        structure(xaif("in", "vector", "", loop), xaif("out", "vector", "", loop), out, sizeof out),
        1);
    ck_assert_str_eq(out, "foo: argument 2 (b): intent: 'in' in A, 'out' in B\n");
    /* a block with a statement counts */
    const char *more = "<xaif:ForLoop vertex_id=\"4\"/><xaif:EndLoop vertex_id=\"5\"/>"
                       "<xaif:BasicBlock vertex_id=\"6\"><xaif:Assignment/></xaif:BasicBlock>";
    ck_assert_int_eq(
        structure(xaif("in", "vector", "", loop), xaif("in", "vector", "", more), out, sizeof out),
        1);
    ck_assert_str_eq(out, "foo: BasicBlock vertices: '0' in A, '1' in B\n");
    ck_assert_int_eq(
        structure(xaif("in", "vector", "", loop), xaif("in", "matrix", "", ""), out, sizeof out),
        1);
    ck_assert_str_eq(out, "foo: argument 1 (a): shape: 'vector' in A, 'matrix' in B\n"
                          "foo: symbol a: shape: 'vector' in A, 'matrix' in B\n"
                          "foo: ForLoop vertices: '1' in A, '0' in B\n"
                          "foo: EndLoop vertices: '1' in A, '0' in B\n");
    const char *y = "<xaif:Symbol symbol_id=\"Y_3\" kind=\"variable\" type=\"real\" "
                    "shape=\"scalar\"/>";
    ck_assert_int_eq(
        structure(xaif("in", "scalar", "", ""), xaif("in", "scalar", y, ""), out, sizeof out), 1);
    ck_assert_str_eq(out, "foo: symbol y (scalar) only in B\n");
    ck_assert_int_eq(structure("<a/>", xaif("in", "scalar", "", ""), out, sizeof out), -1);
    ck_assert_int_eq(structure("<a", "<a/>", out, sizeof out), -1);
}
END_TEST

Suite *
test_compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("compare");
    tcase_add_test(tc, formatting_does_not_count);
    tcase_add_test(tc, content_counts);
    suite_add_tcase(s, tc);
    TCase *st = tcase_create("structure");
    tcase_add_test(st, structure_names);
    tcase_add_test(st, structure_same);
    tcase_add_test(st, structure_differs);
    suite_add_tcase(s, st);
    return s;
}
