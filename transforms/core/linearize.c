/* linearize.c: every assignment to an active variable becomes its elementary
 * operations, each with the local partial derivatives of its result with
 * respect to its active operands (Naumann et al., control-flow reversal
 * paper [000] §3, Eq. (3) -> (4)), followed by the tangent propagation of
 * those partials, operation by operation, as a DerivativePropagator:
 *
 *     y = sin(a*x)          OpenAD_aux_0 = a*x            (active temporary)
 *                           OpenAD_lin_0 = a              (partial of a*x by x)
 *                           OpenAD_lin_1 = cos(OpenAD_aux_0)
 *                           y = sin(OpenAD_aux_0)
 *                           aux_0.d = lin_0 * x.d;  y.d = lin_1 * aux_0.d
 *
 * Values are computed as before (the same operations in the same order);
 * partials are computed before the assignment, from the operands' old
 * values. The partials come from the intrinsics catalogue. An assignment of
 * a passive value to an active variable zeroes its derivative. The output is
 * runnable tangent code; preaccumulate then works block by block on it.
 * Needs: nothing. Breaks: nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "pieces.h"
#include "pass.h"

typedef struct lin {
    xf_pass_ctx *ctx;
    xf_doc *doc;
    xf_scope *scope;   /* the routine's locals, where temporaries go */
    xf_arena *scratch; /* per statement: the tables below, stacks */
    const char *routine;
    unsigned naux, nlin; /* name counters */
    XF_VEC(xf_stmt *) out;
    /* per expression being linearized */
    const xf_expr *x;
    const xf_stmt *s;
    uint32_t *first, *ops; /* operands of vertex v: ops[first[v] .. first[v+1]) */
    uint8_t *active, *need, *mat;
    uint8_t *rank;
    xf_symbol **temp;  /* materialized vertex -> its temporary */
    const xf_ii **ii;  /* intrinsic vertex -> catalogue entry */
    const xf_nii **da; /* intrinsic vertex -> its DirectAction (non-inlinable) */
    uint32_t *order;   /* operands before their operators */
    uint32_t norder;
} lin;

/* Report "@what (statement ID of ROUTINE)"; @name fills a %s in @what. */
static int
fail(lin *l, const char *what, const char *name)
{
    char msg[400];
    snprintf(msg, sizeof msg, "%s", what);
    char *at = strstr(msg, "%s");
    if (at && name) {
        char tail[400];
        snprintf(tail, sizeof tail, "%s", at + 2);
        snprintf(at, sizeof msg - (size_t)(at - msg), "%s%s", name, tail);
    }
    xf_error(l->ctx->diag, l->doc->filename, l->s ? l->s->h.line : 0, "%s (statement %s of %s)",
             msg, l->s && l->s->id ? l->s->id : "?", l->routine);
    return -1;
}

/* ------------------------------------------------------------ analysis */

static bool
is_op(const xf_evertex *v)
{
    return v->kind == XF_EV_INTRINSIC || v->kind == XF_EV_BOOLOP || v->kind == XF_EV_FUNCALL;
}

/* The rank of a reference's value: its sections' count, or its symbol's rank. */
static int
ref_rank(const xf_varref *r)
{
    const xf_arrref *a = xf_varref_arrref(r);
    const xf_symref *s = xf_varref_symref(r);
    if (!a)
        return s && s->sym ? (xf_shape_rank(s->sym->shape) < 0 ? 0 : xf_shape_rank(s->sym->shape))
                           : 0;
    int k = 0;
    for (uint32_t i = 0; i < a->t.n; i++)
        if (a->t.v[i].bound || a->t.v[i].stride || !a->t.v[i].index)
            k++;
    return k;
}

static void
order_from(lin *l, uint32_t v, uint8_t *seen)
{
    /* iterative depth-first post-order */
    uint32_t *stack = malloc((size_t)(l->x->v.n + 1) * 2 * sizeof *stack);
    if (!stack)
        return;
    uint32_t sp = 0;
    stack[sp++] = v;
    stack[sp++] = 0;
    while (sp) {
        uint32_t k = stack[sp - 1], u = stack[sp - 2];
        if (seen[u] == 2) {
            sp -= 2;
            continue;
        }
        seen[u] = 1;
        uint32_t n = l->first[u + 1] - l->first[u];
        if (k < n) {
            stack[sp - 1]++;
            uint32_t c = l->ops[l->first[u] + k];
            if (!seen[c]) {
                stack[sp++] = c;
                stack[sp++] = 0;
            }
        } else {
            seen[u] = 2;
            l->order[l->norder++] = u;
            sp -= 2;
        }
    }
    free(stack);
}

