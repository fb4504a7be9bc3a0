/* dot.c: graphviz graphs (cgraph) of a document's call graph, one routine's
 * control flow, one basic block's expressions and its linearized
 * computational graph. Only the graph is built here; dot_render.c lays it
 * out and writes it. See dot.h. */
#include "dot.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"

/* Text of one statement line or expression before it is cut to the width. */
enum { LINE_MAX_BYTES = 4096 };

/* ------------------------------------------------------------ labels */

/* A growing label text (malloc'ed); after running out of memory, oom is set
 * and further text is dropped. */
typedef struct lbl {
    char *p;
    size_t n, cap;
    bool oom;
} lbl;

static void
put_n(lbl *b, const char *s, size_t k)
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

static void
put_s(lbl *b, const char *s)
{
    put_n(b, s, strlen(s));
}

/* @s escaped for a graphviz label: a backslash starts an escape there
 * ("\l", "\N"), so a literal one is doubled. At most @width characters
 * (UTF-8 sequences kept whole); a longer text ends in "...". */
static void
put_esc(lbl *b, const char *s, unsigned width)
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
        put_n(b, s[i] == '\\' ? "\\\\" : &s[i], s[i] == '\\' ? 2 : 1);
    if (cut)
        put_s(b, "...");
}

/* One left-justified line. */
static void
put_line(lbl *b, const char *s, unsigned width)
{
    put_esc(b, s, width);
    put_s(b, "\\l");
}

static const char *
lbl_text(const lbl *b)
{
    return b->p ? b->p : "";
}

static void
lbl_reset(lbl *b)
{
    b->n = 0;
    if (b->p)
        b->p[0] = 0;
}

/* ------------------------------------------------------------ graphs */

/* Set attribute @name of a graph, node or edge (declared on first use, with
 * an empty default). cgraph's prototypes take char *; it copies the text. */
static void
set(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, (char *)"");
}

static Agnode_t *
node(Agraph_t *g, const char *name)
{
    return agnode(g, (char *)name, 1);
}

static Agedge_t *
edge(Agraph_t *g, Agnode_t *t, Agnode_t *h, const char *label)
{
    Agedge_t *e = agedge(g, t, h, NULL, 1);
    if (e && label)
        set(e, "label", label);
    return e;
}

static Agraph_t *
subgraph(Agraph_t *g, const char *name)
{
    return agsubg(g, (char *)name, 1);
}

/* A new directed graph titled @title (escaped here), with the project's
 * fonts: code in a monospace face, the rest in a sans-serif one. */
static Agraph_t *
new_graph(const char *title, const xf_doc *doc, xf_diag *diag)
{
    Agraph_t *g = agopen((char *)"xaiform", Agdirected, NULL);
    if (!g) {
        xf_error(diag, doc->filename, 0, "graphviz cannot create a graph");
        return NULL;
    }
    agattr(g, AGRAPH, (char *)"label", (char *)"");
    agattr(g, AGNODE, (char *)"label", (char *)"\\N");
    agattr(g, AGNODE, (char *)"shape", (char *)"box");
    agattr(g, AGNODE, (char *)"fontname", (char *)"Courier");
    agattr(g, AGNODE, (char *)"fontsize", (char *)"10");
    agattr(g, AGEDGE, (char *)"fontname", (char *)"Helvetica");
    agattr(g, AGEDGE, (char *)"fontsize", (char *)"9");
    agattr(g, AGRAPH, (char *)"fontname", (char *)"Helvetica");
    agattr(g, AGRAPH, (char *)"fontsize", (char *)"12");
    agattr(g, AGRAPH, (char *)"labeljust", (char *)"l");
    lbl b = {0};
    put_esc(&b, title, 0);
    set(g, "label", lbl_text(&b));
    set(g, "labelloc", "t");
    free(b.p);
    if (b.oom) {
        agclose(g);
        xf_error(diag, doc->filename, 0, "out of memory");
        return NULL;
    }
    return g;
}

