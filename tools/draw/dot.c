/* dot.c: what the pictures share (label text for graphviz, graph making,
 * choosing the routine and block; dot_impl.h) and the pictures of the call
 * graph and of one routine's control flow. dot_expr.c draws expressions,
 * dot_lcg.c linearized computational graphs; dot_render.c lays a graph out
 * and writes it. See dot.h. */
#include "dot_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

/* ------------------------------------------------------------ labels */

void
dt_put_n(dt_lbl *b, const char *s, size_t k)
{
    if (b->oom)
        return;
    if (b->n + k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + k + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, k);
    b->n += k;
    b->p[b->n] = 0;
}

void
dt_put_s(dt_lbl *b, const char *s)
{
    dt_put_n(b, s, strlen(s));
}

/* @s escaped for a graphviz label: a backslash starts an escape there
 * ("\l", "\N"), so a literal one is doubled. At most @width characters
 * (UTF-8 sequences kept whole); a longer text ends in "...". */
void
dt_put_esc(dt_lbl *b, const char *s, unsigned width)
{
    size_t len = strlen(s), keep = len;
    bool cut = false;
    if (width) {
        size_t chars = 0, i = 0;
        for (; i < len; i++)
            if (((unsigned char)s[i] & 0xC0) != 0x80 && ++chars > width)
                break;
        if (i < len) {
            /* room for "..." */
            size_t want = width > 3 ? width - 3 : 0;
            chars = 0;
            for (i = 0; i < len; i++)
                if (((unsigned char)s[i] & 0xC0) != 0x80 && ++chars > want)
                    break;
            keep = i;
            cut = true;
        }
    }
    for (size_t i = 0; i < keep; i++)
        dt_put_n(b, s[i] == '\\' ? "\\\\" : &s[i], s[i] == '\\' ? 2 : 1);
    if (cut)
        dt_put_s(b, "...");
}

/* One left-justified line. */
void
dt_put_line(dt_lbl *b, const char *s, unsigned width)
{
    dt_put_esc(b, s, width);
    dt_put_s(b, "\\l");
}

const char *
dt_lbl_text(const dt_lbl *b)
{
    return b->p ? b->p : "";
}

void
dt_lbl_reset(dt_lbl *b)
{
    b->n = 0;
    if (b->p)
        b->p[0] = 0;
}

/* ------------------------------------------------------------ graphs */

/* Set attribute @name of a graph, node or edge (declared on first use, with
 * an empty default). cgraph's prototypes take char *; it copies the text. */
void
dt_set(void *obj, const char *name, const char *value)
{
    xf_gv()->agsafeset(obj, (char *)name, (char *)value, (char *)"");
}

Agnode_t *
dt_node(Agraph_t *g, const char *name)
{
    return xf_gv()->agnode(g, (char *)name, 1);
}

Agedge_t *
dt_edge(Agraph_t *g, Agnode_t *t, Agnode_t *h, const char *label)
{
    Agedge_t *e = xf_gv()->agedge(g, t, h, NULL, 1);
    if (e && label)
        dt_set(e, "label", label);
    return e;
}

Agraph_t *
dt_subgraph(Agraph_t *g, const char *name)
{
    return xf_gv()->agsubg(g, (char *)name, 1);
}

/* A new directed graph titled @title (escaped here), with the project's
 * fonts: code in a monospace face, the rest in a sans-serif one. Every
 * graph starts here, so graphviz is opened here at its first use. */
Agraph_t *
dt_new_graph(const char *title, const xf_doc *doc, xf_diag *diag)
{
    const xf_gv_api *gv = xf_gv_load(diag);
    if (!gv)
        return NULL;
    Agraph_t *g = gv->agopen((char *)"xaiform", *gv->Agdirected, NULL);
    if (!g) {
        xf_error(diag, doc->filename, 0, "graphviz cannot create a graph");
        return NULL;
    }
    xf_gv()->agattr(g, AGRAPH, (char *)"label", (char *)"");
    xf_gv()->agattr(g, AGNODE, (char *)"label", (char *)"\\N");
    xf_gv()->agattr(g, AGNODE, (char *)"shape", (char *)"box");
    xf_gv()->agattr(g, AGNODE, (char *)"fontname", (char *)"Courier");
    xf_gv()->agattr(g, AGNODE, (char *)"fontsize", (char *)"10");
    xf_gv()->agattr(g, AGEDGE, (char *)"fontname", (char *)"Helvetica");
    xf_gv()->agattr(g, AGEDGE, (char *)"fontsize", (char *)"9");
    xf_gv()->agattr(g, AGRAPH, (char *)"fontname", (char *)"Helvetica");
    xf_gv()->agattr(g, AGRAPH, (char *)"fontsize", (char *)"12");
    xf_gv()->agattr(g, AGRAPH, (char *)"labeljust", (char *)"l");
    dt_lbl b = {0};
    dt_put_esc(&b, title, 0);
    dt_set(g, "label", dt_lbl_text(&b));
    dt_set(g, "labelloc", "t");
    free(b.p);
    if (b.oom) {
        xf_gv()->agclose(g);
        xf_error(diag, doc->filename, 0, "out of memory");
        return NULL;
    }
    return g;
}

