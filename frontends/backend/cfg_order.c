/* cfg_order.c: the order of a control-flow graph's vertices for the back
 * ends, and their DO-loop recognition (cfg_order.h). */
#include "cfg_order.h"

#include <stdlib.h>
#include <string.h>

bool
xf_cfg_strided_do(const xf_cvertex *v, uint32_t *up)
{
    const xf_expr *c = v->cond;
    if (v->kind != XF_CV_FORLOOP || !v->update || v->update->kind != XF_STMT_ASSIGN || !c ||
        c->e.n < 2)
        return false;
    uint32_t root = xf_expr_root(c);
    if (root == UINT32_MAX || c->v.v[root].kind != XF_EV_BOOLOP ||
        strcmp(c->v.v[root].u.in.name, "not_equal"))
        return false;
    uint32_t side[2] = {UINT32_MAX, UINT32_MAX};
    for (uint32_t j = 0; j < c->e.n; j++)
        if (c->e.v[j].tgt == root && (c->e.v[j].pos == 1 || c->e.v[j].pos == 2))
            side[c->e.v[j].pos - 1] = c->e.v[j].src;
    if (side[0] == UINT32_MAX || side[1] == UINT32_MAX || c->v.v[side[0]].kind != XF_EV_VARREF)
        return false;
    const xf_expr *u = &v->update->u.as.rhs;
    const xf_symref *lhs = xf_varref_symref(&v->update->u.as.lhs);
    const xf_symref *ci = xf_varref_symref(c->v.v[side[0]].u.ref);
    uint32_t ur = xf_expr_root(u);
    if (!lhs || !ci || lhs->sym != ci->sym || !lhs->sym || lhs->sym->type != XF_TYPE_INTEGER ||
        ur == UINT32_MAX || u->v.v[ur].kind != XF_EV_INTRINSIC ||
        strcmp(u->v.v[ur].u.in.name, "add_scal_scal"))
        return false;
    for (uint32_t j = 0; j < u->e.n; j++) {
        const xf_evertex *a = &u->v.v[u->e.v[j].src];
        const xf_symref *ar = a->kind == XF_EV_VARREF ? xf_varref_symref(a->u.ref) : NULL;
        if (u->e.v[j].tgt == ur && ar && ar->sym == lhs->sym && !xf_varref_arrref(a->u.ref)) {
            *up = side[1];
            return true;
        }
    }
    return false;
}

/* Whether only Exit vertices are left to place. */
static bool
all_but_exits(const xf_graph *g, const bool *placed)
{
    for (uint32_t i = 0; i < g->v.n; i++)
        if (!placed[i] && g->v.v[i]->kind != XF_CV_EXIT)
            return false;
    return true;
}

void
xf_cfg_lay_out(const xf_graph *g, const xf_cfg_outs *o, const xf_cvertex **order)
{
    uint32_t n = g->v.n, k = 0, scan = 0;
    bool *placed = calloc((size_t)n + 1, 1);
    const xf_cvertex *cur = NULL;
    for (uint32_t i = 0; i < n; i++)
        if (g->v.v[i]->kind == XF_CV_ENTRY)
            cur = g->v.v[i];
    if (!placed) { /* out of memory: document order, still exact */
        for (uint32_t i = 0; i < n; i++)
            order[i] = g->v.v[i];
        return;
    }
    while (k < n) {
        if (!cur) {
            while (scan < n && (placed[scan] || (g->v.v[scan]->kind == XF_CV_EXIT && k + 1 < n &&
                                                 !all_but_exits(g, placed))))
                scan++;
            if (scan == n)
                for (scan = 0; placed[scan]; scan++)
                    ;
            cur = g->v.v[scan];
        }
        placed[cur->index] = true;
        order[k++] = cur;
        const xf_cvertex *next = NULL;
        for (int pass = 0; pass < 2 && !next; pass++)
            for (uint32_t e = o->first[cur->index]; e < o->first[cur->index + 1] && !next; e++) {
                const xf_cvertex *t = o->e[e]->tgt;
                bool cv = xf_flag_is(o->e[e]->has_cv, false);
                if (!placed[t->index] && t->kind != XF_CV_EXIT && cv == (pass == 0))
                    next = t;
            }
        cur = next;
    }
    free(placed);
}
