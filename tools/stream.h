/* stream.h: a transformation that keeps one routine in memory at a time. */
#ifndef XF_TOOLS_STREAM_H
#define XF_TOOLS_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "passmgr.h"

/* Inputs of this size or more are streamed when the verb is not told (--stream auto). */
#define XF_STREAM_AUTO_BYTES (32u << 20)
/* And from this size, inputs with a basic block of more than
 * XF_STREAM_PROBE_ELEMENTS elements (about twice its expression vertices:
 * a block that xf_stream_block_long cuts into pieces), found by a scan of
 * the bytes before reading. */
#define XF_STREAM_PROBE_BYTES (1u << 20)
#define XF_STREAM_PROBE_ELEMENTS 32768u

/**
 * xf_stream_transform:
 * Run @passes (@n of them; xf_pm_streams must allow it) over the call graph
 * in file @in and write the result to @out ("-": stdout), one routine in
 * memory at a time: a first reading gives the passes' scan what the whole
 * program tells (call facts, formals) and checks the input, a second reads,
 * transforms and writes routine after routine (xf_read_stream,
 * xf_pm_stream_*, xf_wstream). @tmpl gives the options, diagnostics and
 * catalogues (its doc is ignored). The output is the one the whole-document
 * path writes, byte for byte.
 * @st (may be NULL) receives what the second reading held.
 * @returns 0, or -1 after reporting to @tmpl->diag (nothing is written then).
 */
/* What a streamed transformation held (for tests and benchmarks). */
typedef struct xf_stream_stats {
    size_t routine_peak; /* the most bytes one routine's arena held, transformed */
    size_t global;       /* bytes of the document's own arena at the end */
    uint32_t routines;
} xf_stream_stats;

int xf_stream_transform(const char *in, const char *out, const xf_pass_ctx *tmpl,
                        const xf_pass *const *passes, int n, xf_stream_stats *st);

/** xf_stream_wanted: whether @when ("always", "never", "auto") asks to stream file @in. */
bool xf_stream_wanted(const char *when, const char *in);

#endif
