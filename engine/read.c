/* read.c: the reader's machinery (pull loop, attributes, foreign nodes,
 * errors) and the document root. Elements live in read_scope.c, read_cfg.c,
 * read_expr.c and read_cat.c. */
#include "read.h"

#include <errno.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "read_impl.h"
#include "strtab.h"

enum { MAX_DEPTH = 200 };

/* ------------------------------------------------------------ errors */

int
rd_err(rd *d, uint32_t line, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!d->failed)
        xf_error(d->diag, d->file, line, "%s", msg);
    d->failed = true;
    return -1;
}

int
rd_soft(rd *d, uint32_t line, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!d->lenient)
        return rd_err(d, line, "%s", msg);
    xf_warning(d->diag, d->file, line, "%s", msg);
    return 0;
}

int
rd_oom(rd *d)
{
    return rd_err(d, d->line, "out of memory");
}

/* A document cut short ends inside an element. libxml2's pull reader says
 * so only in terms of what broke at the end ("Couldn't find end of Start
 * Tag", an attribute without a value, or for a cut between tags "Extra
 * content at the end of the document"), so the message names the element
 * left open instead, as libxml2's own parser does: into @msg, or false
 * when @e is no error at the end of the input. */
static bool
cut_short(const rd *d, const xmlError *e, char *msg, size_t len)
{
    xmlParserCtxtPtr c = e->ctxt;
    if (e->domain != XML_FROM_PARSER || !c || c->nameNr <= 0 || !c->nameTab ||
        !c->nameTab[c->nameNr - 1])
        return false;
    /* the parser ran out of input (the push parser leaves trailing blanks),
     * not over an end tag of the wrong name */
    long used = xmlByteConsumed(c);
    if (e->code == XML_ERR_TAG_NAME_MISMATCH)
        return false;
    if (e->code != XML_ERR_DOCUMENT_END && (!d->size || used < 0 || (size_t)used < d->size))
        return false;
    const xmlChar *open = c->nameTab[c->nameNr - 1];
    long line = 0;
    /* the node being built is the open element or (a start tag cut
     * short) its child */
    xmlNodePtr n = c->node;
    for (int up = 0; n && up < 2 && !line; up++, n = n->parent)
        if (n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, open))
            line = xmlGetLineNo(n);
    if (line > 0)
        snprintf(msg, len, "Premature end of data in tag %s line %ld", (const char *)open, line);
    else
        snprintf(msg, len, "Premature end of data in tag %s", (const char *)open);
    return true;
}

static void
on_xml_error(void *arg, xmlErrorPtr e)
{
    rd *d = arg;
    if (!e)
        return;
    char msg[800];
    const char *text = e->message ? e->message : "malformed XML";
    /* libxml2 calls giving up on a too large input (over 10 MB in one
     * token) an "internal error"; here it is an input error */
    if (e->level != XML_ERR_WARNING && !d->failed && cut_short(d, e, msg, sizeof msg))
        ;
    else if (e->code == XML_ERR_INTERNAL_ERROR && strncmp(text, "internal error: ", 16) == 0)
        snprintf(msg, sizeof msg, "the XML parser gave up: %s", text + 16);
    else
        snprintf(msg, sizeof msg, "%s", text);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = 0;
    if (e->level == XML_ERR_WARNING) {
        xf_warning(d->diag, d->file, (unsigned long)(e->line > 0 ? e->line : 0), "%s", msg);
        return;
    }
    rd_err(d, e->line > 0 ? (uint32_t)e->line : 0, "%s", msg);
}

/* The reader failed (-1) or the document ended early (0). */
static int
read_failed(rd *d, int ret)
{
    if (d->failed)
        return -1;
    return rd_err(d, d->line, ret < 0 ? "malformed XML" : "document ends too early");
}

int
rd_unexpected(rd *d, const rdpar *p)
{
    return rd_err(d, d->line, "unexpected element <%s> in <%s>", xf_elem_name(d->el),
                  xf_elem_name(p->el));
}

/* ------------------------------------------------------------ strings */

static const char *
intern(rd *d, const xmlChar *s)
{
    return s ? xf_strtab_intern(d->doc->strs, (const char *)s, -1) : NULL;
}

const char *
rd_str(rd *d, const rdattr *a)
{
    const char *s = xf_strtab_intern(d->doc->strs, a->value, -1);
    if (!s)
        rd_oom(d);
    return s;
}

int
rd_bad_value(rd *d, const rdattr *a, const char *what)
{
    return rd_err(d, d->line, "attribute %s of <%s> is not %s: '%s'", (const char *)a->name,
                  xf_elem_name(d->el), what, a->value);
}