/* Operand tables, order, activity, partial needs and ranks of l->x. */
static int
analyse(lin *l)
{
    const xf_expr *x = l->x;
    uint32_t nv = x->v.n;
    xf_arena *a = l->scratch;
    l->first = XF_NEW_ARRAY(a, nv + 1, uint32_t);
    l->ops = XF_NEW_ARRAY(a, x->e.n + 1, uint32_t);
    l->active = XF_NEW_ARRAY(a, nv, uint8_t);
    l->need = XF_NEW_ARRAY(a, nv, uint8_t);
    l->mat = XF_NEW_ARRAY(a, nv, uint8_t);
    l->rank = XF_NEW_ARRAY(a, nv, uint8_t);
    l->temp = XF_NEW_ARRAY(a, nv, xf_symbol *);
    l->ii = XF_NEW_ARRAY(a, nv, const xf_ii *);
    l->da = XF_NEW_ARRAY(a, nv, const xf_nii *);
    l->order = XF_NEW_ARRAY(a, nv, uint32_t);
    uint8_t *seen = XF_NEW_ARRAY(a, nv, uint8_t);
    uint8_t *taken = XF_NEW_ARRAY(a, x->e.n + 1, uint8_t); /* operand slots filled */
    if (!l->first || !l->ops || !l->active || !l->need || !l->mat || !l->rank || !l->temp ||
        !l->ii || !l->da || !l->order || !seen || !taken)
        return xf_pass_oom(l->ctx);
    for (uint32_t j = 0; j < x->e.n; j++) {
        if (x->e.v[j].tgt >= nv || x->e.v[j].src >= nv)
            return fail(l, "an expression edge without its vertices", NULL);
        l->first[x->e.v[j].tgt + 1]++;
    }
    for (uint32_t v = 0; v < nv; v++)
        l->first[v + 1] += l->first[v];
    for (uint32_t j = 0; j < x->e.n; j++) {
        const xf_eedge *e = &x->e.v[j];
        int64_t p = e->pos;
        uint32_t n = l->first[e->tgt + 1] - l->first[e->tgt];
        /* n edges into a vertex: positions 1..n, each once (a repeated
         * one would leave another operand's slot unset) */
        if (p < 1 || p > n || taken[l->first[e->tgt] + (uint32_t)(p - 1)])
            return fail(l, "operand positions are not 1..n", NULL);
        taken[l->first[e->tgt] + (uint32_t)(p - 1)] = 1;
        l->ops[l->first[e->tgt] + (uint32_t)(p - 1)] = e->src;
    }
    uint32_t root = xf_expr_root(x);
    if (root == UINT32_MAX)
        return fail(l, "an expression without a single root", NULL);
    l->norder = 0;
    order_from(l, root, seen);
    if (l->norder == 0 || l->order[l->norder - 1] != root)
        return xf_pass_oom(l->ctx);
    for (uint32_t k = 0; k < l->norder; k++) {
        uint32_t v = l->order[k];
        const xf_evertex *ev = &x->v.v[v];
        uint32_t n = l->first[v + 1] - l->first[v];
        const uint32_t *o = l->ops + l->first[v];
        switch (ev->kind) {
        case XF_EV_VARREF:
            l->active[v] = xf_is_active_ref(ev->u.ref);
            l->rank[v] = (uint8_t)ref_rank(ev->u.ref);
            break;
        case XF_EV_CONSTANT:
        case XF_EV_BOOLOP:
        case XF_EV_ARGREF:
            for (uint32_t i = 0; i < n; i++)
                if (l->rank[o[i]] > l->rank[v])
                    l->rank[v] = l->rank[o[i]];
            break;
        case XF_EV_FUNCALL:
            return fail(l, "a FunctionCall (front ends canonicalise them into calls)", NULL);
        case XF_EV_INTRINSIC: {
            const char *name = ev->u.in.name;
            bool any = false;
            for (uint32_t i = 0; i < n; i++) {
                any = any || l->active[o[i]];
                if (l->rank[o[i]] > l->rank[v])
                    l->rank[v] = l->rank[o[i]];
            }
            /* results of reductions and inquiries are scalars */
            if (!strcmp(name, "nc_maxval") || !strcmp(name, "nc_minval") ||
                !strcmp(name, "sum_arr") || !strcmp(name, "size") || !strcmp(name, "len"))
                l->rank[v] = 0;
            if (!strcmp(name, "transpose_arr"))
                l->rank[v] = 2;
            if (!any)
                break;
            const xf_ii *ii = xf_catalogue_find(l->ctx->catalogue, name);
            if (!ii && (l->da[v] = xf_direct_find(l->ctx->direct, name))) {
                /* its derivative: the same operation on the derivatives */
                if (v != root)
                    return fail(l,
                                "the non-inlinable intrinsic %s is supported only as the "
                                "whole right side",
                                name);
                l->active[v] = 1;
                break;
            }
            if (!ii)
                return fail(l, "intrinsic %s is not in the catalogue of partial derivatives", name);
            l->ii[v] = ii;
            for (uint32_t i = 0; i < n; i++) {
                if (!l->active[o[i]])
                    continue;
                const xf_ii_partial *p = NULL;
                for (uint32_t q = 0; q < ii->partials.n; q++)
                    if (ii->partials.v[q].id == (int64_t)i + 1)
                        p = &ii->partials.v[q];
                if (!p)
                    return fail(l, "the catalogue gives no partial for an argument of %s", name);
                if (p->type && !strcmp(p->type, "passive"))
                    continue;
                l->active[v] = 1;
                for (uint32_t q = 0; q < p->expr.v.n; q++)
                    if (p->expr.v.v[q].kind == XF_EV_ARGREF) {
                        int64_t arg = p->expr.v.v[q].u.arg;
                        if (arg == 0)
                            l->need[v] = 1;
                        else if (arg >= 1 && arg <= (int64_t)n)
                            l->need[o[arg - 1]] = 1;
                    }
            }
            break;
        }
        }
    }
    /* an operation gets a temporary if it is active (its derivative is a
     * vertex) or a partial needs its value; the root is the assignment's own
     * left side unless a partial needs its result before the assignment */
    for (uint32_t v = 0; v < nv; v++)
        l->mat[v] = is_op(&x->v.v[v]) && (l->active[v] || l->need[v]) && (v != root || l->need[v]);
    return 0;
}

