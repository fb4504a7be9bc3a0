/* parse_expr.c: C expressions (libclang cursors) to the front end's
 * expression trees; calls of the file's functions are hoisted into
 * statements before the one being built. */
#include <stdio.h>
#include <string.h>

#include "cf.h"

cf_type
cf_type_of(cf *c, CXType t, CXCursor at)
{
    t = clang_getCanonicalType(t);
    switch (t.kind) {
    case CXType_Int:
        return CF_INT;
    case CXType_Float:
        return CF_FLOAT;
    case CXType_Double:
        return CF_DOUBLE;
    default: {
        CXString s = clang_getTypeSpelling(t);
        char buf[128];
        snprintf(buf, sizeof buf, "%s", clang_getCString(s));
        clang_disposeString(s);
        cf_refuse(c, at, "type '%s' is not supported", buf);
    }
    }
}

cf_type
cf_expr_type(const cf_expr *e)
{
    switch (e->kind) {
    case CF_E_VAR:
        return e->sym->type;
    case CF_E_INT:
    case CF_E_BOOL:
        return CF_INT;
    case CF_E_REAL:
        return e->f4 ? CF_FLOAT : CF_DOUBLE;
    case CF_E_OP:
        if (strcmp(e->op, "int_scal") == 0)
            return CF_INT;
        if (strcmp(e->op, "real_scal") == 0)
            return CF_DOUBLE;
        for (int i = 0; i < e->nargs; i++)
            if (cf_is_real(cf_expr_type(e->a[i])))
                return CF_DOUBLE;
        return CF_INT;
    }
    return CF_INT;
}

static cf_expr *
new_expr(cf *c, cf_ekind k)
{
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = k;
    return e;
}

static cf_expr *
op1(cf *c, cf_ekind k, const char *op, cf_expr *a)
{
    cf_expr *e = new_expr(c, k);
    e->op = op;
    e->a[0] = a;
    e->nargs = 1;
    return e;
}

static cf_expr *
op2(cf *c, cf_ekind k, const char *op, cf_expr *a, cf_expr *b)
{
    cf_expr *e = op1(c, k, op, a);
    e->a[1] = b;
    e->nargs = 2;
    return e;
}

static bool
is_relational(const char *op, const char **name)
{
    static const char *const map[][2] = {{"<", "less_than"},    {"<=", "less_or_equal"},
                                         {">", "greater_than"}, {">=", "greater_or_equal"},
                                         {"==", "equal"},       {"!=", "not_equal"}};
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(op, map[i][0]) == 0) {
            *name = map[i][1];
            return true;
        }
    return false;
}

/* The one operand of an implicit conversion, cast or parenthesis. */
static CXCursor
operand(cf *c, CXCursor x)
{
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    for (unsigned i = n; i-- > 0;)
        if (clang_isExpression(clang_getCursorKind(k[i])))
            return k[i];
    cf_refuse(c, x, "this expression is not supported");
}

/* A conversion of @e from its type to @to. */
static cf_expr *
convert(cf *c, cf_expr *e, cf_type to)
{
    cf_type from = cf_expr_type(e);
    if (cf_is_real(from) == cf_is_real(to))
        return e;
    if (cf_is_real(to)) {
        if (e->kind == CF_E_INT) {
            cf_expr *r = new_expr(c, CF_E_REAL);
            r->rval = (double)e->ival;
            r->f4 = to == CF_FLOAT;
            return r;
        }
        return op1(c, CF_E_OP, "real_scal", e);
    }
    return op1(c, CF_E_OP, "int_scal", e);
}

