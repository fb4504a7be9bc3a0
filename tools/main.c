/* main.c: the xaiform program: a verb, then its arguments, as git does. */
#include <libxml/parser.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

#ifndef XF_VERSION
#define XF_VERSION "0.1.0"
#endif

typedef struct xf_verb {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} xf_verb;

static const xf_verb verbs[] = {
    {"tangent", xf_cmd_tangent, "write the tangent-linear (forward-mode) code"},
    {"adjoint", xf_cmd_adjoint, "write the adjoint (reverse-mode) code"},
    {"passes", xf_cmd_passes, "run a list of passes; list them"},
    {"copy", xf_cmd_copy, "read an xaif file and write it again (no passes)"},
    {"validate", xf_cmd_validate, "check xaif files against the xaif schema"},
    {"compare", xf_cmd_compare, "compare two xaif files, ignoring formatting"},
    {"run", xf_cmd_run, "execute xaif under OpenAD's drivers; print the Jacobian"},
    {"check", xf_cmd_check, "run OpenAD's regression examples and compare the Jacobians"},
    {"batch", xf_cmd_batch, "convert many files in parallel worker processes"},
    {"dot", xf_cmd_dot, "draw the call graph, a control-flow graph, expressions or an LCG"},
    {"oad-driver", xf_cmd_oad, "answer xaifBooster's oadDriver command line (OpenAD's scripts)"},
    {NULL, NULL, NULL},
};

static void
help(FILE *f)
{
    fputs("usage: xaiform VERB [OPTIONS] ARGS...\n"
          "\n"
          "xaiform reads xaif (the XML format of the OpenAD tool chain) and writes xaif.\n"
          "\n"
          "verbs:\n",
          f);
    for (const xf_verb *v = verbs; v->name; v++)
        fprintf(f, "  %-10s %s\n", v->name, v->summary);
    fputs("\n"
          "'xaiform VERB --help' describes a verb. Exit status: 0 success, 1 input error\n"
          "(with FILE:LINE messages), 2 usage error, 3 internal error.\n",
          f);
}

int
xf_usage_error(const char *verb, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "xaiform %s: ", verb);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'xaiform %s --help'.\n", verb);
    return XF_EXIT_USAGE;
}

int
main(int argc, char **argv)
{
    char alg[256];
    if (argc > 0 && xf_oad_algorithm(argv[0], alg, sizeof alg)) { /* .../ALG/driver/oadDriver */
        LIBXML_TEST_VERSION
        int ret = xf_cmd_oad_argv0(argc, argv, alg);
        xmlCleanupParser();
        return ret;
    }
    if (argc < 2) {
        help(stderr);
        return XF_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        help(stdout);
        return XF_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("xaiform %s (libxml2 %s)\n", XF_VERSION, xmlParserVersion);
        return XF_EXIT_OK;
    }
    for (const xf_verb *v = verbs; v->name; v++)
        if (strcmp(v->name, name) == 0) {
            LIBXML_TEST_VERSION
            int ret = v->run(argc - 1, argv + 1);
            xmlCleanupParser();
            return ret;
        }
    fprintf(stderr, "xaiform: unknown verb '%s'\n", name);
    help(stderr);
    return XF_EXIT_USAGE;
}
