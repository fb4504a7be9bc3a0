/* cmd_validate.c: xaiform validate FILE...: check against the xaif schema. */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "schema.h"

static const char usage[] =
    "usage: xaiform validate [--schema FILE.xsd] [-q] FILE.xaif...\n"
    "\n"
    "Check each FILE against the xaif XML Schema built into xaiform (the project's\n"
    "schema/xaif.xsd, which covers front-end xaif, xaifBooster-style tangent and\n"
    "adjoint output, and the intrinsics catalogues). Each violation is printed as\n"
    "FILE:LINE: error: message. A summary line follows unless -q is given.\n"
    "Exit status 0 when all files are valid, 1 otherwise.\n"
    "\n"
    "  --schema FILE   validate against this .xsd instead\n"
    "  -q, --quiet     no summary line\n"
    "  -h, --help      this text\n";

int
xf_cmd_validate(int argc, char **argv)
{
    static const struct option opts[] = {{"schema", required_argument, NULL, 's'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {0}};
    const char *xsd = NULL;
    int quiet = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            xsd = optarg;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            fputs(usage, stdout);
            return XF_EXIT_OK;
        default:
            return xf_usage_error("validate", "unknown option");
        }
    }
    if (optind >= argc)
        return xf_usage_error("validate", "no file to validate");
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag)
        return XF_EXIT_INTERNAL;
    xf_schema *s = xf_schema_load(xsd, diag);
    if (!s) {
        xf_diag_free(diag);
        return XF_EXIT_INPUT;
    }
    int valid = 0, invalid = 0;
    for (int i = optind; i < argc; i++) {
        if (xf_schema_validate_file(s, argv[i], diag) == 0)
            valid++;
        else
            invalid++;
    }
    if (!quiet)
        fprintf(stderr, "%d valid, %d invalid\n", valid, invalid);
    xf_schema_free(s);
    xf_diag_free(diag);
    return invalid ? XF_EXIT_INPUT : XF_EXIT_OK;
}