/* An array element a[i][j]...: its symbol and subscripts. */
static cf_expr *
element(cf *c, CXCursor x)
{
    CXCursor subs[CF_MAXRANK + 1];
    int n = 0;
    CXCursor at = x;
    for (;;) {
        x = cf_strip(x);
        enum CXCursorKind k = clang_getCursorKind(x);
        if (k == CXCursor_ArraySubscriptExpr) {
            unsigned nk;
            CXCursor *kk = cf_children(c, x, &nk);
            if (nk != 2 || n > CF_MAXRANK_C)
                cf_refuse(c, at, "this array reference is not supported");
            subs[n++] = kk[1];
            x = kk[0];
        } else if (k == CXCursor_UnexposedExpr) {
            x = operand(c, x);
        } else
            break;
    }
    cf_expr *se = n ? cf_struct_member(c, x) : NULL; /* s.a[i], b[i].a[k] */
    cf_sym *s = se ? se->sym : NULL;
    int pre = se ? se->nsub : 0;
    if (!s && (clang_getCursorKind(x) != CXCursor_DeclRefExpr || n == 0))
        cf_refuse(c, at, "indexing anything but an array variable is not supported");
    if (!s)
        s = cf_sym_of_decl(c, x);
    if (s->plocal) { /* p[k]: base[p + k] */
        if (n != 1)
            cf_refuse(c, at, "a reference to part of array '%s' is not supported", s->name);
        cf_expr *ix = cf_expr_of(c, subs[0]);
        if (cf_expr_type(ix) != CF_INT)
            cf_refuse(c, subs[0], "a subscript that is not an integer is not supported");
        return cf_ptr_elem(c, x, ix);
    }
    if (n + pre != s->rank)
        cf_refuse(c, at, "a reference to part of array '%s' is not supported", s->name);
    cf_expr *e = new_expr(c, CF_E_VAR);
    e->sym = s;
    e->nsub = n + pre;
    for (int i = 0; i < pre; i++)
        e->sub[i] = se->sub[i];
    for (int i = 0; i < n; i++) {
        cf_expr *ix = cf_expr_of(c, subs[n - 1 - i]);
        if (cf_expr_type(ix) != CF_INT)
            cf_refuse(c, subs[n - 1 - i], "a subscript that is not an integer is not supported");
        e->sub[pre + i] = ix;
    }
    cf_rt_use(c, e);
    return e;
}

cf_expr *
cf_lvalue_of(cf *c, CXCursor x)
{
    x = cf_strip(x);
    switch (clang_getCursorKind(x)) {
    case CXCursor_ArraySubscriptExpr:
        return element(c, x);
    case CXCursor_MemberRefExpr:
    case CXCursor_DeclRefExpr: {
        cf_expr *se = cf_struct_member(c, x);
        if (se && se->nsub == se->sym->rank)
            return se; /* a struct's member, or b[i].a */
        cf_sym *s = se ? se->sym : cf_sym_of_decl(c, x);
        if (s->rank > 0 && s->ptr)
            cf_refuse(c, x,
                      "changing pointer parameter '%s' is not supported: walk a pointer local "
                      "instead (const double *p = %s; p++)",
                      s->name, s->name);
        if (s->rank > 0)
            cf_refuse(c, x, "assigning a whole array is not supported");
        cf_expr *e = new_expr(c, CF_E_VAR);
        e->sym = s;
        return e;
    }
    case CXCursor_UnaryOperator: {
        char op[8];
        bool post;
        cf_unop_spelling(c, x, op, sizeof op, &post);
        if (strcmp(op, "*") == 0)
            return cf_ptr_elem(c, operand(c, x), NULL);
        cf_refuse(c, x, "this assignment target is not supported");
    }
    default:
        cf_refuse(c, x, "this assignment target is not supported");
    }
}

static cf_expr *call_value(cf *c, CXCursor x);

/* A file-scope const int, float or double with a constant initializer
 * (static const double SCALE = 2.5;): its value; NULL for anything else. */
static cf_expr *
file_constant(cf *c, CXCursor d)
{
    if (clang_getCursorKind(d) != CXCursor_VarDecl ||
        clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_TranslationUnit)
        return NULL;
    CXType t = clang_getCursorType(d);
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    if (!clang_isConstQualifiedType(t) ||
        (k != CXType_Int && k != CXType_Float && k != CXType_Double))
        return NULL;
    CXEvalResult r = clang_Cursor_Evaluate(d);
    if (!r)
        return NULL;
    cf_expr *e = NULL;
    if (clang_EvalResult_getKind(r) == CXEval_Int && k == CXType_Int) {
        e = new_expr(c, CF_E_INT);
        e->ival = clang_EvalResult_getAsLongLong(r);
    } else if (clang_EvalResult_getKind(r) == CXEval_Float && k != CXType_Int) {
        e = new_expr(c, CF_E_REAL);
        e->rval = clang_EvalResult_getAsDouble(r);
        e->f4 = k == CXType_Float;
    }
    clang_EvalResult_dispose(r);
    return e;
}

