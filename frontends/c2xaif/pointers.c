/* pointers.c: pointers into arrays (docs/c-frontend.md, "Pointers"). A
 * pointer local is lowered to (base array, integer offset): the local
 * becomes an int variable holding the offset, its base is the one array
 * every assignment makes it point into, and p[k], *p, *(p + k) become
 * base[p + k]; p++, p += k, p = q + k are integer arithmetic. A pointer
 * expression passed to a pointer or array parameter (&a[k], a + k, p)
 * becomes the element base[offset], which xaif passes by sequence
 * association, as Fortran passes a(k) to an array dummy. */
#include <string.h>

#include "cf.h"

static cf_expr *
new_e(cf *c, cf_ekind k)
{
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = k;
    return e;
}

static cf_expr *
add(cf *c, const char *op, cf_expr *a, cf_expr *b)
{
    if (b->kind == CF_E_INT && b->ival == 0)
        return a;
    if (a->kind == CF_E_INT && a->ival == 0 && op[0] == 'a')
        return b;
    cf_expr *e = new_e(c, CF_E_OP);
    e->op = op;
    e->a[0] = a;
    e->a[1] = b;
    e->nargs = 2;
    return e;
}

static bool
is_pointer(CXCursor x)
{
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(x)).kind;
    return k == CXType_Pointer;
}

static CXCursor
inner(cf *c, CXCursor x)
{
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    for (unsigned i = n; i-- > 0;)
        if (clang_isExpression(clang_getCursorKind(k[i])))
            return k[i];
    cf_refuse(c, x, "this expression is not supported");
}

/* *p++, *--p ... in an expression, p a pointer local (@x the increment, @op
 * "++" or "--", @post: after): the step is a statement of its own before
 * the expression's (as a hoisted call), and p's offset there is p's (before
 * it: p -+ 1). Other reads of p in the same expression would be unsequenced
 * in C; where the expression is not always evaluated (the operands of ?:,
 * && and ||, as for calls) it is refused. */
static cf_expr *
step(cf *c, CXCursor at, CXCursor x, const char *op, bool post, cf_sym **base)
{
    CXCursor v = cf_strip(inner(c, x));
    cf_sym *s = clang_getCursorKind(v) == CXCursor_DeclRefExpr ? cf_sym_of_decl(c, v) : NULL;
    if (!s || !s->plocal)
        cf_refuse(c, at,
                  "this pointer expression is not supported: '%s' steps only a pointer variable "
                  "(p%s)",
                  op, op);
    if (c->no_calls)
        cf_refuse(c, at,
                  "'%s' of pointer '%s' %s is not supported: step the pointer in a statement "
                  "of its own (%s%s;)",
                  op, s->name, c->no_calls + 7 /* past "a call " */, s->name, op);
    cf_ptr_of(c, v, base); /* refuses a pointer not yet set */
    cf_stmt *st = cf_incr_stmt(c, x);
    cf_emit_stmt(c, st);
    cf_expr *e = new_e(c, CF_E_VAR);
    e->sym = s;
    if (!post)
        return e;
    cf_expr *one = new_e(c, CF_E_INT);
    one->ival = 1;
    return add(c, op[0] == '+' ? "sub_scal_scal" : "add_scal_scal", e, one);
}

