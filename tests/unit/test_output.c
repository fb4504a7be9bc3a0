/* test_output.c: the output module: --xslt/--param parsing, output
 * unchanged without stylesheets, stylesheets applied in order with string
 * parameters, errors with the stylesheet's file and line and no output,
 * the security default, the libxml2/libxslt handlers put back. */
#include <dirent.h>
#include <getopt.h>
#include <libxml/xmlerror.h>
#include <libxslt/security.h>
#include <libxslt/xsltutils.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "suites.h"
#include "write.h"
#include "xaif_fixture.h"
#include "scratch_dir.h"

static const char small[] = XAIF_HEAD XAIF_SCOPES XAIF_MAPS XAIF_CFG_OPEN
    "    <xaif:Entry vertex_id=\"1\"/>\n"
    "    <xaif:Exit vertex_id=\"2\"/>\n"
    "    <xaif:ControlFlowEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n" XAIF_TAIL;

/* argv strings for getopt, which takes them as char * */
#define A(s) ((char *)(s))

#define XSL_OPEN                                                                                   \
    "<?xml version=\"1.0\"?>\n"                                                                    \
    "<xsl:stylesheet version=\"1.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\">\n"

/* A folder of its own for each test: stylesheets and outputs. */
static void
setup(void)
{
    scratch_make("output");
}

static void
teardown(void)
{
    scratch_remove();
}

/* The files in the folder. */
static int
entries(void)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

/* @text into the folder's file @name; its path in @path. */
static const char *
put(char *path, size_t cap, const char *name, const char *text)
{
    snprintf(path, cap, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* The content of @path (malloc'd), or NULL when it does not exist. */
static char *
slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = calloc(1, 1 << 16);
    size_t n = fread(s, 1, (1 << 16) - 1, f);
    s[n] = 0;
    fclose(f);
    return s;
}

/* ------------------------------------------------------------ options */

static int
parse(int argc, char **argv, xf_output_opts *o, const char **why)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, XF_OUTPUT_LONG_OPTIONS, {0}};
    int c;
    *why = NULL;
    optind = 0; /* glibc: start afresh */
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1)
        if (c == XF_OPT_XSLT || c == XF_OPT_PARAM) {
            if ((*why = xf_output_option(o, c, argc, argv)))
                return -1;
        }
    return optind;
}

START_TEST(options_in_order_values_as_given)
{
    char *argv[] = {A("copy"),  A("in.xaif"),    A("--xslt"), A("a.xsl"),    A("--param"),
                    A("p"),     A("it's \"x\""), A("-o"),     A("out.xaif"), A("--xslt"),
                    A("b.xsl"), A("--param"),    A("q"),      A("-v"),       A("--param"),
                    A("p"),     A("last"),       NULL};
    int argc = (int)(sizeof argv / sizeof *argv) - 1;
    xf_output_opts o = {0};
    const char *why;
    int first = parse(argc, argv, &o, &why);
    ck_assert_ptr_null(why);
    /* the input file is the one argument left, after getopt's permutation */
    ck_assert_int_eq(first, argc - 1);
    ck_assert_str_eq(argv[first], "in.xaif");
    ck_assert_uint_eq(o.nstyles, 2);
    ck_assert_str_eq(o.styles[0], "a.xsl");
    ck_assert_str_eq(o.styles[1], "b.xsl");
    ck_assert_uint_eq(o.nparams, 2);
    ck_assert_str_eq(o.params[0], "p");
    ck_assert_str_eq(o.params[1], "last"); /* a repeated name: the last value counts */
    ck_assert_str_eq(o.params[2], "q");
    ck_assert_str_eq(o.params[3], "-v"); /* a value may start with a dash */
    ck_assert_ptr_null(o.params[4]);
}
END_TEST

START_TEST(option_errors)
{
    xf_output_opts o = {0};
    const char *why;
    char *a1[] = {A("copy"), A("in.xaif"), A("--param"), A("p"), NULL};
    ck_assert_int_eq(parse(4, a1, &o, &why), -1);
    ck_assert_str_eq(why, "--param p needs a value: --param NAME VALUE");
    char *a2[] = {A("copy"), A("--param"), A("a b"), A("v"), NULL};
    ck_assert_int_eq(parse(4, a2, &o, &why), -1);
    ck_assert_str_eq(why, "--param: 'a b' is not a parameter name");
    char *a3[] = {A("copy"), A("--xslt"), A(""), NULL};
    ck_assert_int_eq(parse(3, a3, &o, &why), -1);
    ck_assert_str_eq(why, "--xslt needs a stylesheet file");
    ck_assert_str_eq(xf_output_option(&o, 'o', 0, NULL), "unknown option");
    xf_output_opts many = {0};
    char *a4[] = {A("copy"), A("--xslt"), A("s.xsl"), NULL};
    for (int i = 0; i < XF_OUTPUT_MAX_STYLES; i++)
        ck_assert_int_eq(parse(3, a4, &many, &why), 3);
    ck_assert_int_eq(parse(3, a4, &many, &why), -1);
    ck_assert_str_eq(why, "at most 32 --xslt options");
}
END_TEST

