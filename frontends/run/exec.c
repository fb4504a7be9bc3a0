/* exec.c: statements, derivative propagators, control-flow graphs, calls
 * with Fortran argument association, and the adjoint templates that route
 * the placeholders of a ReplacementList by the mode record (§5.4 of
 * docs/xaif-execution.md). */
#include <string.h>

#include "rt.h"

static void
step(rt *m)
{
    if (++m->steps > m->lim.max_steps)
        rt_fault(m, "more than %llu steps: an endless loop? (raise the limit with --max-steps)",
                 (unsigned long long)m->lim.max_steps);
}

/* ------------------------------------------------------------ propagators */

/* The elements of a reference's derivative component. */
static void
deriv_place(rt *m, const xf_varref *r, rt_lval *lv)
{
    rt_lvalue(m, r, true, lv);
    if (lv->view->st->type != RT_REAL)
        rt_fault(m, "%s has no derivative component", lv->view->name);
}

static double
elem(const rt_val *v, int64_t k)
{
    return rt_real_at(v, v->rank ? k : 0);
}

static void
derivprop(rt *m, const xf_dpop *op)
{
    rt_lval t, s;
    m->stats.statements++;
    switch (op->kind) {
    case XF_DP_ZERODERIV:
        deriv_place(m, &op->tgt, &t);
        for (int64_t k = 0; k < t.n; k++)
            t.view->st->d[t.idx[k]] = 0.0;
        return;
    case XF_DP_SETDERIV:
    case XF_DP_SETNEGDERIV:
    case XF_DP_INCDERIV:
    case XF_DP_DECDERIV: {
        deriv_place(m, &op->tgt, &t);
        deriv_place(m, &op->src, &s);
        rt_val src = rt_load(m, &s); /* read all before writing: they may overlap */
        if (src.rank && src.n != t.n)
            rt_fault(m, "derivative operation on %lld and %lld elements", (long long)src.n,
                     (long long)t.n);
        double *d = t.view->st->d;
        for (int64_t k = 0; k < t.n; k++) {
            double x = elem(&src, k);
            switch (op->kind) {
            case XF_DP_SETDERIV:
                d[t.idx[k]] = x;
                break;
            case XF_DP_SETNEGDERIV:
                m->stats.adds++;
                d[t.idx[k]] = -x;
                break;
            case XF_DP_INCDERIV:
                m->stats.adds++;
                d[t.idx[k]] += x;
                break;
            default:
                m->stats.adds++;
                d[t.idx[k]] -= x;
                break;
            }
        }
        return;
    }
    case XF_DP_SAX:
    case XF_DP_SAXPY: {
        rt_lval y;
        deriv_place(m, &op->y, &y);
        int64_t n = y.n;
        double *acc = rt_tmp(m, (size_t)(n ? n : 1), sizeof(double));
        for (uint32_t j = 0; j < op->ax.n; j++) { /* y = (y +) sum a*x, right side first */
            rt_val a = rt_eval(m, &op->ax.v[j].a);
            rt_lval x;
            deriv_place(m, &op->ax.v[j].x, &x);
            rt_val xd = rt_load(m, &x);
            if ((a.rank && a.n != n) || (xd.rank && xd.n != n))
                rt_fault(m, "Sax/Saxpy on arrays of different sizes");
            for (int64_t k = 0; k < n; k++) {
                double p = elem(&a, k) * elem(&xd, k);
                m->stats.muls++;
                if (j) {
                    acc[k] += p;
                    m->stats.adds++;
                } else
                    acc[k] = p;
            }
        }
        double *d = y.view->st->d;
        for (int64_t k = 0; k < n; k++) {
            if (op->kind == XF_DP_SAXPY) {
                d[y.idx[k]] += acc[k];
                m->stats.adds++;
            } else
                d[y.idx[k]] = acc[k];
        }
        return;
    }
    }
}

/* ------------------------------------------------------------ assignment */

static void
assign(rt *m, const xf_stmt *s)
{
    const xf_varref *lhs = &s->u.as.lhs;
    rt_val v = rt_eval(m, &s->u.as.rhs);
    if (!xf_varref_arrref(lhs)) {
        /* a whole array whose shape is not known takes the value's (§1.3 rule 6) */
        rt_view *view = rt_ref_view(m, lhs);
        if (view->rank > 0 && !view->st->shaped) {
            if (v.rank != view->rank)
                rt_fault(m, "array %s is used before its shape is known", view->name);
            rt_store_shape(m, view->st, v.rank, NULL, v.ext);
            *view = *rt_view_whole(m, view->st);
            view->name = xf_varref_symref(lhs)->sym->id;
            rt_learn_shape(m, lhs, view->st);
        }
    }
    rt_lval lv;
    rt_lvalue(m, lhs, xf_flag_is(lhs->deriv, false), &lv);
    rt_store_val(m, &lv, &v);
}

