/* ir_check.c: see ir_check.h. One walk over the document; the first
 * violation is reported and ends the walk. Scratch arrays are malloc'd per
 * graph and freed before returning: the checker takes a const document and
 * leaves its arena alone. */
#include "ir_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct chk {
    const xf_doc *doc;
    xf_diag *diag;
    const char *where; /* "routine head", for messages */
    unsigned skip;     /* XF_IR_FLOW: leave the shape of control flow alone */
    bool bad;
} chk;

static bool fail(chk *c, uint32_t line, const char *fmt, ...) XF_PRINTF(3, 4);

/* Report the violation; returns false so that callers can `return fail(...)`. */
static bool
fail(chk *c, uint32_t line, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!c->bad)
        xf_diag_report(c->diag, XF_ERROR, c->doc->filename, line, "%s%s%s",
                       c->where ? c->where : "", c->where ? ": " : "", msg);
    c->bad = true;
    return false;
}

static bool
oom(chk *c)
{
    return fail(c, 0, "out of memory while checking the IR");
}

static const char *
str(const char *s)
{
    return s ? s : "(none)";
}

/* ---------------------------------------------------------- references */

static bool
symbol_in(chk *c, uint32_t line, const xf_scope *scope, const xf_symbol *sym, const char *what)
{
    if (!scope || !sym)
        return fail(c, line, "%s does not resolve to a %s", what, scope ? "symbol" : "scope");
    if (xf_symbol_find(scope, sym->id) != sym)
        return fail(c, line, "%s names symbol %s, which scope %s does not hold", what, str(sym->id),
                    str(scope->id));
    return true;
}

static bool expr(chk *c, const xf_expr *x, uint32_t line);

static bool
varref(chk *c, const xf_varref *r, uint32_t line)
{
    uint32_t l = r->h.line ? r->h.line : line;
    if (r->v.n == 0)
        return fail(c, l, "a variable reference without a SymbolReference");
    for (uint32_t i = 0; i < r->v.n; i++) {
        const xf_vrvertex *v = &r->v.v[i];
        switch (v->kind) {
        case XF_VR_SYMBOL:
            if (!symbol_in(c, v->h.line ? v->h.line : l, v->u.sym.scope, v->u.sym.sym,
                           "a SymbolReference"))
                return false;
            break;
        case XF_VR_ARRAY:
            for (uint32_t k = 0; k < v->u.arr.t.n; k++) {
                const xf_triplet *t = &v->u.arr.t.v[k];
                if ((t->index && !expr(c, t->index, l)) || (t->bound && !expr(c, t->bound, l)) ||
                    (t->stride && !expr(c, t->stride, l)))
                    return false;
            }
            break;
        }
    }
    for (uint32_t k = 0; k < r->e.n; k++)
        if (r->e.v[k].src >= r->v.n || r->e.v[k].tgt >= r->v.n)
            return fail(c, r->e.v[k].h.line ? r->e.v[k].h.line : l,
                        "VariableReferenceEdge %s leads outside its reference", str(r->e.v[k].id));
    return true;
}

/* --------------------------------------------------------- expressions */

static bool
vertex(chk *c, const xf_evertex *v, uint32_t line)
{
    switch (v->kind) {
    case XF_EV_VARREF:
        if (!v->u.ref)
            return fail(c, line, "VariableReference vertex %s holds no reference", str(v->id));
        return varref(c, v->u.ref, line);
    case XF_EV_FUNCALL:
        if (!symbol_in(c, line, v->u.fn.scope, v->u.fn.sym, "a FunctionCall"))
            return false;
        for (uint32_t k = 0; k < v->u.fn.args.n; k++)
            if (!v->u.fn.args.v[k] || !varref(c, v->u.fn.args.v[k], line))
                return v->u.fn.args.v[k] ? false : fail(c, line, "a FunctionCall's empty argument");
        return true;
    case XF_EV_INTRINSIC:
    case XF_EV_BOOLOP:
        return v->u.in.name ? true : fail(c, line, "an operation vertex without a name");
    case XF_EV_CONSTANT:
        return v->u.c.value ? true : fail(c, line, "a Constant without a value");
    case XF_EV_ARGREF:
        return c->doc->kind != XF_DOC_CALLGRAPH
                   ? true
                   : fail(c, line, "an ArgumentReference outside an intrinsics catalogue");
    }
    return fail(c, line, "a vertex of unknown kind %d", (int)v->kind);
}

