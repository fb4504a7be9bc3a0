/* batch_report.c: what xaiform batch tells: the progress (a bar on a
 * terminal, else a line per file), the summary, and the JSON report, written
 * by hand (the project has no JSON library). See batch.h. */
#include "batch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"

enum { BAR_WIDTH = 30 };

static const double REDRAW = 0.1; /* seconds between redraws of the bar */

/* ---- progress */

static void
draw_bar(xf_batch_progress *p, size_t ndone, size_t nfailed, double elapsed)
{
    size_t fill = p->total ? ndone * BAR_WIDTH / p->total : BAR_WIDTH;
    char bar[BAR_WIDTH + 1];
    for (size_t i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < fill ? '=' : i == fill ? '>' : ' ';
    bar[BAR_WIDTH] = 0;
    fprintf(p->out, "\r[%s] %zu/%zu  %zu failed  %.1f s\033[K", bar, ndone, p->total, nfailed,
            elapsed);
    fflush(p->out);
    p->last = elapsed;
    p->drawn = true;
}

static void
clear_bar(xf_batch_progress *p)
{
    if (p->drawn)
        fputs("\r\033[K", p->out);
    p->drawn = false;
}

void
xf_batch_progress_done(void *arg, const xf_batch_file *f, size_t ndone, size_t nfailed,
                       double elapsed)
{
    xf_batch_progress *p = arg;
    bool ok = f->status == XF_BATCH_OK;
    if (p->bar) {
        if (!ok) {
            clear_bar(p);
            fprintf(p->out, "FAIL %s: %s\n", f->input, f->error ? f->error : "failed");
        }
        if (!ok || ndone == p->total || elapsed - p->last >= REDRAW || !p->drawn)
            draw_bar(p, ndone, nfailed, elapsed);
        return;
    }
    if (ok)
        fprintf(p->out, "ok   %s (%.2f s)\n", f->input, f->seconds);
    else
        fprintf(p->out, "FAIL %s: %s\n", f->input, f->error ? f->error : "failed");
    fflush(p->out);
}

void
xf_batch_progress_tick(void *arg, size_t ndone, size_t nfailed, double elapsed)
{
    xf_batch_progress *p = arg;
    if (p->bar && elapsed - p->last >= REDRAW)
        draw_bar(p, ndone, nfailed, elapsed);
}

void
xf_batch_progress_end(xf_batch_progress *p)
{
    if (p->bar)
        clear_bar(p);
    fflush(p->out);
}

/* ---- summary */

typedef struct totals {
    size_t ok, failed, pending;
    uint64_t in_bytes, out_bytes;
    double file_seconds;
} totals;

static totals
count(const xf_batch_list *list)
{
    totals t = {0};
    for (size_t i = 0; i < list->n; i++) {
        const xf_batch_file *f = &list->v[i];
        if (f->status == XF_BATCH_PENDING) {
            t.pending++;
            continue;
        }
        if (f->status == XF_BATCH_OK)
            t.ok++;
        else
            t.failed++;
        t.in_bytes += f->in_bytes;
        t.out_bytes += f->out_bytes;
        t.file_seconds += f->seconds;
    }
    return t;
}

static double
mb_per_s(uint64_t bytes, double seconds)
{
    return seconds > 0 ? (double)bytes / 1e6 / seconds : 0;
}

void
xf_batch_summary(FILE *out, const xf_batch_list *list, const xf_batch_result *res)
{
    totals t = count(list);
    if (t.failed) {
        fputs("failed:\n", out);
        for (size_t i = 0; i < list->n; i++)
            if (list->v[i].status != XF_BATCH_OK && list->v[i].status != XF_BATCH_PENDING)
                fprintf(out, "  %s: %s\n", list->v[i].input,
                        list->v[i].error ? list->v[i].error : "failed");
    }
    if (res->signal) {
        char buf[32];
        fprintf(out, "interrupted by %s: %zu not converted\n",
                xf_batch_signal_name(res->signal, buf, sizeof buf), t.pending);
    }
    if (res->trouble[0])
        fprintf(out, "xaiform batch: error: %s\n", res->trouble);
    fprintf(out, "%zu converted, %zu failed", t.ok, t.failed);
    if (t.pending)
        fprintf(out, ", %zu not run", t.pending);
    fprintf(out, " of %zu file%s", list->n, list->n == 1 ? "" : "s");
    if (list->total != list->n)
        fprintf(out, " (this shard's; %zu in all)", list->total);
    fprintf(out, " in %.2f s: %.2f MB of input, %.1f MB/s\n", res->seconds,
            (double)t.in_bytes / 1e6, mb_per_s(t.in_bytes, res->seconds));
    if (list->skipped)
        fprintf(out,
                "earlier outputs (files ending in the output suffix or in .MODE.xaif of any "
                "mode, and their --dump-after files) left out: %zu\n",
                list->skipped);
    fflush(out);
}

/* ---- JSON */

/* The length of the valid UTF-8 sequence at @s, or 0. */
static size_t
utf8_len(const unsigned char *s)
{
    size_t n;
    unsigned long min, cp;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xE0) == 0xC0)
        n = 2, min = 0x80, cp = s[0] & 0x1F;
    else if ((s[0] & 0xF0) == 0xE0)
        n = 3, min = 0x800, cp = s[0] & 0x0F;
    else if ((s[0] & 0xF8) == 0xF0)
        n = 4, min = 0x10000, cp = s[0] & 0x07;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) /* also stops at the terminating NUL */
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

