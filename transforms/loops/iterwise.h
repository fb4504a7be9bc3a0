/* iterwise.h: what iterwise.c, iterwise_region.c and iterdry.c share: the loops of the
 * taping and the adjoint sweep as regions, and the move of one iteration's
 * adjoint (a region: blocks, branches, inner loops) to the end of that
 * iteration in the taping sweep. */
#ifndef XF_TRANSFORMS_ITERWISE_H
#define XF_TRANSFORMS_ITERWISE_H

#include "cfgtree.h"
#include "pass.h"

/* iterwise's own options (xf_pass_own), which iterdry reads too. */
typedef struct xf_iw_opts {
    int iterwise;    /* 0 off; 1 --iteration-wise; 2 --iteration-wise-joint */
    bool dry_run;    /* also dry-run parallel loops that are not terminal */
    bool loops_auto; /* --loops auto, the selection rule per loop (F8) */
} xf_iw_opts;

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
 * block of @t2. NULL when none has any (or out of memory). Its tables
 * live in an arena of its own, freed on return; @a is not used.
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

/* The snapshot of a dry-run loop's inputs for split reversal
 * (iterwise_snap.c): the blocks right before the loop in each sweep (or
 * the edges into it, where a block is to be made), and the variables the
 * loop reads. */
typedef struct xf_iw_snap {
    xf_cvertex *b2, *b3;
    xf_cedge *e2, *e3;
    XF_VEC(xf_symbol *) vars;
} xf_iw_snap;

struct xf_pass_ctx;
struct xf_loopdep;
/**
 * xf_iw_snap_plan:
 * Plan the snapshot of what taping loop @l2 (top level of @t2, graph @g2;
 * header and body) reads, whole variables, kept before it and read back
 * before its rerun @l3 (top level of @t3, graph @g3): where, and which.
 * Refused where the snapshot would hold no fewer words than the loop's
 * tape (estimated: its pushes per iteration times its trips). Nothing
 * changes. @returns NULL, or why not.
 */
const char *xf_iw_snap_plan(struct xf_pass_ctx *ctx, const struct xf_loopdep *d, const xf_graph *g2,
                            const xf_cfgtree *t2, const xf_region *l2, const xf_graph *g3,
                            const xf_cfgtree *t3, const xf_region *l3, xf_iw_snap *out);
/**
 * xf_iw_snap_emit:
 * Write @p's calls: ckp_take and ckp_store_* at the end of the block
 * before the taping loop, ckp_top, ckp_restore_* and ckp_drop at the end
 * of the block before the rerun (a new block where there is none: the
 * trees must then be parsed again). Ids from @serial.
 * @returns 0, or -1 when out of memory.
 */
int xf_iw_snap_emit(struct xf_pass_ctx *ctx, const struct xf_loopdep *d, xf_graph *g2, xf_graph *g3,
                    xf_iw_snap *p, unsigned *serial);
#endif
