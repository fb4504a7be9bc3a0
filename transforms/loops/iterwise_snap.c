/* iterwise_snap.c: the inputs of a dry-run loop kept for the adjoint sweep
 * of split reversal (iterwise.h).
 *
 * Dry-running (F5, iterwise.c) runs a loop again in the adjoint sweep, on
 * the values the loop read in the taping sweep. The joint template gives
 * it those: the adjoint sweep follows the taping sweep in one activation
 * of the routine, and for a routine that is called, right after the
 * caller has restored its arguments. The split template does neither: the
 * adjoint sweep runs in a new activation (the locals are not set), and
 * for a called routine after the caller has run on (its arguments and the
 * globals may hold other values). So under --reversal split (or none) the
 * taping sweep takes a snapshot of every variable the loop reads, whole
 * (of the top routine, whose arguments and globals the driver leaves as
 * they are between the sweeps, the locals only: iterwise.c has checked
 * that nothing after the loop overwrites what it reads),
 * right before the loop (ckp_take, ckp_store_*: docs/checkpointing.md),
 * and the adjoint sweep reads it back right before the loop's rerun
 * (ckp_top, ckp_restore_*, ckp_drop). Writing those values back is safe:
 * a value the adjoint sweep reads from memory is one nothing overwrites
 * after the statement that reads it, so where the adjoint sweep goes on
 * from the loop (backwards, to what ran before it) the variable held the
 * value it held when the loop began; what the loop itself writes the
 * adjoint sweep outside the loop does not read (iterwise.c checks).
 *
 * The snapshot goes at the end of the basic block right before the loop
 * in each sweep (both loops at the routine's top level); a loop without
 * such a block is left alone. Variables of other types than real,
 * integer and logical, and arrays without declared bounds, are refused. */
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "build.h"
#include "iterwise.h"
#include "iterdry.h"

enum { XF_IW_WHY = 200 };

/* The basic block that runs right before top-level region @r of @t, or NULL. */
static xf_cvertex *
block_before(const xf_cfgtree *t, const xf_region *r)
{
    if (!r || r->parent)
        return NULL;
    for (uint32_t k = 1; k < t->top.v.n; k++)
        if (t->top.v.v[k] == r)
            return t->top.v.v[k - 1]->kind == XF_RG_BLOCK ? t->top.v.v[k - 1]->v : NULL;
    return NULL;
}

/* ---- what the loop reads before it writes it */

static const xf_symbol *
lhs_sym(const xf_stmt *st)
{
    const xf_symref *r = st && st->kind == XF_STMT_ASSIGN ? xf_varref_symref(&st->u.as.lhs) : NULL;
    return r && !xf_varref_arrref(&st->u.as.lhs) ? r->sym : NULL;
}

/* Statement @st of the loop's straight line: its reads are counted in
 * @read; a whole scalar it assigns that nothing read before (itself
 * included) is an iteration's temporary (@tmp). */
static void
step(uint32_t n, int32_t *read, uint8_t *tmp, const xf_stmt *st)
{
    if (!st)
        return;
    const xf_symbol *s = lhs_sym(st);
    bool unread = s && s->index < n && !read[s->index];
    xf_dry_stmt_reads_own(read, n, st, 1);
    if (unread && !read[s->index] && xf_shape_rank(s->shape) == 0)
        tmp[s->index] = 1;
}

/* Per symbol index, 1 for the values loop @l2 reads (header and body),
 * but for the whole scalars every iteration assigns before it reads them
 * (in the body's straight line: its blocks, and the headers of the loops
 * in it). */
