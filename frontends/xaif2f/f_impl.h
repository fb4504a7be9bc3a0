/* f_impl.h: what the files of the Fortran back end share (not installed). */
#ifndef XF_XAIF2F_F_IMPL_H
#define XF_XAIF2F_F_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xaif2f.h"

typedef enum fw_mode { FW_PLAIN, FW_TANGENT, FW_ADJOINT } fw_mode;

/* Per symbol (by xf_symbol.index). */
typedef struct fw_sym {
    const char *name;  /* its Fortran name (malloc'd), NULL until named */
    const char *dname; /* its derivative's name, NULL: none */
    bool global;       /* declared in the globals module */
    bool formal;       /* a formal of the routine being written */
    bool used, dused;  /* referenced (value, derivative) */
    uint32_t same;     /* a common-block member: 1 + the index of the symbol
                          whose variable it shares; 0: its own */
} fw_sym;

typedef struct fw {
    const xf_doc *doc;
    xf_diag *diag;
    const xf_xaif2f_opts *opts;
    fw_mode mode;
    FILE *o;       /* where text goes now */
    bool failed;   /* a refusal was reported: the output is dropped */
    fw_sym *syms;  /* doc->nsymbols */
    char **rname;  /* Fortran name of each routine (by index), NULL: none */
    bool *hascode; /* the routine has an Entry (or a non-empty placeholder) */
    const xf_routine *cur;
    int labels; /* statement labels used so far in the routine */
    int *lbl;   /* per vertex of the graph being written: its label
                   numbers (4 per vertex: plain, init, update, test) */
    bool exit_used;
    int exit_label;
    /* the zero derivatives that the current routine's calls pass for the
     * passive actuals of active formals: xf_z<k> is shaped as z[k-1] */
    const xf_symbol **z;
    int nz, zcap;
    bool need_c;             /* the routine selects an out-edge: declare xf_c */
    bool need_sh;            /* it pops an allocatable's extents: declare xf_sh(7) */
    const xf_routine **host; /* per routine: the routine it is internal to (f_host.c) */
} fw;

/* f_unit.c */
/** fw_refuse: report "FILE:LINE: error: cannot write Fortran: ..." once. */
void fw_refuse(fw *w, uint32_t line, const char *fmt, ...) XF_PRINTF(3, 4);
const xf_routine *fw_routine_of(const fw *w, const xf_symbol *sym);
/** fw_optional: @s is a formal that opts->optional_from makes OPTIONAL. */
bool fw_optional(const fw *w, const xf_symbol *s);
/** fw_routine: write routine @r (and the routines internal to it) to @o. */
void fw_routine(fw *w, FILE *o, const xf_routine *r);

/* f_host.c */
/** fw_host_of: the routine @r is internal to (its scope's parent's); NULL: none. */
const xf_routine *fw_host_of(const fw *w, const xf_routine *r);
/** fw_host_reaches: @s is a variable of the host of the routine being written. */
bool fw_host_reaches(const fw *w, const xf_symbol *s);
/** fw_host_var: @s is a variable of a routine that has internal routines,
 * which may read and write it in any call. */
bool fw_host_var(const fw *w, const xf_symbol *s);
/** fw_hosts: check the internal routines and rename their locals that
 * would hide a host's; false after a refusal. */
bool fw_hosts(fw *w);
/** fw_contained: the text of the routines internal to @host (malloc'd), NULL: none. */
char *fw_contained(fw *w, const xf_routine *host);

/* f_names.c */
bool fw_names(fw *w);
void fw_names_free(fw *w);
/** fw_ftype: "double precision", "integer", "logical"; NULL after a refusal. */
const char *fw_ftype(fw *w, const xf_symbol *s, uint32_t line);
bool fw_has_deriv(const fw *w, const xf_symbol *s);
/** fw_allocatable: an array without bounds that is no formal. */
bool fw_allocatable(const fw *w, const xf_symbol *s);
/** fw_dims: write "(l1:u1, ...)" of an array symbol; false after a refusal. */
bool fw_dims(fw *w, FILE *o, const xf_symbol *s, uint32_t line);

/* f_expr.c */
typedef enum fw_type { FT_INT, FT_REAL, FT_BOOL, FT_STR, FT_BAD } fw_type;
fw_type fw_expr(fw *w, const xf_expr *x);
fw_type fw_expr_at(fw *w, const xf_expr *x, uint32_t root);
/** fw_ref: write what @r names (value or @deriv), an array or section as
 * Fortran writes it. */
fw_type fw_ref(fw *w, const xf_varref *r, bool deriv);
bool fw_is_array(const xf_varref *r);
fw_type fw_type_of_sym(const xf_symbol *s);

/* f_stmt.c */
void fw_stmt(fw *w, const xf_stmt *s);

/* f_string.c */
/** fw_is_string: of type string or char (Fortran's CHARACTER). */
bool fw_is_string(const xf_symbol *s);
/** fw_string_ftype: "character(len=*)" for a formal, else deferred length. */
const char *fw_string_ftype(fw *w, const xf_symbol *s, uint32_t line);
/** fw_string_const: write @val quoted; false after a refusal. */
bool fw_string_const(fw *w, const char *val, uint32_t line);
/** fw_string_op: the comparison a string one (string_eq_scal_scal) is written as; NULL: none. */
const char *fw_string_op(const char *name);
/* f_marker.c */
/** fw_marker: a Marker: its text, nothing, or a refusal. */
void fw_marker(fw *w, const xf_stmt *s);
/** fw_passive: a passive call "xf_passive_NAME" of the C front end as
 * Fortran (or a refusal); false where @s is none. */
bool fw_passive(fw *w, const xf_stmt *s);

/* f_cfg.c */
/** fw_graph: write @g's code; control leaves it at the routine's exit label. */
void fw_graph(fw *w, const xf_graph *g);
/** fw_text: what @write(@w, @arg) writes, as a string (malloc'd, "" where
 * it writes nothing); NULL after a refusal. */
char *fw_text(fw *w, void (*write)(fw *, const void *), const void *arg);

/* f_struct.c */
struct xf_cfg_outs;
/** fw_structured: write @g as DO, IF and SELECT CASE blocks; false (nothing
 * written) where it is not structured or the options ask for labels. */
bool fw_structured(fw *w, const xf_graph *g, const struct xf_cfg_outs *o);

#endif
