/* cmd_tangent.c: xaiform tangent IN -o OUT, xaiform adjoint IN -o OUT and
 * xaiform passes IN -o OUT --passes LIST: read, run passes, write (only
 * when all succeeded). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "outfile.h"
#include "output.h"
#include "pipeline.h"
#include "read.h"
#include "stream.h"

/* What the differentiating verbs refuse. */
/* --stream */
#define XF_STREAM_HELP                                                                             \
    "  -s, --stream WHEN        keep one routine in memory at a time: always, never,\n"            \
    "                           or auto (the default: inputs of 32 MiB or more). The\n"            \
    "                           input is read twice (whole-program facts first), the\n"            \
    "                           routines are written to a spool file in $TMPDIR; the\n"            \
    "                           output is the same byte for byte, but for the adjoint\n"           \
    "                           of a routine that is one block of more than 1 024\n"               \
    "                           statements: made 1 024 at a time, its adjoint sweep\n"             \
    "                           spilled to $TMPDIR, every partial taped (no TBR, no\n"             \
    "                           dead-store removal). Not with --xslt,\n"                           \
    "                           --verify-each, --time-passes, --dump-after or standard\n"          \
    "                           input (auto then keeps the whole document)\n"

#define XF_DERIV_HELP                                                                              \
    "An input that is derivative code already (a tangent or adjoint output: a\n"                   \
    "DerivativePropagator, a reference with deriv=\"1\", a ReplacementList, a\n"                   \
    "push/pop/Saxpy/ZeroDeriv call) is refused before any pass runs, naming its\n"                 \
    "first such construct, with exit status 1.\n"

static const char tangent_usage[] =
    "usage: xaiform tangent IN.xaif -o OUT.xaif [options]\n"
    "\n"
    "Write the tangent-linear (forward-mode) code of the xaif program in IN: the\n"
    "pipeline convert, linearize, preaccumulate, propagate. The output has\n"
    "xaifBooster's conventions for OpenAD's back end (DerivativePropagators with\n"
    "SetDeriv, Sax, Saxpy, ...; temporaries OpenAD_aux_*, OpenAD_lin_*, OpenAD_acc_*;\n"
    "oad_convert through OpenAD_tyc_* where an argument's activity differs from\n"
    "its formal's).\n"
    "\n" XF_OUTPUT_FILE_HELP "\n"
    "\n" XF_DERIV_HELP "\n"
    "  -o, --output FILE        where to write (required; '-' for stdout)\n"
    "  -c, --catalogue FILE     the intrinsics catalogue (default: the built-in\n"
    "                           schema/intrinsics.xaif)\n" XF_STREAM_HELP;

static const char adjoint_usage[] =
    "usage: xaiform adjoint IN.xaif -o OUT.xaif [--reversal joint|split] [options]\n"
    "\n"
    "Write the adjoint (reverse-mode) code of the xaif program in IN: the pipeline\n"
    "convert, template, linearize, preaccumulate, adjoin, reverse, checkpoint (only\n"
    "with --checkpoint-loop: docs/checkpointing.md), deadstore, propagate. Every\n"
    "routine becomes a ReplacementList for OpenAD's subroutine template: placeholder\n"
    "1 the original code, 2 the taping sweep (push_s0, push_i_s0, ...), 3 the\n"
    "adjoint sweep (pops, Saxpy, ZeroDeriv, the control flow reversed), 4 and 6\n"
    "the argument checkpoints. The template chosen when the back end expands them\n"
    "decides split or joint reversal. Without --reversal the output is right under\n"
    "both templates. --reversal joint makes it for the joint template only: the\n"
    "taping sweep of a routine that another calls leaves out the stores to real\n"
    "formals and globals that only its caller's taping sweep would read (under\n"
    "joint reversal it runs again just before its adjoint sweep, which does not\n"
    "read them), and --loops auto takes what joint allows. --reversal split: as\n"
    "without it, --loops auto by split's rules. Assignments nothing reads leave\n"
    "every taping sweep (pass deadstore).\n"
    "\n"
    "Branches and loops that nest are reversed as such (arm numbers and trip\n"
    "counts taped, loops marked reversal=\"explicit\" run backwards). A routine\n"
    "whose control flow does not nest (gotos, early returns, exits from loops,\n"
    "loops entered in the middle) tapes the number of each block it runs and its\n"
    "adjoint replays them backwards. A graph that cannot be reversed (an edge back\n"
    "into Entry, a vertex with several out-edges and no condition) is refused with\n"
    "FILE:LINE: error: adjoint of routine NAME: ..., exit status 1.\n"
    "\n" XF_OUTPUT_FILE_HELP "\n"
    "\n" XF_DERIV_HELP "\n"
    "  -o, --output FILE        where to write (required; '-' for stdout)\n"
    "  -c, --catalogue FILE     the intrinsics catalogue (default: the built-in\n"
    "                           schema/intrinsics.xaif)\n" XF_STREAM_HELP;

