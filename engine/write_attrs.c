/* write_attrs.c: an element's attributes from the IR, by the attribute
 * table (xaif_attrs.def), then those kept as written. */
#include "write_impl.h"

void
wr_attrs(wr *w, xf_alist l, const void *obj, const xf_refids *refs)
{
    const xf_alistdef *ld = xf_alist_def(l);
    const xf_attrdef *rows = ld->rows;
    const char *base = obj;
    for (size_t i = 0; i < ld->n; i++) {
        const char *name = rows[i].text;
        const void *p = base + rows[i].off;
        switch (rows[i].kind) {
        case XF_AK_STR:
        case XF_AK_ID:
            wr_str(w, name, *(const char *const *)p);
            break;
        case XF_AK_REF:
            if (refs)
                wr_str(w, name, refs->id[rows[i].off]);
            break;
        case XF_AK_INT:
            wr_int(w, name, *(const int64_t *)p);
            break;
        case XF_AK_FLAG:
            wr_flag(w, name, *(const xf_flag *)p);
            break;
        case XF_AK_SYMKIND:
        case XF_AK_SYMTYPE:
        case XF_AK_CTYPE:
        case XF_AK_SHAPE:
        case XF_AK_INTENT:
        case XF_AK_REVERSAL:
            wr_str(w, name, xf_akind_text(rows[i].kind, xf_aenum_get(rows[i].kind, p)));
            break;
        }
    }
    if (w->depth > 0 && w->stk[w->depth - 1].h)
        wr_extra_attrs(w, w->stk[w->depth - 1].h);
}
