/* stream.c: for every .xaif file under a folder, `tangent`, `adjoint` and
 * `adjoint --reversal joint` (whose deadstore pass asks whole-program call
 * facts) one routine in memory at a time (tools/stream.c) write what the
 * whole-document path writes, byte for byte, or both refuse the input; so
 * does `tangent` with every basic block of more than 1 (and 3) statements
 * made and written a piece of 1 (3) statements at a time (stream_block.h).
 * Prints one line per difference and a summary; exit 0 when all agree, 1
 * otherwise, 77 without a corpus. */
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalogue.h"
#include "passmgr.h"
#include "pipeline.h"
#include "read.h"
#include "stream.h"
#include "stream_block.h"
#include "walk.h"
#include "write.h"

typedef struct run {
    const xf_doc *cat, *direct;
    const char *tmp;   /* the streamed output */
    const char *label; /* how the streamed run differs, for messages */
    int runs, same, refused, differ;
} run;

/* The whole-document path: the output in *@out, or -1 (refused). */
static int
whole(run *r, const char *path, const xf_pass *const *passes, int n, xf_rev_template rev,
      char **out, size_t *len)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_opts o;
    xf_pm_opts_init(&o);
    o.reversal = rev;
    xf_doc *doc = xf_read_file(path, NULL, d);
    int ret = -1;
    if (doc && xf_pipeline_refuse_deriv(doc, d) == 0) {
        xf_pass_ctx ctx = {
            .doc = doc, .opts = &o, .diag = d, .catalogue = r->cat, .direct = r->direct};
        if (xf_pm_run(&ctx, passes, n, NULL) == 0 && xf_write_memory(doc, out, len, d) == 0)
            ret = 0;
    }
    xf_doc_free(doc);
    xf_diag_free(d);
    return ret;
}

static void
one(run *r, const char *path, const char *verb, xf_rev_template rev)
{
    const xf_pass *passes[XF_PM_MAX];
    char err[200];
    int n = xf_pipeline_parse(verb, passes, XF_PM_MAX, err, sizeof err);
    char *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    int ra = whole(r, path, passes, n, rev, &a, &la);
    xf_diag *d = xf_diag_new(NULL);
    xf_opts o;
    xf_pm_opts_init(&o);
    o.reversal = rev;
    xf_pass_ctx tmpl = {.opts = &o, .diag = d, .catalogue = r->cat, .direct = r->direct};
    unlink(r->tmp);
    int rb = xf_stream_transform(path, r->tmp, &tmpl, passes, n, NULL);
    if (rb == 0 && !(b = slurp(r->tmp, &lb)))
        rb = -2;
    r->runs++;
    if (ra != rb) {
        printf("DIFFER %s%s%s %s: whole %s, streamed %s (%s)\n", verb,
               rev == XF_REV_JOINT ? " --reversal joint" : "", r->label, path,
               ra ? "refuses" : "writes", rb ? "refuses" : "writes",
               xf_diag_message(d, 0) ? xf_diag_message(d, 0) : "");
        r->differ++;
    } else if (ra) {
        r->refused++;
    } else if (la != lb || memcmp(a, b, la) != 0) {
        printf("DIFFER %s%s%s %s: the outputs differ (%zu and %zu bytes)\n", verb,
               rev == XF_REV_JOINT ? " --reversal joint" : "", r->label, path, la, lb);
        r->differ++;
    } else {
        r->same++;
    }
    xf_diag_free(d);
    free(a);
    free(b);
}

static void
check_file(const char *path, void *arg)
{
    one(arg, path, "tangent", XF_REV_BOTH);
    one(arg, path, "adjoint", XF_REV_BOTH);
    one(arg, path, "adjoint", XF_REV_JOINT);
    run *r = arg;
    static const uint32_t sizes[] = {1, 3};
    static const char *const labels[] = {" (pieces of 1)", " (pieces of 3)"};
    for (int k = 0; k < 2; k++) {
        xf_stream_block_size(sizes[k]);
        r->label = labels[k];
        one(arg, path, "tangent", XF_REV_BOTH);
    }
    xf_stream_block_size(0);
    r->label = "";
}

int
main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: xaiform_stream_check CORPUS_DIR\n");
        return 2;
    }
    struct stat sb;
    if (stat(argv[1], &sb) != 0) {
        printf("corpus %s not found: not run\n", argv[1]);
        return 77;
    }
    char tmp[] = "/tmp/xf_stream_XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0)
        return 2;
    close(fd);
    xf_diag *d = xf_diag_new(stderr);
    xf_doc *cat = xf_catalogue_load(NULL, d), *direct = xf_direct_load(NULL, d);
    run r = {.cat = cat, .direct = direct, .tmp = tmp, .label = ""};
    if (cat && direct)
        walk(argv[1], check_file, &r);
    unlink(tmp);
    printf("streamed: %d runs, %d outputs equal byte for byte, %d refused by both, %d differ\n",
           r.runs, r.same, r.refused, r.differ);
    xf_doc_free(cat);
    xf_doc_free(direct);
    xf_diag_free(d);
    xmlCleanupParser();
    return r.differ || r.same == 0 ? 1 : 0;
}
