/* test_write.c: the writer: exact text, determinism, nothing lost, safe files. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "outfile.h"
#include "suites.h"
#include "write.h"
#include "xaif_fixture.h"

static const char small[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<!-- head -->\n"
    "<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\" program_name=\"p\">\n"
    "  <xaif:ScopeHierarchy>\n"
    "    <xaif:Scope vertex_id=\"1\">\n"
    "      <xaif:SymbolTable>\n"
    "        <xaif:Symbol symbol_id=\"a\" kind=\"variable\" type=\"real\" active=\"true\"/>\n"
    "      </xaif:SymbolTable>\n"
    "    </xaif:Scope>\n"
    "    <!-- between -->\n"
    "  </xaif:ScopeHierarchy>\n"
    "</xaif:CallGraph>\n";

START_TEST(writes_exact_text)
{
    xf_diag *d;
    xf_doc *doc = read_text(small, &d);
    ck_assert_ptr_nonnull(doc);
    char *out;
    size_t len;
    ck_assert_int_eq(xf_write_memory(doc, &out, &len, d), 0);
    ck_assert_str_eq(out, small);
    ck_assert_uint_eq(len, strlen(small));
    free(out);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

/* A document built by hand gets its namespace declared. */
START_TEST(declares_what_it_uses)
{
    xf_doc *doc = xf_doc_new("new.xaif");
    xf_diag *d = xf_diag_new(NULL);
    char *out;
    size_t len;
    ck_assert_int_eq(xf_write_memory(doc, &out, &len, d), 0);
    ck_assert_str_eq(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                          "<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\">\n"
                          "  <xaif:ScopeHierarchy/>\n"
                          "</xaif:CallGraph>\n");
    free(out);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

START_TEST(is_deterministic_and_loses_nothing)
{
    const char *path = XF_TEST_DATA "/../examples/head.xaif";
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = xf_read_file(path, NULL, d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    char *a, *b;
    size_t alen, blen;
    ck_assert_int_eq(xf_write_memory(doc, &a, &alen, d), 0);
    ck_assert_int_eq(xf_write_memory(doc, &b, &blen, d), 0);
    ck_assert_uint_eq(alen, blen);
    ck_assert_int_eq(memcmp(a, b, alen), 0);
    FILE *f = fopen(path, "rb");
    char *orig = malloc(4 << 20);
    size_t olen = fread(orig, 1, 4 << 20, f);
    fclose(f);
    char why[512];
    ck_assert_msg(xf_xml_compare(orig, olen, a, alen, why, sizeof why) == 0, "%s", why);
    free(orig);
    free(a);
    free(b);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

START_TEST(file_output_is_atomic)
{
    char dir[] = "/tmp/xf_write_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[300];
    snprintf(path, sizeof path, "%s/out.xaif", dir);
    xf_diag *d;
    xf_doc *doc = read_text(small, &d);
    ck_assert_int_eq(xf_write_file(doc, path, d), 0);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq((long)st.st_size, (long)strlen(small));
    mode_t um = umask(0);
    umask(um);
    ck_assert_int_eq(st.st_mode & 0777, 0666 & ~um); /* as a plain fopen would make it */
    /* into a folder that does not exist: an error, and nothing is left */
    char bad[320];
    snprintf(bad, sizeof bad, "%s/no/such/out.xaif", dir);
    ck_assert_int_eq(xf_write_file(doc, bad, d), -1);
    ck_assert_ptr_nonnull(strstr(xf_diag_message(d, 0), "cannot create a temporary file"));
    unlink(path);
    ck_assert_int_eq(rmdir(dir), 0); /* empty: no temporary file left behind */
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

/* An output abandoned half-written leaves the file that was there as it
 * was, and no temporary; a finished one replaces it. */
START_TEST(an_abandoned_output_changes_nothing)
{
    char dir[] = "/tmp/xf_outfile_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[300], why[300], buf[16] = {0};
    snprintf(path, sizeof path, "%s/out.txt", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("old", f);
    fclose(f);
    xf_outfile o;
    ck_assert_int_eq(xf_outfile_open(&o, path, NULL, why, sizeof why), 0);
    ck_assert_int_eq(write(o.fd, "new", 3), 3);
    ck_assert_int_eq(close(o.fd), 0);
    ck_assert_int_eq(xf_outfile_finish(&o, false, why, sizeof why), -1);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
    fclose(f);
    ck_assert_str_eq(buf, "old");
    ck_assert_int_eq(xf_outfile_open(&o, path, NULL, why, sizeof why), 0);
    ck_assert_int_eq(write(o.fd, "new", 3), 3);
    ck_assert_int_eq(close(o.fd), 0);
    ck_assert_int_eq(xf_outfile_finish(&o, true, why, sizeof why), 0);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
    fclose(f);
    ck_assert_str_eq(buf, "new");
    unlink(path);
    ck_assert_int_eq(rmdir(dir), 0); /* empty: no temporary file left behind */
}
END_TEST

Suite *
test_write_suite(void)
{
    Suite *s = suite_create("write");
    TCase *tc = tcase_create("write");
    tcase_add_test(tc, writes_exact_text);
    tcase_add_test(tc, declares_what_it_uses);
    tcase_add_test(tc, is_deterministic_and_loses_nothing);
    tcase_add_test(tc, file_output_is_atomic);
    tcase_add_test(tc, an_abandoned_output_changes_nothing);
    suite_add_tcase(s, tc);
    return s;
}
