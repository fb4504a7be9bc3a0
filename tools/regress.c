/* regress.c: the regression runner: every example folder of the OpenAD
 * regression layout (params.conf, tlm.xaif, adm.xaif, ref/...) run in each
 * mode and compared with the reference Jacobians. */
#include "regress.h"
#include "regress_door.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pipeline.h"
#include "read.h"
#include "run.h"

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

/* How many passive stores the front end left as Markers in @dir/@name
 * ("[passive: OPR_STID]": the statement is kept only in its own WHIRL,
 * which OpenAD's back end restores and no one else can); -1 if unreadable. */
static long
lost_stores(const char *dir, const char *name)
{
    char p[4096], line[4096];
    FILE *f = join(p, sizeof p, dir, name) ? fopen(p, "r") : NULL;
    if (!f)
        return -1;
    long n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, "[passive: OPR_STID]") != NULL;
    fclose(f);
    return n;
}

/* The adjoint modes' input: adm.xaif, unless the front end lost passive
 * stores there that tlm.xaif keeps (Loop_simple_9a's k = i, ...): the
 * program would not run as written. */
static const char *
adjoint_input(const char *dir)
{
    long adm = lost_stores(dir, "adm.xaif"), tlm = lost_stores(dir, "tlm.xaif");
    return adm > 0 && tlm >= 0 && tlm < adm ? "tlm.xaif" : "adm.xaif";
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

/* What the transform modes run before the interpreter. */
typedef struct transform {
    const xf_pass *passes[16];
    int n;
    const xf_doc *catalogue, *direct;
    xf_opts opts;
    const char *door; /* --oad-driver: a program makes the derivative instead */
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
    xf_doc *doc = tr && tr->door ? xf_door_run(tr->door, dir, file,
                                               driver == XF_DRIVER_TANGENT ? "tlm" : "adm",
                                               driver == XF_DRIVER_TANGENT         ? "none"
                                               : driver == XF_DRIVER_ADJOINT_JOINT ? "joint"
                                                                                   : "split",
                                               d, why, len)
                                 : xf_read_file(path, NULL, d);
    /* OpenAD's references were made with Fortran drivers: n and m may exceed x and y (duud2) */
    xf_run_opts o = {.driver = driver, .params = *par, .loose_sizes = true};
    int ret = -1;
    if (!doc && tr && tr->door) {
        xf_diag_free(d);
        return -1;
    } else if (!doc) {
        snprintf(why, len, "%s", xf_diag_message(d, 0) ? xf_diag_message(d, 0) : "unreadable");
    } else if (tr && !tr->door) {
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
static xf_check_status
run_one(const char *dir, const char *file, const transform *tr, xf_driver driver,
        const xf_params *par, const char *refname, double rtol, char *why, size_t len,
        xf_run_stats *stats)
{
    char refpath[4096];
    xf_jacobian ref, got;
    if (!join(refpath, sizeof refpath, dir, refname)) {
        snprintf(why, len, "path too long");
        return XF_CHECK_FAIL;
    }
    xf_diag *d = xf_diag_new(NULL);
    int rd = xf_jacobian_read(refpath, &ref, d);
    xf_diag_free(d);
    if (rd != 0) {
        snprintf(why, len, "cannot read %s", refname);
        return XF_CHECK_FAIL;
    }
    xf_check_status r = XF_CHECK_FAIL;
    if (execute(dir, file, tr, driver, par, &got, why, len, stats) == 0) {
        if (compare(&got, &ref, rtol, 1e-12, why, len) == 0)
            r = XF_CHECK_PASS;
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
 * xaifBooster's output for the operation counts. @ops receives the counts
 * of ours when it passes, and of xaifBooster's output where that passes
 * against ref/ad.out too (not where OpenAD's is wrong or the driver is
 * custom, so that the totals compare like with like). */
static xf_check_status
transform_mode(const char *dir, const char *file, const transform *tr, xf_driver driver,
               const char *failname, const char *custom, const char *what, const char *refxb,
               const xf_params *par, char *why, size_t len, opcounts *ops)
{
    char r[256];
    if (!exists(dir, file)) {
        snprintf(why, len, "no %s", file);
        return XF_CHECK_SKIP;
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
            return XF_CHECK_SKIP;
        }
        xf_check_status o = XF_CHECK_FAIL_XB;
        if (execute(dir, file, tr, driver, par, &got, why, len, ops ? &ops->ours : NULL) == 0) {
            if (compare(&got, &ref, 1e-10, 1e-12, why, len) == 0)
                o = XF_CHECK_PASS_XB;
            xf_jacobian_fini(&got);
        }
        xf_jacobian_fini(&ref);
        if (ops && o == XF_CHECK_PASS_XB)
            ops->have_ours = true;
        return o;
    }
    if (failreason(dir, failname, r, sizeof r)) {
        /* OpenAD's result is wrong: judge ours by divided differences */
        if (!exists(dir, "ref/dd.out")) {
            snprintf(why, len, "no ref/dd.out to judge by");
            return XF_CHECK_SKIP;
        }
        xf_check_status o = run_one(dir, file, tr, driver, par, "ref/dd.out", par->tol, why, len,
                                    ops ? &ops->ours : NULL);
        if (ops && o == XF_CHECK_PASS)
            ops->have_ours = true;
        return o == XF_CHECK_PASS ? XF_CHECK_PASS_DD : o == XF_CHECK_FAIL ? XF_CHECK_FAIL_DD : o;
    }
    if (!exists(dir, "ref/ad.out")) {
        snprintf(why, len, "no ref/ad.out");
        return XF_CHECK_SKIP;
    }
    xf_check_status o =
        run_one(dir, file, tr, driver, par, "ref/ad.out", 1e-10, why, len, ops ? &ops->ours : NULL);
    if (ops && o == XF_CHECK_PASS) {
        char w[1024];
        ops->have_ours = true;
        ops->have_ref =
            exists(dir, refxb) && run_one(dir, refxb, NULL, driver, par, "ref/ad.out", 1e-10, w,
                                          sizeof w, &ops->ref) == XF_CHECK_PASS;
    }
    return o;
}

static xf_check_status
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
        return XF_CHECK_FAIL;
    switch (mode) {
    case XF_CHECK_DD: {
        const char *file = exists(dir, "tlm.xaif") ? "tlm.xaif" : "adm.xaif";
        if (!exists(dir, file)) {
            snprintf(why, len, "no xaif");
            return XF_CHECK_SKIP;
        }
        if (!exists(dir, "ref/dd.out")) {
            snprintf(why, len, "no ref/dd.out");
            return XF_CHECK_SKIP;
        }
        if (custom_driver(dir, "scalar_dd")) {
            snprintf(why, len, "custom driver for dd");
            return XF_CHECK_SKIP;
        }
        return run_one(dir, file, NULL, XF_DRIVER_DD, &par, "ref/dd.out", 1e-6, why, len, NULL);
    }
    case XF_CHECK_REF_TANGENT: {
        char r[256];
        if (!exists(dir, "ref/tlm.xb.xaif")) {
            snprintf(why, len, "no ref/tlm.xb.xaif");
            return XF_CHECK_SKIP;
        }
        if (!exists(dir, "ref/ad.out")) {
            snprintf(why, len, "no ref/ad.out");
            return XF_CHECK_SKIP;
        }
        if (failreason(dir, "FAILREASON_tlm_none", r, sizeof r)) {
            snprintf(why, len, "OpenAD's tangent is known wrong (FAILREASON_tlm_none: %s)", r);
            return XF_CHECK_SKIP;
        }
        if (custom_driver(dir, "scalar_tlm")) {
            snprintf(why, len, "custom driver for the tangent");
            return XF_CHECK_SKIP;
        }
        return run_one(dir, "ref/tlm.xb.xaif", NULL, XF_DRIVER_TANGENT, &par, "ref/ad.out", 1e-10,
                       why, len, NULL);
    }
    case XF_CHECK_REF_ADJOINT: {
        char r[256];
        if (!exists(dir, "ref/adm.xb.xaif")) {
            snprintf(why, len, "no ref/adm.xb.xaif");
            return XF_CHECK_SKIP;
        }
        if (!exists(dir, "ref/ad.out")) {
            snprintf(why, len, "no ref/ad.out");
            return XF_CHECK_SKIP;
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
                        sizeof w, NULL) != XF_CHECK_PASS) {
                snprintf(why, len, "%s: %s", xf_driver_name(sweeps[k].drv), w);
                return XF_CHECK_FAIL;
            }
        }
        if (!ran) {
            snprintf(why, len, "%s", skipwhy);
            return XF_CHECK_SKIP;
        }
        return XF_CHECK_PASS;
    }
    case XF_CHECK_TANGENT:
        return transform_mode(dir, "tlm.xaif", &trs->tangent, XF_DRIVER_TANGENT,
                              "FAILREASON_tlm_none", "scalar_tlm", "tangent", "ref/tlm.xb.xaif",
                              &par, why, len, ops);
    case XF_CHECK_ADJOINT_JOINT:
        return transform_mode(dir, adjoint_input(dir), &trs->adjoint, XF_DRIVER_ADJOINT_JOINT,
                              "FAILREASON_adm_joint", "scalar_adm_joint", "joint adjoint",
                              "ref/adm.xb.xaif", &par, why, len, ops);
    case XF_CHECK_ADJOINT_SPLIT:
        return transform_mode(dir, adjoint_input(dir), &trs->adjoint, XF_DRIVER_ADJOINT_SPLIT,
                              "FAILREASON_adm_split", "scalar_adm_split", "split adjoint",
                              "ref/adm.xb.xaif", &par, why, len, ops);
    case XF_CHECK_MODES:
        break;
    }
    return XF_CHECK_SKIP;
}

static const char *const outcome_names[XF_CHECK_STATUSES] = {"PASS",  "FAIL",  "SKIP", "PASS*",
                                                             "FAIL*", "PASS~", "FAIL~"};

/* The transform modes' pipelines and catalogues, when a mode needs them. */
static int
transforms_init(transforms *trs, xf_doc **cat, xf_doc **direct, const xf_check_opts *o, FILE *out)
{
    char err[300];
    xf_diag *d = xf_diag_new(out);
    *cat = xf_catalogue_load(o->catalogue, d);
    *direct = xf_direct_load(NULL, d);
    xf_diag_free(d);
    if (!*cat || !*direct)
        return -1;
    transform *t[2] = {&trs->tangent, &trs->adjoint};
    const char *names[2] = {"tangent", "adjoint"};
    for (int k = 0; k < 2; k++) {
        t[k]->catalogue = *cat;
        t[k]->direct = *direct;
        t[k]->opts = o->passopts;
        t[k]->door = o->door;
        t[k]->n = xf_pipeline_parse(names[k], t[k]->passes, 16, err, sizeof err);
        if (t[k]->n < 0) {
            fprintf(out, "%s\n", err);
            return -1;
        }
    }
    return 0;
}

static void
print_ops(FILE *out, xf_check_mode mode, const char *name, const opcounts *ops)
{
    const xf_run_stats *a = &ops->ours, *b = &ops->ref;
    fprintf(out,
            "OPS   %-12s %s ours %llu (%llu+ %llu* %llu/ %llu f) tape %llu "
            "xaifBooster %llu (%llu+ %llu* %llu/ %llu f) tape %llu\n",
            xf_check_mode_name(mode), name, (unsigned long long)flops(a),
            (unsigned long long)a->adds, (unsigned long long)a->muls, (unsigned long long)a->divs,
            (unsigned long long)a->intrinsics, (unsigned long long)tape_words(a),
            (unsigned long long)flops(b), (unsigned long long)b->adds, (unsigned long long)b->muls,
            (unsigned long long)b->divs, (unsigned long long)b->intrinsics,
            (unsigned long long)tape_words(b));
}

/* Check the example in folder @dir in every mode of @o. */
static int
check_folder(const char *dir, const xf_check_opts *o, const transforms *trs, FILE *out,
             xf_check_results *res, int *failed)
{
    const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    for (int k = 0; k < o->nmodes; k++) {
        xf_check_mode mode = o->modes[k];
        char why[1200] = "";
        opcounts ops = {0};
        xf_check_status st = check_example(dir, mode, trs, why, sizeof why, &ops);
        if (o->stats && ops.have_ours && ops.have_ref)
            print_ops(out, mode, name, &ops);
        xf_check_result r = {.name = (char *)name,
                             .mode = mode,
                             .status = st,
                             .have_ours = ops.have_ours,
                             .have_ref = ops.have_ours && ops.have_ref};
        if (r.have_ours) {
            r.ops = flops(&ops.ours);
            r.tape = tape_words(&ops.ours);
        }
        if (r.have_ref) {
            r.ref_ops = flops(&ops.ref);
            r.ref_tape = tape_words(&ops.ref);
        }
        if (xf_check_results_add(res, &r) != 0) {
            fprintf(out, "error: out of memory\n");
            return -1;
        }
        if (st == XF_CHECK_FAIL)
            (*failed)++;
        if (st == XF_CHECK_PASS || st == XF_CHECK_PASS_DD || st == XF_CHECK_PASS_XB)
            fprintf(out, "%-5s %-12s %s%s\n", outcome_names[st], xf_check_mode_name(mode), name,
                    st == XF_CHECK_PASS_DD   ? " (against dd.out: OpenAD's is wrong)"
                    : st == XF_CHECK_PASS_XB ? " (custom driver: agrees with xaifBooster's output "
                                               "under the generic one)"
                                             : "");
        else
            fprintf(out, "%-5s %-12s %s: %s\n", outcome_names[st], xf_check_mode_name(mode), name,
                    why);
    }
    return 0;
}

/* --min-pass (legacy): did each mode pass @min_pass percent of what it ran? */
static bool
reached(const xf_check_results *res, int min_pass)
{
    for (int m = 0; m < XF_CHECK_MODES; m++) {
        int pass = 0, ran = 0;
        for (size_t i = 0; i < res->n; i++)
            if ((int)res->v[i].mode == m &&
                (res->v[i].status == XF_CHECK_PASS || res->v[i].status == XF_CHECK_FAIL)) {
                ran++;
                pass += res->v[i].status == XF_CHECK_PASS;
            }
        if (ran && (int)(100.0 * pass / ran) < min_pass)
            return false;
    }
    return true;
}

int
xf_check_run(const xf_check_opts *o, FILE *out, xf_check_results *res, bool *searched)
{
    int failed = 0, ret = 0;
    transforms trs = {.tangent = {.opts = {.elimination = XF_ELIM_BEST}}};
    xf_doc *cat = NULL, *direct = NULL;
    bool need = false;
    *searched = false;
    for (int k = 0; k < o->nmodes; k++)
        need = need || o->modes[k] >= XF_CHECK_TANGENT;
    if (need && transforms_init(&trs, &cat, &direct, o, out) != 0)
        ret = -1;
    for (int r = 0; r < o->nroots && ret == 0; r++) {
        char **ex;
        bool s;
        long n = xf_check_find(o->roots[r], &ex, &s, out);
        if (n < 0) {
            ret = -1;
            break;
        }
        *searched = *searched || s;
        if (n == 0) {
            fprintf(out,
                    "%s: error: no example folder (params.conf with tlm.xaif or adm.xaif) in it "
                    "or in its subfolders, %d levels deep\n",
                    o->roots[r], XF_CHECK_DEPTH);
            ret = -1;
        }
        for (long i = 0; i < n; i++) {
            if (ret == 0 && check_folder(ex[i], o, &trs, out, res, &failed) != 0)
                ret = -1;
            free(ex[i]);
        }
        free(ex);
    }
    xf_doc_free(cat);
    xf_doc_free(direct);
    if (ret != 0)
        return ret;
    xf_check_results_sort(res);
    xf_check_summary(res, out);
    if (o->min_pass > 0)
        return reached(res, o->min_pass) ? 0 : 1;
    return failed ? 1 : 0;
}
