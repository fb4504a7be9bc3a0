/* cmd_oad.c: xaifBooster's driver command line, for OpenAD's scripts:
 * `xaiform oad-driver --algorithm ALG ARGS...`, and xaiform started as
 * .../ALG/driver/oadDriver (a symbolic link; see xf_oad_algorithm). ALG is
 * BasicBlockPreaccumulation (the tangent) or BasicBlockPreaccumulationReverse
 * (the adjoint). The switches are xaifBooster's, parsed as its
 * CommandLineParser does: '-' and one or more letters, then optionally one
 * word (not starting with '-') that is the value of the last letter;
 * docs/oad-driver.md has the table of what each one does here. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "outfile.h"
#include "output.h"
#include "pipeline.h"
#include "read.h"
#include "schema.h"

enum { TLM = 1, ADM = 2, BOTH = 3 };

typedef struct oad_switch {
    char c;
    unsigned char drivers; /* TLM, ADM: the drivers of xaifBooster that have it */
    bool value;            /* takes a value */
    const char *note;      /* NULL: done as xaifBooster does; else why it changes nothing */
} oad_switch;

/* ORDER: as docs/oad-driver.md's table */
static const oad_switch switches[] = {
    {'i', BOTH, true, NULL},
    {'o', BOTH, true, NULL},
    {'c', BOTH, true,
     "read and checked; the transform uses xaiform's built-in catalogue, which agrees with "
     "it on what xaifBooster reads (docs/oad-driver.md)"},
    {'s', BOTH, true, NULL},
    {'N', BOTH, true, NULL},
    {'d', BOTH, true, NULL},
    {'g', BOTH, true, "xaifBooster's debug groups; xaiform prints errors and notes only"},
    {'G', BOTH, true, "xaifBooster's debugging graphics format ('xaiform dot' draws graphs)"},
    {'B', BOTH, true, "xaifBooster's SVG viewer for debugging graphics"},
    {'T', BOTH, true, "xaifBooster's debug tags"},
    {'p', BOTH, true,
     "xaiform passivates no variable by name: they keep the activity the front end gave them"},
    {'b', BOTH, false, "xaiform's assumptions about routines it cannot see are its own"},
    {'v', BOTH, false, NULL},
    {'V', BOTH, false,
     "xaiform always writes all that -V adds (side-effect lists, every alias and du-ud entry)"},
    {'D', BOTH, false, "xaiform adds no block that initializes derivative components"},
    {'F', BOTH, true, "xaiform reads the front end's names as they are written"},
    {'h', BOTH, false, NULL},
    {'w', BOTH, true, "xaiform has no hand-written wrappers: every call is differentiated"},
    {'r', BOTH, false, NULL},
    {'n', BOTH, false, "xaiform writes Sax/Saxpy as its preaccumulation chose them"},
    {'C', BOTH, false, "xaiform inserts no run-time counters ('xaiform run --stats' counts)"},
    {'A', BOTH, true, "xaiform's elimination heuristics are its own (xaiform tangent -e)"},
    {'m', BOTH, false, "xaiform's elimination heuristics are its own (xaiform tangent -e)"},
    {'Q', BOTH, false, "xaiform's alias checks are its own"},
    {'a', BOTH, false, "xaiform's elimination heuristics are its own (xaiform tangent -e)"},
    {'H', BOTH, false, "xaiform writes derivative propagators as propagators"},
    {'M', BOTH, true, "xaiform's elimination heuristics are its own (xaiform tangent -e)"},
    {'R', BOTH, false, "xaiform's elimination heuristics are its own (xaiform tangent -e)"},
    {'S', BOTH, false, "xaiform's preaccumulation sequences are its own"},
    {'I', ADM, false, NULL},
    {'u', ADM, false, "xaiform's treatment of simple loops is its own"},
    {'U', ADM, false, "xaiform's treatment of simple loops is its own"},
    {'t', ADM, true, "xaiform's treatment of simple loops is its own"},
    {'f', ADM, false, "where checkpoints are stored is OpenAD's run-time support's choice"},
    {'P', ADM, false, "xaiform's argument checkpoints (placeholders 4 and 6) are its own choice"},
};

static const struct {
    const char *name;
    unsigned char driver;
    const char *pipeline;
} algorithms[] = {
    {"BasicBlockPreaccumulation", TLM, "tangent"},
    {"BasicBlockPreaccumulationReverse", ADM, "adjoint"},
};