/* ------------------------------------------------------------ building */

static xf_varref *
temp_ref(lin *l, uint32_t v, bool deriv)
{
    xf_varref *r = xf_ref_new(l->doc, l->temp[v]);
    if (r)
        xf_mark_ref(r, l->temp[v]->active == XF_FLAG_1, deriv);
    return r;
}

/* The value of vertex @v of l->x as a vertex of @dst: its temporary, a copy
 * of a leaf, or the operation rebuilt over its operands' values (each
 * operation before its operands, the edge to an operand after the operand).
 * Explicit stack: an expression's depth is unbounded. */
static uint32_t
value_leaf(lin *l, xf_expr *dst, uint32_t v)
{
    if (l->mat[v] && l->temp[v])
        return xf_expr_ref(l->doc, dst, temp_ref(l, v, false));
    return xf_expr_copy_vertex(l->doc, dst, l->x, v);
}

typedef struct vframe {
    uint32_t v, o, i; /* vertex of l->x, its copy in dst, next operand */
} vframe;

static uint32_t
value_op(lin *l, xf_expr *dst, uint32_t v)
{
    const xf_evertex *ev = &l->x->v.v[v];
    uint32_t o = xf_expr_op(l->doc, dst, ev->kind, ev->u.in.name);
    if (o != UINT32_MAX) {
        dst->v.v[o].h = ev->h;
        dst->v.v[o].u.in.type = ev->u.in.type;
    }
    return o;
}

