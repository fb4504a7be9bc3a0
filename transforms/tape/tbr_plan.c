/* tbr_plan.c: one routine's plan of what the adjoint need not tape
 * (tbr.h): the partials recomputed from stable values (tbr_values.c) and
 * the derivative operations and forward assignments nothing needs
 * (tbr_live.c); what adjoin asks of it. */
#include <string.h>

#include "tbr_impl.h"

int
xf_tbr_plan(xf_doc *doc, const xf_routine *rt, const xf_graph *g, const xf_cfgtree *t,
            const struct xf_addr *addr, unsigned off, xf_arena *a, xf_tbr **out)
{
    *out = NULL;
    xf_tbr *plan = XF_NEW(a, xf_tbr);
    if (!plan)
        return -1;
    memset(plan, 0, sizeof *plan);
    bool live = !(off & XF_TAPE_OFF_LIVE);
    /* a host's variables are reached by its internal procedures' calls */
    bool host = xf_hosts_procedures(doc, rt);
    if (live && xf_tbr_dead_ops_into(rt, host, g, a, plan))
        return -1;
    if (t && !(off & XF_TAPE_OFF_VALUES) && xf_tbr_values_into(doc, rt, g, t, addr, off, a, plan))
        return -1;
    if (!(off & XF_TAPE_OFF_CUT) && xf_tbr_cut_into(doc, rt, g, a, plan))
        return -1;
    if (live && xf_tbr_dead_stmts_into(rt, host, g, a, plan))
        return -1;
    if (plan->recomputed || plan->dead_ops || plan->dead_stmts || plan->cut_partials)
        *out = plan;
    return 0;
}

const xf_stmt *
xf_tbr_recompute(const xf_tbr *p, const xf_symbol *partial)
{
    return p ? xf_map_get(&p->recomp, partial) : NULL;
}

bool
xf_tbr_dead(const xf_tbr *p, const xf_stmt *s)
{
    return p && xf_map_get(&p->dead, s) != NULL;
}

bool
xf_tbr_hands(const xf_tbr *p, const xf_cvertex *bb, const xf_stmt *const **push, uint32_t *npush,
             const xf_stmt *const **pop, uint32_t *npop)
{
    if (!p || bb != p->last)
        return false;
    *push = (const xf_stmt *const *)p->push.v;
    *npush = p->push.n;
    *pop = (const xf_stmt *const *)p->pop.v;
    *npop = p->pop.n;
    return true;
}

bool
xf_tbr_op_dead(const xf_tbr *p, const xf_dpop *op)
{
    return p && xf_map_get(&p->deadop, op) != NULL;
}

const xf_tbr_cut *
xf_tbr_cut_of(const xf_tbr *p, const xf_symbol *partial)
{
    return p ? xf_map_get(&p->cut, partial) : NULL;
}
