/* f_cfg.c: a control-flow graph as Fortran. Each vertex is a labelled
 * piece of code ending in a GOTO its successor, left out where the successor
 * comes next: that keeps any graph exact, unstructured ones included (§2 of
 * docs/xaif-execution.md). A ForLoop has two ways in: from its EndLoop it
 * runs Update, from elsewhere Initialization; then Condition picks the
 * out-edge whose condition_value equals it, else the edge without one. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_order.h"
#include "f_impl.h"

enum { LB_PLAIN = 0, LB_INIT = 1, LB_UPDATE = 2, LB_TEST = 3 };

typedef xf_cfg_outs outs;

/* The label number of (@v, @kind), made when @make. */
static int
label(fw *w, const xf_cvertex *v, int kind, bool make)
{
    int *l = &w->lbl[4 * v->index + (uint32_t)kind];
    if (!*l && make) {
        if (w->labels >= 99990) {
            fw_refuse(w, v->h.line, "more than 99990 statement labels in one routine");
            return 1;
        }
        *l = ++w->labels;
    }
    return *l;
}

static void
put_label(fw *w, int l)
{
    fprintf(w->o, "%d continue\n", l);
}

/* Jump along @e to its target, or fall through when the target is @next.
 * @emit false: only note which labels are needed. */
static void
transfer(fw *w, const xf_cedge *e, const xf_cvertex *next, bool emit, const char *pre)
{
    const xf_cvertex *t = e->tgt;
    int kind = LB_PLAIN;
    if (t->kind == XF_CV_FORLOOP)
        kind = e->src->kind == XF_CV_ENDLOOP ? LB_UPDATE : LB_INIT;
    if (t == next && kind != LB_UPDATE)
        return;
    int l = label(w, t, kind, true);
    if (emit)
        fprintf(w->o, "%sgoto %d\n", pre, l);
}

static const xf_cedge *
only_out(fw *w, const outs *o, const xf_cvertex *v)
{
    if (o->first[v->index + 1] - o->first[v->index] != 1) {
        fw_refuse(w, v->h.line, "%s %s has %u out-edges, not one", xf_cvkind_name(v->kind), v->id,
                  o->first[v->index + 1] - o->first[v->index]);
        return NULL;
    }
    return o->e[o->first[v->index]];
}

/* The condition of @v into the integer xf_c. */
static bool
condition(fw *w, const xf_cvertex *v)
{
    uint32_t up;
    w->need_c = true;
    if (xf_cfg_strided_do(v,
                          &up)) { /* DO i = l, u, s: tested as i <= u for s > 0, i >= u otherwise */
        fputs("  xf_c = merge(1, 0, ((", w->o);
        fw_expr(w, &v->update->u.as.rhs);
        fputs(") - ", w->o);
        fw_ref(w, &v->update->u.as.lhs, false);
        fputs(" > 0 .and. ", w->o);
        fw_ref(w, &v->update->u.as.lhs, false);
        fputs(" <= ", w->o);
        fw_expr_at(w, v->cond, up);
        fputs(") .or. ((", w->o);
        fw_expr(w, &v->update->u.as.rhs);
        fputs(") - ", w->o);
        fw_ref(w, &v->update->u.as.lhs, false);
        fputs(" <= 0 .and. ", w->o);
        fw_ref(w, &v->update->u.as.lhs, false);
        fputs(" >= ", w->o);
        fw_expr_at(w, v->cond, up);
        fputs("))\n", w->o);
        return !w->failed;
    }
    FILE *saved = w->o;
    char *s = NULL;
    size_t len;
    FILE *m = open_memstream(&s, &len);
    if (!m) {
        fw_refuse(w, v->h.line, "out of memory");
        return false;
    }
    w->o = m;
    fw_type t = fw_expr(w, v->cond);
    fclose(m);
    w->o = saved;
    if (t == FT_BAD) {
        free(s);
        return false;
    }
    if (t == FT_BOOL)
        fprintf(w->o, "  xf_c = merge(1, 0, %s)\n", s);
    else if (t == FT_REAL)
        fprintf(w->o, "  xf_c = int(%s)\n", s);
    else
        fprintf(w->o, "  xf_c = %s\n", s);
    free(s);
    return true;
}

/* Condition @c picks an out-edge of @v. */
static void
select_edge(fw *w, const outs *o, const xf_cvertex *v, const xf_cvertex *next, bool emit)
{
    const xf_cedge *dflt = NULL;
    if (!v->cond) {
        fw_refuse(w, v->h.line, "%s %s has no Condition", xf_cvkind_name(v->kind), v->id);
        return;
    }
    if (emit && !condition(w, v))
        return;
    char pre[64];
    /* one valued edge to the vertex written next, and a default: test the
     * other way round and fall through, as a loop's body or an IF's then-arm */
    if (o->first[v->index + 1] - o->first[v->index] == 2) {
        const xf_cedge *a = o->e[o->first[v->index]], *b = o->e[o->first[v->index] + 1];
        bool ha = xf_flag_is(a->has_cv, false), hb = xf_flag_is(b->has_cv, false);
        const xf_cedge *val = ha && !hb ? a : hb && !ha ? b : NULL;
        const xf_cedge *other = val == a ? b : a;
        if (val && val->tgt == next && next->kind != XF_CV_FORLOOP) {
            long long cv = val->cv == XF_NOINT ? 1 : (long long)val->cv;
            snprintf(pre, sizeof pre, "  if (xf_c /= %lld) ", cv);
            transfer(w, other, NULL, emit, pre);
            return;
        }
    }
    for (uint32_t k = o->first[v->index]; k < o->first[v->index + 1]; k++) {
        const xf_cedge *e = o->e[k];
        if (!xf_flag_is(e->has_cv, false)) {
            if (dflt) {
                fw_refuse(w, e->h.line, "%s %s has two out-edges without a condition value",
                          xf_cvkind_name(v->kind), v->id);
                return;
            }
            dflt = e;
            continue;
        }
        long long cv = e->cv == XF_NOINT ? 1 : (long long)e->cv;
        snprintf(pre, sizeof pre, "  if (xf_c == %lld) ", cv);
        transfer(w, e, NULL, emit, pre);
    }
    if (dflt)
        transfer(w, dflt, next, emit, "  ");
    else if (emit)
        fputs("  error stop 'xaiform: no out-edge for this condition value'\n", w->o);
}

