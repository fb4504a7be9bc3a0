/* checkpoint.h: what the files of the checkpoint pass share (checkpoint.c,
 * the pass; checkpoint_emit.c, a small builder of structured control flow
 * and integer code; checkpoint_state.c, the state of a step). */
#ifndef XF_TRANSFORMS_CHECKPOINT_H
#define XF_TRANSFORMS_CHECKPOINT_H

#include "cfgtree.h"
#include "pass.h"

enum { XF_CKP_MAX = 16 }; /* the most loops --checkpoint-loop names */

/* checkpoint's own options (xf_pass_own), which iterwise reads too. */
typedef struct xf_ckp_opts {
    const char *loops[XF_CKP_MAX]; /* --checkpoint-loop ROUTINE:LINE */
    int nloops;
    int64_t snaps; /* --snapshots S (0: chosen from the trip count at run time) */
    int schedule;  /* --schedule: 0 binomial, 1 periodic:K, 2 two-level:K */
    int64_t k;
} xf_ckp_opts;

/* A name the emitter's expressions may use, and its symbol. */
typedef XF_VEC(xf_symbol *) ck_syms;

typedef struct ck_name {
    const char *name;
    xf_symbol *sym;
} ck_name;

enum { CK_DEPTH = 16, CK_EXT = 8 };

/*
 * ck_emit: appends code to a control-flow graph, starting after a vertex.
 * Statements go into basic blocks; ck_if/ck_else/ck_endif make a Branch
 * (condition value 1: then; the default edge: else) and its EndBranch;
 * ck_while/ck_endwhile a PreLoop (1: body, default: exit) and its EndLoop.
 * Expressions are text over integers: names of @names, @K for a copy of
 * the expression ext[K] under vertex ext_root[K], integer literals,
 * ( ), unary -, * /, + -, == != < <= > >=, & and |. Any failure (out of
 * memory, an unknown name) sets failed; the caller reports it.
 */
typedef struct ck_emit {
    xf_doc *doc;
    xf_graph *g;
    xf_scope *scope; /* of the new basic blocks */
    const char *pfx; /* ids of new vertices and edges: PFX1, PFX2, ... */
    unsigned n;
    xf_cvertex *at; /* the vertex the next one follows */
    bool at_cv;     /* ... by an edge with condition value cv (else: the default edge) */
    int64_t cv;
    bool open; /* at is a basic block that takes more statements */
    const ck_name *names;
    int nnames;
    const xf_expr *ext[CK_EXT];
    uint32_t ext_root[CK_EXT];
    struct ck_frame {
        char kind; /* 'i' if, 'w' while */
        xf_cvertex *v;
        bool has_then;
        xf_cvertex *then_end;
        bool then_cv;
        int64_t then_cvv;
        bool in_else;
    } stk[CK_DEPTH];
    int depth;
    bool failed;
    const char *why; /* what failed, for the message */
} ck_emit;

void ck_stmt(ck_emit *e, xf_stmt *s);
/** ck_set: NAME = EXPR. */
void ck_set(ck_emit *e, const char *lhs, const char *rhs);
/** ck_set_ref: @lhs (copied) = EXPR. */
void ck_set_ref(ck_emit *e, const xf_varref *lhs, const char *rhs);
/** ck_call: InlinableSubroutineCall @name with no argument, or the one
 * argument @arg (a name or an integer literal: an argument is one vertex). */
void ck_call(ck_emit *e, const char *name, const char *arg);
/** ck_call_ref: InlinableSubroutineCall @name(@ref). */
void ck_call_ref(ck_emit *e, const char *name, const xf_varref *ref);
void ck_if(ck_emit *e, const char *cond);
/** ck_if_present: a Branch on present(@sym), for an argument that may be optional. */
void ck_if_present(ck_emit *e, xf_symbol *sym);
void ck_else(ck_emit *e);
void ck_endif(ck_emit *e);
void ck_while(ck_emit *e, const char *cond);
void ck_endwhile(ck_emit *e);
/** ck_splice: a copy of the part of @src from @first to @end (the body of a
 * loop, @end its EndLoop, which becomes an empty basic block). */
void ck_splice(ck_emit *e, const xf_graph *src, const xf_cvertex *first, const xf_cvertex *end);
/**
 * ck_body:
 * The vertices of a loop's body in @g, from @first to @end (its EndLoop)
 * by the edges between them, in depth-first order (@first first), in an
 * array from @a; their number in *@n. With @outs (may be NULL), each
 * vertex's out-edge count by vertex index. Time O(vertices + edges).
 * @returns the array, or NULL when out of memory.
 */
const xf_cvertex **ck_body(const xf_graph *g, const xf_cvertex *first, const xf_cvertex *end,
                           xf_arena *a, uint32_t *n, uint32_t **outs);

/** ck_join: an edge from where the code ends to @to. */
void ck_join(ck_emit *e, xf_cvertex *to);

/* checkpoint_sched.c */

typedef enum ck_kind { CK_BINOMIAL, CK_PERIODIC, CK_TWO_LEVEL } ck_kind;

/* What the schedule code needs: the names of ck_emit (T, S, n, capo, fine,
 * top, d, s, r, b, b1, b2, l, j, first, lo, st and the loop variable i),
 * the state, the loop's body in placeholders 1, 2 and 3. */
typedef struct ck_sched {
    ck_kind kind;
    int64_t k;             /* periodic, two-level: K */
    int64_t snaps;         /* binomial: S, or 0: from T at run time */
    int64_t adjust;        /* added to U (xf_loophead) */
    const ck_syms *state;  /* stored with every snapshot */
    const ck_syms *inputs; /* stored once, after the loop */
    const xf_routine *rt;  /* the loop's: its formals may be optional */
    const xf_graph *ph1, *ph2, *ph3;
    const xf_region *l1, *l2, *l3;
} ck_sched;

/** ck_forward: the loop's code in placeholder 2; ck_reverse: in placeholder 3. */
void ck_forward(ck_emit *e, const ck_sched *s);
void ck_reverse(ck_emit *e, const ck_sched *s);

/* checkpoint_state.c */

/* What each routine's calls do to a step's state, gathered routine by
 * routine before any loop is checkpointed (the pass's scan), so that a
 * step's callees need not be in memory. */
typedef struct ck_facts ck_facts;
typedef struct ck_ev ck_ev;
typedef XF_VEC(ck_ev) ck_evs;
ck_facts *ck_facts_new(void);
void ck_facts_free(ck_facts *f);
/** ck_facts_scan: sum up routine @r (its code: placeholder 1 of a
 * ReplacementList). 0, or -1 when out of memory. */
int ck_facts_scan(ck_facts *f, const xf_doc *doc, const xf_routine *r);

/**
 * ck_state:
 * The variables one step of the loop whose body runs from @first to @end in
 * @g (placeholder 1) reads before it writes them, except @skip (the loop
 * variable): in @out those it writes too (the state), in @inputs those it
 * only reads; in *@written (may be NULL) all it writes (assignments, the
 * actuals of calls, the Mod lists of the routines called). @doc resolves
 * calls; @facts, from ck_facts_scan, tells what the calls do.
 * @returns 0, or -1 with the reason in @why (a variable of a type that
 * cannot be stored).
 */
int ck_state(const xf_doc *doc, const ck_facts *facts, const xf_graph *g, const xf_cvertex *first,
             const xf_cvertex *end, const xf_symbol *skip, xf_arena *a, ck_syms *out,
             ck_syms *inputs, ck_syms *written, const char **why, char *buf, size_t len);

#endif
