/* tbr_live.c: adjoint liveness (Naumann et al. [002] §3, D6; see tbr.h).
 *
 * Dead derivative operations. A propagator's operation that sets the
 * derivative of y has no adjoint worth running when y's derivative is
 * never read after it: its adjoint would add a·ȳ with ȳ zero, and zero ȳ
 * again. Taken for y a real scalar local of the routine (not an argument:
 * the caller reads those) that no statement outside y's block reads or
 * writes, no call is passed, no direct action touches; and, inside the
 * block, after the operation (and around to it again, for a block in a
 * loop) the first operation that touches y's derivative overwrites it
 * without reading it. The partials of such operations are not taped.
 *
 * Dead forward assignments. An assignment to a real scalar local (right-
 * hand side without function calls) leaves the taping sweep when nothing
 * that stays reads the variable: roots are every other statement, every
 * condition and loop header, and the partials the remaining operations
 * tape; what an assignment that stays reads stays too (a mark over the
 * variables, linear in the routine). The partials tbr_values.c recomputes
 * are gone already. Integer assignments stay: address recovery
 * (addr_*.c) counts on them.
 *
 * "Local" is xf_is_private: in a routine that hosts internal procedures,
 * which read and write its variables with no argument (Fortran's
 * CONTAINS), only the transformation's temporaries are; the source's
 * variables are reached by every call, as globals are. */
#include <string.h>

#include "tbr_impl.h"

/* What the routine does with a variable. */
typedef struct info {
    const xf_cvertex *block;      /* the one block that touches it, or NULL */
    bool elsewhere;               /* touched outside a block or in two blocks */
    bool needed;                  /* the mark: read by something that stays */
    XF_VEC(const xf_stmt *) defs; /* candidate assignments to it */
} info;

typedef struct lv {
    const xf_routine *rt;
    bool host;     /* the routine hosts internal procedures: only temporaries are private */
    xf_arena *a;   /* the analysis' own tables, freed on return */
    xf_arena *out; /* the plan's */
    xf_tbr *plan;
    xf_map infos; /* symbol -> info */
    XF_VEC(const xf_symbol *) work;
    uint64_t budget; /* statements the dead operations' scans may still look at */
} lv;

static info *
info_of(lv *p, const xf_symbol *s)
{
    info *f = xf_map_get(&p->infos, s);
    if (f)
        return f;
    f = XF_NEW(p->a, info);
    if (!f)
        return NULL;
    memset(f, 0, sizeof *f);
    return xf_map_put(&p->infos, p->a, s, f, NULL) ? f : NULL;
}

/* ------------------------------------------------------------ where each variable is touched */

typedef struct touch {
    lv *p;
    const xf_cvertex *bb; /* NULL: not in a block */
} touch;

/* Each variable a reference reaches is touched in the block, or elsewhere
 * when passed to a call (its subscripts too). */
static xf_walk_go
touch_step(void *ctx, const xf_walk_step *s)
{
    const touch *t = ctx;
    const xf_symbol *sym = s->ref ? xf_tbr_sym(s->ref) : NULL;
    if (!sym)
        return XF_WALK_GO;
    const xf_cvertex *bb = s->in_arg ? NULL : t->bb;
    info *f = info_of(t->p, sym);
    if (!f)
        return XF_WALK_STOP;
    if (!bb || (f->block && f->block != bb))
        f->elsewhere = true;
    f->block = bb ? bb : f->block;
    return XF_WALK_GO;
}

static bool
touch_ref(lv *p, const xf_cvertex *bb, const xf_varref *r)
{
    touch t = {p, bb};
    return xf_walk_ref(r, XF_WALK_ARGS, touch_step, &t) == 0;
}

static bool
touch_expr(lv *p, const xf_cvertex *bb, const xf_expr *x)
{
    touch t = {p, bb};
    return xf_walk_expr(x, XF_WALK_ARGS, touch_step, &t) == 0;
}

/* @bb NULL: not in a block (a header, or passed to a call). */
static bool
touch_stmt(lv *p, const xf_cvertex *bb, const xf_stmt *s)
{
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        return touch_ref(p, bb, &s->u.as.lhs) && touch_expr(p, bb, &s->u.as.rhs);
    case XF_STMT_CALL:
    case XF_STMT_ICALL: {
        const xf_arg_vec *args = s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args;
        for (uint32_t k = 0; k < args->n; k++)
            if (!touch_expr(p, NULL, &args->v[k].val))
                return false;
        return true;
    }
    case XF_STMT_DERIVPROP:
        for (uint32_t k = 0; k < s->u.dp.n; k++) {
            const xf_dpop *op = &s->u.dp.v[k];
            if (!touch_ref(p, bb, &op->tgt) || !touch_ref(p, bb, &op->src) ||
                !touch_ref(p, bb, &op->y))
                return false;
            for (uint32_t j = 0; j < op->ax.n; j++)
                if (!touch_ref(p, bb, &op->ax.v[j].x) || !touch_expr(p, bb, &op->ax.v[j].a))
                    return false;
        }
        return true;
    case XF_STMT_MARKER:
        return true;
    }
    return true;
}

