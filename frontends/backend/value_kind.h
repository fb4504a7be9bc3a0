/* value_kind.h: what the back ends (xaif2c, xaif2f) share about the xaif
 * types they can write: the kind of value a symbol of each type holds.
 * Language-neutral. */
#ifndef XF_BACKEND_VALUE_KIND_H
#define XF_BACKEND_VALUE_KIND_H

#include "ir.h"

typedef enum xf_bk_kind { XF_BK_INT, XF_BK_REAL, XF_BK_BOOL, XF_BK_BAD } xf_bk_kind;

/** xf_bk_kind_of: the kind of value of type @t; XF_BK_BAD: none a back end writes. */
xf_bk_kind xf_bk_kind_of(xf_type t);

#endif
