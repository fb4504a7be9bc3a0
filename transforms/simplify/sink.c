/* sink.c: assignments that a branch after them neither reads nor affects
 * move past it, into the block where the branch ends.
 *
 * Preaccumulation works per basic block: a chain `T2 = T*T; T3 = T*T2`
 * whose results are read only after an If that does not touch them is cut
 * in two, and the adjoint carries T2, T3 across the cut as separate
 * adjoints, each multiplied in on both sides. Moved into the block after
 * the If, the chain is eliminated with the code that reads it: one
 * Jacobian entry per input instead of one per intermediate. The move
 * changes no operation and no operand, only when it runs, so values are
 * bitwise the same (the routine's plain code moves alike).
 *
 * The shape: a basic block B whose only successor is an If or Branch V,
 * whose only predecessor is B; the vertices reachable from V without
 * passing the EndBranch E form a region that nothing outside enters (each
 * of its vertices, and E, has its predecessors in it; it holds neither the
 * Exit, B, nor the block A after E), and E's only successor is a basic block
 * A whose only predecessor is E. Every path through B then runs the region
 * and then A. An assignment of B moves to the front of A (in B's order)
 * when the region holds no call, no reference of the region may share
 * storage with one of the assignment's (its left-hand side, what it reads,
 * subscripts included), and no assignment staying in B after it reads or
 * writes what it writes, or writes what it reads. Calls stay, and nothing
 * moves past one.
 * The pass's work in a routine is bounded by 64 times the routine's size
 * (vertices, edges, statements, references); beyond, nothing more moves
 * (what moved stays moved: each move is whole).
 * Needs: nothing; runs before template and linearize (.before). Breaks:
 * nothing. */
#include <stdlib.h>
#include <string.h>

#include "pass.h"

typedef XF_VEC(const xf_varref *) refvec;

/* Steps the pass may still take in this routine; at 0 it stops. */
typedef struct budget {
    uint64_t left;
} budget;

static bool
spend(budget *bg, uint64_t n)
{
    if (bg->left < n) {
        bg->left = 0;
        return false;
    }
    bg->left -= n;
    return true;
}

typedef struct refs {
    xf_arena *a;
    refvec r, w; /* references read; written */
    bool call, oom;
} refs;

typedef struct refwalk {
    refs *x;
    bool write; /* the walk's own reference is written */
} refwalk;

/* Each reference, among the reads or the writes (the walk's own as said);
 * whether a function is called. */
static xf_walk_go
refs_step(void *ctx, const xf_walk_step *s)
{
    const refwalk *g = ctx;
    if (!s->ref) {
        if (s->vertex->kind == XF_EV_FUNCALL)
            g->x->call = true;
        return XF_WALK_GO;
    }
    if (!XF_VEC_PUSH(g->x->a, *(!s->vertex && g->write ? &g->x->w : &g->x->r), s->ref))
        g->x->oom = true;
    return XF_WALK_GO;
}

static void
refs_ref(refs *x, const xf_varref *r, bool write)
{
    refwalk g = {x, write};
    if (xf_walk_ref(r, 0, refs_step, &g) < 0)
        x->oom = true;
}

static void
refs_expr(refs *x, const xf_expr *e)
{
    refwalk g = {x, false};
    if (xf_walk_expr(e, 0, refs_step, &g) < 0)
        x->oom = true;
}

static void
refs_stmt(refs *x, const xf_stmt *s)
{
    if (!s)
        return;
    if (s->kind == XF_STMT_ASSIGN) {
        refs_ref(x, &s->u.as.lhs, true);
        refs_expr(x, &s->u.as.rhs);
    } else if (s->kind != XF_STMT_MARKER)
        x->call = true; /* calls, inlinable calls, derivative code: stay put */
}

static void
refs_vertex(refs *x, const xf_cvertex *v)
{
    for (uint32_t k = 0; v->kind == XF_CV_BASICBLOCK && k < v->stmts.n; k++)
        refs_stmt(x, v->stmts.v[k]);
    refs_stmt(x, v->init);
    refs_stmt(x, v->update);
    refs_expr(x, v->cond);
}

