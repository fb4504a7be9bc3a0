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
#include "map.h"

typedef enum xf_rgkind { XF_RG_BLOCK, XF_RG_BRANCH, XF_RG_LOOP } xf_rgkind;

typedef struct xf_region xf_region;
typedef struct xf_loophead xf_loophead;

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
    uint32_t index;  /* in the tree's pre-order: xf_cfgtree.all.v[index] == this */
    xf_cvertex *v;   /* BLOCK: the BasicBlock; BRANCH: Branch/If; LOOP: ForLoop/PreLoop */
    xf_cvertex *end; /* BRANCH: its EndBranch; LOOP: its EndLoop */
    xf_region *parent;
    XF_VEC(xf_rgarm) arms;                 /* BRANCH */
    xf_rgseq body;                         /* LOOP */
    const xf_cedge *body_edge, *exit_edge; /* LOOP */
    bool marked;             /* a loop marked reversal="explicit" is this region or around it */
    const xf_loophead *head; /* LOOP: its header, when xf_loop_explicit holds; else NULL */
};

/* A parsed graph: Entry, the top sequence, Exit; and every region in
 * pre-order (a region before what it holds, the regions of a sequence in
 * execution order, the arms of a branch in its out-edges' order), so that
 * a pass can keep a table per region (by xf_region.index) and fill it in
 * one sweep forwards (parents first) or backwards (children first). */
typedef struct xf_cfgtree {
    xf_cvertex *entry, *exit;
    xf_rgseq top;
    XF_VEC(xf_region *) all;
} xf_cfgtree;

/**
 * xf_cfgtree_parse:
 * Parse @g into @t, allocating in @a. Every vertex reachable from Entry
 * must belong to exactly one region (Label and Goto vertices with one
 * successor are passed through). Time O(vertices + edges), with an
 * explicit stack: any depth of nesting parses. Each loop's header is
 * examined once here (xf_region.head).
 * @returns true if @g is structured; false otherwise (@t is then unusable).
 */
bool xf_cfgtree_parse(const xf_graph *g, xf_arena *a, xf_cfgtree *t);

/** xf_is_body_edge: is @e a loop vertex's out-edge into its body (condition value 1)? */
bool xf_is_body_edge(const xf_cedge *e);

/* The header of a loop that can run backwards: i = L; i OP U; i = i + S.
 * OP "not_equal" is Fortran's DO i = L, U, S (i <= U for S > 0, i >= U for
 * S < 0), as the interpreter runs it. */
struct xf_loophead {
    xf_symbol *i;
    const xf_expr *lo_x, *hi_x; /* the expressions holding L and U, at vertices lo and hi */
    uint32_t lo, hi;
    const xf_expr *st_x; /* S when it is not a constant (i = i + S), at vertex st; else NULL */
    uint32_t st;
    int64_t step;   /* S when it is a constant; 0 otherwise */
    int sign;       /* S's sign: 1, -1, or 0 when only the run decides (not_equal) */
    int64_t adjust; /* added to U: -1 for <, +1 for >, 0 for <=, >= and != */
};

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
 * xf_loop_header accepts? Fills @h if so. O(1): the parser decided.
 */
bool xf_loop_explicit(const xf_region *r, xf_loophead *h);

/* The variables of the explicitly reversed loops around a region, kept as
 * a depth-first walk over a tree moves (siblings in any order; a region
 * left out must be left out with all it holds): a move costs O(1)
 * amortized, a question O(1). */
typedef struct xf_loopscope {
    xf_arena *a;
    XF_VEC(const xf_region *) open; /* the regions around the last one moved to */
    const xf_region *last;
    xf_map count; /* symbol -> how many open loops run it backwards (a uintptr_t) */
} xf_loopscope;

/** xf_loopscope_init: an empty scope (no region around), storage from @a. */
void xf_loopscope_init(xf_loopscope *s, xf_arena *a);

/**
 * xf_loopscope_move:
 * The walk is at @r now: the scope becomes the loops around @r (not @r
 * itself). @r's parent must be the region moved to last or one around it.
 * @returns false when out of memory.
 */
bool xf_loopscope_move(xf_loopscope *s, const xf_region *r);

/** xf_loopscope_has: is @sym the variable of an explicitly reversed loop in the scope? */
bool xf_loopscope_has(const xf_loopscope *s, const xf_symbol *sym);

/**
 * xf_expr_reads:
 * Does the subexpression of @x under vertex @v read @s, or any variable
 * when @s is NULL? A function call, or a reference the reader could not
 * resolve to a symbol, counts as reading.
 */
bool xf_expr_reads(const xf_expr *x, uint32_t v, const xf_symbol *s);

/** xf_expr_is_var: is vertex @v of @x a reference to the whole scalar @s
 * (no subscript)? */
bool xf_expr_is_var(const xf_expr *x, uint32_t v, const xf_symbol *s);

/** xf_expr_operand: the operand at position @pos of vertex @v of @x, or UINT32_MAX. */
uint32_t xf_expr_operand(const xf_expr *x, uint32_t v, int64_t pos);

#endif
