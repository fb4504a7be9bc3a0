/* adjoin.c: the adjoint of each basic block (Utke et al. [000] §3.3,
 * Naumann et al. [002] §2). Works on the ReplacementLists that template
 * made, after linearize and preaccumulate wrote each block's derivative
 * propagation into placeholder 2:
 *
 *  - placeholder 2 becomes the taping sweep: the derivative propagators go;
 *    in their place the values their adjoints will need are pushed: the
 *    partials (OpenAD_lin_*, OpenAD_acc_*: push_s0/s1/s2) and the values of
 *    subscripts the reverse sweep cannot recompute (push_i_s0); after each
 *    call, the subscripts of its arguments as they were at the call, and
 *    its integer scalar arguments (the callee's adjoint sizes with them);
 *  - placeholder 3 receives, for each basic block, a block with the same
 *    id holding its adjoint: the pops, then the transposed propagation in
 *    reverse order (x̄ += a·ȳ as Saxpy, then ȳ = 0 as ZeroDeriv; through an
 *    OpenAD_prp_* temporary when ȳ is also read), and the calls again, in
 *    reverse order. The pass reverse then builds placeholder 3's control
 *    flow around these blocks.
 *
 * A subscript is recomputed instead of taped when it reads only constants
 * and the variables of enclosing loops that are reversed explicitly (their
 * variable runs backwards in the adjoint). Pops go into the variables that
 * were pushed (partials) or into integer temporaries OpenAD_Symbol_*
 * (subscripts). Needs: template, preaccumulate. Breaks: placeholder 3 until
 * reverse runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "adjzero.h"
#include "build.h"
#include "cfgtree.h"
#include "iterwise.h"
#include "ir_check.h"
#include "map.h"
#include "pass.h"
#include "revjoint.h"
#include "pieces.h"
#include "tbr.h"

typedef XF_VEC(xf_stmt *) stmtvec;

/* adjoin's own options (xf_pass_own). */
typedef struct adj_opts {
    bool addr_store;   /* --address-recovery store: tape every subscript */
    unsigned tape_off; /* --tape-off: the tape savings left out (tbr.h) */
} adj_opts;

typedef struct adj {
    xf_pass_ctx *ctx;
    const adj_opts *own;
    xf_doc *doc;
    xf_routine *rt;
    xf_scope *scope;
    xf_arena *a;        /* scratch, per routine */
    xf_loopscope loops; /* the explicitly reversed loops around the block */
    xf_map temps;       /* subscript signature -> its temporary (routine) */
    unsigned nsym, nprp;
    xf_addr *addr;     /* the routine's address recovery plan, or NULL (addr.h) */
    xf_tbr *tbr;       /* the partials recomputed from stable values, or NULL (tbr.h) */
    xf_adjzero *zero;  /* the increments that find their target zero, or NULL (adjzero.h) */
    const xf_graph *g; /* the taping graph of the routine, NULL: in pieces */
    bool *written;     /* by symbol index: the routine may write it (made on first use) */
    unsigned nrec;
    bool no_plans; /* xf_adj_plans_off */
    /* the block being done */
    const xf_cvertex *bb;
    uint32_t k;                       /* the statement being done */
    stmtvec fwd;                      /* its new forward statements */
    stmtvec rev;                      /* adjoint statements, chunk by chunk in forward order */
    XF_VEC(uint32_t) chunks;          /* where each chunk starts in rev */
    stmtvec pops;                     /* the current chunk's pops, in push order */
    XF_VEC(const char *) cur;         /* the current chunk's saved subscripts */
    XF_VEC(const xf_symbol *) pushed; /* the current chunk's pushed partials */
    stmtvec recs;                     /* the current chunk's partials computed again (tbr.h) */
} adj;

static int
oom(adj *d)
{
    return xf_pass_oom(d->ctx);
}

static int
fail(adj *d, const char *fmt, const char *what)
{
    xf_error(d->ctx->diag, d->doc->filename, d->bb ? d->bb->h.line : 0,
             "adjoint of routine %s: %s%s", d->rt->sym ? d->rt->sym->id : "?", fmt,
             what ? what : "");
    return -1;
}

static int
push_stmt(adj *d, stmtvec *v, xf_stmt *s)
{
    if (!s || !XF_VEC_PUSH(d->doc->arena, *v, s))
        return oom(d);
    return 0;
}

/* ------------------------------------------------------------ subscripts */

static bool
is_loopvar(const adj *d, const xf_symbol *s)
{
    return xf_loopscope_has(&d->loops, s);
}

static bool unwritten(adj *d, const xf_symbol *s);

/* Can the adjoint evaluate @x itself: constants, operations, the
 * variables of explicitly reversed enclosing loops and integer scalars of
 * the routine's own that nothing in it writes (a size passed in) only? */
static bool
recomputable(adj *d, const xf_expr *x)
{
    for (uint32_t i = 0; i < x->v.n; i++) {
        const xf_evertex *v = &x->v.v[i];
        if (v->kind == XF_EV_CONSTANT || v->kind == XF_EV_INTRINSIC)
            continue;
        if (v->kind != XF_EV_VARREF)
            return false;
        const xf_symref *s = xf_varref_symref(v->u.ref);
        if (!s || xf_varref_arrref(v->u.ref))
            return false;
        if (!is_loopvar(d, s->sym) && (!s->sym || s->sym->type != XF_TYPE_INTEGER ||
                                       s->sym->shape != XF_SHAPE_SCALAR || !unwritten(d, s->sym)))
            return false;
    }
    return true;
}

/* The temporary that holds subscript @x in the adjoint (made on first use). */
static xf_symbol *
temp_for(adj *d, const char *sig)
{
    xf_symbol *t = xf_map_get(&d->temps, sig);
    if (t)
        return t;
    t = xf_fresh_symbol(d->doc, d->scope, "OpenAD_Symbol_", &d->nsym, XF_TYPE_INTEGER,
                        XF_SHAPE_SCALAR, false);
    if (!t || !xf_map_put(&d->temps, d->a, sig, t, NULL))
        return NULL;
    return t;
}