/* May a reference of @p share storage with one of @q? */
static bool
overlap(const xf_doc *doc, const refvec *p, const refvec *q, budget *bg)
{
    if (!spend(bg, (uint64_t)p->n * q->n))
        return true; /* out of budget: as if they did */
    for (uint32_t i = 0; i < p->n; i++)
        for (uint32_t j = 0; j < q->n; j++)
            if (xf_refs_may_alias(doc, p->v[i], q->v[j]))
                return true;
    return false;
}

/* Do @s and @t conflict (one writes what the other reads or writes)? */
static bool
conflict(const xf_doc *doc, const refs *s, const refs *t, budget *bg)
{
    return overlap(doc, &s->w, &t->w, bg) || overlap(doc, &s->w, &t->r, bg) ||
           overlap(doc, &s->r, &t->w, bg);
}

typedef struct shape {
    xf_cvertex *b, *v, *e, *after;
    uint8_t *in; /* per vertex: in the region */
} shape;

static uint32_t
npred(const xf_graph *g, const xf_cvertex *v, const xf_cvertex **only, budget *bg)
{
    uint32_t n = 0;
    if (!spend(bg, g->e.n))
        return 0;
    for (uint32_t j = 0; j < g->e.n; j++)
        if (g->e.v[j]->tgt == v) {
            n++;
            *only = g->e.v[j]->src;
        }
    return n;
}

static uint32_t
nsucc(const xf_graph *g, const xf_cvertex *v, xf_cvertex **only, budget *bg)
{
    uint32_t n = 0;
    if (!spend(bg, g->e.n))
        return 0;
    for (uint32_t j = 0; j < g->e.n; j++)
        if (g->e.v[j]->src == v) {
            n++;
            *only = g->e.v[j]->tgt;
        }
    return n;
}

/* The region V reaches without passing @e, in @s->in: false unless it
 * stays off the Exit, @b and @after, holds @e, and nothing outside enters
 * it but at V. */
static bool
region(const xf_graph *g, const xf_cvertex *b, const xf_cvertex *v, const xf_cvertex *e,
       const xf_cvertex *after, uint8_t *in, uint32_t *stack, budget *bg)
{
    if (!spend(bg, g->v.n + g->e.n))
        return false;
    memset(in, 0, g->v.n);
    uint32_t sp = 0;
    in[v->index] = 1;
    stack[sp++] = v->index;
    while (sp) {
        const xf_cvertex *u = g->v.v[stack[--sp]];
        if (u == e)
            continue;
        if (!spend(bg, g->e.n))
            return false;
        for (uint32_t j = 0; j < g->e.n; j++) {
            if (g->e.v[j]->src != u)
                continue;
            const xf_cvertex *t = g->e.v[j]->tgt;
            if (in[t->index])
                continue;
            if (t->kind == XF_CV_EXIT || t == b || t == after)
                return false;
            in[t->index] = 1;
            stack[sp++] = t->index;
        }
    }
    if (!in[e->index])
        return false;
    for (uint32_t j = 0; j < g->e.n; j++) {
        const xf_cvertex *t = g->e.v[j]->tgt;
        if (in[t->index] && t != v && !in[g->e.v[j]->src->index])
            return false;
    }
    return true;
}

/* Is block @b followed by a closed branch region and a block (see above)?
 * @s->in and @stack have g->v.n entries. */
static bool
find_shape(const xf_graph *g, xf_cvertex *b, shape *s, uint32_t *stack, budget *bg)
{
    xf_cvertex *v = NULL;
    const xf_cvertex *p = NULL;
    if (nsucc(g, b, &v, bg) != 1 || (v->kind != XF_CV_IF && v->kind != XF_CV_BRANCH) ||
        npred(g, v, &p, bg) != 1)
        return false;
    for (uint32_t i = 0; i < g->v.n && bg->left; i++) {
        xf_cvertex *e = g->v.v[i], *a = NULL;
        const xf_cvertex *ap = NULL;
        if (e->kind != XF_CV_ENDBRANCH || nsucc(g, e, &a, bg) != 1 || a->kind != XF_CV_BASICBLOCK ||
            npred(g, a, &ap, bg) != 1 || !region(g, b, v, e, a, s->in, stack, bg))
            continue;
        s->b = b;
        s->v = v;
        s->e = e;
        s->after = a;
        return true;
    }
    return false;
}

