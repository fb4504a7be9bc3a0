/* tbr_cut.c: values or partials, whichever cut is smaller (Naumann et
 * al. [002] §3, A9; see tbr.h).
 *
 * Per propagator, the partials it would tape are compared with the values
 * they are computed from: a partial P qualifies when its assignment, in
 * the propagator's block, is the only statement writing P and nothing but
 * propagators reads P, and its right-hand side applies operations and
 * intrinsics to constants and real scalars (variables or array elements
 * with plain subscripts: the leaves) that no statement between the
 * assignment and the propagator may write (by the alias map), nor the
 * variables their subscripts read, and with no call in between. When the
 * qualifying partials of a propagator read fewer distinct leaves than
 * there are partials, the leaves are taped instead, at the propagator
 * (where the partials would be): the adjoint pops each into a real
 * temporary OpenAD_tbr_* and computes the partials again from those; the
 * partials' assignments leave the taping sweep. The look between an
 * assignment and its propagator is bounded by 64 times the routine's
 * statements; beyond, partials are taped. */
#include <stdio.h>
#include <string.h>

#include "build.h"
#include "tbr_impl.h"

typedef struct cp {
    xf_doc *doc;
    const xf_routine *rt;
    xf_arena *a;   /* the analysis' own tables, freed on return */
    xf_arena *out; /* the plan's */
    xf_tbr *plan;
    xf_map writes, reads; /* symbol -> count (uintptr_t): statements writing it; reading it
                           * outside propagators */
    xf_map at;            /* assignment -> its index in its block + 1 */
    xf_map def;           /* symbol -> the last assignment to it */
    uint64_t budget;
    unsigned ntemp;
} cp;

static bool
bump(cp *p, xf_map *m, const xf_symbol *s)
{
    uintptr_t n = (uintptr_t)xf_map_get(m, s);
    return !s || xf_map_put(m, p->a, s, (void *)(n + 1), NULL);
}

static uintptr_t
count(const xf_map *m, const xf_symbol *s)
{
    return (uintptr_t)xf_map_get(m, s);
}

static xf_walk_go
read_step(void *ctx, const xf_walk_step *s)
{
    cp *p = ctx;
    return !s->ref || bump(p, &p->reads, xf_tbr_sym(s->ref)) ? XF_WALK_GO : XF_WALK_STOP;
}

/* Every variable @x reads (here and in subscripts), counted. */
static bool
read_expr(cp *p, const xf_expr *x)
{
    return xf_walk_expr(x, 0, read_step, p) == 0;
}

static bool
count_stmt(cp *p, const xf_stmt *s)
{
    if (s->kind == XF_STMT_ASSIGN) {
        const xf_arrref *ar = xf_varref_arrref(&s->u.as.lhs);
        for (uint32_t k = 0; ar && k < ar->t.n; k++)
            if (ar->t.v[k].index && !read_expr(p, ar->t.v[k].index))
                return false;
        return bump(p, &p->writes, xf_tbr_sym(&s->u.as.lhs)) && read_expr(p, &s->u.as.rhs);
    }
    if (s->kind == XF_STMT_CALL || s->kind == XF_STMT_ICALL) {
        const xf_arg_vec *args = s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args;
        for (uint32_t k = 0; k < args->n; k++) {
            const xf_expr *x = &args->v[k].val;
            if (!read_expr(p, x))
                return false;
            for (uint32_t v = 0; v < x->v.n; v++)
                if (x->v.v[v].kind == XF_EV_VARREF &&
                    !bump(p, &p->writes, xf_tbr_sym(x->v.v[v].u.ref)))
                    return false;
        }
    }
    return true;
}

/* ------------------------------------------------------------ one propagator */

/* Is @r a leaf: a real scalar, or an element with plain subscripts? */
static bool
is_leaf(const xf_varref *r)
{
    const xf_symbol *s = xf_tbr_sym(r);
    const xf_arrref *ar = xf_varref_arrref(r);
    if (!s || s->type != XF_TYPE_REAL || xf_flag_is(r->deriv, false) || r->v.n > 2)
        return false;
    if (!ar)
        return xf_shape_rank(s->shape) <= 0;
    for (uint32_t k = 0; k < ar->t.n; k++)
        if (!ar->t.v[k].index || ar->t.v[k].bound || ar->t.v[k].stride)
            return false;
    return true;
}

