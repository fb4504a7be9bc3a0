/* cmd_fgrad.c: xaiform grad FILE.f90 [MORE.f...] --function NAME --mode
 * tangent|adjoint -o OUT.f90: grad for Fortran. The Fortran front end
 * (f2xaif) writes its xaif to a temporary file that has no name (removed
 * from its folder as soon as it is made, so no exit path leaves it
 * behind), which is read, transformed and written as Fortran by xaif2f.
 * Messages about the xaif name the Fortran file and line of the routine's
 * statement. */
#define _DEFAULT_SOURCE /* mkstemp */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalogue.h"
#include "code_out.h"
#include "cmd.h"
#include "outfile.h"
#include "passmgr.h"
#include "pipeline.h"
#include "read.h"
#include "srcmap.h"
#include "xaif2f.h"
#ifdef XF_F_FRONTEND
#include "f2xaif.h"
#endif

static const char usage[] =
    "usage: xaiform grad FILE.f90 [MORE.f90...] --function NAME [--independent A,...]\n"
    "                    [--dependent Y,...] --mode tangent|adjoint\n"
    "                    [--reversal joint|split] -o OUT.f90\n"
    "\n"
    "Differentiate the Fortran routine NAME of FILE (.f, .F, .f90, .F90; fixed or\n"
    "free form) and the routines of the given files it calls: `xaiform f2xaif`\n"
    "reads them (MORE: the modules they use, such as all_globals_mod.f),\n"
    "`xaiform tangent` or `xaiform adjoint` differentiates, `xaiform xaif2f`\n"
    "writes the result as free-form Fortran (docs/fortran-backend.md): module\n"
    "xf_tangent with NAME_d(x, xd, ..., y, yd) (yd = J xd), or module xf_adjoint\n"
    "with NAME_b(x, xb, ..., y, yb) (xb += J^T yb; yb consumed), as Tapenade\n"
    "names them. A caller writes 'use xf_adjoint, only: head_b' and compiles OUT\n"
    "with the runtime module xaiform_ad.f90 (installed beside xaiform/ad.h);\n"
    "the module is the interface, so Fortran needs no --header. Without\n"
    "--independent/--dependent they come from NAME's c$openad pragmas.\n"
    "\n"
    "  -o, --output FILE          where to write the Fortran (required; '-': standard output)\n"
    "  -m, --mode MODE            tangent or adjoint (required)\n"
    "  -f, --function NAME        the top routine (required)\n"
    "      --independent A,B,...  its inputs to differentiate by\n"
    "      --dependent Y,...      its outputs to differentiate\n"
    "  -R, --reversal MODE        the adjoint's NAME_b: joint (default) or split\n"
    "  -O, --pass-option NAME[=VALUE]  a pass option of the transform; may be repeated\n"
    "  -h, --help                 this text\n"
    "\n"
    "OUT is written to a temporary file beside it and renamed into place; an OUT\n"
    "that is one of the Fortran files (however named) is refused. Errors name the\n"
    "Fortran file and line (FILE:LINE:COL from the front end).\n";

/* Is @name a Fortran source by its suffix? */
static bool
fortran_name(const char *name)
{
    static const char *const sfx[] = {".f",   ".F",   ".f90", ".F90", ".f95", ".F95",
                                      ".f03", ".F03", ".f08", ".F08", ".for", ".FOR"};
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof sfx / sizeof *sfx; i++)
        if (!strcmp(dot, sfx[i]))
            return true;
    return false;
}

