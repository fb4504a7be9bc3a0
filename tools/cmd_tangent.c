/* cmd_tangent.c: xaiform tangent IN -o OUT, xaiform adjoint IN -o OUT and
 * xaiform passes IN -o OUT --passes LIST: read, run passes, write (only
 * when all succeeded). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "output.h"
#include "pipeline.h"
#include "read.h"

/* What the differentiating verbs refuse. */
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
    "                           schema/intrinsics.xaif)\n"
    "  -e, --elimination ORDER  forward, reverse, markowitz or best (default: best, the\n"
    "                           cheapest per sequence, no elimination included)\n"
    "  -r, --report             print, per preaccumulation sequence, the cost of each\n"
    "                           order and the choice, on stderr\n" XF_OUTPUT_HELP
    "  -h, --help               this text\n";

static const char adjoint_usage[] =
    "usage: xaiform adjoint IN.xaif -o OUT.xaif [--reversal joint|split] [options]\n"
    "\n"
    "Write the adjoint (reverse-mode) code of the xaif program in IN: the pipeline\n"
    "convert, template, linearize, preaccumulate, adjoin, reverse, propagate. Every\n"
    "routine becomes a ReplacementList for OpenAD's subroutine template: placeholder\n"
    "1 the original code, 2 the taping sweep (push_s0, push_i_s0, ...), 3 the\n"
    "adjoint sweep (pops, Saxpy, ZeroDeriv, the control flow reversed), 4 and 6\n"
    "the argument checkpoints. The template chosen when the back end expands them\n"
    "decides split or joint reversal; --reversal (default joint) is accepted for\n"
    "xaifBooster's command lines and changes nothing in the output.\n"
    "\n" XF_OUTPUT_FILE_HELP "\n"
    "\n" XF_DERIV_HELP "\n"
    "  -o, --output FILE        where to write (required; '-' for stdout)\n"
    "  -c, --catalogue FILE     the intrinsics catalogue (default: the built-in\n"
    "                           schema/intrinsics.xaif)\n"
    "  -e, --elimination ORDER  forward, reverse, markowitz or best (default: best)\n"
    "  -R, --reversal MODE      joint (default) or split\n"
    "  -r, --report             print the preaccumulation costs on stderr\n" XF_OUTPUT_HELP
    "  -h, --help               this text\n";

static const char passes_usage[] =
    "usage: xaiform passes IN.xaif -o OUT.xaif --passes LIST [options]\n"
    "       xaiform passes --list\n"
    "\n"
    "Run the passes in LIST (comma-separated pass or pipeline names, e.g.\n"
    "linearize,preaccumulate or tangent) over IN and write the result. Each pass's\n"
    "prerequisites must come before it. The options of 'xaiform tangent' apply.\n"
    "\n" XF_DERIV_HELP "\n"
    "  -p, --passes LIST   the passes to run\n"
    "  -l, --list          list the passes and pipelines with what they do\n";

static int
list(void)
{
    for (const xf_pass *const *p = xf_passes; *p; p++) {
        printf("%-14s %s\n", (*p)->name, (*p)->summary);
        const char *a = (*p)->after && (*p)->after[0] ? (*p)->after[0] : NULL;
        if (a)
            printf("%-14s needs: %s\n", "", a);
    }
    printf("\npipelines:\n");
    for (size_t k = 0; xf_pipeline_name(k); k++)
        printf("  %s = %s\n", xf_pipeline_name(k), xf_pipeline_expand(xf_pipeline_name(k)));
    return XF_EXIT_OK;
}

static int
transform(int argc, char **argv, const char *verb)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"catalogue", required_argument, NULL, 'c'},
                                         {"elimination", required_argument, NULL, 'e'},
                                         {"report", no_argument, NULL, 'r'},
                                         {"passes", required_argument, NULL, 'p'},
                                         {"list", no_argument, NULL, 'l'},
                                         {"reversal", required_argument, NULL, 'R'},
                                         {"help", no_argument, NULL, 'h'},
                                         XF_OUTPUT_LONG_OPTIONS,
                                         {0}};
    xf_output_opts oo = {0};
    const char *why;
    bool is_passes = !strcmp(verb, "passes"), is_adjoint = !strcmp(verb, "adjoint");
    const char *out = NULL, *catalogue = NULL, *plist = is_passes ? NULL : verb;
    xf_opts o = {.elimination = XF_ELIM_BEST};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:c:e:rp:lR:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'c':
            catalogue = optarg;
            break;
        case 'e':
            if (!strcmp(optarg, "best"))
                o.elimination = XF_ELIM_BEST;
            else if (!strcmp(optarg, "forward"))
                o.elimination = XF_ELIM_FORWARD;
            else if (!strcmp(optarg, "reverse"))
                o.elimination = XF_ELIM_REVERSE;
            else if (!strcmp(optarg, "markowitz"))
                o.elimination = XF_ELIM_MARKOWITZ;
            else
                return xf_usage_error(verb, "unknown elimination order '%s'", optarg);
            break;
        case 'r':
            o.report = stderr;
            break;
        case 'R':
            if (is_adjoint && !strcmp(optarg, "joint"))
                o.split = false;
            else if (is_adjoint && !strcmp(optarg, "split"))
                o.split = true;
            else if (is_adjoint)
                return xf_usage_error(verb, "unknown reversal '%s' (joint or split)", optarg);
            else
                return xf_usage_error(verb, "unknown option");
            break;
        case 'p':
            if (!is_passes)
                return xf_usage_error(verb, "unknown option");
            plist = optarg;
            break;
        case 'l':
            if (!is_passes)
                return xf_usage_error(verb, "unknown option");
            return list();
        case 'h':
            fputs(is_passes ? passes_usage : is_adjoint ? adjoint_usage : tangent_usage, stdout);
            if (is_passes)
                fputs(strchr(tangent_usage, '\n') ? strstr(tangent_usage, "  -o") : "", stdout);
            return XF_EXIT_OK;
        case XF_OPT_XSLT:
        case XF_OPT_PARAM:
            if ((why = xf_output_option(&oo, c, argc, argv)))
                return xf_usage_error(verb, "%s", why);
            break;
        default:
            return xf_usage_error(verb, "unknown option");
        }
    }
    if (optind != argc - 1)
        return xf_usage_error(verb, "one input file is needed");
    if (!out)
        return xf_usage_error(verb, "-o OUT is needed");
    if (!plist)
        return xf_usage_error(verb, "--passes LIST is needed");
    const xf_pass *passes[32];
    char err[300];
    int n = xf_pipeline_parse(plist, passes, 32, err, sizeof err);
    if (n < 0)
        return xf_usage_error(verb, "%s", err);
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag)
        return XF_EXIT_INTERNAL;
    int ret = XF_EXIT_INPUT;
    xf_doc *cat = xf_catalogue_load(catalogue, diag);
    xf_doc *direct = cat ? xf_direct_load(NULL, diag) : NULL;
    xf_doc *doc = direct ? xf_read_file(argv[optind], NULL, diag) : NULL;
    if (doc && (n == 0 || xf_pipeline_refuse_deriv(doc, diag) == 0)) {
        xf_pass_ctx ctx = {
            .doc = doc, .opts = &o, .diag = diag, .catalogue = cat, .direct = direct};
        if (xf_pipeline_run(&ctx, passes, n) == 0 && xf_output_write(doc, out, &oo, diag) == 0)
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
