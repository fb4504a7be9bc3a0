/* adjzero.c: adjoint increments whose target is zero (see adjzero.h).
 *
 * The adjoint of a propagator operation y = Σ a·x adds a·ȳ to each x̄.
 * Where x̄ is known to be zero, x̄ = a·ȳ does the same with one addition
 * less (a Sax instead of a Saxpy; for a unit partial a SetDeriv instead of
 * an IncDeriv: no operation at all). x̄ is zero there when, in the forward
 * code, x's derivative is dead after the operation: on every path from it,
 * an operation overwrites x's derivative (whose adjoint resets x̄) before
 * anything reads it, or the routine ends (a local's adjoint is zero at the
 * start of each activation, xaif-execution §1.3). That is liveness of the
 * derivatives, a backward data-flow problem over the control-flow graph,
 * solved here for the real scalar locals of the routine, as bit sets per
 * vertex. What reads a derivative: the terms of an operation, the target
 * of an increment (Saxpy, IncDeriv, DecDeriv), a derivative assignment
 * (direct action), the arguments of a call (and every local, when the
 * routine hosts internal procedures, which may see them). What overwrites
 * it: ZeroDeriv, SetDeriv, SetNegDeriv and Sax whose terms do not read it.
 * The operations tbr_live.c finds dead have no adjoint and count for
 * nothing. Within one operation only the first term reading x (in the
 * order adjoin writes them) may assign.
 *
 * A real local array is a candidate too, as a whole: an operation writing
 * one element overwrites nothing of the rest, so only the routine's end
 * kills it. Its elements' adjoints are zero at the one term that reads
 * its derivative when that term reads a different element each time it
 * runs (xf_adjzero_once: loops over distinct subscripts) and nothing else
 * reads the array's derivative after it: no other term, no increment of
 * an element, no call, no direct action. The data flow then leaves that
 * term's own read out (it reads other elements on the next iterations). */
#include <stdlib.h>
#include <string.h>

#include "adjzero.h"
#include "map.h"
#include "pass.h"

struct xf_adjzero {
    xf_map first; /* source reference -> itself: its adjoint assigns */
    unsigned n;
};

typedef struct az {
    const xf_doc *doc;
    const xf_routine *rt;
    const xf_tbr *tbr;
    xf_arena *a;
    xf_map idx;      /* candidate symbol -> its index + 1 */
    uint32_t nc, nw; /* candidates; 64-bit words per set */
    bool calls_all;  /* a call may read every local's derivative */
    xf_adjzero *plan;
    /* by candidate index: */
    XF_VEC(uint8_t) arr;            /* an array (whole-variable liveness) */
    XF_VEC(const xf_varref *) site; /* an array's one term reading it; NULL: none or more */
    XF_VEC(uint32_t) site_v;        /* the vertex of that term's block */
    XF_VEC(uint8_t) bad;            /* an array read otherwise: no term of it assigns */
} az;

/* At most this many bits per set (vertices x candidates); three such sets
 * (the fixed point, and each block's f(0) and f(all)). */
#define AZ_MAX_BITS (1u << 26)

/* The candidate @r is a plain reference to (a scalar), or any reference
 * to (an array), as index + 1, or 0. */
static uint32_t
cand(const az *z, const xf_varref *r)
{
    const xf_symref *s = r ? xf_varref_symref(r) : NULL;
    uint32_t c = s && s->sym ? (uint32_t)(uintptr_t)xf_map_get(&z->idx, s->sym) : 0;
    if (!c || z->arr.v[c - 1])
        return c;
    return r->v.n == 1 && !xf_varref_arrref(r) ? c : 0;
}