bool
xf_grad_is_fortran(int argc, char **argv)
{
    /* the options of grad (C and Fortran) that take their value apart */
    static const char *const valued[] = {"-o",
                                         "--output",
                                         "-m",
                                         "--mode",
                                         "-R",
                                         "--reversal",
                                         "-O",
                                         "--pass-option",
                                         "-H",
                                         "--header",
                                         "-f",
                                         "--function",
                                         "-I",
                                         "-D",
                                         "--independent",
                                         "--dependent",
                                         "--extent"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            return i + 1 < argc && fortran_name(argv[i + 1]);
        if (a[0] != '-' || !a[1])
            return fortran_name(a);
        for (size_t k = 0; k < sizeof valued / sizeof *valued; k++)
            if (!strcmp(a, valued[k])) {
                i++;
                break;
            }
    }
    return false;
}

/* The routine a file defines, for messages: which file to name. */
typedef struct defn {
    char name[64];
    int file;
    unsigned long line;
} defn;

typedef struct fdefs {
    const char *const *files; /* the Fortran files */
    bool scanned;
    defn *defs;
    size_t ndefs;
} fdefs;

/* The routines that line @s of a Fortran file defines ("subroutine NAME",
 * "[type] function NAME"; not "end subroutine"). */
static void
scan_line(fdefs *m, const char *s, int file, unsigned long line)
{
    char low[512];
    size_t n = 0;
    if (*s == 'c' || *s == 'C' || *s == '*') /* a fixed-form comment */
        return;
    for (; *s && *s != '!' && n + 1 < sizeof low; s++)
        low[n++] = (char)tolower((unsigned char)*s);
    low[n] = 0;
    const char *p = low;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!strncmp(p, "end", 3))
        return;
    const char *k = strstr(p, "subroutine ");
    size_t kl = 11;
    if (!k) {
        k = strstr(p, "function ");
        kl = 9;
    }
    if (!k || (k > p && isalnum((unsigned char)k[-1])))
        return;
    k += kl;
    while (*k == ' ')
        k++;
    size_t w = 0;
    defn d = {.file = file, .line = line};
    while ((isalnum((unsigned char)k[w]) || k[w] == '_') && w + 1 < sizeof d.name)
        d.name[w] = k[w], w++;
    if (!w)
        return;
    defn *nd = realloc(m->defs, (m->ndefs + 1) * sizeof *nd);
    if (!nd)
        return;
    m->defs = nd;
    m->defs[m->ndefs++] = d;
}

static const defn *
defn_of(const fdefs *m, const char *name, size_t len)
{
    for (size_t i = 0; i < m->ndefs; i++)
        if (strlen(m->defs[i].name) == len && !strncmp(m->defs[i].name, name, len))
            return &m->defs[i];
    return NULL;
}

/* An xf_srcmap's routine callback: the file and line that define @name. */
static bool
routine_of(void *arg, const char *name, size_t len, int *file, unsigned long *line)
{
    fdefs *m = arg;
    if (!m->scanned) {
        m->scanned = true;
        for (int i = 0; m->files[i]; i++) {
            FILE *f = fopen(m->files[i], "r");
            char text[1024];
            for (unsigned long at = 1; f && fgets(text, sizeof text, f); at++)
                scan_line(m, text, i, at);
            if (f)
                fclose(f);
        }
    }
    const defn *d = defn_of(m, name, len);
    if (!d)
        return false;
    *file = d->file;
    *line = d->line;
    return true;
}

/* xf_xaif2f_write as an xf_code_writer */
static int
write_code(const xf_doc *doc, FILE *out, const void *opts, xf_diag *diag)
{
    return xf_xaif2f_write(doc, out, opts, diag);
}

/* Read the xaif @m->text, run @mode's pipeline, write Fortran to @out. */
static int
transform(xf_srcmap *m, const char *mode, const xf_xaif2f_opts *co, const xf_opts *opts,
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
    xf_diag_set_where(diag, xf_srcmap_where, m);
    int ret = XF_EXIT_INPUT;
    xf_doc *cat = xf_catalogue_load(NULL, diag);
    xf_doc *direct = cat ? xf_direct_load(NULL, diag) : NULL;
    xf_doc *doc = direct ? xf_read_memory(m->text, m->len, m->xaif, NULL, diag) : NULL;
    xf_opts o = *opts;
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = diag, .catalogue = cat, .direct = direct};
    if (doc && xf_pm_run(&ctx, passes, n, NULL) == 0 &&
        xf_code_write(doc, out, m->files[0], write_code, co, diag))
        ret = XF_EXIT_OK;
    if (xf_diag_internal_errors(diag))
        ret = XF_EXIT_INTERNAL;
    xf_doc_free(doc);
    xf_doc_free(cat);
    xf_doc_free(direct);
    xf_diag_free(diag);
    return ret;
}

