/* regress.c: the regression runner: every example folder of the OpenAD
 * regression layout (params.conf, tlm.xaif, adm.xaif, ref/...) run in each
 * mode and compared with the reference Jacobians. */
#include "regress.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pipeline.h"
#include "read.h"
#include "run.h"

static const char *const mode_names[XF_CHECK_MODES] = {"dd",      "ref-tangent",   "ref-adjoint",
                                                       "tangent", "adjoint-joint", "adjoint-split"};

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

/* @dir/@name into @p; false if it does not fit. */
static bool
join(char *p, size_t len, const char *dir, const char *name)
{
    int n = snprintf(p, len, "%s/%s", dir, name);
    return n > 0 && (size_t)n < len;
}

static bool
exists(const char *dir, const char *name)
{
    char p[4096];
    struct stat st;
    return join(p, sizeof p, dir, name) && stat(p, &st) == 0;
}

/* Does the example's CUSTOM_DRIVER file list @driver (scalar_dd, ...)? */
static bool
custom_driver(const char *dir, const char *driver)
{
    char p[4096], w[128];
    if (!join(p, sizeof p, dir, "CUSTOM_DRIVER"))
        return false;
    FILE *f = fopen(p, "r");
    if (!f)
        return false;
    bool found = false;
    while (!found && fscanf(f, "%127s", w) == 1)
        found = !strcmp(w, driver);
    fclose(f);
    return found;
}

/* The first line of a FAILREASON file, for the skip message. */
static bool
failreason(const char *dir, const char *name, char *why, size_t len)
{
    char p[4096];
    if (!join(p, sizeof p, dir, name))
        return false;
    FILE *f = fopen(p, "r");
    if (!f)
        return false;
    if (!fgets(why, (int)len, f))
        why[0] = 0;
    why[strcspn(why, "\r\n")] = 0;
    if (strlen(why) > 90)
        strcpy(why + 87, "...");
    fclose(f);
    return true;
}

/* Compare @got with the reference: equal when within @rtol relatively or
 * @atol absolutely. 0 when all agree; else the first difference in @why. */
static int
compare(const xf_jacobian *got, const xf_jacobian *ref, double rtol, double atol, char *why,
        size_t len)
{
    if (got->m != ref->m || got->n != ref->n) {
        snprintf(why, len, "Jacobian is %dx%d, the reference %dx%d", got->m, got->n, ref->m,
                 ref->n);
        return 1;
    }
    for (int i = 0; i < got->n; i++)
        for (int k = 0; k < got->m; k++) {
            double a = got->f[(size_t)i * got->m + k], b = ref->f[(size_t)i * ref->m + k];
            double diff = fabs(a - b);
            if (diff <= atol || diff <= rtol * fabs(b))
                continue;
            snprintf(why, len, "F(%d,%d) = %.17g, reference %.17g (relative difference %.2g)",
                     k + 1, i + 1, a, b, b != 0 ? diff / fabs(b) : diff);
            return 1;
        }
    return 0;
}

/* PASS_DD, FAIL_DD: judged against dd.out because OpenAD's own result is wrong.
 * PASS_XB, FAIL_XB: the example's driver is custom; ours compared with
 * xaifBooster's output, both under the generic driver. */
typedef enum outcome { PASS, FAIL, SKIP, PASS_DD, FAIL_DD, PASS_XB, FAIL_XB, OUTCOMES } outcome;

/* What the transform modes run before the interpreter. */
typedef struct transform {
    const xf_pass *passes[16];
    int n;
    const xf_doc *catalogue, *direct;
    xf_opts opts;
} transform;

/* Run @file of @dir (transformed by @tr, if any) under @driver into @got.
 * @returns 0, or -1 with the reason in @why. */
