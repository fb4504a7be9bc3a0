/* lcg.c: see lcg.h. The graph of a sequence, and the walk that cuts a
 * basic block into sequences: at calls, at derivative assignments and
 * wherever the graph could not tell two variables apart (an element x(i)
 * read after x(j) was written, an index variable written). */
#include "lcg.h"

#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "pass.h"

void
xf_lcg_init(xf_lcg *g, xf_doc *doc, xf_arena *a, xf_diag *diag)
{
    memset(g, 0, sizeof *g);
    g->doc = doc;
    g->a = a;
    g->diag = diag;
}

void
xf_lcg_reset(xf_lcg *g)
{
    xf_arena_reset(g->a);
    memset(&g->locs, 0, sizeof g->locs);
    memset(&g->vs, 0, sizeof g->vs);
    memset(&g->es, 0, sizeof g->es);
    memset(&g->ids, 0, sizeof g->ids);
    memset(&g->ixv, 0, sizeof g->ixv);
}

int
xf_lcg_oom(const xf_lcg *g)
{
    xf_error(g->diag, g->doc->filename, 0, "out of memory");
    return -1;
}

static xf_walk_go
index_var_step(void *ctx, const xf_walk_step *s)
{
    xf_lcg *g = ctx;
    const xf_symref *sr = s->ref ? xf_varref_symref(s->ref) : NULL;
    return !sr || XF_VEC_PUSH(g->a, g->ixv, sr->sym) ? XF_WALK_GO : XF_WALK_STOP;
}

/* Variables the subscripts of @r read. -1: out of memory. */
static int
note_index_vars(xf_lcg *g, const xf_varref *r)
{
    return xf_walk_ref(r, XF_WALK_SUBSCRIPTS, index_var_step, g) ? -1 : 0;
}

bool
xf_lcg_reads_index_var(const xf_lcg *g, const xf_varref *lhs)
{
    const xf_symref *s = xf_varref_symref(lhs);
    for (uint32_t i = 0; s && i < g->ixv.n; i++)
        if (g->ixv.v[i] == s->sym)
            return true;
    return false;
}

/* ------------------------------------------------------------ aliasing */

bool
xf_lcg_may_alias(const xf_lcg *g, const xf_lcg_loc *a, const xf_lcg_loc *b)
{
    if (a->temp || b->temp)
        return a->sym == b->sym;
    return xf_refs_may_alias(g->doc, a->ref, b->ref);
}

static bool
same_loc(const xf_lcg_loc *a, const xf_symbol *sym, const char *sig)
{
    return a->sym == sym && (a->sig == sig || (a->sig && sig && !strcmp(a->sig, sig)));
}

/* ------------------------------------------------------------ graph */

static bool
is_aux(const xf_symbol *s)
{
    return s && !strncmp(s->id, "OpenAD_aux_", 11) && xf_flag_is(s->temp, false);
}

/* The location of @r: its index, a new one, or UINT32_MAX when @r cannot be
 * told apart from a location already written (*@ambiguous: cut the
 * sequence) or when out of memory. */
static uint32_t
find_loc(xf_lcg *g, const xf_varref *r, bool *ambiguous)
{
    *ambiguous = false;
    const xf_symref *s = xf_varref_symref(r);
    if (!s || !s->sym) {
        *ambiguous = true;
        return UINT32_MAX;
    }
    const char *sig = NULL;
    if (xf_varref_arrref(r)) {
        sig = xf_ref_sig(g->doc, r);
        if (!sig) {
            *ambiguous = true;
            return UINT32_MAX;
        }
    }
    for (uint32_t i = 0; i < g->locs.n; i++)
        if (same_loc(&g->locs.v[i], s->sym, sig))
            return i;
    xf_lcg_loc l = {.ref = r, .sym = s->sym, .sig = sig, .cur = UINT32_MAX, .indep = UINT32_MAX};
    l.temp = !strncmp(s->sym->id, "OpenAD_", 7) && xf_flag_is(s->sym->temp, false);
    const xf_arrref *ar = xf_varref_arrref(r);
    l.rank = ar ? 0 : (xf_shape_rank(s->sym->shape) > 0 ? xf_shape_rank(s->sym->shape) : 0);
    for (uint32_t i = 0; ar && i < ar->t.n; i++)
        if (ar->t.v[i].bound || ar->t.v[i].stride || !ar->t.v[i].index)
            l.rank++;
    /* a new location that may share storage with one already written: cut */
    for (uint32_t i = 0; i < g->locs.n; i++)
        if (g->locs.v[i].cur != UINT32_MAX && xf_lcg_may_alias(g, &g->locs.v[i], &l)) {
            *ambiguous = true;
            return UINT32_MAX;
        }
    if (note_index_vars(g, r) || !XF_VEC_PUSH(g->a, g->locs, l))
        return UINT32_MAX;
    return g->locs.n - 1;
}

