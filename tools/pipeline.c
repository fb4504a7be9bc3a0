/* pipeline.c: see pipeline.h. */
#include "pipeline.h"

#include <stdio.h>
#include <string.h>

#include "read.h"
#include "schema.h"

xf_doc *
xf_catalogue_load(const char *path, xf_diag *diag)
{
    xf_doc *cat;
    if (path)
        cat = xf_read_file(path, NULL, diag);
    else {
        size_t n = 0;
        const char *text = xf_schema_text("intrinsics.xaif", &n);
        if (!text) {
            xf_error(diag, NULL, 0, "the program was built without its intrinsics catalogue");
            return NULL;
        }
        cat = xf_read_memory(text, n, "built-in intrinsics.xaif", NULL, diag);
    }
    if (cat && cat->kind != XF_DOC_INLINABLE) {
        xf_error(diag, cat->filename, 0, "not an inlinable intrinsics catalogue");
        xf_doc_free(cat);
        return NULL;
    }
    return cat;
}

xf_doc *
xf_direct_load(const char *path, xf_diag *diag)
{
    xf_doc *cat;
    if (path)
        cat = xf_read_file(path, NULL, diag);
    else {
        size_t n = 0;
        const char *text = xf_schema_text("intrinsics-noninlinable.xaif", &n);
        if (!text) {
            xf_error(diag, NULL, 0, "the program was built without its non-inlinable catalogue");
            return NULL;
        }
        cat = xf_read_memory(text, n, "built-in intrinsics-noninlinable.xaif", NULL, diag);
    }
    if (cat && cat->kind != XF_DOC_NONINLINABLE) {
        xf_error(diag, cat->filename, 0, "not a non-inlinable intrinsics catalogue");
        xf_doc_free(cat);
        return NULL;
    }
    return cat;
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

/* ---- options */

static bool
skipped(const char *name, const char *const *skip)
{
    for (const char *const *s = skip; s && *s; s++)
        if (!strcmp(*s, name))
            return true;
    return false;
}

void
xf_cli_passes_init(xf_cli_passes *cp)
{
    *cp = (xf_cli_passes){0};
    xf_pm_opts_init(&cp->opts);
}

size_t
xf_cli_pass_options(struct option *tab, size_t n, size_t max, char *shorts, size_t slen,
                    const char *const *skip)
{
    const xf_pass_opt *o;
    for (size_t k = 0; (o = xf_pm_option_at(k, NULL)); k++) {
        if (skipped(o->name, skip))
            continue;
        if (n + 1 >= max)
            return 0;
        tab[n++] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL,
                                   o->letter ? o->letter : XF_OPT_PASS + (int)k};
        size_t at = strlen(shorts);
        if (o->letter) {
            if (at + 3 >= slen)
                return 0;
            shorts[at++] = o->letter;
            if (o->arg)
                shorts[at++] = ':';
            shorts[at] = 0;
        }
    }
    tab[n] = (struct option){0};
    return n;
}

int
xf_cli_pass_option(xf_cli_passes *cp, int c, const char *arg, const char *const *skip, char *err,
                   size_t len)
{
    switch (c) {
    case XF_OPT_VERIFY_EACH:
        cp->conf.verify_each = true;
        return 0;
    case XF_OPT_TIME_PASSES:
        cp->conf.time_passes = stderr;
        return 0;
    case XF_OPT_DUMP_AFTER:
        cp->conf.dump_after = arg;
        return 0;
    default:
        break;
    }
    const xf_pass_opt *o;
    for (size_t k = 0; (o = xf_pm_option_at(k, NULL)); k++) {
        if (skipped(o->name, skip) || (o->letter ? c != o->letter : c != XF_OPT_PASS + (int)k))
            continue;
        if (xf_pm_option(&cp->opts, o->name, o->arg ? arg : NULL, err, len) != 0)
            return 1;
        if (cp->ngiven < sizeof cp->given / sizeof cp->given[0])
            cp->given[cp->ngiven++] = o->name;
        return 0;
    }
    return -1;
}

int
xf_cli_pass_check(const xf_cli_passes *cp, const xf_pass *const *passes, int n, char *err,
                  size_t len)
{
    for (size_t g = 0; g < cp->ngiven; g++) {
        const xf_pass *owner = NULL;
        xf_pm_option_find(cp->given[g], &owner);
        bool runs = false;
        for (int i = 0; i < n && !runs; i++)
            runs = passes[i] == owner;
        if (!runs) {
            snprintf(err, len, "--%s is an option of pass %s, which is not run here", cp->given[g],
                     owner ? owner->name : "?");
            return -1;
        }
    }
    return xf_pm_conf_check(&cp->conf, passes, n, err, len);
}

void
xf_cli_pass_help(FILE *out, const char *list, const char *const *skip)
{
    const xf_pass *passes[XF_PM_MAX];
    char err[300];
    int n = list ? xf_pipeline_parse(list, passes, XF_PM_MAX, err, sizeof err) : 0;
    const xf_pass *owner;
    const xf_pass_opt *o;
    for (size_t k = 0; (o = xf_pm_option_at(k, &owner)); k++) {
        bool runs = !list;
        for (int i = 0; i < n && !runs; i++)
            runs = passes[i] == owner;
        if (!runs || skipped(o->name, skip))
            continue;
        char head[80];
        snprintf(head, sizeof head, "  %c%c%c --%s%s%s", o->letter ? '-' : ' ',
                 o->letter ? o->letter : ' ', o->letter ? ',' : ' ', o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        fprintf(out, "%-27s", head);
        const char *h = o->help;
        bool first = true;
        while (*h) {
            size_t len = strcspn(h, "\n");
            fprintf(out, "%s%s%.*s\n", first && strlen(head) >= 27 ? "\n" : "",
                    first && strlen(head) < 27 ? "" : "                           ", (int)len, h);
            first = false;
            h += len + (h[len] == '\n');
        }
    }
}
