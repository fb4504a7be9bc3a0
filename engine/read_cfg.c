/* read_cfg.c: routines (ControlFlowGraph, ReplacementList), their
 * control-flow graphs, statements and derivative propagators. */
#include "read_impl.h"

/* Argument: VariableReference | Constant (kept as a one-vertex expression) */
static int
read_arg(rd *d, xf_arg_vec *args)
{
    xf_arg g = {0};
    if (rd_attrs(d, XF_AL_CALLARG, &g, &g.val.h, NULL) || rd_expr_body(d, &g.val))
        return -1;
    return XF_VEC_PUSH(d->a, *args, g) ? 0 : rd_oom(d);
}

/* Assignment, Initialization, Update: AssignmentLHS AssignmentRHS */
static int
read_assign(rd *d, xf_stmt *s)
{
    xf_assign *as = &s->u.as;
    s->kind = XF_STMT_ASSIGN;
    if (rd_attrs(d, d->el == XF_EL_ASSIGNMENT ? XF_AL_ASSIGN : XF_AL_LOOPASSIGN, s, &s->h, NULL))
        return -1;
    int ret;
    rdpar p;
    rd_start(d, &p, &s->h);
    bool lhs = false, rhs = false;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el == XF_EL_ASSIGNMENTLHS && !lhs) {
            lhs = true;
            ret = rd_varref(d, &as->lhs);
        } else if (d->el == XF_EL_ASSIGNMENTRHS && lhs && !rhs) {
            rhs = true;
            ret = rd_expr(d, &as->rhs);
        } else
            return rd_unexpected(d, &p);
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
    if (!rhs)
        return rd_err(d, s->h.line, "<%s> needs an <AssignmentLHS> and an <AssignmentRHS>",
                      xf_elem_name(p.el));
    return 0;
}

/* SubroutineCall, InlinableSubroutineCall: Argument*;  Marker: empty */
static int
read_call(rd *d, xf_stmt *s, xf_elem el)
{
    static const xf_alist lists[] = {[XF_STMT_CALL] = XF_AL_CALL,
                                     [XF_STMT_ICALL] = XF_AL_ICALL,
                                     [XF_STMT_MARKER] = XF_AL_MARKER};
    s->kind = el == XF_EL_SUBROUTINECALL ? XF_STMT_CALL
              : el == XF_EL_MARKER       ? XF_STMT_MARKER
                                         : XF_STMT_ICALL;
    xf_refids r;
    if (rd_attrs(d, lists[s->kind], s, &s->h, &r))
        return -1;
    const char *scope = r.id[XF_REF_SCOPE], *symbol = r.id[XF_REF_SYMBOL];
    int ret;
    if (s->kind == XF_STMT_MARKER)
        return rd_empty_elem(d, &s->h);
    if (s->kind == XF_STMT_CALL &&
        rd_resolve_symbol(d, &s->h, scope, symbol, &s->u.call.scope, &s->u.call.sym))
        return -1;
    if (s->kind == XF_STMT_ICALL && xf_deriv_icall(s->u.icall.name) &&
        rd_deriv(d, "subroutine_name", s->u.icall.name))
        return -1;
    rdpar p;
    rd_start(d, &p, &s->h);
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != XF_EL_ARGUMENT)
            return rd_unexpected(d, &p);
        if (read_arg(d, s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args))
            return -1;
    }
    return ret;
}

/* A: expression;  X: variable reference */
static int
read_ax(rd *d, xf_dpop *op)
{
    xf_ax ax = {0};
    if (rd_plain_attrs(d, &ax.h))
        return -1;
    rdpar p;
    rd_start(d, &p, &ax.h);
    bool ha = false, hx = false;
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el == XF_EL_A && !ha) {
            ha = true;
            ret = rd_expr(d, &ax.a);
        } else if (d->el == XF_EL_X && ha && !hx) {
            hx = true;
            ret = rd_varref(d, &ax.x);
        } else
            return rd_unexpected(d, &p);
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
    if (!hx)
        return rd_err(d, ax.h.line, "<AX> needs an <A> and an <X>");
    return XF_VEC_PUSH(d->a, op->ax, ax) ? 0 : rd_oom(d);
}

/* SetDeriv, SetNegDeriv, IncDeriv, DecDeriv: Tgt Src;  Sax, Saxpy: AX+ Y;
 * ZeroDeriv: a variable reference itself */
