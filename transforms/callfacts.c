/* callfacts.c: see callfacts.h. */
#include <string.h>

#include "arena.h"
#include "callfacts.h"
#include "map.h"
#include "pass.h"

/* Positions up to this are flags in an array; beyond, a list. */
enum { DENSE = 1 << 16 };

/* What the calls of one routine pass. */
typedef struct target {
    XF_VEC(uint8_t) dense;  /* [pos]: some call passes a non-constant there */
    XF_VEC(int64_t) sparse; /* positions beyond DENSE (or below 1) with one */
} target;

struct xf_callfacts {
    xf_arena *a;
    xf_map by_sym; /* xf_symbol * -> target * */
};

xf_callfacts *
xf_callfacts_new(const xf_pass_ctx *ctx)
{
    xf_arena *a = xf_pass_arena(ctx);
    xf_callfacts *f = a ? XF_NEW(a, xf_callfacts) : NULL;
    if (!f) {
        xf_arena_free(a);
        return NULL;
    }
    memset(f, 0, sizeof *f);
    f->a = a;
    return f;
}

void
xf_callfacts_free(xf_callfacts *f)
{
    if (f)
        xf_arena_free(f->a);
}

static target *
entry(xf_callfacts *f, const xf_symbol *sym)
{
    target *c = xf_map_get(&f->by_sym, sym);
    if (c)
        return c;
    c = XF_NEW(f->a, target);
    if (!c)
        return NULL;
    memset(c, 0, sizeof *c);
    return xf_map_put(&f->by_sym, f->a, sym, c, NULL) ? c : NULL;
}

bool
xf_callfacts_call(xf_callfacts *f, const xf_symbol *callee)
{
    return callee == NULL || entry(f, callee) != NULL;
}

bool
xf_callfacts_arg(xf_callfacts *f, const xf_symbol *sym, int64_t pos, bool constant)
{
    if (!sym)
        return true;
    target *c = entry(f, sym);
    if (!c)
        return false;
    if (constant)
        return true;
    if (pos < 1 || pos > DENSE) {
        for (uint32_t i = 0; i < c->sparse.n; i++)
            if (c->sparse.v[i] == pos)
                return true;
        return XF_VEC_PUSH(f->a, c->sparse, pos);
    }
    while (c->dense.n <= (uint32_t)pos)
        if (!XF_VEC_PUSH(f->a, c->dense, 0))
            return false;
    c->dense.v[pos] = 1;
    return true;
}

bool
xf_callfacts_stmt(xf_callfacts *f, const xf_stmt *s)
{
    if (s->kind != XF_STMT_CALL)
        return true;
    if (!xf_callfacts_call(f, s->u.call.sym))
        return false;
    for (uint32_t a = 0; a < s->u.call.args.n; a++) {
        const xf_arg *arg = &s->u.call.args.v[a];
        bool constant = arg->val.v.n == 1 && arg->val.v.v[0].kind == XF_EV_CONSTANT;
        if (!xf_callfacts_arg(f, s->u.call.sym, arg->pos, constant))
            return false;
    }
    return true;
}

bool
xf_callfacts_routine(xf_callfacts *f, const xf_routine *rt)
{
    const xf_graph *g = &rt->g;
    for (uint32_t i = 0; i < g->v.n; i++)
        for (uint32_t k = 0; k < g->v.v[i]->stmts.n; k++)
            if (!xf_callfacts_stmt(f, g->v.v[i]->stmts.v[k]))
                return false;
    return true;
}

bool
xf_callfacts_doc(xf_callfacts *f, const xf_doc *doc)
{
    for (uint32_t r = 0; r < doc->cg.routines.n; r++)
        if (!xf_callfacts_routine(f, doc->cg.routines.v[r]))
            return false;
    return true;
}

bool
xf_callfacts_called(const xf_callfacts *f, const xf_symbol *sym, int64_t pos)
{
    const target *c = sym ? xf_map_get(&f->by_sym, sym) : NULL;
    if (!c)
        return false;
    if (pos == 0)
        return true;
    if (pos >= 1 && pos <= DENSE)
        return (uint64_t)pos < c->dense.n && c->dense.v[pos];
    for (uint32_t i = 0; i < c->sparse.n; i++)
        if (c->sparse.v[i] == pos)
            return true;
    return false;
}
