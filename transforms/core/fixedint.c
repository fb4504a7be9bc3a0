/* fixedint.c: loop bounds evaluated again in the adjoint (fixedint.h). */
#include <string.h>

#include "fixedint.h"

typedef struct scan {
    xf_fixedint *f;
    xf_arena *a;
} scan;

static void
note(scan *s, const xf_varref *r)
{
    const xf_symref *sr = r ? xf_varref_symref(r) : NULL;
    if (!sr || !sr->sym) {
        s->f->none = true; /* an unresolved target: anything may be written */
        return;
    }
    if (!xf_map_put(&s->f->written, s->a, sr->sym, (void *)sr->sym, NULL))
        s->f->none = true;
}

static xf_walk_go
note_step(void *ctx, const xf_walk_step *st)
{
    if (st->ref && st->depth == 0)
        note(ctx, st->ref);
    return XF_WALK_GO;
}

/* Every variable an argument list names at its top counts as written. */
static void
note_args(scan *s, const xf_arg_vec *args)
{
    for (uint32_t k = 0; k < args->n; k++)
        if (xf_walk_expr(&args->v[k].val, XF_WALK_ARGS, note_step, s) < 0)
            s->f->none = true;
}

static void
note_stmt(scan *s, const xf_stmt *st)
{
    if (!st)
        return;
    switch (st->kind) {
    case XF_STMT_ASSIGN:
        note(s, &st->u.as.lhs);
        break;
    case XF_STMT_CALL:
        note_args(s, &st->u.call.args);
        break;
    case XF_STMT_ICALL:
        if (!st->u.icall.name || strncmp(st->u.icall.name, "push", 4))
            note_args(s, &st->u.icall.args);
        break;
    case XF_STMT_DERIVPROP:
    case XF_STMT_MARKER:
        break; /* derivative targets: no value written */
    }
}

static void
note_graph(scan *s, const xf_graph *g)
{
    for (uint32_t i = 0; g && i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        note_stmt(s, v->init);
        note_stmt(s, v->update);
        for (uint32_t k = 0; k < v->stmts.n; k++)
            note_stmt(s, v->stmts.v[k]);
    }
}

void
xf_fixedint_init(xf_fixedint *f, xf_arena *a, const xf_doc *doc, const xf_routine *rt,
                 const xf_graph *g2, const xf_graph *g3)
{
    memset(f, 0, sizeof *f);
    if (xf_hosts_procedures(doc, rt)) {
        f->none = true;
        return;
    }
    scan s = {f, a};
    note_graph(&s, g2);
    note_graph(&s, g3);
}

static bool
fixed(const xf_fixedint *f, const xf_routine *rt, const xf_loopscope *loops, const xf_expr *x,
      uint32_t v, int depth)
{
    if (v >= x->v.n || depth > 64)
        return false;
    const xf_evertex *e = &x->v.v[v];
    switch (e->kind) {
    case XF_EV_CONSTANT:
        return true;
    case XF_EV_INTRINSIC:
        break;
    case XF_EV_VARREF: {
        if (xf_varref_arrref(e->u.ref))
            return false;
        const xf_symref *sr = xf_varref_symref(e->u.ref);
        if (!sr || !sr->sym)
            return false;
        if (xf_loopscope_has(loops, sr->sym))
            return true;
        return !f->none && sr->sym->type == XF_TYPE_INTEGER && xf_shape_rank(sr->sym->shape) == 0 &&
               xf_is_formal(rt, sr->sym) && !xf_map_get(&f->written, sr->sym);
    }
    default:
        return false;
    }
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].tgt == v && !fixed(f, rt, loops, x, x->e.v[j].src, depth + 1))
            return false;
    return true;
}

bool
xf_fixedint_bound(const xf_fixedint *f, const xf_routine *rt, const xf_loopscope *loops,
                  const xf_expr *x, uint32_t v)
{
    return fixed(f, rt, loops, x, v, 0);
}
