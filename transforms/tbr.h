/* tbr.h: what the adjoint need not tape (Naumann et al. [002] §3). Not
 * passes: adjoin asks these analyses per routine before it tapes.
 *
 * tbr_invert.c (D9): a loop reversed anonymously tapes its trip count and,
 * per iteration, every subscript that reads its variable; when the loop's
 * update i = i + S can be inverted (neither i nor its bounds are written
 * in the body, by assignments, calls or aliases), the adjoint runs i
 * backwards instead, as for OpenAD's "simple loops", and recomputes those
 * subscripts. Chosen per loop where it tapes no more than the count. */
#ifndef XF_TRANSFORMS_TBR_H
#define XF_TRANSFORMS_TBR_H

#include "arena.h"
#include "cfgtree.h"
#include "ir.h"

/* Which of the analyses to leave out (xf_opts.tape_off; --tape-off). */
enum {
    XF_TAPE_OFF_INVERT = 1u << 0, /* tbr_invert.c */
    XF_TAPE_OFF_ALL = XF_TAPE_OFF_INVERT
};

struct xf_opts;
/** xf_tbr_parse_off: --tape-off's argument, a comma-separated list of
 * the names above ("invert", "all", "none"), into @o->tape_off. */
int xf_tbr_parse_off(struct xf_opts *o, const char *arg, char *err, size_t len);

/**
 * xf_tbr_invert_loops:
 * Decide, for every loop of @t (routine @rt's taping placeholder, parsed)
 * that is not reversed explicitly already, whether its adjoint runs its
 * variable backwards; those get their header (xf_region.head) and are
 * marked reversal="explicit" in the graph, so that a later parse (the pass
 * reverse's) decides alike. A loop is taken only with every loop inside it
 * that has a header xf_loop_header accepts (the mark is inherited).
 * @n (may be NULL) receives how many loops were taken.
 * @returns 0, or -1 when out of memory.
 */
int xf_tbr_invert_loops(const xf_doc *doc, const xf_routine *rt, xf_cfgtree *t, xf_arena *a,
                        unsigned *n);

#endif
