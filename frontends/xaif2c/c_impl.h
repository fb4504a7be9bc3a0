/* c_impl.h: what the files of the C back end share (not installed). */
#ifndef XF_XAIF2C_C_IMPL_H
#define XF_XAIF2C_C_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xaif2c.h"

typedef enum cw_mode { CW_PLAIN, CW_TANGENT, CW_ADJOINT } cw_mode;

/* How a C front end's symbol is passed (its annotation, c_iface.c). */
/* The functions of a routine under joint reversal resolved when written
 * (c_joint.c): the mode each is entered in. ORDER: c_joint.c's tables */
typedef enum cw_jvariant { CW_JV_TOP, CW_JV_REV, CW_JV_FWD, CW_JV_PLAIN, CW_JV_COUNT } cw_jvariant;

typedef enum cw_how { CW_NONE, CW_LOCAL, CW_VALUE, CW_POINTER, CW_RETURN } cw_how;

/* Per symbol (by xf_symbol.index). */
typedef struct cw_sym {
    const char *name;  /* its C name (malloc'd), NULL until named */
    const char *dname; /* its derivative's C name, NULL: none */
    bool global;       /* declared at file scope */
    bool formal;       /* a formal of the routine being written: a pointer */
    bool used, dused;  /* referenced (value, derivative) in the routine or file */
    uint32_t same;     /* a common-block member: 1 + the index of the symbol
                          whose C variable it shares; 0: its own */
    const char *ctype; /* its C type from a C front end ("int", "float",
                          "double"; static), NULL: by its xaif type */
    cw_how how;        /* how the user's C passes it */
    bool cconst;       /* a const pointer parameter */
    /* a member of a struct parameter (c_struct.c), NULL: none */
    struct cw_member *mem;
} cw_sym;

typedef struct cw {
    const xf_doc *doc;
    xf_diag *diag;
    const xf_xaif2c_opts *opts;
    cw_mode mode;
    FILE *o;       /* where text goes now */
    bool failed;   /* a refusal was reported: the output is dropped */
    cw_sym *syms;  /* doc->nsymbols */
    char **rname;  /* C name of each routine (by xf_routine.index), NULL: none */
    bool *hascode; /* the routine has an Entry (or a non-empty placeholder) */
    bool *wrapped; /* written twice: inner (xaif's convention) and the user's signature */
    bool *rstatic; /* a static C function: its derivative is static */
    bool *rext;    /* the user writes its derivatives (c_external.c) */
    char **iname;  /* the function the generated calls go to, NULL: rname */
    bool c_types;  /* the document has a C front end's types (c_iface.c) */
    const xf_routine *cur;
    int ph;      /* placeholder being written (0: a ControlFlowGraph) */
    int ntmp;    /* temporaries of the routine */
    bool rfloat; /* the routine computes in float (cw_float_routine) */
    /* labels of the graph being written, by vertex index: bit 0 plain, 1
     * initialization, 2 update (a ForLoop's two ways in) */
    unsigned char *lbl;
    bool exit_used;
    /* while writing an elementwise statement: the C variable that counts
     * its elements (whole arrays and sections then name element ek) */
    const char *ek;
    /* the C front end's struct types (c_struct.c) */
    struct cw_types *types;
    /* joint reversal resolved when written (c_joint.c): per routine, a bit
     * per cw_jvariant written; NULL (and joint false): the runtime template */
    bool joint;
    unsigned char *jneed;
    /* split reversal resolved when written (c_split.c; joint is then true
     * too): per routine, the names of its NAME_fwd and NAME_bwd */
    bool split;
    char **sname;
    /* counted loops whose pushes are reserved before them (c_reserve.c),
     * by vertex of the graph being written: nres the reals and integers an
     * iteration pushes, nck a block whose pushes are unchecked; push_nc
     * while writing one */
    int *nres;
    unsigned char *nck;
    bool push_nc;
    /* the tape of the function being written is local variables
     * (cw_joint_local_tape): per stack (0 reals, 1 integers) the words on it
     * now and the most at once; lbad: a pop from an empty one */
    bool ltape, lbad;
    int ln[2], lmax[2];
} cw;

