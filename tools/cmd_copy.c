/* cmd_copy.c: xaiform copy IN -o OUT: read and write again, no passes. */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "output.h"
#include "read.h"

static const char usage[] =
    "usage: xaiform copy IN.xaif -o OUT.xaif [--xslt STYLE.xsl [--param NAME VALUE]]\n"
    "\n"
    "Read IN.xaif into xaiform's representation and write it to OUT.xaif without\n"
    "changing it: a check that xaiform reads a file completely. The output has the\n"
    "same elements, attributes and text; formatting may differ. The attributes\n"
    "xaiform models come first, in a fixed order (engine/xaif_attrs.def); any\n"
    "other attribute follows as written.\n"
    "\n" XF_OUTPUT_FILE_HELP "'-' as OUT writes to standard output.\n"
    "\n"
    "  -o, --output FILE        where to write (required)\n"
    "      --lenient            accept dangling references and repeated ids (warnings);\n"
    "                           they are copied as written\n" XF_OUTPUT_HELP
    "  -h, --help               this text\n";

int
xf_cmd_copy(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"lenient", no_argument, NULL, 'L'},
                                         {"help", no_argument, NULL, 'h'},
                                         XF_OUTPUT_LONG_OPTIONS,
                                         {0}};
    xf_read_opts ropts = {0};
    xf_output_opts oo = {0};
    const char *why;
    const char *out = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'L':
            ropts.lenient = true;
            break;
        case 'h':
            fputs(usage, stdout);
            return XF_EXIT_OK;
        case XF_OPT_XSLT:
        case XF_OPT_PARAM:
            if ((why = xf_output_option(&oo, c, argc, argv)))
                return xf_usage_error("copy", "%s", why);
            break;
        default:
            return xf_usage_error("copy", "unknown option");
        }
    }
    if (optind != argc - 1)
        return xf_usage_error("copy", "one input file is needed");
    if (!out)
        return xf_usage_error("copy", "-o OUT is needed");
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag)
        return XF_EXIT_INTERNAL;
    xf_doc *doc = xf_read_file(argv[optind], &ropts, diag);
    int ret = doc && xf_output_write(doc, out, &oo, diag) == 0 ? XF_EXIT_OK : XF_EXIT_INPUT;
    if (xf_diag_internal_errors(diag))
        ret = XF_EXIT_INTERNAL;
    xf_doc_free(doc);
    xf_diag_free(diag);
    return ret;
}
