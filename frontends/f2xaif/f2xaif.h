/* f2xaif.h: the Fortran front end: Fortran files, read by Flang 19 through
 * a plugin (plugin/f2xaif_plugin.cpp), to xaif. See docs/fortran-frontend.md. */
#ifndef XF_F2XAIF_H
#define XF_F2XAIF_H

#include <stdio.h>

typedef struct xf_f2xaif_opts {
    const char *const *files; /* the Fortran sources, NULL-terminated (modules found first) */
    const char *function;     /* the top routine; NULL: head, else the last file's first */
    const char *const *indep; /* its independents, NULL-terminated; NULL: the c$openad pragmas */
    const char *const *dep;   /* its dependents, likewise */
    const char *out;          /* the xaif file to write ("-": standard output) */
} xf_f2xaif_opts;

/**
 * xf_f2xaif:
 * Translate routine @o->function of @o->files and the routines it calls into
 * xaif in @o->out. Errors go to @err as "FILE:LINE:COL: error: ..."; nothing
 * is written then.
 * @returns 0, 1 for an input error (refused or bad Fortran), 3 for an
 * internal error (Flang or its plugin cannot run, out of memory).
 */
int xf_f2xaif(const xf_f2xaif_opts *o, FILE *err);

#endif
