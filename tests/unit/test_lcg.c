/* test_lcg.c: the linearized computational graph (transforms/core/lcg.h) and the
 * elimination orders over it (transforms/core/elim.h), on their own: graphs built
 * by hand with their costs worked out below, and the graphs the walk builds
 * from linearize's propagation. */
#include <string.h>

#include "elim.h"
#include "lcg.h"
#include "pipeline.h"
#include "run_fixture.h"
#include "suites.h"
#include "xaif_fixture.h"

/* ------------------------------------------------------------ by hand */

typedef struct hand {
    xf_doc *doc;
    xf_arena *a;
    xf_diag *d;
    xf_lcg g;
} hand;

static void
hand_init(hand *h)
{
    h->doc = xf_doc_new("hand.xaif");
    h->a = xf_arena_new();
    h->d = xf_diag_new(NULL);
    ck_assert(h->doc && h->a && h->d);
    xf_lcg_init(&h->g, h->doc, h->a, h->d);
}

static void
hand_fini(hand *h)
{
    xf_arena_free(h->a);
    xf_doc_free(h->doc);
    xf_diag_free(h->d);
}

/* @n vertices, each with a location of its own; the first @nin inputs, the
 * last @nout outputs (the final version of a live location). */
static void
vertices(hand *h, uint32_t n, uint32_t nin, uint32_t nout)
{
    for (uint32_t i = 0; i < n; i++) {
        xf_lcg_loc l = {.cur = UINT32_MAX, .indep = UINT32_MAX};
        ck_assert(XF_VEC_PUSH(h->a, h->g.locs, l));
        ck_assert_uint_eq(xf_lcg_vertex(&h->g, i, i < nin), i);
        if (i >= n - nout)
            h->g.vs.v[i].final = h->g.vs.v[i].output = true;
    }
}

static void
edge(hand *h, uint32_t s, uint32_t t, double c)
{
    ck_assert(xf_lcg_edge(&h->g, s, t, (xf_lcg_wt){.c = c}));
}

/* The weight of the live edge @s -> @t; NaN when there is none. */
static double
weight(const hand *h, uint32_t s, uint32_t t)
{
    for (uint32_t i = 0; i < h->g.es.n; i++)
        if (!h->g.es.v[i].dead && h->g.es.v[i].src == s && h->g.es.v[i].tgt == t)
            return h->g.es.v[i].w.c;
    return 0.0 / 0.0;
}

static uint32_t
live_edges(const hand *h)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < h->g.es.n; i++)
        n += !h->g.es.v[i].dead;
    return n;
}

/* Inputs x0, x1; v2 = f(x0, x1); v3 = g(v2), v4 = h(v2); outputs
 * y5 = p(v3, v4), y6 = q(v3, v4): two inputs fan in to v2, which fans out
 * through v3 and v4 to both outputs.
 *   forward   v2: 2 in x 2 out = 4 products; v3 (now x0, x1 -> v3): 2 x 2 =
 *             4, four new edges x -> y; v4: 2 x 2 = 4, each added to one
 *             of those: 4 sums. 12 products, 4 sums.
 *   reverse   v4: 1 x 2 = 2 (v2 -> y5, v2 -> y6 new); v3: 1 x 2 = 2, both
 *             added: 2 sums; v2: 2 x 2 = 4. 8 products, 2 sums.
 *   Markowitz degrees v2 4, v3 2, v4 2: v3 first (a tie goes to the
 *             first), then v4 (2, v2's is now 2 x 3 = 6), then v2 (4):
 *             the products and sums of reverse, in the order v3, v4, v2.
 * Weights: x0->v2 2, x1->v2 3, v2->v3 5, v2->v4 7, v3->y5 11, v4->y5 13,
 * v3->y6 17, v4->y6 19; the Jacobian by the chain rule:
 *   dy5/dx0 = 2(5*11 + 7*13) = 292, dy5/dx1 = 3*146 = 438,
 *   dy6/dx0 = 2(5*17 + 7*19) = 436, dy6/dx1 = 3*218 = 654. */
static void
fan(hand *h)
{
    hand_init(h);
    vertices(h, 7, 2, 2);
    edge(h, 0, 2, 2), edge(h, 1, 2, 3), edge(h, 2, 3, 5), edge(h, 2, 4, 7);
    edge(h, 3, 5, 11), edge(h, 4, 5, 13), edge(h, 3, 6, 17), edge(h, 4, 6, 19);
}