static int
read_dpop(rd *d, xf_stmt *s)
{
    xf_dpop op = {.kind = (xf_dpkind)(d->el - XF_EL_SETDERIV)};
    if (op.kind == XF_DP_ZERODERIV) {
        if (rd_varref(d, &op.tgt))
            return -1;
        return XF_VEC_PUSH(d->a, s->u.dp, op) ? 0 : rd_oom(d);
    }
    bool sax = op.kind == XF_DP_SAX || op.kind == XF_DP_SAXPY;
    if (rd_plain_attrs(d, &op.h))
        return -1;
    rdpar p;
    rd_start(d, &p, &op.h);
    bool tgt = false, src = false, y = false;
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        if (!sax && d->el == XF_EL_TGT && !tgt) {
            tgt = true;
            ret = rd_varref(d, &op.tgt);
        } else if (!sax && d->el == XF_EL_SRC && tgt && !src) {
            src = true;
            ret = rd_varref(d, &op.src);
        } else if (sax && d->el == XF_EL_AX && !y)
            ret = read_ax(d, &op);
        else if (sax && d->el == XF_EL_Y && op.ax.n && !y) {
            y = true;
            ret = rd_varref(d, &op.y);
        } else
            return rd_unexpected(d, &p);
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
    if (sax ? !y : !src)
        return rd_err(d, op.h.line, "<%s> needs %s", xf_elem_name(p.el),
                      sax ? "<AX> elements and a <Y>" : "a <Tgt> and a <Src>");
    return XF_VEC_PUSH(d->a, s->u.dp, op) ? 0 : rd_oom(d);
}

/* DerivativePropagator: (SetDeriv | SetNegDeriv | IncDeriv | DecDeriv |
 * ZeroDeriv | Sax | Saxpy)* */
static int
read_propagator(rd *d, xf_stmt *s)
{
    s->kind = XF_STMT_DERIVPROP;
    if (rd_deriv(d, NULL, NULL))
        return -1;
    if (rd_attrs(d, XF_AL_DERIVPROP, s, &s->h, NULL))
        return -1;
    int ret;
    rdpar p;
    rd_start(d, &p, &s->h);
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el < XF_EL_SETDERIV || d->el > XF_EL_SAXPY)
            return rd_unexpected(d, &p);
        if (read_dpop(d, s))
            return -1;
    }
    return ret;
}

static xf_stmt *
new_stmt(rd *d)
{
    xf_stmt *s = XF_NEW(d->a, xf_stmt);
    if (!s) {
        rd_oom(d);
        return NULL;
    }
    s->lineno = XF_NOINT;
    s->h.line = d->line;
    return s;
}

/* the children of a BasicBlock: statements */
static int
block_body(rd *d, xf_cvertex *v)
{
    rdpar p;
    rd_start(d, &p, &v->h);
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        xf_stmt *s = new_stmt(d);
        if (!s || !XF_VEC_PUSH(d->a, v->stmts, s))
            return rd_oom(d);
        switch (d->el) {
        case XF_EL_ASSIGNMENT:
            ret = read_assign(d, s);
            break;
        case XF_EL_SUBROUTINECALL:
        case XF_EL_INLINABLESUBROUTINECALL:
        case XF_EL_MARKER:
            ret = read_call(d, s, d->el);
            break;
        case XF_EL_DERIVATIVEPROPAGATOR:
            ret = read_propagator(d, s);
            break;
        default:
            return rd_unexpected(d, &p);
        }
        if (ret)
            return -1;
    }
    return ret;
}

/* ForLoop: Initialization? Condition? Update?;  If, Branch, PreLoop, PostLoop: Condition? */
static int
loop_body(rd *d, xf_cvertex *v)
{
    rdpar p;
    rd_start(d, &p, &v->h);
    int ret, stage = 0;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el == XF_EL_INITIALIZATION && v->kind == XF_CV_FORLOOP && stage < 1) {
            stage = 1;
            if (!(v->init = new_stmt(d)))
                return -1;
            ret = read_assign(d, v->init);
        } else if (d->el == XF_EL_CONDITION && stage < 2) {
            stage = 2;
            if (!(v->cond = XF_NEW(d->a, xf_expr)))
                return rd_oom(d);
            ret = rd_expr(d, v->cond);
        } else if (d->el == XF_EL_UPDATE && v->kind == XF_CV_FORLOOP && stage < 3) {
            stage = 3;
            if (!(v->update = new_stmt(d)))
                return -1;
            ret = read_assign(d, v->update);
        } else
            return rd_unexpected(d, &p);
        if (ret)
            return -1;
    }
    return ret;
}

