/* test_stream.c: one routine in memory at a time (tools/stream.c,
 * xf_read_stream, xf_wstream, xf_pm_stream_*): the output is the
 * whole-document path's byte for byte, and what is held stays the global
 * part plus one routine however many routines the document has. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "passmgr.h"
#include "read.h"
#include "scratch_dir.h"
#include "stream.h"
#include "stream_block.h"
#include "suites.h"
#include "write.h"

/* ---- a document of @n routines: r0 .. r(n-1), r(k) calls r(k-1) */

typedef struct text {
    char *s;
    size_t n, cap;
} text;

static void
put(text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
        va_end(ap);
        ck_assert_int_ge(k, 0);
        if ((size_t)k < t->cap - t->n) {
            t->n += (size_t)k;
            return;
        }
        t->cap = 2 * t->cap + (size_t)k + 1024;
        t->s = realloc(t->s, t->cap);
        ck_assert_ptr_nonnull(t->s);
    }
}

/* A variable reference to @sym of scope @sc (vertex @v). */
static void
ref(text *t, const char *el, int v, int sc, const char *sym, int index)
{
    put(t, "<xaif:%s vertex_id=\"%d\">", el, v);
    if (index) {
        put(t,
            "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"%d\" symbol_id=\"%s\"/>"
            "<xaif:ArrayElementReference vertex_id=\"2\"><xaif:IndexTriplet><xaif:Index>"
            "<xaif:Constant vertex_id=\"1\" type=\"integer\" value=\"%d\"/>"
            "</xaif:Index></xaif:IndexTriplet></xaif:ArrayElementReference>"
            "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>",
            sc, sym, index);
    } else {
        put(t, "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"%d\" symbol_id=\"%s\"/>", sc, sym);
    }
    put(t, "</xaif:%s>\n", el);
}

