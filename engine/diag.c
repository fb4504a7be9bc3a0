/* diag.c: see diag.h. */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { KEEP_MAX = 200 };

struct xf_diag {
    FILE *out;
    char **msgs;
    size_t nmsgs;
    size_t errors, internals;
    xf_diag_where where;
    void *where_arg;
};

xf_diag *
xf_diag_new(FILE *out)
{
    xf_diag *d = calloc(1, sizeof *d);
    if (d)
        d->out = out;
    return d;
}

void
xf_diag_clear(xf_diag *d)
{
    for (size_t i = 0; i < d->nmsgs; i++)
        free(d->msgs[i]);
    free(d->msgs);
    d->msgs = NULL;
    d->nmsgs = 0;
    d->errors = d->internals = 0;
}

void
xf_diag_free(xf_diag *d)
{
    if (!d)
        return;
    xf_diag_clear(d);
    free(d);
}

void
xf_diag_set_where(xf_diag *d, xf_diag_where fn, void *arg)
{
    d->where = fn;
    d->where_arg = arg;
}

static const char *const sevname[] = {
    [XF_NOTE] = "note", [XF_WARNING] = "warning", [XF_ERROR] = "error", [XF_INTERNAL] = "error"};

void
xf_diag_report(xf_diag *d, xf_severity sev, const char *file, unsigned long line, const char *fmt,
               ...)
{
    char body[1024], head[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    size_t n = strlen(body);
    while (n && body[n - 1] == '\n')
        body[--n] = 0;
    if (d->where)
        d->where(d->where_arg, &file, &line);
    if (file && line)
        snprintf(head, sizeof head, "%s:%lu: %s: %s", file, line, sevname[sev], body);
    else if (file)
        snprintf(head, sizeof head, "%s: %s: %s", file, sevname[sev], body);
    else
        snprintf(head, sizeof head, "xaiform: %s: %s", sevname[sev], body);
    if (sev >= XF_ERROR)
        d->errors++;
    if (sev == XF_INTERNAL)
        d->internals++;
    if (d->out) {
        fputs(head, d->out);
        fputc('\n', d->out);
        fflush(d->out);
    }
    if (d->nmsgs < KEEP_MAX) {
        char **m = realloc(d->msgs, (d->nmsgs + 1) * sizeof *m);
        if (!m)
            return;
        d->msgs = m;
        m[d->nmsgs] = strdup(head);
        if (m[d->nmsgs])
            d->nmsgs++;
    }
}

size_t
xf_diag_errors(const xf_diag *d)
{
    return d->errors;
}

size_t
xf_diag_internal_errors(const xf_diag *d)
{
    return d->internals;
}

size_t
xf_diag_count(const xf_diag *d)
{
    return d->nmsgs;
}

const char *
xf_diag_message(const xf_diag *d, size_t i)
{
    return i < d->nmsgs ? d->msgs[i] : NULL;
}
