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
    wr_attrs(w, XF_AL_SYMREF, v, &XF_SYM_REFS(XF_ID(s->scope), XF_ID(s->sym)));
    for (uint32_t i = 0; i < s->props.n; i++) {
        const xf_symref_prop *p = &s->props.v[i];
        wr_open(w, XF_EL_SYMBOLREFERENCEPROPERTY, &p->h);
        wr_attrs(w, XF_AL_SYMREFPROP, p, NULL);
        wr_close(w);
    }
    wr_close(w);
}

static void
write_arrref(wr *w, const xf_vrvertex *v)
{
    const xf_arrref *ar = &v->u.arr;
    wr_open(w, XF_EL_ARRAYELEMENTREFERENCE, &v->h);
    wr_attrs(w, XF_AL_ARRREF, v, NULL);
    for (uint32_t i = 0; i < ar->t.n; i++) {
        const xf_triplet *t = &ar->t.v[i];
        if (t->bare) {
            wr_expr(w, XF_EL_INDEX, t->index);
            continue;
        }
        wr_open(w, XF_EL_INDEXTRIPLET, &t->h);
        wr_attrs(w, XF_AL_PLAIN, &t->h, NULL);
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
    wr_attrs(w, XF_AL_VARREF, r, NULL);
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
            bool ok = e->src != UINT32_MAX; /* else kept among the extras */
            wr_attrs(w, XF_AL_VREDGE, e,
                     &XF_EDGE_REFS(ok ? vrvertex_id(&r->v.v[e->src]) : NULL,
                                   ok ? vrvertex_id(&r->v.v[e->tgt]) : NULL));
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
        wr_attrs(w, XF_AL_CONSTANT, v, NULL);
        break;
    case XF_EV_INTRINSIC:
        wr_open(w, XF_EL_INTRINSIC, &v->h);
        wr_attrs(w, XF_AL_INTRINSIC, v, NULL);
        break;
    case XF_EV_BOOLOP:
        wr_open(w, XF_EL_BOOLEANOPERATION, &v->h);
        wr_attrs(w, XF_AL_BOOLOP, v, NULL);
        break;
    case XF_EV_FUNCALL:
        wr_open(w, XF_EL_FUNCTIONCALL, &v->h);
        wr_attrs(w, XF_AL_FUNCALL, v, &XF_SYM_REFS(XF_ID(v->u.fn.scope), XF_ID(v->u.fn.sym)));
        break;
    case XF_EV_ARGREF:
        wr_open(w, XF_EL_II_ARGUMENTREFERENCE, &v->h);
        wr_attrs(w, XF_AL_ARGREF, v, NULL);
        break;
    }
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
            bool ok = e->src != UINT32_MAX; /* else kept among the extras */
            wr_attrs(w, XF_AL_EEDGE, e,
                     &XF_EDGE_REFS(ok ? x->v.v[e->src].id : NULL, ok ? x->v.v[e->tgt].id : NULL));
            wr_close(w);
        }
    }
}

void
wr_expr(wr *w, xf_elem el, const xf_expr *x)
{
    wr_open(w, el, &x->h);
    wr_attrs(w, XF_AL_PLAIN, &x->h, NULL);
    expr_content(w, x);
    wr_close(w);
}

void
wr_partial(wr *w, const xf_ii_partial *pa)
{
    wr_open(w, XF_EL_II_PARTIAL, &pa->expr.h);
    wr_attrs(w, XF_AL_IIPARTIAL, pa, NULL);
    expr_content(w, &pa->expr);
    wr_close(w);
}

