/* stream_block.h: the tangent of a routine with a long basic block written a
 * piece of the block at a time, so that one big routine need not be held
 * whole, transformed, in memory (docs/scaling.md, "One big routine"). */
#ifndef XF_TOOLS_STREAM_BLOCK_H
#define XF_TOOLS_STREAM_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "passmgr.h"
#include "write.h"

/* Statements of the input a piece holds (and a block is cut into pieces
 * only when it has more): a piece of the tangent takes about 20 kB per
 * statement. */
enum { XF_STREAM_PIECE = 1024 };
/* A piece ends early once its statements weigh this much (a statement
 * weighs 1 and its right-hand side's vertices: pass split leaves them at
 * about 512), and a block weighing more than XF_STREAM_LONG_WEIGHT is cut
 * into pieces whatever its length. */
enum { XF_STREAM_PIECE_WEIGHT = 512, XF_STREAM_LONG_WEIGHT = 16384 };

/** xf_stream_block_weight: the statements of block @b and their right-hand sides' vertices. */
uint64_t xf_stream_block_weight(const xf_cvertex *b);
/** xf_stream_block_long: is @b a basic block to cut into pieces (longer or heavier than one)? */
bool xf_stream_block_long(const xf_cvertex *b);

/** xf_stream_block_size: set the piece size (0: XF_STREAM_PIECE); for tests. */
void xf_stream_block_size(uint32_t n);
/** xf_stream_block_piece: the piece size in force. */
uint32_t xf_stream_block_piece(void);

/**
 * xf_stream_block_wanted:
 * Whether routine @rt, streamed through @s (its last passes linearize,
 * preaccumulate, propagate), has a basic block longer than a piece.
 */
bool xf_stream_block_wanted(const xf_pm_stream *s, const xf_routine *rt);

/**
 * xf_stream_block_routine:
 * Run @s's passes over @rt and write it to @ws as xf_pm_stream_routine and
 * xf_wstream_routine do, byte for byte, but the last three passes and the
 * writing a piece of each basic block at a time, each piece's memory reused
 * once no sequence of preaccumulate still reads it. @returns 0, or -1 after
 * a report.
 */
int xf_stream_block_routine(xf_pm_stream *s, xf_routine *rt, xf_wstream *ws);

/*
 * The pieces' machinery, for stream_adjoint.c. xf_sb_new: linearize,
 * preaccumulate and, given adjoin's pass state @adjoin_state, adjoin, over
 * the blocks of @rt in pieces (@propagate: propagate what goes out); *@out
 * to be freed with xf_sb_free whatever the result (0, or -1 after a report).
 * xf_sb_block: the block of the @n statements @v, in pieces, written to @ws
 * (the adjoint: its taping sweep; each piece's adjoint sweep to @ws's spill).
 * xf_sb_unspill: the spilled adjoint sweeps, the last piece's first.
 * xf_sb_finish: put the symbols the passes added in the whole routine's order.
 */
typedef struct xf_sb xf_sb;
int xf_sb_new(xf_pass_ctx *ctx, xf_routine *rt, void *adjoin_state, bool propagate, xf_sb **out);
int xf_sb_block(xf_sb *c, xf_wstream *ws, xf_stmt *const *v, uint32_t n);
int xf_sb_unspill(xf_sb *c, xf_wstream *ws);
int xf_sb_finish(xf_sb *c);
void xf_sb_free(xf_sb *c);

#endif