/* ... each block @m assignments y = sin(x(1)) * x(2) + y (then the call) */
static char *
program_of(int n, int m)
{
    text t = {0};
    put(&t,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- %d routines -->\n"
        "<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\" program_name=\"p\" "
        "prefix=\"OpenAD_\">\n<xaif:ScopeHierarchy>\n<xaif:Scope vertex_id=\"1\">"
        "<xaif:SymbolTable>\n",
        n);
    for (int k = 0; k < n; k++)
        put(&t, "<xaif:Symbol symbol_id=\"r%d\" kind=\"subroutine\" type=\"void\"/>\n", k);
    put(&t, "</xaif:SymbolTable></xaif:Scope>\n");
    for (int k = 0; k < n; k++)
        put(&t,
            "<xaif:Scope vertex_id=\"%d\"><xaif:SymbolTable>\n"
            "<xaif:Symbol symbol_id=\"x\" kind=\"variable\" type=\"real\" shape=\"vector\" "
            "active=\"true\"><xaif:DimensionBounds lower=\"1\" upper=\"2\"/></xaif:Symbol>\n"
            "<xaif:Symbol symbol_id=\"y\" kind=\"variable\" type=\"real\" active=\"true\"/>\n"
            "</xaif:SymbolTable></xaif:Scope>\n"
            "<xaif:ScopeEdge edge_id=\"%d\" source=\"%d\" target=\"1\"/>\n",
            k + 2, k + 1, k + 2);
    put(&t, "</xaif:ScopeHierarchy>\n<xaif:AliasSetMap/><xaif:DUUDSetMap/><xaif:DOSetMap/>\n");
    for (int k = 0; k < n; k++) {
        int sc = k + 2;
        put(&t,
            "<xaif:ControlFlowGraph vertex_id=\"c%d\" scope_id=\"1\" symbol_id=\"r%d\" "
            "controlflowgraph_scope_id=\"%d\">\n<xaif:ArgumentList>"
            "<xaif:ArgumentSymbolReference position=\"1\" scope_id=\"%d\" symbol_id=\"x\" "
            "intent=\"in\"/><xaif:ArgumentSymbolReference position=\"2\" scope_id=\"%d\" "
            "symbol_id=\"y\" intent=\"inout\"/></xaif:ArgumentList>\n"
            "<xaif:Entry vertex_id=\"1\"/>\n<xaif:BasicBlock vertex_id=\"2\" scope_id=\"%d\">\n",
            k, k, sc, sc, sc, sc);
        for (int i = 1; i <= m; i++) {
            /* y = sin(x(1)) * x(2) + y */
            put(&t, "<xaif:Assignment statement_id=\"%d\"><xaif:AssignmentLHS>", i);
            put(&t,
                "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"%d\" symbol_id=\"y\"/>"
                "</xaif:AssignmentLHS><xaif:AssignmentRHS>\n",
                sc);
            ref(&t, "VariableReference", 1, sc, "x", 1);
            put(&t, "<xaif:Intrinsic vertex_id=\"2\" name=\"sin_scal\"/>\n");
            ref(&t, "VariableReference", 3, sc, "x", 2);
            put(&t, "<xaif:Intrinsic vertex_id=\"4\" name=\"mul_scal_scal\"/>\n");
            ref(&t, "VariableReference", 5, sc, "y", 0);
            put(&t,
                "<xaif:Intrinsic vertex_id=\"6\" name=\"add_scal_scal\"/>\n"
                "<xaif:ExpressionEdge edge_id=\"1\" source=\"1\" target=\"2\" position=\"1\"/>"
                "<xaif:ExpressionEdge edge_id=\"2\" source=\"2\" target=\"4\" position=\"1\"/>"
                "<xaif:ExpressionEdge edge_id=\"3\" source=\"3\" target=\"4\" position=\"2\"/>"
                "<xaif:ExpressionEdge edge_id=\"4\" source=\"4\" target=\"6\" position=\"1\"/>"
                "<xaif:ExpressionEdge edge_id=\"5\" source=\"5\" target=\"6\" position=\"2\"/>\n"
                "</xaif:AssignmentRHS></xaif:Assignment>\n");
        }
        if (k > 0) { /* call r(k-1)(x, y) */
            put(&t,
                "<xaif:SubroutineCall statement_id=\"%d\" scope_id=\"1\" symbol_id=\"r%d\">"
                "<xaif:Argument position=\"1\">",
                m + 1, k - 1);
            ref(&t, "VariableReference", 1, sc, "x", 0);
            put(&t, "</xaif:Argument><xaif:Argument position=\"2\">");
            ref(&t, "VariableReference", 1, sc, "y", 0);
            put(&t, "</xaif:Argument></xaif:SubroutineCall>\n");
        }
        put(&t, "</xaif:BasicBlock>\n<xaif:Exit vertex_id=\"3\"/>\n"
                "<xaif:ControlFlowEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n"
                "<xaif:ControlFlowEdge edge_id=\"2\" source=\"2\" target=\"3\"/>\n"
                "</xaif:ControlFlowGraph>\n");
        if (k > 0) /* an edge between the routines, and a comment */
            put(&t,
                "<xaif:CallGraphEdge edge_id=\"%d\" source=\"c%d\" target=\"c%d\"/>\n"
                "<!-- after r%d -->\n",
                k, k, k - 1, k);
    }
    put(&t, "</xaif:CallGraph>\n<!-- end -->\n");
    return t.s;
}

static char *
program(int n)
{
    return program_of(n, 1);
}

/* ---- the two paths */

static xf_doc *cat, *direct;

static void
setup(void)
{
    scratch_make("stream");
    xf_diag *d = xf_diag_new(stderr);
    cat = xf_catalogue_load(NULL, d);
    direct = xf_direct_load(NULL, d);
    xf_diag_free(d);
    ck_assert_ptr_nonnull(cat);
    ck_assert_ptr_nonnull(direct);
}

