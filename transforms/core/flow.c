/* flow.c: statements that may follow a statement (flow.h). The vertices
 * reached from one vertex are found by a search over the edges, kept for
 * the last vertex asked about (a reader asks vertex by vertex). */
#include <stdlib.h>

#include "flow.h"

/* The whole work of the searches of one graph, in vertices and edges
 * visited, past which every statement is taken to follow. */
#define XF_FLOW_BUDGET 100000000L

struct xf_flow {
    uint32_t n;
    uint32_t *first; /* n + 1: successors of vertex i are succ[first[i] .. first[i + 1]) */
    uint32_t *succ;
    uint32_t *stack;
    bool *seen;    /* reached from vertex from by one edge or more */
    uint32_t from; /* UINT32_MAX: none searched yet */
    long work;
};

xf_flow *
xf_flow_new(const xf_graph *g)
{
    xf_flow *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->n = g->v.n;
    f->from = UINT32_MAX;
    f->first = calloc((size_t)f->n + 1, sizeof *f->first);
    f->succ = calloc((size_t)g->e.n + 1, sizeof *f->succ);
    f->stack = calloc((size_t)f->n + 1, sizeof *f->stack);
    f->seen = calloc((size_t)f->n + 1, sizeof *f->seen);
    if (!f->first || !f->succ || !f->stack || !f->seen) {
        xf_flow_free(f);
        return NULL;
    }
    for (uint32_t i = 0; i < g->e.n; i++)
        if (g->e.v[i]->src->index < f->n)
            f->first[g->e.v[i]->src->index + 1]++;
    for (uint32_t i = 0; i < f->n; i++)
        f->first[i + 1] += f->first[i];
    uint32_t *fill = f->stack; /* the next free slot of each vertex, borrowed */
    for (uint32_t i = 0; i < f->n; i++)
        fill[i] = f->first[i];
    for (uint32_t i = 0; i < g->e.n; i++) {
        const xf_cedge *e = g->e.v[i];
        if (e->src->index < f->n && e->tgt->index < f->n)
            f->succ[fill[e->src->index]++] = e->tgt->index;
    }
    return f;
}

void
xf_flow_free(xf_flow *f)
{
    if (!f)
        return;
    free(f->first);
    free(f->succ);
    free(f->stack);
    free(f->seen);
    free(f);
}

/* Mark the vertices reached from @v by one edge or more. */
static void
search(xf_flow *f, uint32_t v)
{
    for (uint32_t i = 0; i < f->n; i++)
        f->seen[i] = false;
    uint32_t top = 0;
    f->stack[top++] = v;
    while (top) {
        uint32_t u = f->stack[--top];
        f->work++;
        for (uint32_t k = f->first[u]; k < f->first[u + 1]; k++) {
            uint32_t s = f->succ[k];
            f->work++;
            if (!f->seen[s]) {
                f->seen[s] = true;
                f->stack[top++] = s;
            }
        }
    }
    f->from = v;
}

bool
xf_flow_follows(xf_flow *f, uint32_t cv, uint32_t cs, uint32_t wv, uint32_t ws)
{
    if (wv == cv && ws >= cs)
        return true;
    if (cv >= f->n || wv >= f->n)
        return true;
    if (f->from != cv) {
        if (f->work > XF_FLOW_BUDGET)
            return true;
        search(f, cv);
    }
    return f->seen[wv];
}