cf_expr *
cf_ptr_of(cf *c, CXCursor x, cf_sym **base)
{
    CXCursor at = x;
    x = cf_strip(x);
    char op[8];
    switch (clang_getCursorKind(x)) {
    case CXCursor_UnexposedExpr: /* array-to-pointer decay, qualification */
        return cf_ptr_of(c, inner(c, x), base);
    case CXCursor_CStyleCastExpr:
        cf_refuse(c, at,
                  "a cast of a pointer is not supported: the array it points into cannot be "
                  "known; index the array itself (&a[k], a + k)");
    case CXCursor_DeclRefExpr: {
        cf_sym *s = cf_sym_of_decl(c, x);
        if (s->plocal && s->multi) { /* into several arrays (ptarget.c) */
            *base = cf_pt_view(c, s, at);
            cf_expr *e = new_e(c, CF_E_VAR);
            e->sym = s;
            return e;
        }
        if (s->plocal) {
            if (!s->pbase)
                cf_refuse(c, at,
                          "pointer '%s' is used before it points into an array: set it first "
                          "(%s = &a[k] or %s = a + k)",
                          s->name, s->name, s->name);
            *base = s->pbase;
            cf_expr *e = new_e(c, CF_E_VAR);
            e->sym = s;
            return e;
        }
        if (s->rank != 1)
            cf_refuse(c, at,
                      "a pointer into '%s' is not supported: only arrays of one dimension "
                      "(and pointer parameters) can be pointed into; pass &%s[i][0] to a "
                      "parameter instead",
                      s->name, s->name);
        *base = s;
        return new_e(c, CF_E_INT);
    }
    case CXCursor_MemberRefExpr: { /* m->data, a struct's pointer member (structs.c) */
        cf_expr *e = cf_struct_member(c, x);
        if (e && e->nsub == 1 && e->sym->rank == 2 && e->sym->dims[1] > 0 &&
            e->sym->dims[1] < CF_RT_EXTENT) { /* b[i].v, v[K] a member: row i of b_v */
            cf_expr *k = new_e(c, CF_E_INT);
            k->ival = e->sym->dims[1];
            *base = e->sym;
            return add(c, "mul_scal_scal", e->sub[0], k);
        }
        if (!e || e->nsub || e->sym->rank != 1)
            break;
        *base = e->sym;
        return new_e(c, CF_E_INT);
    }
    case CXCursor_UnaryOperator: {
        bool post;
        cf_unop_spelling(c, x, op, sizeof op, &post);
        if (strcmp(op, "&") == 0) {
            cf_expr *e = cf_lvalue_of(c, inner(c, x));
            if (e->nsub != 1 || e->sym->rank != 1)
                cf_refuse(c, at,
                          "this address is not supported: a pointer points into an array of "
                          "one dimension (&a[k])");
            *base = e->sym;
            return e->sub[0];
        }
        if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)
            return step(c, at, x, op, post, base);
        break;
    }
    case CXCursor_BinaryOperator: {
        cf_binop_spelling(c, x, op, sizeof op);
        unsigned n;
        CXCursor *k = cf_children(c, x, &n);
        if (n == 2 && (!strcmp(op, "+") || !strcmp(op, "-"))) {
            bool left = is_pointer(k[0]);
            if (!left && !strcmp(op, "-"))
                break;
            cf_expr *o = cf_ptr_of(c, k[left ? 0 : 1], base);
            cf_expr *i = cf_expr_of(c, k[left ? 1 : 0]);
            if (cf_expr_type(i) != CF_INT)
                break;
            return add(c, op[0] == '+' ? "add_scal_scal" : "sub_scal_scal", o, i);
        }
        break;
    }
    default:
        break;
    }
    cf_refuse(c, at,
              "this pointer expression is not supported: a pointer is an array, &a[k], a + k, "
              "or a pointer local set from one of them");
}

cf_expr *
cf_ptr_elem(cf *c, CXCursor x, cf_expr *k)
{
    cf_sym *base = NULL;
    cf_expr *o = cf_ptr_of(c, x, &base);
    cf_expr *e = new_e(c, CF_E_VAR);
    e->sym = base;
    e->nsub = 1;
    e->sub[0] = k ? add(c, "add_scal_scal", o, k) : o;
    if (base->rank == 2) { /* a row of a struct array's member array: [o / K][o % K] */
        cf_expr *n = new_e(c, CF_E_INT);
        n->ival = base->dims[1];
        cf_expr *at = e->sub[0];
        e->nsub = 2;
        e->sub[0] = add(c, "div_scal_scal", at, n);
        e->sub[1] = add(c, "mod_scal_scal", at, n);
        return e;
    }
    if (base->ptr)
        cf_rt_use(c, e);
    return e;
}

void
cf_ptr_set(cf *c, cf_sym *p, cf_sym *base, CXCursor at)
{
    if (cf_pt_set(c, p, base, at))
        return; /* a pointer into several arrays (ptarget.c) */
    if (!p->pbase)
        p->pbase = base;
    else if (p->pbase != base)
        cf_refuse(c, at,
                  "pointer '%s' points into '%s' and into '%s': the array it points into "
                  "cannot be known (xaiform follows a pointer into several arrays when each "
                  "is a parameter or a local array, set as &a[k], a + k, q or c ? a : b); use "
                  "one pointer for each array",
                  p->name, p->pbase->name, base->name);
    if (base->ptr) /* the pointer's uses say nothing of the parameter's extent */
        base->use_bad = true;
}

cf_sym *
cf_ptr_local(cf *c, CXCursor d, const char *name, CXType pointee)
{
    enum CXTypeKind k = clang_getCanonicalType(pointee).kind;
    if (k == CXType_Pointer)
        cf_refuse(c, d,
                  "pointer '%s' to pointers is not supported as a local: index the array it "
                  "points to",
                  name);
    if (k != CXType_Double && k != CXType_Float && k != CXType_Int)
        cf_refuse(c, d,
                  "pointer '%s' is not supported: a pointer local points into an array of "
                  "double, float or int",
                  name);
    cf_sym *s = cf_add_sym(c, name, CF_INT);
    s->plocal = true;
    s->ptype = cf_type_of(c, pointee, d);
    cf_pt_scan(c, s, d);
    return s;
}

