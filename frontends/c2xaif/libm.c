/* libm.c: calls of functions the file does not define: the <math.h>
 * functions of C99 that the intrinsics catalogue differentiates (with their
 * float versions, sinf, powf, ...), and the message for every other one. */
#include <stdio.h>
#include <string.h>

#include "cf.h"

/* How a C function becomes xaif: an intrinsic of the catalogue, or an
 * expression of intrinsics (fma), or a choice by a Branch (fmin, fmax, fdim). */
typedef enum how { H_INTRINSIC, H_FMA, H_FMIN, H_FMAX, H_FDIM } how;

static const struct {
    const char *c, *xaif;
    int nargs;
    how how;
    bool int2; /* the second argument is an int (ldexp, scalbn) */
} fns[] = {
    {"sin", "sin_scal", 1, H_INTRINSIC, false},
    {"cos", "cos_scal", 1, H_INTRINSIC, false},
    {"tan", "tan_scal", 1, H_INTRINSIC, false},
    {"asin", "arcsin_scal", 1, H_INTRINSIC, false},
    {"acos", "arccos_scal", 1, H_INTRINSIC, false},
    {"atan", "arctan_scal", 1, H_INTRINSIC, false},
    {"atan2", "atan2_scal_scal", 2, H_INTRINSIC, false},
    {"sinh", "sinh_scal", 1, H_INTRINSIC, false},
    {"cosh", "cosh_scal", 1, H_INTRINSIC, false},
    {"tanh", "tanh_scal", 1, H_INTRINSIC, false},
    {"asinh", "asinh_scal", 1, H_INTRINSIC, false},
    {"acosh", "acosh_scal", 1, H_INTRINSIC, false},
    {"atanh", "atanh_scal", 1, H_INTRINSIC, false},
    {"exp", "exp_scal", 1, H_INTRINSIC, false},
    {"exp2", "exp2_scal", 1, H_INTRINSIC, false},
    {"expm1", "expm1_scal", 1, H_INTRINSIC, false},
    {"log", "ln_scal", 1, H_INTRINSIC, false},
    {"log10", "log10", 1, H_INTRINSIC, false},
    {"log2", "log2_scal", 1, H_INTRINSIC, false},
    {"log1p", "log1p_scal", 1, H_INTRINSIC, false},
    {"sqrt", "sqrt_scal", 1, H_INTRINSIC, false},
    {"cbrt", "cbrt_scal", 1, H_INTRINSIC, false},
    {"hypot", "hypot_scal_scal", 2, H_INTRINSIC, false},
    {"pow", "pow_scal_scal", 2, H_INTRINSIC, false},
    {"erf", "erf_scal", 1, H_INTRINSIC, false},
    {"erfc", "erfc_scal", 1, H_INTRINSIC, false},
    {"lgamma", "lgamma_scal", 1, H_INTRINSIC, false},
    {"tgamma", "tgamma_scal", 1, H_INTRINSIC, false},
    {"fabs", "abs_scal", 1, H_INTRINSIC, false},
    {"abs", "abs_scal", 1, H_INTRINSIC, false},
    {"fmod", "mod_scal_scal", 2, H_INTRINSIC, false},
    {"remainder", "remainder_scal_scal", 2, H_INTRINSIC, false},
    {"copysign", "copysign_scal_scal", 2, H_INTRINSIC, false},
    {"floor", "floor_scal", 1, H_INTRINSIC, false},
    {"ceil", "ceil_scal", 1, H_INTRINSIC, false},
    {"round", "round_scal", 1, H_INTRINSIC, false},
    {"trunc", "trunc_scal", 1, H_INTRINSIC, false},
    {"rint", "rint_scal", 1, H_INTRINSIC, false},
    {"nearbyint", "rint_scal", 1, H_INTRINSIC, false},
    {"ldexp", "ldexp_scal_scal", 2, H_INTRINSIC, true},
    {"scalbn", "ldexp_scal_scal", 2, H_INTRINSIC, true},
    {"fma", NULL, 3, H_FMA, false},
    {"fmin", NULL, 2, H_FMIN, false},
    {"fmax", NULL, 2, H_FMAX, false},
    {"fdim", NULL, 2, H_FDIM, false},
};

/* The other functions of C99's <math.h> (7.12), which xaiform does not
 * differentiate: integer or pointer results, or no derivative. */
static const char *const others[] = {
    "frexp",   "modf",          "remquo",      "ilogb",          "logb",
    "scalbln", "lrint",         "llrint",      "lround",         "llround",
    "nan",     "nextafter",     "nexttoward",  "fpclassify",     "isfinite",
    "isinf",   "isnan",         "isnormal",    "signbit",        "isgreater",
    "isless",  "islessgreater", "isunordered", "isgreaterequal", "islessequal",
};

