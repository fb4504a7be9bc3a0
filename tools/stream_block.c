/* stream_block.c: see stream_block.h. linearize, preaccumulate and propagate
 * run over a piece of a block (transforms/core/pieces.h) in an arena of the
 * piece's own, swapped in as the document's; what the piece gives is written
 * at once. The sequence preaccumulate has in progress may read the pieces
 * since its start, so their arenas are kept until it is handed on. The
 * symbols the two passes add to the routine's scope are put back in the
 * order of the whole routine's passes: linearize's, then preaccumulate's. */
#include "stream_block.h"

#include <stdlib.h>
#include <string.h>

#include "pieces.h"

static uint32_t piece_size; /* 0: not set yet */

void
xf_stream_block_size(uint32_t n)
{
    piece_size = n ? n : XF_STREAM_PIECE;
}

/* The piece size: set, or XAIFORM_TEST_PIECE (for tests of the command), or XF_STREAM_PIECE. */
static uint32_t
size(void)
{
    if (!piece_size) {
        const char *e = getenv("XAIFORM_TEST_PIECE");
        long n = e ? strtol(e, NULL, 10) : 0;
        xf_stream_block_size(n > 0 && n < 1L << 30 ? (uint32_t)n : 0);
    }
    return piece_size;
}

uint32_t
xf_stream_block_piece(void)
{
    return size();
}

/* Does @s end with linearize, preaccumulate, propagate? */
static bool
tail_is_tangent(const xf_pm_stream *s)
{
    return s->n >= 3 && s->passes[s->n - 3] == &xf_pass_linearize &&
           s->passes[s->n - 2] == &xf_pass_preaccumulate &&
           s->passes[s->n - 1] == &xf_pass_propagate;
}

/* The weight of statement @s: 1, and its right-hand side's vertices. */
static uint64_t
weight(const xf_stmt *s)
{
    return 1 + (s->kind == XF_STMT_ASSIGN ? s->u.as.rhs.v.n : 0);
}

uint64_t
xf_stream_block_weight(const xf_cvertex *b)
{
    uint64_t w = 0;
    for (uint32_t k = 0; k < b->stmts.n; k++)
        w += weight(b->stmts.v[k]);
    return w;
}

bool
xf_stream_block_long(const xf_cvertex *b)
{
    return b->kind == XF_CV_BASICBLOCK &&
           (b->stmts.n > size() || xf_stream_block_weight(b) > XF_STREAM_LONG_WEIGHT);
}

bool
xf_stream_block_wanted(const xf_pm_stream *s, const xf_routine *rt)
{
    if (!tail_is_tangent(s) || rt->is_rlist || rt->reps.n || !rt->cfg_scope)
        return false;
    for (uint32_t i = 0; i < rt->g.v.n; i++)
        if (xf_stream_block_long(rt->g.v.v[i]))
            return true;
    return false;
}

struct xf_sb {
    xf_pass_ctx *ctx;
    xf_lin_pieces *lin;
    xf_pre_pieces *pre;
    xf_scope *scope;
    uint32_t base;  /* the scope's symbols before the routine */
    uint8_t *added; /* per symbol from base: 1 linearize's, 2 preaccumulate's */
    size_t nadded, capadded;
    XF_VEC(xf_arena *) held; /* the arenas of the pieces the sequence may read */
    XF_VEC(xf_arena *) spare;
    xf_arena *vecs; /* the two vectors above */
    xf_stmt where;  /* stands for the walk's statement of messages when its piece goes */
    /* the adjoint (xf_sb_new with adjoin's state): each piece's adjoint sweep
     * to the writer's spill, where it ends in ends */
    xf_adj_pieces *adj;
    bool propagate; /* propagate what goes out */
    XF_VEC(uint64_t) ends;
    xf_arena *lin_a, *pre_a, *adj_a;
};
typedef struct xf_sb pieces;

static int
oom(pieces *c)
{
    return xf_pass_oom(c->ctx);
}

/* Note who added the scope's symbols from @from on. */
static int
note_added(pieces *c, uint32_t from, uint8_t who)
{
    uint32_t to = c->scope->syms.n;
    for (uint32_t i = from; i < to; i++) {
        if (c->nadded == c->capadded) {
            size_t cap = c->capadded ? 2 * c->capadded : 1024;
            uint8_t *a = realloc(c->added, cap);
            if (!a)
                return oom(c);
            c->added = a;
            c->capadded = cap;
        }
        c->added[c->nadded++] = who;
    }
    return 0;
}

/* The scope's new symbols: linearize's first, then preaccumulate's, then adjoin's. */
static int
reorder(pieces *c)
{
    if (!c->nadded)
        return 0;
    xf_symbol **v = c->scope->syms.v + c->base;
    xf_symbol **tmp = malloc(c->nadded * sizeof *tmp);
    if (!tmp)
        return oom(c);
    size_t k = 0;
    for (uint8_t who = 1; who <= 3; who++)
        for (size_t i = 0; i < c->nadded; i++)
            if (c->added[i] == who)
                tmp[k++] = v[i];
    memcpy(v, tmp, c->nadded * sizeof *tmp);
    free(tmp);
    return 0;
}