int
rd_int(rd *d, const rdattr *a, int64_t *out)
{
    const char *s = a->value;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    const char *digits = s + (*s == '+' || *s == '-');
    if (*digits < '0' || *digits > '9')
        return rd_bad_value(d, a, "an integer");
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
        end++;
    if (*end || errno == ERANGE || v == INT64_MIN)
        return rd_bad_value(d, a, "an integer");
    *out = (int64_t)v;
    return 0;
}

int
rd_flag(rd *d, const rdattr *a, xf_flag *out)
{
    if (!xf_flag_parse(a->value, out))
        return rd_bad_value(d, a, "a boolean");
    return 0;
}

/* ------------------------------------------------------------ attributes */

/* libxml2 without XML_PARSE_NOENT keeps each '&' of a namespace name as
 * "&#38;" (every '&' there starts one), though it gives attribute values as
 * written. The name with its '&'s back (in the scratch arena), @s itself when
 * it has none, NULL when out of memory. */
static const xmlChar *
ns_name(rd *d, const xmlChar *s)
{
    if (!s || !strchr((const char *)s, '&'))
        return s;
    char *out = xf_arena_alloc(d->scratch, strlen((const char *)s) + 1);
    if (!out)
        return NULL;
    char *o = out;
    for (const char *p = (const char *)s; *p;)
        if (strncmp(p, "&#38;", 5) == 0) {
            *o++ = '&';
            p += 5;
        } else
            *o++ = *p++;
    *o = 0;
    return (const xmlChar *)out;
}

static xf_aname
attr_id(rd *d, const xmlChar *name)
{
    void *v = xf_map_get(&d->attrmap, name);
    if (!v) {
        /* the parser may not have used its dictionary for this name */
        const xmlChar *n = xmlTextReaderConstString(d->r, name);
        v = n && n != name ? xf_map_get(&d->attrmap, n) : NULL;
    }
    return v ? (xf_aname)(uintptr_t)v : XF_AN_UNKNOWN;
}

int
rd_attr(rd *d, rdattr *a)
{
    int ret = xmlTextReaderMoveToNextAttribute(d->r);
    if (ret != 1) {
        xmlTextReaderMoveToElement(d->r);
        return ret < 0 ? read_failed(d, ret) : 0;
    }
    memset(a, 0, sizeof *a);
    a->nsdecl = xmlTextReaderIsNamespaceDecl(d->r) == 1;
    a->name = xmlTextReaderConstLocalName(d->r);
    a->prefix = xmlTextReaderConstPrefix(d->r);
    a->ns = a->nsdecl ? NULL : xmlTextReaderConstNamespaceUri(d->r);
    a->value = (const char *)xmlTextReaderConstValue(d->r);
    if (!a->name || !a->value)
        return rd_oom(d);
    if (a->nsdecl && !(a->value = (const char *)ns_name(d, BAD_CAST a->value)))
        return rd_oom(d);
    if (a->ns && !(a->ns = ns_name(d, a->ns)))
        return rd_oom(d);
    if (!a->nsdecl && !a->ns)
        a->id = attr_id(d, a->name);
    return 1;
}

static int
add_attr(rd *d, xf_attr_vec *v, const rdattr *a)
{
    xf_attr x = {0};
    if (a->nsdecl) {
        x.ns = XF_URI_XMLNS;
        /* the local name of a declaration is its prefix, "xmlns" for the default */
        x.name = a->prefix ? intern(d, a->name) : NULL;
    } else {
        x.ns = intern(d, a->ns);
        x.prefix = intern(d, a->prefix);
        x.name = intern(d, a->name);
        if (!x.name)
            return rd_oom(d);
    }
    x.value = rd_str(d, a);
    if (!x.value)
        return -1;
    return XF_VEC_PUSH(d->a, *v, x) ? 0 : rd_oom(d);
}

static xf_extra *
extra(rd *d, xf_hdr *h)
{
    if (!h->extra)
        h->extra = XF_NEW(d->a, xf_extra);
    return h->extra;
}

int
rd_keep_attr(rd *d, xf_hdr *h, const rdattr *a)
{
    if (a->nsdecl) {
        /* declarations on the root are kept in the document; the writer
         * declares what it uses, so others are dropped */
        if (h != &d->doc->cg.h && h != &d->doc->defs_h)
            return 0;
        xf_nsdecl ns = {a->prefix ? intern(d, a->name) : NULL, rd_str(d, a)};
        if (!ns.uri)
            return -1;
        return XF_VEC_PUSH(d->a, d->doc->ns, ns) ? 0 : rd_oom(d);
    }
    xf_extra *x = extra(d, h);
    if (!x)
        return rd_oom(d);
    return add_attr(d, &x->attrs, a);
}

