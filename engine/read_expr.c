/* read_expr.c: expression graphs and variable references. */
#include "read_impl.h"

static int read_triplet_part(rd *d, xf_expr **slot);

/* SymbolReference: SymbolReferenceProperty* */
static int
read_symref(rd *d, xf_varref *r, uint32_t seq)
{
    xf_vrvertex v = {.kind = XF_VR_SYMBOL, .seq = seq};
    xf_symref *s = &v.u.sym;
    xf_refids refs;
    if (rd_attrs(d, XF_AL_SYMREF, &v, &v.h, &refs) ||
        rd_resolve_symbol(d, &v.h, refs.id[XF_REF_SCOPE], refs.id[XF_REF_SYMBOL], &s->scope,
                          &s->sym))
        return -1;
    int ret;
    rdpar p;
    rd_start(d, &p, &v.h);
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != XF_EL_SYMBOLREFERENCEPROPERTY)
            return rd_unexpected(d, &p);
        xf_symref_prop pr = {0};
        pr.h.line = d->line;
        if (rd_attrs(d, XF_AL_SYMREFPROP, &pr, &pr.h, NULL) || rd_empty_elem(d, &pr.h))
            return -1;
        if (!XF_VEC_PUSH(d->a, s->props, pr))
            return rd_oom(d);
    }
    if (ret < 0)
        return -1;
    return XF_VEC_PUSH(d->a, r->v, v) ? 0 : rd_oom(d);
}

/* Index, Bound, Stride: an expression */
static int
read_triplet_part(rd *d, xf_expr **slot)
{
    if (*slot)
        return rd_err(d, d->line, "a second <%s> in one index triplet", xf_elem_name(d->el));
    xf_expr *x = XF_NEW(d->a, xf_expr);
    if (!x)
        return rd_oom(d);
    *slot = x;
    return rd_expr(d, x);
}

/* IndexTriplet: Index? Bound? Stride? */
static int
read_triplet(rd *d, xf_triplet *t)
{
    if (rd_plain_attrs(d, &t->h))
        return -1;
    rdpar p;
    rd_start(d, &p, &t->h);
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        switch (d->el) {
        case XF_EL_INDEX:
            ret = read_triplet_part(d, &t->index);
            break;
        case XF_EL_BOUND:
            ret = read_triplet_part(d, &t->bound);
            break;
        case XF_EL_STRIDE:
            ret = read_triplet_part(d, &t->stride);
            break;
        default:
            return rd_unexpected(d, &p);
        }
        if (ret)
            return -1;
    }
    return ret;
}

/* ArrayElementReference: IndexTriplet+ (old outputs: Index+) */
static int
read_arrref(rd *d, xf_varref *r, uint32_t seq)
{
    xf_vrvertex v = {.kind = XF_VR_ARRAY, .seq = seq};
    xf_arrref *ar = &v.u.arr;
    if (rd_attrs(d, XF_AL_ARRREF, &v, &v.h, NULL))
        return -1;
    int ret;
    rdpar p;
    rd_start(d, &p, &v.h);
    while ((ret = rd_child(d, &p)) > 0) {
        xf_triplet t = {0};
        if (d->el == XF_EL_INDEXTRIPLET)
            ret = read_triplet(d, &t);
        else if (d->el == XF_EL_INDEX) {
            t.bare = true;
            t.h.line = d->line;
            ret = read_triplet_part(d, &t.index);
        } else
            return rd_unexpected(d, &p);
        if (ret)
            return -1;
        if (!XF_VEC_PUSH(d->a, ar->t, t))
            return rd_oom(d);
    }
    if (ret < 0)
        return -1;
    return XF_VEC_PUSH(d->a, r->v, v) ? 0 : rd_oom(d);
}

/* The content of a variable reference:
 * (SymbolReference | ArrayElementReference)+ VariableReferenceEdge* */
