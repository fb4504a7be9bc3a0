/* pass.h: a pass is one function over the IR (QBE's shape); the registry
 * lists them and the named pipelines. A pass declares as data its ordering
 * rules (the passes that must have run before it, after; those it must run
 * before, before; whether it runs once), what it leaves broken until a
 * later pass (breaks), what it promises (verify), and its command-line
 * options with their storage (opts, own_size); the pass manager (passmgr.h)
 * reads those declarations: it checks a pass list against the rules before
 * any pass runs, parses the options, and runs the passes, per routine for
 * those that have run_routine. */
#ifndef XF_TRANSFORMS_PASS_H
#define XF_TRANSFORMS_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "ir.h"

/* preaccumulate's --elimination orders, a vocabulary the verbs and tests
 * share (the option itself is preaccumulate's own: xf_pass_own). */
typedef enum xf_elimination {
    XF_ELIM_BEST, /* per block, the cheapest of the orders below (and of none) */
    XF_ELIM_FORWARD,
    XF_ELIM_REVERSE,
    XF_ELIM_MARKOWITZ
} xf_elimination;

/* --reversal: the template the output is for. Not given: right under both
 * (split's rules where they differ); joint: OpenAD's joint template only
 * (deadstore trims the reruns, --loops auto takes what joint allows). */
typedef enum xf_rev_template { XF_REV_BOTH, XF_REV_JOINT, XF_REV_SPLIT } xf_rev_template;

/* The bytes of xf_opts that hold the passes' own options (all of them). */
enum { XF_OPTS_OWN = 512 };

/*
 * xf_opts: the options of the passes. A pass's options are declared in its
 * own file (xf_pass.opts, parsed by the pass manager) and kept in its own
 * bytes of own[], a struct of its file's (xf_pass.own_size; read with
 * xf_pass_own). Only the few that passes other than the one declaring them
 * read are fields here. A plain value: copying it copies every option.
 * Initialise with xf_pm_opts_init (passmgr.h).
 */
typedef struct xf_opts {
    xf_rev_template reversal; /* template's --reversal; deadstore, iterwise, iterdry read it */
    bool entry_joint;         /* template's --entry-joint: under split, the routine no call
                                 reaches runs both sweeps in one activation (revjoint.h) */
    bool call_marks;          /* set by grad: template marks the calls that need no argument
                                 checkpoint for the C back end ("xf_nocp" in a SubroutineCall's
                                 annotation, which OpenAD's schema does not allow there) */
    FILE *report_loops;       /* loopdep's --report-loops; iterwise and iterdry report there */
    FILE *reports;            /* where a pass's own report goes (--report); NULL: stderr */
    _Alignas(max_align_t) unsigned char own[XF_OPTS_OWN]; /* the passes' own (xf_pass_own) */
} xf_opts;

/* What the passes counted (for --report and the benchmark). */
typedef struct xf_pass_stats {
    uint64_t blocks;     /* preaccumulation sequences */
    uint64_t elim_muls;  /* multiplications of the chosen eliminations */
    uint64_t elim_adds;  /* additions of the chosen eliminations */
    uint64_t prop_terms; /* terms of the propagation left */
} xf_pass_stats;

typedef struct xf_pass_ctx {
    xf_doc *doc;
    const xf_opts *opts;
    xf_diag *diag;
    const xf_doc *catalogue; /* the inlinable intrinsics catalogue */
    const xf_doc *direct;    /* the non-inlinable one (DirectActions), or NULL */
    xf_pass_stats stats;
    xf_arena *scratch; /* run_routine: the manager's scratch arena, emptied after each routine */
    void *state;       /* the running pass's own, from its begin to its end */
    long fail_scratch; /* test hook: > 0, each scratch arena refuses its fail_scratch-th request */
    long fail_private; /* test hook: > 0, so does each pass's private arena (xf_pass_arena,
                          xf_arena_new_like(scratch)) */
} xf_pass_ctx;

/*
 * xf_pass_opt: a command-line option of a pass. The verbs offer the options
 * of the passes they run, as --NAME (and -LETTER), and hand the argument to
 * parse through the pass manager (xf_pm_option); --help shows help.
 */