static void
teardown(void)
{
    xf_doc_free(cat);
    xf_doc_free(direct);
    scratch_remove();
}

static int
passes_of(const char *verb, const xf_pass **passes)
{
    char err[200];
    int n = xf_pipeline_parse(verb, passes, XF_PM_MAX, err, sizeof err);
    ck_assert_msg(n > 0, "%s", err);
    return n;
}

/* The whole-document path's output of @verb on @src; *@bytes: the document's size after it. */
static char *
whole(const char *src, const char *verb, size_t *len, size_t *bytes)
{
    xf_diag *d = xf_diag_new(stderr);
    const xf_pass *passes[XF_PM_MAX];
    int n = passes_of(verb, passes);
    xf_doc *doc = xf_read_memory(src, strlen(src), "gen.xaif", NULL, d);
    ck_assert_ptr_nonnull(doc);
    xf_opts o;
    xf_pm_opts_init(&o);
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d, .catalogue = cat, .direct = direct};
    ck_assert_int_eq(xf_pm_run(&ctx, passes, n, NULL), 0);
    *bytes = xf_arena_used(doc->arena);
    char *out;
    ck_assert_int_eq(xf_write_memory(doc, &out, len, d), 0);
    xf_doc_free(doc);
    xf_diag_free(d);
    return out;
}

static char *
slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long k = ftell(f);
    ck_assert_int_ge(k, 0);
    rewind(f);
    char *s = malloc((size_t)k + 1);
    ck_assert_uint_eq(fread(s, 1, (size_t)k, f), (size_t)k);
    fclose(f);
    *len = (size_t)k;
    return s;
}

/* The streamed path's output of @verb on @src. */
static char *
streamed(const char *src, const char *verb, size_t *len, xf_stream_stats *st)
{
    char in[128], out[128];
    snprintf(in, sizeof in, "%s/in.xaif", dir);
    snprintf(out, sizeof out, "%s/out.xaif", dir);
    FILE *f = fopen(in, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(src, f);
    fclose(f);
    xf_diag *d = xf_diag_new(stderr);
    const xf_pass *passes[XF_PM_MAX];
    int n = passes_of(verb, passes);
    xf_opts o;
    xf_pm_opts_init(&o);
    xf_pass_ctx tmpl = {.opts = &o, .diag = d, .catalogue = cat, .direct = direct};
    ck_assert(xf_pm_streams(passes, n, NULL, &o));
    ck_assert_int_eq(xf_stream_transform(in, out, &tmpl, passes, n, st), 0);
    xf_diag_free(d);
    return slurp(out, len);
}

static void
same_bytes(int nroutines, const char *verb)
{
    char *src = program(nroutines);
    size_t la, lb, bytes;
    xf_stream_stats st;
    char *a = whole(src, verb, &la, &bytes), *b = streamed(src, verb, &lb, &st);
    ck_assert_uint_eq(st.routines, (uint32_t)nroutines);
    ck_assert_msg(la == lb && memcmp(a, b, la) == 0,
                  "%s of %d routines: %zu bytes whole, %zu streamed", verb, nroutines, la, lb);
    /* the adjoint is a real one: templates, tapes, the call and its checkpoints */
    if (!strcmp(verb, "adjoint") && nroutines > 1)
        ck_assert_ptr_nonnull(strstr(b, "cp_arg_store"));
    free(a);
    free(b);
    free(src);
}

START_TEST(streamed_output_is_the_whole_documents)
{
    same_bytes(1, "tangent");
    same_bytes(1, "adjoint");
    same_bytes(5, "tangent");
    same_bytes(5, "adjoint");
}
END_TEST

/* A tangent whose long blocks are made and written a piece at a time
 * (stream_block.h) is the whole document's, byte for byte, whatever the
 * pieces' size (a piece of 7 statements ends inside preaccumulate's
 * sequences, which hold 512 vertices; one of 1 cuts before each call), and
 * the routine's own arena then holds little more than the input. */
START_TEST(long_blocks_in_pieces_are_the_whole_documents)
{
    char *src = program_of(3, 300);
    size_t la, lb, bytes;
    xf_stream_stats whole_st, st;
    char *a = whole(src, "tangent", &la, &bytes);
    xf_stream_block_size(1u << 20); /* no block cut */
    free(streamed(src, "tangent", &lb, &whole_st));
    static const uint32_t sizes[] = {1, 7, 64, 299};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        xf_stream_block_size(sizes[k]);
        char *b = streamed(src, "tangent", &lb, &st);
        ck_assert_msg(la == lb && memcmp(a, b, la) == 0,
                      "pieces of %u: %zu bytes whole, %zu in pieces", sizes[k], la, lb);
        ck_assert_msg(st.routine_peak * 3 < whole_st.routine_peak,
                      "pieces of %u: the routine's arena holds %zu bytes, %zu without pieces",
                      sizes[k], st.routine_peak, whole_st.routine_peak);
        free(b);
    }
    xf_stream_block_size(0);
    free(a);
    free(src);
}
END_TEST

