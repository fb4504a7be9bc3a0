/* bk_names.h: what the back ends (xaif2c, xaif2f) share about naming: the
 * names of routines, variables and derivatives, free of collisions with
 * each other and with a language's reserved words. The language's rules
 * (reserved words, case, length, first character) are parameters.
 * Language-neutral: it reads the IR and writes nothing. */
#ifndef XF_BACKEND_BK_NAMES_H
#define XF_BACKEND_BK_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"

/* What is generated: no derivatives, tangent (x -> xd), adjoint (xb). */
typedef enum xf_bk_mode { XF_BK_PLAIN, XF_BK_TANGENT, XF_BK_ADJOINT } xf_bk_mode;

/* A language's rules for identifiers. */
typedef struct xf_bk_rules {
    const char *const *reserved; /* words no generated name may be */
    size_t nreserved;
    size_t max_len;    /* the longest name made from an id; 0: no limit */
    bool fold_lower;   /* names are lower case (the language ignores case) */
    bool letter_first; /* a name starts with a letter; else only a digit,
                          '.' or '_' first gets a prefix */
    bool short_temps;  /* the transforms' temporaries (OpenAD_aux_3,
                          OpenAD_lin_1, OAD_RES0) are named for what they are
                          (t1, d1, res1), after the routine's own variables */
} xf_bk_rules;

/* The names of one symbol (by xf_symbol.index); strings malloc'd. */
typedef struct xf_bk_symname {
    char *name, *dname; /* dname NULL: no derivative */
    uint32_t same;      /* 1 + the index of the common-block partner whose
                           variable it shares; 0: its own */
    bool global;        /* in a scope that is no routine's own */
} xf_bk_symname;

/** xf_bk_has_deriv: whether @s has a derivative companion in @mode. */
bool xf_bk_has_deriv(xf_bk_mode mode, const xf_symbol *s);

/**
 * xf_bk_names:
 * Names the routines with code (@hascode, by xf_routine.index: @rname gets
 * id + "_d" / "_b", and in adjoint mode reserves name + "_tpl") and every
 * variable of their scopes and of the global scopes (@syms, doc->nsymbols).
 * Whatever it names stays in @syms / @rname for the caller to free, also on
 * failure. Returns false when out of memory, or when a routine's _tpl name
 * is taken: then *@clash gets that routine.
 */
bool xf_bk_names(const xf_doc *doc, const bool *hascode, xf_bk_mode mode, const xf_bk_rules *rules,
                 xf_bk_symname *syms, char **rname, const xf_routine **clash);

#endif
