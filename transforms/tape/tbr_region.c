/* tbr_region.c: element-wise stability of an array read (tbr_region.h).
 *
 * tbr_values.c recomputes a partial from a variable no statement writes.
 * A Cholesky factor's partials read l[i*n + k], and the routine writes l;
 * but only elements l[i*n + j] with j > k, after those reads. This file
 * proves that no write that runs after a read, up to the routine's end
 * (the adjoint sweep writes no original variable), hits the element read
 * (tbr_values.c asks under the joint template only, where the adjoint
 * runs in the same activation and nothing is handed over):
 *
 *  - the read R is in block region r at statement at, inside loops; a
 *    write W of the same variable is in block region w at statement wi.
 *    Both get their own copies of the variables of the loops around them
 *    (their iterations), bounded by the loops' headers (lo <= i <= hi for
 *    a rising loop, hi <= i <= lo for a falling one; a bound that is not
 *    affine is left out, which only weakens the proof). Every loop around
 *    R or W must be explicitly reversed (xf_region.head: neither its
 *    variable nor its bounds are written in its body).
 *  - W runs after R when, for some common loop d, the common loops
 *    outside d are in the same iteration and d is in a later one (one
 *    case per d), or all common loops are in the same iteration and W
 *    comes later in the text (later in the block, wi >= at, or in a later
 *    region of the innermost sequence holding both; two arms of a branch
 *    never both run in one iteration).
 *  - each case, with the subscripts set equal, must have no integer
 *    solution: Fourier-Motzkin elimination over the rationals, rows
 *    divided by their coefficients' gcd with the constant rounded down
 *    (sound for integers), proves it, or the read stays taped.
 *  - subscripts are affine in the loops' variables and in integer scalars
 *    nothing writes (the caller's @fixed); one term may be such a scalar
 *    S times an affine form (j*n + k in C's row-major arrays). Then
 *    a + S*b = a' + S*b' with 0 <= a, a' <= S - 1 (proved from the bounds,
 *    each for its own iterations) holds only when a = a' and b = b'. */
#include <stdlib.h>
#include <string.h>

#include "map.h"
#include "tbr_impl.h"
#include "tbr_region.h"

enum { NV = 24, MAX_ROWS = 2048, MAX_DEPTH = 32 };

/* sum c[i] x_i + k */
typedef struct lf {
    int64_t c[NV];
    int64_t k;
} lf;

/* a + x_s * b; s < 0: a alone */
typedef struct term {
    lf a, b;
    int s;
} term;

/* sum c[i] x_i <= k */
typedef struct row {
    int64_t c[NV];
    int64_t k;
} row;

typedef struct place {
    const xf_region *r;
    uint32_t at;
} place;

struct xf_tbr_region {
    const xf_cfgtree *t;
    xf_map place; /* write (xf_varref *) -> place */
    xf_tbr_fixed_fn fixed;
    void *ctx;
};

/* The variables of one question: a loop's, per copy (0 the read's
 * iterations, 1 the write's), or a fixed scalar's (copy 2). */
typedef struct vars {
    const void *key[NV];
    int copy[NV];
    int n;
} vars;

typedef struct sys {
    row v[4 * NV];
    uint32_t n;
    bool bad; /* too many rows */
} sys;

static int
var_of(vars *V, const void *key, int copy)
{
    for (int i = 0; i < V->n; i++)
        if (V->key[i] == key && V->copy[i] == copy)
            return i;
    if (V->n == NV)
        return -1;
    V->key[V->n] = key;
    V->copy[V->n] = copy;
    return V->n++;
}

static bool
lf_add(lf *o, const lf *p, int64_t f)
{
    for (int i = 0; i < NV; i++) {
        int64_t m;
        if (__builtin_mul_overflow(p->c[i], f, &m) || __builtin_add_overflow(o->c[i], m, &o->c[i]))
            return false;
    }
    int64_t m;
    return !__builtin_mul_overflow(p->k, f, &m) && !__builtin_add_overflow(o->k, m, &o->k);
}

static bool
lf_const(const lf *p)
{
    for (int i = 0; i < NV; i++)
        if (p->c[i])
            return false;
    return true;
}

/* Is @p the variable x_i alone (a fixed scalar)? Its index, or -1. */
static int
lf_single(const vars *V, const lf *p)
{
    int at = -1;
    for (int i = 0; i < NV; i++) {
        if (!p->c[i])
            continue;
        if (at >= 0 || p->c[i] != 1)
            return -1;
        at = i;
    }
    return at >= 0 && !p->k && V->copy[at] == 2 ? at : -1;
}

