/* dot_lcg.c: the linearized computational graph of one basic block before
 * and after preaccumulation, from the derivative propagators that the
 * project's passes write (xaiform dot --what lcg). See dot.h. */
#include "dot_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"

/* A derivative propagation with an edge to draw (not only ZeroDeriv). */
static bool
has_propagation(const xf_cvertex *v)
{
    for (uint32_t i = 0; i < v->stmts.n; i++)
        if (v->stmts.v[i]->kind == XF_STMT_DERIVPROP)
            for (uint32_t k = 0; k < v->stmts.v[i]->u.dp.n; k++)
                if (v->stmts.v[i]->u.dp.v[k].kind != XF_DP_ZERODERIV)
                    return true;
    return false;
}

int
xf_dot_lcg_prepare(xf_doc *before, xf_doc *after, const xf_opts *opts, const xf_doc *cat,
                   const xf_doc *direct, xf_diag *diag)
{
    const xf_pass *passes[8];
    char err[300];
    int n = xf_pipeline_parse("convert,linearize", passes, 8, err, sizeof err);
    int m = n < 0
                ? -1
                : xf_pipeline_parse("convert,linearize,preaccumulate", passes, 8, err, sizeof err);
    if (n < 0 || m < 0) {
        xf_internal(diag, err);
        return -1;
    }
    xf_pass_ctx b = {.doc = before, .opts = opts, .diag = diag, .catalogue = cat, .direct = direct};
    xf_pass_ctx a = {.doc = after, .opts = opts, .diag = diag, .catalogue = cat, .direct = direct};
    if (xf_pipeline_run(&b, passes, n) != 0)
        return -1;
    return xf_pipeline_run(&a, passes, m);
}

/* A variable of the LCG: its key (the reference's text), its current vertex. */
typedef struct lvar {
    char *key;
    Agnode_t *cur;
    uint32_t version;
    bool written;
    bool temp; /* a temporary (OpenAD_aux_*, OpenAD_prp_*): never an output */
} lvar;

typedef struct lcg {
    Agraph_t *C;
    char prefix; /* of node names: 'b' before, 'a' after */
    const xf_dot_opts *o;
    char *line;
    dt_lbl b;
    XF_VEC(lvar) vars; /* malloc'ed here, not in an arena */
    uint32_t nodes, edges;
    bool oom;
} lcg;

static lvar *
lcg_var(lcg *l, const xf_varref *r)
{
    const char *key = xf_dot_ref_text(r, l->line, DT_LINE_MAX);
    for (uint32_t i = 0; i < l->vars.n; i++)
        if (!strcmp(l->vars.v[i].key, key))
            return &l->vars.v[i];
    if (l->vars.n == l->vars.cap) {
        uint32_t cap = l->vars.cap ? 2 * l->vars.cap : 16;
        lvar *p = realloc(l->vars.v, cap * sizeof *p);
        if (!p)
            return NULL;
        l->vars.v = p;
        l->vars.cap = cap;
    }
    size_t len = strlen(key) + 1;
    char *k = malloc(len);
    if (!k)
        return NULL;
    memcpy(k, key, len);
    const xf_symref *sr = xf_varref_symref(r);
    bool temp = sr && sr->sym && xf_flag_is(sr->sym->temp, false);
    l->vars.v[l->vars.n] = (lvar){k, NULL, 0, false, temp};
    return &l->vars.v[l->vars.n++];
}

/* A new version of @v; @zero: its value is set to zero. */
static Agnode_t *
lcg_node(lcg *l, lvar *v, bool zero)
{
    char name[32], ver[32];
    snprintf(name, sizeof name, "%c%" PRIu32, l->prefix, l->nodes++);
    Agnode_t *n = dt_node(l->C, name);
    if (!n)
        return NULL;
    v->version++;
    dt_lbl_reset(&l->b);
    dt_put_esc(&l->b, v->key, l->o->width);
    if (v->version > 1) {
        snprintf(ver, sizeof ver, " (%" PRIu32 ")", v->version);
        dt_put_s(&l->b, ver);
    }
    if (zero)
        dt_put_s(&l->b, " = 0");
    dt_set(n, "label", dt_lbl_text(&l->b));
    dt_set(n, "style", zero ? "filled,dashed" : "filled");
    dt_set(n, "fillcolor", "white");
    v->cur = n;
    return n;
}

