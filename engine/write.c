/* write.c: the writer's machinery (elements, attributes, foreign nodes,
 * output files), the document root, the scope hierarchy, the call-graph maps
 * and the intrinsics catalogues. Routines are in write_code.c. */
#include "write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"
#include "write_impl.h"

static void
check(wr *w, int ret)
{
    if (ret < 0)
        w->failed = true;
}

/* ------------------------------------------------------------ namespaces
 *
 * The reader keeps namespace declarations only where they are written on the
 * root and on foreign elements, and the writer may give the xaif namespaces
 * other prefixes than the input had. So that every prefix of the output is
 * bound to the namespace its node had, a foreign element declares the
 * prefixes of its name and attributes unless its parent already binds them
 * so, and a modeled element below the root declares the prefixes of its
 * foreign attributes; there, a prefix that the writer uses for an xaif
 * namespace is replaced by a fresh one. */

static bool
same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool
is_nsdecl(const xf_attr *a)
{
    return a->ns && strcmp(a->ns, XF_URI_XMLNS) == 0;
}

/* Attributes with no prefix, the xml: prefix or declarations need no declaration. */
static bool
needs_binding(const xf_attr *a)
{
    return a->prefix && a->ns && !is_nsdecl(a) && strcmp(a->prefix, "xml") != 0;
}

/* The xaif namespace the writer names with @prefix (NULL: the default), or -1. */
static int
writer_ns(const wr *w, const char *prefix)
{
    for (int n = 0; n < XF_NS_COUNT; n++)
        if (same(w->prefix[n], prefix))
            return n;
    return -1;
}

/* Does the root declare @prefix (NULL: the default namespace)? Its URI in *@uri. */
static bool
root_declares(const wr *w, const char *prefix, const char **uri)
{
    for (uint32_t i = 0; i < w->doc->ns.n; i++)
        if (same(w->doc->ns.v[i].prefix, prefix)) {
            if (uri)
                *uri = w->doc->ns.v[i].uri;
            return true;
        }
    return false;
}

/* Does the root declare the namespace @n (with any prefix)? */
static bool
root_binds(wr *w, xf_ns n)
{
    if (!w->binds[n]) {
        w->binds[n] = -1;
        for (uint32_t i = 0; i < w->doc->ns.n && w->binds[n] < 0; i++)
            if (strcmp(w->doc->ns.v[i].uri, xf_ns_uri(n)) == 0)
                w->binds[n] = 1;
    }
    return w->binds[n] > 0;
}

/* The URI a foreign element binds @prefix to as written, when it is known. */
static bool
xnode_binds(const xf_xnode *x, const char *prefix, const char **uri)
{
    for (uint32_t i = 0; i < x->attrs.n; i++) {
        const xf_attr *a = &x->attrs.v[i];
        if (is_nsdecl(a) ? same(a->name, prefix) : a->prefix && same(a->prefix, prefix)) {
            *uri = is_nsdecl(a) ? a->value : a->ns;
            return true;
        }
    }
    if (!same(x->prefix, prefix))
        return false;
    *uri = x->ns;
    return true;
}

static void
write_decl(wr *w, const char *prefix, const char *uri)
{
    if (prefix)
        check(w, xf_xo_attr(w->w, "xmlns", prefix, uri));
    else
        check(w, xf_xo_attr(w->w, NULL, "xmlns", uri ? uri : ""));
}

/* Declare @prefix as @uri on the foreign element @x (child of @parent, NULL
 * below a modeled element) unless it or its parent binds it so already. */
static void
declare_foreign(wr *w, const xf_xnode *x, const xf_xnode *parent, const char *prefix,
                const char *uri)
{
    const char *have;
    for (uint32_t i = 0; i < x->attrs.n; i++)
        if (is_nsdecl(&x->attrs.v[i]) && same(x->attrs.v[i].name, prefix))
            return;
    if (parent && xnode_binds(parent, prefix, &have) && same(have ? have : "", uri ? uri : ""))
        return;
    if (!parent && !prefix) {
        /* modeled elements declare no default namespace: the root's is in force */
        if (!root_declares(w, NULL, &have))
            have = NULL;
        if (same(have && *have ? have : NULL, uri))
            return;
    }
    if (prefix && !uri)
        return; /* a prefix is always bound; nothing to declare */
    write_decl(w, prefix, uri);
}

