/* rt.h: the interpreter's internals (frontends/run/), shared by its files.
 *
 * Storage follows Fortran: every variable instance is an rt_store of
 * elements in column-major order; a real has a value and a derivative
 * component per element. A name in an activation is bound to an rt_view of
 * a store (a formal argument views its actual's storage, from an offset,
 * with its own shape). Expressions evaluate to rt_val temporaries that live
 * until the statement ends. A fault (index out of range, empty tape, ...)
 * longjmps back to the driver with a message naming routine, statement and
 * line; nothing is left behind because everything lives in arenas. */
#ifndef XF_RUN_RT_H
#define XF_RUN_RT_H

#include <setjmp.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "ir.h"
#include "run.h"

enum { RT_MAXRANK = 7 };

typedef enum rt_type { RT_INT, RT_REAL, RT_BOOL, RT_STR } rt_type;

/* A string value: bytes (not NUL-terminated inside stores) and length. */
typedef struct rt_str {
    char *p;
    int64_t len;
} rt_str;

/* The storage of one variable instance. */
typedef struct rt_store {
    rt_type type;
    int rank;
    bool shaped;            /* extents known (arrays without bounds learn them) */
    bool growing;           /* shaped by the subscripts written so far: may grow */
    int64_t lb[RT_MAXRANK]; /* declared bounds */
    int64_t ext[RT_MAXRANK];
    int64_t n; /* elements */
    double *v, *d;
    int64_t *i;
    bool *b;
    rt_str *s;
} rt_store;

/* A name's binding: elements of a store seen with a shape of its own. */
typedef struct rt_view {
    const char *name; /* for messages */
    rt_store *st;
    int64_t off; /* storage index of the first element */
    int rank;
    int64_t lb[RT_MAXRANK], ext[RT_MAXRANK];
    int64_t n;
    const int64_t *map; /* when not NULL: storage index of each element (gathered sections) */
} rt_view;

/* A value computed by an expression: a scalar or a (column-major) array. */
typedef struct rt_val {
    rt_type type;
    int rank; /* 0: scalar */
    int64_t ext[RT_MAXRANK];
    int64_t n;
    union {
        double r;
        int64_t i;
        bool b;
        rt_str s;
    } sc;
    double *r; /* arrays */
    int64_t *iv;
    bool *bv;
    rt_str *sv;
} rt_val;

/* A place assigned to: elements of a view, value or derivative component. */
typedef struct rt_lval {
    rt_view *view; /* the variable's whole view */
    bool deriv;
    int rank; /* 0: one element */
    int64_t ext[RT_MAXRANK];
    int64_t n;
    int64_t *idx; /* storage index of each element (n of them) */
    int64_t one;  /* storage of idx when n == 1 */
    bool section; /* a section or vector subscript, not a whole variable or one element */
    bool substr;  /* characters sub_lo..sub_hi of a string scalar */
    int64_t sub_lo, sub_hi;
    int64_t pos0; /* position of the first element in the view's element order */
} rt_lval;

typedef struct rt_routine rt_routine;

/* A LIFO allocator: what is allocated after a mark is freed by releasing it.
 * Locals live in one (marked per activation: a routine's variables are made
 * when first used), call records in another (marked per call statement),
 * temporaries in a third (marked per statement). */
typedef struct rt_chunk rt_chunk;
typedef struct rt_pool {
    rt_chunk *top, *spare;
} rt_pool;
typedef struct rt_mark {
    rt_chunk *c;
    size_t used;
} rt_mark;

/* One call of a routine: the bindings of its local scope's names. */
typedef struct rt_act {
    rt_routine *rt;
    rt_view **views;          /* by position of the symbol in its scope; NULL until first use */
    struct rt_act *prev_same; /* the previous activation of the same routine */
    const xf_stmt *stmt;      /* what it is running, for messages */
} rt_act;

