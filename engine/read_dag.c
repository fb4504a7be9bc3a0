/* read_dag.c: an expression graph, once its edges are resolved, must be a
 * DAG whose edges fill distinct operand positions: a cycle has no value and
 * sends every walk of a pass or of the interpreter round and round; two
 * operands in one position leave one of them unused. Checked in O(vertices +
 * edges) with Kahn's algorithm over work lists, without recursion. */
#include <stdlib.h>
#include <string.h>

#include "read_impl.h"

/* Scratch room for @bytes, reused from one graph to the next. */
static void *
work(rd *d, size_t bytes)
{
    if (bytes > d->workcap) {
        size_t cap = d->workcap * 2 > bytes ? d->workcap * 2 : bytes;
        void *p = xf_arena_alloc(d->scratch, cap);
        if (!p)
            return NULL;
        d->work = p;
        d->workcap = cap;
    }
    return d->work;
}

static const char *
vid(const xf_expr *x, uint32_t v)
{
    return x->v.v[v].id ? x->v.v[v].id : "?";
}

/* Report the cycle through @v (every vertex on the walk back from @v has a
 * predecessor @pred on the cycle); @seen and @path have room for n. */
static int
report_cycle(rd *d, const xf_expr *x, uint32_t v, const uint32_t *pred, uint32_t *seen,
             uint32_t *path)
{
    uint32_t n = x->v.n;
    memset(seen, 0, n * sizeof *seen);
    while (!seen[v]) { /* walk back until a vertex repeats: it is on the cycle */
        seen[v] = 1;
        v = x->e.v[pred[v]].src;
    }
    uint32_t len = 0, u = v;
    do { /* the cycle backwards, from v */
        path[len++] = u;
        u = x->e.v[pred[u]].src;
    } while (u != v);
    /* forward: v, then the vertices in path from the end, v again */
    char msg[400];
    size_t k = 0;
    for (uint32_t i = len + 1; i-- > 0;) {
        if (k > sizeof msg - 80) {
            snprintf(msg + k, sizeof msg - k, " -> ...");
            break;
        }
        int w = snprintf(msg + k, sizeof msg - k - 8, "%s'%.60s'", i < len ? " -> " : "",
                         vid(x, path[i % len]));
        k += w > 0 ? (size_t)w : 0;
    }
    const xf_eedge *e = &x->e.v[pred[v]];
    return rd_err(d, e->h.line, "expression graph has a cycle: %s (edge '%s')", msg,
                  e->id ? e->id : "?");
}

static int
by_pos(const void *a, const void *b)
{
    const xf_eedge *const *x = a, *const *y = b;
    return (*x)->pos < (*y)->pos ? -1 : (*x)->pos > (*y)->pos;
}

/* The edges in @in (k of them, all into one vertex) fill distinct positions. */
static int
distinct_positions(rd *d, const xf_expr *x, const xf_eedge **in, uint32_t k)
{
    const xf_eedge *dup = NULL;
    if (k <= 16) {
        for (uint32_t i = 1; i < k && !dup; i++)
            for (uint32_t j = 0; j < i && !dup; j++)
                if (in[i]->pos == in[j]->pos)
                    dup = in[i]->seq > in[j]->seq ? in[i] : in[j];
    } else {
        qsort(in, k, sizeof *in, by_pos);
        for (uint32_t i = 1; i < k && !dup; i++)
            if (in[i]->pos == in[i - 1]->pos)
                dup = in[i]; /* no matter which of the two: same target, same position */
    }
    if (!dup)
        return 0;
    return rd_err(d, dup->h.line,
                  "expression vertex '%s' has two operands in position %lld (edge '%s')",
                  vid(x, dup->tgt), (long long)dup->pos, dup->id ? dup->id : "?");
}

/* An expression whose @roots vertices are no edge's source: it has that
 * many values, where an expression has one. */
static int
results(rd *d, const xf_expr *x, uint32_t roots)
{
    return rd_err(d, x->v.n ? x->v.v[x->v.n - 1].h.line : 0,
                  "an expression with %u results (vertices whose value no edge takes); an "
                  "expression has one",
                  roots);
}

