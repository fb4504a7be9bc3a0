/* gen_synthetic.c: xaiform-gen-synthetic, a large valid xaif document made
 * from a real front-end file by copying its routines until the output has
 * the requested size.
 *
 *   xaiform-gen-synthetic IN.xaif SIZE_MB -o OUT.xaif
 *
 * Every ControlFlowGraph of IN is one member of a "group"; the group is
 * copied N times (N chosen for SIZE_MB, 1 MB = 10^6 bytes). Copy k gets:
 *   - for each routine, a new scope (fresh vertex_id) holding the routine's
 *     local symbols renamed NAME_ck, with a ScopeEdge (fresh edge_id) to the
 *     original scope's parent;
 *   - for each routine whose symbol lives outside the copied scopes (the
 *     global scope), a new subroutine Symbol NAME_ck next to the original;
 *   - for each routine, a copy of its ControlFlowGraph with a fresh
 *     vertex_id, its symbol_id and controlflowgraph_scope_id pointing at the
 *     new symbol and scope, and every scope_id/symbol_id inside rewritten the
 *     same way (references to the global scope's other symbols stay);
 *   - a copy of each CallGraphEdge between two routines of the group.
 * Alias, DU/UD and DO keys are shared by all copies (they stay valid). The
 * result passes `xaiform validate` and strict `xaiform copy`.
 *
 * A tool, not the product: it uses libxml2's DOM and holds the whole output
 * in memory (about 8x its size).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#define XAIF_URI "http://www.mcs.anl.gov/XAIF"

/* ------------------------------------------------------------ helpers */

/* Report "WHAT[: ARG]" and exit. */
static void
die(const char *what, const char *arg)
{
    fprintf(stderr, "xaiform-gen-synthetic: %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
    exit(1);
}

static void *
xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        die("out of memory", NULL);
    return p;
}

static bool
is_el(const xmlNode *n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && n->ns && n->ns->href &&
           strcmp((const char *)n->ns->href, XAIF_URI) == 0 &&
           strcmp((const char *)n->name, name) == 0;
}

static char *
get(xmlNode *n, const char *attr)
{
    return (char *)xmlGetNoNsProp(n, BAD_CAST attr); /* caller frees with xmlFree */
}

static void
set(xmlNode *n, const char *attr, const char *value)
{
    if (!xmlSetProp(n, BAD_CAST attr, BAD_CAST value))
        die("out of memory", NULL);
}

/* The value of a numeric id, or -1 when it is not a plain number. */
static long long
num(const char *s)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    return *end || errno ? -1 : v;
}

static void
max_id(long long *m, xmlNode *n, const char *attr)
{
    char *s = get(n, attr);
    long long v = num(s);
    if (v > *m)
        *m = v;
    xmlFree(s);
}

static xmlNode *
first_child(xmlNode *n, const char *name)
{
    for (xmlNode *c = n ? n->children : NULL; c; c = c->next)
        if (is_el(c, name))
            return c;
    return NULL;
}

/* --------------------------------------------------------------- input */

typedef struct routine {
    xmlNode *cfg;
    char *scope_id, *symbol_id, *cfg_scope_id;
    xmlNode *scope; /* the Scope of cfg_scope_id */
    char *parent;   /* its parent scope (from its ScopeEdge), or NULL */
    xmlNode *sym;   /* the routine's Symbol, when outside the copied scopes */
} routine;

typedef struct input {
    xmlDoc *doc;
    xmlNode *root, *hierarchy;
    routine *r;
    size_t nr;
    xmlNode **cge; /* CallGraphEdges between routines of the group */
    size_t ncge;
    xmlNode *last_cfg;
    long long max_scope, max_scope_edge, max_routine, max_cg_edge;
} input;

static xmlNode *
find_scope(input *in, const char *id)
{
    for (xmlNode *c = in->hierarchy->children; c; c = c->next) {
        if (!is_el(c, "Scope"))
            continue;
        char *v = get(c, "vertex_id");
        bool hit = v && strcmp(v, id) == 0;
        xmlFree(v);
        if (hit)
            return c;
    }
    return NULL;
}

static char *
scope_parent(input *in, const char *id)
{
    for (xmlNode *c = in->hierarchy->children; c; c = c->next) {
        if (!is_el(c, "ScopeEdge"))
            continue;
        char *src = get(c, "source");
        bool hit = src && strcmp(src, id) == 0;
        xmlFree(src);
        if (hit)
            return get(c, "target");
    }
    return NULL;
}