/* An integer push (or pop) of @sym: push_i_s0 / pop_i_s0. */
static xf_stmt *
int_tape(adj *d, bool push, const xf_varref *r)
{
    xf_stmt *s = xf_stmt_icall(d->doc, push ? "inline_push_i" : "inline_pop_i",
                               push ? "push_i_s0" : "pop_i_s0");
    return s && xf_icall_ref(d->doc, s, r) ? s : NULL;
}

/* Save subscript @x of the current chunk: in the forward sweep @before
 * (statements before the point of the push) gets `t = x` unless x is a
 * plain variable, @after gets the push; the chunk gets the pop. Rewrites
 * *@slot to read the temporary. @copy_first: the forward statement must
 * copy the value now (a call may change it before the push). */
static int
save(adj *d, xf_expr **slot, bool copy_first, stmtvec *before, stmtvec *after)
{
    xf_expr *x = *slot;
    xf_expr *recovered = xf_addr_subscript(d->doc, d->addr, d->bb, d->k, x);
    if (recovered) {
        *slot = recovered;
        return 0;
    }
    const char *sig = xf_expr_sig(d->doc, x);
    if (!sig)
        return oom(d);
    xf_symbol *t = temp_for(d, sig);
    xf_varref *tr = t ? xf_ref_new(d->doc, t) : NULL;
    xf_expr *use = XF_NEW(d->doc->arena, xf_expr);
    if (!tr || !use || xf_expr_ref(d->doc, use, xf_ref_new(d->doc, t)) == UINT32_MAX)
        return oom(d);
    xf_mark_ref(tr, false, false);
    xf_mark_ref(use->v.v[0].u.ref, false, false);
    use->h = x->h;
    bool seen = false;
    for (uint32_t i = 0; i < d->cur.n && !seen; i++)
        seen = d->cur.v[i] == sig;
    if (!seen) {
        const xf_varref *pushed = tr;
        bool plain = x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF;
        if (plain && !copy_first) {
            pushed = x->v.v[0].u.ref;
        } else {
            xf_varref lhs;
            xf_expr rhs = {0};
            if (!xf_ref_init(d->doc, &lhs, t) ||
                xf_expr_copy(d->doc, &rhs, x, xf_expr_root(x)) == UINT32_MAX)
                return oom(d);
            xf_mark_ref(&lhs, false, false);
            if (push_stmt(d, before,
                          xf_stmt_assign(d->doc, "index_expression_for_taping", &lhs, &rhs)))
                return -1;
        }
        if (push_stmt(d, after, int_tape(d, true, pushed)) ||
            push_stmt(d, &d->pops, int_tape(d, false, tr)) || !XF_VEC_PUSH(d->a, d->cur, sig))
            return oom(d);
    }
    *slot = use;
    return 0;
}

/* Make every subscript of @r that the adjoint cannot recompute read a
 * saved temporary (@r is a copy the adjoint owns). */
