/* ctor.c: constructors and destructors of structs (docs/c-frontend.md,
 * "Structs"). A function of the file that mallocs one struct, sets its
 * members and returns it,
 *     Mat *mat_new(int r, int c) { Mat *m = malloc(sizeof(Mat));
 *                                  m->rows = r; m->data = malloc(r * c * sizeof(double));
 *                                  return m; }
 * is a constructor: a pointer local set by a call of it where it is
 * declared (Mat *a = mat_new(n, 3);) becomes a local struct, and the
 * constructor's member assignments are read in the caller with each of its
 * parameters standing for the call's argument (so a pointer member's
 * malloc sizes the work array: n * 3). A function whose body only frees
 * its struct parameter and that parameter's pointer members (if (m->data
 * != NULL) free(m->data); free(m);) is a destructor: its call on such a
 * local, like free() of it, has no statement (the generated code frees its
 * work arrays at the routine's end). */
#include <string.h>

#include "cf.h"

struct cf_inl {
    CXCursor fn;    /* the constructor */
    CXCursor *args; /* the call's arguments, by parameter */
    unsigned nargs;
    uint64_t self, as; /* its local struct pointer, and the caller's local that stands for it */
    struct cf_inl *up;
};

static const char *
spell(cf *c, CXCursor x)
{
    CXString s = clang_getCursorSpelling(x);
    const char *r = cf_strdup(c, clang_getCString(s));
    clang_disposeString(s);
    return r;
}

static bool
named(CXCursor x, const char *name)
{
    CXString s = clang_getCursorSpelling(x);
    bool r = !strcmp(clang_getCString(s), name);
    clang_disposeString(s);
    return r;
}

CXCursor
cf_bare(cf *c, CXCursor x)
{
    for (;;) {
        x = cf_strip(x);
        enum CXCursorKind k = clang_getCursorKind(x);
        unsigned n, ne = 0;
        CXCursor *kk = cf_children(c, x, &n), in = x;
        for (unsigned i = 0; i < n; i++) /* a cast's type (TypeRef) is no operand */
            if (clang_isExpression(clang_getCursorKind(kk[i])))
                ne++, in = kk[i];
        if ((k != CXCursor_CStyleCastExpr && k != CXCursor_UnexposedExpr) || ne != 1)
            return x;
        x = in;
    }
}

/* The body's statements of function definition @fn, in *@n; NULL when it has none. */
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

/* Whether @x is a call of malloc or calloc. */
static bool
is_alloc(cf *c, CXCursor x)
{
    x = cf_bare(c, x);
    return clang_getCursorKind(x) == CXCursor_CallExpr &&
           (named(x, "malloc") || named(x, "calloc"));
}

/* Whether @x is a member reference whose struct is the variable declared at @d (d->f). */
bool
cf_member_of(cf *c, CXCursor x, CXCursor d)
{
    x = cf_strip(x);
    if (clang_getCursorKind(x) != CXCursor_MemberRefExpr)
        return false;
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    return n == 1 && cf_names(cf_bare(c, k[0]), d);
}

/* The local struct pointer that constructor @fn mallocs and returns, or a null cursor when
 * @fn is no constructor: T *m = malloc(sizeof(T)); m->a = ...; ... return m; */
static CXCursor
ctor_self(cf *c, CXCursor fn)
{
    CXCursor none = clang_getNullCursor(), self = none;
    unsigned n;
    CXCursor *s = body_of(c, fn, &n);
    if (n < 2 || clang_getCursorKind(s[0]) != CXCursor_DeclStmt)
        return none;
    unsigned m;
    CXCursor *d = cf_children(c, s[0], &m);
    if (m != 1 || clang_getCursorKind(d[0]) != CXCursor_VarDecl)
        return none;
    unsigned mi;
    CXCursor *init = cf_children(c, d[0], &mi);
    if (mi < 1 || !is_alloc(c, init[mi - 1]))
        return none;
    self = d[0];
    for (unsigned i = 1; i + 1 < n; i++) {
        CXCursor x = cf_strip(s[i]);
        char op[8];
        if (clang_getCursorKind(x) != CXCursor_BinaryOperator)
            return none;
        cf_binop_spelling(c, x, op, sizeof op);
        unsigned k;
        CXCursor *kk = cf_children(c, x, &k);
        if (strcmp(op, "=") || k != 2 || !cf_member_of(c, kk[0], self))
            return none;
    }
    if (clang_getCursorKind(s[n - 1]) != CXCursor_ReturnStmt)
        return none;
    unsigned k;
    CXCursor *r = cf_children(c, s[n - 1], &k);
    return k == 1 && cf_names(cf_bare(c, r[0]), self) ? self : none;
}

typedef struct {
    cf *c;
    bool bad;
} pure_ctx;