static int
execute(const char *dir, const char *file, const transform *tr, xf_driver driver,
        const xf_params *par, xf_jacobian *got, char *why, size_t len, xf_run_stats *stats)
{
    char path[4096];
    memset(got, 0, sizeof *got);
    if (!join(path, sizeof path, dir, file)) {
        snprintf(why, len, "path too long");
        return -1;
    }
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = xf_read_file(path, NULL, d);
    /* OpenAD's references were made with Fortran drivers: n and m may exceed x and y (duud2) */
    xf_run_opts o = {.driver = driver, .params = *par, .loose_sizes = true};
    int ret = -1;
    if (!doc) {
        snprintf(why, len, "%s", xf_diag_message(d, 0) ? xf_diag_message(d, 0) : "unreadable");
    } else if (tr) {
        xf_pass_ctx ctx = {.doc = doc,
                           .opts = &tr->opts,
                           .diag = d,
                           .catalogue = tr->catalogue,
                           .direct = tr->direct};
        if (xf_pipeline_run(&ctx, tr->passes, tr->n) != 0) {
            snprintf(why, len, "%s",
                     xf_diag_message(d, 0) ? xf_diag_message(d, 0) : "the transform failed");
            xf_doc_free(doc);
            xf_diag_free(d);
            return -1;
        }
    }
    if (doc && xf_run(doc, &o, got, stats, d) != 0) {
        const char *msg = NULL;
        for (size_t i = 0; i < xf_diag_count(d) && !msg; i++)
            if (strstr(xf_diag_message(d, i), "error:"))
                msg = xf_diag_message(d, i);
        snprintf(why, len, "%s", msg ? msg : "the run failed");
        xf_jacobian_fini(got);
    } else if (doc) {
        ret = 0;
    }
    xf_doc_free(doc);
    xf_diag_free(d);
    return ret;
}

/* Run @file of @dir (transformed by @tr, if any) under @driver and compare with @refname. */
static outcome
run_one(const char *dir, const char *file, const transform *tr, xf_driver driver,
        const xf_params *par, const char *refname, double rtol, char *why, size_t len,
        xf_run_stats *stats)
{
    char refpath[4096];
    xf_jacobian ref, got;
    if (!join(refpath, sizeof refpath, dir, refname)) {
        snprintf(why, len, "path too long");
        return FAIL;
    }
    xf_diag *d = xf_diag_new(NULL);
    int rd = xf_jacobian_read(refpath, &ref, d);
    xf_diag_free(d);
    if (rd != 0) {
        snprintf(why, len, "cannot read %s", refname);
        return FAIL;
    }
    outcome r = FAIL;
    if (execute(dir, file, tr, driver, par, &got, why, len, stats) == 0) {
        if (compare(&got, &ref, rtol, 1e-12, why, len) == 0)
            r = PASS;
        xf_jacobian_fini(&got);
    }
    xf_jacobian_fini(&ref);
    return r;
}

/* Operation counts of a run: ours, and of xaifBooster's output for the same example. */
typedef struct opcounts {
    bool have_ours, have_ref;
    xf_run_stats ours, ref;
} opcounts;

static uint64_t
flops(const xf_run_stats *s)
{
    return s->adds + s->muls + s->divs + s->intrinsics;
}

static uint64_t
tape_words(const xf_run_stats *s)
{
    uint64_t n = 0;
    for (int k = 0; k < XF_WORD_KINDS; k++)
        n += s->push[k];
    return n;
}

/* The pipelines of the transform modes. */
typedef struct transforms {
    transform tangent, adjoint;
} transforms;

/* A transform mode: ours of @file under @driver against ref/ad.out, or
 * against ref/dd.out where @failname says OpenAD's is wrong; @refxb is
 * xaifBooster's output for the operation counts. */
static outcome
transform_mode(const char *dir, const char *file, const transform *tr, xf_driver driver,
               const char *failname, const char *custom, const char *what, const char *refxb,
               const xf_params *par, char *why, size_t len, opcounts *ops)
{
    char r[256];
    if (!exists(dir, file)) {
        snprintf(why, len, "no %s", file);
        return SKIP;
    }
    if (custom_driver(dir, custom)) {
        /* no reference for the generic driver: agree with xaifBooster's output under it */
        xf_jacobian ref, got;
        char w[1024];
        if (!exists(dir, refxb) ||
            execute(dir, refxb, NULL, driver, par, &ref, w, sizeof w, NULL) != 0) {
            snprintf(why, len,
                     "custom driver for the %s, and xaifBooster's output does not run under the "
                     "generic one",
                     what);
            return SKIP;
        }
        outcome o = FAIL_XB;
        if (execute(dir, file, tr, driver, par, &got, why, len, NULL) == 0) {
            if (compare(&got, &ref, 1e-10, 1e-12, why, len) == 0)
                o = PASS_XB;
            xf_jacobian_fini(&got);
        }
        xf_jacobian_fini(&ref);
        return o;
    }
    if (failreason(dir, failname, r, sizeof r)) {
        /* OpenAD's result is wrong: judge ours by divided differences */
        if (!exists(dir, "ref/dd.out")) {
            snprintf(why, len, "no ref/dd.out to judge by");
            return SKIP;
        }
        outcome o = run_one(dir, file, tr, driver, par, "ref/dd.out", par->tol, why, len,
                            ops ? &ops->ours : NULL);
        return o == PASS ? PASS_DD : o == FAIL ? FAIL_DD : o;
    }
    if (!exists(dir, "ref/ad.out")) {
        snprintf(why, len, "no ref/ad.out");
        return SKIP;
    }
    outcome o =
        run_one(dir, file, tr, driver, par, "ref/ad.out", 1e-10, why, len, ops ? &ops->ours : NULL);
    if (ops && o == PASS) {
        char w[1024];
        ops->have_ours = true;
        ops->have_ref = exists(dir, refxb) && run_one(dir, refxb, NULL, driver, par, "ref/ad.out",
                                                      1e-10, w, sizeof w, &ops->ref) == PASS;
    }
    return o;
}

