/* addr_sets.c: the sets of address recovery (Utke, Naumann, Lyons et al.
 * [003] §1, §3); see addr.h. The candidates, per block the dependency
 * graph's nodes and the values the adjoint needs (R), and across the
 * graph, by a fixpoint, what each block's adjoint must hand back (E) and
 * may read (X). */
#include <string.h>

#include "addr.h"
#include "build.h"
#include "pass.h"

enum { MAX_NODES = 128, MAX_ROUNDS = 64 };

bool
xf_addr_has(const void *vec_v, uint32_t n, const xf_symbol *s)
{
    xf_symbol *const *v = vec_v;
    for (uint32_t i = 0; i < n; i++)
        if (v[i] == s)
            return true;
    return false;
}

bool
xf_addr_is_cand(const xf_addr *p, const xf_symbol *s)
{
    return xf_addr_has(p->cand.v, p->cand.n, s);
}

static int
add_sym(xf_arena *a, void *vec, xf_symbol *s, bool *grew)
{
    XF_VEC(xf_symbol *) *v = vec;
    if (xf_addr_has(v->v, v->n, s))
        return 0;
    if (grew)
        *grew = true;
    return XF_VEC_PUSH(a, *v, s) ? 0 : -1;
}

/* The value of @s reaching statement @k of @b (INT32_MAX: the block's exit);
 * its entry node is made on first use. UINT32_MAX when out of memory. */
uint32_t
xf_addr_reach(const xf_ablock *cb, const xf_symbol *s, int32_t k)
{
    xf_ablock *b = (xf_ablock *)cb;
    uint32_t best = UINT32_MAX, entry = UINT32_MAX;
    for (uint32_t i = 0; i < b->n.n; i++) {
        const xf_anode *n = &b->n.v[i];
        if (n->var != s)
            continue;
        if (n->stmt < 0)
            entry = i;
        else if (n->stmt < k && (best == UINT32_MAX || b->n.v[best].stmt < n->stmt))
            best = i;
    }
    return best != UINT32_MAX ? best : entry;
}

/* ------------------------------------------------------------ candidates */

static const xf_symbol *
plain_sym(const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    return s && !xf_varref_arrref(r) ? s->sym : NULL;
}

/* Drop every variable an argument of @args passes (by reference). */
static void
drop_args(xf_addr *p, const xf_arg_vec *args)
{
    for (uint32_t i = 0; i < args->n; i++) {
        const xf_expr *x = &args->v[i].val;
        for (uint32_t k = 0; k < x->v.n; k++) {
            if (x->v.v[k].kind != XF_EV_VARREF)
                continue;
            const xf_symref *s = xf_varref_symref(x->v.v[k].u.ref);
            for (uint32_t c = 0; s && c < p->cand.n; c++)
                if (p->cand.v[c] == s->sym)
                    p->cand.v[c] = p->cand.v[--p->cand.n];
        }
    }
}

static void
drop(xf_addr *p, const xf_symbol *s)
{
    for (uint32_t c = 0; s && c < p->cand.n; c++)
        if (p->cand.v[c] == s)
            p->cand.v[c] = p->cand.v[--p->cand.n];
}

/* A Marker for a passive store the front end did not write out: it may
 * write any integer, so nothing is recovered in its routine. */
static bool
lost_store(const xf_stmt *s)
{
    const char *an = s->h.annotation;
    return s->kind == XF_STMT_MARKER && an &&
           (strstr(an, "OPR_STID") || strstr(an, "OPR_ISTORE") || strstr(an, "OPR_PSTORE"));
}

/* Local integer scalars, not formals, that only plain assignments in basic
 * blocks write, that no call receives and no other variable aliases; in a
 * routine that hosts internal procedures (which write its variables with
 * no argument) only the transformation's temporaries (xf_is_private). */