/* The current version of the variable @r refers to (made when first read). */
static Agnode_t *
lcg_read(lcg *l, const xf_varref *r)
{
    lvar *v = lcg_var(l, r);
    if (!v)
        return NULL;
    if (v->cur)
        return v->cur;
    Agnode_t *n = lcg_node(l, v, false);
    if (n)
        dt_set(n, "fillcolor", "#cfe2f3"); /* an input of the block */
    return n;
}

static Agnode_t *
lcg_write(lcg *l, const xf_varref *r, bool zero)
{
    lvar *v = lcg_var(l, r);
    if (!v)
        return NULL;
    v->written = true;
    return lcg_node(l, v, zero);
}

static bool
lcg_edge(lcg *l, Agnode_t *from, Agnode_t *to, const char *label)
{
    if (!from || !to)
        return false;
    dt_lbl_reset(&l->b);
    dt_put_esc(&l->b, label, l->o->width);
    l->edges++;
    return dt_edge(l->C, from, to, dt_lbl_text(&l->b)) != NULL;
}

static bool
lcg_op(lcg *l, const xf_dpop *op)
{
    Agnode_t *src, *old, *t;
    switch (op->kind) {
    case XF_DP_SETDERIV:
    case XF_DP_SETNEGDERIV:
        src = lcg_read(l, &op->src);
        t = lcg_write(l, &op->tgt, false);
        return lcg_edge(l, src, t, op->kind == XF_DP_SETDERIV ? "1" : "-1");
    case XF_DP_INCDERIV:
    case XF_DP_DECDERIV:
        src = lcg_read(l, &op->src);
        old = lcg_read(l, &op->tgt);
        t = lcg_write(l, &op->tgt, false);
        return lcg_edge(l, old, t, "1") &&
               lcg_edge(l, src, t, op->kind == XF_DP_INCDERIV ? "1" : "-1");
    case XF_DP_ZERODERIV:
        return lcg_write(l, &op->tgt, true) != NULL;
    case XF_DP_SAX:
    case XF_DP_SAXPY: {
        Agnode_t **xs = calloc(op->ax.n ? op->ax.n : 1, sizeof(Agnode_t *));
        if (!xs)
            return false;
        bool ok = true;
        for (uint32_t i = 0; i < op->ax.n && ok; i++) /* all reads before the write */
            ok = (xs[i] = lcg_read(l, &op->ax.v[i].x)) != NULL;
        old = ok && op->kind == XF_DP_SAXPY ? lcg_read(l, &op->y) : NULL;
        t = ok ? lcg_write(l, &op->y, false) : NULL;
        ok = ok && t;
        if (ok && op->kind == XF_DP_SAXPY)
            ok = lcg_edge(l, old, t, "1");
        for (uint32_t i = 0; i < op->ax.n && ok; i++) {
            char *a = malloc(DT_LINE_MAX);
            ok = a != NULL;
            if (ok)
                ok = lcg_edge(l, xs[i], t,
                              xf_dot_expr_text(&op->ax.v[i].a, UINT32_MAX, a, DT_LINE_MAX));
            free(a);
        }
        free(xs);
        return ok;
    }
    }
    return false;
}

