/* cmd_xaif2c.c: xaiform xaif2c IN.xaif -o OUT.c: the C back end
 * (frontends/xaif2c/) on the command line. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "code_out.h"
#include "xaif2c.h"

static const char usage[] =
    "usage: xaiform xaif2c IN.xaif -o OUT.c [--reversal joint|split] [--header NAME]\n"
    "\n"
    "Write C99 for IN.xaif: a front end's document (the program), or the tangent\n"
    "or adjoint that 'xaiform tangent' / 'xaiform adjoint' made of it. Routine f\n"
    "becomes f, f_d (tangent) or f_b (adjoint); each active real argument x is\n"
    "followed by its derivative xd / xb; arguments are pointers. The output\n"
    "includes the runtime header xaiform/ad.h (installed by 'cmake --install').\n"
    "What has no C here (array sections, arrays without bounds, strings, ...) is\n"
    "refused with FILE:LINE, and nothing is written.\n"
    "\n"
    "  -o, --output FILE        where to write (required; '-' for standard output)\n"
    "      --reversal MODE      joint (default): f_b tapes and adjoins each callee\n"
    "                           at once; split: a taping sweep, then an adjoint one\n"
    "      --header NAME        #include \"NAME\" instead of \"xaiform/ad.h\"\n"
    "  -h, --help               this text\n";

/* xf_xaif2c_write as an xf_code_writer */
static int
write_code(const xf_doc *doc, FILE *out, const void *opts, xf_diag *diag)
{
    return xf_xaif2c_write(doc, out, opts, diag);
}

int
xf_cmd_xaif2c(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"reversal", required_argument, NULL, 'r'},
                                         {"header", required_argument, NULL, 'H'},
                                         {"help", no_argument, NULL, 'h'},
                                         {0}};
    xf_xaif2c_opts co = {0};
    const char *out = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'r':
            if (!strcmp(optarg, "joint"))
                co.reversal = XF_C_JOINT;
            else if (!strcmp(optarg, "split"))
                co.reversal = XF_C_SPLIT;
            else
                return xf_usage_error("xaif2c", "unknown reversal '%s' (joint or split)", optarg);
            break;
        case 'H':
            co.header = optarg;
            break;
        case 'h':
            fputs(usage, stdout);
            return XF_EXIT_OK;
        default:
            return xf_usage_error("xaif2c", "unknown option");
        }
    }
    if (optind != argc - 1)
        return xf_usage_error("xaif2c", "one input file is needed");
    if (!out)
        return xf_usage_error("xaif2c", "-o OUT is needed");
    return xf_code_cmd(argv[optind], out, write_code, &co);
}
