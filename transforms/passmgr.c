/* passmgr.c: see passmgr.h. */
#include "passmgr.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "ir_check.h"
#include "write.h"

/* Debug builds check the IR after every pass, with or without --verify-each. */
#ifdef XF_VERIFY_ALWAYS
enum { verify_always = 1 };
#else
enum { verify_always = 0 };
#endif

/* ---------------------------------------------------------- pass lists */

/* Append pass or pipeline @name (@len bytes) to @out, pipelines expanded. */
static int
add(const char *name, size_t len, const xf_pass **out, int n, int max, char *err, size_t errlen,
    int depth)
{
    char buf[128];
    if (len == 0 || len >= sizeof buf) {
        snprintf(err, errlen, "an empty or too long pass name");
        return -1;
    }
    memcpy(buf, name, len);
    buf[len] = 0;
    const char *pipe = xf_pipeline_expand(buf);
    if (pipe && depth < 4) {
        for (const char *p = pipe; *p;) {
            size_t k = strcspn(p, ",");
            n = add(p, k, out, n, max, err, errlen, depth + 1);
            if (n < 0)
                return -1;
            p += k + (p[k] == ',');
        }
        return n;
    }
    const xf_pass *pass = xf_pass_find(buf);
    if (!pass) {
        snprintf(err, errlen, "no pass or pipeline named '%s' (xaiform passes --list)", buf);
        return -1;
    }
    if (n == max) {
        snprintf(err, errlen, "too many passes");
        return -1;
    }
    out[n++] = pass;
    return n;
}

/* Is a pass named @name among @out[0..@n)? */
static bool
listed(const xf_pass *const *out, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(out[i]->name, name))
            return true;
    return false;
}

int
xf_pipeline_check(const xf_pass *const *out, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        const xf_pass *p = out[i];
        if (p->once && listed(out, i, p->name)) {
            snprintf(err, errlen, "%s: listed twice; a pass of this kind runs once", p->name);
            return -1;
        }
        for (const char *const *a = p->after; a && *a; a++)
            if (!listed(out, i, *a)) {
                snprintf(err, errlen, "%s: needs %s, which the list does not have before it",
                         p->name, *a);
                return -1;
            }
        for (const char *const *b = p->before; b && *b; b++)
            if (listed(out, i, *b)) {
                snprintf(err, errlen, "%s: runs before %s, which the list has before it", p->name,
                         *b);
                return -1;
            }
    }
    return 0;
}

int
xf_pipeline_parse(const char *list, const xf_pass **out, int max, char *err, size_t errlen)
{
    int n = 0;
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, ",");
        n = add(p, k, out, n, max, err, errlen, 0);
        if (n < 0)
            return -1;
        p += k + (p[k] == ',');
    }
    if (n == 0) {
        snprintf(err, errlen, "no passes");
        return -1;
    }
    return xf_pipeline_check(out, n, err, errlen) == 0 ? n : -1;
}

/* ------------------------------------------------------------- options */

const xf_pass_opt *
xf_pm_option_at(size_t k, const xf_pass **owner)
{
    for (const xf_pass *const *p = xf_passes; *p; p++)
        for (const xf_pass_opt *o = (*p)->opts; o && o->name; o++)
            if (k-- == 0) {
                if (owner)
                    *owner = *p;
                return o;
            }
    return NULL;
}