/* ------------------------------------------------------------ calls */

rt_routine *
rt_find_routine(rt *m, const char *name)
{
    for (uint32_t i = 0; i < m->doc->cg.routines.n; i++)
        if (m->routines[i].name && !strcmp(m->routines[i].name, name))
            return &m->routines[i];
    return NULL;
}

/* The view a formal gets of its actual argument @x (a variable reference
 * or a constant): a scalar formal sees the actual's first element; an array
 * formal with bounds sees the consecutive elements from the actual's first
 * one with its own shape (sequence association); one without bounds takes
 * the actual's shape. */
rt_view *
rt_bind_arg(rt *m, const xf_expr *x, const xf_symbol *formal)
{
    if (x->v.n != 1)
        rt_fault(m, "an argument must be one variable or constant (line %u)", x->h.line);
    const xf_evertex *a = &x->v.v[0];
    rt_view *fv = rt_pool_alloc(m, &m->frames, sizeof *fv);
    fv->name = formal->id;
    int rank;
    int64_t lb[RT_MAXRANK], ext[RT_MAXRANK];
    bool bounded;
    {
        int r = xf_shape_rank(formal->shape);
        rank = r < 0 ? (int)formal->dims.n : r;
        if (rank > RT_MAXRANK)
            rt_fault(m, "%s has rank %d", formal->id, rank);
        bounded = rank == 0 || (int)formal->dims.n == rank;
        for (int k = 0; bounded && k < rank; k++) {
            const xf_dimbounds *b = &formal->dims.v[rank - 1 - k];
            ext[k] = rt_extent(m, formal->id, b);
            lb[k] = b->lower;
        }
    }
    if (a->kind == XF_EV_CONSTANT) {
        if (rank)
            rt_fault(m, "a constant passed to the array %s", formal->id);
        rt_val v = rt_eval(m, x);
        rt_type t = rt_type_of(formal);
        if ((t == RT_STR) != (v.type == RT_STR))
            t = v.type;
        rt_store *st = rt_pool_alloc(m, &m->frames, sizeof *st);
        st->type = t;
        st->shaped = true;
        st->n = 1;
        switch (t) {
        case RT_REAL:
            st->v = rt_pool_alloc(m, &m->frames, sizeof(double));
            st->d = rt_pool_alloc(m, &m->frames, sizeof(double));
            break;
        case RT_INT:
            st->i = rt_pool_alloc(m, &m->frames, sizeof(int64_t));
            break;
        case RT_BOOL:
            st->b = rt_pool_alloc(m, &m->frames, sizeof(bool));
            break;
        case RT_STR:
            st->s = rt_pool_alloc(m, &m->frames, sizeof(rt_str));
            break;
        }
        fv->st = st;
        fv->n = 1;
        rt_lval lv = {.view = fv, .n = 1, .one = 0};
        lv.idx = &lv.one;
        rt_store_val(m, &lv, &v);
        return fv;
    }
    if (a->kind != XF_EV_VARREF)
        rt_fault(m, "an argument must be a variable or a constant (line %u)", x->h.line);
    const xf_varref *r = a->u.ref;
    rt_view *av = rt_ref_view(m, r);
    if (av->rank > 0 && !av->st->shaped && !xf_varref_arrref(r)) {
        /* an array without a shape yet, passed to a formal that has one */
        if (!bounded || rank != av->rank)
            rt_fault(m, "array %s is used before its shape is known", av->name);
        int64_t ones[RT_MAXRANK];
        for (int k = 0; k < rank; k++)
            ones[k] = 1;
        rt_store_shape(m, av->st, rank, ones, ext);
        *av = *rt_view_whole(m, av->st);
        av->name = xf_varref_symref(r)->sym->id;
        rt_learn_shape(m, r, av->st);
    }
    rt_lval lv;
    rt_lvalue(m, r, false, &lv);
    fv->st = av->st;
    if (rank == 0) { /* the first element */
        fv->off = lv.idx[0];
        fv->n = 1;
        return fv;
    }
    fv->rank = rank;
    if (!bounded && lv.rank == 0 && rank == 1 && xf_varref_arrref(r)) {
        /* an element to a vector without bounds: the elements from it on */
        fv->lb[0] = 1;
        fv->ext[0] = fv->n = av->n - lv.pos0;
    } else if (!bounded) { /* assumed shape: the actual's */
        if (lv.rank != rank)
            rt_fault(m, "%s of rank %d gets an actual argument of rank %d", formal->id, rank,
                     lv.rank);
        for (int k = 0; k < rank; k++) {
            fv->lb[k] = 1;
            fv->ext[k] = lv.ext[k];
        }
        fv->n = lv.n;
    } else {
        int64_t n = 1;
        for (int k = 0; k < rank; k++) {
            fv->lb[k] = lb[k];
            fv->ext[k] = ext[k];
            n *= ext[k];
        }
        fv->n = n;
    }
    int64_t avail = lv.section ? lv.n : av->n - lv.pos0;
    if (fv->n > avail)
        rt_fault(m, "%s needs %lld elements; its actual argument %s has %lld", formal->id,
                 (long long)fv->n, av->name, (long long)avail);
    if (lv.section) { /* a section: its elements, gathered (copy-in/copy-out) */
        int64_t *map = rt_pool_alloc(m, &m->frames, (size_t)(lv.n ? lv.n : 1) * sizeof *map);
        memcpy(map, lv.idx, (size_t)lv.n * sizeof *map);
        fv->map = map;
    } else if (av->map)
        fv->map = av->map + lv.pos0;
    else
        fv->off = av->off + lv.pos0;
    return fv;
}