/* Is @r a reference to a real local: 1 a scalar (a plain reference), 2 an array? 0: neither. */
static int
candidate_sym(const az *z, const xf_varref *r)
{
    const xf_symref *s = r ? xf_varref_symref(r) : NULL;
    const xf_symbol *y = s ? s->sym : NULL;
    if (!y || y->scope != z->rt->cfg_scope || y->kind != XF_SYMKIND_VARIABLE ||
        y->type != XF_TYPE_REAL || xf_is_formal(z->rt, y) || xf_flag_is(y->pointer, false))
        return 0;
    if (xf_shape_rank(y->shape) > 0)
        return 2;
    return r->v.n == 1 && !xf_varref_arrref(r) ? 1 : 0;
}

/* Every derivative reference of the operations, to look for aliases. */
typedef XF_VEC(const xf_varref *) refvec;

static bool
add_cand(az *z, const xf_varref *r, refvec *all)
{
    if (!XF_VEC_PUSH(z->a, *all, r))
        return false;
    int k = candidate_sym(z, r);
    if (!k || cand(z, r))
        return true;
    z->nc++;
    return XF_VEC_PUSH(z->a, z->arr, (uint8_t)(k == 2)) && XF_VEC_PUSH(z->a, z->site, NULL) &&
           XF_VEC_PUSH(z->a, z->site_v, 0) && XF_VEC_PUSH(z->a, z->bad, 0) &&
           xf_map_put(&z->idx, z->a, xf_varref_symref(r)->sym, (void *)(uintptr_t)z->nc, NULL);
}

/* A term of vertex @v reads @r's derivative: an array's one such term is
 * its site (a second makes it bad). */
static void
note_read(az *z, const xf_varref *r, uint32_t v)
{
    uint32_t c = cand(z, r);
    if (!c || !z->arr.v[c - 1])
        return;
    if (z->site.v[c - 1] || !xf_varref_arrref(r))
        z->bad.v[c - 1] = 1;
    z->site.v[c - 1] = r;
    z->site_v.v[c - 1] = v;
}

/* @r's array, if a candidate, has no term that assigns. */
static void
mark_bad(az *z, const xf_varref *r)
{
    uint32_t c = cand(z, r);
    if (c && z->arr.v[c - 1])
        z->bad.v[c - 1] = 1;
}

/* Is @r the site of a good array candidate @c? */
static bool
is_site(const az *z, uint32_t c, const xf_varref *r)
{
    return c && z->arr.v[c - 1] && !z->bad.v[c - 1] && z->site.v[c - 1] == r;
}

/* Candidate @s shares storage with another variable: it is none. */
static bool
drop(void *ctx, const xf_symbol *s)
{
    az *z = ctx;
    return !xf_map_get(&z->idx, s) || xf_map_put(&z->idx, z->a, s, NULL, NULL);
}

/* A candidate that another variable's reference may share storage with
 * (the front end's alias map: an equivalence; a reference without a
 * variable may share it with anything) is none. @returns false when out
 * of memory. */
static bool
drop_aliased(az *z, const refvec *all)
{
    for (uint32_t i = 0; i < all->n; i++)
        if (!xf_varref_symref(all->v[i])) {
            z->nc = 0; /* may share storage with every candidate */
            return true;
        }
    return xf_alias_overlaps(z->doc, all->v, all->n, z->a, drop, z);
}

/* ------------------------------------------------------------ sets */

static void
set_bit(uint64_t *s, uint32_t c)
{
    if (c)
        s[(c - 1) / 64] |= 1ull << ((c - 1) % 64);
}

static void
clear_bit(uint64_t *s, uint32_t c)
{
    if (c)
        s[(c - 1) / 64] &= ~(1ull << ((c - 1) % 64));
}

static bool
has_bit(const uint64_t *s, uint32_t c)
{
    return c && (s[(c - 1) / 64] >> ((c - 1) % 64)) & 1;
}

static void
set_all(const az *z, uint64_t *s)
{
    memset(s, 0xff, z->nw * sizeof *s);
}

/* ------------------------------------------------------------ reads */

typedef struct reads {
    const az *z;
    uint64_t *live;
} reads;