/* Does @s, between a partial's assignment and its propagator, leave @leaf alone? */
static bool
leaves_alone(cp *p, const xf_stmt *s, const xf_varref *leaf)
{
    if (s->kind == XF_STMT_CALL || s->kind == XF_STMT_ICALL)
        return false;
    if (s->kind != XF_STMT_ASSIGN)
        return true;
    const xf_varref *w = &s->u.as.lhs;
    if (xf_refs_may_alias(p->doc, w, leaf))
        return false;
    const xf_symbol *ws = xf_tbr_sym(w);
    const xf_arrref *ar = xf_varref_arrref(leaf);
    for (uint32_t k = 0; ar && k < ar->t.n; k++) {
        const xf_expr *x = ar->t.v[k].index;
        for (uint32_t v = 0; v < x->v.n; v++)
            if (x->v.v[v].kind != XF_EV_CONSTANT && x->v.v[v].kind != XF_EV_INTRINSIC &&
                (x->v.v[v].kind != XF_EV_VARREF || xf_varref_arrref(x->v.v[v].u.ref) ||
                 xf_tbr_sym(x->v.v[v].u.ref) == ws))
                return false;
    }
    return true;
}

/* A partial of the propagator at hand. */
typedef struct part {
    const xf_symbol *p;
    const xf_stmt *def;
    uint32_t at; /* the assignment's index in the block */
} part;

/* Does partial @q (assigned at @at in @bb, its propagator at @k) qualify? */
static bool
qualifies(cp *p, const xf_cvertex *bb, uint32_t at, uint32_t k, const xf_stmt *def)
{
    const xf_expr *x = &def->u.as.rhs;
    for (uint32_t v = 0; v < x->v.n; v++) {
        const xf_evertex *e = &x->v.v[v];
        if (e->kind == XF_EV_CONSTANT || e->kind == XF_EV_INTRINSIC)
            continue;
        if (e->kind != XF_EV_VARREF || !is_leaf(e->u.ref))
            return false;
        for (uint32_t j = at + 1; j < k; j++) {
            if (p->budget == 0)
                return false;
            p->budget--;
            if (!leaves_alone(p, bb->stmts.v[j], e->u.ref))
                return false;
        }
    }
    return true;
}

