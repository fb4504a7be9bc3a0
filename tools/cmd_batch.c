/* cmd_batch.c: xaiform batch --mode MODE FILE_OR_DIR...: convert many files
 * with a pool of worker processes (tools/batch/batch.h); what a worker does with
 * one file (read, the mode's passes, write) is here. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "cmd.h"
#include "output.h"
#include "pipeline.h"
#include "read.h"

enum { MAX_JOBS = 256, MAX_PASSES = XF_PM_MAX, MAX_MODES = 32 };

/* batch's own long options (its --report is the JSON report, not preaccumulate's) */
enum { OPT_OUT_DIR = 0x1400, OPT_SUFFIX, OPT_REPORT, OPT_FILES_FROM, OPT_SHARD };
static const char *const skip[] = {"report", NULL};

static const char usage[] =
    "usage: xaiform batch --mode MODE [options] FILE_OR_DIR...\n"
    "\n"
    "Convert many xaif files with MODE, in parallel worker processes. MODE is a\n"
    "pipeline of 'xaiform passes --list' (tangent, ...) or copy (no passes). A\n"
    "folder is searched recursively for *.xaif files; hidden entries and earlier\n"
    "outputs are left out: files ending in the output suffix or in .MODE.xaif of\n"
    "any mode (.copy.xaif, .tangent.xaif, .adjoint.xaif, ...), and the IR that\n"
    "--dump-after wrote beside them (OUT.PASS.xaif). The files are sorted\n"
    "by path; repeated paths count once. A file that is derivative code already\n"
    "(a tangent or adjoint output) fails in every mode but copy.\n"
    "\n"
    "Each output goes next to its input as NAME.MODE.xaif, or under --out-dir\n"
    "with the input's path relative to the folder named on the command line (a\n"
    "file named directly keeps its path when relative and not going up, else\n"
    "only its name). Outputs are written to a temporary file renamed into place;\n"
    "an output that would overwrite an input, or that two inputs share, is\n"
    "refused. The batch goes on past bad files.\n"
    "\n"
    "Progress goes to stderr: a bar on a terminal, else a line per file (ok or\n"
    "FAIL with the first error line); then a summary with each failure's reason.\n"
    "Exit status 0 when all files were converted, 1 when one failed, 2 usage\n"
    "error, 3 internal error, 128+N when stopped by signal N (130: Ctrl-C).\n"
    "\n"
    "The options of the passes MODE runs (those of 'xaiform passes --list'; for\n"
    "tangent and adjoint -e, --elimination ORDER, and for adjoint -R, --reversal\n"
    "MODE) and the pass manager's apply to every file; --time-passes prints a\n"
    "table per file, --dump-after writes OUT.PASS.xaif beside each output.\n"
    "\n"
    "  -m, --mode MODE          the conversion (required)\n"
    "  -j, --jobs N             worker processes (default: the online CPUs)\n"
    "      --out-dir DIR        write the outputs under DIR (folders created)\n"
    "      --suffix S           output name ending instead of .MODE.xaif\n"
    "      --report FILE.json   write a JSON report ('-': stdout): the options, per\n"
    "                           file input, output, status, error, seconds, bytes;\n"
    "                           the totals\n"
    "      --files-from LIST    also convert the paths in LIST, one a line ('-':\n"
    "                           stdin; blank lines and # comments ignored)\n"
    "      --shard K/N          convert only the files at positions K-1, K-1+N, ...\n"
    "                           of the sorted list (1 <= K <= N): N machines given\n"
    "                           the same inputs convert disjoint shares\n";

/* ---- what a worker does */

typedef struct conv_conf {
    const xf_pass *passes[MAX_PASSES];
    int n;
    xf_cli_passes cp;   /* the passes' options and the manager's */
    xf_output_opts out; /* --xslt, --param: compiled once, before the workers start */
} conv_conf;

typedef struct conv_state {
    const conv_conf *conf;
    xf_doc *cat, *direct;
} conv_state;

static void
conv_fini(void *state)
{
    conv_state *s = state;
    xf_doc_free(s->cat);
    xf_doc_free(s->direct);
    free(s);
}