static const char passes_usage[] =
    "usage: xaiform passes IN.xaif -o OUT.xaif --passes LIST [options]\n"
    "       xaiform passes --list\n"
    "\n"
    "Run the passes in LIST (comma-separated pass or pipeline names, e.g.\n"
    "linearize,preaccumulate or tangent) over IN and write the result. The list\n"
    "is checked before any pass runs against each pass's rules (passes --list):\n"
    "what it needs comes before it, what it runs before does not, and a pass\n"
    "that runs once is not listed twice; a list that breaks one is refused\n"
    "(exit 2). An option of a pass (below, after -c) is refused when LIST does\n"
    "not run that pass.\n"
    "\n" XF_DERIV_HELP "\n"
    "  -p, --passes LIST        the passes to run\n"
    "  -l, --list               list the passes and pipelines: what each does, needs,\n"
    "                           runs before, runs once, breaks and promises, per\n"
    "                           routine or per document, its options\n"
    "  -o, --output FILE        where to write (required; '-' for stdout)\n"
    "  -c, --catalogue FILE     the intrinsics catalogue (default: the built-in\n"
    "                           schema/intrinsics.xaif)\n" XF_STREAM_HELP;

/* After a verb's own options: the passes' options, the manager's, the output's. */
static void
help(const char *usage, const char *list)
{
    fputs(usage, stdout);
    xf_cli_pass_help(stdout, list, NULL);
    fputs(XF_PM_HELP XF_OUTPUT_HELP "  -h, --help               this text\n", stdout);
}

