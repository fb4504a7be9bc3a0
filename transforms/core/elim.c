/* elim.c: see elim.h. */
#include "elim.h"

#include <string.h>

static const char *const names[XF_ORDER_COUNT] = {"none", "statement", "forward", "reverse",
                                                  "markowitz"}; /* ORDER mode */

const char *
xf_elim_order_name(xf_elim_order m)
{
    return m < XF_ORDER_COUNT ? names[m] : "?";
}

typedef struct run {
    xf_lcg *g;
    const xf_elim_algebra *alg;
    XF_VEC(uint32_t) order;
    uint64_t products, sums;
} run;

static int
product(run *r, const xf_lcg_wt *a, const xf_lcg_wt *b, xf_lcg_wt *out)
{
    r->products++;
    if (r->alg)
        return r->alg->product(r->alg->ctx, a, b, out);
    *out = (xf_lcg_wt){.c = a->c * b->c};
    return 0;
}

static int
sum(run *r, const xf_lcg_wt *a, const xf_lcg_wt *b, xf_lcg_wt *out)
{
    r->sums++;
    if (r->alg)
        return r->alg->sum(r->alg->ctx, a, b, out);
    *out = (xf_lcg_wt){.c = a->c + b->c};
    return 0;
}

/* Remove the dead edges from an edge list, the live ones kept in order:
 * every reader skips dead edges, so only the scans get shorter. */
static void
drop_dead(const xf_lcg *g, uint32_t *v, uint32_t *n)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < *n; i++)
        if (!g->es.v[v[i]].dead)
            v[k++] = v[i];
    *n = k;
}

/* The first live edge @src -> @tgt, UINT32_MAX if none. Both lists are in
 * the order the edges were made, so the shorter one is searched. */
static uint32_t
edge_between(const xf_lcg *g, uint32_t src, uint32_t tgt)
{
    const xf_lcg_vx *s = &g->vs.v[src], *t = &g->vs.v[tgt];
    bool by_src = s->out.n <= t->in.n;
    const uint32_t *l = by_src ? s->out.v : t->in.v;
    uint32_t n = by_src ? s->out.n : t->in.n;
    for (uint32_t i = 0; i < n; i++) {
        const xf_lcg_ed *e = &g->es.v[l[i]];
        if (!e->dead && (by_src ? e->tgt == tgt : e->src == src))
            return l[i];
    }
    return UINT32_MAX;
}

/* Eliminate vertex @v: each predecessor gets an edge to each successor with
 * the product of the weights, added to an edge already there. */
static int
eliminate(run *r, uint32_t v)
{
    xf_lcg *g = r->g;
    if (!XF_VEC_PUSH(g->a, r->order, v))
        return xf_lcg_oom(g);
    xf_lcg_vx *x = &g->vs.v[v];
    for (uint32_t i = 0; i < x->in.n; i++) {
        xf_lcg_ed *ein = &g->es.v[x->in.v[i]];
        if (ein->dead)
            continue;
        for (uint32_t j = 0; j < g->vs.v[v].out.n; j++) {
            xf_lcg_ed *eout = &g->es.v[g->vs.v[v].out.v[j]];
            if (eout->dead)
                continue;
            xf_lcg_wt w;
            if (product(r, &ein->w, &eout->w, &w))
                return -1;
            uint32_t src = ein->src, tgt = eout->tgt;
            /* absorb into an edge src -> tgt if there is one */
            uint32_t k = edge_between(g, src, tgt);
            if (k != UINT32_MAX) {
                xf_lcg_wt s;
                if (sum(r, &g->es.v[k].w, &w, &s))
                    return -1;
                g->es.v[k].w = s;
            } else if (!xf_lcg_edge(g, src, tgt, w))
                return xf_lcg_oom(g);
            x = &g->vs.v[v];
            ein = &g->es.v[x->in.v[i]];
        }
    }
    x = &g->vs.v[v];
    for (uint32_t i = 0; i < x->in.n; i++)
        g->es.v[x->in.v[i]].dead = true;
    for (uint32_t i = 0; i < x->out.n; i++)
        g->es.v[x->out.v[i]].dead = true;
    for (uint32_t i = 0; i < x->in.n; i++) {
        xf_lcg_vx *s = &g->vs.v[g->es.v[x->in.v[i]].src];
        drop_dead(g, s->out.v, &s->out.n);
    }
    for (uint32_t i = 0; i < x->out.n; i++) {
        xf_lcg_vx *t = &g->vs.v[g->es.v[x->out.v[i]].tgt];
        drop_dead(g, t->in.v, &t->in.n);
    }
    x->in.n = x->out.n = 0;
    x->gone = true;
    return 0;
}

/* The Markowitz degree of @v: live in-edges times live out-edges (the
 * lists hold live edges only: eliminate drops the dead ones). */
static uint32_t
markowitz(const xf_lcg_vx *v)
{
    return v->in.n * v->out.n;
}

