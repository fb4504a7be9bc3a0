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
 * and no call that passes it to a formal on the callee's Mod lists at or
 * after the call in P's control flow (the call itself, what follows it
 * in its block, and the blocks its edges reach, loops' back edges
 * included: flow.h); writes that only precede the call do not count. The
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

/** xf_argstable_new: an empty table (its arena xf_pass_arena(@ctx); @ctx may be NULL);
 * NULL when out of memory. */
struct xf_pass_ctx;
xf_argstable *xf_argstable_new(const struct xf_pass_ctx *ctx);

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

/* One call of the routine xf_argstable_calls read: bit P of @moved, the
 * actual at position P may change after the call (bit 0: one past 63). */
typedef struct xf_argcall {
    const xf_stmt *call;
    const xf_symbol *callee;
    uint64_t moved;
} xf_argcall;

/**
 * xf_argstable_calls:
 * The same rule, call by call: read @rt (as xf_argstable_routine, @host
 * alike) and give, for each of its calls in its graph now, which actuals may
 * change after it (in the table's arena; @n of them). Only after every
 * routine is recorded; the table's answers do not change.
 * @returns 0, or -1 when out of memory.
 */
int xf_argstable_calls(xf_argstable *t, const xf_routine *rt, bool host, xf_argcall **out,
                       uint32_t *n);

/**
 * xf_argstable_kept_at:
 * At call @c, does the callee's formal at @pos keep its value from the
 * call to the callee's rerun in the caller's adjoint sweep (the callee
 * never writes it and the caller does not after the call)?
 */
bool xf_argstable_kept_at(const xf_argstable *t, const xf_argcall *c, int64_t pos);

#endif
