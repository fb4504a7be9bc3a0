/* read_attrs.c: an element's attributes into the IR, by the attribute
 * table (xaif_attrs.def). */
#include "read_impl.h"

#include <string.h>

/* The row of @rows (@n of them) named @name, or NULL. */
static const xf_attrdef *
find_row(const xf_attrdef *rows, size_t n, xf_aname name)
{
    if (name == XF_AN_UNKNOWN)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (rows[i].name == name)
            return &rows[i];
    return NULL;
}

static int
read_value(rd *d, const xf_attrdef *row, const rdattr *a, char *base, xf_refids *refs)
{
    void *p = base + row->off;
    int v;
    switch (row->kind) {
    case XF_AK_STR:
    case XF_AK_ID:
        return (*(const char **)p = rd_str(d, a)) ? 0 : -1;
    case XF_AK_REF:
        return (refs->id[row->off] = rd_str(d, a)) ? 0 : -1;
    case XF_AK_INT:
        return rd_int(d, a, p);
    case XF_AK_FLAG:
        return rd_flag(d, a, p);
    case XF_AK_SYMKIND:
    case XF_AK_SYMTYPE:
    case XF_AK_CTYPE:
    case XF_AK_SHAPE:
    case XF_AK_INTENT:
    case XF_AK_REVERSAL:
        if (!xf_akind_parse(row->kind, a->value, &v))
            return rd_bad_value(d, a, xf_akind_what(row->kind));
        xf_aenum_set(row->kind, p, v);
        return 0;
    }
    return -1;
}

static bool
present(const xf_attrdef *row, const char *base, const xf_refids *refs)
{
    const void *p = base + row->off;
    switch (row->kind) {
    case XF_AK_STR:
    case XF_AK_ID:
        return *(const char *const *)p != NULL;
    case XF_AK_REF:
        return refs->id[row->off] != NULL;
    case XF_AK_INT:
        return *(const int64_t *)p != XF_NOINT;
    case XF_AK_FLAG:
        return *(const xf_flag *)p != XF_FLAG_NONE;
    case XF_AK_SYMKIND:
    case XF_AK_SYMTYPE:
    case XF_AK_CTYPE:
    case XF_AK_SHAPE:
    case XF_AK_INTENT:
    case XF_AK_REVERSAL:
        return xf_aenum_get(row->kind, p) != 0;
    }
    return false;
}

int
rd_attrs(rd *d, xf_alist l, void *obj, xf_hdr *h, xf_refids *refs)
{
    const xf_alistdef *ld = xf_alist_def(l);
    const xf_attrdef *rows = ld->rows;
    size_t n = ld->n;
    char *base = obj;
    xf_refids none;
    if (!refs)
        refs = &none; /* a list without references */
    memset(refs, 0, sizeof *refs);
    for (size_t i = 0; ld->nint && i < n; i++)
        if (rows[i].kind == XF_AK_INT)
            *(int64_t *)(void *)(base + rows[i].off) = XF_NOINT;
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        const xf_attrdef *row = find_row(rows, n, a.id);
        if (row ? read_value(d, row, &a, base, refs) : rd_keep_attr(d, h, &a))
            return -1;
    }
    if (ret < 0)
        return -1;
    for (size_t i = 0; ld->nreq && i < n; i++)
        if (rows[i].use == XF_AU_REQ && !present(&rows[i], base, refs))
            return rd_err(d, d->line, "<%s> %s", xf_elem_name(d->el), rows[i].missing);
    return 0;
}
