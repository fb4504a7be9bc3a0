/* tbr_impl.h: what tbr_values.c, tbr_live.c and tbr_plan.c share: the
 * plan adjoin reads (tbr.h) and small helpers. */
#ifndef XF_TRANSFORMS_TBR_IMPL_H
#define XF_TRANSFORMS_TBR_IMPL_H

#include "map.h"
#include "pass.h"
#include "tbr.h"

struct xf_tbr {
    xf_map recomp; /* partial symbol -> its assignment (recomputed in the adjoint) */
    xf_map dead;   /* assignment -> itself: left out of the taping sweep */
    xf_map deadop; /* propagator operation (xf_dpop *) -> itself: no adjoint */
    xf_map cut;    /* partial symbol -> xf_tbr_cut: its values taped instead */
    const xf_cvertex *last;
    XF_VEC(xf_stmt *) push, pop;
    unsigned recomputed, handed, dead_ops, dead_stmts, cut_partials, cut_values;
};

/* Is @s a variable of @rt's own scope that is not one of its arguments? */
static inline bool
xf_tbr_is_arg(const xf_routine *rt, const xf_symbol *s)
{
    for (uint32_t k = 0; k < rt->args.n; k++)
        if (rt->args.v[k].sym == s)
            return true;
    return false;
}

static inline bool
xf_tbr_is_local(const xf_routine *rt, const xf_symbol *s)
{
    return s && s->scope == rt->cfg_scope && s->kind == XF_SYMKIND_VARIABLE &&
           !xf_tbr_is_arg(rt, s);
}

/* The variable @r refers to, or NULL. */
static inline const xf_symbol *
xf_tbr_sym(const xf_varref *r)
{
    const xf_symref *s = r ? xf_varref_symref(r) : NULL;
    return s ? s->sym : NULL;
}

/* tbr_values.c: fill @plan's recomp, dead, last, push, pop; @off:
 * xf_tbr_plan's (XF_TAPE_JOINT: nothing handed over; XF_TAPE_KEPT: formals
 * kept between the sweeps not handed; XF_TAPE_OFF_REGION: no element-wise
 * rule); @addr: subscripts it recovers count as recomputable (NULL: none). */
int xf_tbr_values_into(xf_doc *doc, const xf_routine *rt, const xf_graph *g, const xf_cfgtree *t,
                       const struct xf_addr *addr, unsigned off, xf_arena *a, xf_tbr *plan);
/* tbr_cut.c: fill @plan's cut, add to its dead (after the values). */
int xf_tbr_cut_into(xf_doc *doc, const xf_routine *rt, const xf_graph *g, xf_arena *a,
                    xf_tbr *plan);
/* tbr_live.c: fill @plan's deadop (before the values), add to its dead
 * (after them). */
/* @host: the routine hosts internal procedures (xf_hosts_procedures), whose
 * calls may read and write its variables. */
int xf_tbr_dead_ops_into(const xf_routine *rt, bool host, const xf_graph *g, xf_arena *a,
                         xf_tbr *plan);
int xf_tbr_dead_stmts_into(const xf_routine *rt, bool host, const xf_graph *g, xf_arena *a,
                           xf_tbr *plan);

#endif