static int
sink_block(xf_pass_ctx *ctx, const xf_graph *g, shape *s, budget *bg)
{
    xf_arena *a = ctx->scratch;
    refs reg = {.a = a};
    for (uint32_t i = 0; i < g->v.n; i++)
        if (s->in[i])
            refs_vertex(&reg, g->v.v[i]);
    if (reg.oom)
        return xf_pass_oom(ctx);
    if (reg.call)
        return 0;
    xf_cvertex *b = s->b;
    uint32_t n = b->stmts.n;
    uint8_t *move = XF_NEW_ARRAY(a, n ? n : 1, uint8_t);
    refs *st = XF_NEW_ARRAY(a, n ? n : 1, refs);
    if (!move || !st)
        return xf_pass_oom(ctx);
    for (uint32_t k = 0; k < n; k++) {
        st[k] = (refs){.a = a};
        refs_stmt(&st[k], b->stmts.v[k]);
        if (st[k].oom)
            return xf_pass_oom(ctx);
    }
    uint32_t nmove = 0;
    for (uint32_t k = n; k-- > 0;) {
        if (st[k].call)
            break; /* nothing moves past a call */
        if (b->stmts.v[k]->kind != XF_STMT_ASSIGN || conflict(ctx->doc, &st[k], &reg, bg))
            continue;
        bool ok = true;
        for (uint32_t l = k + 1; ok && l < n; l++)
            if (!move[l] && conflict(ctx->doc, &st[k], &st[l], bg))
                ok = false;
        if (!bg->left)
            return 0; /* out of budget: nothing of this block moves */
        if (ok) {
            move[k] = 1;
            nmove++;
        }
    }
    if (!nmove)
        return 0;
    xf_cvertex *af = s->after;
    uint32_t old = af->stmts.n;
    for (uint32_t k = 0; k < nmove; k++)
        if (!XF_VEC_PUSH(ctx->doc->arena, af->stmts, NULL))
            return xf_pass_oom(ctx);
    memmove(af->stmts.v + nmove, af->stmts.v, old * sizeof *af->stmts.v);
    uint32_t w = 0, m = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (move[k])
            af->stmts.v[m++] = b->stmts.v[k];
        else
            b->stmts.v[w++] = b->stmts.v[k];
    }
    b->stmts.n = w;
    return 0;
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    if (rt->is_rlist)
        return 0;
    xf_graph *g = &rt->g;
    uint32_t n = g->v.n;
    for (uint32_t i = 0; i < n; i++)
        if (g->v.v[i]->index != i)
            return 0; /* not numbered as this pass reads it */
    shape s = {.in = XF_NEW_ARRAY(ctx->scratch, n ? n : 1, uint8_t)};
    uint32_t *stack = XF_NEW_ARRAY(ctx->scratch, n ? n : 1, uint32_t);
    if (!s.in || !stack)
        return xf_pass_oom(ctx);
    uint64_t size = (uint64_t)n + g->e.n;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; g->v.v[i]->kind == XF_CV_BASICBLOCK && k < g->v.v[i]->stmts.n; k++) {
            const xf_stmt *st = g->v.v[i]->stmts.v[k];
            size += 1 + (st->kind == XF_STMT_ASSIGN ? st->u.as.rhs.v.n : 0);
        }
    budget bg = {.left = 64 * size + 4096};
    for (uint32_t i = 0; i < n && bg.left; i++) {
        xf_cvertex *b = g->v.v[i];
        if (b->kind != XF_CV_BASICBLOCK || !b->stmts.n || !find_shape(g, b, &s, stack, &bg))
            continue;
        if (sink_block(ctx, g, &s, &bg))
            return -1;
    }
    return 0;
}

static const char *const after[] = {NULL};
static const char *const runs_before[] = {"template", "linearize", NULL};
const xf_pass xf_pass_sink = {
    .name = "sink",
    .summary =
        "move assignments past a branch that does not touch them (longer blocks to preaccumulate)",
    .help = "An assignment of the block before an If or Branch moves to the front of\n"
            "the block where the branch ends when nothing in the branch reads, writes\n"
            "or may share storage with what it reads or writes, and no call is\n"
            "involved: preaccumulation then eliminates it with the code after the\n"
            "branch. Values are unchanged (the same operations on the same operands).",
    .after = after,
    .before = runs_before,
    .run_routine = run_routine,
};
