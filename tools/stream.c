/* stream.c: see stream.h. */
#include "stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pipeline.h"
#include "read.h"
#include "stream_adjoint.h"
#include "stream_block.h"
#include "write.h"

typedef struct job {
    xf_pass_ctx ctx;
    xf_pm_stream pm;
    const xf_pass *const *passes;
    int n;
    bool begun;
    xf_wstream *ws;
} job;

static int
begin(job *j, xf_doc *doc)
{
    if (j->begun)
        return 0;
    j->begun = true;
    j->ctx.doc = doc;
    return xf_pm_stream_begin(&j->pm, &j->ctx, j->passes, j->n);
}

/* The first reading: whole-program facts. */
static int
scan(void *ctx, xf_doc *doc, xf_routine *rt)
{
    job *j = ctx;
    return begin(j, doc) || xf_pm_stream_scan(&j->pm, rt) ? -1 : 0;
}

/* The second: transform and write. */
static int
routine(void *ctx, xf_doc *doc, xf_routine *rt)
{
    (void)doc;
    job *j = ctx;
    if (xf_stream_adjoint_wanted(&j->pm, rt))
        return xf_stream_adjoint_routine(&j->pm, rt, j->ws);
    if (xf_stream_block_wanted(&j->pm, rt))
        return xf_stream_block_routine(&j->pm, rt, j->ws);
    return xf_pm_stream_routine(&j->pm, rt) || xf_wstream_routine(j->ws, rt) ? -1 : 0;
}

static int
edge(void *ctx, xf_doc *doc, const xf_cgedge *e)
{
    (void)doc;
    job *j = ctx;
    return xf_wstream_edge(j->ws, e);
}

int
xf_stream_transform(const char *in, const char *out, const xf_pass_ctx *tmpl,
                    const xf_pass *const *passes, int n, xf_stream_stats *st)
{
    job j = {.ctx = *tmpl};
    j.ctx.doc = NULL;
    j.passes = passes;
    j.n = n;
    xf_read_sink first = {.ctx = &j, .routine = scan};
    xf_doc *doc = xf_read_stream(in, NULL, j.ctx.diag, &first);
    int ret = doc ? 0 : -1;
    if (!ret && (xf_pipeline_refuse_deriv(doc, j.ctx.diag) || begin(&j, doc)))
        ret = -1;
    if (!ret && !(j.ws = xf_wstream_new(doc, j.ctx.diag)))
        ret = -1;
    xf_read_sink second = {.ctx = &j, .routine = routine, .edge = edge};
    if (!ret)
        ret = xf_read_stream_again(doc, in, j.ctx.diag, &second);
    if (!ret)
        ret = xf_wstream_finish(j.ws, out);
    if (st && doc)
        *st = (xf_stream_stats){.routine_peak = second.routine_peak,
                                .global = xf_arena_used(doc->arena),
                                .routines = second.routines};
    if (j.begun)
        xf_pm_stream_end(&j.pm);
    xf_wstream_free(j.ws);
    xf_doc_free(doc);
    return ret;
}

/* Does file @in hold a BasicBlock of more than XF_STREAM_PROBE_ELEMENTS
 * elements (statements, expression vertices and edges, references)? One
 * pass over the bytes, a megabyte at a time. */
static bool
heavy_block(const char *in)
{
    static const char open[] = "<xaif:BasicBlock", close[] = "</xaif:BasicBlock";
    enum { CHUNK = 1 << 20, CARRY = sizeof close };
    FILE *f = fopen(in, "rb");
    char *buf = f ? malloc(CHUNK + CARRY) : NULL;
    bool inside = false, heavy = false;
    uint64_t count = 0;
    size_t have = 0, got;
    while (buf && !heavy && (got = fread(buf + have, 1, CHUNK, f)) > 0) {
        size_t len = have + got, i = 0;
        bool last = got < CHUNK;
        for (; i < len; i++) {
            if (buf[i] != '<')
                continue;
            if (!last && len - i < CARRY)
                break; /* the tag's name may go on in the next chunk */
            if (len - i >= sizeof open - 1 && !memcmp(buf + i, open, sizeof open - 1)) {
                inside = true;
                count = 0;
            } else if (len - i >= sizeof close - 1 && !memcmp(buf + i, close, sizeof close - 1))
                inside = false;
            else if (inside && i + 1 < len && buf[i + 1] != '/' &&
                     ++count > XF_STREAM_PROBE_ELEMENTS) {
                heavy = true;
                break;
            }
        }
        have = i < len ? len - i : 0;
        memmove(buf, buf + i, have);
    }
    free(buf);
    if (f)
        fclose(f);
    return heavy;
}

bool
xf_stream_wanted(const char *when, const char *in)
{
    if (!when || !strcmp(when, "auto")) {
        struct stat st;
        if (!strcmp(in, "-") || stat(in, &st) != 0 || !S_ISREG(st.st_mode))
            return false;
        unsigned long long size = (unsigned long long)st.st_size;
        return size >= XF_STREAM_AUTO_BYTES || (size >= XF_STREAM_PROBE_BYTES && heavy_block(in));
    }
    return !strcmp(when, "always");
}
