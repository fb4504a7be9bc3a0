/* output.c: see output.h. The XSLT stage: libxslt's messages collected
 * with their stylesheet locations, the stylesheets compiled and applied in
 * order, the result written through a temporary file. */
#include "output.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "dl_xslt.h"
#include "outfile.h"
#include "write.h"

struct xf_output_compiled {
    xsltStylesheetPtr style[XF_OUTPUT_MAX_STYLES];
    size_t n;
    xsltSecurityPrefsPtr sec; /* what the stylesheets may do */
};

/* ------------------------------------------------------------ options */

XF_PRINTF(2, 3)
static const char *
why(xf_output_opts *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->why, sizeof o->why, fmt, ap);
    va_end(ap);
    return o->why;
}

const char *
xf_output_option(xf_output_opts *o, int c, int argc, char **argv)
{
    if (c == XF_OPT_XSLT) {
        if (!*optarg)
            return why(o, "--xslt needs a stylesheet file");
        if (o->nstyles == XF_OUTPUT_MAX_STYLES)
            return why(o, "at most %d --xslt options", XF_OUTPUT_MAX_STYLES);
        o->styles[o->nstyles++] = optarg;
        return NULL;
    }
    if (c != XF_OPT_PARAM)
        return why(o, "unknown option");
    const char *name = optarg;
    if (optind >= argc)
        return why(o, "--param %s needs a value: --param NAME VALUE", name);
    if (xmlValidateQName((const xmlChar *)name, 0) != 0)
        return why(o, "--param: '%s' is not a parameter name", name);
    const char *value = argv[optind++];
    for (size_t i = 0; i < o->nparams; i++)
        if (strcmp(o->params[2 * i], name) == 0) {
            o->params[2 * i + 1] = value; /* the last one counts */
            return NULL;
        }
    if (o->nparams == XF_OUTPUT_MAX_PARAMS)
        return why(o, "at most %d --param options", XF_OUTPUT_MAX_PARAMS);
    o->params[2 * o->nparams] = name;
    o->params[2 * o->nparams + 1] = value;
    o->nparams++;
    o->params[2 * o->nparams] = NULL;
    return NULL;
}

/* ------------------------------------------------------------ messages
 *
 * libxml2 reports through its structured handler (parse errors with file
 * and line; XPath errors without). libxslt reports through a printf-like
 * function, in pieces: a context line "compilation error: file F line N
 * element E" (or "runtime error: ...") and then the message, or for
 * xsl:message the text alone. A message takes the location of the context
 * line before it; at run time, else the instruction being executed; at
 * compile time, else the next context line. Messages are kept until the
 * step ends: errors if it failed, warnings if not; xsl:message without
 * terminate="yes" gives notes. */

enum { KEEP = 64, TEXT = 600, FILE_MAX = 400 };

typedef struct msg {
    char text[TEXT];
    char file[FILE_MAX];
    unsigned long line;
    bool located;
    xf_severity sev; /* XF_NOTE, XF_WARNING, or XF_ERROR: decided by the outcome */
} msg;

typedef struct sink {
    const char *style;            /* the stylesheet at work, as the user named it */
    const char *style_url;        /* ... and as libxml2 recorded it (or NULL) */
    xsltTransformContextPtr ctxt; /* during a transformation */
    char part[TEXT];              /* libxslt's message in progress */
    size_t npart;
    const xmlNode *part_inst; /* the instruction running when it began */
    bool have_ctx;            /* a context line waits for its message */
    bool ctx_warning;         /* ... and says it is a warning */
    char ctx_file[FILE_MAX];
    unsigned long ctx_line;
    msg v[KEEP];
    size_t n, dropped;
} sink;