static bool
term_add(term *o, const term *p, int64_t f)
{
    if (p->s >= 0) {
        if (o->s >= 0 && o->s != p->s)
            return false;
        o->s = p->s;
        if (!lf_add(&o->b, &p->b, f))
            return false;
    }
    return lf_add(&o->a, &p->a, f);
}

/* The variable of the loop around @from (not @from itself) that runs @s. */
static const xf_region *
loop_of(const xf_region *from, const xf_symbol *s)
{
    for (const xf_region *q = from->parent; q; q = q->parent)
        if (q->kind == XF_RG_LOOP && q->head && q->head->i == s)
            return q;
    return NULL;
}

static bool
parse(xf_tbr_region *c, vars *V, const xf_region *from, int copy, const xf_expr *x, uint32_t v,
      term *out, int depth)
{
    memset(out, 0, sizeof *out);
    out->s = -1;
    if (v >= x->v.n || depth > 32)
        return false;
    const xf_evertex *ev = &x->v.v[v];
    switch (ev->kind) {
    case XF_EV_CONSTANT: {
        if (ev->u.c.type != XF_TYPE_INTEGER || !*ev->u.c.value)
            return false;
        char *end;
        out->a.k = strtoll(ev->u.c.value, &end, 10);
        return !*end;
    }
    case XF_EV_VARREF: {
        const xf_varref *ref = ev->u.ref;
        const xf_symbol *s = xf_tbr_sym(ref);
        if (!s || xf_varref_arrref(ref) || ref->v.n > 1 || s->type != XF_TYPE_INTEGER ||
            xf_shape_rank(s->shape) > 0)
            return false;
        const xf_region *q = loop_of(from, s);
        int i = q ? var_of(V, q, copy) : c->fixed(c->ctx, s, ref) ? var_of(V, s, 2) : -1;
        if (i < 0)
            return false;
        out->a.c[i] = 1;
        return true;
    }
    case XF_EV_INTRINSIC: {
        const char *op = ev->u.in.name;
        term p, q;
        if (!op || !parse(c, V, from, copy, x, xf_expr_operand(x, v, 1), &p, depth + 1))
            return false;
        if (!strcmp(op, "minus_scal"))
            return term_add(out, &p, -1);
        if (!parse(c, V, from, copy, x, xf_expr_operand(x, v, 2), &q, depth + 1))
            return false;
        if (!strcmp(op, "add_scal_scal") || !strcmp(op, "sub_scal_scal"))
            return term_add(out, &p, 1) && term_add(out, &q, op[0] == 's' ? -1 : 1);
        if (strcmp(op, "mul_scal_scal"))
            return false;
        if (p.s < 0 && lf_const(&p.a))
            return term_add(out, &q, p.a.k);
        if (q.s < 0 && lf_const(&q.a))
            return term_add(out, &p, q.a.k);
        /* a fixed scalar times an affine form */
        int sp = p.s < 0 ? lf_single(V, &p.a) : -1, sq = q.s < 0 ? lf_single(V, &q.a) : -1;
        if (sp < 0 && sq < 0)
            return false;
        const term *f = sp >= 0 ? &q : &p;
        if (f->s >= 0)
            return false;
        out->s = sp >= 0 ? sp : sq;
        out->b = f->a;
        return true;
    }
    default:
        return false;
    }
}

/* ------------------------------------------------------------ rows */

/* @l <= @r */
static void
le(sys *S, const lf *l, const lf *r)
{
    if (S->n == sizeof S->v / sizeof S->v[0]) {
        S->bad = true;
        return;
    }
    row *w = &S->v[S->n++];
    memset(w, 0, sizeof *w);
    lf d = *l;
    if (!lf_add(&d, r, -1)) {
        S->bad = true;
        return;
    }
    memcpy(w->c, d.c, sizeof w->c);
    if (__builtin_sub_overflow(0, d.k, &w->k))
        S->bad = true;
}

static void
eq(sys *S, const lf *l, const lf *r)
{
    le(S, l, r);
    le(S, r, l);
}

