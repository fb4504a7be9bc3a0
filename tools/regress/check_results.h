/* check_results.h: what a run of the regression runner found, one record
 * per example and mode, and the totals printed from such records (by the
 * runner after a run, and by `xaiform check --summary` from an
 * expectations file). */
#ifndef XF_TOOLS_CHECK_RESULTS_H
#define XF_TOOLS_CHECK_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum xf_check_mode {
    XF_CHECK_DD,            /* the front end's xaif, divided differences, against ref/dd.out */
    XF_CHECK_REF_TANGENT,   /* xaifBooster's ref/tlm.xb.xaif, tangent driver, against ref/ad.out */
    XF_CHECK_REF_ADJOINT,   /* ref/adm.xb.xaif, joint and split drivers, against ref/ad.out */
    XF_CHECK_TANGENT,       /* our tangent of tlm.xaif, tangent driver, against ref/ad.out */
    XF_CHECK_ADJOINT_JOINT, /* our adjoint of adm.xaif, joint driver, against ref/ad.out */
    XF_CHECK_ADJOINT_SPLIT, /* the same, split driver */
    XF_CHECK_F_TANGENT,     /* tangent, written by xaif2f and run compiled (check_f90.c) */
    XF_CHECK_F_JOINT,       /* adjoint-joint, the same */
    XF_CHECK_F_SPLIT,       /* adjoint-split, the same */
    XF_CHECK_SRC_TANGENT,   /* our tangent of f2xaif's xaif of head.f, as XF_CHECK_TANGENT */
    XF_CHECK_SRC_JOINT,     /* our adjoint of it, as XF_CHECK_ADJOINT_JOINT */
    XF_CHECK_SRC_SPLIT,     /* the same, as XF_CHECK_ADJOINT_SPLIT */
    XF_CHECK_SRC_F_TANGENT, /* the SRC modes written by xaif2f and run compiled: the */
    XF_CHECK_SRC_F_JOINT,   /* whole chain from head.f, as XF_CHECK_F_TANGENT, _JOINT, */
    XF_CHECK_SRC_F_SPLIT,   /* _SPLIT */
    XF_CHECK_MODES
} xf_check_mode;

/* The modes `check` runs when none is given: the xaif ones (the xaif2f ones
 * need gfortran, the f-xaif ones need Flang). */
#define XF_CHECK_DEFAULT_MODES XF_CHECK_F_TANGENT

bool xf_check_mode_parse(const char *s, xf_check_mode *m);
const char *xf_check_mode_name(xf_check_mode m);

/* ORDER: status_names in check_results.c */
typedef enum xf_check_status {
    XF_CHECK_PASS,
    XF_CHECK_FAIL,
    XF_CHECK_SKIP,
    XF_CHECK_PASS_DD, /* against ref/dd.out, because a FAILREASON file says OpenAD's is wrong */
    XF_CHECK_FAIL_DD,
    XF_CHECK_PASS_XB, /* custom driver: against xaifBooster's output under the generic driver */
    XF_CHECK_FAIL_XB,
    XF_CHECK_STATUSES
} xf_check_status;

/** The status as the expectations file writes it: PASS, FAIL, SKIP, PASS-DD, ... */
const char *xf_check_status_name(xf_check_status s);
bool xf_check_status_parse(const char *s, xf_check_status *st);
/** Is @s a failing status: FAIL, FAIL-DD or FAIL-XB? */
bool xf_check_status_fails(xf_check_status s);

/* Why an example failed: the stage that failed, a closed set written in the
 * expectations file, so that a change of cause is a change.
 * ORDER: reason_names in check_results.c */
typedef enum xf_check_reason {
    XF_FAIL_NONE,      /* it did not fail */
    XF_FAIL_EXAMPLE,   /* example-error: params.conf or the reference Jacobian unreadable */
    XF_FAIL_READ,      /* read-error: the reader refused the xaif to run or transform */
    XF_FAIL_TRANSFORM, /* transform-error: our pipeline (or --xaifbooster-root's) refused it */
    XF_FAIL_SCHEMA,    /* schema-invalid: the derivative violates the --schema */
    XF_FAIL_RUN,       /* run-error: the interpreter stopped with an error */
    XF_FAIL_SHAPE,     /* jacobian-shape: the Jacobian's size is not the reference's */
    XF_FAIL_JACOBIAN,  /* jacobian-mismatch: an entry differs beyond the tolerance */
    XF_CHECK_REASONS
} xf_check_reason;

/** The reason class as the expectations file writes it: read-error, ...; "-" for none. */
const char *xf_check_reason_name(xf_check_reason r);
/** A reason class by its name (not "-"). */
bool xf_check_reason_parse(const char *s, xf_check_reason *r);

typedef struct xf_check_result {
    char *name; /* the example folder's last component; owned by the results */
    xf_check_mode mode;
    xf_check_status status;
    xf_check_reason reason; /* a failing status: why; else XF_FAIL_NONE */
    bool have_ours;         /* a passing derivative mode: ops and tape of our derivative run */
    bool have_ref;          /* ...and of xaifBooster's output, where it passes against ref/ad.out */
    bool from_tlm; /* an adjoint mode run from tlm.xaif for want of adm.xaif (judged by dd.out) */
    uint64_t ops, tape; /* floating-point operations, tape words pushed */
    uint64_t ref_ops, ref_tape;
} xf_check_result;

typedef struct xf_check_results {
    xf_check_result *v;
    size_t n, cap;
    size_t invalid; /* derivatives made that violate the schema of `check --schema` */
} xf_check_results;

/** xf_check_results_add: append a copy of @x (its name copied). @returns 0, or -1 out of memory. */
int xf_check_results_add(xf_check_results *r, const xf_check_result *x);

/** xf_check_results_sort: by name (bytes), then mode in the order of xf_check_mode. */
void xf_check_results_sort(xf_check_results *r);

/** xf_check_results_find: the record of @name in @mode in sorted @r, or NULL. */
const xf_check_result *xf_check_results_find(const xf_check_results *r, const char *name,
                                             xf_check_mode mode);

void xf_check_results_fini(xf_check_results *r);

/**
 * xf_check_summary:
 * Per mode present in @r, in the order of xf_check_mode: "MODE: N passed,
 * N failed, N skipped" (with the dd.out, from-tlm.xaif and custom-driver counts where
 * there are any), the failures by reason class where there are any, then
 * the operations and tape words of ours against xaifBooster's over the
 * records that have both.
 */
void xf_check_summary(const xf_check_results *r, FILE *out);

#endif