static int32_t *
inputs(xf_pass_ctx *ctx, const xf_region *l2)
{
    uint32_t n = ctx->doc->nsymbols;
    int32_t *read = XF_NEW_ARRAY(ctx->scratch, n + 1, int32_t),
            *all = XF_NEW_ARRAY(ctx->scratch, n + 1, int32_t);
    uint8_t *tmp = XF_NEW_ARRAY(ctx->scratch, n + 1, uint8_t);
    if (!read || !all || !tmp)
        return NULL;
    /* the header: the bounds are read before anything */
    step(n, read, tmp, l2->v->init);
    for (uint32_t k = 0; k < l2->body.v.n; k++) {
        const xf_region *r = l2->body.v.v[k];
        if (r->kind == XF_RG_BLOCK) {
            for (uint32_t j = 0; j < r->v->stmts.n; j++)
                step(n, read, tmp, r->v->stmts.v[j]);
        } else if (r->kind == XF_RG_LOOP && r->v->init) {
            step(n, read, tmp, r->v->init);
            break; /* past it, the order is not the straight line's */
        } else
            break;
    }
    xf_dry_region_reads(all, n, l2);
    for (uint32_t i = 0; i < n; i++)
        all[i] = !tmp[i] && all[i] > 0;
    return all;
}

/* ---- is it worth it: the snapshot's words against the tape it saves */

static bool
is_push(const xf_stmt *st)
{
    return st->kind == XF_STMT_ICALL && st->u.icall.name && !strncmp(st->u.icall.name, "push", 4);
}

/* Trips of loop region @r when its header has constant bounds and step, else 0. */
static int64_t
trips(const xf_region *r)
{
    xf_loophead h;
    int64_t lo, hi;
    if (!xf_loop_header(r->v, &h) || !h.step || h.lo_x->v.n != 1 || h.hi_x->v.n != 1 ||
        !xf_const_int_of(h.lo_x, &lo) || !xf_const_int_of(h.hi_x, &hi))
        return 0;
    int64_t t = (hi + h.adjust - lo) / h.step + 1;
    return t > 0 ? t : 0;
}

/* Words pushed by one run of the regions of @s (an inner loop whose trip
 * count is not constant counted as one trip). */
static double
pushes(const xf_rgseq *s)
{
    double w = 0;
    for (uint32_t k = 0; k < s->v.n; k++) {
        const xf_region *r = s->v.v[k];
        for (uint32_t j = 0; r->kind == XF_RG_BLOCK && j < r->v->stmts.n; j++)
            w += is_push(r->v->stmts.v[j]);
        if (r->kind == XF_RG_LOOP) {
            int64_t t = trips(r);
            w += (double)(t ? t : 1) * pushes(&r->body);
        }
        for (uint32_t a = 0; a < r->arms.n; a++)
            w += pushes(&r->arms.v[a].body);
    }
    return w;
}

/* The elements of dimension @b, in double: no integer arithmetic that
 * extreme bounds could overflow; an absent bound (which the reader
 * refuses) counts as unbounded. */
static double
extent(const xf_dimbounds *b)
{
    if (b->lower == XF_NOINT || b->upper == XF_NOINT)
        return INFINITY;
    return b->upper < b->lower ? 0 : (double)b->upper - (double)b->lower + 1;
}

static double
words(const xf_symbol *s)
{
    double w = 1;
    for (uint32_t k = 0; k < s->dims.n; k++)
        w *= extent(&s->dims.v[k]);
    return w;
}

/* The edge of @g into top-level region @r of @t from what runs before it
 * (the one whose source is not inside @r), or NULL. */
static xf_cedge *
edge_into(xf_pass_ctx *ctx, const xf_graph *g, const xf_cfgtree *t, const xf_region *r)
{
    if (!r || r->parent)
        return NULL;
    uint8_t *in = XF_NEW_ARRAY(ctx->scratch, g->v.n + 1, uint8_t);
    if (!in)
        return NULL;
    for (uint32_t k = r->index; k < t->all.n && xf_dry_inside(t->all.v[k], r); k++) {
        const xf_region *q = t->all.v[k];
        if (q->v && q->v->index < g->v.n && g->v.v[q->v->index] == q->v)
            in[q->v->index] = 1;
        if (q->end && q->end->index < g->v.n && g->v.v[q->end->index] == q->end)
            in[q->end->index] = 1;
    }
    xf_cedge *found = NULL;
    for (uint32_t k = 0; k < g->e.n; k++) {
        const xf_cedge *e = g->e.v[k];
        if (e->tgt != r->v ||
            (e->src->index < g->v.n && g->v.v[e->src->index] == e->src && in[e->src->index]))
            continue;
        if (found)
            return NULL; /* two ways in */
        found = g->e.v[k];
    }
    return found;
}