/* Acyclic, one result, operands numbered 1..n at each vertex. */
static bool
expr(chk *c, const xf_expr *x, uint32_t line)
{
    uint32_t l = x->h.line ? x->h.line : line;
    uint32_t n = x->v.n, m = x->e.n;
    for (uint32_t i = 0; i < n; i++)
        if (!vertex(c, &x->v.v[i], x->v.v[i].h.line ? x->v.v[i].h.line : l))
            return false;
    if (n == 0)
        return m == 0 ? true : fail(c, l, "expression edges without vertices");
    for (uint32_t k = 0; k < m; k++) {
        const xf_eedge *e = &x->e.v[k];
        if (e->src >= n || e->tgt >= n)
            return fail(c, e->h.line ? e->h.line : l, "ExpressionEdge %s leads outside its graph",
                        str(e->id));
        if (e->pos < 1)
            return fail(c, e->h.line ? e->h.line : l, "ExpressionEdge %s has position %lld",
                        str(e->id), (long long)e->pos);
    }
    /* first[v] .. first[v+1]: the operand slots of v; outd: out-degrees */
    uint32_t *first = calloc((size_t)n + 1, sizeof *first);
    uint32_t *outd = calloc(n, sizeof *outd);
    size_t nfill = m > n ? m : n; /* operand slots, then vertices */
    uint32_t *fill = calloc(nfill, sizeof *fill);
    uint32_t *adj = calloc(m ? m : 1, sizeof *adj);
    uint32_t *stack = calloc(n, sizeof *stack);
    bool ok = first && outd && fill && adj && stack;
    if (!ok)
        oom(c);
    for (uint32_t k = 0; ok && k < m; k++) {
        first[x->e.v[k].tgt + 1]++;
        outd[x->e.v[k].src]++;
    }
    for (uint32_t i = 0; ok && i < n; i++)
        first[i + 1] += first[i];
    for (uint32_t k = 0; ok && k < m; k++) {
        const xf_eedge *e = &x->e.v[k];
        uint32_t ops = first[e->tgt + 1] - first[e->tgt];
        if ((uint64_t)e->pos > ops) {
            const xf_evertex *t = &x->v.v[e->tgt];
            ok = fail(c, e->h.line ? e->h.line : l,
                      "operand position %lld of vertex %s, which has %u operands (positions "
                      "must run 1..n)",
                      (long long)e->pos, str(t->id), ops);
        } else if (fill[first[e->tgt] + e->pos - 1]++) {
            ok = fail(c, e->h.line ? e->h.line : l, "two operands at position %lld of vertex %s",
                      (long long)e->pos, str(x->v.v[e->tgt].id));
        }
    }
    uint32_t roots = 0;
    for (uint32_t i = 0; ok && i < n; i++)
        roots += outd[i] == 0;
    if (ok && roots != 1)
        ok =
            fail(c, l, "an expression with %u results (vertices that are no edge's source)", roots);
    if (ok) {
        /* Kahn: remove vertices without operands left; a cycle leaves some behind.
         * adj: the edges by source, in first[]'s role reused as counts */
        uint32_t *left = calloc(n, sizeof *left), *sfirst = calloc((size_t)n + 1, sizeof *sfirst);
        if (!left || !sfirst)
            ok = oom(c);
        for (uint32_t k = 0; ok && k < m; k++) {
            left[x->e.v[k].tgt]++;
            sfirst[x->e.v[k].src + 1]++;
        }
        for (uint32_t i = 0; ok && i < n; i++)
            sfirst[i + 1] += sfirst[i];
        memset(fill, 0, nfill * sizeof *fill);
        for (uint32_t k = 0; ok && k < m; k++) {
            uint32_t s = x->e.v[k].src;
            adj[sfirst[s] + fill[s]++] = x->e.v[k].tgt;
        }
        uint32_t sp = 0, done = 0;
        for (uint32_t i = 0; ok && i < n; i++)
            if (!left[i])
                stack[sp++] = i;
        while (ok && sp) {
            uint32_t v = stack[--sp];
            done++;
            for (uint32_t k = sfirst[v]; k < sfirst[v + 1]; k++)
                if (--left[adj[k]] == 0)
                    stack[sp++] = adj[k];
        }
        if (ok && done != n)
            ok = fail(c, l, "an expression graph with a cycle");
        free(left);
        free(sfirst);
    }
    free(first);
    free(outd);
    free(fill);
    free(adj);
    free(stack);
    return ok;
}