/* The prefixes that @x uses, each declared once. */
static void
declare_xnode(wr *w, const xf_xnode *x, const xf_xnode *parent)
{
    declare_foreign(w, x, parent, x->prefix, x->ns);
    for (uint32_t i = 0; i < x->attrs.n; i++) {
        const xf_attr *a = &x->attrs.v[i];
        bool seen = !needs_binding(a) || same(a->prefix, x->prefix);
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = !is_nsdecl(&x->attrs.v[j]) && same(x->attrs.v[j].prefix, a->prefix);
        if (!seen)
            declare_foreign(w, x, parent, a->prefix, a->ns);
    }
}

static void
write_attr(wr *w, const char *prefix, const xf_attr *a)
{
    if (is_nsdecl(a))
        write_decl(w, a->name, a->value);
    else
        check(w, xf_xo_attr(w->w, prefix, a->name, a->value));
}

/* A prefix for the attributes @v of a modeled element that were written
 * with @prefix, which names an xaif namespace in the output: "PREFIX1", ... */
static char *
fresh_prefix(wr *w, const xf_attr_vec *v, const char *prefix)
{
    size_t n = strlen(prefix) + 12;
    char *p = malloc(n);
    if (!p) {
        w->failed = true;
        return NULL;
    }
    for (unsigned k = 1;; k++) {
        snprintf(p, n, "%s%u", prefix, k);
        bool taken = writer_ns(w, p) >= 0 || root_declares(w, p, NULL);
        for (uint32_t i = 0; i < v->n && !taken; i++)
            taken = same(v->v[i].prefix, p);
        if (!taken)
            return p;
    }
}

/* The foreign attributes of a modeled element, with the declarations of their prefixes. */
static void
modeled_attrs(wr *w, const xf_attr_vec *v)
{
    bool root = w->depth == 1;
    for (uint32_t i = 0; i < v->n; i++) {
        const xf_attr *a = &v->v[i];
        const char *uri = NULL;
        int n = needs_binding(a) ? writer_ns(w, a->prefix) : -1;
        /* the writer's prefixes are bound at the root, unless declared where used */
        if (!needs_binding(a) ||
            (n >= 0 && strcmp(xf_ns_uri((xf_ns)n), a->ns) == 0 &&
             (w->declare[n] || root_binds(w, (xf_ns)n))) ||
            (root && root_declares(w, a->prefix, &uri) && same(uri, a->ns))) {
            write_attr(w, a->prefix, a);
            continue;
        }
        char *fresh = n >= 0 ? fresh_prefix(w, v, a->prefix) : NULL;
        if (n >= 0 && !fresh)
            return;
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = needs_binding(&v->v[j]) && same(v->v[j].prefix, a->prefix);
        if (!seen)
            write_decl(w, fresh ? fresh : a->prefix, a->ns);
        write_attr(w, fresh ? fresh : a->prefix, a);
        free(fresh);
    }
}

/* ------------------------------------------------------------ foreign nodes */

void
wr_xnode(wr *w, const xf_xnode *x, const xf_xnode *parent)
{
    switch (x->kind) {
    case XF_X_ELEMENT:
        check(w, xf_xo_start(w->w, x->prefix, x->name));
        declare_xnode(w, x, parent);
        for (uint32_t i = 0; i < x->attrs.n; i++)
            write_attr(w, x->attrs.v[i].prefix, &x->attrs.v[i]);
        for (uint32_t i = 0; i < x->kids.n; i++)
            wr_xnode(w, x->kids.v[i], x);
        check(w, xf_xo_end(w->w));
        break;
    case XF_X_TEXT:
        check(w, xf_xo_text(w->w, x->text));
        break;
    case XF_X_CDATA:
        check(w, xf_xo_cdata(w->w, x->text));
        break;
    case XF_X_COMMENT:
        check(w, xf_xo_comment(w->w, x->text));
        /* the comment's text switched indenting off for the next end tag */
        check(w, xf_xo_indent(w->w, "  "));
        break;
    case XF_X_PI:
        check(w, xf_xo_pi(w->w, x->name, x->text));
        break;
    }
}