static void
copy_str(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

static msg *
add(sink *s, const char *text, xf_severity sev)
{
    if (s->n == KEEP) {
        s->dropped++;
        return NULL;
    }
    msg *m = &s->v[s->n++];
    memset(m, 0, sizeof *m);
    copy_str(m->text, sizeof m->text, text);
    size_t k = strlen(m->text);
    while (k && (m->text[k - 1] == '\n' || m->text[k - 1] == ' '))
        m->text[--k] = 0;
    m->sev = sev;
    return m;
}

static void
locate(msg *m, const char *file, unsigned long line)
{
    if (!m || !file)
        return;
    copy_str(m->file, sizeof m->file, file);
    m->line = line;
    m->located = true;
}

/* The instruction @inst as a location. */
static void
locate_node(msg *m, const xmlNode *inst)
{
    if (inst && inst->doc && inst->doc->URL)
        locate(m, (const char *)inst->doc->URL, (unsigned long)xmlGetLineNo(inst));
}

static bool
is_xsl(const xmlNode *n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && n->ns && xmlStrEqual(n->ns->href, XSLT_NAMESPACE) &&
           xmlStrEqual(n->name, (const xmlChar *)name);
}

/* The last occurrence of @pat in @s, or NULL. */
static const char *
last(const char *s, const char *pat)
{
    const char *found = NULL;
    for (const char *p = strstr(s, pat); p; p = strstr(p + 1, pat))
        found = p;
    return found;
}

/* libxslt's context line, "TYPE[: [file F][ line N][ element E]]" with TYPE
 * one of the four below: F and N into @s (file names may hold blanks, so
 * the line and element are found from the end). */
static bool
context_line(sink *s, const char *t)
{
    static const char *const types[] = {"runtime error", "compilation error", "compilation warning",
                                        "error"};
    const char *rest = NULL;
    for (size_t i = 0; i < sizeof types / sizeof *types && !rest; i++) {
        size_t n = strlen(types[i]);
        if (strncmp(t, types[i], n) == 0 && (t[n] == 0 || t[n] == '\n' || t[n] == ':'))
            rest = t + n;
    }
    if (!rest)
        return false;
    s->ctx_warning = strncmp(t, "compilation warning", 19) == 0;
    if (strncmp(rest, ": file ", 7) != 0)
        return true; /* no file: nothing to locate by */
    rest += 7;
    size_t n = strcspn(rest, "\n");
    const char *e = last(rest, " element ");
    if (e && (size_t)(e - rest) < n)
        n = (size_t)(e - rest);
    unsigned long line = 0;
    const char *l = last(rest, " line ");
    if (l && (size_t)(l - rest) < n && l[6] >= '0' && l[6] <= '9') {
        line = strtoul(l + 6, NULL, 10);
        n = (size_t)(l - rest);
    }
    if (n >= sizeof s->ctx_file)
        n = sizeof s->ctx_file - 1;
    memcpy(s->ctx_file, rest, n);
    s->ctx_file[n] = 0;
    s->ctx_line = line;
    s->have_ctx = true;
    /* compile-time messages that came before it belong to it */
    for (size_t i = 0; i < s->n; i++)
        if (!s->v[i].located)
            locate(&s->v[i], s->ctx_file, s->ctx_line);
    return true;
}

static void
finish_part(sink *s)
{
    const char *t = s->part;
    s->npart = 0;
    const xmlNode *inst = s->part_inst;
    s->part_inst = NULL;
    while (*t == '\n' || *t == ' ')
        t++;
    if (!*t || context_line(s, t))
        return;
    xf_severity sev = s->ctx_warning ? XF_WARNING : XF_ERROR;
    s->ctx_warning = false;
    if (is_xsl(inst, "message")) {
        xmlChar *term = xmlGetNsProp((xmlNodePtr)inst, (const xmlChar *)"terminate", NULL);
        if (!term || !xmlStrEqual(term, (const xmlChar *)"yes"))
            sev = XF_NOTE;
        xmlFree(term);
    }
    msg *m = add(s, t, sev);
    if (s->have_ctx) {
        locate(m, s->ctx_file, s->ctx_line);
        s->have_ctx = false;
    } else
        locate_node(m, inst);
}

/* libxslt's (and libxml2's generic) printf-like handler: pieces of messages. */
XF_PRINTF(2, 3)
static void
on_generic(void *ctx, const char *fmt, ...)
{
    sink *s = ctx;
    if (s->npart == 0)
        s->part_inst = s->ctxt ? s->ctxt->inst : NULL;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(s->part + s->npart, sizeof s->part - s->npart, fmt, ap);
    va_end(ap);
    if (k > 0)
        s->npart += (size_t)k;
    if (s->npart >= sizeof s->part)
        s->npart = sizeof s->part - 1;
    if (s->npart && s->part[s->npart - 1] == '\n')
        finish_part(s);
}

/* libxml2's structured handler: one whole message. */
static void
on_structured(void *ctx, xmlErrorPtr e)
{
    sink *s = ctx;
    if (!e || !e->message)
        return;
    char text[TEXT];
    if (e->domain == XML_FROM_XPATH && e->str1)
        snprintf(text, sizeof text, "XPath: %.*s in '%s'", (int)strcspn(e->message, "\n"),
                 e->message, e->str1);
    else
        copy_str(text, sizeof text, e->message);
    msg *m = add(s, text, e->level == XML_ERR_WARNING ? XF_WARNING : XF_ERROR);
    if (e->file && e->line > 0)
        locate(m, e->file, (unsigned long)e->line);
    else if (s->ctxt)
        locate_node(m, s->ctxt->inst);
}

/* Report what @s kept, as errors if the step failed (then at least one: @what
 * when there was none, unless NULL), and forget it. */
static void
flush(sink *s, xf_diag *d, bool failed, const char *what)
{
    if (s->npart) {
        s->part[s->npart] = 0;
        finish_part(s);
    }
    size_t errors = xf_diag_errors(d);
    for (size_t i = 0; i < s->n; i++) {
        const msg *m = &s->v[i];
        xf_severity sev = m->sev == XF_ERROR && !failed ? XF_WARNING : m->sev;
        const char *file = m->located ? m->file : s->style;
        if (s->style_url && strcmp(file, s->style_url) == 0)
            file = s->style;
        xf_diag_report(d, sev, file, m->located ? m->line : 0, "%s", m->text);
    }
    if (s->dropped)
        xf_diag_report(d, failed ? XF_ERROR : XF_WARNING, s->style, 0, "%zu more messages",
                       s->dropped);
    if (failed && what && xf_diag_errors(d) == errors)
        xf_error(d, s->style, 0, "%s", what);
    s->n = s->dropped = 0;
    s->have_ctx = false;
}

/* ------------------------------------------------------------ handlers
 *
 * libxml2's handlers are per thread; libxslt's generic handler and default
 * security preferences are per process. All are set for one call and put
 * back as they were. */

typedef struct saved {
    xmlGenericErrorFunc xml_generic;
    void *xml_generic_ctx;
    xmlStructuredErrorFunc xml_structured;
    void *xml_structured_ctx;
    xmlGenericErrorFunc xslt_generic;
    void *xslt_generic_ctx;
    xsltSecurityPrefsPtr sec;
} saved;

static void
install(sink *s, saved *sv, xsltSecurityPrefsPtr sec)
{
    sv->xml_generic = xmlGenericError;
    sv->xml_generic_ctx = xmlGenericErrorContext;
    sv->xml_structured = xmlStructuredError;
    sv->xml_structured_ctx = xmlStructuredErrorContext;
    sv->xslt_generic = *xf_xslt()->xsltGenericError;
    sv->xslt_generic_ctx = *xf_xslt()->xsltGenericErrorContext;
    sv->sec = xf_xslt()->xsltGetDefaultSecurityPrefs();
    xmlSetGenericErrorFunc(s, on_generic);
    xmlSetStructuredErrorFunc(s, on_structured);
    xf_xslt()->xsltSetGenericErrorFunc(s, on_generic);
    xf_xslt()->xsltSetDefaultSecurityPrefs(sec); /* for xsl:import and xsl:include */
}

static void
restore(const saved *sv)
{
    xmlSetGenericErrorFunc(sv->xml_generic_ctx, sv->xml_generic);
    xmlSetStructuredErrorFunc(sv->xml_structured_ctx, sv->xml_structured);
    xf_xslt()->xsltSetGenericErrorFunc(sv->xslt_generic_ctx, sv->xslt_generic);
    xf_xslt()->xsltSetDefaultSecurityPrefs(sv->sec);
}

/* ------------------------------------------------------------ compiling */

/* No writing files, no new folders, no network. */
static xsltSecurityPrefsPtr
new_security(void)
{
    const xf_xslt_api *x = xf_xslt();
    xsltSecurityPrefsPtr sec = x->xsltNewSecurityPrefs();
    if (sec &&
        (x->xsltSetSecurityPrefs(sec, XSLT_SECPREF_WRITE_FILE, x->xsltSecurityForbid) != 0 ||
         x->xsltSetSecurityPrefs(sec, XSLT_SECPREF_CREATE_DIRECTORY, x->xsltSecurityForbid) != 0 ||
         x->xsltSetSecurityPrefs(sec, XSLT_SECPREF_READ_NETWORK, x->xsltSecurityForbid) != 0 ||
         x->xsltSetSecurityPrefs(sec, XSLT_SECPREF_WRITE_NETWORK, x->xsltSecurityForbid) != 0)) {
        x->xsltFreeSecurityPrefs(sec);
        sec = NULL;
    }
    return sec;
}

static void
free_compiled(xf_output_compiled *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        xf_xslt()->xsltFreeStylesheet(c->style[i]);
    if (c->sec)
        xf_xslt()->xsltFreeSecurityPrefs(c->sec);
    free(c);
}

static xsltStylesheetPtr
compile_one(sink *s, const char *path, xf_diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        xf_error(d, path, 0, "cannot open the stylesheet: %s", strerror(errno));
        return NULL;
    }
    fclose(f);
    s->style = path;
    s->style_url = NULL;
    xmlDocPtr doc = xmlReadFile(path, NULL, XSLT_PARSE_OPTIONS | XML_PARSE_NONET);
    if (!doc) {
        flush(s, d, true, "cannot read the stylesheet");
        return NULL;
    }
    s->style_url = (const char *)doc->URL;
    xsltStylesheetPtr st = xf_xslt()->xsltParseStylesheetDoc(doc); /* owns doc when it succeeds */
    flush(s, d, !st, "not an XSLT stylesheet");
    s->style_url = NULL;
    if (!st)
        xmlFreeDoc(doc);
    return st;
}