static uint32_t
value(lin *l, xf_expr *dst, uint32_t v)
{
    if ((l->mat[v] && l->temp[v]) || !is_op(&l->x->v.v[v]))
        return value_leaf(l, dst, v);
    XF_VEC(vframe) st = {0};
    uint32_t ret = UINT32_MAX, o = value_op(l, dst, v);
    if (o == UINT32_MAX || !XF_VEC_PUSH(l->scratch, st, ((vframe){v, o, 0})))
        return UINT32_MAX;
    while (st.n) {
        vframe *f = &st.v[st.n - 1];
        if (f->i == l->first[f->v + 1] - l->first[f->v]) {
            ret = f->o;
            st.n--;
            if (st.n) { /* the edge from this operand to its operation */
                vframe *up = &st.v[st.n - 1];
                if (!xf_expr_edge(l->doc, dst, ret, up->o, (int64_t)++up->i))
                    return UINT32_MAX;
            }
            continue;
        }
        uint32_t u = l->ops[l->first[f->v] + f->i];
        if ((l->mat[u] && l->temp[u]) || !is_op(&l->x->v.v[u])) {
            uint32_t c = value_leaf(l, dst, u);
            f = &st.v[st.n - 1];
            if (c == UINT32_MAX || !xf_expr_edge(l->doc, dst, c, f->o, (int64_t)++f->i))
                return UINT32_MAX;
            continue;
        }
        if ((o = value_op(l, dst, u)) == UINT32_MAX ||
            !XF_VEC_PUSH(l->scratch, st, ((vframe){u, o, 0})))
            return UINT32_MAX;
    }
    return ret;
}

static const char *
stmt_id(lin *l, const char *what, unsigned n)
{
    return xf_derived_id(l->doc, what, n, l->s->id);
}

static xf_shape
shape_of_rank(int r)
{
    return (xf_shape)(r + 1 <= XF_SHAPE_SEVEN_TENSOR ? r + 1 : XF_SHAPE_SEVEN_TENSOR);
}

static int
emit(lin *l, xf_stmt *s)
{
    if (!s || !XF_VEC_PUSH(l->doc->arena, l->out, s))
        return xf_pass_oom(l->ctx);
    return 0;
}

/* A constant folded partial: the value of a constant-only expression. */
static bool
constant_value(const xf_expr *x, uint32_t v, double *out, int depth)
{
    const xf_evertex *ev = &x->v.v[v];
    if (depth > 1000)
        return false;
    if (ev->kind == XF_EV_CONSTANT) {
        if (ev->u.c.type != XF_TYPE_INTEGER && ev->u.c.type != XF_TYPE_REAL &&
            ev->u.c.type != XF_TYPE_DOUBLE)
            return false;
        char *end;
        *out = strtod(ev->u.c.value, &end);
        return !*end;
    }
    if (ev->kind != XF_EV_INTRINSIC)
        return false;
    double a[2];
    int n = 0;
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].tgt == v) {
            if (n == 2 || x->e.v[j].pos < 1 || x->e.v[j].pos > 2 ||
                !constant_value(x, x->e.v[j].src, &a[x->e.v[j].pos - 1], depth + 1))
                return false;
            n++;
        }
    const char *op = ev->u.in.name;
    if (n == 1 && !strcmp(op, "minus_scal"))
        *out = -a[0];
    else if (n == 2 && !strcmp(op, "add_scal_scal"))
        *out = a[0] + a[1];
    else if (n == 2 && !strcmp(op, "sub_scal_scal"))
        *out = a[0] - a[1];
    else if (n == 2 && !strcmp(op, "mul_scal_scal"))
        *out = a[0] * a[1];
    else
        return false;
    return true;
}

/* Only constants and intrinsics: what constant_value may fold (a quick test
 * first, since constant_value looks for operands edge by edge). */
static bool
constants_only(const xf_expr *x)
{
    for (uint32_t q = 0; q < x->v.n; q++)
        if (x->v.v[q].kind != XF_EV_CONSTANT && x->v.v[q].kind != XF_EV_INTRINSIC)
            return false;
    return true;
}

/* The partial @p of vertex @v by its operand @k, as a new expression; *@rank
 * receives the rank of its value. */
