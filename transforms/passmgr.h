/* passmgr.h: the pass manager. It resolves a list of pass and pipeline
 * names against the registry and checks each pass's needs; it parses the
 * options the passes declare (one parser for every verb); and it runs the
 * passes over a document: a pass with run_routine once per routine, with a
 * scratch arena emptied after each, the others once. On request it checks
 * the IR after the reader and after every pass (xf_ir_check), times the
 * passes and writes the IR after one of them. */
#ifndef XF_TRANSFORMS_PASSMGR_H
#define XF_TRANSFORMS_PASSMGR_H

#include <stdbool.h>
#include <stdio.h>

#include "pass.h"

/* The most passes in one list. */
enum { XF_PM_MAX = 32 };

/* What the manager does besides running the passes. */
typedef struct xf_pm_conf {
    bool verify_each;       /* xf_ir_check after the reader and after every pass, and
                               each pass's promise (xf_pass.verify) after it */
    FILE *time_passes;      /* print each pass's time and memory here; NULL: not */
    const char *dump_after; /* write the IR after this pass ("all": after each); NULL: none */
    const char *dump_base;  /* the IR after pass P goes to DUMP_BASE.P.xaif; NULL or "-": stderr */
} xf_pm_conf;

/**
 * xf_pipeline_parse:
 * Resolve @list (pass and pipeline names, comma-separated) into passes and
 * check them with xf_pipeline_check.
 * @returns the number of passes (up to @max), or -1 after a message on @err.
 */
int xf_pipeline_parse(const char *list, const xf_pass **out, int max, char *err, size_t errlen);

/**
 * xf_pipeline_check:
 * Check @n passes in order against each pass's rules: one that runs once is
 * not listed twice ("linearize: listed twice; a pass of this kind runs
 * once"), what it needs (after) comes before it ("preaccumulate: needs
 * linearize to run before it, ..."), what it runs before (before) does not
 * ("sink: runs before
 * linearize, which the list has before it").
 * @returns 0, or -1 with the first rule broken in @err.
 */
int xf_pipeline_check(const xf_pass *const *passes, int n, char *err, size_t errlen);

/**
 * xf_pipeline_run:
 * Run @n passes over @ctx->doc in order; stop at the first that fails.
 * Debug builds check the IR after every pass as --verify-each does.
 * @returns 0, or -1 after a report to @ctx->diag.
 */
int xf_pipeline_run(xf_pass_ctx *ctx, const xf_pass *const *passes, int n);

/**
 * xf_pm_run:
 * xf_pipeline_run with @conf (NULL: as xf_pipeline_run). With verify_each
 * (or in a Debug build) the IR is checked before the first pass and after
 * each; a violation is reported as an internal error naming the pass,
 * "after pass linearize: FILE:LINE: ...", and stops the run; so is a pass's
 * broken promise (its verify), "after pass propagate: it promises ...:
 * FILE:LINE: ...". A pass that
 * fails is named too when it reported nothing. The time table and the
 * dumps are written as each pass ends, so that they show how far a failing
 * run got.
 * @returns 0, or -1 after a report to @ctx->diag.
 */
int xf_pm_run(xf_pass_ctx *ctx, const xf_pass *const *passes, int n, const xf_pm_conf *conf);

/**
 * xf_pm_conf_check:
 * Is @conf usable with the @n @passes: dump_after names one of them or is "all"?
 * @returns 0, or -1 with the reason in @err.
 */
int xf_pm_conf_check(const xf_pm_conf *conf, const xf_pass *const *passes, int n, char *err,
                     size_t len);

/**
 * xf_pm_option_at:
 * The @k-th option declared by the registry's passes (from 0), and in
 * *@owner the pass that declares it; NULL past the last.
 */
const xf_pass_opt *xf_pm_option_at(size_t k, const xf_pass **owner);

/** xf_pm_option_find: the option named @name (long name), its pass in *@owner; or NULL. */
const xf_pass_opt *xf_pm_option_find(const char *name, const xf_pass **owner);

/**
 * xf_pm_option:
 * Set @o from the option named @name (long name) with argument @arg (NULL
 * for a switch): the one parser of every pass option for every verb.
 * @returns 0, or -1 with the reason in @err ("unknown elimination order 'x' ...").
 */
int xf_pm_option(xf_opts *o, const char *name, const char *arg, char *err, size_t len);

/** xf_pm_option_show: the value of option @name in @o as text ("best"), or NULL
 * when its pass does not say (no show). */
const char *xf_pm_option_show(const xf_opts *o, const char *name);

/** xf_pm_option_text: xf_pm_option of "NAME" or "NAME=VALUE" (a verb's --pass-option). */
int xf_pm_option_text(xf_opts *o, const char *text, char *err, size_t len);

/** xf_pm_opts_init: the default options of every pass (each pass's own_init). */
void xf_pm_opts_init(xf_opts *o);

/**
 * xf_pm_list:
 * Print each pass of the registry to @out: its name and summary, what it
 * needs and breaks, and its options, from the declarations; then the named
 * pipelines.
 */
void xf_pm_list(FILE *out);

/* Running passes one routine at a time (the document streamed: xf_read_stream). */
typedef struct xf_pm_stream {
    xf_pass_ctx *ctx;
    const xf_pass *passes[XF_PM_MAX]; /* those not idle */
    int n, begun;
    void *state[XF_PM_MAX];
    xf_arena *scratch; /* emptied after each pass over each routine */
} xf_pm_stream;

/** xf_pm_streams: whether @passes can run one routine at a time under @conf
 * and options @o (every pass per routine, or idle under @o; no
 * --verify-each, --time-passes, --dump-after). */
bool xf_pm_streams(const xf_pass *const *passes, int n, const xf_pm_conf *conf, const xf_opts *o);
/** xf_pm_stream_begin: begin each pass (ctx->doc holds the prologue); 0 or -1. */
int xf_pm_stream_begin(xf_pm_stream *s, xf_pass_ctx *ctx, const xf_pass *const *passes, int n);
/** xf_pm_stream_scan: show @rt to each pass's scan (the first reading); 0 or -1. */
int xf_pm_stream_scan(xf_pm_stream *s, const xf_routine *rt);
/** xf_pm_stream_routine: run every pass over @rt in order; 0 or -1. */
int xf_pm_stream_routine(xf_pm_stream *s, xf_routine *rt);
/** xf_pm_stream_end: end the passes begun. */
void xf_pm_stream_end(xf_pm_stream *s);

#endif