static void *
conv_init(const void *arg, xf_diag *diag)
{
    const conv_conf *c = arg;
    conv_state *s = calloc(1, sizeof *s);
    if (!s) {
        xf_error(diag, NULL, 0, "out of memory");
        return NULL;
    }
    s->conf = c;
    if (c->n > 0) {
        s->cat = xf_catalogue_load(NULL, diag);
        s->direct = s->cat ? xf_direct_load(NULL, diag) : NULL;
        if (!s->direct) {
            conv_fini(s);
            return NULL;
        }
    }
    return s;
}

static int
conv_run(void *state, const char *in, const char *out, xf_diag *diag)
{
    const conv_state *s = state;
    xf_doc *doc = xf_read_file(in, NULL, diag);
    if (!doc)
        return -1;
    if (s->conf->n > 0 && xf_pipeline_refuse_deriv(doc, diag) != 0) {
        xf_doc_free(doc);
        return -1;
    }
    xf_pass_ctx ctx = {.doc = doc,
                       .opts = &s->conf->cp.opts,
                       .diag = diag,
                       .catalogue = s->cat,
                       .direct = s->direct};
    xf_pm_conf pm = s->conf->cp.conf;
    pm.dump_base = out;
    /* the table goes out whole, not interleaved with other workers' */
    char *table = NULL;
    size_t tlen = 0;
    if (pm.time_passes) {
        pm.time_passes = open_memstream(&table, &tlen);
        if (pm.time_passes)
            fprintf(pm.time_passes, "%s:\n", in);
    }
    int ret = xf_pm_run(&ctx, s->conf->passes, s->conf->n, &pm);
    if (pm.time_passes) {
        fclose(pm.time_passes);
        fputs(table, stderr);
        free(table);
    }
    if (ret == 0)
        ret = xf_output_write(doc, out, &s->conf->out, diag);
    xf_doc_free(doc);
    return ret;
}

/* ---- the command line */

typedef struct args {
    const char *mode, *out_dir, *suffix, *report, *files_from, *shard;
    char suffix_buf[160], jobs_text[16];
    int jobs;
    unsigned k, n;
    conv_conf conf;
} args;

static int
parse_jobs(const char *s, int *jobs)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 1 || v > MAX_JOBS)
        return -1;
    *jobs = (int)v;
    return 0;
}

static int
online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (int)n;
}

/* The mode's passes and the values the options left to check. @returns 0 or an exit status. */
static int
check_args(args *a, int nfiles)
{
    if (!a->mode)
        return xf_usage_error("batch", "--mode MODE is needed");
    if (nfiles == 0 && !a->files_from)
        return xf_usage_error("batch", "no file or folder to convert");
    if (strcmp(a->mode, "copy") != 0) {
        char err[300];
        if (!xf_pipeline_expand(a->mode))
            return xf_usage_error("batch",
                                  "unknown mode '%s' (a pipeline of 'xaiform passes "
                                  "--list', or copy)",
                                  a->mode);
        a->conf.n = xf_pipeline_parse(a->mode, a->conf.passes, MAX_PASSES, err, sizeof err);
        if (a->conf.n < 0)
            return xf_usage_error("batch", "%s", err);
    }
    char err[600];
    if (xf_cli_pass_check(&a->conf.cp, a->conf.passes, a->conf.n, err, sizeof err) != 0)
        return xf_usage_error("batch", "%s", err);
    if (!a->suffix) {
        snprintf(a->suffix_buf, sizeof a->suffix_buf, ".%s.xaif", a->mode);
        a->suffix = a->suffix_buf;
    }
    if (!a->suffix[0] || strchr(a->suffix, '/'))
        return xf_usage_error("batch", "the suffix must be a name ending without '/'");
    if (a->shard && xf_shard_parse(a->shard, &a->k, &a->n) != 0)
        return xf_usage_error("batch", "--shard wants K/N with 1 <= K <= N, not '%s'", a->shard);
    if (a->jobs == 0)
        a->jobs = online_cpus();
    snprintf(a->jobs_text, sizeof a->jobs_text, "%d", a->jobs);
    return 0;
}