/* c_unit.c */
/** cw_refuse: report "FILE:LINE: error: cannot write C: ..." once per run. */
void cw_refuse(cw *w, uint32_t line, const char *fmt, ...) XF_PRINTF(3, 4);
/** cw_routine_of: the routine with code whose symbol is @sym, or NULL. */
const xf_routine *cw_routine_of(const cw *w, const xf_symbol *sym);

/** cw_mode_set: write "xf_ad_mode_set(xf_m, ...)" with the modes named in @flags. */
void cw_mode_set(FILE *o, const char *indent, const char *flags);

/** cw_placeholder: graph @k of adjoint routine @r when it has code, or NULL. */
const xf_graph *cw_placeholder(const xf_routine *r, int k);

/* c_joint.c */
/** cw_joint_init: decide whether the joint template is resolved and which
 * functions each routine needs (w->joint, w->jneed); false after a refusal. */
bool cw_joint_init(cw *w);
void cw_joint_free(cw *w);
/** cw_joint_phs: the placeholders function @v runs, in order, 0-terminated. */
const int *cw_joint_phs(cw_jvariant v);
/** cw_joint_suffix: what @v's function adds to the routine's NAME_tpl. */
const char *cw_joint_suffix(cw_jvariant v);
/** cw_entry_mode: in a user's entry, save the mode record and set @flags
 * (nothing when resolved); cw_entry_restore: restore it. */
void cw_entry_mode(cw *w, FILE *o, const char *flags);
void cw_entry_restore(cw *w, FILE *o);
/** cw_joint_local_tape: whether function @v of @r keeps its tape in local
 * variables: what it pushes and pops is straight-line code, scalars only. */
bool cw_joint_local_tape(cw *w, const xf_routine *r, cw_jvariant v);
/** cw_callee: write the name of the function a call of @callee goes to
 * from the placeholder being written. */
void cw_callee(cw *w, const xf_routine *callee, const xf_stmt *s);

/* c_split.c */
/** cw_split_init: under split reversal, which functions each routine needs
 * (w->jneed, w->split, w->joint) and their names; false after a refusal. */
bool cw_split_init(cw *w);
void cw_split_free(cw *w);
/** cw_variant_phs: the placeholders function @v runs, 0-terminated. */
const int *cw_variant_phs(const cw *w, cw_jvariant v);
/** cw_variant_name: write the name of function @v of @r. */
void cw_variant_name(const cw *w, FILE *o, const xf_routine *r, cw_jvariant v);

/* c_reserve.c */
/** cw_reserve_plan: find the loops of @g whose pushes can be reserved at once. */
void cw_reserve_plan(cw *w, const xf_graph *g);
/** cw_reserve_write: after ForLoop @v's Initialization, reserve its pushes. */
void cw_reserve_write(cw *w, const xf_cvertex *v);
/** cw_reserve_nc: whether the pushes of block @v are unchecked stores. */
bool cw_reserve_nc(const cw *w, const xf_cvertex *v);

/* c_iface.c */
/** cw_iface_read: the C front end's annotations into w->syms, w->wrapped, w->rstatic. */
bool cw_iface_read(cw *w);
/** cw_dtype: the C type of @s's derivative ("float" for a float, else "double"). */
const char *cw_dtype(const cw *w, const xf_symbol *s);
/** cw_float_routine: whether @r computes in float (a float, no double: c_iface.c). */
bool cw_float_routine(const cw *w, const xf_routine *r);
/** cw_iface_signature: "[static] T NAME(params)" of @r's wrapper, the user's signature
 * (@def: a definition, T on a line of its own). */
void cw_iface_signature(cw *w, FILE *o, const xf_routine *r, bool def);
/** cw_iface_dead: whether routine @i's wrapper has no caller: a static C
 * function that another routine of the document calls (the generated calls
 * go to its inner functions, and no other file sees it). The wrapper of a
 * static function nothing calls (grad's --function) stays, for a file that
 * includes the output. */