static int
candidates(xf_addr *p, const xf_graph *g)
{
    const xf_scope *sc = p->rt->cfg_scope;
    bool host = xf_hosts_procedures(p->doc, p->rt);
    for (uint32_t i = 0; sc && i < sc->syms.n; i++) {
        xf_symbol *s = sc->syms.v[i];
        bool formal = false;
        for (uint32_t k = 0; k < p->rt->args.n && !formal; k++)
            formal = p->rt->args.v[k].sym == s;
        if (!formal && (!host || xf_is_temporary(s)) && s->type == XF_TYPE_INTEGER &&
            xf_shape_rank(s->shape) <= 0 && s->kind != XF_SYMKIND_POINTER &&
            !xf_flag_is(s->pointer, false) && !XF_VEC_PUSH(p->a, p->cand, s))
            return -1;
    }
    /* first what drops candidates outright (loop variables, what calls
     * receive, lost stores), so that the alias checks below see few */
    for (uint32_t i = 0; i < g->v.n && p->cand.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        if (v->init)
            drop(p, plain_sym(&v->init->u.as.lhs));
        if (v->update)
            drop(p, plain_sym(&v->update->u.as.lhs));
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            const xf_stmt *s = v->stmts.v[k];
            if (s->kind == XF_STMT_CALL)
                drop_args(p, &s->u.call.args);
            else if (s->kind == XF_STMT_ICALL)
                drop_args(p, &s->u.icall.args);
            else if (s->kind == XF_STMT_MARKER && lost_store(s))
                p->cand.n = 0;
        }
    }
    if (!p->cand.n)
        return 0;
    /* a reference to each candidate, made once */
    xf_varref *ref = xf_arena_alloc(p->a, p->cand.n * sizeof *ref);
    bool *made = xf_arena_alloc(p->a, p->cand.n * sizeof *made);
    if (!ref || !made)
        return -1;
    for (uint32_t c = 0; c < p->cand.n; c++)
        made[c] = xf_ref_init(p->doc, &ref[c], p->cand.v[c]);
    /* an element or a section of something that may overlap a candidate */
    for (uint32_t i = 0; i < g->v.n && p->cand.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            const xf_stmt *s = v->stmts.v[k];
            if (s->kind != XF_STMT_ASSIGN)
                continue;
            const xf_symref *l = xf_varref_symref(&s->u.as.lhs);
            for (uint32_t c = 0; l && c < p->cand.n; c++) {
                if (l->sym == p->cand.v[c] || !made[c] ||
                    !xf_refs_may_alias(p->doc, &s->u.as.lhs, &ref[c]))
                    continue;
                uint32_t last = --p->cand.n;
                p->cand.v[c] = p->cand.v[last];
                ref[c] = ref[last];
                made[c--] = made[last];
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------ blocks */

static bool
is_loopvar(const xf_ablock *b, const xf_symbol *s)
{
    for (const xf_region *q = b->region->parent; q; q = q->parent)
        if (q->kind == XF_RG_LOOP && q->head && q->head->i == s)
            return true;
    return false;
}

/* Does @x read only constants, operations, loop variables and candidates?
 * *@reads: whether it reads a candidate. */
static bool
evaluable(const xf_addr *p, const xf_ablock *b, const xf_expr *x, bool *reads)
{
    *reads = false;
    for (uint32_t i = 0; i < x->v.n; i++) {
        const xf_evertex *v = &x->v.v[i];
        if (v->kind == XF_EV_CONSTANT || v->kind == XF_EV_INTRINSIC)
            continue;
        if (v->kind != XF_EV_VARREF)
            return false;
        const xf_symbol *s = plain_sym(v->u.ref);
        if (!s)
            return false;
        if (xf_addr_is_cand(p, s))
            *reads = true;
        else if (!is_loopvar(b, s))
            return false;
    }
    return true;
}

/* The entry node of @s in @b (made if missing). */
static int
entry_node(xf_addr *p, xf_ablock *b, xf_symbol *s)
{
    for (uint32_t i = 0; i < b->n.n; i++)
        if (b->n.v[i].var == s && b->n.v[i].stmt < 0)
            return 0;
    xf_anode n = {.var = s, .stmt = -1};
    return XF_VEC_PUSH(p->a, b->n, n) ? 0 : -1;
}

/* Entry nodes for the candidates @x reads. */
static int
entries_of(xf_addr *p, xf_ablock *b, const xf_expr *x)
{
    for (uint32_t i = 0; i < x->v.n; i++)
        if (x->v.v[i].kind == XF_EV_VARREF) {
            const xf_symref *s = xf_varref_symref(x->v.v[i].u.ref);
            if (s && xf_addr_is_cand(p, s->sym) && entry_node(p, b, s->sym))
                return -1;
        }
    return 0;
}

/* R: the values subscript @x of statement @k needs, when it reads candidates only. */
static int
need(xf_addr *p, xf_ablock *b, const xf_expr *x, int32_t k)
{
    bool reads;
    if (!x || !evaluable(p, b, x, &reads) || !reads || entries_of(p, b, x))
        return 0;
    for (uint32_t i = 0; i < x->v.n; i++) {
        if (x->v.v[i].kind != XF_EV_VARREF)
            continue;
        const xf_symbol *s = plain_sym(x->v.v[i].u.ref);
        if (!xf_addr_is_cand(p, s))
            continue;
        uint32_t t = xf_addr_reach(b, s, k);
        bool have = false;
        for (uint32_t j = 0; j < b->targets.n && !have; j++)
            have = b->targets.v[j] == t;
        if (!have && !XF_VEC_PUSH(p->a, b->targets, t))
            return -1;
    }
    return 0;
}

static int
need_ref(xf_addr *p, xf_ablock *b, const xf_varref *r, int32_t k)
{
    const xf_arrref *ar = xf_varref_arrref(r);
    for (uint32_t i = 0; ar && i < ar->t.n; i++)
        if (need(p, b, ar->t.v[i].index, k) || need(p, b, ar->t.v[i].bound, k) ||
            need(p, b, ar->t.v[i].stride, k))
            return -1;
    return 0;
}

static int
need_expr_refs(xf_addr *p, xf_ablock *b, const xf_expr *x, int32_t k)
{
    for (uint32_t i = 0; i < x->v.n; i++)
        if (x->v.v[i].kind == XF_EV_VARREF && need_ref(p, b, x->v.v[i].u.ref, k))
            return -1;
    return 0;
}

/* The nodes of @b: one per assignment to a candidate, one per candidate at
 * entry; and the values its adjoint needs. */
static int
fill_block(xf_addr *p, xf_ablock *b)
{
    const xf_cvertex *v = b->v;
    for (uint32_t k = 0; k < v->stmts.n; k++) {
        const xf_stmt *s = v->stmts.v[k];
        if (s->kind != XF_STMT_ASSIGN || xf_flag_is(s->u.as.lhs.deriv, false))
            continue;
        const xf_symref *l = xf_varref_symref(&s->u.as.lhs);
        if (!l || xf_varref_arrref(&s->u.as.lhs) || !xf_addr_is_cand(p, l->sym))
            continue;
        bool reads;
        xf_anode n = {.var = l->sym, .stmt = (int32_t)k, .rhs = &s->u.as.rhs};
        n.evaluable = evaluable(p, b, n.rhs, &reads);
        if (entries_of(p, b, n.rhs) || entry_node(p, b, l->sym) || !XF_VEC_PUSH(p->a, b->n, n) ||
            add_sym(p->a, &b->written, l->sym, NULL))
            return -1;
    }
    for (uint32_t k = 0; k < v->stmts.n; k++) {
        const xf_stmt *s = v->stmts.v[k];
        int ret = 0;
        switch (s->kind) {
        case XF_STMT_DERIVPROP:
            for (uint32_t o = 0; o < s->u.dp.n && !ret; o++) {
                const xf_dpop *op = &s->u.dp.v[o];
                ret = need_ref(p, b, &op->tgt, (int32_t)k) ||
                      need_ref(p, b, &op->src, (int32_t)k) || need_ref(p, b, &op->y, (int32_t)k);
                for (uint32_t i = 0; i < op->ax.n && !ret; i++)
                    ret = need_ref(p, b, &op->ax.v[i].x, (int32_t)k);
            }
            break;
        case XF_STMT_ASSIGN:
            if (xf_flag_is(s->u.as.lhs.deriv, false))
                ret = need_ref(p, b, &s->u.as.lhs, (int32_t)k) ||
                      need_expr_refs(p, b, &s->u.as.rhs, (int32_t)k);
            break;
        case XF_STMT_CALL:
            for (uint32_t i = 0; i < s->u.call.args.n && !ret; i++)
                ret = need_expr_refs(p, b, &s->u.call.args.v[i].val, (int32_t)k);
            break;
        case XF_STMT_ICALL:
        case XF_STMT_MARKER:
            break;
        }
        if (ret)
            return -1;
    }
    b->capped = b->n.n > MAX_NODES;
    if (b->capped)
        b->targets.n = 0;
    return 0;
}

/* The blocks of the region tree in order (its pre-order: no recursion, any
 * depth of nesting). */
static int
collect(xf_addr *p, const xf_cfgtree *t)
{
    for (uint32_t i = 0; i < t->all.n; i++) {
        const xf_region *r = t->all.v[i];
        if (r->kind != XF_RG_BLOCK)
            continue;
        xf_ablock b = {.v = r->v, .region = r};
        if (!XF_VEC_PUSH(p->a, p->b, b))
            return -1;
    }
    return 0;
}

static uint32_t
vindex(const xf_graph *g, const xf_cvertex *v)
{
    if (v->index < g->v.n && g->v.v[v->index] == v)
        return v->index;
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i] == v)
            return i;
    return UINT32_MAX;
}

