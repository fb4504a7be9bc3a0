/* read_cfg.c: routines (ControlFlowGraph, ReplacementList), their
 * control-flow graphs, statements and derivative propagators. */
#include "read_impl.h"

/* Argument: VariableReference | Constant (kept as a one-vertex expression) */
static int
read_arg(rd *d, xf_arg_vec *args)
{
    xf_arg g = {.pos = XF_NOINT};
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        if (a.id == A_POSITION)
            ret = rd_int(d, &a, &g.pos);
        else if (a.id == A_ANNOTATION)
            ret = (g.val.h.annotation = rd_str(d, &a)) ? 0 : -1;
        else
            ret = rd_keep_attr(d, &g.val.h, &a);
        if (ret)
            return -1;
    }
    if (ret < 0 || rd_expr_body(d, &g.val))
        return -1;
    return XF_VEC_PUSH(d->a, *args, g) ? 0 : rd_oom(d);
}

/* Attributes every statement may carry; 1 if @a was one of them. */
static int
stmt_attr(rd *d, xf_stmt *s, const rdattr *a)
{
    switch (a->id) {
    case A_STATEMENT_ID:
        return (s->id = rd_str(d, a)) ? 1 : -1;
    case A_LINENUMBER:
        return rd_int(d, a, &s->lineno) ? -1 : 1;
    case A_ANNOTATION:
        return (s->h.annotation = rd_str(d, a)) ? 1 : -1;
    default:
        return 0;
    }
}