/* A new basic block on edge @e of @g (@e now ends at it, a new edge goes on
 * to where @e went). */
static xf_cvertex *
block_on(xf_pass_ctx *ctx, const xf_loopdep *d, xf_graph *g, xf_cedge *e, unsigned *serial)
{
    xf_doc *doc = ctx->doc;
    const char *id = xf_derived_id(doc, "snapb", ++*serial, d->v->id);
    xf_cvertex *b = id ? xf_graph_vertex(doc, g, XF_CV_BASICBLOCK, id) : NULL;
    const char *eid = b ? xf_derived_id(doc, "snape", ++*serial, d->v->id) : NULL;
    if (!eid || !xf_graph_edge(doc, g, b, e->tgt, eid, false, 0))
        return NULL;
    b->scope = d->rt->cfg_scope;
    for (uint32_t k = 0; k < g->v.n; k++)
        if (g->v.v[k]->kind == XF_CV_BASICBLOCK && g->v.v[k]->scope && g->v.v[k] != b) {
            b->scope = g->v.v[k]->scope;
            break;
        }
    e->tgt = b;
    return b;
}

static bool
append(xf_doc *doc, xf_cvertex *b, xf_stmt *s)
{
    return s && XF_VEC_PUSH(doc->arena, b->stmts, s);
}

const char *
xf_iw_snap_plan(xf_pass_ctx *ctx, const xf_loopdep *d, const xf_graph *g2, const xf_cfgtree *t2,
                const xf_region *l2, const xf_graph *g3, const xf_cfgtree *t3, const xf_region *l3,
                xf_iw_snap *out)
{
    memset(out, 0, sizeof *out);
    out->b2 = block_before(t2, l2);
    out->b3 = block_before(t3, l3);
    out->e2 = out->b2 ? NULL : edge_into(ctx, g2, t2, l2);
    out->e3 = out->b3 ? NULL : edge_into(ctx, g3, t3, l3);
    if ((!out->b2 && !out->e2) || (!out->b3 && !out->e3))
        return "not at the top level of the routine in both sweeps, where its inputs would be "
               "kept";
    uint32_t n = ctx->doc->nsymbols;
    int32_t *c = inputs(ctx, l2);
    if (!c)
        return "out of memory";
    double kept = 0, largest = 1;
    /* the symbols the loop reads: the counts are by index, so look
     * through the scopes the routine sees (its own, then those around it) */
    for (const xf_scope *sc = d->rt->cfg_scope; sc; sc = sc->parent) {
        for (uint32_t j = 0; j < sc->syms.n; j++) {
            xf_symbol *s = sc->syms.v[j];
            if (s->index >= n || c[s->index] <= 0 || s->kind != XF_SYMKIND_VARIABLE ||
                xf_is_temporary(s) || s == d->index || (!d->called && !xf_is_local(d->rt, s)))
                continue;
            c[s->index] = 0; /* once */
            if (!xf_dry_snap_kind(s)) {
                char *why = XF_NEW_ARRAY(ctx->scratch, XF_IW_WHY, char);
                if (!why)
                    return "out of memory";
                snprintf(why, XF_IW_WHY,
                         "it reads %s, which is neither real, integer nor logical, and split "
                         "reversal would need it kept for the adjoint sweep",
                         s->id);
                return why;
            }
            if (xf_shape_rank(s->shape) > 0 && s->dims.n != (uint32_t)xf_shape_rank(s->shape)) {
                char *why = XF_NEW_ARRAY(ctx->scratch, XF_IW_WHY, char);
                if (!why)
                    return "out of memory";
                snprintf(why, XF_IW_WHY,
                         "it reads %s, an array without declared bounds, which split reversal "
                         "would need kept for the adjoint sweep",
                         s->id);
                return why;
            }
            if (!XF_VEC_PUSH(ctx->scratch, out->vars, s))
                return "out of memory";
            kept += words(s);
            for (uint32_t q = 0; q < s->dims.n; q++)
                if (extent(&s->dims.v[q]) > largest)
                    largest = extent(&s->dims.v[q]);
        }
    }
    /* the tape the loop would hold: one iteration's pushes times its trips
     * (unknown: the longest extent of an array it reads) */
    int64_t t = trips(l2);
    double tape = pushes(&l2->body) * (t ? (double)t : largest);
    if (kept >= tape) {
        char *why = XF_NEW_ARRAY(ctx->scratch, XF_IW_WHY, char);
        if (!why)
            return "out of memory";
        snprintf(why, XF_IW_WHY,
                 "split reversal would keep %.0f words of what it reads for the adjoint sweep, "
                 "no fewer than the %.0f its tape holds",
                 kept, tape);
        return why;
    }
    return NULL;
}

