/* tbr.h: what the adjoint need not tape (Naumann et al. [002] §3). Not
 * passes: adjoin asks these analyses per routine before it tapes.
 *
 * tbr_invert.c (D9): a loop reversed anonymously tapes its trip count and,
 * per iteration, every subscript that reads its variable; when the loop's
 * update i = i + S can be inverted (neither i nor its bounds are written
 * in the body, by assignments, calls or aliases), the adjoint runs i
 * backwards instead, as for OpenAD's "simple loops", and recomputes those
 * subscripts. Chosen per loop where it tapes no more than the count.
 * tbr_values.c (D7): partials computed from values nothing overwrites are
 * computed again in the adjoint, those values handed over once per run.
 * tbr_live.c (D6): derivative operations nothing reads lose their adjoint,
 * forward assignments nothing reads leave the taping sweep.
 * tbr_cut.c (A9): per propagator, the values its partials come from are
 * taped instead of the partials where they are fewer.
 * tbr_plan.c gathers the last three into one plan per routine. */
#ifndef XF_TRANSFORMS_TBR_H
#define XF_TRANSFORMS_TBR_H

#include "arena.h"
#include "cfgtree.h"
#include "ir.h"

struct xf_addr;

/* Which of the analyses to leave out (adjoin's --tape-off). */
enum {
    XF_TAPE_OFF_INVERT = 1u << 0, /* tbr_invert.c */
    XF_TAPE_OFF_VALUES = 1u << 1, /* tbr_values.c */
    XF_TAPE_OFF_LIVE = 1u << 2,   /* tbr_live.c */
    XF_TAPE_OFF_CUT = 1u << 3,    /* tbr_cut.c */
    XF_TAPE_OFF_ALL = XF_TAPE_OFF_INVERT | XF_TAPE_OFF_VALUES | XF_TAPE_OFF_LIVE | XF_TAPE_OFF_CUT,
    /* not a --tape-off name: tbr_values.c's element-wise rule
     * (tbr_region.c) is left out, because pass iterwise runs after adjoin
     * (--iteration-wise, --loops auto) and decides by the pushes it sees */
    XF_TAPE_OFF_REGION = 1u << 4,
    /* not an analysis: the output is for OpenAD's joint template only
     * (--reversal joint), whose placeholders 2 and 3 run back to back in
     * one activation of the routine, so values are not handed over */
    XF_TAPE_JOINT = 1u << 8,
    /* not an analysis either: a split callee whose two sweeps have only
     * the entry's code between them (revjoint.h); a stable formal that
     * xf_revjoint_kept finds unwritten there is read in place, not handed */
    XF_TAPE_KEPT = 1u << 9
};

/** xf_tbr_parse_off: --tape-off's argument, a comma-separated list of
 * the names above ("invert", "all", "none"), into *@off. 0, or -1 with
 * the reason in @err. */
int xf_tbr_parse_off(unsigned *off, const char *arg, char *err, size_t len);

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

/** xf_tbr_writes_own: does the routine of symbol @callee write nothing but
 * its own formals and locals (its Mod lists, which the front ends close
 * over the calls, are the proof; none or empty: no)? tbr_invert.c. */
bool xf_tbr_writes_own(const xf_doc *doc, const xf_symbol *callee);

/* A routine's plan of the partials recomputed from stable values. */
typedef struct xf_tbr xf_tbr;

/**
 * xf_tbr_plan:
 * Plan, for routine @rt's taping placeholder @g (parsed into @t, after
 * xf_tbr_invert_loops; NULL when the graph is unstructured), which
 * partials the adjoint recomputes from values no statement overwrites
 * (tbr_values.c), and which derivative operations and forward assignments
 * nothing needs (tbr_live.c), leaving out what @off names; in @a. With
 * @addr (the routine's address recovery, addr.h; may be NULL), a partial
 * whose subscripts read integers that @addr recovers in the adjoint is
 * recomputed too (adjoin rewrites its subscripts with xf_addr_subscript).
 * @returns 0 with *@out the plan (NULL: nothing to leave out), -1 when
 * out of memory.
 */
int xf_tbr_plan(xf_doc *doc, const xf_routine *rt, const xf_graph *g, const xf_cfgtree *t,
                const struct xf_addr *addr, unsigned off, xf_arena *a, xf_tbr **out);
/** xf_tbr_recompute: the assignment the adjoint repeats for @partial instead of
 * popping it, or NULL (tape it). @p may be NULL. */
const xf_stmt *xf_tbr_recompute(const xf_tbr *p, const xf_symbol *partial);
/* A partial the adjoint computes again from values taped in its place
 * (tbr_cut.c): at the propagator the taping sweep pushes each leaf
 * (push_s0), the adjoint pops it into its shadow and runs recompute. */
typedef struct xf_tbr_cut {
    xf_stmt *recompute; /* the partial's assignment, reading the shadows */
    XF_VEC(const xf_varref *) leaf;
    XF_VEC(xf_symbol *) shadow;
} xf_tbr_cut;
/** xf_tbr_cut_of: how @partial is taped as values, or NULL. @p may be NULL. */
const xf_tbr_cut *xf_tbr_cut_of(const xf_tbr *p, const xf_symbol *partial);
/** xf_tbr_dead: does assignment @s leave the taping sweep (nothing there reads it)? */
bool xf_tbr_dead(const xf_tbr *p, const xf_stmt *s);
/** xf_tbr_op_dead: has propagator operation @op no adjoint (its target's
 * derivative is zero wherever the adjoint would read it)? */
bool xf_tbr_op_dead(const xf_tbr *p, const xf_dpop *op);
/**
 * xf_tbr_hands:
 * Is @bb the block that hands the stable values over? Then *@push (after
 * everything else of its taping sweep) and *@pop (before everything else
 * of its adjoint) are the statements.
 */
bool xf_tbr_hands(const xf_tbr *p, const xf_cvertex *bb, const xf_stmt *const **push,
                  uint32_t *npush, const xf_stmt *const **pop, uint32_t *npop);

#endif
