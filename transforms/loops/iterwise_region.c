/* iterwise_region.c: see iterwise.h. */
#include <stdio.h>
#include <string.h>

#include "build.h"
#include "iterwise.h"

unsigned
xf_iw_loop_depth(const xf_region *r)
{
    unsigned n = 0;
    for (const xf_region *p = r->parent; p; p = p->parent)
        n += p->kind == XF_RG_LOOP;
    return n;
}

static bool
block_calls(const xf_cvertex *v)
{
    for (uint32_t j = 0; j < v->stmts.n; j++)
        if (v->stmts.v[j]->kind == XF_STMT_CALL)
            return true;
    return false;
}

bool
xf_iw_region_calls(const xf_rgseq *s)
{
    for (uint32_t k = 0; k < s->v.n; k++) {
        const xf_region *r = s->v.v[k];
        if (r->kind == XF_RG_BLOCK && block_calls(r->v))
            return true;
        if (r->kind == XF_RG_LOOP && xf_iw_region_calls(&r->body))
            return true;
        for (uint32_t a = 0; r->kind == XF_RG_BRANCH && a < r->arms.n; a++)
            if (xf_iw_region_calls(&r->arms.v[a].body))
                return true;
    }
    return false;
}

/* One past the last region that @r holds, in pre-order: the regions @r
 * holds are those of index in (r->index, end). O(depth). */
static uint32_t
subtree_end(const xf_region *r)
{
    for (;;) {
        const xf_region *last = NULL;
        if (r->kind == XF_RG_LOOP && r->body.v.n)
            last = r->body.v.v[r->body.v.n - 1];
        for (uint32_t k = r->arms.n; r->kind == XF_RG_BRANCH && !last && k-- > 0;)
            if (r->arms.v[k].body.v.n)
                last = r->arms.v[k].body.v.v[r->arms.v[k].body.v.n - 1];
        if (!last)
            return r->index + 1;
        r = last;
    }
}

/* The blocks and depths live in an arena of their own, freed on return:
 * the callers ask once per loop, and a scratch arena that kept each
 * answer's tables grew with loops x routine size. */
static const xf_region *
adjoint_loop(const xf_cfgtree *t2, const xf_region *l2, const xf_cfgtree *t3, xf_arena *a)
{
    xf_map in = {0}, out = {0};
    uint32_t end2 = subtree_end(l2);
    for (uint32_t k = 0; k < t2->all.n; k++) {
        const xf_region *r = t2->all.v[k];
        bool inside = r->index > l2->index && r->index < end2;
        if (r->kind == XF_RG_BLOCK &&
            !xf_map_put(inside ? &in : &out, a, r->v->id, (void *)r, NULL))
            return NULL;
    }
    unsigned depth = xf_iw_loop_depth(l2);
    unsigned *d3 = XF_NEW_ARRAY(a, t3->all.n + 1, unsigned);
    if (!d3)
        return NULL;
    for (uint32_t k = 0; k < t3->all.n; k++) {
        const xf_region *c = t3->all.v[k], *p = c->parent;
        d3[k] = p && p->index < k ? d3[p->index] + (p->kind == XF_RG_LOOP) : xf_iw_loop_depth(c);
    }
    const xf_region *best = NULL;
    uint32_t most = 0;
    for (uint32_t k = 0; k < t3->all.n; k++) {
        const xf_region *c = t3->all.v[k];
        if (c->kind != XF_RG_LOOP || d3[k] != depth)
            continue;
        uint32_t n = 0, end = subtree_end(c);
        bool other = false;
        for (uint32_t j = c->index + 1; j < end && j < t3->all.n && !other; j++) {
            const xf_region *r = t3->all.v[j];
            if (r->kind != XF_RG_BLOCK)
                continue;
            if (xf_map_get(&in, r->v->id))
                n++;
            else if (xf_map_get(&out, r->v->id))
                other = true;
        }
        if (!other && n > most) {
            most = n;
            best = c;
        }
    }
    return best;
}

/* Linear in the two trees' sizes: the regions a region holds are a range
 * of the pre-order, and the loop depths are one sweep (a nest of D loops
 * looked up D times was D x D x its size). */
const xf_region *
xf_iw_adjoint_loop(const xf_cfgtree *t2, const xf_region *l2, const xf_cfgtree *t3, xf_arena *a)
{
    xf_arena *own = xf_arena_new_like(a);
    if (!own)
        return NULL;
    const xf_region *best = adjoint_loop(t2, l2, t3, own);
    xf_arena_free(own);
    return best;
}

