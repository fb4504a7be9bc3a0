/* regress.c: the regression runner: every example folder of the OpenAD
 * regression layout (params.conf, tlm.xaif, adm.xaif, ref/...) run in each
 * mode and compared with the reference Jacobians. */
#include "regress.h"
#include "regress_door.h"
#include "check_f90.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pipeline.h"
#include "read.h"
#include "run.h"
#include "schema.h"
#include "write.h"
#ifdef XF_F_FRONTEND
#include <unistd.h>

#include "f2xaif.h"
#endif

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

/* Run the adjoint modes from tlm.xaif instead of adm.xaif (@file)? When the
 * front end lost passive stores there that tlm.xaif keeps (Loop_simple_9a's
 * k = i, ...): adm.xaif would not run as written. */
static bool
lost_more(const char *dir, const char *file, const char *alt)
{
    long f = lost_stores(dir, file), a = lost_stores(dir, alt);
    return f > 0 && a >= 0 && a < f;
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
 * @atol absolutely. 0 when all agree; else the first difference in @why,
 * its class in *@rs. */
static int
compare(const xf_jacobian *got, const xf_jacobian *ref, double rtol, double atol, char *why,
        size_t len, xf_check_reason *rs)
{
    if (got->m != ref->m || got->n != ref->n) {
        *rs = XF_FAIL_SHAPE;
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
            *rs = XF_FAIL_JACOBIAN;
            snprintf(why, len, "F(%d,%d) = %.17g, reference %.17g (relative difference %.2g)",
                     k + 1, i + 1, a, b, b != 0 ? diff / fabs(b) : diff);
            return 1;
        }
    return 0;
}

/* What the transform modes run before the interpreter. */
typedef struct transform {
    const xf_pass *passes[XF_PM_MAX];
    int n;
    const xf_doc *catalogue, *direct;
    xf_opts opts;
    const char *door;  /* --oad-driver: a program makes the derivative instead */
    xf_schema *schema; /* --schema: every output must satisfy it; or NULL */
    const char *schema_name;
    size_t *invalid;   /* counts the outputs that violate it */
    const char *input; /* not NULL: the xaif to read instead of the example's file */
    bool fortran;      /* run as Fortran written by xaif2f (check_f90.c), not interpreted */
} transform;

/* Does the derivative @doc made of @dir/@file satisfy @tr's schema? 0, or
 * -1 with the first violation in @why. */
static int
valid_output(const transform *tr, const xf_doc *doc, const char *dir, const char *file, char *why,
             size_t len)
{
    char *buf = NULL, name[4096];
    size_t n = 0;
    const char *last = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    snprintf(name, sizeof name, "the output of %s/%s", last, file);
    xf_diag *d = xf_diag_new(NULL);
    int ret = xf_write_memory(doc, &buf, &n, d) == 0 &&
                      xf_schema_validate_memory(tr->schema, buf, n, name, d) == 0
                  ? 0
                  : -1;
    if (ret != 0) {
        snprintf(why, len, "not valid against %s: %s", tr->schema_name,
                 xf_diag_message(d, 0) ? xf_diag_message(d, 0) : "unchecked");
        (*tr->invalid)++;
    }
    free(buf);
    xf_diag_free(d);
    return ret;
}

/* Run @file of @dir (transformed by @tr, if any) under @driver into @got.
 * @returns 0, or -1 with the reason in @why and its class in *@rs. */
static int
execute(const char *dir, const char *file, const transform *tr, xf_driver driver,
        const xf_params *par, xf_jacobian *got, char *why, size_t len, xf_run_stats *stats,
        xf_check_reason *rs)
{
    char path[4096];
    memset(got, 0, sizeof *got);
    *rs = XF_FAIL_READ;
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
                                 : xf_read_file(tr && tr->input ? tr->input : path, NULL, d);
    /* OpenAD's references were made with Fortran drivers: n and m may exceed x and y (duud2) */
    xf_run_opts o = {.driver = driver, .params = *par, .loose_sizes = true};
    int ret = -1;
    if (!doc && tr && tr->door) {
        *rs = XF_FAIL_TRANSFORM; /* the program reads and transforms */
        xf_diag_free(d);
        return -1;
    } else if (doc && tr && tr->door && tr->schema &&
               valid_output(tr, doc, dir, file, why, len) != 0) {
        *rs = XF_FAIL_SCHEMA;
        xf_doc_free(doc);
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
            *rs = XF_FAIL_TRANSFORM;
            snprintf(why, len, "%s",
                     xf_diag_message(d, 0) ? xf_diag_message(d, 0) : "the transform failed");
            xf_doc_free(doc);
            xf_diag_free(d);
            return -1;
        }
        if (tr->schema && valid_output(tr, doc, dir, file, why, len) != 0) {
            *rs = XF_FAIL_SCHEMA;
            xf_doc_free(doc);
            xf_diag_free(d);
            return -1;
        }
    }
    if (doc && tr && tr->fortran) {
        int refused;
        ret = xf_f90_run(doc, driver, par, got, why, len, &refused);
        *rs = ret == 0 ? XF_FAIL_NONE : refused ? XF_FAIL_TRANSFORM : XF_FAIL_RUN;
        xf_doc_free(doc);
        xf_diag_free(d);
        return ret;
    }
    if (doc && xf_run(doc, &o, got, stats, d) != 0) {
        *rs = XF_FAIL_RUN;
        const char *msg = NULL;
        for (size_t i = 0; i < xf_diag_count(d) && !msg; i++)
            if (strstr(xf_diag_message(d, i), "error:"))
                msg = xf_diag_message(d, i);
        snprintf(why, len, "%s", msg ? msg : "the run failed");
        xf_jacobian_fini(got);
    } else if (doc) {
        *rs = XF_FAIL_NONE;
        ret = 0;
    }
    xf_doc_free(doc);
    xf_diag_free(d);
    return ret;
}