static uint32_t
block_of(const xf_addr *p, const xf_cvertex *v)
{
    uint32_t i = p->blk ? vindex(p->g, v) : UINT32_MAX;
    return i == UINT32_MAX ? UINT32_MAX : p->blk[i];
}

/* Edge lists by vertex, and each vertex's block: O(V + E). */
static int
index_graph(xf_addr *p, const xf_graph *g)
{
    uint32_t nv = g->v.n, ne = g->e.n;
    p->g = g;
    p->blk = XF_NEW_ARRAY(p->a, nv + 1, uint32_t);
    p->in_first = XF_NEW_ARRAY(p->a, nv + 2, uint32_t);
    p->out_first = XF_NEW_ARRAY(p->a, nv + 2, uint32_t);
    p->in_edge = XF_NEW_ARRAY(p->a, ne + 1, uint32_t);
    p->out_edge = XF_NEW_ARRAY(p->a, ne + 1, uint32_t);
    if (!p->blk || !p->in_first || !p->out_first || !p->in_edge || !p->out_edge)
        return -1;
    memset(p->in_first, 0, sizeof(uint32_t) * (nv + 2));
    memset(p->out_first, 0, sizeof(uint32_t) * (nv + 2));
    for (uint32_t i = 0; i < nv; i++)
        p->blk[i] = UINT32_MAX;
    for (uint32_t i = 0; i < p->b.n; i++) {
        uint32_t vi = vindex(g, p->b.v[i].v);
        if (vi != UINT32_MAX)
            p->blk[vi] = i;
    }
    for (uint32_t j = 0; j < ne; j++) {
        uint32_t s = vindex(g, g->e.v[j]->src), t = vindex(g, g->e.v[j]->tgt);
        if (s == UINT32_MAX || t == UINT32_MAX)
            return -1;
        p->out_first[s + 2]++;
        p->in_first[t + 2]++;
    }
    for (uint32_t i = 2; i < nv + 2; i++) {
        p->out_first[i] += p->out_first[i - 1];
        p->in_first[i] += p->in_first[i - 1];
    }
    for (uint32_t j = 0; j < ne; j++) {
        uint32_t s = vindex(g, g->e.v[j]->src), t = vindex(g, g->e.v[j]->tgt);
        p->out_edge[p->out_first[s + 1]++] = j;
        p->in_edge[p->in_first[t + 1]++] = j;
    }
    return 0;
}

