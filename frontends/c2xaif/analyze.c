/* analyze.c: what the front end derives from the whole file: which formals
 * each function reads and writes (through its callees too), hence intents
 * and side-effect lists; the activity of every variable (varied from the
 * independents and useful to the dependents, flow-insensitive, through
 * calls); and the one aliasing the subset could make, refused. */
#include <stdlib.h>
#include <string.h>

#include "cf.h"

typedef struct graph {
    cf *c;
    uint32_t n;
    XF_VEC(uint32_t) * out, *in; /* per node: dependents, dependencies */
} graph;

static void
each_var(const cf_expr *e, void (*fn)(const cf_expr *, void *), void *arg, bool subs)
{
    if (!e)
        return;
    if (e->kind == CF_E_VAR) {
        fn(e, arg);
        if (subs)
            for (int i = 0; i < e->nsub; i++)
                each_var(e->sub[i], fn, arg, subs);
        return;
    }
    for (int i = 0; i < e->nargs; i++)
        each_var(e->a[i], fn, arg, subs);
}

static void
mark_read(const cf_expr *e, void *arg)
{
    (void)arg;
    e->sym->read = true;
}

static void
subs_read(const cf_expr *e)
{
    for (int i = 0; e && i < e->nsub; i++)
        each_var(e->sub[i], mark_read, NULL, true);
}

static void
stmt_reads(const cf_stmt *s)
{
    if (s->kind == CF_S_ASSIGN) {
        each_var(s->rhs, mark_read, NULL, true);
        subs_read(s->lhs);
    } else
        for (uint32_t i = 0; i < s->args.n; i++)
            subs_read(s->args.v[i]);
}

/* Visit every statement of @f (loop headers too). */
static void
each_stmt(cf_fn *f, void (*fn)(cf_stmt *, void *), void *arg)
{
    for (uint32_t i = 0; i < f->v.n; i++) {
        cf_vert *v = &f->v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++)
            fn(v->stmts.v[k], arg);
        if (v->init)
            fn(v->init, arg);
        if (v->update)
            fn(v->update, arg);
    }
}

static void
direct_use(cf_stmt *s, void *arg)
{
    (void)arg;
    stmt_reads(s);
    if (s->kind == CF_S_ASSIGN)
        s->lhs->sym->written = true;
}

/* Through calls: an actual is read (written) where its formal is. */
static void
through_call(cf_stmt *s, void *arg)
{
    bool *changed = arg;
    if (s->kind != CF_S_CALL)
        return;
    for (uint32_t i = 0; i < s->args.n; i++) {
        cf_sym *a = s->args.v[i]->sym, *f = s->callee->formals.v[i];
        if (f->read && !a->read)
            *changed = a->read = true;
        if (f->written && !a->written)
            *changed = a->written = true;
    }
}

/* The same array to two array formals of one call, one of them written. */
static void
check_alias(cf *c, const cf_stmt *s)
{
    for (uint32_t i = 0; i < s->args.n; i++)
        for (uint32_t k = i + 1; k < s->args.n; k++) {
            const cf_sym *a = s->args.v[i]->sym, *b = s->args.v[k]->sym;
            /* elements (Fortran's x(1), x(2)) are no aliasing */
            if (a == b && a->rank > 0 && !s->args.v[i]->nsub && !s->args.v[k]->nsub &&
                (s->callee->formals.v[i]->written || s->callee->formals.v[k]->written))
                cf_refuse(c, s->at,
                          "passing array '%s' to two parameters of '%s', one of them written "
                          "(aliasing), is not supported",
                          a->name, s->callee->name);
        }
}

static void
alias_stmt(cf_stmt *s, void *arg)
{
    if (s->kind == CF_S_CALL)
        check_alias(arg, s);
}

/* ------------------------------------------------------------- activity */

static void
add_edge(graph *g, const cf_sym *from, const cf_sym *to)
{
    if (!cf_is_real(from->type) || !cf_is_real(to->type))
        return;
    if (!XF_VEC_PUSH(g->c->a, g->out[from->node], to->node) ||
        !XF_VEC_PUSH(g->c->a, g->in[to->node], from->node))
        cf_oom(g->c);
}

typedef struct flow {
    graph *g;
    const cf_sym *lhs;
} flow;

static void
flow_var(const cf_expr *e, void *arg)
{
    flow *fl = arg;
    add_edge(fl->g, e->sym, fl->lhs);
}

static void
flow_stmt(cf_stmt *s, void *arg)
{
    graph *g = arg;
    if (s->kind == CF_S_ASSIGN) {
        flow fl = {g, s->lhs->sym};
        each_var(s->rhs, flow_var, &fl, false);
        return;
    }
    if (s->kind == CF_S_PASSIVE) /* reads values only (passive.c) */
        return;
    for (uint32_t i = 0; i < s->args.n; i++) {
        cf_sym *a = s->args.v[i]->sym, *f = s->callee->formals.v[i];
        if (f->read)
            add_edge(g, a, f);
        if (f->written)
            add_edge(g, f, a);
    }
}

