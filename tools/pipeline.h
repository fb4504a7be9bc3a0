/* pipeline.h: running a list of passes over a document (the catalogues
 * they read: catalogue.h). */
#ifndef XF_TOOLS_PIPELINE_H
#define XF_TOOLS_PIPELINE_H

#include "catalogue.h"
#include "pass.h"

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