typedef struct xf_pass_opt {
    const char *name; /* long option: "elimination" */
    char letter;      /* short option, or 0 */
    const char *arg;  /* the argument in --help ("ORDER"); NULL: a switch without one */
    const char *help; /* what it does, for --help (lines end in '\n') */
    /* Set @own (the declaring pass's own options, xf_pass_own) or a field
     * of @o from @arg (NULL for a switch). @returns 0, or -1 with the
     * reason in @err. */
    int (*parse)(xf_opts *o, void *own, const char *arg, char *err, size_t len);
    /* Optional: the option's value in @o as text ("best"), for reports. */
    const char *(*show)(const xf_opts *o, const void *own);
} xf_pass_opt;

typedef struct xf_pass {
    const char *name;
    const char *summary;      /* one line */
    const char *help;         /* a paragraph for --help */
    const char *const *after; /* needs: passes that must have run before, NULL-terminated */
    /* Runs before these, NULL-terminated: a list where one of them comes
     * ahead of this pass is refused ("sink: runs before linearize, ..."). */
    const char *const *before;
    bool once;                    /* runs once: a list naming it twice is refused */
    const char *breaks;           /* what it leaves broken until a later pass, or NULL */
    unsigned breaks_ir;           /* xf_ir_check's invariants it breaks (XF_IR_FLOW), left
                                     unchecked until a pass that needs this one has run */
    const xf_pass_opt *opts;      /* its options, ended by one without a name; or NULL */
    size_t own_size;              /* the size of its own options' struct (xf_pass_own), or 0 */
    void (*own_init)(void *own);  /* their defaults; NULL: all zero */
    int (*run)(xf_pass_ctx *ctx); /* the whole document: 0, or -1 after reporting to ctx->diag */
    /* Or one routine at a time, with ctx->scratch (then run is NULL): 0 or -1.
     * Such a pass runs the same whether the whole document is in memory or
     * one routine at a time (xf_pm_stream): it may look at another routine
     * only for its id, symbol, scopes and formals (what xf_read_stream keeps). */
    int (*run_routine)(xf_pass_ctx *ctx, xf_routine *rt);
    /* Optional, with run_routine: begin before the first routine (may set
     * ctx->state); scan sees every routine before run_routine sees any, for
     * whole-program facts (read once more when streaming); end after the
     * last routine or a failure, releasing ctx->state. 0 or -1. */
    int (*begin)(xf_pass_ctx *ctx);
    int (*scan)(xf_pass_ctx *ctx, const xf_routine *rt);
    void (*end)(xf_pass_ctx *ctx);
    /* Optional: true when options @o give the pass nothing to do; one routine
     * at a time (xf_pm_stream) leaves it out then. */
    bool (*idle)(const xf_opts *o);
    /* A per-routine pass that looks into other routines' code (not only their
     * ids, symbols and formals): not one routine at a time unless idle. */
    bool needs_document;
    /* Optional: what the pass promises, checked by --verify-each right after
     * it (and after xf_ir_check): 0, or -1 after reporting to ctx->diag the
     * first place where the promise does not hold. @promise says it in words
     * (passes --list). */
    int (*verify)(xf_pass_ctx *ctx);
    const char *promise;
} xf_pass;

/** xf_passes: every pass, NULL-terminated (registry.c). */
extern const xf_pass *const xf_passes[];

/**
 * xf_pass_own:
 * The own options of the registry's pass named as @p (its own_size bytes
 * in @o->own, placed by the registry's order), or NULL when @o is NULL or
 * the pass has none. xf_pass_own_c: the same, read only.
 */
void *xf_pass_own(xf_opts *o, const xf_pass *p);
const void *xf_pass_own_c(const xf_opts *o, const xf_pass *p);

/** xf_pass_find: the pass named @name, or NULL. */
const xf_pass *xf_pass_find(const char *name);

/** xf_pipeline_expand: the comma-separated pass list of pipeline @name, or NULL. */
const char *xf_pipeline_expand(const char *name);