/* @name's entry in fns (also for its float version, "sinf"), or -1. */
static int
lookup(const char *name)
{
    char base[32];
    size_t n = strlen(name);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            if (n < 2 || n >= sizeof base || name[n - 1] != 'f' || strcmp(name, "absf") == 0)
                return -1;
            memcpy(base, name, n - 1);
            base[n - 1] = '\0';
            name = base;
        }
        for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
            if (strcmp(fns[i].c, name) == 0)
                return (int)i;
    }
    return -1;
}

static bool
standard_other(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        size_t k = strlen(others[i]);
        if (strcmp(others[i], name) == 0 ||
            (n == k + 1 && strncmp(others[i], name, k) == 0 && (name[k] == 'f' || name[k] == 'l')))
            return true;
    }
    return false;
}

/* The C99 headers (7.1.2) whose functions a program may call. */
static const char *const std_headers[] = {
    "assert.h",   "complex.h", "ctype.h",   "errno.h",  "fenv.h",   "float.h",
    "inttypes.h", "iso646.h",  "limits.h",  "locale.h", "math.h",   "setjmp.h",
    "signal.h",   "stdarg.h",  "stdbool.h", "stddef.h", "stdint.h", "stdio.h",
    "stdlib.h",   "string.h",  "tgmath.h",  "time.h",   "wchar.h",  "wctype.h",
};

/* Whether the callee of @x is declared in a standard header (by its file's
 * name: glibc declares some in bits/, which is then named); its name in @buf. */
static bool
std_header(CXCursor x, char *buf, size_t size)
{
    CXCursor callee = clang_getCursorReferenced(x);
    if (clang_Cursor_isNull(callee))
        return false;
    CXFile file;
    clang_getExpansionLocation(clang_getCursorLocation(callee), &file, NULL, NULL, NULL);
    if (!file)
        return false;
    CXString fs = clang_getFileName(file);
    const char *path = clang_getCString(fs) ? clang_getCString(fs) : "";
    const char *base = strrchr(path, '/');
    snprintf(buf, size, "%s", base ? base + 1 : path);
    clang_disposeString(fs);
    for (size_t i = 0; i < sizeof std_headers / sizeof *std_headers; i++)
        if (strcmp(buf, std_headers[i]) == 0)
            return true;
    return false;
}

/* See cf.h. */
_Noreturn void
cf_unseen_refuse(cf *c, CXCursor x, const char *name)
{
    size_t n = strlen(name);
    if (standard_other(name))
        cf_refuse(c, x,
                  "'%s' from <math.h> has no derivative in xaiform; compute it outside the "
                  "function to differentiate and pass its value in, or write it in this file "
                  "(docs/c-frontend.md lists the <math.h> functions xaiform differentiates)",
                  name);
    if (n > 1 && name[n - 1] == 'l') {
        char base[32];
        if (n < sizeof base) {
            memcpy(base, name, n - 1);
            base[n - 1] = '\0';
            if (lookup(base) >= 0)
                cf_refuse(c, x,
                          "'%s' from <math.h> works in long double, which xaiform does not "
                          "differentiate; call '%s' (double) instead",
                          name, base);
        }
    }
    /* another function of the C library: say where it comes from */
    char header[64];
    if (std_header(x, header, sizeof header))
        cf_refuse(c, x,
                  "call to '%s' (from <%s>) whose result is used: xaiform keeps a call of a "
                  "function it does not differentiate only as a statement of its own whose "
                  "arguments are values (printf(\"%%g\\n\", x);); compute the value outside "
                  "the function to differentiate and pass it in",
                  name, header);
    cf_refuse(c, x,
              "call to '%s', which is not defined in this file: xaiform differentiates only "
              "the functions it sees and the <math.h> functions of docs/c-frontend.md; define "
              "'%s' in this file, or write its derivatives %s_d and %s_b and give "
              "--external-derivative %s (docs/c-frontend.md, External functions)",
              name, name, name, name, name);
}

static cf_expr *
node(cf *c, cf_ekind k, const char *op, int nargs, cf_expr *a, cf_expr *b)
{
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = k;
    e->op = op;
    e->nargs = nargs;
    e->a[0] = a;
    e->a[1] = b;
    return e;
}

/* @e as a real: integer constants become real constants, others real_scal. */
static cf_expr *
to_real(cf *c, cf_expr *e)
{
    if (cf_is_real(cf_expr_type(e)))
        return e;
    if (e->kind == CF_E_INT) {
        cf_expr *r = node(c, CF_E_REAL, NULL, 0, NULL, NULL);
        r->rval = (double)e->ival;
        return r;
    }
    return node(c, CF_E_OP, "real_scal", 1, e, NULL);
}

