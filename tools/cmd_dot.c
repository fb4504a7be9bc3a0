/* cmd_dot.c: xaiform dot IN -o OUT.svg: pictures of a document with
 * graphviz (the call graph, a routine's control flow, a block's
 * expressions or its linearized computational graph). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dot.h"
#include "output.h"
#include "pipeline.h"
#include "read.h"

static const char usage[] =
    "usage: xaiform dot IN.xaif -o OUT.(svg|png|pdf|dot|gv) [options]\n"
    "\n"
    "Draw part of IN with graphviz (the dot layout). What is drawn:\n"
    "  callgraph    one node per routine, an edge per calling relation labelled\n"
    "               with its number of call sites (the default without --routine)\n"
    "  cfg          one routine's control-flow graph, each basic block with its\n"
    "               statements in pseudo-code (the default with --routine)\n"
    "  expressions  the expression graphs of one basic block's statements\n"
    "  lcg          the linearized computational graphs of one basic block, one\n"
    "               per sequence, as preaccumulate builds them (convert and\n"
    "               linearize are run on IN first): independent vertices blue,\n"
    "               dependent green, edges labelled with the partials\n"
    "The format comes from OUT's extension or --format: svg, png, pdf, or dot/gv\n"
    "(the graph in graphviz's language, without layout).\n"
    "\n" XF_OUTPUT_FILE_HELP "'-' as OUT writes to stdout (with --format).\n"
    "\n"
    "  -o, --output FILE        where to write (required)\n"
    "  -f, --format FMT         svg, png, pdf, dot or gv, whatever OUT's extension\n"
    "  -w, --what WHAT          callgraph, cfg, expressions or lcg\n"
    "  -r, --routine NAME       the routine: its symbol_id or vertex_id, or its name\n"
    "                           as in the source (head finds head__24 when no\n"
    "                           other routine matches); default: the first with a\n"
    "                           statement of the kind drawn\n"
    "  -p, --placeholder N      of a ReplacementList, the Replacement to draw\n"
    "                           (default: 1, or the first that is not empty)\n"
    "  -b, --block ID           expressions, lcg: the BasicBlock's vertex_id (default:\n"
    "                           the first with an assignment / with propagation)\n"
    "  -E, --eliminated         lcg: each sequence after vertex elimination in the\n"
    "                           order --elimination names, its edges labelled with\n"
    "                           the products and sums of partials they accumulate\n"
    "  -e, --elimination ORDER  lcg --eliminated: forward, reverse or markowitz\n"
    "  -n, --max-lines N        statement lines per block before '... (N more)'\n"
    "                           (default 24; 0: all)\n"
    "  -W, --width N            characters per line before '...' (default 80; 0: all)\n"
    "  -h, --help               this text\n";

/* The extension of @path ("svg"), or NULL. */
static const char *
extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) && dot[1] ? dot + 1 : NULL;
}

static bool
parse_count(const char *s, unsigned *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0 || v > 1000000)
        return false;
    *out = (unsigned)v;
    return true;
}

typedef enum what { W_CALLGRAPH, W_CFG, W_EXPRESSIONS, W_LCG } what;

typedef struct args {
    const char *in, *out, *format, *what_name;
    what what;
    bool no_layout; /* the "dot" format: the graph as it is */
    xf_dot_opts o;
    xf_opts passes;
    const char *elim;
} args;