/* What one routine holds does not grow with the number of routines; what
 * stays behind per routine is a small part of a routine; the whole-document
 * path grows with the document. */
START_TEST(memory_is_the_global_part_plus_one_routine)
{
    size_t len, whole_bytes[2];
    xf_stream_stats st[2];
    const int sizes[2] = {8, 64};
    for (int i = 0; i < 2; i++) {
        char *src = program(sizes[i]);
        free(streamed(src, "adjoint", &len, &st[i]));
        free(whole(src, "adjoint", &len, &whole_bytes[i]));
        free(src);
    }
    ck_assert_uint_eq(st[0].routines, 8);
    ck_assert_uint_eq(st[1].routines, 64);
    ck_assert_uint_gt(st[0].routine_peak, 0);
    ck_assert_msg(st[1].routine_peak == st[0].routine_peak,
                  "one routine's arena: %zu bytes with 8 routines, %zu with 64", st[0].routine_peak,
                  st[1].routine_peak);
    size_t per_routine = (st[1].global - st[0].global) / 56;
    ck_assert_msg(per_routine < st[0].routine_peak / 4,
                  "the global part grows by %zu bytes per routine; one routine holds %zu",
                  per_routine, st[0].routine_peak);
    ck_assert_msg(whole_bytes[1] > 4 * whole_bytes[0],
                  "the whole document: %zu bytes with 8 routines, %zu with 64", whole_bytes[0],
                  whole_bytes[1]);
    ck_assert_msg(st[1].global + st[1].routine_peak < whole_bytes[1] / 4,
                  "streamed: %zu + %zu bytes; whole: %zu", st[1].global, st[1].routine_peak,
                  whole_bytes[1]);
}
END_TEST

/* A block written through the spill (xf_wstream_spill, unspill): each
 * block's statements set aside in two parts, then copied back in order, give
 * the bytes written in place; copied back last part first, the second
 * part's statements come first. */
typedef struct spilling {
    bool reversed;
} spilling;

static int
spill_block(void *ctx, xf_wstream *ws, const xf_cvertex *b)
{
    const spilling *sp = ctx;
    uint32_t half = b->stmts.n / 2;
    uint64_t a = 0, e = 0;
    ck_assert_int_eq(xf_wstream_spill(ws, b->stmts.v, half, &a), 0);
    ck_assert_int_eq(xf_wstream_spill(ws, b->stmts.v + half, b->stmts.n - half, &e), 0);
    ck_assert(half == 0 || a > 0);
    ck_assert(e >= a);
    if (sp->reversed)
        ck_assert(xf_wstream_unspill(ws, a, e) == 0 && xf_wstream_unspill(ws, 0, a) == 0);
    else
        ck_assert(xf_wstream_unspill(ws, 0, a) == 0 && xf_wstream_unspill(ws, a, e) == 0);
    xf_wstream_spill_reset(ws);
    return 0;
}

