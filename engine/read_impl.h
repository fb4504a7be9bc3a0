/* read_impl.h: what the reader's files share (not installed, not for passes).
 *
 * The reader is a recursive descent over libxml2's pull parser. Each read_X
 * function is called with the reader on X's start tag and returns with the
 * reader on X's last node (its end tag, or the start tag of an empty
 * element); it returns 0, or -1 after reporting an error. */
#ifndef XF_ENGINE_READ_IMPL_H
#define XF_ENGINE_READ_IMPL_H

#include <libxml/parserInternals.h>
#include <libxml/xmlreader.h>

#include "diag.h"
#include "ir.h"

/* Attribute names the reader knows; ORDER attr_names in read.c. */
typedef enum rdname {
    A_UNKNOWN = 0,
    A_VERTEX_ID,
    A_EDGE_ID,
    A_SOURCE,
    A_TARGET,
    A_ANNOTATION,
    A_SYMBOL_ID,
    A_SCOPE_ID,
    A_KIND,
    A_TYPE,
    A_FETYPE,
    A_SHAPE,
    A_ACTIVE,
    A_TEMP,
    A_POINTER,
    A_LOWER,
    A_UPPER,
    A_KEY,
    A_FROM_VA,
    A_TO_VA,
    A_PARTIAL,
    A_IDREF,
    A_PROGRAM_NAME,
    A_PREFIX,
    A_CFG_SCOPE_ID,
    A_STRUCTURED,
    A_TEMPLATE_NAME,
    A_PLACEHOLDER,
    A_POSITION,
    A_INTENT,
    A_DERIV,
    A_LINENUMBER,
    A_HAS_CV,
    A_CV,
    A_REVERSAL,
    A_STATEMENT_ID,
    A_DO_CHAIN,
    A_FORMAL_ARG_COUNT,
    A_SUBROUTINE_NAME,
    A_DU_UD,
    A_ALIAS,
    A_CONSTANT,
    A_VALUE,
    A_NAME,
    A_RTYPE,
    A_RSHAPE,
    A_ARGUMENT,
    A_LANGUAGE,
    A_NR_ARGUMENTS,
    A_RETURN_TYPE,
    A_NONSMOOTH,
    A_SHAPECHANGE,
    A_BUILTIN_NAME,
    A_PARTIAL_ID,
    A_PARTIAL_TYPE,
    A_NONVALUEINQUIRY,
    A_DEP,
    A_INDEP,
    A_JACOBIAN,
    A_DERIVACTION,
    A_COUNT
} rdname;

/* One attribute of the element the reader is on. */
typedef struct rdattr {
    rdname id;         /* A_UNKNOWN for a name the reader does not know */
    const xmlChar *ns; /* namespace URI, NULL when unqualified */
    const xmlChar *prefix, *name;
    const char *value; /* owned by the reader: intern before keeping */
    bool nsdecl;       /* a namespace declaration */
} rdattr;

/* An element whose children are being read. */
typedef struct rdpar {
    xf_hdr *h; /* where foreign children and comments go */
    xf_elem el;
    uint32_t nkids; /* modeled children so far */
    bool empty;
} rdpar;

/* A pair of ids waiting to be resolved when their graph is complete. */
typedef struct rdpend {
    const char *src, *tgt;
    uint32_t line;
} rdpend;

typedef struct rd {
    xmlTextReaderPtr r;
    xf_doc *doc;
    xf_arena *a; /* the document's arena */
    xf_diag *diag;
    const char *file;
    size_t size; /* of the input in bytes; 0 when unknown */
    bool failed;
    bool lenient;  /* see xf_read_opts */
    xf_elem el;    /* the element the reader is on (after next_child) */
    uint32_t line; /* its line */
    xf_arena *scratch;
    xf_map elmap[XF_NS_COUNT]; /* reader-dict local name -> element + 1 */
    xf_map attrmap;            /* reader-dict attribute name -> rdname */
    const xmlChar *uri[XF_NS_COUNT];
    XF_VEC(rdpend) pend; /* stack of unresolved edges, in the scratch arena */
    xf_map idmap;        /* scratch: id -> index + 1 */
    void *work;          /* scratch: read_dag.c's arrays, reused */
    size_t workcap;
} rd;

/* read.c: the machinery */
int rd_oom(rd *d);
int rd_err(rd *d, uint32_t line, const char *fmt, ...) XF_PRINTF(3, 4);
void rd_start(rd *d, rdpar *p, xf_hdr *h);
int rd_child(rd *d, rdpar *p);
int rd_attr(rd *d, rdattr *a);
int rd_keep_attr(rd *d, xf_hdr *h, const rdattr *a);
int rd_unexpected(rd *d, const rdpar *p);
/* rd_soft: a broken reference or repeated id: an error, or with lenient
 * reading a warning (then 0); rd_keep_named keeps name=value as written. */
int rd_soft(rd *d, uint32_t line, const char *fmt, ...) XF_PRINTF(3, 4);
int rd_keep_named(rd *d, xf_hdr *h, const char *name, const char *value);
const char *rd_str(rd *d, const rdattr *a);
int rd_int(rd *d, const rdattr *a, int64_t *out);
int rd_flag(rd *d, const rdattr *a, xf_flag *out);
int rd_bad_value(rd *d, const rdattr *a, const char *what);
int rd_push_pend(rd *d, const char *src, const char *tgt, uint32_t line);
int rd_index_ids(rd *d, const char *const *ids, uint32_t n, size_t stride, const char *what);
uint32_t rd_find_id(rd *d, const char *const *ids, uint32_t n, size_t stride, const char *id);
/* rd_empty_elem: the (no) children of an element whose attributes are read */
int rd_empty_elem(rd *d, xf_hdr *h);
/* rd_plain_attrs: attributes of an element whose only known one is annotation */
int rd_plain_attrs(rd *d, xf_hdr *h);
/* rd_deriv: record the element the reader is on (d->el at d->line) as the
 * document's first construct of derivative code, unless one is recorded;
 * @attr="@value" (both NULL: none) says why. */
int rd_deriv(rd *d, const char *attr, const char *value);

/* read_scope.c */
int rd_scopes(rd *d, xf_scopes *s);
int rd_alias_map(rd *d, xf_alias_map *m);
int rd_stmtid_map(rd *d, xf_stmtid_map *m);
int rd_resolve_symbol(rd *d, xf_hdr *h, const char *scope_id, const char *symbol_id,
                      xf_scope **scope, xf_symbol **sym);
int rd_resolve_scope(rd *d, xf_hdr *h, const char *attr, const char *scope_id, xf_scope **scope);

/* read_cfg.c */
int rd_routine(rd *d, xf_routine *rt);

/* read_expr.c */
int rd_expr(rd *d, xf_expr *x);
/* rd_expr_body: the children of an expression whose attributes are read */
int rd_expr_body(rd *d, xf_expr *x);
int rd_varref(rd *d, xf_varref *r);
int rd_varref_attr(rd *d, xf_varref *r, const rdattr *a);

/* read_dag.c: @x (edges resolved) is acyclic and no two edges into one
 * vertex share a position; otherwise an error at an edge's line. */
int rd_expr_dag(rd *d, const xf_expr *x);

/* read_cat.c */
int rd_ii_defs(rd *d);
int rd_nii_defs(rd *d);

#endif
