/* output.h: writing a verb's result, through an optional XSLT stage
 * (libxslt): --xslt STYLE.xsl (repeatable, applied in the order given) and
 * --param NAME VALUE (repeatable, a string passed to every stylesheet).
 * libxslt is opened (dl_xslt.h) only when there are stylesheets.
 *
 * Without stylesheets the output is exactly xf_write_file's. With them, the
 * document is serialized to memory, parsed again, run through each
 * stylesheet in turn and the last result written as that stylesheet's
 * xsl:output says, through a temporary file renamed into place.
 *
 * Security: the stylesheets may read files (document(), xsl:import) but may
 * not write files, create directories or use the network, for reading or
 * writing (exsl:document, xsl:document and http: URLs are refused with an
 * error); no parse reaches the network.
 *
 * The EXSLT extensions (exsl:node-set, str:tokenize, ...) are available,
 * as in xsltproc.
 *
 * Threads: xf_output_compile and xf_output_write (with stylesheets) set
 * libxslt's process-wide error handler and default security preferences
 * for their duration, and put them back afterwards, as they put back
 * libxml2's (per-thread) handlers: call them from one thread at a time. */
#ifndef XF_TOOLS_OUTPUT_H
#define XF_TOOLS_OUTPUT_H

#include <stddef.h>

#include "diag.h"
#include "ir.h"

enum {
    XF_OUTPUT_MAX_STYLES = 32, /* --xslt options per run */
    XF_OUTPUT_MAX_PARAMS = 32, /* --param options per run */
    /* getopt_long values of the two options (outside the range of characters) */
    XF_OPT_XSLT = 0x1100,
    XF_OPT_PARAM = 0x1101,
};

/* The two entries of a verb's struct option table. */
// clang-format off
#define XF_OUTPUT_LONG_OPTIONS                                                                     \
    {"xslt", required_argument, NULL, XF_OPT_XSLT},                                                \
    {"param", required_argument, NULL, XF_OPT_PARAM}
// clang-format on

/* The --help lines of the two options (the width of the verbs' option columns). */
#define XF_OUTPUT_HELP                                                                             \
    "      --xslt STYLE.xsl     run the output through the XSLT stylesheet STYLE.xsl\n"            \
    "                           (libxslt) before it is written; repeatable, applied in\n"          \
    "                           order. Stylesheets may not write files or use the network\n"       \
    "      --param NAME VALUE   pass the string VALUE as parameter NAME to every\n"                \
    "                           stylesheet (no XPath quoting needed); repeatable\n"

/* The paragraph of a verb's --help on how OUT is written (engine/outfile.h). */
#define XF_OUTPUT_FILE_HELP                                                                        \
    "OUT, a regular file or a new one, is written to a temporary file beside it and\n"             \
    "renamed into place, so a failure leaves no partial output (a symbolic link\n"                 \
    "stays a link, its target is replaced); a device, FIFO, socket, /dev/stdout or\n"              \
    "/dev/fd/N is written to straight. An OUT that is the input file is refused.\n"                \
    "Ctrl-C, SIGTERM or SIGHUP removes the temporary file; the exit status is then\n"              \
    "128+N.\n"

typedef struct xf_output_compiled xf_output_compiled;

/* What a verb collected from --xslt and --param. Initialize with {0}. The
 * strings are the caller's (argv); nothing here is allocated until
 * xf_output_compile. */
typedef struct xf_output_opts {
    const char *styles[XF_OUTPUT_MAX_STYLES]; /* stylesheet paths, in order */
    size_t nstyles;
    /* name, value, name, value, ..., NULL: as libxslt takes parameters */
    const char *params[2 * XF_OUTPUT_MAX_PARAMS + 1];
    size_t nparams;               /* pairs */
    xf_output_compiled *compiled; /* set by xf_output_compile; NULL otherwise */
    char why[160];                /* the last usage error of xf_output_option */
} xf_output_opts;

/**
 * xf_output_option:
 * Take option @c of a verb's getopt_long loop when it is XF_OPT_XSLT or
 * XF_OPT_PARAM: the stylesheet (optarg), or NAME (optarg) and VALUE (the
 * next argument, argv[optind], consumed here).
 * @returns NULL when taken, or a usage message (owned by @o) for
 * xf_usage_error: a missing VALUE, a NAME that is not an XML name, too many
 * options, or @c not one of the two.
 */
const char *xf_output_option(xf_output_opts *o, int c, int argc, char **argv);

/**
 * xf_output_compile:
 * Parse and compile @o's stylesheets once, for several xf_output_write calls
 * (batch); optional: xf_output_write compiles them itself when this was not
 * called. Errors go to @d as "STYLE.xsl:LINE: error: ...". Release with
 * xf_output_fini.
 * @returns 0 (also when there are no stylesheets), or -1 after reporting.
 */
int xf_output_compile(xf_output_opts *o, xf_diag *d);

/** xf_output_fini: release what xf_output_compile made. Safe to call twice. */
void xf_output_fini(xf_output_opts *o);

/**
 * xf_output_write:
 * Write @doc to @path ("-": standard output). Without stylesheets (@o NULL
 * or none given) this is xf_write_file, byte for byte. Otherwise the
 * stylesheets are applied in order, each with @o's parameters as string
 * literals, and the result written to a temporary file in @path's folder
 * that is renamed into place: on any error @path is left as it was.
 * Stylesheet errors (a missing or malformed file, a bad XPath, xsl:message
 * terminate="yes", a refused write) go to @d as "STYLE.xsl:LINE: error:
 * ..."; xsl:message without terminate gives a note; messages of a stylesheet
 * that succeeds are warnings.
 * @returns 0, or -1 after reporting to @d.
 */
int xf_output_write(const xf_doc *doc, const char *path, const xf_output_opts *o, xf_diag *d);

#endif