/* Write the foreign children of @l placed before its @upto-th modeled child. */
static void
flush_foreign(wr *w, wrlevel *l, uint32_t upto)
{
    const xf_extra *e = l->h ? l->h->extra : NULL;
    if (!e)
        return;
    while (l->next < e->kids.n && e->kids.v[l->next].before <= upto)
        wr_xnode(w, e->kids.v[l->next++].node, NULL);
}

/* ------------------------------------------------------------ elements */

void
wr_open(wr *w, xf_elem el, const xf_hdr *h)
{
    if (w->depth >= WR_MAX_DEPTH) {
        w->failed = true;
        return;
    }
    if (w->depth > 0) {
        wrlevel *p = &w->stk[w->depth - 1];
        flush_foreign(w, p, p->nkids);
        p->nkids++;
    }
    check(w, xf_xo_start(w->w, NULL, w->qname[el]));
    /* an element of a namespace that the root does not declare (an inlinable
     * intrinsic's ArgumentReference in a call graph) declares it itself */
    xf_ns ns = xf_elem_ns(el);
    if (!w->declare[ns] && !root_binds(w, ns))
        write_decl(w, w->prefix[ns], xf_ns_uri(ns));
    w->stk[w->depth++] = (wrlevel){h, 0, 0};
}

void
wr_close(wr *w)
{
    if (w->depth <= 0)
        return;
    flush_foreign(w, &w->stk[w->depth - 1], UINT32_MAX);
    w->depth--;
    check(w, xf_xo_end(w->w));
}

void
wr_str(wr *w, const char *name, const char *value)
{
    if (value)
        check(w, xf_xo_attr(w->w, NULL, name, value));
}

void
wr_int(wr *w, const char *name, int64_t value)
{
    if (value == XF_NOINT)
        return;
    char buf[24], *p = buf + sizeof buf;
    uint64_t u = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    *--p = 0;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (value < 0)
        *--p = '-';
    check(w, xf_xo_attr(w->w, NULL, name, p));
}

void
wr_flag(wr *w, const char *name, xf_flag f)
{
    wr_str(w, name, xf_flag_text(f));
}

void
wr_extra_attrs(wr *w, const xf_hdr *h)
{
    if (h->extra)
        modeled_attrs(w, &h->extra->attrs);
}

/* ------------------------------------------------------------ scopes */

static void
write_symbol(wr *w, const xf_symbol *s)
{
    wr_open(w, XF_EL_SYMBOL, &s->h);
    wr_attrs(w, XF_AL_SYMBOL, s, NULL);
    for (uint32_t i = 0; i < s->dims.n; i++) {
        const xf_dimbounds *b = &s->dims.v[i];
        wr_open(w, XF_EL_DIMENSIONBOUNDS, &b->h);
        wr_attrs(w, XF_AL_DIMBOUNDS, b, NULL);
        wr_close(w);
    }
    wr_close(w);
}

static void
write_scopes(wr *w, const xf_scopes *ss)
{
    wr_open(w, XF_EL_SCOPEHIERARCHY, &ss->h);
    wr_attrs(w, XF_AL_PLAIN, &ss->h, NULL);
    uint32_t i = 0, j = 0;
    while (i < ss->v.n || j < ss->e.n) {
        if (i < ss->v.n && (j >= ss->e.n || ss->v.v[i]->seq <= ss->e.v[j].seq)) {
            const xf_scope *sc = ss->v.v[i++];
            wr_open(w, XF_EL_SCOPE, &sc->h);
            wr_attrs(w, XF_AL_SCOPE, sc, NULL);
            wr_open(w, XF_EL_SYMBOLTABLE, &sc->symtab);
            wr_attrs(w, XF_AL_PLAIN, &sc->symtab, NULL);
            for (uint32_t k = 0; k < sc->syms.n; k++)
                write_symbol(w, sc->syms.v[k]);
            wr_close(w);
            wr_close(w);
        } else {
            const xf_scope_edge *e = &ss->e.v[j++];
            wr_open(w, XF_EL_SCOPEEDGE, &e->h);
            wr_attrs(w, XF_AL_SCOPEEDGE, e, &XF_EDGE_REFS(XF_ID(e->src), XF_ID(e->tgt)));
            wr_close(w);
        }
    }
    wr_close(w);
}

