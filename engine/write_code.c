/* write_code.c: routines, control-flow graphs, statements, expressions and
 * variable references back to xaif. */
#include "write_impl.h"

static const char *
vrvertex_id(const xf_vrvertex *v)
{
    return v->kind == XF_VR_SYMBOL ? v->u.sym.id : v->u.arr.id;
}

static void
write_symref(wr *w, const xf_vrvertex *v)
{
    const xf_symref *s = &v->u.sym;
    wr_open(w, XF_EL_SYMBOLREFERENCE, &v->h);
    wr_str(w, "vertex_id", s->id);
    wr_str(w, "scope_id", XF_ID(s->scope));
    wr_str(w, "symbol_id", XF_ID(s->sym));
    wr_str(w, "annotation", v->h.annotation);
    wr_extra_attrs(w, &v->h);
    for (uint32_t i = 0; i < s->props.n; i++) {
        const xf_symref_prop *p = &s->props.v[i];
        wr_open(w, XF_EL_SYMBOLREFERENCEPROPERTY, &p->h);
        wr_str(w, "name", p->name);
        wr_str(w, "value", p->value);
        wr_extra_attrs(w, &p->h);
        wr_close(w);
    }
    wr_close(w);
}

static void
write_arrref(wr *w, const xf_vrvertex *v)
{
    const xf_arrref *ar = &v->u.arr;
    wr_open(w, XF_EL_ARRAYELEMENTREFERENCE, &v->h);
    wr_str(w, "vertex_id", ar->id);
    wr_str(w, "annotation", v->h.annotation);
    wr_extra_attrs(w, &v->h);
    for (uint32_t i = 0; i < ar->t.n; i++) {
        const xf_triplet *t = &ar->t.v[i];
        if (t->bare) {
            wr_expr(w, XF_EL_INDEX, t->index);
            continue;
        }
        wr_open(w, XF_EL_INDEXTRIPLET, &t->h);
        wr_str(w, "annotation", t->h.annotation);
        wr_extra_attrs(w, &t->h);
        if (t->index)
            wr_expr(w, XF_EL_INDEX, t->index);
        if (t->bound)
            wr_expr(w, XF_EL_BOUND, t->bound);
        if (t->stride)
            wr_expr(w, XF_EL_STRIDE, t->stride);
        wr_close(w);
    }
    wr_close(w);
}

void
wr_varref(wr *w, xf_elem el, const xf_varref *r)
{
    wr_open(w, el, &r->h);
    wr_str(w, "vertex_id", r->id);
    wr_int(w, "du_ud", r->du_ud);
    wr_int(w, "alias", r->alias);
    wr_flag(w, "active", r->active);
    wr_flag(w, "deriv", r->deriv);
    wr_flag(w, "constant", r->constant);
    wr_str(w, "annotation", r->h.annotation);
    wr_extra_attrs(w, &r->h);
    uint32_t i = 0, j = 0;
    while (i < r->v.n || j < r->e.n) {
        if (i < r->v.n && (j >= r->e.n || r->v.v[i].seq <= r->e.v[j].seq)) {
            const xf_vrvertex *v = &r->v.v[i++];
            if (v->kind == XF_VR_SYMBOL)
                write_symref(w, v);
            else
                write_arrref(w, v);
        } else {
            const xf_vredge *e = &r->e.v[j++];
            wr_open(w, XF_EL_VARIABLEREFERENCEEDGE, &e->h);
            wr_str(w, "edge_id", e->id);
            if (e->src != UINT32_MAX) { /* else kept among the extras */
                wr_str(w, "source", vrvertex_id(&r->v.v[e->src]));
                wr_str(w, "target", vrvertex_id(&r->v.v[e->tgt]));
            }
            wr_str(w, "annotation", e->h.annotation);
            wr_extra_attrs(w, &e->h);
            wr_close(w);
        }
    }
    wr_close(w);
}