static xf_arena *
take(pieces *c)
{
    if (c->spare.n)
        return c->spare.v[--c->spare.n];
    return xf_arena_new();
}

/* Give back the held arenas but the last @keep. */
static int
release(pieces *c, uint32_t keep)
{
    if (c->held.n <= keep)
        return 0;
    xf_lcg_walk *w = xf_pre_pieces_walk(c->pre);
    if (w->where) { /* it may be in an arena given back */
        c->where.h = w->where->h;
        w->where = &c->where;
    }
    w->cut_stmt = NULL; /* a cache keyed by the statement's address */
    uint32_t n = c->held.n - keep;
    for (uint32_t i = 0; i < n; i++) {
        xf_arena_reset(c->held.v[i]);
        if (!XF_VEC_PUSH(c->vecs, c->spare, c->held.v[i]))
            return oom(c);
    }
    memmove(c->held.v, c->held.v + n, keep * sizeof *c->held.v);
    c->held.n = keep;
    return 0;
}

static int
write_stmts(pieces *c, xf_wstream *ws, xf_stmt **v, uint32_t n)
{
    if (c->propagate)
        n = xf_propagate_stmts(v, n);
    for (uint32_t k = 0; k < n; k++)
        if (xf_wstream_stmt(ws, v[k]))
            return -1;
    return 0;
}

/* What preaccumulate gave: written, or (the adjoint) its taping sweep
 * written and its adjoint sweep spilled. */
static int
write_out(pieces *c, xf_wstream *ws, xf_stmt **v, uint32_t n)
{
    if (!c->adj)
        return write_stmts(c, ws, v, n);
    xf_stmt **f, **r;
    uint32_t nf, nr, s0 = c->scope->syms.n;
    uint64_t end;
    if (xf_adj_pieces_feed(c->adj, v, n, &f, &nf, &r, &nr) || note_added(c, s0, 3) ||
        write_stmts(c, ws, f, nf))
        return -1;
    if (c->propagate)
        nr = xf_propagate_stmts(r, nr);
    if (!nr)
        return 0;
    if (xf_wstream_spill(ws, r, nr, &end))
        return -1;
    return XF_VEC_PUSH(c->vecs, c->ends, end) ? 0 : oom(c);
}

/* One piece: @n statements @v of the block; @first: the block's first. */
static int
piece(pieces *c, xf_wstream *ws, xf_stmt *const *v, uint32_t n, bool first)
{
    xf_stmt **lo, **po;
    uint32_t nlo, npo, s0 = c->scope->syms.n;
    if (xf_lin_pieces_feed(c->lin, v, n, &lo, &nlo) || note_added(c, s0, 1))
        return -1;
    /* the walk looks one statement ahead for a propagator: none starts a piece */
    if (!first && nlo &&
        (lo[0]->kind == XF_STMT_DERIVPROP ||
         (lo[0]->kind == XF_STMT_ASSIGN && xf_flag_is(lo[0]->u.as.lhs.deriv, false)))) {
        xf_error(c->ctx->diag, c->ctx->doc->filename, lo[0]->h.line,
                 "a block cannot be cut into pieces before a propagator");
        return -1;
    }
    s0 = c->scope->syms.n;
    if (xf_pre_pieces_feed(c->pre, lo, nlo, &po, &npo) || note_added(c, s0, 2))
        return -1;
    return write_out(c, ws, po, npo);
}

/* A block of the @nv statements @sv, in pieces. */
static int
run_block(pieces *c, xf_wstream *ws, xf_stmt *const *sv, uint32_t nv)
{
    xf_doc *doc = c->ctx->doc;
    xf_arena *home = doc->arena;
    xf_lcg_walk *w = xf_pre_pieces_walk(c->pre);
    xf_pre_pieces_begin(c->pre);
    int ret = 0;
    for (uint32_t i = 0, n = 0; i < nv && !ret; i += n) {
        /* piece_size statements, fewer when they weigh XF_STREAM_PIECE_WEIGHT */
        uint64_t wt = 0;
        for (n = 0; i + n < nv && n < piece_size && (!n || wt < XF_STREAM_PIECE_WEIGHT); n++)
            wt += weight(sv[i + n]);
        xf_arena *a = take(c);
        if (!a || !XF_VEC_PUSH(c->vecs, c->held, a)) {
            xf_arena_free(a);
            return oom(c);
        }
        uint64_t f0 = w->flushes;
        doc->arena = a;
        ret = piece(c, ws, sv + i, n, i == 0);
        doc->arena = home;
        /* the sequence in progress began in this piece, or is empty */
        if (!ret)
            ret = release(c, w->g.vs.n == 0 ? 0 : w->flushes != f0 ? 1 : c->held.n);
    }
    if (!ret) {
        xf_stmt **po;
        uint32_t npo;
        xf_arena *a = take(c);
        if (!a || !XF_VEC_PUSH(c->vecs, c->held, a)) {
            xf_arena_free(a);
            return oom(c);
        }
        uint32_t s0 = c->scope->syms.n;
        doc->arena = a;
        ret = xf_pre_pieces_end(c->pre, &po, &npo) || note_added(c, s0, 2) ||
              write_out(c, ws, po, npo);
        doc->arena = home;
    }
    return release(c, 0) || ret ? -1 : 0;
}

