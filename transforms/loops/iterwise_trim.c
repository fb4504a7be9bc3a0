/* iterwise_trim.c: what a loop run twice need not compute (iterdry.h).
 *
 * A dry-run loop (F5, iterwise.c) runs untaped in the taping sweep and
 * again, taped and adjoined one iteration at a time, in the adjoint sweep.
 * The untaped run needs the program's statements only: once its pushes
 * are gone, the partials and preaccumulated products it computed are read
 * by nothing, and go. The run in the adjoint sweep needs only what the
 * iteration's tape and adjoint read: a value that only the program after
 * the loop read (a result of the loop, a reduction's increment) is read by
 * nothing in the adjoint sweep (the pass has checked that the adjoint
 * sweep outside the loop reads no value the loop writes), and goes too.
 * Reads are counted per variable (any element): conservative for arrays. */
#include <string.h>

#include "iterdry.h"

typedef struct counting {
    int32_t *c;
    uint32_t n;
    bool value;            /* the walk's own reference is read */
    const xf_symbol *self; /* not counted at the top: neither the walk's own
                              reference nor the expression's references */
    int32_t d;
} counting;

/* Each value a reference reads, counted by @d: not a derivative's, not
 * @self's at the top. */
static xf_walk_go
count_step(void *ctx, const xf_walk_step *s)
{
    const counting *g = ctx;
    const xf_symref *sr = s->ref ? xf_varref_symref(s->ref) : NULL;
    bool top = s->depth == 0 && !s->in_arg;
    bool value = top && !s->vertex ? g->value : true;
    if (sr && sr->sym && value && !xf_flag_is(s->ref->deriv, false) &&
        !(top && sr->sym == g->self) && sr->sym->index < g->n)
        g->c[sr->sym->index] += g->d;
    return XF_WALK_GO;
}

/* The value of @r (unless @value is false, or it names an adjoint) and its
 * subscripts. */
static void
ref_reads(int32_t *c, uint32_t n, const xf_varref *r, bool value, int32_t d)
{
    counting g = {c, n, value, NULL, d};
    (void)xf_walk_ref(r, XF_WALK_ARGS, count_step, &g);
}

/* What @x reads, its references to @self apart (not those in subscripts). */
static void
expr_reads(int32_t *c, uint32_t n, const xf_expr *x, const xf_symbol *self, int32_t d)
{
    counting g = {c, n, true, self, d};
    (void)xf_walk_expr(x, XF_WALK_ARGS, count_step, &g);
}

static const xf_symbol *
lhs_sym(const xf_stmt *st)
{
    const xf_symref *s = st->kind == XF_STMT_ASSIGN ? xf_varref_symref(&st->u.as.lhs) : NULL;
    return s ? s->sym : NULL;
}

/* Calls that assign their argument: pop*, ckp_restore_*, ckp_top. */
static bool
assigns_arg(const xf_stmt *st)
{
    const char *nm = st->kind == XF_STMT_ICALL ? st->u.icall.name : NULL;
    return nm &&
           (!strncmp(nm, "pop", 3) || !strncmp(nm, "ckp_restore", 11) || !strcmp(nm, "ckp_top"));
}

static void
stmt_reads(int32_t *c, uint32_t n, const xf_stmt *st, int32_t d, bool own)
{
    if (!st)
        return;
    switch (st->kind) {
    case XF_STMT_ASSIGN:
        ref_reads(c, n, &st->u.as.lhs, false, d);
        expr_reads(c, n, &st->u.as.rhs, own ? NULL : lhs_sym(st), d);
        return;
    case XF_STMT_CALL:
    case XF_STMT_ICALL: {
        const xf_arg_vec *args = st->kind == XF_STMT_CALL ? &st->u.call.args : &st->u.icall.args;
        bool pop = assigns_arg(st);
        for (uint32_t k = 0; k < args->n; k++) {
            const xf_expr *x = &args->v[k].val;
            if (pop && x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF)
                ref_reads(c, n, x->v.v[0].u.ref, false, d);
            else
                expr_reads(c, n, x, NULL, d);
        }
        return;
    }
    case XF_STMT_DERIVPROP:
        for (uint32_t k = 0; k < st->u.dp.n; k++) {
            const xf_dpop *op = &st->u.dp.v[k];
            ref_reads(c, n, &op->tgt, false, d);
            ref_reads(c, n, &op->src, false, d);
            ref_reads(c, n, &op->y, false, d);
            for (uint32_t j = 0; j < op->ax.n; j++) {
                expr_reads(c, n, &op->ax.v[j].a, NULL, d);
                ref_reads(c, n, &op->ax.v[j].x, false, d);
            }
        }
        return;
    case XF_STMT_MARKER:
        return;
    }
}

void
xf_dry_stmt_reads(int32_t *c, uint32_t n, const xf_stmt *st, int32_t d)
{
    stmt_reads(c, n, st, d, false);
}

void
xf_dry_stmt_reads_own(int32_t *c, uint32_t n, const xf_stmt *st, int32_t d)
{
    stmt_reads(c, n, st, d, true);
}

const char *
xf_dry_snap_kind(const xf_symbol *s)
{
    switch (s->type) {
    case XF_TYPE_REAL:
        return "real";
    case XF_TYPE_INTEGER:
        return "integer";
    case XF_TYPE_BOOL:
        return "bool";
    default:
        return NULL;
    }
}

bool
xf_dry_inside(const xf_region *r, const xf_region *l)
{
    for (; r; r = r->parent)
        if (r == l)
            return true;
    return false;
}

