/* eval.c: expressions (graphs evaluated from their root), variable
 * references as places (elements, sections, vector subscripts), constants. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

enum { MAX_EXPR_DEPTH = 10000 };

/* Per expression, computed once: its root and each vertex's operands in
 * position order (CSR), and its constants parsed. */
typedef struct xinfo {
    uint32_t root;
    uint32_t *first; /* operands of v: ops[first[v] .. first[v+1]) */
    uint32_t *ops;
    rt_val *konst;
    bool *parsed;
} xinfo;

static const xinfo *
info(rt *m, const xf_expr *x)
{
    xinfo *xi = xf_map_get(&m->xinfo, x);
    if (xi)
        return xi;
    uint32_t nv = x->v.n, ne = x->e.n;
    if (!nv)
        rt_fault(m, "an empty expression (line %u)", x->h.line);
    xi = rt_alloc(m, sizeof *xi);
    xi->first = rt_alloc(m, (nv + 1) * sizeof *xi->first);
    xi->ops = rt_alloc(m, (ne ? ne : 1) * sizeof *xi->ops);
    xi->konst = rt_alloc(m, nv * sizeof *xi->konst);
    xi->parsed = rt_alloc(m, nv * sizeof *xi->parsed);
    bool *is_src = rt_alloc(m, nv * sizeof *is_src);
    for (uint32_t j = 0; j < ne; j++) {
        const xf_eedge *e = &x->e.v[j];
        if (e->src >= nv || e->tgt >= nv)
            rt_fault(m, "an expression edge without its vertices (line %u)", e->h.line);
        xi->first[e->tgt + 1]++;
        is_src[e->src] = true;
    }
    for (uint32_t v = 0; v < nv; v++)
        xi->first[v + 1] += xi->first[v];
    uint32_t *fill = rt_alloc(m, nv * sizeof *fill);
    for (uint32_t j = 0; j < ne; j++) {
        const xf_eedge *e = &x->e.v[j];
        xi->ops[xi->first[e->tgt] + fill[e->tgt]++] = j; /* edge indices, sorted below */
    }
    for (uint32_t v = 0; v < nv; v++) {
        uint32_t *o = xi->ops + xi->first[v];
        uint32_t n = xi->first[v + 1] - xi->first[v];
        for (uint32_t a = 1; a < n; a++) /* insertion sort by position */
            for (uint32_t b = a; b > 0 && x->e.v[o[b - 1]].pos > x->e.v[o[b]].pos; b--) {
                uint32_t t = o[b];
                o[b] = o[b - 1];
                o[b - 1] = t;
            }
        for (uint32_t a = 0; a < n; a++) {
            if (x->e.v[o[a]].pos != (int64_t)a + 1)
                rt_fault(m, "operand positions of an expression vertex are not 1..%u (line %u)", n,
                         x->v.v[v].h.line);
            o[a] = x->e.v[o[a]].src;
        }
    }
    xi->root = UINT32_MAX;
    for (uint32_t v = 0; v < nv; v++)
        if (!is_src[v]) {
            if (xi->root != UINT32_MAX)
                rt_fault(m, "an expression with two roots (line %u)", x->h.line);
            xi->root = v;
        }
    if (xi->root == UINT32_MAX)
        rt_fault(m, "an expression without a root (line %u)", x->h.line);
    if (!xf_map_put(&m->xinfo, m->a, x, xi, NULL))
        rt_fault(m, "out of memory");
    return xi;
}

/* ------------------------------------------------------------ constants */

