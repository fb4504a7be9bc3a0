/* xaif2f.h: the Fortran back end. It writes free-form Fortran (2008) for a
 * call graph in the IR: a front end's document (the plain program), the
 * tangent that `xaiform tangent` makes of it, or the adjoint that `xaiform
 * adjoint` makes. Adjoint code uses the runtime module xaiform_ad
 * (include/xaiform/xaiform_ad.f90).
 *
 * Names follow Tapenade's Fortran convention: routine f becomes f (plain),
 * f_d (tangent) or f_b (adjoint); each active real argument x is followed by
 * its derivative, xd or xb. Variables of the global scope live in one
 * module of the file, with their derivative twins beside them.
 *
 * What has no Fortran in this back end is refused with FILE:LINE; nothing
 * is written then. A back end, not a pass: it reads the IR and knows no
 * transform and no interpreter. */
#ifndef XF_XAIF2F_XAIF2F_H
#define XF_XAIF2F_XAIF2F_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "ir.h"

typedef enum xf_f_reversal { XF_F_JOINT, XF_F_SPLIT } xf_f_reversal;

enum { XF_F_MAXARGS = 16 };

/* How a caller calls one routine of the output (filled for opts->top). */
typedef struct xf_xaif2f_sig {
    bool found;
    char name[72]; /* the Fortran name: head_d */
    int nargs;     /* formals (derivatives not counted) */
    struct {
        char type;    /* 'r' real, 'i' integer, 'l' logical */
        int rank;     /* 0: scalar */
        int64_t size; /* elements (1 for a scalar; -1: not declared) */
        bool deriv;   /* followed by its derivative */
    } arg[XF_F_MAXARGS];
} xf_xaif2f_sig;

typedef struct xf_xaif2f_opts {
    /* an adjoint's entry f_b: one activation that tapes and adjoins
     * (joint, the default) or a taping sweep then an adjoint sweep (split) */
    xf_f_reversal reversal;
    /* what the comment at the top names as the source; NULL: the document's file */
    const char *source;
    /* write a document without derivative code as a tangent all the same
     * (f_d; a derivative for each active real): what a tangent driver calls */
    bool as_tangent;
    /* every control-flow graph as labels and GOTOs, structured ones too */
    bool labels_only;
    /* when not NULL: the routine whose call @sig receives */
    const xf_routine *top;
    /* > 0: the formals of @top at this position and after are OPTIONAL, for
     * a driver that passes only the first ones (what the generic driver of
     * `xaiform run` binds to nothing); present() of one is then asked */
    int optional_from;
    xf_xaif2f_sig *sig;
} xf_xaif2f_opts;

/**
 * xf_xaif2f_write:
 * Write @doc (a call graph) as one Fortran source file to @out. Whether it
 * is a plain program, a tangent or an adjoint is read off the document.
 * @opts may be NULL. Nothing is written unless the whole document translates.
 * @returns 0, or -1 after reporting "FILE:LINE: error: ..." to @diag.
 */
int xf_xaif2f_write(const xf_doc *doc, FILE *out, const xf_xaif2f_opts *opts, xf_diag *diag);

#endif