/** xf_pipeline_name: the name of the @k-th named pipeline (from 0), or NULL past the last. */
const char *xf_pipeline_name(size_t k);

/* The passes (one exported symbol per pass file). */
extern const xf_pass xf_pass_convert;
extern const xf_pass xf_pass_template;
extern const xf_pass xf_pass_linearize;
extern const xf_pass xf_pass_preaccumulate;
extern const xf_pass xf_pass_propagate;
extern const xf_pass xf_pass_adjoin;
extern const xf_pass xf_pass_reverse;
extern const xf_pass xf_pass_argpush;
extern const xf_pass xf_pass_argdead;
extern const xf_pass xf_pass_rename;
extern const xf_pass xf_pass_inout;
extern const xf_pass xf_pass_checkpoint;
extern const xf_pass xf_pass_loopdep;
extern const xf_pass xf_pass_iterwise;
extern const xf_pass xf_pass_iterdry;
extern const xf_pass xf_pass_constprop;
extern const xf_pass xf_pass_sink;
extern const xf_pass xf_pass_deadstore;

/* Helpers the passes share (transforms/util.c). */

/** xf_is_active_sym: a real variable that the front end marked active. */
bool xf_is_active_sym(const xf_symbol *s);
/** xf_is_active_ref: a reference to an active variable's value. */
bool xf_is_active_ref(const xf_varref *r);
/** xf_catalogue_find: the catalogue's entry for intrinsic @name, or NULL. */
const xf_ii *xf_catalogue_find(const xf_doc *cat, const char *name);
/** xf_direct_find: the DirectAction for intrinsic @name, or NULL. */
const xf_nii *xf_direct_find(const xf_doc *cat, const char *name);
/** xf_work_graph: the graph the differentiating passes work on: a
 * ControlFlowGraph's own, a ReplacementList's taping placeholder (2); NULL if none. */
xf_graph *xf_work_graph(xf_routine *rt);
/**
 * xf_ref_sig / xf_expr_sig:
 * A text, interned in @doc, that is equal for two references (expressions)
 * exactly when they are written alike: the same symbols, subscripts,
 * constants and operations (function calls are not told apart). Any length
 * and any nesting has one; NULL only when out of memory.
 */
const char *xf_ref_sig(xf_doc *doc, const xf_varref *r);
const char *xf_expr_sig(xf_doc *doc, const xf_expr *x);
/** xf_refs_alike: do @a and @b have the same xf_ref_sig? false when out of memory. */
bool xf_refs_alike(const xf_varref *a, const xf_varref *b);
/* What xf_walk_ref and xf_walk_expr reach, one step at a time. */
typedef struct xf_walk_step {
    const xf_varref *ref;     /* a reference; NULL at a FunctionCall or ArgumentReference */
    const xf_evertex *vertex; /* its expression vertex; NULL for the walk's own reference
                                 and for a call's argument */
    unsigned depth;           /* subscripts entered to reach it: 0 for the walk's own */
    bool in_arg;              /* in an argument of a FunctionCall: the argument (vertex
                                 NULL) or in its subscripts */
    bool after;               /* XF_WALK_AFTER's second step, after the subscripts (arguments) */
} xf_walk_step;
/* What the walk does after a step: go into the reference's subscripts (the
 * call's arguments), skip them, or end. */
typedef enum xf_walk_go { XF_WALK_GO, XF_WALK_SKIP, XF_WALK_STOP } xf_walk_go;
typedef xf_walk_go (*xf_walk_fn)(void *ctx, const xf_walk_step *s);
enum {
    XF_WALK_ARGS = 1,      /* go into the arguments of function calls */
    XF_WALK_AFTER = 2,     /* a second step for each reference (function call), after its
                              subscripts (arguments), also when they were skipped */
    XF_WALK_SUBSCRIPTS = 4 /* xf_walk_ref: only the subscripts, not the reference itself */
};
/**
 * xf_walk_ref / xf_walk_expr:
 * Call @fn(@ctx, step) for reference @r (may be NULL) and, depth first,
 * each reference in its subscripts (index, bound, stride, in that order,
 * dimension by dimension); for expression @x (may be NULL), each of its
 * references in vertex order, each followed by its subscripts. FunctionCall
 * and ArgumentReference vertices are steps too (ref NULL); @flags is a set
 * of XF_WALK_*. The walk keeps its own stack, so any nesting is walked,
 * in memory it frees before it returns.
 * @returns 1 when @fn ended the walk (XF_WALK_STOP), 0 when it ran to the
 * end, -1 when out of memory (part may have been walked).
 */
