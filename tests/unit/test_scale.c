/* test_scale.c: inputs far larger than the corpus's, for what must not grow
 * faster than the input: a right-hand side 100 000 operations deep (no
 * recursion over expressions may overflow the stack; copies of a leaf do
 * not copy the expression), and a basic block of thousands of statements
 * (preaccumulation cuts it into bounded windows). Nothing here is timed:
 * each test asserts results (derivatives, sizes, the windows' vertices). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "passmgr.h"
#include "pipeline.h"
#include "read.h"
#include "run.h"
#include "suites.h"
#include "write.h"
#include "xaif_fixture.h"

/* The intrinsics catalogues, loaded once per test process. */
static xf_doc *cat, *direct;

static void
setup(void)
{
    xf_diag *d = xf_diag_new(NULL);
    cat = xf_catalogue_load(NULL, d);
    direct = xf_direct_load(NULL, d);
    ck_assert_msg(cat && direct, "%s", first_message(d));
    xf_diag_free(d);
}

static void
teardown(void)
{
    xf_doc_free(cat);
    xf_doc_free(direct);
    cat = direct = NULL;
}

/* ------------------------------------------------------------ documents */

static const char head_text[] =
    "<?xml version=\"1.0\"?>\n"
    "<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\" program_name=\"p\" "
    "prefix=\"OpenAD_\">\n"
    " <xaif:ScopeHierarchy>\n"
    "  <xaif:Scope vertex_id=\"1\"><xaif:SymbolTable>\n"
    "   <xaif:Symbol symbol_id=\"head\" kind=\"subroutine\" type=\"void\"/>\n"
    "  </xaif:SymbolTable></xaif:Scope>\n"
    "  <xaif:Scope vertex_id=\"2\"><xaif:SymbolTable>\n"
    "   <xaif:Symbol symbol_id=\"x\" kind=\"variable\" type=\"real\" shape=\"vector\" "
    "active=\"1\"><xaif:DimensionBounds lower=\"1\" upper=\"2\"/></xaif:Symbol>\n"
    "   <xaif:Symbol symbol_id=\"y\" kind=\"variable\" type=\"real\" shape=\"vector\" "
    "active=\"1\"><xaif:DimensionBounds lower=\"1\" upper=\"1\"/></xaif:Symbol>\n"
    "   <xaif:Symbol symbol_id=\"t\" kind=\"variable\" type=\"real\" shape=\"scalar\" "
    "active=\"1\"/>\n"
    "   <xaif:Symbol symbol_id=\"i\" kind=\"variable\" type=\"integer\" shape=\"scalar\"/>\n"
    "  </xaif:SymbolTable></xaif:Scope>\n"
    "  <xaif:ScopeEdge edge_id=\"1\" source=\"2\" target=\"1\"/>\n"
    " </xaif:ScopeHierarchy>\n"
    " <xaif:AliasSetMap/><xaif:DUUDSetMap/><xaif:DOSetMap/>\n"
    " <xaif:ControlFlowGraph vertex_id=\"10\" scope_id=\"1\" symbol_id=\"head\" "
    "controlflowgraph_scope_id=\"2\">\n"
    "  <xaif:ArgumentList>\n"
    "   <xaif:ArgumentSymbolReference position=\"1\" scope_id=\"2\" symbol_id=\"x\" "
    "intent=\"inout\"/>\n"
    "   <xaif:ArgumentSymbolReference position=\"2\" scope_id=\"2\" symbol_id=\"y\" "
    "intent=\"inout\"/>\n"
    "  </xaif:ArgumentList>\n"
    "  <xaif:Entry vertex_id=\"1\"/>\n"
    "  <xaif:BasicBlock vertex_id=\"2\" scope_id=\"2\">\n";

static const char tail_text[] =
    "  </xaif:BasicBlock>\n"
    "  <xaif:Exit vertex_id=\"3\"/>\n"
    "  <xaif:ControlFlowEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n"
    "  <xaif:ControlFlowEdge edge_id=\"2\" source=\"2\" target=\"3\"/>\n"
    " </xaif:ControlFlowGraph>\n"
    "</xaif:CallGraph>\n";

