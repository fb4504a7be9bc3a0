/* cfg_struct.h: the structure of a control-flow graph, for a back end that
 * writes loops and branches as its language's blocks (docs/fortran-backend.md,
 * "Control flow"). Language-neutral: it reads the IR and writes nothing. A
 * graph it cannot parse is left to the labelled writer (cfg_order.h). */
#ifndef XF_BACKEND_CFG_STRUCT_H
#define XF_BACKEND_CFG_STRUCT_H

#include <stdbool.h>
#include <stdint.h>

#include "cfg_order.h"
#include "ir.h"

typedef enum xf_snkind {
    XF_SN_BLOCK,  /* v: a BasicBlock */
    XF_SN_EXIT,   /* v: an Exit reached before the end: leave the routine */
    XF_SN_LOOP,   /* v: a ForLoop or PreLoop; body: its code; edge: the body's edge */
    XF_SN_BRANCH, /* v: a Branch or If; body: its arms */
    XF_SN_ARM     /* edge: the branch's out-edge; body: the arm's code */
} xf_snkind;

typedef struct xf_snode {
    xf_snkind kind;
    const xf_cvertex *v;
    const xf_cedge *edge;
    const xf_cedge *exit_edge; /* LOOP: the edge that leaves it */
    struct xf_snode *body, *next;
} xf_snode;

/* The tree of a graph: root is the code from Entry to the final Exit (NULL:
 * none); nodes are allocated in pool. */
typedef struct xf_stree {
    xf_snode *root, *pool;
    uint32_t n, cap;
} xf_stree;

/**
 * xf_cfg_structure:
 * Parse @g (out-edges @o) into a tree of blocks, loops and branches: each
 * branch's arms meet at one EndBranch (or all reach the same EndLoop, or
 * leave the routine), each loop's body comes back through one EndLoop, no
 * vertex but an Exit is reached twice, and an Exit may be reached anywhere
 * (an early return). False (and nothing kept) when @g is not so: the caller
 * writes it with labels. Free the tree with xf_stree_free.
 */
bool xf_cfg_structure(const xf_graph *g, const xf_cfg_outs *o, xf_stree *t);
void xf_stree_free(xf_stree *t);

/* A ForLoop that is a counted loop: `DO var = lower, upper + adjust, step`. */
typedef struct xf_cfg_do {
    const xf_varref *var; /* Initialization's left side: a scalar integer */
    const xf_expr *lower; /* Initialization's right side */
    const xf_expr *upper; /* the Condition, */
    uint32_t upper_v;     /* its bound's vertex */
    int adjust;           /* -1 for "<", +1 for ">", else 0 */
    const xf_expr *step;  /* Update's right side, */
    uint32_t step_v;      /* the step's vertex in it */
    bool minus;           /* the Update subtracts the step */
} xf_cfg_do;

/**
 * xf_cfg_counted_do:
 * Whether loop node @n is a ForLoop `i = l; i OP u; i = i +- s` with i a
 * scalar integer and OP one of <=, < for a positive constant step, >=, >
 * for a negative one, or /= with a step known at run time (xf_cfg_strided_do),
 * whose body assigns neither i nor any variable of the condition or the step
 * (nor passes one to a call, nor calls anything when one is global): then
 * Fortran's DO, which computes its trip count once, runs it the same way.
 */
bool xf_cfg_counted_do(const xf_snode *n, xf_cfg_do *d);

/* The value an edge's condition must have to take it (1 where it has none). */
static inline long long
xf_cedge_value(const xf_cedge *e)
{
    return e->cv == XF_NOINT ? 1 : (long long)e->cv;
}

/* Has @e a condition value (it is not the default edge)? */
static inline bool
xf_cedge_valued(const xf_cedge *e)
{
    return xf_flag_is(e->has_cv, false);
}

#endif