int
rd_plain_attrs(rd *d, xf_hdr *h)
{
    return rd_attrs(d, XF_AL_PLAIN, h, h, NULL);
}

int
rd_deriv(rd *d, const char *attr, const char *value)
{
    if (d->doc->deriv.what)
        return 0;
    const char *detail = NULL;
    if (attr) {
        char buf[300];
        snprintf(buf, sizeof buf, "%s=\"%.200s\"", attr, value ? value : "");
        if (!(detail = xf_intern(d->doc, buf)))
            return rd_oom(d);
    }
    xf_doc_mark_deriv(d->doc, xf_elem_name(d->el), detail, d->line);
    return 0;
}

int
rd_empty_elem(rd *d, xf_hdr *h)
{
    rdpar p;
    int ret;
    rd_start(d, &p, h);
    while ((ret = rd_child(d, &p)) > 0)
        return rd_unexpected(d, &p);
    return ret;
}

int
rd_keep_named(rd *d, xf_hdr *h, const char *name, const char *value)
{
    if (!value)
        return 0;
    xf_extra *x = extra(d, h);
    xf_attr a = {.name = xf_intern(d->doc, name), .value = value};
    if (!x || !a.name || !XF_VEC_PUSH(d->a, x->attrs, a))
        return rd_oom(d);
    return 0;
}

/* ------------------------------------------------------------ children */

static uint32_t
node_line(rd *d)
{
    xmlNodePtr n = xmlTextReaderCurrentNode(d->r);
    long l = n ? xmlGetLineNo(n) : -1;
    if (l <= 0)
        l = xmlTextReaderGetParserLineNumber(d->r);
    return l > 0 && l <= (long)UINT32_MAX ? (uint32_t)l : 0;
}

void
rd_start(rd *d, rdpar *p, xf_hdr *h)
{
    p->h = h;
    p->el = d->el;
    p->nkids = 0;
    p->empty = xmlTextReaderIsEmptyElement(d->r) == 1;
    h->line = d->line;
}

static int read_xnode(rd *d, xf_xnode **out, int depth);

static int
simple_xnode(rd *d, xf_xkind kind, xf_xnode **out)
{
    xf_xnode *x = XF_NEW(d->a, xf_xnode);
    if (!x)
        return rd_oom(d);
    x->kind = kind;
    x->line = node_line(d);
    if (kind == XF_X_PI)
        x->name = intern(d, xmlTextReaderConstLocalName(d->r));
    x->text = intern(d, xmlTextReaderConstValue(d->r));
    if (!x->text)
        x->text = xf_intern(d->doc, "");
    *out = x;
    return x->text ? 0 : rd_oom(d);
}

static bool
blank(const xmlChar *s)
{
    for (; s && *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return false;
    return true;
}

/* Read an element outside the xaif vocabulary, with its subtree. */
static int
read_xnode(rd *d, xf_xnode **out, int depth)
{
    if (depth > MAX_DEPTH)
        return rd_err(d, node_line(d), "elements nested too deeply");
    xf_xnode *x = XF_NEW(d->a, xf_xnode);
    if (!x)
        return rd_oom(d);
    *out = x;
    x->kind = XF_X_ELEMENT;
    x->line = node_line(d);
    const xmlChar *uri = xmlTextReaderConstNamespaceUri(d->r);
    if (uri && !(uri = ns_name(d, uri)))
        return rd_oom(d);
    x->ns = intern(d, uri);
    x->prefix = intern(d, xmlTextReaderConstPrefix(d->r));
    x->name = intern(d, xmlTextReaderConstLocalName(d->r));
    if (!x->name)
        return rd_oom(d);
    bool empty = xmlTextReaderIsEmptyElement(d->r) == 1;
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0)
        if (add_attr(d, &x->attrs, &a))
            return -1;
    if (ret < 0 || empty)
        return ret;
    for (;;) {
        ret = xmlTextReaderRead(d->r);
        if (ret != 1)
            return read_failed(d, ret);
        xf_xnode *k = NULL;
        switch (xmlTextReaderNodeType(d->r)) {
        case XML_READER_TYPE_ELEMENT:
            ret = read_xnode(d, &k, depth + 1);
            break;
        case XML_READER_TYPE_END_ELEMENT:
            return 0;
        case XML_READER_TYPE_TEXT:
            if (blank(xmlTextReaderConstValue(d->r)))
                continue;
            ret = simple_xnode(d, XF_X_TEXT, &k);
            break;
        case XML_READER_TYPE_CDATA:
            ret = simple_xnode(d, XF_X_CDATA, &k);
            break;
        case XML_READER_TYPE_COMMENT:
            ret = simple_xnode(d, XF_X_COMMENT, &k);
            break;
        case XML_READER_TYPE_PROCESSING_INSTRUCTION:
            ret = simple_xnode(d, XF_X_PI, &k);
            break;
        default:
            continue;
        }
        if (ret)
            return -1;
        if (!XF_VEC_PUSH(d->a, x->kids, k))
            return rd_oom(d);
    }
}