/* A reference to x(@k) or y(@k) as vertex @vid of an expression. */
static void
put_ref(FILE *f, unsigned vid, char var, int k)
{
    fprintf(f,
            "<xaif:VariableReference vertex_id=\"%u\">"
            "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"%c\"/>"
            "<xaif:ArrayElementReference vertex_id=\"2\"><xaif:IndexTriplet><xaif:Index>"
            "<xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"%d\"/>"
            "</xaif:Index></xaif:IndexTriplet></xaif:ArrayElementReference>"
            "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>"
            "</xaif:VariableReference>\n",
            vid, var, k);
}

/* Statement s@id assigning y(1), or t when @to_t. */
static void
open_assign(FILE *f, unsigned id, bool to_t)
{
    fprintf(f, "<xaif:Assignment statement_id=\"s%u\"><xaif:AssignmentLHS>", id);
    if (to_t)
        fputs("<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"t\"/>", f);
    else
        fputs("<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"y\"/>"
              "<xaif:ArrayElementReference vertex_id=\"2\"><xaif:IndexTriplet><xaif:Index>"
              "<xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"1\"/>"
              "</xaif:Index></xaif:IndexTriplet></xaif:ArrayElementReference>"
              "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>",
              f);
    fputs("</xaif:AssignmentLHS><xaif:AssignmentRHS>\n", f);
}

/* t as vertex @vid of an expression. */
static void
put_t(FILE *f, unsigned vid)
{
    fprintf(f,
            "<xaif:VariableReference vertex_id=\"%u\"><xaif:SymbolReference vertex_id=\"1\" "
            "scope_id=\"2\" symbol_id=\"t\"/></xaif:VariableReference>\n",
            vid);
}

static const char close_assign[] = "</xaif:AssignmentRHS></xaif:Assignment>\n";

/* t = x(2); y(1) = x(1) * t * ... * t, @n multiplications deep (the
 * first the deepest): operation i (vertex i) multiplies operation i+1 by t;
 * operation n multiplies x(1) by t. */