static cf_expr *expr_of(cf *c, CXCursor x);
static cf_expr *cond_of(cf *c, CXCursor x);

cf_expr *
cf_expr_of(cf *c, CXCursor x)
{
    cf_enter(c, x);
    cf_expr *e;
    cf_sym *base;
    if (clang_getCanonicalType(clang_getCursorType(x)).kind == CXType_Pointer) {
        e = cf_ptr_of(c, x, &base); /* a pointer's value: its offset (pointers.c) */
        cf_pt_value(c, x, base);
    } else
        e = expr_of(c, x);
    cf_leave(c);
    return e;
}

cf_expr *
cf_cond_of(cf *c, CXCursor x)
{
    cf_enter(c, x);
    cf_expr *e = cond_of(c, x);
    cf_leave(c);
    return e;
}

struct uses {
    CXCursor decl;
    unsigned n;
};

static enum CXChildVisitResult
count_uses(CXCursor x, CXCursor parent, CXClientData d)
{
    (void)parent;
    struct uses *u = d;
    if (clang_getCursorKind(x) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(x), u->decl))
        u->n++;
    return CXChildVisit_Recurse;
}

/* k++, k--, ++k or --k at @x inside an expression statement, k an int
 * variable that the statement reads nowhere else: the increment is
 * emitted before the statement, and the value is k - 1, k + 1 or k. */
static cf_expr *
incr_value(cf *c, CXCursor x, const char *op, bool post)
{
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    CXCursor v = cf_strip(k[0]);
    if (!c->fn || clang_Cursor_isNull(c->stmt) || c->no_calls) /* no fn: c->stmt unset */
        cf_refuse(c, x,
                  "'%s' inside an expression is supported only in an expression statement, "
                  "outside '?:', '&&', '||' and loop headers: write it as a statement of its own",
                  op);
    if (clang_getCursorKind(v) != CXCursor_DeclRefExpr ||
        clang_getCanonicalType(clang_getCursorType(v)).kind != CXType_Int)
        cf_refuse(c, x,
                  "'%s' inside an expression is supported only on an int variable: write it as "
                  "a statement of its own",
                  op);
    struct uses u = {clang_getCursorReferenced(v), 0};
    clang_visitChildren(c->stmt, count_uses, &u);
    if (u.n != 1)
        cf_refuse(c, x,
                  "'%s' on a variable that the same statement also reads is not supported: "
                  "write it as a statement of its own",
                  op);
    cf_emit_stmt(c, cf_incr_stmt(c, x));
    cf_expr *e = cf_expr_of(c, v);
    if (!post)
        return e;
    cf_expr *one = new_expr(c, CF_E_INT);
    one->ival = 1;
    return op2(c, CF_E_OP, op[0] == '+' ? "sub_scal_scal" : "add_scal_scal", e, one);
}