/* Is @v eliminated in order @m? Intermediates: not an input, not a needed output. */
static bool
to_eliminate(const xf_lcg *g, xf_elim_order m, uint32_t v)
{
    const xf_lcg_vx *x = &g->vs.v[v];
    if (x->indep || x->gone)
        return false;
    if (m == XF_ORDER_STATEMENT) /* a statement's temporaries, unless read after a cut */
        return x->aux && !(x->final && x->output);
    return !(x->final && x->output);
}

/* Before a full elimination, an output that other vertices read is split:
 * its copy keeps the edges and is eliminated, a new vertex takes its value
 * over a unit edge and is the output. Then every output depends on inputs
 * only. */
static int
split_outputs(xf_lcg *g)
{
    uint32_t n = g->vs.n;
    for (uint32_t v = 0; v < n; v++) {
        xf_lcg_vx *x = &g->vs.v[v];
        if (x->indep || !x->final || !x->output)
            continue;
        bool read = false;
        for (uint32_t i = 0; i < x->out.n && !read; i++)
            read = !g->es.v[x->out.v[i]].dead;
        if (!read)
            continue;
        uint32_t w = xf_lcg_vertex(g, x->loc, false);
        if (w == UINT32_MAX)
            return xf_lcg_oom(g);
        x = &g->vs.v[v];
        g->vs.v[w].final = g->vs.v[w].output = true;
        g->vs.v[w].du = x->du;
        x->final = x->output = false;
        if (!xf_lcg_edge(g, v, w, (xf_lcg_wt){.c = 1.0}))
            return xf_lcg_oom(g);
    }
    return 0;
}

/* Parallel edges (one source, one target: the two edges of x*x) are added
 * into one before anything else: a product through them is then formed
 * once, and (a+b)·c costs an addition and a multiplication where a·c + b·c
 * costs two multiplications and the addition; a term of the propagation
 * likewise. Never dearer, in operations or in weights to tape. */
static int
merge_parallel(run *r)
{
    xf_lcg *g = r->g;
    bool merged = false;
    for (uint32_t v = 0; v < g->vs.n; v++) {
        for (uint32_t i = 0; i < g->vs.v[v].in.n; i++) {
            for (uint32_t j = i + 1; j < g->vs.v[v].in.n; j++) {
                xf_lcg_ed *a = &g->es.v[g->vs.v[v].in.v[i]], *b = &g->es.v[g->vs.v[v].in.v[j]];
                if (a->dead || b->dead || a->src != b->src)
                    continue;
                xf_lcg_wt s;
                if (sum(r, &a->w, &b->w, &s))
                    return -1;
                a = &g->es.v[g->vs.v[v].in.v[i]];
                b = &g->es.v[g->vs.v[v].in.v[j]];
                a->w = s;
                b->dead = true;
                merged = true;
            }
        }
    }
    for (uint32_t v = 0; merged && v < g->vs.n; v++) {
        drop_dead(g, g->vs.v[v].in.v, &g->vs.v[v].in.n);
        drop_dead(g, g->vs.v[v].out.v, &g->vs.v[v].out.n);
    }
    return 0;
}

static int
eliminate_all(run *r, xf_elim_order m)
{
    xf_lcg *g = r->g;
    if (merge_parallel(r))
        return -1;
    if (m >= XF_ORDER_FORWARD && split_outputs(g))
        return -1;
    uint32_t n = g->vs.n;
    switch (m) {
    case XF_ORDER_NONE:
        return 0;
    case XF_ORDER_STATEMENT:
    case XF_ORDER_FORWARD:
        for (uint32_t v = 0; v < n; v++)
            if (to_eliminate(g, m, v) && eliminate(r, v))
                return -1;
        return 0;
    case XF_ORDER_REVERSE:
        for (uint32_t v = n; v-- > 0;)
            if (to_eliminate(g, m, v) && eliminate(r, v))
                return -1;
        return 0;
    case XF_ORDER_MARKOWITZ:
        for (;;) {
            uint32_t best = UINT32_MAX, bd = 0;
            for (uint32_t v = 0; v < n; v++) {
                if (!to_eliminate(g, m, v))
                    continue;
                uint32_t d = markowitz(&g->vs.v[v]);
                if (best == UINT32_MAX || d < bd) {
                    best = v;
                    bd = d;
                }
            }
            if (best == UINT32_MAX)
                return 0;
            if (eliminate(r, best))
                return -1;
        }
    case XF_ORDER_COUNT:
        break;
    }
    return 0;
}

int
xf_elim_run(xf_lcg *g, xf_elim_order m, const xf_elim_algebra *alg, xf_elim_result *res)
{
    run r = {.g = g, .alg = alg};
    int ret = eliminate_all(&r, m);
    if (res)
        *res = (xf_elim_result){
            .order = r.order.v, .n = r.order.n, .products = r.products, .sums = r.sums};
    return ret;
}
