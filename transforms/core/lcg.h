/* lcg.h: the linearized computational graph (LCG) of a sequence of
 * derivative propagation, as linearize writes it (Naumann et al. [000] §3.1;
 * xaifBooster's BasicBlockPreaccumulation): a vertex per version of a
 * storage location that the propagators read or write, an edge per partial
 * (a constant, or an OpenAD_* variable nothing overwrites). xf_lcg_walk cuts
 * a basic block into sequences as preaccumulate does and hands each graph,
 * its outputs marked, to a sink; elim.h eliminates vertices in it.
 *
 * Everything an xf_lcg holds lives in its arena (the caller's scratch
 * arena), which xf_lcg_reset empties. */
#ifndef XF_TRANSFORMS_LCG_H
#define XF_TRANSFORMS_LCG_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"
#include "ir.h"
#include "map.h"

/* The most vertices a sequence gets before it is cut: each order costs at
 * most O(WINDOW^2) per sequence, so a long block costs O(WINDOW) per
 * statement. The corpus's largest sequence has 313 vertices. */
enum { XF_LCG_WINDOW = 512 };

/* A weight: c * var, or the constant c when var is NULL. */
typedef struct xf_lcg_wt {
    double c;
    xf_symbol *var;
    int rank; /* of var: 0 a scalar */
} xf_lcg_wt;

/* A storage location the propagation reads or writes. */
typedef struct xf_lcg_loc {
    const xf_varref *ref; /* as written by the propagator */
    const xf_symbol *sym;
    const char *sig; /* the subscripts, canonically; NULL for a whole variable */
    bool temp;       /* a temporary of ours: no other location aliases it */
    int rank;
    uint32_t cur;   /* its current vertex, UINT32_MAX if not written yet */
    uint32_t indep; /* its vertex at the start, UINT32_MAX if not read yet */
} xf_lcg_loc;

typedef struct xf_lcg_vx {
    uint32_t loc;
    bool indep;               /* the location's value at the start of the sequence */
    bool output;              /* its value is needed after the sequence */
    bool aux;                 /* a temporary of one statement's expression (OpenAD_aux_*) */
    bool gone;                /* eliminated */
    bool final;               /* the last version of its location */
    int64_t du;               /* DU set key of the definition */
    XF_VEC(uint32_t) in, out; /* edges */
} xf_lcg_vx;

typedef struct xf_lcg_ed {
    uint32_t src, tgt;
    xf_lcg_wt w;
    bool dead; /* gone with an eliminated vertex */
} xf_lcg_ed;

typedef struct xf_lcg {
    xf_doc *doc;
    xf_arena *a;   /* the graph's storage; xf_lcg_reset empties it */
    xf_diag *diag; /* where running out of memory is reported */
    XF_VEC(xf_lcg_loc) locs;
    XF_VEC(xf_lcg_vx) vs;
    XF_VEC(xf_lcg_ed) es;
    XF_VEC(const char *) ids;      /* statement ids in the sequence (for DU chains) */
    XF_VEC(const xf_symbol *) ixv; /* variables the locations' subscripts read */
    /* partials whose value is the negated weight (c = -1): the sign their
     * assignment no longer computes (preaccumulate's); NULL: none. Not in
     * the arena: it outlives the sequence. */
    const xf_map *neg;
} xf_lcg;

/** xf_lcg_init: an empty graph over @doc, kept in @a; out of memory is reported to @diag. */
void xf_lcg_init(xf_lcg *g, xf_doc *doc, xf_arena *a, xf_diag *diag);

/** xf_lcg_reset: forget the graph; everything kept in its arena goes too. */
void xf_lcg_reset(xf_lcg *g);

/** xf_lcg_oom: report running out of memory; returns -1. */
int xf_lcg_oom(const xf_lcg *g);

/** xf_lcg_vertex: a new vertex of location @l. @returns its index, or UINT32_MAX. */
uint32_t xf_lcg_vertex(xf_lcg *g, uint32_t l, bool indep);

/** xf_lcg_edge: a new edge @src -> @tgt with weight @w. @returns false when out of memory. */
bool xf_lcg_edge(xf_lcg *g, uint32_t src, uint32_t tgt, xf_lcg_wt w);

/**
 * xf_lcg_weight:
 * The weight an AX's A @a gives an edge: a constant, or a scalar variable
 * of ours (OpenAD_*: nothing overwrites it), negated (c = -1) when @g's neg
 * holds it; @g may be NULL. @returns false when the graph cannot take @a.
 */
bool xf_lcg_weight(const xf_lcg *g, const xf_expr *a, xf_lcg_wt *w);