uint32_t
xf_lcg_vertex(xf_lcg *g, uint32_t l, bool indep)
{
    xf_lcg_vx v = {.loc = l, .indep = indep, .du = XF_NOINT};
    v.aux = is_aux(g->locs.v[l].sym);
    return XF_VEC_PUSH(g->a, g->vs, v) ? g->vs.n - 1 : UINT32_MAX;
}

/* The vertex whose value location @l holds now. */
static uint32_t
read_loc(xf_lcg *g, uint32_t l)
{
    xf_lcg_loc *lc = &g->locs.v[l];
    if (lc->cur != UINT32_MAX)
        return lc->cur;
    if (lc->indep == UINT32_MAX)
        lc->indep = xf_lcg_vertex(g, l, true);
    lc = &g->locs.v[l];
    return lc->indep;
}

bool
xf_lcg_edge(xf_lcg *g, uint32_t src, uint32_t tgt, xf_lcg_wt w)
{
    xf_lcg_ed e = {.src = src, .tgt = tgt, .w = w};
    if (!XF_VEC_PUSH(g->a, g->es, e))
        return false;
    uint32_t k = g->es.n - 1;
    return XF_VEC_PUSH(g->a, g->vs.v[src].out, k) && XF_VEC_PUSH(g->a, g->vs.v[tgt].in, k);
}

bool
xf_lcg_weight(const xf_lcg *g, const xf_expr *a, xf_lcg_wt *w)
{
    memset(w, 0, sizeof *w);
    if (a->v.n != 1)
        return false;
    const xf_evertex *v = &a->v.v[0];
    if (v->kind == XF_EV_CONSTANT) {
        char *end;
        w->c = strtod(v->u.c.value, &end);
        return !*end;
    }
    if (v->kind != XF_EV_VARREF || xf_varref_arrref(v->u.ref))
        return false;
    const xf_symref *s = xf_varref_symref(v->u.ref);
    if (!s || !s->sym || strncmp(s->sym->id, "OpenAD_", 7) != 0)
        return false; /* only our own partials: nothing overwrites them */
    w->c = g && g->neg && xf_map_get(g->neg, s->sym) ? -1.0 : 1.0;
    w->var = s->sym;
    w->rank = xf_shape_rank(s->sym->shape) > 0 ? xf_shape_rank(s->sym->shape) : 0;
    return true;
}