/* What the interpreter knows of a routine. */
struct rt_routine {
    const xf_routine *r;
    const char *name;          /* symbol id */
    const xf_graph *g;         /* ControlFlowGraph, or NULL for a ReplacementList */
    const xf_graph *ph[14];    /* ReplacementList placeholders 1..13 (NULL: empty) */
    bool callable;             /* has an Entry somewhere */
    const xf_argsym **formals; /* by position - 1 */
    int nformals;
    rt_act *top;            /* the most recent activation */
    rt_store **saved_shape; /* per local symbol: shape learned in an earlier activation */
};

/* A LIFO of words of one kind (tape or checkpoint stack). */
typedef struct rt_stack {
    union rt_word {
        double r;
        int64_t i;
        bool b;
        rt_str s;
    } * w;
    int64_t n, cap;
} rt_stack;

enum { ST_REAL, ST_INT, ST_BOOL, ST_STR, ST_KINDS };

/* The adjoint templates' mode record (OAD_rev). */
typedef struct rt_snap rt_snap; /* snapshot.c */

typedef struct rt_looptape rt_looptape; /* looptape.c */

typedef struct rt_mode {
    bool arg_store, arg_restore, res_store, res_restore, plain, tape, adjoint;
} rt_mode;

/* The machine: one document being run. */
typedef struct rt {
    const xf_doc *doc;
    xf_diag *diag;
    jmp_buf *fault;           /* where a fault returns to */
    xf_arena *a;              /* storage that lives for the run */
    rt_pool locals;           /* variables of the activations, released when theirs ends */
    rt_pool frames;           /* activations and argument bindings, released after their call */
    rt_pool tmp;              /* temporaries, released when their statement ends */
    xf_map xinfo;             /* xf_expr -> its operand table (eval.c) */
    rt_routine *routines;     /* by xf_routine index */
    rt_routine **by_symbol;   /* by xf_symbol index: the routine the symbol names */
    int32_t *slot;            /* by xf_symbol index: its position in its scope */
    rt_routine **scope_owner; /* by xf_scope index: the routine whose locals it holds */
    rt_view **statics;        /* by xf_symbol index: static (global, module) storage */
    rt_view absent;           /* bound to an optional formal that was not passed */
    xf_map cfgs;              /* xf_graph -> its out-edge table (exec.c) */
    xf_map common;            /* common-block member name -> rt_view (see bind_static) */
    rt_act *act;              /* the running activation */
    int depth;
    rt_stack tape[ST_KINDS], cp[ST_KINDS];
    bool split; /* adjoint template: split, else joint */
    rt_mode mode;
    rt_snap *snap;   /* snapshots of checkpointed loops (snapshot.c); NULL until used */
    rt_looptape *lt; /* the tape of each loop (looptape.c); NULL: not measured */
    xf_run_limits lim;
    xf_run_stats stats;
    uint64_t steps;
    uintptr_t stack_floor; /* the C stack may not go below this (rt_stack_check) */
} rt;

/* value.c: memory, storage, views, elements */
void *rt_pool_alloc(rt *m, rt_pool *p, size_t bytes);
rt_mark rt_pool_mark(const rt_pool *p);
void rt_pool_release(rt_pool *p, rt_mark mk);
void rt_pool_free(rt_pool *p);
void *rt_alloc(rt *m, size_t bytes);
rt_store *rt_store_new(rt *m, rt_type t, int rank, const int64_t *lb, const int64_t *ext);
void rt_store_shape(rt *m, rt_store *st, int rank, const int64_t *lb, const int64_t *ext);
rt_view *rt_view_whole(rt *m, rt_store *st);
rt_type rt_type_of(const xf_symbol *s);
rt_view *rt_bind(rt *m, const xf_scope *scope, const xf_symbol *sym);
bool rt_bind_present(rt *m, const xf_scope *scope, const xf_symbol *sym);
void rt_learn_shape(rt *m, const xf_varref *r, const rt_store *st);
int64_t rt_view_index(rt *m, const rt_view *v, const int64_t *sub);
int64_t rt_storage(const rt_view *v, int64_t k);
void *rt_tmp(rt *m, size_t n, size_t size);
rt_val rt_scalar_real(double r);
rt_val rt_scalar_int(int64_t i);
rt_val rt_scalar_bool(bool b);
rt_val rt_array(rt *m, rt_type t, int rank, const int64_t *ext);
double rt_real_at(const rt_val *v, int64_t k);
int64_t rt_int_at(rt *m, const rt_val *v, int64_t k);
bool rt_bool_at(rt *m, const rt_val *v, int64_t k);
rt_str rt_str_at(const rt_val *v, int64_t k);
rt_val rt_load(rt *m, const rt_lval *lv);
void rt_store_val(rt *m, const rt_lval *lv, const rt_val *v);
_Noreturn void rt_fault(rt *m, const char *fmt, ...) XF_PRINTF(2, 3);