const xf_pass_opt *
xf_pm_option_find(const char *name, const xf_pass **owner)
{
    const xf_pass_opt *o;
    for (size_t k = 0; (o = xf_pm_option_at(k, owner)); k++)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

int
xf_pm_option(xf_opts *o, const char *name, const char *arg, char *err, size_t len)
{
    const xf_pass *owner = NULL;
    const xf_pass_opt *opt = xf_pm_option_find(name, &owner);
    if (!opt) {
        snprintf(err, len, "no pass has an option --%s", name);
        return -1;
    }
    if (!opt->arg != !arg) {
        snprintf(err, len, "--%s %s", name, arg ? "takes no argument" : "needs an argument");
        return -1;
    }
    return opt->parse(o, xf_pass_own(o, owner), arg, err, len);
}

const char *
xf_pm_option_show(const xf_opts *o, const char *name)
{
    const xf_pass *owner = NULL;
    const xf_pass_opt *opt = xf_pm_option_find(name, &owner);
    return opt && opt->show ? opt->show(o, xf_pass_own_c(o, owner)) : NULL;
}

int
xf_pm_option_text(xf_opts *o, const char *text, char *err, size_t len)
{
    char name[128];
    const char *eq = strchr(text, '=');
    size_t n = eq ? (size_t)(eq - text) : strlen(text);
    if (n == 0 || n >= sizeof name) {
        snprintf(err, len, "not NAME or NAME=VALUE");
        return -1;
    }
    memcpy(name, text, n);
    name[n] = 0;
    return xf_pm_option(o, name, eq ? eq + 1 : NULL, err, len);
}

void
xf_pm_opts_init(xf_opts *o)
{
    memset(o, 0, sizeof *o);
    o->reversal = XF_REV_BOTH;
    for (const xf_pass *const *p = xf_passes; *p; p++)
        if ((*p)->own_init)
            (*p)->own_init(xf_pass_own(o, *p));
}

void
xf_pm_list(FILE *out)
{
    for (const xf_pass *const *p = xf_passes; *p; p++) {
        const xf_pass *ps = *p;
        fprintf(out, "%-14s %s\n", ps->name, ps->summary);
        fprintf(out, "%-14s needs: ", "");
        if (!ps->after || !ps->after[0])
            fputs("nothing", out);
        for (const char *const *a = ps->after; a && *a; a++)
            fprintf(out, "%s%s", a == ps->after ? "" : ", ", *a);
        for (const char *const *b = ps->before; b && *b; b++)
            fprintf(out, "%s%s", b == ps->before ? "; runs before: " : ", ", *b);
        fprintf(out, "%s; breaks: %s; %s\n", ps->once ? "; runs once" : "",
                ps->breaks ? ps->breaks : "nothing",
                ps->run_routine ? "per routine" : "per document");
        if (ps->promise)
            fprintf(out, "%-14s promises (--verify-each): %s\n", "", ps->promise);
        for (const xf_pass_opt *o = ps->opts; o && o->name; o++) {
            char head[80];
            snprintf(head, sizeof head, "%s%c%s--%s%s%s", o->letter ? "-" : "",
                     o->letter ? o->letter : ' ', o->letter ? ", " : "  ", o->name,
                     o->arg ? " " : "", o->arg ? o->arg : "");
            fprintf(out, "%-14s option %s\n", "", o->letter ? head : head + 2);
        }
    }
    fprintf(out, "\npipelines:\n");
    for (size_t k = 0; xf_pipeline_name(k); k++)
        fprintf(out, "  %s = %s\n", xf_pipeline_name(k), xf_pipeline_expand(xf_pipeline_name(k)));
}

int
xf_pm_conf_check(const xf_pm_conf *conf, const xf_pass *const *passes, int n, char *err, size_t len)
{
    if (!conf || !conf->dump_after || !strcmp(conf->dump_after, "all"))
        return 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(passes[i]->name, conf->dump_after))
            return 0;
    snprintf(err, len, "--dump-after %s: no such pass in the list (", conf->dump_after);
    for (int i = 0; i < n; i++) {
        size_t at = strlen(err);
        snprintf(err + at, len - at, "%s%s", i ? ", " : "", passes[i]->name);
    }
    size_t at = strlen(err);
    snprintf(err + at, len - at, ", or all)");
    return -1;
}

/* ------------------------------------------------------------- running */

/* What --time-passes shows of one pass. */
typedef struct meter {
    double ms;
    size_t doc_before, doc_after, scratch_peak;
    long rss_kib; /* the process's peak resident size so far */
} meter;

static double
now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static long
peak_rss_kib(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_maxrss : 0;
}