static int64_t
gcd64(int64_t a, int64_t b)
{
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int64_t
floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Divide @w by its coefficients' gcd. -1: 0 <= k false (no solution);
 * 0: no variable left, true (drop it); 1: keep. */
static int
normalize(row *w)
{
    int64_t g = 0;
    for (int i = 0; i < NV; i++)
        g = gcd64(g, w->c[i]);
    if (!g)
        return w->k < 0 ? -1 : 0;
    if (g > 1) {
        for (int i = 0; i < NV; i++)
            w->c[i] /= g;
        w->k = floor_div(w->k, g);
    }
    return 1;
}

/* Has the system no integer solution (proved)? */
static bool
infeasible(const sys *S)
{
    if (S->bad)
        return false;
    row *cur = malloc(MAX_ROWS * sizeof *cur), *nxt = malloc(MAX_ROWS * sizeof *nxt);
    bool proved = false;
    uint32_t n = 0;
    if (!cur || !nxt)
        goto out;
    for (uint32_t i = 0; i < S->n; i++) {
        cur[n] = S->v[i];
        int k = normalize(&cur[n]);
        if (k < 0) {
            proved = true;
            goto out;
        }
        n += (uint32_t)k;
    }
    for (;;) {
        /* the variable whose elimination makes the fewest rows */
        int best = -1;
        uint64_t cost = UINT64_MAX;
        for (int v = 0; v < NV; v++) {
            uint64_t pos = 0, neg = 0;
            for (uint32_t i = 0; i < n; i++)
                pos += cur[i].c[v] > 0, neg += cur[i].c[v] < 0;
            if ((pos || neg) && pos * neg < cost)
                best = v, cost = pos * neg;
        }
        if (best < 0)
            break; /* no variable left: every row held */
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++)
            if (!cur[i].c[best])
                nxt[m++] = cur[i];
        for (uint32_t i = 0; i < n; i++) {
            if (cur[i].c[best] <= 0)
                continue;
            for (uint32_t j = 0; j < n; j++) {
                if (cur[j].c[best] >= 0)
                    continue;
                if (m == MAX_ROWS)
                    goto out;
                int64_t p = cur[i].c[best], q = -cur[j].c[best];
                row *w = &nxt[m];
                for (int v = 0; v < NV; v++) {
                    int64_t x, y;
                    if (__builtin_mul_overflow(cur[i].c[v], q, &x) ||
                        __builtin_mul_overflow(cur[j].c[v], p, &y) ||
                        __builtin_add_overflow(x, y, &w->c[v]))
                        goto out;
                }
                int64_t x, y;
                if (__builtin_mul_overflow(cur[i].k, q, &x) ||
                    __builtin_mul_overflow(cur[j].k, p, &y) || __builtin_add_overflow(x, y, &w->k))
                    goto out;
                w->c[best] = 0;
                int k = normalize(w);
                if (k < 0) {
                    proved = true;
                    goto out;
                }
                m += (uint32_t)k;
            }
        }
        row *t = cur;
        cur = nxt;
        nxt = t;
        n = m;
    }
out:
    free(cur);
    free(nxt);
    return proved;
}

/* ------------------------------------------------------------ iterations */

/* The regions from the top down to @r (@r last); 0 when too deep. */
static int
chain(const xf_region *r, const xf_region **out)
{
    int n = 0;
    for (const xf_region *q = r; q; q = q->parent)
        n++;
    if (n > MAX_DEPTH)
        return 0;
    int i = n;
    for (const xf_region *q = r; q; q = q->parent)
        out[--i] = q;
    return n;
}

/* The bounds of the loops around @r, in @copy's variables, into @S;
 * false if one is not explicitly reversed. */
static bool
domain(xf_tbr_region *c, vars *V, const xf_region *r, int copy, sys *S)
{
    for (const xf_region *q = r->parent; q; q = q->parent) {
        if (q->kind != XF_RG_LOOP)
            continue;
        const xf_loophead *h = q->head;
        if (!h)
            return false;
        int x = var_of(V, q, copy);
        if (x < 0)
            return false;
        int sign = h->step > 0 ? 1 : h->step < 0 ? -1 : h->sign;
        lf xi = {.c = {0}};
        xi.c[x] = 1;
        term lo, hi;
        bool has_lo = parse(c, V, q, copy, h->lo_x, h->lo, &lo, 0) && lo.s < 0;
        bool has_hi = parse(c, V, q, copy, h->hi_x, h->hi, &hi, 0) && hi.s < 0 &&
                      !__builtin_add_overflow(hi.a.k, h->adjust, &hi.a.k);
        if (sign > 0) {
            if (has_lo)
                le(S, &lo.a, &xi);
            if (has_hi)
                le(S, &xi, &hi.a);
        } else if (sign < 0) {
            if (has_lo)
                le(S, &xi, &lo.a);
            if (has_hi)
                le(S, &hi.a, &xi);
        }
    }
    return true;
}