static int
save_subscripts(adj *d, xf_varref *r, bool copy_first, stmtvec *before, stmtvec *after)
{
    xf_arrref *ar = xf_varref_arrref(r);
    for (uint32_t i = 0; ar && i < ar->t.n; i++) {
        xf_expr **parts[3] = {&ar->t.v[i].index, &ar->t.v[i].bound, &ar->t.v[i].stride};
        for (int k = 0; k < 3; k++)
            if (*parts[k] && !recomputable(d, *parts[k]) &&
                save(d, parts[k], copy_first, before, after))
                return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ chunks */

static void
chunk_begin(adj *d)
{
    memset(&d->pops, 0, sizeof d->pops);
    memset(&d->cur, 0, sizeof d->cur);
    memset(&d->pushed, 0, sizeof d->pushed);
    memset(&d->recs, 0, sizeof d->recs);
}

/* Close the chunk: its pops (last pushed first), then @body. */
static int
chunk_end(adj *d, xf_stmt *const *body, uint32_t n)
{
    if (!XF_VEC_PUSH(d->a, d->chunks, d->rev.n))
        return oom(d);
    for (uint32_t i = d->pops.n; i-- > 0;)
        if (push_stmt(d, &d->rev, d->pops.v[i]))
            return -1;
    for (uint32_t i = 0; i < d->recs.n; i++)
        if (push_stmt(d, &d->rev, d->recs.v[i]))
            return -1;
    for (uint32_t i = 0; i < n; i++)
        if (push_stmt(d, &d->rev, body[i]))
            return -1;
    return 0;
}

/* ------------------------------------------------------------ aliasing */

/* May @a and @b share storage? */
static bool
may_alias(const adj *d, const xf_varref *a, const xf_varref *b)
{
    return xf_refs_may_alias(d->doc, a, b);
}

/* ------------------------------------------------------------ propagators */

/* A term a·x of a propagator operation. */
typedef struct term {
    const xf_expr *a; /* NULL: the constant @c */
    double c;
    const xf_varref *x;
    bool zero; /* x̄ is zero before this term's adjoint: assign (adjzero.h) */
} term;

static int
rank_of_ref(const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    const xf_arrref *ar = xf_varref_arrref(r);
    int rank = s && s->sym ? xf_shape_rank(s->sym->shape) : 0;
    if (rank < 0)
        rank = 0;
    if (ar) {
        rank = 0;
        for (uint32_t i = 0; i < ar->t.n; i++)
            if (ar->t.v[i].bound || ar->t.v[i].stride || !ar->t.v[i].index)
                rank++;
    }
    return rank;
}

/* A copy of derivative reference @r for the adjoint, its subscripts saved. */
static xf_varref *
adj_ref(adj *d, const xf_varref *r, stmtvec *before, stmtvec *after)
{
    xf_varref *c = xf_ref_dup(d->doc, r);
    if (!c || save_subscripts(d, c, false, before, after))
        return NULL;
    xf_mark_ref(c, true, true);
    return c;
}

/* Tape the values partial @p is computed from instead of it (tbr_cut.c):
 * each value once per chunk, pushed after the propagator, popped into its
 * temporary; the adjoint computes @p again from those. */
static int
save_values(adj *d, const xf_tbr_cut *cut, const xf_symbol *p, stmtvec *after)
{
    for (uint32_t j = 0; j < cut->leaf.n; j++) {
        bool seen = false;
        for (uint32_t i = 0; i < d->pushed.n && !seen; i++)
            seen = d->pushed.v[i] == cut->shadow.v[j];
        if (seen)
            continue;
        xf_stmt *ps = xf_stmt_icall(d->doc, "inline_push", "push_s0");
        xf_stmt *pp = xf_stmt_icall(d->doc, "inline_pop", "pop_s0");
        xf_varref *to = xf_ref_new(d->doc, cut->shadow.v[j]);
        if (!ps || !pp || !to)
            return oom(d);
        xf_mark_ref(to, false, false);
        if (!xf_icall_ref(d->doc, ps, cut->leaf.v[j]) || !xf_icall_ref(d->doc, pp, to) ||
            push_stmt(d, after, ps) || push_stmt(d, &d->pops, pp) ||
            !XF_VEC_PUSH(d->a, d->pushed, cut->shadow.v[j]))
            return oom(d);
    }
    xf_stmt *c = xf_stmt_copy(d->doc, cut->recompute);
    if (!c || !(c->id = xf_derived_id(d->doc, "recompute", ++d->nrec, cut->recompute->id)) ||
        push_stmt(d, &d->recs, c) || !XF_VEC_PUSH(d->a, d->pushed, p))
        return oom(d);
    return 0;
}

/* The subscripts of @c (a copy of @def, of the current block) that read
 * integers address recovery recovers, as the adjoint evaluates them. */
static int
recovered_subscripts(adj *d, const xf_stmt *def, xf_stmt *c)
{
    uint32_t at = 0;
    while (at < d->bb->stmts.n && d->bb->stmts.v[at] != def)
        at++;
    if (!d->addr || at == d->bb->stmts.n || c->kind != XF_STMT_ASSIGN)
        return 0;
    xf_expr *x = &c->u.as.rhs;
    for (uint32_t i = 0; i < x->v.n; i++) {
        if (x->v.v[i].kind != XF_EV_VARREF)
            continue;
        xf_arrref *ar = (xf_arrref *)xf_varref_arrref(x->v.v[i].u.ref);
        for (uint32_t k = 0; ar && k < ar->t.n; k++) {
            xf_expr *r = ar->t.v[k].index
                             ? xf_addr_subscript(d->doc, d->addr, d->bb, at, ar->t.v[k].index)
                             : NULL;
            if (r)
                ar->t.v[k].index = r;
        }
    }
    return 0;
}

/* Push partial @a (a variable of ours) once per chunk; the pop restores it. */
static int
save_partial(adj *d, const xf_expr *a, stmtvec *after)
{
    if (a->v.n != 1 || a->v.v[0].kind == XF_EV_CONSTANT)
        return a->v.n == 1 ? 0 : fail(d, "a partial that is an expression", NULL);
    const xf_varref *r = a->v.v[0].u.ref;
    const xf_symref *s = a->v.v[0].kind == XF_EV_VARREF ? xf_varref_symref(r) : NULL;
    if (!s || !s->sym || xf_varref_arrref(r))
        return fail(d, "a partial that is not a variable", NULL);
    for (uint32_t i = 0; i < d->pushed.n; i++)
        if (d->pushed.v[i] == s->sym)
            return 0;
    const xf_tbr_cut *cut = xf_tbr_cut_of(d->tbr, s->sym);
    if (cut)
        return save_values(d, cut, s->sym, after);
    const xf_stmt *def = xf_tbr_recompute(d->tbr, s->sym);
    if (def) {
        /* the adjoint assigns it again, from values no statement overwrites */
        xf_stmt *c = xf_stmt_copy(d->doc, def);
        if (!c || recovered_subscripts(d, def, c) ||
            !(c->id = xf_derived_id(d->doc, "recompute", ++d->nrec, def->id)) ||
            push_stmt(d, &d->pops, c) || !XF_VEC_PUSH(d->a, d->pushed, s->sym))
            return oom(d);
        return 0;
    }
    int rank = xf_shape_rank(s->sym->shape);
    static const char *const push[] = {"push_s0", "push_s1", "push_s2"};
    static const char *const pop[] = {"pop_s0", "pop_s1", "pop_s2"};
    if (rank < 0)
        rank = 0;
    if (rank > 2)
        return fail(d, "a partial of rank 3 or more: ", s->sym->id);
    xf_stmt *ps = xf_stmt_icall(d->doc, "inline_push", push[rank]);
    xf_stmt *pp = xf_stmt_icall(d->doc, "inline_pop", pop[rank]);
    if (!ps || !pp || !xf_icall_ref(d->doc, ps, r) || !xf_icall_ref(d->doc, pp, r) ||
        push_stmt(d, after, ps) || push_stmt(d, &d->pops, pp) ||
        !XF_VEC_PUSH(d->a, d->pushed, s->sym))
        return oom(d);
    return 0;
}

/* Append to @ops: target's adjoint += coefficient · source's adjoint (=
 * when the term's target is known to be zero). */
static int
saxpy(adj *d, xf_stmt *ops, const term *t, const xf_varref *src, const xf_varref *tgt)
{
    xf_dpop op = {.kind = t->zero ? XF_DP_SAX : XF_DP_SAXPY};
    xf_ax ax = {0};
    if (t->a) {
        if (xf_expr_copy(d->doc, &ax.a, t->a, xf_expr_root(t->a)) == UINT32_MAX)
            return oom(d);
    } else if (xf_expr_real(d->doc, &ax.a, t->c) == UINT32_MAX) {
        return oom(d);
    }
    if (!xf_ref_copy(d->doc, &ax.x, src) || !xf_ref_copy(d->doc, &op.y, tgt) ||
        !XF_VEC_PUSH(d->doc->arena, op.ax, ax) || !XF_VEC_PUSH(d->doc->arena, ops->u.dp, op))
        return oom(d);
    return 0;
}

static int
simple_op(adj *d, xf_stmt *ops, xf_dpkind kind, const xf_varref *tgt, const xf_varref *src)
{
    xf_dpop op = {.kind = kind};
    if (!xf_ref_copy(d->doc, &op.tgt, tgt) || (src && !xf_ref_copy(d->doc, &op.src, src)) ||
        !XF_VEC_PUSH(d->doc->arena, ops->u.dp, op))
        return oom(d);
    return 0;
}

/* An active temporary shaped like @r (a scalar for an element). */
static xf_symbol *
prp_temp(adj *d, const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    bool whole = !xf_varref_arrref(r);
    xf_shape shape = whole && s ? s->sym->shape : XF_SHAPE_SCALAR;
    xf_symbol *t =
        xf_fresh_symbol(d->doc, d->scope, "OpenAD_prp_", &d->nprp, XF_TYPE_REAL, shape, true);
    if (t && whole && s)
        for (uint32_t i = 0; i < s->sym->dims.n; i++)
            if (!XF_VEC_PUSH(xf_doc_global(d->doc), t->dims, s->sym->dims.v[i]))
                return NULL;
    if (t && s && s->sym->fetype)
        t->fetype = s->sym->fetype;
    return t;
}

/* Is @r a scalar variable (no subscripts, scalar symbol)? */
static bool
plain_scalar(const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    return s && s->sym && !xf_varref_arrref(r) && xf_shape_rank(s->sym->shape) <= 0;
}

/* ȳ = Σ a·ȳ over the terms @t that are y itself (@same), as one Sax or Saxpy. */
static int
scale(adj *d, xf_stmt *ops, const xf_varref *y, const term *t, const bool *same, uint32_t n,
      bool overwrite)
{
    xf_dpop op = {.kind = overwrite ? XF_DP_SAX : XF_DP_SAXPY};
    if (!xf_ref_copy(d->doc, &op.y, y))
        return oom(d);
    for (uint32_t i = 0; i < n; i++) {
        if (!same[i])
            continue;
        xf_ax ax = {0};
        if ((t[i].a ? xf_expr_copy(d->doc, &ax.a, t[i].a, xf_expr_root(t[i].a))
                    : xf_expr_real(d->doc, &ax.a, t[i].c)) == UINT32_MAX ||
            !xf_ref_copy(d->doc, &ax.x, y) || !XF_VEC_PUSH(d->doc->arena, op.ax, ax))
            return oom(d);
    }
    return XF_VEC_PUSH(d->doc->arena, ops->u.dp, op) ? 0 : oom(d);
}

/* The adjoint of y = Σ a·x (@overwrite) or y += Σ a·x, appended to @ops.
 * Terms whose x is y itself scale ȳ once the others have read it; a term
 * that may share storage with y without being y goes through a copy of ȳ
 * in an OpenAD_prp_* temporary. */
static int
adjoint_op(adj *d, xf_stmt *ops, const xf_varref *y, const term *t, uint32_t n, bool overwrite)
{
    bool same[64], alias = false, any_same = false;
    const char *ys = xf_ref_sig(d->doc, y);
    for (uint32_t i = 0; i < n; i++) {
        const char *xs = xf_ref_sig(d->doc, t[i].x);
        same[i] = ys && xs == ys;
        any_same = any_same || same[i];
        alias = alias || (!same[i] && may_alias(d, y, t[i].x));
        if (plain_scalar(t[i].x) && !plain_scalar(y) && xf_varref_arrref(y) == NULL)
            return fail(d, "the adjoint of a scalar spread over an array is not supported", NULL);
    }
    if (!alias) {
        for (uint32_t i = 0; i < n; i++)
            if (!same[i] && saxpy(d, ops, &t[i], y, t[i].x))
                return -1;
        if (any_same)
            return scale(d, ops, y, t, same, n, overwrite);
        if (overwrite && simple_op(d, ops, XF_DP_ZERODERIV, y, NULL))
            return -1;
        return 0;
    }
    /* ȳ is also read through another reference: copy it first */
    if (xf_varref_arrref(y) && rank_of_ref(y) > 0)
        return fail(d, "an array section whose adjoint overlaps another reference", NULL);
    xf_symbol *ps = prp_temp(d, y);
    xf_varref *prp = ps ? xf_ref_new(d->doc, ps) : NULL;
    if (!prp)
        return oom(d);
    xf_mark_ref(prp, true, true);
    if (simple_op(d, ops, XF_DP_SETDERIV, prp, y) ||
        (overwrite && simple_op(d, ops, XF_DP_ZERODERIV, y, NULL)))
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        term ti = t[i];
        ti.zero = false; /* x may be y: not known zero */
        if (saxpy(d, ops, &ti, prp, ti.x))
            return -1;
    }
    return 0;
}

/* The adjoint of one DerivativePropagator: pushes after it in the forward
 * sweep, one chunk (pops, transposed operations in reverse) for the adjoint. */
static int
propagator(adj *d, const xf_stmt *s)
{
    chunk_begin(d);
    stmtvec after = {0};
    xf_stmt *ops = xf_stmt_derivprop(d->doc);
    if (!ops)
        return oom(d);
    for (uint32_t k = s->u.dp.n; k-- > 0;) {
        const xf_dpop *op = &s->u.dp.v[k];
        if (xf_tbr_op_dead(d->tbr, op))
            continue; /* its target's adjoint is zero here */
        term t[64];
        uint32_t n = 0;
        const xf_varref *y = &op->tgt;
        bool overwrite = true;
        switch (op->kind) {
        case XF_DP_ZERODERIV: {
            xf_varref *r = adj_ref(d, &op->tgt, &after, &after);
            if (!r || simple_op(d, ops, XF_DP_ZERODERIV, r, NULL))
                return r ? -1 : oom(d);
            continue;
        }
        case XF_DP_SETDERIV:
        case XF_DP_SETNEGDERIV:
        case XF_DP_INCDERIV:
        case XF_DP_DECDERIV:
            t[n++] = (term){.c = op->kind == XF_DP_SETDERIV || op->kind == XF_DP_INCDERIV ? 1 : -1,
                            .x = &op->src,
                            .zero = xf_adjzero_first(d->zero, &op->src)};
            overwrite = op->kind == XF_DP_SETDERIV || op->kind == XF_DP_SETNEGDERIV;
            break;
        case XF_DP_SAX:
        case XF_DP_SAXPY:
            if (op->ax.n > 64)
                return fail(d, "a propagator with more than 64 terms", NULL);
            for (uint32_t i = 0; i < op->ax.n; i++) {
                t[n++] = (term){.a = &op->ax.v[i].a,
                                .x = &op->ax.v[i].x,
                                .zero = xf_adjzero_first(d->zero, &op->ax.v[i].x)};
                if (save_partial(d, &op->ax.v[i].a, &after))
                    return -1;
            }
            y = &op->y;
            overwrite = op->kind == XF_DP_SAX;
            break;
        }
        xf_varref *ya = adj_ref(d, y, &after, &after);
        if (!ya)
            return oom(d);
        for (uint32_t i = 0; i < n; i++) {
            xf_varref *xa = adj_ref(d, t[i].x, &after, &after);
            if (!xa)
                return oom(d);
            t[i].x = xa;
        }
        if (adjoint_op(d, ops, ya, t, n, overwrite))
            return -1;
    }
    for (uint32_t i = 0; i < after.n; i++)
        if (push_stmt(d, &d->fwd, after.v[i]))
            return -1;
    return chunk_end(d, &ops, ops->u.dp.n ? 1 : 0);
}

/* ------------------------------------------------------------ other statements */

/* Is @x one integer scalar variable (a call argument the callee's adjoint
 * may need: a count, a size of its work arrays)? */
static bool
int_scalar(const xf_expr *x)
{
    if (x->v.n != 1 || x->v.v[0].kind != XF_EV_VARREF || xf_varref_arrref(x->v.v[0].u.ref))
        return false;
    const xf_symref *s = xf_varref_symref(x->v.v[0].u.ref);
    return s && s->sym && s->sym->type == XF_TYPE_INTEGER && s->sym->shape == XF_SHAPE_SCALAR;
}

/* Is @x one element of an integer array (an int member of an array of
 * structs, k(i))? The adjoint sweep may not hold the forward sweep's
 * value there (under split reversal a caller's local array is made anew),
 * so its value is passed as a scalar's is: copied, pushed and popped. */
static bool
int_elem(const xf_expr *x)
{
    if (x->v.n != 1 || x->v.v[0].kind != XF_EV_VARREF || !xf_varref_arrref(x->v.v[0].u.ref))
        return false;
    const xf_symref *s = xf_varref_symref(x->v.v[0].u.ref);
    return s && s->sym && s->sym->type == XF_TYPE_INTEGER;
}

static void
mark_ref(adj *d, const xf_varref *r)
{
    const xf_symref *s = r ? xf_varref_symref(r) : NULL;
    if (s && s->sym && s->sym->index < d->doc->nsymbols)
        d->written[s->sym->index] = true;
}

static const xf_routine *
callee_of(const adj *d, const xf_symbol *sym)
{
    return xf_routine_of(d->doc, sym); /* NULL: not in the document, or not read yet */
}

static void
mark_stmt(adj *d, const xf_stmt *s)
{
    if (!s)
        return;
    if (s->kind == XF_STMT_ASSIGN)
        mark_ref(d, &s->u.as.lhs);
    const xf_arg_vec *args = s->kind == XF_STMT_CALL    ? &s->u.call.args
                             : s->kind == XF_STMT_ICALL ? &s->u.icall.args
                                                        : NULL;
    const xf_routine *callee = s->kind == XF_STMT_CALL ? callee_of(d, s->u.call.sym) : NULL;
    for (uint32_t i = 0; args && i < args->n; i++) {
        const xf_expr *x = &args->v[i].val;
        bool in = false;
        for (uint32_t k = 0; callee && k < callee->args.n; k++)
            if (callee->args.v[k].pos == args->v[i].pos)
                in = callee->args.v[k].intent == XF_INTENT_IN;
        for (uint32_t k = 0; !in && k < x->v.n; k++)
            if (x->v.v[k].kind == XF_EV_VARREF)
                mark_ref(d, x->v.v[k].u.ref);
    }
}

/* Does nothing in the routine write @s, a variable of its own (a local or
 * a formal): no assignment, loop header, call (but to a formal of intent
 * in) or inlinable call? Then the adjoint may read it as it is. */
static bool
unwritten(adj *d, const xf_symbol *s)
{
    if (!d->g || s->scope != d->rt->cfg_scope || s->index >= d->doc->nsymbols)
        return false;
    if (!d->written) {
        d->written = xf_arena_alloc(d->a, d->doc->nsymbols * sizeof *d->written);
        if (!d->written)
            return false;
        memset(d->written, 0, d->doc->nsymbols * sizeof *d->written);
        for (uint32_t i = 0; i < d->g->v.n; i++) {
            const xf_cvertex *v = d->g->v.v[i];
            mark_stmt(d, v->init);
            mark_stmt(d, v->update);
            for (uint32_t k = 0; k < v->stmts.n; k++)
                mark_stmt(d, v->stmts.v[k]);
        }
    }
    return !d->written[s->index];
}

/* A call: the subscripts of its arguments, and its integer scalar
 * arguments (the callee's adjoint sizes and counts with them), are copied
 * before it and pushed after it; the adjoint pops them and calls again
 * with the values of the forward call. */
static int
call(adj *d, xf_stmt *s)
{
    chunk_begin(d);
    stmtvec after = {0};
    xf_stmt *rc = xf_stmt_copy(d->doc, s);
    if (!rc)
        return oom(d);
    for (uint32_t i = 0; i < rc->u.call.args.n; i++) {
        xf_expr *x = &rc->u.call.args.v[i].val;
        if ((int_scalar(x) && !recomputable(d, x) &&
             !unwritten(d, xf_varref_symref(x->v.v[0].u.ref)->sym)) ||
            int_elem(x)) {
            xf_expr *slot = x;
            if (save(d, &slot, true, &d->fwd, &after))
                return -1;
            if (slot != x)
                *x = *slot;
            continue;
        }
        for (uint32_t k = 0; k < x->v.n; k++)
            if (x->v.v[k].kind == XF_EV_VARREF &&
                save_subscripts(d, x->v.v[k].u.ref, true, &d->fwd, &after))
                return -1;
    }
    if (push_stmt(d, &d->fwd, s))
        return -1;
    for (uint32_t i = 0; i < after.n; i++)
        if (push_stmt(d, &d->fwd, after.v[i]))
            return -1;
    return chunk_end(d, &rc, 1);
}

/* A derivative assignment (a direct action: d(b) = transpose(d(a))): its
 * adjoint d(a) += transpose(d(b)), then d(b) = 0. */
static int
direct(adj *d, const xf_stmt *s)
{
    const xf_expr *x = &s->u.as.rhs;
    uint32_t root = xf_expr_root(x);
    if (root == UINT32_MAX || x->v.v[root].kind != XF_EV_INTRINSIC || x->v.n != 2 ||
        x->v.v[1 - root].kind != XF_EV_VARREF ||
        strcmp(x->v.v[root].u.in.name, "transpose_arr") != 0)
        return fail(d, "no adjoint for the derivative assignment ", s->id);
    chunk_begin(d);
    stmtvec after = {0};
    xf_varref *a = adj_ref(d, x->v.v[1 - root].u.ref, &after, &after);
    xf_varref *b = adj_ref(d, &s->u.as.lhs, &after, &after);
    if (!a || !b)
        return oom(d);
    xf_expr rhs = {0};
    uint32_t ra = xf_expr_ref(d->doc, &rhs, xf_ref_dup(d->doc, a));
    uint32_t rb = xf_expr_ref(d->doc, &rhs, xf_ref_dup(d->doc, b));
    uint32_t tr = xf_expr_unary(d->doc, &rhs, "transpose_arr", rb);
    if (xf_expr_binary(d->doc, &rhs, "add_scal_scal", ra, tr) == UINT32_MAX)
        return oom(d);
    xf_stmt *as = xf_stmt_assign(d->doc, "adjoint_of_direct_action", a, &rhs);
    xf_stmt *z = xf_stmt_derivprop(d->doc);
    if (!as || !z || simple_op(d, z, XF_DP_ZERODERIV, b, NULL))
        return oom(d);
    for (uint32_t i = 0; i < after.n; i++)
        if (push_stmt(d, &d->fwd, after.v[i]))
            return -1;
    xf_stmt *body[2] = {as, z};
    return chunk_end(d, body, 2);
}

/* ------------------------------------------------------------ blocks */

static int
block(adj *d, xf_cvertex *v, xf_graph *rev)
{
    d->bb = v;
    memset(&d->fwd, 0, sizeof d->fwd);
    memset(&d->rev, 0, sizeof d->rev);
    memset(&d->chunks, 0, sizeof d->chunks);
    const xf_addr_code *ac = xf_addr_block(d->addr, v);
    for (uint32_t i = 0; ac && i < ac->first.n; i++)
        if (push_stmt(d, &d->fwd, ac->first.v[i]))
            return -1;
    for (uint32_t k = 0; k < v->stmts.n; k++) {
        xf_stmt *s = v->stmts.v[k];
        int ret = 0;
        d->k = k;
        switch (s->kind) {
        case XF_STMT_DERIVPROP:
            ret = propagator(d, s);
            break;
        case XF_STMT_CALL:
            ret = call(d, s);
            break;
        case XF_STMT_ASSIGN:
            if (xf_tbr_dead(d->tbr, s))
                break; /* a partial the adjoint recomputes */
            if (xf_flag_is(s->u.as.lhs.deriv, false))
                ret = direct(d, s);
            else
                ret = push_stmt(d, &d->fwd, s);
            break;
        case XF_STMT_ICALL:
        case XF_STMT_MARKER:
            ret = push_stmt(d, &d->fwd, s);
            break;
        }
        for (uint32_t i = 0; !ret && ac && i < ac->after[k].n; i++)
            ret = push_stmt(d, &d->fwd, ac->after[k].v[i]);
        if (ret)
            return -1;
    }
    for (uint32_t i = 0; ac && i < ac->last.n; i++)
        if (push_stmt(d, &d->fwd, ac->last.v[i]))
            return -1;
    const xf_stmt *const *hpush = NULL, *const *hpop = NULL;
    uint32_t nhpush = 0, nhpop = 0;
    xf_tbr_hands(d->tbr, v, &hpush, &nhpush, &hpop, &nhpop);
    for (uint32_t i = 0; i < nhpush; i++)
        if (push_stmt(d, &d->fwd, (xf_stmt *)hpush[i]))
            return -1;
    v->stmts.v = d->fwd.v;
    v->stmts.n = d->fwd.n;
    v->stmts.cap = d->fwd.cap;
    xf_cvertex *a = xf_graph_vertex(d->doc, rev, XF_CV_BASICBLOCK, v->id);
    if (!a)
        return oom(d);
    a->scope = v->scope;
    a->h.annotation = v->h.annotation;
    for (uint32_t i = 0; i < nhpop; i++)
        if (!XF_VEC_PUSH(d->doc->arena, a->stmts, (xf_stmt *)hpop[i]))
            return oom(d);
    for (uint32_t i = 0; ac && i < ac->head.n; i++)
        if (!XF_VEC_PUSH(d->doc->arena, a->stmts, ac->head.v[i]))
            return oom(d);
    for (uint32_t c = d->chunks.n; c-- > 0;) {
        uint32_t end = c + 1 < d->chunks.n ? d->chunks.v[c + 1] : d->rev.n;
        for (uint32_t i = d->chunks.v[c]; i < end; i++)
            if (!XF_VEC_PUSH(d->doc->arena, a->stmts, d->rev.v[i]))
                return oom(d);
    }
    for (uint32_t i = 0; ac && i < ac->tail.n; i++)
        if (!XF_VEC_PUSH(d->doc->arena, a->stmts, ac->tail.v[i]))
            return oom(d);
    return 0;
}

/* ------------------------------------------------------------ a block in pieces */

struct xf_adj_pieces {
    adj *d;
    stmtvec rev; /* a piece's adjoint, its chunks last first */
};

void
xf_adj_plans_off(void *state, bool off)
{
    ((adj *)state)->no_plans = off;
}

int
xf_adj_pieces_new(xf_pass_ctx *ctx, void *state, xf_routine *rt, xf_arena *scratch,
                  xf_adj_pieces **out)
{
    *out = NULL;
    xf_replacement *fwd = rt->is_rlist ? xf_placeholder(rt, "2") : NULL;
    if (!state || !fwd)
        return 0;
    xf_adj_pieces *p = calloc(1, sizeof *p);
    if (!p)
        return xf_pass_oom(ctx);
    static const adj_opts none = {0};
    adj *d = p->d = state;
    d->ctx = ctx;
    d->own = xf_pass_own_c(ctx->opts, &xf_pass_adjoin);
    if (!d->own)
        d->own = &none;
    d->doc = ctx->doc;
    d->a = scratch;
    d->rt = rt;
    d->scope = rt->cfg_scope;
    d->bb = NULL;
    for (uint32_t i = 0; i < fwd->g.v.n && !d->bb; i++)
        if (fwd->g.v.v[i]->kind == XF_CV_BASICBLOCK)
            d->bb = fwd->g.v.v[i];
    memset(&d->temps, 0, sizeof d->temps);
    d->addr = NULL; /* no whole-routine plan: every subscript and partial taped */
    d->tbr = NULL;
    d->zero = NULL;
    d->g = NULL;
    d->written = NULL;
    xf_loopscope_init(&d->loops, d->a);
    *out = p;
    return 0;
}

int
xf_adj_pieces_feed(xf_adj_pieces *p, xf_stmt *const *v, uint32_t n, xf_stmt ***fwd, uint32_t *nfwd,
                   xf_stmt ***rev, uint32_t *nrev)
{
    adj *d = p->d;
    memset(&d->fwd, 0, sizeof d->fwd);
    memset(&d->rev, 0, sizeof d->rev);
    memset(&d->chunks, 0, sizeof d->chunks);
    memset(&p->rev, 0, sizeof p->rev);
    for (uint32_t k = 0; k < n; k++) {
        xf_stmt *s = v[k];
        int ret = 0;
        d->k = k;
        switch (s->kind) {
        case XF_STMT_DERIVPROP:
            ret = propagator(d, s);
            break;
        case XF_STMT_CALL:
            ret = call(d, s);
            break;
        case XF_STMT_ASSIGN:
            ret = xf_flag_is(s->u.as.lhs.deriv, false) ? direct(d, s) : push_stmt(d, &d->fwd, s);
            break;
        case XF_STMT_ICALL:
        case XF_STMT_MARKER:
            ret = push_stmt(d, &d->fwd, s);
            break;
        }
        if (ret)
            return -1;
    }
    for (uint32_t c = d->chunks.n; c-- > 0;) {
        uint32_t end = c + 1 < d->chunks.n ? d->chunks.v[c + 1] : d->rev.n;
        for (uint32_t i = d->chunks.v[c]; i < end; i++)
            if (push_stmt(d, &p->rev, d->rev.v[i]))
                return -1;
    }
    *fwd = d->fwd.v;
    *nfwd = d->fwd.n;
    *rev = p->rev.v;
    *nrev = p->rev.n;
    return 0;
}

void
xf_adj_pieces_free(xf_adj_pieces *p)
{
    if (p)
        p->d->a = NULL;
    free(p);
}

/* Every block of @t in execution order (the tree's pre-order), with the
 * explicitly reversed loops around it in d->loops. */
static int
blocks(adj *d, const xf_cfgtree *t, xf_graph *rev)
{
    for (uint32_t i = 0; i < t->all.n; i++) {
        const xf_region *r = t->all.v[i];
        if (!xf_loopscope_move(&d->loops, r))
            return oom(d);
        if (r->kind == XF_RG_BLOCK && block(d, r->v, rev))
            return -1;
    }
    return 0;
}

/* What xf_tbr_plan is to leave out, and whether the routine's sweeps run
 * in one activation (--reversal joint of pass template, or the entry of a
 * split adjoint) or have only the entry's code between them (revjoint.h). */
static unsigned
tape_flags(const adj *d)
{
    const xf_iw_opts *iw = d->ctx->opts ? xf_pass_own_c(d->ctx->opts, &xf_pass_iterwise) : NULL;
    bool iter = iw && (iw->iterwise || iw->loops_auto || iw->dry_run);
    return d->own->tape_off | (xf_revjoint(d->ctx, d->rt) ? XF_TAPE_JOINT : 0u) |
           (xf_revjoint_callee(d->ctx, d->rt) ? XF_TAPE_KEPT : 0u) |
           (iter ? XF_TAPE_OFF_REGION : 0u);
}

static int
routine(adj *d, xf_routine *rt)
{
    xf_replacement *fwd = xf_placeholder(rt, "2"), *rev = xf_placeholder(rt, "3");
    if (!fwd || !rev)
        return 0;
    d->rt = rt;
    d->scope = rt->cfg_scope;
    d->bb = NULL;
    memset(&d->temps, 0, sizeof d->temps);
    d->addr = NULL;
    d->tbr = NULL;
    d->zero = NULL;
    d->g = &fwd->g;
    d->written = NULL;
    xf_loopscope_init(&d->loops, d->a);
    xf_cfgtree t;
    if (d->no_plans) { /* a block set apart: no plan, no unwritten variable */
        d->g = NULL;
        if (xf_cfgtree_parse(&fwd->g, d->a, &t))
            return blocks(d, &t, &rev->g);
        for (uint32_t i = 0; i < fwd->g.v.n; i++)
            if (fwd->g.v.v[i]->kind == XF_CV_BASICBLOCK && block(d, fwd->g.v.v[i], &rev->g))
                return -1;
        return 0;
    }
    if (!d->own->addr_store && xf_addr_exit_block(d->doc, rt, &fwd->g))
        return oom(d);
    if (xf_cfgtree_parse(&fwd->g, d->a, &t)) {
        if (!(d->own->tape_off & XF_TAPE_OFF_INVERT) &&
            xf_tbr_invert_loops(d->doc, rt, &t, d->a, NULL))
            return oom(d);
        if (!d->own->addr_store && xf_addr_plan(d->doc, rt, &fwd->g, &t, d->a, &d->nsym, &d->addr))
            return oom(d);
        if (xf_tbr_plan(d->doc, rt, &fwd->g, &t, d->addr, tape_flags(d), d->a, &d->tbr) ||
            xf_adjzero_plan(d->doc, rt, &fwd->g, d->tbr, d->a, &d->zero))
            return oom(d);
        return blocks(d, &t, &rev->g);
    }
    /* unstructured: no loop is reversed explicitly, every block in graph order */
    xf_loopscope_init(&d->loops, d->a);
    if (xf_tbr_plan(d->doc, rt, &fwd->g, NULL, NULL, tape_flags(d), d->a, &d->tbr) ||
        xf_adjzero_plan(d->doc, rt, &fwd->g, d->tbr, d->a, &d->zero))
        return oom(d);
    for (uint32_t i = 0; i < fwd->g.v.n; i++)
        if (fwd->g.v.v[i]->kind == XF_CV_BASICBLOCK && block(d, fwd->g.v.v[i], &rev->g))
            return -1;
    return 0;
}

/* The temporaries' counters run over the document: state from begin to end. */
static int
begin(xf_pass_ctx *ctx)
{
    return (ctx->state = calloc(1, sizeof(adj))) ? 0 : xf_pass_oom(ctx);
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    adj *d = ctx->state;
    if (!rt->is_rlist)
        return 0;
    static const adj_opts none = {0};
    d->ctx = ctx;
    d->own = xf_pass_own_c(ctx->opts, &xf_pass_adjoin);
    if (!d->own)
        d->own = &none;
    d->doc = ctx->doc;
    d->a = ctx->scratch;
    int ret = routine(d, rt);
    d->a = NULL;
    return ret;
}

static void
end(xf_pass_ctx *ctx)
{
    free(ctx->state);
}

static int
parse_tape_off(xf_opts *o, void *own, const char *arg, char *err, size_t len)
{
    (void)o;
    return xf_tbr_parse_off(&((adj_opts *)own)->tape_off, arg, err, len);
}

static int
parse_recovery(xf_opts *o, void *own, const char *arg, char *err, size_t len)
{
    (void)o;
    if (!strcmp(arg, "recover") || !strcmp(arg, "store")) {
        ((adj_opts *)own)->addr_store = !strcmp(arg, "store");
        return 0;
    }
    snprintf(err, len, "unknown address recovery '%s' (recover or store)", arg);
    return -1;
}

static const xf_pass_opt opts[] = {
    {.name = "address-recovery",
     .arg = "HOW",
     .help = "recover (the default): subscripts that read local\n"
             "integers are recovered in the adjoint by inverting\n"
             "or recomputing their assignments, stored only where\n"
             "neither works; store: every one is taped (push_i_s0)\n",
     .parse = parse_recovery},
    {.name = "tape-off",
     .arg = "LIST",
     .help = "tape savings to leave out (comma-separated): invert\n"
             "(loops whose update the adjoint inverts instead of\n"
             "taping their trip count and subscripts), values\n"
             "(partials recomputed from values nothing\n"
             "overwrites), live (derivative operations nothing\n"
             "reads), cut (partials taped as the values they come\n"
             "from), all, none\n",
     .parse = parse_tape_off},
    {0},
};

static const char *const after[] = {"template", "preaccumulate", NULL};

const xf_pass xf_pass_adjoin = {
    .name = "adjoin",
    .summary = "the adjoint of each basic block; the taping of what it needs",
    .help = "In placeholder 2 each DerivativePropagator is replaced by pushes of the\n"
            "partials it uses (push_s0/s1/s2) and of the subscripts the adjoint cannot\n"
            "recompute (push_i_s0); subscripts of call arguments, and integer scalar\n"
            "arguments that the routine may change, are pushed after the call. Placeholder 3 "
            "receives, per basic block, its adjoint: the pops, the\n"
            "transposed propagation in reverse order (Saxpy x += a*y, ZeroDeriv y) and\n"
            "the calls again. The pass reverse builds the control flow around them.\n"
            "Subscripts reading local integers that only assignments in basic blocks\n"
            "write are recovered instead by the token game of address recovery (Utke et\n"
            "al., paper 003): invert, else recompute, else store the value that helps most.\n",
    .after = after,
    .once = true,
    .opts = opts,
    .own_size = sizeof(adj_opts),
    .breaks = "the control flow of placeholder 3 (its blocks have no edges) until reverse",
    .breaks_ir = XF_IR_FLOW,
    .run_routine = run_routine,
    .begin = begin,
    .end = end,
};