static outcome
check_example(const char *dir, xf_check_mode mode, const transforms *trs, char *why, size_t len,
              opcounts *ops)
{
    xf_params par;
    xf_diag *d = xf_diag_new(NULL);
    char path[4096];
    int pret = join(path, sizeof path, dir, "params.conf") ? xf_params_read(path, &par, d) : -1;
    if (pret != 0)
        snprintf(why, len, "%s", xf_diag_message(d, 0) ? xf_diag_message(d, 0) : "params.conf");
    xf_diag_free(d);
    if (pret != 0)
        return FAIL;
    switch (mode) {
    case XF_CHECK_DD: {
        const char *file = exists(dir, "tlm.xaif") ? "tlm.xaif" : "adm.xaif";
        if (!exists(dir, file)) {
            snprintf(why, len, "no xaif");
            return SKIP;
        }
        if (!exists(dir, "ref/dd.out")) {
            snprintf(why, len, "no ref/dd.out");
            return SKIP;
        }
        if (custom_driver(dir, "scalar_dd")) {
            snprintf(why, len, "custom driver for dd");
            return SKIP;
        }
        return run_one(dir, file, NULL, XF_DRIVER_DD, &par, "ref/dd.out", 1e-6, why, len, NULL);
    }
    case XF_CHECK_REF_TANGENT: {
        char r[256];
        if (!exists(dir, "ref/tlm.xb.xaif")) {
            snprintf(why, len, "no ref/tlm.xb.xaif");
            return SKIP;
        }
        if (!exists(dir, "ref/ad.out")) {
            snprintf(why, len, "no ref/ad.out");
            return SKIP;
        }
        if (failreason(dir, "FAILREASON_tlm_none", r, sizeof r)) {
            snprintf(why, len, "OpenAD's tangent is known wrong (FAILREASON_tlm_none: %s)", r);
            return SKIP;
        }
        if (custom_driver(dir, "scalar_tlm")) {
            snprintf(why, len, "custom driver for the tangent");
            return SKIP;
        }
        return run_one(dir, "ref/tlm.xb.xaif", NULL, XF_DRIVER_TANGENT, &par, "ref/ad.out", 1e-10,
                       why, len, NULL);
    }
    case XF_CHECK_REF_ADJOINT: {
        char r[256];
        if (!exists(dir, "ref/adm.xb.xaif")) {
            snprintf(why, len, "no ref/adm.xb.xaif");
            return SKIP;
        }
        if (!exists(dir, "ref/ad.out")) {
            snprintf(why, len, "no ref/ad.out");
            return SKIP;
        }
        static const struct {
            xf_driver drv;
            const char *fail, *custom;
        } sweeps[2] = {{XF_DRIVER_ADJOINT_JOINT, "FAILREASON_adm_joint", "scalar_adm_joint"},
                       {XF_DRIVER_ADJOINT_SPLIT, "FAILREASON_adm_split", "scalar_adm_split"}};
        int ran = 0;
        char skipwhy[512] = "";
        for (int k = 0; k < 2; k++) {
            if (failreason(dir, sweeps[k].fail, r, sizeof r)) {
                snprintf(skipwhy, sizeof skipwhy, "OpenAD's adjoint is known wrong (%s: %s)",
                         sweeps[k].fail, r);
                continue;
            }
            if (custom_driver(dir, sweeps[k].custom)) {
                snprintf(skipwhy, sizeof skipwhy, "custom driver for the adjoint");
                continue;
            }
            ran++;
            char w[1024];
            if (run_one(dir, "ref/adm.xb.xaif", NULL, sweeps[k].drv, &par, "ref/ad.out", 1e-10, w,
                        sizeof w, NULL) != PASS) {
                snprintf(why, len, "%s: %s", xf_driver_name(sweeps[k].drv), w);
                return FAIL;
            }
        }
        if (!ran) {
            snprintf(why, len, "%s", skipwhy);
            return SKIP;
        }
        return PASS;
    }
    case XF_CHECK_TANGENT:
        return transform_mode(dir, "tlm.xaif", &trs->tangent, XF_DRIVER_TANGENT,
                              "FAILREASON_tlm_none", "scalar_tlm", "tangent", "ref/tlm.xb.xaif",
                              &par, why, len, ops);
    case XF_CHECK_ADJOINT_JOINT:
        return transform_mode(dir, "adm.xaif", &trs->adjoint, XF_DRIVER_ADJOINT_JOINT,
                              "FAILREASON_adm_joint", "scalar_adm_joint", "joint adjoint",
                              "ref/adm.xb.xaif", &par, why, len, ops);
    case XF_CHECK_ADJOINT_SPLIT:
        return transform_mode(dir, "adm.xaif", &trs->adjoint, XF_DRIVER_ADJOINT_SPLIT,
                              "FAILREASON_adm_split", "scalar_adm_split", "split adjoint",
                              "ref/adm.xb.xaif", &par, why, len, ops);
    case XF_CHECK_MODES:
        break;
    }
    return SKIP;
}

