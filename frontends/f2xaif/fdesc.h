/* fdesc.h: the Fortran front end's C side: the plugin's description of
 * each file (docs/fortran-frontend.md) read into the C front end's
 * representation (frontends/c2xaif/cf.h), analysed and written as xaif by
 * the C front end's own analyze.c and emit.c. */
#ifndef XF_F2XAIF_FDESC_H
#define XF_F2XAIF_FDESC_H

#include <stdbool.h>
#include <stdio.h>

#include "f2xaif.h"

typedef struct fx_input {
    const char *file; /* the Fortran source */
    char *text;       /* the plugin's description of it (modified in place) */
} fx_input;

/* A c$openad INDEPENDENT(x) or DEPENDENT(y) line. */
typedef struct fx_pragma {
    const char *file;
    unsigned line;
    bool dep;
    char name[64]; /* lower case */
} fx_pragma;

/** fx_translate: the xaif of @o->function from the descriptions @in; see xf_f2xaif. */
int fx_translate(const xf_f2xaif_opts *o, fx_input *in, int nin, const fx_pragma *p, int np,
                 FILE *err);

#endif