/* Cluster @name with the LCG of block @v; returns false when out of memory. */
static bool
lcg_cluster(Agraph_t *G, const char *name, char prefix, const char *caption, const xf_cvertex *v,
            const xf_dot_opts *o)
{
    lcg l = {.prefix = prefix, .o = o};
    l.C = dt_subgraph(G, name);
    l.line = malloc(DT_LINE_MAX);
    bool ok = l.C && l.line;
    for (uint32_t i = 0; v && i < v->stmts.n && ok; i++) {
        const xf_stmt *s = v->stmts.v[i];
        if (s->kind == XF_STMT_DERIVPROP)
            for (uint32_t k = 0; k < s->u.dp.n && ok; k++)
                ok = lcg_op(&l, &s->u.dp.v[k]);
    }
    for (uint32_t i = 0; i < l.vars.n && ok; i++) /* the last version written: an output */
        if (l.vars.v[i].written && !l.vars.v[i].temp && l.vars.v[i].cur)
            dt_set(l.vars.v[i].cur, "fillcolor", "#d9ead3");
    if (ok && l.nodes == 0) {
        char n[32];
        snprintf(n, sizeof n, "%cnone", prefix);
        Agnode_t *none = dt_node(l.C, n);
        ok = none != NULL;
        if (ok) {
            dt_set(none, "label", "no derivative propagation");
            dt_set(none, "shape", "plaintext");
        }
    }
    if (ok) {
        char text[600];
        snprintf(text, sizeof text, "%s: %" PRIu32 " %s, %" PRIu32 " edge%s", caption, l.nodes,
                 l.nodes == 1 ? "vertex" : "vertices", l.edges, l.edges == 1 ? "" : "s");
        dt_lbl_reset(&l.b);
        dt_put_esc(&l.b, text, 0);
        dt_set(l.C, "label", dt_lbl_text(&l.b));
        dt_set(l.C, "style", "rounded");
        dt_set(l.C, "color", "#999999");
    }
    ok = ok && !l.b.oom;
    for (uint32_t i = 0; i < l.vars.n; i++)
        free(l.vars.v[i].key);
    free(l.vars.v);
    free(l.line);
    free(l.b.p);
    return ok;
}

Agraph_t *
xf_dot_lcg(const xf_doc *before, const xf_doc *after, const xf_dot_opts *o, xf_diag *diag)
{
    dt_sel s;
    static const dt_need want = {has_propagation,
                                 "no derivative propagation to draw (no active assignment, or only "
                                 "ZeroDeriv)",
                                 "derivative propagation"};
    if (dt_select(before, o, &want, &s, diag) != 0)
        return NULL;
    /* the same routine, placeholder and block in the other document */
    const xf_routine *ra = dt_find_routine(after, dt_routine_name(s.r));
    const char *ph = NULL;
    const xf_graph *ga = ra ? dt_routine_graph(ra, o->placeholder, &ph) : NULL;
    const xf_cvertex *va = ga && s.block->id ? dt_find_block(ga, s.block->id) : NULL;
    if (!va) {
        xf_error(diag, after->filename, 0, "routine %s has no BasicBlock %s after preaccumulate",
                 dt_routine_name(s.r), s.block->id ? s.block->id : "?");
        return NULL;
    }
    char title[400], tail[300];
    snprintf(tail, sizeof tail, ", BasicBlock %s: linearized computational graph",
             s.block->id ? s.block->id : "?");
    dt_graph_title(&s, tail, title, sizeof title);
    Agraph_t *G = dt_new_graph(title, before, diag);
    if (!G)
        return NULL;
    char cap[300];
    snprintf(cap, sizeof cap, "after: convert, linearize, preaccumulate%s%s%s", o->note ? " (" : "",
             o->note ? o->note : "", o->note ? ")" : "");
    bool ok = lcg_cluster(G, "cluster_before", 'b', "before: convert, linearize", s.block, o) &&
              lcg_cluster(G, "cluster_after", 'a', cap, va, o);
    if (!ok) {
        xf_gv()->agclose(G);
        xf_error(diag, before->filename, 0, "out of memory");
        return NULL;
    }
    return G;
}
