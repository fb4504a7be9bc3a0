/* cmd_check.c: xaiform check [--mode MODE...] [--expect FILE [--update]] DIR...:
 * the regression runner; xaiform check --summary FILE: the totals of an
 * expectations file. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "expect.h"
#include "passmgr.h"
#include "regress.h"

static const char usage[] =
    "usage: xaiform check [--mode MODE]... [--expect FILE [--update]] [--stats]\n"
    "                     [--schema FILE.xsd] DIR...\n"
    "       xaiform check --summary FILE\n"
    "\n"
    "Run every example folder at or under each DIR (OpenAD's regression layout: a folder\n"
    "with params.conf and tlm.xaif or adm.xaif, beside ref/tlm.xb.xaif, ref/adm.xb.xaif,\n"
    "ref/ad.out, ref/dd.out; subfolders are searched 16 levels deep, symbolic links\n"
    "followed, each folder once) and compare the Jacobians with the references. An\n"
    "example is named by its folder's last component. Modes:\n"
    "\n"
    "  dd             the front end's xaif under divided differences, against ref/dd.out\n"
    "                 (relative difference 1e-6)\n"
    "  ref-tangent    xaifBooster's tangent output, tangent driver, against ref/ad.out (1e-10)\n"
    "  ref-adjoint    xaifBooster's adjoint output, joint and split drivers, against\n"
    "                 ref/ad.out (1e-10)\n"
    "  tangent        xaiform's own tangent of tlm.xaif, tangent driver, against ref/ad.out\n"
    "                 (1e-10)\n"
    "  adjoint-joint  xaiform's own adjoint of adm.xaif made with --reversal joint\n"
    "                 (unless --pass-option reversal=... says otherwise), OpenAD's\n"
    "                 joint driver, against ref/ad.out (1e-10)\n"
    "  adjoint-split  the same made with --reversal split, under OpenAD's split driver\n"
    "  xaif2f-tangent, xaif2f-adjoint-joint, xaif2f-adjoint-split\n"
    "                 the last three with the derivative written as Fortran (xaif2f),\n"
    "                 compiled by gfortran ($XF_FC) with a driver like OpenAD's, and\n"
    "                 run (not run unless asked for; docs/fortran-backend.md)\n"
    "  f-xaif-tangent the tangent mode on the xaif of `xaiform f2xaif head.f\n"
    "                 [all_globals_mod.f] --function head` (pragmas for the (in)dependents)\n"
    "                 instead of tlm.xaif (needs the Fortran front end; not run by default)\n"
    "  f-xaif-adjoint-joint, f-xaif-adjoint-split\n"
    "                 the adjoint modes on the same xaif instead of adm.xaif\n"
    "  f-tangent, f-adjoint-joint, f-adjoint-split\n"
    "                 the whole chain from head.f: the f-xaif modes with the\n"
    "                 derivative written by xaif2f, compiled and run as in the xaif2f\n"
    "                 modes (needs the Fortran front end and gfortran)\n"
    "\n"
    "Where OpenAD's pipeline failed before writing adm.xaif, the adjoint modes run\n"
    "tlm.xaif instead, judged against ref/dd.out ('from tlm.xaif' in the line; the\n"
    "input column tlm.xaif in the expectations file).\n"
    "\n"
    "In the transform modes (all but the first three), where a FAILREASON file says\n"
    "OpenAD's derivative is wrong, the result is judged against ref/dd.out within params.conf's "
    "tolerance (PASS*,\n"
    "FAIL*); where the example needs a custom driver (CUSTOM_DRIVER), against\n"
    "xaifBooster's output under the generic driver (PASS~, FAIL~). Entries agree within\n"
    "the relative tolerance or 1e-12 absolutely. A mode is skipped, with the reason,\n"
    "where the example has no input or reference for it. One line per example and\n"
    "mode (a failure names its class: example-error, read-error, transform-error,\n"
    "schema-invalid, run-error, jacobian-shape or jacobian-mismatch), then 'N passed,\n"
    "N failed, N skipped' per mode, the failures by class, and for the derivative\n"
    "modes the operations and tape words of ours against xaifBooster's output's.\n"
    "Default: all modes.\n"
    "\n";

/* The options (one string would pass the 4095 characters C guarantees). */
static const char usage_options[] =
    "  --mode MODE         one of the modes above; may be repeated\n"
    "  -e, --elimination ORDER   forward, reverse, markowitz or best (the default), as\n"
    "                      for 'xaiform tangent'\n"
    "  --catalogue FILE    as for 'xaiform tangent'\n"
    "  --stats             also the operations of the derivative runs per example\n"
    "                      (OPS lines: ours and xaifBooster's output's) and, for\n"
    "                      the adjoint modes, the real and integer tape words\n"
    "                      pushed and each run's peak tape (TAPE lines: ours,\n"
    "                      xaifBooster's, the variants';\n"
    "                      their sums after the summary)\n"
    "  --pass-option NAME[=VALUE]  a pass option for the transform modes, as\n"
    "                      'xaiform passes --list' names them (elimination=forward,\n"
    "                      say); may be repeated\n"
    "  --variant LABEL:NAME[=VALUE][,...]  with --stats: the adjoint modes also make\n"
    "                      our adjoint under these pass options (over the defaults)\n"
    "                      and report its tape words in a column LABEL, counted\n"
    "                      where its Jacobian equals ours; up to 4\n"
    "  --schema FILE.xsd   the transform modes validate each derivative they make\n"
    "                      against this XML Schema (OpenAD's xaif_output.xsd, say)\n"
    "                      before running it: a violation fails the example, with\n"
    "                      the first violation as the reason\n"
    "  --expect FILE       compare the run with the expectations FILE (one line per\n"
    "                      example and mode: status, operations, tape words, and a\n"
    "                      failing line's reason class): any difference fails, better\n"
    "                      or worse, and is printed, old -> new: a status or reason\n"
    "                      class, a count risen or fallen, an example and mode in one\n"
    "                      and not the other. Lines of modes the run did not run, and\n"
    "                      when every DIR is an example folder, of examples it did not\n"
    "                      find, are not compared\n"
    "  --update            with --expect: write the run into FILE (kept: lines outside\n"
    "                      the run, as above), sorted, with a header saying how\n"
    "  --summary FILE      print the totals of an expectations file, per mode: passed,\n"
    "                      failed, skipped, and operations and tape words of ours\n"
    "                      against xaifBooster's where both exist\n"
    "  --xaifbooster-root ROOT  the transform modes make the derivative by running\n"
    "                      ROOT/xaifBooster/algorithms/ALG/driver/oadDriver (xaiform's\n"
    "                      build/oad, PREFIX/share/xaiform/oad, or xaifBooster itself) as\n"
    "                      OpenAD's regression does: -v -V -i IN -c CATALOGUE -o OUT, -I for\n"
    "                      joint, and the example's options file; ${XAIFSCHEMAROOT}/schema/\n"
    "                      examples there is the corpus folder xaif-examples/ above the\n"
    "                      example, .../schema its xaif-schema/\n"
    "  --min-pass PERCENT  legacy, in place of --expect: succeed when every mode passed\n"
    "                      at least PERCENT of the examples it ran\n"
    "\n"
    "Exit status 0 when nothing failed (with --expect: nothing changed; with --update:\n"
    "the file was written), 1 otherwise or when a DIR cannot be read or holds no\n"
    "example, 2 usage error.\n";