static int
partial_expr(lin *l, uint32_t v, const xf_ii_partial *p, xf_expr *out, int *rank)
{
    *rank = 0;
    const xf_expr *pe = &p->expr;
    uint32_t *map = XF_NEW_ARRAY(l->scratch, pe->v.n ? pe->v.n : 1, uint32_t);
    if (!map)
        return xf_pass_oom(l->ctx);
    uint32_t n = l->first[v + 1] - l->first[v];
    for (uint32_t q = 0; q < pe->v.n; q++) {
        const xf_evertex *pv = &pe->v.v[q];
        if (pv->kind == XF_EV_ARGREF) {
            if (pv->u.arg < 0 || pv->u.arg > (int64_t)n)
                return fail(l, "the catalogue's partial of %s refers to a missing argument",
                            l->x->v.v[v].u.in.name);
            uint32_t of = pv->u.arg == 0 ? v : l->ops[l->first[v] + (uint32_t)pv->u.arg - 1];
            if (l->rank[of] > *rank)
                *rank = l->rank[of];
            map[q] = value(l, out, of);
        } else if (pv->kind == XF_EV_VARREF) {
            return fail(l, "the catalogue's partial of %s refers to a variable",
                        l->x->v.v[v].u.in.name);
        } else {
            xf_evertex c = *pv;
            map[q] = pv->kind == XF_EV_CONSTANT
                         ? xf_expr_const(l->doc, out, c.u.c.type, c.u.c.value)
                         : xf_expr_op(l->doc, out, c.kind, c.u.in.name);
        }
        if (map[q] == UINT32_MAX)
            return xf_pass_oom(l->ctx);
    }
    for (uint32_t j = 0; j < pe->e.n; j++)
        if (!xf_expr_edge(l->doc, out, map[pe->e.v[j].src], map[pe->e.v[j].tgt], pe->e.v[j].pos))
            return xf_pass_oom(l->ctx);
    return 0;
}

/* One term of a propagation: weight (a constant or a partial's variable) and operand. */
typedef struct term {
    bool is_const;
    double c;
    xf_symbol *linvar;
    uint32_t operand;
} term;

/* The derivative of vertex @v of l->x, made in @out (a Sax term holds its
 * reference in place: no reference of its own to copy and leave behind). */
static bool
deriv_ref_into(lin *l, uint32_t v, xf_varref *out)
{
    if (l->mat[v]) {
        if (!xf_ref_init(l->doc, out, l->temp[v]))
            return false;
        xf_mark_ref(out, l->temp[v]->active == XF_FLAG_1, true);
        return true;
    }
    if (!xf_ref_copy(l->doc, out, l->x->v.v[v].u.ref))
        return false;
    xf_mark_ref(out, true, true);
    return true;
}

static xf_varref *
deriv_ref(lin *l, uint32_t v)
{
    xf_varref *r = XF_NEW(l->doc->arena, xf_varref);
    return r && deriv_ref_into(l, v, r) ? r : NULL;
}

/* The derivative of temporary @v as a reference on the stack (@r, its one
 * vertex @rv), for add_sax and the direct action to copy into the document. */
static bool
temp_deriv_local(lin *l, uint32_t v, xf_varref *r, xf_vrvertex *rv)
{
    memset(r, 0, sizeof *r);
    memset(rv, 0, sizeof *rv);
    r->du_ud = r->alias = XF_NOINT;
    rv->kind = XF_VR_SYMBOL;
    rv->u.sym.id = xf_intern_uint(l->doc, 1);
    rv->u.sym.scope = l->temp[v]->scope;
    rv->u.sym.sym = l->temp[v];
    r->v.v = rv;
    r->v.n = r->v.cap = 1;
    xf_mark_ref(r, l->temp[v]->active == XF_FLAG_1, true);
    return rv->u.sym.id != NULL;
}

/* Sax target = sum of terms (propagate turns single unit terms into SetDeriv). */
static int
add_sax(lin *l, xf_stmt *dp, const xf_varref *target, const term *t, uint32_t nt)
{
    xf_dpop op = {.kind = nt ? XF_DP_SAX : XF_DP_ZERODERIV};
    if (!nt) {
        if (!xf_ref_copy(l->doc, &op.tgt, target))
            return xf_pass_oom(l->ctx);
        xf_mark_ref(&op.tgt, true, true);
        return XF_VEC_PUSH(l->doc->arena, dp->u.dp, op) ? 0 : xf_pass_oom(l->ctx);
    }
    for (uint32_t i = 0; i < nt; i++) {
        xf_ax ax = {0};
        uint32_t a = t[i].is_const ? xf_expr_real(l->doc, &ax.a, t[i].c)
                                   : xf_expr_ref(l->doc, &ax.a, xf_ref_new(l->doc, t[i].linvar));
        if (a == UINT32_MAX || !deriv_ref_into(l, t[i].operand, &ax.x))
            return xf_pass_oom(l->ctx);
        if (!t[i].is_const)
            xf_mark_ref(ax.a.v.v[a].u.ref, false, false);
        if (!XF_VEC_PUSH(l->doc->arena, op.ax, ax))
            return xf_pass_oom(l->ctx);
    }
    if (!xf_ref_copy(l->doc, &op.y, target))
        return xf_pass_oom(l->ctx);
    xf_mark_ref(&op.y, true, true);
    return XF_VEC_PUSH(l->doc->arena, dp->u.dp, op) ? 0 : xf_pass_oom(l->ctx);
}