static void
time_row(FILE *out, const char *name, const meter *m)
{
    fprintf(out, "%-14s %10.3f %10zu %+10lld %12zu %12ld\n", name, m->ms, m->doc_after / 1024,
            ((long long)m->doc_after - (long long)m->doc_before) / 1024, m->scratch_peak / 1024,
            m->rss_kib);
}

/* Check @ctx->doc but @skip; a violation becomes an internal error naming @when. */
static int
verify(xf_pass_ctx *ctx, unsigned skip, const char *when)
{
    xf_diag *d = xf_diag_new(NULL);
    if (!d) {
        xf_internal(ctx->diag, "out of memory");
        return -1;
    }
    int ret = xf_ir_check_some(ctx->doc, skip, d);
    if (ret != 0) {
        /* "FILE:LINE: error: what" -> "FILE:LINE: what" after the pass's name */
        const char *msg = xf_diag_message(d, 0) ? xf_diag_message(d, 0) : "the IR is broken";
        const char *e = strstr(msg, "error: ");
        xf_diag_report(ctx->diag, XF_INTERNAL, NULL, 0, "%s: %.*s%s", when, e ? (int)(e - msg) : 0,
                       msg, e ? e + 7 : msg);
    }
    xf_diag_free(d);
    return ret;
}

/* Check what pass @p promised (its verify); a broken promise becomes an
 * internal error naming the pass and the promise. */
static int
verify_promise(xf_pass_ctx *ctx, const xf_pass *p)
{
    if (!p->verify)
        return 0;
    xf_diag *d = xf_diag_new(NULL), *keep = ctx->diag;
    if (!d) {
        xf_internal(ctx->diag, "out of memory");
        return -1;
    }
    ctx->diag = d;
    int ret = p->verify(ctx);
    ctx->diag = keep;
    if (ret != 0) {
        const char *msg = xf_diag_message(d, 0) ? xf_diag_message(d, 0) : "broken";
        const char *e = strstr(msg, "error: ");
        xf_diag_report(ctx->diag, XF_INTERNAL, NULL, 0, "after pass %s: it promises %s: %.*s%s",
                       p->name, p->promise ? p->promise : "more", e ? (int)(e - msg) : 0, msg,
                       e ? e + 7 : msg);
    }
    xf_diag_free(d);
    return ret;
}

static int
dump(xf_pass_ctx *ctx, const xf_pass *p, const xf_pm_conf *conf)
{
    if (!conf->dump_base || !strcmp(conf->dump_base, "-")) {
        char *text = NULL;
        size_t len = 0;
        if (xf_write_memory(ctx->doc, &text, &len, ctx->diag) != 0)
            return -1;
        fprintf(stderr, "<!-- xaiform: the IR after pass %s -->\n", p->name);
        fwrite(text, 1, len, stderr);
        free(text);
        return 0;
    }
    size_t n = strlen(conf->dump_base) + strlen(p->name) + 8;
    char *path = malloc(n);
    if (!path) {
        xf_internal(ctx->diag, "out of memory");
        return -1;
    }
    snprintf(path, n, "%s.%s.xaif", conf->dump_base, p->name);
    int ret = xf_write_file(ctx->doc, path, ctx->diag);
    free(path);
    return ret;
}

/* @ret, or -1 with "out of memory" when the document's or the scratch
 * arena refused a request that the pass did not report (an unchecked
 * push would otherwise leave a result with a piece missing). */
static int
arenas_ok(xf_pass_ctx *ctx, int ret)
{
    if (ret == 0 && (xf_arena_failed(ctx->doc->arena) || xf_arena_failed(ctx->scratch)))
        return xf_pass_oom(ctx);
    return ret;
}

