/* propagate.c: the derivative code in the conventions of xaifBooster's
 * tangent outputs, which OpenAD's back end expects: a one-term Sax with the
 * partial 1 or -1 is a SetDeriv or SetNegDeriv, a one-term Saxpy with 1 or
 * -1 an IncDeriv or DecDeriv, and empty propagators go.
 * Needs: linearize. Breaks: nothing. */
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "pieces.h"

/* The constant an A expression is, if it is one. */
static bool
constant(const xf_expr *a, double *v)
{
    if (a->v.n != 1 || a->v.v[0].kind != XF_EV_CONSTANT)
        return false;
    char *end;
    *v = strtod(a->v.v[0].u.c.value, &end);
    return !*end;
}

static void
simplify(xf_dpop *op)
{
    double c;
    if ((op->kind != XF_DP_SAX && op->kind != XF_DP_SAXPY) || op->ax.n != 1 ||
        !constant(&op->ax.v[0].a, &c) || (c != 1.0 && c != -1.0))
        return;
    bool acc = op->kind == XF_DP_SAXPY;
    op->kind = acc ? (c > 0 ? XF_DP_INCDERIV : XF_DP_DECDERIV)
                   : (c > 0 ? XF_DP_SETDERIV : XF_DP_SETNEGDERIV);
    op->tgt = op->y;
    op->src = op->ax.v[0].x;
    memset(&op->ax, 0, sizeof op->ax);
    memset(&op->y, 0, sizeof op->y);
}

static void
simplify_graph(xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        xf_cvertex *v = g->v.v[i];
        v->stmts.n = xf_propagate_stmts(v->stmts.v, v->stmts.n);
    }
}

uint32_t
xf_propagate_stmts(xf_stmt **v, uint32_t n)
{
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; k++) {
        xf_stmt *s = v[k];
        if (s->kind == XF_STMT_DERIVPROP) {
            if (!s->u.dp.n)
                continue;
            for (uint32_t j = 0; j < s->u.dp.n; j++)
                simplify(&s->u.dp.v[j]);
        }
        v[m++] = s;
    }
    return m;
}

/* Every graph: a ControlFlowGraph's, and each placeholder of a ReplacementList
 * (the taping and the adjoint code alike). */
static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    (void)ctx;
    simplify_graph(&rt->g);
    for (uint32_t i = 0; i < rt->reps.n; i++)
        simplify_graph(&rt->reps.v[i]->g);
    return 0;
}

/* The promise (--verify-each): no propagator of @g is empty, and no
 * one-term Sax or Saxpy has the partial 1 or -1. */
static int
verify_graph(xf_pass_ctx *ctx, const xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++)
        for (uint32_t k = 0; k < g->v.v[i]->stmts.n; k++) {
            const xf_stmt *s = g->v.v[i]->stmts.v[k];
            if (s->kind != XF_STMT_DERIVPROP)
                continue;
            if (!s->u.dp.n) {
                xf_error(ctx->diag, ctx->doc->filename, s->h.line, "an empty propagator is left");
                return -1;
            }
            for (uint32_t j = 0; j < s->u.dp.n; j++) {
                const xf_dpop *op = &s->u.dp.v[j];
                double c;
                if ((op->kind == XF_DP_SAX || op->kind == XF_DP_SAXPY) && op->ax.n == 1 &&
                    constant(&op->ax.v[0].a, &c) && (c == 1.0 || c == -1.0)) {
                    xf_error(ctx->diag, ctx->doc->filename, op->h.line,
                             "a one-term Sax or Saxpy with the partial %g is left", c);
                    return -1;
                }
            }
        }
    return 0;
}

static int
verify(xf_pass_ctx *ctx)
{
    for (uint32_t r = 0; r < ctx->doc->cg.routines.n; r++) {
        const xf_routine *rt = ctx->doc->cg.routines.v[r];
        if (verify_graph(ctx, &rt->g) != 0)
            return -1;
        for (uint32_t i = 0; i < rt->reps.n; i++)
            if (verify_graph(ctx, &rt->reps.v[i]->g) != 0)
                return -1;
    }
    return 0;
}

static const char *const after[] = {"linearize", NULL};

const xf_pass xf_pass_propagate = {
    .name = "propagate",
    .summary = "derivative propagation in the conventions of OpenAD's back end",
    .help = "Rewrites the propagators in the forms of xaifBooster's tangent outputs: a\n"
            "single term with the partial 1 or -1 becomes SetDeriv, SetNegDeriv, IncDeriv\n"
            "or DecDeriv; empty propagators are removed.\n",
    .after = after,
    .once = true,
    .run_routine = run_routine,
    .verify = verify,
    .promise = "no empty propagator; no one-term Sax or Saxpy with the partial 1 or -1",
};