static void
write_evertex(wr *w, const xf_evertex *v)
{
    switch (v->kind) {
    case XF_EV_VARREF:
        wr_varref(w, XF_EL_VARIABLEREFERENCE, v->u.ref); /* vertex_id is the reference's */
        return;
    case XF_EV_CONSTANT:
        wr_open(w, XF_EL_CONSTANT, &v->h);
        wr_str(w, "vertex_id", v->id);
        wr_str(w, "type", xf_type_name(v->u.c.type));
        wr_str(w, "feType", v->u.c.fetype);
        wr_str(w, "value", v->u.c.value);
        break;
    case XF_EV_INTRINSIC:
        wr_open(w, XF_EL_INTRINSIC, &v->h);
        wr_str(w, "vertex_id", v->id);
        wr_str(w, "name", v->u.in.name);
        wr_str(w, "type", v->u.in.type);
        wr_str(w, "rType", v->u.in.rtype);
        wr_str(w, "rShape", v->u.in.rshape);
        break;
    case XF_EV_BOOLOP:
        wr_open(w, XF_EL_BOOLEANOPERATION, &v->h);
        wr_str(w, "vertex_id", v->id);
        wr_str(w, "name", v->u.in.name);
        break;
    case XF_EV_FUNCALL:
        wr_open(w, XF_EL_FUNCTIONCALL, &v->h);
        wr_str(w, "vertex_id", v->id);
        wr_str(w, "scope_id", XF_ID(v->u.fn.scope));
        wr_str(w, "symbol_id", XF_ID(v->u.fn.sym));
        break;
    case XF_EV_ARGREF:
        wr_open(w, XF_EL_II_ARGUMENTREFERENCE, &v->h);
        wr_str(w, "vertex_id", v->id);
        wr_int(w, "argument", v->u.arg);
        break;
    }
    wr_str(w, "annotation", v->h.annotation);
    wr_extra_attrs(w, &v->h);
    if (v->kind == XF_EV_FUNCALL)
        for (uint32_t i = 0; i < v->u.fn.args.n; i++)
            wr_varref(w, XF_EL_ARGUMENT, v->u.fn.args.v[i]);
    wr_close(w);
}

/* The vertices and edges of @x, in document order. */
static void
expr_content(wr *w, const xf_expr *x)
{
    uint32_t i = 0, j = 0;
    while (i < x->v.n || j < x->e.n) {
        if (i < x->v.n && (j >= x->e.n || x->v.v[i].seq <= x->e.v[j].seq)) {
            write_evertex(w, &x->v.v[i++]);
        } else {
            const xf_eedge *e = &x->e.v[j++];
            wr_open(w, XF_EL_EXPRESSIONEDGE, &e->h);
            wr_str(w, "edge_id", e->id);
            if (e->src != UINT32_MAX) { /* else kept among the extras */
                wr_str(w, "source", x->v.v[e->src].id);
                wr_str(w, "target", x->v.v[e->tgt].id);
            }
            wr_int(w, "position", e->pos);
            wr_str(w, "annotation", e->h.annotation);
            wr_extra_attrs(w, &e->h);
            wr_close(w);
        }
    }
}

void
wr_expr(wr *w, xf_elem el, const xf_expr *x)
{
    wr_open(w, el, &x->h);
    wr_str(w, "annotation", x->h.annotation);
    wr_extra_attrs(w, &x->h);
    expr_content(w, x);
    wr_close(w);
}

void
wr_partial(wr *w, const xf_ii_partial *pa)
{
    wr_open(w, XF_EL_II_PARTIAL, &pa->expr.h);
    wr_int(w, "partial_id", pa->id);
    wr_str(w, "partial_type", pa->type);
    wr_flag(w, "nonValueInquiry", pa->non_value_inquiry);
    wr_str(w, "annotation", pa->expr.h.annotation);
    wr_extra_attrs(w, &pa->expr.h);
    expr_content(w, &pa->expr);
    wr_close(w);
}

static void
write_args(wr *w, const xf_arg *args, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        wr_open(w, XF_EL_ARGUMENT, &args[i].val.h);
        wr_int(w, "position", args[i].pos);
        wr_str(w, "annotation", args[i].val.h.annotation);
        wr_extra_attrs(w, &args[i].val.h);
        expr_content(w, &args[i].val);
        wr_close(w);
    }
}