int
xf_lcg_add_op(xf_lcg *g, const xf_dpop *op, bool *cut)
{
    *cut = false;
    const xf_varref *y;
    uint32_t nt = 0;
    struct {
        const xf_varref *x;
        xf_lcg_wt w;
    } t[64];
    switch (op->kind) {
    case XF_DP_ZERODERIV:
        y = &op->tgt;
        break;
    case XF_DP_SETDERIV:
    case XF_DP_SETNEGDERIV:
        y = &op->tgt;
        t[nt].x = &op->src;
        t[nt++].w = (xf_lcg_wt){.c = op->kind == XF_DP_SETDERIV ? 1.0 : -1.0};
        break;
    case XF_DP_SAX:
        y = &op->y;
        if (op->ax.n > 64)
            return 1;
        for (uint32_t i = 0; i < op->ax.n; i++) {
            if (!xf_lcg_weight(g, &op->ax.v[i].a, &t[nt].w))
                return 1;
            t[nt++].x = &op->ax.v[i].x;
        }
        break;
    default: /* increments: not what linearize writes */
        return 1;
    }
    /* locations first, so that a cut leaves the graph as it was */
    uint32_t xl[64];
    bool amb;
    for (uint32_t i = 0; i < nt; i++) {
        xl[i] = find_loc(g, t[i].x, &amb);
        if (amb) {
            *cut = true;
            return 0;
        }
        if (xl[i] == UINT32_MAX)
            return -1;
    }
    uint32_t yl = find_loc(g, y, &amb);
    if (amb) {
        *cut = true;
        return 0;
    }
    if (yl == UINT32_MAX)
        return -1;
    /* writing a location that may share storage with another one in use
     * (this operation's sources included): cut. Otherwise a later read of
     * that location would take its value from before this write. */
    for (uint32_t i = 0; i < g->locs.n; i++) {
        if (i == yl)
            continue;
        bool used = g->locs.v[i].cur != UINT32_MAX || g->locs.v[i].indep != UINT32_MAX;
        for (uint32_t k = 0; k < nt && !used; k++)
            used = xl[k] == i;
        if (used && xf_lcg_may_alias(g, &g->locs.v[i], &g->locs.v[yl])) {
            *cut = true;
            return 0;
        }
    }
    uint32_t src[64];
    for (uint32_t i = 0; i < nt; i++)
        if ((src[i] = read_loc(g, xl[i])) == UINT32_MAX)
            return -1;
    uint32_t v = xf_lcg_vertex(g, yl, false);
    if (v == UINT32_MAX)
        return -1;
    g->vs.v[v].du = y->du_ud;
    for (uint32_t i = 0; i < nt; i++) {
        if (t[i].w.c == 0.0 && !t[i].w.var)
            continue;
        if (!xf_lcg_edge(g, src[i], v, t[i].w))
            return -1;
    }
    g->locs.v[yl].cur = v;
    return 0;
}

int
xf_lcg_copy(const xf_lcg *g, xf_lcg *to)
{
    *to = *g;
    /* each array copied whole, its capacity its length (pushes grow it) */
    to->es.v = g->es.n ? xf_arena_array(g->a, g->es.n, sizeof *g->es.v) : NULL;
    to->vs.v = g->vs.n ? xf_arena_array(g->a, g->vs.n, sizeof *g->vs.v) : NULL;
    if ((g->es.n && !to->es.v) || (g->vs.n && !to->vs.v))
        return xf_lcg_oom(g);
    to->es.cap = to->es.n = g->es.n;
    to->vs.cap = to->vs.n = g->vs.n;
    if (g->es.n)
        memcpy(to->es.v, g->es.v, g->es.n * sizeof *g->es.v);
    if (g->vs.n)
        memcpy(to->vs.v, g->vs.v, g->vs.n * sizeof *g->vs.v);
    for (uint32_t i = 0; i < g->vs.n; i++) {
        xf_lcg_vx *v = &to->vs.v[i];
        const xf_lcg_vx *f = &g->vs.v[i];
        v->in.v = f->in.n ? xf_arena_array(g->a, f->in.n, sizeof *f->in.v) : NULL;
        v->out.v = f->out.n ? xf_arena_array(g->a, f->out.n, sizeof *f->out.v) : NULL;
        if ((f->in.n && !v->in.v) || (f->out.n && !v->out.v))
            return xf_lcg_oom(g);
        v->in.cap = f->in.n;
        v->out.cap = f->out.n;
        if (f->in.n)
            memcpy(v->in.v, f->in.v, f->in.n * sizeof *f->in.v);
        if (f->out.n)
            memcpy(v->out.v, f->out.v, f->out.n * sizeof *f->out.v);
    }
    return 0;
}

/* ------------------------------------------------------------ outputs */

/* The set of key @key in @m: a binary search, as front ends write the keys
 * in ascending order (then the first of equal keys); a scan when that finds
 * none, for maps in another order. */
static const xf_stmtid_set *
find_set(const xf_stmtid_map *m, int64_t key)
{
    uint32_t lo = 0, hi = m->sets.n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->sets.v[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < m->sets.n && m->sets.v[lo].key == key)
        return &m->sets.v[lo];
    for (uint32_t i = 0; i < m->sets.n; i++)
        if (m->sets.v[i].key == key)
            return &m->sets.v[i];
    return NULL;
}

