/* test_compare.c: what counts as the same document. */
#include <string.h>

#include "compare.h"
#include "suites.h"

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

Suite *
test_compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("compare");
    tcase_add_test(tc, formatting_does_not_count);
    tcase_add_test(tc, content_counts);
    suite_add_tcase(s, tc);
    return s;
}