static cf_expr *
expr_of(cf *c, CXCursor x)
{
    char op[8];
    x = cf_strip(x);
    enum CXCursorKind k = clang_getCursorKind(x);
    switch (k) {
    case CXCursor_IntegerLiteral: {
        CXEvalResult r = clang_Cursor_Evaluate(x);
        cf_expr *e = new_expr(c, CF_E_INT);
        e->ival = clang_EvalResult_getAsLongLong(r);
        clang_EvalResult_dispose(r);
        return e;
    }
    case CXCursor_FloatingLiteral: {
        CXEvalResult r = clang_Cursor_Evaluate(x);
        cf_expr *e = new_expr(c, CF_E_REAL);
        e->rval = clang_EvalResult_getAsDouble(r);
        clang_EvalResult_dispose(r);
        e->f4 = cf_type_of(c, clang_getCursorType(x), x) == CF_FLOAT;
        return e;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(x);
        cf_expr *ia = c->inl ? cf_inl_param(c, d) : NULL; /* a constructor's (ctor.c) */
        if (ia)
            return ia;
        if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl) {
            cf_expr *e = new_expr(c, CF_E_INT);
            e->ival = clang_getEnumConstantDeclValue(d);
            return e;
        }
        cf_expr *fc = file_constant(c, d);
        if (fc)
            return fc;
        if (clang_getCursorKind(d) == CXCursor_FunctionDecl)
            cf_refuse(c, x, "function pointers are not supported");
        cf_sym *s = cf_sym_of_decl(c, x);
        if (s->rank > 0)
            cf_refuse(c, x, "array '%s' used as a value is not supported", s->name);
        cf_expr *e = new_expr(c, CF_E_VAR);
        e->sym = s;
        return e;
    }
    case CXCursor_ArraySubscriptExpr:
        return element(c, x);
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr: {
        CXType to = clang_getCanonicalType(clang_getCursorType(x));
        if (to.kind == CXType_Pointer)
            cf_refuse(c, x, "pointers used other than by indexing are not supported");
        cf_type t = cf_type_of(c, to, x);
        return convert(c, cf_expr_of(c, operand(c, x)), t);
    }
    case CXCursor_BinaryOperator: {
        cf_binop_spelling(c, x, op, sizeof op);
        unsigned nk;
        CXCursor *kk = cf_children(c, x, &nk);
        const char *name = NULL;
        if (strcmp(op, "+") == 0)
            name = "add_scal_scal";
        else if (strcmp(op, "-") == 0)
            name = "sub_scal_scal";
        else if (strcmp(op, "*") == 0)
            name = "mul_scal_scal";
        else if (strcmp(op, "/") == 0)
            name = "div_scal_scal";
        else if (strcmp(op, "%") == 0)
            name = "mod_scal_scal";
        else if (strcmp(op, "=") == 0)
            cf_refuse(c, x, "an assignment inside an expression is not supported");
        else if (strcmp(op, ",") == 0)
            cf_refuse(c, x, "the comma operator is not supported");
        else if (is_relational(op, &name) || strcmp(op, "&&") == 0 || strcmp(op, "||") == 0)
            cf_refuse(c, x, "a comparison used as a value (not as a condition) is not supported");
        else
            cf_refuse(c, x, "operator '%s' is not supported", op);
        cf_expr *a = cf_expr_of(c, kk[0]), *b = cf_expr_of(c, kk[1]);
        return op2(c, CF_E_OP, name, a, b);
    }
    case CXCursor_UnaryOperator: {
        bool post;
        cf_unop_spelling(c, x, op, sizeof op, &post);
        if (!post && strcmp(op, "-") == 0)
            return op1(c, CF_E_OP, "minus_scal", cf_expr_of(c, operand(c, x)));
        if (!post && strcmp(op, "+") == 0)
            return cf_expr_of(c, operand(c, x));
        if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)
            return incr_value(c, x, op, post);
        if (strcmp(op, "&") == 0)
            cf_refuse(c, x, "taking an address ('&') is not supported");
        if (strcmp(op, "*") == 0)
            return cf_ptr_elem(c, operand(c, x), NULL);
        if (strcmp(op, "!") == 0)
            cf_refuse(c, x, "'!' used as a value (not in a condition) is not supported");
        cf_refuse(c, x, "operator '%s' is not supported", op);
    }
    case CXCursor_CallExpr:
        return call_value(c, x);
    case CXCursor_ConditionalOperator: {
        unsigned nk;
        CXCursor *kk = cf_children(c, x, &nk);
        if (nk != 3)
            cf_refuse(c, x, "this conditional operator is not supported");
        cf_expr *cond = cf_cond_of(c, kk[0]);
        const char *saved = c->no_calls;
        if (!saved)
            c->no_calls = "a call in an operand of '?:'";
        cf_expr *a = cf_expr_of(c, kk[1]), *b = cf_expr_of(c, kk[2]);
        c->no_calls = saved;
        return cf_select(c, x, cond, a, b);
    }
    case CXCursor_CompoundAssignOperator:
        cf_refuse(c, x, "an assignment inside an expression is not supported");
    case CXCursor_MemberRefExpr: { /* s.a, p->a, b[i].a: the member's own variable */
        cf_expr *m = cf_struct_member(c, x);
        if (m->sym->rank > m->nsub)
            cf_refuse(c, x, "using array member '%s' as a value is not supported", m->sym->name);
        return m;
    }
    case CXCursor_CharacterLiteral:
    case CXCursor_StringLiteral:
        cf_refuse(c, x, "characters and strings are not supported");
    default: {
        CXString s = clang_getCursorKindSpelling(k);
        char buf[64];
        snprintf(buf, sizeof buf, "%s", clang_getCString(s));
        clang_disposeString(s);
        cf_refuse(c, x, "expression '%s' is not supported", buf);
    }
    }
}

