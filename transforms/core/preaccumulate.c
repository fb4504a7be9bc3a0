/* preaccumulate.c: per basic block, the linearized computational graph
 * (LCG, lcg.h) of the tangent propagation that linearize wrote, its local
 * Jacobian accumulated by vertex elimination (elim.h), and the propagation
 * rewritten with it (Naumann et al. [000] §3.1-3.3; xaifBooster's
 * BasicBlockPreaccumulation). This file writes the code.
 *
 * Four ways to emit a sequence are costed exactly, in the multiplications
 * and additions the emitted code will execute:
 *   none      the propagation as linearize wrote it (forward mode);
 *   statement each statement's temporaries eliminated (its local gradient);
 *   forward / reverse / Markowitz vertex elimination of every intermediate
 *             vertex, leaving the Jacobian from the sequence's inputs to its
 *             live outputs (OpenAD_acc_*), applied once at its end.
 * --elimination picks one; best (the default) the cheapest, where in an
 * adjoint's taping sweep each non-constant partial applied also counts
 * (it is a tape word: a push and a pop), and a tie goes to fewer of them;
 * there the propagation is costed as its adjoint runs it: each SetDeriv
 * an increment, each term of a Sax a multiplication and an addition.
 * There too a partial -(e) loses its negation (signs.h), and a term whose
 * weight stays -v goes through p.d = -x.d (negated). Needs: linearize.
 * Breaks: nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "elim.h"
#include "lcg.h"
#include "pass.h"
#include "pieces.h"
#include "signs.h"

typedef struct cost {
    uint64_t muls, adds;
    uint64_t words; /* non-constant weights applied: tape words in an adjoint */
} cost;

typedef struct pre {
    xf_pass_ctx *ctx;
    xf_doc *doc;
    xf_scope *scope;
    xf_lcg_walk *w; /* the walk over the routine's blocks */
    xf_lcg *g;      /* its graph: the sequence */
    unsigned nacc, nprp;
    XF_VEC(xf_stmt *) out;
    /* code being emitted, or costed when dry */
    bool dry;
    bool taped; /* the block is an adjoint's taping sweep: its partials go on the tape */
    cost c;
    const cost *limit; /* when dry: stop once c is no cheaper than this */
    bool over;         /* stopped so */
    XF_VEC(xf_stmt *) code;
    xf_stmt *dp;    /* the DerivativePropagator being filled */
    xf_signs signs; /* partials -(e) whose sign went into the graph (signs.h) */
} pre;

/* Is @a cheaper than @b? Operations count; in an adjoint's taping sweep
 * each non-constant weight also costs a tape word (a push and a pop), counted
 * like an operation; on a tie, fewer such weights. */
static bool
cheaper(const pre *p, const cost *a, const cost *b)
{
    uint64_t ca = a->muls + a->adds + (p->taped ? a->words : 0);
    uint64_t cb = b->muls + b->adds + (p->taped ? b->words : 0);
    return ca < cb || (ca == cb && a->words < b->words);
}

/* Costing an order dry stops (returns true) as soon as the cost so far is
 * no cheaper than the limit: costs only grow, so the order cannot win. */
static bool
past_limit(pre *p)
{
    if (p->dry && p->limit && !cheaper(p, &p->c, p->limit))
        p->over = true;
    return p->over;
}

/* ------------------------------------------------------------ code */

static int
oom(pre *p)
{
    return xf_pass_oom(p->ctx);
}

static xf_symbol *
fresh(pre *p, const char *prefix, unsigned *counter, int rank, bool active)
{
    return xf_fresh_symbol(
        p->doc, p->scope, prefix, counter, XF_TYPE_REAL,
        (xf_shape)(rank + 1 <= XF_SHAPE_SEVEN_TENSOR ? rank + 1 : XF_SHAPE_SEVEN_TENSOR), active);
}

/* Append "acc = a op b" (op NULL: "acc = a"); a and b are weights with
 * c = 1 or constants. */
