/* argdead.c: under --reversal joint, the argument checkpoint of a real
 * formal that the rerun and the adjoint do not read goes.
 *
 * Under the joint template a routine's placeholder 6 restores its
 * arguments, then placeholder 2 (the taping sweep) runs again and
 * placeholder 3 (the adjoint) after it. A restored value matters only to
 * what those two read. After deadstore, a routine's taping sweep often no
 * longer computes a real formal it only writes (an output array, such as
 * ADBench GMM's Qtimesx `out`: its rerun keeps the index loops alone),
 * and its adjoint reads the formal's derivative, not its value. Such a
 * formal's store (placeholder 4) and restore (placeholder 6) go together.
 *
 * A formal counts as read when placeholder 2 or 3 names its value
 * anywhere: an assignment's target or right-hand side, a subscript, a
 * condition or loop header, a call's argument (the callee may read it), an
 * inlinable call (pushes, checkpoints); a reference marked deriv (its
 * adjoint) does not. The caller's adjoint sweep does not read a real value
 * the callee writes either (deadstore.c: what it reads in place no call is
 * passed), so it needs no restore of its own. Integer and logical formals
 * keep their checkpoints (the caller's loop bounds and address recovery
 * read them), as do globals (a callee may read them unnamed) and every
 * formal of a routine that hosts internal procedures (they read the host's
 * variables unnamed). Without --reversal joint nothing changes.
 * Needs: reverse (right without deadstore too; in the adjoint pipeline it
 * runs after deadstore, which leaves it more to take). Breaks: nothing. */
#include <stdlib.h>
#include <string.h>

#include "pass.h"

typedef struct named {
    const xf_symbol *sym;
    bool hit;
    bool failed; /* a walk ran out of memory: count as read */
} named;

static xf_walk_go
step(void *ctx, const xf_walk_step *s)
{
    named *c = ctx;
    const xf_symref *sr = s->ref ? xf_varref_symref(s->ref) : NULL;
    if (sr && sr->sym == c->sym && !xf_flag_is(s->ref->deriv, false))
        c->hit = true;
    return c->hit ? XF_WALK_STOP : XF_WALK_GO;
}

static void
ref(named *c, const xf_varref *r)
{
    if (!c->hit && xf_walk_ref(r, XF_WALK_ARGS, step, c) < 0)
        c->failed = true;
}

static void
expr(named *c, const xf_expr *x)
{
    if (!c->hit && xf_walk_expr(x, XF_WALK_ARGS, step, c) < 0)
        c->failed = true;
}

static void
args(named *c, const xf_arg_vec *a)
{
    for (uint32_t k = 0; k < a->n; k++)
        expr(c, &a->v[k].val);
}

static void
stmt(named *c, const xf_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        ref(c, &s->u.as.lhs);
        expr(c, &s->u.as.rhs);
        break;
    case XF_STMT_CALL:
        args(c, &s->u.call.args);
        break;
    case XF_STMT_ICALL:
        args(c, &s->u.icall.args);
        break;
    case XF_STMT_DERIVPROP:
        for (uint32_t k = 0; k < s->u.dp.n; k++) {
            const xf_dpop *op = &s->u.dp.v[k];
            ref(c, &op->tgt);
            ref(c, &op->src);
            ref(c, &op->y);
            for (uint32_t j = 0; j < op->ax.n; j++) {
                ref(c, &op->ax.v[j].x);
                expr(c, &op->ax.v[j].a);
            }
        }
        break;
    case XF_STMT_MARKER:
        break;
    }
}

/* Does graph @g name the value of @sym (true when out of memory)? */
static bool
reads(const xf_graph *g, const xf_symbol *sym)
{
    named c = {sym, false, false};
    for (uint32_t i = 0; g && i < g->v.n && !c.hit; i++) {
        const xf_cvertex *v = g->v.v[i];
        if (v->cond)
            expr(&c, v->cond);
        stmt(&c, v->init);
        stmt(&c, v->update);
        for (uint32_t k = 0; k < v->stmts.n; k++)
            stmt(&c, v->stmts.v[k]);
    }
    return c.hit || c.failed;
}

/* The variable of a checkpoint call @s named @prefix..., or NULL. */
static const xf_symbol *
checkpointed(const xf_stmt *s, const char *prefix)
{
    if (s->kind != XF_STMT_ICALL || !s->u.icall.name ||
        strncmp(s->u.icall.name, prefix, strlen(prefix)) || s->u.icall.args.n != 1)
        return NULL;
    const xf_expr *x = &s->u.icall.args.v[0].val;
    if (x->v.n != 1 || x->v.v[0].kind != XF_EV_VARREF || xf_varref_arrref(x->v.v[0].u.ref))
        return NULL;
    const xf_symref *sr = xf_varref_symref(x->v.v[0].u.ref);
    return sr ? sr->sym : NULL;
}

/* Remove from @r every checkpoint call named @prefix... of @sym. */
static void
drop(xf_replacement *r, const char *prefix, const xf_symbol *sym)
{
    for (uint32_t i = 0; r && i < r->g.v.n; i++) {
        xf_cvertex *v = r->g.v.v[i];
        uint32_t n = 0;
        for (uint32_t k = 0; k < v->stmts.n; k++)
            if (checkpointed(v->stmts.v[k], prefix) != sym)
                v->stmts.v[n++] = v->stmts.v[k];
        v->stmts.n = n;
    }
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    if (!rt->is_rlist || !ctx->opts || ctx->opts->reversal != XF_REV_JOINT ||
        xf_hosts_procedures(ctx->doc, rt))
        return 0;
    xf_replacement *tape = xf_placeholder(rt, "2"), *adj = xf_placeholder(rt, "3");
    xf_replacement *store = xf_placeholder(rt, "4"), *restore = xf_placeholder(rt, "6");
    if (!tape || !adj || !store || !restore)
        return 0;
    for (uint32_t i = 0; i < restore->g.v.n; i++) {
        const xf_cvertex *v = restore->g.v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            const xf_symbol *f = checkpointed(v->stmts.v[k], "cp_arg_restore");
            if (!f || f->type != XF_TYPE_REAL || !xf_is_formal(rt, f) || reads(&tape->g, f) ||
                reads(&adj->g, f))
                continue;
            drop(store, "cp_arg_store", f);
            drop(restore, "cp_arg_restore", f);
            k = UINT32_MAX; /* the block changed: from its start again */
        }
    }
    return 0;
}

static const char *const after[] = {"reverse", NULL};

const xf_pass xf_pass_argdead = {
    .name = "argdead",
    .summary = "joint: checkpoints of real formals the rerun and adjoint do not read go",
    .help = "Under --reversal joint a routine's argument checkpoint (placeholders 4\n"
            "and 6) restores its arguments before its taping sweep runs again and\n"
            "its adjoint after it. A real formal that neither of the two names (an\n"
            "output the rerun no longer computes after deadstore, whose adjoint\n"
            "alone the adjoint reads) loses its store and its restore. Integer\n"
            "formals, globals and the formals of routines hosting internal\n"
            "procedures keep theirs; without --reversal joint nothing changes.\n",
    .after = after,
    .once = true,
    .run_routine = run_routine,
};
