/* pipeline.h: what the verbs need around the pass manager (passmgr.h):
 * the refusal of derivative code, and the catalogues (catalogue.h). */
#ifndef XF_TOOLS_PIPELINE_H
#define XF_TOOLS_PIPELINE_H

#include <getopt.h>
#include <stdio.h>

#include "catalogue.h"
#include "passmgr.h"

/**
 * xf_pipeline_refuse_deriv:
 * Refuse @doc as the input of a differentiating pass list when it is
 * derivative code already (@doc->deriv): "FILE:LINE: error: FILE is
 * derivative code already (<xaif:...>) ..." naming the first such construct.
 * @returns 0 when @doc is no derivative code, else -1 after the report to @diag.
 */
int xf_pipeline_refuse_deriv(const xf_doc *doc, xf_diag *diag);

/* ---- the pass manager's options and the passes' own on a verb's command line */

enum { XF_OPT_VERIFY_EACH = 0x1200, XF_OPT_TIME_PASSES, XF_OPT_DUMP_AFTER, XF_OPT_PASS = 0x1300 };

/* getopt_long entries of --verify-each, --time-passes, --dump-after. */
#define XF_PM_LONG_OPTIONS                                                                         \
    {"verify-each", no_argument, NULL, XF_OPT_VERIFY_EACH},                                        \
        {"time-passes", no_argument, NULL, XF_OPT_TIME_PASSES},                                    \
    {                                                                                              \
        "dump-after", required_argument, NULL, XF_OPT_DUMP_AFTER                                   \
    }

#define XF_PM_HELP                                                                                 \
    "      --verify-each        check the IR after the reader and after every pass\n"              \
    "                           (references resolve, expressions acyclic with operands\n"          \
    "                           1..n, one Entry and one Exit, branches and loops nested\n"         \
    "                           unless marked structured=\"0\"), and what the pass\n"              \
    "                           promises (passes --list); a broken invariant or promise\n"         \
    "                           is an internal error naming the pass (exit status 3)\n"            \
    "      --time-passes        print each pass's time (ms), the document's size after it,\n"      \
    "                           its growth, the peak of its scratch arena and the process's\n"     \
    "                           peak RSS so far (KiB) as a table on stderr\n"                      \
    "      --dump-after PASS    write the IR after PASS (or after each: all) as xaif to\n"         \
    "                           OUT.PASS.xaif (to stderr when OUT is '-')\n"

/* What a verb collects from the pass manager's options and the passes'. */
typedef struct xf_cli_passes {
    xf_opts opts;
    xf_pm_conf conf;
    const char *given[16]; /* the long names of the pass options given */
    size_t ngiven;
} xf_cli_passes;

/** xf_cli_passes_init: the defaults: no verification (but in Debug builds), no table, no dump. */
void xf_cli_passes_init(xf_cli_passes *cp);

/**
 * xf_cli_pass_options:
 * Append to the getopt_long table @tab (@n entries used, room for @max and
 * the terminating zero entry) the options the passes declare, except those
 * named in @skip (NULL-terminated, or NULL), and their letters to the short
 * option string @shorts (@slen bytes).
 * @returns the number of entries used, or 0 when @tab or @shorts is too small.
 */
size_t xf_cli_pass_options(struct option *tab, size_t n, size_t max, char *shorts, size_t slen,
                           const char *const *skip);

/**
 * xf_cli_pass_option:
 * Take getopt_long's @c (with @arg) when it is a pass option or one of
 * XF_PM_LONG_OPTIONS, parsing the value with the pass manager's parser.
 * @returns 0 when taken, -1 when @c is not one of them, 1 when its value is
 * refused (the reason in @err, @len bytes).
 */
int xf_cli_pass_option(xf_cli_passes *cp, int c, const char *arg, const char *const *skip,
                       char *err, size_t len);

/**
 * xf_cli_pass_check:
 * Refuse a pass option given for a pass that is not among the @n @passes,
 * and a --dump-after that names none of them.
 * @returns 0, or -1 with the reason in @err (@len bytes).
 */
int xf_cli_pass_check(const xf_cli_passes *cp, const xf_pass *const *passes, int n, char *err,
                      size_t len);

/**
 * xf_cli_pass_help:
 * Print to @out the --help lines of the options of the passes in @list
 * (pass and pipeline names; NULL: every pass), except those named in @skip.
 */
void xf_cli_pass_help(FILE *out, const char *list, const char *const *skip);

#endif
