/* read_cat.c: the intrinsics catalogues (inlinable: partial derivatives as
 * expressions; non-inlinable: explicit Jacobians and direct actions). */
#include "read_impl.h"

/* Partial: an expression over ArgumentReferences, or nothing */
static int
read_ii_partial(rd *d, xf_ii *ii)
{
    xf_ii_partial pa = {0};
    if (rd_attrs(d, XF_AL_IIPARTIAL, &pa, &pa.expr.h, NULL) || rd_expr_body(d, &pa.expr))
        return -1;
    return XF_VEC_PUSH(d->a, ii->partials, pa) ? 0 : rd_oom(d);
}

/* InlinableIntrinsic: Function Partial* */
static int
read_ii(rd *d)
{
    xf_ii ii = {0};
    if (rd_attrs(d, XF_AL_II, &ii, &ii.h, NULL))
        return -1;
    int ret;
    rdpar p;
    rd_start(d, &p, &ii.h);
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el == XF_EL_II_FUNCTION && !ii.has_fn && !ii.partials.n) {
            ii.has_fn = true;
            ii.fn_h.line = d->line;
            if (rd_attrs(d, XF_AL_IIFUNCTION, &ii, &ii.fn_h, NULL) || rd_empty_elem(d, &ii.fn_h))
                return -1;
        } else if (d->el == XF_EL_II_PARTIAL) {
            if (read_ii_partial(d, &ii))
                return -1;
        } else
            return rd_unexpected(d, &p);
    }
    if (ret < 0)
        return -1;
    return XF_VEC_PUSH(d->a, d->doc->ii, ii) ? 0 : rd_oom(d);
}

/* InlinableIntrinsicDefinitions: InlinableIntrinsic* */
int
rd_ii_defs(rd *d)
{
    if (rd_attrs(d, XF_AL_IIDEFS, d->doc, &d->doc->defs_h, NULL))
        return -1;
    int ret;
    rdpar p;
    rd_start(d, &p, &d->doc->defs_h);
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != XF_EL_II_INTRINSIC)
            return rd_unexpected(d, &p);
        if (read_ii(d))
            return -1;
    }
    return ret;
}

/* ExplicitJacobian: Partial*;  DirectAction: empty */
static int
read_nii(rd *d)
{
    xf_nii n = {.direct = d->el == XF_EL_NII_DIRECTACTION};
    if (rd_attrs(d, n.direct ? XF_AL_NIIDIRECT : XF_AL_NIIJACOBIAN, &n, &n.h, NULL))
        return -1;
    int ret;
    rdpar p;
    rd_start(d, &p, &n.h);
    while ((ret = rd_child(d, &p)) > 0) {
        if (n.direct || d->el != XF_EL_NII_PARTIAL)
            return rd_unexpected(d, &p);
        xf_nii_partial pa = {0};
        pa.h.line = d->line;
        if (rd_attrs(d, XF_AL_NIIPARTIAL, &pa, &pa.h, NULL) || rd_empty_elem(d, &pa.h))
            return -1;
        if (!XF_VEC_PUSH(d->a, n.partials, pa))
            return rd_oom(d);
    }
    if (ret < 0)
        return -1;
    return XF_VEC_PUSH(d->a, d->doc->nii, n) ? 0 : rd_oom(d);
}

/* NonInlinableIntrinsicDefinitions: (ExplicitJacobian | DirectAction)* */
int
rd_nii_defs(rd *d)
{
    if (rd_plain_attrs(d, &d->doc->defs_h))
        return -1;
    rdpar p;
    rd_start(d, &p, &d->doc->defs_h);
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != XF_EL_NII_EXPLICITJACOBIAN && d->el != XF_EL_NII_DIRECTACTION)
            return rd_unexpected(d, &p);
        if (read_nii(d))
            return -1;
    }
    return ret;
}
