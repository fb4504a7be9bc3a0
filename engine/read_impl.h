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
#include "read.h"
#include "xaif_attrs.h"

/* One attribute of the element the reader is on. */
typedef struct rdattr {
    xf_aname id;       /* XF_AN_UNKNOWN for a name the table does not know */
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
    xf_map attrmap;            /* reader-dict attribute name -> xf_aname */
    const xmlChar *uri[XF_NS_COUNT];
    XF_VEC(rdpend) pend; /* stack of unresolved edges, in the scratch arena */
    xf_map idmap;        /* scratch: id -> index + 1 */
    void *work;          /* scratch: read_dag.c's arrays, reused */
    xf_read_sink *sink;  /* xf_read_stream: one routine in memory at a time */
    bool again;          /* xf_read_stream_again: the prologue is in doc already */
    uint32_t nrt, nedge; /* routines and edges met so far (again) */
    xf_arena *routine;   /* the streamed routine's arena, emptied after each */
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

/* read_attrs.c: the attributes of the element the reader is on (d->el) by
 * the list @l of the table: each into @obj (the list's struct) or, for
 * references, its id into @refs (NULL for a list without any); INT fields
 * start as XF_NOINT; the others are kept in @h's extras. A required one
 * missing is an error "<Element> ..." at the element's line. */
int rd_attrs(rd *d, xf_alist l, void *obj, xf_hdr *h, xf_refids *refs);

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

/* read_dag.c: @x (edges resolved) is acyclic and no two edges into one
 * vertex share a position; otherwise an error at an edge's line. */
int rd_expr_dag(rd *d, const xf_expr *x);

/* read_cat.c */
int rd_ii_defs(rd *d);
int rd_nii_defs(rd *d);

#endif
