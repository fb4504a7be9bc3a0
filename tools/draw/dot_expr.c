/* dot_expr.c: the expression graphs of one basic block's statements, one
 * cluster and one tree per assignment or call (xaiform dot --what
 * expressions). See dot.h. */
#include "dot_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool
has_assignment(const xf_cvertex *v)
{
    for (uint32_t i = 0; i < v->stmts.n; i++)
        if (v->stmts.v[i]->kind == XF_STMT_ASSIGN)
            return true;
    return false;
}

static bool
drawn_statement(const xf_stmt *s)
{
    return s->kind == XF_STMT_ASSIGN || s->kind == XF_STMT_CALL || s->kind == XF_STMT_ICALL;
}

/* The node of expression vertex @i of @x in cluster @C ("s<k>_<i>"). */
static Agnode_t *
expr_node(Agraph_t *C, uint32_t k, const xf_expr *x, uint32_t i, const xf_dot_opts *o, char *line,
          dt_lbl *b)
{
    char name[48];
    snprintf(name, sizeof name, "s%" PRIu32 "_%" PRIu32, k, i);
    Agnode_t *n = dt_node(C, name);
    if (!n)
        return NULL;
    const xf_evertex *v = &x->v.v[i];
    dt_lbl_reset(b);
    const char *shape = "box", *style = "filled", *fill = "#fff8dc";
    switch (v->kind) {
    case XF_EV_VARREF:
    case XF_EV_CONSTANT:
    case XF_EV_ARGREF:
        dt_put_esc(b, xf_dot_expr_text(x, i, line, DT_LINE_MAX), o->width);
        if (v->kind == XF_EV_CONSTANT) {
            shape = "plaintext";
            style = "";
        }
        break;
    case XF_EV_INTRINSIC:
    case XF_EV_BOOLOP:
        dt_put_esc(b, v->u.in.name ? v->u.in.name : "?", o->width);
        shape = "ellipse";
        fill = v->kind == XF_EV_BOOLOP ? "#e3f4e3" : "#dbe9f9";
        break;
    case XF_EV_FUNCALL:
        dt_put_esc(b, v->u.fn.sym && v->u.fn.sym->id ? v->u.fn.sym->id : "?", o->width);
        dt_put_s(b, "()");
        shape = "ellipse";
        fill = "#dbe9f9";
        break;
    }
    dt_set(n, "label", dt_lbl_text(b));
    dt_set(n, "shape", shape);
    dt_set(n, "style", style);
    dt_set(n, "fillcolor", fill);
    return n;
}

/* The edge from operand @arg to operator @op, drawn as a tree: the
 * operator above (the graph's edge goes op -> arg; dir=back draws the arrow
 * at the operator, the way the xaif edge goes). */
static bool
operand_edge(Agraph_t *C, Agnode_t *op, Agnode_t *arg, const char *label)
{
    Agedge_t *e = dt_edge(C, op, arg, label);
    if (e)
        dt_set(e, "dir", "back");
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
expr_cluster(Agraph_t *G, uint32_t k, const xf_stmt *s, const xf_dot_opts *o, char *line, dt_lbl *b,
             Agnode_t **top, uint32_t *levels)
{
    char name[48];
    snprintf(name, sizeof name, "cluster_%" PRIu32, k);
    Agraph_t *C = dt_subgraph(G, name);
    if (!C)
        return false;
    dt_lbl_reset(b);
    char head[300];
    snprintf(head, sizeof head, "%s: ", s->id ? s->id : "?");
    dt_put_esc(b, head, 0);
    dt_put_esc(b, xf_dot_stmt_text(s, 0, line, DT_LINE_MAX), o->width);
    dt_set(C, "label", dt_lbl_text(b));
    dt_set(C, "style", "rounded");
    dt_set(C, "color", "#999999");
    if (s->kind == XF_STMT_ASSIGN) {
        const xf_expr *x = &s->u.as.rhs;
        snprintf(name, sizeof name, "s%" PRIu32 "_lhs", k);
        Agnode_t *l = dt_node(C, name); /* first: the top of the tree */
        Agnode_t **ns = calloc(x->v.n ? x->v.n : 1, sizeof(Agnode_t *));
        /* the edges' order, later each vertex's level (expr_height) */
        uint32_t *order = malloc(((x->e.n > x->v.n ? x->e.n : x->v.n) + 1) * sizeof *order);
        bool ok = l && ns && order;
        if (ok) {
            dt_lbl_reset(b);
            dt_put_esc(b, xf_dot_ref_text(&s->u.as.lhs, line, DT_LINE_MAX), o->width);
            dt_set(l, "label", dt_lbl_text(b));
            dt_set(l, "style", "filled,bold");
            dt_set(l, "fillcolor", "#fff8dc");
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
    Agnode_t *c = dt_node(C, name);
    if (!c)
        return false;
    dt_lbl_reset(b);
    if (s->kind == XF_STMT_CALL) {
        dt_put_s(b, "CALL ");
        dt_put_esc(b, s->u.call.sym && s->u.call.sym->id ? s->u.call.sym->id : "?", o->width);
    } else
        dt_put_esc(b, s->u.icall.name ? s->u.icall.name : "?", o->width);
    dt_set(c, "label", dt_lbl_text(b));
    dt_set(c, "shape", "ellipse");
    dt_set(c, "style", "filled");
    dt_set(c, "fillcolor", "#e8e0f8");
    for (uint32_t j = 0; j < args->n; j++) {
        const xf_expr *x = &args->v[j].val;
        snprintf(name, sizeof name, "s%" PRIu32 "_a%" PRIu32, k, j);
        Agnode_t *a = dt_node(C, name);
        if (!a)
            return false;
        dt_lbl_reset(b);
        dt_put_esc(b, xf_dot_expr_text(x, x->v.n == 1 ? 0 : UINT32_MAX, line, DT_LINE_MAX),
                   o->width);
        dt_set(a, "label", dt_lbl_text(b));
        bool is_const = x->v.n == 1 && x->v.v[0].kind == XF_EV_CONSTANT;
        dt_set(a, "shape", is_const ? "plaintext" : "box");
        dt_set(a, "style", is_const ? "" : "filled");
        dt_set(a, "fillcolor", "#fff8dc");
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
    dt_sel s;
    static const dt_need want = {has_assignment, "no assignment", "an assignment"};
    if (dt_select(doc, o, &want, &s, diag) != 0)
        return NULL;
    char title[400], tail[300];
    snprintf(tail, sizeof tail, ", BasicBlock %s: expression graphs (edges: operand positions)",
             s.block->id ? s.block->id : "?");
    dt_graph_title(&s, tail, title, sizeof title);
    Agraph_t *G = dt_new_graph(title, doc, diag);
    if (!G)
        return NULL;
    dt_set(G, "ordering", "out"); /* operands left to right, as their edges come */
    char *line = malloc(DT_LINE_MAX);
    uint32_t ns = s.block->stmts.n;
    Agnode_t **top = calloc(ns ? ns : 1, sizeof(Agnode_t *));
    uint32_t *levels = calloc(ns ? ns : 1, sizeof *levels);
    dt_lbl b = {0};
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
            Agedge_t *e = dt_edge(G, top[(row - 1) * cols + c], top[row * cols + c], NULL);
            ok = e != NULL;
            if (ok) {
                dt_set(e, "style", "invis");
                dt_set(e, "minlen", len);
            }
        }
    }
    free(levels);
    free(top);
    free(line);
    free(b.p);
    if (!ok) {
        xf_gv()->agclose(G);
        xf_error(diag, doc->filename, 0, "out of memory");
        return NULL;
    }
    return G;
}
