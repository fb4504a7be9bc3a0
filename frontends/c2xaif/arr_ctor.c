/* arr_ctor.c: constructors and destructors of arrays of structs (docs/c-frontend.md,
 * "Structs"). A function of the file that mallocs an array of structs, sets
 * its elements' members to 0 or NULL and returns it,
 *     Mat *mats_new(int n) { Mat *r = malloc(n * sizeof(Mat));
 *                            for (int i = 0; i < n; i++) { r[i].data = NULL; r[i].rows = 0; }
 *                            return r; }
 * makes the pointer local it sets (Mat *ms = mats_new(k);) a local array of
 * structs of run-time extent (k, the malloc's count over the call's
 * arguments): one work array a member, zero at the routine's entry as the
 * constructor leaves them. A pointer member is a block an element, of the
 * extent --extent FUNC:ms->data=E gives (E over FUNC's int parameters), so
 * ms_data[i][k]. A function whose body only frees its first parameter's
 * elements' pointer members and the parameter (in loops and tests) is the
 * array's destructor: no statement, like free(ms). */
#include <string.h>

#include "cf.h"

static bool
named(CXCursor x, const char *name)
{
    CXString s = clang_getCursorSpelling(x);
    bool r = !strcmp(clang_getCString(s), name);
    clang_disposeString(s);
    return r;
}

static const char *
spell(cf *c, CXCursor x)
{
    CXString s = clang_getCursorSpelling(x);
    const char *r = cf_strdup(c, clang_getCString(s));
    clang_disposeString(s);
    return r;
}

static CXCursor *
body_of(cf *c, CXCursor fn, unsigned *n)
{
    unsigned m;
    CXCursor *k = cf_children(c, fn, &m);
    for (unsigned i = 0; i < m; i++)
        if (clang_getCursorKind(k[i]) == CXCursor_CompoundStmt)
            return cf_children(c, k[i], n);
    *n = 0;
    return NULL;
}

/* Whether @x (stripped of casts) is r[i].m or r[i].a.b, r the variable declared at @r. */
static bool
element_member(cf *c, CXCursor x, CXCursor r)
{
    x = cf_bare(c, x);
    while (clang_getCursorKind(x) == CXCursor_MemberRefExpr) {
        unsigned n;
        CXCursor *k = cf_children(c, x, &n);
        if (n != 1)
            return false;
        x = cf_bare(c, k[0]);
    }
    if (clang_getCursorKind(x) != CXCursor_ArraySubscriptExpr)
        return false;
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    return n == 2 && cf_names(cf_bare(c, k[0]), r);
}

/* Whether @x is 0, 0.0 or NULL (a constant the value of a zeroed member). */
static bool
zero(cf *c, CXCursor x)
{
    CXEvalResult e = clang_Cursor_Evaluate(cf_bare(c, x));
    if (!e)
        return false;
    bool z = false;
    switch (clang_EvalResult_getKind(e)) {
    case CXEval_Int:
        z = clang_EvalResult_getAsLongLong(e) == 0;
        break;
    case CXEval_Float:
        z = clang_EvalResult_getAsDouble(e) == 0.0;
        break;
    default:
        break;
    }
    clang_EvalResult_dispose(e);
    return z;
}

/* Whether @x is r[i].m = 0 (or NULL), or r[i].m = r[i].n = 0. */
static bool
zero_store(cf *c, CXCursor x, CXCursor r)
{
    x = cf_strip(x);
    char op[8];
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    if (clang_getCursorKind(x) != CXCursor_BinaryOperator || n != 2 ||
        strcmp(cf_binop_spelling(c, x, op, sizeof op), "=") || !element_member(c, k[0], r))
        return false;
    CXCursor v = cf_strip(k[1]);
    return clang_getCursorKind(v) == CXCursor_BinaryOperator ? zero_store(c, v, r) : zero(c, v);
}

/* Whether statement @x of an array constructor only zeroes members of @r's elements: loops,
 * blocks, declarations of the loops' ints and r[i].m = 0. */