/* ------------------------------------------------------------ dead operations */

static bool
is_sym(const xf_varref *r, const xf_symbol *y)
{
    return xf_tbr_sym(r) == y;
}

/* The target of @op whose derivative it sets (NULL for none). */
static const xf_varref *
target(const xf_dpop *op)
{
    return op->kind == XF_DP_SAX || op->kind == XF_DP_SAXPY ? &op->y : &op->tgt;
}

/* How @op touches y's derivative: 0 not, 1 reads it, 2 overwrites it unread. */
static int
op_touch(const xf_dpop *op, const xf_symbol *y)
{
    bool reads = false;
    if (op->kind == XF_DP_SAX || op->kind == XF_DP_SAXPY) {
        for (uint32_t j = 0; j < op->ax.n; j++)
            reads = reads || is_sym(&op->ax.v[j].x, y);
    } else if (op->kind != XF_DP_ZERODERIV) {
        reads = is_sym(&op->src, y);
    }
    bool tgt = is_sym(target(op), y);
    bool accumulates =
        op->kind == XF_DP_SAXPY || op->kind == XF_DP_INCDERIV || op->kind == XF_DP_DECDERIV;
    if (reads || (tgt && accumulates))
        return 1;
    return tgt ? 2 : 0;
}

/* How statement @s touches y's derivative (a direct action or a call reads
 * it); operations found dead already do not. */
static int
stmt_touch(const xf_tbr *plan, const xf_stmt *s, const xf_symbol *y, uint32_t from)
{
    if (s->kind == XF_STMT_DERIVPROP) {
        for (uint32_t k = from; k < s->u.dp.n; k++) {
            if (xf_map_get(&plan->deadop, &s->u.dp.v[k]))
                continue;
            int t = op_touch(&s->u.dp.v[k], y);
            if (t)
                return t;
        }
        return 0;
    }
    if (s->kind == XF_STMT_ASSIGN && xf_flag_is(s->u.as.lhs.deriv, false)) {
        const xf_expr *x = &s->u.as.rhs;
        for (uint32_t v = 0; v < x->v.n; v++)
            if (x->v.v[v].kind == XF_EV_VARREF && is_sym(x->v.v[v].u.ref, y))
                return 1;
        return is_sym(&s->u.as.lhs, y) ? 1 : 0;
    }
    return 0; /* a value assignment does not touch derivatives */
}

/* Is y's derivative, set by operation @o of statement @k of @bb, never
 * read? No (not known) once the budget is spent. */
static bool
op_dead(const xf_tbr *plan, const xf_cvertex *bb, uint32_t k, uint32_t o, const xf_symbol *y,
        uint64_t *budget)
{
    uint32_t n = bb->stmts.n;
    /* after it, then around from the block's start back to it */
    for (uint32_t step = 0; step <= n; step++) {
        if (*budget == 0)
            return false;
        --*budget;
        uint32_t j = (k + step) % n;
        uint32_t from = step == 0 ? o + 1 : 0;
        const xf_stmt *s = bb->stmts.v[j];
        if (step == n) {
            /* statement k again, up to the operation itself */
            for (uint32_t q = 0; q < o; q++) {
                if (xf_map_get(&plan->deadop, &s->u.dp.v[q]))
                    continue;
                int t = op_touch(&s->u.dp.v[q], y);
                if (t)
                    return t == 2;
            }
            return true;
        }
        int t = stmt_touch(plan, s, y, from);
        if (t)
            return t == 2;
    }
    return true;
}

/* One sweep over @bb's operations; *@more: one was found dead. */
static bool
dead_ops(lv *p, const xf_cvertex *bb, bool *more)
{
    for (uint32_t k = 0; k < bb->stmts.n; k++) {
        const xf_stmt *s = bb->stmts.v[k];
        if (s->kind != XF_STMT_DERIVPROP)
            continue;
        for (uint32_t o = 0; o < s->u.dp.n; o++) {
            const xf_dpop *op = &s->u.dp.v[o];
            const xf_varref *t = target(op);
            const xf_symbol *y = xf_tbr_sym(t);
            const info *f = y ? xf_map_get(&p->infos, y) : NULL;
            if (!y || !f || f->elsewhere || f->block != bb || xf_varref_arrref(t) || t->v.n != 1 ||
                y->type != XF_TYPE_REAL || xf_shape_rank(y->shape) > 0 ||
                !xf_is_private(p->rt, p->host, y) || xf_map_get(&p->plan->deadop, op) ||
                !op_dead(p->plan, bb, k, o, y, &p->budget))
                continue;
            if (!xf_map_put(&p->plan->deadop, p->out, op, (void *)op, NULL))
                return false;
            p->plan->dead_ops++;
            *more = true;
        }
    }
    return true;
}

