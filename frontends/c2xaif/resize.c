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

/* @x without parentheses, casts and implicit conversions. */
static CXCursor
bare(cf *c, CXCursor x)
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

/* Whether @x is the member reference p->m or (*p).m, p the declaration @p. */
static bool
member_of(cf *c, CXCursor x, CXCursor p)
{
    x = bare(c, x);
    if (clang_getCursorKind(x) != CXCursor_MemberRefExpr)
        return false;
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    return n == 1 && cf_names(bare(c, k[0]), p);
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
    if (strcmp(op, "=") || n != 2 || !member_of(c, k[0], p))
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
               member_of(c, clang_Cursor_getArgument(x, 0), p);
    return member_set(c, x, p, in_if);
}

/* Read statement @x of the resizer in the caller, the tests left out. */
static void
read_stmt(cf *c, CXCursor x)
{
    x = cf_strip(x);
    enum CXCursorKind k = clang_getCursorKind(x);
    unsigned n;
    CXCursor *kk = cf_children(c, x, &n);
    if (k == CXCursor_CompoundStmt || k == CXCursor_IfStmt) {
        for (unsigned i = k == CXCursor_IfStmt ? 1 : 0; i < n; i++)
            read_stmt(c, kk[i]);
        return;
    }
    cf_stmt *st = cf_simple_stmt(c, x);
    if (st)
        cf_emit_stmt(c, st);
}

bool
cf_resize_call(cf *c, CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def))
        return false;
    int na = clang_Cursor_getNumArguments(call);
    int at = -1;
    for (int i = 0; i < na && at < 0; i++)
        if (cf_ctor_made(c, clang_Cursor_getArgument(call, (unsigned)i)))
            at = i;
    if (at < 0 || clang_Cursor_getNumArguments(def) != na)
        return false;
    CXCursor p = clang_Cursor_getArgument(def, (unsigned)at);
    unsigned n = 0, m;
    CXCursor *k = cf_children(c, def, &m), *s = NULL;
    for (unsigned i = 0; i < m; i++)
        if (clang_getCursorKind(k[i]) == CXCursor_CompoundStmt)
            s = cf_children(c, k[i], &n);
    bool sets_ptr = false;
    for (unsigned i = 0; i < n; i++) {
        if (!resizes_only(c, s[i], p, false)) {
            return false;
        } /* no resizer: an ordinary call */
        sets_ptr = sets_ptr || clang_getCursorKind(cf_strip(s[i])) == CXCursor_IfStmt ||
                   member_set(c, s[i], p, true);
    }
    if (!sets_ptr)
        return false;
    CXCursor a = bare(c, clang_Cursor_getArgument(call, (unsigned)at));
    cf_inl_enter(c, def, call, cf_decl_key(p), cf_decl_key(clang_getCursorReferenced(a)));
    for (unsigned i = 0; i < n; i++)
        read_stmt(c, s[i]);
    cf_inl_leave(c);
    return true;
}
