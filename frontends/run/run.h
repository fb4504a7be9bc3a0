/* run.h: the xaif interpreter (frontends/run/): it executes a call graph
 * (a front end's xaif, or a tangent or adjoint output) as OpenAD's compiled
 * back end would, under OpenAD's generic drivers, and counts what it does.
 * It is the oracle for every derivative: it shares the IR and the reader
 * with the transforms but no transform code. */
#ifndef XF_RUN_RUN_H
#define XF_RUN_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "ir.h"

/* ORDER: rt.h's ST_REAL... */
enum { XF_WORD_REAL, XF_WORD_INT, XF_WORD_BOOL, XF_WORD_STRING, XF_WORD_KINDS };

/* What an execution did. Floating-point operations count real-valued
 * operations element by element; integer and logical arithmetic, moves and
 * conversions are not counted:
 *  - adds: binary + and -, unary minus, each += / -= of IncDeriv, DecDeriv,
 *    SetNegDeriv (a negation), Saxpy (one per term) and sum's additions;
 *  - muls: *, and one per term of Sax and Saxpy (inlinable or propagator);
 *  - divs: /;
 *  - intrinsics: every other real function applied (sin, exp, sqrt, abs,
 *    sign, mod, min, max, maxval, ...; x**n counts as one, whatever n).
 * statements counts assignments (loop initialisations and updates too),
 * subroutine calls, inlinable calls and each operation of a
 * DerivativePropagator; markers do not count. */
typedef struct xf_run_stats {
    uint64_t statements;             /* assignments, calls, propagator operations run */
    uint64_t adds, muls, divs;       /* + and - (binary and unary), *, / */
    uint64_t intrinsics;             /* calls of other real functions (sin, exp, pow, ...) */
    uint64_t push[XF_WORD_KINDS];    /* tape words pushed, by kind */
    uint64_t pop[XF_WORD_KINDS];     /* tape words popped */
    int64_t peak_tape;               /* most words on the tapes at once */
    uint64_t cp_push[XF_WORD_KINDS]; /* checkpoint words stored */
    uint64_t cp_pop[XF_WORD_KINDS];
    int64_t peak_cp;
    /* checkpointed loops (transforms/checkpoint/checkpoint.c): snapshot words stored and
     * the most held at once (apart from tape and checkpoints), and the steps
     * run plainly (recomputation), taped, and adjoined */
    uint64_t snap_stored;
    int64_t peak_snap;
    uint64_t steps_fwd, steps_tape, steps_adj;
} xf_run_stats;

/* Limits that turn a runaway program into an error. */
typedef struct xf_run_limits {
    uint64_t max_steps; /* statements and control-flow steps; 0: default */
    int64_t max_tape;   /* words on the tapes and checkpoint stacks; 0: default */
    int max_depth;      /* call depth; 0: default */
} xf_run_limits;

typedef enum xf_driver {
    XF_DRIVER_PLAIN,
    XF_DRIVER_DD,
    XF_DRIVER_TANGENT,
    XF_DRIVER_ADJOINT_JOINT,
    XF_DRIVER_ADJOINT_SPLIT
} xf_driver;

/** xf_driver_parse: "plain", "dd", "tangent", "adjoint-joint", "adjoint-split". */
bool xf_driver_parse(const char *s, xf_driver *d);
const char *xf_driver_name(xf_driver d);

/* params.conf: n inputs, m outputs, step h, relative tolerance of AD vs DD. */
typedef struct xf_params {
    int n, m;
    double h, tol;
} xf_params;

/**
 * xf_params_read:
 * Read params.conf (four lines: n, m, h, tolerance; h and the tolerance in
 * Fortran notation, "1.0D-8" included).
 * @returns 0, or -1 after reporting to @diag.
 */
int xf_params_read(const char *path, xf_params *p, xf_diag *diag);

typedef struct xf_run_opts {
    xf_driver driver;
    xf_params params;
    const char *top; /* top routine's symbol id; NULL: the one named head */
    /* where params came from, for messages: the params.conf path; NULL: the
     * options -n and -m (messages then name the document) */
    const char *params_name;
    /* n and m may exceed the elements the top routine declares for x and y
     * (Fortran's sequence association; the Jacobian gets zero columns or
     * rows); false: such n or m is refused */
    bool loose_sizes;
    xf_run_limits lim;
    /* where to print the tape of each loop that runs, one "loop-tape:" line
     * per loop and sweep (frontends/run/looptape.c); NULL: not measured */
    FILE *loop_tape;
} xf_run_opts;

/* A Jacobian F(k, i) = dy(k)/dx(i), k = 1..m outputs, i = 1..n inputs;
 * f[(i-1)*m + (k-1)]. The plain driver fills column 1 with y. */
typedef struct xf_jacobian {
    int m, n;
    double *f;
} xf_jacobian;

/**
 * xf_run:
 * Run the driver @o->driver over @doc and fill @out (free with
 * xf_jacobian_fini). @stats (may be NULL) receives the counts of the
 * derivative computation (the plain or divided-difference runs for those
 * drivers; the tangent and adjoint runs, not their preliminary plain pass).
 * Refused before anything runs: a tangent or adjoint driver over a document
 * without derivative code (doc->deriv unset) whose top routine's y is an
 * active real (it would print zeros); n or m other than the number of
 * elements the top routine declares for a real x or y (scalars and arrays
 * with bounds; an array without bounds takes any size), unless
 * @o->loose_sizes and n or m is larger.
 * @returns 0, or -1 after a fault reported to @diag as
 * "FILE:LINE: error: in ROUTINE, statement ID: ...".
 */
int xf_run(const xf_doc *doc, const xf_run_opts *o, xf_jacobian *out, xf_run_stats *stats,
           xf_diag *diag);

void xf_jacobian_fini(xf_jacobian *j);

/**
 * xf_jacobian_print:
 * Print @j as OpenAD's drivers do: @header (" AD", " DD"), then one line per
 * entry, input index outer, "F(  k,  i)=" and the value in Fortran's
 * EN26.16E3 format, rounded as OpenAD's runtime rounds.
 */
void xf_jacobian_print(FILE *f, const xf_jacobian *j, const char *header);

/**
 * xf_jacobian_read:
 * Read a file in xf_jacobian_print's format (ad.out, dd.out) into @j.
 * @returns 0, or -1 after reporting to @diag.
 */
int xf_jacobian_read(const char *path, xf_jacobian *j, xf_diag *diag);

/** xf_format_en: @v in Fortran EN26.16E3 (26 characters, right-aligned) into @out[27+]. */
void xf_format_en(double v, char *out);

/** xf_stats_print: the counts, one "stats: ..." line each, to @f. */
void xf_stats_print(FILE *f, const xf_run_stats *s);

#endif
