/* write_impl.h: what the writer's files share. */
#ifndef XF_ENGINE_WRITE_IMPL_H
#define XF_ENGINE_WRITE_IMPL_H

#include "ir.h"
#include "xaif_attrs.h"
#include "xmlout.h"

enum { WR_MAX_DEPTH = 512 };

/* The id of a referenced node; NULL (nothing written) when the reference
 * was left unresolved by lenient reading and is kept among the extras. */
#define XF_ID(p) ((p) ? (p)->id : NULL)

/* The reference ids of an edge and of a symbol link, for wr_attrs. */
#define XF_EDGE_REFS(src, tgt)                                                                     \
    ((xf_refids){.id = {[XF_REF_SOURCE] = (src), [XF_REF_TARGET] = (tgt)}})
#define XF_SYM_REFS(scope, sym)                                                                    \
    ((xf_refids){.id = {[XF_REF_SCOPE] = (scope), [XF_REF_SYMBOL] = (sym)}})

/* An element being written, for placing the foreign children of its header. */
typedef struct wrlevel {
    const xf_hdr *h;
    uint32_t nkids; /* modeled children written so far */
    uint32_t next;  /* next foreign child to write */
} wrlevel;

typedef struct wr {
    xf_xo *w;
    const xf_doc *doc;
    bool failed;
    const char *qname[XF_EL_COUNT]; /* "xaif:BasicBlock" */
    char *names;                    /* storage of qname */
    const char *prefix[XF_NS_COUNT];
    bool declare[XF_NS_COUNT];      /* the root must declare this namespace */
    signed char binds[XF_NS_COUNT]; /* does the root bind it: 1 yes, -1 no, 0 not known yet */
    wrlevel stk[WR_MAX_DEPTH];
    int depth;
    /* NULL, or what writes a BasicBlock's statements (xf_wstream_routine_pieces) */
    int (*block)(void *ctx, const xf_cvertex *b);
    void *block_ctx;
} wr;

/* write.c: the machinery */
void wr_open(wr *w, xf_elem el, const xf_hdr *h);
void wr_close(wr *w);
void wr_str(wr *w, const char *name, const char *value);
void wr_int(wr *w, const char *name, int64_t value);
void wr_flag(wr *w, const char *name, xf_flag f);
void wr_extra_attrs(wr *w, const xf_hdr *h);

/* the prefixes and element names of w->doc; false when out of memory */
bool wr_setup(wr *w);
/* a node outside the vocabulary */
void wr_xnode(wr *w, const xf_xnode *x, const xf_xnode *parent);
/* the CallGraph's start tag and its children before the routines */
void wr_cg_head(wr *w);
void wr_cg_edge(wr *w, const xf_cgedge *e);

/* write_attrs.c: the attributes of the element just opened (wr_open): those
 * of list @l of the table, from @obj (the list's struct) and, for
 * references, from the ids in @refs (NULL: none written); then the ones its
 * header keeps as written. */
void wr_attrs(wr *w, xf_alist l, const void *obj, const xf_refids *refs);

/* write_code.c */
void wr_routine(wr *w, const xf_routine *rt);
void wr_stmt(wr *w, const xf_stmt *s); /* of a BasicBlock */
void wr_expr(wr *w, xf_elem el, const xf_expr *x);
void wr_varref(wr *w, xf_elem el, const xf_varref *r);
void wr_partial(wr *w, const xf_ii_partial *pa);

#endif
