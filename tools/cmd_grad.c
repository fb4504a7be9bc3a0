/* cmd_grad.c: xaiform grad FILE.c --function F --independent ... --dependent
 * ... --mode tangent|adjoint [--reversal joint|split] -o OUT.c: the C front
 * end, the transformation and the C back end in one command. The front
 * end's options are c2xaif's (passed on to it as they are); its xaif goes
 * to a temporary file, which is read, transformed and written as C. */
#include <ctype.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
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
#include "srcmap.h"
#include "xaif2c.h"

static const char usage[] =
    "usage: xaiform grad FILE.c --function F --independent A[,B...] --dependent Y[,...]\n"
    "                    --mode tangent|adjoint [--reversal joint|split]\n"
    "                    [--extent X=N,...] [-I DIR] [-D NAME[=VAL]] [--header OUT.h]\n"
    "                    [--external-derivative G,...] [--no-value] -o OUT.c\n"
    "\n"
    "Differentiate the C function F of FILE.c (and the functions of FILE.c it\n"
    "calls): `xaiform c2xaif` translates it into xaif, `xaiform tangent` or\n"
    "`xaiform adjoint` differentiates it, `xaiform xaif2c` writes the result as\n"
    "C99 (docs/c-backend.md): F_d(x, xd, ..., y, yd) for the tangent, F_b(x, xb,\n"
    "..., y, yb) for the adjoint, with F's own parameter types and passing (a\n"
    "by-value x: F_d(double x, double xd), F_b(double x, double *xb); a result:\n"
    "F_d returns its derivative and writes its value through a last argument,\n"
    "F_b takes its adjoint by value), which compile with `cc -std=c99` and the\n"
    "installed header xaiform/ad.h. Options other than those below are\n"
    "c2xaif's (`xaiform c2xaif --help`). A Fortran FILE (.f, .f90, .F, .F90)\n"
    "goes through f2xaif and xaif2f instead: `xaiform grad FILE.f90 --help`.\n"
    "\n"
    "  -o, --output FILE          where to write the C (required; '-': standard output)\n"
    "  -m, --mode MODE            tangent or adjoint (required)\n"
    "  -H, --header FILE          also write the prototypes of the functions a\n"
    "                             caller can call (not the static ones) to FILE\n"
    "  -R, --reversal MODE        the adjoint's F_b: joint (default; one activation\n"
    "                             tapes and adjoins) or split (a taping sweep, then\n"
    "                             an adjoint sweep); the transform gets the same\n"
    "                             --reversal, so a joint F_b's callees leave out\n"
    "                             of their rerun taping the stores only a split\n"
    "                             taping would read\n"
    "      --no-value             the adjoint's F_b does not store the dependents'\n"
    "                             values (they are left unspecified), nor compute\n"
    "                             what only they need, as Tapenade's F_b; the\n"
    "                             gradient is the same (pass option no-value)\n"
    "  -O, --pass-option NAME[=VALUE]  a pass option of the transform, as\n"
    "                             'xaiform passes --list' names them (loops=auto,\n"
    "                             say); may be repeated\n"
    "  -h, --help                 this text\n"
    "\n"
    "OUT is written to a temporary file beside it and renamed into place; an OUT\n"
    "that is FILE.c (another name of it, a symbolic or hard link) is refused. The\n"
    "front end's xaif stays in memory; messages about it name FILE.c and the line\n"
    "of the statement. Ctrl-C, SIGTERM or SIGHUP removes the temporary file; the\n"
    "exit status is then 128+N.\n";

/* A test's signal while the output's temporary file is open
 * (XAIFORM_TEST_SIGNAL=TERM or ABRT), to check that nothing is left behind. */
static void
test_signal(void)
{
    const char *v = getenv("XAIFORM_TEST_SIGNAL");
    if (v && strcmp(v, "TERM") == 0)
        raise(SIGTERM);
    if (v && strcmp(v, "ABRT") == 0)
        raise(SIGABRT);
}

/* Read the xaif @m->text, run @mode's pipeline, write C to @out; messages
 * about the xaif name the C file. */
