/* cmd_grad.c: xaiform grad FILE.c --function F --independent ... --dependent
 * ... --mode tangent|adjoint [--reversal joint|split] -o OUT.c: the C front
 * end, the transformation and the C back end in one command. The front
 * end's options are c2xaif's (passed on to it as they are); its xaif goes
 * to a temporary file, which is read, transformed and written as C. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalogue.h"
#include "cmd.h"
#include "outfile.h"
#include "passmgr.h"
#include "pipeline.h"
#include "read.h"
#include "xaif2c.h"

static const char usage[] =
    "usage: xaiform grad FILE.c --function F --independent A[,B...] --dependent Y[,...]\n"
    "                    --mode tangent|adjoint [--reversal joint|split]\n"
    "                    [--extent X=N,...] [-I DIR] [-D NAME[=VAL]] -o OUT.c\n"
    "\n"
    "Differentiate the C function F of FILE.c (and the functions of FILE.c it\n"
    "calls): `xaiform c2xaif` translates it into xaif, `xaiform tangent` or\n"
    "`xaiform adjoint` differentiates it, `xaiform xaif2c` writes the result as\n"
    "C99 (docs/c-backend.md): F_d(x, xd, ..., y, yd) for the tangent, F_b(x, xb,\n"
    "..., y, yb) for the adjoint, which compile with `cc -std=c99` and the\n"
    "installed header xaiform/ad.h. Options other than those below are\n"
    "c2xaif's (`xaiform c2xaif --help`).\n"
    "\n"
    "  -o, --output FILE          where to write the C (required; '-': standard output)\n"
    "  -m, --mode MODE            tangent or adjoint (required)\n"
    "  -R, --reversal MODE        the adjoint's F_b: joint (default; one activation\n"
    "                             tapes and adjoins) or split (a taping sweep, then\n"
    "                             an adjoint sweep); the transform gets the same\n"
    "                             --reversal, so a joint F_b's callees leave out\n"
    "                             of their rerun taping the stores only a split\n"
    "                             taping would read\n"
    "  -O, --pass-option NAME[=VALUE]  a pass option of the transform, as\n"
    "                             'xaiform passes --list' names them (loops=auto,\n"
    "                             say); may be repeated\n"
    "  -h, --help                 this text\n";

/* Read @xaif, run @mode's pipeline, write C to @out. */
static int
transform(const char *xaif, const char *mode, const xf_xaif2c_opts *co, const xf_opts *opts,
          const char *out)
{
    const xf_pass *passes[XF_PM_MAX];
    char err[300];
    int n = xf_pipeline_parse(mode, passes, XF_PM_MAX, err, sizeof err);
    if (n < 0)
        return xf_usage_error("grad", "%s", err);
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag)
        return XF_EXIT_INTERNAL;
    int ret = XF_EXIT_INPUT;
    xf_doc *cat = xf_catalogue_load(NULL, diag);
    xf_doc *direct = cat ? xf_direct_load(NULL, diag) : NULL;
    xf_doc *doc = direct ? xf_read_file(xaif, NULL, diag) : NULL;
    xf_opts o = *opts;
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = diag, .catalogue = cat, .direct = direct};
    if (doc && xf_pm_run(&ctx, passes, n, NULL) == 0) {
        xf_outfile of = {0};
        FILE *f = NULL;
        char why[300];
        if (!strcmp(out, "-"))
            f = stdout;
        else if (xf_outfile_open(&of, out, NULL, why, sizeof why) == 0)
            f = fdopen(of.fd, "w");
        else
            xf_error(diag, out, 0, "%s", why);
        bool ok = f && xf_xaif2c_write(doc, f, co, diag) == 0;
        if (f && f != stdout && fclose(f) != 0 && ok) {
            xf_error(diag, out, 0, "cannot write");
            ok = false;
        } else if (f == stdout && fflush(stdout) != 0)
            ok = false;
        if (f && f != stdout && xf_outfile_finish(&of, ok, why, sizeof why) != 0 && ok) {
            xf_error(diag, out, 0, "%s", why);
            ok = false;
        }
        if (ok)
            ret = XF_EXIT_OK;
    }
    if (xf_diag_internal_errors(diag))
        ret = XF_EXIT_INTERNAL;
    xf_doc_free(doc);
    xf_doc_free(cat);
    xf_doc_free(direct);
    xf_diag_free(diag);
    return ret;
}