/* Append the comma-separated names of @s, in lower case, to *@v. */
static int
split(char *s, const char ***v, int *n)
{
    for (char *p = strtok(s, ","); p; p = strtok(NULL, ",")) {
        const char **nv = realloc(*v, ((size_t)*n + 2) * sizeof *nv);
        if (!nv)
            return -1;
        *v = nv;
        for (char *q = p; *q; q++)
            *q = (char)tolower((unsigned char)*q);
        nv[(*n)++] = p;
        nv[*n] = NULL;
    }
    return 0;
}

#ifdef XF_F_FRONTEND
/* The front end's xaif of @o, into *@text: written to a temporary file that
 * is unlinked at once (under /dev/fd/N), then read back. */
static int
front_end(xf_f2xaif_opts *o, char **text, size_t *len)
{
    const char *tmp = getenv("TMPDIR");
    char path[4096], fdname[64];
    snprintf(path, sizeof path, "%s/xaiform-grad-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    sigprocmask(SIG_BLOCK, &stop, &old); /* no name left behind by a stop signal */
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd < 0) {
        fprintf(stderr, "xaiform grad: cannot make a temporary file in %s: %s\n",
                tmp && *tmp ? tmp : "/tmp", strerror(errno));
        return XF_EXIT_INTERNAL;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC); /* not Flang's */
    snprintf(fdname, sizeof fdname, "/dev/fd/%d", fd);
    o->out = fdname;
    int rc = xf_f2xaif(o, stderr);
    struct stat st;
    *text = NULL;
    if (rc == 0) {
        rc = XF_EXIT_INTERNAL;
        if (fstat(fd, &st) == 0 && lseek(fd, 0, SEEK_SET) == 0 &&
            (*text = malloc((size_t)st.st_size + 1))) {
            size_t got = 0;
            ssize_t k = 1;
            while (got < (size_t)st.st_size &&
                   (k = read(fd, *text + got, (size_t)st.st_size - got)) > 0)
                got += (size_t)k;
            (*text)[got] = 0;
            *len = got;
            if (got == (size_t)st.st_size)
                rc = XF_EXIT_OK;
            else
                fprintf(stderr, "xaiform grad: cannot read the front end's xaif back\n");
        }
    }
    close(fd);
    if (rc != XF_EXIT_OK) {
        free(*text);
        *text = NULL;
    }
    return rc;
}
#endif