static enum CXChildVisitResult
pure_visit(CXCursor x, CXCursor parent, CXClientData data)
{
    (void)parent;
    pure_ctx *q = data;
    enum CXCursorKind k = clang_getCursorKind(x);
    char op[8];
    bool post;
    if (k == CXCursor_CallExpr || k == CXCursor_CompoundAssignOperator)
        q->bad = true;
    else if (k == CXCursor_BinaryOperator)
        q->bad = !strcmp(cf_binop_spelling(q->c, x, op, sizeof op), "=");
    else if (k == CXCursor_UnaryOperator) {
        cf_unop_spelling(q->c, x, op, sizeof op, &post);
        q->bad = !strcmp(op, "++") || !strcmp(op, "--");
    }
    return q->bad ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether argument @x has no side effect and calls nothing (it is read once a use). */
static bool
pure(cf *c, CXCursor x)
{
    pure_ctx q = {c, false};
    pure_visit(x, clang_getNullCursor(), &q);
    if (!q.bad)
        clang_visitChildren(x, pure_visit, &q);
    return !q.bad;
}

/* Whether function @fn begins T *r = malloc(n * sizeof(T)) (an array of structs). */
static bool
ctor_of_array(cf *c, CXCursor fn)
{
    unsigned n, m, mi, ma;
    CXCursor *s = body_of(c, fn, &n);
    if (n < 1 || clang_getCursorKind(s[0]) != CXCursor_DeclStmt)
        return false;
    CXCursor *d = cf_children(c, s[0], &m);
    if (m != 1 || clang_getCursorKind(d[0]) != CXCursor_VarDecl)
        return false;
    CXCursor *init = cf_children(c, d[0], &mi);
    if (mi < 1 || !is_alloc(c, init[mi - 1]))
        return false;
    CXCursor x = cf_bare(c, init[mi - 1]);
    if (clang_Cursor_getNumArguments(x) < 1)
        return false;
    x = cf_bare(c, clang_Cursor_getArgument(x, 0));
    char op[8];
    cf_children(c, x, &ma);
    return clang_getCursorKind(x) == CXCursor_BinaryOperator && ma == 2 &&
           !strcmp(cf_binop_spelling(c, x, op, sizeof op), "*");
}

bool
cf_ctor_local(cf *c, CXCursor d, CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl)
        return false;
    CXCursor def = clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def))
        return false;
    CXCursor self = ctor_self(c, def);
    if (clang_Cursor_isNull(self) && cf_arr_ctor_local(c, d, call, def))
        return true; /* an array of structs (arr_ctor.c) */
    if (clang_Cursor_isNull(self) && ctor_of_array(c, def))
        cf_refuse(c, call,
                  "'%s' returns an array of structs that it mallocs (malloc(n * sizeof(T))), "
                  "which is not supported: a constructor returns one struct; pass the array in "
                  "as a parameter",
                  spell(c, callee));
    if (clang_Cursor_isNull(self))
        cf_refuse(c, call,
                  "'%s' returns a pointer to a struct but is no constructor of the form "
                  "T *m = malloc(sizeof(T)); m->a = ...; ... return m;: declare the struct as "
                  "a local and set its members",
                  spell(c, callee));
    int na = clang_Cursor_getNumArguments(call);
    struct cf_inl in = {.fn = def, .self = cf_decl_key(self), .as = cf_decl_key(d), .up = c->inl};
    in.nargs = na > 0 ? (unsigned)na : 0;
    in.args = cf_alloc(c, (in.nargs + 1) * sizeof *in.args);
    for (unsigned i = 0; i < in.nargs; i++) {
        in.args[i] = clang_Cursor_getArgument(call, i);
        if (!pure(c, in.args[i]))
            cf_refuse(c, in.args[i],
                      "an argument of constructor '%s' with a call or a side effect is not "
                      "supported: set a local to it first and pass the local",
                      spell(c, callee));
    }
    CXType pt = clang_getPointeeType(clang_getCursorType(d));
    cf_struct_local_of(c, d, pt);
    if (!XF_VEC_PUSH(c->a, c->ctors, cf_decl_key(d)))
        cf_oom(c);
    unsigned n;
    CXCursor *s = body_of(c, def, &n);
    c->inl = &in;
    for (unsigned i = 1; i + 1 < n; i++) {
        cf_stmt *st = cf_simple_stmt(c, s[i]);
        if (st)
            cf_emit_stmt(c, st);
    }
    c->inl = in.up;
    return true;
}

