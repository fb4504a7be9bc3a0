/* check_results.c: the records of a regression run and their totals. */
#include "check_results.h"

#include <stdlib.h>
#include <string.h>

static const char *const mode_names[XF_CHECK_MODES] = {"dd",
                                                       "ref-tangent",
                                                       "ref-adjoint",
                                                       "tangent",
                                                       "adjoint-joint",
                                                       "adjoint-split",
                                                       "xaif2f-tangent",
                                                       "xaif2f-adjoint-joint",
                                                       "xaif2f-adjoint-split",
                                                       "f-xaif-tangent",
                                                       "f-xaif-adjoint-joint",
                                                       "f-xaif-adjoint-split",
                                                       "f-tangent",
                                                       "f-adjoint-joint",
                                                       "f-adjoint-split"};

/* ORDER: xf_check_status */
static const char *const status_names[XF_CHECK_STATUSES] = {
    "PASS", "FAIL", "SKIP", "PASS-DD", "FAIL-DD", "PASS-XB", "FAIL-XB"};

/* ORDER: xf_check_reason */
static const char *const reason_names[XF_CHECK_REASONS] = {
    "-",         "example-error",  "read-error",       "transform-error", "schema-invalid",
    "run-error", "jacobian-shape", "jacobian-mismatch"};

bool
xf_check_mode_parse(const char *s, xf_check_mode *m)
{
    for (int k = 0; k < XF_CHECK_MODES; k++)
        if (!strcmp(s, mode_names[k])) {
            *m = (xf_check_mode)k;
            return true;
        }
    return false;
}

const char *
xf_check_mode_name(xf_check_mode m)
{
    return (unsigned)m < XF_CHECK_MODES ? mode_names[m] : "?";
}

const char *
xf_check_status_name(xf_check_status s)
{
    return (unsigned)s < XF_CHECK_STATUSES ? status_names[s] : "?";
}

bool
xf_check_status_parse(const char *s, xf_check_status *st)
{
    for (int k = 0; k < XF_CHECK_STATUSES; k++)
        if (!strcmp(s, status_names[k])) {
            *st = (xf_check_status)k;
            return true;
        }
    return false;
}

bool
xf_check_status_fails(xf_check_status s)
{
    return s == XF_CHECK_FAIL || s == XF_CHECK_FAIL_DD || s == XF_CHECK_FAIL_XB;
}

const char *
xf_check_reason_name(xf_check_reason r)
{
    return (unsigned)r < XF_CHECK_REASONS ? reason_names[r] : "?";
}

bool
xf_check_reason_parse(const char *s, xf_check_reason *r)
{
    for (int k = XF_FAIL_NONE + 1; k < XF_CHECK_REASONS; k++)
        if (!strcmp(s, reason_names[k])) {
            *r = (xf_check_reason)k;
            return true;
        }
    return false;
}

int
xf_check_results_add(xf_check_results *r, const xf_check_result *x)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        xf_check_result *v = realloc(r->v, cap * sizeof *v);
        if (!v)
            return -1;
        r->v = v;
        r->cap = cap;
    }
    char *name = strdup(x->name);
    if (!name)
        return -1;
    r->v[r->n] = *x;
    r->v[r->n++].name = name;
    return 0;
}

static int
by_key(const void *a, const void *b)
{
    const xf_check_result *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (int)x->mode - (int)y->mode;
}

void
xf_check_results_sort(xf_check_results *r)
{
    if (r->n)
        qsort(r->v, r->n, sizeof *r->v, by_key);
}

const xf_check_result *
xf_check_results_find(const xf_check_results *r, const char *name, xf_check_mode mode)
{
    xf_check_result key = {.name = (char *)name, .mode = mode};
    return r->n ? bsearch(&key, r->v, r->n, sizeof *r->v, by_key) : NULL;
}

void
xf_check_results_fini(xf_check_results *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].name);
    free(r->v);
    memset(r, 0, sizeof *r);
}

void
xf_check_summary(const xf_check_results *r, FILE *out)
{
    for (int m = 0; m < XF_CHECK_MODES; m++) {
        int c[XF_CHECK_STATUSES] = {0}, seen = 0, both = 0, tlm[XF_CHECK_STATUSES] = {0};
        int why[XF_CHECK_REASONS] = {0};
        uint64_t t[4] = {0};
        for (size_t i = 0; i < r->n; i++) {
            const xf_check_result *x = &r->v[i];
            if ((int)x->mode != m)
                continue;
            seen++;
            c[x->status]++;
            tlm[x->status] += x->from_tlm;
            if (xf_check_status_fails(x->status) && (unsigned)x->reason < XF_CHECK_REASONS)
                why[x->reason]++;
            if (x->have_ours && x->have_ref) {
                t[0] += x->ops;
                t[1] += x->ref_ops;
                t[2] += x->tape;
                t[3] += x->ref_tape;
                both++;
            }
        }
        if (!seen)
            continue;
        const char *name = mode_names[m];
        fprintf(out, "%s: %d passed, %d failed, %d skipped", name, c[XF_CHECK_PASS],
                c[XF_CHECK_FAIL], c[XF_CHECK_SKIP]);
        if (c[XF_CHECK_PASS_DD] + c[XF_CHECK_FAIL_DD])
            fprintf(out, "; where OpenAD's is wrong, against dd.out: %d passed, %d failed",
                    c[XF_CHECK_PASS_DD], c[XF_CHECK_FAIL_DD]);
        if (tlm[XF_CHECK_PASS_DD] + tlm[XF_CHECK_FAIL_DD])
            fprintf(out, " (from tlm.xaif, for want of a complete adm.xaif: %d passed, %d failed)",
                    tlm[XF_CHECK_PASS_DD], tlm[XF_CHECK_FAIL_DD]);
        if (c[XF_CHECK_PASS_XB] + c[XF_CHECK_FAIL_XB])
            fprintf(out,
                    "; custom drivers, against xaifBooster's output under the generic driver: "
                    "%d agree, %d differ",
                    c[XF_CHECK_PASS_XB], c[XF_CHECK_FAIL_XB]);
        fputc('\n', out);
        if (c[XF_CHECK_FAIL] + c[XF_CHECK_FAIL_DD] + c[XF_CHECK_FAIL_XB]) {
            const char *sep = " ";
            fprintf(out, "%s failed by reason:", name);
            for (int k = XF_FAIL_NONE + 1; k < XF_CHECK_REASONS; k++)
                if (why[k]) {
                    fprintf(out, "%s%s %d", sep, reason_names[k], why[k]);
                    sep = ", ";
                }
            if (why[XF_FAIL_NONE]) /* a run's record always has one; a file's too */
                fprintf(out, "%sunrecorded %d", sep, why[XF_FAIL_NONE]);
            fputc('\n', out);
        }
        if (both)
            fprintf(out, "%s operations over %d examples: ours %llu, xaifBooster's %llu (%.3f)\n",
                    name, both, (unsigned long long)t[0], (unsigned long long)t[1],
                    t[1] ? (double)t[0] / (double)t[1] : 0.0);
        if (both && (t[2] || t[3]))
            fprintf(out, "%s tape words over %d examples: ours %llu, xaifBooster's %llu (%.3f)\n",
                    name, both, (unsigned long long)t[2], (unsigned long long)t[3],
                    t[3] ? (double)t[2] / (double)t[3] : 0.0);
    }
}
