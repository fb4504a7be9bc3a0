/* read.h: xaif documents into the IR, with libxml2's pull parser. */
#ifndef XF_ENGINE_READ_H
#define XF_ENGINE_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "ir.h"

/* How to read. */
typedef struct xf_read_opts {
    /* Dangling references and repeated ids are warnings, not errors; the
     * attributes are kept as written and the references stay unresolved
     * (NULL), so such a document can be copied but not transformed. */
    bool lenient;
    /* Test hook: when > 0, the document's N-th allocation fails. */
    long fail_alloc;
} xf_read_opts;

/**
 * xf_read_file:
 * Read the xaif document (a call graph or an intrinsics catalogue) in @path.
 * Errors go to @diag as "FILE:LINE: error: ...". @opts may be NULL (strict).
 * @returns the document (free with xf_doc_free), or NULL after an error.
 */
xf_doc *xf_read_file(const char *path, const xf_read_opts *opts, xf_diag *diag);

/**
 * xf_read_memory:
 * As xf_read_file, from the @len bytes at @buf; @name names it in messages.
 */
xf_doc *xf_read_memory(const char *buf, size_t len, const char *name, const xf_read_opts *opts,
                       xf_diag *diag);

#endif
