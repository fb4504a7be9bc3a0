/* test_c2xaif.c: the C front end (frontends/c2xaif/, docs/c-frontend.md).
 * For each C function of tests/c/: its xaif validates against the schema
 * and reads back; `run` of it prints what the function compiled by gcc
 * prints on the drivers' point; the tangent agrees with divided
 * differences and the adjoint (joint and split) with the tangent. Each
 * construct the front end refuses is refused with FILE:LINE:COL and
 * status 1, and nothing is written. The front end runs as the program
 * does (xaiform c2xaif), its exit status and messages checked. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "pipeline.h"
#include "read.h"
#include "run.h"
#include "schema.h"
#include "scratch_dir.h"
#include "suites.h"
#include "write.h"
#include "xaif_fixture.h"

static xf_doc *cat, *direct;
static xf_schema *schema;

static void
setup(void)
{
    scratch_make("c2xaif");
    xf_diag *d = xf_diag_new(NULL);
    cat = xf_catalogue_load(NULL, d);
    direct = xf_direct_load(NULL, d);
    schema = xf_schema_load(NULL, d);
    ck_assert_msg(cat && direct && schema, "%s", first_message(d));
    xf_diag_free(d);
}

static void
teardown(void)
{
    xf_doc_free(cat);
    xf_doc_free(direct);
    xf_schema_free(schema);
    cat = direct = NULL;
    schema = NULL;
    scratch_remove();
}

/* The C functions: tests/c/NAME.c, whose first line says
 * "c2xaif-test: FUNCTION N M" (x has N elements, y M). */
static const char *const cases[] = {
    "straight", "loop_fixed",  "loop_var", "nested",    "branch_loop",   "early_return", "calls",
    "mathfns",  "loops_jumps", "switches", "reduction", "stencil",       "ode",          "floats",
    "pointers", "constants",   "gather",   "everyday",  "pointer_moved", "memcopy",
};
enum { NCASES = sizeof cases / sizeof *cases };

typedef struct ccase {
    char src[512], xaif[512], fn[64], ext[64]; /* ext: --extent's value, or "" */
    int n, m;
} ccase;

static void
load_case(ccase *k, const char *name)
{
    snprintf(k->src, sizeof k->src, "%s/c/%s.c", XF_TEST_DATA, name);
    snprintf(k->xaif, sizeof k->xaif, "%s/%s.xaif", dir, name);
    FILE *f = fopen(k->src, "r");
    ck_assert_msg(f != NULL, "cannot open %s", k->src);
    char line[256];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    fclose(f);
    k->ext[0] = '\0';
    ck_assert_msg(sscanf(line, "/* c2xaif-test: %63s %d %d %63s", k->fn, &k->n, &k->m, k->ext) >= 3,
                  "%s: no c2xaif-test line", k->src);
    if (strcmp(k->ext, "*/") == 0)
        k->ext[0] = '\0';
}

/* Translate with @indep independent and y dependent (and the extents @ext,
 * "x=4,y=2"), by the program (XF_XAIFORM, the build's xaiform): this test
 * process never loads libclang, whose threads LeakSanitizer's tracer trips
 * on in Check's forked children. Its messages in *@msg (caller frees).
 * @returns the exit status. */
static int
translate_ext(const char *src, const char *fn, const char *out, const char *indep, const char *ext,
              char **msg)
{
    char cmd[2400];
    snprintf(cmd, sizeof cmd,
             "'%s' c2xaif '%s' --function '%s' --independent '%s' --dependent y%s%s -o '%s' 2>&1",
             XF_XAIFORM, src, fn, indep, ext && *ext ? " --extent " : "", ext ? ext : "", out);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    size_t k;
    while ((k = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += k;
        if (len + 1 == cap) {
            buf = realloc(buf, cap *= 2);
            ck_assert_ptr_nonnull(buf);
        }
    }
    buf[len] = '\0';
    *msg = buf;
    int st = pclose(p);
    ck_assert_msg(WIFEXITED(st), "%s: not exited (%d)", cmd, st);
    return WEXITSTATUS(st);
}

static int
translate(const char *src, const char *fn, const char *out, const char *indep, char **msg)
{
    return translate_ext(src, fn, out, indep, NULL, msg);
}

/* Run @doc under @driver at the drivers' point. */
static void
run(const xf_doc *doc, const ccase *k, xf_driver driver, xf_jacobian *J)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_run_opts ro = {.driver = driver, .params = {.n = k->n, .m = k->m, .h = 1e-7}, .top = k->fn};
    int rc = xf_run(doc, &ro, J, NULL, d);
    ck_assert_msg(rc == 0, "%s: the %s run failed: %s", k->fn, xf_driver_name(driver),
                  first_message(d));
    xf_diag_free(d);
}

static xf_doc *
read_xaif(const char *path)
{
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *doc = xf_read_file(path, NULL, d);
    ck_assert_msg(doc != NULL, "%s does not read back: %s", path, first_message(d));
    xf_diag_free(d);
    return doc;
}

