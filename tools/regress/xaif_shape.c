/* xaif_shape.c: see xaif_shape.h. Each document is read into a list of
 * routines (one per ControlFlowGraph), which are then matched by name. */
#include "xaif_shape.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

/* the vertex kinds of a ControlFlowGraph, counted per routine */
static const char *const kinds[] = {"Entry",   "Exit",      "BasicBlock", "ForLoop",
                                    "PreLoop", "PostLoop",  "EndLoop",    "Branch",
                                    "If",      "EndBranch", "Goto",       "Label"};
enum { NKINDS = sizeof kinds / sizeof kinds[0], BLOCK = 2 };

typedef struct {
    char name[128]; /* plain (xf_xaif_shape_name) */
    const char *shape, *type, *kind;
} sym;

typedef struct {
    const xmlNode *table; /* a Scope's SymbolTable */
    const char *id;       /* the Scope's vertex_id */
} scope;

typedef struct {
    char name[128];
    const char *raw;      /* its symbol_id */
    const xmlNode *cfg;   /* its ControlFlowGraph */
    const xmlNode *table; /* the SymbolTable of its controlflowgraph_scope_id */
    int count[NKINDS];    /* vertices per kind */
    int nvert;            /* all vertices */
    bool matched;
} routine;

typedef struct {
    const char *file;
    xmlDoc *doc;
    scope *scopes;
    size_t nscopes;
    routine *r;
    size_t n;
} shape;

static const char *
attr(const xmlNode *n, const char *name)
{
    const xmlAttr *a = xmlHasProp((xmlNode *)n, (const xmlChar *)name);
    if (!a || !a->children || !a->children->content)
        return "";
    return (const char *)a->children->content;
}

static bool
is(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static const xmlNode *
child(const xmlNode *n, const char *name)
{
    for (const xmlNode *c = n ? n->children : NULL; c; c = c->next)
        if (is(c, name))
            return c;
    return NULL;
}

void
xf_xaif_shape_name(const char *id, char *out, size_t len)
{
    size_t n = strlen(id);
    size_t d = n;
    while (d > 0 && isdigit((unsigned char)id[d - 1]))
        d--;
    if (d < n && d > 1 && id[d - 1] == '_') /* "_N" */
        n = d - 1;
    while (n > 1 && id[n - 1] == '_')
        n--;
    if (len == 0)
        return;
    if (n >= len)
        n = len - 1;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)tolower((unsigned char)id[i]);
    out[n] = '\0';
}

/* a front end's own temporaries: Open64's pseudo-registers (".preg_…"),
 * OpenAD's and ours ("oad_…", "openad_…", "xf_…") */
static bool
is_temp(const char *plain)
{
    return plain[0] == '.' || strncmp(plain, "oad_", 4) == 0 || strncmp(plain, "openad_", 7) == 0 ||
           strncmp(plain, "xf_", 3) == 0;
}

/* Only the basic blocks that hold statements count: where a front end
 * puts empty ones (OpenAD's before and after loops and branches) is no
 * part of the program's shape. */
static bool
has_statement(const xmlNode *block)
{
    for (const xmlNode *c = block->children; c; c = c->next)
        if (is(c, "Assignment") || is(c, "SubroutineCall"))
            return true;
    return false;
}

static const xmlNode *
table_of(const shape *s, const char *scope_id)
{
    for (size_t i = 0; i < s->nscopes; i++)
        if (strcmp(s->scopes[i].id, scope_id) == 0)
            return s->scopes[i].table;
    return NULL;
}

static const xmlNode *
symbol_in(const xmlNode *table, const char *id)
{
    for (const xmlNode *c = table ? table->children : NULL; c; c = c->next)
        if (is(c, "Symbol") && strcmp(attr(c, "symbol_id"), id) == 0)
            return c;
    return NULL;
}

/* Read @s->doc's scopes and routines. */
static int
fill(shape *s)
{
    const xmlNode *root = xmlDocGetRootElement(s->doc);
    if (!root || !is(root, "CallGraph"))
        return -1;
    size_t ns = 0, nr = 0;
    const xmlNode *hier = child(root, "ScopeHierarchy");
    for (const xmlNode *c = hier ? hier->children : NULL; c; c = c->next)
        ns += is(c, "Scope");
    for (const xmlNode *c = root->children; c; c = c->next)
        nr += is(c, "ControlFlowGraph");
    s->scopes = calloc(ns + 1, sizeof *s->scopes);
    s->r = calloc(nr + 1, sizeof *s->r);
    if (!s->scopes || !s->r)
        return -1;
    for (const xmlNode *c = hier ? hier->children : NULL; c; c = c->next)
        if (is(c, "Scope"))
            s->scopes[s->nscopes++] = (scope){child(c, "SymbolTable"), attr(c, "vertex_id")};
    for (const xmlNode *c = root->children; c; c = c->next) {
        if (!is(c, "ControlFlowGraph"))
            continue;
        routine *r = &s->r[s->n++];
        r->raw = attr(c, "symbol_id");
        xf_xaif_shape_name(r->raw, r->name, sizeof r->name);
        r->cfg = c;
        r->table = table_of(s, attr(c, "controlflowgraph_scope_id"));
        for (const xmlNode *v = c->children; v; v = v->next)
            for (int k = 0; k < NKINDS; k++)
                if (is(v, kinds[k]) && (k != BLOCK || has_statement(v))) {
                    r->count[k]++;
                    r->nvert++;
                }
    }
    return 0;
}