/* Compile @o's stylesheets into a new *@out. */
static int
compile_all(const xf_output_opts *o, xf_output_compiled **out, xf_diag *d)
{
    *out = NULL;
    if (!xf_xslt_load(d)) /* libxslt is opened at its first use */
        return -1;
    xf_output_compiled *c = calloc(1, sizeof *c);
    sink *s = calloc(1, sizeof *s);
    if (c)
        c->sec = new_security();
    if (!c || !s || !c->sec) {
        xf_error(d, NULL, 0, "out of memory");
        free_compiled(c);
        free(s);
        return -1;
    }
    xf_xslt()->exsltRegisterAll(); /* EXSLT, as xsltproc offers it */
    saved sv;
    install(s, &sv, c->sec);
    int ret = 0;
    for (size_t i = 0; i < o->nstyles && ret == 0; i++) {
        c->style[i] = compile_one(s, o->styles[i], d);
        if (c->style[i])
            c->n++;
        else
            ret = -1;
    }
    restore(&sv);
    free(s);
    if (ret != 0)
        free_compiled(c);
    else
        *out = c;
    return ret;
}

int
xf_output_compile(xf_output_opts *o, xf_diag *d)
{
    if (o->compiled || o->nstyles == 0)
        return 0;
    return compile_all(o, &o->compiled, d);
}

