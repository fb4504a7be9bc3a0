/* read_expr.c: expression graphs and variable references. */
#include "read_impl.h"

static int read_triplet_part(rd *d, xf_expr **slot);

/* SymbolReference: SymbolReferenceProperty* */
static int
read_symref(rd *d, xf_varref *r, uint32_t seq)
{
    xf_vrvertex v = {.kind = XF_VR_SYMBOL, .seq = seq};
    xf_symref *s = &v.u.sym;
    const char *scope = NULL, *symbol = NULL;
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        switch (a.id) {
        case A_VERTEX_ID:
            ret = (s->id = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_SCOPE_ID:
            ret = (scope = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_SYMBOL_ID:
            ret = (symbol = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_ANNOTATION:
            ret = (v.h.annotation = rd_str(d, &a)) ? 0 : -1;
            break;
        default:
            ret = rd_keep_attr(d, &v.h, &a);
        }
        if (ret)
            return -1;
    }
    if (ret < 0 || rd_resolve_symbol(d, &v.h, scope, symbol, &s->scope, &s->sym))
        return -1;
    rdpar p;
    rd_start(d, &p, &v.h);
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != XF_EL_SYMBOLREFERENCEPROPERTY)
            return rd_unexpected(d, &p);
        xf_symref_prop pr = {0};
        pr.h.line = d->line;
        while ((ret = rd_attr(d, &a)) > 0) {
            if (a.id == A_NAME)
                ret = (pr.name = rd_str(d, &a)) ? 0 : -1;
            else if (a.id == A_VALUE)
                ret = (pr.value = rd_str(d, &a)) ? 0 : -1;
            else
                ret = rd_keep_attr(d, &pr.h, &a);
            if (ret)
                return -1;
        }
        if (ret < 0 || rd_empty_elem(d, &pr.h))
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
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        if (a.id == A_VERTEX_ID)
            ret = (ar->id = rd_str(d, &a)) ? 0 : -1;
        else if (a.id == A_ANNOTATION)
            ret = (v.h.annotation = rd_str(d, &a)) ? 0 : -1;
        else
            ret = rd_keep_attr(d, &v.h, &a);
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
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

int
rd_varref_attr(rd *d, xf_varref *r, const rdattr *a)
{
    switch (a->id) {
    case A_VERTEX_ID:
        return (r->id = rd_str(d, a)) ? 0 : -1;
    case A_DU_UD:
        return rd_int(d, a, &r->du_ud);
    case A_ALIAS:
        return rd_int(d, a, &r->alias);
    case A_ACTIVE:
        return rd_flag(d, a, &r->active);
    case A_DERIV:
        if (rd_flag(d, a, &r->deriv))
            return -1;
        return xf_flag_is(r->deriv, false) ? rd_deriv(d, "deriv", a->value) : 0;
    case A_CONSTANT:
        return rd_flag(d, a, &r->constant);
    case A_ANNOTATION:
        return (r->h.annotation = rd_str(d, a)) ? 0 : -1;
    default:
        return rd_keep_attr(d, &r->h, a);
    }
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
            const char *src = NULL, *tgt = NULL;
            uint32_t line = d->line;
            rdattr a;
            while ((ret = rd_attr(d, &a)) > 0) {
                switch (a.id) {
                case A_EDGE_ID:
                    ret = (e.id = rd_str(d, &a)) ? 0 : -1;
                    break;
                case A_SOURCE:
                    ret = (src = rd_str(d, &a)) ? 0 : -1;
                    break;
                case A_TARGET:
                    ret = (tgt = rd_str(d, &a)) ? 0 : -1;
                    break;
                case A_ANNOTATION:
                    ret = (e.h.annotation = rd_str(d, &a)) ? 0 : -1;
                    break;
                default:
                    ret = rd_keep_attr(d, &e.h, &a);
                }
                if (ret)
                    return -1;
            }
            if (ret < 0 || rd_empty_elem(d, &e.h))
                return -1;
            if (!src || !tgt)
                return rd_err(d, line, "<VariableReferenceEdge> needs a source and a target");
            if (!XF_VEC_PUSH(d->a, r->e, e) || rd_push_pend(d, src, tgt, line))
                return rd_oom(d);
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
                rd_keep_named(d, &e->h, "source", pe->src) ||
                rd_keep_named(d, &e->h, "target", pe->tgt))
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
    r->du_ud = r->alias = XF_NOINT;
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0)
        if (rd_varref_attr(d, r, &a))
            return -1;
    if (ret < 0)
        return -1;
    return varref_body(d, r);
}