/* Push an activation of @callee with its formals bound; returns it. */
static rt_act *
enter(rt *m, rt_routine *callee, rt_view **actuals, int nactuals)
{
    if (++m->depth > m->lim.max_depth)
        rt_fault(m, "calls nested deeper than %d: endless recursion?", m->lim.max_depth);
    rt_stack_check(m);
    const xf_scope *sc = callee->r->cfg_scope;
    if (!sc)
        rt_fault(m, "routine %s has no local scope", callee->name);
    rt_act *act = rt_pool_alloc(m, &m->frames, sizeof *act);
    act->rt = callee;
    act->views = rt_pool_alloc(m, &m->frames, (sc->syms.n ? sc->syms.n : 1) * sizeof(rt_view *));
    for (int k = 0; k < callee->nformals; k++) {
        const xf_argsym *f = callee->formals[k];
        if (!f)
            continue;
        if (f->scope != sc)
            rt_fault(m, "formal %s of %s is not in its local scope", f->sym->id, callee->name);
        act->views[m->slot[f->sym->index]] = k < nactuals && actuals[k] ? actuals[k] : &m->absent;
    }
    act->prev_same = callee->top;
    callee->top = act;
    return act;
}

static void
run_placeholder(rt *m, rt_routine *callee, int k)
{
    if (callee->ph[k])
        rt_run_graph(m, callee->ph[k]);
}

/* The joint and split templates (OpenAD's ad_template.joint.f / .split.f). */
static void template(rt *m, rt_routine *c)
{
    rt_mode *md = &m->mode;
    if (m->split) {
        if (md->plain)
            run_placeholder(m, c, 1);
        if (md->tape)
            run_placeholder(m, c, 2);
        if (md->adjoint)
            run_placeholder(m, c, 3);
        return;
    }
    if (md->arg_store)
        run_placeholder(m, c, 4);
    if (md->arg_restore)
        run_placeholder(m, c, 6);
    if (md->plain) {
        rt_mode saved = *md;
        md->arg_store = false;
        run_placeholder(m, c, 1);
        *md = saved;
    }
    if (md->tape) {
        *md = (rt_mode){.arg_store = true, .plain = true};
        run_placeholder(m, c, 2);
        *md = (rt_mode){.adjoint = true};
    }
    if (md->adjoint) {
        *md = (rt_mode){.arg_restore = true, .tape = true};
        run_placeholder(m, c, 3);
        *md = (rt_mode){.arg_restore = true, .tape = true};
    }
}

void
rt_call(rt *m, rt_routine *callee, rt_view **actuals, int nactuals)
{
    if (!callee->callable)
        rt_fault(m, "routine %s has no code to run", callee->name);
    rt_act *caller = m->act;
    rt_mark mk = rt_pool_mark(&m->frames), lmk = rt_pool_mark(&m->locals);
    /* the actuals were made in the caller's frame, below this mark */
    rt_act *act = enter(m, callee, actuals, nactuals);
    m->act = act;
    if (callee->g)
        rt_run_graph(m, callee->g);
    else
        template(m, callee);
    callee->top = act->prev_same;
    m->act = caller;
    m->depth--;
    rt_pool_release(&m->locals, lmk);
    rt_pool_release(&m->frames, mk);
}

