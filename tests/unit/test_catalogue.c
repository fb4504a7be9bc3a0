/* test_catalogue.c: the compiled-in catalogues (tools/catalogue.c) are the
 * IR the reader makes of schema/intrinsics*.xaif; packing (engine/catpack.h)
 * keeps every field and refuses corrupt bytes. */
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "catpack.h"
#include "schema.h"
#include "suites.h"
#include "write.h"
#include "xaif_fixture.h"

/* The bytes of @cat packed; *len set. */
static unsigned char *
pack(const xf_doc *cat, size_t *len)
{
    xf_diag *d = xf_diag_new(NULL);
    unsigned char *b = xf_cat_pack(cat, len, d);
    ck_assert_msg(b != NULL, "%s", first_message(d));
    xf_diag_free(d);
    return b;
}

/* @cat written as xaif. */
static char *
written(const xf_doc *cat, size_t *len)
{
    xf_diag *d = xf_diag_new(NULL);
    char *text = NULL;
    ck_assert_msg(xf_write_memory(cat, &text, len, d) == 0, "%s", first_message(d));
    xf_diag_free(d);
    return text;
}

/* Two documents with the same IR: the same packed bytes and the same xaif. */
static void
assert_same(const xf_doc *a, const xf_doc *b)
{
    ck_assert_str_eq(a->filename, b->filename);
    size_t na, nb;
    unsigned char *pa = pack(a, &na), *pb = pack(b, &nb);
    ck_assert_uint_eq(na, nb);
    ck_assert(memcmp(pa, pb, na) == 0);
    free(pa);
    free(pb);
    char *wa = written(a, &na), *wb = written(b, &nb);
    ck_assert_uint_eq(na, nb);
    ck_assert_str_eq(wa, wb);
    free(wa);
    free(wb);
}

/* The built-in @file parsed from its text, as xaiform did at every start. */
static xf_doc *
parsed(const char *file, const char *name)
{
    size_t n = 0;
    const char *text = xf_schema_text(file, &n);
    ck_assert_ptr_nonnull(text);
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = xf_read_memory(text, n, name, NULL, d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    xf_diag_free(d);
    return doc;
}

START_TEST(the_builtin_inlinable_catalogue_is_the_parsed_one)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *cat = xf_catalogue_load(NULL, d);
    ck_assert_msg(cat != NULL, "%s", first_message(d));
    xf_doc *ref = parsed("intrinsics.xaif", "built-in intrinsics.xaif");
    ck_assert_int_eq(cat->kind, XF_DOC_INLINABLE);
    ck_assert_uint_eq(cat->ii.n, ref->ii.n);
    ck_assert_uint_gt(cat->ii.n, 40);
    /* a few fields by hand: lines, comments, the first partial's expression */
    ck_assert_str_eq(cat->ii.v[0].name, "add_scal_scal");
    ck_assert_uint_eq(cat->ii.v[0].h.line, ref->ii.v[0].h.line);
    ck_assert_uint_gt(cat->ii.v[0].h.line, 1);
    ck_assert_uint_eq(cat->before.n, ref->before.n);
    ck_assert_uint_eq(cat->before.n, 1);
    ck_assert_str_eq(cat->before.v[0]->text, ref->before.v[0]->text);
    ck_assert_ptr_nonnull(cat->defs_h.extra);
    ck_assert_uint_eq(cat->defs_h.extra->kids.n, ref->defs_h.extra->kids.n);
    const xf_evertex *v = &cat->ii.v[0].partials.v[0].expr.v.v[0];
    ck_assert_int_eq(v->kind, XF_EV_CONSTANT);
    ck_assert_str_eq(v->u.c.value, "1");
    /* interned in the catalogue's own table, as the reader does */
    ck_assert_ptr_eq(v->u.c.value, xf_intern(cat, "1"));
    assert_same(cat, ref);
    xf_doc_free(cat);
    xf_doc_free(ref);
    xf_diag_free(d);
}
END_TEST

START_TEST(the_builtin_noninlinable_catalogue_is_the_parsed_one)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *cat = xf_direct_load(NULL, d);
    ck_assert_msg(cat != NULL, "%s", first_message(d));
    xf_doc *ref = parsed("intrinsics-noninlinable.xaif", "built-in intrinsics-noninlinable.xaif");
    ck_assert_int_eq(cat->kind, XF_DOC_NONINLINABLE);
    ck_assert_uint_gt(cat->nii.n, 0);
    ck_assert_uint_eq(cat->nii.n, ref->nii.n);
    assert_same(cat, ref);
    xf_doc_free(cat);
    xf_doc_free(ref);
    xf_diag_free(d);
}
END_TEST

/* What the built-in catalogues do not have: foreign attributes and elements,
 * comments and processing instructions inside and around the root,
 * annotations, a Boolean operation, an explicit Jacobian. */