static void
vertex(fw *w, const outs *o, const xf_cvertex *v, const xf_cvertex *next, bool emit)
{
    const xf_cedge *e;
    if (emit && v->kind != XF_CV_FORLOOP && label(w, v, LB_PLAIN, false))
        put_label(w, label(w, v, LB_PLAIN, false));
    switch (v->kind) {
    case XF_CV_ENTRY:
    case XF_CV_ENDBRANCH:
    case XF_CV_ENDLOOP:
    case XF_CV_LABEL:
    case XF_CV_GOTO:
        if ((e = only_out(w, o, v)))
            transfer(w, e, next, emit, "  ");
        return;
    case XF_CV_EXIT:
        if (next) {
            if (emit)
                fprintf(w->o, "  goto %d\n", w->exit_label);
            w->exit_used = true;
        }
        return;
    case XF_CV_BASICBLOCK:
        if (emit)
            for (uint32_t i = 0; i < v->stmts.n && !w->failed; i++)
                fw_stmt(w, v->stmts.v[i]);
        if ((e = only_out(w, o, v)))
            transfer(w, e, next, emit, "  ");
        return;
    case XF_CV_FORLOOP:
        if (v->update)
            label(w, v, LB_TEST, true);
        if (emit) {
            if (label(w, v, LB_INIT, false))
                put_label(w, label(w, v, LB_INIT, false));
            if (v->init)
                fw_stmt(w, v->init);
            if (v->update)
                fprintf(w->o, "  goto %d\n", label(w, v, LB_TEST, false));
            if (label(w, v, LB_UPDATE, false))
                put_label(w, label(w, v, LB_UPDATE, false));
            if (v->update) {
                fw_stmt(w, v->update);
                put_label(w, label(w, v, LB_TEST, false));
            }
        }
        select_edge(w, o, v, next, emit);
        return;
    case XF_CV_IF:
    case XF_CV_BRANCH:
    case XF_CV_PRELOOP:
        select_edge(w, o, v, next, emit);
        return;
    case XF_CV_POSTLOOP:
        fw_refuse(w, v->h.line, "a PostLoop (its meaning is not specified)");
        return;
    }
}

void
fw_graph(fw *w, const xf_graph *g)
{
    uint32_t n = g->v.n;
    outs o = {0};
    const xf_cvertex **order = NULL;
    o.first = calloc((size_t)n + 2, sizeof *o.first);
    o.e = calloc((size_t)g->e.n + 1, sizeof *o.e);
    order = calloc((size_t)n + 1, sizeof *order);
    uint32_t *fill = calloc((size_t)n + 1, sizeof *fill);
    free(w->lbl);
    w->lbl = calloc(4 * (size_t)n + 4, sizeof *w->lbl);
    w->exit_used = false;
    if (!o.first || !o.e || !order || !fill || !w->lbl) {
        fw_refuse(w, 0, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < n; i++)
        if (g->v.v[i]->index != i) {
            fw_refuse(w, g->v.v[i]->h.line, "internal: vertex index out of order");
            goto out;
        }
    for (uint32_t i = 0; i < g->e.n; i++) {
        const xf_cedge *e = g->e.v[i];
        if (!e->src || !e->tgt) {
            fw_refuse(w, e->h.line, "a control-flow edge to nowhere");
            goto out;
        }
        o.first[e->src->index + 1]++;
    }
    for (uint32_t i = 0; i < n; i++)
        o.first[i + 1] += o.first[i];
    for (uint32_t i = 0; i < g->e.n; i++) {
        const xf_cedge *e = g->e.v[i];
        o.e[o.first[e->src->index] + fill[e->src->index]++] = e;
    }
    uint32_t entries = 0;
    for (uint32_t i = 0; i < n; i++)
        entries += g->v.v[i]->kind == XF_CV_ENTRY;
    if (entries != 1) {
        fw_refuse(w, n ? g->v.v[0]->h.line : 0, "a control-flow graph with %u Entry vertices",
                  entries);
        goto out;
    }
    w->exit_label = ++w->labels;
    if (fw_structured(w, g, &o))
        goto done;
    xf_cfg_lay_out(g, &o, order);
    for (int emit = 0; emit < 2 && !w->failed; emit++)
        for (uint32_t i = 0; i < n && !w->failed; i++)
            vertex(w, &o, order[i], i + 1 < n ? order[i + 1] : NULL, emit);
done:
    if (w->exit_used && !w->failed)
        put_label(w, w->exit_label);
out:
    free(o.first);
    free(o.e);
    free(order);
    free(fill);
}
