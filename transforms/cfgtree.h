/* cfgtree.h: a structured control-flow graph as a tree of regions (Utke et
 * al. [000] §2, §4.1): a sequence of basic blocks, branches (a Branch or If
 * vertex, its arms, its EndBranch) and loops (a ForLoop or PreLoop vertex,
 * its body, its EndLoop). The adjoint passes reverse the tree; a graph that
 * does not parse (gotos, early exits, joins outside an EndBranch) is
 * unstructured and reversed by vertex numbers instead. */
#ifndef XF_TRANSFORMS_CFGTREE_H
#define XF_TRANSFORMS_CFGTREE_H

#include "arena.h"
#include "ir.h"

typedef enum xf_rgkind { XF_RG_BLOCK, XF_RG_BRANCH, XF_RG_LOOP } xf_rgkind;

typedef struct xf_region xf_region;

/* A sequence of regions, in execution order. */
typedef struct xf_rgseq {
    XF_VEC(xf_region *) v;
} xf_rgseq;

/* One arm of a branch: the out-edge it starts with and its regions. */
typedef struct xf_rgarm {
    const xf_cedge *edge;
    xf_rgseq body;
} xf_rgarm;

struct xf_region {
    xf_rgkind kind;
    xf_cvertex *v;   /* BLOCK: the BasicBlock; BRANCH: Branch/If; LOOP: ForLoop/PreLoop */
    xf_cvertex *end; /* BRANCH: its EndBranch; LOOP: its EndLoop */
    xf_region *parent;
    XF_VEC(xf_rgarm) arms;                 /* BRANCH */
    xf_rgseq body;                         /* LOOP */
    const xf_cedge *body_edge, *exit_edge; /* LOOP */
};

/* A parsed graph: Entry, the top sequence, Exit. */
typedef struct xf_cfgtree {
    xf_cvertex *entry, *exit;
    xf_rgseq top;
} xf_cfgtree;

/**
 * xf_cfgtree_parse:
 * Parse @g into @t, allocating in @a. Every vertex reachable from Entry
 * must belong to exactly one region (Label and Goto vertices with one
 * successor are passed through).
 * @returns true if @g is structured; false otherwise (@t is then unusable).
 */
bool xf_cfgtree_parse(const xf_graph *g, xf_arena *a, xf_cfgtree *t);

/** xf_is_body_edge: is @e a loop vertex's out-edge into its body (condition value 1)? */
bool xf_is_body_edge(const xf_cedge *e);

/* The header of a loop that can run backwards: i = L; i OP U; i = i + S.
 * OP "not_equal" is Fortran's DO i = L, U, S (i <= U for S > 0, i >= U for
 * S < 0), as the interpreter runs it. */
typedef struct xf_loophead {
    xf_symbol *i;
    const xf_expr *lo_x, *hi_x; /* the expressions holding L and U, at vertices lo and hi */
    uint32_t lo, hi;
    const xf_expr *st_x; /* S when it is not a constant (i = i + S), at vertex st; else NULL */
    uint32_t st;
    int64_t step;   /* S when it is a constant; 0 otherwise */
    int sign;       /* S's sign: 1, -1, or 0 when only the run decides (not_equal) */
    int64_t adjust; /* added to U: -1 for <, +1 for >, 0 for <=, >= and != */
} xf_loophead;

/**
 * xf_loop_header:
 * Is @v a ForLoop whose header the adjoint can run backwards (integer i;
 * L, U any expressions; S a non-zero constant whose sign agrees with the
 * comparison, or an expression that does not read i added to i)? Fills @h
 * if so.
 */
bool xf_loop_header(const xf_cvertex *v, xf_loophead *h);

/**
 * xf_loop_explicit:
 * Is loop region @r to be reversed explicitly: marked reversal="explicit"
 * (OpenAD's "simple loop"), itself or a loop around it, and with a header
 * xf_loop_header accepts? Fills @h if so.
 */
bool xf_loop_explicit(const xf_region *r, xf_loophead *h);

/**
 * xf_expr_reads:
 * Does the subexpression of @x under vertex @v read @s, or any variable
 * when @s is NULL? A function call, or a reference the reader could not
 * resolve to a symbol, counts as reading.
 */
bool xf_expr_reads(const xf_expr *x, uint32_t v, const xf_symbol *s);

/** xf_expr_operand: the operand at position @pos of vertex @v of @x, or UINT32_MAX. */
uint32_t xf_expr_operand(const xf_expr *x, uint32_t v, int64_t pos);

#endif