/* y = e with e active: elementary operations, partials, the assignment, the propagation. */
static int
linearize_assign(lin *l, const xf_stmt *s)
{
    const xf_expr *x = l->x;
    uint32_t root = l->order[l->norder - 1];
    /* temporaries for the operations that need one, in order */
    for (uint32_t k = 0; k < l->norder; k++) {
        uint32_t v = l->order[k];
        if (!l->mat[v])
            continue;
        xf_symbol *t = xf_fresh_symbol(l->doc, l->scope, "OpenAD_aux_", &l->naux, XF_TYPE_REAL,
                                       shape_of_rank(l->rank[v]), l->active[v]);
        if (!t)
            return xf_pass_oom(l->ctx);
        xf_expr rhs = {0};
        xf_varref lhs;
        l->temp[v] = NULL; /* value() must build the operation itself */
        if (value(l, &rhs, v) == UINT32_MAX || !xf_ref_init(l->doc, &lhs, t))
            return xf_pass_oom(l->ctx);
        l->temp[v] = t;
        xf_mark_ref(&lhs, l->active[v], false);
        if (emit(l, xf_stmt_assign(l->doc, stmt_id(l, "aux", l->naux - 1), &lhs, &rhs)))
            return -1;
    }
    /* the partials, before anything they read is overwritten */
    term *terms = XF_NEW_ARRAY(l->scratch, x->e.n + 1, term);
    uint32_t *tfirst = XF_NEW_ARRAY(l->scratch, x->v.n + 1, uint32_t);
    uint32_t *tcount = XF_NEW_ARRAY(l->scratch, x->v.n + 1, uint32_t);
    if (!terms || !tfirst || !tcount)
        return xf_pass_oom(l->ctx);
    uint32_t nt = 0;
    for (uint32_t k = 0; k < l->norder; k++) {
        uint32_t v = l->order[k];
        tfirst[v] = nt;
        const xf_evertex *ev = &x->v.v[v];
        if (!l->active[v] || !is_op(ev) || l->da[v])
            continue;
        uint32_t n = l->first[v + 1] - l->first[v];
        for (uint32_t i = 0; i < n; i++) {
            uint32_t u = l->ops[l->first[v] + i];
            if (!l->active[u])
                continue;
            const xf_ii_partial *p = NULL;
            for (uint32_t q = 0; q < l->ii[v]->partials.n; q++)
                if (l->ii[v]->partials.v[q].id == (int64_t)i + 1)
                    p = &l->ii[v]->partials.v[q];
            if (!p || (p->type && !strcmp(p->type, "passive")))
                continue;
            term t = {.operand = u};
            xf_expr pe = {0};
            int prank;
            if (partial_expr(l, v, p, &pe, &prank))
                return -1;
            uint32_t pr = xf_expr_root(&pe);
            if (pr != UINT32_MAX && constants_only(&pe) && constant_value(&pe, pr, &t.c, 0)) {
                t.is_const = true;
            } else {
                t.linvar = xf_fresh_symbol(l->doc, l->scope, "OpenAD_lin_", &l->nlin, XF_TYPE_REAL,
                                           shape_of_rank(prank), false);
                xf_varref lhs;
                if (!t.linvar || !xf_ref_init(l->doc, &lhs, t.linvar))
                    return xf_pass_oom(l->ctx);
                xf_mark_ref(&lhs, false, false);
                if (emit(l, xf_stmt_assign(l->doc, stmt_id(l, "partial", l->nlin - 1), &lhs, &pe)))
                    return -1;
            }
            terms[nt++] = t;
            tcount[v]++;
        }
    }
    /* the assignment itself */
    xf_stmt *as = xf_stmt_assign(l->doc, s->id, &s->u.as.lhs, &s->u.as.rhs);
    if (!as)
        return xf_pass_oom(l->ctx);
    as->h = s->h;
    as->lineno = s->lineno;
    as->u.as.do_chain = s->u.as.do_chain;
    xf_mark_ref(&as->u.as.lhs, true, false);
    memset(&as->u.as.rhs, 0,
           sizeof as->u.as.rhs); /* its temporary, or the root over its operands */
    as->u.as.rhs.h = s->u.as.rhs.h;
    if (value(l, &as->u.as.rhs, root) == UINT32_MAX)
        return xf_pass_oom(l->ctx);
    if (emit(l, as))
        return -1;
    /* the propagation, operation by operation */
    xf_stmt *dp = xf_stmt_derivprop(l->doc);
    if (!dp)
        return xf_pass_oom(l->ctx);
    for (uint32_t k = 0; k < l->norder; k++) {
        uint32_t v = l->order[k];
        const xf_evertex *ev = &x->v.v[v];
        if (!l->active[v] || (ev->kind == XF_EV_VARREF && v != root))
            continue;
        xf_varref *target = &as->u.as.lhs, local;
        xf_vrvertex local_v;
        if (v != root) {
            if (!temp_deriv_local(l, v, &local, &local_v))
                return xf_pass_oom(l->ctx);
            target = &local;
        }
        if (l->da[v]) { /* target' = action(operands' derivatives or values) */
            if (dp->u.dp.n && emit(l, dp))
                return -1;
            xf_expr rhs = {0};
            uint32_t o =
                xf_expr_op(l->doc, &rhs, XF_EV_INTRINSIC,
                           l->da[v]->deriv_action ? l->da[v]->deriv_action : ev->u.in.name);
            uint32_t n = l->first[v + 1] - l->first[v];
            for (uint32_t i = 0; i < n && o != UINT32_MAX; i++) {
                uint32_t u = l->ops[l->first[v] + i];
                uint32_t c =
                    l->active[u] ? xf_expr_ref(l->doc, &rhs, deriv_ref(l, u)) : value(l, &rhs, u);
                if (!xf_expr_edge(l->doc, &rhs, c, o, (int64_t)i + 1))
                    o = UINT32_MAX;
            }
            xf_varref lhs;
            if (o == UINT32_MAX || !xf_ref_copy(l->doc, &lhs, target))
                return xf_pass_oom(l->ctx);
            xf_mark_ref(&lhs, true, true);
            if (emit(l, xf_stmt_assign(l->doc, stmt_id(l, "derivative", 0), &lhs, &rhs)))
                return -1;
            if (!(dp = xf_stmt_derivprop(l->doc)))
                return xf_pass_oom(l->ctx);
            continue;
        }
        if (ev->kind == XF_EV_VARREF) { /* y = x */
            term one = {.is_const = true, .c = 1.0, .operand = v};
            if (add_sax(l, dp, target, &one, 1))
                return -1;
        } else if (add_sax(l, dp, target, terms + tfirst[v], tcount[v]))
            return -1;
    }
    return dp->u.dp.n ? emit(l, dp) : 0;
}

