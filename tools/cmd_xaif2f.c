/* cmd_xaif2f.c: xaiform xaif2f IN.xaif -o OUT.f90: the Fortran back end
 * (frontends/xaif2f/) on the command line. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "code_out.h"
#include "xaif2f.h"

static const char usage[] =
    "usage: xaiform xaif2f IN.xaif -o OUT.f90 [--reversal joint|split] [--goto]\n"
    "\n"
    "Write free-form Fortran for IN.xaif: a front end's document (the program), or\n"
    "the tangent or adjoint that 'xaiform tangent' / 'xaiform adjoint' made of it.\n"
    "Routine f becomes f, f_d (tangent) or f_b (adjoint); each active real argument\n"
    "x is followed by its derivative xd / xb (Tapenade's names). Adjoint code uses\n"
    "the module xaiform_ad (xaiform_ad.f90, installed by 'cmake --install'). What\n"
    "has no Fortran here is refused with FILE:LINE, and nothing is written.\n"
    "\n"
    "  -o, --output FILE        where to write (required; '-' for standard output)\n"
    "      --reversal MODE      joint (default): f_b tapes and adjoins each callee\n"
    "                           at once; split: a taping sweep, then an adjoint one\n"
    "      --goto               every control-flow graph as labels and GOTOs (by\n"
    "                           default structured ones are DO, IF, SELECT CASE)\n"
    "  -h, --help               this text\n";

/* xf_xaif2f_write as an xf_code_writer */
static int
write_code(const xf_doc *doc, FILE *out, const void *opts, xf_diag *diag)
{
    return xf_xaif2f_write(doc, out, opts, diag);
}

int
xf_cmd_xaif2f(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"reversal", required_argument, NULL, 'r'},
                                         {"goto", no_argument, NULL, 'g'},
                                         {"help", no_argument, NULL, 'h'},
                                         {0}};
    xf_xaif2f_opts co = {0};
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
                co.reversal = XF_F_JOINT;
            else if (!strcmp(optarg, "split"))
                co.reversal = XF_F_SPLIT;
            else
                return xf_usage_error("xaif2f", "unknown reversal '%s' (joint or split)", optarg);
            break;
        case 'g':
            co.labels_only = true;
            break;
        case 'h':
            fputs(usage, stdout);
            return XF_EXIT_OK;
        default:
            return xf_usage_error("xaif2f", "unknown option");
        }
    }
    if (optind != argc - 1)
        return xf_usage_error("xaif2f", "one input file is needed");
    if (!out)
        return xf_usage_error("xaif2f", "-o OUT is needed");
    return xf_code_cmd(argv[optind], out, write_code, &co);
}