static void
assert_fan_jacobian(const hand *h)
{
    ck_assert_uint_eq(live_edges(h), 4);
    ck_assert_double_eq(weight(h, 0, 5), 292);
    ck_assert_double_eq(weight(h, 1, 5), 438);
    ck_assert_double_eq(weight(h, 0, 6), 436);
    ck_assert_double_eq(weight(h, 1, 6), 654);
    for (uint32_t v = 2; v <= 4; v++)
        ck_assert(h->g.vs.v[v].gone);
}

START_TEST(fan_forward)
{
    hand h;
    fan(&h);
    xf_elim_result r;
    ck_assert_int_eq(xf_elim_run(&h.g, XF_ORDER_FORWARD, NULL, &r), 0);
    ck_assert_uint_eq(r.n, 3);
    ck_assert_uint_eq(r.order[0], 2);
    ck_assert_uint_eq(r.order[1], 3);
    ck_assert_uint_eq(r.order[2], 4);
    ck_assert_uint_eq(r.products, 12);
    ck_assert_uint_eq(r.sums, 4);
    assert_fan_jacobian(&h);
    hand_fini(&h);
}
END_TEST

START_TEST(fan_reverse)
{
    hand h;
    fan(&h);
    xf_elim_result r;
    ck_assert_int_eq(xf_elim_run(&h.g, XF_ORDER_REVERSE, NULL, &r), 0);
    ck_assert_uint_eq(r.n, 3);
    ck_assert_uint_eq(r.order[0], 4);
    ck_assert_uint_eq(r.order[1], 3);
    ck_assert_uint_eq(r.order[2], 2);
    ck_assert_uint_eq(r.products, 8);
    ck_assert_uint_eq(r.sums, 2);
    assert_fan_jacobian(&h);
    hand_fini(&h);
}
END_TEST

START_TEST(fan_markowitz)
{
    hand h;
    fan(&h);
    xf_elim_result r;
    ck_assert_int_eq(xf_elim_run(&h.g, XF_ORDER_MARKOWITZ, NULL, &r), 0);
    ck_assert_uint_eq(r.n, 3);
    ck_assert_uint_eq(r.order[0], 3);
    ck_assert_uint_eq(r.order[1], 4);
    ck_assert_uint_eq(r.order[2], 2);
    ck_assert_uint_eq(r.products, 8);
    ck_assert_uint_eq(r.sums, 2);
    assert_fan_jacobian(&h);
    hand_fini(&h);
}
END_TEST

/* After an elimination every edge list holds live edges only (eliminate
 * drops the dead ones from its neighbours' lists, which keeps its scans and
 * the Markowitz degrees short), each live edge is in its source's out-list
 * and its target's in-list, in the order the edges were made, and an
 * eliminated vertex has none left. */
static void
assert_lists_live(const hand *h)
{
    for (uint32_t v = 0; v < h->g.vs.n; v++) {
        const xf_lcg_vx *x = &h->g.vs.v[v];
        if (x->gone)
            ck_assert_uint_eq(x->in.n + x->out.n, 0);
        for (uint32_t i = 0; i < x->in.n; i++) {
            ck_assert_msg(!h->g.es.v[x->in.v[i]].dead, "vertex %u: a dead in-edge", v);
            ck_assert_uint_eq(h->g.es.v[x->in.v[i]].tgt, v);
            ck_assert(i == 0 || x->in.v[i - 1] < x->in.v[i]);
        }
        for (uint32_t i = 0; i < x->out.n; i++) {
            ck_assert_msg(!h->g.es.v[x->out.v[i]].dead, "vertex %u: a dead out-edge", v);
            ck_assert_uint_eq(h->g.es.v[x->out.v[i]].src, v);
            ck_assert(i == 0 || x->out.v[i - 1] < x->out.v[i]);
        }
    }
    uint32_t listed = 0;
    for (uint32_t v = 0; v < h->g.vs.n; v++)
        listed += h->g.vs.v[v].out.n;
    ck_assert_uint_eq(listed, live_edges(h));
}

START_TEST(edge_lists_hold_live_edges_only)
{
    const xf_elim_order orders[] = {XF_ORDER_FORWARD, XF_ORDER_REVERSE, XF_ORDER_MARKOWITZ};
    for (size_t k = 0; k < sizeof orders / sizeof orders[0]; k++) {
        hand h;
        fan(&h);
        ck_assert_int_eq(xf_elim_run(&h.g, orders[k], NULL, NULL), 0);
        assert_lists_live(&h);
        assert_fan_jacobian(&h);
        hand_fini(&h);
    }
    /* x0 -> v1 2, x0 -> y2 3 and again 5 (x0 * x0), v1 -> y2 7: the two
     * parallel edges are added first (8), then eliminating v1 adds 14 */
    hand h;
    hand_init(&h);
    vertices(&h, 3, 1, 1);
    edge(&h, 0, 1, 2), edge(&h, 0, 2, 3), edge(&h, 0, 2, 5), edge(&h, 1, 2, 7);
    xf_elim_result r;
    ck_assert_int_eq(xf_elim_run(&h.g, XF_ORDER_FORWARD, NULL, &r), 0);
    ck_assert_uint_eq(r.sums, 2);
    ck_assert_double_eq(h.g.es.v[1].w.c, 22);
    ck_assert(h.g.es.v[2].dead);
    ck_assert_uint_eq(h.g.es.n, 4);
    assert_lists_live(&h);
    hand_fini(&h);
}
END_TEST

