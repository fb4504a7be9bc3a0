/* f_names.c: the Fortran names of routines, variables and derivatives, free
 * of collisions with each other and with the intrinsics the generated code
 * calls. Fortran ignores case, so every name is lower case. A name is the
 * symbol's id without the front end's numeric suffix (head__24 -> head,
 * X_1 -> x) when that is free, else the whole id made an identifier. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "f_impl.h"
#include "bk_names.h"
#include "value_kind.h"

/* Words a generated name must not be: the intrinsics and modules the
 * generated code names (a variable of that name would hide the intrinsic),
 * and the program unit names of the drivers. */
static const char *const reserved[] = {
    "sin",  "cos",    "tan",        "asin",    "acos",  "atan", "sinh",      "cosh",  "tanh",
    "exp",  "log",    "log10",      "sqrt",    "abs",   "int",  "nint",      "dble",  "real",
    "mod",  "sign",   "min",        "max",     "merge", "size", "allocated", "huge",  "kind",
    "main", "driver", "xaiform_ad", "present", "iand",  "ior",  "not",       "floor", "modulo"};

/* Fortran's 63 characters, with room for a suffix; lower case. */
static const xf_bk_rules rules = {reserved, sizeof reserved / sizeof *reserved, 56, true, true,
                                  false};

static xf_bk_mode
bk_mode(const fw *w)
{
    return w->mode == FW_TANGENT   ? XF_BK_TANGENT
           : w->mode == FW_ADJOINT ? XF_BK_ADJOINT
                                   : XF_BK_PLAIN;
}

bool
fw_has_deriv(const fw *w, const xf_symbol *s)
{
    return xf_bk_has_deriv(bk_mode(w), s);
}

bool
fw_names(fw *w)
{
    uint32_t n = w->doc->nsymbols;
    xf_bk_symname *b = calloc(n ? n : 1, sizeof *b);
    const xf_routine *taken = NULL;
    bool ok = b && xf_bk_names(w->doc, w->hascode, bk_mode(w), &rules, b, w->rname, &taken);
    for (uint32_t i = 0; b && i < n; i++) { /* fw_names_free frees them */
        w->syms[i].name = b[i].name;
        w->syms[i].dname = b[i].dname;
        w->syms[i].same = b[i].same;
        w->syms[i].global = w->syms[i].global || b[i].global;
    }
    free(b);
    if (taken)
        fw_refuse(w, taken->h.line, "the name %s_tpl is taken", w->rname[taken->index]);
    else if (!ok && !w->failed)
        fw_refuse(w, 0, "out of memory");
    return ok;
}

void
fw_names_free(fw *w)
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
fw_ftype(fw *w, const xf_symbol *s, uint32_t line)
{
    static const char *const ftype[] = {"integer", "double precision",
                                        "logical"}; /* by xf_bk_kind */
    if (fw_is_string(s))
        return fw_string_ftype(w, s, line);
    xf_bk_kind k = xf_bk_kind_of(s->type);
    if (k != XF_BK_BAD)
        return ftype[k];
    fw_refuse(w, line ? line : s->h.line, "variable %s has type %s, which has no Fortran here",
              s->id, s->type ? xf_type_name(s->type) : "(none)");
    return NULL;
}

bool
fw_allocatable(const fw *w, const xf_symbol *s)
{
    int rank = xf_shape_rank(s->shape);
    return rank > 0 && (int)s->dims.n != rank && !w->syms[s->index].formal;
}

bool
fw_dims(fw *w, FILE *o, const xf_symbol *s, uint32_t line)
{
    int rank = xf_shape_rank(s->shape);
    if (rank <= 0)
        return true;
    if ((int)s->dims.n != rank) { /* assumed shape (a formal) or allocatable */
        if (s->dims.n) {
            fw_refuse(w, line ? line : s->h.line, "array %s of rank %d has %u DimensionBounds",
                      s->id, rank, s->dims.n);
            return false;
        }
        fputs("(", o);
        for (int k = 0; k < rank; k++)
            fputs(k ? ", :" : ":", o);
        fputs(")", o);
        return true;
    }
    fputs("(", o);
    for (int k = 0; k < rank; k++) { /* listed last dimension first */
        const xf_dimbounds *b = &s->dims.v[rank - 1 - k];
        fprintf(o, "%s%lld:%lld", k ? ", " : "", (long long)b->lower, (long long)b->upper);
    }
    fputs(")", o);
    return true;
}
