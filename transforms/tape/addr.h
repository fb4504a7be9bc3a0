/* addr.h: address recovery by inverse computation (Utke, Naumann, Lyons et
 * al. [003]), the analysis adjoin asks before it tapes a subscript. Not a
 * pass: adjoin builds one plan per routine and reads it block by block.
 *
 * addr_sets.c finds the sets (§1, §3): the candidates (local integer
 * scalars that only plain assignments in basic blocks write: no loop
 * header, call argument, alias or lost passive store touches them), per
 * block the values the adjoint needs (R: subscripts of the propagators,
 * direct actions and call arguments reading candidates) and, across the
 * control-flow graph, which values each block's adjoint must hand back to
 * the adjoints of the blocks before it (E, by a fixpoint over the graph).
 * addr_game.c plays the token game (§4) per block on the dependency graph
 * of those values: invert, else recompute forward, else store the value
 * with the largest trigger set (heuristic H); then writes the code. Values
 * live in single-assignment temporaries (OpenAD_Symbol_*) in the adjoint;
 * the program's variables are written back only at the end of a block's
 * adjoint, so anti-dependences never clobber a value still to be read.
 *
 * The invariant that makes inversion across blocks and loop iterations
 * sound: when a block's adjoint starts, every variable it was promised
 * holds its value at the block's forward exit; when it ends, every
 * variable the blocks before it need holds its value at the block's
 * forward entry. The routine's last block pushes the promised values at
 * the end of the taping sweep and its adjoint pops them first. */
#ifndef XF_TRANSFORMS_ADDR_H
#define XF_TRANSFORMS_ADDR_H

#include "arena.h"
#include "cfgtree.h"
#include "ir.h"

typedef XF_VEC(xf_stmt *) xf_addr_stmts;

/* What adjoin inserts for one basic block. */
typedef struct xf_addr_code {
    xf_addr_stmts first;  /* taping sweep: before the block's first statement */
    xf_addr_stmts *after; /* taping sweep: after statement k (k < the block's count) */
    xf_addr_stmts last;   /* taping sweep: after everything else (the pushes) */
    xf_addr_stmts head;   /* adjoint: before everything (the pops, then the recovery) */
    xf_addr_stmts tail;   /* adjoint: after everything (the variables written back) */
} xf_addr_code;

typedef struct xf_addr xf_addr;

/* Counts over a routine, for tests and reports. */
typedef struct xf_addr_counts {
    unsigned candidates;                           /* variables in the game */
    unsigned inverted, recomputed, stored, handed; /* values; handed: pushed at the routine's end */
} xf_addr_counts;

/**
 * xf_addr_plan:
 * Plan the recovery of the subscripts of routine @rt's graph @g (the
 * taping placeholder, parsed into @t), allocating in @a; integer
 * temporaries come from @rt's local scope through counter @nsym.
 * @returns 0 with *@out the plan (NULL: nothing to recover here), -1 when
 * out of memory.
 */
int xf_addr_plan(xf_doc *doc, xf_routine *rt, const xf_graph *g, const xf_cfgtree *t, xf_arena *a,
                 unsigned *nsym, xf_addr **out);

/**
 * xf_addr_exit_block:
 * When the one edge into @g's Exit comes from a loop or a branch, put an
 * empty basic block on it (routine @rt's scope), so that the plan has a
 * last block to hand values over in.
 * @returns 0, or -1 when out of memory.
 */
int xf_addr_exit_block(xf_doc *doc, xf_routine *rt, xf_graph *g);

/** xf_addr_block: the code for basic block @v, or NULL when it has none. */
const xf_addr_code *xf_addr_block(const xf_addr *p, const xf_cvertex *v);

/**
 * xf_addr_subscript:
 * Subscript @x of statement @k of block @v as the adjoint can evaluate it
 * from recovered values: a new expression in @doc's arena, or NULL when
 * the plan does not recover it (then adjoin tapes it).
 */
xf_expr *xf_addr_subscript(xf_doc *doc, const xf_addr *p, const xf_cvertex *v, uint32_t k,
                           const xf_expr *x);

/** xf_addr_counts_of: what the plan does. */
xf_addr_counts xf_addr_counts_of(const xf_addr *p);

/* ------------------------------------------------------------ between the two files */

typedef enum xf_addr_how {
    XF_ADDR_UNKNOWN,
    XF_ADDR_EXIT,    /* the variable's value at the block's exit: read in place */
    XF_ADDR_INVERT,  /* from the assignment that reads it, solved for it */
    XF_ADDR_FORWARD, /* its assignment evaluated again */
    XF_ADDR_STORE    /* pushed in the taping sweep, popped in the adjoint */
} xf_addr_how;

/* A value: a variable at the block's entry (stmt < 0) or after statement stmt. */
typedef struct xf_anode {
    xf_symbol *var;
    int32_t stmt;
    const xf_expr *rhs; /* its assignment's right-hand side; NULL at entry */
    bool evaluable;     /* rhs reads constants, loop variables and candidates only */
    xf_addr_how how;
    uint32_t via;      /* XF_ADDR_INVERT: the node of the assignment solved */
    xf_symbol *holder; /* where the adjoint holds it */
    bool used;         /* read by the recovery of a needed value */
    bool emitted;
} xf_anode;

/* One basic block's dependency graph G_A. */
typedef struct xf_ablock {
    xf_cvertex *v;
    const xf_region *region; /* its region: the explicitly reversed loops around it */
    XF_VEC(xf_anode) n;
    XF_VEC(uint32_t) targets;     /* nodes the adjoint needs (R) */
    XF_VEC(xf_symbol *) written;  /* W */
    XF_VEC(xf_symbol *) entry_in; /* E: to hand back at the adjoint's end */
    XF_VEC(xf_symbol *) exit_out; /* X: read at the adjoint's start */
    XF_VEC(uint32_t) preds;       /* blocks whose exit is this block's entry */
    XF_VEC(xf_symbol *) live_out; /* read after the block before being written */
    bool last;                    /* the block before Exit */
    bool capped;                  /* too large for the game: entries stored, nothing recovered */
    xf_addr_code code;
} xf_ablock;

struct xf_addr {
    xf_doc *doc;
    xf_routine *rt;
    xf_arena *a;
    unsigned *nsym;
    XF_VEC(xf_symbol *) cand;
    XF_VEC(xf_ablock) b;
    XF_VEC(xf_symbol *) handed; /* E(Exit) */
    const xf_graph *g;
    uint32_t *blk;                /* by vertex index: its block, or UINT32_MAX */
    uint32_t *in_first, *in_edge; /* in-edges of vertex i: in_edge[in_first[i] .. in_first[i+1]) */
    uint32_t *out_first, *out_edge; /* out-edges likewise */
    uint32_t *work, *marked;        /* fill_preds' stack and what it marked, by vertex */
    uint64_t budget;                /* steps the analysis may still take; at 0 it stores */
    xf_addr_counts counts;
};

/* addr_sets.c */
bool xf_addr_is_cand(const xf_addr *p, const xf_symbol *s);
bool xf_addr_has(const void *vec_v, uint32_t n, const xf_symbol *s);
uint32_t xf_addr_reach(const xf_ablock *b, const xf_symbol *s, int32_t k);
/* addr_game.c */
int xf_addr_game(xf_addr *p, xf_ablock *b);
int xf_addr_emit(xf_addr *p, xf_ablock *b);
xf_expr *xf_addr_copy_at(xf_doc *doc, const xf_addr *p, const xf_ablock *b, const xf_expr *x,
                         int32_t k, bool need_emitted);

#endif
