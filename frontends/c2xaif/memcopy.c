/* memcopy.c: memcpy(dst, src, E * sizeof *dst) and memset(p, 0, E * sizeof
 * *p) between arrays of one element type, lowered to a counting loop of
 * element assignments (dst[i] = src[i], p[i] = 0), whose derivatives
 * follow (docs/c-frontend.md, "Pointers"). */
#include <string.h>

#include "cf.h"

static CXCursor
bare(cf *c, CXCursor x)
{
    for (;;) {
        x = cf_strip(x);
        enum CXCursorKind k = clang_getCursorKind(x);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr)
            return x;
        unsigned n;
        CXCursor *kid = cf_children(c, x, &n);
        if (n == 0)
            return x;
        x = kid[n - 1];
    }
}

static bool
is_sizeof(CXCursor x)
{
    return clang_getCursorKind(x) == CXCursor_UnaryExpr;
}

/* the number of elements of size @el that byte count @x is (E * sizeof,
 * sizeof * E, sizeof alone), or refused */
static cf_expr *
count_of(cf *c, CXCursor call, CXCursor x, long long el, const char *fn)
{
    x = bare(c, x);
    CXCursor sz = clang_getNullCursor(), e = clang_getNullCursor();
    char op[8];
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    if (is_sizeof(x))
        sz = x;
    else if (clang_getCursorKind(x) == CXCursor_BinaryOperator && n == 2 &&
             !strcmp(cf_binop_spelling(c, x, op, sizeof op), "*")) {
        if (is_sizeof(bare(c, k[1])))
            sz = bare(c, k[1]), e = k[0];
        else if (is_sizeof(bare(c, k[0])))
            sz = bare(c, k[0]), e = k[1];
    }
    long long bytes = -1;
    if (!clang_Cursor_isNull(sz)) {
        CXEvalResult r = clang_Cursor_Evaluate(sz);
        if (r && clang_EvalResult_getKind(r) == CXEval_Int)
            bytes = clang_EvalResult_getAsLongLong(r);
        if (r)
            clang_EvalResult_dispose(r);
    }
    if (bytes != el)
        cf_refuse(c, call,
                  "the size of this %s is not supported: write it as n * sizeof *dst (or n * "
                  "sizeof(double)), the element's size times a count",
                  fn);
    if (clang_Cursor_isNull(e)) {
        cf_expr *one = cf_alloc(c, sizeof *one);
        one->kind = CF_E_INT;
        one->ival = 1;
        return one;
    }
    cf_expr *ce = cf_expr_of(c, bare(c, e));
    if (cf_expr_type(ce) != CF_INT)
        cf_refuse(c, call, "the count of this %s is not an integer", fn);
    return ce;
}

static CXType
elem_type(cf *c, CXCursor x)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(bare(c, x)));
    if (t.kind == CXType_Pointer)
        return clang_getCanonicalType(clang_getPointeeType(t));
    if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
        t.kind == CXType_VariableArray)
        return clang_getCanonicalType(clang_getArrayElementType(t));
    t.kind = CXType_Invalid;
    return t;
}

static cf_expr *
var(cf *c, cf_sym *s)
{
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = CF_E_VAR;
    e->sym = s;
    return e;
}

static cf_expr *
op2(cf *c, cf_ekind k, const char *op, cf_expr *a, cf_expr *b)
{
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = k;
    e->op = op;
    e->a[0] = a;
    e->a[1] = b;
    e->nargs = 2;
    return e;
}

static cf_stmt *
set(cf *c, cf_expr *lhs, cf_expr *rhs, unsigned line)
{
    cf_stmt *s = cf_new_stmt(c, CF_S_ASSIGN, line);
    s->lhs = lhs;
    s->rhs = rhs;
    return s;
}

bool
cf_mem_call(cf *c, CXCursor x, const char *name)
{
    bool cpy = !strcmp(name, "memcpy"), zero = !strcmp(name, "memset");
    if ((!cpy && !zero) || clang_Cursor_getNumArguments(x) != 3)
        return false;
    CXCursor d = clang_Cursor_getArgument(x, 0), s = clang_Cursor_getArgument(x, 1);
    CXType dt = elem_type(c, d);
    enum CXTypeKind dk = dt.kind;
    if (dk != CXType_Double && dk != CXType_Float && dk != CXType_Int)
        cf_refuse(c, x,
                  "%s of anything but an array of double, float or int is not supported: copy "
                  "the elements in a loop",
                  name);
    if (cpy && elem_type(c, s).kind != dk)
        cf_refuse(c, x,
                  "memcpy between arrays of different element types is not supported: copy "
                  "the elements in a loop, converting each");
    if (zero) {
        CXEvalResult r = clang_Cursor_Evaluate(bare(c, s));
        bool z = r && clang_EvalResult_getKind(r) == CXEval_Int &&
                 clang_EvalResult_getAsLongLong(r) == 0;
        if (r)
            clang_EvalResult_dispose(r);
        if (!z)
            cf_refuse(c, x,
                      "memset to anything but 0 is not supported: set the elements in a loop");
    }
    cf_expr *n = count_of(c, x, clang_Cursor_getArgument(x, 2),
                          dk == CXType_Double  ? (long long)sizeof(double)
                          : dk == CXType_Float ? (long long)sizeof(float)
                                               : (long long)sizeof(int),
                          name);
    unsigned line = cf_line(x);
    cf_sym *i = cf_temp(c, "OAD_MEM", CF_INT);
    cf_expr *lhs = cf_ptr_elem(c, bare(c, d), var(c, i)), *rhs;
    if (cpy) {
        rhs = cf_ptr_elem(c, bare(c, s), var(c, i));
        if (rhs->sym == lhs->sym)
            cf_refuse(c, x,
                      "memcpy within one array ('%s') is not supported: its parts may overlap; "
                      "copy the elements in a loop (memmove's order)",
                      lhs->sym->name);
        if (rhs->sym->ptr)
            rhs->sym->use_bad = true;
    } else {
        rhs = cf_alloc(c, sizeof *rhs);
        rhs->kind = CF_E_INT;
        if (cf_is_real(lhs->sym->type)) {
            rhs->kind = CF_E_REAL;
            rhs->f4 = lhs->sym->type == CF_FLOAT;
        }
    }
    if (lhs->sym->ptr)
        lhs->sym->use_bad = true;
    /* for (i = 0; i < n; i++) lhs = rhs; */
    cf_fn *f = c->fn;
    uint32_t L = cf_g_vertex(c, CF_V_FORLOOP, line), E = cf_g_vertex(c, CF_V_ENDLOOP, 0);
    cf_expr *zero0 = cf_alloc(c, sizeof *zero0), *one = cf_alloc(c, sizeof *one);
    zero0->kind = one->kind = CF_E_INT;
    one->ival = 1;
    f->v.v[L].init = set(c, var(c, i), zero0, line);
    f->v.v[L].cond = op2(c, CF_E_BOOL, "less_than", var(c, i), n);
    f->v.v[L].update = set(c, var(c, i), op2(c, CF_E_OP, "add_scal_scal", var(c, i), one), line);
    cf_g_go(c, L, false);
    cf_g_arm(c, L, true, 1, line);
    cf_emit_stmt(c, set(c, lhs, rhs, line));
    cf_g_edge(c, f->cur, E, false, 0);
    cf_g_edge(c, E, L, false, 0);
    f->cur = L;
    f->live = true;
    f->open = false;
    return true;
}