static xf_walk_go
use_step(void *ctx, const xf_walk_step *s)
{
    const reads *u = ctx;
    if (s->ref)
        set_bit(u->live, cand(u->z, s->ref));
    else if (s->vertex->kind == XF_EV_FUNCALL && u->z->calls_all)
        set_all(u->z, u->live);
    return XF_WALK_GO;
}

/* Every candidate @r mentions, its subscripts included (out of memory:
 * every candidate). */
static void
use_ref(const az *z, const xf_varref *r, uint64_t *live)
{
    reads u = {z, live};
    if (xf_walk_ref(r, XF_WALK_ARGS, use_step, &u) < 0)
        set_all(z, live);
}

static void
use_expr(const az *z, const xf_expr *x, uint64_t *live)
{
    reads u = {z, live};
    if (xf_walk_expr(x, XF_WALK_ARGS, use_step, &u) < 0)
        set_all(z, live);
}

/* ------------------------------------------------------------ transfer */

/* The sources of @op in the order adjoin writes their adjoints. */
static uint32_t
sources(const xf_dpop *op, const xf_varref **src, uint32_t max)
{
    switch (op->kind) {
    case XF_DP_ZERODERIV:
        return 0;
    case XF_DP_SETDERIV:
    case XF_DP_SETNEGDERIV:
    case XF_DP_INCDERIV:
    case XF_DP_DECDERIV:
        src[0] = &op->src;
        return 1;
    case XF_DP_SAX:
    case XF_DP_SAXPY:
        break;
    }
    uint32_t n = 0;
    for (uint32_t j = 0; j < op->ax.n && n < max; j++)
        src[n++] = &op->ax.v[j].x;
    return n;
}

/* @live (after @op) becomes what is live before it; with @record, the
 * terms whose adjoint assigns go into the plan. */
static int
op_back(az *z, const xf_dpop *op, uint64_t *live, bool record)
{
    if (xf_tbr_op_dead(z->tbr, op))
        return 0;
    const xf_varref *y = op->kind == XF_DP_SAX || op->kind == XF_DP_SAXPY ? &op->y : &op->tgt;
    const xf_varref *src[64];
    uint32_t ns = sources(op, src, 64);
    if (op->ax.n > 64) {
        set_all(z, live); /* adjoin refuses these anyway */
        return 0;
    }
    uint32_t cy = cand(z, y);
    bool y_arr = cy && z->arr.v[cy - 1];
    bool reads_y = false;
    for (uint32_t i = 0; i < ns; i++)
        reads_y = reads_y || (cy && cand(z, src[i]) == cy);
    if (record)
        for (uint32_t i = 0; i < ns; i++) {
            uint32_t c = cand(z, src[i]);
            if (!c || c == cy || has_bit(live, c) || (z->arr.v[c - 1] && !is_site(z, c, src[i])))
                continue;
            if (!xf_map_put(&z->plan->first, z->a, src[i], (void *)src[i], NULL))
                return -1;
            z->plan->n++;
            set_bit(live, c); /* a second term reading it adds */
        }
    bool accumulates =
        op->kind == XF_DP_SAXPY || op->kind == XF_DP_INCDERIV || op->kind == XF_DP_DECDERIV;
    if (y_arr) /* one element written: the rest stays */
        set_bit(live, accumulates ? cy : 0);
    else if (!accumulates && !reads_y)
        clear_bit(live, cy);
    else
        set_bit(live, cy);
    for (uint32_t i = 0; i < ns; i++) {
        /* an array's site leaves its own read out: it reads other elements next */
        uint32_t c = cand(z, src[i]);
        bool site = is_site(z, c, src[i]), was = site && has_bit(live, c);
        use_ref(z, src[i], live);
        if (site && !was)
            clear_bit(live, c);
    }
    /* subscripts of the target are values, not derivatives: nothing */
    return 0;
}