static int
acc_assign(pre *p, xf_lcg_wt *out, const char *op, const xf_lcg_wt *a, const xf_lcg_wt *b, int rank)
{
    if (p->dry) {
        *out = (xf_lcg_wt){.c = 1.0, .var = (xf_symbol *)p, .rank = rank}; /* some variable */
        return 0;
    }
    xf_symbol *s = fresh(p, "OpenAD_acc_", &p->nacc, rank, false);
    xf_expr rhs = {0};
    uint32_t va = a->var ? xf_expr_ref(p->doc, &rhs, xf_ref_new(p->doc, a->var))
                         : xf_expr_real(p->doc, &rhs, a->c);
    uint32_t root = va;
    if (op && b) {
        uint32_t vb = b->var ? xf_expr_ref(p->doc, &rhs, xf_ref_new(p->doc, b->var))
                             : xf_expr_real(p->doc, &rhs, b->c);
        root = xf_expr_binary(p->doc, &rhs, op, va, vb);
    } else if (op)
        root = xf_expr_unary(p->doc, &rhs, op, va);
    xf_varref lhs;
    if (!s || root == UINT32_MAX || !xf_ref_init(p->doc, &lhs, s))
        return oom(p);
    for (uint32_t i = 0; i < rhs.v.n; i++)
        if (rhs.v.v[i].kind == XF_EV_VARREF)
            xf_mark_ref(rhs.v.v[i].u.ref, false, false);
    xf_mark_ref(&lhs, false, false);
    char id[64];
    snprintf(id, sizeof id, "_jacobian_accumulation_%u", p->nacc - 1);
    xf_stmt *st = xf_stmt_assign(p->doc, id, &lhs, &rhs);
    if (!st || !XF_VEC_PUSH(p->doc->arena, p->code, st))
        return oom(p);
    *out = (xf_lcg_wt){.c = 1.0, .var = s, .rank = rank};
    return 0;
}

/* Make @w a plain variable or constant (c = 1 when it has a variable). */
static int
plain(pre *p, xf_lcg_wt *w)
{
    if (!w->var || w->c == 1.0)
        return 0;
    xf_lcg_wt k = {.c = w->c}, v = {.c = 1.0, .var = w->var, .rank = w->rank};
    if (w->c == -1.0) {
        p->c.adds++;
        return acc_assign(p, w, "minus_scal", &v, NULL, w->rank);
    }
    p->c.muls++;
    return acc_assign(p, w, "mul_scal_scal", &k, &v, w->rank);
}

static int
product(pre *p, const xf_lcg_wt *a, const xf_lcg_wt *b, xf_lcg_wt *out)
{
    int rank = a->rank > b->rank ? a->rank : b->rank;
    if (!a->var || !b->var) {
        *out = (xf_lcg_wt){.c = a->c * b->c, .var = a->var ? a->var : b->var, .rank = rank};
        return 0;
    }
    xf_lcg_wt x = {.c = 1.0, .var = a->var, .rank = a->rank},
              y = {.c = 1.0, .var = b->var, .rank = b->rank};
    p->c.muls++;
    if (acc_assign(p, out, "mul_scal_scal", &x, &y, rank))
        return -1;
    out->c = a->c * b->c;
    return 0;
}

static int
sum(pre *p, const xf_lcg_wt *a, const xf_lcg_wt *b, xf_lcg_wt *out)
{
    int rank = a->rank > b->rank ? a->rank : b->rank;
    if (!a->var && !b->var) {
        *out = (xf_lcg_wt){.c = a->c + b->c, .rank = rank};
        return 0;
    }
    if (a->var && b->var && (a->c == b->c || a->c == -b->c)) {
        xf_lcg_wt x = {.c = 1.0, .var = a->var, .rank = a->rank},
                  y = {.c = 1.0, .var = b->var, .rank = b->rank};
        p->c.adds++;
        if (acc_assign(p, out, a->c == b->c ? "add_scal_scal" : "sub_scal_scal", &x, &y, rank))
            return -1;
        out->c = a->c;
        return 0;
    }
    xf_lcg_wt x = *a, y = *b;
    if (plain(p, &x) || plain(p, &y))
        return -1;
    p->c.adds++;
    return acc_assign(p, out, "add_scal_scal", &x, &y, rank);
}

static bool
is_unit(const xf_lcg_wt *w, double s)
{
    return !w->var && w->c == s;
}
/* ------------------------------------------------------------ propagation */

