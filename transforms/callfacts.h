/* callfacts.h: what the calls of a document pass to each routine, the
 * whole-program fact the template pass needs ("is this routine called, and
 * does some call pass something other than a constant at this position?").
 * The facts are gathered one call at a time, so that a reader that streams
 * the document routine by routine can fill them in a first pass over the
 * file and the template pass ask them afterwards; xf_callfacts_doc gathers
 * them from a document in memory in one walk. Each call and each question
 * costs O(1) (expected), the table O(routines + arguments) memory. */
#ifndef XF_TRANSFORMS_CALLFACTS_H
#define XF_TRANSFORMS_CALLFACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

typedef struct xf_callfacts xf_callfacts;

/** xf_callfacts_new: an empty table (its own arena, xf_pass_arena(@ctx); @ctx may be
 * NULL). @returns NULL when out of memory. */
struct xf_pass_ctx;
xf_callfacts *xf_callfacts_new(const struct xf_pass_ctx *ctx);

/** xf_callfacts_free: release @f and all it holds. NULL is allowed. */
void xf_callfacts_free(xf_callfacts *f);

/**
 * xf_callfacts_call:
 * One call of the routine whose symbol is @callee (the symbol of the
 * global scope that a Call statement names: xf_stmt.u.call.sym).
 * @returns false when out of memory.
 */
bool xf_callfacts_call(xf_callfacts *f, const xf_symbol *callee);

/**
 * xf_callfacts_arg:
 * An argument at position @pos of a call of @callee (after
 * xf_callfacts_call for that call): @constant when it is one Constant.
 * @returns false when out of memory.
 */
bool xf_callfacts_arg(xf_callfacts *f, const xf_symbol *callee, int64_t pos, bool constant);

/**
 * xf_callfacts_stmt:
 * Both of the above for statement @s if it is a Call (other statements
 * are ignored). @returns false when out of memory.
 */
bool xf_callfacts_stmt(xf_callfacts *f, const xf_stmt *s);

/** xf_callfacts_routine: record every call statement of @rt's graph; false when out of memory. */
bool xf_callfacts_routine(xf_callfacts *f, const xf_routine *rt);

/**
 * xf_callfacts_doc:
 * xf_callfacts_stmt for every statement of every routine's graph of @doc.
 * @returns false when out of memory.
 */
bool xf_callfacts_doc(xf_callfacts *f, const xf_doc *doc);

/**
 * xf_callfacts_called:
 * Is @callee called at all (@pos 0), or called with something other than
 * a constant at position @pos, by the calls gathered so far?
 */
bool xf_callfacts_called(const xf_callfacts *f, const xf_symbol *callee, int64_t pos);

#endif