static const char usage_text[] =
    "usage: %s -i IN.xaif -c CATALOGUE [-o OUT.xaif] [switches]\n"
    "       xaiform oad-driver --algorithm ALG -i IN.xaif ... (the same)\n"
    "\n"
    "xaifBooster's driver command line, answered by xaiform. ALG (the folder\n"
    "two above the program, ALG/driver/oadDriver) is BasicBlockPreaccumulation\n"
    "(the tangent: 'xaiform tangent') or BasicBlockPreaccumulationReverse (the\n"
    "adjoint: 'xaiform adjoint'). Switches are xaifBooster's: a '-' and one or\n"
    "more letters, the last of which may take the next word as its value.\n"
    "\n"
    "  -i FILE   the input (required)\n"
    "  -o FILE   the output (default: standard output)\n"
    "  -c FILE   OpenAD's inlinable intrinsics catalogue: read and checked; the\n"
    "            transform uses xaiform's built-in one\n"
    "  -N FILE   the non-inlinable intrinsics catalogue (default: built in)\n"
    "  -s PATH   the folder of OpenAD's xaif schema: -v validates against\n"
    "            PATH/xaif.xsd, the output names PATH/xaif_output.xsd\n"
    "  -v        validate the input against the schema (default: the built-in one)\n"
    "  -r        rename every routine the input defines to PREFIX+name (OpenAD_)\n"
    "  -I        (adjoint) every argument intent(inout)\n"
    "  -d FILE   write messages to FILE instead of standard error\n"
    "  -h        this text\n"
    "\n"
    "Accepted with a note on standard error, changing nothing: -g -G -B -T -p -b\n"
    "-V -D -F -w -n -C -A -m -Q -a -H -M -R -S and, for the adjoint, -u -U -t -f -P.\n"
    "Any other switch is a usage error. Exit status: 0 success, 1 input error,\n"
    "2 usage error, 3 internal error. See docs/oad-driver.md.\n";

typedef struct oad_args {
    const char *prog; /* for messages: argv[0] as given, or "xaiform oad-driver" */
    const char *val[128];
    bool set[128];
} oad_args;

