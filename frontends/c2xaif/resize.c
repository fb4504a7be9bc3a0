/* resize.c: a function of the file that resizes a struct's pointer member,
 *     void mat_resize(Mat *m, int r, int c) {
 *         if (m->rows * m->cols != r * c) {
 *             if (m->data != NULL) free(m->data);
 *             m->data = malloc(r * c * sizeof(double));
 *         }
 *         m->rows = r; m->cols = c;
 *     }
 * called on a local struct that a constructor made (ctor.c), is read in the
 * caller as a constructor is: each parameter stands for the call's
 * argument, the member assignments are the caller's, and the malloc sizes
 * the local's work array (allocated once at the routine's entry; a second
 * size is refused, so the array never needs to grow). The tests around the
 * free and the malloc are left out: the work array already has the size
 * that the malloc gives, and C leaves the elements of a new block
 * undefined, so no correct program reads them before it writes them. */
#include <string.h>

#include "cf.h"

/* Whether @x (stripped) is the call free(...). */
static bool
is_free(cf *c, CXCursor x)
{
    x = cf_strip(x);
    if (clang_getCursorKind(x) != CXCursor_CallExpr)
        return false;
    CXString s = clang_getCursorSpelling(x);
    bool r = !strcmp(clang_getCString(s), "free");
    clang_disposeString(s);
    (void)c;
    return r;
}

/* Whether @x assigns a member of @p: pointer members only when @ptr_only. */
static bool
member_set(cf *c, CXCursor x, CXCursor p, bool ptr_only)
{
    x = cf_strip(x);
    if (clang_getCursorKind(x) != CXCursor_BinaryOperator)
        return false;
    char op[8];
    cf_binop_spelling(c, x, op, sizeof op);
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    if (strcmp(op, "=") || n != 2 || !cf_member_of(c, cf_bare(c, k[0]), p))
        return false;
    return !ptr_only || clang_getCanonicalType(clang_getCursorType(k[0])).kind == CXType_Pointer;
}

/* Whether statement @x does only what a resizer of @p may: free and set p's pointer members
 * (under tests, @in_if) and set its other members (not under a test). */
static bool
resizes_only(cf *c, CXCursor x, CXCursor p, bool in_if)
{
    x = cf_strip(x);
    enum CXCursorKind k = clang_getCursorKind(x);
    unsigned n;
    CXCursor *kk = cf_children(c, x, &n);
    if (k == CXCursor_CompoundStmt) {
        for (unsigned i = 0; i < n; i++)
            if (!resizes_only(c, kk[i], p, in_if))
                return false;
        return true;
    }
    if (k == CXCursor_IfStmt)
        return (n == 2 || n == 3) && resizes_only(c, kk[1], p, true) &&
               (n == 2 || resizes_only(c, kk[2], p, true));
    if (is_free(c, x))
        return clang_Cursor_getNumArguments(x) == 1 &&
               cf_member_of(c, cf_bare(c, clang_Cursor_getArgument(x, 0)), p);
    return member_set(c, x, p, in_if);
}

/* Whether @x (bare) names a parameter of the function being read that points to a struct. */
static bool
struct_param(cf *c, CXCursor x)
{
    if (clang_getCursorKind(x) != CXCursor_DeclRefExpr)
        return false;
    CXCursor d = clang_getCursorReferenced(x);
    CXType t = clang_getCanonicalType(clang_getCursorType(d));
    (void)c;
    return clang_getCursorKind(d) == CXCursor_ParmDecl && t.kind == CXType_Pointer &&
           clang_getCanonicalType(clang_getPointeeType(t)).kind == CXType_Record;
}

/* Whether @x sets a pointer member to NULL or 0. */
static bool
null_value(cf *c, CXCursor x)
{
    x = cf_bare(c, x);
    CXEvalResult r = clang_Cursor_Evaluate(x);
    bool z =
        r && clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0;
    if (r)
        clang_EvalResult_dispose(r);
    return z;
}

/* A pointer member set of the resizer on a parameter (@param) or, for @size_only, on a
 * caller's local: the member's extent from the malloc; nothing else. Returns whether @x
 * was such a set (or a free). */