static int
keep_child(rd *d, rdpar *p, xf_xnode *x)
{
    xf_extra *e = extra(d, p->h);
    xf_xchild c = {p->nkids, x};
    if (!e || !XF_VEC_PUSH(d->a, e->kids, c))
        return rd_oom(d);
    return 0;
}

/* Which modeled element the reader is on; -1 for a foreign namespace. */
static int
identify(rd *d, xf_elem *el)
{
    /* the element's namespace name as the node has it (the reader's
     * xmlTextReaderConstNamespaceUri would look it up in its dictionary) */
    xmlNodePtr node = xmlTextReaderCurrentNode(d->r);
    const char *uri = node && node->ns ? (const char *)node->ns->href : NULL;
    const xmlChar *name = xmlTextReaderConstLocalName(d->r);
    int ns = -1;
    for (int i = 0; i < XF_NS_COUNT && ns < 0 && uri; i++)
        if (d->uri[i] && strcmp(uri, (const char *)d->uri[i]) == 0)
            ns = i;
    if (ns < 0)
        return 0;
    void *v = xf_map_get(&d->elmap[ns], name);
    if (!v && name)
        v = xf_map_get(&d->elmap[ns], xmlTextReaderConstString(d->r, name));
    if (!v)
        return rd_err(d, d->line, "unknown element <%s>", name ? (const char *)name : "?");
    *el = (xf_elem)((uintptr_t)v - 1);
    return 1;
}

int
rd_child(rd *d, rdpar *p)
{
    if (p->empty)
        return 0;
    for (;;) {
        int ret = xmlTextReaderRead(d->r);
        if (ret != 1)
            return read_failed(d, ret);
        xf_xnode *x;
        int type = xmlTextReaderNodeType(d->r);
        switch (type) {
        case XML_READER_TYPE_ELEMENT:
            d->line = node_line(d);
            if (xmlTextReaderDepth(d->r) > MAX_DEPTH)
                return rd_err(d, d->line, "elements nested too deeply");
            ret = identify(d, &d->el);
            if (ret < 0)
                return -1;
            if (ret > 0) {
                p->nkids++;
                return 1;
            }
            if (read_xnode(d, &x, 0) || keep_child(d, p, x))
                return -1;
            continue;
        case XML_READER_TYPE_END_ELEMENT:
            d->el = p->el;
            return 0;
        case XML_READER_TYPE_TEXT:
        case XML_READER_TYPE_CDATA:
            if (blank(xmlTextReaderConstValue(d->r)))
                continue;
            return rd_err(d, node_line(d), "text is not allowed in <%s>", xf_elem_name(p->el));
        case XML_READER_TYPE_COMMENT:
        case XML_READER_TYPE_PROCESSING_INSTRUCTION:
            if (simple_xnode(d, type == XML_READER_TYPE_COMMENT ? XF_X_COMMENT : XF_X_PI, &x) ||
                keep_child(d, p, x))
                return -1;
            continue;
        default:
            continue;
        }
    }
}

/* ---------------------------------------------------- pending references */

int
rd_push_pend(rd *d, const char *src, const char *tgt, uint32_t line)
{
    rdpend pe = {src, tgt, line};
    return XF_VEC_PUSH(d->scratch, d->pend, pe) ? 0 : rd_oom(d);
}

/* Index the ids of n records (the id pointer at ids, then every stride
 * bytes) for rd_find_id; a repeated id is an error. Small sets are searched
 * linearly instead. */
int
rd_index_ids(rd *d, const char *const *ids, uint32_t n, size_t stride, const char *what)
{
    const char *base = (const char *)ids;
    if (n <= 16) {
        for (uint32_t i = 0; i < n; i++) {
            const char *id = *(const char *const *)(base + i * stride);
            for (uint32_t j = 0; id && j < i; j++)
                if (*(const char *const *)(base + j * stride) == id &&
                    rd_soft(d, d->line, "%s has two vertices with vertex_id '%s'", what, id))
                    return -1;
        }
        return 0;
    }
    xf_map_clear(&d->idmap);
    for (uint32_t i = 0; i < n; i++) {
        const char *id = *(const char *const *)(base + i * stride);
        void *old;
        if (!id)
            continue;
        if (!xf_map_put(&d->idmap, d->scratch, id, (void *)(uintptr_t)(i + 1), &old))
            return rd_oom(d);
        if (old) {
            /* lenient: the first vertex keeps the id */
            if (rd_soft(d, d->line, "%s has two vertices with vertex_id '%s'", what, id))
                return -1;
            xf_map_put(&d->idmap, d->scratch, id, old, NULL);
        }
    }
    return 0;
}