/* ---------------------------------------------------------- statements */

static bool
args(chk *c, const xf_arg_vec *a, uint32_t line)
{
    for (uint32_t k = 0; k < a->n; k++)
        if (!expr(c, &a->v[k].val, line))
            return false;
    return true;
}

static bool
dpop(chk *c, const xf_dpop *o, uint32_t line)
{
    uint32_t l = o->h.line ? o->h.line : line;
    switch (o->kind) {
    case XF_DP_SETDERIV:
    case XF_DP_SETNEGDERIV:
    case XF_DP_INCDERIV:
    case XF_DP_DECDERIV:
        return varref(c, &o->tgt, l) && varref(c, &o->src, l);
    case XF_DP_ZERODERIV:
        return varref(c, &o->tgt, l);
    case XF_DP_SAX:
    case XF_DP_SAXPY:
        if (o->ax.n == 0)
            return fail(c, l, "a Sax or Saxpy without terms");
        for (uint32_t k = 0; k < o->ax.n; k++)
            if (!expr(c, &o->ax.v[k].a, l) || !varref(c, &o->ax.v[k].x, l))
                return false;
        return varref(c, &o->y, l);
    }
    return fail(c, l, "a propagator operation of unknown kind %d", (int)o->kind);
}

static bool
stmt(chk *c, const xf_stmt *s, uint32_t line)
{
    if (!s)
        return fail(c, line, "an empty statement slot");
    uint32_t l = s->h.line ? s->h.line : line;
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        return varref(c, &s->u.as.lhs, l) && expr(c, &s->u.as.rhs, l);
    case XF_STMT_CALL:
        return symbol_in(c, l, s->u.call.scope, s->u.call.sym, "a SubroutineCall") &&
               args(c, &s->u.call.args, l);
    case XF_STMT_ICALL:
        return s->u.icall.name ? args(c, &s->u.icall.args, l)
                               : fail(c, l, "an InlinableSubroutineCall without a name");
    case XF_STMT_MARKER:
        return true;
    case XF_STMT_DERIVPROP:
        for (uint32_t k = 0; k < s->u.dp.n; k++)
            if (!dpop(c, &s->u.dp.v[k], l))
                return false;
        return true;
    }
    return fail(c, l, "a statement of unknown kind %d", (int)s->kind);
}

/* -------------------------------------------------------- control flow */

typedef struct cfg {
    chk *c;
    const xf_graph *g;
    uint32_t *first;      /* out-edges of vertex i: out[first[i] .. first[i+1]) */
    const xf_cedge **out; /* by source, in the graph's edge order */
    uint8_t *seen;        /* nesting: taken by a construct */
    int depth;
} cfg;

static const char *
kind_name(xf_cvkind k)
{
    switch (k) {
    case XF_CV_ENTRY:
        return "Entry";
    case XF_CV_EXIT:
        return "Exit";
    case XF_CV_BASICBLOCK:
        return "BasicBlock";
    case XF_CV_IF:
        return "If";
    case XF_CV_FORLOOP:
        return "ForLoop";
    case XF_CV_PRELOOP:
        return "PreLoop";
    case XF_CV_POSTLOOP:
        return "PostLoop";
    case XF_CV_BRANCH:
        return "Branch";
    case XF_CV_ENDBRANCH:
        return "EndBranch";
    case XF_CV_ENDLOOP:
        return "EndLoop";
    case XF_CV_LABEL:
        return "Label";
    case XF_CV_GOTO:
        return "Goto";
    }
    return "?";
}

static uint32_t
degree(const cfg *f, const xf_cvertex *v)
{
    return f->first[v->index + 1] - f->first[v->index];
}

static bool
unnested(cfg *f, const xf_cvertex *v, const char *why)
{
    return fail(f->c, v->h.line,
                "%s vertex %s: %s; a graph whose branches and loops do not nest "
                "must be marked structured=\"0\"",
                kind_name(v->kind), str(v->id), why);
}