/* ------------------------------------------------------------ dead assignments */

/* May assignment @s leave the taping sweep if nothing reads its target? */
static bool
candidate(const lv *p, const xf_stmt *s)
{
    if (s->kind != XF_STMT_ASSIGN || xf_flag_is(s->u.as.lhs.deriv, false) ||
        xf_map_get(&p->plan->dead, s))
        return false;
    const xf_varref *l = &s->u.as.lhs;
    const xf_symbol *y = xf_tbr_sym(l);
    if (!y || xf_varref_arrref(l) || l->v.n != 1 || y->type != XF_TYPE_REAL ||
        xf_shape_rank(y->shape) > 0 || !xf_is_private(p->rt, p->host, y))
        return false;
    const xf_expr *x = &s->u.as.rhs;
    for (uint32_t v = 0; v < x->v.n; v++)
        if (x->v.v[v].kind == XF_EV_FUNCALL || x->v.v[v].kind == XF_EV_ARGREF ||
            (x->v.v[v].kind == XF_EV_VARREF && xf_flag_is(x->v.v[v].u.ref->deriv, false)))
            return false;
    return true;
}

typedef struct need {
    lv *p;
    bool value; /* the value of the walk's own reference is read */
} need;

/* Each variable whose value a reference reaches reads is needed: the walk's
 * own reference as said, a call's argument, a reference in an expression
 * unless it names a derivative. */
static xf_walk_go
need_step(void *ctx, const xf_walk_step *s)
{
    const need *n = ctx;
    if (!s->ref)
        return XF_WALK_GO;
    bool value = s->vertex ? !xf_flag_is(s->ref->deriv, false) : s->in_arg || n->value;
    const xf_symbol *sym = value ? xf_tbr_sym(s->ref) : NULL;
    if (!sym)
        return XF_WALK_GO;
    info *f = info_of(n->p, sym);
    if (!f)
        return XF_WALK_STOP;
    if (!f->needed) {
        f->needed = true;
        if (!XF_VEC_PUSH(n->p->a, n->p->work, sym))
            return XF_WALK_STOP;
    }
    return XF_WALK_GO;
}

/* The value of @r is read (@value), or only its subscripts (a derivative). */
static bool
need_ref_as(lv *p, const xf_varref *r, bool value)
{
    need n = {p, value};
    return xf_walk_ref(r, XF_WALK_ARGS, need_step, &n) == 0;
}

static bool
need_ref(lv *p, const xf_varref *r)
{
    return need_ref_as(p, r, true);
}

static bool
need_expr(lv *p, const xf_expr *x)
{
    need n = {p, true};
    return xf_walk_expr(x, XF_WALK_ARGS, need_step, &n) == 0;
}

/* What statement @s, which stays, reads (all of it but a plain target). */
static bool
need_stmt(lv *p, const xf_stmt *s)
{
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        /* the target's subscripts are read; a whole target is written */
        if (xf_varref_arrref(&s->u.as.lhs) || s->u.as.lhs.v.n != 1 ||
            !xf_is_private(p->rt, p->host, xf_tbr_sym(&s->u.as.lhs)))
            if (!need_ref(p, &s->u.as.lhs))
                return false;
        return need_expr(p, &s->u.as.rhs);
    case XF_STMT_CALL:
    case XF_STMT_ICALL: {
        const xf_arg_vec *args = s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args;
        for (uint32_t k = 0; k < args->n; k++)
            if (!need_expr(p, &args->v[k].val))
                return false;
        return true;
    }
    case XF_STMT_DERIVPROP:
        /* the partials the adjoint of each remaining operation tapes, and
         * the subscripts of its references */
        for (uint32_t k = 0; k < s->u.dp.n; k++) {
            const xf_dpop *op = &s->u.dp.v[k];
            if (xf_map_get(&p->plan->deadop, op))
                continue;
            if (!need_ref_as(p, &op->tgt, false) || !need_ref_as(p, &op->src, false) ||
                !need_ref_as(p, &op->y, false))
                return false;
            for (uint32_t j = 0; j < op->ax.n; j++) {
                const xf_expr *a = &op->ax.v[j].a;
                const xf_symbol *as = a->v.n == 1 && a->v.v[0].kind == XF_EV_VARREF
                                          ? xf_tbr_sym(a->v.v[0].u.ref)
                                          : NULL;
                const xf_tbr_cut *c = as ? xf_map_get(&p->plan->cut, as) : NULL;
                const xf_stmt *rd = as ? xf_map_get(&p->plan->recomp, as) : NULL;
                bool recomputed = c || rd;
                /* the adjoint's repeat reads what it reads (tbr_values.c's
                 * stable_once: a local that one assignment writes) */
                if (rd && !c && !need_expr(p, &rd->u.as.rhs))
                    return false;
                for (uint32_t m = 0; c && m < c->leaf.n; m++)
                    if (!need_ref(p, c->leaf.v[m])) /* taped at the propagator */
                        return false;
                if (!need_ref_as(p, &op->ax.v[j].x, false) || (!recomputed && !need_expr(p, a)))
                    return false;
            }
        }
        return true;
    case XF_STMT_MARKER:
        return true;
    }
    return true;
}