/* ------------------------------------------------------------ selection */

static const char *
routine_name(const xf_routine *r)
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
static const xf_graph *
routine_graph(const xf_routine *r, int64_t ph, const char **phname)
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

/* What a selection needs of a basic block, and how messages say it. */
typedef bool (*block_pred)(const xf_cvertex *v);
typedef struct need {
    block_pred pred;
    const char *none; /* "has no ..." */
    const char *some; /* "no BasicBlock with ..." */
} need;

static bool
has_statement(const xf_cvertex *v)
{
    for (uint32_t i = 0; i < v->stmts.n; i++)
        if (v->stmts.v[i]->kind != XF_STMT_MARKER)
            return true;
    return false;
}

static bool
has_assignment(const xf_cvertex *v)
{
    for (uint32_t i = 0; i < v->stmts.n; i++)
        if (v->stmts.v[i]->kind == XF_STMT_ASSIGN)
            return true;
    return false;
}

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

static const xf_cvertex *
first_block(const xf_graph *g, block_pred want)
{
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i]->kind == XF_CV_BASICBLOCK && want(g->v.v[i]))
            return g->v.v[i];
    return NULL;
}

static const xf_cvertex *
find_block(const xf_graph *g, const char *id)
{
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i]->id && !strcmp(g->v.v[i]->id, id))
            return g->v.v[i];
    return NULL;
}

static const xf_routine *
find_routine(const xf_doc *doc, const char *name)
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

/* "a, b, c" (as many routines as fit, then "..."), for messages. */
static void
routine_list(const xf_doc *doc, char *buf, size_t len)
{
    size_t n = 0;
    snprintf(buf, len, "%s", doc->cg.routines.n ? "" : "none");
    for (uint32_t i = 0; i < doc->cg.routines.n; i++) {
        const char *name = routine_name(doc->cg.routines.v[i]);
        if (n + strlen(name) + 7 >= len) { /* ", " name and room for ", ..." */
            snprintf(buf + n, len - n, "%s...", i ? ", " : "");
            return;
        }
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", name);
    }
}

/* What is drawn: a routine, its graph, and (when asked for) a block. */
typedef struct sel {
    const xf_routine *r;
    const xf_graph *g;
    const char *ph;          /* the placeholder drawn, or NULL */
    const xf_cvertex *block; /* when @want was given */
} sel;

static int
select_in(const xf_doc *doc, const xf_routine *r, const xf_dot_opts *o, const need *want, sel *s,
          xf_diag *diag)
{
    s->r = r;
    s->g = routine_graph(r, o->placeholder, &s->ph);
    if (!s->g) {
        if (!r->is_rlist)
            xf_error(diag, doc->filename, r->h.line,
                     "routine %s is a ControlFlowGraph: it has no placeholders", routine_name(r));
        else
            xf_error(diag, doc->filename, r->h.line, "routine %s has no placeholder %" PRId64,
                     routine_name(r), o->placeholder);
        return -1;
    }
    if (!want)
        return 0;
    if (o->block) {
        s->block = find_block(s->g, o->block);
        if (!s->block || s->block->kind != XF_CV_BASICBLOCK) {
            xf_error(diag, doc->filename, r->h.line, "routine %s has no BasicBlock %s",
                     routine_name(r), o->block);
            return -1;
        }
        if (!want->pred(s->block)) {
            xf_error(diag, doc->filename, s->block->h.line, "BasicBlock %s of routine %s has %s",
                     o->block, routine_name(r), want->none);
            return -1;
        }
        return 0;
    }
    s->block = first_block(s->g, want->pred);
    if (!s->block) {
        xf_error(diag, doc->filename, r->h.line, "routine %s has no BasicBlock with %s",
                 routine_name(r), want->some);
        return -1;
    }
    return 0;
}

/* Pick the routine (@o->routine, or the first one whose graph has a block
 * that @want (or has_statement) accepts; with @o->block, the first that has
 * that block) and, when @want is given, the block. */