/* Is the definition's value used after the sequence? By its DU chain: not
 * when every use it lists is a statement of the sequence. */
static bool
live_after(const xf_lcg *g, int64_t du)
{
    if (du == XF_NOINT || du == 0)
        return true;
    const xf_stmtid_set *s = find_set(&g->doc->cg.duud, du);
    if (!s)
        return true;
    for (uint32_t k = 0; k < s->ids.n; k++) {
        const char *id = s->ids.v[k].ref;
        bool inside = false;
        for (uint32_t q = 0; id && id[0] && q < g->ids.n && !inside; q++)
            inside = g->ids.v[q] == id;
        if (!inside)
            return true;
    }
    return false;
}

/* After a cut inside a propagator, is temporary vertex @v read by the
 * operations still to come? Always after a cut that is not a window's (the
 * corpus's outputs depend on that); after a window's cut, by lastread. */
static bool
aux_read_later(const xf_lcg_walk *w, uint32_t v)
{
    if (!w->window_cut)
        return true;
    const xf_lcg *g = &w->g;
    uintptr_t last = (uintptr_t)xf_map_get(&w->lastread, g->locs.v[g->vs.v[v].loc].sym);
    return last > w->cut_at;
}

/* Fill w->lastread for propagator @s: each temporary's last reader. */
static int
note_last_reads(xf_lcg_walk *w, const xf_stmt *s)
{
    xf_arena_reset(w->stmt_a);
    memset(&w->lastread, 0, sizeof w->lastread);
    for (uint32_t i = 0; i < s->u.dp.n; i++) {
        const xf_dpop *op = &s->u.dp.v[i];
        bool ax = op->kind == XF_DP_SAX || op->kind == XF_DP_SAXPY;
        uint32_t n = ax ? op->ax.n : op->kind != XF_DP_ZERODERIV;
        for (uint32_t k = 0; k < n; k++) {
            const xf_symref *r = xf_varref_symref(ax ? &op->ax.v[k].x : &op->src);
            if (r && r->sym && is_aux(r->sym) &&
                !xf_map_put(&w->lastread, w->stmt_a, r->sym, (void *)(uintptr_t)(i + 1), NULL))
                return xf_lcg_oom(&w->g);
        }
    }
    w->cut_stmt = s;
    return 0;
}

static void
mark_outputs(xf_lcg_walk *w)
{
    xf_lcg *g = &w->g;
    for (uint32_t i = 0; i < g->locs.n; i++) {
        uint32_t v = g->locs.v[i].cur;
        if (v == UINT32_MAX)
            continue;
        g->vs.v[v].final = true;
        /* a statement's temporaries are read by its own propagator only: dead
         * after it, unless the sequence ends inside it */
        g->vs.v[v].output = g->vs.v[v].aux ? w->mid_statement && aux_read_later(w, v)
                                           : live_after(g, g->vs.v[v].du);
    }
}

/* ------------------------------------------------------------ the walk */

int
xf_lcg_walk_init(xf_lcg_walk *w, xf_doc *doc, xf_arena *scratch, xf_diag *diag)
{
    memset(w, 0, sizeof *w);
    xf_lcg_init(&w->g, doc, scratch, diag);
    w->window = XF_LCG_WINDOW;
    if (!(w->stmt_a = xf_arena_new_like(scratch)))
        return xf_lcg_oom(&w->g);
    return 0;
}

void
xf_lcg_walk_fini(xf_lcg_walk *w)
{
    xf_arena_free(w->stmt_a);
    w->stmt_a = NULL;
}

/* The sequence so far to @sink, then an empty graph. */
static int
flush(xf_lcg_walk *w, const xf_lcg_sink *sink)
{
    if (w->g.vs.n > 0) {
        w->flushes++;
        mark_outputs(w);
        if (sink->sequence && sink->sequence(sink->ctx, w))
            return -1;
    }
    xf_lcg_reset(&w->g);
    return 0;
}

static int
keep(const xf_lcg_sink *sink, xf_stmt *s)
{
    return sink->stmt ? sink->stmt(sink->ctx, s) : 0;
}

