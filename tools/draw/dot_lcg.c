/* dot_lcg.c: the linearized computational graphs of one basic block, as
 * preaccumulate builds them (transforms/core/lcg.h), one cluster per sequence,
 * and optionally after vertex elimination (transforms/core/elim.h)
 * (xaiform dot --what lcg). See dot.h. */
#include "dot_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elim.h"
#include "lcg.h"
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
xf_dot_lcg_prepare(xf_doc *doc, const xf_doc *cat, const xf_doc *direct, xf_diag *diag)
{
    const xf_pass *passes[8];
    char err[300];
    int n = xf_pipeline_parse("convert,linearize", passes, 8, err, sizeof err);
    if (n < 0) {
        xf_internal(diag, err);
        return -1;
    }
    xf_opts opts;
    xf_pm_opts_init(&opts);
    xf_pass_ctx c = {.doc = doc, .opts = &opts, .diag = diag, .catalogue = cat, .direct = direct};
    return xf_pipeline_run(&c, passes, n);
}

/* Labels of eliminated edges are built as text: a weight whose var is
 * not NULL is an OpenAD_lin_* variable, or a "symbol" of ours whose id is
 * the product or sum written out, kept in the graph's arena. */
enum { TEXT_MAX = 240 };

typedef struct draw {
    Agraph_t *G;
    const xf_dot_opts *o;
    bool eliminated; /* after elimination in order, or the graph as built */
    xf_elim_order order;
    unsigned nseq;
    char *line;
    dt_lbl b;
    bool oom;
} draw;

/* @w's text: "2", "OpenAD_lin_3", "-1*OpenAD_lin_3". */
static void
wt_text(const xf_lcg_wt *w, char *buf, size_t len)
{
    if (!w->var)
        snprintf(buf, len, "%.15g", w->c);
    else if (w->c == 1.0)
        snprintf(buf, len, "%s", w->var->id);
    else
        snprintf(buf, len, "%.15g*%s", w->c, w->var->id);
}

/* A weight standing for @text. */
static int
text_weight(xf_lcg *g, const char *text, double c, xf_lcg_wt *out)
{
    size_t n = strlen(text);
    if (n > TEXT_MAX)
        n = TEXT_MAX;
    xf_symbol *s = XF_NEW(g->a, xf_symbol);
    char *id = xf_arena_alloc(g->a, n + 4);
    if (!s || !id)
        return xf_lcg_oom(g);
    memcpy(id, text, n);
    strcpy(id + n, n == TEXT_MAX ? "..." : "");
    s->id = id;
    *out = (xf_lcg_wt){.c = c, .var = s};
    return 0;
}

static int
text_product(void *ctx, const xf_lcg_wt *a, const xf_lcg_wt *b, xf_lcg_wt *out)
{
    if (!a->var || !b->var) {
        *out = (xf_lcg_wt){.c = a->c * b->c, .var = a->var ? a->var : b->var};
        return 0;
    }
    char t[2 * TEXT_MAX + 16];
    bool pa = strstr(a->var->id, " + ") != NULL, pb = strstr(b->var->id, " + ") != NULL;
    snprintf(t, sizeof t, "%s%s%s*%s%s%s", pa ? "(" : "", a->var->id, pa ? ")" : "", pb ? "(" : "",
             b->var->id, pb ? ")" : "");
    return text_weight(ctx, t, a->c * b->c, out);
}

static int
text_sum(void *ctx, const xf_lcg_wt *a, const xf_lcg_wt *b, xf_lcg_wt *out)
{
    if (!a->var && !b->var) {
        *out = (xf_lcg_wt){.c = a->c + b->c};
        return 0;
    }
    char ta[TEXT_MAX + 32], tb[TEXT_MAX + 32], t[2 * TEXT_MAX + 80];
    wt_text(a, ta, sizeof ta);
    wt_text(b, tb, sizeof tb);
    snprintf(t, sizeof t, "%s + %s", ta, tb);
    return text_weight(ctx, t, 1.0, out);
}

/* The label of vertex @v: its location, its version when the location has
 * more than one in the graph, " = 0" when it is zeroed. */
static void
vertex_label(draw *d, const xf_lcg *g, uint32_t v, const uint32_t *version, bool zero)
{
    dt_lbl_reset(&d->b);
    const xf_lcg_loc *l = &g->locs.v[g->vs.v[v].loc];
    dt_put_esc(&d->b, xf_dot_ref_text(l->ref, d->line, DT_LINE_MAX), d->o->width);
    if (version[v] > 1) {
        char ver[32];
        snprintf(ver, sizeof ver, " (%" PRIu32 ")", version[v]);
        dt_put_s(&d->b, ver);
    }
    if (zero)
        dt_put_s(&d->b, " = 0");
}

/* Is vertex @v drawn? Not when eliminated. */
static bool
drawn(const xf_lcg *g, uint32_t v)
{
    return !g->vs.v[v].gone;
}