static int
select_graph(const xf_doc *doc, const xf_dot_opts *o, const need *want, sel *s, xf_diag *diag)
{
    memset(s, 0, sizeof *s);
    if (doc->kind != XF_DOC_CALLGRAPH) {
        xf_error(diag, doc->filename, 0, "an intrinsics catalogue has no routines to draw");
        return -1;
    }
    if (o->routine) {
        const xf_routine *r = find_routine(doc, o->routine);
        if (!r) {
            char names[300];
            routine_list(doc, names, sizeof names);
            xf_error(diag, doc->filename, 0, "no routine named %s (routines: %s)", o->routine,
                     names);
            return -1;
        }
        return select_in(doc, r, o, want, s, diag);
    }
    block_pred look = want ? want->pred : has_statement;
    for (uint32_t i = 0; i < doc->cg.routines.n; i++) {
        const xf_routine *r = doc->cg.routines.v[i];
        const char *ph;
        const xf_graph *g = routine_graph(r, o->placeholder, &ph);
        if (!g)
            continue;
        const xf_cvertex *b = o->block ? find_block(g, o->block) : first_block(g, look);
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
static void
graph_title(const sel *s, const char *tail, char *buf, size_t len)
{
    if (s->ph)
        snprintf(buf, len, "%s, placeholder %s%s", routine_name(s->r), s->ph, tail);
    else
        snprintf(buf, len, "%s%s", routine_name(s->r), tail);
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
                to = agnode(G, name, 0);
                if (!to) {
                    to = node(G, name);
                    if (!to) {
                        *oom = true;
                        return;
                    }
                    lbl b = {0};
                    put_esc(&b, sym->id, 0);
                    put_s(&b, "\\n(not in this file)");
                    set(to, "label", lbl_text(&b));
                    set(to, "style", "dashed");
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
    Agraph_t *G = new_graph(title, doc, diag);
    if (!G)
        return NULL;
    uint32_t nr = doc->cg.routines.n;
    Agnode_t **rnode = calloc(nr ? nr : 1, sizeof *rnode);
    bool oom = !rnode;
    set(G, "rankdir", "LR");
    for (uint32_t i = 0; i < nr && !oom; i++) {
        const xf_routine *r = doc->cg.routines.v[i];
        char name[32];
        snprintf(name, sizeof name, "r%" PRIu32, i);
        rnode[i] = node(G, name);
        if (!rnode[i]) {
            oom = true;
            break;
        }
        lbl b = {0};
        put_esc(&b, routine_name(r), 0);
        if (r->is_rlist)
            put_s(&b, "\\n(ReplacementList)");
        set(rnode[i], "label", lbl_text(&b));
        set(rnode[i], "fontname", "Helvetica");
        set(rnode[i], "style", "rounded,filled");
        set(rnode[i], "fillcolor", r->is_rlist ? "#e8e0f8" : "#fff8dc");
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
            oom |= !edge(G, rnode[i], cs[j].n, n);
        }
    }
    free(cs);
    free(rnode);
    if (oom) {
        agclose(G);
        xf_error(diag, doc->filename, 0, "out of memory");
        return NULL;
    }
    return G;
}

/* ------------------------------------------------------------ control flow */

static const char *
cv_kind_name(xf_cvkind k)
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

/* The statements of a block, one line each (a DerivativePropagator one per
 * operation, a run of Markers one line), at most @o->max_lines of them. */
static void
block_lines(lbl *b, const xf_cvertex *v, const xf_dot_opts *o, char *line)
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
                put_line(b, tmp, o->width);
                shown++;
            }
            continue;
        }
        nl = xf_dot_stmt_lines(s);
        for (uint32_t k = 0; k < nl; k++) {
            total++;
            if (o->max_lines && shown >= o->max_lines)
                continue;
            put_line(b, xf_dot_stmt_text(s, k, line, LINE_MAX_BYTES), o->width);
            shown++;
        }
    }
    if (total > shown) {
        char tmp[48];
        snprintf(tmp, sizeof tmp, "... (%" PRIu64 " more)", total - shown);
        put_line(b, tmp, 0);
    }
}