static void
closure(graph *g, bool *mark, bool forward)
{
    uint32_t *stack = malloc(((size_t)g->n + 1) * sizeof *stack), sp = 0;
    if (!stack)
        cf_oom(g->c);
    for (uint32_t i = 0; i < g->n; i++)
        if (mark[i])
            stack[sp++] = i;
    while (sp) {
        uint32_t v = stack[--sp];
        const uint32_t *nb = forward ? g->out[v].v : g->in[v].v;
        uint32_t nn = forward ? g->out[v].n : g->in[v].n;
        for (uint32_t k = 0; k < nn; k++)
            if (!mark[nb[k]]) {
                mark[nb[k]] = true;
                stack[sp++] = nb[k];
            }
    }
    free(stack);
}

static cf_sym *
named_formal(cf *c, cf_fn *top, const char *name, const char *what)
{
    /* the function's own name is its returned value, as Tapenade's
     * -outvars has it (the formal it becomes is F_ret) */
    if (top->ret && strcmp(name, top->name) == 0)
        name = top->ret->name;
    for (uint32_t i = 0; i < top->formals.n; i++)
        if (strcmp(top->formals.v[i]->name, name) == 0) {
            if (!cf_is_real(top->formals.v[i]->type))
                cf_refuse(c, top->decl, "%s '%s' of '%s' is not a floating-point parameter", what,
                          name, top->name);
            return top->formals.v[i];
        }
    for (uint32_t i = 0; i < c->globals.n; i++) /* a module variable (Fortran) */
        if (strcmp(c->globals.v[i]->name, name) == 0 && cf_is_real(c->globals.v[i]->type))
            return c->globals.v[i];
    cf_refuse(c, top->decl, "%s '%s' is no parameter of '%s'", what, name, top->name);
}

void
cf_analyze(cf *c, cf_fn *top)
{
    for (uint32_t i = 0; i < c->fns.n; i++) {
        cf_fn *f = c->fns.v[i];
        each_stmt(f, direct_use, NULL);
        for (uint32_t k = 0; k < f->v.n; k++)
            each_var(f->v.v[k].cond, mark_read, NULL, true);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < c->fns.n; i++)
            each_stmt(c->fns.v[i], through_call, &changed);
    }
    for (uint32_t i = 0; i < c->fns.n; i++)
        each_stmt(c->fns.v[i], alias_stmt, c);

    graph g = {.c = c};
    for (uint32_t i = 0; i < c->fns.n; i++)
        for (uint32_t k = 0; k < c->fns.v[i]->syms.n; k++)
            c->fns.v[i]->syms.v[k]->node = g.n++;
    for (uint32_t i = 0; i < c->globals.n; i++)
        c->globals.v[i]->node = g.n++;
    g.out = cf_alloc(c, ((size_t)g.n + 1) * sizeof *g.out);
    g.in = cf_alloc(c, ((size_t)g.n + 1) * sizeof *g.in);
    for (uint32_t i = 0; i < c->fns.n; i++) {
        each_stmt(c->fns.v[i], flow_stmt, &g);
        cf_fn *f = c->fns.v[i];
        for (uint32_t k = 0; f->external && k + 1 < f->formals.n; k++)
            add_edge(&g, f->formals.v[k], f->ret); /* an external: all to the result */
    }
    bool *varied = cf_alloc(c, (size_t)g.n + 1), *useful = cf_alloc(c, (size_t)g.n + 1);
    for (const char *const *p = c->o->indep; p && *p; p++)
        if (!cf_struct_named(c, top, *p, varied))
            varied[named_formal(c, top, *p, "independent")->node] = true;
    for (const char *const *p = c->o->dep; p && *p; p++)
        if (!cf_struct_named(c, top, *p, useful))
            useful[named_formal(c, top, *p, "dependent")->node] = true;
    closure(&g, varied, true);
    closure(&g, useful, false);
    for (uint32_t i = 0; i < c->fns.n; i++)
        for (uint32_t k = 0; k < c->fns.v[i]->syms.n; k++) {
            cf_sym *s = c->fns.v[i]->syms.v[k];
            /* an external's derivatives have one signature: all reals active */
            s->active = cf_is_real(s->type) &&
                        ((varied[s->node] && useful[s->node]) || c->fns.v[i]->external);
        }
    for (uint32_t i = 0; i < c->globals.n; i++) {
        cf_sym *s = c->globals.v[i];
        s->active = cf_is_real(s->type) && varied[s->node] && useful[s->node];
    }
}
