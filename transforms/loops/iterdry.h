/* iterdry.h: what the iteration-wise pass (iterwise.c) and
 * per-iteration dry-running (iterdry.c, F6) share with the code that
 * trims a loop run twice (iterwise_trim.c). */
#ifndef XF_TRANSFORMS_ITERDRY_H
#define XF_TRANSFORMS_ITERDRY_H

#include "cfgtree.h"
#include "loopdep.h"
#include "pass.h"

/**
 * xf_dry_trim:
 * A loop @l2 of the taping sweep (tree @t2; its body any region) that
 * runs untaped, and its counterpart @l3 in the adjoint sweep (tree @t3)
 * whose first block holds, from its statement @from on, the @nrun
 * statements of one taping iteration (the rerun), the adjoint of the
 * iteration after them. Removes from @l2 the assignments to temporaries
 * that nothing reads any more (the partials whose pushes went: the untaped
 * run computes what the program computes), and from the rerun the
 * assignments whose value nothing in the adjoint sweep reads (what only
 * the program after the loop needed; nothing when @nrun is 0). Reads are
 * counted per variable; an assignment's read of its own left-hand side's
 * variable does not keep it.
 * @returns 0, or -1 when out of memory.
 */
int xf_dry_trim(xf_pass_ctx *ctx, const xf_cfgtree *t2, const xf_region *l2, const xf_cfgtree *t3,
                const xf_region *l3, uint32_t from, uint32_t nrun);

/** xf_dry_counts: per symbol index (of @ctx's document), how many times
 * the statements and headers of the regions of @t outside @skip (NULL:
 * none) read its value; from @ctx->scratch, NULL when out of memory. */
int32_t *xf_dry_counts(xf_pass_ctx *ctx, const xf_cfgtree *t, const xf_region *skip);

/** xf_dry_stmt_reads: add @d to @c for each value @st reads (its own
 * left-hand side's variable excepted for an assignment). */
void xf_dry_stmt_reads(int32_t *c, uint32_t n, const xf_stmt *st, int32_t d);
/** xf_dry_stmt_reads_own: the same, an assignment's reads of its own
 * left-hand side's variable included. Calls that assign their argument
 * (pop*, ckp_restore_*, ckp_top) read only its subscripts. */
void xf_dry_stmt_reads_own(int32_t *c, uint32_t n, const xf_stmt *st, int32_t d);

/** xf_dry_local_input: does loop @l2 (of the taping sweep; header and
 * body) read a local variable of @d's routine that it does not write (its
 * own variable and temporaries apart), of any type? In split reversal the
 * adjoint sweep runs in a new activation, where it is not set. */
bool xf_dry_local_input(xf_pass_ctx *ctx, const xf_loopdep *d, const xf_region *l2);

/** xf_dry_region_reads: add to @c, per symbol index, each value that
 * region @r (its header, statements and the regions it holds) reads, an
 * assignment's reads of its own left-hand side's variable included. */
void xf_dry_region_reads(int32_t *c, uint32_t n, const xf_region *r);
/** xf_dry_snap_kind: the kind a snapshot call names for @s's type
 * (ckp_store_real, _integer, _bool), NULL for other types. */
const char *xf_dry_snap_kind(const xf_symbol *s);
/** xf_dry_inside: is region @r @l or inside it? */
bool xf_dry_inside(const xf_region *r, const xf_region *l);

/**
 * xf_loop_options:
 * The loop options of @o that analyse loops (loopdep) in the adjoint, as the
 * user wrote them ("--loops auto", "--per-iteration-dry-run",
 * "--iteration-wise", ...), or NULL when there is none: the option to drop
 * when the analysis gives up.
 */
const char *xf_loop_options(const xf_opts *o);

#endif