static void
write_dpop(wr *w, const xf_dpop *op)
{
    if (op->kind == XF_DP_ZERODERIV) {
        wr_varref(w, XF_EL_ZERODERIV, &op->tgt);
        return;
    }
    wr_open(w, (xf_elem)(XF_EL_SETDERIV + op->kind), &op->h);
    wr_str(w, "annotation", op->h.annotation);
    wr_extra_attrs(w, &op->h);
    if (op->kind == XF_DP_SAX || op->kind == XF_DP_SAXPY) {
        for (uint32_t i = 0; i < op->ax.n; i++) {
            const xf_ax *ax = &op->ax.v[i];
            wr_open(w, XF_EL_AX, &ax->h);
            wr_str(w, "annotation", ax->h.annotation);
            wr_extra_attrs(w, &ax->h);
            wr_expr(w, XF_EL_A, &ax->a);
            wr_varref(w, XF_EL_X, &ax->x);
            wr_close(w);
        }
        wr_varref(w, XF_EL_Y, &op->y);
    } else {
        wr_varref(w, XF_EL_TGT, &op->tgt);
        wr_varref(w, XF_EL_SRC, &op->src);
    }
    wr_close(w);
}

/* Assignment (or Initialization, Update), SubroutineCall, InlinableSubroutineCall,
 * Marker, DerivativePropagator */
static void
write_stmt(wr *w, xf_elem as_el, const xf_stmt *s)
{
    static const xf_elem els[] = {
        [XF_STMT_ASSIGN] = XF_EL_ASSIGNMENT,
        [XF_STMT_CALL] = XF_EL_SUBROUTINECALL,
        [XF_STMT_ICALL] = XF_EL_INLINABLESUBROUTINECALL,
        [XF_STMT_MARKER] = XF_EL_MARKER,
        [XF_STMT_DERIVPROP] = XF_EL_DERIVATIVEPROPAGATOR,
    };
    wr_open(w, s->kind == XF_STMT_ASSIGN ? as_el : els[s->kind], &s->h);
    if (s->kind == XF_STMT_ICALL)
        wr_str(w, "subroutine_name", s->u.icall.name);
    wr_str(w, "statement_id", s->id);
    if (s->kind == XF_STMT_CALL) {
        wr_str(w, "symbol_id", XF_ID(s->u.call.sym));
        wr_str(w, "scope_id", XF_ID(s->u.call.scope));
    }
    wr_int(w, "lineNumber", s->lineno);
    if (s->kind == XF_STMT_CALL) {
        wr_int(w, "formalArgCount", s->u.call.formal_count);
        wr_flag(w, "active", s->u.call.active);
    }
    if (s->kind == XF_STMT_ASSIGN)
        wr_int(w, "do_chain", s->u.as.do_chain);
    wr_str(w, "annotation", s->h.annotation);
    wr_extra_attrs(w, &s->h);
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        wr_varref(w, XF_EL_ASSIGNMENTLHS, &s->u.as.lhs);
        wr_expr(w, XF_EL_ASSIGNMENTRHS, &s->u.as.rhs);
        break;
    case XF_STMT_CALL:
        write_args(w, s->u.call.args.v, s->u.call.args.n);
        break;
    case XF_STMT_ICALL:
        write_args(w, s->u.icall.args.v, s->u.icall.args.n);
        break;
    case XF_STMT_MARKER:
        break;
    case XF_STMT_DERIVPROP:
        for (uint32_t i = 0; i < s->u.dp.n; i++)
            write_dpop(w, &s->u.dp.v[i]);
        break;
    }
    wr_close(w);
}

static void
write_cvertex(wr *w, const xf_cvertex *v)
{
    wr_open(w, (xf_elem)(XF_EL_ENTRY + v->kind), &v->h);
    wr_str(w, "vertex_id", v->id);
    if (v->scope)
        wr_str(w, "scope_id", XF_ID(v->scope));
    wr_str(w, "reversal", xf_reversal_name(v->reversal));
    wr_int(w, "lineNumber", v->lineno);
    wr_str(w, "annotation", v->h.annotation);
    wr_extra_attrs(w, &v->h);
    for (uint32_t i = 0; i < v->stmts.n; i++)
        write_stmt(w, XF_EL_ASSIGNMENT, v->stmts.v[i]);
    if (v->init)
        write_stmt(w, XF_EL_INITIALIZATION, v->init);
    if (v->cond)
        wr_expr(w, XF_EL_CONDITION, v->cond);
    if (v->update)
        write_stmt(w, XF_EL_UPDATE, v->update);
    wr_close(w);
}