/* ------------------------------------------------------------ selection */

const char *
dt_routine_name(const xf_routine *r)
{
    return r->sym && r->sym->id ? r->sym->id : r->id ? r->id : "?";
}

static bool
graph_empty(const xf_graph *g)
{
    return g->v.n == 0;
}

/* The graph of @r to draw: its ControlFlowGraph, or of a ReplacementList
 * Replacement @ph (0: "1" if it is not empty, else the first non-empty).
 * *@phname gets the placeholder drawn (NULL for a ControlFlowGraph). */
const xf_graph *
dt_routine_graph(const xf_routine *r, int64_t ph, const char **phname)
{
    *phname = NULL;
    if (!r->is_rlist)
        return ph ? NULL : &r->g;
    char want[32];
    snprintf(want, sizeof want, "%" PRId64, ph ? ph : 1);
    const xf_replacement *pick = NULL;
    for (uint32_t i = 0; i < r->reps.n && !pick; i++)
        if (r->reps.v[i]->placeholder && !strcmp(r->reps.v[i]->placeholder, want))
            pick = r->reps.v[i];
    if (!ph && (!pick || graph_empty(&pick->g)))
        for (uint32_t i = 0; i < r->reps.n; i++)
            if (!graph_empty(&r->reps.v[i]->g)) {
                pick = r->reps.v[i];
                break;
            }
    if (!pick && !ph && r->reps.n)
        pick = r->reps.v[0];
    if (!pick)
        return NULL;
    *phname = pick->placeholder ? pick->placeholder : "?";
    return &pick->g;
}

static bool
has_statement(const xf_cvertex *v)
{
    for (uint32_t i = 0; i < v->stmts.n; i++)
        if (v->stmts.v[i]->kind != XF_STMT_MARKER)
            return true;
    return false;
}

static const xf_cvertex *
first_block(const xf_graph *g, dt_block_pred want)
{
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i]->kind == XF_CV_BASICBLOCK && want(g->v.v[i]))
            return g->v.v[i];
    return NULL;
}

const xf_cvertex *
dt_find_block(const xf_graph *g, const char *id)
{
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i]->id && !strcmp(g->v.v[i]->id, id))
            return g->v.v[i];
    return NULL;
}

const xf_routine *
dt_find_routine(const xf_doc *doc, const char *name)
{
    for (uint32_t i = 0; i < doc->cg.routines.n; i++) {
        const xf_routine *r = doc->cg.routines.v[i];
        if (r->sym && r->sym->id && !strcmp(r->sym->id, name))
            return r;
    }
    for (uint32_t i = 0; i < doc->cg.routines.n; i++) {
        const xf_routine *r = doc->cg.routines.v[i];
        if (r->id && !strcmp(r->id, name))
            return r;
    }
    return NULL;
}

static int
select_in(const xf_doc *doc, const xf_routine *r, const xf_dot_opts *o, const dt_need *want,
          dt_sel *s, xf_diag *diag)
{
    s->r = r;
    s->g = dt_routine_graph(r, o->placeholder, &s->ph);
    if (!s->g) {
        if (!r->is_rlist)
            xf_error(diag, doc->filename, r->h.line,
                     "routine %s is a ControlFlowGraph: it has no placeholders",
                     dt_routine_name(r));
        else
            xf_error(diag, doc->filename, r->h.line, "routine %s has no placeholder %" PRId64,
                     dt_routine_name(r), o->placeholder);
        return -1;
    }
    if (!want)
        return 0;
    if (o->block) {
        s->block = dt_find_block(s->g, o->block);
        if (!s->block || s->block->kind != XF_CV_BASICBLOCK) {
            xf_error(diag, doc->filename, r->h.line, "routine %s has no BasicBlock %s",
                     dt_routine_name(r), o->block);
            return -1;
        }
        if (!want->pred(s->block)) {
            xf_error(diag, doc->filename, s->block->h.line, "BasicBlock %s of routine %s has %s",
                     o->block, dt_routine_name(r), want->none);
            return -1;
        }
        return 0;
    }
    s->block = first_block(s->g, want->pred);
    if (!s->block) {
        xf_error(diag, doc->filename, r->h.line, "routine %s has no BasicBlock with %s",
                 dt_routine_name(r), want->some);
        return -1;
    }
    return 0;
}