static xmlNode *
find_symbol(xmlNode *scope, const char *name)
{
    xmlNode *tab = first_child(scope, "SymbolTable");
    for (xmlNode *c = tab ? tab->children : NULL; c; c = c->next) {
        if (!is_el(c, "Symbol"))
            continue;
        char *v = get(c, "symbol_id");
        bool hit = v && strcmp(v, name) == 0;
        xmlFree(v);
        if (hit)
            return c;
    }
    return NULL;
}

static bool
is_cfg_scope(const input *in, const char *id)
{
    for (size_t i = 0; i < in->nr; i++)
        if (strcmp(in->r[i].cfg_scope_id, id) == 0)
            return true;
    return false;
}

static bool
is_routine(const input *in, const char *vertex_id)
{
    for (size_t i = 0; i < in->nr; i++) {
        char *v = get(in->r[i].cfg, "vertex_id");
        bool hit = v && strcmp(v, vertex_id) == 0;
        xmlFree(v);
        if (hit)
            return true;
    }
    return false;
}

static void
load(input *in, const char *path)
{
    in->doc = xmlReadFile(path, NULL, XML_PARSE_NOBLANKS | XML_PARSE_NONET | XML_PARSE_HUGE);
    if (!in->doc)
        die("cannot parse", path);
    in->root = xmlDocGetRootElement(in->doc);
    if (!is_el(in->root, "CallGraph"))
        die("the root is no xaif:CallGraph", path);
    in->hierarchy = first_child(in->root, "ScopeHierarchy");
    if (!in->hierarchy)
        die("no ScopeHierarchy", path);
    in->max_scope = in->max_scope_edge = in->max_routine = in->max_cg_edge = 0;
    size_t cap = 0;
    for (xmlNode *c = in->hierarchy->children; c; c = c->next) {
        if (is_el(c, "Scope"))
            max_id(&in->max_scope, c, "vertex_id");
        else if (is_el(c, "ScopeEdge"))
            max_id(&in->max_scope_edge, c, "edge_id");
    }
    for (xmlNode *c = in->root->children; c; c = c->next) {
        if (is_el(c, "ControlFlowGraph") || is_el(c, "ReplacementList"))
            max_id(&in->max_routine, c, "vertex_id");
        if (is_el(c, "CallGraphEdge"))
            max_id(&in->max_cg_edge, c, "edge_id");
        if (!is_el(c, "ControlFlowGraph"))
            continue;
        if (in->nr == cap) {
            cap = cap ? 2 * cap : 16;
            in->r = realloc(in->r, cap * sizeof *in->r);
            if (!in->r)
                die("out of memory", NULL);
        }
        routine *r = &in->r[in->nr++];
        memset(r, 0, sizeof *r);
        r->cfg = c;
        r->scope_id = get(c, "scope_id");
        r->symbol_id = get(c, "symbol_id");
        r->cfg_scope_id = get(c, "controlflowgraph_scope_id");
        if (!r->scope_id || !r->symbol_id || !r->cfg_scope_id)
            die("a ControlFlowGraph without scope_id, symbol_id or controlflowgraph_scope_id",
                path);
        if (!(r->scope = find_scope(in, r->cfg_scope_id)))
            die("no scope", r->cfg_scope_id);
        r->parent = scope_parent(in, r->cfg_scope_id);
        in->last_cfg = c;
    }
    if (!in->nr)
        die("no ControlFlowGraph to copy", path);
    for (size_t i = 0; i < in->nr; i++) {
        routine *r = &in->r[i];
        if (is_cfg_scope(in, r->scope_id))
            continue; /* its symbol is copied with its scope */
        xmlNode *sc = find_scope(in, r->scope_id);
        if (!sc || !(r->sym = find_symbol(sc, r->symbol_id)))
            die("no symbol for routine", r->symbol_id);
    }
    in->cge = xcalloc(xmlChildElementCount(in->root), sizeof(xmlNode *));
    for (xmlNode *c = in->root->children; c; c = c->next) {
        if (!is_el(c, "CallGraphEdge"))
            continue;
        char *s = get(c, "source"), *t = get(c, "target");
        if (s && t && is_routine(in, s) && is_routine(in, t))
            in->cge[in->ncge++] = c;
        xmlFree(s);
        xmlFree(t);
    }
}

/* ------------------------------------------------------------ one copy */

typedef struct copy {
    input *in;
    unsigned k;
    char suffix[32];
    char **new_scope;  /* per routine: the new id of its cfg scope */
    char **new_vertex; /* per routine: its new vertex_id */
} copy;

static char *
fmt_id(long long v)
{
    char *s = xcalloc(1, 24);
    snprintf(s, 24, "%lld", v);
    return s;
}