static void
write_args(wr *w, const xf_arg *args, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        wr_open(w, XF_EL_ARGUMENT, &args[i].val.h);
        wr_attrs(w, XF_AL_CALLARG, &args[i], NULL);
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
    wr_attrs(w, XF_AL_PLAIN, &op->h, NULL);
    if (op->kind == XF_DP_SAX || op->kind == XF_DP_SAXPY) {
        for (uint32_t i = 0; i < op->ax.n; i++) {
            const xf_ax *ax = &op->ax.v[i];
            wr_open(w, XF_EL_AX, &ax->h);
            wr_attrs(w, XF_AL_PLAIN, &ax->h, NULL);
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
    static const xf_alist lists[] = {
        [XF_STMT_ASSIGN] = XF_AL_ASSIGN,       [XF_STMT_CALL] = XF_AL_CALL,
        [XF_STMT_ICALL] = XF_AL_ICALL,         [XF_STMT_MARKER] = XF_AL_MARKER,
        [XF_STMT_DERIVPROP] = XF_AL_DERIVPROP,
    };
    wr_open(w, s->kind == XF_STMT_ASSIGN ? as_el : els[s->kind], &s->h);
    if (s->kind == XF_STMT_CALL)
        wr_attrs(w, XF_AL_CALL, s, &XF_SYM_REFS(XF_ID(s->u.call.scope), XF_ID(s->u.call.sym)));
    else
        wr_attrs(w, as_el == XF_EL_ASSIGNMENT ? lists[s->kind] : XF_AL_LOOPASSIGN, s, NULL);
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

void
wr_stmt(wr *w, const xf_stmt *s)
{
    write_stmt(w, XF_EL_ASSIGNMENT, s);
}

static void
write_cvertex(wr *w, const xf_cvertex *v)
{
    static const xf_alist lists[] = {
        [XF_CV_ENTRY] = XF_AL_CVERTEX,         [XF_CV_EXIT] = XF_AL_CVERTEX,
        [XF_CV_BASICBLOCK] = XF_AL_BASICBLOCK, [XF_CV_IF] = XF_AL_CVCOND,
        [XF_CV_FORLOOP] = XF_AL_FORLOOP,       [XF_CV_PRELOOP] = XF_AL_CVCOND,
        [XF_CV_POSTLOOP] = XF_AL_CVCOND,       [XF_CV_BRANCH] = XF_AL_CVCOND,
        [XF_CV_ENDBRANCH] = XF_AL_CVERTEX,     [XF_CV_ENDLOOP] = XF_AL_CVERTEX,
        [XF_CV_LABEL] = XF_AL_CVERTEX,         [XF_CV_GOTO] = XF_AL_CVERTEX,
    };
    wr_open(w, (xf_elem)(XF_EL_ENTRY + v->kind), &v->h);
    wr_attrs(w, lists[v->kind], v, &(xf_refids){.id = {[XF_REF_SCOPE] = XF_ID(v->scope)}});
    if (v->kind == XF_CV_BASICBLOCK && w->block) {
        if (w->block(w->block_ctx, v))
            w->failed = true;
    } else {
        for (uint32_t i = 0; i < v->stmts.n; i++)
            write_stmt(w, XF_EL_ASSIGNMENT, v->stmts.v[i]);
    }
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
            wr_attrs(w, XF_AL_CEDGE, e, &XF_EDGE_REFS(XF_ID(e->src), XF_ID(e->tgt)));
            wr_close(w);
        }
    }
}

void
wr_routine(wr *w, const xf_routine *rt)
{
    wr_open(w, rt->is_rlist ? XF_EL_REPLACEMENTLIST : XF_EL_CONTROLFLOWGRAPH, &rt->h);
    xf_refids refs = XF_SYM_REFS(XF_ID(rt->scope), XF_ID(rt->sym));
    refs.id[XF_REF_CFG_SCOPE] = XF_ID(rt->cfg_scope);
    wr_attrs(w, rt->is_rlist ? XF_AL_RLIST : XF_AL_CFG, rt, &refs);
    if (rt->has_args) {
        wr_open(w, XF_EL_ARGUMENTLIST, &rt->args_h);
        wr_attrs(w, XF_AL_PLAIN, &rt->args_h, NULL);
        for (uint32_t i = 0; i < rt->args.n; i++) {
            const xf_argsym *a = &rt->args.v[i];
            wr_open(w, XF_EL_ARGUMENTSYMBOLREFERENCE, &a->h);
            wr_attrs(w, XF_AL_ARGSYM, a, &XF_SYM_REFS(XF_ID(a->scope), XF_ID(a->sym)));
            wr_close(w);
        }
        wr_close(w);
    }
    for (int k = 0; k < XF_SE_COUNT; k++) {
        const xf_selist *l = &rt->se[k];
        if (!l->present)
            continue;
        wr_open(w, (xf_elem)(XF_EL_MODLOCAL + k), &l->h);
        wr_attrs(w, XF_AL_PLAIN, &l->h, NULL);
        for (uint32_t i = 0; i < l->refs.n; i++)
            wr_varref(w, XF_EL_SIDEEFFECTREFERENCE, l->refs.v[i]);
        wr_close(w);
    }
    write_graph(w, &rt->g);
    for (uint32_t i = 0; i < rt->reps.n; i++) {
        const xf_replacement *r = rt->reps.v[i];
        wr_open(w, XF_EL_REPLACEMENT, &r->h);
        wr_attrs(w, XF_AL_REPLACEMENT, r, NULL);
        write_graph(w, &r->g);
        wr_close(w);
    }
    wr_close(w);
}
