/* cmd_validate.c: xaiform validate FILE...: what every verb's reader
 * checks, then the xaif schema. */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "read.h"
#include "schema.h"

static const char usage[] =
    "usage: xaiform validate [--schema FILE.xsd] [-q] FILE.xaif...\n"
    "\n"
    "Check each FILE as every verb reads it, then against the xaif XML Schema\n"
    "built into xaiform (the project's schema/xaif.xsd, which covers front-end\n"
    "xaif, xaifBooster-style tangent and adjoint output, and the intrinsics\n"
    "catalogues). The reader's checks come first: well-formed XML (a file cut short\n"
    "names the element left open and its line), known elements in their places,\n"
    "references that resolve, ids that are unique, numbers where numbers belong,\n"
    "expression graphs without cycles and with one operand per position. A file\n"
    "valid here is one that every verb reads. Each problem is printed as\n"
    "FILE:LINE: error: message (the reader's first, then the schema's); a file is\n"
    "invalid if either check fails. A summary line 'N valid, N invalid' follows\n"
    "unless -q is given. Exit status 0 when all files are valid, 1 otherwise.\n"
    "\n"
    "  --schema FILE   validate against this .xsd instead of the built-in schema\n"
    "  -q, --quiet     no summary line\n"
    "  -h, --help      this text\n";

/* 0 when @path is valid: read as every verb reads it (strict), then against
 * the schema; both report what they find. */
static int
check_file(xf_schema *s, const char *path, xf_diag *diag)
{
    xf_doc *doc = xf_read_file(path, NULL, diag);
    int bad = doc == NULL;
    xf_doc_free(doc);
    /* a document the reader took is well-formed; otherwise the reader has
     * said what is wrong with the XML, and the schema has nothing to add */
    if (xf_schema_validate_file(s, path, !bad, diag) != 0)
        bad = 1;
    return bad;
}

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
        if (check_file(s, argv[i], diag) == 0)
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