/* ------------------------------------------------------------ maps */

static void
write_alias_map(wr *w, const xf_alias_map *m)
{
    if (!m->present)
        return;
    wr_open(w, m->list_form ? XF_EL_ALIASSETLIST : XF_EL_ALIASSETMAP, &m->h);
    wr_attrs(w, XF_AL_PLAIN, &m->h, NULL);
    for (uint32_t i = 0; i < m->sets.n; i++) {
        const xf_alias_set *s = &m->sets.v[i];
        wr_open(w, XF_EL_ALIASSET, &s->h);
        wr_attrs(w, XF_AL_ALIASSET, s, NULL);
        for (uint32_t k = 0; k < s->r.n; k++) {
            const xf_alias_range *r = &s->r.v[k];
            wr_open(w, XF_EL_ALIASRANGE, &r->h);
            wr_attrs(w, XF_AL_ALIASRANGE, r, NULL);
            wr_close(w);
        }
        wr_close(w);
    }
    wr_close(w);
}

static void
write_stmtid_map(wr *w, xf_elem el, const xf_stmtid_map *m)
{
    if (!m->present)
        return;
    if (m->list_form)
        el = XF_EL_DUUDSETLIST;
    wr_open(w, el, &m->h);
    wr_attrs(w, XF_AL_PLAIN, &m->h, NULL);
    for (uint32_t i = 0; i < m->sets.n; i++) {
        const xf_stmtid_set *s = &m->sets.v[i];
        wr_open(w, m->list_form ? XF_EL_DUUDSET : XF_EL_STMTIDSET, &s->h);
        wr_attrs(w, XF_AL_STMTIDSET, s, NULL);
        for (uint32_t k = 0; k < s->ids.n; k++) {
            wr_open(w, XF_EL_STATEMENTID, &s->ids.v[k].h);
            wr_attrs(w, XF_AL_STMTID, &s->ids.v[k], NULL);
            wr_close(w);
        }
        wr_close(w);
    }
    wr_close(w);
}

/* ------------------------------------------------------------ roots */

static void
write_nsdecls(wr *w)
{
    const xf_doc *doc = w->doc;
    for (uint32_t i = 0; i < doc->ns.n; i++)
        write_decl(w, doc->ns.v[i].prefix, doc->ns.v[i].uri);
    for (int n = 0; n < XF_NS_COUNT; n++)
        if (w->declare[n])
            write_decl(w, w->prefix[n], xf_ns_uri((xf_ns)n));
}

void
wr_cg_head(wr *w)
{
    const xf_callgraph *cg = &w->doc->cg;
    wr_open(w, XF_EL_CALLGRAPH, &cg->h);
    write_nsdecls(w);
    wr_attrs(w, XF_AL_CALLGRAPH, cg, NULL);
    write_scopes(w, &cg->scopes);
    write_alias_map(w, &cg->alias);
    write_stmtid_map(w, XF_EL_DUUDSETMAP, &cg->duud);
    write_stmtid_map(w, XF_EL_DOSETMAP, &cg->doset);
}

void
wr_cg_edge(wr *w, const xf_cgedge *e)
{
    wr_open(w, XF_EL_CALLGRAPHEDGE, &e->h);
    wr_attrs(w, XF_AL_CGEDGE, e, &XF_EDGE_REFS(XF_ID(e->src), XF_ID(e->tgt)));
    wr_close(w);
}

