/* stream_adjoint.h: the adjoint of a routine that is one long basic block,
 * written a piece of the block at a time: the taping sweep as it is made,
 * the adjoint sweep through a spill file, so that neither the routine
 * transformed nor its output is ever whole in memory (docs/scaling.md, "One
 * big routine"). The whole-routine plans of adjoin (to-be-recorded values,
 * adjoints known to be zero, address recovery) and deadstore are left out:
 * every partial is taped, and the taping sweep keeps its dead stores. */
#ifndef XF_TOOLS_STREAM_ADJOINT_H
#define XF_TOOLS_STREAM_ADJOINT_H

#include <stdbool.h>

#include "passmgr.h"
#include "write.h"

/**
 * xf_stream_adjoint_wanted:
 * Whether routine @rt, streamed through @s (an adjoint pipeline: template,
 * linearize, preaccumulate, adjoin, reverse, and after template only those
 * and iterwise, iterdry, checkpoint, deadstore, propagate), is a single
 * basic block (between Entry and Exit) longer than a piece.
 */
bool xf_stream_adjoint_wanted(const xf_pm_stream *s, const xf_routine *rt);

/**
 * xf_stream_adjoint_routine:
 * Run @s's passes over @rt and write it to @ws, the long block a piece at a
 * time (see above). @returns 0, or -1 after a report.
 */
int xf_stream_adjoint_routine(xf_pm_stream *s, xf_routine *rt, xf_wstream *ws);

#endif