static int
transform(int argc, char **argv, const char *verb)
{
    enum { MAXOPT = 48 };
    static const struct option own[] = {{"output", required_argument, NULL, 'o'},
                                        {"catalogue", required_argument, NULL, 'c'},
                                        {"passes", required_argument, NULL, 'p'},
                                        {"list", no_argument, NULL, 'l'},
                                        {"stream", required_argument, NULL, 's'},
                                        {"help", no_argument, NULL, 'h'},
                                        XF_OUTPUT_LONG_OPTIONS,
                                        XF_PM_LONG_OPTIONS};
    struct option opts[MAXOPT];
    char shorts[64] = "o:c:p:s:lh";
    size_t nown = sizeof own / sizeof own[0];
    memcpy(opts, own, sizeof own);
    if (xf_cli_pass_options(opts, nown, MAXOPT, shorts, sizeof shorts, NULL) == 0)
        return xf_usage_error(verb, "internal error: too many options");
    xf_output_opts oo = {0};
    xf_cli_passes cp;
    xf_cli_passes_init(&cp);
    const char *why;
    bool is_passes = !strcmp(verb, "passes"), is_adjoint = !strcmp(verb, "adjoint");
    const char *out = NULL, *catalogue = NULL, *plist = is_passes ? NULL : verb, *stream = NULL;
    int c, r;
    char err[600];
    optind = 1;
    while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'c':
            catalogue = optarg;
            break;
        case 's':
            if (strcmp(optarg, "always") && strcmp(optarg, "never") && strcmp(optarg, "auto"))
                return xf_usage_error(verb, "--stream: always, never or auto, not '%s'", optarg);
            stream = optarg;
            break;
        case 'p':
            if (!is_passes)
                return xf_usage_error(verb, "unknown option");
            plist = optarg;
            break;
        case 'l':
            if (!is_passes)
                return xf_usage_error(verb, "unknown option");
            xf_pm_list(stdout);
            return XF_EXIT_OK;
        case 'h':
            help(is_passes    ? passes_usage
                 : is_adjoint ? adjoint_usage
                              : tangent_usage,
                 is_passes ? NULL : verb);
            return XF_EXIT_OK;
        case XF_OPT_XSLT:
        case XF_OPT_PARAM:
            if ((why = xf_output_option(&oo, c, argc, argv)))
                return xf_usage_error(verb, "%s", why);
            break;
        default:
            if ((r = xf_cli_pass_option(&cp, c, optarg, NULL, err, sizeof err)) != 0)
                return xf_usage_error(verb, "%s", r < 0 ? "unknown option" : err);
        }
    }
    if (optind != argc - 1)
        return xf_usage_error(verb, "one input file is needed");
    if (!out)
        return xf_usage_error(verb, "-o OUT is needed");
    if (!plist)
        return xf_usage_error(verb, "--passes LIST is needed");
    const xf_pass *passes[XF_PM_MAX];
    int n = xf_pipeline_parse(plist, passes, XF_PM_MAX, err, sizeof err);
    if (n < 0)
        return xf_usage_error(verb, "%s", err);
    if (xf_cli_pass_check(&cp, passes, n, err, sizeof err) != 0)
        return xf_usage_error(verb, "%s", err);
    cp.conf.dump_base = out;
    const char *in = argv[optind];
    bool can_stream = n > 0 && oo.nstyles == 0 && strcmp(in, "-") != 0 &&
                      xf_pm_streams(passes, n, &cp.conf, &cp.opts);
    if (stream && !strcmp(stream, "always") && !can_stream)
        return xf_usage_error(verb, "--stream always: not with --xslt, --verify-each, "
                                    "--time-passes, --dump-after, standard input or a pass "
                                    "over the whole document");
    bool streamed = can_stream && xf_stream_wanted(stream, in);
    if (catalogue && strcmp(out, "-") != 0 && xf_outfile_same(out, catalogue)) {
        fprintf(stderr, "%s: error: the output is the input file %s; it is not overwritten\n", out,
                catalogue);
        return XF_EXIT_INPUT;
    }
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag)
        return XF_EXIT_INTERNAL;
    int ret = XF_EXIT_INPUT;
    xf_doc *cat = xf_catalogue_load(catalogue, diag);
    xf_doc *direct = cat ? xf_direct_load(NULL, diag) : NULL;
    xf_doc *doc = NULL;
    if (direct && streamed) {
        xf_pass_ctx tmpl = {.opts = &cp.opts, .diag = diag, .catalogue = cat, .direct = direct};
        if (xf_stream_transform(in, out, &tmpl, passes, n, NULL) == 0)
            ret = XF_EXIT_OK;
    } else if (direct)
        doc = xf_read_file(in, NULL, diag);
    if (doc && (n == 0 || xf_pipeline_refuse_deriv(doc, diag) == 0)) {
        xf_pass_ctx ctx = {
            .doc = doc, .opts = &cp.opts, .diag = diag, .catalogue = cat, .direct = direct};
        if (xf_pm_run(&ctx, passes, n, &cp.conf) == 0 && xf_output_write(doc, out, &oo, diag) == 0)
            ret = XF_EXIT_OK;
    }
    if (xf_diag_internal_errors(diag))
        ret = XF_EXIT_INTERNAL;
    xf_doc_free(doc);
    xf_doc_free(cat);
    xf_doc_free(direct);
    xf_diag_free(diag);
    return ret;
}

int
xf_cmd_tangent(int argc, char **argv)
{
    return transform(argc, argv, "tangent");
}

int
xf_cmd_adjoint(int argc, char **argv)
{
    return transform(argc, argv, "adjoint");
}

int
xf_cmd_passes(int argc, char **argv)
{
    return transform(argc, argv, "passes");
}
