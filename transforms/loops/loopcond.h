/* loopcond.h: ForLoop conditions with an offset loop variable, normalised
 * to the form xf_loop_header accepts (loopcond.c). */
#ifndef XF_TRANSFORMS_LOOPCOND_H
#define XF_TRANSFORMS_LOOPCOND_H

#include "ir.h"

/**
 * xf_loopcond_routine:
 * Rewrite each ForLoop condition of @rt of the form i + k OP n (k + i,
 * i - k; or mirrored), i the header's integer variable and k, n integer
 * expressions that do not read i, as i OP n - k (n + k). O(size of the
 * conditions).
 * @returns the number of conditions rewritten, or -1 (out of memory).
 */
int xf_loopcond_routine(xf_doc *doc, xf_routine *rt);

#endif
