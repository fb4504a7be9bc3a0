/* preaccumulate.c: per basic block, the linearized computational graph
 * (LCG) of the tangent propagation that linearize wrote, its local Jacobian
 * accumulated by vertex elimination, and the propagation rewritten with it
 * (Naumann et al. [000] §3.1-3.3; xaifBooster's BasicBlockPreaccumulation).
 *
 * A block is cut into sequences at calls, at derivative assignments and
 * wherever the graph could not tell two variables apart (an element x(i)
 * read after x(j) was written, an index variable written). In a sequence,
 * the vertices are the versions of the variables that the propagators read
 * and write; an edge carries a partial (a constant or an OpenAD_lin_*
 * variable). Four ways to emit a sequence are costed exactly, in the
 * multiplications and additions the emitted code will execute:
 *   none      the propagation as linearize wrote it (forward mode);
 *   statement each statement's temporaries eliminated (its local gradient);
 *   forward / reverse / Markowitz vertex elimination of every intermediate
 *             vertex, leaving the Jacobian from the sequence's inputs to its
 *             live outputs (OpenAD_acc_*), applied once at its end.
 * --elimination picks one; best (the default) the cheapest, where in an
 * adjoint's taping sweep each non-constant partial applied also counts
 * (it is a tape word: a push and a pop), and a tie goes to fewer of them.
 * Needs: linearize. Breaks: nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "pass.h"

/* A weight: c * var, or the constant c when var is NULL. */
typedef struct wt {
    double c;
    xf_symbol *var;
    int rank;
} wt;

/* A storage location the propagation reads or writes. */
typedef struct loc {
    const xf_varref *ref; /* as written by the propagator */
    const xf_symbol *sym;
    const char *sig; /* the subscripts, canonically; NULL for a whole variable */
    bool temp;       /* a temporary of ours: no other location aliases it */
    int rank;
    uint32_t cur;   /* its current vertex, UINT32_MAX if not written yet */
    uint32_t indep; /* its vertex at the start, UINT32_MAX if not read yet */
} loc;

typedef struct vx {
    uint32_t loc;
    bool indep;
    bool output;              /* its value is needed after the sequence */
    bool aux;                 /* a temporary of one statement's expression */
    bool gone;                /* eliminated */
    bool final;               /* the last version of its location */
    int64_t du;               /* DU set key of the definition */
    XF_VEC(uint32_t) in, out; /* edges */
} vx;

typedef struct ed {
    uint32_t src, tgt;
    wt w;
    bool dead;
} ed;

/* The most vertices a sequence gets before it is cut: each order costs at
 * most O(WINDOW^2) per sequence, so a long block costs O(WINDOW) per
 * statement. The corpus's largest sequence has 313 vertices. */
enum { WINDOW = 512 };

typedef struct cost {
    uint64_t muls, adds;
    uint64_t words; /* non-constant weights applied: tape words in an adjoint */
} cost;

typedef enum mode { M_NONE, M_STATEMENT, M_FORWARD, M_REVERSE, M_MARKOWITZ, M_COUNT } mode;
static const char *const mode_names[M_COUNT] = {"none", "statement", "forward", "reverse",
                                                "markowitz"};

/* A sequence's graph. */
typedef struct graph {
    XF_VEC(loc) locs;
    XF_VEC(vx) vs;
    XF_VEC(ed) es;
} graph;

typedef struct pre {
    xf_pass_ctx *ctx;
    xf_doc *doc;
    xf_scope *scope;
    xf_arena *a; /* scratch, per routine */
    unsigned nacc, nprp;
    XF_VEC(xf_stmt *) out;
    graph g;
    XF_VEC(const char *) ids;      /* statement ids in the sequence (for DU chains) */
    XF_VEC(const xf_symbol *) ixv; /* variables the locations' subscripts read */
    const xf_stmt *where;          /* for messages */
    bool mid_statement;            /* flushing inside one statement's propagator */
    /* a window's cut inside a propagator: which temporaries the rest reads */
    bool window_cut;         /* flushing at such a cut */
    const xf_stmt *cut_stmt; /* the propagator that lastread describes, or NULL */
    uint32_t cut_at;         /* the cut: operations cut_at.. are still to come */
    xf_map lastread;         /* temporary's symbol -> index + 1 of its last reader */
    xf_arena *stmt_a;        /* lastread's storage */
    /* code being emitted, or costed when dry */
    bool dry;
    bool taped; /* the block is an adjoint's taping sweep: its partials go on the tape */
    cost c;
    XF_VEC(xf_stmt *) code;
    xf_stmt *dp; /* the DerivativePropagator being filled */
} pre;

