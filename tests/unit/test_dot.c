/* test_dot.c: the pictures of xaiform dot (tools/draw/dot.c, dot_text.c,
 * dot_render.c): pseudo-code of statements, the graphs built for each
 * --what (counted and read back from cgraph: nodes, edges, labels), the
 * selection errors, and rendering with graphviz's messages caught. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dot.h"
#include "pipeline.h"
#include "run_fixture.h"
#include "suites.h"

/* ------------------------------------------------------------ helpers */

static const char *
label_of(void *obj)
{
    const char *l = agget(obj, (char *)"label");
    return l ? l : "";
}

static bool
starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* The node labelled @prefix exactly, else the one whose label starts with
 * it (the only one: asserted). */
static Agnode_t *
node_with(Agraph_t *g, const char *prefix)
{
    Agnode_t *hit = NULL;
    for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n))
        if (!strcmp(label_of(n), prefix))
            return n;
    for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n))
        if (starts(label_of(n), prefix)) {
            ck_assert_msg(hit == NULL, "two nodes labelled '%s...'", prefix);
            hit = n;
        }
    ck_assert_msg(hit != NULL, "no node labelled '%s...'", prefix);
    return hit;
}

static int
nodes_with(Agraph_t *g, const char *prefix)
{
    int k = 0;
    for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n))
        k += starts(label_of(n), prefix);
    return k;
}

/* Edges labelled exactly @label (NULL: any). */
static int
edges_labelled(Agraph_t *g, const char *label)
{
    int k = 0;
    for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n))
        for (Agedge_t *e = agfstout(g, n); e; e = agnxtout(g, e))
            k += !label || !strcmp(label_of(e), label);
    return k;
}

/* The label of the edge from the node labelled @from... to the one labelled @to...; NULL if none.
 */
static const char *
edge_label(Agraph_t *g, const char *from, const char *to)
{
    Agnode_t *t = node_with(g, from), *h = node_with(g, to);
    for (Agedge_t *e = agfstout(g, t); e; e = agnxtout(g, e))
        if (aghead(e) == h)
            return label_of(e);
    return NULL;
}

/* Subgraph @name of @G (asserted). */
static Agraph_t *
cluster(Agraph_t *G, const char *name)
{
    Agraph_t *c = agsubg(G, (char *)name, 0);
    ck_assert_msg(c != NULL, "no %s", name);
    return c;
}

/* The line (from 1) of the first @needle in @text. */
static unsigned long
line_of(const char *text, const char *needle)
{
    const char *hit = strstr(text, needle);
    ck_assert_ptr_nonnull(hit);
    unsigned long line = 1;
    for (const char *p = text; p < hit; p++)
        line += *p == '\n';
    return line;
}

/* The document of @b, read (asserted). */
static xf_doc *
doc_of(xb *b, xf_diag **d)
{
    const char *text = xb_build(b);
    xf_doc *doc = read_text(text, d);
    ck_assert_msg(doc != NULL, "the test's document does not read: %s\n%s", first_message(*d),
                  text);
    return doc;
}

/* The statements of the first BasicBlock of the first routine. */
static const xf_cvertex *
first_bb(const xf_doc *doc)
{
    const xf_graph *g = &doc->cg.routines.v[0]->g;
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i]->kind == XF_CV_BASICBLOCK)
            return g->v.v[i];
    ck_abort_msg("no BasicBlock");
    return NULL;
}

/* A program with one block of @stmts in routine head (x(3), y, i, s active/passive). */
static xb *
one_block(const char *stmts)
{
    xb *b = XB_NEW();
    xb_scope(b, 2, 1);
    xb_syms(b, 1, "sub head; sub foo");
    xb_syms(b, 2, "real x(3); real y; real z; integer i; string s");
    xg *g = xb_cfg(b, "head", 2, "x y");
    xg_bb(g, stmts);
    return b;
}

/* ------------------------------------------------------------ pseudo-code */