/**
 * xf_lcg_add_op:
 * Add propagator operation @op (SetDeriv, SetNegDeriv, ZeroDeriv, or a Sax
 * whose factors are constants or OpenAD_* scalars) to the graph.
 * @returns 0 (with *@cut set when @op must start a new sequence: then the
 * graph is as it was), 1 when @op cannot be represented, -1 when out of memory.
 */
int xf_lcg_add_op(xf_lcg *g, const xf_dpop *op, bool *cut);

/** xf_lcg_may_alias: may two distinct locations share storage? */
bool xf_lcg_may_alias(const xf_lcg *g, const xf_lcg_loc *a, const xf_lcg_loc *b);

/** xf_lcg_reads_index_var: does a location's subscript read the variable @lhs writes? */
bool xf_lcg_reads_index_var(const xf_lcg *g, const xf_varref *lhs);

/**
 * xf_lcg_copy:
 * *@to becomes a copy of @g's vertices and edges (in @g's arena) sharing its
 * locations; assigning it back to *@g undoes what an elimination did since.
 * @returns 0, or -1 after reporting running out of memory.
 */
int xf_lcg_copy(const xf_lcg *g, xf_lcg *to);

/* A block's sequences go to a sink. */
typedef struct xf_lcg_walk xf_lcg_walk;
typedef struct xf_lcg_sink {
    void *ctx;
    /* A statement that stays as it is (assignments, calls, markers, and a
     * propagator of one operation that the graph cannot represent), in
     * order with the sequences. 0, or -1 after a report. */
    int (*stmt)(void *ctx, xf_stmt *s);
    /* A sequence with at least one vertex, its outputs marked, in w->g. It
     * may change the graph; the walk empties it afterwards. 0, or -1. */
    int (*sequence)(void *ctx, xf_lcg_walk *w);
} xf_lcg_sink;

struct xf_lcg_walk {
    xf_lcg g;
    uint32_t window;      /* the most vertices of a sequence (XF_LCG_WINDOW) */
    const xf_stmt *where; /* the statement for messages: the last with a line */
    bool mid_statement;   /* the sequence ends inside one statement's propagator */
    /* a window's cut inside a propagator: which temporaries the rest reads */
    bool window_cut;         /* flushing at such a cut */
    const xf_stmt *cut_stmt; /* the propagator that lastread describes, or NULL */
    uint32_t cut_at;         /* the cut: operations cut_at.. are still to come */
    xf_map lastread;         /* temporary's symbol -> index + 1 of its last reader */
    xf_arena *stmt_a;        /* lastread's storage */
    /* between xf_lcg_walk_stmts calls */
    const char *pending; /* the assignment whose propagator is still to come */
    uint64_t flushes;    /* sequences handed to the sink since xf_lcg_walk_begin */
};

/**
 * xf_lcg_walk_init / xf_lcg_walk_fini:
 * A walk over the blocks of @doc whose graphs live in @scratch (emptied at
 * each sequence). @returns 0, or -1 after reporting running out of memory.
 */
int xf_lcg_walk_init(xf_lcg_walk *w, xf_doc *doc, xf_arena *scratch, xf_diag *diag);
void xf_lcg_walk_fini(xf_lcg_walk *w);

/**
 * xf_lcg_walk_block:
 * Cut BasicBlock @b's statements into sequences of propagation: at calls,
 * at derivative assignments, where a variable that a location's subscript
 * reads is written, where two locations cannot be told apart, and at
 * w->window vertices; hand the statements and sequences to @sink in order.
 * A vertex is an output when its value is used after the sequence (by the
 * DU chains), or is a temporary that the rest of a cut propagator reads.
 * @b itself is not changed. @returns 0, or -1 after a report.
 */
int xf_lcg_walk_block(xf_lcg_walk *w, const xf_cvertex *b, const xf_lcg_sink *sink);

/**
 * xf_lcg_walk_begin / xf_lcg_walk_stmts / xf_lcg_walk_end:
 * xf_lcg_walk_block in pieces, for a block whose statements come a piece at
 * a time (tools/stream_block.c): begin, then the @n statements @v of each
 * piece in order, then end, hand the sink what xf_lcg_walk_block does. The
 * sequence in progress between pieces refers to the earlier pieces'
 * statements: they must live until it is handed on (w->flushes grows then).
 * A piece must not end just before a propagator or a derivative assignment
 * (one that does sees no propagator after its last assignment).
 * @returns 0, or -1 after a report.
 */
void xf_lcg_walk_begin(xf_lcg_walk *w);
int xf_lcg_walk_stmts(xf_lcg_walk *w, xf_stmt *const *v, uint32_t n, const xf_lcg_sink *sink);
int xf_lcg_walk_end(xf_lcg_walk *w, const xf_lcg_sink *sink);

#endif