/* The blocks whose exit reaches @v's entry through control vertices only.
 * Each step costs one unit of p->budget: @returns 1 when it runs out. */
static int
fill_preds(xf_addr *p, const xf_graph *g, uint32_t bi, const xf_cvertex *v, uint8_t *seen)
{
    uint32_t nwork = 0, nmarked = 0, vi = vindex(g, v);
    if (vi == UINT32_MAX)
        return 0;
    p->work[nwork++] = vi;
    int ret = 0;
    while (nwork && !ret) {
        uint32_t wi = p->work[--nwork];
        for (uint32_t q = p->in_first[wi]; q < p->in_first[wi + 1] && !ret; q++) {
            if (!p->budget--) {
                ret = 1;
                break;
            }
            const xf_cvertex *s = g->e.v[p->in_edge[q]]->src;
            if (s->kind == XF_CV_BASICBLOCK) {
                uint32_t pb = block_of(p, s);
                bool have = false;
                for (uint32_t k = 0; pb != UINT32_MAX && k < p->b.v[bi].preds.n; k++)
                    have = have || p->b.v[bi].preds.v[k] == pb;
                if (pb != UINT32_MAX && !have && !XF_VEC_PUSH(p->a, p->b.v[bi].preds, pb))
                    ret = -1;
                continue;
            }
            uint32_t si = vindex(g, s);
            if (si != UINT32_MAX && !seen[si]) {
                seen[si] = 1;
                p->work[nwork++] = si;
                p->marked[nmarked++] = si;
            }
        }
    }
    for (uint32_t k = 0; k < nmarked; k++)
        seen[p->marked[k]] = 0;
    return ret;
}

