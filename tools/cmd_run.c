/* cmd_run.c: xaiform run FILE --driver D --params params.conf: execute xaif. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "read.h"
#include "run.h"

static const char usage[] =
    "usage: xaiform run FILE.xaif --driver DRIVER --params params.conf [options]\n"
    "\n"
    "Execute the xaif program in FILE (a front end's xaif, or a tangent or adjoint\n"
    "output) as OpenAD's compiled back end would, under one of OpenAD's generic\n"
    "drivers: the top routine head(x, y) with x(1..n) = x0, x0(i) = i/2.\n"
    "\n"
    "  plain          y = head(x0); prints Y(k)\n"
    "  dd             divided differences with step h; prints the Jacobian F(k,i)\n"
    "  tangent        (a tangent document) one input direction at a time\n"
    "  adjoint-joint  (an adjoint document) one output weight at a time, joint reversal\n"
    "  adjoint-split  the same, split reversal\n"
    "\n"
    "The Jacobian is printed as OpenAD's ad.out: a header line, then\n"
    "F(  k,  i)=value for output k and input i, input index outer.\n"
    "\n"
    "  -d, --driver NAME     one of the above (required)\n"
    "  -p, --params FILE     params.conf: n, m, h, tolerance (one per line)\n"
    "  -n, --inputs N        n, instead of --params (with -m and, for dd, -H)\n"
    "  -m, --outputs M       m\n"
    "  -H, --step H          h\n"
    "  -t, --top NAME        the top routine: its symbol id, or its name as in the\n"
    "                        source (head finds head__24 when no other routine\n"
    "                        matches); default: head\n"
    "      --loose-sizes     let n or m exceed the elements head declares for x or y,\n"
    "                        as Fortran drivers may (sequence association): zero\n"
    "                        columns or rows for what head does not see\n"
    "  -s, --stats           print what the run did on stderr: operations, tape, steps\n"
    "      --loop-tape       print on stderr, per loop that runs and per sweep, the tape\n"
    "                        height at its start and end, the most one iteration\n"
    "                        adds, and whether every iteration gives its tape back\n"
    "                        (docs/loops.md)\n"
    "      --max-steps N     stop after N statements and control-flow steps (default 2e9)\n"
    "      --max-tape N      stop when the tapes hold N words (default 2e8)\n"
    "      --max-depth N     stop when calls nest N deep (default 1000)\n"
    "  -h, --help            this text\n"
    "\n"
    "Refused with exit status 1 before anything runs: n or m other than the number\n"
    "of elements head declares for a real x or y (a scalar, or an array with\n"
    "bounds; an array without bounds takes any n), naming both; the tangent and\n"
    "adjoint drivers over a document without derivative code (no\n"
    "DerivativePropagator, no deriv=\"1\" reference, no ReplacementList, no\n"
    "push/pop/Saxpy call) whose y is an active real, which would print zeros.\n"
    "A run-time fault (index out of bounds, an undefined routine, an empty tape, an\n"
    "unknown intrinsic) stops the run with FILE:LINE, the routine and the statement,\n"
    "and exit status 1.\n";

int
xf_cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"driver", required_argument, NULL, 'd'}, {"params", required_argument, NULL, 'p'},
        {"inputs", required_argument, NULL, 'n'}, {"outputs", required_argument, NULL, 'm'},
        {"step", required_argument, NULL, 'H'},   {"top", required_argument, NULL, 't'},
        {"stats", no_argument, NULL, 's'},        {"max-steps", required_argument, NULL, 1},
        {"max-tape", required_argument, NULL, 2}, {"max-depth", required_argument, NULL, 3},
        {"loose-sizes", no_argument, NULL, 4},    {"loop-tape", no_argument, NULL, 5},
        {"help", no_argument, NULL, 'h'},         {0}};
    xf_run_opts o = {.driver = XF_DRIVER_PLAIN};
    const char *params = NULL;
    bool have_driver = false, stats = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "d:p:n:m:H:t:sh", opts, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case 'd':
            if (!xf_driver_parse(optarg, &o.driver))
                return xf_usage_error("run", "unknown driver '%s'", optarg);
            have_driver = true;
            break;
        case 'p':
            params = optarg;
            break;
        case 'n':
            o.params.n = (int)strtol(optarg, &end, 10);
            break;
        case 'm':
            o.params.m = (int)strtol(optarg, &end, 10);
            break;
        case 'H':
            o.params.h = strtod(optarg, &end);
            break;
        case 't':
            o.top = optarg;
            break;
        case 's':
            stats = true;
            break;
        case 1:
            o.lim.max_steps = strtoull(optarg, &end, 10);
            break;
        case 2:
            o.lim.max_tape = strtoll(optarg, &end, 10);
            break;
        case 3:
            o.lim.max_depth = (int)strtol(optarg, &end, 10);
            break;
        case 4:
            o.loose_sizes = true;
            break;
        case 5:
            o.loop_tape = stderr;
            break;
        case 'h':
            fputs(usage, stdout);
            return XF_EXIT_OK;
        default:
            return xf_usage_error("run", "unknown option");
        }
        if (end && *end)
            return xf_usage_error("run", "'%s' is not a number", optarg);
    }
    if (optind != argc - 1)
        return xf_usage_error("run", "one xaif file is needed");
    if (!have_driver)
        return xf_usage_error("run", "--driver is needed");
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag)
        return XF_EXIT_INTERNAL;
    int ret = XF_EXIT_INPUT;
    xf_doc *doc = NULL;
    if (params && xf_params_read(params, &o.params, diag) != 0)
        goto out;
    o.params_name = params;
    if (o.params.n < 1 || o.params.m < 1) {
        xf_diag_free(diag);
        return xf_usage_error("run", "--params or -n and -m are needed");
    }
    if (o.driver == XF_DRIVER_DD && o.params.h == 0.0) {
        xf_diag_free(diag);
        return xf_usage_error("run", "the dd driver needs a step h (--params or -H)");
    }
    doc = xf_read_file(argv[optind], NULL, diag);
    if (!doc)
        goto out;
    xf_jacobian j;
    xf_run_stats st;
    if (xf_run(doc, &o, &j, &st, diag) == 0) {
        if (o.driver == XF_DRIVER_PLAIN) {
            char buf[32];
            for (int k = 0; k < j.m; k++) {
                xf_format_en(j.f[k], buf);
                printf("Y(%3d)=%s\n", k + 1, buf);
            }
        } else
            xf_jacobian_print(stdout, &j, o.driver == XF_DRIVER_DD ? " DD" : " AD");
        xf_jacobian_fini(&j);
        ret = XF_EXIT_OK;
    }
    if (stats)
        xf_stats_print(stderr, &st);
out:
    if (xf_diag_internal_errors(diag))
        ret = XF_EXIT_INTERNAL;
    xf_doc_free(doc);
    xf_diag_free(diag);
    return ret;
}
