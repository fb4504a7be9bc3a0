/* fuzz_pipeline.c: libFuzzer target for the whole pipeline: read, the
 * tangent and the adjoint passes, write, read again.
 *
 * Each input is read from memory strictly (as `xaiform tangent` reads) and
 * run through the `tangent` pipeline; a fresh read of it goes through the
 * `adjoint` pipeline. A pass may refuse the input through diag (an input
 * error); a document whose passes all succeeded must be written, and the
 * written text must read again strictly: a document xaiform wrote must always
 * be readable. The elimination order of preaccumulate (best, forward,
 * reverse, Markowitz) is chosen from a hash of the input, separately for the
 * two pipelines, so that every order is fuzzed. An internal error (xf_diag_internal_errors), a
 * failed write, an unreadable output or any sanitizer report aborts. See tests/fuzz/README.md.
 *
 * With XF_FUZZ_OPTIONS=1 in the environment (the option-set mode, issue 26)
 * a third fresh read goes through the adjoint under one of the option sets
 * of opt_sets (the loop rules, the tape savings off, address recovery,
 * split reversal), chosen from the hash, so that the transforms behind the
 * options are fuzzed too. */
#include <libxml/parser.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "fuzz_fail.h"
#include "pass.h"
#include "passmgr.h"
#include "pipeline.h"
#include "read.h"
#include "write.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_PASSES = 32 };

/* Loaded once: the built-in catalogues and the two pipelines. The passes
 * only read the catalogues (ctx->catalogue is const). */
static xf_doc *catalogue, *direct;
static const xf_pass *tangent[MAX_PASSES], *adjoint[MAX_PASSES];
static int n_tangent, n_adjoint;

static void
quiet(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static void
die(const char *what, const xf_diag *diag)
{
    fprintf(stderr, "fuzz_pipeline: %s\n", what);
    for (size_t i = 0; diag && i < xf_diag_count(diag); i++)
        fprintf(stderr, "  %s\n", xf_diag_message(diag, i));
    abort();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    xmlInitParser();
    xmlSetGenericErrorFunc(NULL, quiet);
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag)
        abort();
    catalogue = xf_catalogue_load(NULL, diag);
    direct = catalogue ? xf_direct_load(NULL, diag) : NULL;
    if (!direct)
        die("the built-in catalogues do not load", diag);
    char err[300];
    n_tangent = xf_pipeline_parse("tangent", tangent, MAX_PASSES, err, sizeof err);
    n_adjoint = xf_pipeline_parse("adjoint", adjoint, MAX_PASSES, err, sizeof err);
    if (n_tangent < 0 || n_adjoint < 0)
        die(err, NULL);
    xf_diag_free(diag);
    return 0;
}

/* Report why a run broke, with the text it broke on, and abort. */
static void
fail(const char *what, const char *pipeline, const xf_diag *diag, const char *text, size_t len)
{
    fuzz_fail("fuzz_pipeline", what, pipeline, diag, text, len);
}

/* The option sets of the option-set mode: up to four NAME, ARG pairs (ARG
 * NULL for a flag), as xf_pm_option takes them. */
typedef struct opt_set {
    const char *opt[4][2];
} opt_set;

static const opt_set opt_sets[] = {
    {{{"loops", "auto"}}},
    {{{"reversal", "split"}, {"loops", "auto"}}},
    {{{"iteration-wise", NULL}, {"dry-run", NULL}}},
    {{{"iteration-wise-joint", NULL}, {"dry-run", NULL}, {"tape-off", "invert"}}},
    {{{"per-iteration-dry-run", NULL}}},
    {{{"tape-off", "all"}}},
    {{{"tape-off", "values,live"}, {"address-recovery", "store"}}},
    {{{"reversal", "split"}, {"per-iteration-dry-run", NULL}, {"tape-off", "cut"}}},
};

static void
transform(const uint8_t *data, size_t size, const char *name, const xf_pass *const *passes, int n,
          const char *elim, const opt_set *set)
{
    xf_diag *diag = xf_diag_new(NULL);
    if (!diag)
        abort();
    xf_doc *doc = xf_read_memory((const char *)data, size, "fuzz.xaif", NULL, diag);
    if (!doc) {
        if (xf_diag_internal_errors(diag))
            fail("internal error in the reader", name, diag, NULL, 0);
        xf_diag_free(diag);
        return;
    }
    xf_opts opts;
    xf_pm_opts_init(&opts);
    char err[200];
    if (xf_pm_option(&opts, "elimination", elim, err, sizeof err) != 0)
        fail(err, name, diag, NULL, 0);
    for (int k = 0; set && k < 4 && set->opt[k][0]; k++)
        if (xf_pm_option(&opts, set->opt[k][0], set->opt[k][1], err, sizeof err) != 0)
            fail(err, name, diag, NULL, 0);
    xf_pass_ctx ctx = {
        .doc = doc, .opts = &opts, .diag = diag, .catalogue = catalogue, .direct = direct};
    /* --verify-each: the IR is checked after the reader and after every
     * pass; a pass that leaves broken IR is an internal error, which aborts
     * even when the writer would cope with it */
    xf_pm_conf conf = {.verify_each = true};
    int rc = xf_pm_run(&ctx, passes, n, &conf);
    if (xf_diag_internal_errors(diag))
        fail("internal error in a pass", name, diag, NULL, 0);
    if (rc != 0) {
        xf_doc_free(doc);
        xf_diag_free(diag);
        return;
    }
    char *out = NULL;
    size_t len = 0;
    if (xf_write_memory(doc, &out, &len, diag) != 0)
        fail("a transformed document could not be written", name, diag, NULL, 0);
    xf_doc_free(doc);
    xf_diag_clear(diag);
    xf_doc *again = xf_read_memory(out, len, "written.xaif", NULL, diag);
    if (!again)
        fail("the written document does not read again", name, diag, out, len);
    xf_doc_free(again);
    free(out);
    xf_diag_free(diag);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const orders[] = {"best", "forward", "reverse", "markowitz"};
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    transform(data, size, "tangent", tangent, n_tangent, orders[h % 4], NULL);
    transform(data, size, "adjoint", adjoint, n_adjoint, orders[(h >> 2) % 4], NULL);
    static int with_options = -1;
    if (with_options < 0) {
        const char *e = getenv("XF_FUZZ_OPTIONS");
        with_options = e && *e && *e != '0';
    }
    if (with_options)
        transform(data, size, "adjoint with options", adjoint, n_adjoint, orders[(h >> 4) % 4],
                  &opt_sets[(h >> 6) % (sizeof opt_sets / sizeof opt_sets[0])]);
    return 0;
}