/* Three inputs into v3, a chain v3 -> v4 -> v5, v5 out to three outputs
 * (the "bottleneck" shape where neither end is the place to start):
 *   forward   v3 3 x 1, v4 3 x 1, v5 3 x 3: 3 + 3 + 9 = 15 products;
 *   reverse   v5 1 x 3, v4 1 x 3, v3 3 x 3: 15 products;
 *   Markowitz v4 (1 x 1 = 1) first, then v3 and v5 tie at 3 x 1 and 1 x 3:
 *             v3 (3 products), then v5 3 x 3: 1 + 3 + 9 = 13 products.
 * No edge is ever there already: no sums. With unit weights but v3 -> v4
 * 2 and v4 -> v5 3, every Jacobian entry is 6. */
static void
bottleneck(hand *h)
{
    hand_init(h);
    vertices(h, 9, 3, 3);
    for (uint32_t i = 0; i < 3; i++)
        edge(h, i, 3, 1), edge(h, 5, 6 + i, 1);
    edge(h, 3, 4, 2), edge(h, 4, 5, 3);
}

START_TEST(bottleneck_orders)
{
    static const struct {
        xf_elim_order m;
        uint64_t products;
        uint32_t first;
    } want[] = {{XF_ORDER_FORWARD, 15, 3}, {XF_ORDER_REVERSE, 15, 5}, {XF_ORDER_MARKOWITZ, 13, 4}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        hand h;
        bottleneck(&h);
        xf_elim_result r;
        ck_assert_int_eq(xf_elim_run(&h.g, want[k].m, NULL, &r), 0);
        ck_assert_msg(r.products == want[k].products, "%s: %llu products",
                      xf_elim_order_name(want[k].m), (unsigned long long)r.products);
        ck_assert_uint_eq(r.sums, 0);
        ck_assert_uint_eq(r.n, 3);
        ck_assert_uint_eq(r.order[0], want[k].first);
        ck_assert_uint_eq(live_edges(&h), 9);
        for (uint32_t i = 0; i < 3; i++)
            for (uint32_t o = 6; o < 9; o++)
                ck_assert_double_eq(weight(&h, i, o), 6);
        hand_fini(&h);
    }
}
END_TEST

/* none eliminates nothing; statement only temporaries (aux); an output that
 * another vertex reads is split before a full elimination. */
START_TEST(none_statement_and_split)
{
    hand h;
    fan(&h);
    xf_elim_result r;
    ck_assert_int_eq(xf_elim_run(&h.g, XF_ORDER_NONE, NULL, &r), 0);
    ck_assert_uint_eq(r.n, 0);
    ck_assert_uint_eq(r.products, 0);
    ck_assert_uint_eq(live_edges(&h), 8);
    h.g.vs.v[3].aux = true; /* v3 a temporary: 1 x 2 products */
    ck_assert_int_eq(xf_elim_run(&h.g, XF_ORDER_STATEMENT, NULL, &r), 0);
    ck_assert_uint_eq(r.n, 1);
    ck_assert_uint_eq(r.order[0], 3);
    ck_assert_uint_eq(r.products, 2);
    ck_assert_double_eq(weight(&h, 2, 5), 55);
    ck_assert_double_eq(weight(&h, 2, 6), 85);
    hand_fini(&h);

    /* x0 -> y1 (2) -> y2 (3), both outputs: y1 is split into the vertex
     * y2 reads (eliminated) and a new output y1' over a unit edge */
    hand_init(&h);
    vertices(&h, 3, 1, 2);
    edge(&h, 0, 1, 2), edge(&h, 1, 2, 3);
    ck_assert_int_eq(xf_elim_run(&h.g, XF_ORDER_FORWARD, NULL, &r), 0);
    ck_assert_uint_eq(h.g.vs.n, 4);
    ck_assert(h.g.vs.v[3].final && h.g.vs.v[3].output && h.g.vs.v[1].gone);
    ck_assert_uint_eq(h.g.vs.v[3].loc, 1);
    ck_assert_double_eq(weight(&h, 0, 3), 2);
    ck_assert_double_eq(weight(&h, 0, 2), 6);
    ck_assert_uint_eq(r.products, 2);
    hand_fini(&h);
}
END_TEST

