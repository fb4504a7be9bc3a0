/* ir.c: element and enum name tables, documents, look-ups. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

#include "strtab.h"

static const char *const elem_names[] = {
#define XF_ELEM(e, ns, name) [XF_EL_##e] = name,
#include "xaif_elements.def"
#undef XF_ELEM
};

static const xf_ns elem_ns[] = {
#define XF_ELEM(e, ns, name) [XF_EL_##e] = XF_NS_##ns,
#include "xaif_elements.def"
#undef XF_ELEM
};

const char *
xf_elem_name(xf_elem e)
{
    return e < XF_EL_COUNT ? elem_names[e] : "?";
}

xf_ns
xf_elem_ns(xf_elem e)
{
    return e < XF_EL_COUNT ? elem_ns[e] : XF_NS_XAIF;
}

const char *
xf_ns_uri(xf_ns ns)
{
    switch (ns) {
    case XF_NS_XAIF:
        return XF_URI_XAIF;
    case XF_NS_II:
        return XF_URI_II;
    case XF_NS_NII:
        return XF_URI_NII;
    case XF_NS_COUNT:
        break;
    }
    return NULL;
}

/* Enum tables: index = value; [0] is the absent value. */
static const char *const flag_names[] = {NULL, "0", "1", "false", "true", "undefined"};
static const char *const symkind_names[] = {NULL, "variable", "subroutine", "pointer"};
static const char *const type_names[] = {NULL,      "void", "integer", "real",   "double",
                                         "complex", "bool", "char",    "string", "opaque"};
static const char *const shape_names[] = {NULL,          "scalar",       "vector",
                                          "matrix",      "three_tensor", "four_tensor",
                                          "five_tensor", "six_tensor",   "seven_tensor"};
static const char *const intent_names[] = {NULL, "in", "out", "inout"};
static const char *const reversal_names[] = {NULL, "anonymous", "explicit"};

#define N(t) (sizeof(t) / sizeof(t[0]))

static bool
lookup(const char *const *names, size_t n, const char *s, int *out)
{
    for (size_t i = 1; i < n; i++)
        if (strcmp(names[i], s) == 0) {
            *out = (int)i;
            return true;
        }
    return false;
}

#define ENUM_FUNCS(T, tab, namefn, parsefn)                                                        \
    const char *namefn(T v)                                                                        \
    {                                                                                              \
        return (size_t)v < N(tab) ? tab[v] : NULL;                                                 \
    }                                                                                              \
    bool parsefn(const char *s, T *out)                                                            \
    {                                                                                              \
        int i;                                                                                     \
        if (!lookup(tab, N(tab), s, &i))                                                           \
            return false;                                                                          \
        *out = (T)i;                                                                               \
        return true;                                                                               \
    }

ENUM_FUNCS(xf_flag, flag_names, xf_flag_text, xf_flag_parse)
ENUM_FUNCS(xf_symkind, symkind_names, xf_symkind_name, xf_symkind_parse)
ENUM_FUNCS(xf_type, type_names, xf_type_name, xf_type_parse)
ENUM_FUNCS(xf_shape, shape_names, xf_shape_name, xf_shape_parse)
ENUM_FUNCS(xf_intent, intent_names, xf_intent_name, xf_intent_parse)
ENUM_FUNCS(xf_reversal, reversal_names, xf_reversal_name, xf_reversal_parse)

int
xf_shape_rank(xf_shape s)
{
    return s == XF_SHAPE_NONE ? -1 : (int)s - 1;
}

xf_symref *
xf_varref_symref(const xf_varref *r)
{
    for (uint32_t i = 0; i < r->v.n; i++)
        if (r->v.v[i].kind == XF_VR_SYMBOL)
            return &r->v.v[i].u.sym;
    return NULL;
}

xf_arrref *
xf_varref_arrref(const xf_varref *r)
{
    for (uint32_t i = 0; i < r->v.n; i++)
        if (r->v.v[i].kind == XF_VR_ARRAY)
            return &r->v.v[i].u.arr;
    return NULL;
}

