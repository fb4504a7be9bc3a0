/* c_impl.h: what the files of the C back end share (not installed). */
#ifndef XF_XAIF2C_C_IMPL_H
#define XF_XAIF2C_C_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xaif2c.h"

typedef enum cw_mode { CW_PLAIN, CW_TANGENT, CW_ADJOINT } cw_mode;

/* Per symbol (by xf_symbol.index). */
typedef struct cw_sym {
    const char *name;  /* its C name (malloc'd), NULL until named */
    const char *dname; /* its derivative's C name, NULL: none */
    bool global;       /* declared at file scope */
    bool formal;       /* a formal of the routine being written: a pointer */
    bool used, dused;  /* referenced (value, derivative) in the routine or file */
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
    const xf_routine *cur;
    int ph;   /* placeholder being written (0: a ControlFlowGraph) */
    int ntmp; /* temporaries of the routine */
    /* labels of the graph being written, by vertex index: bit 0 plain, 1
     * initialization, 2 update (a ForLoop's two ways in) */
    unsigned char *lbl;
    bool exit_used;
} cw;

/* c_unit.c */
/** cw_refuse: report "FILE:LINE: error: cannot write C: ..." once per run. */
void cw_refuse(cw *w, uint32_t line, const char *fmt, ...) XF_PRINTF(3, 4);
/** cw_routine_of: the routine with code whose symbol is @sym, or NULL. */
const xf_routine *cw_routine_of(const cw *w, const xf_symbol *sym);

/* c_names.c */
/** cw_names: C names of routines and symbols; false after a refusal. */
bool cw_names(cw *w);
void cw_names_free(cw *w);
/** cw_ctype: "double", "long", "int" for a symbol; NULL (after a refusal) otherwise. */
const char *cw_ctype(cw *w, const xf_symbol *s, uint32_t line);
/** cw_has_deriv: whether @s has a derivative companion in this document. */
bool cw_has_deriv(const cw *w, const xf_symbol *s);
/** cw_extent: number of elements of @s (1 for scalars); -1 after a refusal. */
int64_t cw_extent(cw *w, const xf_symbol *s, uint32_t line);

/* c_expr.c */
typedef enum cw_type { CT_INT, CT_REAL, CT_BOOL, CT_BAD } cw_type;
/** cw_expr: write expression @x; @returns its type (CT_BAD after a refusal). */
cw_type cw_expr(cw *w, const xf_expr *x);
/** cw_ref: write the element @r names (value or @deriv component); whole
 * arrays and scalars as in cw_elem with index 0. */
cw_type cw_ref(cw *w, const xf_varref *r, bool deriv);
/** cw_count: elements @r names: 1 for an element or scalar, the array's size
 * for a whole array; -1 after a refusal (sections). */
int64_t cw_count(cw *w, const xf_varref *r);
/** cw_elem: write element @k (a C expression) of what @r names (cw_count > 1)
 * or the one element (@k ignored). */
cw_type cw_elem(cw *w, const xf_varref *r, bool deriv, const char *k);
/** cw_addr: write the address of what @r names (for an argument). */
void cw_addr(cw *w, const xf_varref *r, bool deriv);
/** cw_type_of_sym: the expression type of a symbol's elements. */
cw_type cw_type_of_sym(const xf_symbol *s);

/* c_stmt.c */
void cw_stmt(cw *w, const xf_stmt *s);

/* c_cfg.c */
/** cw_graph: write @g's code; control leaves it at label @exit. */
void cw_graph(cw *w, const xf_graph *g, const char *exit);

#endif
