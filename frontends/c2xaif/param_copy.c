/* param_copy.c: an int parameter that is an extent and that its function
 * writes (`while (n > 0) { n--; ... }` over x of n elements). In C the
 * parameter is the function's own copy, so the body's n and the extent's n
 * (the caller's value, which the generated code reads wherever it needs
 * the size) part at the first write: the body works on a local copy, set
 * from the parameter at the entry, and the parameter itself keeps the
 * caller's value for the extents (docs/c-frontend.md, Sizes known at run
 * time). */
#include <ctype.h>
#include <string.h>

#include "cf.h"

/* Whether @name occurs as an identifier in the extent text @x. */
static bool
names(const char *x, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = x; p && *p;) {
        const char *q = p;
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        if (q == p) {
            p++;
            continue;
        }
        if ((size_t)(q - p) == n && !strncmp(p, name, n) && !isdigit((unsigned char)*p))
            return true;
        p = q;
    }
    return false;
}

static bool
in_extent(const cf_fn *f, const cf_sym *n)
{
    for (uint32_t k = 0; k < f->syms.n; k++)
        for (int d = 0; d < f->syms.v[k]->rank; d++)
            if (names(f->syms.v[k]->dimx[d], n->name))
                return true;
    return false;
}

static bool
sets(const cf_stmt *s, const cf_sym *n)
{
    return s && s->kind == CF_S_ASSIGN && s->lhs && s->lhs->sym == n;
}

static bool
written(const cf_fn *f, const cf_sym *n)
{
    for (uint32_t i = 0; i < f->v.n; i++) {
        const cf_vert *v = &f->v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++)
            if (sets(v->stmts.v[k], n))
                return true;
        if (sets(v->init, n) || sets(v->update, n))
            return true;
    }
    return false;
}

static void
swap_expr(cf_expr *e, const cf_sym *from, cf_sym *to)
{
    if (!e)
        return;
    if (e->kind == CF_E_VAR && e->sym == from)
        e->sym = to;
    for (int i = 0; i < e->nsub; i++)
        swap_expr(e->sub[i], from, to);
    for (int i = 0; i < e->nargs && i < 2; i++)
        swap_expr(e->a[i], from, to);
}

static void
swap_stmt(cf_stmt *s, const cf_sym *from, cf_sym *to)
{
    if (!s)
        return;
    swap_expr(s->lhs, from, to);
    swap_expr(s->rhs, from, to);
    for (uint32_t i = 0; i < s->args.n; i++)
        swap_expr(s->args.v[i], from, to);
}

/* The body's uses of @n go to a new local, set from @n at @f's entry. */
static void
copy(cf *c, cf_fn *f, cf_sym *n)
{
    c->fn = f;
    cf_sym *local = cf_add_sym(c, n->name, CF_INT);
    local->where = n->where;
    local->decl = n->decl;
    for (uint32_t i = 0; i < f->v.n; i++) {
        cf_vert *v = &f->v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++)
            swap_stmt(v->stmts.v[k], n, local);
        swap_expr(v->cond, n, local);
        swap_stmt(v->init, n, local);
        swap_stmt(v->update, n, local);
    }
    /* Entry -> BB(local = n) -> where Entry went */
    uint32_t entry = 0;
    while (entry < f->v.n && f->v.v[entry].kind != CF_V_ENTRY)
        entry++;
    uint32_t bb = cf_g_vertex(c, CF_V_BB, f->v.v[entry].line);
    cf_stmt *s = cf_new_stmt(c, CF_S_ASSIGN, f->v.v[entry].line);
    s->lhs = cf_alloc(c, sizeof *s->lhs);
    s->lhs->kind = CF_E_VAR;
    s->lhs->sym = local;
    s->rhs = cf_alloc(c, sizeof *s->rhs);
    s->rhs->kind = CF_E_VAR;
    s->rhs->sym = n;
    if (!XF_VEC_PUSH(c->a, f->v.v[bb].stmts, s))
        cf_oom(c);
    uint32_t ne = f->e.n;
    for (uint32_t i = 0; i < ne; i++)
        if (f->e.v[i].src == entry) {
            cf_g_edge(c, bb, f->e.v[i].tgt, f->e.v[i].has_cv, f->e.v[i].cv);
            f->e.v[i].tgt = bb;
            f->e.v[i].has_cv = false;
        }
    c->fn = NULL;
}

void
cf_rt_copies(cf *c)
{
    for (uint32_t i = 0; i < c->fns.n; i++) {
        cf_fn *f = c->fns.v[i];
        if (f->external)
            continue;
        uint32_t nf = f->formals.n;
        for (uint32_t k = 0; k < nf; k++) {
            cf_sym *n = f->formals.v[k];
            if (n != f->ret && n->type == CF_INT && n->rank == 0 && in_extent(f, n) &&
                written(f, n)) {
                if (cf_struct_by_pointer(n)) /* a copy would keep the write from the caller */
                    cf_refuse(c, f->decl,
                              "'%s' writes '%s', a member of a struct it is passed by pointer, "
                              "and the extent of an array of '%s' depends on it, which is not "
                              "supported: give that array's extent with --extent %s:...=N, N "
                              "over what '%s' does not write",
                              f->name, n->name, f->name, f->name, f->name);
                copy(c, f, n);
            }
        }
    }
}