/* --variant LABEL:NAME[=VALUE][,NAME[=VALUE]]...: the label into @label,
 * the pass options (over the defaults) into @o. 0, or -1 with the reason. */
static int
variant(const char *arg, char label[64], xf_opts *o, char *err, size_t len)
{
    const char *colon = strchr(arg, ':');
    size_t n = colon ? (size_t)(colon - arg) : 0;
    if (!colon || n == 0 || n >= 64 || strcspn(arg, " \t,=") < n) {
        snprintf(err, len, "not LABEL:NAME[=VALUE][,NAME[=VALUE]]...");
        return -1;
    }
    memcpy(label, arg, n);
    label[n] = 0;
    xf_pm_opts_init(o);
    char opt[256];
    for (const char *p = colon + 1; *p;) {
        size_t k = strcspn(p, ",");
        if (k == 0 || k >= sizeof opt) {
            snprintf(err, len, "an empty or overlong pass option");
            return -1;
        }
        memcpy(opt, p, k);
        opt[k] = 0;
        if (xf_pm_option_text(o, opt, err, len) != 0)
            return -1;
        p += k + (p[k] == ',');
    }
    return 0;
}

/* Append the last component of @path (trailing slashes left out) to @buf. */
static void
add_base(char *buf, size_t len, const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    size_t start = n;
    while (start > 0 && path[start - 1] != '/')
        start--;
    size_t at = strlen(buf);
    snprintf(buf + at, len - at, " %.*s", (int)(n - start), path + start);
}