static int
parse_option(args *a, int c, int argc, char **argv)
{
    switch (c) {
    case 'm':
        a->mode = optarg;
        return 0;
    case 'j':
        return parse_jobs(optarg, &a->jobs) == 0
                   ? 0
                   : xf_usage_error("batch", "-j wants a number from 1 to %d, not '%s'", MAX_JOBS,
                                    optarg);
    case OPT_OUT_DIR:
        a->out_dir = optarg;
        return 0;
    case OPT_SUFFIX:
        a->suffix = optarg;
        return 0;
    case OPT_REPORT:
        a->report = optarg;
        return 0;
    case OPT_FILES_FROM:
        a->files_from = optarg;
        return 0;
    case OPT_SHARD:
        a->shard = optarg;
        return 0;
    case XF_OPT_XSLT:
    case XF_OPT_PARAM: {
        const char *why = xf_output_option(&a->conf.out, c, argc, argv);
        return why ? xf_usage_error("batch", "%s", why) : 0;
    }
    default: {
        char err[300];
        int r = xf_cli_pass_option(&a->conf.cp, c, optarg, skip, err, sizeof err);
        return r == 0 ? 0 : xf_usage_error("batch", "%s", r < 0 ? "unknown option" : err);
    }
    }
}

static int
parse(int argc, char **argv, args *a)
{
    static const struct option own[] = {{"mode", required_argument, NULL, 'm'},
                                        {"jobs", required_argument, NULL, 'j'},
                                        {"out-dir", required_argument, NULL, OPT_OUT_DIR},
                                        {"suffix", required_argument, NULL, OPT_SUFFIX},
                                        {"report", required_argument, NULL, OPT_REPORT},
                                        {"files-from", required_argument, NULL, OPT_FILES_FROM},
                                        {"shard", required_argument, NULL, OPT_SHARD},
                                        {"help", no_argument, NULL, 'h'},
                                        XF_OUTPUT_LONG_OPTIONS,
                                        XF_PM_LONG_OPTIONS};
    enum { MAXOPT = 48 };
    struct option opts[MAXOPT];
    char shorts[64] = "m:j:h";
    memcpy(opts, own, sizeof own);
    if (xf_cli_pass_options(opts, sizeof own / sizeof own[0], MAXOPT, shorts, sizeof shorts,
                            skip) == 0)
        return xf_usage_error("batch", "internal error: too many options");
    *a = (args){.k = 1, .n = 1};
    xf_cli_passes_init(&a->conf.cp);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage, stdout);
            xf_cli_pass_help(stdout, NULL, skip);
            fputs(XF_PM_HELP XF_OUTPUT_HELP "  -h, --help               this text\n", stdout);
            return -1;
        }
        int ret = parse_option(a, c, argc, argv);
        if (ret != 0)
            return ret;
    }
    return check_args(a, argc - optind);
}

/* The default output endings of every mode, ".copy.xaif" and ".PIPELINE.xaif",
 * into @names (@n of them), NULL-terminated in @v. */
static void
mode_outputs(char (*names)[64], const char **v, size_t n)
{
    size_t k = 0;
    snprintf(names[k], sizeof names[k], ".copy.xaif");
    v[k] = names[k];
    for (size_t i = 0; k + 1 < n && xf_pipeline_name(i); i++) {
        k++;
        snprintf(names[k], sizeof names[k], ".%s.xaif", xf_pipeline_name(i));
        v[k] = names[k];
    }
    v[k + 1] = NULL;
}

/* The list of files. @returns 0, or an exit status after a message. */
static int
collect(const args *a, char **files, int nfiles, xf_batch_list *list)
{
    char names[MAX_MODES][64];
    const char *outputs[MAX_MODES + 1];
    mode_outputs(names, outputs, MAX_MODES);
    xf_batch_naming nm = {.out_dir = a->out_dir, .suffix = a->suffix, .outputs = outputs};
    char err[700];
    for (int i = 0; i < nfiles; i++)
        if (xf_batch_list_add(list, files[i], &nm, err, sizeof err) != 0) {
            fprintf(stderr, "xaiform batch: error: %s\n", err);
            return XF_EXIT_INPUT;
        }
    if (a->files_from) {
        bool std = !strcmp(a->files_from, "-");
        FILE *f = std ? stdin : fopen(a->files_from, "r");
        int ret = -1;
        if (!f)
            snprintf(err, sizeof err, "%s: cannot open: %s", a->files_from, strerror(errno));
        else
            ret =
                xf_batch_list_read(list, f, std ? "<stdin>" : a->files_from, &nm, err, sizeof err);
        if (f && !std)
            fclose(f);
        if (ret != 0) {
            fprintf(stderr, "xaiform batch: error: %s\n", err);
            return XF_EXIT_INPUT;
        }
    }
    if (xf_batch_list_finish(list, a->k, a->n) != 0) {
        fprintf(stderr, "xaiform batch: error: out of memory\n");
        return XF_EXIT_INTERNAL;
    }
    return 0;
}