/* @pipeline ("tangent", "adjoint") over the front end's output, validated and read back. */
static xf_doc *
derive(const ccase *k, const char *pipeline, bool split)
{
    xf_doc *doc = read_xaif(k->xaif);
    xf_diag *d = xf_diag_new(NULL);
    const xf_pass *passes[XF_PM_MAX];
    char err[256];
    int n = xf_pipeline_parse(pipeline, passes, XF_PM_MAX, err, sizeof err);
    ck_assert_msg(n > 0, "%s", err);
    xf_opts o = {.reversal = split ? XF_REV_SPLIT : XF_REV_BOTH};
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d, .catalogue = cat, .direct = direct};
    ck_assert_msg(xf_pipeline_run(&ctx, passes, n) == 0, "%s: %s failed: %s", k->fn, pipeline,
                  first_message(d));
    char *text;
    size_t len;
    ck_assert_int_eq(xf_write_memory(doc, &text, &len, d), 0);
    xf_doc_free(doc);
    ck_assert_msg(xf_schema_validate_memory(schema, text, len, "out.xaif", d) == 0,
                  "%s: the %s output is not valid xaif: %s", k->fn, pipeline, first_message(d));
    xf_doc *out = xf_read_memory(text, len, "out.xaif", NULL, d);
    ck_assert_msg(out != NULL, "%s: the %s output does not read back: %s", k->fn, pipeline,
                  first_message(d));
    free(text);
    xf_diag_free(d);
    return out;
}

/* y of the C function compiled by gcc, at x(i) = (i+1)/2 as the drivers set it. */
static void
compiled(const ccase *k, double *y)
{
    char main_c[600], exe[600], cmd[2000];
    snprintf(main_c, sizeof main_c, "%s/main_%s.c", dir, k->fn);
    snprintf(exe, sizeof exe, "%s/main_%s", dir, k->fn);
    FILE *f = fopen(main_c, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f,
            "#include <stdio.h>\n#include \"%s\"\n"
            "int main(void) {\n  double x[%d], y[%d];\n"
            "  for (int i = 0; i < %d; i++) x[i] = (i + 1) / 2.0;\n"
            "  for (int i = 0; i < %d; i++) y[i] = 0.0;\n  %s(x, y);\n"
            "  for (int i = 0; i < %d; i++) printf(\"%%a\\n\", y[i]);\n  return 0;\n}\n",
            k->src, k->n, k->m, k->n, k->m, k->fn, k->m);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cc -std=c99 -O0 -ffp-contract=off -w -o '%s' '%s' -lm", exe, main_c);
    ck_assert_msg(system(cmd) == 0, "cannot compile %s", main_c);
    FILE *p = popen(exe, "r");
    ck_assert_ptr_nonnull(p);
    for (int i = 0; i < k->m; i++)
        ck_assert_msg(fscanf(p, "%la", &y[i]) == 1, "%s: output %d missing", exe, i);
    ck_assert_int_eq(pclose(p), 0);
}

static double
jf(const xf_jacobian *j, int k, int i)
{
    return j->f[(size_t)i * (size_t)j->m + (size_t)k];
}

/* Every entry of @a within @tol (relative, absolute near 0) of @b's. */
static void
same_jacobian(const char *fn, const char *what, const xf_jacobian *a, const xf_jacobian *b,
              double tol)
{
    ck_assert_int_eq(a->m, b->m);
    ck_assert_int_eq(a->n, b->n);
    for (int i = 0; i < a->n; i++)
        for (int k = 0; k < a->m; k++) {
            double u = jf(a, k, i), v = jf(b, k, i);
            ck_assert_msg(fabs(u - v) <= tol * fmax(1.0, fabs(v)), "%s: %s F(%d,%d) = %.17g, %.17g",
                          fn, what, k + 1, i + 1, u, v);
        }
}