int
xf_grad_fortran(int argc, char **argv)
{
    enum { OPT_INDEP = 256, OPT_DEP };
    static const struct option lopts[] = {{"output", required_argument, NULL, 'o'},
                                          {"mode", required_argument, NULL, 'm'},
                                          {"function", required_argument, NULL, 'f'},
                                          {"independent", required_argument, NULL, OPT_INDEP},
                                          {"dependent", required_argument, NULL, OPT_DEP},
                                          {"reversal", required_argument, NULL, 'R'},
                                          {"pass-option", required_argument, NULL, 'O'},
                                          {"header", required_argument, NULL, 'H'},
                                          {"help", no_argument, NULL, 'h'},
                                          {0}};
    const char **indep = NULL, **dep = NULL, *out = NULL, *mode = NULL, *function = NULL;
    int nindep = 0, ndep = 0, rc = XF_EXIT_OK, c;
    xf_xaif2f_opts co = {.reversal = XF_F_JOINT};
    xf_opts opts;
    xf_pm_opts_init(&opts);
    char err[300];
    optind = 1;
    while (rc == XF_EXIT_OK && (c = getopt_long(argc, argv, "o:m:f:R:O:H:h", lopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'm':
            mode = optarg;
            break;
        case 'f':
            function = optarg;
            break;
        case OPT_INDEP:
        case OPT_DEP:
            if (split(optarg, c == OPT_INDEP ? &indep : &dep, c == OPT_INDEP ? &nindep : &ndep)) {
                fputs("xaiform grad: out of memory\n", stderr);
                rc = XF_EXIT_INTERNAL;
            }
            break;
        case 'R':
            if (!strcmp(optarg, "joint") || !strcmp(optarg, "split"))
                co.reversal = !strcmp(optarg, "split") ? XF_F_SPLIT : XF_F_JOINT;
            else
                rc = xf_usage_error("grad", "--reversal: joint or split, not '%s'", optarg);
            break;
        case 'O':
            if (xf_pm_option_text(&opts, optarg, err, sizeof err) != 0)
                rc = xf_usage_error("grad", "--pass-option %s: %s", optarg, err);
            break;
        case 'H':
            rc = xf_usage_error("grad",
                                "--header is for C: a Fortran caller takes NAME_d or NAME_b from "
                                "the output's module (use xf_tangent / use xf_adjoint)");
            break;
        case 'h':
            fputs(usage, stdout);
            goto done;
        default:
            rc = xf_usage_error("grad", "unknown option for a Fortran file");
        }
    }
    if (rc != XF_EXIT_OK)
        goto done;
    if (optind >= argc)
        rc = xf_usage_error("grad", "a Fortran file is needed");
    else if (!out)
        rc = xf_usage_error("grad", "the output file is missing (-o OUT.f90)");
    else if (!mode || (strcmp(mode, "tangent") && strcmp(mode, "adjoint")))
        rc = xf_usage_error("grad", "--mode tangent or --mode adjoint is needed");
    else if (!function)
        rc = xf_usage_error("grad", "the top routine is missing (--function NAME)");
    if (rc != XF_EXIT_OK)
        goto done;
    const char *const *files = (const char *const *)argv + optind;
    for (int i = 0; files[i]; i++)
        if (strcmp(out, "-") && xf_outfile_same(out, files[i])) {
            fprintf(stderr, "%s: error: the output is the input file %s; nothing written\n", out,
                    files[i]);
            rc = XF_EXIT_INPUT;
            goto done;
        }
#ifdef XF_F_FRONTEND
    xf_f2xaif_opts fo = {.files = files, .function = function, .indep = indep, .dep = dep};
    char *text = NULL;
    size_t len = 0;
    rc = front_end(&fo, &text, &len);
    if (rc == XF_EXIT_OK) {
        char source[4200], name[4200];
        snprintf(source, sizeof source, "%s (by xaiform f2xaif)", files[0]);
        snprintf(name, sizeof name, "%s (as xaif)", files[0]);
        co.source = source;
        opts.reversal = co.reversal == XF_F_SPLIT ? XF_REV_SPLIT : XF_REV_JOINT;
        fdefs d = {.files = files};
        xf_srcmap m = {.xaif = name,
                       .files = files,
                       .text = text,
                       .len = len,
                       .routine = routine_of,
                       .arg = &d};
        rc = transform(&m, mode, &co, &opts, out);
        xf_srcmap_free(&m);
        free(d.defs);
    }
    free(text);
#else
    fputs("xaiform grad: not built for Fortran: the Fortran front end needs Flang 19 when\n"
          "the build is configured (docs/fortran-frontend.md)\n",
          stderr);
    (void)transform, (void)co, (void)routine_of;
    rc = XF_EXIT_INTERNAL;
#endif
done:
    free(indep);
    free(dep);
    return rc;
}