/* The attribute lists of control-flow vertices; ORDER xf_cvkind */
static const xf_alist vlists[] = {
    [XF_CV_ENTRY] = XF_AL_CVERTEX,         [XF_CV_EXIT] = XF_AL_CVERTEX,
    [XF_CV_BASICBLOCK] = XF_AL_BASICBLOCK, [XF_CV_IF] = XF_AL_CVCOND,
    [XF_CV_FORLOOP] = XF_AL_FORLOOP,       [XF_CV_PRELOOP] = XF_AL_CVCOND,
    [XF_CV_POSTLOOP] = XF_AL_CVCOND,       [XF_CV_BRANCH] = XF_AL_CVCOND,
    [XF_CV_ENDBRANCH] = XF_AL_CVERTEX,     [XF_CV_ENDLOOP] = XF_AL_CVERTEX,
    [XF_CV_LABEL] = XF_AL_CVERTEX,         [XF_CV_GOTO] = XF_AL_CVERTEX,
};

/* A control-flow vertex; its kind follows from the element. */
static int
read_cvertex(rd *d, xf_graph *g, uint32_t seq)
{
    xf_cvertex *v = XF_NEW(d->a, xf_cvertex);
    if (!v)
        return rd_oom(d);
    v->kind = (xf_cvkind)(d->el - XF_EL_ENTRY);
    v->seq = seq;
    v->index = g->v.n;
    xf_refids r;
    if (rd_attrs(d, vlists[v->kind], v, &v->h, &r))
        return -1;
    const char *scope = r.id[XF_REF_SCOPE];
    if (rd_resolve_scope(d, &v->h, xf_aname_text(XF_AN_SCOPE_ID), scope, &v->scope))
        return -1;
    void *old;
    if (!xf_map_put(&g->vmap, d->a, v->id, v, &old) || !XF_VEC_PUSH(d->a, g->v, v))
        return rd_oom(d);
    if (old) {
        if (rd_soft(d, d->line, "two control-flow vertices with vertex_id '%s'", v->id))
            return -1;
        xf_map_put(&g->vmap, d->a, v->id, old, NULL);
    }
    switch (v->kind) {
    case XF_CV_BASICBLOCK:
        return block_body(d, v);
    case XF_CV_IF:
    case XF_CV_FORLOOP:
    case XF_CV_PRELOOP:
    case XF_CV_POSTLOOP:
    case XF_CV_BRANCH:
        return loop_body(d, v);
    case XF_CV_ENTRY:
    case XF_CV_EXIT:
    case XF_CV_ENDBRANCH:
    case XF_CV_ENDLOOP:
    case XF_CV_LABEL:
    case XF_CV_GOTO:
        return rd_empty_elem(d, &v->h);
    }
    return 0;
}

/* ControlFlowEdge: empty */
static int
read_cedge(rd *d, xf_graph *g, uint32_t seq)
{
    xf_cedge *e = XF_NEW(d->a, xf_cedge);
    if (!e || !XF_VEC_PUSH(d->a, g->e, e))
        return rd_oom(d);
    e->seq = seq;
    uint32_t line = d->line;
    xf_refids r;
    if (rd_attrs(d, XF_AL_CEDGE, e, &e->h, &r) || rd_empty_elem(d, &e->h))
        return -1;
    const char *src = r.id[XF_REF_SOURCE], *tgt = r.id[XF_REF_TARGET];
    return rd_push_pend(d, src, tgt, line);
}

/* Resolve the edges of @g, whose ids wait on the stack from @base. */
static int
resolve_graph(rd *d, xf_graph *g, uint32_t base, const char *what)
{
    for (uint32_t i = 0; i < g->e.n; i++) {
        const rdpend *pe = &d->pend.v[base + i];
        xf_cedge *e = g->e.v[i];
        e->src = xf_cvertex_find(g, pe->src);
        e->tgt = xf_cvertex_find(g, pe->tgt);
        if (!e->src || !e->tgt) {
            if (rd_soft(d, pe->line,
                        "dangling reference: control-flow edge '%s' %s '%s' is no "
                        "vertex of %s",
                        e->id ? e->id : "", e->src ? "target" : "source",
                        e->src ? pe->tgt : pe->src, what) ||
                rd_keep_named(d, &e->h, xf_aname_text(XF_AN_SOURCE), pe->src) ||
                rd_keep_named(d, &e->h, xf_aname_text(XF_AN_TARGET), pe->tgt))
                return -1;
            e->src = e->tgt = NULL;
        }
    }
    d->pend.n = base;
    return 0;
}

/* ArgumentList: ArgumentSymbolReference* */
static int
read_arglist(rd *d, xf_routine *rt)
{
    rt->has_args = true;
    if (rd_plain_attrs(d, &rt->args_h))
        return -1;
    rdpar p;
    rd_start(d, &p, &rt->args_h);
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != XF_EL_ARGUMENTSYMBOLREFERENCE)
            return rd_unexpected(d, &p);
        xf_argsym as = {0};
        as.h.line = d->line;
        xf_refids r;
        if (rd_attrs(d, XF_AL_ARGSYM, &as, &as.h, &r))
            return -1;
        if (xf_flag_is(as.deriv, false) && rd_deriv(d, "deriv", xf_flag_text(as.deriv)))
            return -1;
        if (rd_resolve_symbol(d, &as.h, r.id[XF_REF_SCOPE], r.id[XF_REF_SYMBOL], &as.scope,
                              &as.sym) ||
            rd_empty_elem(d, &as.h))
            return -1;
        if (!XF_VEC_PUSH(d->a, rt->args, as))
            return rd_oom(d);
    }
    return ret;
}

