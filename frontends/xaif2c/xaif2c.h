/* xaif2c.h: the C back end. It writes C99 for a call graph in the IR: a
 * front end's document (the plain program), the tangent that `xaiform
 * tangent` makes of it, or the adjoint that `xaiform adjoint` makes.
 * Derivative code calls the header-only runtime include/xaiform/ad.h.
 *
 * Names follow Tapenade's convention: routine f becomes f (plain), f_d
 * (tangent) or f_b (adjoint); each active real argument x is followed by
 * its derivative, xd or xb. Every argument is passed by reference (a
 * pointer), as Fortran and xaif pass them.
 *
 * What has no C in this back end (array sections and whole-array
 * expressions, arrays without DimensionBounds, strings, complex numbers,
 * pointers, host association, external routines, array intrinsics) is
 * refused with FILE:LINE; nothing is written then.
 *
 * A back end, not a pass: it reads the IR and knows no transform and no
 * interpreter. */
#ifndef XF_XAIF2C_XAIF2C_H
#define XF_XAIF2C_XAIF2C_H

#include <stdbool.h>
#include <stdio.h>

#include "diag.h"
#include "ir.h"

typedef enum xf_c_reversal { XF_C_JOINT, XF_C_SPLIT } xf_c_reversal;

/* How to write. */
typedef struct xf_xaif2c_opts {
    /* an adjoint's top-level f_b: one activation that tapes and adjoins
     * (joint, the default) or a taping sweep then an adjoint sweep (split) */
    xf_c_reversal reversal;
    /* split reversal was asked for, and the program is one routine that
     * calls none, whose split f_b (both sweeps back to back in one call)
     * is its joint one: reversal is XF_C_JOINT, the comment says why */
    bool split_as_joint;
    /* the runtime header as #include names it; NULL: "xaiform/ad.h" */
    const char *header;
    /* what the comment at the top names as the source; NULL: the document's file */
    const char *source;
    /* when not NULL, the prototypes of the functions a user calls (the
     * non-static ones, with the user's signatures) are written here too */
    FILE *prototypes;
    /* every control-flow graph as labels and gotos, structured ones too */
    bool labels_only;
} xf_xaif2c_opts;

/**
 * xf_xaif2c_write:
 * Write @doc (a call graph) as one C99 translation unit to @out. Whether it
 * is a plain program, a tangent or an adjoint is read off the document
 * (a ReplacementList: adjoint; other derivative code: tangent). @opts may
 * be NULL. Nothing is written unless the whole document translates.
 * @returns 0, or -1 after reporting "FILE:LINE: error: ..." to @diag.
 */
int xf_xaif2c_write(const xf_doc *doc, FILE *out, const xf_xaif2c_opts *opts, xf_diag *diag);

#endif