static void
cfg_vertex(Agnode_t *n, const xf_cvertex *v, const xf_dot_opts *o, char *line, lbl *b)
{
    lbl_reset(b);
    char head[300];
    snprintf(head, sizeof head, "%s %s", cv_kind_name(v->kind), v->id ? v->id : "?");
    put_line(b, head, 0);
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
            put_esc(b, head, 0);
            put_line(b, xf_dot_stmt_text(v->init, 0, line, LINE_MAX_BYTES), o->width);
        }
        if (v->cond) {
            put_esc(b, "while  ", 0);
            put_line(b, xf_dot_expr_text(v->cond, UINT32_MAX, line, LINE_MAX_BYTES), o->width);
        }
        if (v->update) {
            put_esc(b, "update ", 0);
            put_line(b, xf_dot_stmt_text(v->update, 0, line, LINE_MAX_BYTES), o->width);
        }
        break;
    case XF_CV_PRELOOP:
    case XF_CV_POSTLOOP:
        fill = "#dbe9f9";
        if (v->cond) {
            put_esc(b, v->kind == XF_CV_PRELOOP ? "while " : "condition ", 0);
            put_line(b, xf_dot_expr_text(v->cond, UINT32_MAX, line, LINE_MAX_BYTES), o->width);
        }
        break;
    case XF_CV_IF:
    case XF_CV_BRANCH:
        fill = "#e3f4e3";
        if (v->cond)
            put_line(b, xf_dot_expr_text(v->cond, UINT32_MAX, line, LINE_MAX_BYTES), o->width);
        break;
    case XF_CV_ENDBRANCH:
    case XF_CV_ENDLOOP:
    case XF_CV_LABEL:
    case XF_CV_GOTO:
        shape = "box";
        fill = "#f4f4f4";
        break;
    }
    set(n, "label", lbl_text(b));
    set(n, "shape", shape);
    set(n, "style", style);
    set(n, "fillcolor", fill);
}

Agraph_t *
xf_dot_cfg(const xf_doc *doc, const xf_dot_opts *o, xf_diag *diag)
{
    sel s;
    if (select_graph(doc, o, NULL, &s, diag) != 0)
        return NULL;
    char title[400];
    graph_title(&s, ": control flow", title, sizeof title);
    Agraph_t *G = new_graph(title, doc, diag);
    if (!G)
        return NULL;
    const xf_graph *g = s.g;
    Agnode_t **nodes = calloc(g->v.n ? g->v.n : 1, sizeof *nodes);
    char *line = malloc(LINE_MAX_BYTES);
    lbl b = {0};
    bool oom = !nodes || !line;
    for (uint32_t i = 0; i < g->v.n && !oom; i++) {
        char name[32];
        snprintf(name, sizeof name, "v%" PRIu32, i);
        nodes[i] = node(G, name);
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
        oom |= !edge(G, nodes[e->src->index], nodes[e->tgt->index], has ? cv : NULL);
    }
    free(b.p);
    free(line);
    free(nodes);
    if (oom) {
        agclose(G);
        xf_error(diag, doc->filename, 0, "out of memory");
        return NULL;
    }
    return G;
}

/* ------------------------------------------------------------ expressions */

static bool
drawn_statement(const xf_stmt *s)
{
    return s->kind == XF_STMT_ASSIGN || s->kind == XF_STMT_CALL || s->kind == XF_STMT_ICALL;
}