/* Assignment, Initialization, Update: AssignmentLHS AssignmentRHS */
static int
read_assign(rd *d, xf_stmt *s)
{
    xf_assign *as = &s->u.as;
    s->kind = XF_STMT_ASSIGN;
    as->do_chain = XF_NOINT;
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        ret = stmt_attr(d, s, &a);
        if (ret == 0)
            ret = a.id == A_DO_CHAIN ? rd_int(d, &a, &as->do_chain) : rd_keep_attr(d, &s->h, &a);
        if (ret < 0)
            return -1;
    }
    if (ret < 0)
        return -1;
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
    const char *scope = NULL, *symbol = NULL;
    s->kind = el == XF_EL_SUBROUTINECALL ? XF_STMT_CALL
              : el == XF_EL_MARKER       ? XF_STMT_MARKER
                                         : XF_STMT_ICALL;
    if (s->kind == XF_STMT_CALL)
        s->u.call.formal_count = XF_NOINT;
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        ret = stmt_attr(d, s, &a);
        if (ret == 0) {
            if (s->kind == XF_STMT_CALL && a.id == A_SCOPE_ID)
                ret = (scope = rd_str(d, &a)) ? 0 : -1;
            else if (s->kind == XF_STMT_CALL && a.id == A_SYMBOL_ID)
                ret = (symbol = rd_str(d, &a)) ? 0 : -1;
            else if (s->kind == XF_STMT_CALL && a.id == A_FORMAL_ARG_COUNT)
                ret = rd_int(d, &a, &s->u.call.formal_count);
            else if (s->kind == XF_STMT_CALL && a.id == A_ACTIVE)
                ret = rd_flag(d, &a, &s->u.call.active);
            else if (s->kind == XF_STMT_ICALL && a.id == A_SUBROUTINE_NAME)
                ret = (s->u.icall.name = rd_str(d, &a)) ? 0 : -1;
            else
                ret = rd_keep_attr(d, &s->h, &a);
        }
        if (ret < 0)
            return -1;
    }
    if (ret < 0)
        return -1;
    if (s->kind == XF_STMT_MARKER)
        return rd_empty_elem(d, &s->h);
    if (s->kind == XF_STMT_CALL &&
        rd_resolve_symbol(d, &s->h, scope, symbol, &s->u.call.scope, &s->u.call.sym))
        return -1;
    if (s->kind == XF_STMT_ICALL && !s->u.icall.name)
        return rd_err(d, d->line, "<InlinableSubroutineCall> without a subroutine_name");
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
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        ret = stmt_attr(d, s, &a);
        if (ret == 0)
            ret = rd_keep_attr(d, &s->h, &a);
        if (ret < 0)
            return -1;
    }
    if (ret < 0)
        return -1;
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
    v->lineno = XF_NOINT;
    const char *scope = NULL;
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        switch (a.id) {
        case A_VERTEX_ID:
            ret = (v->id = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_ANNOTATION:
            ret = (v->h.annotation = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_LINENUMBER:
            ret = rd_int(d, &a, &v->lineno);
            break;
        case A_SCOPE_ID:
            if (v->kind == XF_CV_BASICBLOCK) {
                ret = (scope = rd_str(d, &a)) ? 0 : -1;
                break;
            }
            ret = rd_keep_attr(d, &v->h, &a);
            break;
        case A_REVERSAL:
            if (v->kind == XF_CV_FORLOOP) {
                ret = xf_reversal_parse(a.value, &v->reversal) ? 0
                                                               : rd_bad_value(d, &a, "a reversal");
                break;
            }
            ret = rd_keep_attr(d, &v->h, &a);
            break;
        default:
            ret = rd_keep_attr(d, &v->h, &a);
        }
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
    if (!v->id)
        return rd_err(d, d->line, "<%s> without vertex_id", xf_elem_name(d->el));
    if (rd_resolve_scope(d, &v->h, "scope_id", scope, &v->scope))
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
    e->cv = XF_NOINT;
    const char *src = NULL, *tgt = NULL;
    uint32_t line = d->line;
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        switch (a.id) {
        case A_EDGE_ID:
            ret = (e->id = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_SOURCE:
            ret = (src = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_TARGET:
            ret = (tgt = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_HAS_CV:
            ret = rd_flag(d, &a, &e->has_cv);
            break;
        case A_CV:
            ret = rd_int(d, &a, &e->cv);
            break;
        case A_ANNOTATION:
            ret = (e->h.annotation = rd_str(d, &a)) ? 0 : -1;
            break;
        default:
            ret = rd_keep_attr(d, &e->h, &a);
        }
        if (ret)
            return -1;
    }
    if (ret < 0 || rd_empty_elem(d, &e->h))
        return -1;
    if (!src || !tgt)
        return rd_err(d, line, "<ControlFlowEdge> needs a source and a target");
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
                rd_keep_named(d, &e->h, "source", pe->src) ||
                rd_keep_named(d, &e->h, "target", pe->tgt))
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
        xf_argsym as = {.pos = XF_NOINT};
        as.h.line = d->line;
        const char *scope = NULL, *symbol = NULL;
        rdattr a;
        while ((ret = rd_attr(d, &a)) > 0) {
            switch (a.id) {
            case A_POSITION:
                ret = rd_int(d, &a, &as.pos);
                break;
            case A_SCOPE_ID:
                ret = (scope = rd_str(d, &a)) ? 0 : -1;
                break;
            case A_SYMBOL_ID:
                ret = (symbol = rd_str(d, &a)) ? 0 : -1;
                break;
            case A_INTENT:
                ret = xf_intent_parse(a.value, &as.intent) ? 0 : rd_bad_value(d, &a, "an intent");
                break;
            case A_DERIV:
                ret = rd_flag(d, &a, &as.deriv);
                if (ret == 0 && xf_flag_is(as.deriv, false))
                    ret = rd_deriv(d, "deriv", a.value);
                break;
            case A_ANNOTATION:
                ret = (as.h.annotation = rd_str(d, &a)) ? 0 : -1;
                break;
            default:
                ret = rd_keep_attr(d, &as.h, &a);
            }
            if (ret)
                return -1;
        }
        if (ret < 0 || rd_resolve_symbol(d, &as.h, scope, symbol, &as.scope, &as.sym) ||
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
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        if (a.id == A_PLACEHOLDER)
            ret = (r->placeholder = rd_str(d, &a)) ? 0 : -1;
        else if (a.id == A_STRUCTURED)
            ret = rd_flag(d, &a, &r->structured);
        else if (a.id == A_ANNOTATION)
            ret = (r->h.annotation = rd_str(d, &a)) ? 0 : -1;
        else
            ret = rd_keep_attr(d, &r->h, &a);
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
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
    const char *scope = NULL, *symbol = NULL, *cfgscope = NULL;
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        switch (a.id) {
        case A_VERTEX_ID:
            ret = (rt->id = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_SCOPE_ID:
            ret = (scope = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_SYMBOL_ID:
            ret = (symbol = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_CFG_SCOPE_ID:
            ret = (cfgscope = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_ACTIVE:
            ret = rd_flag(d, &a, &rt->active);
            break;
        case A_STRUCTURED:
            ret = rd_flag(d, &a, &rt->structured);
            break;
        case A_TEMPLATE_NAME:
            ret = (rt->template_name = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_ANNOTATION:
            ret = (rt->h.annotation = rd_str(d, &a)) ? 0 : -1;
            break;
        default:
            ret = rd_keep_attr(d, &rt->h, &a);
        }
        if (ret)
            return -1;
    }
    if (ret < 0 || rd_resolve_symbol(d, &rt->h, scope, symbol, &rt->scope, &rt->sym))
        return -1;
    if (!cfgscope)
        return rd_err(d, d->line, "<%s> without controlflowgraph_scope_id", xf_elem_name(d->el));
    if (rd_resolve_scope(d, &rt->h, "controlflowgraph_scope_id", cfgscope, &rt->cfg_scope))
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
