/* intarg.c: an int parameter of the caller passed on to an int parameter
 * of a callee, neither function changing it, is passed as it is rather
 * than copied (docs/c-frontend.md, "Scalar arguments"). The copy exists
 * so that a callee that writes its parameter cannot change the caller's
 * variable; without writes it changes nothing in the values, and it keeps
 * the callee's size parameters right in every activation of the
 * derivative: a split adjoint runs the callee's adjoint in a later
 * activation of the caller, whose copies are gone then, while its
 * parameters are the same (ADBench's lstm_model(b, ...), whose work array
 * is sized by b). */
#include <string.h>

#include "cf.h"

struct writes {
    cf *c;
    CXCursor var;
    bool hit;
};

static enum CXChildVisitResult
writes_visit(CXCursor x, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct writes *w = data;
    enum CXCursorKind k = clang_getCursorKind(x);
    if (k != CXCursor_CompoundAssignOperator && k != CXCursor_BinaryOperator &&
        k != CXCursor_UnaryOperator)
        return CXChildVisit_Recurse;
    unsigned n;
    CXCursor *kid = cf_children(w->c, x, &n);
    /* the variable first: an operator inside a macro's expansion cannot be spelled */
    if (n < 1 || !cf_names(kid[0], w->var))
        return CXChildVisit_Recurse;
    char op[8];
    bool post;
    if (k == CXCursor_CompoundAssignOperator)
        w->hit = true;
    else if (k == CXCursor_BinaryOperator)
        w->hit = !strcmp(cf_binop_spelling(w->c, x, op, sizeof op), "=");
    else {
        cf_unop_spelling(w->c, x, op, sizeof op, &post);
        w->hit = !strcmp(op, "++") || !strcmp(op, "--") || !strcmp(op, "&");
    }
    return w->hit ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static bool
written(cf *c, CXCursor fn, CXCursor var)
{
    struct writes w = {c, var, false};
    clang_visitChildren(fn, writes_visit, &w);
    return w.hit;
}

cf_expr *
cf_int_arg_shared(cf *c, CXCursor arg, const cf_fn *callee, CXCursor formal)
{
    CXCursor a = cf_strip(arg);
    while (clang_getCursorKind(a) == CXCursor_UnexposedExpr) {
        unsigned n;
        CXCursor *k = cf_children(c, a, &n);
        if (n != 1)
            return NULL;
        a = cf_strip(k[0]);
    }
    if (clang_getCursorKind(a) != CXCursor_DeclRefExpr)
        return NULL;
    CXCursor d = clang_getCursorReferenced(a);
    if (clang_getCursorKind(d) != CXCursor_ParmDecl ||
        clang_getCanonicalType(clang_getCursorType(d)).kind != CXType_Int ||
        clang_getCanonicalType(clang_getCursorType(formal)).kind != CXType_Int)
        return NULL;
    if (written(c, c->fn->decl, d) || written(c, callee->decl, formal))
        return NULL;
    cf_sym *s = cf_sym_of_decl(c, a);
    if (!s->formal || s->rank != 0 || s->type != CF_INT)
        return NULL;
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = CF_E_VAR;
    e->sym = s;
    return e;
}