int xf_walk_ref(const xf_varref *r, unsigned flags, xf_walk_fn fn, void *ctx);
int xf_walk_expr(const xf_expr *x, unsigned flags, xf_walk_fn fn, void *ctx);
/** xf_placeholder: the Replacement of ReplacementList @rt for placeholder @k ("2"), or NULL. */
xf_replacement *xf_placeholder(xf_routine *rt, const char *k);
/** xf_const_int_of: is @x one integer constant? Its value in *@v. */
bool xf_const_int_of(const xf_expr *x, int64_t *v);
/**
 * xf_refs_may_alias:
 * May @a and @b share storage? The same variable unless two constant
 * subscripts tell the elements apart; two variables when the front end's
 * alias map gives them overlapping address ranges.
 */
bool xf_refs_may_alias(const xf_doc *doc, const xf_varref *a, const xf_varref *b);
/** xf_is_formal: is @s a formal argument of @rt? */
bool xf_is_formal(const xf_routine *rt, const xf_symbol *s);
/** xf_is_local: is @s (may be NULL) a local variable of @rt: of its scope, not a formal? */
bool xf_is_local(const xf_routine *rt, const xf_symbol *s);
/** xf_is_temporary: is @s a temporary of the transformation (marked so, or OpenAD_*)? */
bool xf_is_temporary(const xf_symbol *s);
/** xf_hosts_procedures: has @rt internal procedures (Fortran's CONTAINS: a
 * scope whose parent is @rt's local scope), which read and write @rt's
 * variables by host association, without arguments? */
bool xf_hosts_procedures(const xf_doc *doc, const xf_routine *rt);
/** xf_is_private: is @s a local of @rt (xf_is_local) that no other routine
 * can reach: @rt hosts no procedure (@host false, xf_hosts_procedures), or
 * @s is a temporary of the transformation, which no source names? A
 * routine's call of its internal procedure may read and write every other
 * local, as it may a global. */
bool xf_is_private(const xf_routine *rt, bool host, const xf_symbol *s);
/**
 * xf_alias_overlaps:
 * Call @mark(@ctx, s) for each variable s one of whose references among
 * @refs[0..@n) has, in the front end's alias map, an address range that
 * overlaps a range of another variable's reference (the pairs
 * xf_refs_may_alias finds among distinct variables), in O(r log r) for r
 * ranges; a variable may be marked more than once. References without a
 * variable are skipped. Scratch from @a.
 * @returns false when out of memory or when @mark returned false.
 */
bool xf_alias_overlaps(const xf_doc *doc, const xf_varref *const *refs, uint32_t n, xf_arena *a,
                       bool (*mark)(void *ctx, const xf_symbol *s), void *ctx);
/**
 * xf_derived_id:
 * The interned statement id "_@what_@n_for_@id" of a statement a pass adds
 * for statement @id (NULL: ""), however long @id is (a cut id could end
 * inside a UTF-8 character and make the output unreadable).
 * @returns the id, or NULL when out of memory.
 */
const char *xf_derived_id(xf_doc *doc, const char *what, unsigned n, const char *id);
/** xf_pass_arena: a new arena for a pass's private tables (NULL: out of
 * memory), under the test hook fail_private. @ctx may be NULL (a plain
 * arena). */
xf_arena *xf_pass_arena(const xf_pass_ctx *ctx);

/** xf_pass_oom: report running out of memory; returns -1. */
int xf_pass_oom(xf_pass_ctx *ctx);

#endif