static int
stmt_back(az *z, const xf_stmt *s, uint64_t *live, bool record)
{
    switch (s->kind) {
    case XF_STMT_DERIVPROP:
        for (uint32_t k = s->u.dp.n; k-- > 0;)
            if (op_back(z, &s->u.dp.v[k], live, record))
                return -1;
        return 0;
    case XF_STMT_ASSIGN:
        if (xf_flag_is(s->u.as.lhs.deriv, false)) {
            /* a direct action reads and writes derivatives: a read */
            use_ref(z, &s->u.as.lhs, live);
            use_expr(z, &s->u.as.rhs, live);
            return 0;
        }
        for (uint32_t i = 0; i < s->u.as.rhs.v.n; i++)
            if (s->u.as.rhs.v.v[i].kind == XF_EV_FUNCALL)
                use_expr(z, &s->u.as.rhs, live);
        return 0;
    case XF_STMT_CALL:
    case XF_STMT_ICALL: {
        const xf_arg_vec *args = s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args;
        if (z->calls_all && s->kind == XF_STMT_CALL)
            set_all(z, live);
        for (uint32_t k = 0; k < args->n; k++)
            use_expr(z, &args->v[k].val, live);
        return 0;
    }
    case XF_STMT_MARKER:
        return 0;
    }
    return 0;
}

static int
block_back(az *z, const xf_cvertex *v, uint64_t *live, bool record)
{
    if (v->kind != XF_CV_BASICBLOCK)
        return 0;
    for (uint32_t k = v->stmts.n; k-- > 0;)
        if (stmt_back(z, v->stmts.v[k], live, record))
            return -1;
    return 0;
}

/* ------------------------------------------------------------ the plan */

/* At most this many statements per routine are looked at for the loops
 * around arrays' sites, times the routine's vertices. */
#define AZ_ONCE_WORK 64u

/* An array's site that may read one element twice in an activation
 * (xf_adjzero_once) makes it bad. @returns -1 when out of memory. */
static int
arrays_once(az *z, const xf_graph *g)
{
    bool any = false;
    for (uint32_t c = 0; c < z->nc && !any; c++)
        any = z->arr.v[c] && !z->bad.v[c] && z->site.v[c];
    if (!any)
        return 0;
    xf_cfgtree t;
    const xf_region **reg = XF_NEW_ARRAY(z->a, g->v.n, const xf_region *);
    if (!reg)
        return -1;
    memset(reg, 0, g->v.n * sizeof *reg);
    bool parsed = xf_cfgtree_parse(g, z->a, &t);
    for (uint32_t k = 0; parsed && k < t.all.n; k++)
        if (t.all.v[k]->kind == XF_RG_BLOCK && t.all.v[k]->v->index < g->v.n)
            reg[t.all.v[k]->v->index] = t.all.v[k];
    uint64_t budget = (uint64_t)AZ_ONCE_WORK * (g->v.n + 1);
    for (uint32_t c = 0; c < z->nc; c++) {
        if (!z->arr.v[c] || z->bad.v[c] || !z->site.v[c])
            continue;
        if (!parsed || !xf_adjzero_once(reg[z->site_v.v[c]], z->site.v[c], z->rt->cfg_scope,
                                        z->calls_all, &budget))
            z->bad.v[c] = 1;
    }
    return 0;
}

static bool
hosts_procedures(const xf_doc *doc, const xf_routine *rt)
{
    for (uint32_t i = 0; i < doc->cg.scopes.v.n; i++)
        if (doc->cg.scopes.v.v[i]->parent == rt->cfg_scope)
            return true;
    return false;
}

/* The fixed point in = f(union of the successors' in), by a worklist
 * (a vertex is looked at again only when a successor's set grew), each
 * block's f given as @gen = f(0) and @keep = f(all). @returns false when
 * out of memory. */