static char *
renamed(const copy *c, const char *name)
{
    size_t n = strlen(name) + strlen(c->suffix) + 1;
    char *s = xcalloc(1, n);
    snprintf(s, n, "%s%s", name, c->suffix);
    return s;
}

/* The new id of scope @id in this copy, or NULL when it is not copied. */
static const char *
map_scope(const copy *c, const char *id)
{
    for (size_t i = 0; i < c->in->nr; i++)
        if (strcmp(c->in->r[i].cfg_scope_id, id) == 0)
            return c->new_scope[i];
    return NULL;
}

static bool
is_routine_symbol(const copy *c, const char *scope, const char *sym)
{
    for (size_t i = 0; i < c->in->nr; i++)
        if (c->in->r[i].sym && strcmp(c->in->r[i].scope_id, scope) == 0 &&
            strcmp(c->in->r[i].symbol_id, sym) == 0)
            return true;
    return false;
}

/* Rewrite scope_id / symbol_id of @n and its descendants for this copy. */
static void
relink(const copy *c, xmlNode *n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        char *scope = get(n, "scope_id");
        if (scope) {
            const char *ns = map_scope(c, scope);
            char *sym = get(n, "symbol_id");
            if (sym && (ns || is_routine_symbol(c, scope, sym))) {
                char *s = renamed(c, sym);
                set(n, "symbol_id", s);
                free(s);
            }
            if (ns)
                set(n, "scope_id", ns);
            xmlFree(sym);
            xmlFree(scope);
        }
        relink(c, n->children);
    }
}

/* A copy of @n for insertion under @parent, sharing the namespace
 * declarations in scope there instead of declaring its own. */
static void
fix_ns_refs(xmlNode *n, xmlNs *defs, xmlNode *parent)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        for (xmlNs *d = defs; d; d = d->next) {
            if (n->ns == d)
                n->ns = xmlSearchNsByHref(n->doc, parent, d->href);
            for (xmlAttr *a = n->properties; a; a = a->next)
                if (a->ns == d)
                    a->ns = xmlSearchNsByHref(n->doc, parent, d->href);
        }
        fix_ns_refs(n->children, defs, parent);
    }
}

static xmlNode *
clone(xmlNode *n, xmlNode *parent)
{
    xmlNode *c = xmlDocCopyNode(n, n->doc, 1);
    if (!c)
        die("out of memory", NULL);
    xmlNs *defs = c->nsDef;
    if (defs) {
        c->nsDef = NULL;
        fix_ns_refs(c, defs, parent);
        xmlFreeNsList(defs);
    }
    return c;
}

static size_t
dumped(xmlNode *n)
{
    xmlBuffer *b = xmlBufferCreate();
    if (!b)
        die("out of memory", NULL);
    int len = xmlNodeDump(b, n->doc, n, 1, 1);
    xmlBufferFree(b);
    return len > 0 ? (size_t)len + 3 : 0; /* indentation and newline */
}

/* Add copy @k of the group to the document; returns the bytes it adds
 * (roughly, as the pretty-printed output will spell them). */
