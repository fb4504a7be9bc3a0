/* stream_adjoint.c: see stream_adjoint.h. The passes up to template run over
 * the whole routine; its one block is then set aside, and the passes from
 * template on run over the routine with that block empty: a ReplacementList
 * whose placeholders 1, 2 and 3 each hold one empty block. The writer fills
 * them: placeholder 1 with the statements set aside, placeholder 2 with the
 * taping sweep made a piece at a time (stream_block.c: linearize,
 * preaccumulate, adjoin), each piece's adjoint sweep to the writer's spill,
 * and placeholder 3 with the spilled pieces, the last piece's first. */
#include "stream_adjoint.h"

#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "cfgtree.h"
#include "pieces.h"
#include "stream_block.h"

/* The passes from template on that the pieces stand in for (linearize,
 * preaccumulate, adjoin, propagate) or that have nothing to do in a routine
 * of one block (reverse, iterwise, iterdry, checkpoint) or whose work the
 * streamed routine goes without (deadstore: its stores stay in the taping
 * sweep; argpush: its calls' integer arguments stay pushed, and the
 * routine's callers, which argpush then knows nothing of, keep theirs;
 * argdead: its argument checkpoints stay whole). */
static bool
known_after(const xf_pass *p)
{
    return p == &xf_pass_template || p == &xf_pass_linearize || p == &xf_pass_preaccumulate ||
           p == &xf_pass_adjoin || p == &xf_pass_reverse || p == &xf_pass_iterwise ||
           p == &xf_pass_iterdry || p == &xf_pass_checkpoint || p == &xf_pass_deadstore ||
           p == &xf_pass_propagate || p == &xf_pass_argpush || p == &xf_pass_argdead;
}

static int
index_of(const xf_pm_stream *s, const xf_pass *p)
{
    for (int i = 0; i < s->n; i++)
        if (s->passes[i] == p)
            return i;
    return -1;
}

/* The one basic block of @g, whose other vertices are Entry and Exit; or NULL. */
static xf_cvertex *
one_block(const xf_graph *g)
{
    xf_cvertex *b = NULL;
    for (uint32_t i = 0; i < g->v.n; i++) {
        xf_cvertex *v = g->v.v[i];
        if (v->kind == XF_CV_BASICBLOCK) {
            if (b)
                return NULL;
            b = v;
        } else if (v->kind != XF_CV_ENTRY && v->kind != XF_CV_EXIT)
            return NULL;
    }
    return b;
}

/* Does pass @p run with its options' defaults (so iterwise, iterdry and
 * checkpoint leave the routine alone)? */
static bool
at_defaults(const xf_opts *o, const xf_pass *p)
{
    const void *own = p->own_size ? xf_pass_own_c(o, p) : NULL;
    if (!own)
        return true;
    unsigned char *def = calloc(1, p->own_size);
    if (!def)
        return false;
    if (p->own_init)
        p->own_init(def);
    bool same = !memcmp(def, own, p->own_size);
    free(def);
    return same;
}

/* The heaviest basic block of @g to cut into pieces, or NULL. */
static xf_cvertex *
long_block(const xf_graph *g)
{
    xf_cvertex *b = NULL;
    uint64_t most = 0;
    for (uint32_t i = 0; i < g->v.n; i++) {
        xf_cvertex *v = g->v.v[i];
        uint64_t w = xf_stream_block_long(v) ? xf_stream_block_weight(v) : 0;
        if (w > most) {
            most = w;
            b = v;
        }
    }
    return b;
}

/* Is block @b of @g outside every loop (the loop options' passes then work
 * on loops that do not hold it)? false when @g is not structured. */
static bool
outside_loops(const xf_graph *g, const xf_cvertex *b)
{
    xf_arena *a = xf_arena_new();
    xf_cfgtree t;
    bool out = false;
    if (a && xf_cfgtree_parse(g, a, &t))
        for (uint32_t i = 0; i < t.all.n; i++) {
            const xf_region *r = t.all.v[i];
            if (r->kind != XF_RG_BLOCK || r->v != b)
                continue;
            out = true;
            for (const xf_region *p = r->parent; p; p = p->parent)
                out = out && p->kind != XF_RG_LOOP;
        }
    xf_arena_free(a);
    return out;
}

/* May long block @l (NULL: none) of @g, not its only block, be made in
 * pieces? Not inside a loop that a loop option may transform (iterwise,
 * iterdry and checkpoint would not see it). */
static bool
anywhere_ok(const xf_pm_stream *s, const xf_graph *g, const xf_cvertex *l)
{
    const xf_opts *o = s->ctx->opts;
    return l && ((at_defaults(o, &xf_pass_iterwise) && at_defaults(o, &xf_pass_iterdry) &&
                  at_defaults(o, &xf_pass_checkpoint)) ||
                 outside_loops(g, l));
}