/* The interpreter recurses on nested expressions and calls: before the C
 * stack runs out (its limit, `ulimit -s`, less a margin for the fault's
 * message), the run ends with a fault instead of a crash. */
_Noreturn void rt_stack_fault(rt *m);
static inline void
rt_stack_check(rt *m)
{
    if ((uintptr_t)__builtin_frame_address(0) < m->stack_floor)
        rt_stack_fault(m);
}

/* The most elements of one array: every element is allocated at once
 * (2^28 doubles: 2 GB). */
#define RT_MAX_ELEMENTS ((int64_t)1 << 28)

/* The extent of dimension @b of @name (0 when upper < lower); a fault for
 * an absent bound or more than RT_MAX_ELEMENTS elements (value.c). */
int64_t rt_extent(rt *m, const char *name, const xf_dimbounds *b);

/* eval.c: expressions */
rt_val rt_eval(rt *m, const xf_expr *x);
rt_val rt_eval_at(rt *m, const xf_expr *x, uint32_t vertex);
void rt_lvalue(rt *m, const xf_varref *r, bool deriv, rt_lval *out);
rt_view *rt_ref_view(rt *m, const xf_varref *r);
int64_t rt_eval_int(rt *m, const xf_expr *x);

/* libm.c: intrinsic @name when it is a C99 <math.h> function of the
 * catalogue (or digamma): its value in *@out, true; false for another name. */
bool rt_libm(rt *m, const char *name, int nops, const rt_val *args, rt_val *out);

/* intrinsics.c */
rt_val rt_intrinsic(rt *m, const char *name, const xf_evertex *v, const xf_expr *x,
                    const uint32_t *ops, int nops, rt_val *args);

/* exec.c: statements, control flow, calls */
void rt_exec_stmt(rt *m, const xf_stmt *s);
void rt_run_graph(rt *m, const xf_graph *g);
void rt_call(rt *m, rt_routine *callee, rt_view **actuals, int nactuals);
rt_view *rt_bind_arg(rt *m, const xf_expr *x, const xf_symbol *formal);
rt_val rt_function_call(rt *m, const xf_evertex *v);
rt_routine *rt_find_routine(rt *m, const char *name);

/* inline.c: InlinableSubroutineCall */
void rt_inline_call(rt *m, const xf_stmt *s);
void rt_push(rt *m, int kind, union rt_word w);
union rt_word rt_pop(rt *m, int kind, const char *what);

/* snapshot.c: the ckp_* calls of checkpointed loops */
bool rt_snapshot_call(rt *m, const xf_stmt *s); /* false: not a ckp_ routine */
void rt_snapshot_reset(rt *m);
void rt_snapshot_free(rt *m);

/* looptape.c: the tape of each loop (run --loop-tape); each call only when m->lt */
void rt_looptape_init(rt *m, FILE *out); /* out NULL: not measured */
void rt_looptape_reset(rt *m);
void rt_looptape_push(rt *m);
void rt_looptape_loop(rt *m, const xf_graph *g, const xf_cvertex *v, bool enter_body);
void rt_looptape_leave(rt *m, const xf_graph *g);
void rt_looptape_print(const rt *m);

#endif