/* ------------------------------------------------------------ statements */

static int
zero_deriv(lin *l, const xf_varref *lhs)
{
    xf_stmt *dp = xf_stmt_derivprop(l->doc);
    xf_dpop op = {.kind = XF_DP_ZERODERIV};
    if (!dp || !xf_ref_copy(l->doc, &op.tgt, lhs))
        return xf_pass_oom(l->ctx);
    xf_mark_ref(&op.tgt, true, true);
    return XF_VEC_PUSH(l->doc->arena, dp->u.dp, op) ? emit(l, dp) : xf_pass_oom(l->ctx);
}

static int
statement(lin *l, xf_stmt *s)
{
    l->s = s;
    if (s->kind != XF_STMT_ASSIGN)
        return emit(l, s);
    const xf_varref *lhs = &s->u.as.lhs;
    if (!xf_is_active_ref(lhs) || xf_flag_is(lhs->deriv, false))
        return emit(l, s);
    l->x = &s->u.as.rhs;
    xf_arena_reset(l->scratch);
    if (l->x->v.n == 0)
        return fail(l, "an assignment without a right side", NULL);
    if (analyse(l))
        return -1;
    uint32_t root = l->order[l->norder - 1];
    if (!l->active[root]) {
        xf_mark_ref(&s->u.as.lhs, true, false);
        return emit(l, s) || zero_deriv(l, lhs);
    }
    return linearize_assign(l, s);
}