static size_t
add_copy(input *in, unsigned k)
{
    copy c = {.in = in, .k = k};
    snprintf(c.suffix, sizeof c.suffix, "_c%u", k);
    c.new_scope = xcalloc(in->nr, sizeof *c.new_scope);
    c.new_vertex = xcalloc(in->nr, sizeof *c.new_vertex);
    size_t bytes = 0;
    for (size_t i = 0; i < in->nr; i++) {
        c.new_scope[i] = fmt_id(++in->max_scope);
        c.new_vertex[i] = fmt_id(++in->max_routine);
    }
    for (size_t i = 0; i < in->nr; i++) {
        routine *r = &in->r[i];
        /* the scope and its ScopeEdge */
        xmlNode *sc = clone(r->scope, in->hierarchy);
        set(sc, "vertex_id", c.new_scope[i]);
        xmlNode *tab = first_child(sc, "SymbolTable");
        for (xmlNode *s = tab ? tab->children : NULL; s; s = s->next) {
            if (!is_el(s, "Symbol"))
                continue;
            char *name = get(s, "symbol_id");
            if (name) {
                char *nn = renamed(&c, name);
                set(s, "symbol_id", nn);
                free(nn);
            }
            xmlFree(name);
        }
        xmlAddChild(in->hierarchy, sc);
        bytes += dumped(sc);
        if (r->parent) {
            const char *p = map_scope(&c, r->parent);
            xmlNode *e = xmlNewChild(in->hierarchy, in->hierarchy->ns, BAD_CAST "ScopeEdge", NULL);
            char *eid = fmt_id(++in->max_scope_edge);
            set(e, "edge_id", eid);
            set(e, "source", c.new_scope[i]);
            set(e, "target", p ? p : r->parent);
            free(eid);
            bytes += dumped(e);
        }
        /* the routine's symbol */
        if (r->sym) {
            xmlNode *s = clone(r->sym, r->sym->parent);
            char *nn = renamed(&c, r->symbol_id);
            set(s, "symbol_id", nn);
            free(nn);
            xmlAddChild(r->sym->parent, s);
            bytes += dumped(s);
        }
        /* the routine */
        xmlNode *g = clone(r->cfg, in->root);
        set(g, "vertex_id", c.new_vertex[i]);
        char *sym = renamed(&c, r->symbol_id);
        set(g, "symbol_id", sym);
        free(sym);
        set(g, "controlflowgraph_scope_id", c.new_scope[i]);
        const char *rs = map_scope(&c, r->scope_id);
        if (rs)
            set(g, "scope_id", rs);
        relink(&c, g->children);
        in->last_cfg = xmlAddNextSibling(in->last_cfg, g);
        bytes += dumped(g);
    }
    for (size_t j = 0; j < in->ncge; j++) {
        xmlNode *e = clone(in->cge[j], in->root);
        char *eid = fmt_id(++in->max_cg_edge);
        set(e, "edge_id", eid);
        free(eid);
        for (int end = 0; end < 2; end++) {
            const char *attr = end ? "target" : "source";
            char *v = get(e, attr);
            for (size_t i = 0; v && i < in->nr; i++) {
                char *rv = get(in->r[i].cfg, "vertex_id");
                bool hit = rv && strcmp(rv, v) == 0;
                xmlFree(rv);
                if (hit) {
                    set(e, attr, c.new_vertex[i]);
                    break;
                }
            }
            xmlFree(v);
        }
        xmlAddChild(in->root, e);
        bytes += dumped(e);
    }
    for (size_t i = 0; i < in->nr; i++) {
        free(c.new_scope[i]);
        free(c.new_vertex[i]);
    }
    free(c.new_scope);
    free(c.new_vertex);
    return bytes;
}

/* ---------------------------------------------------------------- main */

static void
usage(void)
{
    fprintf(stderr, "usage: xaiform-gen-synthetic IN.xaif SIZE_MB -o OUT.xaif\n"
                    "  Copy the routines of IN (a front-end xaif file) until the output has\n"
                    "  about SIZE_MB megabytes (10^6 bytes); the result is valid xaif.\n");
    exit(2);
}

int
main(int argc, char **argv)
{
    const char *in_path = NULL, *out_path = NULL, *size_arg = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out_path = argv[++i];
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            usage();
        else if (!in_path)
            in_path = argv[i];
        else if (!size_arg)
            size_arg = argv[i];
        else
            usage();
    }
    if (!in_path || !size_arg || !out_path)
        usage();
    char *end;
    double mb = strtod(size_arg, &end);
    if (*end || !(mb > 0) || mb > 4000)
        die("SIZE_MB must be a number of megabytes in (0, 4000]", size_arg);
    double target = mb * 1e6;

    LIBXML_TEST_VERSION
    xmlKeepBlanksDefault(0);
    input in = {0};
    load(&in, in_path);

    /* the input as written out again, then copies until the target */
    xmlBuffer *b = xmlBufferCreate();
    if (!b)
        die("out of memory", NULL);
    xmlNodeDump(b, in.doc, in.root, 0, 1);
    double size = (double)xmlBufferLength(b) + 40;
    xmlBufferFree(b);
    unsigned k = 0;
    while (size < target) {
        if (k == UINT_MAX)
            die("too many copies", NULL);
        size += (double)add_copy(&in, ++k);
    }

    if (xmlSaveFormatFileEnc(out_path, in.doc, "UTF-8", 1) < 0)
        die("cannot write", out_path);
    fprintf(stderr, "%s: %zu routines x %u copies (+ the original) = %zu routines, about %.1f MB\n",
            out_path, in.nr, k, in.nr * (k + 1), size / 1e6);
    for (size_t i = 0; i < in.nr; i++) {
        xmlFree(in.r[i].scope_id);
        xmlFree(in.r[i].symbol_id);
        xmlFree(in.r[i].cfg_scope_id);
        xmlFree(in.r[i].parent);
    }
    free(in.r);
    free(in.cge);
    xmlFreeDoc(in.doc);
    xmlCleanupParser();
    return 0;
}