/* ------------------------------------------------------------ liveness */

static uint32_t
cand_index(const xf_addr *p, const xf_symbol *s)
{
    for (uint32_t c = 0; s && c < p->cand.n; c++)
        if (p->cand.v[c] == s)
            return c;
    return UINT32_MAX;
}

typedef struct reading {
    const xf_addr *p;
    uint8_t *set;
} reading;

/* Each candidate read as a whole (a scalar reference). */
static xf_walk_go
read_step(void *ctx, const xf_walk_step *s)
{
    const reading *g = ctx;
    const xf_symref *sr = s->ref ? xf_varref_symref(s->ref) : NULL;
    uint32_t c = sr && !xf_varref_arrref(s->ref) ? cand_index(g->p, sr->sym) : UINT32_MAX;
    if (c != UINT32_MAX)
        g->set[c] = 1;
    return XF_WALK_GO;
}

/* What @r (@x) reads, subscripts and call arguments included; out of
 * memory, every candidate. */
static void
reads_ref(const xf_addr *p, const xf_varref *r, uint8_t *set)
{
    reading g = {p, set};
    if (xf_walk_ref(r, XF_WALK_ARGS, read_step, &g) < 0)
        memset(set, 1, p->cand.n);
}

static void
reads_expr(const xf_addr *p, const xf_expr *x, uint8_t *set)
{
    reading g = {p, set};
    if (xf_walk_expr(x, XF_WALK_ARGS, read_step, &g) < 0)
        memset(set, 1, p->cand.n);
}

/* in = (out \ defs) ∪ uses, statement by statement from the last. */
static void
transfer(const xf_addr *p, const xf_cvertex *v, uint8_t *set)
{
    if (v->cond)
        reads_expr(p, v->cond, set);
    if (v->init)
        reads_expr(p, &v->init->u.as.rhs, set);
    if (v->update)
        reads_expr(p, &v->update->u.as.rhs, set);
    for (uint32_t k = v->stmts.n; k-- > 0;) {
        const xf_stmt *s = v->stmts.v[k];
        switch (s->kind) {
        case XF_STMT_ASSIGN: {
            uint32_t c = cand_index(p, plain_sym(&s->u.as.lhs));
            if (c != UINT32_MAX)
                set[c] = 0;
            else
                reads_ref(p, &s->u.as.lhs, set);
            reads_expr(p, &s->u.as.rhs, set);
            break;
        }
        case XF_STMT_CALL:
            for (uint32_t i = 0; i < s->u.call.args.n; i++)
                reads_expr(p, &s->u.call.args.v[i].val, set);
            break;
        case XF_STMT_ICALL:
            for (uint32_t i = 0; i < s->u.icall.args.n; i++)
                reads_expr(p, &s->u.icall.args.v[i].val, set);
            break;
        case XF_STMT_DERIVPROP:
            for (uint32_t o = 0; o < s->u.dp.n; o++) {
                const xf_dpop *op = &s->u.dp.v[o];
                reads_ref(p, &op->tgt, set);
                reads_ref(p, &op->src, set);
                reads_ref(p, &op->y, set);
                for (uint32_t i = 0; i < op->ax.n; i++)
                    reads_ref(p, &op->ax.v[i].x, set);
            }
            break;
        case XF_STMT_MARKER:
            break;
        }
    }
}