START_TEST(pseudo_code_of_statements)
{
    xb *b = one_block("y = -(x(1) + x(2))*x(3); y = x(1) - (x(2) - x(3)); y = x(1) - x(2) - x(3);"
                      "y = x(1)**2**3; y = (x(1)**2)**3; y = sin_scal(x(1)/2.0e0);"
                      "y = 3.000e+00*x(i); y = 0.1; call foo(y, 3); inline push_s0(y);"
                      "marker; s = 'a b'; y = x(1:3:2); "
                      "dp SetDeriv(y, x(1)); dp Sax(2.5, x(1), z, x(2), y); dp ZeroDeriv(z);"
                      "dp Saxpy({real:-1.0}, x(3), y); dp DecDeriv(y, z)");
    xf_diag *d;
    xf_doc *doc = doc_of(b, &d);
    const xf_cvertex *v = first_bb(doc);
    static const char *const want[] = {
        "y = -(x(1) + x(2))*x(3)",
        "y = x(1) - (x(2) - x(3))",
        "y = x(1) - x(2) - x(3)",
        "y = x(1)**2**3",
        "y = (x(1)**2)**3",
        "y = sin_scal(x(1)/2)",
        "y = 3*x(i)",
        "y = 0.1",
        "CALL foo(y, 3)",
        "push_s0(y)",
        "marker",
        "s = 'a b'",
        "y = x(1:3:2)",
    };
    size_t nwant = sizeof want / sizeof want[0];
    ck_assert_uint_eq(v->stmts.n, nwant + 1); /* the propagators are one statement */
    char buf[256];
    for (size_t k = 0; k < nwant; k++) {
        ck_assert_uint_eq(xf_dot_stmt_lines(v->stmts.v[k]), 1);
        ck_assert_str_eq(xf_dot_stmt_text(v->stmts.v[k], 0, buf, sizeof buf), want[k]);
    }
    const xf_stmt *dp = v->stmts.v[nwant];
    ck_assert_uint_eq(xf_dot_stmt_lines(dp), 5);
    ck_assert_str_eq(xf_dot_stmt_text(dp, 0, buf, sizeof buf), "SetDeriv d(y) = d(x(1))");
    ck_assert_str_eq(xf_dot_stmt_text(dp, 1, buf, sizeof buf),
                     "Sax d(y) = 2.5*d(x(1)) + z*d(x(2))");
    ck_assert_str_eq(xf_dot_stmt_text(dp, 2, buf, sizeof buf), "ZeroDeriv d(z) = 0");
    ck_assert_str_eq(xf_dot_stmt_text(dp, 3, buf, sizeof buf), "Saxpy d(y) += -1*d(x(3))");
    ck_assert_str_eq(xf_dot_stmt_text(dp, 4, buf, sizeof buf), "DecDeriv d(y) -= d(z)");
    /* a text longer than its buffer ends in "..." */
    char small[12];
    ck_assert_str_eq(xf_dot_stmt_text(v->stmts.v[0], 0, small, sizeof small), "y = -(x(...");
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

/* ------------------------------------------------------------ call graph */

START_TEST(callgraph_counts_call_sites)
{
    xb *b = XB_NEW();
    xb_scope(b, 2, 1);
    xb_scope(b, 3, 1);
    xb_scope(b, 4, 1);
    xb_syms(b, 1, "sub head; sub foo; sub bar; sub ext");
    xb_syms(b, 2, "real x(2); real y");
    xb_syms(b, 3, "real a");
    xb_syms(b, 4, "real c");
    xg *g = xb_cfg(b, "head", 2, "x y");
    xg_bb(g, "call foo(y); y = x(1)");
    xg_if(g, "y > 0");
    xg_bb(g, "call foo(x(2)); call bar(y)");
    xg_end(g);
    xg_bb(g, "call ext(y)");
    xg *f = xb_cfg(b, "foo", 3, "a");
    xg_bb(f, "call bar(a)");
    xb_cfg(b, "bar", 4, "c");
    xf_diag *d;
    xf_doc *doc = doc_of(b, &d);
    xf_dot_opts o = {0};
    Agraph_t *G = xf_dot_callgraph(doc, &o, d);
    ck_assert_ptr_nonnull(G);
    ck_assert_int_eq(agnnodes(G), 4); /* head, foo, bar and the undefined ext */
    ck_assert_int_eq(agnedges(G), 4);
    ck_assert_str_eq(edge_label(G, "head", "foo"), "2");
    ck_assert_str_eq(edge_label(G, "head", "bar"), "1");
    ck_assert_str_eq(edge_label(G, "foo", "bar"), "1");
    ck_assert_str_eq(edge_label(G, "head", "ext"), "1");
    ck_assert_str_eq(label_of(node_with(G, "ext")), "ext\\n(not in this file)");
    ck_assert_str_eq(agget(node_with(G, "ext"), (char *)"style"), "dashed");
    ck_assert_ptr_null(edge_label(G, "bar", "head"));
    ck_assert(starts(label_of(G), "t.xaif: call graph"));
    agclose(G);
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

/* ------------------------------------------------------------ control flow */

START_TEST(cfg_labels_vertices_and_edges)
{
    xb *b = XB_NEW();
    xb_scope(b, 2, 1);
    xb_scope(b, 3, 1);
    xb_syms(b, 1, "sub mod; sub head; sub foo");
    xb_syms(b, 2, "real x(3); real y; integer i; string s");
    xb_cfg_empty(b, "mod", 3); /* a module's routine: no statement */
    xg *g = xb_cfg(b, "head", 2, "x y");
    xg_bb(g, "marker; marker; [a1] y = x(1)*2; s = 'a\\b'");
    xg_if(g, "y > 0");
    xg_bb(g, "y = -y");
    xg_else(g);
    xg_bb(g, "call foo(y, 3)");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "y = y + x(i)");
    xg_end(g);
    xf_diag *d;
    xf_doc *doc = doc_of(b, &d);
    xf_dot_opts o = {.routine = "head"};
    Agraph_t *G = xf_dot_cfg(doc, &o, d);
    ck_assert_msg(G != NULL, "%s", first_message(d));
    const xf_graph *cg = &doc->cg.routines.v[1]->g;
    ck_assert_uint_eq(cg->v.n, 10);
    ck_assert_uint_eq(cg->e.n, 11);
    ck_assert_int_eq(agnnodes(G), 10);
    ck_assert_int_eq(agnedges(G), 11);
    ck_assert_str_eq(label_of(G), "head: control flow");
    /* markers in one line; a backslash in the text doubled for graphviz */
    ck_assert_str_eq(label_of(node_with(G, "BasicBlock 2")),
                     "BasicBlock 2\\l2 markers\\ly = x(1)*2\\ls = 'a\\\\b'\\l");
    ck_assert_str_eq(label_of(node_with(G, "Branch 3")), "Branch 3\\ly > 0\\l");
    ck_assert_str_eq(label_of(node_with(G, "ForLoop 7")),
                     "ForLoop 7\\linit   i = 1\\lwhile  i <= 3\\lupdate i = i + 1\\l");
    ck_assert_str_eq(label_of(node_with(G, "Entry 1")), "Entry 1\\l");
    ck_assert_str_eq(agget(node_with(G, "Entry 1"), (char *)"shape"), "ellipse");
    ck_assert_int_eq(nodes_with(G, "EndBranch"), 1);
    ck_assert_int_eq(nodes_with(G, "EndLoop"), 1);
    /* the condition values: the true arm of the branch and the loop body */
    ck_assert_int_eq(edges_labelled(G, "1"), 2);
    ck_assert_str_eq(edge_label(G, "Branch 3", "BasicBlock 4"), "1");
    ck_assert_str_eq(edge_label(G, "Branch 3", "BasicBlock 5"), "");
    ck_assert_str_eq(edge_label(G, "ForLoop 7", "BasicBlock 8"), "1");
    agclose(G);

    /* the default routine is the first with a statement */
    o.routine = NULL;
    G = xf_dot_cfg(doc, &o, d);
    ck_assert_ptr_nonnull(G);
    ck_assert_str_eq(label_of(G), "head: control flow");
    ck_assert_int_eq(agnnodes(G), 10);
    agclose(G);
    o.routine = "mod";
    G = xf_dot_cfg(doc, &o, d);
    ck_assert_ptr_nonnull(G);
    ck_assert_int_eq(agnnodes(G), 0);
    agclose(G);
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

START_TEST(cfg_truncates_long_blocks_and_lines)
{
    xb *b = one_block("y = 1; y = 2; y = 3; y = 4; y = x(1) + x(2) + x(3)");
    xf_diag *d;
    xf_doc *doc = doc_of(b, &d);
    xf_dot_opts o = {.max_lines = 3};
    Agraph_t *G = xf_dot_cfg(doc, &o, d);
    ck_assert_ptr_nonnull(G);
    ck_assert_str_eq(label_of(node_with(G, "BasicBlock")),
                     "BasicBlock 2\\ly = 1\\ly = 2\\ly = 3\\l... (2 more)\\l");
    agclose(G);
    o = (xf_dot_opts){.width = 12};
    G = xf_dot_cfg(doc, &o, d);
    ck_assert_ptr_nonnull(G);
    ck_assert_str_eq(label_of(node_with(G, "BasicBlock")),
                     "BasicBlock 2\\ly = 1\\ly = 2\\ly = 3\\ly = 4\\ly = x(1) ...\\l");
    agclose(G);
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

START_TEST(cfg_of_a_replacement_list)
{
    xb *b = XB_NEW();
    xb_scope(b, 2, 1);
    xb_syms(b, 1, "sub head");
    xb_syms(b, 2, "real x(2); real y");
    xb_routine *r = xb_rlist(b, "head", 2, "x y");
    xg_bb(xr_ph(r, b, 3), "y = x(1)");
    xg *g5 = xr_ph(r, b, 5);
    xg_bb(g5, "y = 2");
    xg_bb(g5, "y = 3");
    xf_diag *d;
    xf_doc *doc = doc_of(b, &d);
    /* placeholder 1 is empty: the first non-empty one */
    xf_dot_opts o = {.routine = "head"};
    Agraph_t *G = xf_dot_cfg(doc, &o, d);
    ck_assert_ptr_nonnull(G);
    ck_assert_str_eq(label_of(G), "head, placeholder 3: control flow");
    ck_assert_int_eq(agnnodes(G), 3);
    ck_assert_str_eq(label_of(node_with(G, "BasicBlock")), "BasicBlock 2\\ly = x(1)\\l");
    agclose(G);
    o.placeholder = 5;
    G = xf_dot_cfg(doc, &o, d);
    ck_assert_ptr_nonnull(G);
    ck_assert_int_eq(agnnodes(G), 4);
    agclose(G);
    o.placeholder = 7; /* present, empty */
    G = xf_dot_cfg(doc, &o, d);
    ck_assert_ptr_nonnull(G);
    ck_assert_int_eq(agnnodes(G), 0);
    agclose(G);
    ck_assert_uint_eq(xf_diag_errors(d), 0);
    o.placeholder = 14;
    ck_assert_ptr_null(xf_dot_cfg(doc, &o, d));
    char want[80];
    snprintf(want, sizeof want, "t.xaif:%lu: error: routine head has no placeholder 14",
             line_of(b->text.p, "<xaif:ReplacementList"));
    ck_assert_str_eq(first_message(d), want);
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

START_TEST(selection_errors)
{
    xb *b = one_block("y = x(1); call foo(y)");
    xf_diag *d;
    xf_doc *doc = doc_of(b, &d);
    xf_dot_opts o = {.routine = "nothere"};
    ck_assert_ptr_null(xf_dot_cfg(doc, &o, d));
    ck_assert_str_eq(first_message(d), "t.xaif: error: no routine named nothere (routines: head)");
    xf_diag_clear(d);
    o = (xf_dot_opts){.routine = "head", .placeholder = 2};
    ck_assert_ptr_null(xf_dot_cfg(doc, &o, d));
    ck_assert(
        strstr(first_message(d), "routine head is a ControlFlowGraph: it has no placeholders"));
    xf_diag_clear(d);
    o = (xf_dot_opts){.routine = "head", .block = "9"};
    ck_assert_ptr_null(xf_dot_expressions(doc, &o, d));
    ck_assert(strstr(first_message(d), "error: routine head has no BasicBlock 9"));
    xf_diag_clear(d);
    o = (xf_dot_opts){.block = "1"}; /* the Entry */
    ck_assert_ptr_null(xf_dot_expressions(doc, &o, d));
    ck_assert(strstr(first_message(d), "error: no routine has a BasicBlock 1"));
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

/* ------------------------------------------------------------ expressions */

START_TEST(expressions_one_cluster_per_statement)
{
    xb *b = XB_NEW();
    xb_scope(b, 2, 1);
    xb_syms(b, 1, "sub head; sub foo");
    xb_syms(b, 2, "real x(3); real y");
    xg *g = xb_cfg(b, "head", 2, "x y");
    xg_bb(g, "marker");
    xg_bb(g, "[a1] y = x(1)*2; marker; [c1] call foo(y, 3)");
    xf_diag *d;
    xf_doc *doc = doc_of(b, &d);
    xf_dot_opts o = {0};
    Agraph_t *G = xf_dot_expressions(doc, &o, d);
    ck_assert_msg(G != NULL, "%s", first_message(d));
    ck_assert_str_eq(label_of(G),
                     "head, BasicBlock 3: expression graphs (edges: operand positions)");
    ck_assert_int_eq(agnsubg(G), 2);
    /* y = x(1)*2: three vertices and the left side; a call and two arguments */
    ck_assert_int_eq(agnnodes(G), 7);
    ck_assert_int_eq(agnedges(G), 5);
    Agraph_t *c = cluster(G, "cluster_0");
    ck_assert_str_eq(label_of(c), "a1: y = x(1)*2");
    ck_assert_int_eq(agnnodes(c), 4);
    /* a tree: operator above operand, the arrow drawn at the operator */
    ck_assert_str_eq(edge_label(c, "mul_scal_scal", "x(1)"), "1");
    ck_assert_str_eq(edge_label(c, "mul_scal_scal", "2"), "2");
    ck_assert_str_eq(edge_label(c, "y", "mul_scal_scal"), "=");
    Agedge_t *first = agfstout(c, node_with(c, "mul_scal_scal"));
    ck_assert_str_eq(label_of(first), "1"); /* operands in position order */
    ck_assert_str_eq(agget(first, (char *)"dir"), "back");
    ck_assert_str_eq(agget(node_with(c, "2"), (char *)"shape"), "plaintext");
    c = cluster(G, "cluster_2"); /* the statement after the marker */
    ck_assert_str_eq(label_of(c), "c1: CALL foo(y, 3)");
    ck_assert_int_eq(agnnodes(c), 3);
    ck_assert_str_eq(edge_label(c, "CALL foo", "y"), "1");
    ck_assert_str_eq(edge_label(c, "CALL foo", "3"), "2");
    ck_assert_int_eq(edges_labelled(G, "1"), 2);
    agclose(G);
    xf_diag_clear(d);
    o.block = "2"; /* markers only */
    ck_assert_ptr_null(xf_dot_expressions(doc, &o, d));
    ck_assert(strstr(first_message(d), "error: BasicBlock 2 of routine head has no assignment"));
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

/* Five statements: a grid of three columns; the second row hangs below the
 * first by invisible edges as long as the first row's deepest tree. */
START_TEST(expressions_in_a_grid)
{
    xb *b = one_block("y = x(1)*2; y = 1; call foo(y); z = x(1) + x(2)*x(3); z = y");
    xf_diag *d;
    xf_doc *doc = doc_of(b, &d);
    xf_dot_opts o = {0};
    Agraph_t *G = xf_dot_expressions(doc, &o, d);
    ck_assert_ptr_nonnull(G);
    ck_assert_int_eq(agnsubg(G), 5);
    int invisible = 0;
    for (Agnode_t *n = agfstnode(G); n; n = agnxtnode(G, n))
        for (Agedge_t *e = agfstout(G, n); e; e = agnxtout(G, e)) {
            const char *style = agget(e, (char *)"style");
            if (!style || strcmp(style, "invis") != 0)
                continue;
            invisible++;
            /* y = x(1)*2 is three ranks deep: y, mul_scal_scal, its operands */
            ck_assert_str_eq(agget(e, (char *)"minlen"), "4");
            ck_assert(!strcmp(agnameof(agtail(e)), "s0_lhs") ||
                      !strcmp(agnameof(agtail(e)), "s1_lhs"));
            ck_assert(!strcmp(agnameof(aghead(e)), "s3_lhs") ||
                      !strcmp(agnameof(aghead(e)), "s4_lhs"));
        }
    ck_assert_int_eq(invisible, 2);
    agclose(G);
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

/* ------------------------------------------------------------ LCG */

typedef struct lcg_run {
    xf_doc *doc;
    xf_diag *d;
    Agraph_t *G;
} lcg_run;

static void
lcg_build(lcg_run *t, xb *b, const xf_dot_opts *o)
{
    t->doc = read_text(xb_build(b), &t->d);
    ck_assert_ptr_nonnull(t->doc);
    xf_doc *cat = xf_catalogue_load(NULL, t->d);
    xf_doc *direct = xf_direct_load(NULL, t->d);
    ck_assert(cat && direct);
    ck_assert_int_eq(xf_dot_lcg_prepare(t->doc, cat, direct, t->d), 0);
    xf_doc_free(cat);
    xf_doc_free(direct);
    t->G = xf_dot_lcg(t->doc, o, t->d);
}

static void
lcg_fini(lcg_run *t)
{
    if (t->G)
        agclose(t->G);
    xf_doc_free(t->doc);
    xf_diag_free(t->d);
}

START_TEST(lcg_of_the_pass_and_eliminated)
{
    /* y = sin(x1*x2): linearize makes aux = x1*x2 with partials x2, x1 and
     * y = sin(aux) with cos(aux): x(1), x(2) -> aux -> y, one sequence of
     * preaccumulate's. Forward elimination leaves the Jacobian x(1), x(2)
     * -> y, each edge the product of the two partials on its path. */
    xb *b = one_block("y = sin_scal(x(1)*x(2))");
    lcg_run t;
    xf_dot_opts o = {0};
    lcg_build(&t, b, &o);
    ck_assert_msg(t.G != NULL, "%s", first_message(t.d));
    ck_assert_str_eq(label_of(t.G), "head, BasicBlock 2: linearized computational graph");
    Agraph_t *c = cluster(t.G, "cluster_1");
    ck_assert_ptr_null(agsubg(t.G, (char *)"cluster_2", 0));
    ck_assert_int_eq(agnnodes(c), 4);
    ck_assert_int_eq(agnedges(c), 3);
    ck_assert_str_eq(label_of(c), "sequence 1: 4 vertices, 3 edges");
    ck_assert_str_eq(edge_label(c, "x(1)", "OpenAD_aux_0"), "OpenAD_lin_0");
    ck_assert_str_eq(edge_label(c, "x(2)", "OpenAD_aux_0"), "OpenAD_lin_1");
    ck_assert_str_eq(edge_label(c, "OpenAD_aux_0", "y"), "OpenAD_lin_2");
    ck_assert_str_eq(agget(node_with(c, "x(1)"), (char *)"fillcolor"), "#cfe2f3");
    ck_assert_str_eq(agget(node_with(c, "OpenAD_aux_0"), (char *)"fillcolor"), "white");
    ck_assert_str_eq(agget(node_with(c, "y"), (char *)"fillcolor"), "#d9ead3");
    lcg_fini(&t);

    o = (xf_dot_opts){.eliminated = true, .order = XF_ORDER_FORWARD};
    lcg_build(&t, b, &o);
    ck_assert_msg(t.G != NULL, "%s", first_message(t.d));
    c = cluster(t.G, "cluster_1");
    ck_assert_str_eq(label_of(c), "sequence 1 after forward elimination: 3 vertices, 2 edges");
    ck_assert_int_eq(agnnodes(c), 3);
    ck_assert_int_eq(agnedges(c), 2);
    ck_assert_str_eq(edge_label(c, "x(1)", "y"), "OpenAD_lin_0*OpenAD_lin_2");
    ck_assert_str_eq(edge_label(c, "x(2)", "y"), "OpenAD_lin_1*OpenAD_lin_2");
    ck_assert_int_eq(nodes_with(c, "OpenAD_aux"), 0);
    lcg_fini(&t);
    xb_free(b);
}
END_TEST

START_TEST(lcg_versions_constants_and_zero)
{
    /* y = y*x(1): the new y is the second version; z = 2*x(1) has the
     * constant partial 2; y = 1 zeroes y's derivative (third version, the
     * output; the second is an intermediate). */
    xb *b = one_block("y = y*x(1); z = 2*x(1); y = 1");
    lcg_run t;
    xf_dot_opts o = {0};
    lcg_build(&t, b, &o);
    ck_assert_msg(t.G != NULL, "%s", first_message(t.d));
    Agraph_t *c = cluster(t.G, "cluster_1");
    ck_assert_int_eq(agnnodes(c), 5); /* y, x(1), y (2), z, y (3) = 0 */
    ck_assert_int_eq(agnedges(c), 3);
    ck_assert_ptr_null(edge_label(c, "y (2)", "y (3) = 0")); /* zeroed: no inputs */
    ck_assert_str_eq(edge_label(c, "x(1)", "z"), "2");
    ck_assert(starts(edge_label(c, "y", "y (2)"), "OpenAD_lin_"));
    ck_assert(starts(edge_label(c, "x(1)", "y (2)"), "OpenAD_lin_"));
    ck_assert_str_eq(agget(node_with(c, "y"), (char *)"fillcolor"), "#cfe2f3");
    ck_assert_str_eq(agget(node_with(c, "y (2)"), (char *)"fillcolor"), "white");
    ck_assert_str_eq(agget(node_with(c, "y (3)"), (char *)"fillcolor"), "#d9ead3");
    ck_assert_str_eq(agget(node_with(c, "y (3)"), (char *)"style"), "filled,dashed");
    lcg_fini(&t);

    /* the pass's cut: x(i) written, then x(1) read (they may be one
     * element): two sequences, two clusters */
    xb_free(b);
    b = one_block("x(i) = y*y; z = x(1)*3");
    lcg_build(&t, b, &o);
    ck_assert_msg(t.G != NULL, "%s", first_message(t.d));
    ck_assert_str_eq(label_of(cluster(t.G, "cluster_1")),
                     "sequence 1: 2 vertices, 2 edges"); /* y*y: two partials */
    ck_assert_str_eq(label_of(cluster(t.G, "cluster_2")), "sequence 2: 2 vertices, 1 edge");
    ck_assert_str_eq(edge_label(cluster(t.G, "cluster_2"), "x(1)", "z"), "3");
    lcg_fini(&t);
    xb_free(b);

    /* no active assignment: no LCG, a message */
    b = one_block("i = 2");
    lcg_build(&t, b, &o);
    ck_assert_ptr_null(t.G);
    ck_assert_str_eq(first_message(t.d),
                     "t.xaif: error: no routine has a BasicBlock with derivative propagation");
    lcg_fini(&t);
    xb_free(b);
}
END_TEST

/* ------------------------------------------------------------ rendering */

static char *
slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    char *p = malloc(1 << 20);
    ck_assert_ptr_nonnull(p);
    *len = fread(p, 1, (1 << 20) - 1, f);
    p[*len] = 0;
    fclose(f);
    return p;
}

START_TEST(formats)
{
    ck_assert_str_eq(xf_dot_format("svg"), "svg");
    ck_assert_str_eq(xf_dot_format("png"), "png");
    ck_assert_str_eq(xf_dot_format("pdf"), "pdf");
    ck_assert_str_eq(xf_dot_format("dot"), "dot");
    ck_assert_str_eq(xf_dot_format("gv"), "dot");
    ck_assert_ptr_null(xf_dot_format("jpg"));
    ck_assert_ptr_null(xf_dot_format(NULL));
}
END_TEST

START_TEST(renders_and_catches_graphviz_messages)
{
    xb *b = one_block("y = x(1)*2; s = 'a\\b'");
    xf_diag *d;
    xf_doc *doc = doc_of(b, &d);
    xf_dot_opts o = {0};
    Agraph_t *G = xf_dot_cfg(doc, &o, d);
    ck_assert_ptr_nonnull(G);
    GVC_t *gvc = xf_dot_context(d); /* one for all renderings: see dot.h */
    ck_assert_ptr_nonnull(gvc);
    char dir[] = "/tmp/xf_dot_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char svg[64], dot[64], bad[64];
    snprintf(svg, sizeof svg, "%s/g.svg", dir);
    snprintf(dot, sizeof dot, "%s/g.dot", dir);
    snprintf(bad, sizeof bad, "%s/g.bogus", dir);
    ck_assert_int_eq(xf_dot_render(gvc, G, "svg", svg, NULL, d), 0);
    size_t n;
    char *text = slurp(svg, &n);
    ck_assert(strstr(text, "<svg") != NULL);
    ck_assert(strstr(text, "y = x(1)*2") != NULL);
    ck_assert(strstr(text, "s = &#39;a\\b&#39;") != NULL); /* one backslash drawn */
    free(text);
    ck_assert_int_eq(xf_dot_render(gvc, G, "dot", dot, NULL, d), 0);
    text = slurp(dot, &n);
    ck_assert(starts(text, "digraph xaiform {"));
    ck_assert(strstr(text, "label=\"BasicBlock 2\\ly = x(1)*2\\ls = 'a\\\\b'\\l\"") != NULL);
    ck_assert(strstr(text, "pos=") == NULL); /* no layout */
    free(text);
    ck_assert_uint_eq(xf_diag_count(d), 0);
    /* graphviz's own complaint, caught and reported; no file left behind */
    ck_assert_int_eq(xf_dot_render(gvc, G, "bogus", bad, NULL, d), -1);
    ck_assert_uint_ge(xf_diag_errors(d), 1);
    ck_assert_msg(strstr(first_message(d),
                         "g.bogus: error: graphviz: renderer for bogus is unavailable") != NULL,
                  "%s", first_message(d));
    ck_assert_int_eq(access(bad, F_OK), -1);
    xf_diag_clear(d);
    /* a warning (an unknown shape): reported as one, and the picture written */
    Agnode_t *first = agfstnode(G);
    agsafeset(first, (char *)"shape", (char *)"nonesuch", (char *)"");
    ck_assert_int_eq(xf_dot_render(gvc, G, "svg", svg, NULL, d), 0);
    ck_assert_uint_eq(xf_diag_errors(d), 0);
    ck_assert_uint_eq(xf_diag_count(d), 1);
    ck_assert_msg(strstr(first_message(d), "g.svg: warning: graphviz: using box for unknown shape "
                                           "nonesuch") != NULL,
                  "%s", first_message(d));
    ck_assert_int_eq(access(svg, F_OK), 0);
    xf_diag_clear(d);
    snprintf(bad, sizeof bad, "%s/no/such/g.svg", dir);
    ck_assert_int_eq(xf_dot_render(gvc, G, "svg", bad, NULL, d), -1);
    ck_assert(strstr(first_message(d), "cannot create a temporary file") != NULL);
    unlink(svg);
    unlink(dot);
    ck_assert_int_eq(rmdir(dir), 0); /* nothing else was left there */
    gvFreeContext(gvc);
    agclose(G);
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}
END_TEST

Suite *
test_dot_suite(void)
{
    Suite *s = suite_create("dot");
    TCase *t = tcase_create("text");
    tcase_add_test(t, pseudo_code_of_statements);
    suite_add_tcase(s, t);
    t = tcase_create("graphs");
    tcase_add_test(t, callgraph_counts_call_sites);
    tcase_add_test(t, cfg_labels_vertices_and_edges);
    tcase_add_test(t, cfg_truncates_long_blocks_and_lines);
    tcase_add_test(t, cfg_of_a_replacement_list);
    tcase_add_test(t, selection_errors);
    tcase_add_test(t, expressions_one_cluster_per_statement);
    tcase_add_test(t, expressions_in_a_grid);
    suite_add_tcase(s, t);
    t = tcase_create("lcg");
    tcase_add_test(t, lcg_of_the_pass_and_eliminated);
    tcase_add_test(t, lcg_versions_constants_and_zero);
    suite_add_tcase(s, t);
    t = tcase_create("render");
    tcase_add_test(t, formats);
    tcase_add_test(t, renders_and_catches_graphviz_messages);
    suite_add_tcase(s, t);
    return s;
}