static bool
pointer_part(cf *c, CXCursor x, bool param, bool size_only)
{
    if (is_free(c, x))
        return true;
    CXCursor b = cf_strip(x);
    if (clang_getCursorKind(b) != CXCursor_BinaryOperator)
        return false;
    unsigned n;
    CXCursor *k = cf_children(c, b, &n);
    if (n != 2 || clang_getCanonicalType(clang_getCursorType(k[0])).kind != CXType_Pointer)
        return false;
    if (!param) { /* a local: structs.c sizes its work array (the statement is dropped) */
        if (size_only)
            cf_simple_stmt(c, b);
        return size_only;
    }
    if (null_value(c, k[1]))
        return true;
    cf_expr *e = cf_struct_member(c, k[0]);
    const char *size = e ? cf_heap_size(c, k[1], e->sym->name) : NULL;
    if (!size)
        cf_refuse(c, k[1],
                  "a resizer may set a pointer member only to malloc(n * sizeof(double)), "
                  "calloc(n, sizeof(double)) or NULL, n an expression of the int parameters");
    if (e->sym->dims[0] == -1 && !e->sym->dimx[0]) {
        e->sym->dimx[0] = size;
        e->sym->dims[0] = CF_RT_EXTENT;
    }
    return true;
}

/* Read statement @x of the resizer in the caller, the tests left out; @param: its struct is
 * the caller's parameter; @size_only: only the sizes of its malloc's. */
static void
read_stmt(cf *c, CXCursor x, bool param, bool size_only)
{
    x = cf_strip(x);
    enum CXCursorKind k = clang_getCursorKind(x);
    unsigned n;
    CXCursor *kk = cf_children(c, x, &n);
    if (k == CXCursor_CompoundStmt || k == CXCursor_IfStmt) {
        for (unsigned i = k == CXCursor_IfStmt ? 1 : 0; i < n; i++)
            read_stmt(c, kk[i], param, size_only);
        return;
    }
    if ((param || size_only) && pointer_part(c, x, param, size_only))
        return;
    if (size_only)
        return;
    cf_stmt *st = cf_simple_stmt(c, x);
    if (st)
        cf_emit_stmt(c, st);
}

/* The resizer @call calls (its definition), its struct's place in *@at and the statements of
 * its body in *@s, *@n; a null cursor when @call is no call of a resizer on a struct that
 * @ok accepts. */
static CXCursor
resizer(cf *c, CXCursor call, bool (*ok)(cf *, CXCursor), int *at, CXCursor **s, unsigned *n)
{
    CXCursor none = clang_getNullCursor();
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return none;
    CXCursor callee = clang_getCursorReferenced(call);
    CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def))
        return none;
    int na = clang_Cursor_getNumArguments(call);
    *at = -1;
    for (int i = 0; i < na && *at < 0; i++)
        if (ok(c, cf_bare(c, clang_Cursor_getArgument(call, (unsigned)i))))
            *at = i;
    if (*at < 0 || clang_Cursor_getNumArguments(def) != na)
        return none;
    CXCursor p = clang_Cursor_getArgument(def, (unsigned)*at);
    unsigned m;
    CXCursor *k = cf_children(c, def, &m);
    *n = 0;
    for (unsigned i = 0; i < m; i++)
        if (clang_getCursorKind(k[i]) == CXCursor_CompoundStmt)
            *s = cf_children(c, k[i], n);
    bool sets_ptr = false;
    for (unsigned i = 0; i < *n; i++) {
        if (!resizes_only(c, (*s)[i], p, false))
            return none; /* no resizer: an ordinary call */
        sets_ptr = sets_ptr || clang_getCursorKind(cf_strip((*s)[i])) == CXCursor_IfStmt ||
                   member_set(c, (*s)[i], p, true);
    }
    return sets_ptr ? def : none;
}

static bool
ctor_made(cf *c, CXCursor x)
{
    return cf_ctor_made(c, x);
}

static bool
any_struct(cf *c, CXCursor x)
{
    return cf_ctor_made(c, x) || struct_param(c, x);
}

bool
cf_resize_call(cf *c, CXCursor call)
{
    int at;
    unsigned n;
    CXCursor *s = NULL;
    CXCursor def = resizer(c, call, any_struct, &at, &s, &n);
    if (clang_Cursor_isNull(def))
        return false;
    CXCursor a = cf_bare(c, clang_Cursor_getArgument(call, (unsigned)at));
    bool param = !cf_ctor_made(c, a);
    CXCursor p = clang_Cursor_getArgument(def, (unsigned)at);
    cf_inl_enter(c, def, call, cf_decl_key(p), cf_decl_key(clang_getCursorReferenced(a)));
    for (unsigned i = 0; i < n; i++)
        read_stmt(c, s[i], param, false);
    cf_inl_leave(c);
    return true;
}

