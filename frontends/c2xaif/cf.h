/* cf.h: the C front end's own representation, between libclang and xaif:
 * functions with their symbols and control-flow graphs of statements over
 * small expression trees. Everything lives in one arena. */
#ifndef XF_C2XAIF_CF_H
#define XF_C2XAIF_CF_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "c2xaif.h"
#include "dl_clang.h"

enum {
    CF_MAXRANK = 7,   /* Fortran's limit (the Fortran front end) */
    CF_MAXRANK_C = 3, /* the C front end's */
    /* Expressions and statements nested deeper than this are refused: the
     * walk recurses, on the front end's own stack (c2xaif.c, CF_STACK). */
    CF_MAX_DEPTH = 200000,
};

/* The number of elements written in the xaif's DimensionBounds for a
 * dimension known only at run time (its extent is in the symbol's
 * annotation, xf_extent=...): the C back end never uses it as a size
 * (frontends/xaif2c/c_impl.h, XF_RT_EXTENT). */
#define CF_RT_EXTENT 16777216

typedef enum cf_type { CF_INT, CF_FLOAT, CF_DOUBLE } cf_type; /* ORDER cf_type */

typedef struct cf_sym {
    const char *name; /* symbol_id */
    cf_type type;
    int rank;
    int64_t dims[CF_MAXRANK];  /* extents in C order */
    int64_t lower[CF_MAXRANK]; /* lower bounds, same order (0 in C; Fortran's own) */
    bool global;               /* a module variable (Fortran): in scope 1 */
    bool nobounds;             /* an array argument whose bounds the caller gives (Fortran) */
    bool logical;              /* a LOGICAL (Fortran): type CF_INT, written "bool" */
    int formal;                /* position from 1; 0: a local */
    uint64_t decl;             /* where it is declared (symbols.c); 0: a temporary */
    bool read, written;        /* as a formal: read / written here or by a callee */
    bool active;
    CXCursor where; /* its declaration, for messages */
    bool ptr;       /* a pointer parameter (an array of the extent found) */
    bool cconst;    /* its elements are const (a `const double *` parameter) */
    uint32_t node;  /* index in the activity graph */
    /* run-time extents (extent.c): per dimension the C expression, NULL: dims[k] */
    const char *dimx[CF_MAXRANK];
    /* what the uses of a pointer parameter say of its extent (extent.c) */
    const struct cf_expr *use_n; /* p[i] under i < use_n (+1 when use_plus1) */
    int64_t use_max;             /* p[k], k constant: k + 1 at most */
    bool use_plus1, use_bad;     /* use_bad: a use that says nothing (p passed whole, p[i+1]) */
    bool by_use;                 /* dims[0] is use_max: calls may pass longer arrays */
    bool pending;                /* passed on to a callee: sized once the callee is (extent.c) */
    bool heap;                   /* a malloc'ed work array of extent dimx[0] (pointers.c) */
    bool plocal;                 /* a pointer local: an int, the offset into pbase (pointers.c) */
    struct cf_sym *pbase;
    int ptype; /* plocal: the cf_type it points to */
    /* a pointer local into several arrays, and (view set) the array it points into in a
       statement not yet dispatched on its tag (ptarget.c) */
    struct cf_multi *multi;
    struct cf_sym *view;
    /* a member of a struct variable (structs.c), NULL: none */
    const struct cf_leaf *leaf;
    int nominal; /* dimx[0] found from the uses: 1 when dims[0] is the one size all
                    calls pass (for xaiform run), 2 when they differ */
} cf_sym;

typedef enum cf_ekind { CF_E_VAR, CF_E_INT, CF_E_REAL, CF_E_OP, CF_E_BOOL } cf_ekind;

typedef struct cf_expr {
    cf_ekind kind;
    cf_sym *sym;                     /* VAR */
    struct cf_expr *sub[CF_MAXRANK]; /* VAR: subscripts in C order (rank of sym, or 0) */
    int nsub;
    int64_t ival;    /* INT */
    bool logical;    /* INT: a LOGICAL literal (Fortran), written type "bool" */
    double rval;     /* REAL */
    bool f4;         /* REAL: a float literal */
    const char *op;  /* OP, BOOL: the catalogue's name */
    const char *str; /* VAR without sym: a string literal's C spelling (passive.c) */
    struct cf_expr *a[2];
    int nargs;
} cf_expr;