/* The node of expression vertex @i of @x in cluster @C ("s<k>_<i>"). */
static Agnode_t *
expr_node(Agraph_t *C, uint32_t k, const xf_expr *x, uint32_t i, const xf_dot_opts *o, char *line,
          lbl *b)
{
    char name[48];
    snprintf(name, sizeof name, "s%" PRIu32 "_%" PRIu32, k, i);
    Agnode_t *n = node(C, name);
    if (!n)
        return NULL;
    const xf_evertex *v = &x->v.v[i];
    lbl_reset(b);
    const char *shape = "box", *style = "filled", *fill = "#fff8dc";
    switch (v->kind) {
    case XF_EV_VARREF:
    case XF_EV_CONSTANT:
    case XF_EV_ARGREF:
        put_esc(b, xf_dot_expr_text(x, i, line, LINE_MAX_BYTES), o->width);
        if (v->kind == XF_EV_CONSTANT) {
            shape = "plaintext";
            style = "";
        }
        break;
    case XF_EV_INTRINSIC:
    case XF_EV_BOOLOP:
        put_esc(b, v->u.in.name ? v->u.in.name : "?", o->width);
        shape = "ellipse";
        fill = v->kind == XF_EV_BOOLOP ? "#e3f4e3" : "#dbe9f9";
        break;
    case XF_EV_FUNCALL:
        put_esc(b, v->u.fn.sym && v->u.fn.sym->id ? v->u.fn.sym->id : "?", o->width);
        put_s(b, "()");
        shape = "ellipse";
        fill = "#dbe9f9";
        break;
    }
    set(n, "label", lbl_text(b));
    set(n, "shape", shape);
    set(n, "style", style);
    set(n, "fillcolor", fill);
    return n;
}

/* The edge from operand @arg to operator @op, drawn as a tree: the
 * operator above (the graph's edge goes op -> arg; dir=back draws the arrow
 * at the operator, the way the xaif edge goes). */
static bool
operand_edge(Agraph_t *C, Agnode_t *op, Agnode_t *arg, const char *label)
{
    Agedge_t *e = edge(C, op, arg, label);
    if (e)
        set(e, "dir", "back");
    return e != NULL;
}

/* The levels of the tree of @x below its root (0 for a lone vertex); the
 * longest path, found by relaxing the edges at most once per vertex. */
static uint32_t
expr_height(const xf_expr *x, uint32_t root, uint32_t *level)
{
    if (root >= x->v.n)
        return 0;
    for (uint32_t i = 0; i < x->v.n; i++)
        level[i] = UINT32_MAX;
    level[root] = 0;
    uint32_t height = 0;
    bool changed = true;
    for (uint32_t round = 0; changed && round < x->v.n; round++) {
        changed = false;
        for (uint32_t i = 0; i < x->e.n; i++) {
            const xf_eedge *e = &x->e.v[i];
            if (e->src >= x->v.n || e->tgt >= x->v.n || level[e->tgt] == UINT32_MAX)
                continue;
            if (level[e->src] == UINT32_MAX || level[e->src] < level[e->tgt] + 1) {
                level[e->src] = level[e->tgt] + 1;
                height = level[e->src] > height ? level[e->src] : height;
                changed = true;
            }
        }
    }
    return height;
}

/* Statement @s (the @k-th of its block) as cluster "cluster_<k>": a tree
 * with the assigned variable (or the called routine) at the top (*@top),
 * *@levels ranks deep. */
