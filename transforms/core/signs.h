/* signs.h: the signs of negated partials, for preaccumulate in an adjoint.
 * A partial OpenAD_lin_* = -(e) (cos's partial -sin, a quotient's by its
 * denominator) that the routine reads once, as the weight of a Sax the
 * graph takes (lcg.h), is assigned e instead, and the graph weighs it -1
 * (xf_lcg.neg): the products and sums of an elimination carry the sign at
 * no cost, and preaccumulate applies a weight left negated without
 * negating it (preaccumulate.c, negated). */
#ifndef XF_TRANSFORMS_SIGNS_H
#define XF_TRANSFORMS_SIGNS_H

#include "arena.h"
#include "ir.h"
#include "lcg.h"
#include "map.h"
#include "pass.h"

typedef struct xf_signs {
    xf_pass_ctx *ctx;
    xf_arena *a; /* the maps' storage, for one routine */
    xf_map neg;  /* the partials of the block done last whose sign went into the graph */
    xf_map uses; /* OpenAD_lin_* symbol -> how often the routine reads or writes it */
    xf_map defs; /* a partial of neg -> its definition (struct xf_signs_def) */
} xf_signs;

/** xf_signs_begin: for the routine whose blocks @g holds. 0, or -1 after a report. */
int xf_signs_begin(xf_signs *p, xf_pass_ctx *ctx, const xf_graph *g);

/** xf_signs_fold: rewrite block @b's negated partials; p->neg then names
 * them (those of the block before are forgotten). 0, or -1 after a report. */
int xf_signs_fold(xf_signs *p, xf_cvertex *b);

/** xf_signs_unfold: propagator @dp stays as it is (the graph did not take
 * it): a partial of p->neg that it reads gets its negation back, and leaves
 * p->neg. 0, or -1 after a report. */
int xf_signs_unfold(xf_signs *p, const xf_stmt *dp);

/** xf_signs_end: free what begin took (also after a failed begin). */
void xf_signs_end(xf_signs *p);

#endif