typedef struct cf_fn cf_fn;

typedef enum cf_skind { CF_S_ASSIGN, CF_S_CALL, CF_S_PASSIVE } cf_skind;

typedef struct cf_stmt {
    cf_skind kind;
    int id;
    unsigned line;
    cf_expr *lhs, *rhs; /* ASSIGN */
    cf_fn *callee;      /* CALL */
    CXCursor at;        /* CALL: where, for messages */
    XF_VEC(cf_expr *)
    args;              /* CALL: variables (whole or element) or constants; PASSIVE:
                          temporaries and strings (passive.c) */
    const char *pname; /* PASSIVE: xf_passive_NAME */
} cf_stmt;

typedef enum cf_vkind {
    CF_V_ENTRY,
    CF_V_EXIT,
    CF_V_BB,
    CF_V_BRANCH,
    CF_V_ENDBRANCH,
    CF_V_FORLOOP,
    CF_V_PRELOOP,
    CF_V_ENDLOOP
} cf_vkind;

typedef struct cf_vert {
    cf_vkind kind;
    unsigned line;
    XF_VEC(cf_stmt *) stmts; /* BB */
    cf_expr *cond;           /* BRANCH, FORLOOP, PRELOOP */
    cf_stmt *init, *update;  /* FORLOOP */
} cf_vert;

typedef struct cf_edge {
    uint32_t src, tgt;
    bool has_cv;
    int64_t cv;
} cf_edge;

/* a parameter passed through untouched (passthru.c) */
typedef struct cf_passp {
    const char *name, *ctype; /* its C name and type */
    int cpos;                 /* its place in the C signature, from 1 */
    CXCursor decl;
} cf_passp;

struct cf_fn {
    const char *name;
    CXCursor decl; /* its definition */
    unsigned line; /* the Fortran front end: where it is defined (no cursor) */
    uint32_t index;
    bool done, busy;
    cf_sym *ret;    /* the result formal, or NULL for void */
    bool is_static; /* declared static: its derivatives are static too */
    bool external;  /* declared only; the user writes its derivatives (external.c) */
    XF_VEC(cf_sym *) syms;
    XF_VEC(cf_sym *) formals; /* by position */
    XF_VEC(cf_vert) v;
    XF_VEC(cf_edge) e;
    XF_VEC(cf_fn *) callees;
    XF_VEC(cf_passp) passp; /* parameters passed through (passthru.c) */
    int nstmt, ntmp;
    /* the graph being built: flow continues from vertex cur (an open
     * basic block takes the next statements); !live: nothing reaches here */
    uint32_t cur, exit;
    bool live, open;
};

/* an enclosing counting loop for (var = 0; var < n; var++) (extent.c) */
typedef struct cf_bound {
    cf_sym *var;
    const struct cf_expr *n;
    bool plus1; /* var <= n */
    struct cf_bound *up;
} cf_bound;

/* a pointer parameter passed on, at a constant offset, to parameter k of a callee (extent.c) */
typedef struct cf_pass {
    cf_sym *p;
    int64_t off;
    struct cf_fn *callee;
    int k;
    struct cf_expr *const *vals; /* the call's by-value arguments by position (NULL: an array) */
} cf_pass;

typedef struct cf {
    const xf_c2xaif_opts *o;
    FILE *err;
    xf_arena *a;
    CXTranslationUnit tu;
    jmp_buf fail;
    int status; /* when longjmp'd to fail */
    XF_VEC(cf_fn *) fns;
    XF_VEC(cf_sym *) globals; /* module variables (the Fortran front end) */
    /* while walking one function */
    cf_fn *fn;
    const char *no_calls;
    CXCursor stmt; /* the expression statement being walked: '++'/'--' may be inside it */
    struct cf_jump *jump;
    unsigned depth;   /* expressions and statements being walked, nested */
    cf_bound *bounds; /* the counting loops around the statement being walked */
    XF_VEC(cf_pass) passes;
    XF_VEC(cf_sym *) ptags; /* arrays pointed into by pointers into several (ptarget.c) */
    struct cf_inl *inl;     /* a constructor being read in its caller (ctor.c) */
    XF_VEC(uint64_t) ctors; /* the locals a constructor made (ctor.c) */

    /* the locals an array constructor made (arr_ctor.c) */
    XF_VEC(uint64_t) arr_ctors;
    /* innermost loop or switch: targets of break and continue */ /* non-NULL: where a call
                                                                     cannot be hoisted (for the
                                                                     message) */
} cf;