/* The sequence in @w->g as cluster_N. */
static int
cluster(draw *d, xf_lcg *g)
{
    unsigned k = ++d->nseq;
    char name[48], text[160];
    snprintf(name, sizeof name, "cluster_%u", k);
    Agraph_t *C = dt_subgraph(d->G, name);
    uint32_t n = g->vs.n;
    Agnode_t **nodes = calloc(n ? n : 1, sizeof *nodes);
    uint32_t *version = calloc(n ? n : 1, sizeof *version);
    uint32_t *seen = calloc(g->locs.n ? g->locs.n : 1, sizeof *seen);
    bool ok = C && nodes && version && seen;
    for (uint32_t v = 0; v < n && ok; v++) /* versions in the order of the statements */
        version[v] = ++seen[g->vs.v[v].loc];
    uint32_t nv = 0, ne = 0;
    for (uint32_t v = 0; v < n && ok; v++) {
        if (!drawn(g, v))
            continue;
        const xf_lcg_vx *x = &g->vs.v[v];
        bool zero = !x->indep && x->in.n == 0;
        snprintf(name, sizeof name, "s%u_%" PRIu32, k, v);
        ok = (nodes[v] = dt_node(C, name)) != NULL;
        if (!ok)
            break;
        nv++;
        vertex_label(d, g, v, version, zero);
        dt_set(nodes[v], "label", dt_lbl_text(&d->b));
        dt_set(nodes[v], "style", zero ? "filled,dashed" : "filled");
        /* independent blue, dependent (its value needed after) green */
        dt_set(nodes[v], "fillcolor",
               x->indep                ? "#cfe2f3"
               : x->final && x->output ? "#d9ead3"
                                       : "white");
    }
    for (uint32_t i = 0; i < g->es.n && ok; i++) {
        const xf_lcg_ed *e = &g->es.v[i];
        if (e->dead || !nodes[e->src] || !nodes[e->tgt])
            continue;
        char w[TEXT_MAX + 32];
        wt_text(&e->w, w, sizeof w);
        dt_lbl_reset(&d->b);
        dt_put_esc(&d->b, w, d->o->width);
        ok = dt_edge(C, nodes[e->src], nodes[e->tgt], dt_lbl_text(&d->b)) != NULL;
        ne++;
    }
    if (ok) {
        const char *vs = nv == 1 ? "vertex" : "vertices", *es = ne == 1 ? "" : "s";
        if (!d->eliminated)
            snprintf(text, sizeof text, "sequence %u: %" PRIu32 " %s, %" PRIu32 " edge%s", k, nv,
                     vs, ne, es);
        else
            snprintf(text, sizeof text,
                     "sequence %u after %s elimination: %" PRIu32 " %s, %" PRIu32 " edge%s", k,
                     xf_elim_order_name(d->order), nv, vs, ne, es);
        dt_lbl_reset(&d->b);
        dt_put_esc(&d->b, text, 0);
        dt_set(C, "label", dt_lbl_text(&d->b));
        dt_set(C, "style", "rounded");
        dt_set(C, "color", "#999999");
    }
    free(nodes);
    free(version);
    free(seen);
    if (!ok || d->b.oom) {
        d->oom = true;
        return -1;
    }
    return 0;
}

/* A sequence of the walk (xf_lcg_sink): eliminated if asked, then drawn. */
static int
sequence(void *ctx, xf_lcg_walk *w)
{
    draw *d = ctx;
    if (d->eliminated) {
        const xf_elim_algebra alg = {.ctx = &w->g, .product = text_product, .sum = text_sum};
        if (xf_elim_run(&w->g, d->order, &alg, NULL))
            return -1;
    }
    return cluster(d, &w->g);
}

Agraph_t *
xf_dot_lcg(xf_doc *doc, const xf_dot_opts *o, xf_diag *diag)
{
    dt_sel s;
    static const dt_need want = {has_propagation,
                                 "no derivative propagation to draw (no active assignment, or only "
                                 "ZeroDeriv)",
                                 "derivative propagation"};
    if (dt_select(doc, o, &want, &s, diag) != 0)
        return NULL;
    char title[400], tail[300];
    snprintf(tail, sizeof tail, ", BasicBlock %s: linearized computational graph",
             s.block->id ? s.block->id : "?");
    dt_graph_title(&s, tail, title, sizeof title);
    Agraph_t *G = dt_new_graph(title, doc, diag);
    if (!G)
        return NULL;
    draw d = {.G = G, .o = o, .eliminated = o->eliminated, .order = o->order};
    d.line = malloc(DT_LINE_MAX);
    xf_arena *a = xf_arena_new();
    xf_lcg_walk w;
    int ret = -1;
    if (d.line && a && xf_lcg_walk_init(&w, doc, a, diag) == 0) {
        const xf_lcg_sink sink = {.ctx = &d, .sequence = sequence};
        ret = xf_lcg_walk_block(&w, s.block, &sink);
        xf_lcg_walk_fini(&w);
    } else
        d.oom = true;
    xf_arena_free(a);
    free(d.line);
    free(d.b.p);
    if (ret == 0 && d.nseq == 0) {
        Agnode_t *none = dt_node(G, "none");
        if (none) {
            dt_set(none, "label", "no sequence: the propagation cannot be preaccumulated");
            dt_set(none, "shape", "plaintext");
        } else
            d.oom = true;
    }
    if (ret != 0 || d.oom) {
        xf_gv()->agclose(G);
        if (d.oom)
            xf_error(diag, doc->filename, 0, "out of memory");
        return NULL;
    }
    return G;
}