static void
call(rt *m, const xf_stmt *s)
{
    const xf_call *c = &s->u.call;
    if (!c->sym)
        rt_fault(m, "a call of an unresolved routine");
    rt_routine *callee = m->by_symbol[c->sym->index];
    if (!callee)
        rt_fault(m, "call of %s, which this document does not define", c->sym->id);
    int n = callee->nformals;
    rt_view **actuals = rt_pool_alloc(m, &m->frames, (size_t)(n ? n : 1) * sizeof *actuals);
    for (uint32_t i = 0; i < c->args.n; i++) {
        int64_t pos = c->args.v[i].pos;
        if (pos < 1 || pos > n || !callee->formals[pos - 1])
            rt_fault(m, "argument position %lld, but %s has %d formal arguments", (long long)pos,
                     callee->name, n);
        actuals[pos - 1] = rt_bind_arg(m, &c->args.v[i].val, callee->formals[pos - 1]->sym);
    }
    rt_call(m, callee, actuals, n);
}

/* FunctionCall (front ends canonicalise these away): the callee's result is
 * its local variable named like the function. */
rt_val
rt_function_call(rt *m, const xf_evertex *v)
{
    if (!v->u.fn.sym)
        rt_fault(m, "a call of an unresolved function");
    rt_routine *callee = m->by_symbol[v->u.fn.sym->index];
    if (!callee)
        rt_fault(m, "call of function %s, which this document does not define", v->u.fn.sym->id);
    const xf_symbol *res = xf_symbol_find(callee->r->cfg_scope, v->u.fn.sym->id);
    if (!res)
        rt_fault(m, "function %s has no result variable of its name", callee->name);
    int n = callee->nformals;
    rt_view **actuals = rt_pool_alloc(m, &m->frames, (size_t)(n ? n : 1) * sizeof *actuals);
    for (uint32_t i = 0; i < v->u.fn.args.n && (int)i < n; i++) {
        xf_expr one = {0};
        xf_evertex ev = {.kind = XF_EV_VARREF, .u.ref = v->u.fn.args.v[i]};
        one.v.v = &ev;
        one.v.n = 1;
        actuals[i] = rt_bind_arg(m, &one, callee->formals[i]->sym);
    }
    rt_val out = {0};
    rt_act *caller = m->act;
    rt_mark mk = rt_pool_mark(&m->frames), lmk = rt_pool_mark(&m->locals);
    rt_act *act = enter(m, callee, actuals, n);
    m->act = act;
    rt_run_graph(m, callee->g ? callee->g : callee->ph[1]);
    rt_view *rv = rt_bind(m, callee->r->cfg_scope, res);
    rt_lval lv = {.view = rv, .n = 1};
    lv.idx = &lv.one;
    lv.one = rt_storage(rv, 0);
    out = rt_load(m, &lv); /* in the temporaries, which outlive the frame */
    callee->top = act->prev_same;
    m->act = caller;
    m->depth--;
    rt_pool_release(&m->locals, lmk);
    rt_pool_release(&m->frames, mk);
    return out;
}

/* ------------------------------------------------------------ statements */

void
rt_exec_stmt(rt *m, const xf_stmt *s)
{
    step(m);
    m->act->stmt = s;
    rt_mark tmk = rt_pool_mark(&m->tmp);
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        m->stats.statements++;
        assign(m, s);
        break;
    case XF_STMT_CALL: {
        m->stats.statements++;
        rt_mark fmk = rt_pool_mark(&m->frames);
        call(m, s);
        rt_pool_release(&m->frames, fmk);
        m->act->stmt = s;
        break;
    }
    case XF_STMT_ICALL:
        m->stats.statements++;
        rt_inline_call(m, s);
        break;
    case XF_STMT_MARKER:
        break;
    case XF_STMT_DERIVPROP:
        for (uint32_t i = 0; i < s->u.dp.n; i++)
            derivprop(m, &s->u.dp.v[i]);
        break;
    }
    rt_pool_release(&m->tmp, tmk);
}

/* ------------------------------------------------------------ control flow */