/* Operation @i of propagator @s, in a window's bounds. */
static int
walk_op(xf_lcg_walk *w, xf_stmt *s, uint32_t i, const xf_lcg_sink *sink)
{
    xf_lcg *g = &w->g;
    w->mid_statement = i > 0;
    if (g->vs.n >= w->window) { /* a bounded window */
        if (i > 0 && w->cut_stmt != s && note_last_reads(w, s) < 0)
            return -1;
        w->cut_at = i;
        w->window_cut = i > 0;
        int r = flush(w, sink);
        w->window_cut = false;
        if (r)
            return -1;
    }
    bool cut;
    int r = xf_lcg_add_op(g, &s->u.dp.v[i], &cut);
    if (r < 0)
        return xf_lcg_oom(g);
    if (cut) {
        if (flush(w, sink))
            return -1;
        r = xf_lcg_add_op(g, &s->u.dp.v[i], &cut);
        if (r < 0)
            return xf_lcg_oom(g);
    }
    if (r > 0 || cut) {
        /* not representable: keep the operation as it is */
        xf_stmt *one = xf_stmt_derivprop(g->doc);
        if (flush(w, sink) || !one || !XF_VEC_PUSH(g->doc->arena, one->u.dp, s->u.dp.v[i]) ||
            keep(sink, one))
            return -1;
    }
    return 0;
}

void
xf_lcg_walk_begin(xf_lcg_walk *w)
{
    xf_lcg_reset(&w->g);
    w->pending = NULL;
    w->flushes = 0;
}

int
xf_lcg_walk_stmts(xf_lcg_walk *w, xf_stmt *const *v, uint32_t n, const xf_lcg_sink *sink)
{
    xf_lcg *g = &w->g;
    const char *pending = w->pending;
    for (uint32_t k = 0; k < n; k++) {
        xf_stmt *s = v[k];
        if (s->h.line || !w->where)
            w->where = s; /* the derivative code has no lines: the last original statement */
        switch (s->kind) {
        case XF_STMT_ASSIGN:
            if (xf_flag_is(s->u.as.lhs.deriv, false)) { /* a derivative assignment */
                if (flush(w, sink) || keep(sink, s))
                    return -1;
                if (pending && !XF_VEC_PUSH(g->a, g->ids, pending))
                    return xf_lcg_oom(g);
                pending = NULL;
                continue;
            }
            /* writing a variable that a location's subscript reads moves the location */
            if (xf_lcg_reads_index_var(g, &s->u.as.lhs) && flush(w, sink))
                return -1;
            /* a use by this statement is inside the sequence that holds its
             * propagator (the next statement, when it has one) */
            pending = s->id;
            if (k + 1 < n &&
                (v[k + 1]->kind == XF_STMT_DERIVPROP ||
                 (v[k + 1]->kind == XF_STMT_ASSIGN && xf_flag_is(v[k + 1]->u.as.lhs.deriv, false))))
                ;
            else if (s->id && !XF_VEC_PUSH(g->a, g->ids, s->id))
                return xf_lcg_oom(g);
            if (keep(sink, s))
                return -1;
            continue;
        case XF_STMT_MARKER:
            if (keep(sink, s))
                return -1;
            continue;
        case XF_STMT_DERIVPROP:
            for (uint32_t i = 0; i < s->u.dp.n; i++)
                if (walk_op(w, s, i, sink))
                    return -1;
            w->mid_statement = false;
            if (pending && !XF_VEC_PUSH(g->a, g->ids, pending))
                return xf_lcg_oom(g);
            pending = NULL;
            continue;
        case XF_STMT_CALL:
        case XF_STMT_ICALL:
            if (flush(w, sink) || keep(sink, s))
                return -1;
            continue;
        }
    }
    w->pending = pending;
    return 0;
}

int
xf_lcg_walk_end(xf_lcg_walk *w, const xf_lcg_sink *sink)
{
    return flush(w, sink);
}

int
xf_lcg_walk_block(xf_lcg_walk *w, const xf_cvertex *b, const xf_lcg_sink *sink)
{
    xf_lcg_walk_begin(w);
    return xf_lcg_walk_stmts(w, b->stmts.v, b->stmts.n, sink) || xf_lcg_walk_end(w, sink);
}