/* InlinableSubroutineCall @name(@sym) (@sym NULL: no argument; @step: the
 * integer constant -1 instead). */
static xf_stmt *
call(xf_pass_ctx *ctx, const xf_loopdep *d, unsigned *serial, const char *name, xf_symbol *sym,
     bool step)
{
    const char *id = xf_derived_id(ctx->doc, "snap", ++*serial, d->v->id);
    xf_stmt *s = id ? xf_stmt_icall(ctx->doc, id, xf_intern(ctx->doc, name)) : NULL;
    if (!s)
        return NULL;
    if (step && !xf_icall_const(ctx->doc, s, XF_TYPE_INTEGER, "-1"))
        return NULL;
    if (sym) {
        xf_varref *r = xf_ref_new(ctx->doc, sym);
        if (!r || !xf_icall_ref(ctx->doc, s, r))
            return NULL;
    }
    return s;
}

int
xf_iw_snap_emit(xf_pass_ctx *ctx, const xf_loopdep *d, xf_graph *g2, xf_graph *g3, xf_iw_snap *p,
                unsigned *serial)
{
    if (!p->b2) {
        if (!(p->b2 = block_on(ctx, d, g2, p->e2, serial)))
            return -1;
        xf_graph_renumber(g2);
    }
    if (!p->b3) {
        if (!(p->b3 = block_on(ctx, d, g3, p->e3, serial)))
            return -1;
        xf_graph_renumber(g3);
    }
    unsigned counter = 0;
    xf_symbol *top = xf_fresh_symbol(ctx->doc, d->rt->cfg_scope, "OpenAD_snap_", &counter,
                                     XF_TYPE_INTEGER, XF_SHAPE_SCALAR, false);
    if (!top || !append(ctx->doc, p->b2, call(ctx, d, serial, "ckp_take", NULL, true)) ||
        !append(ctx->doc, p->b3, call(ctx, d, serial, "ckp_top", top, false)))
        return -1;
    char name[64];
    for (uint32_t k = 0; k < p->vars.n; k++) {
        xf_symbol *s = p->vars.v[k];
        snprintf(name, sizeof name, "ckp_store_%s", xf_dry_snap_kind(s));
        if (!append(ctx->doc, p->b2, call(ctx, d, serial, name, s, false)))
            return -1;
        snprintf(name, sizeof name, "ckp_restore_%s", xf_dry_snap_kind(s));
        if (!append(ctx->doc, p->b3, call(ctx, d, serial, name, s, false)))
            return -1;
    }
    return append(ctx->doc, p->b3, call(ctx, d, serial, "ckp_drop", NULL, false)) ? 0 : -1;
}