static int
varref_body(rd *d, xf_varref *r)
{
    rdpar p;
    rd_start(d, &p, &r->h);
    uint32_t base = d->pend.n;
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        switch (d->el) {
        case XF_EL_SYMBOLREFERENCE:
            ret = read_symref(d, r, p.nkids);
            break;
        case XF_EL_ARRAYELEMENTREFERENCE:
            ret = read_arrref(d, r, p.nkids);
            break;
        case XF_EL_VARIABLEREFERENCEEDGE: {
            xf_vredge e = {.seq = p.nkids};
            uint32_t line = d->line;
            xf_refids refs;
            if (rd_attrs(d, XF_AL_VREDGE, &e, &e.h, &refs) || rd_empty_elem(d, &e.h))
                return -1;
            const char *src = refs.id[XF_REF_SOURCE], *tgt = refs.id[XF_REF_TARGET];
            if (!XF_VEC_PUSH(d->a, r->e, e) || rd_push_pend(d, src, tgt, line))
                return rd_oom(d);
            ret = 0;
            break;
        }
        default:
            return rd_unexpected(d, &p);
        }
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
    if (!r->v.n)
        return rd_err(d, r->h.line, "variable reference <%s> refers to nothing",
                      xf_elem_name(p.el));
    if (!r->e.n)
        return 0;
    /* the ids are the first member of both vertex kinds */
    const char *const *ids = &r->v.v[0].u.sym.id;
    if (rd_index_ids(d, ids, r->v.n, sizeof r->v.v[0], "variable reference"))
        return -1;
    for (uint32_t i = 0; i < r->e.n; i++) {
        const rdpend *pe = &d->pend.v[base + i];
        xf_vredge *e = &r->e.v[i];
        e->src = rd_find_id(d, ids, r->v.n, sizeof r->v.v[0], pe->src);
        e->tgt = rd_find_id(d, ids, r->v.n, sizeof r->v.v[0], pe->tgt);
        if (e->src == UINT32_MAX || e->tgt == UINT32_MAX) {
            if (rd_soft(d, pe->line,
                        "dangling reference: variable reference edge %s '%s' is no vertex",
                        e->src == UINT32_MAX ? "source" : "target",
                        e->src == UINT32_MAX ? pe->src : pe->tgt) ||
                rd_keep_named(d, &e->h, xf_aname_text(XF_AN_SOURCE), pe->src) ||
                rd_keep_named(d, &e->h, xf_aname_text(XF_AN_TARGET), pe->tgt))
                return -1;
            e->src = e->tgt = UINT32_MAX;
        }
    }
    d->pend.n = base;
    return 0;
}

int
rd_varref(rd *d, xf_varref *r)
{
    if (rd_attrs(d, XF_AL_VARREF, r, &r->h, NULL))
        return -1;
    if (xf_flag_is(r->deriv, false) && rd_deriv(d, "deriv", xf_flag_text(r->deriv)))
        return -1;
    return varref_body(d, r);
}

/* Constant, Intrinsic, BooleanOperation, ArgumentReference: empty;
 * FunctionCall: Argument* (variable references) */
static int
read_vertex(rd *d, xf_evertex *v)
{
    int ret;
    v->h.line = d->line;
    if (d->el == XF_EL_VARIABLEREFERENCE) {
        v->kind = XF_EV_VARREF;
        if (!(v->u.ref = XF_NEW(d->a, xf_varref)))
            return rd_oom(d);
        if (rd_varref(d, v->u.ref))
            return -1;
        v->id = v->u.ref->id; /* the writer writes it from the reference */
        return 0;
    }
    switch (d->el) {
    case XF_EL_CONSTANT:
        v->kind = XF_EV_CONSTANT;
        break;
    case XF_EL_INTRINSIC:
        v->kind = XF_EV_INTRINSIC;
        break;
    case XF_EL_BOOLEANOPERATION:
        v->kind = XF_EV_BOOLOP;
        break;
    case XF_EL_FUNCTIONCALL:
        v->kind = XF_EV_FUNCALL;
        break;
    default:
        /* a formal argument of an intrinsic's partial: only a catalogue has them */
        if (d->doc->kind != XF_DOC_INLINABLE)
            return rd_err(d, d->line,
                          "<ArgumentReference> outside an intrinsics catalogue (it stands for an "
                          "intrinsic's argument in a partial derivative)");
        v->kind = XF_EV_ARGREF;
        break;
    }
    static const xf_alist lists[] = {
        [XF_EV_CONSTANT] = XF_AL_CONSTANT, [XF_EV_INTRINSIC] = XF_AL_INTRINSIC,
        [XF_EV_FUNCALL] = XF_AL_FUNCALL,   [XF_EV_BOOLOP] = XF_AL_BOOLOP,
        [XF_EV_ARGREF] = XF_AL_ARGREF,
    };
    xf_refids refs;
    if (rd_attrs(d, lists[v->kind], v, &v->h, &refs))
        return -1;
    if (v->kind != XF_EV_FUNCALL)
        return rd_empty_elem(d, &v->h);
    if (rd_resolve_symbol(d, &v->h, refs.id[XF_REF_SCOPE], refs.id[XF_REF_SYMBOL], &v->u.fn.scope,
                          &v->u.fn.sym))
        return -1;
    rdpar p;
    rd_start(d, &p, &v->h);
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != XF_EL_ARGUMENT)
            return rd_unexpected(d, &p);
        xf_varref *r = XF_NEW(d->a, xf_varref);
        if (!r || !XF_VEC_PUSH(d->a, v->u.fn.args, r))
            return rd_oom(d);
        if (rd_varref(d, r))
            return -1;
    }
    return ret;
}