static int
parse(int argc, char **argv, args *a, bool *help)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"what", required_argument, NULL, 'w'},
                                         {"routine", required_argument, NULL, 'r'},
                                         {"placeholder", required_argument, NULL, 'p'},
                                         {"block", required_argument, NULL, 'b'},
                                         {"elimination", required_argument, NULL, 'e'},
                                         {"eliminated", no_argument, NULL, 'E'},
                                         {"max-lines", required_argument, NULL, 'n'},
                                         {"width", required_argument, NULL, 'W'},
                                         {"help", no_argument, NULL, 'h'},
                                         {0}};
    unsigned ph;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:f:w:r:p:b:e:En:W:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            a->out = optarg;
            break;
        case 'f':
            a->format = optarg;
            break;
        case 'w':
            a->what_name = optarg;
            break;
        case 'r':
            a->o.routine = optarg;
            break;
        case 'p':
            if (!parse_count(optarg, &ph) || ph == 0)
                return xf_usage_error("dot", "--placeholder wants a number from 1, not '%s'",
                                      optarg);
            a->o.placeholder = ph;
            break;
        case 'b':
            a->o.block = optarg;
            break;
        case 'e': {
            char err[300];
            a->elim = optarg;
            if (xf_pm_option(&a->passes, "elimination", optarg, err, sizeof err) != 0)
                return xf_usage_error("dot", "%s", err);
            break;
        }
        case 'E':
            a->o.eliminated = true;
            break;
        case 'n':
            if (!parse_count(optarg, &a->o.max_lines))
                return xf_usage_error("dot", "--max-lines wants a number, not '%s'", optarg);
            break;
        case 'W':
            if (!parse_count(optarg, &a->o.width))
                return xf_usage_error("dot", "--width wants a number, not '%s'", optarg);
            break;
        case 'h':
            *help = true;
            return XF_EXIT_OK;
        default:
            return xf_usage_error("dot", "unknown option");
        }
    }
    if (optind != argc - 1)
        return xf_usage_error("dot", "one input file is needed");
    a->in = argv[optind];
    if (!a->out)
        return xf_usage_error("dot", "-o OUT is needed");
    static const char *const whats[] = {"callgraph", "cfg", "expressions", "lcg"}; /* ORDER what */
    const char *wn = a->what_name ? a->what_name : a->o.routine ? "cfg" : "callgraph";
    size_t w = 0;
    while (w < sizeof whats / sizeof whats[0] && strcmp(whats[w], wn) != 0)
        w++;
    if (w == sizeof whats / sizeof whats[0])
        return xf_usage_error("dot", "unknown --what '%s' (callgraph, cfg, expressions or lcg)",
                              wn);
    a->what = (what)w;
    if (a->what == W_CALLGRAPH && (a->o.routine || a->o.placeholder || a->o.block))
        return xf_usage_error("dot", "--routine, --placeholder and --block do not apply to the "
                                     "call graph");
    if (a->what == W_CFG && a->o.block)
        return xf_usage_error("dot", "--block applies to --what expressions and lcg");
    if ((a->elim || a->o.eliminated) && a->what != W_LCG)
        return xf_usage_error("dot", "--elimination and --eliminated apply to --what lcg");
    if (a->elim && !a->o.eliminated)
        return xf_usage_error("dot", "--elimination applies to --eliminated");
    if (a->o.eliminated) {
        static const struct {
            const char *name;
            xf_elim_order order;
        } orders[] = {{"forward", XF_ORDER_FORWARD},
                      {"reverse", XF_ORDER_REVERSE},
                      {"markowitz", XF_ORDER_MARKOWITZ}};
        const char *e = a->elim ? xf_pm_option_show(&a->passes, "elimination") : NULL;
        size_t k = 0;
        while (e && k < sizeof orders / sizeof orders[0] && strcmp(orders[k].name, e) != 0)
            k++;
        if (!e || k == sizeof orders / sizeof orders[0])
            return xf_usage_error("dot", "--eliminated needs --elimination forward, reverse or "
                                         "markowitz (best is chosen by the code each order "
                                         "writes: preaccumulate --report shows it)");
        a->o.order = orders[k].order;
    }
    const char *name = a->format;
    if (!name && !strcmp(a->out, "-"))
        return xf_usage_error("dot", "writing to stdout needs --format (%s)", xf_dot_formats());
    if (!name)
        name = extension(a->out);
    if (!name)
        return xf_usage_error("dot", "'%s' has no extension: give --format (%s)", a->out,
                              xf_dot_formats());
    a->format = xf_dot_format(name);
    if (!a->format)
        return xf_usage_error("dot", "unknown format '%s' (%s)", name, xf_dot_formats());
    a->no_layout = strcmp(a->format, "dot") == 0;
    return XF_EXIT_OK;
}

/* The linearized computational graphs: IN linearized, then drawn. */
static Agraph_t *
lcg(const args *a, const xf_dot_opts *o, xf_diag *diag)
{
    Agraph_t *g = NULL;
    xf_doc *cat = xf_catalogue_load(NULL, diag);
    xf_doc *direct = cat ? xf_direct_load(NULL, diag) : NULL;
    xf_doc *doc = direct ? xf_read_file(a->in, NULL, diag) : NULL;
    if (doc && xf_dot_lcg_prepare(doc, cat, direct, diag) == 0)
        g = xf_dot_lcg(doc, o, diag);
    xf_doc_free(doc);
    xf_doc_free(direct);
    xf_doc_free(cat);
    return g;
}

int
xf_cmd_dot(int argc, char **argv)
{
    args a = {.o = {.max_lines = 24, .width = 80}};
    xf_pm_opts_init(&a.passes);
    bool help = false;
    int ret = parse(argc, argv, &a, &help);
    if (help) {
        fputs(usage, stdout);
        return XF_EXIT_OK;
    }
    if (ret != XF_EXIT_OK)
        return ret;
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag)
        return XF_EXIT_INTERNAL;
    Agraph_t *g = NULL;
    if (a.what == W_LCG)
        g = lcg(&a, &a.o, diag);
    else {
        xf_doc *doc = xf_read_file(a.in, NULL, diag);
        if (doc)
            switch (a.what) {
            case W_CALLGRAPH:
                g = xf_dot_callgraph(doc, &a.o, diag);
                break;
            case W_CFG:
                g = xf_dot_cfg(doc, &a.o, diag);
                break;
            case W_EXPRESSIONS:
                g = xf_dot_expressions(doc, &a.o, diag);
                break;
            case W_LCG:
                break;
            }
        xf_doc_free(doc);
    }
    /* one graphviz context for the process (see xf_dot_context) */
    GVC_t *gvc = g && !a.no_layout ? xf_dot_context(diag) : NULL;
    ret = g && (gvc || a.no_layout) && xf_dot_render(gvc, g, a.format, a.out, a.in, diag) == 0
              ? XF_EXIT_OK
              : XF_EXIT_INPUT;
    if (gvc)
        xf_gv()->gvFreeContext(gvc);
    if (g)
        xf_gv()->agclose(g);
    if (xf_diag_internal_errors(diag))
        ret = XF_EXIT_INTERNAL;
    xf_diag_free(diag);
    return ret;
}
