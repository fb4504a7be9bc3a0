/* argstable.c: formals whose argument checkpoint the joint template does
 * not need (argstable.h has the rule). */
#include <stdint.h>
#include <stdlib.h>

#include "argstable.h"
#include "map.h"
#include "pass.h"

struct xf_argstable {
    xf_arena *a;
    xf_map moved; /* callee symbol -> uint64_t *: bit P, an actual at position P
                   * may change (bit 0: one at a position past 63) */
};

xf_argstable *
xf_argstable_new(void)
{
    xf_argstable *t = calloc(1, sizeof *t);
    if (t && !(t->a = xf_arena_new())) {
        free(t);
        return NULL;
    }
    return t;
}

void
xf_argstable_free(xf_argstable *t)
{
    if (!t)
        return;
    xf_arena_free(t->a);
    free(t);
}

static const xf_symbol *
sym_of(const xf_varref *r)
{
    const xf_symref *s = r ? xf_varref_symref(r) : NULL;
    return s ? s->sym : NULL;
}

/* The variable that expression @x is, or NULL. */
static const xf_symbol *
var_of(const xf_expr *x)
{
    return x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF ? sym_of(x->v.v[0].u.ref) : NULL;
}

static bool
has_lists(const xf_routine *rt)
{
    return rt && !rt->is_rlist && (rt->se[XF_SE_MOD].present || rt->se[XF_SE_MODLOCAL].present);
}

/* Is @s on @rt's Mod lists? */
static bool
modified(const xf_routine *rt, const xf_symbol *s)
{
    for (int k = XF_SE_MODLOCAL; k <= XF_SE_MOD; k++)
        for (uint32_t i = 0; i < rt->se[k].refs.n; i++)
            if (sym_of(rt->se[k].refs.v[i]) == s)
                return true;
    return false;
}

static const xf_routine *
routine_of(const xf_doc *doc, const xf_symbol *sym)
{
    for (uint32_t i = 0; sym && i < doc->cg.routines.n; i++)
        if (doc->cg.routines.v[i]->sym == sym)
            return doc->cg.routines.v[i];
    return NULL;
}

static const xf_argsym *
formal_at(const xf_routine *rt, int64_t pos)
{
    for (uint32_t i = 0; i < rt->args.n; i++)
        if (rt->args.v[i].pos == pos)
            return &rt->args.v[i];
    return NULL;
}

/* Does statement @s (may be NULL) of a routine write local @v? */
static bool
writes(const xf_doc *doc, const xf_stmt *s, const xf_symbol *v)
{
    if (!s)
        return false;
    if (s->kind == XF_STMT_ASSIGN)
        return sym_of(&s->u.as.lhs) == v;
    if (s->kind == XF_STMT_ICALL) {
        for (uint32_t k = 0; k < s->u.icall.args.n; k++)
            if (var_of(&s->u.icall.args.v[k].val) == v)
                return true;
        return false;
    }
    if (s->kind != XF_STMT_CALL)
        return false;
    const xf_routine *c = routine_of(doc, s->u.call.sym);
    for (uint32_t k = 0; k < s->u.call.args.n; k++) {
        if (var_of(&s->u.call.args.v[k].val) != v)
            continue;
        const xf_argsym *f = has_lists(c) ? formal_at(c, s->u.call.args.v[k].pos) : NULL;
        if (!f || modified(c, f->sym))
            return true;
    }
    return false;
}

/* Does @caller never write variable @v? */
static bool
unchanged(const xf_doc *doc, const xf_routine *caller, const xf_symbol *v)
{
    if (!v || v->kind != XF_SYMKIND_VARIABLE)
        return false;
    if (!xf_is_local(caller, v))
        return has_lists(caller) && !modified(caller, v);
    const xf_graph *g = &caller->g;
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *b = g->v.v[i];
        for (uint32_t k = 0; k < b->stmts.n; k++)
            if (writes(doc, b->stmts.v[k], v))
                return false;
        if (writes(doc, b->init, v) || writes(doc, b->update, v))
            return false;
    }
    return true;
}

bool
xf_argstable_caller(xf_argstable *t, const xf_doc *doc, const xf_routine *caller)
{
    const xf_graph *g = &caller->g;
    for (uint32_t i = 0; i < g->v.n; i++)
        for (uint32_t k = 0; k < g->v.v[i]->stmts.n; k++) {
            const xf_stmt *s = g->v.v[i]->stmts.v[k];
            if (s->kind != XF_STMT_CALL || !s->u.call.sym)
                continue;
            uint64_t *m = xf_map_get(&t->moved, s->u.call.sym);
            if (!m) {
                if (!(m = XF_NEW(t->a, uint64_t)))
                    return false;
                *m = 0;
                if (!xf_map_put(&t->moved, t->a, s->u.call.sym, m, NULL))
                    return false;
            }
            for (uint32_t j = 0; j < s->u.call.args.n; j++) {
                int64_t p = s->u.call.args.v[j].pos;
                if (unchanged(doc, caller, var_of(&s->u.call.args.v[j].val)))
                    continue;
                *m |= p >= 1 && p < 64 ? (uint64_t)1 << p : 1u;
            }
        }
    return true;
}

bool
xf_argstable_skip(const xf_argstable *t, const xf_routine *callee, const xf_argsym *f)
{
    if (!has_lists(callee) || modified(callee, f->sym) || f->pos < 1 || f->pos >= 64)
        return false;
    const uint64_t *m = xf_map_get(&t->moved, callee->sym);
    return m && !(*m & 1u) && !(*m >> f->pos & 1u);
}