static rt_val
constant(rt *m, const xf_evertex *v)
{
    const char *s = v->u.c.value;
    char *end;
    switch (v->u.c.type) {
    case XF_TYPE_INTEGER: {
        errno = 0;
        long long i = strtoll(s, &end, 10);
        if (end == s || *end || errno)
            rt_fault(m, "integer constant '%s' (line %u) is no integer", s, v->h.line);
        return rt_scalar_int(i);
    }
    case XF_TYPE_BOOL:
        if (!strcmp(s, "true") || !strcmp(s, ".true.") || !strcmp(s, "1") || !strcmp(s, "T"))
            return rt_scalar_bool(true);
        if (!strcmp(s, "false") || !strcmp(s, ".false.") || !strcmp(s, "0") || !strcmp(s, "F"))
            return rt_scalar_bool(false);
        rt_fault(m, "logical constant '%s' (line %u) is neither true nor false", s, v->h.line);
    case XF_TYPE_STRING:
    case XF_TYPE_CHAR: {
        rt_val r = {.type = RT_STR, .n = 1};
        r.sc.s = (rt_str){(char *)s, (int64_t)strlen(s)};
        return r;
    }
    case XF_TYPE_NONE:
    case XF_TYPE_REAL:
    case XF_TYPE_DOUBLE: {
        char buf[128];
        size_t n = strlen(s);
        if (n >= sizeof buf)
            rt_fault(m, "real constant '%s' is too long", s);
        for (size_t k = 0; k <= n; k++) /* Fortran's D exponent */
            buf[k] = s[k] == 'D' || s[k] == 'd' ? 'e' : s[k];
        errno = 0;
        /* a single-precision literal is REAL*4 in the compiled code: rounded
         * once, from its decimal text, to binary32 */
        bool f4 = v->u.c.fetype && !strcmp(v->u.c.fetype, "F4");
        double r = f4 ? (double)strtof(buf, &end) : strtod(buf, &end);
        if (end == buf || *end)
            rt_fault(m, "real constant '%s' (line %u) is no number", s, v->h.line);
        return rt_scalar_real(r);
    }
    case XF_TYPE_VOID:
    case XF_TYPE_COMPLEX:
    case XF_TYPE_OPAQUE:
        break;
    }
    rt_fault(m, "constant '%s' of type %s cannot be computed with", s,
             xf_type_name(v->u.c.type) ? xf_type_name(v->u.c.type) : "?");
}

/* ------------------------------------------------------------ references */

static void
grow_to(rt *m, rt_view *view, const int64_t *hi)
{
    rt_store *st = view->st;
    int64_t lb[RT_MAXRANK], ext[RT_MAXRANK];
    for (int j = 0; j < st->rank; j++) {
        lb[j] = 1;
        ext[j] = st->shaped && st->ext[j] > hi[j] ? st->ext[j] : hi[j];
    }
    rt_store_shape(m, st, st->rank, lb, ext);
    view->rank = st->rank;
    for (int j = 0; j < st->rank; j++) {
        view->lb[j] = 1;
        view->ext[j] = st->ext[j];
    }
    view->n = st->n;
    view->off = 0;
    view->map = NULL;
}

rt_view *
rt_ref_view(rt *m, const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    if (!s || !s->sym || !s->scope)
        rt_fault(m, "a variable reference without a resolved symbol (line %u)", r->h.line);
    return rt_bind(m, s->scope, s->sym);
}

typedef struct dim {
    bool section;
    int64_t n;    /* subscripts in this dimension */
    int64_t *sub; /* them, or one */
    int64_t one;
} dim;

/* The elements a reference denotes. An array whose shape is not known yet
 * (§1.3 rule 6) learns it from the subscripts written to it. */