static cf_expr *
cond_of(cf *c, CXCursor x)
{
    char op[8];
    x = cf_strip(x);
    enum CXCursorKind k = clang_getCursorKind(x);
    if (k == CXCursor_BinaryOperator) {
        cf_binop_spelling(c, x, op, sizeof op);
        const char *name;
        unsigned nk;
        CXCursor *kk = cf_children(c, x, &nk);
        if (is_relational(op, &name))
            return op2(c, CF_E_BOOL, name, cf_expr_of(c, kk[0]), cf_expr_of(c, kk[1]));
        if (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0) {
            const char *saved = c->no_calls;
            c->no_calls = "a call in an operand of '&&' or '||'";
            cf_expr *a = cf_cond_of(c, kk[0]), *b = cf_cond_of(c, kk[1]);
            c->no_calls = saved;
            return op2(c, CF_E_BOOL, op[0] == '&' ? "and" : "or", a, b);
        }
    } else if (k == CXCursor_UnaryOperator) {
        bool post;
        cf_unop_spelling(c, x, op, sizeof op, &post);
        if (strcmp(op, "!") == 0)
            return op1(c, CF_E_BOOL, "not", cf_cond_of(c, operand(c, x)));
    }
    cf_expr *v = cf_expr_of(c, x);
    cf_expr *zero = new_expr(c, CF_E_INT);
    return op2(c, CF_E_BOOL, "not_equal", v, convert(c, zero, cf_expr_type(v)));
}

/* A call of a <math.h> function, or of a function of the file (hoisted). */
static cf_expr *
call_value(cf *c, CXCursor x)
{
    CXCursor callee = clang_getCursorReferenced(x);
    if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl)
        cf_refuse(c, x, "calls through function pointers are not supported");
    CXString s = clang_getCursorSpelling(callee);
    char name[128];
    snprintf(name, sizeof name, "%s", clang_getCString(s));
    clang_disposeString(s);
    cf_fn *f = cf_find_fn(c, callee);
    if (!f)
        return cf_libm_call(c, x, name);
    CXType rt = clang_getCursorResultType(f->decl);
    if (clang_getCanonicalType(rt).kind == CXType_Void)
        cf_refuse(c, x, "a call of void function '%s' used as a value is not supported", name);
    cf_sym *res = cf_temp(c, "OAD_RES", cf_type_of(c, rt, x));
    cf_call_stmt(c, x, f, res);
    cf_expr *e = new_expr(c, CF_E_VAR);
    e->sym = res;
    return e;
}

void
cf_call_stmt(cf *c, CXCursor x, cf_fn *f, cf_sym *res)
{
    cf_emit_stmt(c, cf_call_build(c, x, f, res));
}