static int
exit_status(const xf_batch_list *list, const xf_batch_result *res)
{
    if (res->signal)
        return 128 + res->signal;
    int ret = list->total ? XF_EXIT_OK : XF_EXIT_INPUT;
    if (res->trouble[0])
        ret = XF_EXIT_INTERNAL;
    for (size_t i = 0; i < list->n; i++) {
        if (list->v[i].status == XF_BATCH_INTERNAL)
            ret = XF_EXIT_INTERNAL;
        else if (list->v[i].status != XF_BATCH_OK && ret == XF_EXIT_OK)
            ret = XF_EXIT_INPUT;
    }
    return ret;
}

static int
report(const args *a, const xf_batch_list *list, const xf_batch_result *res, char **files,
       int nfiles)
{
    const char *elim = xf_pm_option_show(&a->conf.cp.opts, "elimination");
    static const char *const revs[] = {
        [XF_REV_BOTH] = "both", [XF_REV_JOINT] = "joint", [XF_REV_SPLIT] = "split"};
    char shard[32] = "";
    if (a->shard)
        snprintf(shard, sizeof shard, "%u/%u", a->k, a->n);
    const xf_batch_option opts[] = {
        {"mode", a->mode, false},
        {"jobs", a->jobs_text, true},
        {"out_dir", a->out_dir, false},
        {"suffix", a->suffix, false},
        {"files_from", a->files_from, false},
        {"shard", a->shard ? shard : NULL, false},
        {"reversal", revs[a->conf.cp.opts.reversal], false},
        {"elimination", elim, false},
    };
    char err[600];
    if (xf_batch_report_write(a->report, list, res, opts, sizeof opts / sizeof opts[0], files,
                              (size_t)nfiles, err, sizeof err) != 0) {
        fprintf(stderr, "xaiform batch: error: %s\n", err);
        return -1;
    }
    return 0;
}

int
xf_cmd_batch(int argc, char **argv)
{
    args a;
    int ret = parse(argc, argv, &a);
    if (ret != 0)
        return ret < 0 ? XF_EXIT_OK : ret;
    char **files = argv + optind;
    int nfiles = argc - optind;
    xf_batch_list list = {0};
    ret = collect(&a, files, nfiles, &list);
    if (ret != 0) {
        xf_batch_list_fini(&list);
        return ret;
    }
    if (list.total == 0)
        fprintf(stderr, "xaiform batch: error: no .xaif file in the inputs\n");
    /* The stylesheets are compiled once, here: an error stops the batch
     * before any file is converted, and the workers inherit them. */
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag || xf_output_compile(&a.conf.out, diag) != 0) {
        xf_diag_free(diag);
        xf_batch_list_fini(&list);
        return diag ? XF_EXIT_INPUT : XF_EXIT_INTERNAL;
    }
    xf_diag_free(diag);
    xf_batch_progress pr = {.out = stderr, .bar = isatty(STDERR_FILENO), .total = list.n};
    xf_batch_events ev = {xf_batch_progress_done, xf_batch_progress_tick, &pr};
    xf_batch_ops ops = {conv_init, conv_run, conv_fini, &a.conf};
    xf_batch_result res;
    xf_batch_run(&list, a.jobs, &ops, &ev, &res);
    xf_batch_progress_end(&pr);
    xf_batch_summary(stderr, &list, &res);
    ret = exit_status(&list, &res);
    if (a.report && report(&a, &list, &res, files, nfiles) != 0 && ret == XF_EXIT_OK)
        ret = XF_EXIT_INPUT;
    xf_output_fini(&a.conf.out);
    xf_batch_list_fini(&list);
    return ret;
}