/* Pick the routine (@o->routine, or the first one whose graph has a block
 * that @want (or has_statement) accepts; with @o->block, the first that has
 * that block) and, when @want is given, the block. */
int
dt_select(const xf_doc *doc, const xf_dot_opts *o, const dt_need *want, dt_sel *s, xf_diag *diag)
{
    memset(s, 0, sizeof *s);
    if (doc->kind != XF_DOC_CALLGRAPH) {
        xf_error(diag, doc->filename, 0, "an intrinsics catalogue has no routines to draw");
        return -1;
    }
    if (o->routine) {
        const xf_routine *r;
        char msg[400];
        if (xf_routine_lookup(doc, o->routine, NULL, NULL, &r, msg, sizeof msg) != 1) {
            xf_error(diag, doc->filename, 0, "%s", msg);
            return -1;
        }
        return select_in(doc, r, o, want, s, diag);
    }
    dt_block_pred look = want ? want->pred : has_statement;
    for (uint32_t i = 0; i < doc->cg.routines.n; i++) {
        const xf_routine *r = doc->cg.routines.v[i];
        const char *ph;
        const xf_graph *g = dt_routine_graph(r, o->placeholder, &ph);
        if (!g)
            continue;
        const xf_cvertex *b = o->block ? dt_find_block(g, o->block) : first_block(g, look);
        if (b && b->kind == XF_CV_BASICBLOCK)
            return select_in(doc, r, o, want, s, diag);
    }
    if (o->block)
        xf_error(diag, doc->filename, 0, "no routine has a BasicBlock %s", o->block);
    else
        xf_error(diag, doc->filename, 0, "no routine has a BasicBlock with %s",
                 want ? want->some : "a statement");
    return -1;
}

/* "ROUTINE" or "ROUTINE, placeholder N" */
void
dt_graph_title(const dt_sel *s, const char *tail, char *buf, size_t len)
{
    if (s->ph)
        snprintf(buf, len, "%s, placeholder %s%s", dt_routine_name(s->r), s->ph, tail);
    else
        snprintf(buf, len, "%s%s", dt_routine_name(s->r), tail);
}

/* ------------------------------------------------------------ call graph */

typedef struct callee {
    const char *name; /* a routine's node name, or an undefined routine's symbol */
    Agnode_t *n;
    uint64_t sites;
} callee;

static void
count_calls(const xf_graph *g, const xf_doc *doc, Agraph_t *G, Agnode_t **rnode, callee **cs,
            uint32_t *ncs, uint32_t *cap, bool *oom)
{
    for (uint32_t i = 0; i < g->v.n; i++)
        for (uint32_t k = 0; k < g->v.v[i]->stmts.n; k++) {
            const xf_stmt *st = g->v.v[i]->stmts.v[k];
            if (st->kind != XF_STMT_CALL || !st->u.call.sym)
                continue;
            const xf_symbol *sym = st->u.call.sym;
            Agnode_t *to = NULL;
            for (uint32_t r = 0; r < doc->cg.routines.n && !to; r++)
                if (doc->cg.routines.v[r]->sym == sym)
                    to = rnode[r];
            char name[300];
            if (!to) { /* a routine the document does not define */
                snprintf(name, sizeof name, "extern %s", sym->id);
                to = xf_gv()->agnode(G, name, 0);
                if (!to) {
                    to = dt_node(G, name);
                    if (!to) {
                        *oom = true;
                        return;
                    }
                    dt_lbl b = {0};
                    dt_put_esc(&b, sym->id, 0);
                    dt_put_s(&b, "\\n(not in this file)");
                    dt_set(to, "label", dt_lbl_text(&b));
                    dt_set(to, "style", "dashed");
                    *oom |= b.oom;
                    free(b.p);
                }
            }
            uint32_t j = 0;
            while (j < *ncs && (*cs)[j].n != to)
                j++;
            if (j == *ncs) {
                if (*ncs == *cap) {
                    uint32_t nc = *cap ? 2 * *cap : 8;
                    callee *p = realloc(*cs, nc * sizeof *p);
                    if (!p) {
                        *oom = true;
                        return;
                    }
                    *cs = p;
                    *cap = nc;
                }
                (*cs)[(*ncs)++] = (callee){NULL, to, 0};
            }
            (*cs)[j].sites++;
        }
}

