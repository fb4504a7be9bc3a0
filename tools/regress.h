/* regress.h: the regression runner over OpenAD's example layout. */
#ifndef XF_TOOLS_REGRESS_H
#define XF_TOOLS_REGRESS_H

#include <stdbool.h>
#include <stdio.h>

typedef enum xf_check_mode {
    XF_CHECK_DD,            /* the front end's xaif, divided differences, against ref/dd.out */
    XF_CHECK_REF_TANGENT,   /* xaifBooster's ref/tlm.xb.xaif, tangent driver, against ref/ad.out */
    XF_CHECK_REF_ADJOINT,   /* ref/adm.xb.xaif, joint and split drivers, against ref/ad.out */
    XF_CHECK_TANGENT,       /* our tangent of tlm.xaif, tangent driver, against ref/ad.out */
    XF_CHECK_ADJOINT_JOINT, /* our adjoint of adm.xaif, joint driver, against ref/ad.out */
    XF_CHECK_ADJOINT_SPLIT, /* the same, split driver */
    XF_CHECK_MODES
} xf_check_mode;

bool xf_check_mode_parse(const char *s, xf_check_mode *m);
const char *xf_check_mode_name(xf_check_mode m);

typedef struct xf_check_opts {
    const xf_check_mode *modes;
    int nmodes;
    char *const *roots; /* corpus folders, or example folders */
    int nroots;
    int min_pass;            /* > 0: succeed when each mode passes this percentage of what it ran */
    const char *catalogue;   /* for the transform modes; NULL: the built-in one */
    const char *elimination; /* for the transform modes; NULL: best */
    const char *door;        /* for the transform modes: XAIFBOOSTERROOT, whose oadDriver
                                programs make the derivative instead; NULL: in-process */
    bool
        stats; /* print the operation counts (and tape words) of ours and of xaifBooster's output */
} xf_check_opts;

/**
 * xf_check_run:
 * Check every example under the roots in every mode; print a line per
 * example and mode (PASS, FAIL with the first difference, SKIP with the
 * reason) and a summary line per mode to @out.
 * @returns 0 when nothing failed (or each mode reached min_pass), 1 otherwise,
 * -1 when a root cannot be read.
 */
int xf_check_run(const xf_check_opts *o, FILE *out);

#endif
