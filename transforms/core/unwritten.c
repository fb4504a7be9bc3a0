/* unwritten.c: the scalars no statement of a routine's graph writes
 * (unwritten.h). */
#include <string.h>

#include "pass.h"
#include "unwritten.h"

static const xf_symbol *
sym_of(const xf_varref *r)
{
    const xf_symref *s = r ? xf_varref_symref(r) : NULL;
    return s ? s->sym : NULL;
}

static bool
write(xf_unwritten *w, xf_arena *a, const xf_varref *r)
{
    const xf_symbol *s = sym_of(r);
    if (!s) {
        w->any_call = true; /* no variable to name: trust nothing */
        return true;
    }
    if (!xf_is_private(w->rt, w->host, s) && (unsigned)s->type < 8)
        w->shared[s->type] = true;
    return xf_map_get(&w->written, s) || xf_map_put(&w->written, a, s, (void *)s, NULL);
}

static bool
stmt(xf_unwritten *w, xf_arena *a, const xf_stmt *s)
{
    const xf_arg_vec *args = NULL;
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        return write(w, a, &s->u.as.lhs);
    case XF_STMT_CALL:
        w->any_call = true;
        args = &s->u.call.args;
        break;
    case XF_STMT_ICALL:
        args = &s->u.icall.args;
        break;
    default:
        return true;
    }
    for (uint32_t k = 0; k < args->n; k++) {
        const xf_expr *x = &args->v[k].val;
        for (uint32_t v = 0; v < x->v.n; v++)
            if (x->v.v[v].kind == XF_EV_VARREF && !write(w, a, x->v.v[v].u.ref))
                return false;
    }
    return true;
}

bool
xf_unwritten_fill(xf_unwritten *w, xf_arena *a, const xf_doc *doc, const xf_routine *rt,
                  const xf_graph *g)
{
    memset(w, 0, sizeof *w);
    w->rt = rt;
    w->host = xf_hosts_procedures(doc, rt);
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++)
            if (!stmt(w, a, v->stmts.v[k]))
                return false;
        if ((v->init && !stmt(w, a, v->init)) || (v->update && !stmt(w, a, v->update)))
            return false;
        /* a condition's function call may write through its arguments */
        for (uint32_t k = 0; v->cond && k < v->cond->v.n; k++)
            if (v->cond->v.v[k].kind == XF_EV_FUNCALL)
                w->any_call = true;
    }
    return true;
}

static bool
reads_unwritten(const xf_unwritten *w, const xf_expr *x, uint32_t v, int depth)
{
    if (v >= x->v.n || depth > 64)
        return false;
    const xf_evertex *e = &x->v.v[v];
    if (e->kind == XF_EV_FUNCALL || e->kind == XF_EV_ARGREF)
        return false;
    if (e->kind == XF_EV_VARREF) {
        const xf_symbol *s = sym_of(e->u.ref);
        if (!s || xf_varref_arrref(e->u.ref) || xf_shape_rank(s->shape) > 0 ||
            xf_map_get(&w->written, s))
            return false;
        if (!xf_is_private(w->rt, w->host, s) &&
            (w->any_call || (unsigned)s->type >= 8 || w->shared[s->type]))
            return false;
    }
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].tgt == v && !reads_unwritten(w, x, x->e.v[j].src, depth + 1))
            return false;
    return true;
}

bool
xf_unwritten_expr(const xf_unwritten *w, const xf_expr *x, uint32_t v)
{
    return reads_unwritten(w, x, v, 0);
}
