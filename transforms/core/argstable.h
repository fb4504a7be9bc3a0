/* argstable.h: formals whose argument checkpoint the joint template does
 * not need (pass template, --reversal joint).
 *
 * Under OpenAD's joint template a routine R is called twice by its caller
 * P, in one activation of P: plainly in P's taping sweep (after storing
 * R's arguments, placeholder 4) and again in P's adjoint sweep (after
 * restoring them, placeholder 6), to tape and adjoin. Between the two only
 * P's own code runs. A formal F of R needs no store then when R never
 * writes F (F is not on R's Mod lists) and, at every call of R, the actual
 * argument is a variable P never writes: not on P's Mod lists when it is
 * a formal or global of P; when it is a local of P, no assignment to it
 * and no call that passes it to a formal on the callee's Mod lists among
 * the statements that may run from the call on (the rest of its block and
 * the blocks reachable from it: writes before the call leave both runs
 * the same value; in a loop, the call's whole block counts). The
 * Mod lists are the proof (the front ends close them over the calls);
 * without them, or for an actual that is not one variable, F is stored.
 * Two distinct variables are taken to be apart, as tbr_values.c takes
 * them. The facts are gathered routine by routine before any routine
 * becomes a ReplacementList (which drops its lists), from what each
 * routine holds itself: the decision is the same whether pass template
 * reads the routines streamed (before the passes ahead of it) or in the
 * whole document (after them; pass convert's OpenAD_tyc_* temporaries
 * stand for the actuals they copy, and its copies write nothing). */
#ifndef XF_TRANSFORMS_ARGSTABLE_H
#define XF_TRANSFORMS_ARGSTABLE_H

#include <stdbool.h>

#include "ir.h"

typedef struct xf_argstable xf_argstable;

/** xf_argstable_new: an empty table; NULL when out of memory. */
xf_argstable *xf_argstable_new(void);

/** xf_argstable_free: release @t. NULL is allowed. */
void xf_argstable_free(xf_argstable *t);

/**
 * xf_argstable_routine:
 * Record @rt: its formals on its Mod lists and, for every call in its
 * graph, which actual arguments are variables @rt never writes. Alike
 * before and after pass convert (its temporaries count as the actuals they
 * stand for) and with the other routines in memory or not. @host: @rt
 * hosts internal procedures (xf_hosts_procedures), which may change its
 * variables with no argument, so none of them counts as unwritten.
 * @returns false when out of memory.
 */
bool xf_argstable_routine(xf_argstable *t, const xf_routine *rt, bool host);

/**
 * xf_argstable_skip:
 * May @callee's formal @f go without an argument checkpoint (see above)?
 * Only after every routine is recorded.
 * @returns 1 or 0, or -1 when out of memory.
 */
int xf_argstable_skip(xf_argstable *t, const xf_routine *callee, const xf_argsym *f);

#endif
