/* c_names.c: the C names of routines, variables and derivatives, free of
 * collisions with each other, C's keywords and <math.h>. A name is the
 * symbol's id without the front end's numeric suffix (head__24 -> head,
 * X_1 -> X) when that is free, else the whole id made an identifier. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "c_impl.h"
#include "bk_names.h"
#include "value_kind.h"

/* Words a generated name must not be: C99's keywords, what <math.h>,
 * <stdlib.h> and <stdio.h> declare that generated code might meet, main. */
static const char *const reserved[] = {
    "auto",     "break",      "case",      "char",    "const",    "continue", "default",
    "do",       "double",     "else",      "enum",    "extern",   "float",    "for",
    "goto",     "if",         "inline",    "int",     "long",     "register", "restrict",
    "return",   "short",      "signed",    "sizeof",  "static",   "struct",   "switch",
    "typedef",  "union",      "unsigned",  "void",    "volatile", "while",    "_Bool",
    "_Complex", "_Imaginary", "bool",      "true",    "false",    "main",     "sin",
    "cos",      "tan",        "asin",      "acos",    "atan",     "atan2",    "sinh",
    "cosh",     "tanh",       "exp",       "log",     "log10",    "sqrt",     "pow",
    "fabs",     "fmod",       "floor",     "ceil",    "lround",   "labs",     "abs",
    "fmin",     "fmax",       "copysign",  "round",   "trunc",    "erf",      "exp2",
    "log2",     "cbrt",       "hypot",     "y0",      "y1",       "yn",       "j0",
    "j1",       "jn",         "gamma",     "signgam", "errno",    "stdin",    "stdout",
    "stderr",   "printf",     "fprintf",   "malloc",  "calloc",   "realloc",  "free",
    "abort",    "exit",       "memset",    "memcpy",  "size_t",   "NULL",     "HUGE_VAL",
    "INFINITY", "NAN",        "index",     "time",    "clock",    "rand",     "div",
    "ldiv",     "remainder",  "nan",       "modf",    "frexp",    "ldexp",    "scalbn",
    "asinh",    "acosh",      "atanh",     "expm1",   "log1p",    "erfc",     "lgamma",
    "tgamma",   "rint",       "nearbyint", "fdim",    "fma"};

static const xf_bk_rules rules = {reserved, sizeof reserved / sizeof *reserved, 0, false, false,
                                  true};

static xf_bk_mode
bk_mode(const cw *w)
{
    return w->mode == CW_TANGENT   ? XF_BK_TANGENT
           : w->mode == CW_ADJOINT ? XF_BK_ADJOINT
                                   : XF_BK_PLAIN;
}

bool
cw_has_deriv(const cw *w, const xf_symbol *s)
{
    return xf_bk_has_deriv(bk_mode(w), s);
}

bool
cw_names(cw *w)
{
    uint32_t n = w->doc->nsymbols;
    xf_bk_symname *b = calloc(n ? n : 1, sizeof *b);
    const xf_routine *taken = NULL;
    bool ok = b && xf_bk_names(w->doc, w->hascode, bk_mode(w), &rules, b, w->rname, &taken);
    for (uint32_t i = 0; b && i < n; i++) { /* cw_names_free frees them */
        w->syms[i].name = b[i].name;
        w->syms[i].dname = b[i].dname;
        w->syms[i].same = b[i].same;
        w->syms[i].global = w->syms[i].global || b[i].global;
    }
    free(b);
    if (taken)
        cw_refuse(w, taken->h.line, "the name %s_tpl is taken", w->rname[taken->index]);
    else if (!ok && !w->failed)
        cw_refuse(w, 0, "out of memory");
    return ok;
}

void
cw_names_free(cw *w)
{
    if (w->syms)
        for (uint32_t i = 0; i < w->doc->nsymbols; i++) {
            free((char *)w->syms[i].name);
            free((char *)w->syms[i].dname);
        }
    if (w->rname)
        for (uint32_t i = 0; i < w->doc->cg.routines.n; i++)
            free(w->rname[i]);
}

const char *
cw_ctype(cw *w, const xf_symbol *s, uint32_t line)
{
    if (w->syms[s->index].ctype)
        return w->syms[s->index].ctype;
    static const char *const ctype[] = {"long", "double", "int"}; /* by xf_bk_kind */
    xf_bk_kind k = xf_bk_kind_of(s->type);
    if (k != XF_BK_BAD)
        return ctype[k];
    cw_refuse(w, line ? line : s->h.line, "variable %s has type %s, which has no C here", s->id,
              s->type ? xf_type_name(s->type) : "(none)");
    return NULL;
}

bool
cw_dim_extent(const xf_dimbounds *b, int64_t *out)
{
    int64_t d;
    if (b->upper == XF_NOINT || b->lower == XF_NOINT ||
        __builtin_sub_overflow(b->upper, b->lower, &d) || __builtin_add_overflow(d, 1, &d))
        return false;
    *out = d;
    return true;
}

int64_t
cw_extent(cw *w, const xf_symbol *s, uint32_t line)
{
    int rank = xf_shape_rank(s->shape);
    if (rank <= 0 || cw_rt(s)) /* cw_rt: its size is written at run time (c_extent.c) */
        return 1;
    if (cw_rt_sentinel(s)) {
        cw_refuse(w, line ? line : s->h.line,
                  "array %s is shaped like an array sized at run time, and has no size here",
                  s->id);
        return -1;
    }
    if ((int)s->dims.n != rank) {
        cw_refuse(w, line ? line : s->h.line,
                  "array %s has no DimensionBounds (its size is not in the document)", s->id);
        return -1;
    }
    int64_t n = 1;
    for (uint32_t k = 0; k < s->dims.n; k++) {
        int64_t e;
        if (!cw_dim_extent(&s->dims.v[k], &e)) {
            cw_refuse(w, line ? line : s->h.line,
                      "array %s: dimension %u's extent %lld - (%lld) + 1 does not fit in 64 bits",
                      s->id, k + 1, (long long)s->dims.v[k].upper, (long long)s->dims.v[k].lower);
            return -1;
        }
        if (e < 0)
            e = 0;
        if (e > 0 && n > (INT64_C(1) << 40) / e) {
            cw_refuse(w, line ? line : s->h.line, "array %s is too large", s->id);
            return -1;
        }
        n *= e;
    }
    return n;
}