static void
write_callgraph(wr *w)
{
    const xf_callgraph *cg = &w->doc->cg;
    wr_cg_head(w);
    uint32_t i = 0, j = 0;
    while (i < cg->routines.n || j < cg->edges.n) {
        if (i < cg->routines.n &&
            (j >= cg->edges.n || cg->routines.v[i]->seq <= cg->edges.v[j].seq)) {
            wr_routine(w, cg->routines.v[i++]);
        } else {
            wr_cg_edge(w, &cg->edges.v[j++]);
        }
    }
    wr_close(w);
}

static void
write_ii_defs(wr *w)
{
    const xf_doc *doc = w->doc;
    wr_open(w, XF_EL_II_DEFINITIONS, &doc->defs_h);
    write_nsdecls(w);
    wr_attrs(w, XF_AL_IIDEFS, doc, NULL);
    for (uint32_t i = 0; i < doc->ii.n; i++) {
        const xf_ii *ii = &doc->ii.v[i];
        wr_open(w, XF_EL_II_INTRINSIC, &ii->h);
        wr_attrs(w, XF_AL_II, ii, NULL);
        if (ii->has_fn) {
            wr_open(w, XF_EL_II_FUNCTION, &ii->fn_h);
            wr_attrs(w, XF_AL_IIFUNCTION, ii, NULL);
            wr_close(w);
        }
        for (uint32_t k = 0; k < ii->partials.n; k++)
            wr_partial(w, &ii->partials.v[k]);
        wr_close(w);
    }
    wr_close(w);
}

static void
write_nii_defs(wr *w)
{
    const xf_doc *doc = w->doc;
    wr_open(w, XF_EL_NII_DEFINITIONS, &doc->defs_h);
    write_nsdecls(w);
    wr_attrs(w, XF_AL_PLAIN, &doc->defs_h, NULL);
    for (uint32_t i = 0; i < doc->nii.n; i++) {
        const xf_nii *n = &doc->nii.v[i];
        wr_open(w, n->direct ? XF_EL_NII_DIRECTACTION : XF_EL_NII_EXPLICITJACOBIAN, &n->h);
        wr_attrs(w, n->direct ? XF_AL_NIIDIRECT : XF_AL_NIIJACOBIAN, n, NULL);
        for (uint32_t k = 0; k < n->partials.n; k++) {
            const xf_nii_partial *pa = &n->partials.v[k];
            wr_open(w, XF_EL_NII_PARTIAL, &pa->h);
            wr_attrs(w, XF_AL_NIIPARTIAL, pa, NULL);
            wr_close(w);
        }
        wr_close(w);
    }
    wr_close(w);
}

/* Choose the prefix of each namespace: the root's declaration if it has one,
 * else a default name that the root will declare ("xaif", or "xaif1", ...
 * when the root binds that name to another namespace). */
bool
wr_setup(wr *w)
{
    static const char *const dflt[XF_NS_COUNT] = {"xaif", "xaifii", "xaifnii"};
    char alt[XF_NS_COUNT][24] = {{0}};
    const xf_doc *doc = w->doc;
    for (int n = 0; n < XF_NS_COUNT; n++) {
        const char *uri = xf_ns_uri((xf_ns)n);
        bool found = false;
        for (uint32_t i = 0; i < doc->ns.n && !found; i++)
            if (strcmp(doc->ns.v[i].uri, uri) == 0) {
                w->prefix[n] = doc->ns.v[i].prefix;
                found = true;
            }
        if (!found) {
            w->prefix[n] = dflt[n];
            for (unsigned k = 1; root_declares(w, w->prefix[n], NULL); k++) {
                snprintf(alt[n], sizeof alt[n], "%s%u", dflt[n], k);
                w->prefix[n] = alt[n];
            }
            /* declare only what the document kind uses */
            w->declare[n] = n == XF_NS_XAIF || (n == XF_NS_II && doc->kind == XF_DOC_INLINABLE) ||
                            (n == XF_NS_NII && doc->kind == XF_DOC_NONINLINABLE);
        }
    }
    size_t size = sizeof alt;
    for (int e = 0; e < XF_EL_COUNT; e++) {
        const char *p = w->prefix[xf_elem_ns((xf_elem)e)];
        size += (p ? strlen(p) + 1 : 0) + strlen(xf_elem_name((xf_elem)e)) + 1;
    }
    if (!(w->names = malloc(size)))
        return false;
    /* the names made here live in w->names, as the element names do */
    char *q = w->names;
    memcpy(q, alt, sizeof alt);
    for (int n = 0; n < XF_NS_COUNT; n++)
        if (w->prefix[n] == alt[n])
            w->prefix[n] = q + (size_t)n * sizeof alt[n];
    q += sizeof alt;
    for (int e = 0; e < XF_EL_COUNT; e++) {
        const char *p = w->prefix[xf_elem_ns((xf_elem)e)];
        int n = sprintf(q, p ? "%s:%s" : "%s%s", p ? p : "", xf_elem_name((xf_elem)e));
        w->qname[e] = q;
        q += n + 1;
    }
    return true;
}