void
rt_lvalue(rt *m, const xf_varref *r, bool deriv, rt_lval *out)
{
    rt_view *view = rt_ref_view(m, r);
    const xf_arrref *ar = xf_varref_arrref(r);
    memset(out, 0, sizeof *out);
    out->view = view;
    out->deriv = deriv;
    if (!ar) {
        if (view->rank > 0 && !view->st->shaped)
            rt_fault(m, "array %s is used before its shape is known", view->name);
        out->rank = view->rank;
        for (int j = 0; j < view->rank; j++)
            out->ext[j] = view->ext[j];
        out->n = view->n;
        out->idx =
            out->n == 1 ? &out->one : rt_tmp(m, (size_t)(out->n ? out->n : 1), sizeof(int64_t));
        for (int64_t k = 0; k < out->n; k++)
            out->idx[k] = rt_storage(view, k);
        return;
    }
    if (view->rank == 0 && view->st->type == RT_STR && ar->t.n == 1) {
        /* a substring s(lo:hi) */
        const xf_triplet *t = &ar->t.v[0];
        out->substr = true;
        out->n = 1;
        out->idx = &out->one;
        out->one = rt_storage(view, 0);
        rt_str s = view->st->s[out->one];
        out->sub_lo = t->index ? rt_eval_int(m, t->index) : 1;
        out->sub_hi = t->bound                 ? rt_eval_int(m, t->bound)
                      : t->index && !t->stride ? out->sub_lo
                                               : s.len;
        if (out->sub_lo < 1)
            rt_fault(m, "substring %lld:%lld of %s", (long long)out->sub_lo, (long long)out->sub_hi,
                     view->name);
        return;
    }
    if ((int)ar->t.n != view->rank)
        rt_fault(m, "%s has rank %d but is referenced with %u subscripts", view->name, view->rank,
                 ar->t.n);
    dim dims[RT_MAXRANK];
    int64_t hi[RT_MAXRANK];
    /* an array without bounds takes its shape from the subscripts written (§1.3 rule 6) */
    bool need_shape = !view->st->shaped, growing = need_shape || view->st->growing;
    for (int j = 0; j < view->rank; j++) {
        const xf_triplet *t = &ar->t.v[j];
        dim *d = &dims[j];
        d->section = t->bound || t->stride || !t->index;
        if (!d->section) {
            rt_val iv = rt_eval(m, t->index);
            if (iv.rank == 0) {
                d->n = 1;
                d->one = rt_int_at(m, &iv, 0);
                d->sub = &d->one;
            } else { /* a vector subscript */
                d->section = true;
                d->n = iv.n;
                d->sub = rt_tmp(m, (size_t)(iv.n ? iv.n : 1), sizeof(int64_t));
                for (int64_t k = 0; k < iv.n; k++)
                    d->sub[k] = rt_int_at(m, &iv, k);
            }
        } else {
            if (need_shape && !t->bound)
                rt_fault(m, "array %s is used before its shape is known", view->name);
            int64_t lo = t->index ? rt_eval_int(m, t->index) : need_shape ? 1 : view->lb[j];
            int64_t up = t->bound ? rt_eval_int(m, t->bound) : view->lb[j] + view->ext[j] - 1;
            int64_t st = t->stride ? rt_eval_int(m, t->stride) : 1;
            if (st == 0)
                rt_fault(m, "a section of %s with stride 0", view->name);
            d->n = (up - lo + st) / st;
            if (d->n < 0)
                d->n = 0;
            d->sub = rt_tmp(m, (size_t)(d->n ? d->n : 1), sizeof(int64_t));
            for (int64_t k = 0; k < d->n; k++)
                d->sub[k] = lo + k * st;
        }
        hi[j] = 1;
        for (int64_t k = 0; k < d->n; k++)
            if (d->sub[k] > hi[j])
                hi[j] = d->sub[k];
        if (d->section)
            out->ext[out->rank++] = d->n;
    }
    if (growing) {
        bool beyond = need_shape;
        for (int j = 0; j < view->rank && !beyond; j++)
            beyond = hi[j] > view->lb[j] + view->ext[j] - 1;
        if (beyond) {
            grow_to(m, view, hi);
            view->st->growing = true;
            rt_learn_shape(m, r, view->st);
        }
    }
    out->n = 1;
    for (int j = 0; j < view->rank; j++)
        out->n *= dims[j].n;
    out->idx = out->n == 1 ? &out->one : rt_tmp(m, (size_t)(out->n ? out->n : 1), sizeof(int64_t));
    int64_t sub[RT_MAXRANK], pos[RT_MAXRANK] = {0};
    out->section = out->rank > 0;
    for (int64_t k = 0; k < out->n; k++) {
        for (int j = 0; j < view->rank; j++)
            sub[j] = dims[j].sub[pos[j]];
        int64_t p = rt_view_index(m, view, sub);
        if (k == 0)
            out->pos0 = p;
        out->idx[k] = rt_storage(view, p);
        if (out->idx[k] < 0 || out->idx[k] >= view->st->n)
            rt_fault(m, "element of %s beyond its storage (%lld elements)", view->name,
                     (long long)view->st->n);
        for (int j = 0; j < view->rank; j++) { /* column-major odometer */
            if (++pos[j] < dims[j].n)
                break;
            pos[j] = 0;
        }
    }
}

/* ------------------------------------------------------------ evaluation */

/* Inquiry intrinsics look at a variable, not at its value. */
static bool
inquiry(const char *name)
{
    return !strcmp(name, "size") || !strcmp(name, "ubound") || !strcmp(name, "lbound") ||
           !strcmp(name, "present") || !strcmp(name, "allocated") || !strcmp(name, "shape_arr");
}

static rt_val eval_vertex(rt *m, const xf_expr *x, const xinfo *xi, uint32_t v, int depth);