/* ------------------------------------------------------------ writing */

START_TEST(no_stylesheet_is_xf_write_file)
{
    xf_diag *d;
    xf_doc *doc = read_text(small, &d);
    ck_assert_ptr_nonnull(doc);
    char p1[400], p2[400];
    snprintf(p1, sizeof p1, "%s/a.xaif", dir);
    snprintf(p2, sizeof p2, "%s/b.xaif", dir);
    xf_output_opts o = {0};
    o.params[0] = "p";
    o.params[1] = "v";
    o.nparams = 1; /* parameters alone change nothing */
    ck_assert_int_eq(xf_output_write(doc, p1, &o, d), 0);
    ck_assert_int_eq(xf_output_write(doc, p2, NULL, d), 0);
    char *a = slurp(p1), *b = slurp(p2), *mem;
    size_t len;
    ck_assert_int_eq(xf_write_memory(doc, &mem, &len, d), 0);
    ck_assert_str_eq(a, mem);
    ck_assert_str_eq(b, mem);
    free(a);
    free(b);
    free(mem);
    ck_assert_uint_eq(xf_diag_count(d), 0);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

START_TEST(applies_in_order_with_string_params)
{
    char s1[400], s2[400], out[400];
    /* a: the program name and the parameter, as attributes of <a> */
    put(s1, sizeof s1, "a.xsl",
        XSL_OPEN
        "<xsl:param name=\"v\"/>\n"
        "<xsl:template match=\"/\"><a n=\"{/*/@program_name}\" v=\"{$v}\"/></xsl:template>\n"
        "</xsl:stylesheet>\n");
    /* b: <a> wrapped in <b>, output settings of its own (indent="no": no final newline) */
    put(s2, sizeof s2, "b.xsl",
        XSL_OPEN "<xsl:output method=\"xml\" encoding=\"UTF-8\" indent=\"no\"/>\n"
                 "<xsl:template match=\"/\"><b><xsl:copy-of select=\"*\"/></b></xsl:template>\n"
                 "</xsl:stylesheet>\n");
    snprintf(out, sizeof out, "%s/out.xml", dir);
    xf_diag *d;
    xf_doc *doc = read_text(small, &d);
    xf_output_opts o = {.styles = {s1, s2}, .nstyles = 2};
    o.params[0] = "v";
    o.params[1] = "it's \"quoted\" & <raw>";
    o.nparams = 1;
    ck_assert_int_eq(xf_output_write(doc, out, &o, d), 0);
    char *got = slurp(out);
    ck_assert_str_eq(got, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                          "<b><a n=\"p\" v=\"it's &quot;quoted&quot; &amp; &lt;raw&gt;\"/></b>");
    free(got);
    /* the other order */
    o.styles[0] = s2;
    o.styles[1] = s1;
    ck_assert_int_eq(xf_output_write(doc, out, &o, d), 0);
    got = slurp(out);
    ck_assert_str_eq(got, "<?xml version=\"1.0\"?>\n"
                          "<a n=\"\" v=\"it's &quot;quoted&quot; &amp; &lt;raw&gt;\"/>\n");
    free(got);
    ck_assert_uint_eq(xf_diag_count(d), 0);
    ck_assert_int_eq(entries(), 3); /* a.xsl, b.xsl, out.xml: no temporary file */
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

/* Compiled once, used for two documents, released twice safely. */
START_TEST(compile_once_for_many)
{
    char s[400], out[400];
    put(s, sizeof s, "n.xsl",
        XSL_OPEN "<xsl:output omit-xml-declaration=\"yes\"/>\n"
                 "<xsl:template match=\"/\"><n><xsl:value-of select=\"count(//*)\"/></n>"
                 "</xsl:template>\n</xsl:stylesheet>\n");
    snprintf(out, sizeof out, "%s/out.xml", dir);
    xf_diag *d;
    xf_doc *doc = read_text(small, &d);
    xf_output_opts none = {0};
    ck_assert_int_eq(xf_output_compile(&none, d), 0);
    ck_assert_ptr_null(none.compiled);
    xf_output_opts o = {.styles = {s}, .nstyles = 1};
    ck_assert_int_eq(xf_output_compile(&o, d), 0);
    ck_assert_ptr_nonnull(o.compiled);
    ck_assert_int_eq(xf_output_write(doc, out, &o, d), 0);
    char *got = slurp(out);
    ck_assert_str_eq(got, "<n>22</n>\n");
    free(got);
    static const char empty[] = XAIF_HEAD "  <xaif:ScopeHierarchy/>\n</xaif:CallGraph>\n";
    xf_doc *doc2 = xf_read_memory(empty, strlen(empty), "t2.xaif", NULL, d);
    ck_assert_ptr_nonnull(doc2);
    ck_assert_int_eq(xf_output_write(doc2, out, &o, d), 0);
    got = slurp(out);
    ck_assert_str_eq(got, "<n>2</n>\n");
    free(got);
    xf_output_fini(&o);
    ck_assert_ptr_null(o.compiled);
    xf_output_fini(&o);
    xf_doc_free(doc2);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

/* ------------------------------------------------------------ errors */

/* Run stylesheet @text over the small document into out.xaif; -1 expected. */
static xf_diag *
fails(const char *text, char *style, size_t cap)
{
    put(style, cap, "s.xsl", text);
    char out[400];
    snprintf(out, sizeof out, "%s/out.xaif", dir);
    xf_diag *d;
    xf_doc *doc = read_text(small, &d);
    xf_output_opts o = {.styles = {style}, .nstyles = 1};
    ck_assert_int_eq(xf_output_write(doc, out, &o, d), -1);
    ck_assert_int_eq(access(out, F_OK), -1); /* no output */
    ck_assert_int_eq(entries(), 1);          /* s.xsl alone: no temporary file */
    xf_doc_free(doc);
    return d;
}

START_TEST(terminate_names_file_and_line)
{
    char style[400], want[600];
    xf_diag *d =
        fails(XSL_OPEN "<xsl:template match=\"/\">\n"
                       "  <xsl:message>first <xsl:value-of select=\"1+1\"/></xsl:message>\n"
                       "  <xsl:message terminate=\"yes\">stop</xsl:message>\n"
                       "</xsl:template>\n</xsl:stylesheet>\n",
              style, sizeof style);
    ck_assert_uint_eq(xf_diag_count(d), 2);
    snprintf(want, sizeof want, "%s:4: note: first 2", style);
    ck_assert_str_eq(xf_diag_message(d, 0), want);
    snprintf(want, sizeof want, "%s:5: error: stop", style);
    ck_assert_str_eq(xf_diag_message(d, 1), want);
    ck_assert_uint_eq(xf_diag_errors(d), 1);
    xf_diag_free(d);
}
END_TEST

START_TEST(malformed_and_missing)
{
    char style[400], want[600];
    xf_diag *d =
        fails(XSL_OPEN "<xsl:template match=\"/\">\n</xsl:stylesheet>\n", style, sizeof style);
    snprintf(want, sizeof want, "%s:4: error: Opening and ending tag mismatch", style);
    ck_assert_msg(strncmp(first_message(d), want, strlen(want)) == 0, "%s", first_message(d));
    xf_diag_free(d);

    d = xf_diag_new(NULL);
    xf_doc *doc = xf_read_memory(small, strlen(small), "t.xaif", NULL, d);
    char out[400];
    snprintf(out, sizeof out, "%s/out.xaif", dir);
    xf_output_opts o = {.styles = {"/nonexistent/s.xsl"}, .nstyles = 1};
    ck_assert_int_eq(xf_output_write(doc, out, &o, d), -1);
    ck_assert_str_eq(first_message(d),
                     "/nonexistent/s.xsl: error: cannot open the stylesheet: No such file or "
                     "directory");
    ck_assert_int_eq(access(out, F_OK), -1);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

START_TEST(xpath_errors)
{
    char style[400], want[600];
    /* does not compile: line 3 */
    xf_diag *d = fails(XSL_OPEN "<xsl:template match=\"/\"><xsl:value-of select=\"1 +\"/>"
                                "</xsl:template>\n</xsl:stylesheet>\n",
                       style, sizeof style);
    snprintf(want, sizeof want, "%s:3: error: ", style);
    ck_assert_uint_ge(xf_diag_count(d), 1);
    for (size_t i = 0; i < xf_diag_count(d); i++)
        ck_assert_msg(strncmp(xf_diag_message(d, i), want, strlen(want)) == 0, "%s",
                      xf_diag_message(d, i));
    xf_diag_free(d);
    /* fails when run: line 4 */
    d = fails(XSL_OPEN "<xsl:template match=\"/\">\n"
                       "<x><xsl:value-of select=\"no-such(1)\"/></x>\n"
                       "</xsl:template>\n</xsl:stylesheet>\n",
              style, sizeof style);
    snprintf(want, sizeof want, "%s:4: error: ", style);
    ck_assert_uint_ge(xf_diag_count(d), 1);
    for (size_t i = 0; i < xf_diag_count(d); i++)
        ck_assert_msg(strncmp(xf_diag_message(d, i), want, strlen(want)) == 0, "%s",
                      xf_diag_message(d, i));
    xf_diag_free(d);
}
END_TEST

START_TEST(may_not_write_files)
{
    char style[400], target[400], text[1200], want[900];
    snprintf(target, sizeof target, "%s/written.txt", dir);
    snprintf(text, sizeof text,
             "<?xml version=\"1.0\"?>\n"
             "<xsl:stylesheet version=\"1.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"\n"
             "  xmlns:exsl=\"http://exslt.org/common\" extension-element-prefixes=\"exsl\">\n"
             "<xsl:template match=\"/\">\n"
             "  <exsl:document href=\"%s\" method=\"text\">x</exsl:document><r/>\n"
             "</xsl:template>\n</xsl:stylesheet>\n",
             target);
    xf_diag *d = fails(text, style, sizeof style);
    snprintf(want, sizeof want, "%s:5: error: File write for %s refused", style, target);
    ck_assert_str_eq(first_message(d), want);
    ck_assert_int_eq(access(target, F_OK), -1);
    xf_diag_free(d);
}
END_TEST

static void
my_generic(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static void
my_structured(void *ctx, xmlErrorPtr e)
{
    (void)ctx;
    (void)e;
}

/* The caller's libxml2 and libxslt handlers are in force again afterwards. */
START_TEST(handlers_put_back)
{
    static int marker;
    xmlSetStructuredErrorFunc(&marker, my_structured);
    xmlSetGenericErrorFunc(&marker, my_generic);
    xsltSetGenericErrorFunc(&marker, my_generic);
    xsltSecurityPrefsPtr before = xsltGetDefaultSecurityPrefs();
    char style[400];
    xf_diag *d = fails(XSL_OPEN "<xsl:template match=\"/\"><xsl:message terminate=\"yes\">x"
                                "</xsl:message></xsl:template>\n</xsl:stylesheet>\n",
                       style, sizeof style);
    ck_assert_uint_eq(xf_diag_count(d), 1);
    ck_assert(xmlStructuredError == my_structured);
    ck_assert_ptr_eq(xmlStructuredErrorContext, &marker);
    ck_assert(xmlGenericError == my_generic);
    ck_assert_ptr_eq(xmlGenericErrorContext, &marker);
    ck_assert(xsltGenericError == my_generic);
    ck_assert_ptr_eq(xsltGenericErrorContext, &marker);
    ck_assert_ptr_eq(xsltGetDefaultSecurityPrefs(), before);
    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlSetGenericErrorFunc(NULL, NULL);
    xsltSetGenericErrorFunc(NULL, NULL);
    xf_diag_free(d);
}
END_TEST

START_TEST(unwritable_target)
{
    char s[400], out[400];
    put(s, sizeof s, "id.xsl",
        XSL_OPEN "<xsl:template match=\"/\"><xsl:copy-of select=\".\"/></xsl:template>\n"
                 "</xsl:stylesheet>\n");
    snprintf(out, sizeof out, "%s/no/such/out.xaif", dir);
    xf_diag *d;
    xf_doc *doc = read_text(small, &d);
    xf_output_opts o = {.styles = {s}, .nstyles = 1};
    ck_assert_int_eq(xf_output_write(doc, out, &o, d), -1);
    ck_assert_ptr_nonnull(strstr(first_message(d), "cannot create a temporary file"));
    ck_assert_int_eq(entries(), 1);
    xf_doc_free(doc);
    xf_diag_free(d);
}
END_TEST

Suite *
test_output_suite(void)
{
    Suite *s = suite_create("output");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, options_in_order_values_as_given);
    tcase_add_test(tc, option_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("write");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, no_stylesheet_is_xf_write_file);
    tcase_add_test(tc, applies_in_order_with_string_params);
    tcase_add_test(tc, compile_once_for_many);
    tcase_add_test(tc, unwritable_target);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, terminate_names_file_and_line);
    tcase_add_test(tc, malformed_and_missing);
    tcase_add_test(tc, xpath_errors);
    tcase_add_test(tc, may_not_write_files);
    tcase_add_test(tc, handlers_put_back);
    suite_add_tcase(s, tc);
    return s;
}