static bool
solve(const az *z, const xf_graph *g, const uint32_t *first, const uint32_t *succ,
      const uint64_t *gen, const uint64_t *keep, uint64_t *in, uint64_t *cur)
{
    uint32_t n = g->v.n;
    uint32_t *npred = XF_NEW_ARRAY(z->a, n + 1, uint32_t);
    uint32_t *pred = XF_NEW_ARRAY(z->a, first[n] ? first[n] : 1, uint32_t);
    uint32_t *queue = XF_NEW_ARRAY(z->a, n, uint32_t);
    uint8_t *queued = XF_NEW_ARRAY(z->a, n, uint8_t);
    if (!npred || !pred || !queue || !queued)
        return false;
    memset(npred, 0, (n + 1) * sizeof *npred);
    for (uint32_t k = 0; k < first[n]; k++)
        npred[succ[k] + 1]++;
    for (uint32_t i = 0; i < n; i++)
        npred[i + 1] += npred[i]; /* npred[i]: where i's predecessors start */
    uint32_t *fill = XF_NEW_ARRAY(z->a, n, uint32_t);
    if (!fill)
        return false;
    memcpy(fill, npred, n * sizeof *fill);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = first[i]; k < first[i + 1]; k++)
            pred[fill[succ[k]]++] = i;
    /* a ring of at most n vertices, each queued once at a time; backwards
     * first, as the sets flow */
    uint32_t head = 0, count = n;
    for (uint32_t i = 0; i < n; i++) {
        queue[i] = n - 1 - i;
        queued[i] = 1;
    }
    while (count) {
        uint32_t i = queue[head];
        head = head + 1 == n ? 0 : head + 1;
        count--;
        queued[i] = 0;
        memset(cur, 0, z->nw * sizeof *cur);
        for (uint32_t k = first[i]; k < first[i + 1]; k++)
            for (uint32_t w = 0; w < z->nw; w++)
                cur[w] |= in[(size_t)succ[k] * z->nw + w];
        /* sets only grow: the union with the old keeps it monotone */
        uint64_t *old = &in[(size_t)i * z->nw];
        const uint64_t *g0 = &gen[(size_t)i * z->nw], *g1 = &keep[(size_t)i * z->nw];
        bool changed = false;
        for (uint32_t w = 0; w < z->nw; w++) {
            uint64_t v = (cur[w] & g1[w]) | g0[w];
            if ((old[w] | v) != old[w]) {
                old[w] |= v;
                changed = true;
            }
        }
        for (uint32_t k = npred[i]; changed && k < npred[i + 1]; k++) {
            uint32_t p = pred[k];
            if (queued[p])
                continue;
            queued[p] = 1;
            uint32_t tail = head + count >= n ? head + count - n : head + count;
            queue[tail] = p;
            count++;
        }
    }
    return true;
}