/* Take @v for one construct; false if it is in one already. */
static bool
take(cfg *f, const xf_cvertex *v)
{
    if (f->seen[v->index])
        return unnested(f, v, "reached twice (a jump into or out of a construct)");
    f->seen[v->index] = 1;
    return true;
}

static const xf_cvertex *
next(cfg *f, const xf_cvertex *v)
{
    if (degree(f, v) != 1) {
        unnested(f, v, "not one successor");
        return NULL;
    }
    return f->out[f->first[v->index]]->tgt;
}

static bool
is_body(const xf_cedge *e)
{
    return xf_flag_is(e->has_cv, false) && (e->cv == XF_NOINT || e->cv != 0);
}

/* From @v to the vertex that ends the enclosing construct (Exit, EndBranch,
 * EndLoop), which is returned; NULL after a report. */
static const xf_cvertex *
sequence(cfg *f, const xf_cvertex *v)
{
    if (++f->depth > 10000) {
        fail(f->c, v->h.line, "branches and loops nested more than 10000 deep");
        return NULL;
    }
    for (uint32_t steps = 0; v && steps <= f->g->v.n; steps++) {
        switch (v->kind) {
        case XF_CV_EXIT:
        case XF_CV_ENDBRANCH:
        case XF_CV_ENDLOOP:
            f->depth--;
            return v;
        case XF_CV_LABEL:
        case XF_CV_GOTO:
        case XF_CV_BASICBLOCK:
            v = take(f, v) ? next(f, v) : NULL;
            break;
        case XF_CV_BRANCH:
        case XF_CV_IF: {
            if (!take(f, v))
                return NULL;
            if (degree(f, v) == 0) {
                unnested(f, v, "no arm");
                return NULL;
            }
            const xf_cvertex *end = NULL;
            for (uint32_t k = f->first[v->index]; k < f->first[v->index + 1]; k++) {
                const xf_cvertex *e = sequence(f, f->out[k]->tgt);
                if (!e)
                    return NULL;
                if (e->kind != XF_CV_ENDBRANCH || (end && e != end)) {
                    unnested(f, v, "its arms do not meet at one EndBranch");
                    return NULL;
                }
                end = e;
            }
            v = take(f, end) ? next(f, end) : NULL;
            break;
        }
        case XF_CV_FORLOOP:
        case XF_CV_PRELOOP: {
            if (!take(f, v))
                return NULL;
            const xf_cedge *a = degree(f, v) == 2 ? f->out[f->first[v->index]] : NULL;
            const xf_cedge *b = a ? f->out[f->first[v->index] + 1] : NULL;
            if (!a || is_body(a) == is_body(b)) {
                unnested(f, v, "not one body edge (condition_value 1) and one exit edge");
                return NULL;
            }
            const xf_cedge *body = is_body(a) ? a : b, *exit = is_body(a) ? b : a;
            const xf_cvertex *end = sequence(f, body->tgt);
            if (!end)
                return NULL;
            if (end->kind != XF_CV_ENDLOOP || degree(f, end) != 1 ||
                f->out[f->first[end->index]]->tgt != v) {
                unnested(f, v, "its body does not end in an EndLoop leading back to it");
                return NULL;
            }
            v = take(f, end) ? exit->tgt : NULL;
            break;
        }
        case XF_CV_ENTRY:
        case XF_CV_POSTLOOP:
            unnested(f, v, "not allowed inside a structured graph");
            return NULL;
        }
    }
    if (v)
        unnested(f, v, "on a path that does not end");
    return NULL;
}

static bool
reach(cfg *f, uint32_t entry)
{
    uint32_t n = f->g->v.n, sp = 0;
    uint32_t *stack = calloc(n, sizeof *stack);
    uint8_t *mark = calloc(n, 1);
    bool ok = stack && mark ? true : oom(f->c);
    if (ok) {
        stack[sp++] = entry;
        mark[entry] = 1;
    }
    while (ok && sp) {
        uint32_t i = stack[--sp];
        for (uint32_t k = f->first[i]; k < f->first[i + 1]; k++) {
            uint32_t j = f->out[k]->tgt->index;
            if (!mark[j]) {
                mark[j] = 1;
                stack[sp++] = j;
            }
        }
    }
    for (uint32_t i = 0; ok && i < n; i++)
        if (!mark[i]) {
            const xf_cvertex *v = f->g->v.v[i];
            ok = fail(f->c, v->h.line, "%s vertex %s is not reached from Entry", kind_name(v->kind),
                      str(v->id));
        }
    free(stack);
    free(mark);
    return ok;
}

