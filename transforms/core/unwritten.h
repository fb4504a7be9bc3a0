/* unwritten.h: which scalars no statement of a routine's graph writes
 * (pass reverse, --reversal joint: loop bounds read again, not taped).
 *
 * Under the joint template a routine's adjoint sweep runs right after its
 * taping sweep, in the same activation. A variable that nothing in the
 * routine writes holds one value through both, so an expression that
 * reads only such scalars (and constants and operations) has in the
 * adjoint sweep the value it had in the taping sweep, and needs no tape.
 * Written: the left side of an assignment or of a loop's init or update,
 * and an argument of a call or inlinable call (a pop, a callee that may
 * write it). A variable other routines may reach (an argument, a global:
 * not xf_is_private) counts as written when the graph calls any routine,
 * or writes any such variable of the same type (they may share storage). */
#ifndef XF_TRANSFORMS_UNWRITTEN_H
#define XF_TRANSFORMS_UNWRITTEN_H

#include <stdbool.h>

#include "arena.h"
#include "ir.h"
#include "map.h"

typedef struct xf_unwritten {
    const xf_routine *rt;
    bool host;      /* rt hosts internal procedures (xf_hosts_procedures) */
    bool any_call;  /* the graph calls a routine */
    bool shared[8]; /* by xf_type (below XF_TYPE_CHAR): a variable others reach is written */
    xf_map written; /* symbol -> itself */
} xf_unwritten;

/** xf_unwritten_fill: gather the writes of graph @g of routine @rt into @w
 * (tables in @a). @returns false when out of memory. */
bool xf_unwritten_fill(xf_unwritten *w, xf_arena *a, const xf_doc *doc, const xf_routine *rt,
                       const xf_graph *g);

/** xf_unwritten_expr: does the operand tree of vertex @v of @x read only
 * constants, operations and scalars that @w found unwritten? */
bool xf_unwritten_expr(const xf_unwritten *w, const xf_expr *x, uint32_t v);

#endif