static bool
expr_cluster(Agraph_t *G, uint32_t k, const xf_stmt *s, const xf_dot_opts *o, char *line, lbl *b,
             Agnode_t **top, uint32_t *levels)
{
    char name[48];
    snprintf(name, sizeof name, "cluster_%" PRIu32, k);
    Agraph_t *C = subgraph(G, name);
    if (!C)
        return false;
    lbl_reset(b);
    char head[300];
    snprintf(head, sizeof head, "%s: ", s->id ? s->id : "?");
    put_esc(b, head, 0);
    put_esc(b, xf_dot_stmt_text(s, 0, line, LINE_MAX_BYTES), o->width);
    set(C, "label", lbl_text(b));
    set(C, "style", "rounded");
    set(C, "color", "#999999");
    if (s->kind == XF_STMT_ASSIGN) {
        const xf_expr *x = &s->u.as.rhs;
        snprintf(name, sizeof name, "s%" PRIu32 "_lhs", k);
        Agnode_t *l = node(C, name); /* first: the top of the tree */
        Agnode_t **ns = calloc(x->v.n ? x->v.n : 1, sizeof *ns);
        /* the edges' order, later each vertex's level (expr_height) */
        uint32_t *order = malloc(((x->e.n > x->v.n ? x->e.n : x->v.n) + 1) * sizeof *order);
        bool ok = l && ns && order;
        if (ok) {
            lbl_reset(b);
            put_esc(b, xf_dot_ref_text(&s->u.as.lhs, line, LINE_MAX_BYTES), o->width);
            set(l, "label", lbl_text(b));
            set(l, "style", "filled,bold");
            set(l, "fillcolor", "#fff8dc");
        }
        for (uint32_t i = 0; i < x->v.n && ok; i++)
            ok = (ns[i] = expr_node(C, k, x, i, o, line, b)) != NULL;
        uint32_t root = xf_expr_root(x);
        if (ok && root < x->v.n)
            ok = operand_edge(C, l, ns[root], "=");
        /* the edges by position, so that each operator's operands come in order */
        uint32_t n = 0;
        for (uint32_t i = 0; ok && i < x->e.n; i++) {
            const xf_eedge *e = &x->e.v[i];
            if (e->src >= x->v.n || e->tgt >= x->v.n)
                continue;
            uint32_t j = n++;
            for (; j > 0 && x->e.v[order[j - 1]].pos > e->pos; j--)
                order[j] = order[j - 1];
            order[j] = i;
        }
        for (uint32_t i = 0; ok && i < n; i++) {
            const xf_eedge *e = &x->e.v[order[i]];
            char pos[32];
            snprintf(pos, sizeof pos, "%" PRId64, e->pos);
            ok = operand_edge(C, ns[e->tgt], ns[e->src], e->pos == XF_NOINT ? NULL : pos);
        }
        if (ok) {
            *top = l;
            *levels = 1 + (root < x->v.n ? 1 + expr_height(x, root, order) : 0);
        }
        free(order);
        free(ns);
        return ok && !b->oom;
    }
    /* a call: its arguments feed it */
    const xf_arg_vec *args = s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args;
    snprintf(name, sizeof name, "s%" PRIu32 "_call", k);
    Agnode_t *c = node(C, name);
    if (!c)
        return false;
    lbl_reset(b);
    if (s->kind == XF_STMT_CALL) {
        put_s(b, "CALL ");
        put_esc(b, s->u.call.sym && s->u.call.sym->id ? s->u.call.sym->id : "?", o->width);
    } else
        put_esc(b, s->u.icall.name ? s->u.icall.name : "?", o->width);
    set(c, "label", lbl_text(b));
    set(c, "shape", "ellipse");
    set(c, "style", "filled");
    set(c, "fillcolor", "#e8e0f8");
    for (uint32_t j = 0; j < args->n; j++) {
        const xf_expr *x = &args->v[j].val;
        snprintf(name, sizeof name, "s%" PRIu32 "_a%" PRIu32, k, j);
        Agnode_t *a = node(C, name);
        if (!a)
            return false;
        lbl_reset(b);
        put_esc(b, xf_dot_expr_text(x, x->v.n == 1 ? 0 : UINT32_MAX, line, LINE_MAX_BYTES),
                o->width);
        set(a, "label", lbl_text(b));
        bool is_const = x->v.n == 1 && x->v.v[0].kind == XF_EV_CONSTANT;
        set(a, "shape", is_const ? "plaintext" : "box");
        set(a, "style", is_const ? "" : "filled");
        set(a, "fillcolor", "#fff8dc");
        char pos[32];
        snprintf(pos, sizeof pos, "%" PRId64, args->v[j].pos);
        if (!operand_edge(C, c, a, args->v[j].pos == XF_NOINT ? NULL : pos))
            return false;
    }
    *top = c;
    *levels = args->n ? 2 : 1;
    return !b->oom;
}