static bool
graph_flow(chk *c, const xf_graph *g, bool structured, uint32_t line)
{
    uint32_t n = g->v.n;
    const xf_cvertex *entry = NULL, *exit = NULL;
    for (uint32_t i = 0; i < n; i++) {
        const xf_cvertex *v = g->v.v[i];
        if (v->kind == XF_CV_ENTRY || v->kind == XF_CV_EXIT) {
            const xf_cvertex **p = v->kind == XF_CV_ENTRY ? &entry : &exit;
            if (*p)
                return fail(c, v->h.line, "a second %s vertex, %s (the first is %s)",
                            kind_name(v->kind), str(v->id), str((*p)->id));
            *p = v;
        }
    }
    if (!entry || !exit)
        return fail(c, line, "a control-flow graph without %s vertex",
                    entry ? "an Exit" : "an Entry");
    cfg f = {.c = c, .g = g};
    f.first = calloc((size_t)n + 1, sizeof *f.first);
    f.out = calloc(g->e.n ? g->e.n : 1, sizeof *f.out);
    f.seen = calloc(n, 1);
    uint32_t *fill = calloc(n, sizeof *fill);
    bool ok = f.first && f.out && f.seen && fill ? true : oom(c);
    for (uint32_t k = 0; ok && k < g->e.n; k++)
        f.first[g->e.v[k]->src->index + 1]++;
    for (uint32_t i = 0; ok && i < n; i++)
        f.first[i + 1] += f.first[i];
    for (uint32_t k = 0; ok && k < g->e.n; k++) {
        uint32_t s = g->e.v[k]->src->index;
        f.out[f.first[s] + fill[s]++] = g->e.v[k];
    }
    for (uint32_t k = 0; ok && k < g->e.n; k++)
        if (g->e.v[k]->tgt == entry)
            ok = fail(c, g->e.v[k]->h.line, "ControlFlowEdge %s leads into Entry",
                      str(g->e.v[k]->id));
    if (ok && degree(&f, exit) != 0)
        ok = fail(c, exit->h.line, "an edge leaves Exit vertex %s", str(exit->id));
    if (ok)
        ok = reach(&f, entry->index);
    if (ok && structured) {
        f.seen[entry->index] = 1;
        const xf_cvertex *v = next(&f, entry);
        const xf_cvertex *end = v ? sequence(&f, v) : NULL;
        if (end && end->kind != XF_CV_EXIT)
            unnested(&f, end, "closes a construct that was not opened");
        ok = !c->bad;
    }
    free(f.first);
    free(f.out);
    free(f.seen);
    free(fill);
    return ok;
}

static bool
graph(chk *c, const xf_graph *g, bool structured, uint32_t line)
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        if (!v)
            return fail(c, line, "an empty vertex slot");
        if (v->index != i)
            return fail(c, v->h.line, "%s vertex %s is number %u of its graph but says %u",
                        kind_name(v->kind), str(v->id), i, v->index);
        if (v->id && xf_cvertex_find(g, v->id) != v)
            return fail(c, v->h.line,
                        "vertex id %s does not find its vertex (a duplicate, or "
                        "missing from the graph's map)",
                        v->id);
        if (v->kind == XF_CV_BASICBLOCK)
            for (uint32_t k = 0; k < v->stmts.n; k++)
                if (!stmt(c, v->stmts.v[k], v->h.line))
                    return false;
        if ((v->init && !stmt(c, v->init, v->h.line)) ||
            (v->update && !stmt(c, v->update, v->h.line)) ||
            (v->cond && !expr(c, v->cond, v->h.line)))
            return false;
    }
    for (uint32_t k = 0; k < g->e.n; k++) {
        const xf_cedge *e = g->e.v[k];
        if (!e)
            return fail(c, line, "an empty edge slot");
        const xf_cvertex *ends[2] = {e->src, e->tgt};
        for (int j = 0; j < 2; j++)
            if (!ends[j] || ends[j]->index >= g->v.n || g->v.v[ends[j]->index] != ends[j])
                return fail(c, e->h.line, "ControlFlowEdge %s: its %s is not a vertex of its graph",
                            str(e->id), j ? "target" : "source");
    }
    if ((g->v.n == 0 && g->e.n == 0) || (c->skip & XF_IR_FLOW))
        return true;
    return graph_flow(c, g, structured, line);
}

