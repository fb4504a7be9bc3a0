/* test_xaif2c.c: the C back end (frontends/xaif2c/): the text it writes for
 * small documents, the names it picks, and what it refuses, with FILE:LINE.
 * tests/xaif2c/ compiles and runs what it writes for the corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "xaif2c.h"
#include "xaif_fixture.h"

/* head(x, y) with @decls added to scope 2 and @body the statements of its
 * one basic block (from line 28; each line of @decls adds one). */
static char *
program(const char *decls, const char *body)
{
    static const char *const scopes_end = "      </xaif:SymbolTable>\n    </xaif:Scope>\n"
                                          "    <xaif:ScopeEdge";
    char *scopes = strdup(XAIF_SCOPES);
    char *cut = strstr(scopes, scopes_end);
    ck_assert_ptr_nonnull(cut);
    /* the x(1:3), y, i of the fixture, then @decls */
    size_t cap = strlen(decls) + strlen(body) + 8192;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    snprintf(text, cap,
             XAIF_HEAD
             "%.*s%s%s" XAIF_MAPS XAIF_CFG_OPEN "    <xaif:ArgumentList>\n"
             "      <xaif:ArgumentSymbolReference position=\"1\" scope_id=\"2\" "
             "symbol_id=\"x\" intent=\"in\"/>\n"
             "      <xaif:ArgumentSymbolReference position=\"2\" scope_id=\"2\" "
             "symbol_id=\"y\" intent=\"out\"/>\n"
             "    </xaif:ArgumentList>\n"
             "    <xaif:Entry vertex_id=\"1\"/>\n"
             "    <xaif:BasicBlock vertex_id=\"2\" scope_id=\"2\">\n%s"
             "    </xaif:BasicBlock>\n"
             "    <xaif:Exit vertex_id=\"3\"/>\n"
             "    <xaif:ControlFlowEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n"
             "    <xaif:ControlFlowEdge edge_id=\"2\" source=\"2\" target=\"3\"/>\n" XAIF_TAIL,
             (int)(cut - scopes), scopes, decls, cut, body);
    free(scopes);
    return text;
}

/* xf_xaif2c_write over @text: the C written (caller frees), or NULL with
 * the first message in @msg. */