void
xf_json_string(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const char *esc = NULL;
        switch (*p) {
        case '"':
            esc = "\\\"";
            break;
        case '\\':
            esc = "\\\\";
            break;
        case '\b':
            esc = "\\b";
            break;
        case '\f':
            esc = "\\f";
            break;
        case '\n':
            esc = "\\n";
            break;
        case '\r':
            esc = "\\r";
            break;
        case '\t':
            esc = "\\t";
            break;
        }
        size_t n = utf8_len(p);
        if (esc)
            fputs(esc, f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else if (n == 0)
            fputs("\\ufffd", f);
        else
            fwrite(p, 1, n, f);
        p += n ? n : 1;
    }
    fputc('"', f);
}

static const char *
status_name(xf_batch_status s)
{
    switch (s) {
    case XF_BATCH_PENDING:
        return "not run";
    case XF_BATCH_OK:
        return "ok";
    case XF_BATCH_FAILED:
        return "failed";
    case XF_BATCH_INTERNAL:
        return "internal error";
    }
    return "?";
}

static void
put_file(FILE *f, const xf_batch_file *b)
{
    fputs("    {\"input\": ", f);
    xf_json_string(f, b->input);
    fputs(", \"output\": ", f);
    xf_json_string(f, b->output);
    fputs(", \"status\": ", f);
    xf_json_string(f, status_name(b->status));
    fputs(", \"error\": ", f);
    xf_json_string(f, b->error);
    fprintf(f, ", \"seconds\": %.6f, \"input_bytes\": %llu, \"output_bytes\": %llu}", b->seconds,
            (unsigned long long)b->in_bytes, (unsigned long long)b->out_bytes);
}

static void
put_options(FILE *f, const xf_batch_option *opts, size_t nopts, char *const *args, size_t nargs)
{
    fputs("  \"options\": {", f);
    for (size_t i = 0; i < nopts; i++) {
        fputs(i ? ", " : "", f);
        xf_json_string(f, opts[i].name);
        fputs(": ", f);
        if (opts[i].number && opts[i].value)
            fputs(opts[i].value, f);
        else
            xf_json_string(f, opts[i].value);
    }
    fputs("},\n  \"arguments\": [", f);
    for (size_t i = 0; i < nargs; i++) {
        fputs(i ? ", " : "", f);
        xf_json_string(f, args[i]);
    }
    fputs("],\n", f);
}

static void
put_totals(FILE *f, const xf_batch_list *list, const xf_batch_result *res)
{
    totals t = count(list);
    char buf[32];
    fprintf(f,
            "  \"totals\": {\"files\": %zu, \"converted\": %zu, \"failed\": %zu, \"not_run\": %zu, "
            "\"files_in_all_shards\": %zu, \"earlier_outputs_left_out\": %zu, \"seconds\": %.6f, "
            "\"file_seconds\": %.6f, \"input_bytes\": %llu, \"output_bytes\": %llu, "
            "\"input_mb_per_s\": %.3f},\n",
            list->n, t.ok, t.failed, t.pending, list->total, list->skipped, res->seconds,
            t.file_seconds, (unsigned long long)t.in_bytes, (unsigned long long)t.out_bytes,
            mb_per_s(t.in_bytes, res->seconds));
    fputs("  \"interrupted_by\": ", f);
    xf_json_string(f, res->signal ? xf_batch_signal_name(res->signal, buf, sizeof buf) : NULL);
    fputs(",\n  \"error\": ", f);
    xf_json_string(f, res->trouble[0] ? res->trouble : NULL);
    fputs("\n", f);
}

static void
put_report(FILE *f, const xf_batch_list *list, const xf_batch_result *res,
           const xf_batch_option *opts, size_t nopts, char *const *args, size_t nargs)
{
    fputs("{\n", f);
    put_options(f, opts, nopts, args, nargs);
    fputs("  \"files\": [\n", f);
    for (size_t i = 0; i < list->n; i++) {
        put_file(f, &list->v[i]);
        fputs(i + 1 < list->n ? ",\n" : "\n", f);
    }
    fputs("  ],\n", f);
    put_totals(f, list, res);
    fputs("}\n", f);
}

int
xf_batch_report_write(const char *path, const xf_batch_list *list, const xf_batch_result *res,
                      const xf_batch_option *opts, size_t nopts, char *const *args, size_t nargs,
                      char *err, size_t errlen)
{
    if (!strcmp(path, "-")) {
        put_report(stdout, list, res, opts, nopts, args, nargs);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
    }
    xf_outfile o;
    char why[300];
    if (xf_outfile_open(&o, path, NULL, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    FILE *f = fdopen(o.fd, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        close(o.fd);
        xf_outfile_finish(&o, false, why, sizeof why);
        return -1;
    }
    put_report(f, list, res, opts, nopts, args, nargs);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        xf_outfile_finish(&o, false, why, sizeof why);
        return -1;
    }
    int ret = xf_outfile_finish(&o, true, why, sizeof why);
    if (ret != 0)
        snprintf(err, errlen, "%s: %s", path, why);
    return ret;
}
