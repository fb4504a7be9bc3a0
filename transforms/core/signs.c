/* signs.c: see signs.h. */
#include "signs.h"

#include <string.h>

#include "build.h"

/* A partial whose negation went into the graph: its assignment and the
 * right-hand side -(e) it had. */
struct xf_signs_def {
    xf_stmt *s;
    xf_expr rhs;
};

/* The symbol @r is (a plain variable), or NULL. */
static const xf_symbol *
ref_sym(const xf_varref *r)
{
    const xf_symref *s = r && !xf_varref_arrref(r) && r->v.n == 1 ? xf_varref_symref(r) : NULL;
    return s ? s->sym : NULL;
}

static int
count_sym(xf_signs *p, const xf_symbol *s)
{
    if (!s || strncmp(s->id, "OpenAD_lin_", 11) != 0)
        return 0;
    uintptr_t n = (uintptr_t)xf_map_get(&p->uses, s);
    return xf_map_put(&p->uses, p->a, s, (void *)(n + 1), NULL) ? 0 : xf_pass_oom(p->ctx);
}

static int
count_in(xf_signs *p, const xf_expr *x)
{
    for (uint32_t i = 0; i < x->v.n; i++) {
        const xf_evertex *v = &x->v.v[i];
        if (v->kind == XF_EV_VARREF &&
            count_sym(p, xf_varref_symref(v->u.ref) ? xf_varref_symref(v->u.ref)->sym : NULL))
            return -1;
        for (uint32_t k = 0; v->kind == XF_EV_FUNCALL && k < v->u.fn.args.n; k++)
            if (count_sym(p, xf_varref_symref(v->u.fn.args.v[k])
                                 ? xf_varref_symref(v->u.fn.args.v[k])->sym
                                 : NULL))
                return -1;
    }
    return 0;
}

/* How often expression @x reads @sym (its subscripts included, shallowly). */
static uint32_t
reads_in(const xf_expr *x, const xf_symbol *sym)
{
    uint32_t n = 0;
    for (uint32_t i = 0; x && i < x->v.n; i++) {
        const xf_evertex *v = &x->v.v[i];
        if (v->kind == XF_EV_VARREF) {
            const xf_symref *s = xf_varref_symref(v->u.ref);
            n += s && s->sym == sym;
        } else if (v->kind == XF_EV_FUNCALL) {
            for (uint32_t k = 0; k < v->u.fn.args.n; k++) {
                const xf_symref *s = xf_varref_symref(v->u.fn.args.v[k]);
                n += s && s->sym == sym;
            }
        }
    }
    return n;
}

/* Count, per OpenAD_lin_* symbol, the references to it in @g's blocks. */
static int
count_lin_uses(xf_signs *p, const xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        for (uint32_t k = 0; v->kind == XF_CV_BASICBLOCK && k < v->stmts.n; k++) {
            const xf_stmt *s = v->stmts.v[k];
            const xf_expr *xs[3] = {NULL, NULL, NULL};
            const xf_varref *lhs = NULL;
            if (s->kind == XF_STMT_ASSIGN) {
                xs[0] = &s->u.as.rhs;
                lhs = &s->u.as.lhs;
            }
            for (uint32_t q = 0; s->kind == XF_STMT_DERIVPROP && q < s->u.dp.n; q++)
                for (uint32_t j = 0; j < s->u.dp.v[q].ax.n; j++)
                    if (count_in(p, &s->u.dp.v[q].ax.v[j].a))
                        return -1;
            if (s->kind == XF_STMT_CALL || s->kind == XF_STMT_ICALL) {
                const xf_arg_vec *args =
                    s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args;
                for (uint32_t j = 0; j < args->n; j++)
                    if (count_in(p, &args->v[j].val))
                        return -1;
            }
            if ((xs[0] && count_in(p, xs[0])) || (lhs && count_sym(p, ref_sym(lhs))))
                return -1;
        }
    }
    return 0;
}

/* How often statement @s reads @sym: 0, 1 (as the A of a Sax the graph can
 * take: *@sax), or more (2: any other read counts as many). */
static uint32_t
reads_of(const xf_stmt *s, const xf_symbol *sym, bool *sax)
{
    uint32_t n = 0;
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        return reads_in(&s->u.as.rhs, sym) || ref_sym(&s->u.as.lhs) == sym ? 2 : 0;
    case XF_STMT_CALL:
    case XF_STMT_ICALL: {
        const xf_arg_vec *args = s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args;
        for (uint32_t k = 0; k < args->n; k++)
            if (reads_in(&args->v[k].val, sym))
                return 2;
        return 0;
    }
    case XF_STMT_DERIVPROP:
        for (uint32_t k = 0; k < s->u.dp.n; k++) {
            const xf_dpop *op = &s->u.dp.v[k];
            for (uint32_t j = 0; j < op->ax.n; j++) {
                uint32_t r = reads_in(&op->ax.v[j].a, sym);
                if (!r)
                    continue;
                n += r;
                *sax = op->kind == XF_DP_SAX && op->ax.n <= 64;
                for (uint32_t i = 0; i < op->ax.n && *sax; i++) {
                    xf_lcg_wt w;
                    *sax = xf_lcg_weight(NULL, &op->ax.v[i].a, &w);
                }
            }
        }
        return n;
    case XF_STMT_MARKER:
        return 0;
    }
    return 2;
}