/* -------------------------------------------------------- the document */

static bool
routine(chk *c, const xf_routine *rt)
{
    char where[300];
    const char *name = rt->sym ? rt->sym->id : rt->id;
    snprintf(where, sizeof where, "routine %s", str(name));
    c->where = where;
    uint32_t l = rt->h.line;
    if (!symbol_in(c, l, rt->scope, rt->sym, "the routine"))
        return false;
    if (rt->id && xf_routine_find(c->doc, rt->id) != rt)
        return fail(c, l, "routine id %s does not find the routine", rt->id);
    for (uint32_t k = 0; k < rt->args.n; k++)
        if (!symbol_in(c, rt->args.v[k].h.line ? rt->args.v[k].h.line : l, rt->args.v[k].scope,
                       rt->args.v[k].sym, "an ArgumentSymbolReference"))
            return false;
    for (int s = 0; s < XF_SE_COUNT; s++)
        for (uint32_t k = 0; k < rt->se[s].refs.n; k++)
            if (!varref(c, rt->se[s].refs.v[k], rt->se[s].h.line ? rt->se[s].h.line : l))
                return false;
    if (!rt->is_rlist)
        return graph(c, &rt->g, xf_flag_is(rt->structured, true), l);
    for (uint32_t k = 0; k < rt->reps.n; k++) {
        const xf_replacement *r = rt->reps.v[k];
        snprintf(where, sizeof where, "routine %s, placeholder %s", str(name), str(r->placeholder));
        if (!graph(c, &r->g, xf_flag_is(r->structured, true), r->h.line ? r->h.line : l))
            return false;
    }
    return true;
}

static bool
callgraph(chk *c)
{
    const xf_callgraph *cg = &c->doc->cg;
    for (uint32_t i = 0; i < cg->scopes.v.n; i++) {
        const xf_scope *s = cg->scopes.v.v[i];
        if (s->id && xf_scope_find(c->doc, s->id) != s)
            return fail(c, s->h.line, "scope id %s does not find the scope", s->id);
        for (uint32_t k = 0; k < s->syms.n; k++)
            if (s->syms.v[k]->scope != s || xf_symbol_find(s, s->syms.v[k]->id) != s->syms.v[k])
                return fail(c, s->syms.v[k]->h.line, "symbol %s is not found in its scope %s",
                            str(s->syms.v[k]->id), str(s->id));
    }
    for (uint32_t k = 0; k < cg->scopes.e.n; k++)
        if (!cg->scopes.e.v[k].src || !cg->scopes.e.v[k].tgt)
            return fail(c, cg->scopes.e.v[k].h.line, "ScopeEdge %s does not resolve",
                        str(cg->scopes.e.v[k].id));
    for (uint32_t r = 0; r < cg->routines.n; r++)
        if (!routine(c, cg->routines.v[r]))
            return false;
    c->where = NULL;
    for (uint32_t k = 0; k < cg->edges.n; k++)
        if (!cg->edges.v[k].src || !cg->edges.v[k].tgt)
            return fail(c, cg->edges.v[k].h.line, "CallGraphEdge %s does not resolve",
                        str(cg->edges.v[k].id));
    return true;
}

int
xf_ir_check(const xf_doc *doc, xf_diag *diag)
{
    return xf_ir_check_some(doc, 0, diag);
}

int
xf_ir_check_some(const xf_doc *doc, unsigned skip, xf_diag *diag)
{
    chk c = {.doc = doc, .diag = diag, .skip = skip};
    switch (doc->kind) {
    case XF_DOC_CALLGRAPH:
        callgraph(&c);
        break;
    case XF_DOC_INLINABLE:
        for (uint32_t i = 0; i < doc->ii.n && !c.bad; i++)
            for (uint32_t k = 0; k < doc->ii.v[i].partials.n && !c.bad; k++)
                expr(&c, &doc->ii.v[i].partials.v[k].expr, doc->ii.v[i].h.line);
        break;
    case XF_DOC_NONINLINABLE:
        break;
    }
    return c.bad ? -1 : 0;
}