Agraph_t *
xf_dot_callgraph(const xf_doc *doc, const xf_dot_opts *o, xf_diag *diag)
{
    (void)o;
    if (doc->kind != XF_DOC_CALLGRAPH) {
        xf_error(diag, doc->filename, 0, "an intrinsics catalogue has no call graph");
        return NULL;
    }
    const char *file = doc->filename ? doc->filename : "?";
    const char *slash = strrchr(file, '/');
    char title[300];
    snprintf(title, sizeof title, "%s: call graph (edges: call sites)", slash ? slash + 1 : file);
    Agraph_t *G = dt_new_graph(title, doc, diag);
    if (!G)
        return NULL;
    uint32_t nr = doc->cg.routines.n;
    Agnode_t **rnode = calloc(nr ? nr : 1, sizeof(Agnode_t *));
    bool oom = !rnode;
    dt_set(G, "rankdir", "LR");
    for (uint32_t i = 0; i < nr && !oom; i++) {
        const xf_routine *r = doc->cg.routines.v[i];
        char name[32];
        snprintf(name, sizeof name, "r%" PRIu32, i);
        rnode[i] = dt_node(G, name);
        if (!rnode[i]) {
            oom = true;
            break;
        }
        dt_lbl b = {0};
        dt_put_esc(&b, dt_routine_name(r), 0);
        if (r->is_rlist)
            dt_put_s(&b, "\\n(ReplacementList)");
        dt_set(rnode[i], "label", dt_lbl_text(&b));
        dt_set(rnode[i], "fontname", "Helvetica");
        dt_set(rnode[i], "style", "rounded,filled");
        dt_set(rnode[i], "fillcolor", r->is_rlist ? "#e8e0f8" : "#fff8dc");
        oom |= b.oom;
        free(b.p);
    }
    callee *cs = NULL;
    uint32_t cap = 0;
    for (uint32_t i = 0; i < nr && !oom; i++) {
        const xf_routine *r = doc->cg.routines.v[i];
        uint32_t ncs = 0;
        if (r->is_rlist)
            for (uint32_t k = 0; k < r->reps.n; k++)
                count_calls(&r->reps.v[k]->g, doc, G, rnode, &cs, &ncs, &cap, &oom);
        else
            count_calls(&r->g, doc, G, rnode, &cs, &ncs, &cap, &oom);
        for (uint32_t j = 0; j < ncs && !oom; j++) {
            char n[32];
            snprintf(n, sizeof n, "%" PRIu64, cs[j].sites);
            oom |= !dt_edge(G, rnode[i], cs[j].n, n);
        }
    }
    free(cs);
    free(rnode);
    if (oom) {
        xf_gv()->agclose(G);
        xf_error(diag, doc->filename, 0, "out of memory");
        return NULL;
    }
    return G;
}

/* ------------------------------------------------------------ control flow */

/* The statements of a block, one line each (a DerivativePropagator one per
 * operation, a run of Markers one line), at most @o->max_lines of them. */
static void
block_lines(dt_lbl *b, const xf_cvertex *v, const xf_dot_opts *o, char *line)
{
    uint64_t total = 0, shown = 0;
    for (uint32_t i = 0; i < v->stmts.n; i++) {
        const xf_stmt *s = v->stmts.v[i];
        uint32_t nl = 1;
        char tmp[32];
        if (s->kind == XF_STMT_MARKER) {
            uint32_t run = 1;
            while (i + run < v->stmts.n && v->stmts.v[i + run]->kind == XF_STMT_MARKER)
                run++;
            i += run - 1;
            if (run > 1)
                snprintf(tmp, sizeof tmp, "%" PRIu32 " markers", run);
            else
                snprintf(tmp, sizeof tmp, "marker");
            total++;
            if (!o->max_lines || shown < o->max_lines) {
                dt_put_line(b, tmp, o->width);
                shown++;
            }
            continue;
        }
        nl = xf_dot_stmt_lines(s);
        for (uint32_t k = 0; k < nl; k++) {
            total++;
            if (o->max_lines && shown >= o->max_lines)
                continue;
            dt_put_line(b, xf_dot_stmt_text(s, k, line, DT_LINE_MAX), o->width);
            shown++;
        }
    }
    if (total > shown) {
        char tmp[48];
        snprintf(tmp, sizeof tmp, "... (%" PRIu64 " more)", total - shown);
        dt_put_line(b, tmp, 0);
    }
}