bool
xf_stream_adjoint_wanted(const xf_pm_stream *s, const xf_routine *rt)
{
    int t = index_of(s, &xf_pass_template);
    if (t < 0 || index_of(s, &xf_pass_adjoin) < 0 || index_of(s, &xf_pass_reverse) < 0)
        return false;
    int order[] = {t, index_of(s, &xf_pass_linearize), index_of(s, &xf_pass_preaccumulate),
                   index_of(s, &xf_pass_adjoin), index_of(s, &xf_pass_reverse)};
    for (int i = 1; i < 5; i++)
        if (order[i] <= order[i - 1])
            return false;
    for (int i = t; i < s->n; i++)
        if (!known_after(s->passes[i]))
            return false;
    if (rt->is_rlist || rt->reps.n || !rt->cfg_scope)
        return false;
    const xf_cvertex *b = one_block(&rt->g);
    if (b)
        return xf_stream_block_long(b);
    return anywhere_ok(s, &rt->g, long_block(&rt->g));
}

/* Run passes [@from, @to) of @s over @rt. */
static int
run_passes(xf_pm_stream *s, xf_routine *rt, int from, int to)
{
    xf_pm_stream part = *s;
    part.n = to - from;
    memcpy(part.passes, s->passes + from, (size_t)part.n * sizeof *part.passes);
    memcpy(part.state, s->state + from, (size_t)part.n * sizeof *part.state);
    int ret = xf_pm_stream_routine(&part, rt);
    memcpy(s->state + from, part.state, (size_t)part.n * sizeof *part.state);
    s->scratch = part.scratch;
    return ret;
}

typedef struct job {
    xf_sb *sb;
    const xf_cvertex *b1, *b2, *b3; /* placeholder 1's, 2's and 3's blocks */
    xf_stmt *const *v;              /* the statements set aside */
    uint32_t n;
} job;

static int
block(void *ctx, xf_wstream *ws, const xf_cvertex *b)
{
    job *j = ctx;
    if (b == j->b2)
        return xf_sb_block(j->sb, ws, j->v, j->n);
    if (b == j->b3)
        return xf_sb_unspill(j->sb, ws);
    xf_stmt *const *v = b == j->b1 ? j->v : b->stmts.v;
    uint32_t n = b == j->b1 ? j->n : b->stmts.n;
    for (uint32_t i = 0; i < n; i++)
        if (xf_wstream_stmt(ws, v[i]))
            return -1;
    return 0;
}

static const xf_cvertex *
placeholder_block(xf_routine *rt, const char *k)
{
    xf_replacement *r = xf_placeholder(rt, k);
    return r ? one_block(&r->g) : NULL;
}

/* Placeholder 3 of the routine emptied is Entry -> Exit (reverse leaves out
 * an empty adjoint block): Entry -> the block's adjoint, with the id of
 * taping block @b2 as adjoin gives it, -> Exit. NULL when it is not so. */
static const xf_cvertex *
adjoint_block(xf_doc *doc, xf_routine *rt, const xf_cvertex *b2)
{
    xf_replacement *r = xf_placeholder(rt, "3");
    xf_graph *g = r ? &r->g : NULL;
    if (!g || g->v.n != 2 || g->e.n != 1 || g->e.v[0]->src->kind != XF_CV_ENTRY ||
        g->e.v[0]->tgt->kind != XF_CV_EXIT)
        return NULL;
    xf_cedge *in = g->e.v[0];
    xf_cvertex *exit = in->tgt;
    const char *id = xf_intern(doc, strcmp(in->id, "2") ? "2" : "3");
    xf_cvertex *b = id ? xf_graph_vertex(doc, g, XF_CV_BASICBLOCK, b2->id) : NULL;
    if (!b)
        return NULL;
    b->scope = b2->scope;
    b->h.annotation = b2->h.annotation;
    in->tgt = b;
    xf_cedge *out = xf_graph_edge(doc, g, b, exit, id, false, 0);
    if (!out)
        return NULL;
    out->h.annotation = in->h.annotation;
    out->has_cv = in->has_cv;
    xf_graph_renumber(g);
    return b;
}

/* Run passes [@from, @to) of @s over @rt but deadstore (its liveness would
 * not see the block set apart). */
static int
run_but_deadstore(xf_pm_stream *s, xf_routine *rt, int from, int to)
{
    for (int i = from; i < to;) {
        int k = i;
        while (k < to && s->passes[k] != &xf_pass_deadstore)
            k++;
        if (k > i && run_passes(s, rt, i, k))
            return -1;
        i = k + 1;
    }
    return 0;
}

/* The basic block of @g whose id is @id, or NULL. */
static xf_cvertex *
block_of(const xf_graph *g, const char *id)
{
    for (uint32_t i = 0; g && i < g->v.n; i++)
        if (g->v.v[i]->kind == XF_CV_BASICBLOCK && !strcmp(g->v.v[i]->id, id))
            return g->v.v[i];
    return NULL;
}