void
xf_output_fini(xf_output_opts *o)
{
    free_compiled(o->compiled);
    o->compiled = NULL;
}

/* ------------------------------------------------------------ transforming */

/* @in through stylesheet @st: the result, or NULL after reporting. */
static xmlDocPtr
apply(sink *s, const char *path, xsltStylesheetPtr st, xmlDocPtr in, const char *const *params,
      xsltSecurityPrefsPtr sec, xf_diag *d)
{
    xsltTransformContextPtr ctxt = xf_xslt()->xsltNewTransformContext(st, in);
    if (!ctxt) {
        xf_error(d, path, 0, "out of memory");
        return NULL;
    }
    xf_xslt()->xsltSetCtxtParseOptions(ctxt, XSLT_PARSE_OPTIONS | XML_PARSE_NONET);
    xf_xslt()->xsltSetCtxtSecurityPrefs(sec, ctxt);
    xf_xslt()->xsltSetTransformErrorFunc(ctxt, s, on_generic);
    s->ctxt = ctxt;
    s->style = path;
    s->style_url = st->doc ? (const char *)st->doc->URL : NULL;
    xmlDocPtr res = NULL;
    /* the values become string literals: no XPath quoting */
    if (!params[0] || xf_xslt()->xsltQuoteUserParams(ctxt, (const char **)params) == 0)
        res = xf_xslt()->xsltApplyStylesheetUser(st, in, NULL, NULL, NULL, ctxt);
    bool failed = !res || ctxt->state != XSLT_STATE_OK;
    flush(s, d, failed, "the transformation failed");
    s->ctxt = NULL;
    s->style_url = NULL;
    xf_xslt()->xsltFreeTransformContext(ctxt);
    if (failed) {
        xmlFreeDoc(res);
        return NULL;
    }
    return res;
}

