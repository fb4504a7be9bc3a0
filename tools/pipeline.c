/* pipeline.c: see pipeline.h. */
#include "pipeline.h"

#include <stdio.h>
#include <string.h>

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
    for (const char *const *a = pass->after; a && *a; a++) {
        bool found = false;
        for (int i = 0; i < n && !found; i++)
            found = !strcmp(out[i]->name, *a);
        if (!found) {
            snprintf(err, errlen, "pass %s needs %s to run before it", pass->name, *a);
            return -1;
        }
    }
    out[n++] = pass;
    return n;
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
    return n;
}

int
xf_pipeline_refuse_deriv(const xf_doc *doc, xf_diag *diag)
{
    if (!doc->deriv.what)
        return 0;
    char what[400];
    const char *name = doc->filename ? doc->filename : "the input";
    xf_error(diag, doc->filename, doc->deriv.line,
             "%s is derivative code already (%s): differentiating it again gives wrong "
             "derivatives; differentiate the program it was made from",
             name, xf_derivmark_text(&doc->deriv, what, sizeof what));
    return -1;
}

int
xf_pipeline_run(xf_pass_ctx *ctx, const xf_pass *const *passes, int n)
{
    for (int i = 0; i < n; i++)
        if (passes[i]->run(ctx) != 0) {
            if (!xf_diag_errors(ctx->diag))
                xf_error(ctx->diag, ctx->doc->filename, 0, "pass %s failed", passes[i]->name);
            return -1;
        }
    return 0;
}
