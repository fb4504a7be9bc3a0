/* flow.h: which statements of a routine may run after a given one, in the
 * same activation (the edges of its control-flow graph, loops included).
 * Used by argstable.c: a caller's write of an actual matters to a call's
 * argument checkpoint only when the write may follow the call. */
#ifndef XF_TRANSFORMS_FLOW_H
#define XF_TRANSFORMS_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

typedef struct xf_flow xf_flow;

/** xf_flow_new: the successors of @g's vertices; NULL when out of memory. */
xf_flow *xf_flow_new(const xf_graph *g);

/** xf_flow_free: release @f. NULL is allowed. */
void xf_flow_free(xf_flow *f);

/**
 * xf_flow_follows:
 * May statement @ws of vertex @wv run at or after statement @cs of vertex
 * @cv (indices into the graph's vectors)? True for a later statement of
 * the same vertex, the statement itself, any statement of a vertex reached
 * by one edge or more (of @cv too when it lies on a cycle). True as well
 * when the graph is too large to follow (a bound on the work), which only
 * keeps more checkpoints.
 */
bool xf_flow_follows(xf_flow *f, uint32_t cv, uint32_t cs, uint32_t wv, uint32_t ws);

#endif
