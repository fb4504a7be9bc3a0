/* c2xaif.h: the C front end: a C file (libclang) to xaif, as OpenAD's
 * Fortran front end writes it. See docs/c-frontend.md. */
#ifndef XF_C2XAIF_H
#define XF_C2XAIF_H

#include <stdio.h>

typedef struct xf_c2xaif_opts {
    const char *file;              /* the C source */
    const char *function;          /* the top function F */
    const char *const *indep;      /* names of F's independent parameters, NULL-terminated */
    const char *const *dep;        /* names of F's dependent parameters, NULL-terminated */
    const char *const *clang_args; /* -I, -D arguments for clang, NULL-terminated */
    const char *const *extents;    /* "NAME=N": F's pointer parameters' extents, NULL-terminated */
    const char *const *externals;  /* functions whose derivatives the user writes
                                      (--external-derivative), NULL-terminated */
    const char *out;               /* the xaif file to write ("-": standard output) */
    /* when not NULL, the xaif goes here instead of to @out: *text malloc'd
     * (the caller frees it), *len its bytes; NULL when nothing was made */
    char **text;
    size_t *len;
} xf_c2xaif_opts;

/**
 * xf_c2xaif:
 * Translate @o->file's function @o->function and its callees into xaif in
 * @o->out (or to *@o->text). Errors go to @err as "FILE:LINE:COL: error: ..."; nothing is
 * written then.
 * @returns 0, 1 for an input error (refused or bad C), 3 for an internal
 * error (out of memory, cannot write).
 */
int xf_c2xaif(const xf_c2xaif_opts *o, FILE *err);

#endif
