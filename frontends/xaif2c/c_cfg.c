/* c_cfg.c: a control-flow graph as C. Each vertex is a labelled piece of
 * code ending in a jump to its successor, left out where the successor comes
 * next: that keeps any graph exact, unstructured ones included (§2 of
 * docs/xaif-execution.md). A ForLoop has two ways in: from its EndLoop it
 * runs Update, from elsewhere Initialization; then Condition picks the
 * out-edge whose condition_value equals it, else the edge without one. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_order.h"
#include "c_impl.h"

enum { LB_PLAIN = 1, LB_INIT = 2, LB_UPDATE = 4, LB_TEST = 8 };

typedef xf_cfg_outs outs;

static void
label(cw *w, const xf_cvertex *v, int kind)
{
    const char *suf = kind == LB_INIT     ? "_i"
                      : kind == LB_UPDATE ? "_u"
                      : kind == LB_TEST   ? "_t"
                                          : "";
    fprintf(w->o, "L%d_%u%s", w->ph, v->index, suf);
}

/* Jump along @e to its target, or fall through when the target is @next.
 * @emit false: only note which labels are needed. */
static void
transfer(cw *w, const xf_cedge *e, const xf_cvertex *next, bool emit, const char *indent)
{
    const xf_cvertex *t = e->tgt;
    int kind = LB_PLAIN;
    if (t->kind == XF_CV_FORLOOP)
        kind = e->src->kind == XF_CV_ENDLOOP ? LB_UPDATE : LB_INIT;
    if (t == next && kind != LB_UPDATE)
        return;
    if (!emit) {
        w->lbl[t->index] |= (unsigned char)kind;
        return;
    }
    fprintf(w->o, "%sgoto ", indent);
    label(w, t, kind);
    fputs(";\n", w->o);
}

static const xf_cedge *
only_out(cw *w, const outs *o, const xf_cvertex *v)
{
    if (o->first[v->index + 1] - o->first[v->index] != 1) {
        cw_refuse(w, v->h.line, "%s %s has %u out-edges, not one", xf_cvkind_name(v->kind), v->id,
                  o->first[v->index + 1] - o->first[v->index]);
        return NULL;
    }
    return o->e[o->first[v->index]];
}

/* Condition @c picks an out-edge of @v. */
static void
select_edge(cw *w, const outs *o, const xf_cvertex *v, const xf_cvertex *next, bool emit)
{
    const xf_cedge *dflt = NULL;
    if (!v->cond) {
        cw_refuse(w, v->h.line, "%s %s has no Condition", xf_cvkind_name(v->kind), v->id);
        return;
    }
    if (emit) {
        uint32_t up;
        fputs("    {\n        long xf_c = (long)(", w->o);
        if (xf_cfg_strided_do(v, &up)) {
            fputs("xf_ad_do_test(", w->o);
            cw_ref(w, &v->update->u.as.lhs, false);
            fputs(", ", w->o);
            cw_expr(w, &v->update->u.as.rhs);
            fputs(", ", w->o);
            cw_expr_at(w, v->cond, up);
            fputs(")", w->o);
        } else if (cw_expr(w, v->cond) == CT_BAD)
            return;
        fputs(");\n", w->o);
    }
    /* one valued edge to the vertex written next, and a default: test the
     * other way round and fall through, as a loop's body or an IF's then-arm */
    if (o->first[v->index + 1] - o->first[v->index] == 2) {
        const xf_cedge *a = o->e[o->first[v->index]], *b = o->e[o->first[v->index] + 1];
        bool ha = xf_flag_is(a->has_cv, false), hb = xf_flag_is(b->has_cv, false);
        const xf_cedge *val = ha && !hb ? a : hb && !ha ? b : NULL;
        const xf_cedge *other = val == a ? b : a;
        if (val && val->tgt == next && next->kind != XF_CV_FORLOOP) {
            long long cv = val->cv == XF_NOINT ? 1 : (long long)val->cv;
            if (emit)
                fprintf(w->o, "        if (xf_c != %lld)\n", cv);
            transfer(w, other, NULL, emit, "            ");
            if (emit)
                fputs("    }\n", w->o);
            return;
        }
    }
    for (uint32_t k = o->first[v->index]; k < o->first[v->index + 1]; k++) {
        const xf_cedge *e = o->e[k];
        if (!xf_flag_is(e->has_cv, false)) {
            if (dflt) {
                cw_refuse(w, e->h.line, "%s %s has two out-edges without a condition value",
                          xf_cvkind_name(v->kind), v->id);
                return;
            }
            dflt = e;
            continue;
        }
        long long cv = e->cv == XF_NOINT ? 1 : (long long)e->cv;
        if (emit)
            fprintf(w->o, "        if (xf_c == %lld)\n", cv);
        transfer(w, e, NULL, emit, "            ");
    }
    if (dflt)
        transfer(w, dflt, next, emit, "        ");
    else if (emit)
        fputs("        xf_ad_fail(\"no out-edge for this condition value\");\n", w->o);
    if (emit)
        fputs("    }\n", w->o);
}