cf_sym *
cf_ptr_target(cf *c, CXCursor lhs)
{
    lhs = cf_strip(lhs);
    if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr)
        return NULL;
    CXCursor d = clang_getCursorReferenced(lhs);
    enum CXCursorKind k = clang_getCursorKind(d);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
        return NULL;
    cf_sym *s = cf_sym_of_decl(c, lhs);
    return s->plocal ? s : NULL;
}

/* ------------------------------------------------ malloc'ed work arrays */

static CXCursor
strip_casts(cf *c, CXCursor x)
{
    for (;;) {
        x = cf_strip(x);
        enum CXCursorKind k = clang_getCursorKind(x);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr)
            return x;
        x = inner(c, x);
    }
}

static bool
named(CXCursor call, const char *name)
{
    CXString s = clang_getCursorSpelling(call);
    bool r = strcmp(clang_getCString(s), name) == 0;
    clang_disposeString(s);
    return r;
}

/* The factors of product @x, each without its casts ((size_t)n); at most
 * @max, in @f; their number, or max + 1 when there are more. */
static unsigned
factors(cf *c, CXCursor x, CXCursor *f, unsigned n, unsigned max)
{
    char op[8];
    unsigned nk;
    x = strip_casts(c, x);
    CXCursor *k = cf_children(c, x, &nk);
    if (clang_getCursorKind(x) == CXCursor_BinaryOperator && nk == 2 &&
        !strcmp(cf_binop_spelling(c, x, op, sizeof op), "*"))
        return factors(c, k[1], f, factors(c, k[0], f, n, max), max);
    if (n < max)
        f[n] = x;
    return n + 1;
}

/* The product of the factors of @x but one sizeof (malloc), or of all and
 * no sizeof (calloc's first argument), as an extent; NULL when it is not
 * so, or is no expression of the int parameters. */
static const char *
count_of(cf *c, CXCursor x, bool with_sizeof)
{
    CXCursor f[8];
    unsigned n = factors(c, x, f, 0, 8), nsize = 0;
    if (n > 8)
        return NULL;
    cf_expr *e = NULL;
    for (unsigned i = 0; i < n; i++) {
        if (clang_getCursorKind(f[i]) == CXCursor_UnaryExpr) { /* sizeof */
            nsize++;
            continue;
        }
        cf_expr *a = cf_expr_of(c, f[i]);
        if (e) {
            cf_expr *m = cf_alloc(c, sizeof *m);
            m->kind = CF_E_OP;
            m->op = "mul_scal_scal";
            m->a[0] = e;
            m->a[1] = a;
            m->nargs = 2;
            a = m;
        }
        e = a;
    }
    if (!e || nsize != (with_sizeof ? 1u : 0u))
        return NULL;
    return cf_rt_expr_text(c, e);
}

/* The number of elements of malloc(E * sizeof(T)), malloc(sizeof(T) * E) or
 * calloc(E, sizeof(T)) at @x, as an extent; E a product whose factors may
 * be cast ((size_t)n); NULL when @x is no such call. */
static const char *
heap_size(cf *c, CXCursor x, const char *name)
{
    x = strip_casts(c, x);
    if (clang_getCursorKind(x) != CXCursor_CallExpr)
        return NULL;
    bool m = named(x, "malloc"), ca = named(x, "calloc");
    if (!m && !ca)
        return NULL;
    const char *t = NULL;
    if (ca && clang_Cursor_getNumArguments(x) == 2 &&
        clang_getCursorKind(strip_casts(c, clang_Cursor_getArgument(x, 1))) == CXCursor_UnaryExpr)
        t = count_of(c, clang_Cursor_getArgument(x, 0), false);
    if (m && clang_Cursor_getNumArguments(x) == 1)
        t = count_of(c, clang_Cursor_getArgument(x, 0), true);
    if (!t)
        cf_refuse(c, x,
                  "the size of '%s' is not supported: allocate it as malloc(n * sizeof(double)) "
                  "or calloc(n, sizeof(double)) with n a product of expressions of the int "
                  "parameters",
                  name);
    return t;
}

const char *
cf_heap_size(cf *c, CXCursor x, const char *name)
{
    return heap_size(c, x, name);
}

/* The number of elements that the malloc or calloc @x allocates when its
 * size is a constant expression (clang folds it), else 0: the nominal
 * extent for `xaiform run`, which allocates what DimensionBounds says. */