START_TEST(a_c_function)
{
    ccase k;
    load_case(&k, cases[_i]);
    char *msg = NULL;
    int rc = translate_ext(k.src, k.fn, k.xaif, "x", k.ext, &msg);
    ck_assert_msg(rc == 0, "%s: c2xaif failed (%d): %s", k.fn, rc, msg);
    free(msg);
    /* 1. valid xaif that reads back */
    xf_diag *d = xf_diag_new(NULL);
    ck_assert_msg(xf_schema_validate_file(schema, k.xaif, true, d) == 0, "%s: %s", k.xaif,
                  first_message(d));
    xf_diag_free(d);
    xf_doc *doc = read_xaif(k.xaif);
    /* 2. the same outputs as the compiled function */
    xf_jacobian P = {0}, D = {0}, T = {0}, A = {0};
    run(doc, &k, XF_DRIVER_PLAIN, &P);
    double y[64];
    ck_assert_int_le(k.m, 64);
    compiled(&k, y);
    for (int i = 0; i < k.m; i++)
        ck_assert_msg(fabs(P.f[i] - y[i]) <= 1e-15 * fmax(1.0, fabs(y[i])),
                      "%s: y[%d] = %.17g by xaiform run, %.17g compiled", k.fn, i, P.f[i], y[i]);
    /* 3. tangent against divided differences, adjoints against the tangent */
    run(doc, &k, XF_DRIVER_DD, &D);
    xf_doc_free(doc);
    xf_doc *t = derive(&k, "tangent", false);
    run(t, &k, XF_DRIVER_TANGENT, &T);
    xf_doc_free(t);
    same_jacobian(k.fn, "tangent vs divided differences", &T, &D, 1e-5);
    for (int split = 0; split < 2; split++) {
        xf_doc *a = derive(&k, "adjoint", split);
        run(a, &k, split ? XF_DRIVER_ADJOINT_SPLIT : XF_DRIVER_ADJOINT_JOINT, &A);
        xf_doc_free(a);
        same_jacobian(k.fn, split ? "split adjoint vs tangent" : "joint adjoint vs tangent", &A, &T,
                      1e-13);
        xf_jacobian_fini(&A);
    }
    xf_jacobian_fini(&P);
    xf_jacobian_fini(&D);
    xf_jacobian_fini(&T);
}
END_TEST

/* ------------------------------------------------ what the xaif says */

static const xf_symbol *
sym(const xf_doc *doc, const char *scope, const char *id)
{
    const xf_scope *s = xf_scope_find(doc, xf_intern((xf_doc *)doc, scope));
    ck_assert_ptr_nonnull(s);
    const xf_symbol *y = xf_symbol_find(s, xf_intern((xf_doc *)doc, id));
    ck_assert_msg(y != NULL, "no symbol %s in scope %s", id, scope);
    return y;
}

static const xf_routine *
routine(const xf_doc *doc, const char *name)
{
    for (uint32_t i = 0; i < doc->cg.routines.n; i++)
        if (strcmp(doc->cg.routines.v[i]->sym->id, name) == 0)
            return doc->cg.routines.v[i];
    ck_abort_msg("no routine %s", name);
    return NULL;
}

static xf_intent
intent(const xf_routine *r, const char *name)
{
    for (uint32_t i = 0; i < r->args.n; i++)
        if (strcmp(r->args.v[i].sym->id, name) == 0)
            return r->args.v[i].intent;
    ck_abort_msg("%s has no argument %s", r->sym->id, name);
    return XF_INTENT_NONE;
}

START_TEST(symbols_intents_and_activity)
{
    ccase k;
    load_case(&k, "calls");
    char *msg = NULL;
    ck_assert_int_eq(translate(k.src, k.fn, k.xaif, "x", &msg), 0);
    free(msg);
    xf_doc *doc = read_xaif(k.xaif);
    /* routines in the order of first call, each with its scope */
    ck_assert_uint_eq(doc->cg.routines.n, 4);
    const xf_routine *top = routine(doc, "calls"), *scale = routine(doc, "scale"),
                     *dot = routine(doc, "dot"), *sq = routine(doc, "sq");
    const char *ts = top->cfg_scope->id;
    /* arrays: vectors with bounds 0:N-1 */
    const xf_symbol *w = sym(doc, ts, "w");
    ck_assert_int_eq(w->shape, XF_SHAPE_VECTOR);
    ck_assert_uint_eq(w->dims.n, 1);
    ck_assert_int_eq(w->dims.v[0].lower, 0);
    ck_assert_int_eq(w->dims.v[0].upper, 2);
    ck_assert_int_eq(sym(doc, ts, "i")->type, XF_TYPE_INTEGER);
    ck_assert(!xf_flag_is(sym(doc, ts, "i")->active, true));
    ck_assert(xf_flag_is(w->active, false));
    ck_assert(xf_flag_is(sym(doc, ts, "x")->active, false));
    /* intents from use: x only read, y only written; scale writes v and its scalar f */
    ck_assert_int_eq(intent(top, "x"), XF_INTENT_IN);
    ck_assert_int_eq(intent(top, "y"), XF_INTENT_OUT);
    ck_assert_int_eq(intent(scale, "v"), XF_INTENT_INOUT);
    ck_assert_int_eq(intent(scale, "f"), XF_INTENT_INOUT);
    ck_assert_int_eq(intent(dot, "a"), XF_INTENT_IN);
    /* a function's value: one more formal, written only */
    ck_assert_uint_eq(dot->args.n, 3);
    ck_assert_int_eq(intent(dot, "dot_ret"), XF_INTENT_OUT);
    ck_assert_int_eq(intent(sq, "sq_ret"), XF_INTENT_OUT);
    /* side effects: scale modifies v (and f), reads both */
    ck_assert(scale->se[XF_SE_MOD].present && scale->se[XF_SE_MOD].refs.n == 2);
    ck_assert(top->se[XF_SE_MOD].refs.n == 1 && top->se[XF_SE_READ].refs.n == 1);
    ck_assert_uint_eq(doc->cg.edges.n, 3);
    xf_doc_free(doc);

    /* a passive real: d depends on integers only; a 3x4 matrix keeps C's order */
    load_case(&k, "floats");
    ck_assert_int_eq(translate(k.src, k.fn, k.xaif, "x", &msg), 0);
    free(msg);
    doc = read_xaif(k.xaif);
    ts = routine(doc, "floats")->cfg_scope->id;
    ck_assert(!xf_flag_is(sym(doc, ts, "d")->active, true));
    ck_assert(xf_flag_is(sym(doc, ts, "y")->active, false));
    xf_doc_free(doc);
    load_case(&k, "nested");
    ck_assert_int_eq(translate(k.src, k.fn, k.xaif, "x", &msg), 0);
    free(msg);
    doc = read_xaif(k.xaif);
    const xf_symbol *a = sym(doc, routine(doc, "nested")->cfg_scope->id, "a");
    ck_assert_int_eq(a->shape, XF_SHAPE_MATRIX);
    ck_assert_int_eq(a->dims.v[0].upper, 2); /* listed first: C's first dimension [3] */
    ck_assert_int_eq(a->dims.v[1].upper, 3);
    xf_doc_free(doc);
}
END_TEST