/* (xf_signs_fold) In an adjoint, a partial OpenAD_lin_* = -(e) (cos' -sin, a quotient's by
 * its denominator) read once in the block, by a Sax the graph takes, is
 * assigned e instead, and the graph weighs it -1 (xf_lcg.neg): products and
 * sums carry the sign at no cost, and what is left of it costs no more than
 * the negation did (see negated). */
int
xf_signs_fold(xf_signs *p, xf_cvertex *b)
{
    xf_map_clear(&p->neg);
    xf_map_clear(&p->defs);
    for (uint32_t k = 0; k < b->stmts.n; k++) {
        xf_stmt *s = b->stmts.v[k];
        if (s->kind != XF_STMT_ASSIGN || xf_flag_is(s->u.as.lhs.deriv, false))
            continue;
        const xf_symbol *sym = ref_sym(&s->u.as.lhs);
        const xf_expr *x = &s->u.as.rhs;
        uint32_t root = xf_expr_root(x);
        if (!sym || strncmp(sym->id, "OpenAD_lin_", 11) != 0 || xf_shape_rank(sym->shape) > 0 ||
            root == UINT32_MAX || x->v.v[root].kind != XF_EV_INTRINSIC ||
            strcmp(x->v.v[root].u.in.name, "minus_scal") != 0 || reads_in(x, sym))
            continue;
        uint32_t operand = UINT32_MAX, nops = 0;
        for (uint32_t j = 0; j < x->e.n; j++)
            if (x->e.v[j].tgt == root) {
                operand = x->e.v[j].src;
                nops++;
            }
        if (nops != 1)
            continue;
        uint32_t uses = 0;
        bool sax = false;
        for (uint32_t j = k + 1; j < b->stmts.n && uses < 2; j++)
            uses += reads_of(b->stmts.v[j], sym, &sax);
        for (uint32_t j = 0; j < k && !uses; j++)
            uses += reads_of(b->stmts.v[j], sym, &sax);
        /* its definition and its one read: nothing else in the routine */
        if (uses != 1 || !sax || (uintptr_t)xf_map_get(&p->uses, sym) != 2)
            continue;
        xf_expr e = {0};
        if (xf_expr_copy(p->ctx->doc, &e, x, operand) == UINT32_MAX)
            return xf_pass_oom(p->ctx);
        e.h = x->h;
        struct xf_signs_def *d = xf_arena_alloc(p->a, sizeof *d);
        if (!d)
            return xf_pass_oom(p->ctx);
        d->s = s;
        d->rhs = *x;
        s->u.as.rhs = e;
        if (!xf_map_put(&p->neg, p->a, sym, (void *)sym, NULL) ||
            !xf_map_put(&p->defs, p->a, sym, d, NULL))
            return xf_pass_oom(p->ctx);
    }
    return 0;
}

int
xf_signs_unfold(xf_signs *p, const xf_stmt *dp)
{
    for (uint32_t k = 0; dp->kind == XF_STMT_DERIVPROP && k < dp->u.dp.n; k++) {
        const xf_dpop *op = &dp->u.dp.v[k];
        for (uint32_t j = 0; j < op->ax.n; j++) {
            const xf_expr *a = &op->ax.v[j].a;
            for (uint32_t i = 0; i < a->v.n; i++) {
                const xf_symref *r =
                    a->v.v[i].kind == XF_EV_VARREF ? xf_varref_symref(a->v.v[i].u.ref) : NULL;
                if (!r || !xf_map_get(&p->neg, r->sym))
                    continue;
                struct xf_signs_def *d = xf_map_get(&p->defs, r->sym);
                if (!d)
                    continue;
                d->s->u.as.rhs = d->rhs; /* -(e) again */
                if (!xf_map_put(&p->neg, p->a, r->sym, NULL, NULL) ||
                    !xf_map_put(&p->defs, p->a, r->sym, NULL, NULL))
                    return xf_pass_oom(p->ctx);
            }
        }
    }
    return 0;
}

int
xf_signs_begin(xf_signs *p, xf_pass_ctx *ctx, const xf_graph *g)
{
    memset(p, 0, sizeof *p);
    p->ctx = ctx;
    if (!(p->a = xf_pass_arena(ctx)))
        return xf_pass_oom(ctx);
    int ret = count_lin_uses(p, g);
    if (ret)
        xf_signs_end(p); /* the caller ends only what began */
    return ret;
}

void
xf_signs_end(xf_signs *p)
{
    xf_arena_free(p->a);
    p->a = NULL;
}