static xf_varref *
loc_ref(pre *p, uint32_t l)
{
    xf_varref *r = xf_ref_dup(p->doc, p->g->locs.v[l].ref);
    if (r)
        xf_mark_ref(r, true, true);
    return r;
}

/* Operations go to one propagator that follows all accumulation statements. */
static int
push_op(pre *p, xf_dpop *op)
{
    if (!p->dp && !(p->dp = xf_stmt_derivprop(p->doc)))
        return oom(p);
    return XF_VEC_PUSH(p->doc->arena, p->dp->u.dp, *op) ? 0 : oom(p);
}

static int
emit_pair(pre *p, xf_dpkind kind, uint32_t ytgt_loc, const xf_varref *tref, uint32_t src_loc)
{
    /* an adjoint runs each as an increment (x.d += y.d) */
    if (p->taped || kind == XF_DP_SETNEGDERIV || kind == XF_DP_INCDERIV || kind == XF_DP_DECDERIV)
        p->c.adds++;
    if (p->dry)
        return 0;
    xf_dpop op = {.kind = kind};
    xf_varref *t = tref ? xf_ref_dup(p->doc, tref) : loc_ref(p, ytgt_loc), *s = loc_ref(p, src_loc);
    if (!t || !s)
        return oom(p);
    xf_mark_ref(t, true, true);
    op.tgt = *t;
    op.src = *s;
    return push_op(p, &op);
}

/* Is @w a negated partial (-v) that an adjoint applies without negating v?
 * Its term a·x becomes (-v)·x = v·p with p.d = -x.d (SetNegDeriv into an
 * OpenAD_prp_* temporary): in the adjoint p̄ = v·ȳ (p̄ is zero: adjzero.h),
 * then x̄ -= p̄, a multiplication and an addition, where the negation, the
 * multiplication and the increment were three. The same as a plain term in
 * emit_sax's count; scalars only. */
static bool
negated(const pre *p, const xf_lcg_wt *w)
{
    return p->taped && w->var && w->c == -1.0 && w->rank == 0;
}

/* The temporary p with p.d = -x.d (pushed now: before the Sax that reads it). */
static xf_varref *
through_prp(pre *p, xf_varref *x)
{
    xf_symbol *t = fresh(p, "OpenAD_prp_", &p->nprp, 0, true);
    xf_varref *r = t ? xf_ref_new(p->doc, t) : NULL, *r2 = t ? xf_ref_new(p->doc, t) : NULL;
    if (!r || !r2) {
        oom(p);
        return NULL;
    }
    xf_mark_ref(r, true, true);
    xf_mark_ref(r2, true, true);
    xf_dpop op = {.kind = XF_DP_SETNEGDERIV, .tgt = *r, .src = *x};
    return push_op(p, &op) ? NULL : r2;
}

/* y.d = (y.d if accumulate +) sum of terms; the terms' weights are plain. */
static int
emit_sax(pre *p, bool accumulate, const xf_varref *yref, uint32_t yloc, const xf_lcg_ed *const *t,
         uint32_t nt)
{
    /* an adjoint runs one x.d += a*y.d per term */
    p->c.muls += nt;
    p->c.adds += p->taped ? nt : nt - 1 + (accumulate ? 1 : 0);
    for (uint32_t i = 0; i < nt; i++)
        p->c.words += t[i]->w.var != NULL;
    if (p->dry)
        return 0;
    xf_dpop op = {.kind = accumulate ? XF_DP_SAXPY : XF_DP_SAX};
    for (uint32_t i = 0; i < nt; i++) {
        xf_ax ax = {0};
        uint32_t a = t[i]->w.var ? xf_expr_ref(p->doc, &ax.a, xf_ref_new(p->doc, t[i]->w.var))
                                 : xf_expr_real(p->doc, &ax.a, t[i]->w.c);
        xf_varref *x = loc_ref(p, p->g->vs.v[t[i]->src].loc);
        if (a == UINT32_MAX || !x)
            return oom(p);
        if (negated(p, &t[i]->w) && !(x = through_prp(p, x)))
            return -1;
        if (t[i]->w.var)
            xf_mark_ref(ax.a.v.v[a].u.ref, false, false);
        ax.x = *x;
        if (!XF_VEC_PUSH(p->doc->arena, op.ax, ax))
            return oom(p);
    }
    xf_varref *y = yref ? xf_ref_dup(p->doc, yref) : loc_ref(p, yloc);
    if (!y)
        return oom(p);
    xf_mark_ref(y, true, true);
    op.y = *y;
    return push_op(p, &op);
}