/** cf_refuse: report "FILE:LINE:COL: error: <fmt>" at @c and leave (longjmp, status 1). */
_Noreturn void cf_refuse(cf *c, CXCursor at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/** cf_oom: out of memory (longjmp, status 3). */
_Noreturn void cf_oom(cf *c);
/** cf_alloc: zeroed memory from the arena, or leave. */
void *cf_alloc(cf *c, size_t n);
const char *cf_strdup(cf *c, const char *s);

/** cf_enter: one level deeper into @x (an expression or statement), refused past
 * CF_MAX_DEPTH; cf_leave when done. */
void cf_enter(cf *c, CXCursor x);
static inline void
cf_leave(cf *c)
{
    c->depth--;
}

/** cf_children: the children of @p (all of them), in *@n; arena memory. */
CXCursor *cf_children(cf *c, CXCursor p, unsigned *n);
/** cf_skip: @x without ParenExpr and conversions that change nothing. */
CXCursor cf_strip(CXCursor x);
/* @x without parentheses, casts and implicit conversions (ctor.c). */
CXCursor cf_bare(cf *c, CXCursor x);
/* Whether @x is a member reference whose struct is the variable declared at @d (ctor.c). */
bool cf_member_of(cf *c, CXCursor x, CXCursor d);
/** cf_names: whether @x, stripped, is a reference to declaration @decl. */
bool cf_names(CXCursor x, CXCursor decl);

/* parse_expr.c */
/** cf_expr_of: the expression @x of the current function (calls inside it hoisted into
 * statements appended by cf_emit_stmt). */
cf_expr *cf_expr_of(cf *c, CXCursor x);
/** cf_lvalue_of: a variable or array element that @x designates. */
cf_expr *cf_lvalue_of(cf *c, CXCursor x);
/** cf_call_stmt: the call @x of @f, its result (if any) into @res, appended as a statement
 * (scalar arguments copied into temporaries first). */
void cf_call_stmt(cf *c, CXCursor x, cf_fn *f, cf_sym *res);
/** cf_call_build: cf_call_stmt's statement, not yet appended (cf_emit_stmt). */
cf_stmt *cf_call_build(cf *c, CXCursor x, cf_fn *f, cf_sym *res);
/** cf_cond_of: the condition @x (a comparison, logic, or a value compared with 0). */
cf_expr *cf_cond_of(cf *c, CXCursor x);
/** cf_type_of: the cf_type of a scalar C type, or refuse at @at. */
cf_type cf_type_of(cf *c, CXType t, CXCursor at);
/** cf_find_fn: the function of the file named @name (made on first use), or NULL. */
cf_fn *cf_find_fn(cf *c, CXCursor callee_decl);
/** cf_sym_of_decl: the symbol of the variable that @use (a DeclRefExpr) names, of the
 * current function. */
cf_sym *cf_sym_of_decl(cf *c, CXCursor use);
/** cf_temp: a new temporary of the current function. */
cf_sym *cf_temp(cf *c, const char *prefix, cf_type t);
/** cf_binop_spelling: the operator of a binary or compound assignment operator @x. */
const char *cf_binop_spelling(cf *c, CXCursor x, char *buf, size_t len);
/** cf_unop_spelling: the operator of a unary operator @x; *@postfix set when it follows. */
const char *cf_unop_spelling(cf *c, CXCursor x, char *buf, size_t len, bool *postfix);
/** cf_line: the line of @x. */
unsigned cf_line(CXCursor x);
/** cf_is_real: whether @t is float or double. */
static inline bool
cf_is_real(cf_type t)
{
    return t != CF_INT;
}
/** cf_expr_type: the type of @e (integer unless a real operand). */
cf_type cf_expr_type(const cf_expr *e);

/* symbols.c */
/** cf_declare: the symbol of the parameter or variable declared at @d (refused when its
 * type is outside the subset). */
cf_sym *cf_declare(cf *c, CXCursor d, bool formal);
/** cf_add_sym: a new symbol of the current function named @name (or NAME_2, ...). */
cf_sym *cf_add_sym(cf *c, const char *name, cf_type t);
/** cf_top_extents: the top function @f's pointer parameters' extents from --extent. */
void cf_top_extents(cf *c, cf_fn *f);

/* parse_stmt.c */
/* the graph of the current function, for the Fortran front end: a new vertex; an edge;
 * flow on to @v from cur; a fresh block entered from @from */
uint32_t cf_g_vertex(cf *c, cf_vkind k, unsigned line);
void cf_g_edge(cf *c, uint32_t s, uint32_t t, bool has_cv, int64_t cv);
void cf_g_go(cf *c, uint32_t v, bool open);
uint32_t cf_g_arm(cf *c, uint32_t from, bool has_cv, int64_t cv, unsigned line);
/** cf_walk_fn: build @f's symbols and control-flow graph. */
void cf_walk_fn(cf *c, cf_fn *f);
/** cf_extents: the extents of pointer parameters from the arrays the calls pass (all of one
 * size); refuse one left without, or given several. */
void cf_extents(cf *c);
/** cf_simple_stmt: the statement of assignment or call @x (unemitted; calls in it hoisted
 * and emitted), NULL when it is none. */
cf_stmt *cf_simple_stmt(cf *c, CXCursor x);
/** cf_incr_stmt: the statement of `k++`, `--k` ... at @x (parse_stmt.c). */
cf_stmt *cf_incr_stmt(cf *c, CXCursor x);
/** cf_emit_stmt: append @s to the current block of the function being walked. */
void cf_emit_stmt(cf *c, cf_stmt *s);
cf_stmt *cf_new_stmt(cf *c, cf_skind k, unsigned line);
/** cf_libm_call: the call @x of @name, which the file does not define: a <math.h>
 * function of the catalogue (libm.c), or refused with what to do. */
cf_expr *cf_libm_call(cf *c, CXCursor x, const char *name);
/** cf_unseen_refuse: refuse call @x of @name, which the file does not define, saying
 * whether it is a <math.h> function without a derivative or the user's own. */
_Noreturn void cf_unseen_refuse(cf *c, CXCursor x, const char *name);
/** cf_no_op: whether expression statement @x, which sets nothing, may be left out: `(void)0`
 * (what assert is under NDEBUG) or any cast to void of an expression without side effect,
 * `(void)n`; refuses assert(...) with what to do. */
bool cf_no_op(cf *c, CXCursor x);
/** cf_select: a temporary set to @a where @cond holds, else to @b, by a Branch emitted
 * here (fmin, fmax, ?:); its reference. */
cf_expr *cf_select(cf *c, CXCursor at, cf_expr *cond, cf_expr *a, cf_expr *b);

/* extent.c */
/** cf_rt_text: @text checked as an extent of @f (an integer expression of its int parameters),
 * without spaces; refused at @at with @what (the option or declaration) otherwise. */
const char *cf_rt_text(cf *c, cf_fn *f, const char *text, CXCursor at, const char *what);
/** cf_rt_loop: push @b for a counting loop (from a constant >= 0, by 1, while < or <=); false
 * otherwise. */
bool cf_rt_loop(cf *c, const cf_stmt *init, const cf_expr *cond, const cf_stmt *inc, cf_bound *b);
/** cf_rt_use: note what the reference @e (p[k], or p passed whole) says of p's extent. */
void cf_rt_use(cf *c, cf_expr *e);
/** cf_rt_infer: the extents of @f's pointer parameters from their uses, where they tell it. */
void cf_rt_infer(cf *c, cf_fn *f);
/** cf_rt_nominal: the number written in the xaif for @s, whose extent is known at run time,
 * when its calls pass arrays of @size elements (-1: unknown). */
void cf_rt_nominal(cf_sym *s, int64_t size);
/** cf_rt_check: refuse an extent over an int parameter that its function writes. */
void cf_rt_check(cf *c);
/** cf_rt_brackets: the texts inside the [] after @name in declaration @d (at most @max); their
 * number. */
int cf_rt_brackets(cf *c, CXCursor d, const char *name, const char **groups, int max);

/* extent_flow.c */
/** cf_rt_pass: pointer parameter @p is passed at offset @off to parameter @k of @callee, by a
 * call whose by-value arguments are @vals (by position; filled in as the call is read). */
void cf_rt_pass(cf *c, cf_sym *p, int64_t off, cf_fn *callee, int k, cf_expr *const *vals);
/** cf_rt_settle: the extents of pointer parameters passed on to callees, once all are walked. */
void cf_rt_settle(cf *c);
/** cf_fn_extents: @f's pointer parameters' extents from --extent FUNC:PARAM=E. */
void cf_fn_extents(cf *c, cf_fn *f);
/** cf_fn_extents_check: refuse --extent FUNC:... naming no function walked. */
void cf_fn_extents_check(cf *c, const cf_fn *top);

/* passthru.c */
/** cf_pass_type: whether a parameter of type @t is passed through untouched (a pointer to
 * pointers, or to a type other than double, float, int and structs). */
bool cf_pass_type(CXType t);
/** cf_pass_param: record parameter @d (place @cpos from 1) of @f as passed through when its type
 * is one (no xaif symbol); whether it is. */
bool cf_pass_param(cf *c, cf_fn *f, CXCursor d, int cpos);
/** cf_pass_use: refuse the use @use (a DeclRefExpr) when it names a parameter passed through. */
void cf_pass_use(cf *c, CXCursor use);
/** cf_pass_arg: whether @arg goes to a parameter of type @ft passed through (it must then be
 * such a parameter of the caller, or is refused); the call then has no xaif argument for it. */
bool cf_pass_arg(cf *c, CXCursor arg, CXType ft);
/** cf_pass_annotation: @base followed by ";xf_pass=POS:NAME:TYPE" for each parameter of @f
 * passed through; arena text. */
const char *cf_pass_annotation(cf *c, const cf_fn *f, const char *base);

/* passive.c */
/** cf_passive_call: emit the call @x of @name, which the file does not define, as a passive
 * statement (its result unused, its arguments values and string literals; refused otherwise);
 * false when @name is declared in the file itself (the user's own, to be defined there). */
bool cf_passive_call(cf *c, CXCursor x, const char *name);
/** cf_passive_assert: emit assert(c) at @x (the C library's expansion) as a passive check. */
void cf_passive_assert(cf *c, CXCursor x);

/* pointers.c */
/** cf_ptr_of: the offset of pointer expression @x into the array it points into (*@base). */
cf_expr *cf_ptr_of(cf *c, CXCursor x, cf_sym **base);
/** cf_ptr_elem: the element pointer expression @x points to, @k further (NULL: 0). */
cf_expr *cf_ptr_elem(cf *c, CXCursor x, cf_expr *k);
/** cf_ptr_set: pointer local @p is made to point into @base (one array for each pointer). */
void cf_ptr_set(cf *c, cf_sym *p, cf_sym *base, CXCursor at);
/** cf_heap_local: the work array that pointer local @name is malloc'ed as at @d, or NULL. */
cf_sym *cf_heap_local(cf *c, CXCursor d, const char *name, CXType pointee);
/** cf_heap_free: whether @call is free() of a work array (it then has no statement). */
bool cf_heap_free(cf *c, CXCursor call);
/** cf_heap_size: the extent of malloc/calloc call @x for array @name (NULL: no such call). */
const char *cf_heap_size(cf *c, CXCursor x, const char *name);
/** cf_struct_heap: the pointer member of a local struct that @x (free's argument) names, when
 *  it is malloc'ed (struct_ptr.c's caller), else NULL. */
cf_sym *cf_struct_heap(cf *c, CXCursor x);
/** cf_rt_expr_text: @e as an extent (C text over the int parameters), or NULL. */
const char *cf_rt_expr_text(cf *c, const cf_expr *e);
/** cf_ptr_target: the pointer local that assignment target @lhs names, or NULL. */
cf_sym *cf_ptr_target(cf *c, CXCursor lhs);
/** cf_ptr_moved_params: each pointer parameter of @f that @f itself moves (p++, p += k, p = q)
 * becomes a pointer local into it from offset 0, set at the entry (the caller's pointer is
 * a copy, untouched). */
void cf_ptr_moved_params(cf *c, cf_fn *f);
/** cf_ptr_local: the int variable that stands for pointer local @name declared at @d. */
cf_sym *cf_ptr_local(cf *c, CXCursor d, const char *name, CXType pointee);

/* ctor.c: constructors and destructors of structs */
/** cf_ctor_local: pointer local @d to a struct, set by @call where it is declared: when the
 * callee is a constructor, @d becomes a local struct set by its member assignments (true);
 * false when the callee is not defined in the file; refused when it is no constructor. */
bool cf_ctor_local(cf *c, CXCursor d, CXCursor call);
/** cf_inl_param: the argument that parameter @d of the constructor being read stands for,
 * read in the caller; NULL when @d is none. */
cf_expr *cf_inl_param(cf *c, CXCursor d);
/** cf_inl_enter: read statements of @fn in the caller from here on, its parameters standing
 *  for @call's arguments and its struct @self (a cf_decl_key) for the caller's local @as. */
void cf_inl_enter(cf *c, CXCursor fn, CXCursor call, uint64_t self, uint64_t as);
/** cf_inl_leave: end what cf_inl_enter began. */
void cf_inl_leave(cf *c);
/** cf_resize_call: whether @call is of a resizer on a constructor's local struct; its
 *  statements are then read in the caller (resize.c). */
bool cf_resize_call(cf *c, CXCursor call);
/** cf_resize_stmt: whether statement @x of the function being walked only frees and sets (to
 *  malloc, calloc or NULL) pointer members of one of its struct parameters, under tests (a
 *  resize within a longer function): no statement, the malloc an extent (resize.c). */
bool cf_resize_stmt(cf *c, CXCursor x);
/** cf_resize_through: size the work arrays of the constructors' local structs that @call
 *  passes to a function whose body resizes them (resize.c). */
void cf_resize_through(cf *c, CXCursor call);
/** cf_inl_key: @key (cf_decl_key), or the caller's local when it is a constructor's own. */
uint64_t cf_inl_key(cf *c, uint64_t key);
/** cf_names_one_of: whether @x (casts and parentheses aside) names a declaration whose
 * cf_decl_key is one of @keys[0..@n). */
bool cf_names_one_of(cf *c, CXCursor x, const uint64_t *keys, uint32_t n);

/** cf_ctor_made: whether @x names a local that a constructor made. */
bool cf_ctor_made(cf *c, CXCursor x);
/** cf_dtor_call: whether @call is of a destructor (it frees only its struct parameter and its
 * members) on a local a constructor made: no statement. */
bool cf_dtor_call(cf *c, CXCursor call);

/* arr_ctor.c: constructors and destructors of arrays of structs */
/** cf_arr_ctor_local: when @def (@call's callee) mallocs, zeroes and returns an array of
 * structs, pointer local @d becomes a local array of structs of run-time extent (true). */
bool cf_arr_ctor_local(cf *c, CXCursor d, CXCursor call, CXCursor def);
/** cf_arr_block: the extent of the blocks of pointer member @path of local array @rname
 * declared at @d (@flat: rname_member), from --extent FUNC:rname->member=E, or refused. */
const char *cf_arr_block(cf *c, CXCursor d, const char *rname, const char *path, const char *flat);
/** cf_arr_given: the extent --extent FUNC:@flat=E gives (FUNC the function being walked, @flat
 * a local's pointer member, m_data), checked at @d; NULL when none does. */
const char *cf_arr_given(cf *c, CXCursor d, const char *flat);
/** cf_arr_option: whether @opt (NAME_member=E, of --extent FUNC:...) names a local struct or
 * struct pointer of @f (checked when it is declared). */
bool cf_arr_option(cf *c, const cf_fn *f, const char *opt);
/** cf_arr_made: whether @x names a local that an array constructor made. */
bool cf_arr_made(cf *c, CXCursor x);
/** cf_arr_dtor_call: whether @call frees an array an array constructor made: no statement. */
bool cf_arr_dtor_call(cf *c, CXCursor call);

/* ptarget.c: pointer locals into several arrays */
/** cf_pt_scan: make pointer @p (declared at @var) one into several arrays when the function
 * sets it to point into more than one. */
void cf_pt_scan(cf *c, cf_sym *p, CXCursor var);
/** cf_pt_set: when @p points into several arrays, emit its tag for @base (an array, or the view
 * of another such pointer); false when @p points into one. */
bool cf_pt_set(cf *c, cf_sym *p, cf_sym *base, CXCursor at);
/** cf_pt_view: the array such a pointer @p points into, used at @at, until dispatched. */
cf_sym *cf_pt_view(cf *c, cf_sym *p, CXCursor at);
/** cf_pt_dispatch: emit @s once for each array its views may be (a Branch on the tag); false
 * when @s has none. */
bool cf_pt_dispatch(cf *c, cf_stmt *s);
/** cf_pt_hoist: @e with each view's element read into a temporary first (an if's condition). */
cf_expr *cf_pt_hoist(cf *c, cf_expr *e);
/** cf_pt_assign: the offset to give pointer local @p set to @rhs (&a[k], a + k, q, c ? r : s),
 * its array noted and, for a pointer into several, its tag emitted. */
cf_expr *cf_pt_assign(cf *c, cf_sym *p, CXCursor rhs);
/** cf_pt_value: refuse the value of pointer expression @at when its @base is a view. */
void cf_pt_value(cf *c, CXCursor at, const cf_sym *base);
/** cf_pt_heap_assign: refuse an assignment to a malloc'ed work array (@lhs naming one). */
void cf_pt_heap_assign(cf *c, CXCursor lhs);
/** cf_pt_check: refuse a view left in @f's conditions and loop headers. */
void cf_pt_check(cf *c, const cf_fn *f);

/* intarg.c */
/** cf_int_arg_shared: the caller's int parameter that @arg names, when neither the caller nor
 * @callee (its parameter @formal) changes it: passed itself, not a copy; else NULL. */
cf_expr *cf_int_arg_shared(cf *c, CXCursor arg, const cf_fn *callee, CXCursor formal);

/* memcopy.c */
/** cf_mem_call: whether call @x of @name is memcpy or memset (then lowered to a loop of element
 * assignments, or refused when the arrays or the size are not of the forms it knows). */
bool cf_mem_call(cf *c, CXCursor x, const char *name);

/* structs.c: struct variables flattened into one variable a member */
/** cf_decl_key: where @d is declared, as a key (symbols.c). */
uint64_t cf_decl_key(CXCursor d);
/** cf_struct_formal: the members of parameter @d of struct type (or pointer to one) as
 * formals of the current function; false when @d is no struct. */
bool cf_struct_formal(cf *c, CXCursor d);
/** cf_struct_local: local @d of struct type declared (and initialized); false: no struct. */
bool cf_struct_local(cf *c, CXCursor d);
/** cf_struct_local_of: local @d declared as a struct of type @t (ctor.c: a pointer local). */
void cf_struct_local_of(cf *c, CXCursor d, CXType t);
/** cf_struct_by_pointer: whether @s is a member of a struct parameter passed by pointer. */
bool cf_struct_by_pointer(const cf_sym *s);
/** cf_struct_rt_array: local @d an array of @count (C text) structs of type @t (arr_ctor.c). */
void cf_struct_rt_array(cf *c, CXCursor d, CXType t, const char *count);
/** cf_struct_member: the variable of member reference @x (s.a, p->a, (*p).a, b[i].a; an
 * array of structs' member subscripted by i), or NULL when @x is no member reference. */
cf_expr *cf_struct_member(cf *c, CXCursor x);
/** cf_struct_extent: --extent @opt (B=E) for array of structs B of @f; false: no such B. */
bool cf_struct_extent(cf *c, cf_fn *f, const char *opt);
/** cf_struct_extents: the extents of @f's arrays of structs, at its end (or refused). */
void cf_struct_extents(cf *c, cf_fn *f);
/** cf_struct_flat_extents: the --extent options with member names flattened
 *  (m->data=m->rows*m->cols becomes m_data=m_rows*m_cols; struct_ptr.c). */
const char *const *cf_struct_flat_extents(cf *c, const char *const *ext);
/** cf_struct_no_extent: refuse pointer member @s of @f (a formal) whose extent is not known,
 *  saying which --extent to give; returns when @s is no pointer member. */
void cf_struct_no_extent(cf *c, const cf_fn *f, const cf_sym *s);
/** cf_struct_arg: the arguments of struct @arg for @formal of a call, appended to @st;
 * false when the formal is no struct. */
bool cf_struct_arg(cf *c, CXCursor arg, CXCursor formal, cf_stmt *st);
/** cf_struct_assign: @lhs = @rhs of struct type, member by member; the last statement (the
 * others emitted), NULL when @lhs is no struct. */
cf_stmt *cf_struct_assign(cf *c, CXCursor lhs, CXCursor rhs, unsigned line);
/** cf_struct_assign_to: the struct at @lroot, @lpath (element @lix) of type @lt = @rhs, as
 * cf_struct_assign. */
cf_stmt *cf_struct_assign_to(cf *c, uint64_t lroot, const char *lpath, cf_expr *lix, CXType lt,
                             CXCursor rhs, unsigned line);
/** cf_struct_declare: struct variable @rname of type @rt, key @root, declared at @at: a local,
 * or (@formal) a formal by pointer, one a member, appended to the current function's. */
void cf_struct_declare(cf *c, CXCursor at, uint64_t root, const char *rname, CXType rt,
                       bool formal);
/** cf_struct_type: whether @t is a struct type (a union refused at @at). */
bool cf_struct_type(cf *c, CXType t, CXCursor at);
/** cf_struct_out_args: the members of struct @root (type @rt) appended to call @st's
 * arguments, themselves (the callee writes them). */
void cf_struct_out_args(cf *c, CXCursor at, CXType rt, uint64_t root, cf_stmt *st);

/* struct_ret.c: a struct returned by value */
/** cf_struct_result: when @f returns a struct, its members as formals by pointer, last;
 * false when it returns no struct. */
bool cf_struct_result(cf *c, cf_fn *f);
/** cf_struct_return: `return @x;` in @f that returns a struct: @x copied to the result;
 * false when @f returns no struct. */
bool cf_struct_return(cf *c, cf_fn *f, CXCursor x);
/** cf_struct_call: call @x of a function that returns a struct, its result in a new
 * temporary struct that *@root (path "", *@ix NULL) designates; false: @x returns none. */
bool cf_struct_call(cf *c, CXCursor x, uint64_t *root, char *path, size_t len, cf_expr **ix);
/** cf_struct_named: mark in @mark the real members of struct formal @name of @top (s, s.a,
 * s->a); false when @name names no struct. */
bool cf_struct_named(cf *c, cf_fn *top, const char *name, bool *mark);
/** cf_struct_annotation: the keys of @s's annotation for the C back end (xf_member=,
 * xf_ctype=), appended to @buf. */
void cf_struct_annotation(const cf_sym *s, char *buf, size_t len);

/* external.c: --external-derivative */
/** cf_ext_named: whether @name was given to --external-derivative. */
bool cf_ext_named(const cf *c, const char *name);
/** cf_ext_fn: the external function declared at @decl (made on first use), or NULL when its
 * name was not given to --external-derivative; refused when its signature is not supported. */
cf_fn *cf_ext_fn(cf *c, CXCursor decl);
/** cf_ext_walk: @f's formals (every one read, the result written) and its graph, Entry to Exit. */
void cf_ext_walk(cf *c, cf_fn *f);

/* param_copy.c */
/** cf_rt_copies: each int parameter that is in an extent and that its function writes: the body
 * works on a local copy set at the entry, the parameter keeps the caller's value. */
void cf_rt_copies(cf *c);

/* analyze.c */
/** cf_analyze: intents, side effects and activity over all functions; refuses aliasing. */
void cf_analyze(cf *c, cf_fn *top);

/* emit.c */
/** cf_write: the xaif document; 0, or -1 when it cannot be written. */
int cf_write(cf *c, const char *path);

#endif
