/* iterwise.h: what iterwise.c, iterwise_region.c and iterwise_dry.c share: the loops of the
 * taping and the adjoint sweep as regions, and the move of one iteration's
 * adjoint (a region: blocks, branches, inner loops) to the end of that
 * iteration in the taping sweep. */
#ifndef XF_TRANSFORMS_ITERWISE_H
#define XF_TRANSFORMS_ITERWISE_H

#include "cfgtree.h"

/**
 * xf_iw_region_calls:
 * Does a block of sequence @s, at any depth, hold a SubroutineCall?
 */
bool xf_iw_region_calls(const xf_rgseq *s);

/**
 * xf_iw_loop_depth: the number of loops around region @r.
 */
unsigned xf_iw_loop_depth(const xf_region *r);

/**
 * xf_iw_adjoint_loop:
 * The loop of @t3 (the adjoint sweep) that holds the adjoint of taping
 * loop @l2's body: as many loops around it as around @l2, and the most
 * blocks whose ids are those of blocks of @l2's body, none of another
 * block of @t2. NULL when none has any. Scratch from @a.
 */
const xf_region *xf_iw_adjoint_loop(const xf_cfgtree *t2, const xf_region *l2, const xf_cfgtree *t3,
                                    xf_arena *a);

/**
 * xf_iw_move:
 * Move the body of adjoint loop @l3 (of graph @g3) to the end of the body of
 * taping loop @l2 (of graph @g2): its vertices and edges leave @g3 for
 * @g2 under fresh ids (_iw_N, @serial counts), and @l3's body becomes
 * one empty block. Both graphs are renumbered; their region trees must be
 * parsed again. Scratch from @a.
 * @returns NULL, or why not (nothing changed then).
 */
const char *xf_iw_move(xf_doc *doc, xf_arena *a, xf_graph *g2, const xf_region *l2, xf_graph *g3,
                       const xf_region *l3, unsigned *serial);

/**
 * xf_iw_copy_body:
 * Copy the body of taping loop @l2 (of graph @g2; statements deep-copied,
 * @skip left out) to the start of the body of adjoint loop @l3 (of graph
 * @g3), under fresh ids: each iteration of @l3 then runs the taping
 * iteration and then its adjoint. @g3 is renumbered; its tree must be
 * parsed again. Scratch from @a.
 * @returns NULL, or why not.
 */
const char *xf_iw_copy_body(xf_doc *doc, xf_arena *a, const xf_graph *g2, const xf_region *l2,
                            xf_graph *g3, const xf_region *l3, const xf_stmt *skip,
                            unsigned *serial);

/**
 * xf_iw_blocks_only: is every region of @s a basic block without calls?
 */
bool xf_iw_blocks_only(const xf_rgseq *s);

/**
 * xf_iw_blocks_adjoint:
 * The loop of @t3 (the adjoint sweep) whose body is blocks only, each of
 * them one (by id) of @body's; NULL when there is none.
 */
const xf_region *xf_iw_blocks_adjoint(const xf_cfgtree *t3, const xf_rgseq *body);

#endif