/* The propagation of one vertex from its edges, written to @yref (or its
 * location): the cheapest of Sax / SetDeriv / increments that is safe. */
static int
emit_target(pre *p, uint32_t v, const xf_varref *yref)
{
    if (past_limit(p))
        return -1;
    xf_lcg_vx *x = &p->g->vs.v[v];
    uint32_t yl = x->loc;
    const xf_lcg_ed *t[256];
    uint32_t nt = 0;
    for (uint32_t i = 0; i < x->in.n; i++) {
        xf_lcg_ed *e = &p->g->es.v[x->in.v[i]];
        if (e->dead || (e->w.c == 0.0 && !e->w.var))
            continue;
        if (nt == 256) {
            xf_error(p->ctx->diag, p->doc->filename, p->w->where ? p->w->where->h.line : 0,
                     "more than 256 terms in one derivative");
            return -1;
        }
        /* a variable with a factor is made plain first (but for a negated
         * partial in an adjoint: see negated) */
        if (!negated(p, &e->w) && plain(p, &e->w))
            return -1;
        t[nt++] = e;
    }
    if (nt == 0) {
        if (p->dry)
            return 0;
        xf_dpop op = {.kind = XF_DP_ZERODERIV};
        xf_varref *r = yref ? xf_ref_dup(p->doc, yref) : loc_ref(p, yl);
        if (!r)
            return oom(p);
        xf_mark_ref(r, true, true);
        op.tgt = *r;
        return push_op(p, &op);
    }
    /* does the propagation read the location it writes? */
    const xf_lcg_ed *self = NULL;
    bool overlap = false;
    const xf_lcg_loc *yloc = &p->g->locs.v[yl];
    for (uint32_t i = 0; i < nt; i++) {
        uint32_t sl = p->g->vs.v[t[i]->src].loc;
        if (sl == yl && !yref) {
            if (!self && is_unit(&t[i]->w, 1.0))
                self = t[i];
            else
                overlap = true;
        } else if (!yref && xf_lcg_may_alias(p->g, &p->g->locs.v[sl], yloc))
            overlap = true;
    }
    if (overlap) /* everything in one Sax: it reads before it writes */
        return emit_sax(p, false, yref, yl, t, nt);
    const xf_lcg_ed *n1[256], *units[256];
    uint32_t nn = 0, nu = 0;
    for (uint32_t i = 0; i < nt; i++) {
        if (t[i] == self)
            continue;
        if (is_unit(&t[i]->w, 1.0) || is_unit(&t[i]->w, -1.0))
            units[nu++] = t[i];
        else
            n1[nn++] = t[i];
    }
    bool written = self != NULL;
    if (nn) {
        if (emit_sax(p, written, yref, yl, n1, nn))
            return -1;
        written = true;
    }
    for (uint32_t i = 0; i < nu; i++) {
        bool neg = is_unit(&units[i]->w, -1.0);
        xf_dpkind k = written ? (neg ? XF_DP_DECDERIV : XF_DP_INCDERIV)
                              : (neg ? XF_DP_SETNEGDERIV : XF_DP_SETDERIV);
        if (emit_pair(p, k, yl, yref, p->g->vs.v[units[i]->src].loc))
            return -1;
        written = true;
    }
    return 0;
}

/* Which vertices' derivatives the emitted code must compute: the needed
 * outputs and what non-eliminated vertices they depend on. */
static void
mark_needed(pre *p, uint8_t *need)
{
    uint32_t n = p->g->vs.n;
    for (uint32_t v = 0; v < n; v++)
        need[v] = !p->g->vs.v[v].gone && p->g->vs.v[v].final && p->g->vs.v[v].output;
    for (uint32_t v = n; v-- > 0;) {
        if (!need[v])
            continue;
        const xf_lcg_vx *x = &p->g->vs.v[v];
        for (uint32_t i = 0; i < x->in.n; i++)
            if (!p->g->es.v[x->in.v[i]].dead)
                need[p->g->es.v[x->in.v[i]].src] = 1;
    }
}

