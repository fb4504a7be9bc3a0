/* ptarget.c: a pointer local set to point into different arrays at
 * different points of the program (docs/c-frontend.md, "Pointers into
 * several arrays"): `xp = x2; ... xp = &s[i];`, `p = (i == 0) ? a : b;`,
 * swapped buffers. Such a pointer is lowered to three things: its offset
 * (the int local of pointers.c), a second int local `<p>_array` that
 * says which array it points into (a tag: 1 + the array's place in
 * c->ptags), and, in the statements that use it, a "view" symbol that
 * stands for the array until the statement is dispatched. A statement
 * that reads or writes through such a pointer (or passes it to a call)
 * is emitted once for each array the pointer may point into, each copy
 * in an arm of a Branch on the tag: the target at every use is known
 * when the statement runs, and the derivative code follows the Branch as
 * any other. The arrays come from a scan of the function's source before
 * the pointer is used: its initializer and every `p = ...` in the body,
 * through other pointer locals (q = p + 1) and `?:`. */
#include <string.h>

#include "cf.h"

enum { PT_MAX = 16, PT_SEEN = 64 };

struct cf_multi {
    cf_sym *p;   /* the pointer (its offset) */
    cf_sym *tag; /* which array it points into */
    unsigned n;
    CXCursor decl[PT_MAX]; /* the arrays it may point into (declarations) */
};

/* ------------------------------------------------------------- the scan */

struct targets {
    cf *c;
    CXCursor body; /* the function */
    CXCursor d[PT_MAX];
    unsigned n;
    bool unknown; /* an assignment of a form the scan does not follow */
    CXCursor seen[PT_SEEN];
    unsigned nseen;
};

static void targets_of(struct targets *t, CXCursor x);

static CXCursor
last_expr(cf *c, CXCursor x)
{
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    for (unsigned i = n; i-- > 0;)
        if (clang_isExpression(clang_getCursorKind(k[i])))
            return k[i];
    return clang_getNullCursor();
}

static void
add_target(struct targets *t, CXCursor d)
{
    for (unsigned i = 0; i < t->n; i++)
        if (clang_equalCursors(t->d[i], d))
            return;
    if (t->n == PT_MAX)
        t->unknown = true;
    else
        t->d[t->n++] = d;
}

struct assigns {
    struct targets *t;
    CXCursor var;
};

static enum CXChildVisitResult
assigns_visit(CXCursor x, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct assigns *a = data;
    if (clang_getCursorKind(x) != CXCursor_BinaryOperator)
        return CXChildVisit_Recurse;
    unsigned n;
    CXCursor *k = cf_children(a->t->c, x, &n);
    char op[8];
    /* the variable first: an operator inside a macro's expansion cannot be spelled */
    if (n == 2 && cf_names(k[0], a->var) &&
        !strcmp(cf_binop_spelling(a->t->c, x, op, sizeof op), "="))
        targets_of(a->t, k[1]);
    return CXChildVisit_Recurse;
}

static bool
is_heap(cf *c, CXCursor var)
{
    CXCursor x = last_expr(c, var);
    while (!clang_Cursor_isNull(x)) {
        x = cf_strip(x);
        enum CXCursorKind k = clang_getCursorKind(x);
        if (k == CXCursor_CallExpr) {
            CXString s = clang_getCursorSpelling(x);
            const char *n = clang_getCString(s);
            bool r = !strcmp(n, "malloc") || !strcmp(n, "calloc");
            clang_disposeString(s);
            return r;
        }
        if (k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr)
            return false;
        x = last_expr(c, x);
    }
    return false;
}

/* The arrays pointer variable @var may point into: a parameter into
 * itself and what it is set to; a local what it is declared with and set to. */
static void
targets_of_var(struct targets *t, CXCursor var)
{
    for (unsigned i = 0; i < t->nseen; i++)
        if (clang_equalCursors(t->seen[i], var))
            return;
    if (t->nseen == PT_SEEN) {
        t->unknown = true;
        return;
    }
    t->seen[t->nseen++] = var;
    if (clang_getCursorKind(var) == CXCursor_ParmDecl)
        add_target(t, var);
    else {
        CXCursor init = last_expr(t->c, var);
        if (!clang_Cursor_isNull(init))
            targets_of(t, init);
    }
    struct assigns a = {t, var};
    clang_visitChildren(t->body, assigns_visit, &a);
}

