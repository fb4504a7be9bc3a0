/* xaif_attrs.c: the attribute table of xaif_attrs.def, and the enumeration
 * kinds' names. */
#include "xaif_attrs.h"

#include <stddef.h>

static const char *const anames[XF_AN_COUNT] = {
#define XF_ANAME(id, name) [XF_AN_##id] = name,
#include "xaif_attrs.def"
};

/* Each name as an array of its own, for the rows' address constants. */
#define XF_ANAME(id, name) static const char aname_##id[] = name;
#include "xaif_attrs.def"

static const char *const lnames[XF_AL_COUNT] = {
#define XF_ALIST(list, type) [XF_AL_##list] = #list,
#include "xaif_attrs.def"
};

/* The struct of each list, for offsetof. */
#define XF_ALIST(list, type) typedef type al_type_##list;
#include "xaif_attrs.def"

/* The position of each row; a list's rows follow it, so its first row is
 * numbered as the list (the second enumerator takes the count back). A row
 * named twice in one list is a redeclared enumerator. */
enum rowpos {
#define XF_ALIST(list, type) POS_##list, POS_##list##_ = POS_##list - 1,
#define XF_ATTR(list, name, kind, use, dflt, field, missing) ROW_##list##_##name,
#define XF_AREF(list, name, use, dflt, slot, missing) ROW_##list##_##name,
#include "xaif_attrs.def"
    NROWS
};

