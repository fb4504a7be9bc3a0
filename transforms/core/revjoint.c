/* revjoint.c: the routines of a split adjoint that run both sweeps in one
 * activation (revjoint.h). A routine counts as called when a call-graph
 * edge ends at it or a Call statement of any routine's code (every code
 * variant of a ReplacementList) names its symbol; O(document) a question. */
#include <string.h>

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

/* The variable that expression @x is, or NULL. */
static const xf_symbol *
var_of(const xf_expr *x)
{
    const xf_symref *s =
        x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF ? xf_varref_symref(x->v.v[0].u.ref) : NULL;
    return s ? s->sym : NULL;
}

/* Is @v off @rt's Mod lists, which are there (some reference on them)? */
static bool
unmodified(const xf_routine *rt, const xf_symbol *v)
{
    uint32_t n = 0;
    for (int k = XF_SE_MODLOCAL; k <= XF_SE_MOD; k++)
        for (uint32_t i = 0; i < rt->se[k].refs.n; i++, n++) {
            const xf_symref *s = xf_varref_symref(rt->se[k].refs.v[i]);
            if (!s || s->sym == v)
                return false;
        }
    return n > 0;
}

/* The original code of @rt (placeholder 1 of a ReplacementList). */
static const xf_graph *
original(const xf_routine *rt)
{
    if (!rt->is_rlist)
        return &rt->g;
    for (uint32_t k = 0; k < rt->reps.n; k++)
        if (rt->reps.v[k]->placeholder && !strcmp(rt->reps.v[k]->placeholder, "1"))
            return &rt->reps.v[k]->g;
    return NULL;
}

static bool
formal(const xf_routine *rt, const xf_symbol *v)
{
    for (uint32_t i = 0; i < rt->args.n; i++)
        if (rt->args.v[i].sym == v)
            return true;
    return false;
}

/* Does every call of @callee in @by pass at @pos a variable @by keeps? */
static bool
keeps(const xf_routine *by, const xf_symbol *callee, int64_t pos, bool *found)
{
    const xf_graph *g = original(by);
    if (!g)
        return false;
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *cv = g->v.v[i];
        for (uint32_t k = 0; k < cv->stmts.n; k++) {
            const xf_stmt *s = cv->stmts.v[k];
            if (s->kind != XF_STMT_CALL || s->u.call.sym != callee)
                continue;
            const xf_symbol *v = NULL;
            for (uint32_t j = 0; j < s->u.call.args.n; j++)
                if (s->u.call.args.v[j].pos == pos)
                    v = var_of(&s->u.call.args.v[j].val);
            if (!v || v->kind != XF_SYMKIND_VARIABLE ||
                !(formal(by, v) || v->scope != by->cfg_scope) || !unmodified(by, v))
                return false;
            *found = true;
        }
    }
    return true;
}

bool
xf_revjoint_kept(const xf_doc *doc, const xf_routine *rt, const xf_symbol *f)
{
    int64_t pos = -1;
    for (uint32_t i = 0; i < rt->args.n; i++)
        if (rt->args.v[i].sym == f)
            pos = rt->args.v[i].pos;
    if (pos < 0 || !rt->sym || doc->kind != XF_DOC_CALLGRAPH)
        return false;
    bool found = false;
    for (uint32_t r = 0; r < doc->cg.routines.n; r++)
        if (!keeps(doc->cg.routines.v[r], rt->sym, pos, &found))
            return false;
    return found;
}