static int oad_usage_error(const char *prog, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int
oad_usage_error(const char *prog, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s -h'.\n", prog);
    return XF_EXIT_USAGE;
}

static const oad_switch *
find_switch(char c)
{
    for (size_t i = 0; i < sizeof switches / sizeof switches[0]; i++)
        if (switches[i].c == c)
            return &switches[i];
    return NULL;
}

/* Parse argv[1..] as xaifBooster's CommandLineParser does. */
static int
parse(oad_args *a, unsigned driver, const char *alg, int argc, char **argv)
{
    for (int i = 1; i < argc;) {
        const char *w = argv[i++];
        if (!strcmp(w, "--help")) {
            a->set['h'] = true;
            continue;
        }
        if (w[0] != '-')
            return oad_usage_error(a->prog, "'%s' is not preceded by a switch", w);
        if (!w[1])
            return oad_usage_error(a->prog, "'-' without a switch letter");
        const char *value = NULL;
        if (i < argc && argv[i][0] != '-')
            value = argv[i++];
        for (const char *p = w + 1; *p; p++) {
            unsigned char c = (unsigned char)*p;
            const oad_switch *s = find_switch((char)c);
            if (!s)
                return oad_usage_error(a->prog,
                                       "unknown switch -%c: xaifBooster's %s driver has none",
                                       c >= ' ' && c < 127 ? c : '?', alg);
            if (!(s->drivers & driver))
                return oad_usage_error(
                    a->prog, "switch -%c belongs to xaifBooster's adjoint driver, not to %s", c,
                    alg);
            if (a->set[c])
                return oad_usage_error(a->prog, "switch -%c given twice", c);
            bool last = !p[1];
            a->set[c] = true;
            a->val[c] = last ? value : NULL;
            if (s->value && !a->val[c])
                return oad_usage_error(a->prog, "switch -%c needs a value", c);
            if (!s->value && last && value)
                return oad_usage_error(a->prog, "switch -%c takes no value ('%s')", c, value);
        }
    }
    return XF_EXIT_OK;
}

/* A value that xaifBooster reads as an integer. */
static bool
is_int(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return *s && !*end && !errno && v >= 0;
}

/* The output names OpenAD's output schema, as xaifBooster's does: the
 * namespace of the input's xsi:schemaLocation and xaif_output.xsd (in
 * @schema_path when given). */
static void
set_schema_location(xf_doc *doc, const char *schema_path)
{
    xf_extra *x = doc->cg.h.extra;
    for (uint32_t i = 0; x && i < x->attrs.n; i++) {
        xf_attr *at = &x->attrs.v[i];
        if (strcmp(at->name, "schemaLocation"))
            continue;
        char buf[4096];
        size_t ns = strcspn(at->value, " \t\n");
        snprintf(buf, sizeof buf, "%.*s %s%sxaif_output.xsd", (int)ns, at->value,
                 schema_path ? schema_path : "", schema_path ? "/" : "");
        const char *v = xf_intern(doc, buf);
        if (v)
            at->value = v;
    }
}

static int
validate(const char *in, const char *schema_path, xf_diag *diag)
{
    char xsd[PATH_MAX];
    if (schema_path &&
        (size_t)snprintf(xsd, sizeof xsd, "%s/xaif.xsd", schema_path) >= sizeof xsd) {
        xf_error(diag, schema_path, 0, "path too long");
        return -1;
    }
    xf_schema *s = xf_schema_load(schema_path ? xsd : NULL, diag);
    int r = s ? xf_schema_validate_file(s, in, true, diag) : -1;
    xf_schema_free(s);
    return r == 0 ? 0 : -1;
}

static int
transform(const oad_args *a, const char *pipeline, bool adjoint, FILE *msgs)
{
    const char *in = a->val['i'], *out = a->set['o'] ? a->val['o'] : "-";
    const char *schema_path = a->set['s'] ? a->val['s'] : NULL;
    for (size_t i = 0; i < sizeof switches / sizeof switches[0]; i++)
        if (switches[i].note && a->set[(unsigned char)switches[i].c])
            fprintf(msgs, "%s: note: -%c changes nothing here: %s\n", a->prog, switches[i].c,
                    switches[i].note);
    if (a->set['g'] && !is_int(a->val['g']))
        return oad_usage_error(a->prog, "-g takes a number, not '%s'", a->val['g']);
    char plist[128];
    snprintf(plist, sizeof plist, "%s%s%s", a->set['r'] ? "rename," : "", pipeline,
             adjoint && a->set['I'] ? ",inout" : "");
    const xf_pass *passes[32];
    char err[300];
    int n = xf_pipeline_parse(plist, passes, 32, err, sizeof err);
    if (n < 0) {
        fprintf(msgs, "%s: error: internal error at %s:%d: %s\n", a->prog, __FILE__, __LINE__, err);
        return XF_EXIT_INTERNAL;
    }
    xf_diag *diag = xf_diag_new(msgs);
    if (!diag)
        return XF_EXIT_INTERNAL;
    /* the catalogues and the schema are inputs too (the writer refuses -i) */
    for (const char *k = "cNs"; *k; k++) {
        const char *other = a->val[(unsigned char)*k];
        if (a->set[(unsigned char)*k] && strcmp(out, "-") != 0 && xf_outfile_same(out, other)) {
            xf_error(diag, out, 0, "the output is the input file %s; it is not overwritten", other);
            xf_diag_free(diag);
            return XF_EXIT_INPUT;
        }
    }
    int ret = XF_EXIT_INPUT;
    xf_opts o;
    xf_pm_opts_init(&o);
    xf_doc *given = a->set['c'] ? xf_catalogue_load(a->val['c'], diag) : NULL;
    xf_doc *cat = !a->set['c'] || given ? xf_catalogue_load(NULL, diag) : NULL;
    xf_doc *direct = cat ? xf_direct_load(a->set['N'] ? a->val['N'] : NULL, diag) : NULL;
    bool valid = direct && (!a->set['v'] || validate(in, schema_path, diag) == 0);
    xf_doc *doc = valid ? xf_read_file(in, NULL, diag) : NULL;
    if (doc && xf_pipeline_refuse_deriv(doc, diag) == 0) {
        xf_pass_ctx ctx = {
            .doc = doc, .opts = &o, .diag = diag, .catalogue = cat, .direct = direct};
        if (xf_pipeline_run(&ctx, passes, n) == 0) {
            set_schema_location(doc, schema_path);
            xf_output_opts oo = {0};
            if (xf_output_write(doc, out, &oo, diag) == 0)
                ret = XF_EXIT_OK;
        }
    }
    if (xf_diag_internal_errors(diag))
        ret = XF_EXIT_INTERNAL;
    xf_doc_free(doc);
    xf_doc_free(given);
    xf_doc_free(cat);
    xf_doc_free(direct);
    xf_diag_free(diag);
    return ret;
}

/* Run as xaifBooster's driver of algorithm @alg; argv[1..] are its switches. */
static int
oad_main(const char *prog, const char *alg, int argc, char **argv)
{
    size_t k = 0;
    while (k < sizeof algorithms / sizeof algorithms[0] &&
           (!alg || strcmp(alg, algorithms[k].name)))
        k++;
    if (k == sizeof algorithms / sizeof algorithms[0])
        return oad_usage_error(
            prog,
            "%s%s%s: xaiform answers for the algorithms BasicBlockPreaccumulation "
            "(tangent) and BasicBlockPreaccumulationReverse (adjoint) only",
            alg ? "unknown algorithm '" : "cannot tell the algorithm", alg ? alg : "",
            alg ? "'" : " from the program's path");
    oad_args a = {.prog = prog};
    int r = parse(&a, algorithms[k].driver, alg, argc, argv);
    if (r != XF_EXIT_OK)
        return r;
    if (a.set['h']) {
        printf(usage_text, prog);
        return XF_EXIT_OK;
    }
    if (!a.set['i'])
        return oad_usage_error(prog, "-i IN.xaif is needed");
    FILE *msgs = stderr;
    if (a.set['d'] && !(msgs = fopen(a.val['d'], "w"))) {
        fprintf(stderr, "%s: error: cannot write: %s\n", a.val['d'], strerror(errno));
        return XF_EXIT_INPUT;
    }
    r = transform(&a, algorithms[k].pipeline, algorithms[k].driver == ADM, msgs);
    if (msgs != stderr && fclose(msgs) != 0 && r == XF_EXIT_OK) {
        fprintf(stderr, "%s: error: cannot write: %s\n", a.val['d'], strerror(errno));
        r = XF_EXIT_INPUT;
    }
    return r;
}

/* The last component of @path. */
static const char *
base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* @path's component @up above its last one (0: the folder it is in), into @buf. */
static const char *
component_above(const char *path, int up, char *buf, size_t len)
{
    size_t end = strlen(path);
    for (int i = 0; i <= up; i++) {
        while (end > 0 && path[end - 1] != '/')
            end--;
        if (end == 0)
            return NULL;
        while (end > 0 && path[end - 1] == '/')
            end--;
    }
    size_t start = end;
    while (start > 0 && path[start - 1] != '/')
        start--;
    if (end == start || end - start >= len)
        return NULL;
    memcpy(buf, path + start, end - start);
    buf[end - start] = 0;
    return buf;
}

/* @name found in $PATH as the shell does, into @buf. */
static bool
search_path(const char *name, char *buf, size_t len)
{
    const char *p = getenv("PATH");
    while (p && *p) {
        size_t k = strcspn(p, ":");
        if (k && (size_t)snprintf(buf, len, "%.*s/%s", (int)k, p, name) < len &&
            access(buf, X_OK) == 0)
            return true;
        p += k + (p[k] == ':');
    }
    return false;
}

int
xf_oad_algorithm(const char *argv0, char *alg, size_t len)
{
    char path[PATH_MAX], next[PATH_MAX], dir[PATH_MAX];
    alg[0] = 0;
    if (!argv0 || !*argv0)
        return 0;
    if (!strchr(argv0, '/')) {
        if (!strcmp(argv0, "oadDriver") && !search_path(argv0, path, sizeof path))
            return 1; /* oadDriver, but from where cannot be told */
        if (strcmp(argv0, "oadDriver") && !search_path(argv0, path, sizeof path))
            return 0;
    } else if ((size_t)snprintf(path, sizeof path, "%s", argv0) >= sizeof path)
        return 0;
    /* argv[0], or a link on the way from it to the program (OpenAD's regression
     * scripts link ./xaifBooster to .../ALG/driver/oadDriver) */
    for (int depth = 0; depth < 16; depth++) {
        if (!strcmp(base_of(path), "oadDriver")) {
            char up[256];
            if (component_above(path, 0, up, sizeof up) && !strcmp(up, "driver") &&
                component_above(path, 1, alg, len))
                return 1;
            alg[0] = 0;
            return 1;
        }
        ssize_t n = readlink(path, next, sizeof next - 1);
        if (n <= 0)
            return 0;
        next[n] = 0;
        if (next[0] == '/') {
            memcpy(path, next, (size_t)n + 1);
            continue;
        }
        size_t d = strlen(path) - strlen(base_of(path));
        if (d + (size_t)n + 1 > sizeof dir)
            return 0;
        memcpy(dir, path, d);
        memcpy(dir + d, next, (size_t)n + 1);
        memcpy(path, dir, d + (size_t)n + 1);
    }
    return 0;
}

int
xf_cmd_oad_argv0(int argc, char **argv, const char *alg)
{
    return oad_main(argv[0], alg[0] ? alg : NULL, argc, argv);
}

int
xf_cmd_oad(int argc, char **argv)
{
    const char *prog = "xaiform oad-driver";
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf(usage_text, prog);
        return XF_EXIT_OK;
    }
    if (argc < 3 || strcmp(argv[1], "--algorithm"))
        return oad_usage_error(prog, "--algorithm ALG comes first (BasicBlockPreaccumulation or "
                                     "BasicBlockPreaccumulationReverse)");
    /* argv[2] stands for the program name xaifBooster's parser skips */
    return oad_main(prog, argv[2], argc - 2, argv + 2);
}
