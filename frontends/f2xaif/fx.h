/* fx.h: the Fortran front end's C side, internal: the plugin's description
 * (units, lines of tokens, symbols) and the state of one translation, shared
 * by fx_unit.c (reading, symbols), fx_expr.c (expressions), fx_call.c (calls,
 * intrinsics), fx_stmt.c (control flow), fx_array.c (array assignments) and
 * fdesc.c (the top). */
#ifndef XF_F2XAIF_FX_H
#define XF_F2XAIF_FX_H

#include <stdbool.h>
#include <stdint.h>

#include "cf.h"
#include "fdesc.h"

typedef struct fx_line {
    char **tok;
    int n;
} fx_line;

/* A symbol of a unit as the plugin describes it. */
typedef struct fx_sym {
    const char *name, *cat, *param, *attrs;
    int kind, rank, dummy;
    bool fixed; /* all bounds constant */
    int64_t lb[8], ub[8];
    cf_sym *sym;  /* NULL: a type or shape the subset leaves out */
    bool alloc;   /* an allocatable local whose ALLOCATEs all give these constant bounds */
    cf_sym *flag; /* alloc: 1 while allocated (allocated(), fx_stmt.c) */
} fx_sym;

/* A statement label of the routine being walked: the block it starts. */
typedef struct fx_label {
    int64_t n;
    uint32_t v;
    bool defined;
    unsigned line, col; /* of a goto to it, while not defined */
} fx_label;

typedef struct fx_unit {
    const char *kind, *name, *file;
    unsigned line, col;
    fx_line *lines;
    uint32_t nlines;
    fx_sym *syms;
    int nsyms;
    cf_fn *fn;
} fx_unit;

typedef struct fx_jump {
    struct fx_jump *up;
    uint32_t cont;
    XF_VEC(uint32_t) breaks;
} fx_jump;

typedef struct fx {
    cf c;
    xf_c2xaif_opts co;
    XF_VEC(fx_unit) units;
    fx_unit *u; /* being walked */
    const char *file;
    unsigned line, col; /* of the statement being walked */
    fx_jump *jump;
    XF_VEC(fx_label) labels;
    bool no_calls; /* in a loop condition */
    /* in an array assignment's loops (fx_array.c): per section dimension of
     * its left side (Fortran order), the loop's index, first value, extent */
    struct {
        int n;
        cf_sym *idx[CF_MAXRANK];
        int64_t lo[CF_MAXRANK], ext[CF_MAXRANK];
    } frame;
} fx;

/* The subscripts of an array reference: a scalar subscript per dimension
 * (Fortran order) or NULL where the dimension is a section's, and per
 * section dimension (in order) its dimension, first index and extent. */
typedef struct fx_sec {
    int n;
    cf_expr *scal[CF_MAXRANK];
    int dim[CF_MAXRANK];
    int64_t lo[CF_MAXRANK], ext[CF_MAXRANK];
} fx_sec;

/* fx_unit.c */
/** fx_refuse: "FILE:LINE:COL: error: ..." at the statement being walked; leave (status 1). */
_Noreturn __attribute__((format(printf, 2, 3))) void fx_refuse(fx *x, const char *fmt, ...);
/** fx_split_lines: the description @text of @file (modified in place) into units. */
void fx_split_lines(fx *x, const char *file, char *text);
/** fx_find_unit: the unit @name (a subroutine or function if @procedure), or NULL. */
fx_unit *fx_find_unit(fx *x, const char *name, bool procedure);
/** fx_declare: @u's symbols, made for routine @f (NULL: a module's). */
void fx_declare(fx *x, fx_unit *u, cf_fn *f);
/** fx_fn_of: the routine of unit @u, made with its symbols on first use. */
cf_fn *fx_fn_of(fx *x, fx_unit *u);
/** fx_lookup: the symbol @name of the unit being walked, or refuse. */
fx_sym *fx_lookup(fx *x, const char *name);

/* fx_expr.c */
cf_expr *fx_new_expr(fx *x, cf_ekind k);
cf_expr *fx_op(fx *x, cf_ekind k, const char *name, cf_expr *a, cf_expr *b);
cf_expr *fx_convert(fx *x, cf_expr *e, cf_type to);
cf_expr *fx_ref_of(fx *x, cf_sym *s);
cf_expr *fx_int_const(fx *x, int64_t v);
/** fx_tok: token *@k of @l (then the next), or refuse when the line is cut short. */
const char *fx_tok(fx *x, const fx_line *l, int *k);
/** fx_expr: the expression from token *@k of @l (past it afterwards). */
cf_expr *fx_expr(fx *x, const fx_line *l, int *k);
/** fx_var: a variable after its "v" token; @lvalue: a whole array stays whole. */
cf_expr *fx_var(fx *x, const fx_line *l, int *k, bool lvalue);
/** fx_cond: a condition (a value is compared with 0). */
cf_expr *fx_cond(fx *x, const fx_line *l, int *k);
/** fx_constant: a named constant's value. */
cf_expr *fx_constant(fx *x, const fx_sym *s);
/** fx_assign_stmt: @lhs = @rhs, converted to @lhs's type. */
cf_stmt *fx_assign_stmt(fx *x, cf_expr *lhs, cf_expr *rhs);

/* fx_call.c */
/** fx_function: a function reference after its "f" token (a user function hoisted). */
cf_expr *fx_function(fx *x, const fx_line *l, int *k);
/** fx_call: the call statement @l. */
void fx_call(fx *x, const fx_line *l);

/* fx_inquiry.c */
/** fx_inquiry: inquiry intrinsic @name of @n arguments (from token *@k of
 * @l), or NULL (nothing read) when @name is none. */
cf_expr *fx_inquiry(fx *x, const fx_line *l, int *k, const char *name, int n);

/* fx_array.c */
/** fx_section: the @n subscripts of @s from token *@k of @l (0: the whole array). */
void fx_section(fx *x, const fx_line *l, int *k, const fx_sym *s, int n, fx_sec *sec);
/** fx_framed: @s at @sec in the array assignment being built: its element at
 * the loops' indices (@swap: in reverse order, for transpose). */
cf_expr *fx_framed(fx *x, const fx_sym *s, const fx_sec *sec, bool swap);
/** fx_transpose: transpose's argument (from token *@k of @l) in an array assignment. */
cf_expr *fx_transpose(fx *x, const fx_line *l, int *k);
/** fx_copy: @dst(@dsec) = @src(@ssec), sections of one shape, as loops. */
void fx_copy(fx *x, const fx_sym *dst, const fx_sec *dsec, const fx_sym *src, const fx_sec *ssec);
/** fx_section_arg: the section @s(@sec) passed to a routine: copied into a
 * new temporary array @tmp (whole: @tsec) first, which the call passes; the
 * caller copies it back after the call (fx_copy). */
void fx_section_arg(fx *x, const fx_sym *s, fx_sec *sec, fx_sym *tmp, fx_sec *tsec);
/** fx_whole_copy: y = x between whole arrays (from token @k of @l) of which
 * one or both have the bounds their caller gives: one assignment of the
 * whole array, as OpenAD writes it; false (nothing read) for another
 * assignment. */
bool fx_whole_copy(fx *x, const fx_line *l, int k, const fx_sym *s);
/** fx_array_assignment: @s(@sec) = EXPR (from token @k of @l), as loops. */
void fx_array_assignment(fx *x, const fx_line *l, int k, const fx_sym *s, const fx_sec *sec);

/* fx_stmt.c */
/** fx_walk: @f's control-flow graph from its unit's statement records. */
void fx_walk(fx *x, cf_fn *f);

#endif
