/* cfg_order.h: what the back ends (xaif2c, xaif2f) share about writing a
 * control-flow graph as labelled code: the order of its vertices, and the
 * recognition of a DO loop with a run-time stride. Language-neutral: it
 * reads the IR and writes nothing. */
#ifndef XF_BACKEND_CFG_ORDER_H
#define XF_BACKEND_CFG_ORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

/* The out-edges of each vertex, in document order: those of vertex v are
 * e[first[v]] .. e[first[v + 1] - 1]. */
typedef struct xf_cfg_outs {
    uint32_t *first;
    const xf_cedge **e;
} xf_cfg_outs;

/**
 * xf_cfg_strided_do:
 * Whether ForLoop @v has condition "i != u" and update "i = i + s" for an
 * integer i: Fortran's DO i = l, u, s with a stride known only at run time
 * (§2.4 of the execution spec); *@up gets u's vertex in the condition.
 */
bool xf_cfg_strided_do(const xf_cvertex *v, uint32_t *up);

/**
 * xf_cfg_lay_out:
 * The order to write @g's vertices in (@order: g->v.n entries): from Entry,
 * each vertex followed by its first out-edge's target not yet placed (a
 * condition-value edge before a default one), so that most jumps fall
 * through; where a chain ends, the next vertex in document order; Exit last.
 */
void xf_cfg_lay_out(const xf_graph *g, const xf_cfg_outs *o, const xf_cvertex **order);

#endif