/* An elimination undone: the copy taken before is the graph again. */
START_TEST(copy_and_restore)
{
    hand h;
    fan(&h);
    xf_lcg keep;
    ck_assert_int_eq(xf_lcg_copy(&h.g, &keep), 0);
    ck_assert_int_eq(xf_elim_run(&h.g, XF_ORDER_FORWARD, NULL, NULL), 0);
    ck_assert_uint_eq(live_edges(&h), 4);
    h.g = keep;
    ck_assert_uint_eq(live_edges(&h), 8);
    ck_assert(!h.g.vs.v[2].gone);
    xf_elim_result r;
    ck_assert_int_eq(xf_elim_run(&h.g, XF_ORDER_REVERSE, NULL, &r), 0);
    ck_assert_uint_eq(r.products, 8);
    assert_fan_jacobian(&h);
    ck_assert_str_eq(xf_elim_order_name(XF_ORDER_MARKOWITZ), "markowitz");
    hand_fini(&h);
}
END_TEST

/* ------------------------------------------------------------ the walk */

/* What the walk handed over: per sequence its size, inputs, outputs. */
typedef struct seen {
    uint32_t nseq, nstmt;
    uint32_t vs[8], es[8], in[8], out[8];
    char labels[8][256]; /* the edges "src>tgt:weight" of sequence 0..7 */
} seen;

static const char *
loc_name(const xf_lcg *g, uint32_t v)
{
    return g->locs.v[g->vs.v[v].loc].sym->id;
}

static int
on_sequence(void *ctx, xf_lcg_walk *w)
{
    seen *s = ctx;
    const xf_lcg *g = &w->g;
    ck_assert_uint_lt(s->nseq, 8);
    uint32_t k = s->nseq++;
    s->vs[k] = g->vs.n;
    s->es[k] = g->es.n;
    for (uint32_t v = 0; v < g->vs.n; v++) {
        s->in[k] += g->vs.v[v].indep;
        s->out[k] += g->vs.v[v].final && g->vs.v[v].output;
    }
    for (uint32_t i = 0; i < g->es.n; i++) {
        const xf_lcg_ed *e = &g->es.v[i];
        char one[96];
        if (e->w.var)
            snprintf(one, sizeof one, "%s%s>%s:%s", i ? " " : "", loc_name(g, e->src),
                     loc_name(g, e->tgt), e->w.var->id);
        else
            snprintf(one, sizeof one, "%s%s>%s:%g", i ? " " : "", loc_name(g, e->src),
                     loc_name(g, e->tgt), e->w.c);
        strncat(s->labels[k], one, sizeof s->labels[k] - strlen(s->labels[k]) - 1);
    }
    return 0;
}

static int
on_stmt(void *ctx, xf_stmt *st)
{
    (void)st;
    ((seen *)ctx)->nstmt++;
    return 0;
}

/* Walk the first BasicBlock of @stmts (one_block's variables) after
 * @passes ("" for none), with windows of @window vertices. */
static void
walk(const char *stmts, const char *passes, uint32_t window, seen *s)
{
    memset(s, 0, sizeof *s);
    xb *b = XB_NEW();
    xb_scope(b, 2, 1);
    xb_syms(b, 1, "sub head");
    xb_syms(b, 2, "real x(3); real y; real z; integer i; integer j");
    xg *g = xb_cfg(b, "head", 2, "x y");
    xg_bb(g, stmts);
    xf_diag *d;
    xf_doc *doc = read_text(xb_build(b), &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    if (*passes) {
        const xf_pass *list[8];
        char err[300];
        int n = xf_pipeline_parse(passes, list, 8, err, sizeof err);
        ck_assert_msg(n > 0, "%s", err);
        xf_doc *cat = xf_catalogue_load(NULL, d), *direct = xf_direct_load(NULL, d);
        xf_opts o;
        xf_pm_opts_init(&o);
        xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d, .catalogue = cat, .direct = direct};
        ck_assert_msg(xf_pipeline_run(&ctx, list, n) == 0, "%s", first_message(d));
        xf_doc_free(cat);
        xf_doc_free(direct);
    }
    const xf_graph *cfg = &doc->cg.routines.v[0]->g;
    const xf_cvertex *bb = NULL;
    for (uint32_t i = 0; i < cfg->v.n && !bb; i++)
        if (cfg->v.v[i]->kind == XF_CV_BASICBLOCK)
            bb = cfg->v.v[i];
    ck_assert_ptr_nonnull(bb);
    xf_arena *a = xf_arena_new();
    xf_lcg_walk w;
    ck_assert_int_eq(xf_lcg_walk_init(&w, doc, a, d), 0);
    w.window = window;
    const xf_lcg_sink sink = {.ctx = s, .stmt = on_stmt, .sequence = on_sequence};
    ck_assert_msg(xf_lcg_walk_block(&w, bb, &sink) == 0, "%s", first_message(d));
    xf_lcg_walk_fini(&w);
    xf_arena_free(a);
    xf_doc_free(doc);
    xf_diag_free(d);
    xb_free(b);
}