int
rd_expr_dag(rd *d, const xf_expr *x)
{
    uint32_t n = x->v.n, m = x->e.n;
    if (!m)
        return n > 1 && !d->lenient ? results(d, x, n) : 0;
    /* in[m] (pointers first, for their alignment), indeg[n], first[n + 1],
     * out[m], queue[n] */
    size_t words = (size_t)3 * n + 1 + m;
    /* m * sizeof(pointer) fits: the m edges (larger) are in memory */
    if (words > (SIZE_MAX - (size_t)m * sizeof(xf_eedge *)) / sizeof(uint32_t))
        return rd_oom(d);
    const xf_eedge **in = work(d, m * sizeof(xf_eedge *) + words * sizeof(uint32_t));
    if (!in)
        return rd_oom(d);
    uint32_t *indeg = (uint32_t *)(void *)(in + m);
    uint32_t *first = indeg + n, *out = first + n + 1, *queue = out + m;
    memset(indeg, 0, (2 * (size_t)n + 1) * sizeof *indeg);
    /* lenient reading leaves dangling edges unresolved: they join nothing */
    for (uint32_t i = 0; i < m; i++)
        if (x->e.v[i].src != UINT32_MAX) {
            indeg[x->e.v[i].tgt]++;
            first[x->e.v[i].src + 1]++;
        }
    for (uint32_t v = 0; v < n; v++)
        first[v + 1] += first[v];
    for (uint32_t i = 0; i < m; i++)
        if (x->e.v[i].src != UINT32_MAX)
            out[first[x->e.v[i].src]++] = i;
    for (uint32_t v = n; v > 0; v--) /* first[] moved one list on: back to the starts */
        first[v] = first[v - 1];
    first[0] = 0;
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < n; v++)
        if (!indeg[v])
            queue[tail++] = v;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint32_t k = first[v]; k < first[v + 1]; k++)
            if (!--indeg[x->e.v[out[k]].tgt])
                queue[tail++] = x->e.v[out[k]].tgt;
    }
    if (tail < n) {
        /* a vertex left has a predecessor left: remember one edge from it */
        uint32_t left = UINT32_MAX;
        for (uint32_t i = 0; i < m; i++) {
            const xf_eedge *e = &x->e.v[i];
            if (e->src != UINT32_MAX && indeg[e->src] && indeg[e->tgt]) {
                queue[e->tgt] = i;
                left = e->tgt;
            }
        }
        return report_cycle(d, x, left, queue, first, out);
    }
    /* operand positions: the incoming edges of each vertex side by side */
    memset(first, 0, (n + 1) * sizeof *first);
    for (uint32_t i = 0; i < m; i++)
        if (x->e.v[i].src != UINT32_MAX)
            first[x->e.v[i].tgt + 1]++;
    for (uint32_t v = 0; v < n; v++)
        first[v + 1] += first[v];
    memcpy(queue, first, n * sizeof *queue);
    for (uint32_t i = 0; i < m; i++)
        if (x->e.v[i].src != UINT32_MAX)
            in[queue[x->e.v[i].tgt]++] = &x->e.v[i];
    for (uint32_t v = 0; v < n; v++)
        if (first[v + 1] - first[v] > 1 &&
            distinct_positions(d, x, in + first[v], first[v + 1] - first[v]))
            return -1;
    if (d->lenient)
        return 0;
    /* distinct positions, each in 1..k: the operands are numbered 1..k */
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = first[v]; k < first[v + 1]; k++)
            if (in[k]->pos < 1 || in[k]->pos > (int64_t)(first[v + 1] - first[v]))
                return rd_err(d, in[k]->h.line,
                              "expression vertex '%s' has %u operands, but edge '%s' gives "
                              "position %lld (operands are numbered 1..%u)",
                              vid(x, v), first[v + 1] - first[v], in[k]->id ? in[k]->id : "?",
                              (long long)in[k]->pos, first[v + 1] - first[v]);
    /* one result: one vertex whose value no other vertex takes (every edge
     * is resolved: not lenient) */
    memset(indeg, 0, n * sizeof *indeg);
    for (uint32_t i = 0; i < m; i++)
        indeg[x->e.v[i].src] = 1;
    uint32_t roots = 0;
    for (uint32_t v = 0; v < n; v++)
        roots += !indeg[v];
    return roots == 1 ? 0 : results(d, x, roots);
}
