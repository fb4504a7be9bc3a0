/* read.h: xaif documents into the IR, with libxml2's pull parser. */
#ifndef XF_ENGINE_READ_H
#define XF_ENGINE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* What xf_read_stream hands each routine to. */
typedef struct xf_read_sink {
    void *ctx;
    /* Called after routine @rt is read; @doc->arena holds the routine and is
     * released when this returns (what must outlive it goes to @doc->global).
     * NULL: nothing. @returns 0, or -1 after reporting to the diagnostics. */
    int (*routine)(void *ctx, xf_doc *doc, xf_routine *rt);
    /* Called at each CallGraphEdge's place among the routines, by
     * xf_read_stream_again only (the edge is resolved). NULL: nothing. */
    int (*edge)(void *ctx, xf_doc *doc, const xf_cgedge *e);
    /* Set by the reader: the most bytes one routine's arena held (after the
     * sink's routine returned), and the routines met. */
    size_t routine_peak;
    uint32_t routines;
} xf_read_sink;

/**
 * xf_read_stream:
 * Read the call graph in @path keeping one routine in memory at a time: the
 * prologue (scopes, maps), edges and comments stay in the document; each
 * routine is read into an arena of its own, given to @sink (may be NULL) and
 * released, leaving its id, symbols, scopes and a copy of its ArgumentList
 * (without extras). Strict reading only (@opts->lenient is refused).
 * @returns the document (free with xf_doc_free), or NULL after reporting.
 */
xf_doc *xf_read_stream(const char *path, const xf_read_opts *opts, xf_diag *diag,
                       xf_read_sink *sink);

/**
 * xf_read_stream_again:
 * Read @path, which xf_read_stream made @doc of, a second time: routine after
 * routine into @doc's routines, each given to @sink and released, and each
 * CallGraphEdge given to @sink at its place. @returns 0, or -1 after reporting.
 */
int xf_read_stream_again(xf_doc *doc, const char *path, xf_diag *diag, xf_read_sink *sink);

#endif
