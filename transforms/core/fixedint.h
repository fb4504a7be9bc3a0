/* fixedint.h: loop bounds the adjoint evaluates again instead of taping
 * them (pass reverse).
 *
 * An explicitly reversed loop needs its bounds in the adjoint. A bound
 * that reads only constants, the variables of the explicitly reversed
 * loops around it (the adjoint runs them backwards through the same
 * values, as it does for a branch's condition) and integer scalar formals
 * of the routine that nothing in its taping sweep or adjoint writes has
 * the same value there: it is evaluated again, not taped. A formal
 * counts as written when it is an assignment's target, a loop header's
 * variable, an argument of a call (the callee may write it) or of an
 * inlinable call other than a push (a pop writes its argument). In a
 * routine that hosts internal procedures no formal counts as fixed. The
 * adjoint reads the formal itself: under the joint template the rerun
 * sees the value its checkpoint restored, under split reversal the
 * caller's push of the integer argument stays (argpush keeps it where
 * the callee's adjoint names the formal). */
#ifndef XF_TRANSFORMS_FIXEDINT_H
#define XF_TRANSFORMS_FIXEDINT_H

#include <stdbool.h>

#include "cfgtree.h"
#include "pass.h"

/* The integer scalar formals of one routine that its graphs do not write. */
typedef struct xf_fixedint {
    xf_map written; /* symbol -> itself: written somewhere */
    bool none;      /* out of memory or a host of internal procedures: nothing fixed */
} xf_fixedint;

/**
 * xf_fixedint_init:
 * Record what @g2 and @g3 (placeholders 2 and 3 of @rt, either NULL) write,
 * storage from @a. On failure @f->none is set and nothing counts as fixed.
 */
void xf_fixedint_init(xf_fixedint *f, xf_arena *a, const xf_doc *doc, const xf_routine *rt,
                      const xf_graph *g2, const xf_graph *g3);

/**
 * xf_fixedint_bound:
 * May the subexpression of @x under vertex @v, a bound of an explicitly
 * reversed loop whose scope is @loops, be evaluated again in the adjoint
 * of @rt (see above)?
 */
bool xf_fixedint_bound(const xf_fixedint *f, const xf_routine *rt, const xf_loopscope *loops,
                       const xf_expr *x, uint32_t v);

#endif
