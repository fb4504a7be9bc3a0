/* test_schema.c: the built-in schema accepts good xaif and points at mistakes. */
#include <string.h>

#include "schema.h"
#include "suites.h"
#include "xaif_fixture.h"

static const char good[] = XAIF_HEAD XAIF_SCOPES XAIF_MAPS XAIF_CFG_OPEN
    "    <xaif:Entry vertex_id=\"1\"/>\n"
    "    <xaif:Exit vertex_id=\"2\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n" XAIF_TAIL;

START_TEST(built_in_schema_validates)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_schema *s = xf_schema_load(NULL, d);
    ck_assert_msg(s != NULL, "%s", first_message(d));
    ck_assert_int_eq(xf_schema_validate_memory(s, good, strlen(good), "good.xaif", d), 0);
    ck_assert_uint_eq(xf_diag_errors(d), 0);
    xf_schema_free(s);
    xf_diag_free(d);
}
END_TEST

START_TEST(violations_name_file_and_line)
{
    /* line 23: an edge without its required target */
    static const char bad[] = XAIF_HEAD XAIF_SCOPES XAIF_MAPS XAIF_CFG_OPEN
        "    <xaif:Entry vertex_id=\"1\"/>\n"
        "    <xaif:Exit vertex_id=\"2\"/>\n"
        "    <xaif:ControlFlowEdge edge_id=\"1\" source=\"1\"/>\n" XAIF_TAIL;
    xf_diag *d = xf_diag_new(NULL);
    xf_schema *s = xf_schema_load(NULL, d);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(xf_schema_validate_memory(s, bad, strlen(bad), "bad.xaif", d), 1);
    ck_assert_msg(strncmp(first_message(d), "bad.xaif:24: error: ", 20) == 0, "%s",
                  first_message(d));
    ck_assert_ptr_nonnull(strstr(first_message(d), "target"));
    xf_schema_free(s);
    xf_diag_free(d);
}
END_TEST

START_TEST(the_schema_text_is_built_in)
{
    size_t n = 0;
    const char *t = xf_schema_text("xaif.xsd", &n);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_gt(n, 1000);
    ck_assert_ptr_nonnull(strstr(t, "http://www.mcs.anl.gov/XAIF"));
    ck_assert_ptr_null(xf_schema_text("nothing.xsd", NULL));
}
END_TEST

Suite *
test_schema_suite(void)
{
    Suite *s = suite_create("schema");
    TCase *tc = tcase_create("schema");
    tcase_add_test(tc, built_in_schema_validates);
    tcase_add_test(tc, violations_name_file_and_line);
    tcase_add_test(tc, the_schema_text_is_built_in);
    suite_add_tcase(s, tc);
    return s;
}
