/* pipeline.h: running a list of passes over a document, with the
 * intrinsics catalogue loaded (built in, or from a file). */
#ifndef XF_TOOLS_PIPELINE_H
#define XF_TOOLS_PIPELINE_H

#include "pass.h"

/**
 * xf_catalogue_load:
 * The inlinable intrinsics catalogue in @path, or the built-in
 * schema/intrinsics.xaif when @path is NULL. Free with xf_doc_free.
 * @returns the catalogue, or NULL after reporting to @diag.
 */
xf_doc *xf_catalogue_load(const char *path, xf_diag *diag);

/** xf_direct_load: the non-inlinable catalogue (DirectActions), built in when @path is NULL. */
xf_doc *xf_direct_load(const char *path, xf_diag *diag);

/**
 * xf_pipeline_parse:
 * Resolve @list (pass and pipeline names, comma-separated) into passes.
 * Each pass's prerequisites must come before it.
 * @returns the number of passes (up to @max), or -1 after a message on @err.
 */
int xf_pipeline_parse(const char *list, const xf_pass **out, int max, char *err, size_t errlen);

/**
 * xf_pipeline_refuse_deriv:
 * Refuse @doc as the input of a differentiating pass list when it is
 * derivative code already (@doc->deriv): "FILE:LINE: error: FILE is
 * derivative code already (<xaif:...>) ..." naming the first such construct.
 * @returns 0 when @doc is no derivative code, else -1 after the report to @diag.
 */
int xf_pipeline_refuse_deriv(const xf_doc *doc, xf_diag *diag);

/**
 * xf_pipeline_run:
 * Run @n passes over @doc in order; stop at the first that fails.
 * @returns 0, or -1 after a report to @ctx->diag.
 */
int xf_pipeline_run(xf_pass_ctx *ctx, const xf_pass *const *passes, int n);

#endif