Agraph_t *
xf_dot_expressions(const xf_doc *doc, const xf_dot_opts *o, xf_diag *diag)
{
    sel s;
    static const need want = {has_assignment, "no assignment", "an assignment"};
    if (select_graph(doc, o, &want, &s, diag) != 0)
        return NULL;
    char title[400], tail[300];
    snprintf(tail, sizeof tail, ", BasicBlock %s: expression graphs (edges: operand positions)",
             s.block->id ? s.block->id : "?");
    graph_title(&s, tail, title, sizeof title);
    Agraph_t *G = new_graph(title, doc, diag);
    if (!G)
        return NULL;
    set(G, "ordering", "out"); /* operands left to right, as their edges come */
    char *line = malloc(LINE_MAX_BYTES);
    uint32_t ns = s.block->stmts.n;
    Agnode_t **top = calloc(ns ? ns : 1, sizeof *top);
    uint32_t *levels = calloc(ns ? ns : 1, sizeof *levels);
    lbl b = {0};
    bool ok = line && top && levels;
    uint32_t n = 0;
    for (uint32_t k = 0; k < ns && ok; k++)
        if (drawn_statement(s.block->stmts.v[k])) {
            ok = expr_cluster(G, k, s.block->stmts.v[k], o, line, &b, &top[n], &levels[n]);
            n++;
        }
    /* a grid of about sqrt(n) columns, not one long row: each cluster hangs
     * below the one a row up by an invisible edge as long as that row's
     * deepest tree */
    uint32_t cols = 1;
    while (cols * cols < n)
        cols++;
    for (uint32_t row = 1; ok && row * cols < n; row++) {
        uint32_t deepest = 0;
        for (uint32_t c = 0; c < cols; c++)
            deepest =
                levels[(row - 1) * cols + c] > deepest ? levels[(row - 1) * cols + c] : deepest;
        char len[32];
        snprintf(len, sizeof len, "%" PRIu32, deepest + 1);
        for (uint32_t c = 0; ok && c < cols && row * cols + c < n; c++) {
            Agedge_t *e = edge(G, top[(row - 1) * cols + c], top[row * cols + c], NULL);
            ok = e != NULL;
            if (ok) {
                set(e, "style", "invis");
                set(e, "minlen", len);
            }
        }
    }
    free(levels);
    free(top);
    free(line);
    free(b.p);
    if (!ok) {
        agclose(G);
        xf_error(diag, doc->filename, 0, "out of memory");
        return NULL;
    }
    return G;
}

/* ------------------------------------------------------------ LCG */

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
    lbl b;
    XF_VEC(lvar) vars; /* malloc'ed here, not in an arena */
    uint32_t nodes, edges;
    bool oom;
} lcg;