static void
targets_of(struct targets *t, CXCursor x)
{
    x = cf_strip(x);
    unsigned n;
    CXCursor *k = cf_children(t->c, x, &n);
    char op[8];
    bool post;
    switch (clang_getCursorKind(x)) {
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
        if (n >= 1)
            targets_of(t, k[n - 1]);
        else
            t->unknown = true;
        return;
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(x);
        enum CXCursorKind dk = clang_getCursorKind(d);
        enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(d)).kind;
        bool global =
            clang_getCursorKind(clang_getCursorSemanticParent(d)) == CXCursor_TranslationUnit;
        if ((dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl) || global)
            t->unknown = true;
        else if (tk == CXType_ConstantArray || tk == CXType_IncompleteArray ||
                 tk == CXType_VariableArray)
            add_target(t, d);
        else if (tk != CXType_Pointer)
            t->unknown = true;
        else if (dk == CXCursor_VarDecl && is_heap(t->c, d))
            add_target(t, d);
        else
            targets_of_var(t, d);
        return;
    }
    case CXCursor_UnaryOperator:
        if (n == 1 && !strcmp(cf_unop_spelling(t->c, x, op, sizeof op, &post), "&")) {
            CXCursor a = cf_strip(k[0]);
            while (clang_getCursorKind(a) == CXCursor_ArraySubscriptExpr) {
                unsigned m;
                CXCursor *s = cf_children(t->c, a, &m);
                if (m != 2)
                    break;
                a = cf_strip(s[0]);
                while (clang_getCursorKind(a) == CXCursor_UnexposedExpr)
                    a = cf_strip(last_expr(t->c, a));
                if (clang_getCursorKind(a) == CXCursor_DeclRefExpr) {
                    targets_of(t, a);
                    return;
                }
            }
        }
        t->unknown = true;
        return;
    case CXCursor_BinaryOperator:
        if (n == 2 &&
            (!strcmp(cf_binop_spelling(t->c, x, op, sizeof op), "+") || !strcmp(op, "-"))) {
            bool left = clang_getCanonicalType(clang_getCursorType(k[0])).kind == CXType_Pointer;
            targets_of(t, k[left ? 0 : 1]);
            return;
        }
        t->unknown = true;
        return;
    case CXCursor_ConditionalOperator:
        if (n == 3) {
            targets_of(t, k[1]);
            targets_of(t, k[2]);
            return;
        }
        t->unknown = true;
        return;
    default:
        t->unknown = true;
        return;
    }
}

void
cf_pt_scan(cf *c, cf_sym *p, CXCursor var)
{
    struct targets t = {.c = c, .body = c->fn->decl};
    targets_of_var(&t, var);
    if (t.unknown || t.n < 2)
        return; /* one array (or a form pointers.c refuses with its own message) */
    struct cf_multi *m = cf_alloc(c, sizeof *m);
    m->p = p;
    m->n = t.n;
    memcpy(m->decl, t.d, sizeof t.d);
    char name[160];
    snprintf(name, sizeof name, "%s_array", p->name);
    m->tag = cf_add_sym(c, name, CF_INT);
    p->multi = m;
}

/* ------------------------------------------------------------ the uses */

/* The variable declared at @d of the current function, or NULL when it is
 * not declared yet (then the pointer cannot point into it here). */
static cf_sym *
resolve(cf *c, CXCursor d)
{
    cf_fn *f = c->fn;
    uint64_t key = cf_decl_key(d);
    for (uint32_t i = 0; i < f->syms.n; i++) {
        cf_sym *s = f->syms.v[i];
        if (s->formal && s->rank > 0 && clang_equalCursors(s->where, d))
            return s; /* a parameter (its name may be a moved pointer's, pointers.c) */
        if (s->decl == key && !s->plocal)
            return s;
    }
    return NULL;
}