static char *
chain_text(unsigned n, size_t *len)
{
    char *buf;
    FILE *f = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(f);
    fputs(head_text, f);
    open_assign(f, 0, true);
    put_ref(f, 1, 'x', 2);
    fputs(close_assign, f);
    open_assign(f, 1, false);
    for (unsigned i = 1; i <= n; i++)
        fprintf(f, "<xaif:Intrinsic vertex_id=\"%u\" name=\"mul_scal_scal\"/>\n", i);
    put_ref(f, n + 1, 'x', 1);
    for (unsigned i = 1; i <= n; i++)
        put_t(f, n + 1 + i);
    unsigned e = 1;
    for (unsigned i = 1; i <= n; i++) {
        fprintf(f,
                "<xaif:ExpressionEdge edge_id=\"%u\" source=\"%u\" target=\"%u\" "
                "position=\"1\"/>\n",
                e++, i < n ? i + 1 : n + 1, i);
        fprintf(f,
                "<xaif:ExpressionEdge edge_id=\"%u\" source=\"%u\" target=\"%u\" "
                "position=\"2\"/>\n",
                e++, n + 1 + i, i);
    }
    fputs(close_assign, f);
    fputs(tail_text, f);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

/* @n statements: y(1) = x(1) * x(2), then y(1) = y(1) + sin(x(k)) * x(k)
 * with k = 1, 2, 1, 2, ... */
static char *
block_text(unsigned n, size_t *len)
{
    char *buf;
    FILE *f = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(f);
    fputs(head_text, f);
    open_assign(f, 0, false);
    fputs("<xaif:Intrinsic vertex_id=\"1\" name=\"mul_scal_scal\"/>\n", f);
    put_ref(f, 2, 'x', 1);
    put_ref(f, 3, 'x', 2);
    fputs("<xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" position=\"1\"/>"
          "<xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" position=\"2\"/>\n",
          f);
    fputs(close_assign, f);
    for (unsigned s = 1; s < n; s++) {
        int k = 1 + (int)(s % 2);
        open_assign(f, s, false);
        fputs("<xaif:Intrinsic vertex_id=\"1\" name=\"add_scal_scal\"/>\n", f);
        put_ref(f, 2, 'y', 1);
        fputs("<xaif:Intrinsic vertex_id=\"3\" name=\"mul_scal_scal\"/>\n"
              "<xaif:Intrinsic vertex_id=\"4\" name=\"sin_scal\"/>\n",
              f);
        put_ref(f, 5, 'x', k);
        put_ref(f, 6, 'x', k);
        fputs("<xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" position=\"1\"/>"
              "<xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" position=\"2\"/>"
              "<xaif:ExpressionEdge edge_id=\"3\" source=\"4\" target=\"3\" position=\"1\"/>"
              "<xaif:ExpressionEdge edge_id=\"4\" source=\"6\" target=\"3\" position=\"2\"/>"
              "<xaif:ExpressionEdge edge_id=\"5\" source=\"5\" target=\"4\" position=\"1\"/>\n",
              f);
        fputs(close_assign, f);
    }
    fputs(tail_text, f);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

/* ------------------------------------------------------------ running */

typedef struct result {
    xf_jacobian J;
    size_t doc_bytes; /* the transformed document's memory */
    char *report;     /* preaccumulate's report (--report) */
    size_t report_len;
} result;

/* Transform @text with @pipeline, write it, read it back and run it under
 * @driver (n = 2 inputs, m = 1 output), unless @run is false. */
static void
derive_text(const char *text, size_t len, const char *pipeline, xf_driver driver, bool run,
            result *res)
{
    memset(res, 0, sizeof *res);
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = xf_read_memory(text, len, "t.xaif", NULL, d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    const xf_pass *passes[XF_PM_MAX];
    char err[256];
    int n = xf_pipeline_parse(pipeline, passes, XF_PM_MAX, err, sizeof err);
    ck_assert_msg(n > 0, "%s", err);
    FILE *report = open_memstream(&res->report, &res->report_len);
    ck_assert_ptr_nonnull(report);
    xf_opts o;
    xf_pm_opts_init(&o);
    o.reports = report;
    ck_assert_int_eq(xf_pm_option(&o, "report", NULL, err, sizeof err), 0);
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d, .catalogue = cat, .direct = direct};
    ck_assert_msg(xf_pipeline_run(&ctx, passes, n) == 0, "%s", first_message(d));
    ck_assert_int_eq(fclose(report), 0);
    res->doc_bytes = xf_doc_bytes(doc);
    char *out;
    size_t outlen;
    ck_assert_int_eq(xf_write_memory(doc, &out, &outlen, d), 0);
    xf_doc_free(doc);
    xf_doc *back = xf_read_memory(out, outlen, "t.out.xaif", NULL, d);
    free(out);
    ck_assert_msg(back != NULL, "the output does not read back: %s", first_message(d));
    xf_run_opts ro = {.driver = driver, .params = {.n = 2, .m = 1, .h = 1e-7}};
    int rc = run ? xf_run(back, &ro, &res->J, NULL, d) : 0;
    ck_assert_msg(rc == 0, "the run failed: %s", first_message(d));
    xf_doc_free(back);
    xf_diag_free(d);
}

static void
result_fini(result *r)
{
    xf_jacobian_fini(&r->J);
    free(r->report);
}

/* F(1, i) of @r. */
static double
f1(const result *r, int i)
{
    ck_assert_int_eq(r->J.m, 1);
    ck_assert_int_eq(r->J.n, 2);
    return r->J.f[i - 1];
}

/* The most vertices of one preaccumulation sequence in @r's report. */
static unsigned
largest_sequence(const result *r)
{
    unsigned most = 0, v;
    for (const char *p = r->report; p && (p = strstr(p, ": ")); p += 2)
        if (sscanf(p + 2, "%u vertices", &v) == 1 && v > most)
            most = v;
    return most;
}

/* ============================================================ expressions */

enum { DEEP = 100000 };

/* The engine's expression walks on a chain DEEP operations deep (ten times
 * what a recursion limited to 10 000 reached): the root found, a copy of the
 * whole as large as the original with the same edges, a leaf copied alone. */
START_TEST(a_deep_expression_is_copied_whole)
{
    size_t len;
    char *text = chain_text(DEEP, &len);
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = xf_read_memory(text, len, "t.xaif", NULL, d);
    free(text);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    const xf_stmt *s = doc->cg.routines.v[0]->g.v.v[1]->stmts.v[1];
    const xf_expr *x = &s->u.as.rhs;
    ck_assert_uint_eq(x->v.n, 2 * DEEP + 1);
    ck_assert_uint_eq(xf_expr_root(x), 0); /* vertex_id 1 */
    xf_expr c = {0};
    ck_assert_uint_eq(xf_expr_copy(doc, &c, x, 0), 0);
    ck_assert_uint_eq(c.v.n, x->v.n);
    ck_assert_uint_eq(c.e.n, x->e.n);
    ck_assert_uint_eq(xf_expr_root(&c), 0);
    /* operation i (from 0) reads operation i+1 first and x(2) second */
    uint32_t seen = 0;
    for (uint32_t j = 0; j < c.e.n; j++)
        if (c.e.v[j].pos == 1 && c.e.v[j].tgt + 1 < DEEP) {
            ck_assert_int_eq(c.v.v[c.e.v[j].src].kind, XF_EV_INTRINSIC);
            seen++;
        }
    ck_assert_uint_eq(seen, DEEP - 1);
    /* the deepest x(2) alone: one vertex, no edge */
    xf_expr leaf = {0};
    ck_assert_uint_eq(xf_expr_copy(doc, &leaf, x, 2 * DEEP), 0);
    ck_assert_uint_eq(leaf.v.n, 1);
    ck_assert_uint_eq(leaf.e.n, 0);
    ck_assert_int_eq(leaf.v.v[0].kind, XF_EV_VARREF);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

/* y = x1 t^n with t = x2, at x = (0.5, 1): dy/dx1 = x2^n = 1, dy/dx2 =
 * n x1 x2^(n-1) = n / 2. */
static void
check_chain(unsigned n, const char *pipeline, xf_driver driver, bool run)
{
    size_t len;
    char *text = chain_text(n, &len);
    result r;
    derive_text(text, len, pipeline, driver, run, &r);
    if (run) {
        ck_assert_double_eq_tol(f1(&r, 1), 1.0, 1e-9);
        ck_assert_double_eq_tol(f1(&r, 2), n / 2.0, 1e-9 * n);
    }
    /* a bounded number of bytes per operation (a copy of the right-hand
     * side's table per operation would be megabytes each) */
    ck_assert_msg(r.doc_bytes / n < 64 * 1024, "%zu bytes for %u operations", r.doc_bytes, n);
    unsigned most = largest_sequence(&r);
    ck_assert_uint_gt(most, 400);
    ck_assert_uint_le(most, 512);
    free(text);
    result_fini(&r);
}

START_TEST(tangent_of_a_deep_chain)
{
    check_chain(DEEP, "tangent", XF_DRIVER_TANGENT, true);
}
END_TEST

/* The adjoint keeps the original statement for its plain sweep, which the
 * interpreter evaluates recursively (to 10 000 deep): the derivative is run
 * on a chain of 5 000, the transform on one of DEEP. */
START_TEST(adjoint_of_a_deep_chain)
{
    check_chain(DEEP, "adjoint", XF_DRIVER_ADJOINT_JOINT, false);
    check_chain(5000, "adjoint", XF_DRIVER_ADJOINT_JOINT, true);
}
END_TEST

/* ============================================================ blocks */

enum { LONG = 3000 };

/* y = x1 x2 + sum over s = 1..LONG-1 of sin(x_k) x_k, k = 1 + s mod 2:
 * dy/dx1 = x2 + (LONG/2 - 1) g(x1), dy/dx2 = x1 + LONG/2 g(x2) with
 * g(t) = cos(t) t + sin(t) (k = 2 for odd s: LONG/2 times; k = 1 for
 * even s >= 2: LONG/2 - 1 times). Preaccumulation cuts the block into
 * windows of at most 512 vertices. */
static void
check_long_block(const char *pipeline, xf_driver driver)
{
    size_t len;
    char *text = block_text(LONG, &len);
    result r;
    derive_text(text, len, pipeline, driver, true, &r);
    double a = 0.5, b = 1.0;
    double ga = cos(a) * a + sin(a), gb = cos(b) * b + sin(b);
    double w1 = b + (LONG / 2 - 1) * ga, w2 = a + (LONG / 2) * gb;
    ck_assert_double_eq_tol(f1(&r, 1), w1, 1e-10 * w1);
    ck_assert_double_eq_tol(f1(&r, 2), w2, 1e-10 * w2);
    unsigned most = largest_sequence(&r);
    ck_assert_uint_gt(most, 400);
    ck_assert_uint_le(most, 512);
    free(text);
    result_fini(&r);
}

START_TEST(tangent_of_a_long_block_in_windows)
{
    check_long_block("tangent", XF_DRIVER_TANGENT);
}
END_TEST

START_TEST(adjoint_of_a_long_block_in_windows)
{
    check_long_block("adjoint", XF_DRIVER_ADJOINT_JOINT);
}
END_TEST

/* ============================================================ nesting */

enum { NEST = 20000 };

/* i as vertex @vid of an expression. */
static void
put_i(FILE *f, unsigned vid)
{
    fprintf(f,
            "<xaif:VariableReference vertex_id=\"%u\"><xaif:SymbolReference vertex_id=\"1\" "
            "scope_id=\"2\" symbol_id=\"i\"/></xaif:VariableReference>\n",
            vid);
}

/* i OP 1 (OP a BooleanOperation) or i + 1 (an Intrinsic), as an expression. */
static void
put_i_and_one(FILE *f, const char *el, const char *op)
{
    fprintf(f, "<xaif:%s vertex_id=\"1\" name=\"%s\"%s/>\n", el, op,
            strcmp(el, "Intrinsic") ? "" : " type=\"***\"");
    put_i(f, 2);
    fputs("<xaif:Constant vertex_id=\"3\" type=\"integer\" value=\"1\"/>"
          "<xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" position=\"1\"/>"
          "<xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" position=\"2\"/>\n",
          f);
}

/* A block of its own holding y(1) = y(1) * x(2) as statement s@id. */
static void
put_times_x2(FILE *f, unsigned v, unsigned id)
{
    fprintf(f, "<xaif:BasicBlock vertex_id=\"%u\" scope_id=\"2\">\n", v);
    open_assign(f, id, false);
    fputs("<xaif:Intrinsic vertex_id=\"1\" name=\"mul_scal_scal\" type=\"***\"/>\n", f);
    put_ref(f, 2, 'y', 1);
    put_ref(f, 3, 'x', 2);
    fputs("<xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" position=\"1\"/>"
          "<xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" position=\"2\"/>\n",
          f);
    fputs(close_assign, f);
    fputs("</xaif:BasicBlock>\n", f);
}

static void
put_edge(FILE *f, unsigned *e, unsigned src, unsigned tgt, bool body)
{
    fprintf(f, "<xaif:ControlFlowEdge edge_id=\"%u\" source=\"%u\" target=\"%u\"%s/>\n", ++*e, src,
            tgt, body ? " has_condition_value=\"true\" condition_value=\"1\"" : "");
}

/* y(1) = x(1), then @n levels nested: odd ones do i = 1, 1, even ones
 * if (x(1) > 0) ... else (an empty block) end if, each level's body
 * y(1) = y(1) * x(2) and the next level. Level d's head is vertex 10 + 4d,
 * its body 11 + 4d, its end 12 + 4d, an else block 13 + 4d. At x = (0.5, 1)
 * every loop runs once and every branch takes its first arm:
 * y = x1 x2^n, dy/dx1 = 1, dy/dx2 = n / 2. */
static char *
nest_text(unsigned n, size_t *len)
{
    char *buf;
    FILE *f = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(f);
    fputs(head_text, f); /* Entry 1, block 2 open */
    open_assign(f, 0, false);
    put_ref(f, 1, 'x', 1);
    fputs(close_assign, f);
    fputs("</xaif:BasicBlock>\n<xaif:Exit vertex_id=\"3\"/>\n", f);
    for (unsigned d = 1; d <= n; d++) {
        unsigned h = 10 + 4 * d;
        if (d % 2) {
            fprintf(f, "<xaif:ForLoop vertex_id=\"%u\" reversal=\"anonymous\">\n", h);
            fprintf(f, "<xaif:Initialization statement_id=\"i%u\"><xaif:AssignmentLHS>", d);
            fputs("<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"i\"/>"
                  "</xaif:AssignmentLHS><xaif:AssignmentRHS>"
                  "<xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"1\"/>"
                  "</xaif:AssignmentRHS></xaif:Initialization>\n<xaif:Condition>",
                  f);
            put_i_and_one(f, "BooleanOperation", "less_or_equal");
            fprintf(f, "</xaif:Condition>\n<xaif:Update statement_id=\"u%u\">", d);
            fputs("<xaif:AssignmentLHS><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "
                  "symbol_id=\"i\"/>"
                  "</xaif:AssignmentLHS><xaif:AssignmentRHS>",
                  f);
            put_i_and_one(f, "Intrinsic", "add_scal_scal");
            fputs("</xaif:AssignmentRHS></xaif:Update>\n</xaif:ForLoop>\n", f);
            fprintf(f, "<xaif:EndLoop vertex_id=\"%u\"/>\n", h + 2);
        } else {
            fprintf(f, "<xaif:Branch vertex_id=\"%u\"><xaif:Condition>", h);
            fputs("<xaif:BooleanOperation vertex_id=\"1\" name=\"greater_than\"/>\n", f);
            put_ref(f, 2, 'x', 1);
            fputs("<xaif:Constant vertex_id=\"3\" type=\"real\" value=\"0.0\"/>"
                  "<xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" "
                  "position=\"1\"/><xaif:ExpressionEdge edge_id=\"2\" source=\"3\" "
                  "target=\"1\" position=\"2\"/></xaif:Condition></xaif:Branch>\n",
                  f);
            fprintf(f, "<xaif:EndBranch vertex_id=\"%u\"/>\n", h + 2);
            fprintf(f, "<xaif:BasicBlock vertex_id=\"%u\" scope_id=\"2\"/>\n", h + 3);
        }
        put_times_x2(f, h + 1, d);
    }
    unsigned e = 0;
    put_edge(f, &e, 1, 2, false);
    put_edge(f, &e, 2, 14, false);
    for (unsigned d = 1; d <= n; d++) {
        unsigned h = 10 + 4 * d;
        /* into the body; from the body into the next level or the end */
        put_edge(f, &e, h, h + 1, true);
        put_edge(f, &e, h + 1, d < n ? h + 4 : h + 2, false);
        /* out of level d + 1 into level d's end */
        if (d < n)
            put_edge(f, &e, (d + 1) % 2 ? h + 4 : h + 6, h + 2, false);
        if (d % 2) {
            put_edge(f, &e, h + 2, h, false);
        } else {
            put_edge(f, &e, h, h + 3, false);
            put_edge(f, &e, h + 3, h + 2, false);
        }
    }
    /* out of level 1 */
    put_edge(f, &e, 14, 3, false);
    fputs(" </xaif:ControlFlowGraph>\n</xaif:CallGraph>\n", f);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

/* The adjoint of loops and branches NEST deep (twice what the recursive
 * parse reached: it fell back to reversing by block numbers) is reversed
 * structurally: one ForLoop per loop, one Branch per branch and no
 * dispatching loop in placeholder 3; its derivatives are right. */
START_TEST(adjoint_of_a_deep_nest)
{
    size_t len;
    char *text = nest_text(NEST, &len);
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = xf_read_memory(text, len, "t.xaif", NULL, d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    const xf_pass *passes[XF_PM_MAX];
    char err[256];
    int n = xf_pipeline_parse("adjoint", passes, XF_PM_MAX, err, sizeof err);
    ck_assert_msg(n > 0, "%s", err);
    xf_opts o;
    xf_pm_opts_init(&o);
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d, .catalogue = cat, .direct = direct};
    ck_assert_msg(xf_pipeline_run(&ctx, passes, n) == 0, "%s", first_message(d));
    const xf_routine *rt = NULL;
    for (uint32_t r = 0; r < doc->cg.routines.n && !rt; r++)
        if (doc->cg.routines.v[r]->is_rlist)
            rt = doc->cg.routines.v[r];
    ck_assert_ptr_nonnull(rt);
    const xf_replacement *p3 = xf_placeholder((xf_routine *)rt, "3");
    ck_assert_ptr_nonnull(p3);
    unsigned loops = 0, branches = 0, preloops = 0;
    for (uint32_t i = 0; i < p3->g.v.n; i++) {
        loops += p3->g.v.v[i]->kind == XF_CV_FORLOOP;
        branches += p3->g.v.v[i]->kind == XF_CV_BRANCH;
        preloops += p3->g.v.v[i]->kind == XF_CV_PRELOOP;
    }
    ck_assert_uint_eq(loops, NEST / 2);
    ck_assert_uint_eq(branches, NEST / 2);
    ck_assert_uint_eq(preloops, 0);
    xf_doc_free(doc);
    xf_diag_free(d);
    result r;
    derive_text(text, len, "adjoint", XF_DRIVER_ADJOINT_JOINT, true, &r);
    ck_assert_double_eq_tol(f1(&r, 1), 1.0, 1e-9);
    ck_assert_double_eq_tol(f1(&r, 2), NEST / 2.0, 1e-9 * NEST);
    free(text);
    result_fini(&r);
}
END_TEST

/* @n integer locals k1 .. kn, each set once (kj = j) in one block, then
 * y(1) = x(1): every kj is a candidate of address recovery, and each
 * assignment is checked against every candidate for aliasing. */
static char *
locals_text(unsigned n, size_t *len)
{
    char *buf;
    FILE *f = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(f);
    const char *cut = strstr(head_text, "   <xaif:Symbol symbol_id=\"i\"");
    ck_assert_ptr_nonnull(cut);
    fwrite(head_text, 1, (size_t)(cut - head_text), f);
    for (unsigned j = 1; j <= n; j++)
        fprintf(f,
                "   <xaif:Symbol symbol_id=\"k%u\" kind=\"variable\" type=\"integer\" "
                "shape=\"scalar\"/>\n",
                j);
    fputs(cut, f);
    for (unsigned j = 1; j <= n; j++)
        fprintf(f,
                "<xaif:Assignment statement_id=\"k%u\"><xaif:AssignmentLHS>"
                "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"k%u\"/>"
                "</xaif:AssignmentLHS><xaif:AssignmentRHS>"
                "<xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"%u\"/>"
                "</xaif:AssignmentRHS></xaif:Assignment>\n",
                j, j, j);
    open_assign(f, 0, false);
    put_ref(f, 1, 'x', 1);
    fputs(close_assign, f);
    fputs(tail_text, f);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

/* Address recovery's analysis takes memory linear in the locals and the
 * statements: four times the locals (and assignments) make the adjoint's
 * document at most about four times as large, not sixteen (a reference
 * made per assignment and candidate did that), and the derivative holds. */
START_TEST(adjoint_of_many_integer_locals)
{
    size_t bytes[2];
    const unsigned n[2] = {400, 1600};
    for (int k = 0; k < 2; k++) {
        size_t len;
        char *text = locals_text(n[k], &len);
        result r;
        derive_text(text, len, "adjoint", XF_DRIVER_ADJOINT_JOINT, true, &r);
        ck_assert_double_eq_tol(f1(&r, 1), 1.0, 1e-12);
        ck_assert_double_eq_tol(f1(&r, 2), 0.0, 1e-12);
        bytes[k] = r.doc_bytes;
        free(text);
        result_fini(&r);
    }
    ck_assert_msg(bytes[1] < 6 * bytes[0], "document %zu bytes for %u locals, %zu for %u", bytes[0],
                  n[0], bytes[1], n[1]);
}
END_TEST

Suite *
test_scale_suite(void)
{
    Suite *s = suite_create("scale");
    TCase *tc = tcase_create("scale");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_deep_expression_is_copied_whole);
    tcase_add_test(tc, tangent_of_a_deep_chain);
    tcase_add_test(tc, adjoint_of_a_deep_chain);
    tcase_add_test(tc, tangent_of_a_long_block_in_windows);
    tcase_add_test(tc, adjoint_of_a_long_block_in_windows);
    tcase_add_test(tc, adjoint_of_a_deep_nest);
    tcase_add_test(tc, adjoint_of_many_integer_locals);
    suite_add_tcase(s, tc);
    return s;
}