static xf_cvertex *
in_placeholder(xf_routine *rt, const char *k, const char *id)
{
    xf_replacement *r = xf_placeholder(rt, k);
    return r ? block_of(&r->g, id) : NULL;
}

/* The long block @b of a routine with more than one block: its statements
 * set apart, the passes from template on run over the rest with adjoin
 * making no whole-routine plan (and without deadstore); @b's adjoint block
 * holds a Marker while reverse runs, so that it and the loops and branches
 * around it are kept. The writer then fills @b's three copies as for a
 * routine of one block. */
static int
anywhere(xf_pm_stream *s, xf_routine *rt, xf_wstream *ws, xf_cvertex *b, int t)
{
    xf_pass_ctx *ctx = s->ctx;
    int r = index_of(s, &xf_pass_reverse);
    void *adjoin = s->state[index_of(s, &xf_pass_adjoin)];
    job j = {.v = b->stmts.v, .n = b->stmts.n};
    const char *id = b->id;
    memset(&b->stmts, 0, sizeof b->stmts);
    xf_adj_plans_off(adjoin, true);
    int ret = run_but_deadstore(s, rt, t, r);
    xf_adj_plans_off(adjoin, false);
    if (ret)
        return -1;
    xf_cvertex *a = in_placeholder(rt, "3", id);
    xf_stmt *marker = XF_NEW(ctx->doc->arena, xf_stmt);
    if (!marker)
        return xf_pass_oom(ctx);
    marker->kind = XF_STMT_MARKER;
    if (a && !a->stmts.n && !XF_VEC_PUSH(ctx->doc->arena, a->stmts, marker))
        return xf_pass_oom(ctx);
    if (run_but_deadstore(s, rt, r, s->n))
        return -1;
    j.b1 = in_placeholder(rt, "1", id);
    j.b2 = in_placeholder(rt, "2", id);
    j.b3 = in_placeholder(rt, "3", id);
    if (!a || !j.b1 || !j.b2 || j.b3 != a || j.b2->stmts.n || a->stmts.n != 1 ||
        a->stmts.v[0] != marker) {
        xf_error(ctx->diag, ctx->doc->filename, b->h.line,
                 "the adjoint of a long block in pieces: the block %s is not found once, "
                 "empty, in each of the placeholders 1-3",
                 id);
        return -1;
    }
    ret = xf_sb_new(ctx, rt, adjoin, index_of(s, &xf_pass_propagate) >= 0, &j.sb);
    if (!ret)
        ret = xf_wstream_routine_pieces(ws, rt, block, &j);
    if (!ret)
        ret = xf_sb_finish(j.sb);
    if (ret && !xf_diag_errors(ctx->diag))
        xf_error(ctx->diag, ctx->doc->filename, rt->h.line, "pass adjoin failed");
    xf_sb_free(j.sb);
    return ret;
}

int
xf_stream_adjoint_routine(xf_pm_stream *s, xf_routine *rt, xf_wstream *ws)
{
    xf_pass_ctx *ctx = s->ctx;
    int t = index_of(s, &xf_pass_template);
    if (run_passes(s, rt, 0, t))
        return -1;
    bool plain = !rt->is_rlist && !rt->reps.n && rt->cfg_scope;
    xf_cvertex *b = plain ? one_block(&rt->g) : NULL;
    xf_cvertex *l = plain && !b ? long_block(&rt->g) : NULL;
    if (anywhere_ok(s, &rt->g, l))
        return anywhere(s, rt, ws, l, t);
    if (!b) /* a pass before template changed the routine's shape */
        return run_passes(s, rt, t, s->n) || xf_wstream_routine(ws, rt) ? -1 : 0;
    job j = {.v = b->stmts.v, .n = b->stmts.n};
    memset(&b->stmts, 0, sizeof b->stmts);
    if (run_passes(s, rt, t, s->n))
        return -1;
    j.b1 = placeholder_block(rt, "1");
    j.b2 = placeholder_block(rt, "2");
    j.b3 = placeholder_block(rt, "3");
    if (j.b2 && !j.b3)
        j.b3 = adjoint_block(ctx->doc, rt, j.b2);
    if (!j.b1 || !j.b2 || !j.b3 || j.b2->stmts.n || j.b3->stmts.n) {
        xf_error(ctx->diag, ctx->doc->filename, rt->h.line,
                 "the adjoint of a long block in pieces: the template's placeholders 1-3 do "
                 "not hold one block each");
        return -1;
    }
    int ret = xf_sb_new(ctx, rt, s->state[index_of(s, &xf_pass_adjoin)],
                        index_of(s, &xf_pass_propagate) >= 0, &j.sb);
    if (!ret)
        ret = xf_wstream_routine_pieces(ws, rt, block, &j);
    if (!ret)
        ret = xf_sb_finish(j.sb);
    if (ret && !xf_diag_errors(ctx->diag))
        xf_error(ctx->diag, ctx->doc->filename, rt->h.line, "pass adjoin failed");
    xf_sb_free(j.sb);
    return ret;
}