/* The calls of resizers in function @g on its parameter @gp, which @gcall passes the caller's
 * local @local. */
typedef struct {
    cf *c;
    CXCursor g, gcall, gp;
    uint64_t local;
} through_ctx;

static enum CXChildVisitResult
through_visit(CXCursor x, CXCursor parent, CXClientData data)
{
    (void)parent;
    through_ctx *t = data;
    int at;
    unsigned n;
    CXCursor *s = NULL;
    CXCursor def = resizer(t->c, x, struct_param, &at, &s, &n);
    if (clang_Cursor_isNull(def))
        return CXChildVisit_Recurse;
    CXCursor a = cf_bare(t->c, clang_Cursor_getArgument(x, (unsigned)at));
    if (!cf_names(a, t->gp))
        return CXChildVisit_Recurse;
    cf_inl_enter(t->c, t->g, t->gcall, cf_decl_key(t->gp), t->local);
    cf_inl_enter(t->c, def, x, cf_decl_key(clang_Cursor_getArgument(def, (unsigned)at)), t->local);
    for (unsigned i = 0; i < n; i++)
        read_stmt(t->c, s[i], false, true);
    cf_inl_leave(t->c);
    cf_inl_leave(t->c);
    return CXChildVisit_Continue;
}

void
cf_resize_through(cf *c, CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def))
        return;
    int na = clang_Cursor_getNumArguments(call);
    if (clang_Cursor_getNumArguments(def) != na)
        return;
    for (int i = 0; i < na; i++) {
        CXCursor a = cf_bare(c, clang_Cursor_getArgument(call, (unsigned)i));
        if (!ctor_made(c, a))
            continue;
        through_ctx t = {c, def, call, clang_Cursor_getArgument(def, (unsigned)i),
                         cf_decl_key(clang_getCursorReferenced(a))};
        clang_visitChildren(def, through_visit, &t);
    }
}

/* Whether @x frees or sets (to malloc, calloc or NULL) only pointer members of the struct
 * parameter *@p (found at the first, a null cursor till then), under tests. */
static bool
ptr_only(cf *c, CXCursor x, CXCursor *p)
{
    x = cf_strip(x);
    enum CXCursorKind k = clang_getCursorKind(x);
    unsigned n;
    CXCursor *kk = cf_children(c, x, &n);
    if (k == CXCursor_CompoundStmt) {
        for (unsigned i = 0; i < n; i++)
            if (!ptr_only(c, kk[i], p))
                return false;
        return n > 0;
    }
    if (k == CXCursor_IfStmt)
        return (n == 2 || n == 3) && ptr_only(c, kk[1], p) && (n == 2 || ptr_only(c, kk[2], p));
    CXCursor m;
    if (is_free(c, x) && clang_Cursor_getNumArguments(x) == 1)
        m = cf_bare(c, clang_Cursor_getArgument(x, 0));
    else if (clang_getCursorKind(x) == CXCursor_BinaryOperator && n == 2 &&
             clang_getCanonicalType(clang_getCursorType(kk[0])).kind == CXType_Pointer)
        m = cf_bare(c, kk[0]);
    else
        return false;
    char op[8];
    if (clang_getCursorKind(x) == CXCursor_BinaryOperator &&
        strcmp(cf_binop_spelling(c, x, op, sizeof op), "="))
        return false;
    if (clang_getCursorKind(m) != CXCursor_MemberRefExpr)
        return false;
    unsigned nm;
    CXCursor *mk = cf_children(c, m, &nm);
    CXCursor b = nm == 1 ? cf_bare(c, mk[0]) : clang_getNullCursor();
    if (clang_Cursor_isNull(b) || !struct_param(c, b))
        return false;
    CXCursor d = clang_getCursorReferenced(b);
    if (clang_Cursor_isNull(*p))
        *p = d;
    return clang_equalCursors(*p, d);
}

bool
cf_resize_stmt(cf *c, CXCursor x)
{
    CXCursor p = clang_getNullCursor();
    if (c->inl || !ptr_only(c, x, &p))
        return false;
    read_stmt(c, x, true, false);
    return true;
}
