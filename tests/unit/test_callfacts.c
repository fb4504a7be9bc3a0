/* test_callfacts.c: the whole-program fact the template pass asks (is a
 * routine called, and with something other than a constant at a
 * position), gathered from a document in one walk and one call at a time. */
#include "callfacts.h"
#include "run_fixture.h"
#include "suites.h"
#include "xaif_fixture.h"

/* The routine of @doc named @name. */
static const xf_routine *
routine_named(const xf_doc *doc, const char *name)
{
    for (uint32_t r = 0; r < doc->cg.routines.n; r++)
        if (doc->cg.routines.v[r]->sym && !strcmp(doc->cg.routines.v[r]->sym->id, name))
            return doc->cg.routines.v[r];
    ck_abort_msg("no routine %s", name);
    return NULL;
}

/* head calls f(x(1), 3) and g(y(1)); g calls f(2, 1.5) and f(a, 4);
 * nobody calls head. */
START_TEST(facts_of_a_document)
{
    xb *b = XB_NEW();
    xg *h = head_cfg(b, 1, 1, "sub f; sub g", NULL);
    xg_bb(h, "call f(x(1), 3); call g(y(1))");
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a; real c");
    xg_bb(xb_cfg(b, "f", 3, "a c"), "a = a * c");
    xb_scope(b, 4, 1);
    xb_syms(b, 4, "real a");
    xg_bb(xb_cfg(b, "g", 4, "a"), "call f(2.0, 1.5); call f(a, 4.0)");
    xf_diag *d;
    xf_doc *doc = read_text(xb_build(b), &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    xf_callfacts *f = xf_callfacts_new(NULL);
    ck_assert_ptr_nonnull(f);
    ck_assert(xf_callfacts_doc(f, doc));
    const xf_symbol *fs = routine_named(doc, "f")->sym, *gs = routine_named(doc, "g")->sym,
                    *hs = routine_named(doc, "head")->sym;
    ck_assert(xf_callfacts_called(f, fs, 0));
    ck_assert(xf_callfacts_called(f, fs, 1));  /* x(1) and a */
    ck_assert(!xf_callfacts_called(f, fs, 2)); /* 3, 1.5 and 4: constants only */
    ck_assert(xf_callfacts_called(f, gs, 0));
    ck_assert(xf_callfacts_called(f, gs, 1));
    ck_assert(!xf_callfacts_called(f, gs, 2)); /* no such argument */
    ck_assert(!xf_callfacts_called(f, hs, 0));
    ck_assert(!xf_callfacts_called(f, hs, 1));
    xf_callfacts_free(f);
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

/* Fed one call at a time, as a streaming first pass would: 50 000 callees,
 * each called twice; positions far apart are remembered too. */
START_TEST(facts_one_call_at_a_time)
{
    enum { N = 50000 };
    xf_symbol *syms = calloc(N, sizeof *syms);
    ck_assert_ptr_nonnull(syms);
    xf_callfacts *f = xf_callfacts_new(NULL);
    ck_assert_ptr_nonnull(f);
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < N; k++) {
            ck_assert(xf_callfacts_call(f, &syms[k]));
            /* position 1: a non-constant in the second pass, for even k only */
            ck_assert(xf_callfacts_arg(f, &syms[k], 1, !(pass == 1 && k % 2 == 0)));
            ck_assert(xf_callfacts_arg(f, &syms[k], 2, true));
            if (k == 7)
                ck_assert(xf_callfacts_arg(f, &syms[k], 1000000, false));
        }
    for (int k = 0; k < N; k++) {
        ck_assert(xf_callfacts_called(f, &syms[k], 0));
        ck_assert_int_eq(xf_callfacts_called(f, &syms[k], 1), k % 2 == 0);
        ck_assert(!xf_callfacts_called(f, &syms[k], 2));
        ck_assert_int_eq(xf_callfacts_called(f, &syms[k], 1000000), k == 7);
    }
    xf_symbol other;
    ck_assert(!xf_callfacts_called(f, &other, 0));
    ck_assert(!xf_callfacts_called(f, NULL, 0));
    xf_callfacts_free(f);
    free(syms);
}
END_TEST

Suite *
test_callfacts_suite(void)
{
    Suite *s = suite_create("callfacts");
    TCase *tc = tcase_create("callfacts");
    tcase_add_test(tc, facts_of_a_document);
    tcase_add_test(tc, facts_one_call_at_a_time);
    suite_add_tcase(s, tc);
    return s;
}