/* Run @p over @ctx->doc: once, or per routine with a fresh scratch arena. */
static int
run_pass(xf_pass_ctx *ctx, const xf_pass *p, size_t *scratch_peak)
{
    if (!p->run_routine)
        return arenas_ok(ctx, p->run(ctx));
    xf_doc *doc = ctx->doc;
    ctx->state = NULL;
    int ret = p->begin ? p->begin(ctx) : 0;
    for (uint32_t r = 0; !ret && p->scan && r < doc->cg.routines.n; r++)
        ret = p->scan(ctx, doc->cg.routines.v[r]);
    for (uint32_t r = 0; !ret && r < doc->cg.routines.n; r++) {
        ctx->scratch = xf_arena_new();
        if (!ctx->scratch) {
            ret = xf_pass_oom(ctx);
            break;
        }
        if (ctx->fail_scratch > 0)
            xf_arena_fail_after(ctx->scratch, ctx->fail_scratch - 1);
        if (ctx->fail_private > 0)
            xf_arena_fail_kids(ctx->scratch, ctx->fail_private - 1);
        ret = p->run_routine(ctx, doc->cg.routines.v[r]);
        ret = arenas_ok(ctx, ret);
        size_t used = xf_arena_reserved(ctx->scratch);
        if (used > *scratch_peak)
            *scratch_peak = used;
        xf_arena_free(ctx->scratch);
        ctx->scratch = NULL;
    }
    if (p->end)
        p->end(ctx);
    ctx->state = NULL;
    return ret;
}

/* ------------------------------------------------ one routine at a time */

static bool
idle(const xf_pass *p, const xf_opts *o)
{
    return p->idle && o && p->idle(o);
}

bool
xf_pm_streams(const xf_pass *const *passes, int n, const xf_pm_conf *conf, const xf_opts *o)
{
    if (conf && (conf->verify_each || conf->time_passes || conf->dump_after))
        return false;
    for (int i = 0; i < n; i++)
        if ((!passes[i]->run_routine || passes[i]->needs_document) && !idle(passes[i], o))
            return false;
    return true;
}

int
xf_pm_stream_begin(xf_pm_stream *s, xf_pass_ctx *ctx, const xf_pass *const *passes, int n)
{
    *s = (xf_pm_stream){.ctx = ctx};
    for (int i = 0; i < n && s->n < XF_PM_MAX; i++)
        if (!idle(passes[i], ctx->opts))
            s->passes[s->n++] = passes[i];
    for (int i = 0; i < s->n; i++) {
        ctx->state = NULL;
        int ret = s->passes[i]->begin ? s->passes[i]->begin(ctx) : 0;
        s->state[i] = ctx->state;
        s->begun = i + 1;
        if (ret)
            return -1;
    }
    return 0;
}

int
xf_pm_stream_scan(xf_pm_stream *s, const xf_routine *rt)
{
    for (int i = 0; i < s->n; i++) {
        if (!s->passes[i]->scan)
            continue;
        s->ctx->state = s->state[i];
        int ret = s->passes[i]->scan(s->ctx, rt);
        s->state[i] = s->ctx->state;
        if (ret)
            return -1;
    }
    return 0;
}

int
xf_pm_stream_routine(xf_pm_stream *s, xf_routine *rt)
{
    xf_pass_ctx *ctx = s->ctx;
    for (int i = 0; i < s->n; i++) {
        ctx->state = s->state[i];
        if (!s->scratch && !(s->scratch = xf_arena_new()))
            return xf_pass_oom(ctx);
        if (ctx->fail_scratch > 0)
            xf_arena_fail_after(s->scratch, ctx->fail_scratch - 1);
        if (ctx->fail_private > 0)
            xf_arena_fail_kids(s->scratch, ctx->fail_private - 1);
        ctx->scratch = s->scratch;
        int ret = arenas_ok(ctx, s->passes[i]->run_routine(ctx, rt));
        if (xf_arena_failed(s->scratch)) {
            xf_arena_free(s->scratch);
            s->scratch = NULL;
        } else
            xf_arena_reset(s->scratch);
        ctx->scratch = NULL;
        s->state[i] = ctx->state;
        if (ret) {
            if (!xf_diag_errors(ctx->diag))
                xf_error(ctx->diag, ctx->doc->filename, rt->h.line, "pass %s failed",
                         s->passes[i]->name);
            return -1;
        }
    }
    return 0;
}

