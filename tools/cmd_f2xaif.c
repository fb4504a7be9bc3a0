/* cmd_f2xaif.c: xaiform f2xaif FILE.f [MORE.f...] --function NAME ... -o OUT.xaif:
 * the Fortran front end (frontends/f2xaif/, docs/fortran-frontend.md), or a
 * message that it was not built (no Flang 19 when the build was configured). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#ifdef XF_F_FRONTEND
#include "f2xaif.h"
#endif

static const char usage[] =
    "usage: xaiform f2xaif FILE.f [MORE.f...] --function NAME [--independent A,...]\n"
    "                      [--dependent Y,...] -o OUT.xaif\n"
    "\n"
    "Read the Fortran files with Flang 19 (through xaiform's plugin) and write xaif\n"
    "for routine NAME and every routine of the files it calls. The independents and\n"
    "dependents are NAME's arguments or module variables; without the options they\n"
    "come from the routine's 'c$openad INDEPENDENT(x)' and 'c$openad DEPENDENT(y)'\n"
    "lines. docs/fortran-frontend.md lists the Fortran subset; anything else is\n"
    "refused with FILE:LINE:COL: error:.\n"
    "\n"
    "  -o, --output FILE          where to write (required; '-': standard output)\n"
    "  -f, --function NAME        the top routine (required)\n"
    "      --independent A,B,...  its inputs to differentiate by\n"
    "      --dependent Y,...      its outputs to differentiate\n"
    "  -h, --help                 this text\n";

static int
split(char *s, const char ***v, int *n)
{
    for (char *p = strtok(s, ","); p; p = strtok(NULL, ",")) {
        const char **nv = realloc(*v, ((size_t)*n + 2) * sizeof *nv);
        if (!nv)
            return -1;
        *v = nv;
        for (char *q = p; *q; q++)
            *q = (char)(*q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q);
        nv[(*n)++] = p;
        nv[*n] = NULL;
    }
    return 0;
}

int
xf_cmd_f2xaif(int argc, char **argv)
{
    enum { OPT_INDEP = 256, OPT_DEP };
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"function", required_argument, NULL, 'f'},
                                         {"independent", required_argument, NULL, OPT_INDEP},
                                         {"dependent", required_argument, NULL, OPT_DEP},
                                         {"help", no_argument, NULL, 'h'},
                                         {0}};
    const char **indep = NULL, **dep = NULL, *out = NULL, *function = NULL;
    int nindep = 0, ndep = 0, rc = XF_EXIT_OK, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'f':
            function = optarg;
            break;
        case OPT_INDEP:
        case OPT_DEP:
            if (split(optarg, c == OPT_INDEP ? &indep : &dep, c == OPT_INDEP ? &nindep : &ndep)) {
                fputs("xaiform f2xaif: out of memory\n", stderr);
                rc = XF_EXIT_INTERNAL;
                goto out;
            }
            break;
        case 'h':
            fputs(usage, stdout);
            goto out;
        default:
            rc = xf_usage_error("f2xaif", "unknown option");
            goto out;
        }
    }
    if (optind >= argc)
        rc = xf_usage_error("f2xaif", "a Fortran file is needed");
    else if (!out)
        rc = xf_usage_error("f2xaif", "the output file is missing (-o OUT.xaif)");
    else if (!function)
        rc = xf_usage_error("f2xaif", "the top routine is missing (--function NAME)");
    if (rc != XF_EXIT_OK)
        goto out;
#ifdef XF_F_FRONTEND
    xf_f2xaif_opts o = {.files = (const char *const *)argv + optind,
                        .function = function,
                        .indep = indep,
                        .dep = dep,
                        .out = out};
    rc = xf_f2xaif(&o, stderr);
#else
    fputs("xaiform f2xaif: not built: the Fortran front end needs Flang 19 (flang-19 and\n"
          "libflang-19-dev, llvm-19-dev, libclang-19-dev, libmlir-19-dev) when the build is\n"
          "configured, and the C front end (libclang-dev)\n",
          stderr);
    rc = XF_EXIT_INTERNAL;
#endif
out:
    free(indep);
    free(dep);
    return rc;
}