static int64_t
tag_of(cf *c, cf_sym *a)
{
    for (uint32_t i = 0; i < c->ptags.n; i++)
        if (c->ptags.v[i] == a)
            return (int64_t)i + 1;
    if (!XF_VEC_PUSH(c->a, c->ptags, a))
        cf_oom(c);
    return (int64_t)c->ptags.n;
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
int_const(cf *c, int64_t v)
{
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = CF_E_INT;
    e->ival = v;
    return e;
}

static void
set_tag(cf *c, cf_sym *p, cf_expr *v, unsigned line)
{
    cf_stmt *st = cf_new_stmt(c, CF_S_ASSIGN, line);
    st->lhs = var(c, p->multi->tag);
    st->rhs = v;
    cf_emit_stmt(c, st);
}

/* The names of @m's arrays, for messages. */
static const char *
list(cf *c, const struct cf_multi *m)
{
    char buf[400];
    size_t k = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < m->n && k < sizeof buf - 80; i++) {
        CXString s = clang_getCursorSpelling(m->decl[i]);
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s'%s'",
                              i == 0          ? ""
                              : i + 1 == m->n ? " and "
                                              : ", ",
                              clang_getCString(s));
        clang_disposeString(s);
    }
    return cf_strdup(c, buf);
}

bool
cf_pt_set(cf *c, cf_sym *p, cf_sym *base, CXCursor at)
{
    struct cf_multi *m = p->multi;
    if (!m)
        return false;
    unsigned line = cf_line(at);
    if (base->multi && base->view) { /* p = q + k, q into several arrays too */
        if (base->view != p)
            set_tag(c, p, var(c, base->multi->tag), line);
        return true;
    }
    bool known = false;
    for (unsigned i = 0; i < m->n && !known; i++)
        known = resolve(c, m->decl[i]) == base;
    if (!known)
        cf_refuse(c, at,
                  "pointer '%s' points into '%s' here, which xaiform did not find among the "
                  "arrays it is set to (%s): set it with p = &a[k], p = a + k or p = q",
                  p->name, base->name, list(c, m));
    if (base->ptr) /* the pointer's uses say nothing of the parameter's extent */
        base->use_bad = true;
    set_tag(c, p, int_const(c, tag_of(c, base)), line);
    return true;
}

cf_sym *
cf_pt_view(cf *c, cf_sym *p, CXCursor at)
{
    cf_sym *v = cf_alloc(c, sizeof *v);
    v->name = p->name;
    v->type = (cf_type)p->ptype;
    v->rank = 1;
    v->dims[0] = CF_RT_EXTENT;
    v->multi = p->multi;
    v->view = p;
    v->where = at;
    if (c->no_calls && strstr(c->no_calls, "loop"))
        cf_refuse(c, at,
                  "a use of pointer '%s' in %s is not supported: it points into %s, chosen "
                  "at run time; copy the element into a variable before the loop and at the "
                  "end of its body",
                  p->name, c->no_calls + 10 /* past "a call in " */, list(c, p->multi));
    return v;
}

/* The first view in @e, or NULL. */
static cf_sym *
view_in(const cf_expr *e)
{
    if (!e)
        return NULL;
    if (e->kind == CF_E_VAR && e->sym && e->sym->view)
        return e->sym;
    cf_sym *v = NULL;
    for (int k = 0; k < e->nsub && !v; k++)
        v = view_in(e->sub[k]);
    for (int k = 0; k < e->nargs && !v; k++)
        v = view_in(e->a[k]);
    return v;
}

static cf_sym *
view_in_stmt(const cf_stmt *s)
{
    if (!s)
        return NULL;
    cf_sym *v = view_in(s->lhs);
    if (!v)
        v = view_in(s->rhs);
    for (uint32_t i = 0; i < s->args.n && !v; i++)
        v = view_in(s->args.v[i]);
    return v;
}

/* @e with every view of @m made array @a. */
static cf_expr *
subst(cf *c, const cf_expr *e, const struct cf_multi *m, cf_sym *a)
{
    if (!e)
        return NULL;
    cf_expr *r = cf_alloc(c, sizeof *r);
    *r = *e;
    for (int k = 0; k < e->nsub; k++)
        r->sub[k] = subst(c, e->sub[k], m, a);
    for (int k = 0; k < e->nargs; k++)
        r->a[k] = subst(c, e->a[k], m, a);
    if (e->kind == CF_E_VAR && e->sym && e->sym->view && e->sym->multi == m) {
        r->sym = a;
        if (a->ptr)
            cf_rt_use(c, r);
    }
    return r;
}