/* An id PREFIXN (_iw_N, _iw_eN) that no vertex of @g has yet, interned. */
static const char *
fresh(xf_doc *doc, const xf_graph *g, const char *prefix, unsigned *serial)
{
    for (;;) {
        char buf[32];
        snprintf(buf, sizeof buf, "%s%u", prefix, (*serial)++);
        const char *id = xf_intern(doc, buf);
        if (!id || !xf_cvertex_find(g, id))
            return id;
    }
}

const char *
xf_iw_move(xf_doc *doc, xf_arena *a, xf_graph *g2, const xf_region *l2, xf_graph *g3,
           const xf_region *l3, unsigned *serial)
{
    if (!l3->body_edge || !l3->end || !l2->end)
        return "its adjoint loop has no body";
    xf_cvertex *first = l3->body_edge->tgt, *end3 = l3->end, *end2 = l2->end;
    uint32_t nv = g3->v.n;
    uint8_t *in = XF_NEW_ARRAY(a, nv + 1, uint8_t);
    if (!in)
        return "out of memory";
    /* the body: what the body edge reaches before the EndLoop */
    in[first->index] = 1;
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t k = 0; k < g3->e.n; k++) {
            const xf_cedge *e = g3->e.v[k];
            if (in[e->src->index] && e->tgt != end3 && !in[e->tgt->index])
                in[e->tgt->index] = grew = 1;
        }
    }
    if (in[l3->v->index])
        return "its adjoint loop's body leaves it";
    for (uint32_t i = 0; i < nv; i++)
        if (in[i] && (g3->v.v[i]->kind == XF_CV_EXIT || g3->v.v[i]->kind == XF_CV_ENTRY))
            return "its adjoint loop's body leaves it";
    uint32_t ne = g3->e.n;
    uint8_t *ein = XF_NEW_ARRAY(a, ne + 1, uint8_t);
    if (!ein)
        return "out of memory";
    for (uint32_t k = 0; k < ne; k++)
        ein[k] = in[g3->e.v[k]->src->index];
    xf_cedge *body = NULL, *leave = NULL, *into2 = NULL;
    for (uint32_t k = 0; k < g3->e.n; k++) {
        xf_cedge *e = g3->e.v[k];
        if (!in[e->src->index] && in[e->tgt->index]) {
            if (e != l3->body_edge)
                return "its adjoint loop's body is entered elsewhere";
            body = e;
        }
        if (in[e->src->index] && e->tgt == end3) {
            if (leave)
                return "its adjoint loop's body has two ends";
            leave = e;
        }
    }
    for (uint32_t k = 0; k < g2->e.n; k++)
        if (g2->e.v[k]->tgt == end2) {
            if (into2)
                return "its taping loop's body has two ends";
            into2 = g2->e.v[k];
        }
    if (!body || !leave || !into2)
        return "its loops have no body";
    /* the adjoint loop keeps an empty block */
    xf_cvertex *empty = xf_graph_vertex(doc, g3, XF_CV_BASICBLOCK, fresh(doc, g3, "_iw_", serial));
    if (!empty)
        return "out of memory";
    empty->scope = end2->scope ? end2->scope : first->scope;
    for (uint32_t i = 0; i < nv && !empty->scope; i++)
        if (g3->v.v[i]->kind == XF_CV_BASICBLOCK)
            empty->scope = g3->v.v[i]->scope;
    if (!xf_graph_edge(doc, g3, empty, end3, fresh(doc, g3, "_iw_e", serial), false, 0))
        return "out of memory";
    body->tgt = empty;
    /* the body's vertices and edges go to g2 */
    uint32_t w = 0;
    XF_VEC(xf_cvertex *) moved = {0};
    for (uint32_t i = 0; i < g3->v.n; i++) {
        xf_cvertex *v = g3->v.v[i];
        if (i < nv && in[i]) {
            if (!XF_VEC_PUSH(a, moved, v))
                return "out of memory";
        } else
            g3->v.v[w++] = v;
    }
    g3->v.n = w;
    xf_map_clear(&g3->vmap);
    for (uint32_t i = 0; i < g3->v.n; i++)
        if (!xf_map_put(&g3->vmap, doc->arena, g3->v.v[i]->id, g3->v.v[i], NULL))
            return "out of memory";
    for (uint32_t i = 0; i < moved.n; i++) {
        moved.v[i]->id = fresh(doc, g2, "_iw_", serial);
        if (!moved.v[i]->id || !xf_graph_adopt(doc, g2, moved.v[i]))
            return "out of memory";
    }
    w = 0;
    for (uint32_t k = 0; k < g3->e.n; k++) {
        xf_cedge *e = g3->e.v[k];
        if (k < ne && ein[k]) {
            if (e == leave)
                e->tgt = end2;
            e->id = fresh(doc, g2, "_iw_e", serial);
            if (!e->id || !XF_VEC_PUSH(doc->arena, g2->e, e))
                return "out of memory";
        } else
            g3->e.v[w++] = e;
    }
    g3->e.n = w;
    into2->tgt = first;
    xf_graph_renumber(g2);
    xf_graph_renumber(g3);
    return NULL;
}

