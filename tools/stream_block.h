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

/** xf_stream_block_size: set the piece size (0: XF_STREAM_PIECE); for tests. */
void xf_stream_block_size(uint32_t n);

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

#endif
