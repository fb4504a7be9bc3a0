/* value_kind.c: the kind of value of an xaif type (value_kind.h). */
#include "value_kind.h"

xf_bk_kind
xf_bk_kind_of(xf_type t)
{
    switch (t) {
    case XF_TYPE_REAL:
    case XF_TYPE_DOUBLE:
        return XF_BK_REAL;
    case XF_TYPE_INTEGER:
        return XF_BK_INT;
    case XF_TYPE_BOOL:
        return XF_BK_BOOL;
    case XF_TYPE_NONE:
    case XF_TYPE_VOID:
    case XF_TYPE_COMPLEX:
    case XF_TYPE_CHAR:
    case XF_TYPE_STRING:
    case XF_TYPE_OPAQUE:
        break;
    }
    return XF_BK_BAD;
}