/* Vertex attributes that all expression vertices share. */
static int
vertex_attr(rd *d, xf_evertex *v, const rdattr *a)
{
    if (a->id == A_VERTEX_ID)
        return (v->id = rd_str(d, a)) ? 0 : -1;
    if (a->id == A_ANNOTATION)
        return (v->h.annotation = rd_str(d, a)) ? 0 : -1;
    return rd_keep_attr(d, &v->h, a);
}

/* Constant, Intrinsic, BooleanOperation, ArgumentReference: empty;
 * FunctionCall: Argument* (variable references) */
static int
read_vertex(rd *d, xf_evertex *v)
{
    rdattr a;
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
        v->u.arg = XF_NOINT;
        break;
    }
    const char *scope = NULL, *symbol = NULL;
    while ((ret = rd_attr(d, &a)) > 0) {
        switch (v->kind) {
        case XF_EV_CONSTANT:
            if (a.id == A_TYPE)
                ret = xf_type_parse(a.value, &v->u.c.type) ? 0 : rd_bad_value(d, &a, "a type");
            else if (a.id == A_FETYPE)
                ret = (v->u.c.fetype = rd_str(d, &a)) ? 0 : -1;
            else if (a.id == A_VALUE)
                ret = (v->u.c.value = rd_str(d, &a)) ? 0 : -1;
            else
                ret = vertex_attr(d, v, &a);
            break;
        case XF_EV_INTRINSIC:
        case XF_EV_BOOLOP:
            if (a.id == A_NAME)
                ret = (v->u.in.name = rd_str(d, &a)) ? 0 : -1;
            else if (a.id == A_TYPE && v->kind == XF_EV_INTRINSIC)
                ret = (v->u.in.type = rd_str(d, &a)) ? 0 : -1;
            else if (a.id == A_RTYPE && v->kind == XF_EV_INTRINSIC)
                ret = (v->u.in.rtype = rd_str(d, &a)) ? 0 : -1;
            else if (a.id == A_RSHAPE && v->kind == XF_EV_INTRINSIC)
                ret = (v->u.in.rshape = rd_str(d, &a)) ? 0 : -1;
            else
                ret = vertex_attr(d, v, &a);
            break;
        case XF_EV_FUNCALL:
            if (a.id == A_SCOPE_ID)
                ret = (scope = rd_str(d, &a)) ? 0 : -1;
            else if (a.id == A_SYMBOL_ID)
                ret = (symbol = rd_str(d, &a)) ? 0 : -1;
            else
                ret = vertex_attr(d, v, &a);
            break;
        case XF_EV_ARGREF:
            ret = a.id == A_ARGUMENT ? rd_int(d, &a, &v->u.arg) : vertex_attr(d, v, &a);
            break;
        case XF_EV_VARREF:
            break;
        }
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
    if (v->kind == XF_EV_CONSTANT && !v->u.c.value)
        return rd_err(d, v->h.line, "<Constant> without a value");
    if ((v->kind == XF_EV_INTRINSIC || v->kind == XF_EV_BOOLOP) && !v->u.in.name)
        return rd_err(d, v->h.line, "<%s> without a name", xf_elem_name(d->el));
    if (v->kind != XF_EV_FUNCALL)
        return rd_empty_elem(d, &v->h);
    if (rd_resolve_symbol(d, &v->h, scope, symbol, &v->u.fn.scope, &v->u.fn.sym))
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
            xf_eedge e = {.seq = p.nkids, .pos = XF_NOINT};
            const char *src = NULL, *tgt = NULL;
            uint32_t line = d->line;
            rdattr a;
            while ((ret = rd_attr(d, &a)) > 0) {
                switch (a.id) {
                case A_EDGE_ID:
                    ret = (e.id = rd_str(d, &a)) ? 0 : -1;
                    break;
                case A_SOURCE:
                    ret = (src = rd_str(d, &a)) ? 0 : -1;
                    break;
                case A_TARGET:
                    ret = (tgt = rd_str(d, &a)) ? 0 : -1;
                    break;
                case A_POSITION:
                    ret = rd_int(d, &a, &e.pos);
                    break;
                case A_ANNOTATION:
                    ret = (e.h.annotation = rd_str(d, &a)) ? 0 : -1;
                    break;
                default:
                    ret = rd_keep_attr(d, &e.h, &a);
                }
                if (ret)
                    return -1;
            }
            if (ret < 0 || rd_empty_elem(d, &e.h))
                return -1;
            if (!src || !tgt)
                return rd_err(d, line, "<ExpressionEdge> needs a source and a target");
            if (e.pos == XF_NOINT)
                return rd_err(d, line, "<ExpressionEdge> needs a position");
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
                rd_keep_named(d, &e->h, "source", pe->src) ||
                rd_keep_named(d, &e->h, "target", pe->tgt))
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
