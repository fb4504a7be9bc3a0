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

#endif
