/* test_names.c: routines by the name written in the source (names.c). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "names.h"
#include "suites.h"
#include "xaif_fixture.h"

/* A call graph whose routines have the symbol ids @ids (vertex_ids 10, 11, ...). */
static xf_doc *
routines(const char *const *ids, int n)
{
    size_t cap = 4096 + (size_t)n * 400, k = 0;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    k += (size_t)snprintf(text + k, cap - k,
                          XAIF_HEAD "<xaif:ScopeHierarchy><xaif:Scope vertex_id=\"1\">"
                                    "<xaif:SymbolTable>\n");
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(text + k, cap - k,
                              "<xaif:Symbol symbol_id=\"%s\" kind=\"subroutine\" type=\"void\"/>\n",
                              ids[i]);
    k += (size_t)snprintf(text + k, cap - k,
                          "</xaif:SymbolTable></xaif:Scope></xaif:ScopeHierarchy>\n");
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(text + k, cap - k,
                              "<xaif:ControlFlowGraph vertex_id=\"%d\" scope_id=\"1\" "
                              "symbol_id=\"%s\" controlflowgraph_scope_id=\"1\"/>\n",
                              10 + i, ids[i]);
    snprintf(text + k, cap - k, "</xaif:CallGraph>\n");
    xf_diag *d;
    xf_doc *doc = read_text(text, &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    xf_diag_free(d);
    free(text);
    return doc;
}

/* The symbol id that @name finds, or the message. */
static const char *
find(const xf_doc *doc, const char *name, xf_routine_filter keep, size_t want)
{
    static char msg[300];
    const xf_routine *r;
    size_t got = xf_routine_lookup(doc, name, keep, NULL, &r, msg, sizeof msg);
    ck_assert_msg(got == want, "%s: %zu matches, want %zu", name, got, want);
    if (got == 1) {
        ck_assert_ptr_nonnull(r);
        return xf_routine_symbol(r);
    }
    ck_assert_ptr_null(r);
    return msg;
}

static const char *const some[] = {"head__24", "FOO_24",        "bar",
                                   "bar__3",   "OpenAD_baz__7", "foo_1__25"};

START_TEST(the_name_as_written_finds_the_decorated_one)
{
    xf_doc *doc = routines(some, 6);
    ck_assert_str_eq(find(doc, "head", NULL, 1), "head__24");
    ck_assert_str_eq(find(doc, "HEAD", NULL, 1), "head__24"); /* Fortran: any case */
    ck_assert_str_eq(find(doc, "foo", NULL, 1), "FOO_24");    /* one '_' */
    ck_assert_str_eq(find(doc, "foo_1", NULL, 1), "foo_1__25");
    ck_assert_str_eq(find(doc, "baz", NULL, 1), "OpenAD_baz__7"); /* the call graph's prefix */
    ck_assert_str_eq(find(doc, "OpenAD_baz", NULL, 1), "OpenAD_baz__7");
    xf_doc_free(doc);
}
END_TEST

START_TEST(an_exact_name_always_wins)
{
    xf_doc *doc = routines(some, 6);
    ck_assert_str_eq(find(doc, "bar", NULL, 1), "bar"); /* not ambiguous with bar__3 */
    ck_assert_str_eq(find(doc, "bar__3", NULL, 1), "bar__3");
    ck_assert_str_eq(find(doc, "head__24", NULL, 1), "head__24");
    ck_assert_str_eq(find(doc, "11", NULL, 1), "FOO_24"); /* a vertex_id */
    xf_doc_free(doc);
}
END_TEST

START_TEST(no_match_lists_every_routine)
{
    xf_doc *doc = routines(some, 6);
    ck_assert_str_eq(find(doc, "hea", NULL, 0),
                     "no routine named hea (routines: head__24, FOO_24, bar, bar__3, "
                     "OpenAD_baz__7, foo_1__25)");
    /* what follows the name is '_'s and then digits, nothing else */
    find(doc, "head_2", NULL, 0);
    find(doc, "head__2", NULL, 0);
    find(doc, "fo", NULL, 0);
    find(doc, "ba", NULL, 0);
    find(doc, "foo_", NULL, 0);
    xf_doc_free(doc);
    doc = routines(NULL, 0);
    ck_assert_str_eq(find(doc, "head", NULL, 0), "no routine named head (routines: none)");
    xf_doc_free(doc);
}
END_TEST

static bool
not_25(const xf_routine *r, const void *arg)
{
    (void)arg;
    return strcmp(xf_routine_symbol(r), "head__25") != 0;
}

START_TEST(several_matches_list_the_matches)
{
    static const char *const two[] = {"head__24", "main", "head__25"};
    xf_doc *doc = routines(two, 3);
    ck_assert_str_eq(find(doc, "head", NULL, 2),
                     "2 routines are named head (head__24, head__25): give one's full name");
    /* a filter leaves routines out: of them, none match or only one */
    ck_assert_str_eq(find(doc, "head", not_25, 1), "head__24");
    ck_assert_str_eq(find(doc, "head__25", not_25, 0),
                     "no routine named head__25 (routines: head__24, main)");
    xf_doc_free(doc);
}
END_TEST

START_TEST(a_long_list_is_cut_short)
{
    enum { N = 100 };
    char names[N][16];
    const char *ids[N];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "r__%d", i + 1);
        ids[i] = names[i];
    }
    xf_doc *doc = routines(ids, N);
    const char *m = find(doc, "r", NULL, N);
    ck_assert_msg(strncmp(m, "100 routines are named r (r__1, r__2, ", 38) == 0, "%s", m);
    const char *tail = ", ...): give one's full name";
    ck_assert_msg(strlen(m) > strlen(tail) && !strcmp(m + strlen(m) - strlen(tail), tail), "%s", m);
    xf_doc_free(doc);
}
END_TEST

Suite *
test_names_suite(void)
{
    Suite *s = suite_create("names");
    TCase *tc = tcase_create("routines");
    tcase_add_test(tc, the_name_as_written_finds_the_decorated_one);
    tcase_add_test(tc, an_exact_name_always_wins);
    tcase_add_test(tc, no_match_lists_every_routine);
    tcase_add_test(tc, several_matches_list_the_matches);
    tcase_add_test(tc, a_long_list_is_cut_short);
    suite_add_tcase(s, tc);
    return s;
}
