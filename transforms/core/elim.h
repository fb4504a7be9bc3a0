/* elim.h: vertex elimination on a linearized computational graph (lcg.h):
 * the orders preaccumulate chooses from (Naumann et al. [000] §3.2-3.3;
 * Naumann, "The Art of Differentiating Computer Programs", ch. 2: forward,
 * reverse and Markowitz vertex elimination). Eliminating a vertex gives each
 * predecessor an edge to each successor weighted with the product of the
 * two edges' weights, added to an edge already there; the weights are
 * combined by an algebra the caller gives (preaccumulate's writes the
 * accumulation code). */
#ifndef XF_TRANSFORMS_ELIM_H
#define XF_TRANSFORMS_ELIM_H

#include <stdint.h>

#include "lcg.h"

/* ORDER mode: the orders, as preaccumulate names them. */
typedef enum xf_elim_order {
    XF_ORDER_NONE,      /* nothing eliminated: the propagation as linearize wrote it */
    XF_ORDER_STATEMENT, /* each statement's temporaries (its local gradient) */
    XF_ORDER_FORWARD,   /* every intermediate, in the order of the statements */
    XF_ORDER_REVERSE,   /* every intermediate, last first */
    XF_ORDER_MARKOWITZ, /* every intermediate, the fewest live in-edges x out-edges first */
    XF_ORDER_COUNT
} xf_elim_order;

/** xf_elim_order_name: "none", "statement", "forward", "reverse" or "markowitz". */
const char *xf_elim_order_name(xf_elim_order m);

/* How weights combine: 0, or -1 after reporting (to the caller's diag). */
typedef struct xf_elim_algebra {
    void *ctx;
    int (*product)(void *ctx, const xf_lcg_wt *a, const xf_lcg_wt *b, xf_lcg_wt *out);
    int (*sum)(void *ctx, const xf_lcg_wt *a, const xf_lcg_wt *b, xf_lcg_wt *out);
} xf_elim_algebra;

/* What an elimination did. */
typedef struct xf_elim_result {
    const uint32_t *order; /* the vertices eliminated, in order (in the graph's arena) */
    uint32_t n;
    uint64_t products; /* edge pairs multiplied: the sum of live in x out degrees */
    uint64_t sums;     /* products added to an edge already there */
} xf_elim_result;

/**
 * xf_elim_run:
 * Eliminate in @g the vertices order @m takes. Before forward, reverse and
 * Markowitz, an output that other vertices read is split (the copy keeps
 * the edges and is eliminated, a new vertex takes its value over a unit
 * edge), so that every output then depends on inputs only. Vertices to
 * eliminate: not an input, and not the final version of an output;
 * statement order takes OpenAD_aux_* temporaries only. Markowitz takes
 * the smallest live in-degree x out-degree, the first vertex on a tie.
 * @alg: the weights' product and sum; NULL multiplies and adds the
 *       constants c (variables ignored).
 * @res: if not NULL, what was done.
 * @returns 0, or -1 after a report (out of memory, or the algebra's).
 */
int xf_elim_run(xf_lcg *g, xf_elim_order m, const xf_elim_algebra *alg, xf_elim_result *res);

#endif