/* An expression: (VariableReference | Constant | Intrinsic | FunctionCall |
 * BooleanOperation | ArgumentReference | ExpressionEdge)* */
static int
expr_body(rd *d, xf_expr *x)
{
    rdpar p;
    rd_start(d, &p, &x->h);
    uint32_t base = d->pend.n;
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        switch (d->el) {
        case XF_EL_VARIABLEREFERENCE:
        case XF_EL_CONSTANT:
        case XF_EL_INTRINSIC:
        case XF_EL_FUNCTIONCALL:
        case XF_EL_BOOLEANOPERATION:
        case XF_EL_II_ARGUMENTREFERENCE: {
            xf_evertex v = {.seq = p.nkids};
            if (read_vertex(d, &v))
                return -1;
            if (!XF_VEC_PUSH(d->a, x->v, v))
                return rd_oom(d);
            break;
        }
        case XF_EL_EXPRESSIONEDGE: {
            xf_eedge e = {.seq = p.nkids};
            uint32_t line = d->line;
            xf_refids refs;
            if (rd_attrs(d, XF_AL_EEDGE, &e, &e.h, &refs) || rd_empty_elem(d, &e.h))
                return -1;
            const char *src = refs.id[XF_REF_SOURCE], *tgt = refs.id[XF_REF_TARGET];
            if (!XF_VEC_PUSH(d->a, x->e, e) || rd_push_pend(d, src, tgt, line))
                return rd_oom(d);
            break;
        }
        default:
            return rd_unexpected(d, &p);
        }
    }
    if (ret < 0)
        return -1;
    if (!x->e.n)
        return rd_expr_dag(d, x); /* one vertex, or an error */
    /* edges without vertices are all dangling: there is no id to index */
    const char *const *ids = x->v.n ? &x->v.v[0].id : NULL;
    if (rd_index_ids(d, ids, x->v.n, sizeof x->v.v[0], "expression"))
        return -1;
    for (uint32_t i = 0; i < x->e.n; i++) {
        const rdpend *pe = &d->pend.v[base + i];
        xf_eedge *e = &x->e.v[i];
        e->src = rd_find_id(d, ids, x->v.n, sizeof x->v.v[0], pe->src);
        e->tgt = rd_find_id(d, ids, x->v.n, sizeof x->v.v[0], pe->tgt);
        if (e->src == UINT32_MAX || e->tgt == UINT32_MAX) {
            if (rd_soft(d, pe->line, "dangling reference: expression edge %s '%s' is no vertex",
                        e->src == UINT32_MAX ? "source" : "target",
                        e->src == UINT32_MAX ? pe->src : pe->tgt) ||
                rd_keep_named(d, &e->h, xf_aname_text(XF_AN_SOURCE), pe->src) ||
                rd_keep_named(d, &e->h, xf_aname_text(XF_AN_TARGET), pe->tgt))
                return -1;
            e->src = e->tgt = UINT32_MAX;
        }
    }
    d->pend.n = base;
    return rd_expr_dag(d, x);
}

int
rd_expr(rd *d, xf_expr *x)
{
    if (rd_plain_attrs(d, &x->h))
        return -1;
    return expr_body(d, x);
}

int
rd_expr_body(rd *d, xf_expr *x)
{
    return expr_body(d, x);
}