static const char odd_catalogue[] =
    "<?xml version=\"1.0\"?>\n"
    "<?front end=\"x\"?>\n"
    "<ii:InlinableIntrinsicDefinitions "
    "xmlns:ii=\"http://www.mcs.anl.gov/XAIFInlinableIntrinsics\"\n"
    "  xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\" xmlns:f=\"urn:f\" language=\"F77\" f:v=\"2\">\n"
    "  <f:note a=\"1\"><f:sub>text</f:sub><!-- in --></f:note>\n"
    "  <ii:InlinableIntrinsic name=\"odd\" nr_arguments=\"2\" annotation=\"an\" f:k=\"v\"\n"
    "    nonSmooth=\"true\" return_type=\"real\" shape_change=\"none\">\n"
    "    <ii:Function type=\"builtin\" builtin_name=\"odd\" annotation=\"fa\"/>\n"
    "    <!-- before the partial -->\n"
    "    <ii:Partial partial_id=\"1\" partial_type=\"linear\" nonValueInquiry=\"0\">\n"
    "      <xaif:Intrinsic vertex_id=\"1\" name=\"mul_scal_scal\" annotation=\"m\"/>\n"
    "      <ii:ArgumentReference vertex_id=\"2\" argument=\"-1\"/>\n"
    "      <xaif:BooleanOperation vertex_id=\"3\" name=\"and\"/>\n"
    "      <xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" position=\"1\"/>\n"
    "      <xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" position=\"2\"/>\n"
    "    </ii:Partial>\n"
    "    <ii:Partial partial_id=\"2\"/>\n"
    "  </ii:InlinableIntrinsic>\n"
    "</ii:InlinableIntrinsicDefinitions>\n"
    "<!-- after -->\n";

static const char odd_direct[] =
    "<nii:NonInlinableIntrinsicDefinitions "
    "xmlns:nii=\"http://www.mcs.anl.gov/XAIFNonInlinableIntrinsics\">\n"
    "  <nii:ExplicitJacobian name=\"f\" jacobian=\"f_jac\" return_type=\"real\">\n"
    "    <nii:Partial dep=\"0\" indep=\"1\" partial=\"1\" annotation=\"p\"/>\n"
    "    <nii:Partial dep=\"0\" indep=\"2\" partial=\"2\"/>\n"
    "  </nii:ExplicitJacobian>\n"
    "  <nii:DirectAction name=\"g\" derivAction=\"g_d\"/>\n"
    "</nii:NonInlinableIntrinsicDefinitions>\n";

static void
round_trip(const char *text, xf_dockind kind)
{
    xf_diag *d;
    xf_doc *doc = read_text(text, &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    ck_assert_int_eq(doc->kind, kind);
    size_t n;
    unsigned char *b = pack(doc, &n);
    xf_doc *back = xf_cat_unpack(b, n, "t.xaif", d);
    ck_assert_msg(back != NULL, "%s", first_message(d));
    assert_same(doc, back);
    size_t len;
    char *w = written(back, &len);
    if (kind == XF_DOC_INLINABLE) {
        ck_assert_ptr_nonnull(strstr(w, "<f:sub>text</f:sub>"));
        ck_assert_ptr_nonnull(strstr(w, "<?front end=\"x\"?>"));
        ck_assert_ptr_nonnull(strstr(w, "<!-- after -->"));
        ck_assert_ptr_nonnull(strstr(w, "f:k=\"v\""));
    } else
        ck_assert_ptr_nonnull(strstr(w, "derivAction=\"g_d\""));
    free(w);
    free(b);
    xf_doc_free(doc);
    xf_doc_free(back);
    xf_diag_free(d);
}

START_TEST(packing_keeps_what_the_builtin_catalogues_lack)
{
    round_trip(odd_catalogue, XF_DOC_INLINABLE);
    round_trip(odd_direct, XF_DOC_NONINLINABLE);
}
END_TEST

START_TEST(corrupt_or_cut_bytes_are_refused)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *cat = xf_catalogue_load(NULL, d);
    ck_assert_ptr_nonnull(cat);
    size_t n;
    unsigned char *b = pack(cat, &n);
    /* cut short anywhere: refused, never read past the end (the sanitizer build) */
    for (size_t len = 0; len < n; len += len < 64 || n - len < 64 ? 1 : 37) {
        unsigned char *cut = malloc(len ? len : 1);
        memcpy(cut, b, len);
        xf_diag_clear(d);
        ck_assert_ptr_null(xf_cat_unpack(cut, len, "cut", d));
        ck_assert_msg(xf_diag_errors(d) == 1, "length %zu", len);
        free(cut);
    }
    ck_assert_ptr_nonnull(strstr(first_message(d), "cut short or corrupt"));
    b[0] = 'Y';
    xf_diag_clear(d);
    ck_assert_ptr_null(xf_cat_unpack(b, n, "bad", d));
    ck_assert_ptr_nonnull(strstr(first_message(d), "not a packed catalogue"));
    free(b);
    xf_doc_free(cat);
    xf_diag_free(d);
}
END_TEST

START_TEST(a_call_graph_is_no_catalogue)
{
    xf_diag *d;
    xf_doc *doc = read_text(XAIF_HEAD XAIF_SCOPES XAIF_MAPS "</xaif:CallGraph>\n", &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    size_t n = 0;
    ck_assert_ptr_null(xf_cat_pack(doc, &n, d));
    ck_assert_ptr_nonnull(strstr(first_message(d), "not an intrinsics catalogue"));
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

Suite *
test_catalogue_suite(void)
{
    Suite *s = suite_create("catalogue");
    TCase *tc = tcase_create("builtin");
    tcase_add_test(tc, the_builtin_inlinable_catalogue_is_the_parsed_one);
    tcase_add_test(tc, the_builtin_noninlinable_catalogue_is_the_parsed_one);
    suite_add_tcase(s, tc);
    tc = tcase_create("pack");
    tcase_add_test(tc, packing_keeps_what_the_builtin_catalogues_lack);
    tcase_add_test(tc, corrupt_or_cut_bytes_are_refused);
    tcase_add_test(tc, a_call_graph_is_no_catalogue);
    suite_add_tcase(s, tc);
    return s;
}