static void
write_graph(wr *w, const xf_graph *g)
{
    uint32_t i = 0, j = 0;
    while (i < g->v.n || j < g->e.n) {
        if (i < g->v.n && (j >= g->e.n || g->v.v[i]->seq <= g->e.v[j]->seq)) {
            write_cvertex(w, g->v.v[i++]);
        } else {
            const xf_cedge *e = g->e.v[j++];
            wr_open(w, XF_EL_CONTROLFLOWEDGE, &e->h);
            wr_str(w, "edge_id", e->id);
            wr_str(w, "source", XF_ID(e->src));
            wr_str(w, "target", XF_ID(e->tgt));
            wr_flag(w, "has_condition_value", e->has_cv);
            wr_int(w, "condition_value", e->cv);
            wr_str(w, "annotation", e->h.annotation);
            wr_extra_attrs(w, &e->h);
            wr_close(w);
        }
    }
}

void
wr_routine(wr *w, const xf_routine *rt)
{
    wr_open(w, rt->is_rlist ? XF_EL_REPLACEMENTLIST : XF_EL_CONTROLFLOWGRAPH, &rt->h);
    wr_str(w, "vertex_id", rt->id);
    wr_str(w, "scope_id", XF_ID(rt->scope));
    wr_str(w, "symbol_id", XF_ID(rt->sym));
    wr_str(w, "annotation", rt->h.annotation);
    wr_str(w, "controlflowgraph_scope_id", XF_ID(rt->cfg_scope));
    wr_str(w, "template_name", rt->template_name);
    wr_flag(w, "active", rt->active);
    wr_flag(w, "structured", rt->structured);
    wr_extra_attrs(w, &rt->h);
    if (rt->has_args) {
        wr_open(w, XF_EL_ARGUMENTLIST, &rt->args_h);
        wr_str(w, "annotation", rt->args_h.annotation);
        wr_extra_attrs(w, &rt->args_h);
        for (uint32_t i = 0; i < rt->args.n; i++) {
            const xf_argsym *a = &rt->args.v[i];
            wr_open(w, XF_EL_ARGUMENTSYMBOLREFERENCE, &a->h);
            wr_int(w, "position", a->pos);
            wr_str(w, "scope_id", XF_ID(a->scope));
            wr_str(w, "symbol_id", XF_ID(a->sym));
            wr_str(w, "intent", xf_intent_name(a->intent));
            wr_flag(w, "deriv", a->deriv);
            wr_str(w, "annotation", a->h.annotation);
            wr_extra_attrs(w, &a->h);
            wr_close(w);
        }
        wr_close(w);
    }
    for (int k = 0; k < XF_SE_COUNT; k++) {
        const xf_selist *l = &rt->se[k];
        if (!l->present)
            continue;
        wr_open(w, (xf_elem)(XF_EL_MODLOCAL + k), &l->h);
        wr_str(w, "annotation", l->h.annotation);
        wr_extra_attrs(w, &l->h);
        for (uint32_t i = 0; i < l->refs.n; i++)
            wr_varref(w, XF_EL_SIDEEFFECTREFERENCE, l->refs.v[i]);
        wr_close(w);
    }
    write_graph(w, &rt->g);
    for (uint32_t i = 0; i < rt->reps.n; i++) {
        const xf_replacement *r = rt->reps.v[i];
        wr_open(w, XF_EL_REPLACEMENT, &r->h);
        wr_str(w, "placeholder", r->placeholder);
        wr_flag(w, "structured", r->structured);
        wr_str(w, "annotation", r->h.annotation);
        wr_extra_attrs(w, &r->h);
        write_graph(w, &r->g);
        wr_close(w);
    }
    wr_close(w);
}
