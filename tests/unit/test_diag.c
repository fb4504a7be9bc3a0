/* test_diag.c: diagnostics carry FILE:LINE and are counted. */
#include <string.h>

#include "diag.h"
#include "suites.h"

START_TEST(formats_and_counts)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_error(d, "a.xaif", 12, "bad %s", "thing");
    xf_warning(d, "a.xaif", 0, "careful");
    xf_error(d, NULL, 0, "no file");
    xf_internal(d, "oops");
    ck_assert_uint_eq(xf_diag_errors(d), 3);
    ck_assert_uint_eq(xf_diag_internal_errors(d), 1);
    ck_assert_uint_eq(xf_diag_count(d), 4);
    ck_assert_str_eq(xf_diag_message(d, 0), "a.xaif:12: error: bad thing");
    ck_assert_str_eq(xf_diag_message(d, 1), "a.xaif: warning: careful");
    ck_assert_str_eq(xf_diag_message(d, 2), "xaiform: error: no file");
    ck_assert_ptr_nonnull(strstr(xf_diag_message(d, 3), "internal error at "));
    ck_assert_ptr_nonnull(strstr(xf_diag_message(d, 3), "test_diag.c"));
    xf_diag_clear(d);
    ck_assert_uint_eq(xf_diag_errors(d), 0);
    ck_assert_ptr_null(xf_diag_message(d, 0));
    xf_diag_free(d);
}
END_TEST

Suite *
test_diag_suite(void)
{
    Suite *s = suite_create("diag");
    TCase *tc = tcase_create("diag");
    tcase_add_test(tc, formats_and_counts);
    suite_add_tcase(s, tc);
    return s;
}