/* The header @path: an include guard around @protos (the prototypes). */
static bool
write_header(xf_diag *diag, const char *path, const char *src, const char *protos, size_t len)
{
    char guard[128] = "XF_", why[300];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t g = 3;
    for (const char *p = base; *p && g + 1 < sizeof guard; p++)
        guard[g++] = (char)(isalnum((unsigned char)*p) ? toupper((unsigned char)*p) : '_');
    guard[g] = 0;
    xf_outfile of = {0};
    if (xf_outfile_open(&of, path, src, why, sizeof why) != 0) {
        xf_error(diag, path, 0, "%s", why);
        return false;
    }
    FILE *f = fdopen(of.fd, "w");
    bool ok = f &&
              fprintf(f,
                      "/* Written by xaiform grad from %s: the functions it defines. */\n"
                      "#ifndef %s\n#define %s\n\n",
                      src, guard, guard) > 0 &&
              fwrite(protos, 1, len, f) == len && fprintf(f, "\n#endif\n") > 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (xf_outfile_finish(&of, ok, why, sizeof why) != 0 || !ok) {
        xf_error(diag, path, 0, "cannot write%s%s", ok ? ": " : "", ok ? why : "");
        return false;
    }
    return true;
}

static int
transform(xf_srcmap *m, const char *mode, const xf_xaif2c_opts *copts, const xf_opts *opts,
          const char *out, const char *hpath)
{
    xf_xaif2c_opts cw = *copts;
    const xf_xaif2c_opts *co = &cw;
    char *protos = NULL;
    size_t plen = 0;
    if (hpath && !(cw.prototypes = open_memstream(&protos, &plen)))
        return XF_EXIT_INTERNAL;
    const xf_pass *passes[XF_PM_MAX];
    char err[300];
    int n = xf_pipeline_parse(mode, passes, XF_PM_MAX, err, sizeof err);
    if (n < 0)
        return xf_usage_error("grad", "%s", err);
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag)
        return XF_EXIT_INTERNAL;
    xf_diag_set_where(diag, xf_srcmap_where, m);
    int ret = XF_EXIT_INPUT;
    xf_doc *cat = xf_catalogue_load(NULL, diag);
    xf_doc *direct = cat ? xf_direct_load(NULL, diag) : NULL;
    xf_doc *doc = direct ? xf_read_memory(m->text, m->len, m->xaif, NULL, diag) : NULL;
    xf_opts o = *opts;
    /* one routine calling none: its split f_b runs both sweeps back to
     * back in the user's one call, which is the joint adjoint, and the
     * rules of joint reversal (values read in place, no argument
     * checkpoint) apply */
    if (doc && o.reversal == XF_REV_SPLIT && doc->kind == XF_DOC_CALLGRAPH &&
        doc->cg.routines.n == 1 && doc->cg.edges.n == 0) {
        o.reversal = XF_REV_JOINT;
        cw.reversal = XF_C_JOINT;
        cw.split_as_joint = true;
    } else if (o.reversal == XF_REV_SPLIT) {
        /* the same for the routine the user calls when it calls others:
         * its f_b runs its two sweeps in one activation, so it takes the
         * rules of joint reversal and its callees keep their split sweeps
         * (transforms/core/revjoint.h) */
        o.entry_joint = true;
    }
    o.call_marks = true; /* the C back end reads them (template.c, per_call) */
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = diag, .catalogue = cat, .direct = direct};
    if (doc && xf_pm_run(&ctx, passes, n, NULL) == 0) {
        xf_outfile of = {0};
        FILE *f = NULL;
        char why[300];
        if (!strcmp(out, "-"))
            f = stdout;
        else if (xf_outfile_open(&of, out, m->files[0], why, sizeof why) == 0)
            f = fdopen(of.fd, "w");
        else
            xf_error(diag, out, 0, "%s", why);
        if (f && f != stdout)
            test_signal();
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
        if (cw.prototypes) {
            fclose(cw.prototypes);
            cw.prototypes = NULL;
            ok = ok && write_header(diag, hpath, m->files[0], protos ? protos : "", plen);
        }
        if (ok)
            ret = XF_EXIT_OK;
    }
    if (cw.prototypes)
        fclose(cw.prototypes);
    free(protos);
    if (xf_diag_internal_errors(diag))
        ret = XF_EXIT_INTERNAL;
    xf_doc_free(doc);
    xf_doc_free(cat);
    xf_doc_free(direct);
    xf_diag_free(diag);
    return ret;
}
/* --no-value: the pass option no-value=F:Y,... from c2xaif's options
 * @fwd (its --function and every --dependent, read as c2xaif reads them),
 * in a string the caller frees ("" without them); NULL when out of memory. */