static int
by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The example folders under @root (or @root itself if it is one), sorted. */
static char **
examples(const char *root, size_t *n)
{
    char **v = NULL;
    *n = 0;
    if (exists(root, "params.conf")) {
        v = malloc(sizeof *v);
        v[0] = strdup(root);
        *n = 1;
        return v;
    }
    DIR *dp = opendir(root);
    if (!dp)
        return NULL;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (e->d_name[0] == '.')
            continue;
        char p[4096];
        if (!join(p, sizeof p, root, e->d_name) || !exists(p, "params.conf"))
            continue;
        char **nv = realloc(v, (*n + 1) * sizeof *v);
        if (!nv)
            break;
        v = nv;
        v[(*n)++] = strdup(p);
    }
    closedir(dp);
    qsort(v, *n, sizeof *v, by_name);
    return v;
}

static const char *const outcome_names[OUTCOMES] = {"PASS",  "FAIL",  "SKIP", "PASS*",
                                                    "FAIL*", "PASS~", "FAIL~"};

int
xf_check_run(const xf_check_opts *o, FILE *out)
{
    int failed = 0;
    int counts[XF_CHECK_MODES][OUTCOMES] = {{0}};
    uint64_t ops_total[XF_CHECK_MODES][4] = {{0}};
    int ops_n[XF_CHECK_MODES] = {0};
    transforms trs = {.tangent = {.opts = {.elimination = XF_ELIM_BEST}}};
    xf_doc *cat = NULL, *direct = NULL;
    bool need = false;
    for (int k = 0; k < o->nmodes; k++)
        need = need || o->modes[k] >= XF_CHECK_TANGENT;
    if (need) {
        char err[300];
        xf_diag *d = xf_diag_new(out);
        cat = xf_catalogue_load(o->catalogue, d);
        direct = xf_direct_load(NULL, d);
        xf_diag_free(d);
        if (!cat || !direct) {
            xf_doc_free(cat);
            xf_doc_free(direct);
            return -1;
        }
        xf_elimination e = XF_ELIM_BEST;
        if (o->elimination && !strcmp(o->elimination, "forward"))
            e = XF_ELIM_FORWARD;
        else if (o->elimination && !strcmp(o->elimination, "reverse"))
            e = XF_ELIM_REVERSE;
        else if (o->elimination && !strcmp(o->elimination, "markowitz"))
            e = XF_ELIM_MARKOWITZ;
        transform *t[2] = {&trs.tangent, &trs.adjoint};
        const char *names[2] = {"tangent", "adjoint"};
        for (int k = 0; k < 2; k++) {
            t[k]->catalogue = cat;
            t[k]->direct = direct;
            t[k]->opts.elimination = e;
            t[k]->n = xf_pipeline_parse(names[k], t[k]->passes, 16, err, sizeof err);
            if (t[k]->n < 0) {
                fprintf(out, "%s\n", err);
                xf_doc_free(cat);
                xf_doc_free(direct);
                return -1;
            }
        }
    }
    for (int r = 0; r < o->nroots; r++) {
        size_t n;
        char **ex = examples(o->roots[r], &n);
        if (!ex) {
            fprintf(out, "cannot read %s\n", o->roots[r]);
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            const char *name = strrchr(ex[i], '/') ? strrchr(ex[i], '/') + 1 : ex[i];
            for (int k = 0; k < o->nmodes; k++) {
                char why[1200] = "";
                opcounts ops = {0};
                outcome res = check_example(ex[i], o->modes[k], &trs, why, sizeof why,
                                            o->stats ? &ops : NULL);
                if (ops.have_ours && ops.have_ref) {
                    fprintf(out,
                            "OPS   %-12s %s ours %llu (%llu+ %llu* %llu/ %llu f) tape %llu "
                            "xaifBooster %llu (%llu+ %llu* %llu/ %llu f) tape %llu\n",
                            mode_names[o->modes[k]], name, (unsigned long long)flops(&ops.ours),
                            (unsigned long long)ops.ours.adds, (unsigned long long)ops.ours.muls,
                            (unsigned long long)ops.ours.divs,
                            (unsigned long long)ops.ours.intrinsics,
                            (unsigned long long)tape_words(&ops.ours),
                            (unsigned long long)flops(&ops.ref), (unsigned long long)ops.ref.adds,
                            (unsigned long long)ops.ref.muls, (unsigned long long)ops.ref.divs,
                            (unsigned long long)ops.ref.intrinsics,
                            (unsigned long long)tape_words(&ops.ref));
                    ops_total[o->modes[k]][0] += flops(&ops.ours);
                    ops_total[o->modes[k]][1] += flops(&ops.ref);
                    ops_total[o->modes[k]][2] += tape_words(&ops.ours);
                    ops_total[o->modes[k]][3] += tape_words(&ops.ref);
                    ops_n[o->modes[k]]++;
                }
                counts[o->modes[k]][res]++;
                if (res == FAIL)
                    failed++;
                if (res == PASS || res == PASS_DD || res == PASS_XB)
                    fprintf(out, "%-5s %-12s %s%s\n", outcome_names[res], mode_names[o->modes[k]],
                            name,
                            res == PASS_DD   ? " (against dd.out: OpenAD's is wrong)"
                            : res == PASS_XB ? " (custom driver: agrees with xaifBooster's output "
                                               "under the generic one)"
                                             : "");
                else
                    fprintf(out, "%-5s %-12s %s: %s\n", outcome_names[res], mode_names[o->modes[k]],
                            name, why);
            }
            free(ex[i]);
        }
        free(ex);
    }
    int worst = 100;
    for (int k = 0; k < o->nmodes; k++) {
        int *c = counts[o->modes[k]];
        fprintf(out, "%s: %d passed, %d failed, %d skipped", mode_names[o->modes[k]], c[PASS],
                c[FAIL], c[SKIP]);
        if (c[PASS_DD] + c[FAIL_DD])
            fprintf(out, "; where OpenAD's is wrong, against dd.out: %d passed, %d failed",
                    c[PASS_DD], c[FAIL_DD]);
        if (c[PASS_XB] + c[FAIL_XB])
            fprintf(out,
                    "; custom drivers, against xaifBooster's output under the generic driver: "
                    "%d agree, %d differ",
                    c[PASS_XB], c[FAIL_XB]);
        fputc('\n', out);
        const uint64_t *t = ops_total[o->modes[k]];
        if (ops_n[o->modes[k]])
            fprintf(out, "%s operations over %d examples: ours %llu, xaifBooster's %llu (%.3f)\n",
                    mode_names[o->modes[k]], ops_n[o->modes[k]], (unsigned long long)t[0],
                    (unsigned long long)t[1], t[1] ? (double)t[0] / (double)t[1] : 0.0);
        if (ops_n[o->modes[k]] && (t[2] || t[3]))
            fprintf(out, "%s tape words over %d examples: ours %llu, xaifBooster's %llu (%.3f)\n",
                    mode_names[o->modes[k]], ops_n[o->modes[k]], (unsigned long long)t[2],
                    (unsigned long long)t[3], t[3] ? (double)t[2] / (double)t[3] : 0.0);
        int ran = c[PASS] + c[FAIL];
        int pct = ran ? (int)(100.0 * c[PASS] / ran) : 100;
        if (pct < worst)
            worst = pct;
    }
    xf_doc_free(cat);
    xf_doc_free(direct);
    if (o->min_pass > 0)
        return worst >= o->min_pass ? 0 : 1;
    return failed ? 1 : 0;
}