int32_t *
xf_dry_counts(xf_pass_ctx *ctx, const xf_cfgtree *t, const xf_region *skip)
{
    uint32_t n = ctx->doc->nsymbols;
    int32_t *c = XF_NEW_ARRAY(ctx->scratch, n + 1, int32_t);
    if (!c)
        return NULL;
    for (uint32_t k = 0; k < t->all.n; k++) {
        const xf_region *r = t->all.v[k];
        if (skip && xf_dry_inside(r, skip))
            continue;
        const xf_cvertex *v = r->v;
        expr_reads(c, n, v->cond, NULL, 1);
        xf_dry_stmt_reads(c, n, v->init, 1);
        xf_dry_stmt_reads(c, n, v->update, 1);
        for (uint32_t j = 0; j < v->stmts.n; j++)
            xf_dry_stmt_reads(c, n, v->stmts.v[j], 1);
    }
    return c;
}

void
xf_dry_region_reads(int32_t *c, uint32_t n, const xf_region *r)
{
    const xf_cvertex *v = r->v;
    expr_reads(c, n, v->cond, NULL, 1);
    xf_dry_stmt_reads_own(c, n, v->init, 1);
    xf_dry_stmt_reads_own(c, n, v->update, 1);
    for (uint32_t j = 0; j < v->stmts.n; j++)
        xf_dry_stmt_reads_own(c, n, v->stmts.v[j], 1);
    for (uint32_t k = 0; k < r->body.v.n; k++)
        xf_dry_region_reads(c, n, r->body.v.v[k]);
    for (uint32_t a = 0; a < r->arms.n; a++)
        for (uint32_t k = 0; k < r->arms.v[a].body.v.n; k++)
            xf_dry_region_reads(c, n, r->arms.v[a].body.v.v[k]);
}

bool
xf_dry_local_input(xf_pass_ctx *ctx, const xf_loopdep *d, const xf_region *l2)
{
    uint32_t n = ctx->doc->nsymbols;
    int32_t *c = XF_NEW_ARRAY(ctx->scratch, n + 1, int32_t);
    if (!c)
        return true;
    xf_dry_region_reads(c, n, l2);
    for (uint32_t k = 0; k < d->written.n; k++)
        if (d->written.v[k]->index < n)
            c[d->written.v[k]->index] = 0;
    if (d->index && d->index->index < n)
        c[d->index->index] = 0;
    const xf_routine *rt = d->rt;
    const xf_scope *sc = rt->cfg_scope;
    for (uint32_t k = 0; sc && k < sc->syms.n; k++) {
        const xf_symbol *s = sc->syms.v[k];
        if (s->index >= n || !c[s->index] || s->kind != XF_SYMKIND_VARIABLE || xf_is_temporary(s))
            continue;
        bool formal = false;
        for (uint32_t a = 0; a < rt->args.n && !formal; a++)
            formal = rt->args.v[a].sym == s;
        if (!formal)
            return true;
    }
    return false;
}

/* Remove from @v's statements @from.. (up to @to, exclusive) the
 * assignments whose variable @c counts no read of (temporaries only,
 * unless @any), updating @c; true if one went. */
static bool
sweep(int32_t *c, uint32_t n, xf_cvertex *v, uint32_t from, uint32_t *to, bool any)
{
    bool gone = false;
    uint32_t w = from;
    for (uint32_t j = from; j < v->stmts.n; j++) {
        xf_stmt *st = v->stmts.v[j];
        const xf_symbol *s = j < *to ? lhs_sym(st) : NULL;
        if (s && s->index < n && c[s->index] <= 0 && (any || xf_is_temporary(s)) &&
            !(st->id && !strcmp(st->id, "_cfr_count"))) {
            xf_dry_stmt_reads(c, n, st, -1);
            gone = true;
            continue;
        }
        v->stmts.v[w++] = st;
    }
    *to -= v->stmts.n - w;
    v->stmts.n = w;
    return gone;
}

int
xf_dry_trim(xf_pass_ctx *ctx, const xf_cfgtree *t2, const xf_region *l2, const xf_cfgtree *t3,
            const xf_region *l3, uint32_t from, uint32_t nrun)
{
    uint32_t n = ctx->doc->nsymbols;
    /* the untaped run: temporaries that the taping sweep and the adjoint
     * sweep outside the loop (which runs the loop again) do not read */
    int32_t *c = xf_dry_counts(ctx, t2, NULL), *c3 = xf_dry_counts(ctx, t3, l3);
    if (!c || !c3)
        return -1;
    for (uint32_t k = 0; k < n; k++)
        c[k] += c3[k];
    for (bool again = true; again;) {
        again = false;
        for (uint32_t k = l2->index + 1; k < t2->all.n && xf_dry_inside(t2->all.v[k], l2); k++) {
            uint32_t to = UINT32_MAX;
            if (t2->all.v[k]->kind == XF_RG_BLOCK)
                again |= sweep(c, n, t2->all.v[k]->v, 0, &to, false);
        }
    }
    /* the run in the adjoint sweep: what the adjoint sweep does not read */
    if (!nrun || !l3 || !l3->body.v.n)
        return 0;
    c = xf_dry_counts(ctx, t3, NULL);
    if (!c)
        return -1;
    xf_cvertex *first = l3->body.v.v[0]->v;
    uint32_t to = from + nrun;
    while (sweep(c, n, first, from, &to, true))
        ;
    return 0;
}