static char *
no_value_option(int nf, char **fwd)
{
    enum { DEP = 256 };
    static const struct option o[] = {{"output", required_argument, NULL, 'o'},
                                      {"function", required_argument, NULL, 'f'},
                                      {"independent", required_argument, NULL, 'i'},
                                      {"dependent", required_argument, NULL, DEP},
                                      {"extent", required_argument, NULL, 'e'},
                                      {"external-derivative", required_argument, NULL, 'x'},
                                      {"help", no_argument, NULL, 'h'},
                                      {0}};
    size_t len = sizeof "no-value=:";
    for (int i = 0; i < nf; i++)
        len += strlen(fwd[i]) + 1;
    char **v = malloc(((size_t)nf + 1) * sizeof *v); /* getopt permutes: a copy */
    char *deps = calloc(1, len), *text = malloc(len);
    if (!v || !deps || !text) {
        free(v), free(deps), free(text);
        return NULL;
    }
    memcpy(v, fwd, (size_t)nf * sizeof *v);
    v[nf] = NULL;
    const char *fn = "";
    int c, err = opterr;
    opterr = 0, optind = 1;
    while ((c = getopt_long(nf, v, "o:f:I:D:h", o, NULL)) != -1)
        if (c == 'f')
            fn = optarg;
        else if (c == DEP)
            snprintf(deps + strlen(deps), len - strlen(deps), "%s%s", *deps ? "," : "", optarg);
    opterr = err, optind = 1;
    /* either missing: c2xaif says so */
    snprintf(text, len, *fn && *deps ? "no-value=%s:%s" : "", fn, deps);
    free(v), free(deps);
    return text;
}

int
xf_cmd_grad(int argc, char **argv)
{
    if (xf_grad_is_fortran(argc, argv))
        return xf_grad_fortran(argc, argv);
    const char *out = NULL, *mode = NULL, *hpath = NULL;
    xf_xaif2c_opts co = {.reversal = XF_C_JOINT};
    bool no_value = false;
    char *nv = NULL;
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
        int which = 0; /* 1 -o, 2 -m, 3 -R, 4 -O, 5 -H */
        static const char *const names[] = {"--output", "--mode", "--reversal", "--pass-option",
                                            "--header"};
        static const char shorts[] = "omROH";
        for (int k = 0; k < 5 && !which; k++) {
            size_t ln = strlen(names[k]);
            if (!strcmp(a, names[k]) || (a[0] == '-' && a[1] == shorts[k] && !a[2]))
                which = k + 1, v = i + 1 < argc ? argv[++i] : NULL;
            else if (!strncmp(a, names[k], ln) && a[ln] == '=')
                which = k + 1, v = a + ln + 1;
        }
        if (!strcmp(a, "--no-value")) {
            no_value = true;
            continue;
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
        else if (which == 5)
            hpath = v;
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
    else if (no_value && strcmp(mode, "adjoint"))
        rc = xf_usage_error("grad", "--no-value is for --mode adjoint");
    else if (no_value && (!(nv = no_value_option(nf, fwd)) ||
                          (*nv && xf_pm_option_text(&opts, nv, err, sizeof err) != 0)))
        rc = nv ? xf_usage_error("grad", "%s", err) : XF_EXIT_INTERNAL;
    if (rc != XF_EXIT_OK) {
        free(nv);
        free(fwd);
        return rc;
    }
    /* the front end's xaif stays in memory: no temporary file */
    fwd[nf] = NULL;
    const char *file = NULL;
    char *text = NULL;
    size_t len = 0;
    rc = xf_c2xaif_verb(nf, fwd, strcmp(out, "-") ? out : NULL, &file, &text, &len);
    /* the C file, named at the top of the output (the front end's xaif is gone) */
    char source[4200];
    snprintf(source, sizeof source, "%s (by xaiform c2xaif)", file ? file : "a C file");
    co.source = source;
    opts.reversal = co.reversal == XF_C_SPLIT ? XF_REV_SPLIT : XF_REV_JOINT;
    if (rc == XF_EXIT_OK) {
        char name[4200];
        snprintf(name, sizeof name, "%s (as xaif)", file);
        const char *files[] = {file, NULL};
        xf_srcmap m = {.xaif = name, .files = files, .text = text, .len = len};
        rc = transform(&m, mode, &co, &opts, out, hpath);
        xf_srcmap_free(&m);
    }
    free(text);
    free(nv);
    free(fwd);
    return rc;
}