static lvar *
lcg_var(lcg *l, const xf_varref *r)
{
    const char *key = xf_dot_ref_text(r, l->line, LINE_MAX_BYTES);
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
    char *k = malloc(strlen(key) + 1);
    if (!k)
        return NULL;
    strcpy(k, key);
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
    Agnode_t *n = node(l->C, name);
    if (!n)
        return NULL;
    v->version++;
    lbl_reset(&l->b);
    put_esc(&l->b, v->key, l->o->width);
    if (v->version > 1) {
        snprintf(ver, sizeof ver, " (%" PRIu32 ")", v->version);
        put_s(&l->b, ver);
    }
    if (zero)
        put_s(&l->b, " = 0");
    set(n, "label", lbl_text(&l->b));
    set(n, "style", zero ? "filled,dashed" : "filled");
    set(n, "fillcolor", "white");
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
        set(n, "fillcolor", "#cfe2f3"); /* an input of the block */
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
    lbl_reset(&l->b);
    put_esc(&l->b, label, l->o->width);
    l->edges++;
    return edge(l->C, from, to, lbl_text(&l->b)) != NULL;
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
        Agnode_t **xs = calloc(op->ax.n ? op->ax.n : 1, sizeof *xs);
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
            char *a = malloc(LINE_MAX_BYTES);
            ok = a != NULL;
            if (ok)
                ok = lcg_edge(l, xs[i], t,
                              xf_dot_expr_text(&op->ax.v[i].a, UINT32_MAX, a, LINE_MAX_BYTES));
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
    l.C = subgraph(G, name);
    l.line = malloc(LINE_MAX_BYTES);
    bool ok = l.C && l.line;
    for (uint32_t i = 0; v && i < v->stmts.n && ok; i++) {
        const xf_stmt *s = v->stmts.v[i];
        if (s->kind == XF_STMT_DERIVPROP)
            for (uint32_t k = 0; k < s->u.dp.n && ok; k++)
                ok = lcg_op(&l, &s->u.dp.v[k]);
    }
    for (uint32_t i = 0; i < l.vars.n && ok; i++) /* the last version written: an output */
        if (l.vars.v[i].written && !l.vars.v[i].temp && l.vars.v[i].cur)
            set(l.vars.v[i].cur, "fillcolor", "#d9ead3");
    if (ok && l.nodes == 0) {
        char n[32];
        snprintf(n, sizeof n, "%cnone", prefix);
        Agnode_t *none = node(l.C, n);
        ok = none != NULL;
        if (ok) {
            set(none, "label", "no derivative propagation");
            set(none, "shape", "plaintext");
        }
    }
    if (ok) {
        char text[600];
        snprintf(text, sizeof text, "%s: %" PRIu32 " %s, %" PRIu32 " edge%s", caption, l.nodes,
                 l.nodes == 1 ? "vertex" : "vertices", l.edges, l.edges == 1 ? "" : "s");
        lbl_reset(&l.b);
        put_esc(&l.b, text, 0);
        set(l.C, "label", lbl_text(&l.b));
        set(l.C, "style", "rounded");
        set(l.C, "color", "#999999");
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
    sel s;
    static const need want = {has_propagation,
                              "no derivative propagation to draw (no active assignment, or only "
                              "ZeroDeriv)",
                              "derivative propagation"};
    if (select_graph(before, o, &want, &s, diag) != 0)
        return NULL;
    /* the same routine, placeholder and block in the other document */
    const xf_routine *ra = find_routine(after, routine_name(s.r));
    const char *ph = NULL;
    const xf_graph *ga = ra ? routine_graph(ra, o->placeholder, &ph) : NULL;
    const xf_cvertex *va = ga && s.block->id ? find_block(ga, s.block->id) : NULL;
    if (!va) {
        xf_error(diag, after->filename, 0, "routine %s has no BasicBlock %s after preaccumulate",
                 routine_name(s.r), s.block->id ? s.block->id : "?");
        return NULL;
    }
    char title[400], tail[300];
    snprintf(tail, sizeof tail, ", BasicBlock %s: linearized computational graph",
             s.block->id ? s.block->id : "?");
    graph_title(&s, tail, title, sizeof title);
    Agraph_t *G = new_graph(title, before, diag);
    if (!G)
        return NULL;
    char cap[300];
    snprintf(cap, sizeof cap, "after: convert, linearize, preaccumulate%s%s%s", o->note ? " (" : "",
             o->note ? o->note : "", o->note ? ")" : "");
    bool ok = lcg_cluster(G, "cluster_before", 'b', "before: convert, linearize", s.block, o) &&
              lcg_cluster(G, "cluster_after", 'a', cap, va, o);
    if (!ok) {
        agclose(G);
        xf_error(diag, before->filename, 0, "out of memory");
        return NULL;
    }
    return G;
}
