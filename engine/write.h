/* write.h: the IR back to xaif text, with libxml2's xmlTextWriter.
 * Output is deterministic: the same document gives the same bytes. */
#ifndef XF_ENGINE_WRITE_H
#define XF_ENGINE_WRITE_H

#include <stddef.h>

#include "diag.h"
#include "ir.h"

/**
 * xf_write_file:
 * Write @doc to @path as xf_outfile_open does (outfile.h): a regular file
 * through a temporary file beside it that is renamed into place, so a failed
 * write never leaves a partial @path; a device, FIFO or descriptor straight.
 * "-" writes to standard output. A @path that is @doc's own file (its
 * filename) is refused.
 * @returns 0, or -1 after reporting to @diag.
 */
int xf_write_file(const xf_doc *doc, const char *path, xf_diag *diag);

/**
 * xf_write_memory:
 * Write @doc into a new buffer *@out of *@len bytes (NUL-terminated too).
 * The caller frees *@out with free().
 * @returns 0, or -1 after reporting to @diag.
 */
int xf_write_memory(const xf_doc *doc, char **out, size_t *len, xf_diag *diag);

/* A call graph written one routine at a time (with xf_read_stream). */
typedef struct xf_wstream xf_wstream;

/** xf_wstream_new: a writer of @doc's routines and edges to a spool file; NULL after reporting. */
xf_wstream *xf_wstream_new(const xf_doc *doc, xf_diag *diag);
/** xf_wstream_routine: write @rt, the next routine (or edge) of the call graph; 0 or -1. */
int xf_wstream_routine(xf_wstream *s, const xf_routine *rt);
/**
 * xf_wstream_routine_pieces:
 * As xf_wstream_routine, but each BasicBlock's statements are @block's to
 * write (with xf_wstream_stmt, in order), between the block's start and end
 * tags, so that they can be made and released a piece at a time.
 * @block returns 0, or -1 after a report; then so does this.
 */
typedef int (*xf_wstream_block_fn)(void *ctx, xf_wstream *s, const xf_cvertex *b);
int xf_wstream_routine_pieces(xf_wstream *s, const xf_routine *rt, xf_wstream_block_fn block,
                              void *ctx);
/** xf_wstream_stmt: write statement @st of the block being written; 0 or -1. */
int xf_wstream_stmt(xf_wstream *s, const xf_stmt *st);
/**
 * A spill: statements of the block being written set aside in a temporary
 * file of the writer's own (made on first use), to be written later, in
 * another block, in pieces and in any order (an adjoint's reverse sweep).
 * xf_wstream_spill: append the @n statements @v, written as the block's
 * content would be; *@end the spill's size after them. 0 or -1 (reported).
 * xf_wstream_unspill: write the spill's bytes [@from, @to) as statements of
 * the block being written. 0 or -1 (reported).
 * xf_wstream_spill_reset: empty the spill.
 */
int xf_wstream_spill(xf_wstream *s, xf_stmt *const *v, uint32_t n, uint64_t *end);
int xf_wstream_unspill(xf_wstream *s, uint64_t from, uint64_t to);
void xf_wstream_spill_reset(xf_wstream *s);
/** xf_wstream_edge: write @e, the next edge (or routine) of the call graph; 0 or -1. */
int xf_wstream_edge(xf_wstream *s, const xf_cgedge *e);
/**
 * xf_wstream_finish:
 * Write the document to @path ("-": stdout) as xf_write_file would: the head
 * (root, scopes and maps as they are now), the spooled routines and edges,
 * the rest. Written to a temporary file renamed into place (xf_outfile).
 * @returns 0, or -1 after reporting.
 */
int xf_wstream_finish(xf_wstream *s, const char *path);
/** xf_wstream_free: release @s and its spool. NULL is allowed. */
void xf_wstream_free(xf_wstream *s);

#endif