/* Decide the propagator at @k of @bb. */
static int
propagator(cp *p, const xf_cvertex *bb, uint32_t k)
{
    const xf_stmt *s = bb->stmts.v[k];
    part parts[64];
    uint32_t np = 0;
    const char *sigs[64];
    const xf_varref *leaves[64];
    uint32_t nl = 0;
    for (uint32_t o = 0; o < s->u.dp.n; o++) {
        const xf_dpop *op = &s->u.dp.v[o];
        if ((op->kind != XF_DP_SAX && op->kind != XF_DP_SAXPY) || xf_map_get(&p->plan->deadop, op))
            continue;
        for (uint32_t t = 0; t < op->ax.n; t++) {
            const xf_expr *a = &op->ax.v[t].a;
            if (a->v.n != 1 || a->v.v[0].kind != XF_EV_VARREF)
                continue;
            const xf_varref *pr = a->v.v[0].u.ref;
            const xf_symbol *ps = xf_tbr_sym(pr);
            if (!ps || xf_varref_arrref(pr) || xf_shape_rank(ps->shape) > 0 ||
                !xf_tbr_is_local(p->rt, ps) || count(&p->writes, ps) != 1 || count(&p->reads, ps) ||
                xf_map_get(&p->plan->recomp, ps) || xf_map_get(&p->plan->cut, ps))
                continue;
            bool seen = false;
            for (uint32_t i = 0; i < np && !seen; i++)
                seen = parts[i].p == ps;
            if (seen)
                continue;
            const xf_stmt *d = xf_map_get(&p->def, ps);
            uint32_t at = d ? (uint32_t)(uintptr_t)xf_map_get(&p->at, d) - 1 : UINT32_MAX;
            if (at >= k || bb->stmts.v[at] != d || !qualifies(p, bb, at, k, d))
                continue;
            const xf_expr *x = &bb->stmts.v[at]->u.as.rhs;
            uint32_t nl0 = nl;
            bool room = np < 64;
            for (uint32_t v = 0; v < x->v.n && room; v++) {
                if (x->v.v[v].kind != XF_EV_VARREF)
                    continue;
                const char *g = xf_ref_sig(p->doc, x->v.v[v].u.ref);
                bool have = false;
                for (uint32_t i = 0; i < nl && !have; i++)
                    have = sigs[i] == g;
                if (!g || (!have && nl == 64))
                    room = false;
                else if (!have)
                    sigs[nl] = g, leaves[nl++] = x->v.v[v].u.ref;
            }
            if (!room) {
                nl = nl0;
                continue;
            }
            parts[np++] = (part){.p = ps, .def = bb->stmts.v[at], .at = at};
        }
    }
    if (nl >= np)
        return 0; /* the partials are the smaller cut */
    xf_symbol *shadow[64];
    for (uint32_t i = 0; i < nl; i++)
        if (!(shadow[i] = xf_fresh_symbol(p->doc, p->rt->cfg_scope, "OpenAD_tbr_", &p->ntemp,
                                          XF_TYPE_REAL, XF_SHAPE_SCALAR, false)))
            return -1;
    for (uint32_t i = 0; i < np; i++) {
        xf_tbr_cut *c = XF_NEW(p->out, xf_tbr_cut);
        xf_stmt *re = xf_stmt_copy(p->doc, parts[i].def);
        if (!c || !re)
            return -1;
        memset(c, 0, sizeof *c);
        c->recompute = re;
        /* the copy reads the temporaries; its leaves are taped */
        xf_expr *x = &re->u.as.rhs;
        for (uint32_t v = 0; v < x->v.n; v++) {
            if (x->v.v[v].kind != XF_EV_VARREF)
                continue;
            const char *g = xf_ref_sig(p->doc, x->v.v[v].u.ref);
            uint32_t l = 0;
            while (l < nl && sigs[l] != g)
                l++;
            xf_varref *r = l < nl ? xf_ref_new(p->doc, shadow[l]) : NULL;
            if (!r)
                return -1;
            xf_mark_ref(r, false, false);
            r->id = x->v.v[v].id; /* a VariableReference's vertex_id is its reference's */
            x->v.v[v].u.ref = r;
            bool dup = false;
            for (uint32_t j = 0; j < c->shadow.n && !dup; j++)
                dup = c->shadow.v[j] == shadow[l];
            if (dup)
                continue;
            if (!XF_VEC_PUSH(p->out, c->leaf, leaves[l]) ||
                !XF_VEC_PUSH(p->out, c->shadow, shadow[l]))
                return -1;
        }
        if (!xf_map_put(&p->plan->cut, p->out, parts[i].p, c, NULL) ||
            !xf_map_put(&p->plan->dead, p->out, parts[i].def, (void *)parts[i].def, NULL))
            return -1;
        p->plan->cut_partials++;
    }
    p->plan->cut_values += nl;
    return 0;
}

static int
cut(cp *p, const xf_graph *g)
{
    xf_arena *a = p->a;
    uint64_t n = 16;
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        n += v->stmts.n;
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            const xf_stmt *s = v->stmts.v[k];
            if (!count_stmt(p, s))
                return 0; /* too deep to look at: tape the partials */
            const xf_symbol *y = s->kind == XF_STMT_ASSIGN ? xf_tbr_sym(&s->u.as.lhs) : NULL;
            if (y && (!xf_map_put(&p->def, a, y, (void *)s, NULL) ||
                      !xf_map_put(&p->at, a, s, (void *)(uintptr_t)(k + 1), NULL)))
                return -1;
        }
        if ((v->init && !count_stmt(p, v->init)) || (v->update && !count_stmt(p, v->update)) ||
            (v->cond && !read_expr(p, v->cond)))
            return 0;
    }
    p->budget = 64 * n;
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        if (v->kind != XF_CV_BASICBLOCK)
            continue;
        for (uint32_t k = 0; k < v->stmts.n; k++)
            if (v->stmts.v[k]->kind == XF_STMT_DERIVPROP && propagator(p, v, k))
                return -1;
    }
    return 0;
}

/* The counts and the assignments' places live in an arena of their own
 * that dies on return; only the plan stays in @a (issue 26: 34 of
 * adjoin's 98 MB on a block of 300 000 assignments). */
int
xf_tbr_cut_into(xf_doc *doc, const xf_routine *rt, const xf_graph *g, xf_arena *a, xf_tbr *plan)
{
    cp p = {.doc = doc, .rt = rt, .a = xf_arena_new_like(a), .out = a, .plan = plan};
    if (!p.a)
        return -1;
    int r = cut(&p, g);
    if (xf_arena_failed(p.a))
        r = -1;
    xf_arena_free(p.a);
    return r;
}