/* The header line of an updated file: the command, with file names only. */
static void
made_by(char *buf, size_t len, const char *const *given, int ngiven, const char *order,
        const char *catalogue, const char *file, char *const *roots, int nroots)
{
    snprintf(buf, len, "xaiform check");
    for (int k = 0; k < ngiven; k++)
        snprintf(buf + strlen(buf), len - strlen(buf), " --mode %s", given[k]);
    if (order)
        snprintf(buf + strlen(buf), len - strlen(buf), " -e %s", order);
    if (catalogue) {
        snprintf(buf + strlen(buf), len - strlen(buf), " --catalogue");
        add_base(buf, len, catalogue);
    }
    snprintf(buf + strlen(buf), len - strlen(buf), " --expect");
    add_base(buf, len, file);
    snprintf(buf + strlen(buf), len - strlen(buf), " --update");
    for (int r = 0; r < nroots; r++)
        add_base(buf, len, roots[r]);
}

static int
summary(const char *file)
{
    xf_check_results r = {0};
    int ret = xf_expect_read(file, &r, stderr);
    if (ret == 0)
        xf_check_summary(&r, stdout);
    xf_check_results_fini(&r);
    return ret == 0 ? XF_EXIT_OK : XF_EXIT_INPUT;
}

/* The expectations to compare with: 0, or 1 when @update and @file does
 * not exist yet (nothing to compare with), or -1. */
static int
read_expected(const char *file, bool update, xf_check_results *old)
{
    FILE *f = fopen(file, "r");
    if (!f && update && errno == ENOENT)
        return 1;
    if (f)
        fclose(f);
    /* --update also rewrites a file written before the reason classes */
    return update ? xf_expect_read_old(file, old, stderr) : xf_expect_read(file, old, stderr);
}

