/* loopdep.h: data dependence of loops (Hascoët, Fidanova, Held [004]
 * §2-3): per loop of a routine, whether its iterations are independent
 * (no loop-carried dependence through scalars, array elements, calls or
 * aliased storage; additive reductions allowed and recorded) and whether
 * it is terminal (nothing after it in the routine reads what it writes
 * before the adjoint sweep comes back to it). docs/loops.md describes the
 * rules and the report. */
#ifndef XF_TRANSFORMS_LOOPDEP_H
#define XF_TRANSFORMS_LOOPDEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "ir.h"

/* Why a loop's iterations depend on each other (XF_LD_NONE: they do not). */
typedef enum xf_ldwhy {
    XF_LD_NONE,
    XF_LD_UNSTRUCTURED,  /* the routine's control flow does not nest: not analysed */
    XF_LD_NO_INDEX,      /* a while loop (PreLoop, PostLoop): each test needs the last iteration */
    XF_LD_INDEX_WRITTEN, /* the body assigns the loop variable */
    XF_LD_SCALAR,        /* a scalar read in an iteration before that iteration writes it */
    XF_LD_OFFSET,        /* a(i) written, a(i + c) accessed: a carried dependence of distance c */
    XF_LD_SUBSCRIPT,     /* an array written with subscripts that do not tell iterations apart */
    XF_LD_ALIAS,         /* two variables that the alias map says may share storage */
    XF_LD_CALL, /* a call whose effects are unknown (no definition, no side-effect lists) */
} xf_ldwhy;

/* Why a loop is not terminal (XF_LT_YES: it is). */
typedef enum xf_ldterm {
    XF_LT_YES,
    XF_LT_READ_AFTER, /* something after the loop reads what it writes */
    XF_LT_OUTPUT,     /* it writes an output of a routine that is called (terminal in
                         joint reversal only) */
    XF_LT_UNKNOWN,    /* not analysed (unstructured control flow) */
} xf_ldterm;

/* One access that the report names: variable, as written, line. */
typedef struct xf_ldref {
    const xf_symbol *sym;
    const xf_varref *ref; /* NULL: the whole variable (a call's side effect) */
    int64_t line;         /* lineNumber of the statement, or of the loop for its header */
} xf_ldref;

typedef XF_VEC(const xf_symbol *) xf_ldsyms;

typedef struct xf_loopdep {
    const xf_routine *rt;
    const xf_cvertex *v; /* the ForLoop, PreLoop or PostLoop vertex */
    const xf_symbol *index;
    unsigned depth; /* loops around it */
    bool called;    /* a call of the document calls the routine (it is not the top) */
    bool parallel;
    xf_ldwhy why;
    xf_ldref dep_a, dep_b; /* the dependence: dep_a written, dep_b read or written */
    int64_t distance;      /* XF_LD_OFFSET: iterations between them */
    bool same_element;     /* XF_LD_SUBSCRIPT: both name one element in every iteration */
    const char *callee;    /* XF_LD_CALL */
    XF_VEC(xf_ldref) reductions;
    xf_ldterm terminal;
    xf_ldref used; /* XF_LT_READ_AFTER: the read; XF_LT_OUTPUT: the output written */
    /* The first write, after the loop, of a real variable the loop reads or
     * writes (sym NULL: none). Its adjoint would reset the adjoint the
     * loop's adjoint accumulates into, or reads: the loop's adjoint cannot
     * run early, in the taping sweep. */
    xf_ldref after_write;
    /* The first real local variable of the routine (not a formal) whose
     * value from before the loop the loop reads (sym NULL: none): one it
     * does not write, or one it writes after reading it (input_rewritten).
     * The adjoint the loop's adjoint adds to it lives in the routine's
     * activation: in split reversal the taping and the adjoint sweep run in
     * two. */
    xf_ldref local_input;
    /* The first read, other than an additive update's, of a value from
     * before the loop of a variable the loop writes (sym NULL: none): a
     * read that no earlier write of the iteration covers on every path (of
     * an array element: a write of the same reference, in the same block,
     * arm or loop body, nothing its subscripts read written since). The
     * loop overwrites its own input: run again, it would read what its first
     * run left (dry-running, F5). */
    xf_ldref input_rewritten;
    /* The first write, after the loop, of a variable whose value the loop
     * reads from before it (other than by an additive update; sym NULL:
     * none): the loop cannot be run again when the adjoint sweep comes
     * back to it (dry-running, F5). */
    xf_ldref input_overwritten;
    xf_ldsyms written; /* the variables the loop writes */
    /* The variables the loop accesses that something after it writes (the
     * rest of the routine, and for an enclosing loop its next iteration),
     * each once, the loop variable apart. */
    xf_ldsyms written_after;
    /* The same three facts with "after the loop" the rest of the enclosing
     * loop's iteration only (for a loop at the routine's top level, the
     * facts above): what matters when that loop is adjoined iteration by
     * iteration, and this one within each of its iterations. */
    xf_ldterm terminal_in;
    xf_ldref after_write_in;
    xf_ldsyms written_after_in;
} xf_loopdep;

typedef XF_VEC(xf_loopdep) xf_loopdep_vec;

/* xf_loopdep_routine's work budget (loopdep_rules.c: budget). */
enum { XF_LOOPDEP_WORK_FLOOR = 20000000, XF_LOOPDEP_WORK_PER_VERTEX = 64 };

/* xf_loopdep_routine's return when the work budget ran out. */
enum { XF_LOOPDEP_BUDGET = -2 };

/**
 * xf_loopdep_routine:
 * Analyse every loop of @rt's control-flow graph (@doc for the alias map
 * and the callees' side-effect lists); append one entry per loop to @out,
 * in the order of the loops' regions (outer before inner, in execution
 * order). Storage from @a. Time O(loops x routine size), at most
 * XF_LOOPDEP_WORK_FLOOR + XF_LOOPDEP_WORK_PER_VERTEX x the routine's size
 * statements and expression vertices walked.
 * @returns 0, -1 when out of memory, or XF_LOOPDEP_BUDGET when the work
 * budget ran out (then the last entry of @out is the loop being analysed,
 * its entry not filled in).
 */
int xf_loopdep_routine(const xf_doc *doc, const xf_routine *rt, xf_arena *a, xf_loopdep_vec *out);

/**
 * xf_loopdep_graph:
 * xf_loopdep_routine over graph @g of @rt (a placeholder of a ReplacementList,
 * say its placeholder 1, the original code).
 */
int xf_loopdep_graph(const xf_doc *doc, const xf_routine *rt, const xf_graph *g, xf_arena *a,
                     xf_loopdep_vec *out);

struct xf_pass_ctx;

/**
 * xf_loopdep_failed:
 * Report xf_loopdep_routine's failure @ret (-1 or XF_LOOPDEP_BUDGET) on
 * @v's routine: "out of memory", or FILE:LINE of the loop where the
 * budget ran out and @option, the option to drop.
 * @returns -1.
 */
int xf_loopdep_failed(struct xf_pass_ctx *ctx, const xf_loopdep_vec *v, int ret,
                      const char *option);

/**
 * xf_loopdep_print:
 * One line for @d on @f: routine, line, loop variable, parallel yes/no and
 * why, reductions, terminal yes/joint/no and why (docs/loops.md).
 */
void xf_loopdep_print(FILE *f, const xf_loopdep *d);

/** xf_ldwhy_name: a short name of @w ("scalar", "offset", ...). */
const char *xf_ldwhy_name(xf_ldwhy w);

#endif