bool cw_iface_dead(const cw *w, uint32_t i);
/** cw_iface_wrapper: the wrapper function of @r, which calls w->iname[r]. */
void cw_iface_wrapper(cw *w, FILE *o, const xf_routine *r);

/* c_external.c */
/** cw_ext_read: which routines are external (w->rext); false after a refusal. */
bool cw_ext_read(cw *w);
/** cw_ext_routine: the inner function(s) of external routine @r, which call the user's. */
void cw_ext_routine(cw *w, FILE *o, const xf_routine *r);

/* c_passive.c */
/** cw_passive: write @s when it is a call the C front end keeps as it is ("xf_passive_NAME");
 * whether it was one. */
bool cw_passive(cw *w, const xf_stmt *s);

/* c_passthru.c */
/** cw_pass_params: write @r's parameters passed through untouched whose places in the user's
 * signature are @from..@to (", " first when *@any); whether one was written. */
bool cw_pass_params(const cw *w, FILE *o, const xf_routine *r, int from, int to, bool *any);
/** cw_pass_unused: "(void)NAME;" for each of @r's parameters passed through. */
void cw_pass_unused(const cw *w, FILE *o, const xf_routine *r);
/** cw_pass_static: whether a routine's annotation says "c:static". */
bool cw_pass_static(const char *annotation);
/* c_struct.c: struct parameters, whose members are formals of their own */
typedef struct cw_member {
    bool pointer, rconst; /* passed by pointer (to const) rather than by value */
    char *rtype, *rname;  /* the struct's type and the parameter's name */
    char *path;           /* the member's path from it: ".gamma" */
    bool array;           /* of an array of structs (by pointer) of extent ext */
    bool pmem;            /* a pointer member (double *data): the formal is what it points to */
    char *ext;
    char *blk; /* pmem of an array: each element's block's extent (jagged, b[i].data) */
} cw_member;
/** cw_struct_read: the struct members' annotations into w->syms and w->types. */
bool cw_struct_read(cw *w);
/** cw_struct_types: the definitions of the struct types and their derivatives. */
void cw_struct_types(cw *w, FILE *o);
/** cw_struct_param: write @r's parameter of the struct whose member is formal @p (at the
 * struct's first member; nothing at the others); *@any: a parameter was written before. */
void cw_struct_param(cw *w, FILE *o, const xf_routine *r, int64_t p, bool *any);
/** cw_struct_first: whether formal @p is the first member of its struct among @r's formals. */
bool cw_struct_first(const cw *w, const xf_routine *r, int64_t p);
/** cw_struct_arg: the arguments of formal @p, a struct member, in the call of the inner
 * function from the wrapper. */
void cw_struct_arg(cw *w, FILE *o, const xf_routine *r, int64_t p);
/** cw_struct_before, cw_struct_after: the wrapper's work before and after the call: for a
 * struct by value in adjoint, a zeroed derivative copy, added to the caller's; for an array
 * of structs, one array a member, copied in and out. */
void cw_struct_before(cw *w, FILE *o, const xf_routine *r);
void cw_struct_after(cw *w, FILE *o, const xf_routine *r);
void cw_struct_free(cw *w);

/* c_names.c */
/** cw_names: C names of routines and symbols; false after a refusal. */
bool cw_names(cw *w);
void cw_names_free(cw *w);
/** cw_ctype: "double", "long", "int" for a symbol; NULL (after a refusal) otherwise. */
const char *cw_ctype(cw *w, const xf_symbol *s, uint32_t line);
/** cw_has_deriv: whether @s has a derivative companion in this document. */
bool cw_has_deriv(const cw *w, const xf_symbol *s);
/** cw_dim_extent: upper - lower + 1 of @b in *@out, computed without
 * overflow; false when a bound is missing or the extent does not fit in
 * 64 bits. */
bool cw_dim_extent(const xf_dimbounds *b, int64_t *out);
/** cw_extent: number of elements of @s (1 for scalars); -1 after a refusal. */
int64_t cw_extent(cw *w, const xf_symbol *s, uint32_t line);