static int
write_doc(const xf_doc *doc, xf_xo *tw, xf_diag *diag, const char *where)
{
    wr w = {.w = tw, .doc = doc};
    if (!wr_setup(&w)) {
        xf_error(diag, where, 0, "out of memory");
        return -1;
    }
    check(&w, xf_xo_indent(tw, "  "));
    check(&w, xf_xo_start_document(tw));
    for (uint32_t i = 0; i < doc->before.n; i++)
        wr_xnode(&w, doc->before.v[i], NULL);
    switch (doc->kind) {
    case XF_DOC_CALLGRAPH:
        write_callgraph(&w);
        break;
    case XF_DOC_INLINABLE:
        write_ii_defs(&w);
        break;
    case XF_DOC_NONINLINABLE:
        write_nii_defs(&w);
        break;
    }
    for (uint32_t i = 0; i < doc->after.n; i++)
        wr_xnode(&w, doc->after.v[i], NULL);
    check(&w, xf_xo_end_document(tw));
    check(&w, xf_xo_flush(tw));
    free(w.names);
    if (w.failed) {
        xf_error(diag, where, 0, "cannot write: %s", errno ? strerror(errno) : "output error");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ outputs */

int
xf_write_memory(const xf_doc *doc, char **out, size_t *len, xf_diag *diag)
{
    *out = NULL;
    *len = 0;
    xf_xo *xo = xf_xo_new_memory();
    if (!xo) {
        xf_error(diag, NULL, 0, "out of memory");
        return -1;
    }
    int ret = write_doc(doc, xo, diag, "<memory>");
    if (ret == 0 && !(*out = xf_xo_take(xo, len))) {
        xf_error(diag, NULL, 0, "out of memory");
        ret = -1;
    }
    xf_xo_free(xo);
    return ret;
}

static int
write_fd(const xf_doc *doc, int fd, const char *where, xf_diag *diag)
{
    xf_xo *xo = xf_xo_new_fd(fd);
    if (!xo) {
        xf_error(diag, where, 0, "out of memory");
        return -1;
    }
    errno = 0;
    int ret = write_doc(doc, xo, diag, where);
    xf_xo_free(xo); /* the descriptor stays open */
    return ret;
}

int
xf_write_file(const xf_doc *doc, const char *path, xf_diag *diag)
{
    if (strcmp(path, "-") == 0)
        return write_fd(doc, STDOUT_FILENO, "<stdout>", diag);
    xf_outfile o;
    char why[300];
    if (xf_outfile_open(&o, path, doc->filename, why, sizeof why) != 0) {
        xf_error(diag, path, 0, "%s", why);
        return -1;
    }
    int ret = write_fd(doc, o.fd, path, diag);
    if (close(o.fd) != 0 && ret == 0) {
        xf_error(diag, path, 0, "cannot write: %s", strerror(errno));
        ret = -1;
    }
    if (xf_outfile_finish(&o, ret == 0, why, sizeof why) != 0 && ret == 0) {
        xf_error(diag, path, 0, "%s", why);
        ret = -1;
    }
    return ret;
}