int
xf_cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {{"mode", required_argument, NULL, 'M'},
                                         {"min-pass", required_argument, NULL, 'P'},
                                         {"catalogue", required_argument, NULL, 'c'},
                                         {"elimination", required_argument, NULL, 'e'},
                                         {"stats", no_argument, NULL, 's'},
                                         {"schema", required_argument, NULL, 'X'},
                                         {"pass-option", required_argument, NULL, 'O'},
                                         {"variant", required_argument, NULL, 'V'},
                                         {"xaifbooster-root", required_argument, NULL, 'D'},
                                         {"expect", required_argument, NULL, 'x'},
                                         {"update", no_argument, NULL, 'u'},
                                         {"summary", required_argument, NULL, 'S'},
                                         {"help", no_argument, NULL, 'h'},
                                         {0}};
    xf_check_mode modes[XF_CHECK_MODES];
    const char *given[XF_CHECK_MODES];
    int nmodes = 0, min_pass = 0, c;
    const char *catalogue = NULL, *order = NULL, *expect = NULL, *sum = NULL, *door = NULL,
               *schema = NULL;
    xf_opts passopts;
    xf_pm_opts_init(&passopts);
    char err[300];
    bool stats = false, update = false;
    int nvariants = 0;
    char vnames[XF_CHECK_VARIANTS][64];
    xf_opts vopts[XF_CHECK_VARIANTS];
    optind = 1;
    while ((c = getopt_long(argc, argv, "he:", opts, NULL)) != -1) {
        switch (c) {
        case 'M': {
            xf_check_mode m;
            if (!xf_check_mode_parse(optarg, &m))
                return xf_usage_error("check",
                                      "unknown mode '%s' (dd, ref-tangent, ref-adjoint, tangent, "
                                      "adjoint-joint, adjoint-split, xaif2f-tangent, "
                                      "xaif2f-adjoint-joint, xaif2f-adjoint-split)",
                                      optarg);
            bool twice = false;
            for (int k = 0; k < nmodes; k++)
                twice = twice || modes[k] == m;
            if (twice)
                return xf_usage_error("check", "mode '%s' given twice", optarg);
            given[nmodes] = optarg;
            modes[nmodes++] = m;
            break;
        }
        case 'P': {
            char *end;
            min_pass = (int)strtol(optarg, &end, 10);
            if (*end || min_pass < 1 || min_pass > 100)
                return xf_usage_error("check", "--min-pass takes a percentage 1..100");
            break;
        }
        case 'c':
            catalogue = optarg;
            break;
        case 'e':
            if (xf_pm_option(&passopts, "elimination", optarg, err, sizeof err) != 0)
                return xf_usage_error("check", "%s", err);
            order = optarg;
            break;
        case 's':
            stats = true;
            break;
        case 'D':
            door = optarg;
            break;
        case 'X':
            schema = optarg;
            break;
        case 'O':
            if (xf_pm_option_text(&passopts, optarg, err, sizeof err) != 0)
                return xf_usage_error("check", "--pass-option %s: %s", optarg, err);
            break;
        case 'V':
            if (nvariants == XF_CHECK_VARIANTS)
                return xf_usage_error("check", "at most %d variants", XF_CHECK_VARIANTS);
            if (variant(optarg, vnames[nvariants], &vopts[nvariants], err, sizeof err) != 0)
                return xf_usage_error("check", "--variant %s: %s", optarg, err);
            nvariants++;
            break;
        case 'x':
            expect = optarg;
            break;
        case 'u':
            update = true;
            break;
        case 'S':
            sum = optarg;
            break;
        case 'h':
            fputs(usage, stdout);
            fputs(usage_options, stdout);
            return XF_EXIT_OK;
        default:
            return xf_usage_error("check", "unknown option");
        }
    }
    if (sum) {
        if (optind < argc || nmodes || expect || update || min_pass || stats || order ||
            catalogue || schema)
            return xf_usage_error("check", "--summary FILE takes no other option or folder");
        return summary(sum);
    }
    if (nvariants && !stats)
        return xf_usage_error("check", "--variant needs --stats");
    if (update && !expect)
        return xf_usage_error("check", "--update needs --expect FILE");
    if (expect && min_pass)
        return xf_usage_error("check", "--expect and --min-pass do not go together");
    if (optind >= argc)
        return xf_usage_error("check", "no folder to check");
    xf_expect_scope scope = {.all = false};
    int ngiven = nmodes; /* for the header of an updated file */
    if (!nmodes)
        for (; nmodes < XF_CHECK_DEFAULT_MODES; nmodes++)
            modes[nmodes] = (xf_check_mode)nmodes;
    for (int k = 0; k < nmodes; k++)
        scope.modes[modes[k]] = true;

    xf_check_results old = {0}, run = {0};
    int fresh = expect ? read_expected(expect, update, &old) : 0;
    if (fresh < 0) {
        xf_check_results_fini(&old);
        return XF_EXIT_INPUT;
    }
    xf_check_opts o = {.modes = modes,
                       .nmodes = nmodes,
                       .roots = argv + optind,
                       .nroots = argc - optind,
                       .min_pass = min_pass,
                       .catalogue = catalogue,
                       .passopts = passopts,
                       .door = door,
                       .stats = stats,
                       .schema = schema,
                       .nvariants = nvariants};
    for (int v = 0; v < nvariants; v++) {
        o.variant_names[v] = vnames[v];
        o.variant_opts[v] = vopts[v];
    }
    int ret = xf_check_run(&o, stdout, &run, &scope.all);
    if (ret < 0)
        ret = XF_EXIT_INPUT;
    else if (expect) {
        fflush(stdout);
        int changes = fresh ? 0 : xf_expect_compare(&old, &run, &scope, expect, stdout);
        if (changes < 0) {
            ret = XF_EXIT_INPUT;
        } else if (run.invalid) { /* an invalid derivative fails whatever was expected */
            ret = XF_EXIT_INPUT;
            if (update)
                printf("%s: not written: a derivative is not valid against %s\n", expect, schema);
        } else if (update) {
            char by[2048];
            made_by(by, sizeof by, given, ngiven, order, catalogue, expect, argv + optind,
                    argc - optind);
            ret = xf_expect_write(expect, &old, &run, &scope, by, stderr) == 0 ? XF_EXIT_OK
                                                                               : XF_EXIT_INPUT;
            if (ret == XF_EXIT_OK)
                printf("wrote %s\n", expect);
        } else
            ret = changes ? XF_EXIT_INPUT : XF_EXIT_OK;
    }
    xf_check_results_fini(&old);
    xf_check_results_fini(&run);
    return ret;
}
