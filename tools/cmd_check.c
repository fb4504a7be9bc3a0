/* cmd_check.c: xaiform check [--mode MODE...] DIR...: the regression runner. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "regress.h"
#include "cmd.h"

static const char usage[] =
    "usage: xaiform check [--mode MODE]... [--min-pass PERCENT] DIR...\n"
    "\n"
    "Run every example folder under each DIR (OpenAD's regression layout: params.conf,\n"
    "tlm.xaif, adm.xaif, ref/tlm.xb.xaif, ref/adm.xb.xaif, ref/ad.out, ref/dd.out) and\n"
    "compare the Jacobians with the references. Modes:\n"
    "\n"
    "  dd           the front end's xaif under divided differences, against ref/dd.out\n"
    "               (relative difference 1e-6)\n"
    "  ref-tangent  xaifBooster's tangent output, tangent driver, against ref/ad.out (1e-10)\n"
    "  ref-adjoint  xaifBooster's adjoint output, joint and split drivers, against\n"
    "               ref/ad.out (1e-10)\n"
    "  tangent      xaiform's own tangent of tlm.xaif, tangent driver, against ref/ad.out\n"
    "               (1e-10); where FAILREASON_tlm_none says OpenAD's tangent is wrong,\n"
    "               against ref/dd.out within params.conf's tolerance, counted apart\n"
    "\n"
    "Entries agree within the relative tolerance or 1e-12 absolutely. A mode is\n"
    "skipped, with the reason, where the example has no input for it, where a\n"
    "FAILREASON file says OpenAD's own derivative is wrong, or where the example\n"
    "needs a custom driver (CUSTOM_DRIVER). One line per example and mode, then\n"
    "'N passed, N failed, N skipped' per mode. Default: all modes.\n"
    "  --catalogue FILE, --elimination ORDER   as for 'xaiform tangent'\n"
    "  --stats      for the transform modes, also the floating-point operations of the\n"
    "               derivative runs, ours and xaifBooster's output's, per example (OPS\n"
    "               lines) and in total\n"
    "  --xaifbooster-root ROOT  the transform modes make the derivative by running\n"
    "               ROOT/xaifBooster/algorithms/ALG/driver/oadDriver (xaiform's build/oad,\n"
    "               PREFIX/share/xaiform/oad, or xaifBooster itself) as OpenAD's regression\n"
    "               does: -v -V -i IN -c CATALOGUE -o OUT, -I for joint, and the example's\n"
    "               options file; ${XAIFSCHEMAROOT}/schema/examples there is the corpus\n"
    "               folder xaif-examples/ above the example, .../schema its xaif-schema/\n"
    "Exit status 0 when nothing failed, or with --min-pass when every mode passed\n"
    "at least PERCENT of the examples it ran; 1 otherwise.\n";

int
xf_cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {{"mode", required_argument, NULL, 'M'},
                                         {"min-pass", required_argument, NULL, 'P'},
                                         {"catalogue", required_argument, NULL, 'c'},
                                         {"elimination", required_argument, NULL, 'e'},
                                         {"stats", no_argument, NULL, 's'},
                                         {"xaifbooster-root", required_argument, NULL, 'D'},
                                         {"help", no_argument, NULL, 'h'},
                                         {0}};
    xf_check_mode modes[XF_CHECK_MODES];
    int nmodes = 0, min_pass = 0, c;
    const char *catalogue = NULL, *elimination = NULL, *door = NULL;
    bool stats = false;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'M':
            if (nmodes == XF_CHECK_MODES || !xf_check_mode_parse(optarg, &modes[nmodes]))
                return xf_usage_error("check", "unknown mode '%s'", optarg);
            nmodes++;
            break;
        case 'P': {
            char *end;
            min_pass = (int)strtol(optarg, &end, 10);
            if (*end || min_pass < 1 || min_pass > 100)
                return xf_usage_error("check", "--min-pass takes a percentage 1..100");
            break;
        }
        case 'c':
            catalogue = optarg;
            break;
        case 'e':
            elimination = optarg;
            break;
        case 's':
            stats = true;
            break;
        case 'D':
            door = optarg;
            break;
        case 'h':
            fputs(usage, stdout);
            return XF_EXIT_OK;
        default:
            return xf_usage_error("check", "unknown option");
        }
    }
    if (optind >= argc)
        return xf_usage_error("check", "no folder to check");
    if (!nmodes)
        for (; nmodes < XF_CHECK_MODES; nmodes++)
            modes[nmodes] = (xf_check_mode)nmodes;
    xf_check_opts o = {.modes = modes,
                       .nmodes = nmodes,
                       .roots = argv + optind,
                       .nroots = argc - optind,
                       .min_pass = min_pass,
                       .catalogue = catalogue,
                       .elimination = elimination,
                       .door = door,
                       .stats = stats};
    int ret = xf_check_run(&o, stdout);
    return ret < 0 ? XF_EXIT_INPUT : ret;
}