/* 0, or 1 when the mark gave up (nothing left out), -1 out of memory. */
static int
dead_stmts(lv *p, const xf_graph *g)
{
    /* the candidates by target; every other statement and header is a root */
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            const xf_stmt *s = v->stmts.v[k];
            if (xf_map_get(&p->plan->dead, s))
                continue;
            if (candidate(p, s)) {
                info *f = info_of(p, xf_tbr_sym(&s->u.as.lhs));
                if (!f || !XF_VEC_PUSH(p->a, f->defs, s))
                    return -1;
            } else if (!need_stmt(p, s)) {
                return 1;
            }
        }
        if ((v->init && !need_stmt(p, v->init)) || (v->update && !need_stmt(p, v->update)) ||
            (v->cond && !need_expr(p, v->cond)))
            return 1;
    }
    /* what the assignments to a needed variable read is needed */
    while (p->work.n) {
        const info *f = xf_map_get(&p->infos, p->work.v[--p->work.n]);
        for (uint32_t k = 0; f && k < f->defs.n; k++)
            if (!need_stmt(p, f->defs.v[k]))
                return 1;
    }
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            const xf_stmt *s = v->stmts.v[k];
            if (!candidate(p, s))
                continue;
            const info *f = xf_map_get(&p->infos, xf_tbr_sym(&s->u.as.lhs));
            if (f && f->needed)
                continue;
            if (!xf_map_put(&p->plan->dead, p->out, s, (void *)s, NULL))
                return -1;
            p->plan->dead_stmts++;
        }
    }
    return 0;
}

/* What the routine touches where; false when too deep to look at. */
static bool
touches(lv *p, const xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        bool bb = v->kind == XF_CV_BASICBLOCK;
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            const xf_stmt *s = v->stmts.v[k];
            bool call = s->kind == XF_STMT_CALL || s->kind == XF_STMT_ICALL;
            if (!touch_stmt(p, bb && !call ? v : NULL, s))
                return false;
        }
        if ((v->init && !touch_stmt(p, NULL, v->init)) ||
            (v->update && !touch_stmt(p, NULL, v->update)) ||
            (v->cond && !touch_expr(p, NULL, v->cond)))
            return false;
    }
    return true;
}

static int
dead_ops_all(lv *p, const xf_graph *g)
{
    if (!touches(p, g))
        return 0; /* too deep to look at: keep everything */
    p->budget = 16;
    for (uint32_t i = 0; i < g->v.n; i++)
        p->budget += 64 * ((uint64_t)g->v.v[i]->stmts.n + 1);
    /* an operation found dead reads nothing: sweep again until none is */
    for (bool more = true; more;) {
        more = false;
        for (uint32_t i = 0; i < g->v.n; i++)
            if (g->v.v[i]->kind == XF_CV_BASICBLOCK && !dead_ops(p, g->v.v[i], &more))
                return -1;
    }
    return 0;
}

/* The analysis' tables (a variable's blocks and assignments, about 100
 * bytes a symbol) live in an arena of their own that dies on return: only
 * the plan stays in @a (issue 26: 41 of adjoin's 98 MB on a block of
 * 300 000 assignments). A refusal of that arena is one of @a's. */
static int
with_own_arena(const xf_routine *rt, bool host, const xf_graph *g, xf_arena *a, xf_tbr *plan,
               int (*f)(lv *, const xf_graph *))
{
    lv p = {.rt = rt, .host = host, .a = xf_arena_new_like(a), .out = a, .plan = plan};
    if (!p.a)
        return -1;
    int r = f(&p, g);
    if (xf_arena_failed(p.a))
        r = -1;
    xf_arena_free(p.a);
    return r < 0 ? -1 : 0;
}

int
xf_tbr_dead_ops_into(const xf_routine *rt, bool host, const xf_graph *g, xf_arena *a, xf_tbr *plan)
{
    return with_own_arena(rt, host, g, a, plan, dead_ops_all);
}

int
xf_tbr_dead_stmts_into(const xf_routine *rt, bool host, const xf_graph *g, xf_arena *a,
                       xf_tbr *plan)
{
    return with_own_arena(rt, host, g, a, plan, dead_stmts);
}
