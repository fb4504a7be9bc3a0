/* adjzero.h: where an adjoint increment finds its target zero (adjzero.c).
 * Not a pass: adjoin asks it per routine before it rewrites the
 * propagators. */
#ifndef XF_TRANSFORMS_ADJZERO_H
#define XF_TRANSFORMS_ADJZERO_H

#include "arena.h"
#include "cfgtree.h"
#include "ir.h"
#include "tbr.h"

typedef struct xf_adjzero xf_adjzero;

/**
 * xf_adjzero_plan:
 * For routine @rt's taping placeholder @g (its propagators not yet
 * adjoined; @tbr the operations adjoin leaves out, may be NULL): which
 * terms' adjoint x̄ += a·ȳ finds x̄ zero, so that x̄ = a·ȳ does the same.
 * x is then a real scalar local of @rt and, on every path of @g from after
 * the operation, its derivative is overwritten before anything reads it
 * (or the routine ends: a local's adjoint starts at zero in each
 * activation); the term is the first of its operation that reads x.
 * @returns 0 with *@out the plan (NULL: none found or the routine too big
 * to look at), -1 when out of memory.
 */
int xf_adjzero_plan(const xf_doc *doc, const xf_routine *rt, const xf_graph *g, const xf_tbr *tbr,
                    xf_arena *a, xf_adjzero **out);

/** xf_adjzero_first: is the adjoint of the term whose source is @src (a
 * reference of an operation of the plan's graph: &op->src or
 * &op->ax.v[j].x) an assignment? @z may be NULL. */
bool xf_adjzero_first(const xf_adjzero *z, const xf_varref *src);

/**
 * xf_adjzero_once (adjzero_once.c):
 * Does array element reference @r, in the basic block of region @block,
 * read a different element each time it runs in one activation? Each loop
 * around @block is a DO loop with a constant step whose variable nothing
 * in its body may assign, and one subscript of @r of its own is that
 * variable plus or minus a constant. @local: the routine's scope (a call
 * may assign a loop variable of another scope); @hosts: the routine hosts
 * procedures (a call may assign any of its variables). @budget bounds the
 * statements looked at (decremented; spent: false).
 */
bool xf_adjzero_once(const xf_region *block, const xf_varref *r, const xf_scope *local, bool hosts,
                     uint64_t *budget);

/** xf_adjzero_count: how many terms the plan found. */
unsigned xf_adjzero_count(const xf_adjzero *z);

#endif
