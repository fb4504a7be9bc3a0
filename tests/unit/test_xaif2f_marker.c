/* test_xaif2f_marker.c: the Fortran back end's Markers and passive calls
 * (frontends/xaif2f/f_marker.c): each kind of Marker left out, written or
 * refused with FILE:LINE, and the C front end's passive calls as Fortran,
 * which gfortran -std=f2008 -Wall -Werror compiles where it is installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "xaif2f.h"
#include "xaif_fixture.h"

/* head(x, y) with @decls in scope 2 and @body the statements of its one
 * basic block. */
static char *
program(const char *decls, const char *body)
{
    static const char *const scopes_end = "      </xaif:SymbolTable>\n    </xaif:Scope>\n"
                                          "    <xaif:ScopeEdge";
    char *scopes = strdup(XAIF_SCOPES);
    char *cut = strstr(scopes, scopes_end);
    ck_assert_ptr_nonnull(cut);
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

/* The line of @text on which @what first occurs. */
static int
line_of(const char *text, const char *what)
{
    const char *at = strstr(text, what);
    ck_assert_ptr_nonnull(at);
    int n = 1;
    for (const char *p = text; p < at; p++)
        n += *p == '\n';
    return n;
}

/* xf_xaif2f_write over @text: the Fortran (caller frees), or NULL with the
 * first message in @msg. */
static char *
to_f(const char *text, char *msg, size_t len)
{
    xf_diag *d;
    xf_doc *doc = read_text(text, &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    ck_assert_ptr_nonnull(f);
    int rc = xf_xaif2f_write(doc, f, NULL, d);
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

/* gfortran -std=f2008 -Wall -Werror accepts @src (true without gfortran). */
static bool
compiles(const char *src)
{
    if (system("command -v gfortran >/dev/null 2>&1") != 0)
        return true;
    char dir[] = "/tmp/xf_marker_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64], cmd[256];
    snprintf(path, sizeof path, "%s/m.f90", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(src, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cd %s && gfortran -std=f2008 -Wall -Werror -fsyntax-only m.f90 >&2",
             dir);
    bool ok = system(cmd) == 0;
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    return ok;
}

#define MARKER(an) "      <xaif:Marker statement_id=\"m\" annotation=\"" an "\"/>\n"

/* y = x(@k) */
#define Y_IS_X_AT(k)                                                                               \
    "      <xaif:Assignment statement_id=\"s\">\n"                                                 \
    "        <xaif:AssignmentLHS><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "            \
    "symbol_id=\"y\"/></xaif:AssignmentLHS>\n"                                                     \
    "        <xaif:AssignmentRHS><xaif:VariableReference vertex_id=\"1\"><xaif:SymbolReference "   \
    "vertex_id=\"1\" scope_id=\"2\" symbol_id=\"x\"/><xaif:ArrayElementReference "                 \
    "vertex_id=\"2\"><xaif:IndexTriplet><xaif:Index><xaif:VariableReference vertex_id=\"1\">"      \
    "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"" k "\"/>"                   \
    "</xaif:VariableReference></xaif:Index></xaif:IndexTriplet></xaif:ArrayElementReference>"      \
    "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>"                        \
    "</xaif:VariableReference></xaif:AssignmentRHS>\n"                                             \
    "      </xaif:Assignment>\n"

/* i = 2 */
#define I_IS_2                                                                                     \
    "      <xaif:Assignment statement_id=\"t\">\n"                                                 \
    "        <xaif:AssignmentLHS><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "            \
    "symbol_id=\"i\"/></xaif:AssignmentLHS>\n"                                                     \
    "        <xaif:AssignmentRHS><xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"2\"/>"    \
    "</xaif:AssignmentRHS>\n"                                                                      \
    "      </xaif:Assignment>\n"

/* a tape push of k */
#define PUSH_K                                                                                     \
    "      <xaif:InlinableSubroutineCall subroutine_name=\"push_i_s0\" statement_id=\"p\">\n"      \
    "        <xaif:Argument position=\"1\"><xaif:VariableReference vertex_id=\"1\">"               \
    "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"k\"/>"                       \
    "</xaif:VariableReference></xaif:Argument>\n"                                                  \
    "      </xaif:InlinableSubroutineCall>\n"

#define K_DECL                                                                                     \
    "        <xaif:Symbol symbol_id=\"k\" kind=\"variable\" type=\"integer\" active=\"0\"/>\n"

/* A refusal of @body (with @decls): the message names t.xaif and the line
 * of @at, and contains @says. */
static void
refused(const char *decls, const char *body, const char *at, const char *says)
{
    char *text = program(decls, body), msg[1024], want[64];
    char *out = to_f(text, msg, sizeof msg);
    ck_assert_ptr_null(out);
    snprintf(want, sizeof want, "t.xaif:%d: error: cannot write Fortran: ", line_of(text, at));
    ck_assert_msg(strstr(msg, want) && strstr(msg, says), "got: %s", msg);
    free(text);
}

START_TEST(inert_markers_left_out)
{
    /* OpenAD's directives, comments, USE, labels and jumps: nothing runs */
    char *text =
        program("", MARKER("{WHIRL_Id#9} [passive: OPR_PRAGMA]")
                        MARKER("{WHIRL_Id#10} [passive: OPR_USE]") MARKER("{WHIRL_Id#11} "
                                                                          "[passive: "
                                                                          "OPR_COMMENT]")
                            MARKER("{WHIRL_Id#12}{StmtLabel#2}") MARKER("") I_IS_2 Y_IS_X_AT("i"));
    char msg[512];
    char *out = to_f(text, msg, sizeof msg);
    ck_assert_msg(out != NULL, "%s", msg);
    ck_assert_ptr_nonnull(strstr(out, "\n  i = 2\n  y = x(i)\n"));
    ck_assert_ptr_null(strstr(out, "WHIRL"));
    ck_assert(compiles(out));
    free(out);
    free(text);
}
END_TEST

START_TEST(text_marker_written)
{
    char *text = program("", I_IS_2 MARKER("xf_fortran=if (i &gt; 1) y = 0.5d0&#10;i = i + 1")
                                 Y_IS_X_AT("i"));
    char msg[512];
    char *out = to_f(text, msg, sizeof msg);
    ck_assert_msg(out != NULL, "%s", msg);
    ck_assert_ptr_nonnull(
        strstr(out, "\n  i = 2\n  if (i > 1) y = 0.5d0\n  i = i + 1\n  y = x(i)\n"));
    ck_assert(compiles(out));
    free(out);
    free(text);
}
END_TEST

START_TEST(lost_store_refused_where_read)
{
    /* k is read and nothing sets it: the lost store must have */
    refused(K_DECL, MARKER("{WHIRL_Id#13} [passive: OPR_STID]") Y_IS_X_AT("k"), "OPR_STID",
            "stands for a store the front end did not write out, and k is read but set by no "
            "statement");
    refused(K_DECL, MARKER("{WHIRL_Id#8} [passive: OPR_ISTORE]") Y_IS_X_AT("k"), "OPR_ISTORE",
            "k is read");
    /* a tape push of k (an adjoint's) reads k: it does not set it
     * (Loop_simple_4b's adm.xaif, whose j = k is such a Marker) */
    refused(K_DECL, MARKER("{WHIRL_Id#13} [passive: OPR_STID]") Y_IS_X_AT("k") PUSH_K, "OPR_STID",
            "k is read but set by no statement");
}
END_TEST

START_TEST(lost_store_dropped_where_unread)
{
    /* the lost store set a temporary nothing reads (t__N of the corpus) */
    char *text = program(K_DECL, MARKER("{WHIRL_Id#13} [passive: OPR_STID]") I_IS_2 Y_IS_X_AT("i"));
    char msg[512];
    char *out = to_f(text, msg, sizeof msg);
    ck_assert_msg(out != NULL, "%s", msg);
    ck_assert_ptr_nonnull(strstr(out, "  y = x(i)\n"));
    free(out);
    free(text);
}
END_TEST

START_TEST(effects_without_text_refused)
{
    refused("", MARKER("{WHIRL_Id#23} [cassignstmt]") I_IS_2, "cassignstmt",
            "stands for a character assignment whose text is not in the xaif");
    refused("", I_IS_2 MARKER("{WHIRL_Id#13} [READ***]"), "READ***",
            "stands for an I/O statement whose text is not in the xaif");
    refused("", I_IS_2 MARKER("{WHIRL_Id#13} [passive: OPR_CALL]"), "OPR_CALL",
            "stands for a call the front end did not write out");
    refused("", I_IS_2 MARKER("something else"), "something else",
            "the Marker 'something else' stands for a statement whose text is not in the xaif");
}
END_TEST

#define PASSIVE(name, args)                                                                        \
    "      <xaif:InlinableSubroutineCall statement_id=\"p\" subroutine_name=\"xf_passive_" name    \
    "\">" args "</xaif:InlinableSubroutineCall>\n"
#define SARG(pos, s)                                                                               \
    "<xaif:Argument position=\"" pos "\"><xaif:Constant vertex_id=\"1\" type=\"string\" "          \
    "value=\"" s "\"/></xaif:Argument>"
#define VARG(pos, v)                                                                               \
    "<xaif:Argument position=\"" pos "\"><xaif:VariableReference vertex_id=\"1\">"                 \
    "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"" v "\"/>"                   \
    "</xaif:VariableReference></xaif:Argument>"

START_TEST(passive_calls_written)
{
    char *text = program(
        "",
        I_IS_2 Y_IS_X_AT("i") PASSIVE("puts", SARG("1", "&quot;it&apos;s \\&quot;x\\&quot;&quot;"))
            PASSIVE("printf",
                    SARG("1", "&quot;i = %d, y = %.3g%%\\n&quot;") VARG("2", "i") VARG("3", "y"))
                PASSIVE("assert", VARG("1", "i") SARG("2", "&quot;t.c:4: assertion failed&quot;"))
                    PASSIVE("exit", VARG("1", "i")) PASSIVE("abort", ""));
    char msg[512];
    char *out = to_f(text, msg, sizeof msg);
    ck_assert_msg(out != NULL, "%s", msg);
    ck_assert_msg(strstr(out, "  write (*, '(a)', advance='no') 'it''s \"x\"'\n"
                              "  write (*, '(a)') ''\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, "  write (*, '(a)', advance='no') 'i = '\n"
                              "  write (*, '(i0)', advance='no') i\n"
                              "  write (*, '(a)', advance='no') ', y = '\n"
                              "  write (*, '(g0)', advance='no') y\n"
                              "  write (*, '(a)', advance='no') '%'\n"
                              "  write (*, '(a)') ''\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, "  if (i == 0) then\n"), "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "'t.c:4: assertion failed'"));
    ck_assert_ptr_nonnull(strstr(out, "  if ((i) == 0) stop\n  error stop\n  error stop\n"));
    ck_assert(compiles(out));
    free(out);
    free(text);
}
END_TEST

START_TEST(passive_calls_refused)
{
    refused("", I_IS_2 PASSIVE("putchar", VARG("1", "i")), "xf_passive_putchar",
            "the passive call putchar: only assert, abort, exit, puts and printf");
    /* a conversion without its value, one of a string */
    refused("", PASSIVE("printf", SARG("1", "&quot;%g %g\\n&quot;") VARG("2", "y")),
            "xf_passive_printf", "the passive call printf");
    refused("", PASSIVE("printf", SARG("1", "&quot;%s\\n&quot;") SARG("2", "&quot;a&quot;")),
            "xf_passive_printf", "the passive call printf");
}
END_TEST

/* i = @a / @b, integer constants */
#define I_IS_DIV(a, b)                                                                             \
    "      <xaif:Assignment statement_id=\"d\">\n"                                                 \
    "        <xaif:AssignmentLHS><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "            \
    "symbol_id=\"i\"/></xaif:AssignmentLHS>\n"                                                     \
    "        <xaif:AssignmentRHS><xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"" a       \
    "\"/><xaif:Constant vertex_id=\"2\" type=\"integer\" value=\"" b "\"/>"                        \
    "<xaif:Intrinsic vertex_id=\"3\" name=\"div_scal_scal\"/>"                                     \
    "<xaif:ExpressionEdge edge_id=\"1\" source=\"1\" target=\"3\" position=\"1\"/>"                \
    "<xaif:ExpressionEdge edge_id=\"2\" source=\"2\" target=\"3\" position=\"2\"/>"                \
    "</xaif:AssignmentRHS>\n"                                                                      \
    "      </xaif:Assignment>\n"

START_TEST(constant_division_folded)
{
    /* a truncating division of constants (a reversed loop's start) is
     * written as its value, truncated towards zero: gfortran -Wall would
     * warn of it */
    char *text = program("", I_IS_DIV("7", "2") I_IS_DIV("-7", "2") Y_IS_X_AT("i"));
    char msg[512];
    char *out = to_f(text, msg, sizeof msg);
    ck_assert_msg(out != NULL, "%s", msg);
    ck_assert_msg(strstr(out, "\n  i = 3\n  i = (-3)\n  y = x(i)\n"), "%s", out);
    ck_assert(compiles(out));
    free(out);
    free(text);
}
END_TEST

Suite *
test_xaif2f_marker_suite(void)
{
    Suite *s = suite_create("xaif2f_marker");
    TCase *t = tcase_create("markers");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, inert_markers_left_out);
    tcase_add_test(t, text_marker_written);
    tcase_add_test(t, lost_store_refused_where_read);
    tcase_add_test(t, lost_store_dropped_where_unread);
    tcase_add_test(t, effects_without_text_refused);
    tcase_add_test(t, passive_calls_written);
    tcase_add_test(t, passive_calls_refused);
    tcase_add_test(t, constant_division_folded);
    suite_add_tcase(s, t);
    return s;
}