/* ModLocal, Mod, ReadLocal, Read, OnEntry: SideEffectReference* */
static int
read_selist(rd *d, xf_selist *l)
{
    l->present = true;
    if (rd_plain_attrs(d, &l->h))
        return -1;
    rdpar p;
    rd_start(d, &p, &l->h);
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != XF_EL_SIDEEFFECTREFERENCE)
            return rd_unexpected(d, &p);
        xf_varref *r = XF_NEW(d->a, xf_varref);
        if (!r || !XF_VEC_PUSH(d->a, l->refs, r))
            return rd_oom(d);
        if (rd_varref(d, r))
            return -1;
    }
    return ret;
}

/* Replacement: (vertex | ControlFlowEdge)* */
static int
read_replacement(rd *d, xf_routine *rt)
{
    xf_replacement *r = XF_NEW(d->a, xf_replacement);
    if (!r || !XF_VEC_PUSH(d->a, rt->reps, r))
        return rd_oom(d);
    if (rd_attrs(d, XF_AL_REPLACEMENT, r, &r->h, NULL))
        return -1;
    int ret;
    rdpar p;
    rd_start(d, &p, &r->h);
    uint32_t base = d->pend.n;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el >= XF_EL_ENTRY && d->el <= XF_EL_GOTO)
            ret = read_cvertex(d, &r->g, p.nkids);
        else if (d->el == XF_EL_CONTROLFLOWEDGE)
            ret = read_cedge(d, &r->g, p.nkids);
        else
            return rd_unexpected(d, &p);
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
    return resolve_graph(d, &r->g, base, "its replacement");
}

/* ControlFlowGraph: ArgumentList? ModLocal? Mod? ReadLocal? Read? OnEntry?
 *                   (vertex | ControlFlowEdge)*
 * ReplacementList: ArgumentList? Replacement* */
int
rd_routine(rd *d, xf_routine *rt)
{
    rt->is_rlist = d->el == XF_EL_REPLACEMENTLIST;
    if (rt->is_rlist && rd_deriv(d, NULL, NULL))
        return -1;
    xf_refids r;
    if (rd_attrs(d, rt->is_rlist ? XF_AL_RLIST : XF_AL_CFG, rt, &rt->h, &r))
        return -1;
    const char *scope = r.id[XF_REF_SCOPE], *symbol = r.id[XF_REF_SYMBOL];
    const char *cfgscope = r.id[XF_REF_CFG_SCOPE];
    int ret = 0;
    if (rd_resolve_symbol(d, &rt->h, scope, symbol, &rt->scope, &rt->sym))
        return -1;
    if (rd_resolve_scope(d, &rt->h, xf_aname_text(XF_AN_CFG_SCOPE_ID), cfgscope, &rt->cfg_scope))
        return -1;
    rdpar p;
    rd_start(d, &p, &rt->h);
    uint32_t base = d->pend.n;
    int stage = 0; /* what may come next: argument list, side-effect lists, graph */
    while ((ret = rd_child(d, &p)) > 0) {
        xf_elem el = d->el;
        if (el == XF_EL_ARGUMENTLIST && stage == 0) {
            stage = 1;
            ret = read_arglist(d, rt);
        } else if (!rt->is_rlist && el >= XF_EL_MODLOCAL && el <= XF_EL_ONENTRY &&
                   stage <= 1 + (int)(el - XF_EL_MODLOCAL)) {
            stage = 2 + (int)(el - XF_EL_MODLOCAL);
            ret = read_selist(d, &rt->se[el - XF_EL_MODLOCAL]);
        } else if (rt->is_rlist && el == XF_EL_REPLACEMENT) {
            stage = 10;
            ret = read_replacement(d, rt);
        } else if (!rt->is_rlist && el >= XF_EL_ENTRY && el <= XF_EL_GOTO) {
            stage = 10;
            ret = read_cvertex(d, &rt->g, p.nkids);
        } else if (!rt->is_rlist && el == XF_EL_CONTROLFLOWEDGE) {
            stage = 10;
            ret = read_cedge(d, &rt->g, p.nkids);
        } else
            return rd_unexpected(d, &p);
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
    return resolve_graph(d, &rt->g, base, rt->sym ? rt->sym->id : "its routine");
}