/* See cf.h. */
cf_expr *
cf_libm_call(cf *c, CXCursor x, const char *name)
{
    int i = lookup(name);
    if (i < 0)
        cf_unseen_refuse(c, x, name);
    int nargs = clang_Cursor_getNumArguments(x);
    if (nargs != fns[i].nargs)
        cf_refuse(c, x, "call to '%s' with %d arguments (it takes %d)", name, nargs, fns[i].nargs);
    cf_expr *a[3];
    for (int k = 0; k < nargs; k++) {
        a[k] = cf_expr_of(c, clang_Cursor_getArgument(x, (unsigned)k));
        /* pow keeps an integer exponent (x**n by powering, no log of x) */
        if (k == 0 || (!fns[i].int2 && strcmp(fns[i].c, "pow") != 0))
            a[k] = to_real(c, a[k]);
        else if (fns[i].int2 && cf_is_real(cf_expr_type(a[k])))
            cf_refuse(c, x, "the exponent of '%s' must be an integer", name);
    }
    switch (fns[i].how) {
    case H_INTRINSIC:
        return node(c, CF_E_OP, fns[i].xaif, nargs, a[0], nargs > 1 ? a[1] : NULL);
    case H_FMA: /* a*b + c, rounded twice */
        return node(c, CF_E_OP, "add_scal_scal", 2,
                    node(c, CF_E_OP, "mul_scal_scal", 2, a[0], a[1]), a[2]);
    case H_FMIN:
    case H_FMAX: /* a branch: the catalogue's nc_min/nc_max are integer-valued */
        return cf_select(
            c, x,
            node(c, CF_E_BOOL, fns[i].how == H_FMIN ? "less_than" : "greater_than", 2, a[0], a[1]),
            a[0], a[1]);
    case H_FDIM: { /* a > b ? a - b : 0 */
        cf_expr *zero = node(c, CF_E_REAL, NULL, 0, NULL, NULL);
        return cf_select(c, x, node(c, CF_E_BOOL, "greater_than", 2, a[0], a[1]),
                         node(c, CF_E_OP, "sub_scal_scal", 2, a[0], a[1]), zero);
    }
    }
    cf_refuse(c, x, "call to '%s' is not supported", name);
}

/* Whether expression @x has no side effect: variables, literals, array
 * elements, members, casts and operators other than '=', '++' and '--'. */
static bool
no_effect(cf *c, CXCursor x)
{
    char op[8];
    bool post;
    x = cf_strip(x);
    switch (clang_getCursorKind(x)) {
    case CXCursor_DeclRefExpr:
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
        return true;
    case CXCursor_BinaryOperator:
        if (strcmp(cf_binop_spelling(c, x, op, sizeof op), "=") == 0)
            return false;
        break;
    case CXCursor_UnaryOperator:
        cf_unop_spelling(c, x, op, sizeof op, &post);
        if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)
            return false;
        break;
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_MemberRefExpr:
        break;
    default:
        return false;
    }
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    for (unsigned i = 0; i < n; i++)
        if (!no_effect(c, k[i]))
            return false;
    return true;
}

/* See cf.h. */
bool
cf_no_op(cf *c, CXCursor x)
{
    CXToken *t = NULL;
    unsigned n = 0;
    CXFile file;
    unsigned off;
    /* the first token as written: a macro's name where the statement is one */
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(x)), &file, NULL, NULL,
                               &off);
    if (file)
        clang_tokenize(c->tu,
                       clang_getRange(clang_getLocationForOffset(c->tu, file, off),
                                      clang_getLocationForOffset(c->tu, file, off + 6)),
                       &t, &n);
    bool is_assert = false;
    if (n > 0) {
        CXString s = clang_getTokenSpelling(c->tu, t[0]);
        is_assert = strcmp(clang_getCString(s), "assert") == 0;
        clang_disposeString(s);
    }
    clang_disposeTokens(c->tu, t, n);
    CXCursor e = cf_strip(x);
    if (clang_getCursorKind(e) == CXCursor_CStyleCastExpr &&
        clang_getCanonicalType(clang_getCursorType(e)).kind == CXType_Void) {
        unsigned k;
        CXCursor *kids = cf_children(c, e, &k);
        if (k == 1 && no_effect(c, kids[0]))
            return true; /* (void)0, (void)n: nothing to do */
    }
    if (is_assert) {
        cf_passive_assert(c, x); /* kept as a check (passive.c) */
        return true;
    }
    return false;
}