/* @res as @st's xsl:output says, to @fd (@path's, for messages). */
static int
save(xmlDocPtr res, xsltStylesheetPtr st, int fd, const char *path, xf_diag *d)
{
    if (fd == STDOUT_FILENO)
        fflush(stdout);
    errno = 0;
    if (xf_xslt()->xsltSaveResultToFd(fd, res, st) < 0) {
        xf_error(d, path, 0, "cannot write: %s", errno ? strerror(errno) : "output error");
        return -1;
    }
    return 0;
}

/* @doc through the compiled stylesheets @c, written to @fd (@path's). */
static int
transform(const xf_doc *doc, int fd, const char *path, const xf_output_opts *o,
          const xf_output_compiled *c, xf_diag *d)
{
    char *buf;
    size_t len;
    if (xf_write_memory(doc, &buf, &len, d) != 0)
        return -1;
    sink *s = calloc(1, sizeof *s);
    if (!s || len > (size_t)INT_MAX) {
        xf_error(d, path, 0, s ? "the document is too large for libxml2" : "out of memory");
        free(buf);
        free(s);
        return -1;
    }
    saved sv;
    install(s, &sv, c->sec);
    s->style = path;
    xmlDocPtr cur = xmlReadMemory(buf, (int)len, path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
    free(buf);
    if (!cur) /* our own output: a bug if it does not parse */
        flush(s, d, true, "cannot parse the document for XSLT");
    static const char *const none[] = {NULL};
    const char *const *params = o->nparams ? o->params : none;
    for (size_t i = 0; cur && i < c->n; i++) {
        xmlDocPtr next = apply(s, o->styles[i], c->style[i], cur, params, c->sec, d);
        xmlFreeDoc(cur);
        cur = next;
    }
    int ret = -1;
    if (cur)
        ret = save(cur, c->style[c->n - 1], fd, path, d);
    s->style = path;
    flush(s, d, ret != 0, NULL); /* anything the serializer said */
    restore(&sv);
    xmlFreeDoc(cur);
    free(s);
    return ret;
}

/* @doc through the stylesheets to @path: the output file is opened (the
 * temporary file made) before the stylesheets run, and renamed into place
 * when they succeeded. */
static int
transform_to(const xf_doc *doc, const char *path, const xf_output_opts *o,
             const xf_output_compiled *c, xf_diag *d)
{
    if (strcmp(path, "-") == 0)
        return transform(doc, STDOUT_FILENO, "<stdout>", o, c, d);
    /* the stylesheets are inputs too (the document's file is checked by
     * xf_outfile_open) */
    for (size_t i = 0; i < o->nstyles; i++)
        if (xf_outfile_same(path, o->styles[i])) {
            xf_error(d, path, 0, "the output is the input file %s; it is not overwritten",
                     o->styles[i]);
            return -1;
        }
    xf_outfile f;
    char why[300];
    if (xf_outfile_open(&f, path, doc->filename, why, sizeof why) != 0) {
        xf_error(d, path, 0, "%s", why);
        return -1;
    }
    int ret = transform(doc, f.fd, path, o, c, d);
    if (close(f.fd) != 0 && ret == 0) {
        xf_error(d, path, 0, "cannot write: %s", strerror(errno));
        ret = -1;
    }
    if (xf_outfile_finish(&f, ret == 0, why, sizeof why) != 0 && ret == 0) {
        xf_error(d, path, 0, "%s", why);
        ret = -1;
    }
    return ret;
}

int
xf_output_write(const xf_doc *doc, const char *path, const xf_output_opts *o, xf_diag *d)
{
    if (!o || o->nstyles == 0)
        return xf_write_file(doc, path, d);
    if (o->compiled)
        return transform_to(doc, path, o, o->compiled, d);
    xf_output_compiled *c;
    if (compile_all(o, &c, d) != 0)
        return -1;
    int ret = transform_to(doc, path, o, c, d);
    free_compiled(c);
    return ret;
}
