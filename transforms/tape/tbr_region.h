/* tbr_region.h: element-wise stability of an array read (tbr_region.c),
 * which tbr_values.c asks when the array itself is written. */
#ifndef XF_TRANSFORMS_TBR_REGION_H
#define XF_TRANSFORMS_TBR_REGION_H

#include "arena.h"
#include "cfgtree.h"
#include "ir.h"

typedef struct xf_tbr_region xf_tbr_region;

/* Is scalar @s (referred to by @ref) written by no statement of the
 * routine (tbr_values.c's stable)? @ctx: the caller's. */
typedef bool (*xf_tbr_fixed_fn)(void *ctx, const xf_symbol *s, const xf_varref *ref);

/**
 * xf_tbr_region_new:
 * The places of the writes of routine @rt's taping placeholder, parsed
 * into @t, for xf_tbr_region_stable; in @a. NULL when out of memory.
 */
xf_tbr_region *xf_tbr_region_new(const xf_cfgtree *t, xf_arena *a, xf_tbr_fixed_fn fixed,
                                 void *ctx);

/**
 * xf_tbr_region_stable:
 * Does no write that runs after statement @at of block region @r (in the
 * rest of the routine's run, later iterations of the loops around @r
 * included) touch the element that @ref, read there, names? @writes:
 * every write of the routine (assignments' left sides, call arguments),
 * of which those of @ref's variable must be assignments or call arguments
 * in blocks of the tree; @ref's subscripts and the writes' must be
 * affine in the variables of the explicitly reversed loops around them
 * and in scalars nothing writes, possibly a term such scalar times an
 * affine form (delinearized); anything else answers no. Writes to other
 * variables are the caller's to check. Each case tried costs one of
 * @budget.
 */
bool xf_tbr_region_stable(xf_tbr_region *c, const xf_region *r, uint32_t at, const xf_varref *ref,
                          const xf_varref *const *writes, uint32_t nwrites, uint64_t *budget);

#endif