cf_stmt *
cf_call_build(cf *c, CXCursor x, cf_fn *f, cf_sym *res)
{
    if (c->no_calls)
        cf_refuse(c, x, "%s is not supported", c->no_calls);
    int nargs = clang_Cursor_getNumArguments(x);
    int nformal = clang_Cursor_getNumArguments(f->decl);
    if (nargs != nformal)
        cf_refuse(c, x, "a call with %d arguments of '%s', which takes %d, is not supported", nargs,
                  f->name, nformal);
    cf_stmt *st = cf_new_stmt(c, CF_S_CALL, cf_line(x));
    st->at = x;
    st->callee = f;
    cf_expr **vals = cf_alloc(c, ((size_t)nargs + 1) * sizeof *vals); /* for extent_flow.c */
    for (int i = 0; i < nargs; i++) {
        CXCursor arg = clang_Cursor_getArgument(x, (unsigned)i);
        CXCursor formal = clang_Cursor_getArgument(f->decl, (unsigned)i);
        CXType ft = clang_getCursorType(formal);
        if (cf_pass_arg(c, arg, ft))
            continue;             /* passed through: no argument in the xaif */
        int xi = (int)st->args.n; /* its place among the xaif's arguments */
        cf_expr *e;
        if (cf_struct_arg(c, arg, formal, st))
            continue; /* a struct: its members */
        if (ft.kind == CXType_ConstantArray || ft.kind == CXType_VariableArray ||
            ft.kind == CXType_IncompleteArray ||
            clang_getCanonicalType(ft).kind == CXType_Pointer) {
            CXCursor a = cf_strip(arg);
            while (clang_getCursorKind(a) == CXCursor_UnexposedExpr)
                a = cf_strip(operand(c, a));
            cf_sym *s = NULL;
            cf_expr *pe = NULL; /* &a[k], a + k, a pointer local: an element */
            if (clang_getCursorKind(a) == CXCursor_UnaryOperator &&
                clang_getCursorKind(cf_strip(operand(c, a))) == CXCursor_ArraySubscriptExpr) {
                pe = cf_lvalue_of(c, operand(c, a));
                if (pe->sym->ptr && pe->nsub == 1 && pe->sub[0]->kind == CF_E_INT)
                    cf_rt_pass(c, pe->sym, pe->sub[0]->ival, f, xi, vals);
                else if (pe->sym->ptr)
                    pe->sym->use_bad = true;
            } else if (clang_getCursorKind(a) == CXCursor_MemberRefExpr) {
                cf_expr *se = cf_struct_member(c, a); /* s.a: the member array, whole */
                s = se->sym;
                if (se->nsub) { /* b[i].a: from its first element on */
                    pe = se;
                    pe->nsub = s->rank;
                    for (int k = 1; k < s->rank; k++) {
                        pe->sub[k] = new_expr(c, CF_E_INT);
                    }
                }
            } else if (clang_getCursorKind(a) != CXCursor_DeclRefExpr ||
                       cf_sym_of_decl(c, a)->plocal) {
                pe = cf_ptr_elem(c, a, NULL);
                if (pe->sym->ptr && pe->sub[0]->kind == CF_E_INT)
                    cf_rt_pass(c, pe->sym, pe->sub[0]->ival, f, xi, vals);
                else if (pe->sym->ptr)
                    pe->sym->use_bad = true;
            }
            s = pe ? pe->sym : s ? s : cf_sym_of_decl(c, a);
            if (s->rank == 0)
                cf_refuse(c, arg, "passing scalar '%s' to an array parameter is not supported",
                          s->name);
            CXType et = ft;
            while (et.kind == CXType_ConstantArray || et.kind == CXType_VariableArray ||
                   et.kind == CXType_IncompleteArray)
                et = clang_getArrayElementType(et);
            if (clang_getCanonicalType(et).kind == CXType_Pointer)
                et = clang_getPointeeType(clang_getCanonicalType(et));
            while (clang_getCanonicalType(et).kind == CXType_ConstantArray) /* (*p)[4] */
                et = clang_getArrayElementType(clang_getCanonicalType(et));
            if (cf_type_of(c, et, arg) != s->type)
                cf_refuse(c, arg,
                          "passing array '%s' to a parameter of another element type is "
                          "not supported",
                          s->name);
            if (pe)
                e = pe;
            else {
                e = new_expr(c, CF_E_VAR);
                e->sym = s;
                if (s->ptr)
                    cf_rt_pass(c, s, 0, f, xi, vals);
            }
        } else if ((e = cf_int_arg_shared(c, arg, f, formal))) {
            vals[xi] = e; /* an int parameter neither changes: itself (intarg.c) */
        } else {
            /* by value: a copy, so that the callee cannot change the caller's variable */
            cf_type t = cf_type_of(c, ft, formal);
            cf_expr *v = convert(c, cf_expr_of(c, arg), t);
            cf_sym *tmp = cf_temp(c, "OAD_CTMP", t);
            cf_stmt *cp = cf_new_stmt(c, CF_S_ASSIGN, cf_line(arg));
            cp->lhs = new_expr(c, CF_E_VAR);
            cp->lhs->sym = tmp;
            cp->rhs = v;
            cf_emit_stmt(c, cp);
            e = new_expr(c, CF_E_VAR);
            e->sym = tmp;
            vals[xi] = v;
        }
        if (!XF_VEC_PUSH(c->a, st->args, e))
            cf_oom(c);
    }
    if (res) {
        cf_expr *e = new_expr(c, CF_E_VAR);
        e->sym = res;
        if (!XF_VEC_PUSH(c->a, st->args, e))
            cf_oom(c);
    }
    cf_fn *caller = c->fn;
    bool known = false;
    for (uint32_t i = 0; i < caller->callees.n; i++)
        known |= caller->callees.v[i] == f;
    if (!known && !XF_VEC_PUSH(c->a, caller->callees, f))
        cf_oom(c);
    return st;
}