uint32_t
rd_find_id(rd *d, const char *const *ids, uint32_t n, size_t stride, const char *id)
{
    const char *base = (const char *)ids;
    if (!id)
        return UINT32_MAX;
    if (n <= 16) {
        for (uint32_t i = 0; i < n; i++)
            if (*(const char *const *)(base + i * stride) == id)
                return i;
        return UINT32_MAX;
    }
    void *v = xf_map_get(&d->idmap, id);
    return v ? (uint32_t)((uintptr_t)v - 1) : UINT32_MAX;
}

/* ------------------------------------------------------------ call graph */

/* Skip the element the reader is on, with its subtree. */
static int
skip_element(rd *d)
{
    if (xmlTextReaderIsEmptyElement(d->r) == 1)
        return 0;
    int depth = xmlTextReaderDepth(d->r), ret;
    while ((ret = xmlTextReaderRead(d->r)) == 1)
        if (xmlTextReaderNodeType(d->r) == XML_READER_TYPE_END_ELEMENT &&
            xmlTextReaderDepth(d->r) == depth)
            return 0;
    return read_failed(d, ret);
}

/* What a streamed routine leaves when its arena is released: what other
 * routines' passes ask of it (its id, symbol, scopes, formals). */
static int
hollow(rd *d, xf_routine *rt, const xf_argsym *args, uint32_t nargs)
{
    xf_routine keep = {.id = rt->id,
                       .scope = rt->scope,
                       .sym = rt->sym,
                       .cfg_scope = rt->cfg_scope,
                       .index = rt->index,
                       .seq = rt->seq,
                       .is_rlist = rt->is_rlist,
                       .has_args = rt->has_args};
    keep.h.line = rt->h.line;
    keep.h.annotation = rt->h.annotation;
    if (args) { /* the copy made at the first reading */
        keep.args.v = (xf_argsym *)args;
        keep.args.n = keep.args.cap = nargs;
    } else if (rt->args.n) {
        keep.args.v = XF_NEW_ARRAY(d->doc->arena, rt->args.n, xf_argsym);
        if (!keep.args.v)
            return rd_oom(d);
        for (uint32_t i = 0; i < rt->args.n; i++) {
            keep.args.v[i] = rt->args.v[i];
            keep.args.v[i].h.extra = NULL;
        }
        keep.args.n = keep.args.cap = rt->args.n;
    }
    *rt = keep;
    return 0;
}

/* A routine of a streamed reading: read into an arena of its own, handed to
 * the sink, released. */
static int
stream_routine(rd *d, xf_routine *rt)
{
    xf_doc *doc = d->doc;
    if (!d->routine && !(d->routine = xf_arena_new()))
        return rd_oom(d);
    xf_arena *main = doc->arena, *ra = d->routine;
    const xf_argsym *args = d->again ? rt->args.v : NULL;
    uint32_t nargs = d->again ? rt->args.n : 0;
    if (d->again) {
        xf_routine fresh = {.index = rt->index, .seq = rt->seq};
        *rt = fresh;
    }
    doc->global = main;
    doc->arena = d->a = ra;
    int ret = rd_routine(d, rt);
    if (!ret && d->sink && d->sink->routine) {
        ret = d->sink->routine(d->sink->ctx, doc, rt);
    }
    size_t used = xf_arena_used(ra);
    if (used > d->sink->routine_peak)
        d->sink->routine_peak = used;
    d->sink->routines++;
    doc->arena = d->a = main;
    doc->global = NULL;
    /* the copy of the formals goes to the main arena, before ra dies */
    if (!ret)
        ret = hollow(d, rt, args, nargs);
    xf_arena_reset(ra); /* one chunk kept: no new memory per routine */
    return ret;
}