void
cf_inl_enter(cf *c, CXCursor fn, CXCursor call, uint64_t self, uint64_t as)
{
    struct cf_inl *in = cf_alloc(c, sizeof *in);
    int na = clang_Cursor_getNumArguments(call);
    *in = (struct cf_inl){.fn = fn, .self = self, .as = as, .up = c->inl};
    in->nargs = na > 0 ? (unsigned)na : 0;
    in->args = cf_alloc(c, (in->nargs + 1) * sizeof *in->args);
    for (unsigned i = 0; i < in->nargs; i++) {
        in->args[i] = clang_Cursor_getArgument(call, i);
        if (!pure(c, in->args[i]))
            cf_refuse(c, in->args[i],
                      "an argument of '%s' with a call or a side effect is not supported: set a "
                      "local to it first and pass the local",
                      spell(c, fn));
    }
    c->inl = in;
}

void
cf_inl_leave(cf *c)
{
    c->inl = c->inl->up;
}

cf_expr *
cf_inl_param(cf *c, CXCursor d)
{
    struct cf_inl *in = c->inl;
    if (!in || clang_getCursorKind(d) != CXCursor_ParmDecl)
        return NULL;
    int na = clang_Cursor_getNumArguments(in->fn);
    for (int i = 0; i < na && (unsigned)i < in->nargs; i++)
        if (clang_equalCursors(clang_Cursor_getArgument(in->fn, i), d)) {
            c->inl = in->up; /* the argument is the caller's */
            cf_expr *e = cf_expr_of(c, in->args[i]);
            c->inl = in;
            return e;
        }
    return NULL;
}

uint64_t
cf_inl_key(cf *c, uint64_t key)
{
    for (struct cf_inl *in = c->inl; in; in = in->up) {
        if (key == in->self)
            return in->as;
        int na = clang_Cursor_getNumArguments(in->fn); /* a struct parameter: the argument's */
        for (int i = 0; i < na && (unsigned)i < in->nargs; i++) {
            if (cf_decl_key(clang_Cursor_getArgument(in->fn, (unsigned)i)) != key)
                continue;
            CXCursor a = cf_bare(c, in->args[i]);
            if (clang_getCursorKind(a) == CXCursor_DeclRefExpr)
                key = cf_decl_key(clang_getCursorReferenced(a));
            break;
        }
    }
    return key;
}

bool
cf_names_one_of(cf *c, CXCursor x, const uint64_t *keys, uint32_t n)
{
    x = cf_bare(c, x);
    if (clang_getCursorKind(x) != CXCursor_DeclRefExpr)
        return false;
    uint64_t key = cf_decl_key(clang_getCursorReferenced(x));
    for (uint32_t i = 0; i < n; i++)
        if (keys[i] == key)
            return true;
    return false;
}

bool
cf_ctor_made(cf *c, CXCursor x)
{
    return cf_names_one_of(c, x, c->ctors.v, c->ctors.n);
}

/* Whether statement @x of a destructor frees only @p or its members: free(p), free(p->a),
 * if (p->a != NULL) free(p->a); */
static bool
frees_only(cf *c, CXCursor x, CXCursor p)
{
    x = cf_strip(x);
    enum CXCursorKind k = clang_getCursorKind(x);
    unsigned n;
    CXCursor *kk = cf_children(c, x, &n);
    if (k == CXCursor_CompoundStmt) {
        for (unsigned i = 0; i < n; i++)
            if (!frees_only(c, kk[i], p))
                return false;
        return true;
    }
    if (k == CXCursor_IfStmt) /* the condition is a test of the pointer: no effect */
        return (n == 2 || n == 3) && pure(c, kk[0]) && frees_only(c, kk[1], p) &&
               (n == 2 || frees_only(c, kk[2], p));
    if (k != CXCursor_CallExpr || !named(x, "free") || clang_Cursor_getNumArguments(x) != 1)
        return false;
    CXCursor a = cf_bare(c, clang_Cursor_getArgument(x, 0));
    return cf_names(a, p) || cf_member_of(c, a, p);
}

static enum CXChildVisitResult
free_visit(CXCursor x, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(x) == CXCursor_CallExpr && named(x, "free")) {
        *(bool *)data = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

bool
cf_dtor_call(cf *c, CXCursor call)
{
    if (clang_Cursor_getNumArguments(call) != 1 ||
        !cf_ctor_made(c, clang_Cursor_getArgument(call, 0)))
        return false;
    CXCursor callee = clang_getCursorReferenced(call);
    CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def) || clang_Cursor_getNumArguments(def) != 1)
        return false;
    CXCursor p = clang_Cursor_getArgument(def, 0);
    bool frees = false; /* no free: an ordinary call (set_identity(m)) */
    clang_visitChildren(def, free_visit, &frees);
    if (!frees)
        return false;
    unsigned n;
    CXCursor *s = body_of(c, def, &n);
    for (unsigned i = 0; i < n; i++)
        if (!frees_only(c, s[i], p))
            cf_refuse(c, call,
                      "'%s', called on a struct made by a constructor, does more than free it "
                      "and its members, which is not supported: free them in a function of "
                      "their own",
                      spell(c, callee));
    return n > 0;
}