static char *
to_c(const char *text, char *msg, size_t len)
{
    xf_diag *d;
    xf_doc *doc = read_text(text, &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    ck_assert_ptr_nonnull(f);
    int rc = xf_xaif2c_write(doc, f, NULL, d);
    fclose(f);
    snprintf(msg, len, "%s", first_message(d));
    ck_assert_int_eq(rc == 0, xf_diag_errors(d) == 0);
    if (rc != 0) {
        ck_assert_uint_eq(n, 0); /* nothing written */
        free(out);
        out = NULL;
    }
    xf_doc_free(doc);
    xf_diag_free(d);
    return out;
}

#define Y_IS(rhs)                                                                                  \
    "      <xaif:Assignment statement_id=\"s\">\n"                                                 \
    "        <xaif:AssignmentLHS><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "            \
    "symbol_id=\"y\"/></xaif:AssignmentLHS>\n"                                                     \
    "        <xaif:AssignmentRHS>\n" rhs "        </xaif:AssignmentRHS>\n"                         \
    "      </xaif:Assignment>\n"

#define X_AT(v, k)                                                                                 \
    "<xaif:VariableReference vertex_id=\"" v "\"><xaif:SymbolReference vertex_id=\"1\" "           \
    "scope_id=\"2\" symbol_id=\"x\"/><xaif:ArrayElementReference vertex_id=\"2\">"                 \
    "<xaif:IndexTriplet><xaif:Index><xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"" k    \
    "\"/></xaif:Index></xaif:IndexTriplet></xaif:ArrayElementReference>"                           \
    "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>"                        \
    "</xaif:VariableReference>\n"

START_TEST(a_program_becomes_a_function_of_pointers)
{
    char msg[512];
    char *text =
        program("", Y_IS("<xaif:Intrinsic vertex_id=\"1\" name=\"mul_scal_scal\"/>" X_AT("2", "2")
                             X_AT("3", "3") "<xaif:Intrinsic vertex_id=\"4\" "
                                            "name=\"sin_scal\"/>"
                                            "<xaif:ExpressionEdge edge_id=\"1\" "
                                            "source=\"4\" target=\"1\" "
                                            "position=\"2\"/><xaif:ExpressionEdge "
                                            "edge_id=\"2\" source=\"2\" target=\"1\" "
                                            "position=\"1\"/><xaif:ExpressionEdge "
                                            "edge_id=\"3\" source=\"3\" target=\"4\" "
                                            "position=\"1\"/>"));
    char *c = to_c(text, msg, sizeof msg);
    ck_assert_msg(c != NULL, "%s", msg);
    ck_assert_msg(strstr(c, "void head(double *x, double *y);\n"), "%s", c);
    ck_assert_msg(strstr(c, "\nvoid\nhead(double *x, double *y)\n{\n"), "%s", c);
    /* column-major, less the lower bound; operand positions, not document order */
    ck_assert_msg(strstr(c, "    (*y) = (x[(2) - 1] * sin(x[(3) - 1]));\n"), "%s", c);
    ck_assert_msg(strstr(c, "#include \"xaiform/ad.h\""), "%s", c);
    ck_assert_msg(strstr(c, "the program itself"), "%s", c);
    free(c);
    free(text);
}
END_TEST

/* @text with @add inserted after the first @after (caller frees). */
static char *
insert_after(char *text, const char *after, const char *add)
{
    char *at = strstr(text, after);
    ck_assert_ptr_nonnull(at);
    size_t k = (size_t)(at - text) + strlen(after), n = strlen(text) + strlen(add) + 1;
    char *t = malloc(n);
    ck_assert_ptr_nonnull(t);
    snprintf(t, n, "%.*s%s%s", (int)k, text, add, text + k);
    free(text);
    return t;
}

/* The C front end's annotations (c:...) give the function its user's
 * signature: a static wrapper around an inner function of pointers. */
START_TEST(annotations_give_the_users_signature)
{
    char msg[512];
    char *text = program("", Y_IS(X_AT("1", "2")));
    text = insert_after(text, "symbol_id=\"head\"", " annotation=\"c:static\"");
    text = insert_after(text, "symbol_id=\"x\" kind=\"variable\"",
                        " annotation=\"c:const double pointer\"");
    text =
        insert_after(text, "symbol_id=\"y\" kind=\"variable\"", " annotation=\"c:double return\"");
    char *c = to_c(text, msg, sizeof msg);
    ck_assert_msg(c != NULL, "%s", msg);
    ck_assert_msg(strstr(c, "#define XF_UNUSED __attribute__((unused))\n"), "%s", c);
    ck_assert_msg(strstr(c, "static XF_UNUSED double head(const double *x);\n"), "%s", c);
    ck_assert_msg(strstr(c, "static void xf_fn_head(double *x, double *y);\n"), "%s", c);
    ck_assert_msg(strstr(c, "\nstatic XF_UNUSED double\nhead(const double *x)\n{\n"
                            "    double xf_r = 0;\n    xf_fn_head((double *)x, &xf_r);\n"
                            "    return xf_r;\n}\n"),
                  "%s", c);
    ck_assert_msg(strstr(c, "    (*y) = x[(2) - 1];\n"), "%s", c);
    free(c);
    free(text);
}
END_TEST

START_TEST(names_avoid_keywords_and_math)
{
    char msg[512];
    char *text = program(
        "        <xaif:Symbol symbol_id=\"sin\" kind=\"variable\" type=\"real\"/>\n"
        "        <xaif:Symbol symbol_id=\"double_7\" kind=\"variable\" type=\"integer\"/>\n",
        Y_IS(
            "<xaif:VariableReference vertex_id=\"1\"><xaif:SymbolReference vertex_id=\"1\" "
            "scope_id=\"2\" symbol_id=\"sin\"/></xaif:VariableReference>\n") "      "
                                                                             "<xaif:Assignment "
                                                                             "statement_id=\"t\">\n"
                                                                             "        "
                                                                             "<xaif:AssignmentLHS><"
                                                                             "xaif:SymbolReference "
                                                                             "vertex_id=\"1\" "
                                                                             "scope_id=\"2\" "
                                                                             "symbol_id=\"double_"
                                                                             "7\"/></"
                                                                             "xaif:AssignmentLHS>\n"
                                                                             "        "
                                                                             "<xaif:AssignmentRHS><"
                                                                             "xaif:Constant "
                                                                             "vertex_id=\"1\" "
                                                                             "type=\"integer\" "
                                                                             "value=\"-3\"/></"
                                                                             "xaif:AssignmentRHS>\n"
                                                                             "      "
                                                                             "</"
                                                                             "xaif:Assignment>\n");
    char *c = to_c(text, msg, sizeof msg);
    ck_assert_msg(c != NULL, "%s", msg);
    ck_assert_msg(strstr(c, "    double sin_2 = 0;\n"), "%s", c);
    ck_assert_msg(strstr(c, "    (*y) = sin_2;\n"), "%s", c);
    /* double_7 is assigned and never read: neither assigned nor declared */
    ck_assert_msg(!strstr(c, "double_7"), "%s", c);
    ck_assert_msg(!strstr(c, " i = 0;"), "the unused i is declared: %s", c);
    free(c);
    free(text);
}
END_TEST

/* x(2:3) = 2 * y: Fortran's array assignment, one element at a time */
START_TEST(a_section_assignment_is_a_loop)
{
    char msg[512];
    char *text = program(
        "", "      <xaif:Assignment statement_id=\"s\">\n"
            "        <xaif:AssignmentLHS><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "
            "symbol_id=\"x\"/><xaif:ArrayElementReference vertex_id=\"2\"><xaif:IndexTriplet>"
            "<xaif:Index><xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"2\"/></xaif:Index>"
            "<xaif:Bound><xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"3\"/></xaif:Bound>"
            "</xaif:IndexTriplet></xaif:ArrayElementReference><xaif:VariableReferenceEdge "
            "edge_id=\"1\" source=\"1\" target=\"2\"/></xaif:AssignmentLHS>\n"
            "        <xaif:AssignmentRHS><xaif:Intrinsic vertex_id=\"1\" name=\"mul_scal_scal\"/>"
            "<xaif:Constant vertex_id=\"2\" type=\"real\" value=\"2\"/><xaif:VariableReference "
            "vertex_id=\"3\"><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"y\"/>"
            "</xaif:VariableReference><xaif:ExpressionEdge edge_id=\"1\" source=\"2\" "
            "target=\"1\" position=\"1\"/><xaif:ExpressionEdge edge_id=\"2\" source=\"3\" "
            "target=\"1\" position=\"2\"/></xaif:AssignmentRHS>\n"
            "      </xaif:Assignment>\n");
    char *c = to_c(text, msg, sizeof msg);
    ck_assert_msg(c != NULL, "%s", msg);
    ck_assert_msg(strstr(c, "long xf_n = 1L * xf_ad_ext(2, 3, 1L);\n"
                            "        for (long xf_k = 0; xf_k < xf_n; xf_k++) {\n"
                            "        x[(2 + 1L * (xf_k % xf_ad_ext(2, 3, 1L))) - 1] = "
                            "(2.0 * (*y));\n"),
                  "%s", c);
    free(c);
    free(text);
}
END_TEST

/* x(2:3) = x(1:2): the right side reads x, so it goes through a temporary */
START_TEST(an_overlapping_assignment_uses_a_temporary)
{
    char msg[512];
    char *text = program(
        "", "      <xaif:Assignment statement_id=\"s\">\n"
            "        <xaif:AssignmentLHS><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "
            "symbol_id=\"x\"/><xaif:ArrayElementReference vertex_id=\"2\"><xaif:IndexTriplet>"
            "<xaif:Index><xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"2\"/></xaif:Index>"
            "<xaif:Bound><xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"3\"/></xaif:Bound>"
            "</xaif:IndexTriplet></xaif:ArrayElementReference><xaif:VariableReferenceEdge "
            "edge_id=\"1\" source=\"1\" target=\"2\"/></xaif:AssignmentLHS>\n"
            "        <xaif:AssignmentRHS><xaif:VariableReference vertex_id=\"1\">"
            "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"x\"/>"
            "<xaif:ArrayElementReference vertex_id=\"2\"><xaif:IndexTriplet>"
            "<xaif:Index><xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"1\"/></xaif:Index>"
            "<xaif:Bound><xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"2\"/></xaif:Bound>"
            "</xaif:IndexTriplet></xaif:ArrayElementReference><xaif:VariableReferenceEdge "
            "edge_id=\"1\" source=\"1\" target=\"2\"/></xaif:VariableReference>"
            "</xaif:AssignmentRHS>\n"
            "      </xaif:Assignment>\n");
    char *c = to_c(text, msg, sizeof msg);
    ck_assert_msg(c != NULL, "%s", msg);
    ck_assert_msg(strstr(c, "            xf_buf[xf_k] = x[(1 + 1L * (xf_k % xf_ad_ext(1, 2, "
                            "1L))) - 1];\n"),
                  "%s", c);
    ck_assert_msg(strstr(c, "            x[(2 + 1L * (xf_k % xf_ad_ext(2, 3, 1L))) - 1] = "
                            "xf_buf[xf_k];\n        free(xf_buf);\n"),
                  "%s", c);
    free(c);
    free(text);
}
END_TEST

/* Each refusal: what it says, at which line. */
static void
refused(const char *decls, const char *body, const char *want)
{
    char msg[512];
    char *text = program(decls, body);
    char *c = to_c(text, msg, sizeof msg);
    ck_assert_msg(c == NULL, "not refused: %s", c);
    ck_assert_msg(strstr(msg, want), "message '%s', want '%s'", msg, want);
    free(text);
}

START_TEST(an_array_section_is_refused)
{
    refused("",
            Y_IS("<xaif:VariableReference vertex_id=\"1\"><xaif:SymbolReference vertex_id=\"1\" "
                 "scope_id=\"2\" symbol_id=\"x\"/><xaif:ArrayElementReference vertex_id=\"2\">"
                 "<xaif:IndexTriplet><xaif:Index><xaif:Constant vertex_id=\"1\" type=\"integer\" "
                 "value=\"1\"/></xaif:Index><xaif:Bound><xaif:Constant vertex_id=\"1\" "
                 "type=\"integer\" value=\"2\"/></xaif:Bound></xaif:IndexTriplet>"
                 "</xaif:ArrayElementReference><xaif:VariableReferenceEdge edge_id=\"1\" "
                 "source=\"1\" target=\"2\"/></xaif:VariableReference>\n"),
            "t.xaif:31: error: cannot write C: an array section of x");
}
END_TEST

START_TEST(a_whole_array_in_an_expression_is_refused)
{
    refused("",
            Y_IS("<xaif:VariableReference vertex_id=\"1\"><xaif:SymbolReference vertex_id=\"1\" "
                 "scope_id=\"2\" symbol_id=\"x\"/></xaif:VariableReference>\n"),
            "t.xaif:31: error: cannot write C: the whole array x where one element is wanted");
}
END_TEST

START_TEST(a_string_is_refused)
{
    refused("        <xaif:Symbol symbol_id=\"s\" kind=\"variable\" type=\"string\"/>\n",
            "      <xaif:Assignment statement_id=\"t\">\n"
            "        <xaif:AssignmentLHS><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "
            "symbol_id=\"s\"/></xaif:AssignmentLHS>\n"
            "        <xaif:AssignmentRHS><xaif:Constant vertex_id=\"1\" type=\"string\" "
            "value=\"ab\"/></xaif:AssignmentRHS>\n"
            "      </xaif:Assignment>\n",
            "t.xaif:30: error: cannot write C: variable s has type string");
}
END_TEST

START_TEST(an_array_without_bounds_is_refused)
{
    refused("        <xaif:Symbol symbol_id=\"z\" kind=\"variable\" type=\"real\" "
            "shape=\"vector\"/>\n",
            Y_IS("<xaif:VariableReference vertex_id=\"1\"><xaif:SymbolReference vertex_id=\"1\" "
                 "scope_id=\"2\" symbol_id=\"z\"/><xaif:ArrayElementReference vertex_id=\"2\">"
                 "<xaif:IndexTriplet><xaif:Index><xaif:Constant vertex_id=\"1\" type=\"integer\" "
                 "value=\"1\"/></xaif:Index></xaif:IndexTriplet></xaif:ArrayElementReference>"
                 "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>"
                 "</xaif:VariableReference>\n"),
            "t.xaif:32: error: cannot write C: array z has no DimensionBounds");
}
END_TEST

/* upper - lower + 1 past 64 bits (issue 26): refused, never wrapped. */
START_TEST(an_extent_past_64_bits_is_refused)
{
    refused("        <xaif:Symbol symbol_id=\"z\" kind=\"variable\" type=\"real\" "
            "shape=\"vector\"><xaif:DimensionBounds lower=\"-9223372036854775807\" "
            "upper=\"9223372036854775807\"/></xaif:Symbol>\n",
            Y_IS("<xaif:VariableReference vertex_id=\"1\"><xaif:SymbolReference vertex_id=\"1\" "
                 "scope_id=\"2\" symbol_id=\"z\"/><xaif:ArrayElementReference vertex_id=\"2\">"
                 "<xaif:IndexTriplet><xaif:Index><xaif:Constant vertex_id=\"1\" type=\"integer\" "
                 "value=\"1\"/></xaif:Index></xaif:IndexTriplet></xaif:ArrayElementReference>"
                 "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>"
                 "</xaif:VariableReference>\n"),
            "t.xaif:32: error: cannot write C: array z: dimension 1's extent 9223372036854775807 - "
            "(-9223372036854775807) + 1 "
            "does not fit in 64 bits");
}
END_TEST

START_TEST(an_array_intrinsic_is_refused)
{
    refused("",
            Y_IS("<xaif:Intrinsic vertex_id=\"1\" name=\"sum_arr\"/>" X_AT(
                "2", "1") "<xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" "
                          "position=\"1\"/>\n"),
            "t.xaif:31: error: cannot write C: the intrinsic sum_arr has no C here");
}
END_TEST

START_TEST(a_call_without_code_is_refused)
{
    refused("",
            "      <xaif:SubroutineCall statement_id=\"c\" scope_id=\"1\" symbol_id=\"head\">\n"
            "      </xaif:SubroutineCall>\n"
            "      <xaif:SubroutineCall statement_id=\"d\" scope_id=\"1\" symbol_id=\"head\">\n"
            "      </xaif:SubroutineCall>\n",
            "t.xaif:28: error: cannot write C: formal 1 of head is not given");
}
END_TEST

/* A tangent: a propagator makes f_d with a derivative after each active argument. */
START_TEST(a_tangent_has_derivative_arguments)
{
    char msg[512];
    char *text = program(
        "", "      <xaif:DerivativePropagator statement_id=\"p\">\n"
            "        <xaif:Saxpy><xaif:AX><xaif:A><xaif:Constant vertex_id=\"1\" type=\"real\" "
            "value=\"2.5\"/></xaif:A><xaif:X deriv=\"1\"><xaif:SymbolReference vertex_id=\"1\" "
            "scope_id=\"2\" symbol_id=\"x\"/><xaif:ArrayElementReference vertex_id=\"2\">"
            "<xaif:IndexTriplet><xaif:Index><xaif:Constant vertex_id=\"1\" type=\"integer\" "
            "value=\"3\"/></xaif:Index></xaif:IndexTriplet></xaif:ArrayElementReference>"
            "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/></xaif:X>"
            "</xaif:AX><xaif:Y deriv=\"1\"><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "
            "symbol_id=\"y\"/></xaif:Y></xaif:Saxpy>\n"
            "        <xaif:ZeroDeriv deriv=\"1\"><xaif:SymbolReference vertex_id=\"1\" "
            "scope_id=\"2\" symbol_id=\"x\"/></xaif:ZeroDeriv>\n"
            "      </xaif:DerivativePropagator>\n");
    char *c = to_c(text, msg, sizeof msg);
    ck_assert_msg(c != NULL, "%s", msg);
    ck_assert_msg(strstr(c, "void head_d(double *x, double *xd, double *y, double *yd);"), "%s", c);
    ck_assert_msg(strstr(c, "\n    (*yd) += 2.5 * xd[(3) - 1];\n"), "%s", c);
    /* a whole array: a loop over its 3 elements */
    ck_assert_msg(strstr(c, "long xf_n = 3L;\n        for (long xf_k = 0; xf_k < xf_n; xf_k++) {\n"
                            "        xd[xf_k] = 0.0;"),
                  "%s", c);
    free(c);
    free(text);
}
END_TEST

Suite *
test_xaif2c_suite(void)
{
    Suite *s = suite_create("xaif2c");
    TCase *t = tcase_create("text");
    tcase_add_test(t, a_program_becomes_a_function_of_pointers);
    tcase_add_test(t, names_avoid_keywords_and_math);
    tcase_add_test(t, annotations_give_the_users_signature);
    tcase_add_test(t, a_tangent_has_derivative_arguments);
    tcase_add_test(t, a_section_assignment_is_a_loop);
    tcase_add_test(t, an_overlapping_assignment_uses_a_temporary);
    suite_add_tcase(s, t);
    t = tcase_create("refusals");
    tcase_add_test(t, an_array_section_is_refused);
    tcase_add_test(t, a_whole_array_in_an_expression_is_refused);
    tcase_add_test(t, a_string_is_refused);
    tcase_add_test(t, an_array_without_bounds_is_refused);
    tcase_add_test(t, an_extent_past_64_bits_is_refused);
    tcase_add_test(t, an_array_intrinsic_is_refused);
    tcase_add_test(t, a_call_without_code_is_refused);
    suite_add_tcase(s, t);
    return s;
}