static int
block(void *ctx, xf_wstream *ws, const xf_cvertex *b)
{
    return run_block(ctx, ws, b->stmts.v, b->stmts.n);
}

int
xf_sb_new(xf_pass_ctx *ctx, xf_routine *rt, void *adjoin_state, bool propagate, xf_sb **out)
{
    *out = NULL;
    (void)size();
    pieces *c = calloc(1, sizeof *c);
    if (!c)
        return xf_pass_oom(ctx);
    *c = (pieces){.ctx = ctx,
                  .scope = rt->cfg_scope,
                  .base = rt->cfg_scope->syms.n,
                  .propagate = propagate,
                  .lin_a = xf_arena_new(),
                  .pre_a = xf_arena_new(),
                  .vecs = xf_arena_new()};
    *out = c;
    ctx->state = NULL;
    if (!c->lin_a || !c->pre_a || !c->vecs)
        return oom(c);
    if (xf_lin_pieces_new(ctx, rt, c->lin_a, &c->lin) ||
        xf_pre_pieces_new(ctx, rt, c->pre_a, &c->pre))
        return -1;
    if (adjoin_state) {
        if (!(c->adj_a = xf_arena_new()))
            return oom(c);
        if (xf_adj_pieces_new(ctx, adjoin_state, rt, c->adj_a, &c->adj))
            return -1;
        if (!c->adj)
            return -1; /* xf_stream_adjoint_wanted asked for a routine adjoin works on */
    }
    return !c->lin || !c->pre ? -1 : 0; /* the callers asked for a routine they work on */
}

int
xf_sb_block(xf_sb *c, xf_wstream *ws, xf_stmt *const *v, uint32_t n)
{
    return run_block(c, ws, v, n);
}

int
xf_sb_unspill(xf_sb *c, xf_wstream *ws)
{
    for (uint32_t i = c->ends.n; i-- > 0;)
        if (xf_wstream_unspill(ws, i ? c->ends.v[i - 1] : 0, c->ends.v[i]))
            return -1;
    c->ends.n = 0;
    xf_wstream_spill_reset(ws);
    return 0;
}

int
xf_sb_finish(xf_sb *c)
{
    return reorder(c);
}

void
xf_sb_free(xf_sb *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; i < c->held.n; i++)
        xf_arena_free(c->held.v[i]);
    for (uint32_t i = 0; i < c->spare.n; i++)
        xf_arena_free(c->spare.v[i]);
    xf_lin_pieces_free(c->lin);
    xf_pre_pieces_free(c->pre);
    xf_adj_pieces_free(c->adj);
    xf_arena_free(c->lin_a);
    xf_arena_free(c->pre_a);
    xf_arena_free(c->adj_a);
    xf_arena_free(c->vecs);
    free(c->added);
    free(c);
}

int
xf_stream_block_routine(xf_pm_stream *s, xf_routine *rt, xf_wstream *ws)
{
    xf_pass_ctx *ctx = s->ctx;
    int n = s->n;
    s->n = n - 3; /* the passes before linearize, as xf_pm_stream_routine runs them */
    int ret = xf_pm_stream_routine(s, rt);
    s->n = n;
    if (ret)
        return -1;
    if (rt->is_rlist || rt->reps.n || !rt->cfg_scope) { /* a pass before made a ReplacementList */
        xf_pm_stream last = *s;
        last.n = 3;
        memcpy(last.passes, s->passes + n - 3, 3 * sizeof *last.passes);
        memcpy(last.state, s->state + n - 3, 3 * sizeof *last.state);
        ret = xf_pm_stream_routine(&last, rt);
        memcpy(s->state + n - 3, last.state, 3 * sizeof *last.state);
        s->scratch = last.scratch;
        return ret || xf_wstream_routine(ws, rt) ? -1 : 0;
    }
    xf_sb *c;
    ret = xf_sb_new(ctx, rt, NULL, true, &c);
    if (!ret)
        ret = xf_wstream_routine_pieces(ws, rt, block, c);
    if (!ret)
        ret = xf_sb_finish(c);
    if (ret && !xf_diag_errors(ctx->diag))
        xf_error(ctx->diag, ctx->doc->filename, rt->h.line, "pass linearize failed");
    xf_sb_free(c);
    return ret;
}