static int64_t
heap_const(cf *c, CXCursor x, cf_type t)
{
    x = strip_casts(c, x);
    if (clang_getCursorKind(x) != CXCursor_CallExpr || clang_Cursor_getNumArguments(x) < 1)
        return 0;
    CXEvalResult r = clang_Cursor_Evaluate(clang_Cursor_getArgument(x, 0));
    if (!r)
        return 0;
    long long v = clang_EvalResult_getKind(r) == CXEval_Int ? clang_EvalResult_getAsLongLong(r) : 0;
    clang_EvalResult_dispose(r);
    if (named(x, "calloc"))
        return v > 0 && v < CF_RT_EXTENT ? v : 0;
    long long es = t == CF_FLOAT ? (long long)sizeof(float) : (long long)sizeof(double);
    return v > 0 && es > 0 && v % es == 0 && v / es < CF_RT_EXTENT ? v / es : 0;
}

cf_sym *
cf_heap_local(cf *c, CXCursor d, const char *name, CXType pointee)
{
    unsigned n;
    CXCursor *k = cf_children(c, d, &n);
    const char *size = NULL;
    unsigned at = 0;
    for (unsigned i = 0; i < n && !size; i++)
        if (clang_isExpression(clang_getCursorKind(k[i])) && (size = heap_size(c, k[i], name)))
            at = i;
    if (!size)
        return NULL;
    cf_type t = cf_type_of(c, pointee, d);
    int64_t fixed = heap_const(c, k[at], t);
    if (t == CF_INT)
        cf_refuse(c, d, "a malloc'ed array of int ('%s') is not supported: give it a constant size",
                  name);
    cf_sym *s = cf_add_sym(c, name, t);
    s->rank = 1;
    s->dims[0] = fixed ? fixed : CF_RT_EXTENT;
    s->dimx[0] = size;
    s->heap = true;
    return s;
}

bool
cf_heap_free(cf *c, CXCursor call)
{
    if (!named(call, "free") || clang_Cursor_getNumArguments(call) != 1)
        return false;
    CXCursor a = strip_casts(c, clang_Cursor_getArgument(call, 0));
    if (cf_struct_heap(c, a) || cf_ctor_made(c, a) || cf_arr_made(c, a))
        return true; /* m.data of a local struct m (structs.c), or m made by a constructor */
    if (clang_getCursorKind(a) != CXCursor_DeclRefExpr || !cf_sym_of_decl(c, a)->heap)
        cf_refuse(c, call,
                  "free of anything but a work array malloc'ed where it is declared is not "
                  "supported");
    return true; /* the generated code frees its work arrays at the routine's end */
}

/* ------------------------------------ pointer parameters the function moves */

struct moved {
    cf *c;
    CXCursor parm;
    bool hit;
};

static enum CXChildVisitResult
moved_visit(CXCursor x, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct moved *m = data;
    enum CXCursorKind k = clang_getCursorKind(x);
    char op[8];
    bool post, change = false;
    if (k != CXCursor_CompoundAssignOperator && k != CXCursor_BinaryOperator &&
        k != CXCursor_UnaryOperator)
        return CXChildVisit_Recurse;
    unsigned n;
    CXCursor *kid = cf_children(m->c, x, &n);
    /* the parameter first, then the operator's spelling: an operator inside a
     * macro's expansion (assert's) cannot be spelled, and needs not be */
    if (n < 1 || !cf_names(kid[0], m->parm))
        return CXChildVisit_Recurse;
    if (k == CXCursor_CompoundAssignOperator)
        change = true;
    else if (k == CXCursor_BinaryOperator)
        change = !strcmp(cf_binop_spelling(m->c, x, op, sizeof op), "=");
    else {
        cf_unop_spelling(m->c, x, op, sizeof op, &post);
        change = !strcmp(op, "++") || !strcmp(op, "--");
    }
    if (change) {
        m->hit = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

void
cf_ptr_moved_params(cf *c, cf_fn *f)
{
    for (uint32_t i = 0; i < f->formals.n; i++) {
        cf_sym *s = f->formals.v[i];
        if (!s->ptr || s->rank != 1 || s->leaf)
            continue;
        struct moved m = {c, s->where, false};
        clang_visitChildren(f->decl, moved_visit, &m);
        if (!m.hit)
            continue;
        /* a copy of the caller's pointer: an offset into the parameter from 0 */
        cf_sym *q = cf_add_sym(c, s->name, CF_INT);
        q->plocal = true;
        q->ptype = (int)s->type;
        q->decl = s->decl;
        q->where = s->where;
        s->decl = 0; /* the uses of the name are the offset's */
        cf_pt_scan(c, q, s->where);
        cf_ptr_set(c, q, s, s->where);
        cf_stmt *st = cf_new_stmt(c, CF_S_ASSIGN, cf_line(s->where));
        st->lhs = new_e(c, CF_E_VAR);
        st->lhs->sym = q;
        st->rhs = new_e(c, CF_E_INT);
        cf_emit_stmt(c, st);
    }
}