START_TEST(activity_follows_the_independents)
{
    /* with only y's dependence on x[...] through w, a variable fed by nothing varied is passive */
    ccase k;
    load_case(&k, "straight");
    char *msg = NULL;
    ck_assert_int_eq(translate(k.src, k.fn, k.xaif, "x", &msg), 0);
    free(msg);
    xf_doc *doc = read_xaif(k.xaif);
    char ts[32]; /* the scope's id outlives the document */
    snprintf(ts, sizeof ts, "%s", routine(doc, "straight")->cfg_scope->id);
    ck_assert(xf_flag_is(sym(doc, ts, "t")->active, false));
    xf_doc_free(doc);
    /* y as the independent: nothing is varied and useful but y itself */
    ck_assert_int_eq(translate(k.src, k.fn, k.xaif, "y", &msg), 0);
    free(msg);
    doc = read_xaif(k.xaif);
    ck_assert(!xf_flag_is(sym(doc, ts, "t")->active, true));
    ck_assert(!xf_flag_is(sym(doc, ts, "x")->active, true));
    xf_doc_free(doc);
}
END_TEST

/* ------------------------------------------------------------ refused */

static const struct refusal {
    const char *name, *text;
    int line, col;
    const char *says;
} refusals[] = {
    {"fnptr",
     "#include <math.h>\nvoid f(const double x[2], double y[2]) {\n"
     "    double (*fp)(double) = sin;\n    y[0] = fp(x[0]);\n}\n",
     3, 14, "function pointer 'fp' is not supported"},
    {"fnptr_param",
     "void f(const double x[2], double y[2], double (*g)(double)) {\n    y[0] = x[0];\n}\n", 1, 49,
     "function pointer 'g' is not supported"},
    {"union",
     "union u { double a; int b; };\nvoid f(const double x[2], double y[2]) {\n"
     "    union u v;\n    y[0] = x[0];\n}\n",
     3, 13, "unions are not supported: the member that holds the value cannot be known"},
    {"struct_array_local_2d",
     "struct s { double a; };\nvoid f(const double x[2], double y[2]) {\n"
     "    struct s v[2][3];\n    y[0] = x[0];\n}\n",
     3, 14, "'v' is an array of structs of more than one dimension, which is not supported"},
    {"struct_array_local_init",
     "struct s { double a; };\nvoid f(const double x[2], double y[2]) {\n"
     "    struct s v[2] = {{1}, {2}};\n    y[0] = x[0] * v[1].a;\n}\n",
     3, 21, "an initializer of a local array of structs is not supported: assign its"},
    {"struct_pointer_member_extent",
     "typedef struct { int n; double *d; } m_t;\n"
     "void f(const double x[2], const m_t *m, double y[2]) {\n    for (int i = 0; i < 2; i++)\n"
     "        y[i] = x[i] * m->d[i + m->n];\n}\n",
     1, 33, "the extent of pointer member 'm->d' of 'f' is not known: give --extent m->d=N"},
    {"struct_pointer_to_struct",
     "typedef struct n_s { double a; struct n_s *next; } n_t;\n"
     "void f(const double x[2], const n_t *m, double y[2]) {\n    y[0] = x[0] * m->a;\n}\n",
     1, 44, "struct member 'next' is a pointer to a struct, which is not supported"},
    {"struct_pointer_member_local",
     "typedef struct { int n; double *d; } m_t;\nvoid f(const double x[2], double y[2]) {\n"
     "    m_t v;\n    v.n = 1;\n    y[0] = x[0] * v.n;\n}\n",
     3, 9, "pointer member 'v.d' of local struct 'v' is never malloc'ed: set it as v.d = malloc("},
    {"struct_pointer_member_local_set",
     "typedef struct { int n; double *d; } m_t;\nvoid f(double x[2], double y[2]) {\n"
     "    m_t v;\n    v.d = x;\n    y[0] = x[0];\n}\n",
     4, 11, "pointer member 'v.d' of a local struct is supported only when it is set to malloc("},
    {"struct_array_pointer_member",
     "typedef struct { int n; double *d; } m_t;\n"
     "void f(const double x[2], const m_t *m, double y[2]) {\n    y[0] = x[0] * m[1].n;\n}\n",
     2, 38,
     "the extent of pointer member 'm[i].d' of array of structs 'm' is not known: give --extent "
     "m->d=N"},
    {"struct_pointer_from_call",
     "#include <stdlib.h>\ntypedef struct { int n; double *d; } m_t;\n"
     "static m_t *make(void) { return malloc(sizeof(m_t)); }\n"
     "void f(const double x[2], double y[2]) {\n    m_t *m = make();\n    y[0] = x[0] * m->n;\n}\n",
     5, 14, "'make' returns a pointer to a struct but is no constructor of the form"},
    {"struct_ctor_impure_arg",
     "#include <stdlib.h>\ntypedef struct { int n; double *d; } m_t;\n"
     "static m_t *make(int n) {\n    m_t *m = malloc(sizeof(m_t));\n    m->n = n;\n    return "
     "m;\n}\n"
     "void f(const double x[2], double y[2]) {\n    int k = 1;\n    m_t *m = make(k++);\n"
     "    y[0] = x[0] * m->n;\n}\n",
     10, 19, "an argument of constructor 'make' with a call or a side effect is not supported"},
    {"struct_dtor_does_more",
     "#include <stdlib.h>\ntypedef struct { int n; double *d; } m_t;\n"
     "static m_t *make(int n) {\n    m_t *m = malloc(sizeof(m_t));\n    m->n = n;\n    return "
     "m;\n}\n"
     "static void drop(m_t *m) {\n    m->n = 0;\n    free(m);\n}\n"
     "void f(const double x[2], double y[2]) {\n    m_t *m = make(2);\n"
     "    y[0] = x[0] * m->n;\n    drop(m);\n}\n",
     15, 5, "'drop', called on a struct made by a constructor, does more than free it"},
    {"struct_assign_pointer_member",
     "typedef struct { int n; double *d; } m_t;\n"
     "void f(const double x[2], m_t *a, const m_t *b, double y[2]) {\n    *a = *b;\n"
     "    y[0] = x[0];\n}\n",
     3, 10, "assigning a struct with a pointer member ('d') is not supported"},
    {"rows_of_run_time_length",
     "void f(int m, const double (*a)[m], double y[2]) {\n    y[0] = a[0][0];\n}\n", 1, 30,
     "pointer parameter 'a' to pointers or to rows of variable length is not supported: "
     "declare it as a[n][m]"},
    {"struct_return_top",
     "typedef struct { double a; } s_t;\ns_t f(const double x[2]) { s_t r = {x[0]}; return r; }\n",
     2, 5, "'f', the function differentiated, returns a struct, which is not supported"},
    {"struct_return_unseen",
     "typedef struct { double a; } s_t;\ns_t g(double a);\n"
     "void f(const double x[2], double y[2]) {\n    s_t v;\n    v = g(x[0]);\n"
     "    y[0] = v.a;\n}\n",
     5, 9, "'g' returns a struct and is not defined in this file, which is not supported"},
    {"struct_index",
     "typedef struct { double a; } s_t;\nvoid f(const s_t *s, double y[2]) {\n"
     "    y[0] = (s + 1)->a;\n}\n",
     3, 21, "this member reference is not supported: name the struct variable"},
    {"pointer_cast",
     "void f(const double x[2], double y[2]) {\n    y[0] = *(const double *)(x + 1);\n}\n", 2, 13,
     "a cast of a pointer is not supported: the array it points into cannot be known"},
    {"pointer_two_arrays",
     "typedef struct { double c[2]; } s_t;\n"
     "void f(const double x[2], const s_t *s, double y[2]) {\n    const double *p = x;\n"
     "    y[0] = p[0];\n    p = &s->c[0];\n    y[1] = p[0];\n}\n",
     5, 9, "pointer 'p' points into 'x' and into 's_c': the array it points into cannot be known"},
    {"pointer_several_loop_cond",
     "void f(const double x[2], double y[2], int n) {\n    const double *p = n > 0 ? x : y;\n"
     "    while (p[0] > 0.0)\n        y[0] = y[0] - 1.0;\n}\n",
     3, 12,
     "a use of pointer 'p' in a loop condition is not supported: it points into 'x' and 'y', "
     "chosen at run time; copy the element into a variable before the loop"},
    {"pointer_several_header",
     "void f(const double x[2], double y[2], int n) {\n    const double *p = n > 0 ? x : y;\n"
     "    for (int i = 0; i < 2 && p[i] > 0.0; i++)\n        y[i] = 1.0;\n}\n",
     3, 30, "this use of pointer 'p' is not supported here (a condition or a loop header)"},
    {"heap_assigned",
     "#include <stdlib.h>\nvoid f(const double x[2], double y[2]) {\n"
     "    double *w = malloc(2 * sizeof *w);\n    w[0] = x[0];\n    w = y;\n    y[1] = w[0];\n"
     "    free(w);\n}\n",
     5, 5, "assigning work array 'w', from malloc, is not supported: keep the arrays and swap"},
    {"pointer_several_compare",
     "void f(const double x[2], double y[2], int n) {\n    const double *p = n > 0 ? x : y;\n"
     "    if (p != &y[0])\n        y[0] = 1.0;\n}\n",
     3, 9, "the value of pointer 'p' is not supported here: it points into 'x' and 'y'"},
    {"pointer_unset",
     "void f(const double x[2], double y[2]) {\n    const double *p;\n    y[0] = x[0] * p[0];\n}\n",
     3, 19, "pointer 'p' is used before it points into an array"},
    {"address",
     "static void h(double v[2]) { v[0] = 1.0; }\nvoid f(const double x[2], double y[2]) {\n"
     "    double s = x[0];\n    h(&s);\n    y[1] = s;\n}\n",
     4, 7, "this address is not supported: a pointer points into an array of one dimension"},
    {"malloc_size",
     "#include <stdlib.h>\nvoid f(const double x[2], double y[2]) {\n"
     "    double *w = malloc(16);\n    w[0] = x[0];\n    y[0] = w[0];\n    free(w);\n}\n",
     3, 17, "the size of 'w' is not supported: allocate it as malloc(n * sizeof(double))"},
    {"free_other",
     "#include <stdlib.h>\nvoid f(const double x[2], double y[2]) {\n"
     "    double *p = y;\n    p[0] = x[0];\n    free(p);\n}\n",
     5, 5, "free of anything but a work array malloc'ed where it is declared is not supported"},
    {"memcpy_overlap",
     "#include <string.h>\nvoid f(const double *x, double *y) {\n    y[0] = x[0];\n"
     "    memcpy(y + 2, y, 2 * sizeof *y);\n}\n",
     4, 5, "memcpy within one array ('y') is not supported: its parts may overlap"},
    {"memcpy_size",
     "#include <string.h>\nvoid f(const double x[2], double y[2]) {\n    memcpy(y, x, 16);\n}\n", 3,
     5, "the size of this memcpy is not supported: write it as n * sizeof *dst"},
    {"memcpy_types",
     "#include <string.h>\nvoid f(const double x[2], float y[4]) {\n"
     "    memcpy(y, x, 2 * sizeof *y);\n}\n",
     3, 5, "memcpy between arrays of different element types is not supported"},
    {"pointer_to_pointer_local",
     "void f(const double x[2], double y[2]) {\n    const double *p = x;\n"
     "    const double **pp = &p;\n    y[0] = x[0];\n}\n",
     3, 20, "pointer 'pp' to pointers is not supported as a local"},
    {"pointer_param", "void f(const double *x, double y[2]) {\n    y[0] = x[0 * 1];\n}\n", 1, 22,
     "pointer parameter 'x' has no extent: give --extent x=N (N a number or an expression of the "
     "int parameters, n*d), or declare it as x[n]"},
    {"pointer_sizes",
     "static void h(double *v) { v[0 + 0] = v[1 - 1] * 2.0; }\n"
     "void f(const double x[2], double y[2]) {\n"
     "    double t[3];\n    t[0] = x[0];\n    h(y);\n    h(t);\n    y[0] = t[0];\n}\n",
     6, 5, "calls pass arrays of 2 and 3 elements to pointer parameter 'v' of 'h'"},
    {"pointer_short",
     "static void h(double *v) { v[2] = v[0] * 2.0; }\nvoid f(const double x[2], double y[2]) {\n"
     "    double t[3];\n    t[0] = x[0];\n    h(t);\n    h(y);\n    y[0] = t[0];\n}\n",
     6, 5, "an array of 2 elements passed to pointer parameter 'v' of 'h', which uses 3"},
    {"vla_no_first_extent",
     "static void h(int n, double v[][n]) { v[0][0] = 2.0 * v[0][0]; }\n"
     "void f(const double x[2], double y[2]) {\n    double t[1][2];\n    t[0][0] = x[0];\n"
     "    h(2, t);\n    y[0] = t[0][0];\n    y[1] = x[1];\n}\n",
     1, 29, "array parameter 'v' has no first extent"},
    {"pointer_to_pointer",
     "void f(const double x[2], double y[2], double **p) {\n    y[0] = x[0] + p[0][0];\n}\n", 2, 19,
     "parameter 'p' of type 'double **' is used here: xaiform passes a parameter of a type it "
     "does not differentiate through untouched"},
    {"goto",
     "void f(const double x[2], double y[2]) {\n    y[0] = x[0];\n    goto end;\n"
     "end:\n    y[1] = x[1];\n}\n",
     3, 5, "goto is not supported"},
    {"io",
     "#include <stdio.h>\nvoid f(const double x[2], double y[2]) {\n"
     "    printf(\"%p\\n\", (const void *)x);\n    y[0] = x[0];\n}\n",
     3, 20, "argument 2 of 'printf', which xaiform cannot see, is not a value"},
    {"io_result",
     "#include <stdlib.h>\nvoid f(const double x[2], double y[2]) {\n"
     "    y[0] = x[0] + rand();\n}\n",
     3, 19, "call to 'rand' (from <stdlib.h>) whose result is used: xaiform keeps a call"},
    {"unseen_function",
     "double g(double);\nvoid f(const double x[2], double y[2]) {\n    y[0] = g(x[0]);\n}\n", 3, 12,
     "call to 'g', which is not defined in this file: xaiform differentiates only the functions "
     "it sees and the <math.h> functions of docs/c-frontend.md; define 'g' in this file"},
    {"math_without_derivative",
     "#include <math.h>\nvoid f(const double x[2], double y[2]) {\n"
     "    y[0] = nextafter(x[0], x[1]);\n}\n",
     3, 12, "'nextafter' from <math.h> has no derivative in xaiform; compute it outside"},
    {"math_long_double",
     "#include <math.h>\nvoid f(const double x[2], double y[2]) {\n    y[0] = sinl(x[0]);\n}\n", 3,
     12,
     "'sinl' from <math.h> works in long double, which xaiform does not differentiate; "
     "call 'sin' (double) instead"},
    {"library_call",
     "#include <string.h>\nvoid f(const double x[2], double y[2]) {\n"
     "    memmove(y, x, sizeof y[0]);\n    y[1] = x[0];\n}\n",
     3, 5,
     "call to 'memmove' (from <string.h>), which xaiform does not differentiate: a call of a "
     "function this file does not define is kept only when it comes from <stdio.h> or "
     "<stdlib.h>"},
    {"recursion_cycle",
     "double odd(double v, int n);\nstatic double even(double v, int n) {\n"
     "    if (n == 0)\n        return v;\n    return odd(v, n - 1);\n}\n"
     "double odd(double v, int n) {\n    if (n == 0)\n        return -v;\n"
     "    return even(v, n - 1);\n}\n"
     "void f(const double x[2], double y[2]) {\n    y[0] = odd(x[0], 3);\n}\n",
     7, 8,
     "recursion is not supported: 'odd' calls 'even', which calls 'odd'; "
     "xaiform differentiates no function that calls itself"},
    {"global",
     "double g = 2.0;\nvoid f(const double x[2], double y[2]) {\n    y[0] = x[0] * g;\n}\n", 3, 19,
     "global variable 'g' is not supported"},
    {"static_local",
     "void f(const double x[2], double y[2]) {\n    static double s;\n    s = x[0];\n"
     "    y[0] = s;\n}\n",
     2, 19, "static variable 's' is not supported"},
    {"recursion",
     "static void h(double v[2], int n) {\n    if (n > 0)\n        h(v, n - 1);\n"
     "    v[0] = v[0] * 2.0;\n}\nvoid f(const double x[2], double y[2]) {\n"
     "    y[0] = x[0];\n    y[1] = x[1];\n    h(y, 2);\n}\n",
     1, 13, "recursion is not supported: 'h' calls 'h'"},
    {"aliasing",
     "static void h(const double a[2], double b[2]) {\n    b[0] = a[1];\n    b[1] = a[0];\n}\n"
     "void f(const double x[2], double y[2]) {\n    y[0] = x[0];\n    y[1] = x[1];\n"
     "    h(y, y);\n}\n",
     8, 5, "(aliasing), is not supported"},
    {"long", "void f(const double x[2], double y[2]) {\n    long n = 3;\n    y[0] = x[0] * n;\n}\n",
     2, 10, "type 'long' is not supported"},
    {"vla",
     "void f(const double x[2], double y[2]) {\n    int n = 2;\n    double a[n];\n"
     "    a[0] = x[0];\n    y[0] = a[0];\n}\n",
     3, 12,
     "variable-length array 'a' is not supported: allocate it with malloc, or give it a "
     "constant size"},
    {"comma", "void f(const double x[2], double y[2]) {\n    y[0] = (x[0], x[1]);\n}\n", 2, 13,
     "the comma operator is not supported"},
    {"assignment_in_expression",
     "void f(const double x[2], double y[2]) {\n    y[0] = y[1] = x[0];\n}\n", 2, 12,
     "an assignment inside an expression is not supported"},
    {"increment_read_twice",
     "void f(const double x[2], double y[2]) {\n    int i = 0;\n    y[i++] = x[i];\n}\n", 3, 7,
     "'++' on a variable that the same statement also reads is not supported: write it as a "
     "statement of its own"},
    {"increment_in_initializer",
     "void f(const double x[2], double y[2]) {\n    int i = 0;\n    int j = i++;\n"
     "    y[j] = x[0];\n}\n",
     3, 13, "'++' inside an expression is supported only in an expression statement"},
    {"increment_in_loop_condition",
     "void f(const double x[2], double y[2]) {\n    int i = 0;\n    while (x[i--] > 0.0)\n"
     "        y[0] = x[0];\n}\n",
     3, 14, "'--' inside an expression is supported only in an expression statement"},
    {"increment_of_element",
     "void f(const double x[2], double y[2]) {\n    int c[1] = {0};\n    y[c[0]++] = x[0];\n}\n", 3,
     7, "'++' inside an expression is supported only on an int variable"},
    {"void_cast_with_effect",
     "void f(const double x[2], double y[2]) {\n    (void)(y[0] = x[0]);\n}\n", 2, 5,
     "an expression statement without an effect is not supported"},
    {"call_in_loop_condition",
     "static double g(double a) { return a - 1.0; }\nvoid f(const double x[2], double y[2]) {\n"
     "    double a = x[0] + 3.0;\n    while (g(a) > 0.0)\n        a = a - 1.0;\n    y[0] = a;\n}\n",
     4, 12, "a call in a loop condition is not supported"},
    {"operator_in_a_macro",
     "#define TWICE(a) (2.0 * (a))\nvoid f(const double x[2], double y[2]) {\n"
     "    y[0] = TWICE(x[0]);\n}\n",
     3, 12, "an operator written inside a macro's definition is not supported"},
    {"for_without_condition",
     "void f(const double x[2], double y[2]) {\n    for (;;)\n        break;\n    y[0] = "
     "x[0];\n}\n",
     2, 5, "a for loop without a condition is not supported"},
    {"comparison_as_value",
     "void f(const double x[2], double y[2]) {\n    y[0] = x[0] > x[1];\n}\n", 2, 12,
     "a comparison used as a value (not as a condition) is not supported"},
    {"syntax_error", "void f(const double x[2], double y[2]) {\n    y[0] = x[0] +;\n}\n", 2, 18,
     "expected expression"},
    {"not_a_parameter", "void f(const double z[2], double y[2]) {\n    y[0] = z[0];\n}\n", 1, 6,
     "independent 'x' is no parameter of 'f'"},
};
enum { NREFUSALS = sizeof refusals / sizeof *refusals };