void
xf_pm_stream_end(xf_pm_stream *s)
{
    for (int i = 0; i < s->begun; i++)
        if (s->passes[i]->end) {
            s->ctx->state = s->state[i];
            s->passes[i]->end(s->ctx);
        }
    s->begun = 0;
    s->ctx->state = NULL;
    xf_arena_free(s->scratch);
    s->scratch = NULL;
}

int
xf_pm_run(xf_pass_ctx *ctx, const xf_pass *const *passes, int n, const xf_pm_conf *conf)
{
    static const xf_pm_conf none = {0};
    if (!conf)
        conf = &none;
    bool check = conf->verify_each || verify_always;
    /* The reader guarantees references and expression graphs, not the shape
     * of control flow: xaif may have gotos, unreachable blocks and loops the
     * front end did not mark (the format's own examples do). A document whose
     * control flow is not of the checked shape as read is checked without
     * that invariant throughout: a pass is blamed only for what it broke. */
    unsigned input_skip = 0;
    if (check && verify(ctx, XF_IR_FLOW, "after the reader") != 0)
        return -1;
    if (check) {
        xf_diag *quiet = xf_diag_new(NULL);
        if (!quiet || xf_ir_check(ctx->doc, quiet) != 0)
            input_skip = XF_IR_FLOW;
        xf_diag_free(quiet);
    }
    /* what a pass broke, unchecked until a pass that needs it has run */
    const xf_pass *breaker[XF_PM_MAX];
    unsigned broke[XF_PM_MAX], nb = 0;
    FILE *tt = conf->time_passes;
    meter total = {.doc_before = xf_doc_bytes(ctx->doc)};
    if (tt)
        fprintf(tt, "%-14s %10s %10s %10s %12s %12s\n", "pass", "ms", "doc KiB", "+doc KiB",
                "scratch KiB", "maxRSS KiB");
    for (int i = 0; i < n; i++) {
        const xf_pass *p = passes[i];
        meter m = {.doc_before = xf_doc_bytes(ctx->doc)};
        double t0 = now_ms();
        int ret = run_pass(ctx, p, &m.scratch_peak);
        m.ms = now_ms() - t0;
        m.doc_after = xf_doc_bytes(ctx->doc);
        m.rss_kib = peak_rss_kib();
        if (tt) {
            time_row(tt, p->name, &m);
            total.ms += m.ms;
            total.doc_after = m.doc_after;
            total.rss_kib = m.rss_kib;
            if (m.scratch_peak > total.scratch_peak)
                total.scratch_peak = m.scratch_peak;
        }
        if (ret != 0) {
            if (!xf_diag_errors(ctx->diag))
                xf_error(ctx->diag, ctx->doc->filename, 0, "pass %s failed", p->name);
            return -1;
        }
        unsigned skip = input_skip;
        for (unsigned b = 0; b < nb; b++) {
            for (const char *const *a = p->after; a && *a; a++)
                if (breaker[b] && !strcmp(*a, breaker[b]->name))
                    breaker[b] = NULL;
            skip |= breaker[b] ? broke[b] : 0;
        }
        if (p->breaks_ir && nb < XF_PM_MAX) {
            breaker[nb] = p;
            broke[nb++] = p->breaks_ir;
            skip |= p->breaks_ir;
        }
        char when[160];
        snprintf(when, sizeof when, "after pass %s", p->name);
        if (check && (verify(ctx, skip, when) != 0 || verify_promise(ctx, p) != 0))
            return -1;
        if (conf->dump_after &&
            (!strcmp(conf->dump_after, "all") || !strcmp(conf->dump_after, p->name)) &&
            dump(ctx, p, conf) != 0)
            return -1;
    }
    if (tt)
        time_row(tt, "total", &total);
    return 0;
}

int
xf_pipeline_run(xf_pass_ctx *ctx, const xf_pass *const *passes, int n)
{
    return xf_pm_run(ctx, passes, n, NULL);
}