/* Variables the subscripts of @r read. */
static int
note_index_vars(pre *p, const xf_varref *r, int depth)
{
    const xf_arrref *a = xf_varref_arrref(r);
    if (!a || depth > 50)
        return 0;
    for (uint32_t i = 0; i < a->t.n; i++) {
        const xf_expr *parts[3] = {a->t.v[i].index, a->t.v[i].bound, a->t.v[i].stride};
        for (int k = 0; k < 3; k++)
            for (uint32_t q = 0; parts[k] && q < parts[k]->v.n; q++)
                if (parts[k]->v.v[q].kind == XF_EV_VARREF) {
                    const xf_symref *s = xf_varref_symref(parts[k]->v.v[q].u.ref);
                    if (s && !XF_VEC_PUSH(p->a, p->ixv, s->sym))
                        return -1;
                    if (note_index_vars(p, parts[k]->v.v[q].u.ref, depth + 1))
                        return -1;
                }
    }
    return 0;
}

/* ------------------------------------------------------------ aliasing */

/* May two locations share storage? (Equal ones are handled before.) */
static bool
may_alias(const pre *p, const loc *a, const loc *b)
{
    if (a->temp || b->temp)
        return a->sym == b->sym;
    return xf_refs_may_alias(p->doc, a->ref, b->ref);
}

static bool
same_loc(const loc *a, const xf_symbol *sym, const char *sig)
{
    return a->sym == sym && (a->sig == sig || (a->sig && sig && !strcmp(a->sig, sig)));
}

/* ------------------------------------------------------------ graph */

/* Forget the sequence; everything it kept in the scratch arena goes too. */
static void
graph_reset(pre *p)
{
    xf_arena_reset(p->a);
    memset(&p->g, 0, sizeof p->g);
    memset(&p->ids, 0, sizeof p->ids);
    memset(&p->ixv, 0, sizeof p->ixv);
}

static bool
is_aux(const xf_symbol *s)
{
    return s && !strncmp(s->id, "OpenAD_aux_", 11) && xf_flag_is(s->temp, false);
}

/* The location of @r: its index, a new one, or UINT32_MAX when @r cannot be
 * told apart from a location already written (cut the sequence). */
static uint32_t
find_loc(pre *p, const xf_varref *r, bool *ambiguous)
{
    *ambiguous = false;
    const xf_symref *s = xf_varref_symref(r);
    if (!s || !s->sym) {
        *ambiguous = true;
        return UINT32_MAX;
    }
    char buf[1024];
    size_t n = 0;
    buf[0] = 0;
    const char *sig = NULL;
    if (xf_varref_arrref(r)) {
        xf_sig_ref(r, buf, sizeof buf, &n, 0);
        if (n >= sizeof buf) {
            *ambiguous = true;
            return UINT32_MAX;
        }
        sig = xf_intern(p->doc, buf);
    }
    for (uint32_t i = 0; i < p->g.locs.n; i++)
        if (same_loc(&p->g.locs.v[i], s->sym, sig))
            return i;
    loc l = {.ref = r, .sym = s->sym, .sig = sig, .cur = UINT32_MAX, .indep = UINT32_MAX};
    l.temp = !strncmp(s->sym->id, "OpenAD_", 7) && xf_flag_is(s->sym->temp, false);
    const xf_arrref *ar = xf_varref_arrref(r);
    l.rank = ar ? 0 : (xf_shape_rank(s->sym->shape) > 0 ? xf_shape_rank(s->sym->shape) : 0);
    for (uint32_t i = 0; ar && i < ar->t.n; i++)
        if (ar->t.v[i].bound || ar->t.v[i].stride || !ar->t.v[i].index)
            l.rank++;
    /* a new location that may share storage with one already written: cut */
    for (uint32_t i = 0; i < p->g.locs.n; i++)
        if (p->g.locs.v[i].cur != UINT32_MAX && may_alias(p, &p->g.locs.v[i], &l)) {
            *ambiguous = true;
            return UINT32_MAX;
        }
    if (note_index_vars(p, r, 0) || !XF_VEC_PUSH(p->a, p->g.locs, l))
        return UINT32_MAX;
    return p->g.locs.n - 1;
}

static uint32_t
new_vertex(pre *p, uint32_t l, bool indep)
{
    vx v = {.loc = l, .indep = indep, .du = XF_NOINT};
    v.aux = is_aux(p->g.locs.v[l].sym);
    return XF_VEC_PUSH(p->a, p->g.vs, v) ? p->g.vs.n - 1 : UINT32_MAX;
}

/* The vertex whose value location @l holds now. */
static uint32_t
read_loc(pre *p, uint32_t l)
{
    loc *lc = &p->g.locs.v[l];
    if (lc->cur != UINT32_MAX)
        return lc->cur;
    if (lc->indep == UINT32_MAX)
        lc->indep = new_vertex(p, l, true);
    lc = &p->g.locs.v[l];
    return lc->indep;
}