static routine *
find(shape *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->r[i].name, name) == 0)
            return &s->r[i];
    return NULL;
}

/* the symbols of @table, sorted by plain name */
static int
by_name(const void *x, const void *y)
{
    return strcmp(((const sym *)x)->name, ((const sym *)y)->name);
}

static sym *
symbols(const xmlNode *table, size_t *n)
{
    size_t cap = 0;
    for (const xmlNode *c = table ? table->children : NULL; c; c = c->next)
        cap += is(c, "Symbol");
    sym *v = calloc(cap + 1, sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    for (const xmlNode *c = table ? table->children : NULL; c; c = c->next) {
        if (!is(c, "Symbol"))
            continue;
        sym *y = &v[(*n)++];
        xf_xaif_shape_name(attr(c, "symbol_id"), y->name, sizeof y->name);
        y->shape = attr(c, "shape");
        y->type = attr(c, "type");
        y->kind = attr(c, "kind");
    }
    qsort(v, *n, sizeof *v, by_name);
    return v;
}

typedef struct {
    FILE *out;
    const char *na, *nb;
    int diffs;
} report;

static void
differ(report *p, const char *where, const char *what, const char *a, const char *b)
{
    fprintf(p->out, "%s: %s: '%s' in %s, '%s' in %s\n", where, what, a, p->na, b, p->nb);
    p->diffs++;
}

static void
compare_symbols(report *p, const routine *ra, const routine *rb)
{
    size_t na, nb;
    sym *a = symbols(ra->table, &na);
    sym *b = symbols(rb->table, &nb);
    size_t i = 0, j = 0;
    while (a && b && (i < na || j < nb)) {
        int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i].name, b[j].name);
        if (c == 0) {
            if (strcmp(a[i].shape, b[j].shape) != 0) {
                char what[200];
                snprintf(what, sizeof what, "symbol %s: shape", a[i].name);
                differ(p, ra->name, what, a[i].shape, b[j].shape);
            }
            i++, j++;
            continue;
        }
        const sym *y = c < 0 ? &a[i++] : &b[j++];
        const char *in = c < 0 ? p->na : p->nb;
        if (is_temp(y->name)) {
            fprintf(p->out, "note: %s: temporary %s only in %s\n", ra->name, y->name, in);
        } else if (strcmp(y->kind, "variable") != 0) {
            /* OpenAD declares the routines it calls in the caller's scope too */
            fprintf(p->out, "note: %s: %s %s only in %s\n", ra->name, y->kind, y->name, in);
        } else {
            fprintf(p->out, "%s: symbol %s (%s) only in %s\n", ra->name, y->name, y->shape, in);
            p->diffs++;
        }
    }
    free(a);
    free(b);
}

/* the formal arguments: position, plain name, shape, type, intent */
typedef struct {
    char name[128];
    long pos;
    const char *shape, *type, *intent;
} arg;

static int
by_position(const void *x, const void *y)
{
    long a = ((const arg *)x)->pos, b = ((const arg *)y)->pos;
    return (a > b) - (a < b);
}