/* Per graph, computed once: the out-edges of each vertex and the entry. */
typedef struct ginfo {
    const xf_cvertex *entry;
    uint32_t *first; /* out-edges of vertex i: out[first[i] .. first[i+1]) */
    const xf_cedge **out;
} ginfo;

static uint32_t
vindex(rt *m, const xf_graph *g, const xf_cvertex *v)
{
    if (v->index < g->v.n && g->v.v[v->index] == v)
        return v->index;
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i] == v)
            return i;
    rt_fault(m, "an edge to a vertex outside its graph");
}

static const ginfo *
graph_info(rt *m, const xf_graph *g)
{
    ginfo *gi = xf_map_get(&m->cfgs, g);
    if (gi)
        return gi;
    gi = rt_alloc(m, sizeof *gi);
    gi->first = rt_alloc(m, (g->v.n + 1) * sizeof *gi->first);
    gi->out = rt_alloc(m, (g->e.n ? g->e.n : 1) * sizeof *gi->out);
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i]->kind == XF_CV_ENTRY) {
            if (gi->entry)
                rt_fault(m, "a control-flow graph with two Entry vertices (line %u)",
                         g->v.v[i]->h.line);
            gi->entry = g->v.v[i];
        }
    if (!gi->entry)
        rt_fault(m, "a control-flow graph without Entry");
    for (uint32_t j = 0; j < g->e.n; j++) {
        if (!g->e.v[j]->src || !g->e.v[j]->tgt)
            rt_fault(m, "a control-flow edge without its vertices (line %u)", g->e.v[j]->h.line);
        gi->first[vindex(m, g, g->e.v[j]->src) + 1]++;
    }
    for (uint32_t i = 0; i < g->v.n; i++)
        gi->first[i + 1] += gi->first[i];
    uint32_t *fill = rt_alloc(m, (g->v.n ? g->v.n : 1) * sizeof *fill);
    for (uint32_t j = 0; j < g->e.n; j++) {
        uint32_t i = vindex(m, g, g->e.v[j]->src);
        gi->out[gi->first[i] + fill[i]++] = g->e.v[j];
    }
    if (!xf_map_put(&m->cfgs, m->a, g, gi, NULL))
        rt_fault(m, "out of memory");
    return gi;
}

/* A loop condition "i != u" whose update is "i = i + s" is Fortran's
 * DO i = l, u, s with a stride known only at run time: i <= u when s > 0,
 * i >= u when s < 0 (§2.4). Returns -1 when the loop is not of that form. */
static int
strided_do(rt *m, const xf_cvertex *v)
{
    const xf_expr *c = v->cond;
    if (!v->update || v->update->kind != XF_STMT_ASSIGN || !c || c->e.n < 2)
        return -1;
    uint32_t root = xf_expr_root(c);
    if (root == UINT32_MAX || c->v.v[root].kind != XF_EV_BOOLOP ||
        strcmp(c->v.v[root].u.in.name, "not_equal"))
        return -1;
    uint32_t side[2] = {UINT32_MAX, UINT32_MAX};
    for (uint32_t j = 0; j < c->e.n; j++)
        if (c->e.v[j].tgt == root && (c->e.v[j].pos == 1 || c->e.v[j].pos == 2))
            side[c->e.v[j].pos - 1] = c->e.v[j].src;
    if (side[0] == UINT32_MAX || side[1] == UINT32_MAX || c->v.v[side[0]].kind != XF_EV_VARREF)
        return -1;
    /* the update must be i = i + s (or s + i) for the i of the condition */
    const xf_expr *u = &v->update->u.as.rhs;
    const xf_symref *lhs = xf_varref_symref(&v->update->u.as.lhs);
    const xf_symref *ci = xf_varref_symref(c->v.v[side[0]].u.ref);
    uint32_t ur = xf_expr_root(u);
    if (!lhs || !ci || lhs->sym != ci->sym || ur == UINT32_MAX ||
        u->v.v[ur].kind != XF_EV_INTRINSIC || strcmp(u->v.v[ur].u.in.name, "add_scal_scal"))
        return -1;
    bool has_i = false;
    for (uint32_t j = 0; j < u->e.n; j++) {
        const xf_evertex *a = &u->v.v[u->e.v[j].src];
        const xf_symref *ar = a->kind == XF_EV_VARREF ? xf_varref_symref(a->u.ref) : NULL;
        if (u->e.v[j].tgt == ur && ar && ar->sym == lhs->sym && !xf_varref_arrref(a->u.ref))
            has_i = true;
    }
    if (!has_i)
        return -1;
    /* s = (i + s) - i */
    rt_val iv = rt_eval_at(m, c, side[0]), next = rt_eval(m, u), uv = rt_eval_at(m, c, side[1]);
    if (iv.type != RT_INT || next.type != RT_INT || iv.rank || next.rank || uv.rank)
        return -1;
    int64_t i = iv.sc.i, st = next.sc.i - i, up = rt_int_at(m, &uv, 0);
    return st > 0 ? i <= up : i >= up;
}