static int
add_routine(rd *d, rdpar *p)
{
    xf_callgraph *cg = &d->doc->cg;
    if (d->again) {
        if (d->nrt >= cg->routines.n)
            return rd_err(d, d->line, "the input changed while being read: more routines");
        return stream_routine(d, cg->routines.v[d->nrt++]);
    }
    xf_routine *rt = XF_NEW(d->a, xf_routine);
    if (!rt || !XF_VEC_PUSH(d->a, cg->routines, rt))
        return rd_oom(d);
    rt->seq = p->nkids;
    rt->index = d->doc->nroutines++;
    int ret = d->sink ? stream_routine(d, rt) : rd_routine(d, rt);
    if (!ret && rt->id) {
        void *old;
        if (!xf_map_put(&cg->rmap, d->a, rt->id, rt, &old))
            return rd_oom(d);
        if (old) {
            if (rd_soft(d, rt->h.line, "two routines with vertex_id '%s'", rt->id))
                return -1;
            xf_map_put(&cg->rmap, d->a, rt->id, old, NULL);
        }
    }
    return ret;
}

/* A CallGraphEdge read again: the one read the first time, at its place. */
static int
edge_again(rd *d)
{
    xf_callgraph *cg = &d->doc->cg;
    if (d->nedge >= cg->edges.n)
        return rd_err(d, d->line, "the input changed while being read: more call graph edges");
    const xf_cgedge *e = &cg->edges.v[d->nedge++];
    int ret = skip_element(d);
    if (!ret && d->sink->edge && d->sink->edge(d->sink->ctx, d->doc, e))
        return -1;
    return ret;
}

/* CallGraph: ScopeHierarchy (AliasSetMap | AliasSetList) (DUUDSetMap | DUUDSetList)
 *            DOSetMap? (ControlFlowGraph | ReplacementList | CallGraphEdge)*
 * Read again (d->again), the prologue and the edges are skipped: doc has them. */
static int
read_callgraph(rd *d)
{
    xf_callgraph *cg = &d->doc->cg;
    int ret;
    xf_hdr again_h = {0}; /* comments of a second reading: doc has them */
    if (!d->again && rd_attrs(d, XF_AL_CALLGRAPH, cg, &cg->h, NULL))
        return -1;
    rdpar p;
    rd_start(d, &p, d->again ? &again_h : &cg->h);
    bool scopes = false;
    uint32_t base = d->pend.n;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->again) {
            switch (d->el) {
            case XF_EL_CONTROLFLOWGRAPH:
            case XF_EL_REPLACEMENTLIST:
                ret = add_routine(d, &p);
                break;
            case XF_EL_CALLGRAPHEDGE:
                ret = edge_again(d);
                break;
            default:
                ret = skip_element(d);
            }
            if (ret)
                return -1;
            continue;
        }
        switch (d->el) {
        case XF_EL_SCOPEHIERARCHY:
            if (scopes)
                return rd_err(d, d->line, "a second <ScopeHierarchy>");
            scopes = true;
            ret = rd_scopes(d, &cg->scopes);
            break;
        case XF_EL_ALIASSETMAP:
        case XF_EL_ALIASSETLIST:
            if (cg->alias.present)
                return rd_err(d, d->line, "a second alias map <%s>", xf_elem_name(d->el));
            ret = rd_alias_map(d, &cg->alias);
            break;
        case XF_EL_DUUDSETMAP:
        case XF_EL_DUUDSETLIST:
            if (cg->duud.present)
                return rd_err(d, d->line, "a second DU/UD map <%s>", xf_elem_name(d->el));
            ret = rd_stmtid_map(d, &cg->duud);
            break;
        case XF_EL_DOSETMAP:
            if (cg->doset.present)
                return rd_err(d, d->line, "a second <DOSetMap>");
            ret = rd_stmtid_map(d, &cg->doset);
            break;
        case XF_EL_CONTROLFLOWGRAPH:
        case XF_EL_REPLACEMENTLIST:
            ret = add_routine(d, &p);
            break;
        case XF_EL_CALLGRAPHEDGE: {
            xf_cgedge e = {.seq = p.nkids};
            xf_refids r;
            e.h.line = d->line;
            if (rd_attrs(d, XF_AL_CGEDGE, &e, &e.h, &r) || rd_empty_elem(d, &e.h))
                return -1;
            const char *src = r.id[XF_REF_SOURCE], *tgt = r.id[XF_REF_TARGET];
            /* routines may follow the edge: resolve at the end */
            if (!XF_VEC_PUSH(d->a, cg->edges, e))
                return rd_oom(d);
            ret = rd_push_pend(d, src, tgt, e.h.line);
            break;
        }
        default:
            return rd_unexpected(d, &p);
        }
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
    if (d->again) {
        if (d->nrt != cg->routines.n || d->nedge != cg->edges.n)
            return rd_err(d, cg->h.line, "the input changed while being read: fewer routines");
        return 0;
    }
    if (!scopes)
        return rd_err(d, cg->h.line, "<CallGraph> has no <ScopeHierarchy>");
    for (uint32_t i = 0; i < cg->edges.n; i++) {
        xf_cgedge *e = &cg->edges.v[i];
        const char *ids[2] = {d->pend.v[base + i].src, d->pend.v[base + i].tgt};
        e->src = xf_routine_find(d->doc, ids[0]);
        e->tgt = xf_routine_find(d->doc, ids[1]);
        if (!e->src || !e->tgt) {
            if (rd_soft(
                    d, e->h.line, "dangling reference: call graph edge '%s' %s '%s' is no routine",
                    e->id ? e->id : "", e->src ? "target" : "source", e->src ? ids[1] : ids[0]) ||
                rd_keep_named(d, &e->h, xf_aname_text(XF_AN_SOURCE), ids[0]) ||
                rd_keep_named(d, &e->h, xf_aname_text(XF_AN_TARGET), ids[1]))
                return -1;
            e->src = e->tgt = NULL;
        }
    }
    d->pend.n = base;
    return 0;
}