/* 0 <= @a <= x_s - 1 wherever @D holds? */
static bool
in_row(const sys *D, const lf *a, int s, uint64_t *budget)
{
    if (*budget < 2)
        return false;
    *budget -= 2;
    sys *S = malloc(sizeof *S);
    if (!S)
        return false;
    lf m1 = {.k = -1}, xs = {.c = {0}};
    xs.c[s] = 1;
    *S = *D;
    le(S, a, &m1); /* a <= -1 */
    bool ok = infeasible(S);
    if (ok) {
        *S = *D;
        le(S, &xs, a); /* a >= x_s */
        ok = infeasible(S);
    }
    free(S);
    return ok;
}

/* Set the subscripts of @rr (read, copy 0, in @r) and @wr (write, copy 1,
 * in @w) equal in @S; false if they are not of the forms handled. */
static bool
same_element(xf_tbr_region *c, vars *V, const xf_region *r, const xf_varref *rr, const xf_region *w,
             const xf_varref *wr, const sys *DR, const sys *DW, sys *S, uint64_t *budget)
{
    const xf_arrref *a = xf_varref_arrref(rr), *b = xf_varref_arrref(wr);
    if (!a || !b || a->t.n != b->t.n || rr->v.n > 2 || wr->v.n > 2)
        return false;
    for (uint32_t d = 0; d < a->t.n; d++) {
        const xf_triplet *s = &a->t.v[d], *t = &b->t.v[d];
        term u, v;
        if (s->bound || s->stride || t->bound || t->stride || !s->index || !t->index ||
            !parse(c, V, r, 0, s->index, xf_expr_root(s->index), &u, 0) ||
            !parse(c, V, w, 1, t->index, xf_expr_root(t->index), &v, 0))
            return false;
        if (u.s >= 0 || v.s >= 0) {
            int sc = u.s >= 0 ? u.s : v.s;
            if ((u.s >= 0 && u.s != sc) || (v.s >= 0 && v.s != sc) ||
                !in_row(DR, &u.a, sc, budget) || !in_row(DW, &v.a, sc, budget))
                return false;
            eq(S, &u.b, &v.b); /* absent: 0 */
        }
        eq(S, &u.a, &v.a);
    }
    return !S->bad;
}

/* Does @w (statement @wi) come after @r (statement @at) in one iteration
 * of the loops around both? @n: the length of the chains' common part. */
static bool
text_after(const xf_cfgtree *t, const xf_region **cr, int nr, uint32_t at, const xf_region **cw,
           int nw, uint32_t wi, int n)
{
    if (n == nr && n == nw)
        return wi >= at;
    if (n >= nr || n >= nw)
        return true; /* cannot happen for two blocks: assume the worst */
    const xf_region *a = cr[n], *b = cw[n], *up = n ? cr[n - 1] : NULL;
    const xf_rgseq *sq = !up ? &t->top : up->kind == XF_RG_LOOP ? &up->body : NULL;
    for (uint32_t k = 0; !sq && up && k < up->arms.n; k++)
        for (uint32_t j = 0; j < up->arms.v[k].body.v.n; j++)
            if (up->arms.v[k].body.v.v[j] == a)
                sq = &up->arms.v[k].body;
    if (!sq)
        return true;
    int pa = -1, pb = -1;
    for (uint32_t j = 0; j < sq->v.n; j++) {
        if (sq->v.v[j] == a)
            pa = (int)j;
        if (sq->v.v[j] == b)
            pb = (int)j;
    }
    if (pa < 0)
        return true;
    return pb > pa || (pb < 0 && up && up->kind != XF_RG_BRANCH); /* another arm: never */
}

/* Can write @wr (statement @wi of block @w) hit the element @rr reads at
 * statement @at of block @r, after it? true: proved not. */