/* Each block's live-out candidates (read later in the forward run before
 * being written): the values at its exit that the game may start from.
 * @returns 1 when p->budget runs out. */
static int
liveness(xf_addr *p, const xf_graph *g)
{
    uint32_t nv = g->v.n, nc = p->cand.n;
    uint8_t *in = xf_arena_alloc(p->a, (size_t)nv * nc + 1), *out = xf_arena_alloc(p->a, nc + 1);
    if (!in || !out)
        return -1;
    memset(in, 0, (size_t)nv * nc);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = nv; i-- > 0;) {
            if (!p->budget--)
                return 1;
            const xf_cvertex *v = g->v.v[i];
            memset(out, 0, nc);
            for (uint32_t q = p->out_first[i]; q < p->out_first[i + 1]; q++) {
                uint32_t ti = vindex(g, g->e.v[p->out_edge[q]]->tgt);
                for (uint32_t c = 0; ti != UINT32_MAX && c < nc; c++)
                    out[c] |= in[(size_t)ti * nc + c];
            }
            if (v->kind == XF_CV_BASICBLOCK) {
                uint32_t bi = block_of(p, v);
                for (uint32_t c = 0; bi != UINT32_MAX && c < nc; c++)
                    if (out[c] && add_sym(p->a, &p->b.v[bi].live_out, p->cand.v[c], NULL))
                        return -1;
            }
            transfer(p, v, out);
            if (memcmp(out, in + (size_t)i * nc, nc)) {
                memcpy(in + (size_t)i * nc, out, nc);
                changed = true;
            }
        }
    }
    return 0;
}

/* X(b) ∪= U(b) ∪ (E(b) \ W(b)), from the game just played. */
static int
update_exit(xf_addr *p, xf_ablock *b, bool *grew)
{
    for (uint32_t i = 0; i < b->entry_in.n; i++)
        if (!xf_addr_has(b->written.v, b->written.n, b->entry_in.v[i]) &&
            add_sym(p->a, &b->exit_out, b->entry_in.v[i], grew))
            return -1;
    for (uint32_t i = 0; i < b->n.n; i++)
        if (b->n.v[i].how == XF_ADDR_EXIT && b->n.v[i].used &&
            add_sym(p->a, &b->exit_out, b->n.v[i].var, grew))
            return -1;
    return 0;
}