static arg *
arguments(const shape *s, const routine *r, size_t *n)
{
    const xmlNode *list = child(r->cfg, "ArgumentList");
    size_t cap = 0;
    for (const xmlNode *c = list ? list->children : NULL; c; c = c->next)
        cap += is(c, "ArgumentSymbolReference");
    arg *v = calloc(cap + 1, sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    for (const xmlNode *c = list ? list->children : NULL; c; c = c->next) {
        if (!is(c, "ArgumentSymbolReference"))
            continue;
        arg *a = &v[(*n)++];
        const char *id = attr(c, "symbol_id");
        const xmlNode *y = symbol_in(table_of(s, attr(c, "scope_id")), id);
        xf_xaif_shape_name(id, a->name, sizeof a->name);
        a->pos = strtol(attr(c, "position"), NULL, 10);
        a->shape = y ? attr(y, "shape") : "?";
        a->type = y ? attr(y, "type") : "?";
        a->intent = attr(c, "intent");
    }
    qsort(v, *n, sizeof *v, by_position);
    return v;
}

/* Intents @a and @b differ, but one is "inout", which is true of any
 * argument: OpenAD writes the declared intent ("inout" where none is
 * declared), c2xaif's and f2xaif's analysis the one the routine's reads and
 * writes show. "in" against "out" is a difference. */
static bool
weaker(const char *a, const char *b)
{
    return strcmp(a, b) != 0 && (strcmp(a, "inout") == 0 || strcmp(b, "inout") == 0);
}

static void
compare_arguments(report *p, const shape *sa, const routine *ra, const shape *sb, const routine *rb)
{
    size_t na, nb;
    arg *a = arguments(sa, ra, &na);
    arg *b = arguments(sb, rb, &nb);
    char what[200];
    if (na != nb) {
        char x[32], y[32];
        snprintf(x, sizeof x, "%zu", na);
        snprintf(y, sizeof y, "%zu", nb);
        differ(p, ra->name, "arguments", x, y);
    }
    for (size_t i = 0; a && b && i < na && i < nb; i++) {
        const char *fa[] = {a[i].name, a[i].shape, a[i].type, a[i].intent};
        const char *fb[] = {b[i].name, b[i].shape, b[i].type, b[i].intent};
        static const char *const field[] = {"name", "shape", "type", "intent"};
        for (int f = 0; f < 4; f++) {
            if (f == 3 && weaker(fa[f], fb[f])) {
                fprintf(p->out, "note: %s: argument %zu (%s): intent '%s' in %s, '%s' in %s\n",
                        ra->name, i + 1, a[i].name, fa[f], p->na, fb[f], p->nb);
                continue;
            }
            if (fa[f] && fb[f] && strcmp(fa[f], fb[f]) != 0) {
                snprintf(what, sizeof what, "argument %zu (%s): %s", i + 1, a[i].name, field[f]);
                differ(p, ra->name, what, fa[f], fb[f]);
            }
        }
    }
    free(a);
    free(b);
}

static void
compare_flow(report *p, const routine *ra, const routine *rb)
{
    for (int k = 0; k < NKINDS; k++) {
        if (ra->count[k] == rb->count[k])
            continue;
        char what[64], x[32], y[32];
        snprintf(what, sizeof what, "%s vertices", kinds[k]);
        snprintf(x, sizeof x, "%d", ra->count[k]);
        snprintf(y, sizeof y, "%d", rb->count[k]);
        differ(p, ra->name, what, x, y);
    }
}

/* Routines only one side has: a module's (a graph without vertices) is a
 * note, the others are differences. */
static void
unmatched(report *p, const shape *s, const char *in)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->r[i].matched)
            continue;
        if (s->r[i].nvert == 0) {
            fprintf(p->out, "note: module %s only in %s\n", s->r[i].name, in);
        } else {
            fprintf(p->out, "%s: routine only in %s\n", s->r[i].name, in);
            p->diffs++;
        }
    }
}

static int
compare(shape *sa, shape *sb, FILE *out)
{
    report p = {out, sa->file, sb->file, 0};
    for (size_t i = 0; i < sa->n; i++) {
        routine *ra = &sa->r[i];
        routine *rb = find(sb, ra->name);
        if (!rb || rb->matched)
            continue;
        ra->matched = rb->matched = true;
        compare_arguments(&p, sa, ra, sb, rb);
        compare_symbols(&p, ra, rb);
        compare_flow(&p, ra, rb);
    }
    unmatched(&p, sa, sa->file);
    unmatched(&p, sb, sb->file);
    return p.diffs ? 1 : 0;
}

static void
shape_fini(shape *s)
{
    free(s->scopes);
    free(s->r);
    xmlFreeDoc(s->doc);
}

static int
run(shape *sa, shape *sb, FILE *out)
{
    int ret = -1;
    if (!sa->doc || !sb->doc) {
        const xmlError *e = xmlGetLastError();
        const char *file = sa->doc ? sb->file : sa->file;
        if (e && e->line > 0)
            fprintf(out, "%s:%d: not an XML document: %s", file, e->line,
                    e->message ? e->message : "\n");
        else
            fprintf(out, "%s: cannot read it, or not an XML document\n", file);
    } else if (fill(sa) != 0) {
        fprintf(out, "%s: not an xaif CallGraph\n", sa->file);
    } else if (fill(sb) != 0) {
        fprintf(out, "%s: not an xaif CallGraph\n", sb->file);
    } else {
        ret = compare(sa, sb, out);
    }
    shape_fini(sa);
    shape_fini(sb);
    return ret;
}

enum { PARSE = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING };

int
xf_xaif_shape_compare(const char *a, size_t alen, const char *na, const char *b, size_t blen,
                      const char *nb, FILE *out)
{
    shape sa = {.file = na, .doc = xmlReadMemory(a, (int)alen, na, NULL, PARSE)};
    shape sb = {.file = nb, .doc = sa.doc ? xmlReadMemory(b, (int)blen, nb, NULL, PARSE) : NULL};
    return run(&sa, &sb, out);
}

int
xf_xaif_shape_compare_files(const char *a, const char *b, FILE *out)
{
    shape sa = {.file = a, .doc = xmlReadFile(a, NULL, PARSE)};
    shape sb = {.file = b, .doc = sa.doc ? xmlReadFile(b, NULL, PARSE) : NULL};
    return run(&sa, &sb, out);
}