/* ------------------------------------------------------------ entry points */

static int
setup(rd *d)
{
    for (int i = 0; i < XF_NS_COUNT; i++)
        if (!(d->uri[i] = xmlTextReaderConstString(d->r, BAD_CAST xf_ns_uri((xf_ns)i))))
            return rd_oom(d);
    for (int e = 0; e < XF_EL_COUNT; e++) {
        const xmlChar *n = xmlTextReaderConstString(d->r, BAD_CAST xf_elem_name((xf_elem)e));
        if (!n || !xf_map_put(&d->elmap[xf_elem_ns((xf_elem)e)], d->scratch, n,
                              (void *)(uintptr_t)(e + 1), NULL))
            return rd_oom(d);
    }
    for (int i = 1; i < XF_AN_COUNT; i++) {
        const xmlChar *n = xmlTextReaderConstString(d->r, BAD_CAST xf_aname_text((xf_aname)i));
        if (!n || !xf_map_put(&d->attrmap, d->scratch, n, (void *)(uintptr_t)i, NULL))
            return rd_oom(d);
    }
    return 0;
}

static int
outside_root(rd *d, xf_xnode_vec *v)
{
    xf_xnode *x;
    int type = xmlTextReaderNodeType(d->r);
    if (type != XML_READER_TYPE_COMMENT && type != XML_READER_TYPE_PROCESSING_INSTRUCTION)
        return 0;
    if (simple_xnode(d, type == XML_READER_TYPE_COMMENT ? XF_X_COMMENT : XF_X_PI, &x))
        return -1;
    return XF_VEC_PUSH(d->a, *v, x) ? 0 : rd_oom(d);
}

static int
read_document(rd *d)
{
    int ret;
    xf_xnode_vec skipped = {0}; /* read again: doc has what is outside the root */
    if (setup(d))
        return -1;
    while ((ret = xmlTextReaderRead(d->r)) == 1 &&
           xmlTextReaderNodeType(d->r) != XML_READER_TYPE_ELEMENT)
        if (outside_root(d, d->again ? &skipped : &d->doc->before))
            return -1;
    if (ret != 1)
        return ret < 0 || d->failed ? read_failed(d, ret)
                                    : rd_err(d, 0, "empty document: no root element");
    d->line = node_line(d);
    xf_elem el;
    ret = identify(d, &el);
    if (ret < 0)
        return -1;
    if (ret == 0)
        return rd_err(d, d->line, "root element <%s> is not xaif",
                      (const char *)xmlTextReaderConstName(d->r));
    d->el = el;
    if (d->sink && el != XF_EL_CALLGRAPH)
        return rd_err(d, d->line, "only a <CallGraph> is read one routine at a time, not <%s>",
                      xf_elem_name(el));
    switch (el) {
    case XF_EL_CALLGRAPH:
        d->doc->kind = XF_DOC_CALLGRAPH;
        ret = read_callgraph(d);
        break;
    case XF_EL_II_DEFINITIONS:
        d->doc->kind = XF_DOC_INLINABLE;
        ret = rd_ii_defs(d);
        break;
    case XF_EL_NII_DEFINITIONS:
        d->doc->kind = XF_DOC_NONINLINABLE;
        ret = rd_nii_defs(d);
        break;
    default:
        return rd_err(d, d->line,
                      "root element must be <CallGraph> or an intrinsics catalogue, not <%s>",
                      xf_elem_name(el));
    }
    if (ret)
        return -1;
    while ((ret = xmlTextReaderRead(d->r)) == 1)
        if (outside_root(d, d->again ? &skipped : &d->doc->after))
            return -1;
    return ret < 0 || d->failed ? read_failed(d, -1) : 0;
}