static bool
zeroes_only(cf *c, CXCursor x, CXCursor r)
{
    x = cf_strip(x);
    enum CXCursorKind k = clang_getCursorKind(x);
    unsigned n;
    CXCursor *kk = cf_children(c, x, &n);
    if (k == CXCursor_NullStmt)
        return true;
    if (k == CXCursor_CompoundStmt) {
        for (unsigned i = 0; i < n; i++)
            if (!zeroes_only(c, kk[i], r))
                return false;
        return true;
    }
    if (k == CXCursor_DeclStmt) { /* int i; (no initializer that calls) */
        for (unsigned i = 0; i < n; i++)
            if (clang_getCursorKind(kk[i]) != CXCursor_VarDecl ||
                clang_getCanonicalType(clang_getCursorType(kk[i])).kind != CXType_Int)
                return false;
        return true;
    }
    if (k == CXCursor_ForStmt) /* its header counts; its body is the last child */
        return n >= 1 && zeroes_only(c, kk[n - 1], r);
    return zero_store(c, x, r);
}

/* When @fn is an array constructor, its malloc (the result) and in *@self the array it returns;
 * else a null cursor. */
static CXCursor
arr_alloc(cf *c, CXCursor fn, CXCursor *self, bool *more)
{
    CXCursor none = clang_getNullCursor();
    unsigned n, m, mi;
    CXCursor *s = body_of(c, fn, &n);
    *more = false;
    if (n < 2 || clang_getCursorKind(s[0]) != CXCursor_DeclStmt)
        return none;
    CXCursor *d = cf_children(c, s[0], &m);
    if (m != 1 || clang_getCursorKind(d[0]) != CXCursor_VarDecl)
        return none;
    CXCursor *init = cf_children(c, d[0], &mi);
    if (mi < 1)
        return none;
    CXCursor a = cf_bare(c, init[mi - 1]);
    if (clang_getCursorKind(a) != CXCursor_CallExpr || !(named(a, "malloc") || named(a, "calloc")))
        return none;
    *self = d[0];
    for (unsigned i = 1; i + 1 < n; i++)
        if (!zeroes_only(c, s[i], d[0]))
            *more = true;
    unsigned k;
    CXCursor *r = cf_children(c, s[n - 1], &k);
    if (clang_getCursorKind(s[n - 1]) != CXCursor_ReturnStmt || k != 1 ||
        !cf_names(cf_bare(c, r[0]), d[0]))
        *more = true;
    return a;
}

bool
cf_arr_ctor_local(cf *c, CXCursor d, CXCursor call, CXCursor def)
{
    CXCursor self, a;
    bool more;
    a = arr_alloc(c, def, &self, &more);
    if (clang_Cursor_isNull(a))
        return false;
    const char *fname = spell(c, def), *name = spell(c, d);
    if (more)
        cf_refuse(c, call,
                  "'%s' returns an array of structs that it mallocs, and does more than set its "
                  "elements' members to 0 or NULL, which is not supported: set them in the "
                  "caller",
                  fname);
    cf_inl_enter(c, def, call, 0, 0); /* the count over the call's arguments */
    const char *count = cf_heap_size(c, a, name);
    cf_inl_leave(c);
    if (!count)
        return false;
    char what[300];
    snprintf(what, sizeof what, "the size of '%s' (from '%s')", name, fname);
    count = cf_rt_text(c, c->fn, count, call, what);
    CXType pt = clang_getPointeeType(clang_getCursorType(d));
    cf_struct_rt_array(c, d, pt, count);
    if (!XF_VEC_PUSH(c->a, c->arr_ctors, cf_decl_key(d)))
        cf_oom(c);
    return true;
}

const char *
cf_arr_given(cf *c, CXCursor d, const char *flat)
{
    const char *fn = c->fn->name;
    size_t fl = strlen(fn), nl = strlen(flat);
    for (const char *const *o = c->o->extents; o && *o; o++)
        if (!strncmp(*o, fn, fl) && (*o)[fl] == ':' && !strncmp(*o + fl + 1, flat, nl) &&
            (*o)[fl + 1 + nl] == '=') {
            char what[300];
            snprintf(what, sizeof what, "--extent %s", *o);
            return cf_rt_text(c, c->fn, *o + fl + 2 + nl, d, what);
        }
    return NULL;
}