static const xf_attrdef rows[NROWS] = {
#define XF_ATTR(list, name, kind, use, dflt, field, missing)                                       \
    {XF_AL_##list, XF_AN_##name, aname_##name, XF_AK_##kind,                                       \
     XF_AU_##use,  dflt,         missing,      offsetof(al_type_##list, field)},
#define XF_AREF(list, name, use, dflt, slot, missing)                                              \
    {XF_AL_##list, XF_AN_##name, aname_##name, XF_AK_REF,                                          \
     XF_AU_##use,  dflt,         missing,      XF_REF_##slot},
#include "xaif_attrs.def"
};

/* The rows of each list, and its INT and REQ rows, counted at compile
 * time: each list starts a sum, each of its rows adds to it. */
enum nrow {
    NROW_FIRST_ = 0
#define XF_ALIST(list, type) , NROW_##list = 0
#define XF_ATTR(list, name, kind, use, dflt, field, missing) +1
#define XF_AREF(list, name, use, dflt, slot, missing) +1
#include "xaif_attrs.def"
};
enum nint {
    NINT_FIRST_ = 0
#define XF_ALIST(list, type) , NINT_##list = 0
#define XF_ATTR(list, name, kind, use, dflt, field, missing) +(XF_AK_##kind == XF_AK_INT)
#include "xaif_attrs.def"
};
enum nreq {
    NREQ_FIRST_ = 0
#define XF_ALIST(list, type) , NREQ_##list = 0
#define XF_ATTR(list, name, kind, use, dflt, field, missing) +(XF_AU_##use == XF_AU_REQ)
#define XF_AREF(list, name, use, dflt, slot, missing) +(XF_AU_##use == XF_AU_REQ)
#include "xaif_attrs.def"
};

static const xf_alistdef lists[XF_AL_COUNT] = {
#define XF_ALIST(list, type)                                                                       \
    [XF_AL_##list] = {rows + POS_##list, NROW_##list, NINT_##list, NREQ_##list},
#include "xaif_attrs.def"
};

static const xf_aelem aelems[] = {
#define XF_AELEM(elem, list) {XF_EL_##elem, XF_AL_##list},
#include "xaif_attrs.def"
};

const char *
xf_aname_text(xf_aname n)
{
    return (size_t)n < XF_AN_COUNT ? anames[n] : NULL;
}

const char *
xf_alist_name(xf_alist l)
{
    return (size_t)l < XF_AL_COUNT ? lnames[l] : NULL;
}

const xf_alistdef *
xf_alist_def(xf_alist l)
{
    return &lists[l];
}

const xf_attrdef *
xf_alist_rows(xf_alist l, size_t *n)
{
    *n = lists[l].n;
    return lists[l].rows;
}

const xf_aelem *
xf_aelems(size_t *n)
{
    *n = sizeof aelems / sizeof aelems[0];
    return aelems;
}

bool
xf_akind_parse(xf_akind k, const char *s, int *out)
{
    bool ok = false;
    switch (k) {
    case XF_AK_SYMKIND: {
        xf_symkind v;
        if ((ok = xf_symkind_parse(s, &v)))
            *out = (int)v;
        break;
    }
    case XF_AK_SYMTYPE:
    case XF_AK_CTYPE: {
        xf_type v;
        if ((ok = xf_type_parse(s, &v)))
            *out = (int)v;
        break;
    }
    case XF_AK_SHAPE: {
        xf_shape v;
        if ((ok = xf_shape_parse(s, &v)))
            *out = (int)v;
        break;
    }
    case XF_AK_INTENT: {
        xf_intent v;
        if ((ok = xf_intent_parse(s, &v)))
            *out = (int)v;
        break;
    }
    case XF_AK_REVERSAL: {
        xf_reversal v;
        if ((ok = xf_reversal_parse(s, &v)))
            *out = (int)v;
        break;
    }
    case XF_AK_STR:
    case XF_AK_ID:
    case XF_AK_REF:
    case XF_AK_INT:
    case XF_AK_FLAG:
        break;
    }
    return ok;
}

const char *
xf_akind_text(xf_akind k, int v)
{
    switch (k) {
    case XF_AK_SYMKIND:
        return xf_symkind_name((xf_symkind)v);
    case XF_AK_SYMTYPE:
    case XF_AK_CTYPE:
        return xf_type_name((xf_type)v);
    case XF_AK_SHAPE:
        return xf_shape_name((xf_shape)v);
    case XF_AK_INTENT:
        return xf_intent_name((xf_intent)v);
    case XF_AK_REVERSAL:
        return xf_reversal_name((xf_reversal)v);
    case XF_AK_STR:
    case XF_AK_ID:
    case XF_AK_REF:
    case XF_AK_INT:
    case XF_AK_FLAG:
        break;
    }
    return NULL;
}

int
xf_aenum_get(xf_akind k, const void *p)
{
    switch (k) {
    case XF_AK_SYMKIND:
        return (int)*(const xf_symkind *)p;
    case XF_AK_SYMTYPE:
    case XF_AK_CTYPE:
        return (int)*(const xf_type *)p;
    case XF_AK_SHAPE:
        return (int)*(const xf_shape *)p;
    case XF_AK_INTENT:
        return (int)*(const xf_intent *)p;
    case XF_AK_REVERSAL:
        return (int)*(const xf_reversal *)p;
    case XF_AK_STR:
    case XF_AK_ID:
    case XF_AK_REF:
    case XF_AK_INT:
    case XF_AK_FLAG:
        break;
    }
    return 0;
}

void
xf_aenum_set(xf_akind k, void *p, int v)
{
    switch (k) {
    case XF_AK_SYMKIND:
        *(xf_symkind *)p = (xf_symkind)v;
        break;
    case XF_AK_SYMTYPE:
    case XF_AK_CTYPE:
        *(xf_type *)p = (xf_type)v;
        break;
    case XF_AK_SHAPE:
        *(xf_shape *)p = (xf_shape)v;
        break;
    case XF_AK_INTENT:
        *(xf_intent *)p = (xf_intent)v;
        break;
    case XF_AK_REVERSAL:
        *(xf_reversal *)p = (xf_reversal)v;
        break;
    case XF_AK_STR:
    case XF_AK_ID:
    case XF_AK_REF:
    case XF_AK_INT:
    case XF_AK_FLAG:
        break;
    }
}

const char *
xf_akind_what(xf_akind k)
{
    switch (k) {
    case XF_AK_INT:
        return "an integer";
    case XF_AK_FLAG:
        return "a boolean";
    case XF_AK_SYMKIND:
        return "a symbol kind";
    case XF_AK_SYMTYPE:
        return "a symbol type";
    case XF_AK_CTYPE:
        return "a type";
    case XF_AK_SHAPE:
        return "a shape";
    case XF_AK_INTENT:
        return "an intent";
    case XF_AK_REVERSAL:
        return "a reversal";
    case XF_AK_STR:
    case XF_AK_ID:
    case XF_AK_REF:
        break;
    }
    return "text";
}