/* Run @file of @dir (transformed by @tr, if any) under @driver and compare
 * with @refname; where it fails, the reason in @why, its class in *@rs. */
static xf_check_status
run_one(const char *dir, const char *file, const transform *tr, xf_driver driver,
        const xf_params *par, const char *refname, double rtol, char *why, size_t len,
        xf_run_stats *stats, xf_check_reason *rs)
{
    char refpath[4096];
    xf_jacobian ref, got;
    *rs = XF_FAIL_EXAMPLE;
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
    if (execute(dir, file, tr, driver, par, &got, why, len, stats, rs) == 0) {
        if (compare(&got, &ref, rtol, 1e-12, why, len, rs) == 0)
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

/* The pipelines of the transform modes, and the adjoint's variants. */
typedef struct transforms {
    transform tangent, adjoint;
    transform adjoint_joint; /* the adjoint with --reversal joint (unless the options say) */
    transform adjoint_split; /* the adjoint with --reversal split */
    transform f_tangent, f_joint, f_split; /* the same, run as Fortran */
    transform variants[XF_CHECK_VARIANTS];
} transforms;

/* A transform mode: ours of @file under @driver against ref/ad.out, or
 * against ref/dd.out where @failname says OpenAD's is wrong; @refxb is
 * xaifBooster's output for the operation counts. Where @file is missing
 * and @alt is not NULL, ours of @alt instead (*@from_alt set), judged by
 * ref/dd.out: OpenAD never ran the mode, so ref/ad.out is not its result.
 * @ops receives the counts of ours when it passes, and of xaifBooster's
 * output where that passes against ref/ad.out too (not where OpenAD's is
 * wrong or the driver is custom, so that the totals compare like with like).
 * Where it fails, the reason in @why, its class in *@rs. */
static xf_check_status
transform_mode(const char *dir, const char *file, const char *alt, const transform *tr,
               xf_driver driver, const char *failname, const char *custom, const char *what,
               const char *refxb, const xf_params *par, char *why, size_t len, opcounts *ops,
               bool *from_alt, xf_check_reason *rs)
{
    char r[256];
    *from_alt = false;
    if (alt && exists(dir, alt) && (!exists(dir, file) || lost_more(dir, file, alt))) {
        file = alt;
        *from_alt = true;
    } else if (!exists(dir, file)) {
        snprintf(why, len, "no %s", file);
        return XF_CHECK_SKIP;
    }
    if (custom_driver(dir, custom)) {
        /* no reference for the generic driver: agree with xaifBooster's output under it */
        xf_jacobian ref, got;
        char w[1024];
        xf_check_reason wr;
        if (!exists(dir, refxb) ||
            execute(dir, refxb, NULL, driver, par, &ref, w, sizeof w, NULL, &wr) != 0) {
            snprintf(why, len,
                     "custom driver for the %s, and xaifBooster's output does not run under the "
                     "generic one",
                     what);
            return XF_CHECK_SKIP;
        }
        xf_check_status o = XF_CHECK_FAIL_XB;
        if (execute(dir, file, tr, driver, par, &got, why, len, ops ? &ops->ours : NULL, rs) == 0) {
            if (compare(&got, &ref, 1e-10, 1e-12, why, len, rs) == 0)
                o = XF_CHECK_PASS_XB;
            xf_jacobian_fini(&got);
        }
        xf_jacobian_fini(&ref);
        if (ops && o == XF_CHECK_PASS_XB)
            ops->have_ours = true;
        return o;
    }
    if (*from_alt || failreason(dir, failname, r, sizeof r)) {
        /* OpenAD's result is wrong: judge ours by divided differences */
        if (!exists(dir, "ref/dd.out")) {
            snprintf(why, len, "no ref/dd.out to judge by");
            return XF_CHECK_SKIP;
        }
        xf_check_status o = run_one(dir, file, tr, driver, par, "ref/dd.out", par->tol, why, len,
                                    ops ? &ops->ours : NULL, rs);
        if (ops && o == XF_CHECK_PASS)
            ops->have_ours = true;
        return o == XF_CHECK_PASS ? XF_CHECK_PASS_DD : o == XF_CHECK_FAIL ? XF_CHECK_FAIL_DD : o;
    }
    if (!exists(dir, "ref/ad.out")) {
        snprintf(why, len, "no ref/ad.out");
        return XF_CHECK_SKIP;
    }
    xf_check_status o = run_one(dir, file, tr, driver, par, "ref/ad.out", 1e-10, why, len,
                                ops ? &ops->ours : NULL, rs);
    if (ops && o == XF_CHECK_PASS) {
        char w[1024];
        xf_check_reason wr;
        ops->have_ours = true;
        ops->have_ref =
            exists(dir, refxb) && run_one(dir, refxb, NULL, driver, par, "ref/ad.out", 1e-10, w,
                                          sizeof w, &ops->ref, &wr) == XF_CHECK_PASS;
    }
    return o;
}

/* How a mode from source runs and is judged: as its xaif mode. */
typedef struct src_mode {
    xf_driver driver;
    const char *failname, *custom, *what, *refxb;
} src_mode;

static const src_mode src_tangent_mode = {XF_DRIVER_TANGENT, "FAILREASON_tlm_none", "scalar_tlm",
                                          "tangent", "ref/tlm.xb.xaif"};
static const src_mode src_joint_mode = {XF_DRIVER_ADJOINT_JOINT, "FAILREASON_adm_joint",
                                        "scalar_adm_joint", "joint adjoint", "ref/adm.xb.xaif"};
static const src_mode src_split_mode = {XF_DRIVER_ADJOINT_SPLIT, "FAILREASON_adm_split",
                                        "scalar_adm_split", "split adjoint", "ref/adm.xb.xaif"};

/* A transform mode (@sm, transform @trf) on the xaif that the Fortran front
 * end makes of @dir's head.f (and all_globals_mod.f), judged as that mode
 * judges tlm.xaif or adm.xaif. */
static xf_check_status
src_run(const char *dir, const transform *trf, const src_mode *sm, const xf_params *par, char *why,
        size_t len, opcounts *ops, bool *from_tlm, xf_check_reason *rs)
{
    *from_tlm = false;
    if (!exists(dir, "head.f")) {
        snprintf(why, len, "no head.f");
        return XF_CHECK_SKIP;
    }
#ifdef XF_F_FRONTEND
    char head[4096], mod[4096], out[4096];
    const char *files[3] = {head, NULL, NULL};
    join(head, sizeof head, dir, "head.f");
    if (exists(dir, "all_globals_mod.f") && join(mod, sizeof mod, dir, "all_globals_mod.f")) {
        files[0] = mod; /* the modules before their users */
        files[1] = head;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(out, sizeof out, "%s/xaiform-check-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(out);
    if (fd < 0) {
        snprintf(why, len, "cannot make a temporary file");
        *rs = XF_FAIL_EXAMPLE;
        return XF_CHECK_FAIL;
    }
    close(fd);
    char *msg = NULL;
    size_t msglen = 0;
    FILE *err = open_memstream(&msg, &msglen);
    xf_f2xaif_opts fo = {.files = files, .out = out}; /* head, else head.f's first routine */
    int rc = err ? xf_f2xaif(&fo, err) : 3;
    if (err)
        fclose(err);
    xf_check_status st = XF_CHECK_FAIL;
    if (rc != 0) {
        /* the first error line, without the example's folder */
        const char *m = msg ? strstr(msg, "error:") : NULL;
        const char *line = m ? m : msg ? msg : "";
        while (m && m > msg && m[-1] != '\n')
            m--;
        if (m && strncmp(m, dir, strlen(dir)) == 0)
            line = m + strlen(dir) + 1;
        snprintf(why, len, "f2xaif: %.*s", (int)strcspn(line, "\n"), line);
        *rs = XF_FAIL_READ;
    } else {
        transform tr = *trf;
        tr.input = out;
        st = transform_mode(dir, "head.f", NULL, &tr, sm->driver, sm->failname, sm->custom,
                            sm->what, sm->refxb, par, why, len, ops, from_tlm, rs);
    }
    free(msg);
    unlink(out);
    return st;
#else
    (void)trf, (void)sm, (void)par, (void)ops, (void)rs;
    snprintf(why, len, "the Fortran front end was not built (no Flang 19)");
    return XF_CHECK_SKIP;
#endif
}

/* Where @dir fails in @mode, the reason in @why and its class in *@rs. */
static xf_check_status
check_example(const char *dir, xf_check_mode mode, const transforms *trs, char *why, size_t len,
              opcounts *ops, bool *from_tlm, xf_check_reason *rs)
{
    xf_params par;
    xf_diag *d = xf_diag_new(NULL);
    char path[4096];
    int pret = join(path, sizeof path, dir, "params.conf") ? xf_params_read(path, &par, d) : -1;
    if (pret != 0)
        snprintf(why, len, "%s", xf_diag_message(d, 0) ? xf_diag_message(d, 0) : "params.conf");
    xf_diag_free(d);
    *rs = XF_FAIL_EXAMPLE;
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
        return run_one(dir, file, NULL, XF_DRIVER_DD, &par, "ref/dd.out", 1e-6, why, len, NULL, rs);
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
                       why, len, NULL, rs);
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
                        sizeof w, NULL, rs) != XF_CHECK_PASS) {
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
        return transform_mode(dir, "tlm.xaif", NULL, &trs->tangent, XF_DRIVER_TANGENT,
                              "FAILREASON_tlm_none", "scalar_tlm", "tangent", "ref/tlm.xb.xaif",
                              &par, why, len, ops, from_tlm, rs);
    /* OpenAD's pipeline failed before writing adm.xaif for some examples;
     * their tlm.xaif is the same program (adm.xaif is a byte copy of it in
     * most examples that have both) */
    case XF_CHECK_ADJOINT_JOINT:
        return transform_mode(dir, "adm.xaif", "tlm.xaif", &trs->adjoint_joint,
                              XF_DRIVER_ADJOINT_JOINT, "FAILREASON_adm_joint", "scalar_adm_joint",
                              "joint adjoint", "ref/adm.xb.xaif", &par, why, len, ops, from_tlm,
                              rs);
    case XF_CHECK_ADJOINT_SPLIT:
        return transform_mode(dir, "adm.xaif", "tlm.xaif", &trs->adjoint_split,
                              XF_DRIVER_ADJOINT_SPLIT, "FAILREASON_adm_split", "scalar_adm_split",
                              "split adjoint", "ref/adm.xb.xaif", &par, why, len, ops, from_tlm,
                              rs);
    case XF_CHECK_SRC_TANGENT:
        return src_run(dir, &trs->tangent, &src_tangent_mode, &par, why, len, ops, from_tlm, rs);
    case XF_CHECK_SRC_JOINT:
        return src_run(dir, &trs->adjoint_joint, &src_joint_mode, &par, why, len, ops, from_tlm,
                       rs);
    case XF_CHECK_SRC_SPLIT:
        return src_run(dir, &trs->adjoint_split, &src_split_mode, &par, why, len, ops, from_tlm,
                       rs);
    case XF_CHECK_SRC_F_TANGENT:
        return src_run(dir, &trs->f_tangent, &src_tangent_mode, &par, why, len, NULL, from_tlm, rs);
    case XF_CHECK_SRC_F_JOINT:
        return src_run(dir, &trs->f_joint, &src_joint_mode, &par, why, len, NULL, from_tlm, rs);
    case XF_CHECK_SRC_F_SPLIT:
        return src_run(dir, &trs->f_split, &src_split_mode, &par, why, len, NULL, from_tlm, rs);
    case XF_CHECK_F_TANGENT:
        return transform_mode(dir, "tlm.xaif", NULL, &trs->f_tangent, XF_DRIVER_TANGENT,
                              "FAILREASON_tlm_none", "scalar_tlm", "tangent", "ref/tlm.xb.xaif",
                              &par, why, len, NULL, from_tlm, rs);
    case XF_CHECK_F_JOINT:
        return transform_mode(dir, "adm.xaif", "tlm.xaif", &trs->f_joint, XF_DRIVER_ADJOINT_JOINT,
                              "FAILREASON_adm_joint", "scalar_adm_joint", "joint adjoint",
                              "ref/adm.xb.xaif", &par, why, len, NULL, from_tlm, rs);
    case XF_CHECK_F_SPLIT:
        return transform_mode(dir, "adm.xaif", "tlm.xaif", &trs->f_split, XF_DRIVER_ADJOINT_SPLIT,
                              "FAILREASON_adm_split", "scalar_adm_split", "split adjoint",
                              "ref/adm.xb.xaif", &par, why, len, NULL, from_tlm, rs);
    case XF_CHECK_MODES:
        break;
    }
    return XF_CHECK_SKIP;
}

static const char *const outcome_names[XF_CHECK_STATUSES] = {"PASS",  "FAIL",  "SKIP", "PASS*",
                                                             "FAIL*", "PASS~", "FAIL~"};

/* The transform modes' pipelines and catalogues, when a mode needs them. */
static int
transforms_init(transforms *trs, xf_doc **cat, xf_doc **direct, xf_schema **schema,
                const xf_check_opts *o, FILE *out, size_t *invalid)
{
    char err[300];
    xf_diag *d = xf_diag_new(out);
    *cat = xf_catalogue_load(o->catalogue, d);
    *direct = xf_direct_load(NULL, d);
    *schema = o->schema ? xf_schema_load(o->schema, d) : NULL;
    xf_diag_free(d);
    if (!*cat || !*direct || (o->schema && !*schema))
        return -1;
    const char *sname =
        o->schema && strrchr(o->schema, '/') ? strrchr(o->schema, '/') + 1 : o->schema;
    transform *t[2] = {&trs->tangent, &trs->adjoint};
    const char *names[2] = {"tangent", "adjoint"};
    for (int k = 0; k < 2; k++) {
        t[k]->catalogue = *cat;
        t[k]->direct = *direct;
        t[k]->opts = o->passopts;
        t[k]->door = o->door;
        t[k]->schema = *schema;
        t[k]->schema_name = sname;
        t[k]->invalid = invalid;
        t[k]->n = xf_pipeline_parse(names[k], t[k]->passes, XF_PM_MAX, err, sizeof err);
        if (t[k]->n < 0) {
            fprintf(out, "%s\n", err);
            return -1;
        }
    }
    /* each adjoint driver runs the adjoint made for its template (what
     * --loops auto adjoins early, and deadstore's trimming of the joint
     * rerun, depend on it); a --reversal among the options is kept for
     * the joint driver (the output of --reversal split must be right under
     * both templates) */
    trs->adjoint_joint = trs->adjoint;
    if (trs->adjoint_joint.opts.reversal == XF_REV_BOTH)
        trs->adjoint_joint.opts.reversal = XF_REV_JOINT;
    trs->adjoint_split = trs->adjoint;
    trs->adjoint_split.opts.reversal = XF_REV_SPLIT;
    trs->f_tangent = trs->tangent;
    trs->f_joint = trs->adjoint_joint;
    trs->f_split = trs->adjoint_split;
    trs->f_tangent.fortran = trs->f_joint.fortran = trs->f_split.fortran = true;
    for (int v = 0; v < o->nvariants; v++) {
        trs->variants[v] = trs->adjoint;
        trs->variants[v].opts = o->variant_opts[v];
    }
    return 0;
}

/* The tape words of the adjoint modes: real and integer, per example and
 * in sum, of ours, xaifBooster's output and each variant of ours. */
typedef struct tapes {
    int n; /* examples in the sums: ours and xaifBooster's both counted */
    uint64_t real[2 + XF_CHECK_VARIANTS], ints[2 + XF_CHECK_VARIANTS];
    uint64_t peak[2 + XF_CHECK_VARIANTS]; /* the runs' peak tapes, summed */
    int nvar[XF_CHECK_VARIANTS];          /* of those, where the variant agreed with ours */
} tapes;

/* Variant @tv of our adjoint of @file under @driver: its counts in @st
 * when its Jacobian equals ours (both run here). 0, or -1 with the reason. */
static int
variant_run(const char *dir, const char *file, const transform *ours, const transform *tv,
            xf_driver driver, const xf_params *par, xf_run_stats *st, char *why, size_t len)
{
    xf_jacobian a, b;
    xf_check_reason rs;
    if (execute(dir, file, ours, driver, par, &a, why, len, NULL, &rs) != 0)
        return -1;
    int ret = execute(dir, file, tv, driver, par, &b, why, len, st, &rs);
    if (ret == 0) {
        ret = compare(&b, &a, 1e-10, 1e-12, why, len, &rs) == 0 ? 0 : -1;
        xf_jacobian_fini(&b);
    }
    xf_jacobian_fini(&a);
    return ret;
}

/* "R/I peak P": the real and integer words @s pushed and its peak tape; or "-". */
static void
words(char *p, size_t len, bool have, const xf_run_stats *s)
{
    if (have)
        snprintf(p, len, "%llu/%llu peak %lld", (unsigned long long)s->push[XF_WORD_REAL],
                 (unsigned long long)s->push[XF_WORD_INT], (long long)s->peak_tape);
    else
        snprintf(p, len, "-");
}

/* The TAPE line of an adjoint mode where ours passed; the variants run here. */
static void
print_tape(FILE *out, const xf_check_opts *o, const transforms *trs, const char *dir,
           const char *name, xf_check_mode mode, bool from_tlm, const opcounts *ops, tapes *sum)
{
    xf_params par;
    char path[4096], c[64];
    xf_diag *d = xf_diag_new(NULL);
    bool ok = join(path, sizeof path, dir, "params.conf") && xf_params_read(path, &par, d) == 0;
    xf_diag_free(d);
    xf_driver driver =
        mode == XF_CHECK_ADJOINT_JOINT ? XF_DRIVER_ADJOINT_JOINT : XF_DRIVER_ADJOINT_SPLIT;
    words(c, sizeof c, true, &ops->ours);
    fprintf(out, "TAPE  %-12s %s real/int words: ours %s", xf_check_mode_name(mode), name, c);
    words(c, sizeof c, ops->have_ref, &ops->ref);
    fprintf(out, ", xaifBooster %s", c);
    bool both = ops->have_ref;
    if (both) {
        sum->n++;
        sum->real[0] += ops->ours.push[XF_WORD_REAL];
        sum->ints[0] += ops->ours.push[XF_WORD_INT];
        sum->real[1] += ops->ref.push[XF_WORD_REAL];
        sum->ints[1] += ops->ref.push[XF_WORD_INT];
        sum->peak[0] += (uint64_t)ops->ours.peak_tape;
        sum->peak[1] += (uint64_t)ops->ref.peak_tape;
    }
    for (int v = 0; v < o->nvariants; v++) {
        xf_run_stats st = {0};
        char why[1200] = "unreadable params.conf";
        if (ok &&
            variant_run(dir, from_tlm ? "tlm.xaif" : "adm.xaif",
                        mode == XF_CHECK_ADJOINT_JOINT ? &trs->adjoint_joint : &trs->adjoint_split,
                        &trs->variants[v], driver, &par, &st, why, sizeof why) == 0) {
            words(c, sizeof c, true, &st);
            fprintf(out, ", %s %s", o->variant_names[v], c);
            if (both) {
                sum->nvar[v]++;
                sum->real[2 + v] += st.push[XF_WORD_REAL];
                sum->ints[2 + v] += st.push[XF_WORD_INT];
                sum->peak[2 + v] += (uint64_t)st.peak_tape;
            }
        } else {
            fprintf(out, ", %s - (%s)", o->variant_names[v], why);
        }
    }
    fputc('\n', out);
}

/* The sums of the TAPE lines of one adjoint mode. */
static void
print_tape_sums(FILE *out, const xf_check_opts *o, xf_check_mode mode, const tapes *t)
{
    static const char *const kinds[3] = {"real", "integer", "peak"};
    for (int k = 0; k < 3; k++) {
        const uint64_t *w = k == 2 ? t->peak : k ? t->ints : t->real;
        fprintf(out, "%s %s tape words over %d examples: ours %llu, xaifBooster's %llu",
                xf_check_mode_name(mode), kinds[k], t->n, (unsigned long long)w[0],
                (unsigned long long)w[1]);
        for (int v = 0; v < o->nvariants; v++)
            fprintf(out, ", %s %llu (over %d)", o->variant_names[v], (unsigned long long)w[2 + v],
                    t->nvar[v]);
        fputc('\n', out);
    }
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
             xf_check_results *res, int *failed, tapes *tp)
{
    const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    for (int k = 0; k < o->nmodes; k++) {
        xf_check_mode mode = o->modes[k];
        char why[1200] = "";
        opcounts ops = {0};
        bool from_tlm = false;
        xf_check_reason rs = XF_FAIL_NONE;
        xf_check_status st = check_example(dir, mode, trs, why, sizeof why, &ops, &from_tlm, &rs);
        if (!xf_check_status_fails(st))
            rs = XF_FAIL_NONE;
        else if (rs == XF_FAIL_NONE) { /* every way to fail names its class */
            fprintf(out, "internal error at %s:%d: %s %s failed without a reason class\n", __FILE__,
                    __LINE__, name, xf_check_mode_name(mode));
            return -1;
        }
        if (o->stats && ops.have_ours && ops.have_ref)
            print_ops(out, mode, name, &ops);
        if (o->stats && ops.have_ours &&
            (mode == XF_CHECK_ADJOINT_JOINT || mode == XF_CHECK_ADJOINT_SPLIT))
            print_tape(out, o, trs, dir, name, mode, from_tlm, &ops, &tp[mode]);
        xf_check_result r = {.name = (char *)name,
                             .mode = mode,
                             .status = st,
                             .reason = rs,
                             .have_ours = ops.have_ours,
                             .have_ref = ops.have_ours && ops.have_ref,
                             .from_tlm = from_tlm};
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
        if (from_tlm && st == XF_CHECK_PASS_DD)
            fprintf(
                out,
                "%-5s %-12s %s (from tlm.xaif, for want of a complete adm.xaif: against dd.out)\n",
                outcome_names[st], xf_check_mode_name(mode), name);
        else if (st == XF_CHECK_PASS || st == XF_CHECK_PASS_DD || st == XF_CHECK_PASS_XB)
            fprintf(out, "%-5s %-12s %s%s\n", outcome_names[st], xf_check_mode_name(mode), name,
                    st == XF_CHECK_PASS_DD   ? " (against dd.out: OpenAD's is wrong)"
                    : st == XF_CHECK_PASS_XB ? " (custom driver: agrees with xaifBooster's output "
                                               "under the generic one)"
                                             : "");
        else
            fprintf(out, "%-5s %-12s %s: %s%s%s%s\n", outcome_names[st], xf_check_mode_name(mode),
                    name, from_tlm ? "from tlm.xaif, for want of a complete adm.xaif: " : "",
                    rs != XF_FAIL_NONE ? xf_check_reason_name(rs) : "",
                    rs != XF_FAIL_NONE ? ": " : "", why);
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
    transforms trs = {0};
    xf_pm_opts_init(&trs.tangent.opts);
    xf_doc *cat = NULL, *direct = NULL;
    xf_schema *schema = NULL;
    tapes tp[XF_CHECK_MODES] = {0};
    bool need = false;
    *searched = false;
    for (int k = 0; k < o->nmodes; k++)
        need = need || o->modes[k] >= XF_CHECK_TANGENT;
    if (need && transforms_init(&trs, &cat, &direct, &schema, o, out, &res->invalid) != 0)
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
            if (ret == 0 && check_folder(ex[i], o, &trs, out, res, &failed, tp) != 0)
                ret = -1;
            free(ex[i]);
        }
        free(ex);
    }
    xf_doc_free(cat);
    xf_doc_free(direct);
    xf_schema_free(schema);
    if (ret != 0)
        return ret;
    xf_check_results_sort(res);
    xf_check_summary(res, out);
    for (int k = 0; o->stats && k < o->nmodes; k++)
        if (o->modes[k] == XF_CHECK_ADJOINT_JOINT || o->modes[k] == XF_CHECK_ADJOINT_SPLIT)
            print_tape_sums(out, o, o->modes[k], &tp[o->modes[k]]);
    if (schema)
        fprintf(out, "derivatives not valid against %s: %zu\n",
                strrchr(o->schema, '/') ? strrchr(o->schema, '/') + 1 : o->schema, res->invalid);
    if (res->invalid)
        return 1;
    if (o->min_pass > 0)
        return reached(res, o->min_pass) ? 0 : 1;
    return failed ? 1 : 0;
}