static char *
written_through_spill(xf_doc *doc, bool reversed, size_t *len)
{
    char out[128];
    snprintf(out, sizeof out, "%s/spill.xaif", dir);
    xf_diag *d = xf_diag_new(stderr);
    xf_wstream *ws = xf_wstream_new(doc, d);
    ck_assert_ptr_nonnull(ws);
    spilling sp = {.reversed = reversed};
    const xf_callgraph *cg = &doc->cg;
    uint32_t i = 0, j = 0;
    while (i < cg->routines.n || j < cg->edges.n) {
        if (i < cg->routines.n &&
            (j >= cg->edges.n || cg->routines.v[i]->seq <= cg->edges.v[j].seq))
            ck_assert_int_eq(xf_wstream_routine_pieces(ws, cg->routines.v[i++], spill_block, &sp),
                             0);
        else
            ck_assert_int_eq(xf_wstream_edge(ws, &cg->edges.v[j++]), 0);
    }
    ck_assert_int_eq(xf_wstream_finish(ws, out), 0);
    xf_wstream_free(ws);
    xf_diag_free(d);
    return slurp(out, len);
}

START_TEST(spilled_statements_are_written_as_in_place)
{
    char *src = program(3);
    xf_diag *d = xf_diag_new(stderr);
    xf_doc *doc = xf_read_memory(src, strlen(src), "gen.xaif", NULL, d);
    ck_assert_ptr_nonnull(doc);
    char *a;
    size_t la, lb, lc;
    ck_assert_int_eq(xf_write_memory(doc, &a, &la, d), 0);
    char *b = written_through_spill(doc, false, &lb);
    ck_assert_msg(la == lb && memcmp(a, b, la) == 0, "%zu bytes in place, %zu through the spill",
                  la, lb);
    char *c = written_through_spill(doc, true, &lc);
    ck_assert_uint_eq(lc, la);
    ck_assert_msg(memcmp(a, c, la) != 0, "the parts copied back last first: the same bytes");
    free(a);
    free(b);
    free(c);
    xf_doc_free(doc);
    xf_diag_free(d);
    free(src);
}
END_TEST

/* Streaming reads call graphs strictly. */
START_TEST(refuses_lenient_reading_and_other_roots)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_read_opts lenient = {.lenient = true};
    char in[128];
    snprintf(in, sizeof in, "%s/cat.xaif", dir);
    FILE *f = fopen(in, "wb");
    ck_assert_ptr_nonnull(f);
    fputs("<?xml version=\"1.0\"?>\n<xaifii:InlinableIntrinsicDefinitions "
          "xmlns:xaifii=\"http://www.mcs.anl.gov/XAIFInlinableIntrinsics\"/>\n",
          f);
    fclose(f);
    ck_assert_ptr_null(xf_read_stream(in, &lenient, d, NULL));
    ck_assert_ptr_nonnull(strstr(xf_diag_message(d, 0), "lenient"));
    ck_assert_ptr_null(xf_read_stream(in, NULL, d, NULL));
    ck_assert_ptr_nonnull(strstr(xf_diag_message(d, 1), "only a <CallGraph>"));
    xf_diag_free(d);
}
END_TEST

Suite *
test_stream_suite(void)
{
    Suite *s = suite_create("stream");
    TCase *tc = tcase_create("stream");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, streamed_output_is_the_whole_documents);
    tcase_add_test(tc, spilled_statements_are_written_as_in_place);
    tcase_add_test(tc, long_blocks_in_pieces_are_the_whole_documents);
    tcase_add_test(tc, memory_is_the_global_part_plus_one_routine);
    tcase_add_test(tc, refuses_lenient_reading_and_other_roots);
    suite_add_tcase(s, tc);
    return s;
}