static bool
apart(xf_tbr_region *c, const xf_region *r, uint32_t at, const xf_varref *rr, const xf_region *w,
      uint32_t wi, const xf_varref *wr, uint64_t *budget)
{
    const xf_region *cr[MAX_DEPTH], *cw[MAX_DEPTH];
    int nr = chain(r, cr), nw = chain(w, cw);
    if (!nr || !nw)
        return false;
    int n = 0;
    while (n < nr && n < nw && cr[n] == cw[n])
        n++;
    const xf_region *common[MAX_DEPTH];
    int nc = 0;
    for (int k = 0; k < n; k++)
        if (cr[k]->kind == XF_RG_LOOP)
            common[nc++] = cr[k];
    bool last = text_after(c->t, cr, nr, at, cw, nw, wi, n);
    if (!nc && !last)
        return true; /* always before */
    vars V = {.n = 0};
    sys *base = malloc(sizeof *base), *DR = malloc(sizeof *DR), *DW = malloc(sizeof *DW),
        *S = malloc(sizeof *S);
    bool ok = false;
    if (!base || !DR || !DW || !S)
        goto out;
    DR->n = DW->n = 0;
    DR->bad = DW->bad = false;
    if (!domain(c, &V, r, 0, DR) || !domain(c, &V, w, 1, DW) || DR->bad || DW->bad)
        goto out;
    *base = *DR;
    if (base->n + DW->n > sizeof base->v / sizeof base->v[0])
        goto out;
    memcpy(&base->v[base->n], DW->v, DW->n * sizeof DW->v[0]);
    base->n += DW->n;
    if (!same_element(c, &V, r, rr, w, wr, DR, DW, base, budget))
        goto out;
    for (int d = 0; d <= nc; d++) {
        if (d == nc && !last)
            break;
        if (!*budget)
            goto out;
        --*budget;
        *S = *base;
        for (int k = 0; k < d || (d == nc && k < nc); k++) {
            lf x = {.c = {0}}, y = {.c = {0}};
            int i = var_of(&V, common[k], 0), j = var_of(&V, common[k], 1);
            if (i < 0 || j < 0)
                goto out;
            x.c[i] = 1, y.c[j] = 1;
            eq(S, &x, &y);
        }
        if (d < nc) {
            const xf_loophead *h = common[d]->head;
            int sign = h->step > 0 ? 1 : h->step < 0 ? -1 : h->sign;
            lf x = {.c = {0}}, y = {.c = {0}};
            int i = var_of(&V, common[d], 0), j = var_of(&V, common[d], 1);
            if (!sign || i < 0 || j < 0)
                goto out;
            /* the write's iteration is later: y >= x + 1 rising, y <= x - 1 falling */
            x.c[i] = 1, y.c[j] = 1;
            x.k = sign;
            if (sign > 0)
                le(S, &x, &y);
            else
                le(S, &y, &x);
        }
        if (!infeasible(S))
            goto out;
    }
    ok = true;
out:
    free(base);
    free(DR);
    free(DW);
    free(S);
    return ok;
}

/* ------------------------------------------------------------ the interface */

static bool
note(xf_tbr_region *c, xf_arena *a, const xf_varref *ref, const xf_region *r, uint32_t at)
{
    place *p = XF_NEW(a, place);
    if (!p)
        return false;
    p->r = r;
    p->at = at;
    return xf_map_put(&c->place, a, ref, p, NULL);
}

xf_tbr_region *
xf_tbr_region_new(const xf_cfgtree *t, xf_arena *a, xf_tbr_fixed_fn fixed, void *ctx)
{
    xf_tbr_region *c = XF_NEW(a, xf_tbr_region);
    if (!c)
        return NULL;
    memset(c, 0, sizeof *c);
    c->t = t;
    c->fixed = fixed;
    c->ctx = ctx;
    for (uint32_t i = 0; i < t->all.n; i++) {
        const xf_region *r = t->all.v[i];
        if (r->kind != XF_RG_BLOCK)
            continue;
        for (uint32_t k = 0; k < r->v->stmts.n; k++) {
            const xf_stmt *s = r->v->stmts.v[k];
            if (s->kind == XF_STMT_ASSIGN && !note(c, a, &s->u.as.lhs, r, k))
                return NULL;
            if (s->kind != XF_STMT_CALL && s->kind != XF_STMT_ICALL)
                continue;
            const xf_arg_vec *args = s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args;
            for (uint32_t j = 0; j < args->n; j++) {
                const xf_expr *x = &args->v[j].val;
                for (uint32_t v = 0; v < x->v.n; v++)
                    if (x->v.v[v].kind == XF_EV_VARREF && !note(c, a, x->v.v[v].u.ref, r, k))
                        return NULL;
            }
        }
    }
    return c;
}

bool
xf_tbr_region_stable(xf_tbr_region *c, const xf_region *r, uint32_t at, const xf_varref *ref,
                     const xf_varref *const *writes, uint32_t nwrites, uint64_t *budget)
{
    const xf_symbol *s = xf_tbr_sym(ref);
    if (!c || !s || !xf_varref_arrref(ref))
        return false;
    for (uint32_t k = 0; k < nwrites; k++) {
        if (xf_tbr_sym(writes[k]) != s)
            continue;
        if (!*budget)
            return false;
        --*budget;
        const place *p = xf_map_get(&c->place, writes[k]);
        if (!p || !apart(c, r, at, ref, p->r, p->at, writes[k], budget))
            return false;
    }
    return true;
}
