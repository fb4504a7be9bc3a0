/* xaif_attrs.h: the table of xaif's attributes (xaif_attrs.def) that the
 * reader and the writer share: for each element, which attributes the IR
 * keeps, of what kind, whether required, and where in the IR they live. */
#ifndef XF_ENGINE_XAIF_ATTRS_H
#define XF_ENGINE_XAIF_ATTRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"

/* An attribute name the IR knows; XF_AN_UNKNOWN for any other. */
typedef enum xf_aname {
    XF_AN_UNKNOWN = 0,
#define XF_ANAME(id, name) XF_AN_##id,
#include "xaif_attrs.def"
    XF_AN_COUNT
} xf_aname;

/* An attribute list: the attributes of one element (or of one element in
 * one context), in the order the writer writes them. */
typedef enum xf_alist {
#define XF_ALIST(list, type) XF_AL_##list,
#include "xaif_attrs.def"
    XF_AL_COUNT
} xf_alist;

typedef enum xf_akind {
    XF_AK_STR,      /* const char *, interned, NULL when absent */
    XF_AK_ID,       /* the element's own id: as STR */
    XF_AK_REF,      /* a reference: an id in an xf_refids slot */
    XF_AK_INT,      /* int64_t, XF_NOINT when absent */
    XF_AK_FLAG,     /* xf_flag */
    XF_AK_SYMKIND,  /* xf_symkind */
    XF_AK_SYMTYPE,  /* xf_type of a symbol */
    XF_AK_CTYPE,    /* xf_type of a constant */
    XF_AK_SHAPE,    /* xf_shape */
    XF_AK_INTENT,   /* xf_intent */
    XF_AK_REVERSAL, /* xf_reversal */
} xf_akind;

typedef enum xf_ause {
    XF_AU_OPT,  /* optional */
    XF_AU_REQ,  /* required: the reader refuses its absence */
    XF_AU_SREQ, /* required by the schema, let be absent by the reader */
    XF_AU_EXT,  /* kept, though the schema does not have it on this element */
} xf_ause;

/* Where a reference's id goes while its element is read, and comes from
 * when it is written: the reader resolves it afterwards. */
typedef enum xf_refslot {
    XF_REF_SCOPE,
    XF_REF_SYMBOL,
    XF_REF_CFG_SCOPE,
    XF_REF_SOURCE,
    XF_REF_TARGET,
    XF_REF_COUNT
} xf_refslot;

/* The ids of an element's references, by slot; NULL when absent. */
typedef struct xf_refids {
    const char *id[XF_REF_COUNT];
} xf_refids;

/* One row of the table. */
typedef struct xf_attrdef {
    xf_alist list;
    xf_aname name;
    const char *text; /* the name ("vertex_id") */
    xf_akind kind;
    xf_ause use;
    const char *dflt;    /* the schema's default (what absence means), or NULL */
    const char *missing; /* XF_AU_REQ: the reader's complaint, "<Element> MISSING" */
    size_t off;          /* offset in the list's struct; XF_AK_REF: the slot */
} xf_attrdef;

/* An element and one of its attribute lists. */
typedef struct xf_aelem {
    xf_elem el;
    xf_alist list;
} xf_aelem;

/* A list: its rows, how many, and how many of them are INT and REQ. */
typedef struct xf_alistdef {
    const xf_attrdef *rows;
    uint16_t n, nint, nreq;
} xf_alistdef;

/** xf_alist_def: the list @l. */
const xf_alistdef *xf_alist_def(xf_alist l);

/** xf_aname_text: the name of @n ("vertex_id"); NULL for XF_AN_UNKNOWN. */
const char *xf_aname_text(xf_aname n);
/** xf_alist_name: the name of @l in the table ("SYMBOL"), for messages. */
const char *xf_alist_name(xf_alist l);
/** xf_alist_rows: the rows of @l, in writing order; their number in *@n. */
const xf_attrdef *xf_alist_rows(xf_alist l, size_t *n);
/** xf_aelems: every (element, list) pair of the table; their number in *@n. */
const xf_aelem *xf_aelems(size_t *n);

/** xf_akind_parse: @s as a value of the enumeration kind @k, in *@out; false
 * if @s is none (or @k is no enumeration kind). */
bool xf_akind_parse(xf_akind k, const char *s, int *out);
/** xf_akind_text: the spelling of the value @v of the enumeration kind @k; NULL when none. */
const char *xf_akind_text(xf_akind k, int v);
/** xf_aenum_get: the enumeration of kind @k at @p (an xf_symkind, xf_type, ...). */
int xf_aenum_get(xf_akind k, const void *p);
/** xf_aenum_set: store @v at @p as the enumeration of kind @k. */
void xf_aenum_set(xf_akind k, void *p, int v);
/** xf_akind_what: what a value of @k is, for "is not ..." ("an integer", "a shape"). */
const char *xf_akind_what(xf_akind k);

#endif