static int64_t
condition(rt *m, const xf_cvertex *v)
{
    if (!v->cond)
        rt_fault(m, "%s vertex %s has no condition", xf_elem_name((xf_elem)(XF_EL_ENTRY + v->kind)),
                 v->id);
    if (v->kind == XF_CV_FORLOOP) {
        int c = strided_do(m, v);
        if (c >= 0)
            return c;
    }
    rt_val c = rt_eval(m, v->cond);
    if (c.rank)
        rt_fault(m, "an array as a condition (line %u)", v->h.line);
    if (c.type == RT_REAL)
        rt_fault(m, "a real number as a condition (line %u)", v->h.line);
    if (c.type == RT_STR)
        rt_fault(m, "a string as a condition (line %u)", v->h.line);
    return c.type == RT_BOOL ? (c.sc.b ? 1 : 0) : c.sc.i;
}

/* The out-edge whose condition value is @c, else the one without a value. */
static const xf_cvertex *
choose(rt *m, const ginfo *gi, uint32_t vi, const xf_cvertex *v, bool conditional, int64_t c)
{
    const xf_cedge *dflt = NULL;
    uint32_t n = gi->first[vi + 1] - gi->first[vi];
    const xf_cedge **out = gi->out + gi->first[vi];
    if (!conditional) {
        if (n != 1)
            rt_fault(m, "%s vertex %s has %u out-edges, not one",
                     xf_elem_name((xf_elem)(XF_EL_ENTRY + v->kind)), v->id, n);
        return out[0]->tgt;
    }
    for (uint32_t j = 0; j < n; j++) {
        const xf_cedge *e = out[j];
        if (xf_flag_is(e->has_cv, false)) {
            if ((e->cv == XF_NOINT ? 1 : e->cv) == c)
                return e->tgt;
        } else if (!dflt)
            dflt = e;
    }
    if (!dflt)
        rt_fault(m, "no out-edge of %s for the condition value %lld", v->id, (long long)c);
    return dflt->tgt;
}

void
rt_run_graph(rt *m, const xf_graph *g)
{
    const ginfo *gi = graph_info(m, g);
    const xf_cvertex *v = gi->entry, *prev = NULL;
    for (;;) {
        step(m);
        m->act->stmt = NULL;
        uint32_t vi = vindex(m, g, v);
        bool conditional = false;
        int64_t c = 0;
        switch (v->kind) {
        case XF_CV_EXIT:
            if (m->lt)
                rt_looptape_leave(m, g);
            return;
        case XF_CV_BASICBLOCK:
            for (uint32_t i = 0; i < v->stmts.n; i++)
                rt_exec_stmt(m, v->stmts.v[i]);
            break;
        case XF_CV_FORLOOP: {
            /* from its EndLoop: the update, from anywhere else: the start */
            const xf_stmt *s = prev && prev->kind == XF_CV_ENDLOOP ? v->update : v->init;
            if (s)
                rt_exec_stmt(m, s);
            rt_mark tmk = rt_pool_mark(&m->tmp);
            c = condition(m, v);
            rt_pool_release(&m->tmp, tmk);
            conditional = true;
            break;
        }
        case XF_CV_IF:
        case XF_CV_BRANCH:
        case XF_CV_PRELOOP:
        case XF_CV_POSTLOOP: {
            rt_mark tmk = rt_pool_mark(&m->tmp);
            c = condition(m, v);
            rt_pool_release(&m->tmp, tmk);
            conditional = true;
            break;
        }
        case XF_CV_ENTRY:
        case XF_CV_ENDBRANCH:
        case XF_CV_ENDLOOP:
        case XF_CV_LABEL:
        case XF_CV_GOTO:
            break;
        }
        if (m->lt && (v->kind == XF_CV_FORLOOP || v->kind == XF_CV_PRELOOP))
            rt_looptape_loop(m, g, v, c == 1);
        prev = v;
        v = choose(m, gi, vi, v, conditional, c);
    }
}