static void
cfg_vertex(Agnode_t *n, const xf_cvertex *v, const xf_dot_opts *o, char *line, dt_lbl *b)
{
    dt_lbl_reset(b);
    char head[300];
    snprintf(head, sizeof head, "%s %s", xf_cvkind_name(v->kind), v->id ? v->id : "?");
    dt_put_line(b, head, 0);
    const char *shape = "box", *style = "rounded,filled", *fill = "#eeeeee";
    switch (v->kind) {
    case XF_CV_ENTRY:
    case XF_CV_EXIT:
        shape = "ellipse";
        style = "filled";
        fill = "#d0d0d0";
        break;
    case XF_CV_BASICBLOCK:
        style = "filled";
        fill = "#fff8dc";
        block_lines(b, v, o, line);
        break;
    case XF_CV_FORLOOP:
        fill = "#dbe9f9";
        if (v->init) {
            snprintf(head, sizeof head, "init   ");
            dt_put_esc(b, head, 0);
            dt_put_line(b, xf_dot_stmt_text(v->init, 0, line, DT_LINE_MAX), o->width);
        }
        if (v->cond) {
            dt_put_esc(b, "while  ", 0);
            dt_put_line(b, xf_dot_expr_text(v->cond, UINT32_MAX, line, DT_LINE_MAX), o->width);
        }
        if (v->update) {
            dt_put_esc(b, "update ", 0);
            dt_put_line(b, xf_dot_stmt_text(v->update, 0, line, DT_LINE_MAX), o->width);
        }
        break;
    case XF_CV_PRELOOP:
    case XF_CV_POSTLOOP:
        fill = "#dbe9f9";
        if (v->cond) {
            dt_put_esc(b, v->kind == XF_CV_PRELOOP ? "while " : "condition ", 0);
            dt_put_line(b, xf_dot_expr_text(v->cond, UINT32_MAX, line, DT_LINE_MAX), o->width);
        }
        break;
    case XF_CV_IF:
    case XF_CV_BRANCH:
        fill = "#e3f4e3";
        if (v->cond)
            dt_put_line(b, xf_dot_expr_text(v->cond, UINT32_MAX, line, DT_LINE_MAX), o->width);
        break;
    case XF_CV_ENDBRANCH:
    case XF_CV_ENDLOOP:
    case XF_CV_LABEL:
    case XF_CV_GOTO:
        shape = "box";
        fill = "#f4f4f4";
        break;
    }
    dt_set(n, "label", dt_lbl_text(b));
    dt_set(n, "shape", shape);
    dt_set(n, "style", style);
    dt_set(n, "fillcolor", fill);
}

Agraph_t *
xf_dot_cfg(const xf_doc *doc, const xf_dot_opts *o, xf_diag *diag)
{
    dt_sel s;
    if (dt_select(doc, o, NULL, &s, diag) != 0)
        return NULL;
    char title[400];
    dt_graph_title(&s, ": control flow", title, sizeof title);
    Agraph_t *G = dt_new_graph(title, doc, diag);
    if (!G)
        return NULL;
    const xf_graph *g = s.g;
    Agnode_t **nodes = calloc(g->v.n ? g->v.n : 1, sizeof(Agnode_t *));
    char *line = malloc(DT_LINE_MAX);
    dt_lbl b = {0};
    bool oom = !nodes || !line;
    for (uint32_t i = 0; i < g->v.n && !oom; i++) {
        char name[32];
        snprintf(name, sizeof name, "v%" PRIu32, i);
        nodes[i] = dt_node(G, name);
        if (!nodes[i]) {
            oom = true;
            break;
        }
        cfg_vertex(nodes[i], g->v.v[i], o, line, &b);
        oom |= b.oom;
    }
    for (uint32_t i = 0; i < g->e.n && !oom; i++) {
        const xf_cedge *e = g->e.v[i];
        if (!e->src || !e->tgt || e->src->index >= g->v.n || e->tgt->index >= g->v.n)
            continue; /* unresolved (a lenient reading) */
        char cv[32];
        bool has = xf_flag_is(e->has_cv, false) && e->cv != XF_NOINT;
        if (has)
            snprintf(cv, sizeof cv, "%" PRId64, e->cv);
        oom |= !dt_edge(G, nodes[e->src->index], nodes[e->tgt->index], has ? cv : NULL);
    }
    free(b.p);
    free(line);
    free(nodes);
    if (oom) {
        xf_gv()->agclose(G);
        xf_error(diag, doc->filename, 0, "out of memory");
        return NULL;
    }
    return G;
}