static xf_doc *
run(xmlTextReaderPtr r, const char *name, size_t size, const xf_read_opts *opts, xf_diag *diag,
    xf_read_sink *sink, xf_doc *again)
{
    rd d = {.r = r,
            .diag = diag,
            .file = name,
            .size = size,
            .lenient = opts && opts->lenient,
            .sink = sink,
            .again = again != NULL};
    xf_doc *doc = NULL;
    if (!r) {
        xf_error(diag, name, 0, "cannot open: %s", errno ? strerror(errno) : "out of memory");
        return NULL;
    }
    doc = again ? again : xf_doc_new(name);
    d.scratch = xf_arena_new();
    if (!doc || !d.scratch) {
        xf_error(diag, name, 0, "out of memory");
        goto fail;
    }
    d.doc = doc;
    d.a = doc->arena;
    if (opts && opts->fail_alloc > 0)
        xf_arena_fail_after(doc->arena, opts->fail_alloc - 1);
    d.file = doc->filename;
    xmlTextReaderSetStructuredErrorHandler(r, on_xml_error, &d);
    int ret = read_document(&d) == 0 && !d.failed ? 0 : -1;
    if (ret == 0 &&
        (xf_arena_failed(doc->arena) || xf_arena_failed(d.scratch) || xf_arena_failed(d.routine))) {
        /* a refusal a handler did not report */
        xf_error(diag, doc->filename, 0, "out of memory");
        ret = -1;
    }
    if (ret == 0) {
        xmlFreeTextReader(r);
        xf_arena_free(d.scratch);
        xf_arena_free(d.routine);
        return doc;
    }
fail:
    xmlFreeTextReader(r);
    xf_arena_free(d.scratch);
    xf_arena_free(d.routine);
    if (!again)
        xf_doc_free(doc);
    return NULL;
}

/* NOBLANKS: no nodes for the indentation, which the reader would skip anyway */
enum {
    PARSE_OPTIONS = XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_COMPACT | XML_PARSE_NOBLANKS
};

/* The reader of @path, with its size in *@size; NULL after reporting. */
static xmlTextReaderPtr
open_file(const char *path, size_t *size, xf_diag *diag)
{
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        xf_error(diag, path, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    int c = fgetc(f);
    /* the size tells a document cut short (cut_short); 0 when unknown */
    struct stat st;
    *size = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? (size_t)st.st_size : 0;
    fclose(f);
    if (c == EOF) {
        xf_error(diag, path, 0, "empty file: no xaif document");
        return NULL;
    }
    errno = 0;
    xmlTextReaderPtr r = xmlReaderForFile(path, NULL, PARSE_OPTIONS);
    if (!r)
        xf_error(diag, path, 0, "cannot open: %s", errno ? strerror(errno) : "out of memory");
    return r;
}

xf_doc *
xf_read_file(const char *path, const xf_read_opts *opts, xf_diag *diag)
{
    size_t size;
    xmlTextReaderPtr r = open_file(path, &size, diag);
    return r ? run(r, path, size, opts, diag, NULL, NULL) : NULL;
}

xf_doc *
xf_read_stream(const char *path, const xf_read_opts *opts, xf_diag *diag, xf_read_sink *sink)
{
    xf_read_sink none = {0};
    if (opts && opts->lenient) {
        xf_error(diag, path, 0, "lenient reading keeps the whole document");
        return NULL;
    }
    size_t size;
    xmlTextReaderPtr r = open_file(path, &size, diag);
    return r ? run(r, path, size, opts, diag, sink ? sink : &none, NULL) : NULL;
}

int
xf_read_stream_again(xf_doc *doc, const char *path, xf_diag *diag, xf_read_sink *sink)
{
    xf_read_sink none = {0};
    size_t size;
    xmlTextReaderPtr r = open_file(path, &size, diag);
    return r && run(r, path, size, NULL, diag, sink ? sink : &none, doc) ? 0 : -1;
}

xf_doc *
xf_read_memory(const char *buf, size_t len, const char *name, const xf_read_opts *opts,
               xf_diag *diag)
{
    if (len == 0) {
        xf_error(diag, name, 0, "empty file: no xaif document");
        return NULL;
    }
    if (len > INT32_MAX) {
        xf_error(diag, name, 0, "document too large for reading from memory");
        return NULL;
    }
    return run(xmlReaderForMemory(buf, (int)len, name, NULL, PARSE_OPTIONS), name, len, opts, diag,
               NULL, NULL);
}
