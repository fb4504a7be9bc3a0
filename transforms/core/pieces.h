/* pieces.h: linearize, preaccumulate and propagate over a basic block whose
 * statements come a piece at a time (tools/stream_block.c), so that the
 * tangent of one long block can be written, and its memory given back, as
 * it is made. Fed the pieces of every block in order, they give the
 * statements, names and counts that the passes give the whole routine.
 *
 * Each statement a feed returns lives in the document's arena of that moment
 * (the caller swaps it per piece); the pieces of a sequence still in
 * progress must live until it is handed on (xf_lcg_walk.flushes). */
#ifndef XF_TRANSFORMS_PIECES_H
#define XF_TRANSFORMS_PIECES_H

#include "lcg.h"
#include "pass.h"

/**
 * xf_lin_pieces_new:
 * linearize's state for routine @rt (its loop parts checked, the routine
 * marked active), per statement scratch in @scratch. *@out is NULL when the
 * pass has nothing to do in @rt. @returns 0, or -1 after a report.
 * xf_lin_pieces_feed: linearize the @n statements @v: *@out, *@nout the
 * statements that replace them. 0, or -1 after a report.
 */
typedef struct xf_lin_pieces xf_lin_pieces;
int xf_lin_pieces_new(xf_pass_ctx *ctx, xf_routine *rt, xf_arena *scratch, xf_lin_pieces **out);
int xf_lin_pieces_feed(xf_lin_pieces *p, xf_stmt *const *v, uint32_t n, xf_stmt ***out,
                       uint32_t *nout);
void xf_lin_pieces_free(xf_lin_pieces *p);

/**
 * xf_pre_pieces_new:
 * preaccumulate's state for routine @rt (of a ReplacementList: placeholder 2,
 * without the folding of negated partials, signs.h), its sequences' graphs in @scratch; *@out NULL
 * when there is nothing to do. Per block: begin, feed each piece of linearize's statements, end;
 * each feed and the end give the statements that are final so far, in order.
 */
typedef struct xf_pre_pieces xf_pre_pieces;
int xf_pre_pieces_new(xf_pass_ctx *ctx, xf_routine *rt, xf_arena *scratch, xf_pre_pieces **out);
xf_lcg_walk *xf_pre_pieces_walk(xf_pre_pieces *c);
void xf_pre_pieces_begin(xf_pre_pieces *c);
int xf_pre_pieces_feed(xf_pre_pieces *c, xf_stmt *const *v, uint32_t n, xf_stmt ***out,
                       uint32_t *nout);
int xf_pre_pieces_end(xf_pre_pieces *c, xf_stmt ***out, uint32_t *nout);
void xf_pre_pieces_free(xf_pre_pieces *c);

/**
 * xf_adj_pieces_new:
 * adjoin's state for the one long block of ReplacementList @rt, whose
 * placeholder 2 holds that block emptied (tools/stream_adjoint.c); @state
 * the pass's state (its counters run over the document), @scratch for the
 * block's life. No whole-routine plan: every partial and every subscript
 * the adjoint cannot recompute is taped, no increment is known to find its
 * target zero. *@out NULL when adjoin has nothing to do.
 * xf_adj_pieces_feed: the adjoint of the @n statements @v (preaccumulate's):
 * *@fwd the taping sweep's statements, *@rev the adjoint sweep's for them
 * (to go before those of the statements before @v). 0, or -1 after a report.
 */
typedef struct xf_adj_pieces xf_adj_pieces;
int xf_adj_pieces_new(xf_pass_ctx *ctx, void *state, xf_routine *rt, xf_arena *scratch,
                      xf_adj_pieces **out);
int xf_adj_pieces_feed(xf_adj_pieces *p, xf_stmt *const *v, uint32_t n, xf_stmt ***fwd,
                       uint32_t *nfwd, xf_stmt ***rev, uint32_t *nrev);
void xf_adj_pieces_free(xf_adj_pieces *p);

/**
 * xf_adj_plans_off:
 * With @off, adjoin (pass state @state) makes no whole-routine plan until
 * turned on again: for a routine one of whose blocks the pass does not see
 * (tools/stream_adjoint.c), every partial and subscript is taped, no
 * increment is known to find its target zero, no variable is taken as
 * unwritten.
 */
void xf_adj_plans_off(void *state, bool off);

/** xf_propagate_stmts: propagate on the @n statements @v in place; @returns how many stay. */
uint32_t xf_propagate_stmts(xf_stmt **v, uint32_t n);

#endif