int
xf_addr_plan(xf_doc *doc, xf_routine *rt, const xf_graph *g, const xf_cfgtree *t, xf_arena *a,
             unsigned *nsym, xf_addr **out)
{
    *out = NULL;
    xf_addr *p = XF_NEW(a, xf_addr);
    if (!p)
        return -1;
    memset(p, 0, sizeof *p);
    p->doc = doc;
    p->rt = rt;
    p->a = a;
    p->nsym = nsym;
    if (candidates(p, g) || collect(p, t) || index_graph(p, g))
        return -1;
    if (!p->cand.n)
        return 0;
    /* the block before Exit hands the promised values over */
    uint32_t last = UINT32_MAX, nexit = 0;
    for (uint32_t j = 0; j < g->e.n; j++)
        if (g->e.v[j]->tgt == t->exit) {
            nexit++;
            last = block_of(p, g->e.v[j]->src);
        }
    if (nexit != 1 || last == UINT32_MAX)
        return 0;
    p->b.v[last].last = true;
    /* the control vertices seen by fill_preds, which clears what it marks */
    uint8_t *seen = xf_arena_alloc(p->a, g->v.n + 1);
    p->work = xf_arena_alloc(p->a, ((size_t)g->v.n + 1) * sizeof *p->work);
    p->marked = xf_arena_alloc(p->a, ((size_t)g->v.n + 1) * sizeof *p->marked);
    if (!seen || !p->work || !p->marked)
        return -1;
    memset(seen, 0, g->v.n + 1);
    /* a bounded analysis: a graph whose walks would take more than a fixed
     * multiple of its size (deeply nested loops, where each block's walk
     * crosses every end marker) stores its subscripts, which is always right */
    p->budget = 64 * ((uint64_t)g->v.n + g->e.n) + 100000;
    bool any = false;
    for (uint32_t i = 0; i < p->b.n; i++) {
        if (fill_block(p, &p->b.v[i]))
            return -1;
        any = any || p->b.v[i].targets.n || p->b.v[i].capped;
    }
    if (!any)
        return 0; /* no adjoint needs an address: nothing to recover */
    for (uint32_t i = 0; i < p->b.n; i++) {
        int r = fill_preds(p, g, i, p->b.v[i].v, seen);
        if (r)
            return r < 0 ? -1 : 0;
    }
    int r = liveness(p, g);
    if (r)
        return r < 0 ? -1 : 0;
    /* E and X to a fixpoint: both only grow */
    for (int round = 0;; round++) {
        if (round == MAX_ROUNDS)
            return 0; /* no recovery rather than a guess */
        bool grew = false;
        for (uint32_t i = 0; i < p->b.n; i++) {
            xf_ablock *b = &p->b.v[i];
            for (uint32_t k = 0; k < b->entry_in.n; k++)
                if (entry_node(p, b, b->entry_in.v[k]))
                    return -1;
            if (xf_addr_game(p, b) || update_exit(p, b, &grew))
                return -1;
        }
        for (uint32_t i = 0; i < p->b.n; i++) {
            xf_ablock *b = &p->b.v[i];
            for (uint32_t k = 0; k < b->preds.n; k++) {
                const xf_ablock *pb = &p->b.v[b->preds.v[k]];
                for (uint32_t j = 0; j < pb->exit_out.n; j++)
                    if (add_sym(a, &b->entry_in, pb->exit_out.v[j], &grew))
                        return -1;
            }
        }
        if (!grew)
            break;
    }
    for (uint32_t j = 0; j < p->b.v[last].exit_out.n; j++)
        if (add_sym(a, &p->handed, p->b.v[last].exit_out.v[j], NULL))
            return -1;
    for (uint32_t i = 0; i < p->b.n; i++)
        if (xf_addr_emit(p, &p->b.v[i]))
            return -1;
    p->counts.candidates = p->cand.n;
    p->counts.handed = p->handed.n;
    *out = p;
    return 0;
}

const xf_addr_code *
xf_addr_block(const xf_addr *p, const xf_cvertex *v)
{
    uint32_t i = p ? block_of(p, v) : UINT32_MAX;
    return i == UINT32_MAX ? NULL : &p->b.v[i].code;
}

xf_expr *
xf_addr_subscript(xf_doc *doc, const xf_addr *p, const xf_cvertex *v, uint32_t k, const xf_expr *x)
{
    uint32_t i = p ? block_of(p, v) : UINT32_MAX;
    if (i == UINT32_MAX)
        return NULL;
    const xf_ablock *b = &p->b.v[i];
    bool reads;
    if (!evaluable(p, b, x, &reads) || !reads)
        return NULL;
    return xf_addr_copy_at(doc, p, b, x, (int32_t)k, true);
}

xf_addr_counts
xf_addr_counts_of(const xf_addr *p)
{
    xf_addr_counts c = {0};
    return p ? p->counts : c;
}