/* Emit after elimination in mode @m. With every intermediate eliminated, the
 * outputs are computed from the inputs' derivatives at the start, so an
 * output must not overwrite an input that another still reads: such outputs
 * go last, and a cycle goes through a temporary (OpenAD_prp_*). Otherwise
 * the vertices are computed in the order of the statements. */
static int
emit_propagation(pre *p, xf_elim_order m)
{
    uint32_t n = p->g->vs.n;
    uint8_t *need = XF_NEW_ARRAY(p->g->a, n ? n : 1, uint8_t);
    if (!need)
        return oom(p);
    mark_needed(p, need);
    if (m == XF_ORDER_NONE || m == XF_ORDER_STATEMENT) {
        for (uint32_t v = 0; v < n; v++)
            if (need[v] && !p->g->vs.v[v].indep && emit_target(p, v, NULL))
                return -1;
        return 0;
    }
    /* bipartite: order the outputs */
    uint32_t *todo = XF_NEW_ARRAY(p->g->a, n ? n : 1, uint32_t);
    if (!todo)
        return oom(p);
    uint32_t nt = 0;
    for (uint32_t v = 0; v < n; v++)
        if (need[v] && !p->g->vs.v[v].indep)
            todo[nt++] = v;
    typedef struct later {
        uint32_t v;
        xf_symbol *prp;
    } later;
    later *lat = XF_NEW_ARRAY(p->g->a, nt ? nt : 1, later);
    uint32_t nl = 0;
    while (nt) {
        uint32_t pick = UINT32_MAX;
        for (uint32_t i = 0; i < nt && pick == UINT32_MAX; i++) {
            const xf_lcg_loc *yl = &p->g->locs.v[p->g->vs.v[todo[i]].loc];
            bool clobbers = false;
            for (uint32_t j = 0; j < nt && !clobbers; j++) {
                if (j == i)
                    continue;
                const xf_lcg_vx *o = &p->g->vs.v[todo[j]];
                for (uint32_t k = 0; k < o->in.n && !clobbers; k++) {
                    const xf_lcg_ed *e = &p->g->es.v[o->in.v[k]];
                    if (e->dead)
                        continue;
                    uint32_t sl = p->g->vs.v[e->src].loc;
                    clobbers = sl == p->g->vs.v[todo[i]].loc ||
                               xf_lcg_may_alias(p->g, &p->g->locs.v[sl], yl);
                }
            }
            if (!clobbers)
                pick = i;
        }
        if (pick != UINT32_MAX) {
            if (emit_target(p, todo[pick], NULL))
                return -1;
        } else {
            /* a cycle: the first output goes through a temporary */
            pick = 0;
            uint32_t v = todo[0];
            xf_symbol *prp = NULL;
            xf_varref pref;
            if (!p->dry) {
                prp = fresh(p, "OpenAD_prp_", &p->nprp, p->g->locs.v[p->g->vs.v[v].loc].rank, true);
                if (!prp || !xf_ref_init(p->doc, &pref, prp))
                    return oom(p);
            }
            if (emit_target(p, v, p->dry ? NULL : &pref))
                return -1;
            lat[nl++] = (later){v, prp};
        }
        todo[pick] = todo[--nt];
    }
    for (uint32_t i = 0; i < nl; i++) {
        if (p->dry)
            continue;
        xf_dpop op = {.kind = XF_DP_SETDERIV};
        xf_varref *t = loc_ref(p, p->g->vs.v[lat[i].v].loc), *s = xf_ref_new(p->doc, lat[i].prp);
        if (!t || !s)
            return oom(p);
        xf_mark_ref(s, true, true);
        op.tgt = *t;
        op.src = *s;
        if (push_op(p, &op))
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ elimination */

static int
alg_product(void *ctx, const xf_lcg_wt *a, const xf_lcg_wt *b, xf_lcg_wt *out)
{
    return product(ctx, a, b, out) || past_limit(ctx) ? -1 : 0;
}

static int
alg_sum(void *ctx, const xf_lcg_wt *a, const xf_lcg_wt *b, xf_lcg_wt *out)
{
    return sum(ctx, a, b, out) || past_limit(ctx) ? -1 : 0;
}

/* Eliminate in order @m, the weights' products and sums written as code
 * (or costed when dry). */
static int
run_elimination(pre *p, xf_elim_order m)
{
    const xf_elim_algebra alg = {.ctx = p, .product = alg_product, .sum = alg_sum};
    return xf_elim_run(p->g, m, &alg, NULL);
}

/* ------------------------------------------------------------ sequences */

/* Cost order @m on a copy of the graph; with @limit, only as far as it is
 * cheaper than that (*@out is then what it cost when it stopped: no cheaper). */
static int
cost_of(pre *p, xf_elim_order m, const cost *limit, cost *out)
{
    xf_lcg keep;
    if (xf_lcg_copy(p->g, &keep))
        return -1;
    p->dry = true;
    p->c = (cost){0};
    p->limit = limit;
    p->over = false;
    int ret = run_elimination(p, m) || emit_propagation(p, m);
    if (p->over)
        ret = 0;
    *out = p->c;
    p->dry = p->over = false;
    p->limit = NULL;
    *p->g = keep;
    return ret ? -1 : 0;
}

/* preaccumulate's own options (xf_pass_own). */
typedef struct pre_opts {
    xf_elimination elimination; /* --elimination (default: best) */
    bool report;                /* --report: a line per sequence to xf_opts.reports */
} pre_opts;

/* A sequence of the walk (sink): its propagators replaced with the chosen
 * elimination's code. */
static int
sequence(void *ctx, xf_lcg_walk *w)
{
    pre *p = ctx;
    xf_elim_order choice;
    cost costs[XF_ORDER_COUNT];
    const pre_opts *own = xf_pass_own_c(p->ctx->opts, &xf_pass_preaccumulate);
    switch (own ? own->elimination : XF_ELIM_BEST) {
    case XF_ELIM_FORWARD:
        choice = XF_ORDER_FORWARD;
        break;
    case XF_ELIM_REVERSE:
        choice = XF_ORDER_REVERSE;
        break;
    case XF_ELIM_MARKOWITZ:
        choice = XF_ORDER_MARKOWITZ;
        break;
    case XF_ELIM_BEST:
    default:
        choice = XF_ORDER_NONE;
        break;
    }
    bool best = !own || own->elimination == XF_ELIM_BEST;
    bool report = own && own->report;
    FILE *out = report && p->ctx->opts->reports ? p->ctx->opts->reports : stderr;
    /* The report shows every order's whole cost; otherwise an order is costed
     * only while it can still beat the cheapest so far, and not at all when
     * the order is given. */
    for (int m = 0; m < XF_ORDER_COUNT && (best || report); m++) {
        if (cost_of(p, (xf_elim_order)m, report || m == 0 ? NULL : &costs[choice], &costs[m]))
            return -1;
        if (best && cheaper(p, &costs[m], &costs[choice]))
            choice = (xf_elim_order)m;
    }
    if (report) {
        fprintf(out, "preaccumulate: %s line %u: %u vertices, %u edges;",
                p->doc->filename ? p->doc->filename : "", w->where ? w->where->h.line : 0,
                p->g->vs.n, p->g->es.n);
        for (int m = 0; m < XF_ORDER_COUNT; m++)
            fprintf(out, " %s %llu*+%llu+", xf_elim_order_name((xf_elim_order)m),
                    (unsigned long long)costs[m].muls, (unsigned long long)costs[m].adds);
        fprintf(out, "; chose %s\n", xf_elim_order_name(choice));
    }
    p->code.n = 0;
    p->dp = NULL;
    p->c = (cost){0};
    if (run_elimination(p, choice) || emit_propagation(p, choice))
        return -1;
    p->ctx->stats.blocks++;
    p->ctx->stats.elim_muls += p->c.muls;
    p->ctx->stats.elim_adds += p->c.adds;
    for (uint32_t i = 0; i < p->code.n; i++)
        if (!XF_VEC_PUSH(p->doc->arena, p->out, p->code.v[i]))
            return oom(p);
    if (p->dp && !XF_VEC_PUSH(p->doc->arena, p->out, p->dp))
        return oom(p);
    memset(&p->code, 0, sizeof p->code);
    p->dp = NULL;
    return 0;
}

/* A statement of the walk that stays (sink). */
static int
keep_stmt(void *ctx, xf_stmt *s)
{
    pre *p = ctx;
    /* a propagator the graph did not take reads its partials as they are */
    if (p->taped && xf_signs_unfold(&p->signs, s))
        return -1;
    return XF_VEC_PUSH(p->doc->arena, p->out, s) ? 0 : oom(p);
}

/* Give back the large blocks of the statements @old (@n of them, room
 * for @cap) that the walk replaced by @p->out: the list itself and the
 * operations of each propagator the graph took, when a block holds a chunk
 * of its own (64 KB or more: a propagator of some 200 operations; issue
 * 26's deep expression: 100 000 Sax operations, 34 MB). The operations'
 * parts (terms, references) are small blocks and stay: a propagator kept
 * whole or in part holds copies of the operations, which share them. */
static void
release_replaced(pre *p, xf_stmt **old, uint32_t n, uint32_t cap)
{
    xf_arena *a = p->doc->arena;
    for (uint32_t i = 0; i < n; i++) {
        xf_stmt *s = old[i];
        size_t bytes = (size_t)s->u.dp.cap * sizeof *s->u.dp.v;
        if (s->kind != XF_STMT_DERIVPROP || bytes < 64 * 1024)
            continue;
        bool kept = false;
        for (uint32_t k = 0; k < p->out.n && !kept; k++)
            kept = p->out.v[k] == s;
        if (kept)
            continue;
        xf_arena_release(a, s->u.dp.v, bytes);
        memset(&s->u.dp, 0, sizeof s->u.dp);
    }
    if (old != p->out.v)
        xf_arena_release(a, old, (size_t)cap * sizeof *old);
}

static int
block(pre *p, xf_cvertex *b)
{
    memset(&p->out, 0, sizeof p->out);
    if (p->taped && xf_signs_fold(&p->signs, b))
        return -1;
    const xf_lcg_sink sink = {.ctx = p, .stmt = keep_stmt, .sequence = sequence};
    if (xf_lcg_walk_block(p->w, b, &sink))
        return -1;
    release_replaced(p, b->stmts.v, b->stmts.n, b->stmts.cap);
    b->stmts.v = p->out.v;
    b->stmts.n = p->out.n;
    b->stmts.cap = p->out.cap;
    return 0;
}

/* One routine, with the manager's scratch arena (emptied after it). */
static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    xf_graph *g = xf_work_graph(rt);
    if (!g || !rt->cfg_scope)
        return 0;
    xf_lcg_walk w;
    if (xf_lcg_walk_init(&w, ctx->doc, ctx->scratch, ctx->diag))
        return -1;
    pre p = {.ctx = ctx, .doc = ctx->doc, .scope = rt->cfg_scope, .taped = rt->is_rlist};
    p.w = &w;
    p.g = &w.g;
    if (p.taped) {
        if (xf_signs_begin(&p.signs, ctx, g)) {
            xf_lcg_walk_fini(&w);
            return -1;
        }
        w.g.neg = &p.signs.neg;
    }
    int ret = 0;
    for (uint32_t i = 0; i < g->v.n && !ret; i++)
        if (g->v.v[i]->kind == XF_CV_BASICBLOCK)
            ret = block(&p, g->v.v[i]);
    xf_lcg_walk_fini(&w);
    xf_signs_end(&p.signs);
    return ret;
}

/* ------------------------------------------------ a block in pieces */

struct xf_pre_pieces {
    pre p;
    xf_lcg_walk w;
};

static const xf_lcg_sink piece_sink = {.stmt = keep_stmt, .sequence = sequence};

int
xf_pre_pieces_new(xf_pass_ctx *ctx, xf_routine *rt, xf_arena *scratch, xf_pre_pieces **out)
{
    *out = NULL;
    if (!xf_work_graph(rt) || !rt->cfg_scope)
        return 0;
    xf_pre_pieces *c = calloc(1, sizeof *c);
    if (!c)
        return xf_pass_oom(ctx);
    if (xf_lcg_walk_init(&c->w, ctx->doc, scratch, ctx->diag)) {
        free(c);
        return -1;
    }
    /* an adjoint's taping sweep: its cost model, without the folding of signs */
    c->p = (pre){.ctx = ctx, .doc = ctx->doc, .scope = rt->cfg_scope, .taped = rt->is_rlist};
    c->p.w = &c->w;
    c->p.g = &c->w.g;
    *out = c;
    return 0;
}

xf_lcg_walk *
xf_pre_pieces_walk(xf_pre_pieces *c)
{
    return &c->w;
}

void
xf_pre_pieces_begin(xf_pre_pieces *c)
{
    xf_lcg_walk_begin(&c->w);
}

/* The statements the sink was handed, to @out, @nout; the sink's list emptied. */
static void
pieces_out(xf_pre_pieces *c, xf_stmt ***out, uint32_t *nout)
{
    *out = c->p.out.v;
    *nout = c->p.out.n;
    memset(&c->p.out, 0, sizeof c->p.out);
}

int
xf_pre_pieces_feed(xf_pre_pieces *c, xf_stmt *const *v, uint32_t n, xf_stmt ***out, uint32_t *nout)
{
    xf_lcg_sink sink = piece_sink;
    sink.ctx = &c->p;
    memset(&c->p.out, 0, sizeof c->p.out);
    int ret = xf_lcg_walk_stmts(&c->w, v, n, &sink);
    pieces_out(c, out, nout);
    return ret;
}

int
xf_pre_pieces_end(xf_pre_pieces *c, xf_stmt ***out, uint32_t *nout)
{
    xf_lcg_sink sink = piece_sink;
    sink.ctx = &c->p;
    memset(&c->p.out, 0, sizeof c->p.out);
    int ret = xf_lcg_walk_end(&c->w, &sink);
    pieces_out(c, out, nout);
    return ret;
}

void
xf_pre_pieces_free(xf_pre_pieces *c)
{
    if (!c)
        return;
    xf_lcg_walk_fini(&c->w);
    free(c);
}

static const struct {
    const char *name;
    xf_elimination e;
} orders[] = {{"best", XF_ELIM_BEST},
              {"forward", XF_ELIM_FORWARD},
              {"reverse", XF_ELIM_REVERSE},
              {"markowitz", XF_ELIM_MARKOWITZ}};

static int
parse_elimination(xf_opts *o, void *own, const char *arg, char *err, size_t len)
{
    (void)o;
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
        if (!strcmp(arg, orders[i].name)) {
            ((pre_opts *)own)->elimination = orders[i].e;
            return 0;
        }
    snprintf(err, len, "unknown elimination order '%s' (forward, reverse, markowitz or best)", arg);
    return -1;
}

static const char *
show_elimination(const xf_opts *o, const void *own)
{
    (void)o;
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
        if (orders[i].e == ((const pre_opts *)own)->elimination)
            return orders[i].name;
    return NULL;
}

static int
parse_report(xf_opts *o, void *own, const char *arg, char *err, size_t len)
{
    (void)o, (void)arg, (void)err, (void)len;
    ((pre_opts *)own)->report = true;
    return 0;
}

static const xf_pass_opt opts[] = {
    {.name = "elimination",
     .letter = 'e',
     .arg = "ORDER",
     .help = "forward, reverse, markowitz or best (default:\n"
             "best, the cheapest per sequence, no elimination\n"
             "included)\n",
     .parse = parse_elimination,
     .show = show_elimination},
    {.name = "report",
     .letter = 'r',
     .help = "print, per preaccumulation sequence, the cost of\n"
             "each order and the choice, on stderr\n",
     .parse = parse_report},
    {0},
};

static const char *const after[] = {"linearize", NULL};

const xf_pass xf_pass_preaccumulate = {
    .name = "preaccumulate",
    .summary = "local Jacobians of basic blocks by vertex elimination",
    .help = "Per basic block, the linearized computational graph of the propagation that\n"
            "linearize wrote, cut into sequences at calls and where two variables cannot\n"
            "be told apart; each sequence's local Jacobian is accumulated by vertex\n"
            "elimination (OpenAD_acc_*) and applied once. --elimination forward, reverse\n"
            "or markowitz chooses the order; best (the default) takes, per sequence, the\n"
            "cheapest in multiplications and additions of those, of eliminating each\n"
            "statement's temporaries only, and of none. A sequence holds at most 512\n"
            "vertices: a longer block is cut into windows of that size.\n",
    .after = after,
    .once = true,
    .opts = opts,
    .own_size = sizeof(pre_opts),
    .run_routine = run_routine,
};
