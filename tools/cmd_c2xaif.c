/* cmd_c2xaif.c: xaiform c2xaif FILE.c --function F ... -o OUT.xaif: the C
 * front end (frontends/c2xaif/, docs/c-frontend.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2xaif.h"
#include "cmd.h"
#include "outfile.h"

static const char usage[] =
    "usage: xaiform c2xaif FILE.c --function F --independent A[,B...] --dependent Y[,...]\n"
    "                      [--extent X=N,...] [--extent G:X=N,...] [-I DIR] [-D NAME[=VAL]]\n"
    "                      [--external-derivative G,...] -o OUT.xaif\n"
    "\n"
    "Parse FILE.c with clang and write xaif for function F and every function of\n"
    "FILE.c it calls: call graph, scopes, symbols with the activity that the\n"
    "independents and dependents (parameters of F) give, control flow and\n"
    "expressions, as OpenAD's Fortran front end writes them. docs/c-frontend.md\n"
    "lists the C subset; anything else is refused with FILE:LINE:COL: error:.\n"
    "\n"
    "  -o, --output FILE          where to write (required; '-': standard output)\n"
    "  -f, --function F           the top function (required)\n"
    "      --independent A,B,...  F's parameters that are inputs to differentiate by\n"
    "      --dependent Y,...      F's parameters (or F_ret) that are outputs to differentiate\n"
    "      --extent X=N,...       the number of elements of F's pointer parameter X\n"
    "                             (N a number or an expression of F's int parameters);\n"
    "                             G:X=N for parameter X of a function G that F calls\n"
    "      --external-derivative G,...  functions that FILE.c declares but does not\n"
    "                             define, whose derivatives you write: G_d (tangent)\n"
    "                             and G_b (adjoint), with the signatures of\n"
    "                             docs/c-frontend.md (External functions)\n"
    "  -I DIR, -D NAME[=VAL]      passed to clang\n"
    "  -h, --help                 this text\n";

/* Append the comma-separated names of @s to @v (NULL-terminated, @n used). */
static int
split(char *s, const char ***v, int *n)
{
    for (char *p = strtok(s, ","); p; p = strtok(NULL, ",")) {
        const char **nv = realloc(*v, ((size_t)*n + 2) * sizeof *nv);
        if (!nv)
            return -1;
        *v = nv;
        nv[(*n)++] = p;
        nv[*n] = NULL;
    }
    return 0;
}

int
xf_cmd_c2xaif(int argc, char **argv)
{
    const char *file;
    return xf_c2xaif_verb(argc, argv, NULL, &file, NULL, NULL);
}

int
xf_c2xaif_verb(int argc, char **argv, const char *final, const char **file, char **text,
               size_t *size)
{
    enum { OPT_INDEP = 256, OPT_DEP, OPT_EXTENT, OPT_EXTERNAL };
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"function", required_argument, NULL, 'f'},
        {"independent", required_argument, NULL, OPT_INDEP},
        {"dependent", required_argument, NULL, OPT_DEP},
        {"extent", required_argument, NULL, OPT_EXTENT},
        {"external-derivative", required_argument, NULL, OPT_EXTERNAL},
        {"help", no_argument, NULL, 'h'},
        {0}};
    *file = NULL;
    const char **indep = NULL, **dep = NULL, **cargs = NULL, **ext = NULL, **xext = NULL;
    int nindep = 0, ndep = 0, ncargs = 0, next = 0, nxext = 0, rc = XF_EXIT_OK, c;
    xf_c2xaif_opts o = {.text = text, .len = size};
    if (text)
        *text = NULL;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:f:I:D:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            o.out = optarg;
            break;
        case 'f':
            o.function = optarg;
            break;
        case OPT_INDEP:
        case OPT_DEP:
            if (split(optarg, c == OPT_INDEP ? &indep : &dep, c == OPT_INDEP ? &nindep : &ndep))
                goto oom;
            break;
        case OPT_EXTENT:
            if (split(optarg, &ext, &next))
                goto oom;
            break;
        case OPT_EXTERNAL:
            if (split(optarg, &xext, &nxext))
                goto oom;
            break;
        case 'I':
        case 'D': {
            size_t len = strlen(optarg) + 3;
            char *a = malloc(len);
            if (!a)
                goto oom;
            snprintf(a, len, "-%c%s", c, optarg);
            const char **nv = realloc(cargs, ((size_t)ncargs + 2) * sizeof *nv);
            if (!nv) {
                free(a);
                goto oom;
            }
            cargs = nv;
            cargs[ncargs++] = a;
            cargs[ncargs] = NULL;
            break;
        }
        case 'h':
            fputs(usage, stdout);
            goto out;
        default:
            rc = xf_usage_error("c2xaif", "unknown option");
            goto out;
        }
    }
    if (optind != argc - 1)
        rc = xf_usage_error("c2xaif", "one C file is needed");
    else if (!o.out && !text)
        rc = xf_usage_error("c2xaif", "the output file is missing (-o OUT.xaif)");
    else if (!o.function)
        rc = xf_usage_error("c2xaif", "the top function is missing (--function F)");
    else if (!nindep || !ndep)
        rc = xf_usage_error("c2xaif", "--independent and --dependent are needed");
    if (rc != XF_EXIT_OK)
        goto out;
    o.file = *file = argv[optind];
    if (final && xf_outfile_same(final, o.file)) {
        fprintf(stderr, "%s: error: the output is the input file %s; it is not overwritten\n",
                final, o.file);
        rc = XF_EXIT_INPUT;
        goto out;
    }
    o.indep = indep;
    o.dep = dep;
    o.clang_args = cargs;
    o.extents = ext;
    o.externals = xext;
    rc = xf_c2xaif(&o, stderr);
    goto out;
oom:
    fputs("xaiform c2xaif: out of memory\n", stderr);
    rc = XF_EXIT_INTERNAL;
out:
    for (int i = 0; i < ncargs; i++)
        free((char *)cargs[i]);
    free(cargs);
    free(indep);
    free(dep);
    free(ext);
    free(xext);
    return rc;
}