START_TEST(walk_of_linearized_assignment)
{
    /* y = sin(x1*x2): linearize writes aux = x(1)*x(2) with partials x(2)
     * and x(1) (lin_0, lin_1), y = sin(aux) with cos(aux) (lin_2): one
     * sequence x(1), x(2) -> aux -> y; aux is dead after it, y is not */
    seen s;
    walk("y = sin_scal(x(1)*x(2))", "convert,linearize", XF_LCG_WINDOW, &s);
    ck_assert_uint_eq(s.nseq, 1);
    ck_assert_uint_eq(s.vs[0], 4);
    ck_assert_uint_eq(s.es[0], 3);
    ck_assert_uint_eq(s.in[0], 2);
    ck_assert_uint_eq(s.out[0], 1);
    ck_assert_str_eq(s.labels[0], "x>OpenAD_aux_0:OpenAD_lin_0 x>OpenAD_aux_0:OpenAD_lin_1 "
                                  "OpenAD_aux_0>y:OpenAD_lin_2");
}
END_TEST

START_TEST(walk_cuts_sequences)
{
    seen s;
    /* constants and unit partials; a write of y then a read: versions */
    walk("dp Sax(2.0, x(1), 3.0, x(2), y); dp SetDeriv(z, y); dp SetNegDeriv(y, z)", "",
         XF_LCG_WINDOW, &s);
    ck_assert_uint_eq(s.nseq, 1);
    ck_assert_uint_eq(s.vs[0], 5); /* x(1), x(2), y, z, y again */
    ck_assert_str_eq(s.labels[0], "x>y:2 x>y:3 y>z:1 z>y:-1");
    ck_assert_uint_eq(s.in[0], 2);
    ck_assert_uint_eq(s.nstmt, 0);

    /* x(i) written, then x(j) read: they may be the same element, cut */
    walk("dp SetDeriv(x(i), y); dp SetDeriv(z, x(j))", "", XF_LCG_WINDOW, &s);
    ck_assert_uint_eq(s.nseq, 2);
    ck_assert_str_eq(s.labels[0], "y>x:1");
    ck_assert_str_eq(s.labels[1], "x>z:1");

    /* an increment is no graph's: kept as it is, between two sequences */
    walk("dp SetDeriv(z, y); dp IncDeriv(y, z); dp SetDeriv(x(1), z)", "", XF_LCG_WINDOW, &s);
    ck_assert_uint_eq(s.nseq, 2);
    ck_assert_uint_eq(s.nstmt, 1);

    /* windows of 3 vertices: y -> z, z -> x(1), x(1) -> x(2) in two */
    walk("dp SetDeriv(z, y); dp SetDeriv(x(1), z); dp SetDeriv(x(2), x(1))", "", 3, &s);
    ck_assert_uint_eq(s.nseq, 2);
    ck_assert_uint_eq(s.vs[0], 3);
    ck_assert_str_eq(s.labels[0], "y>z:1 z>x:1");
    ck_assert_str_eq(s.labels[1], "x>x:1");
}
END_TEST

Suite *
test_lcg_suite(void)
{
    Suite *s = suite_create("lcg");
    TCase *t = tcase_create("elimination");
    tcase_add_test(t, fan_forward);
    tcase_add_test(t, fan_reverse);
    tcase_add_test(t, fan_markowitz);
    tcase_add_test(t, bottleneck_orders);
    tcase_add_test(t, edge_lists_hold_live_edges_only);
    tcase_add_test(t, none_statement_and_split);
    tcase_add_test(t, copy_and_restore);
    suite_add_tcase(s, t);
    t = tcase_create("walk");
    tcase_add_test(t, walk_of_linearized_assignment);
    tcase_add_test(t, walk_cuts_sequences);
    suite_add_tcase(s, t);
    return s;
}
