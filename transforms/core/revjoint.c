/* revjoint.c: the routines of a split adjoint that run both sweeps in one
 * activation (revjoint.h). A routine counts as called when a call-graph
 * edge ends at it or a Call statement of any routine's code (every code
 * variant of a ReplacementList) names its symbol; O(document) a question. */
#include "revjoint.h"
#include "pass.h"

static bool
entry_split(const xf_pass_ctx *ctx)
{
    return ctx && ctx->opts && ctx->opts->entry_joint && ctx->opts->reversal == XF_REV_SPLIT &&
           ctx->doc && ctx->doc->kind == XF_DOC_CALLGRAPH;
}

/* Does graph @g call @callee? */
static bool
graph_calls(const xf_graph *g, const xf_symbol *callee)
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *cv = g->v.v[i];
        for (uint32_t k = 0; k < cv->stmts.n; k++)
            if (cv->stmts.v[k]->kind == XF_STMT_CALL && cv->stmts.v[k]->u.call.sym == callee)
                return true;
    }
    return false;
}

/* Does the code of @by call @rt? */
static bool
calls(const xf_routine *by, const xf_routine *rt)
{
    if (!by->is_rlist)
        return graph_calls(&by->g, rt->sym);
    for (uint32_t k = 0; k < by->reps.n; k++)
        if (graph_calls(&by->reps.v[k]->g, rt->sym))
            return true;
    return false;
}

/* Does no edge end at @rt, and no routine call it? */
static bool
uncalled(const xf_doc *doc, const xf_routine *rt)
{
    for (uint32_t i = 0; i < doc->cg.edges.n; i++)
        if (doc->cg.edges.v[i].tgt == rt)
            return false;
    for (uint32_t r = 0; r < doc->cg.routines.n; r++)
        if (calls(doc->cg.routines.v[r], rt))
            return false;
    return true;
}

bool
xf_revjoint(const xf_pass_ctx *ctx, const xf_routine *rt)
{
    if (ctx && ctx->opts && ctx->opts->reversal == XF_REV_JOINT)
        return true;
    return entry_split(ctx) && rt->sym && uncalled(ctx->doc, rt);
}

bool
xf_revjoint_callee(const xf_pass_ctx *ctx, const xf_routine *rt)
{
    if (!entry_split(ctx) || !rt->sym)
        return false;
    const xf_doc *doc = ctx->doc;
    bool called = false;
    for (uint32_t r = 0; r < doc->cg.routines.n; r++) {
        const xf_routine *by = doc->cg.routines.v[r];
        if (!calls(by, rt))
            continue;
        if (by == rt || !uncalled(doc, by))
            return false;
        called = true;
    }
    for (uint32_t i = 0; i < doc->cg.edges.n; i++) {
        const xf_cgedge *e = &doc->cg.edges.v[i];
        if (e->tgt == rt && (!e->src || e->src == rt || !uncalled(doc, e->src)))
            return false;
    }
    return called;
}