uint32_t
xf_expr_root(const xf_expr *x)
{
    /* one pass over the edges marks the sources; a bit per vertex */
    uint64_t small[16] = {0};
    size_t words = ((size_t)x->v.n + 63) / 64;
    uint64_t *src = words <= 16 ? small : calloc(words, sizeof *src);
    if (!src)
        return UINT32_MAX;
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].src < x->v.n)
            src[x->e.v[j].src / 64] |= (uint64_t)1 << (x->e.v[j].src % 64);
    uint32_t root = UINT32_MAX;
    for (uint32_t i = 0; i < x->v.n; i++) {
        if (src[i / 64] >> (i % 64) & 1)
            continue;
        if (root != UINT32_MAX) {
            root = UINT32_MAX;
            break;
        }
        root = i;
    }
    if (src != small)
        free(src);
    return root;
}

xf_doc *
xf_doc_new(const char *filename)
{
    xf_arena *a = xf_arena_new();
    if (!a)
        return NULL;
    xf_doc *doc = XF_NEW(a, xf_doc);
    if (!doc) {
        xf_arena_free(a);
        return NULL;
    }
    doc->arena = a;
    doc->strs = xf_strtab_new();
    if (!doc->strs) {
        xf_arena_free(a);
        return NULL;
    }
    doc->kind = XF_DOC_CALLGRAPH;
    if (filename && !(doc->filename = xf_intern(doc, filename))) {
        xf_doc_free(doc);
        return NULL;
    }
    return doc;
}

void
xf_doc_free(xf_doc *doc)
{
    if (!doc)
        return;
    xf_strtab_free(doc->strs);
    xf_arena_free(doc->arena); /* doc itself lives in its arena */
}

const char *
xf_intern(xf_doc *doc, const char *s)
{
    /* NULL: a string its caller failed to make (out of memory), which the
     * caller then sees as a refusal */
    return s ? xf_strtab_intern(doc->strs, s, -1) : NULL;
}

size_t
xf_doc_bytes(const xf_doc *doc)
{
    return xf_arena_reserved(doc->arena) + xf_strtab_bytes(doc->strs);
}

xf_scope *
xf_scope_find(const xf_doc *doc, const char *id)
{
    return xf_map_get(&doc->cg.scopes.map, id);
}

xf_symbol *
xf_symbol_find(const xf_scope *scope, const char *id)
{
    return xf_map_get(&scope->symmap, id);
}

xf_routine *
xf_routine_find(const xf_doc *doc, const char *id)
{
    return xf_map_get(&doc->cg.rmap, id);
}

xf_routine *
xf_routine_of(const xf_doc *doc, const xf_symbol *sym)
{
    for (uint32_t i = 0; sym && i < doc->cg.routines.n; i++)
        if (doc->cg.routines.v[i]->sym == sym)
            return doc->cg.routines.v[i];
    return NULL;
}

xf_cvertex *
xf_cvertex_find(const xf_graph *g, const char *id)
{
    return xf_map_get(&g->vmap, id);
}

const char *
xf_cvkind_name(xf_cvkind k)
{
    switch (k) {
    case XF_CV_ENTRY:
        return "Entry";
    case XF_CV_EXIT:
        return "Exit";
    case XF_CV_BASICBLOCK:
        return "BasicBlock";
    case XF_CV_IF:
        return "If";
    case XF_CV_FORLOOP:
        return "ForLoop";
    case XF_CV_PRELOOP:
        return "PreLoop";
    case XF_CV_POSTLOOP:
        return "PostLoop";
    case XF_CV_BRANCH:
        return "Branch";
    case XF_CV_ENDBRANCH:
        return "EndBranch";
    case XF_CV_ENDLOOP:
        return "EndLoop";
    case XF_CV_LABEL:
        return "Label";
    case XF_CV_GOTO:
        return "Goto";
    }
    return "?";
}