static rt_val
eval_inquiry(rt *m, const xf_expr *x, const xinfo *xi, const xf_evertex *v, const uint32_t *ops,
             int nops, int depth)
{
    const char *name = v->u.in.name;
    if (nops < 1)
        rt_fault(m, "%s needs an argument", name);
    const xf_evertex *a = &x->v.v[ops[0]];
    if (a->kind != XF_EV_VARREF)
        rt_fault(m, "the argument of %s must be a variable", name);
    const xf_varref *r = a->u.ref;
    if (!strcmp(name, "present")) {
        const xf_symref *s = xf_varref_symref(r);
        return rt_scalar_bool(s && s->sym && rt_bind_present(m, s->scope, s->sym));
    }
    rt_view whole = {0};
    const rt_view *view;
    rt_lval lv;
    if (xf_varref_arrref(r)) { /* a section: its own shape, lower bounds 1 */
        rt_lvalue(m, r, false, &lv);
        whole.name = lv.view->name;
        whole.st = lv.view->st;
        whole.rank = lv.rank;
        for (int j = 0; j < lv.rank; j++) {
            whole.lb[j] = 1;
            whole.ext[j] = lv.ext[j];
        }
        whole.n = lv.n;
        view = &whole;
    } else
        view = rt_ref_view(m, r);
    if (!strcmp(name, "allocated"))
        return rt_scalar_bool(view->st->shaped);
    if (view->rank > 0 && !view->st->shaped)
        rt_fault(m, "%s of array %s before its shape is known", name, view->name);
    if (!strcmp(name, "shape_arr")) {
        int64_t n = view->rank;
        rt_val s = rt_array(m, RT_INT, 1, &n);
        for (int j = 0; j < view->rank; j++)
            s.iv[j] = view->ext[j];
        return s;
    }
    int64_t dimn = 0;
    if (nops >= 2) {
        rt_val dv = eval_vertex(m, x, xi, ops[1], depth + 1);
        dimn = rt_int_at(m, &dv, 0);
        if (dimn < 1 || dimn > view->rank)
            rt_fault(m, "%s(%s, %lld): no such dimension", name, view->name, (long long)dimn);
    }
    if (!strcmp(name, "size")) {
        return rt_scalar_int(dimn ? view->ext[dimn - 1] : view->n);
    }
    bool up = !strcmp(name, "ubound");
    if (dimn) {
        int64_t lb = view->lb[dimn - 1];
        return rt_scalar_int(up ? lb + view->ext[dimn - 1] - 1 : lb);
    }
    int64_t n = view->rank;
    rt_val s = rt_array(m, RT_INT, 1, &n);
    for (int j = 0; j < view->rank; j++)
        s.iv[j] = up ? view->lb[j] + view->ext[j] - 1 : view->lb[j];
    return s;
}

static rt_val
eval_vertex(rt *m, const xf_expr *x, const xinfo *xi, uint32_t vi, int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        rt_fault(m, "expression nested too deeply");
    rt_stack_check(m);
    const xf_evertex *v = &x->v.v[vi];
    const uint32_t *ops = xi->ops + xi->first[vi];
    int nops = (int)(xi->first[vi + 1] - xi->first[vi]);
    switch (v->kind) {
    case XF_EV_VARREF: {
        rt_lval lv;
        rt_lvalue(m, v->u.ref, xf_flag_is(v->u.ref->deriv, false), &lv);
        return rt_load(m, &lv);
    }
    case XF_EV_CONSTANT:
        if (!xi->parsed[vi]) {
            xi->konst[vi] = constant(m, v);
            xi->parsed[vi] = true;
        }
        return xi->konst[vi];
    case XF_EV_INTRINSIC:
    case XF_EV_BOOLOP: {
        if (v->kind == XF_EV_INTRINSIC && inquiry(v->u.in.name))
            return eval_inquiry(m, x, xi, v, ops, nops, depth);
        rt_val *args = rt_tmp(m, (size_t)(nops ? nops : 1), sizeof *args);
        for (int k = 0; k < nops; k++)
            args[k] = eval_vertex(m, x, xi, ops[k], depth + 1);
        return rt_intrinsic(m, v->u.in.name, v, x, ops, nops, args);
    }
    case XF_EV_FUNCALL:
        return rt_function_call(m, v);
    case XF_EV_ARGREF:
        break;
    }
    rt_fault(m, "an ArgumentReference outside an intrinsics catalogue (line %u)", v->h.line);
}

rt_val
rt_eval_at(rt *m, const xf_expr *x, uint32_t vertex)
{
    const xinfo *xi = info(m, x);
    if (vertex >= x->v.n)
        rt_fault(m, "no vertex %u in an expression", vertex);
    return eval_vertex(m, x, xi, vertex, 0);
}

rt_val
rt_eval(rt *m, const xf_expr *x)
{
    const xinfo *xi = info(m, x);
    return eval_vertex(m, x, xi, xi->root, 0);
}

int64_t
rt_eval_int(rt *m, const xf_expr *x)
{
    rt_val v = rt_eval(m, x);
    if (v.rank)
        rt_fault(m, "an array where an integer belongs (line %u)", x->h.line);
    return rt_int_at(m, &v, 0);
}