static cf_stmt *
subst_stmt(cf *c, const cf_stmt *s, const struct cf_multi *m, cf_sym *a)
{
    cf_stmt *r = cf_new_stmt(c, s->kind, s->line);
    r->lhs = subst(c, s->lhs, m, a);
    r->rhs = subst(c, s->rhs, m, a);
    r->callee = s->callee;
    r->at = s->at;
    r->pname = s->pname;
    for (uint32_t i = 0; i < s->args.n; i++) {
        cf_expr *e = subst(c, s->args.v[i], m, a);
        if (!XF_VEC_PUSH(c->a, r->args, e))
            cf_oom(c);
    }
    return r;
}

/* @s for arrays @arr[i..n-1] of @m: a Branch on the tag for each but the last. */
static void
chain(cf *c, const cf_stmt *s, const struct cf_multi *m, cf_sym **arr, unsigned i, unsigned n)
{
    if (i + 1 == n) {
        cf_emit_stmt(c, subst_stmt(c, s, m, arr[i]));
        return;
    }
    cf_fn *f = c->fn;
    cf_expr *cond = cf_alloc(c, sizeof *cond);
    cond->kind = CF_E_BOOL;
    cond->op = "equal";
    cond->a[0] = var(c, m->tag);
    cond->a[1] = int_const(c, tag_of(c, arr[i]));
    cond->nargs = 2;
    uint32_t B = cf_g_vertex(c, CF_V_BRANCH, s->line);
    f->v.v[B].cond = cond;
    cf_g_go(c, B, false);
    uint32_t ends[2];
    bool live[2];
    cf_g_arm(c, B, true, 1, s->line);
    cf_emit_stmt(c, subst_stmt(c, s, m, arr[i]));
    ends[0] = f->cur;
    live[0] = f->live;
    cf_g_arm(c, B, false, 0, s->line);
    chain(c, s, m, arr, i + 1, n);
    ends[1] = f->cur;
    live[1] = f->live;
    uint32_t J = cf_g_vertex(c, CF_V_ENDBRANCH, 0);
    for (int k = 0; k < 2; k++)
        if (live[k])
            cf_g_edge(c, ends[k], J, false, 0);
    f->cur = J;
    f->live = true;
    f->open = false;
}

bool
cf_pt_dispatch(cf *c, cf_stmt *s)
{
    cf_sym *v = view_in_stmt(s);
    if (!v)
        return false;
    const struct cf_multi *m = v->multi;
    cf_sym *arr[PT_MAX];
    unsigned n = 0;
    for (unsigned i = 0; i < m->n; i++) {
        cf_sym *a = resolve(c, m->decl[i]);
        if (!a) /* declared later: the pointer cannot point into it here */
            continue;
        if (a->rank != 1)
            cf_refuse(c, v->where,
                      "a pointer into '%s' is not supported: only arrays of one dimension (and "
                      "pointer parameters) can be pointed into; pass &%s[i][0] to a parameter "
                      "instead",
                      a->name, a->name);
        arr[n++] = a;
    }
    if (n == 0)
        cf_refuse(c, v->where,
                  "pointer '%s' is used before it points into an array: set it first (%s = "
                  "&a[k] or %s = a + k)",
                  m->p->name, m->p->name, m->p->name);
    chain(c, s, m, arr, 0, n);
    return true;
}

cf_expr *
cf_pt_hoist(cf *c, cf_expr *e)
{
    if (!view_in(e))
        return e;
    if (e->kind == CF_E_VAR && e->sym && e->sym->view) {
        cf_sym *t = cf_temp(c, "OAD_PTR", e->sym->type);
        cf_stmt *st = cf_new_stmt(c, CF_S_ASSIGN, cf_line(e->sym->where));
        st->lhs = var(c, t);
        st->rhs = e;
        cf_emit_stmt(c, st);
        return var(c, t);
    }
    cf_expr *r = cf_alloc(c, sizeof *r);
    *r = *e;
    for (int k = 0; k < e->nsub; k++)
        r->sub[k] = cf_pt_hoist(c, e->sub[k]);
    for (int k = 0; k < e->nargs; k++)
        r->a[k] = cf_pt_hoist(c, e->a[k]);
    return r;
}