int
xf_cmd_grad(int argc, char **argv)
{
    const char *out = NULL, *mode = NULL;
    xf_xaif2c_opts co = {.reversal = XF_C_JOINT};
    xf_opts opts;
    xf_pm_opts_init(&opts);
    char err[300];
    /* grad's own options out, the rest (c2xaif's) kept in order for it */
    char **fwd = calloc((size_t)argc + 3, sizeof *fwd);
    if (!fwd)
        return XF_EXIT_INTERNAL;
    int nf = 0;
    fwd[nf++] = (char *)"c2xaif";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int which = 0; /* 1 -o, 2 -m, 3 -R, 4 -O */
        static const char *const names[] = {"--output", "--mode", "--reversal", "--pass-option"};
        static const char shorts[] = "omRO";
        for (int k = 0; k < 4 && !which; k++) {
            size_t ln = strlen(names[k]);
            if (!strcmp(a, names[k]) || (a[0] == '-' && a[1] == shorts[k] && !a[2]))
                which = k + 1, v = i + 1 < argc ? argv[++i] : NULL;
            else if (!strncmp(a, names[k], ln) && a[ln] == '=')
                which = k + 1, v = a + ln + 1;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            free(fwd);
            return XF_EXIT_OK;
        }
        if (!which) {
            fwd[nf++] = argv[i];
            continue;
        }
        if (!v) {
            free(fwd);
            return xf_usage_error("grad", "%s needs a value", a);
        }
        if (which == 1)
            out = v;
        else if (which == 2)
            mode = v;
        else if (which == 4) {
            if (xf_pm_option_text(&opts, v, err, sizeof err) != 0) {
                free(fwd);
                return xf_usage_error("grad", "--pass-option %s: %s", v, err);
            }
        } else if (!strcmp(v, "joint") || !strcmp(v, "split"))
            co.reversal = !strcmp(v, "split") ? XF_C_SPLIT : XF_C_JOINT;
        else {
            free(fwd);
            return xf_usage_error("grad", "--reversal: joint or split, not '%s'", v);
        }
    }
    int rc = XF_EXIT_OK;
    if (!out)
        rc = xf_usage_error("grad", "the output file is missing (-o OUT.c)");
    else if (!mode || (strcmp(mode, "tangent") && strcmp(mode, "adjoint")))
        rc = xf_usage_error("grad", "--mode tangent or --mode adjoint is needed");
    if (rc != XF_EXIT_OK) {
        free(fwd);
        return rc;
    }
    const char *dir = getenv("TMPDIR");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/xaiform-grad-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        perror("xaiform grad: a temporary file");
        free(fwd);
        return XF_EXIT_INTERNAL;
    }
    close(fd);
    fwd[nf++] = (char *)"-o";
    fwd[nf++] = tmp;
    fwd[nf] = NULL;
    rc = xf_cmd_c2xaif(nf, fwd);
    /* the C file, named at the top of the output (the front end's xaif is
     * gone): where c2xaif's getopt_long left its one operand */
    char source[4200];
    snprintf(source, sizeof source, "%s (by xaiform c2xaif)",
             optind > 0 && optind < nf ? fwd[optind] : "a C file");
    co.source = source;
    opts.reversal = co.reversal == XF_C_SPLIT ? XF_REV_SPLIT : XF_REV_JOINT;
    if (rc == XF_EXIT_OK)
        rc = transform(tmp, mode, &co, &opts, out);
    unlink(tmp);
    free(fwd);
    return rc;
}