const char *
cf_arr_block(cf *c, CXCursor d, const char *rname, const char *path, const char *flat)
{
    const char *fn = c->fn->name, *e = cf_arr_given(c, d, flat);
    if (e)
        return e;
    cf_refuse(c, d,
              "the extent of pointer member '%s[i]%s' of local array of structs '%s' is not "
              "known: give --extent %s:%s->%s=N, N an expression of the int parameters of '%s' "
              "(every element's block of N elements)",
              rname, path, rname, fn, rname, path + 1, fn);
    return NULL;
}

typedef struct {
    cf *c;
    const char *opt; /* NAME_member=E */
    bool found;
} opt_ctx;

static enum CXChildVisitResult
opt_visit(CXCursor x, CXCursor parent, CXClientData data)
{
    (void)parent;
    opt_ctx *q = data;
    if (clang_getCursorKind(x) != CXCursor_VarDecl)
        return CXChildVisit_Recurse;
    CXType t = clang_getCanonicalType(clang_getCursorType(x));
    if (t.kind == CXType_Pointer)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    if (t.kind != CXType_Record)
        return CXChildVisit_Continue;
    const char *name = spell(q->c, x);
    size_t n = strlen(name);
    if (!strncmp(q->opt, name, n) && q->opt[n] == '_')
        q->found = true;
    return q->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

bool
cf_arr_option(cf *c, const cf_fn *f, const char *opt)
{
    opt_ctx q = {c, opt, false};
    clang_visitChildren(f->decl, opt_visit, &q);
    return q.found;
}

bool
cf_arr_made(cf *c, CXCursor x)
{
    return cf_names_one_of(c, x, c->arr_ctors.v, c->arr_ctors.n);
}

/* Whether statement @x of a destructor of array @p only frees its elements' members and it. */
static bool
frees_only(cf *c, CXCursor x, CXCursor p)
{
    x = cf_strip(x);
    enum CXCursorKind k = clang_getCursorKind(x);
    unsigned n;
    CXCursor *kk = cf_children(c, x, &n);
    if (k == CXCursor_NullStmt)
        return true;
    if (k == CXCursor_CompoundStmt) {
        for (unsigned i = 0; i < n; i++)
            if (!frees_only(c, kk[i], p))
                return false;
        return true;
    }
    if (k == CXCursor_DeclStmt) {
        for (unsigned i = 0; i < n; i++)
            if (clang_getCursorKind(kk[i]) != CXCursor_VarDecl ||
                clang_getCanonicalType(clang_getCursorType(kk[i])).kind != CXType_Int)
                return false;
        return true;
    }
    if (k == CXCursor_ForStmt)
        return n >= 1 && frees_only(c, kk[n - 1], p);
    if (k == CXCursor_IfStmt) /* a test of a pointer: no effect */
        return (n == 2 || n == 3) && frees_only(c, kk[1], p) && (n == 2 || frees_only(c, kk[2], p));
    if (k != CXCursor_CallExpr || !named(x, "free") || clang_Cursor_getNumArguments(x) != 1)
        return false;
    CXCursor a = cf_bare(c, clang_Cursor_getArgument(x, 0));
    return cf_names(a, p) || element_member(c, a, p);
}

bool
cf_arr_dtor_call(cf *c, CXCursor call)
{
    if (clang_Cursor_getNumArguments(call) < 1)
        return false;
    if (!cf_arr_made(c, clang_Cursor_getArgument(call, 0)))
        return false;
    CXCursor callee = clang_getCursorReferenced(call);
    CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def) || clang_Cursor_getNumArguments(def) < 1)
        return false;
    CXCursor p = clang_Cursor_getArgument(def, 0);
    unsigned n;
    CXCursor *s = body_of(c, def, &n);
    for (unsigned i = 0; i < n; i++)
        if (!frees_only(c, s[i], p))
            return false;
    return n > 0;
}