static bool
add_edge(pre *p, uint32_t src, uint32_t tgt, wt w)
{
    ed e = {.src = src, .tgt = tgt, .w = w};
    if (!XF_VEC_PUSH(p->a, p->g.es, e))
        return false;
    uint32_t k = p->g.es.n - 1;
    return XF_VEC_PUSH(p->a, p->g.vs.v[src].out, k) && XF_VEC_PUSH(p->a, p->g.vs.v[tgt].in, k);
}

/* The weight of an AX's A: a constant, or a variable of ours. */
static bool
weight_of(const xf_expr *a, wt *w)
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
    w->c = 1.0;
    w->var = s->sym;
    w->rank = xf_shape_rank(s->sym->shape) > 0 ? xf_shape_rank(s->sym->shape) : 0;
    return true;
}

/* Add propagator operation @op to the graph; false when it must start a new
 * sequence (returned with nothing changed) or cannot be represented. */
static int
add_op(pre *p, const xf_dpop *op, bool *cut)
{
    *cut = false;
    const xf_varref *y;
    uint32_t nt = 0;
    struct {
        const xf_varref *x;
        wt w;
    } t[64];
    switch (op->kind) {
    case XF_DP_ZERODERIV:
        y = &op->tgt;
        break;
    case XF_DP_SETDERIV:
    case XF_DP_SETNEGDERIV:
        y = &op->tgt;
        t[nt].x = &op->src;
        t[nt++].w = (wt){.c = op->kind == XF_DP_SETDERIV ? 1.0 : -1.0};
        break;
    case XF_DP_SAX:
        y = &op->y;
        if (op->ax.n > 64)
            return 1;
        for (uint32_t i = 0; i < op->ax.n; i++) {
            if (!weight_of(&op->ax.v[i].a, &t[nt].w))
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
        xl[i] = find_loc(p, t[i].x, &amb);
        if (amb) {
            *cut = true;
            return 0;
        }
        if (xl[i] == UINT32_MAX)
            return -1;
    }
    uint32_t yl = find_loc(p, y, &amb);
    if (amb) {
        *cut = true;
        return 0;
    }
    if (yl == UINT32_MAX)
        return -1;
    /* writing a location that may share storage with another one in use
     * (this operation's sources included): cut. Otherwise a later read of
     * that location would take its value from before this write. */
    for (uint32_t i = 0; i < p->g.locs.n; i++) {
        if (i == yl)
            continue;
        bool used = p->g.locs.v[i].cur != UINT32_MAX || p->g.locs.v[i].indep != UINT32_MAX;
        for (uint32_t k = 0; k < nt && !used; k++)
            used = xl[k] == i;
        if (used && may_alias(p, &p->g.locs.v[i], &p->g.locs.v[yl])) {
            *cut = true;
            return 0;
        }
    }
    uint32_t src[64];
    for (uint32_t i = 0; i < nt; i++)
        if ((src[i] = read_loc(p, xl[i])) == UINT32_MAX)
            return -1;
    uint32_t v = new_vertex(p, yl, false);
    if (v == UINT32_MAX)
        return -1;
    p->g.vs.v[v].du = y->du_ud;
    for (uint32_t i = 0; i < nt; i++) {
        if (t[i].w.c == 0.0 && !t[i].w.var)
            continue;
        if (!add_edge(p, src[i], v, t[i].w))
            return -1;
    }
    p->g.locs.v[yl].cur = v;
    return 0;
}

/* ------------------------------------------------------------ outputs */

/* Is the definition's value used after the sequence? By its DU chain: not
 * when every use it lists is a statement of the sequence. */
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

static bool
live_after(pre *p, int64_t du)
{
    if (du == XF_NOINT || du == 0)
        return true;
    const xf_stmtid_set *s = find_set(&p->doc->cg.duud, du);
    if (!s)
        return true;
    for (uint32_t k = 0; k < s->ids.n; k++) {
        const char *id = s->ids.v[k].ref;
        bool inside = false;
        for (uint32_t q = 0; id && id[0] && q < p->ids.n && !inside; q++)
            inside = p->ids.v[q] == id;
        if (!inside)
            return true;
    }
    return false;
}

/* After a cut inside a propagator, is temporary vertex @v read by the
 * operations still to come? Always after a cut that is not a window's (the
 * corpus's outputs depend on that); after a window's cut, by lastread. */
static bool
aux_read_later(const pre *p, uint32_t v)
{
    if (!p->window_cut)
        return true;
    uintptr_t last = (uintptr_t)xf_map_get(&p->lastread, p->g.locs.v[p->g.vs.v[v].loc].sym);
    return last > p->cut_at;
}

/* Fill p->lastread for propagator @s: each temporary's last reader. */
static int
note_last_reads(pre *p, const xf_stmt *s)
{
    xf_arena_reset(p->stmt_a);
    memset(&p->lastread, 0, sizeof p->lastread);
    for (uint32_t i = 0; i < s->u.dp.n; i++) {
        const xf_dpop *op = &s->u.dp.v[i];
        bool ax = op->kind == XF_DP_SAX || op->kind == XF_DP_SAXPY;
        uint32_t n = ax ? op->ax.n : op->kind != XF_DP_ZERODERIV;
        for (uint32_t k = 0; k < n; k++) {
            const xf_symref *r = xf_varref_symref(ax ? &op->ax.v[k].x : &op->src);
            if (r && r->sym && is_aux(r->sym) &&
                !xf_map_put(&p->lastread, p->stmt_a, r->sym, (void *)(uintptr_t)(i + 1), NULL))
                return xf_pass_oom(p->ctx);
        }
    }
    p->cut_stmt = s;
    return 0;
}

static void
mark_outputs(pre *p)
{
    for (uint32_t i = 0; i < p->g.locs.n; i++) {
        uint32_t v = p->g.locs.v[i].cur;
        if (v == UINT32_MAX)
            continue;
        p->g.vs.v[v].final = true;
        /* a statement's temporaries are read by its own propagator only: dead
         * after it, unless the sequence ends inside it */
        p->g.vs.v[v].output = p->g.vs.v[v].aux ? p->mid_statement && aux_read_later(p, v)
                                               : live_after(p, p->g.vs.v[v].du);
    }
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
acc_assign(pre *p, wt *out, const char *op, const wt *a, const wt *b, int rank)
{
    if (p->dry) {
        *out = (wt){.c = 1.0, .var = (xf_symbol *)p, .rank = rank}; /* some variable */
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
    *out = (wt){.c = 1.0, .var = s, .rank = rank};
    return 0;
}

/* Make @w a plain variable or constant (c = 1 when it has a variable). */
static int
plain(pre *p, wt *w)
{
    if (!w->var || w->c == 1.0)
        return 0;
    wt k = {.c = w->c}, v = {.c = 1.0, .var = w->var, .rank = w->rank};
    if (w->c == -1.0) {
        p->c.adds++;
        return acc_assign(p, w, "minus_scal", &v, NULL, w->rank);
    }
    p->c.muls++;
    return acc_assign(p, w, "mul_scal_scal", &k, &v, w->rank);
}

static int
product(pre *p, const wt *a, const wt *b, wt *out)
{
    int rank = a->rank > b->rank ? a->rank : b->rank;
    if (!a->var || !b->var) {
        *out = (wt){.c = a->c * b->c, .var = a->var ? a->var : b->var, .rank = rank};
        return 0;
    }
    wt x = {.c = 1.0, .var = a->var, .rank = a->rank},
       y = {.c = 1.0, .var = b->var, .rank = b->rank};
    p->c.muls++;
    if (acc_assign(p, out, "mul_scal_scal", &x, &y, rank))
        return -1;
    out->c = a->c * b->c;
    return 0;
}

static int
sum(pre *p, const wt *a, const wt *b, wt *out)
{
    int rank = a->rank > b->rank ? a->rank : b->rank;
    if (!a->var && !b->var) {
        *out = (wt){.c = a->c + b->c, .rank = rank};
        return 0;
    }
    if (a->var && b->var && (a->c == b->c || a->c == -b->c)) {
        wt x = {.c = 1.0, .var = a->var, .rank = a->rank},
           y = {.c = 1.0, .var = b->var, .rank = b->rank};
        p->c.adds++;
        if (acc_assign(p, out, a->c == b->c ? "add_scal_scal" : "sub_scal_scal", &x, &y, rank))
            return -1;
        out->c = a->c;
        return 0;
    }
    wt x = *a, y = *b;
    if (plain(p, &x) || plain(p, &y))
        return -1;
    p->c.adds++;
    return acc_assign(p, out, "add_scal_scal", &x, &y, rank);
}

static bool
is_unit(const wt *w, double s)
{
    return !w->var && w->c == s;
}

/* ------------------------------------------------------------ elimination */

/* Eliminate vertex @v: each predecessor gets an edge to each successor with
 * the product of the weights, added to an edge already there. */
static int
eliminate(pre *p, uint32_t v)
{
    vx *x = &p->g.vs.v[v];
    for (uint32_t i = 0; i < x->in.n; i++) {
        ed *ein = &p->g.es.v[x->in.v[i]];
        if (ein->dead)
            continue;
        for (uint32_t j = 0; j < p->g.vs.v[v].out.n; j++) {
            ed *eout = &p->g.es.v[p->g.vs.v[v].out.v[j]];
            if (eout->dead)
                continue;
            wt w;
            if (product(p, &ein->w, &eout->w, &w))
                return -1;
            uint32_t src = ein->src, tgt = eout->tgt;
            /* absorb into an edge src -> tgt if there is one */
            bool absorbed = false;
            for (uint32_t k = 0; k < p->g.vs.v[src].out.n && !absorbed; k++) {
                ed *e = &p->g.es.v[p->g.vs.v[src].out.v[k]];
                if (!e->dead && e->tgt == tgt) {
                    wt s;
                    if (sum(p, &e->w, &w, &s))
                        return -1;
                    p->g.es.v[p->g.vs.v[src].out.v[k]].w = s;
                    absorbed = true;
                }
            }
            if (!absorbed && !add_edge(p, src, tgt, w))
                return oom(p);
            x = &p->g.vs.v[v];
            ein = &p->g.es.v[x->in.v[i]];
        }
    }
    x = &p->g.vs.v[v];
    for (uint32_t i = 0; i < x->in.n; i++)
        p->g.es.v[x->in.v[i]].dead = true;
    for (uint32_t i = 0; i < x->out.n; i++)
        p->g.es.v[x->out.v[i]].dead = true;
    x->gone = true;
    return 0;
}

/* The Markowitz degree of @v: live in-edges times live out-edges. */
static uint32_t
markowitz(const pre *p, const vx *v)
{
    uint32_t in = 0, out = 0;
    for (uint32_t i = 0; i < v->in.n; i++)
        in += !p->g.es.v[v->in.v[i]].dead;
    for (uint32_t i = 0; i < v->out.n; i++)
        out += !p->g.es.v[v->out.v[i]].dead;
    return in * out;
}

/* Is @v eliminated in mode @m? Intermediates: not an input, not a needed output. */
static bool
to_eliminate(const pre *p, mode m, uint32_t v)
{
    const vx *x = &p->g.vs.v[v];
    if (x->indep || x->gone)
        return false;
    if (m == M_STATEMENT) /* a statement's temporaries, unless read after a cut */
        return x->aux && !(x->final && x->output);
    return !(x->final && x->output);
}

/* Before a full elimination, an output that other vertices read is split:
 * its copy keeps the edges and is eliminated, a new vertex takes its value
 * over a unit edge and is the output. Then every output depends on inputs
 * only. */
static int
split_outputs(pre *p)
{
    uint32_t n = p->g.vs.n;
    for (uint32_t v = 0; v < n; v++) {
        vx *x = &p->g.vs.v[v];
        if (x->indep || !x->final || !x->output)
            continue;
        bool read = false;
        for (uint32_t i = 0; i < x->out.n && !read; i++)
            read = !p->g.es.v[x->out.v[i]].dead;
        if (!read)
            continue;
        uint32_t w = new_vertex(p, x->loc, false);
        if (w == UINT32_MAX)
            return oom(p);
        x = &p->g.vs.v[v];
        p->g.vs.v[w].final = p->g.vs.v[w].output = true;
        p->g.vs.v[w].du = x->du;
        x->final = x->output = false;
        if (!add_edge(p, v, w, (wt){.c = 1.0}))
            return oom(p);
    }
    return 0;
}

static int
run_elimination(pre *p, mode m)
{
    if (m >= M_FORWARD && split_outputs(p))
        return -1;
    uint32_t n = p->g.vs.n;
    switch (m) {
    case M_NONE:
        return 0;
    case M_STATEMENT:
    case M_FORWARD:
        for (uint32_t v = 0; v < n; v++)
            if (to_eliminate(p, m, v) && eliminate(p, v))
                return -1;
        return 0;
    case M_REVERSE:
        for (uint32_t v = n; v-- > 0;)
            if (to_eliminate(p, m, v) && eliminate(p, v))
                return -1;
        return 0;
    case M_MARKOWITZ:
        for (;;) {
            uint32_t best = UINT32_MAX, bd = 0;
            for (uint32_t v = 0; v < n; v++) {
                if (!to_eliminate(p, m, v))
                    continue;
                uint32_t d = markowitz(p, &p->g.vs.v[v]);
                if (best == UINT32_MAX || d < bd) {
                    best = v;
                    bd = d;
                }
            }
            if (best == UINT32_MAX)
                return 0;
            if (eliminate(p, best))
                return -1;
        }
    case M_COUNT:
        break;
    }
    return 0;
}

/* ------------------------------------------------------------ propagation */

static xf_varref *
loc_ref(pre *p, uint32_t l)
{
    xf_varref *r = xf_ref_dup(p->doc, p->g.locs.v[l].ref);
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
    if (kind == XF_DP_SETNEGDERIV || kind == XF_DP_INCDERIV || kind == XF_DP_DECDERIV)
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

/* y.d = (y.d if accumulate +) sum of terms; the terms' weights are plain. */
static int
emit_sax(pre *p, bool accumulate, const xf_varref *yref, uint32_t yloc, const ed *const *t,
         uint32_t nt)
{
    p->c.muls += nt;
    p->c.adds += nt - 1 + (accumulate ? 1 : 0);
    for (uint32_t i = 0; i < nt; i++)
        p->c.words += t[i]->w.var != NULL;
    if (p->dry)
        return 0;
    xf_dpop op = {.kind = accumulate ? XF_DP_SAXPY : XF_DP_SAX};
    for (uint32_t i = 0; i < nt; i++) {
        xf_ax ax = {0};
        uint32_t a = t[i]->w.var ? xf_expr_ref(p->doc, &ax.a, xf_ref_new(p->doc, t[i]->w.var))
                                 : xf_expr_real(p->doc, &ax.a, t[i]->w.c);
        xf_varref *x = loc_ref(p, p->g.vs.v[t[i]->src].loc);
        if (a == UINT32_MAX || !x)
            return oom(p);
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
    vx *x = &p->g.vs.v[v];
    uint32_t yl = x->loc;
    const ed *t[256];
    uint32_t nt = 0;
    for (uint32_t i = 0; i < x->in.n; i++) {
        ed *e = &p->g.es.v[x->in.v[i]];
        if (e->dead || (e->w.c == 0.0 && !e->w.var))
            continue;
        if (nt == 256) {
            xf_error(p->ctx->diag, p->doc->filename, p->where ? p->where->h.line : 0,
                     "more than 256 terms in one derivative");
            return -1;
        }
        /* a variable with a factor is made plain first */
        if (plain(p, &e->w))
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
    const ed *self = NULL;
    bool overlap = false;
    const loc *yloc = &p->g.locs.v[yl];
    for (uint32_t i = 0; i < nt; i++) {
        uint32_t sl = p->g.vs.v[t[i]->src].loc;
        if (sl == yl && !yref) {
            if (!self && is_unit(&t[i]->w, 1.0))
                self = t[i];
            else
                overlap = true;
        } else if (!yref && may_alias(p, &p->g.locs.v[sl], yloc))
            overlap = true;
    }
    if (overlap) /* everything in one Sax: it reads before it writes */
        return emit_sax(p, false, yref, yl, t, nt);
    const ed *n1[256], *units[256];
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
        if (emit_pair(p, k, yl, yref, p->g.vs.v[units[i]->src].loc))
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
    uint32_t n = p->g.vs.n;
    for (uint32_t v = 0; v < n; v++)
        need[v] = !p->g.vs.v[v].gone && p->g.vs.v[v].final && p->g.vs.v[v].output;
    for (uint32_t v = n; v-- > 0;) {
        if (!need[v])
            continue;
        const vx *x = &p->g.vs.v[v];
        for (uint32_t i = 0; i < x->in.n; i++)
            if (!p->g.es.v[x->in.v[i]].dead)
                need[p->g.es.v[x->in.v[i]].src] = 1;
    }
}

/* Emit after elimination in mode @m. With every intermediate eliminated, the
 * outputs are computed from the inputs' derivatives at the start, so an
 * output must not overwrite an input that another still reads: such outputs
 * go last, and a cycle goes through a temporary (OpenAD_prp_*). Otherwise
 * the vertices are computed in the order of the statements. */
static int
emit_propagation(pre *p, mode m)
{
    uint32_t n = p->g.vs.n;
    uint8_t *need = XF_NEW_ARRAY(p->a, n ? n : 1, uint8_t);
    if (!need)
        return oom(p);
    mark_needed(p, need);
    if (m == M_NONE || m == M_STATEMENT) {
        for (uint32_t v = 0; v < n; v++)
            if (need[v] && !p->g.vs.v[v].indep && emit_target(p, v, NULL))
                return -1;
        return 0;
    }
    /* bipartite: order the outputs */
    uint32_t *todo = XF_NEW_ARRAY(p->a, n ? n : 1, uint32_t);
    if (!todo)
        return oom(p);
    uint32_t nt = 0;
    for (uint32_t v = 0; v < n; v++)
        if (need[v] && !p->g.vs.v[v].indep)
            todo[nt++] = v;
    typedef struct later {
        uint32_t v;
        xf_symbol *prp;
    } later;
    later *lat = XF_NEW_ARRAY(p->a, nt ? nt : 1, later);
    uint32_t nl = 0;
    while (nt) {
        uint32_t pick = UINT32_MAX;
        for (uint32_t i = 0; i < nt && pick == UINT32_MAX; i++) {
            const loc *yl = &p->g.locs.v[p->g.vs.v[todo[i]].loc];
            bool clobbers = false;
            for (uint32_t j = 0; j < nt && !clobbers; j++) {
                if (j == i)
                    continue;
                const vx *o = &p->g.vs.v[todo[j]];
                for (uint32_t k = 0; k < o->in.n && !clobbers; k++) {
                    const ed *e = &p->g.es.v[o->in.v[k]];
                    if (e->dead)
                        continue;
                    uint32_t sl = p->g.vs.v[e->src].loc;
                    clobbers = sl == p->g.vs.v[todo[i]].loc || may_alias(p, &p->g.locs.v[sl], yl);
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
                prp = fresh(p, "OpenAD_prp_", &p->nprp, p->g.locs.v[p->g.vs.v[v].loc].rank, true);
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
        xf_varref *t = loc_ref(p, p->g.vs.v[lat[i].v].loc), *s = xf_ref_new(p->doc, lat[i].prp);
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

/* ------------------------------------------------------------ sequences */

/* A copy of the graph (vertices' edge lists included). */
static int
save_graph(pre *p, graph *to)
{
    *to = p->g;
    memset(&to->vs, 0, sizeof to->vs);
    memset(&to->es, 0, sizeof to->es);
    for (uint32_t i = 0; i < p->g.es.n; i++)
        if (!XF_VEC_PUSH(p->a, to->es, p->g.es.v[i]))
            return oom(p);
    for (uint32_t i = 0; i < p->g.vs.n; i++) {
        vx v = p->g.vs.v[i];
        memset(&v.in, 0, sizeof v.in);
        memset(&v.out, 0, sizeof v.out);
        for (uint32_t k = 0; k < p->g.vs.v[i].in.n; k++)
            if (!XF_VEC_PUSH(p->a, v.in, p->g.vs.v[i].in.v[k]))
                return oom(p);
        for (uint32_t k = 0; k < p->g.vs.v[i].out.n; k++)
            if (!XF_VEC_PUSH(p->a, v.out, p->g.vs.v[i].out.v[k]))
                return oom(p);
        if (!XF_VEC_PUSH(p->a, to->vs, v))
            return oom(p);
    }
    return 0;
}

/* Cost mode @m on a copy of the graph. */
static int
cost_of(pre *p, mode m, cost *out)
{
    graph keep;
    if (save_graph(p, &keep))
        return -1;
    p->dry = true;
    p->c = (cost){0};
    int ret = run_elimination(p, m) || emit_propagation(p, m);
    *out = p->c;
    p->dry = false;
    p->g = keep;
    return ret ? -1 : 0;
}

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

/* Replace the sequence's propagators with the chosen elimination's code. */
static int
flush(pre *p)
{
    if (p->g.vs.n == 0) {
        graph_reset(p);
        return 0;
    }
    mark_outputs(p);
    mode choice;
    cost costs[M_COUNT];
    switch (p->ctx->opts ? p->ctx->opts->elimination : XF_ELIM_BEST) {
    case XF_ELIM_FORWARD:
        choice = M_FORWARD;
        break;
    case XF_ELIM_REVERSE:
        choice = M_REVERSE;
        break;
    case XF_ELIM_MARKOWITZ:
        choice = M_MARKOWITZ;
        break;
    case XF_ELIM_BEST:
    default:
        choice = M_NONE;
        break;
    }
    bool best = !p->ctx->opts || p->ctx->opts->elimination == XF_ELIM_BEST;
    for (int m = 0; m < M_COUNT; m++) {
        if (cost_of(p, (mode)m, &costs[m]))
            return -1;
        if (best && cheaper(p, &costs[m], &costs[choice]))
            choice = (mode)m;
    }
    if (p->ctx->opts && p->ctx->opts->report) {
        fprintf(p->ctx->opts->report, "preaccumulate: %s line %u: %u vertices, %u edges;",
                p->doc->filename ? p->doc->filename : "", p->where ? p->where->h.line : 0,
                p->g.vs.n, p->g.es.n);
        for (int m = 0; m < M_COUNT; m++)
            fprintf(p->ctx->opts->report, " %s %llu*+%llu+", mode_names[m],
                    (unsigned long long)costs[m].muls, (unsigned long long)costs[m].adds);
        fprintf(p->ctx->opts->report, "; chose %s\n", mode_names[choice]);
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
    graph_reset(p);
    return 0;
}

static bool
reads_index_var(const pre *p, const xf_varref *lhs)
{
    const xf_symref *s = xf_varref_symref(lhs);
    for (uint32_t i = 0; s && i < p->ixv.n; i++)
        if (p->ixv.v[i] == s->sym)
            return true;
    return false;
}

static int
emit_stmt(pre *p, xf_stmt *s)
{
    return XF_VEC_PUSH(p->doc->arena, p->out, s) ? 0 : oom(p);
}

static int
block(pre *p, xf_cvertex *b)
{
    memset(&p->out, 0, sizeof p->out);
    graph_reset(p);
    const char *pending = NULL;
    for (uint32_t k = 0; k < b->stmts.n; k++) {
        xf_stmt *s = b->stmts.v[k];
        if (s->h.line || !p->where)
            p->where = s; /* the derivative code has no lines: the last original statement */
        switch (s->kind) {
        case XF_STMT_ASSIGN:
            if (xf_flag_is(s->u.as.lhs.deriv, false)) { /* a derivative assignment */
                if (flush(p) || emit_stmt(p, s))
                    return -1;
                if (pending && !XF_VEC_PUSH(p->a, p->ids, pending))
                    return oom(p);
                pending = NULL;
                continue;
            }
            /* writing a variable that a location's subscript reads moves the location */
            if (reads_index_var(p, &s->u.as.lhs) && flush(p))
                return -1;
            /* a use by this statement is inside the sequence that holds its
             * propagator (the next statement, when it has one) */
            pending = s->id;
            if (k + 1 < b->stmts.n && (b->stmts.v[k + 1]->kind == XF_STMT_DERIVPROP ||
                                       (b->stmts.v[k + 1]->kind == XF_STMT_ASSIGN &&
                                        xf_flag_is(b->stmts.v[k + 1]->u.as.lhs.deriv, false))))
                ;
            else if (s->id && !XF_VEC_PUSH(p->a, p->ids, s->id))
                return oom(p);
            if (emit_stmt(p, s))
                return -1;
            continue;
        case XF_STMT_MARKER:
            if (emit_stmt(p, s))
                return -1;
            continue;
        case XF_STMT_DERIVPROP:
            for (uint32_t i = 0; i < s->u.dp.n; i++) {
                p->mid_statement = i > 0;
                if (p->g.vs.n >= WINDOW) { /* a bounded window */
                    if (i > 0 && p->cut_stmt != s && note_last_reads(p, s) < 0)
                        return -1;
                    p->cut_at = i;
                    p->window_cut = i > 0;
                    int r = flush(p);
                    p->window_cut = false;
                    if (r)
                        return -1;
                }
                bool cut;
                int r = add_op(p, &s->u.dp.v[i], &cut);
                if (r < 0)
                    return -1;
                if (cut) {
                    if (flush(p))
                        return -1;
                    r = add_op(p, &s->u.dp.v[i], &cut);
                    if (r < 0)
                        return -1;
                }
                if (r > 0 || cut) {
                    /* not representable: keep the operation as it is */
                    xf_stmt *one = xf_stmt_derivprop(p->doc);
                    if (flush(p) || !one || !XF_VEC_PUSH(p->doc->arena, one->u.dp, s->u.dp.v[i]) ||
                        emit_stmt(p, one))
                        return -1;
                }
            }
            p->mid_statement = false;
            if (pending && !XF_VEC_PUSH(p->a, p->ids, pending))
                return oom(p);
            pending = NULL;
            continue;
        case XF_STMT_CALL:
        case XF_STMT_ICALL:
            if (flush(p) || emit_stmt(p, s))
                return -1;
            continue;
        }
    }
    if (flush(p))
        return -1;
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
    pre p = {.ctx = ctx, .doc = ctx->doc, .scope = rt->cfg_scope, .taped = rt->is_rlist};
    p.a = ctx->scratch;
    if (!(p.stmt_a = xf_arena_new()))
        return xf_pass_oom(ctx);
    int ret = 0;
    for (uint32_t i = 0; i < g->v.n && !ret; i++)
        if (g->v.v[i]->kind == XF_CV_BASICBLOCK)
            ret = block(&p, g->v.v[i]);
    xf_arena_free(p.stmt_a);
    return ret;
}

static int
parse_elimination(xf_opts *o, const char *arg, char *err, size_t len)
{
    static const struct {
        const char *name;
        xf_elimination e;
    } orders[] = {{"best", XF_ELIM_BEST},
                  {"forward", XF_ELIM_FORWARD},
                  {"reverse", XF_ELIM_REVERSE},
                  {"markowitz", XF_ELIM_MARKOWITZ}};
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
        if (!strcmp(arg, orders[i].name)) {
            o->elimination = orders[i].e;
            return 0;
        }
    snprintf(err, len, "unknown elimination order '%s' (forward, reverse, markowitz or best)", arg);
    return -1;
}

static int
parse_report(xf_opts *o, const char *arg, char *err, size_t len)
{
    (void)arg, (void)err, (void)len;
    o->report = stderr;
    return 0;
}

static const xf_pass_opt opts[] = {
    {.name = "elimination",
     .letter = 'e',
     .arg = "ORDER",
     .help = "forward, reverse, markowitz or best (default:\n"
             "best, the cheapest per sequence, no elimination\n"
             "included)\n",
     .parse = parse_elimination},
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
    .opts = opts,
    .run_routine = run_routine,
};