static int
loop_part(lin *l, const xf_stmt *s)
{
    if (s && s->kind == XF_STMT_ASSIGN && xf_is_active_ref(&s->u.as.lhs)) {
        l->s = s;
        return fail(l, "a loop assigns an active variable, which is not supported", NULL);
    }
    return 0;
}

static int
begin(xf_pass_ctx *ctx)
{
    if (ctx->catalogue)
        return 0;
    xf_error(ctx->diag, ctx->doc->filename, 0, "linearize needs an intrinsics catalogue");
    return -1;
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    xf_graph *g = xf_work_graph(rt);
    if (!g || !rt->cfg_scope)
        return 0;
    lin l = {.ctx = ctx,
             .doc = ctx->doc,
             .scope = rt->cfg_scope,
             .scratch = ctx->scratch,
             .routine = rt->sym ? rt->sym->id : "?"};
    for (uint32_t i = 0; i < g->v.n; i++) {
        xf_cvertex *v = g->v.v[i];
        if (loop_part(&l, v->init) || loop_part(&l, v->update))
            return -1;
        if (v->kind != XF_CV_BASICBLOCK)
            continue;
        memset(&l.out, 0, sizeof l.out);
        for (uint32_t k = 0; k < v->stmts.n; k++)
            if (statement(&l, v->stmts.v[k]))
                return -1;
        v->stmts.v = l.out.v;
        v->stmts.n = l.out.n;
        v->stmts.cap = l.out.cap;
    }
    if (!rt->is_rlist)
        rt->active = XF_FLAG_1;
    return 0;
}

/* ------------------------------------------------ a block in pieces */

struct xf_lin_pieces {
    lin l;
};

int
xf_lin_pieces_new(xf_pass_ctx *ctx, xf_routine *rt, xf_arena *scratch, xf_lin_pieces **out)
{
    *out = NULL;
    xf_graph *g = xf_work_graph(rt);
    if (!g || !rt->cfg_scope)
        return 0;
    xf_lin_pieces *p = calloc(1, sizeof *p);
    if (!p)
        return xf_pass_oom(ctx);
    p->l = (lin){.ctx = ctx,
                 .doc = ctx->doc,
                 .scope = rt->cfg_scope,
                 .scratch = scratch,
                 .routine = rt->sym ? rt->sym->id : "?"};
    for (uint32_t i = 0; i < g->v.n; i++)
        if (loop_part(&p->l, g->v.v[i]->init) || loop_part(&p->l, g->v.v[i]->update)) {
            free(p);
            return -1;
        }
    if (!rt->is_rlist)
        rt->active = XF_FLAG_1;
    *out = p;
    return 0;
}

int
xf_lin_pieces_feed(xf_lin_pieces *p, xf_stmt *const *v, uint32_t n, xf_stmt ***out, uint32_t *nout)
{
    lin *l = &p->l;
    memset(&l->out, 0, sizeof l->out);
    for (uint32_t k = 0; k < n; k++)
        if (statement(l, v[k]))
            return -1;
    *out = l->out.v;
    *nout = l->out.n;
    return 0;
}

void
xf_lin_pieces_free(xf_lin_pieces *p)
{
    free(p);
}

static const char *const after[] = {NULL};

const xf_pass xf_pass_linearize = {
    .name = "linearize",
    .summary = "elementary operations with their partial derivatives, and their tangents",
    .help = "Every assignment to an active variable becomes its elementary operations\n"
            "(temporaries OpenAD_aux_*), the local partial derivative of each with respect\n"
            "to its active operands (OpenAD_lin_*, from the intrinsics catalogue), and a\n"
            "DerivativePropagator that applies them, operation by operation. The result is\n"
            "runnable tangent code; preaccumulate improves it block by block.\n",
    .after = after,
    .once = true,
    .run_routine = run_routine,
    .begin = begin,
};