static void
vertex(cw *w, const outs *o, const xf_cvertex *v, const xf_cvertex *next, const char *exit,
       bool emit)
{
    const xf_cedge *e;
    if (emit && v->kind != XF_CV_FORLOOP && (w->lbl[v->index] & LB_PLAIN)) {
        label(w, v, LB_PLAIN);
        fputs(":;\n", w->o);
    }
    switch (v->kind) {
    case XF_CV_ENTRY:
    case XF_CV_ENDBRANCH:
    case XF_CV_ENDLOOP:
    case XF_CV_LABEL:
    case XF_CV_GOTO:
        if ((e = only_out(w, o, v)))
            transfer(w, e, next, emit, "    ");
        return;
    case XF_CV_EXIT:
        if (next) {
            if (emit)
                fprintf(w->o, "    goto %s;\n", exit);
            w->exit_used = true;
        }
        return;
    case XF_CV_BASICBLOCK:
        w->push_nc = cw_reserve_nc(w, v); /* reserved before the loop (c_reserve.c) */
        if (emit)
            for (uint32_t i = 0; i < v->stmts.n && !w->failed; i++)
                cw_stmt(w, v->stmts.v[i]);
        w->push_nc = false;
        if ((e = only_out(w, o, v)))
            transfer(w, e, next, emit, "    ");
        return;
    case XF_CV_FORLOOP:
        if (emit) {
            if (w->lbl[v->index] & LB_INIT) {
                label(w, v, LB_INIT);
                fputs(":;\n", w->o);
            }
            if (v->init)
                cw_stmt(w, v->init);
            cw_reserve_write(w, v);
            if (v->update) {
                fputs("    goto ", w->o);
                label(w, v, LB_TEST);
                fputs(";\n", w->o);
            }
            if (w->lbl[v->index] & LB_UPDATE) {
                label(w, v, LB_UPDATE);
                fputs(":;\n", w->o);
            }
            if (v->update)
                cw_stmt(w, v->update);
            if (v->update) {
                label(w, v, LB_TEST);
                fputs(":;\n", w->o);
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
        cw_refuse(w, v->h.line, "a PostLoop (its meaning is not specified)");
        return;
    }
}

void
cw_graph(cw *w, const xf_graph *g, const char *exit)
{
    uint32_t n = g->v.n;
    outs o = {0};
    const xf_cvertex **order = NULL;
    o.first = calloc((size_t)n + 2, sizeof *o.first);
    o.e = calloc((size_t)g->e.n + 1, sizeof *o.e);
    order = calloc((size_t)n + 1, sizeof *order);
    uint32_t *fill = calloc((size_t)n + 1, sizeof *fill);
    free(w->lbl);
    w->lbl = calloc((size_t)n + 1, 1);
    if (!o.first || !o.e || !order || !fill || !w->lbl) {
        cw_refuse(w, 0, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < n; i++)
        if (g->v.v[i]->index != i) {
            cw_refuse(w, g->v.v[i]->h.line, "internal: vertex index out of order");
            goto out;
        }
    for (uint32_t i = 0; i < g->e.n; i++) {
        const xf_cedge *e = g->e.v[i];
        if (!e->src || !e->tgt) {
            cw_refuse(w, e->h.line, "a control-flow edge to nowhere");
            goto out;
        }
        o.first[e->src->index + 1]++;
    }
    for (uint32_t i = 0; i < n; i++)
        o.first[i + 1] += o.first[i];
    for (uint32_t i = 0; i < g->e.n; i++) { /* document order within a vertex */
        const xf_cedge *e = g->e.v[i];
        o.e[o.first[e->src->index] + fill[e->src->index]++] = e;
    }
    uint32_t entries = 0;
    for (uint32_t i = 0; i < n; i++)
        entries += g->v.v[i]->kind == XF_CV_ENTRY;
    if (entries != 1) {
        cw_refuse(w, n ? g->v.v[0]->h.line : 0, "a control-flow graph with %u Entry vertices",
                  entries);
        goto out;
    }
    cw_reserve_plan(w, g);
    if (cw_structured(w, g, &o, exit))
        goto out;
    xf_cfg_lay_out(g, &o, order);
    for (int emit = 0; emit < 2 && !w->failed; emit++)
        for (uint32_t i = 0; i < n && !w->failed; i++)
            vertex(w, &o, order[i], i + 1 < n ? order[i + 1] : NULL, exit, emit);
out:
    free(o.first);
    free(o.e);
    free(order);
    free(fill);
}