int
xf_adjzero_plan(const xf_doc *doc, const xf_routine *rt, const xf_graph *g, const xf_tbr *tbr,
                xf_arena *a, xf_adjzero **out)
{
    *out = NULL;
    az z = {.doc = doc, .rt = rt, .tbr = tbr, .a = a};
    refvec all = {0};
    uint32_t n = g->v.n;
    for (uint32_t i = 0; i < n; i++) {
        const xf_cvertex *v = g->v.v[i];
        if (v->index != i)
            return 0; /* not the graph this walks */
        for (uint32_t k = 0; v->kind == XF_CV_BASICBLOCK && k < v->stmts.n; k++) {
            const xf_stmt *s = v->stmts.v[k];
            if (s->kind != XF_STMT_DERIVPROP)
                continue;
            for (uint32_t o = 0; o < s->u.dp.n; o++) {
                const xf_dpop *op = &s->u.dp.v[o];
                const xf_varref *src[64];
                uint32_t ns = sources(op, src, 64);
                const xf_varref *y =
                    op->kind == XF_DP_SAX || op->kind == XF_DP_SAXPY ? &op->y : &op->tgt;
                if (!add_cand(&z, y, &all))
                    return -1;
                for (uint32_t j = 0; j < ns; j++)
                    if (!add_cand(&z, src[j], &all))
                        return -1;
                for (uint32_t j = 0; j < ns; j++)
                    note_read(&z, src[j], i);
                if (op->kind == XF_DP_SAXPY || op->kind == XF_DP_INCDERIV ||
                    op->kind == XF_DP_DECDERIV)
                    mark_bad(&z, y); /* an increment reads it */
            }
        }
    }
    if (!drop_aliased(&z, &all))
        return -1;
    if (!z.nc || !n)
        return 0;
    z.nw = (z.nc + 63) / 64;
    if ((uint64_t)z.nw * 64 * n > AZ_MAX_BITS)
        return 0;
    z.calls_all = hosts_procedures(doc, rt);
    if (arrays_once(&z, g))
        return -1;
    /* successors */
    uint32_t *nsucc = XF_NEW_ARRAY(a, n, uint32_t), *first = XF_NEW_ARRAY(a, n + 1, uint32_t);
    uint32_t *succ = XF_NEW_ARRAY(a, g->e.n ? g->e.n : 1, uint32_t);
    uint64_t *in = XF_NEW_ARRAY(a, (size_t)n * z.nw, uint64_t);
    uint64_t *cur = XF_NEW_ARRAY(a, z.nw, uint64_t);
    if (!nsucc || !first || !succ || !in || !cur)
        return -1;
    memset(nsucc, 0, n * sizeof *nsucc);
    memset(in, 0, (size_t)n * z.nw * sizeof *in);
    for (uint32_t i = 0; i < g->e.n; i++) {
        const xf_cedge *e = g->e.v[i];
        if (!e->src || !e->tgt || e->src->index >= n || g->v.v[e->src->index] != e->src ||
            e->tgt->index >= n || g->v.v[e->tgt->index] != e->tgt)
            return 0;
        nsucc[e->src->index]++;
    }
    first[0] = 0;
    for (uint32_t i = 0; i < n; i++)
        first[i + 1] = first[i] + nsucc[i];
    memset(nsucc, 0, n * sizeof *nsucc);
    for (uint32_t i = 0; i < g->e.n; i++) {
        uint32_t s = g->e.v[i]->src->index;
        succ[first[s] + nsucc[s]++] = g->e.v[i]->tgt->index;
    }
    /* Each block's transfer is gen/kill, f(x) = (x & f(1)) | f(0): one
     * walk of each block for f(0), one for f(1), then the fixed point only
     * combines sets (walking a long block again for each round of a deep
     * loop nest was nest depth times block size). */
    uint64_t *gen = XF_NEW_ARRAY(a, (size_t)n * z.nw, uint64_t);
    uint64_t *keep = XF_NEW_ARRAY(a, (size_t)n * z.nw, uint64_t);
    if (!gen || !keep)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t *g0 = &gen[(size_t)i * z.nw], *g1 = &keep[(size_t)i * z.nw];
        memset(g0, 0, z.nw * sizeof *g0);
        set_all(&z, g1);
        if (block_back(&z, g->v.v[i], g0, false) || block_back(&z, g->v.v[i], g1, false))
            return -1;
    }
    if (!solve(&z, g, first, succ, gen, keep, in, cur))
        return -1;
    xf_adjzero *plan = XF_NEW(a, xf_adjzero);
    if (!plan)
        return -1;
    memset(plan, 0, sizeof *plan);
    z.plan = plan;
    for (uint32_t i = 0; i < n; i++) {
        if (g->v.v[i]->kind != XF_CV_BASICBLOCK)
            continue;
        memset(cur, 0, z.nw * sizeof *cur);
        for (uint32_t k = first[i]; k < first[i + 1]; k++)
            for (uint32_t w = 0; w < z.nw; w++)
                cur[w] |= in[(size_t)succ[k] * z.nw + w];
        if (block_back(&z, g->v.v[i], cur, true))
            return -1;
    }
    if (plan->n)
        *out = plan;
    return 0;
}

bool
xf_adjzero_first(const xf_adjzero *z, const xf_varref *src)
{
    return z && xf_map_get(&z->first, src) != NULL;
}

unsigned
xf_adjzero_count(const xf_adjzero *z)
{
    return z ? z->n : 0;
}