void
cf_pt_value(cf *c, CXCursor at, const cf_sym *base)
{
    if (base->multi && base->view)
        cf_refuse(c, at,
                  "the value of pointer '%s' is not supported here: it points into %s, chosen at "
                  "run time; compare integer indices instead of pointers",
                  base->view->name, list(c, base->multi));
}

void
cf_pt_check(cf *c, const cf_fn *f)
{
    for (uint32_t i = 0; i < f->v.n; i++) {
        const cf_vert *v = &f->v.v[i];
        cf_sym *w = view_in(v->cond);
        if (!w)
            w = view_in_stmt(v->init);
        if (!w)
            w = view_in_stmt(v->update);
        for (uint32_t k = 0; k < v->stmts.n && !w; k++)
            w = view_in_stmt(v->stmts.v[k]);
        if (w)
            cf_refuse(c, w->where,
                      "this use of pointer '%s' is not supported here (a condition or a loop "
                      "header): it points into %s, chosen at run time; copy the element into a "
                      "variable first",
                      w->view->name, list(c, w->multi));
    }
}

cf_expr *
cf_pt_assign(cf *c, cf_sym *p, CXCursor rhs)
{
    CXCursor x = cf_strip(rhs);
    while (clang_getCursorKind(x) == CXCursor_UnexposedExpr &&
           !clang_Cursor_isNull(last_expr(c, x)))
        x = cf_strip(last_expr(c, x));
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    if (clang_getCursorKind(x) != CXCursor_ConditionalOperator || n != 3) {
        cf_sym *base = NULL;
        cf_expr *off = cf_ptr_of(c, rhs, &base);
        cf_ptr_set(c, p, base, rhs);
        return off;
    }
    /* p = c ? a : b: a Branch, each arm setting the offset (and the tag) */
    if (c->no_calls)
        cf_refuse(c, x, "a choice of pointers ('?:') in %s is not supported",
                  c->no_calls + 10 /* past "a call in " */);
    cf_fn *f = c->fn;
    cf_expr *cond = cf_pt_hoist(c, cf_cond_of(c, k[0]));
    cf_sym *tmp = cf_temp(c, "OAD_SEL", CF_INT);
    unsigned line = cf_line(x);
    uint32_t B = cf_g_vertex(c, CF_V_BRANCH, line);
    f->v.v[B].cond = cond;
    cf_g_go(c, B, false);
    uint32_t ends[2];
    for (int a = 0; a < 2; a++) {
        cf_g_arm(c, B, a == 0, 1, line);
        cf_stmt *st = cf_new_stmt(c, CF_S_ASSIGN, line);
        st->lhs = var(c, tmp);
        st->rhs = cf_pt_assign(c, p, k[1 + a]);
        cf_emit_stmt(c, st);
        ends[a] = f->cur;
    }
    uint32_t J = cf_g_vertex(c, CF_V_ENDBRANCH, 0);
    cf_g_edge(c, ends[0], J, false, 0);
    cf_g_edge(c, ends[1], J, false, 0);
    f->cur = J;
    f->live = true;
    f->open = false;
    return var(c, tmp);
}

void
cf_pt_heap_assign(cf *c, CXCursor lhs)
{
    CXCursor x = cf_strip(lhs);
    if (clang_getCursorKind(x) != CXCursor_DeclRefExpr)
        return;
    enum CXCursorKind k = clang_getCursorKind(clang_getCursorReferenced(x));
    if (k != CXCursor_VarDecl)
        return;
    cf_sym *s = cf_sym_of_decl(c, x);
    if (s->heap)
        cf_refuse(c, x,
                  "assigning work array '%s', from malloc, is not supported: "
                  "keep the arrays and swap pointers into them (double *cur = %s, *nxt = ...)",
                  s->name, s->name);
}
