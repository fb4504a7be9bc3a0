/* cmd_compare.c: xaiform compare A B: equal as xaif, formatting aside. */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "compare.h"
#include "xaif_shape.h"

static const char usage[] =
    "usage: xaiform compare [--structure] A.xaif B.xaif\n"
    "\n"
    "Compare two xaif (or any XML) files as xaif tools see them: the same elements\n"
    "in the same order, the same attributes and values (in any order), the same\n"
    "text. Comments, whitespace between elements, namespace prefixes and\n"
    "declarations do not count. Prints the first difference.\n"
    "Exit status 0 when equal, 1 when different or unreadable.\n"
    "\n"
    "  --structure  compare the structure only, routine by routine (names matched\n"
    "               without case and OpenAD's decorations, \"head__24\" as \"head\"):\n"
    "               the routines, their arguments in order (shape, type, intent),\n"
    "               the symbols of their scopes (names, shapes) and how many\n"
    "               control-flow vertices of each kind. Prints every difference,\n"
    "               one a line, and \"note:\" lines for what does not count (a\n"
    "               front end's temporaries, modules only one side has).\n";

int
xf_cmd_compare(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'}, {"structure", no_argument, NULL, 's'}, {0}};
    int c;
    bool structure = false;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage, stdout);
            return XF_EXIT_OK;
        }
        if (c == 's') {
            structure = true;
            continue;
        }
        return xf_usage_error("compare", "unknown option");
    }
    if (optind != argc - 2)
        return xf_usage_error("compare", "two files are needed");
    if (structure) /* differences on stdout, one a line */
        return xf_xaif_shape_compare_files(argv[optind], argv[optind + 1], stdout) == 0
                   ? XF_EXIT_OK
                   : XF_EXIT_INPUT;
    char why[1024];
    int ret = xf_xml_compare_files(argv[optind], argv[optind + 1], why, sizeof why);
    if (ret != 0) {
        fprintf(stderr, "%s and %s differ: %s\n", argv[optind], argv[optind + 1], why);
        return XF_EXIT_INPUT;
    }
    return XF_EXIT_OK;
}