const char *
xf_iw_copy_body(xf_doc *doc, xf_arena *a, const xf_graph *g2, const xf_region *l2, xf_graph *g3,
                const xf_region *l3, const xf_stmt *skip, unsigned *serial)
{
    if (!l2->body_edge || !l2->end || !l3->body_edge)
        return "its loops have no body";
    const xf_cvertex *first = l2->body_edge->tgt, *end = l2->end;
    uint32_t nv = g2->v.n;
    uint8_t *in = XF_NEW_ARRAY(a, nv + 1, uint8_t);
    xf_cvertex **copy = XF_NEW_ARRAY(a, nv + 1, xf_cvertex *);
    if (!in || !copy)
        return "out of memory";
    in[first->index] = 1;
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t k = 0; k < g2->e.n; k++) {
            const xf_cedge *e = g2->e.v[k];
            if (in[e->src->index] && e->tgt != end && !in[e->tgt->index])
                in[e->tgt->index] = grew = 1;
        }
    }
    for (uint32_t i = 0; i < nv; i++)
        if (in[i] && (g2->v.v[i] == l2->v || g2->v.v[i]->kind == XF_CV_EXIT))
            return "its taping loop's body leaves it";
    for (uint32_t i = 0; i < nv; i++) {
        if (!in[i])
            continue;
        const xf_cvertex *v = g2->v.v[i];
        xf_cvertex *c = xf_graph_vertex(doc, g3, v->kind, fresh(doc, g3, "_iw_", serial));
        if (!c)
            return "out of memory";
        const char *id = c->id;
        uint32_t seq = c->seq, index = c->index;
        *c = *v;
        c->id = id;
        c->seq = seq;
        c->index = index;
        memset(&c->stmts, 0, sizeof c->stmts);
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            if (v->stmts.v[k] == skip)
                continue;
            xf_stmt *s = xf_stmt_copy(doc, v->stmts.v[k]);
            if (!s || !XF_VEC_PUSH(doc->arena, c->stmts, s))
                return "out of memory";
        }
        copy[i] = c;
    }
    xf_cvertex *next = l3->body_edge->tgt;
    for (uint32_t k = 0; k < g2->e.n; k++) {
        const xf_cedge *e = g2->e.v[k];
        if (!in[e->src->index])
            continue;
        xf_cvertex *tgt = e->tgt == end ? next : copy[e->tgt->index];
        if (!xf_graph_edge(doc, g3, copy[e->src->index], tgt, fresh(doc, g3, "_iw_e", serial),
                           xf_flag_is(e->has_cv, false), e->cv))
            return "out of memory";
    }
    /* l3's body edge, found in g3 to change it */
    for (uint32_t k = 0; k < g3->e.n; k++)
        if (g3->e.v[k] == l3->body_edge)
            g3->e.v[k]->tgt = copy[first->index];
    xf_graph_renumber(g3);
    return NULL;
}

/* Is every region of @s a basic block without calls? */
bool
xf_iw_blocks_only(const xf_rgseq *s)
{
    for (uint32_t k = 0; k < s->v.n; k++) {
        const xf_region *r = s->v.v[k];
        if (r->kind != XF_RG_BLOCK)
            return false;
        for (uint32_t j = 0; j < r->v->stmts.n; j++)
            if (r->v->stmts.v[j]->kind == XF_STMT_CALL)
                return false;
    }
    return true;
}

/* Does a block of @s have the id @id? */
static bool
holds_id(const xf_rgseq *s, const char *id)
{
    for (uint32_t k = 0; k < s->v.n; k++)
        if (s->v.v[k]->v->id == id)
            return true;
    return false;
}

/* The loop of placeholder 3 that holds the adjoint of @body's blocks. */
const xf_region *
xf_iw_blocks_adjoint(const xf_cfgtree *t3, const xf_rgseq *body)
{
    for (uint32_t k = 0; k < t3->all.n; k++) {
        const xf_region *r = t3->all.v[k];
        if (r->kind != XF_RG_LOOP || !r->body.v.n)
            continue;
        bool all = true;
        for (uint32_t j = 0; j < r->body.v.n && all; j++)
            all = r->body.v.v[j]->kind == XF_RG_BLOCK && holds_id(body, r->body.v.v[j]->v->id);
        if (all)
            return r;
    }
    return NULL;
}