START_TEST(a_refused_construct)
{
    const struct refusal *r = &refusals[_i];
    char src[600], out[600], want[900];
    snprintf(src, sizeof src, "%s/%s.c", dir, r->name);
    snprintf(out, sizeof out, "%s/%s.xaif", dir, r->name);
    FILE *f = fopen(src, "w");
    ck_assert_ptr_nonnull(f);
    fputs(r->text, f);
    fclose(f);
    char *msg = NULL;
    int rc = translate(src, "f", out, "x", &msg);
    ck_assert_msg(rc == 1, "%s: status %d, want 1; %s", r->name, rc, msg);
    snprintf(want, sizeof want, "%s:%d:%d: error: ", src, r->line, r->col);
    ck_assert_msg(strncmp(msg, want, strlen(want)) == 0 && strstr(msg, r->says),
                  "%s: got\n%s\nwant %s...%s", r->name, msg, want, r->says);
    struct stat st;
    ck_assert_msg(stat(out, &st) != 0, "%s: an output was written", r->name);
    free(msg);
}
END_TEST

START_TEST(an_unknown_function_is_refused)
{
    ccase k;
    load_case(&k, "straight");
    char *msg = NULL;
    ck_assert_int_eq(translate(k.src, "nosuch", k.xaif, "x", &msg), 1);
    ck_assert_msg(strstr(msg, "error: no definition of function 'nosuch'"), "%s", msg);
    free(msg);
}
END_TEST

Suite *
test_c2xaif_suite(void)
{
    Suite *s = suite_create("c2xaif");
    TCase *tc = tcase_create("functions");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, a_c_function, 0, NCASES);
    tcase_add_test(tc, symbols_intents_and_activity);
    tcase_add_test(tc, activity_follows_the_independents);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("refused");
    tcase_add_checked_fixture(tr, setup, teardown);
    tcase_add_loop_test(tr, a_refused_construct, 0, NREFUSALS);
    tcase_add_test(tr, an_unknown_function_is_refused);
    suite_add_tcase(s, tr);
    return s;
}