/* c_expr.c */
typedef enum cw_type { CT_INT, CT_REAL, CT_BOOL, CT_BAD } cw_type;
/** cw_expr: write expression @x; @returns its type (CT_BAD after a refusal). */
cw_type cw_expr(cw *w, const xf_expr *x);
/** cw_expr_at: write the subexpression of @x rooted at vertex @root. */
cw_type cw_expr_at(cw *w, const xf_expr *x, uint32_t root);
/** cw_ref: write the element @r names (value or @deriv component); a whole
 * array or a section names its element w->ek (refused when w->ek is NULL). */
cw_type cw_ref(cw *w, const xf_varref *r, bool deriv);
/** cw_is_array: whether @r names several elements (a whole array, a section). */
bool cw_is_array(const xf_varref *r);
/** cw_count: write the number of elements @r names (a C expression: a
 * section's size is known at run time); false after a refusal. */
bool cw_count(cw *w, const xf_varref *r);
/** cw_mentions: whether expression @x refers to variable @s. */
bool cw_mentions(const xf_expr *x, const xf_symbol *s);
/** cw_addr: write the address of what @r names (for an argument). */
void cw_addr(cw *w, const xf_varref *r, bool deriv);
/** cw_scalar: write the value of the scalar variable @s (a formal is read
 * through its pointer). */
void cw_scalar(cw *w, const xf_symbol *s);
/** cw_type_of_sym: the expression type of a symbol's elements. */
cw_type cw_type_of_sym(const xf_symbol *s);

/* c_extent.c: array formals sized at run time (docs/c-backend.md) */
/* The number of elements the C front end gives each dimension of an array
 * whose extent is known only at run time (its real extent is in the
 * symbol's annotation): no generated code may use it as a size. */
#define XF_RT_EXTENT 16777216
/** cw_rt: whether array @s has extents known only at run time. */
bool cw_rt(const xf_symbol *s);
/** cw_rt_sentinel: whether a dimension of @s has XF_RT_EXTENT elements. */
bool cw_rt_sentinel(const xf_symbol *s);
/** cw_rt_dim: write the extent of dimension @j of @s (C order: dims.v[j]). */
bool cw_rt_dim(cw *w, const xf_symbol *s, uint32_t j, uint32_t line);
/** cw_rt_count: write the number of elements of @s (a C expression). */
bool cw_rt_count(cw *w, const xf_symbol *s, uint32_t line);
/** cw_rt_declare: declare the local array @s sized at run time (zeros from
 * the heap), each component the function's body @body names (NULL: each used). */
bool cw_rt_declare(cw *w, FILE *o, const xf_symbol *s, const char *body);
/** cw_rt_free: free the local arrays of scope @sc sized at run time (the
 * routine's end), those cw_rt_declare allocated for the same @body. */
void cw_rt_free(cw *w, FILE *o, const xf_scope *sc, const char *body);
/** cw_rt_zeros: declare xf_z@p, zeros from the heap (freed after the call) as
 * many as the actual @r (NULL: a constant) has elements. */
bool cw_rt_zeros(cw *w, const xf_varref *r, uint32_t p, uint32_t line);

/* c_stmt.c */
void cw_stmt(cw *w, const xf_stmt *s);

/* c_blocks.c */
/** cw_structured: write @g (out-edges @o) as for, while, if and switch when
 * it is structured (cfg_struct.h); false (nothing written) when it is not,
 * or when the options ask for labels. An early return goes to @exit. */
struct xf_cfg_outs;
bool cw_structured(cw *w, const xf_graph *g, const struct xf_cfg_outs *o, const char *exit);

/* c_tidy.c */
/** cw_tidy: function body @text (malloc'd; consumed) with single statements
 * unbraced, temporaries folded and the assignments to locals @locals that
 * nothing reads removed (c_tidy.c); the new text (malloc'd). */
char *cw_tidy(char *text, const char *const *locals, size_t n);
/** cw_tidy_names: whether @text names the identifier @name. */
bool cw_tidy_names(const char *text, const char *name);

/* c_cfg.c */
/** cw_graph: write @g's code; control leaves it at label @exit. */
void cw_graph(cw *w, const xf_graph *g, const char *exit);

#endif
