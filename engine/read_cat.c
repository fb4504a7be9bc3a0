/* read_cat.c: the intrinsics catalogues (inlinable: partial derivatives as
 * expressions; non-inlinable: explicit Jacobians and direct actions). */
#include "read_impl.h"

/* Partial: an expression over ArgumentReferences, or nothing */
static int
read_ii_partial(rd *d, xf_ii *ii)
{
    xf_ii_partial pa = {.id = XF_NOINT};
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        switch (a.id) {
        case A_PARTIAL_ID:
            ret = rd_int(d, &a, &pa.id);
            break;
        case A_PARTIAL_TYPE:
            ret = (pa.type = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_NONVALUEINQUIRY:
            ret = rd_flag(d, &a, &pa.non_value_inquiry);
            break;
        case A_ANNOTATION:
            ret = (pa.expr.h.annotation = rd_str(d, &a)) ? 0 : -1;
            break;
        default:
            ret = rd_keep_attr(d, &pa.expr.h, &a);
        }
        if (ret)
            return -1;
    }
    if (ret < 0 || rd_expr_body(d, &pa.expr))
        return -1;
    return XF_VEC_PUSH(d->a, ii->partials, pa) ? 0 : rd_oom(d);
}

/* InlinableIntrinsic: Function Partial* */
static int
read_ii(rd *d)
{
    xf_ii ii = {.nargs = XF_NOINT};
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        switch (a.id) {
        case A_NAME:
            ret = (ii.name = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_NR_ARGUMENTS:
            ret = rd_int(d, &a, &ii.nargs);
            break;
        case A_RETURN_TYPE:
            ret = (ii.return_type = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_SHAPECHANGE:
            ret = (ii.shape_change = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_NONSMOOTH:
            ret = rd_flag(d, &a, &ii.non_smooth);
            break;
        case A_ANNOTATION:
            ret = (ii.h.annotation = rd_str(d, &a)) ? 0 : -1;
            break;
        default:
            ret = rd_keep_attr(d, &ii.h, &a);
        }
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
    if (!ii.name)
        return rd_err(d, d->line, "<InlinableIntrinsic> without a name");
    rdpar p;
    rd_start(d, &p, &ii.h);
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el == XF_EL_II_FUNCTION && !ii.has_fn && !ii.partials.n) {
            ii.has_fn = true;
            ii.fn_h.line = d->line;
            while ((ret = rd_attr(d, &a)) > 0) {
                if (a.id == A_TYPE)
                    ret = (ii.fn_type = rd_str(d, &a)) ? 0 : -1;
                else if (a.id == A_BUILTIN_NAME)
                    ret = (ii.fn_builtin = rd_str(d, &a)) ? 0 : -1;
                else if (a.id == A_ANNOTATION)
                    ret = (ii.fn_h.annotation = rd_str(d, &a)) ? 0 : -1;
                else
                    ret = rd_keep_attr(d, &ii.fn_h, &a);
                if (ret)
                    return -1;
            }
            if (ret < 0 || rd_empty_elem(d, &ii.fn_h))
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
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        if (a.id == A_LANGUAGE)
            ret = (d->doc->language = rd_str(d, &a)) ? 0 : -1;
        else if (a.id == A_ANNOTATION)
            ret = (d->doc->defs_h.annotation = rd_str(d, &a)) ? 0 : -1;
        else
            ret = rd_keep_attr(d, &d->doc->defs_h, &a);
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
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
    rdattr a;
    int ret;
    while ((ret = rd_attr(d, &a)) > 0) {
        switch (a.id) {
        case A_NAME:
            ret = (n.name = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_JACOBIAN:
            ret = (n.jacobian = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_RETURN_TYPE:
            ret = (n.return_type = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_DERIVACTION:
            ret = (n.deriv_action = rd_str(d, &a)) ? 0 : -1;
            break;
        case A_ANNOTATION:
            ret = (n.h.annotation = rd_str(d, &a)) ? 0 : -1;
            break;
        default:
            ret = rd_keep_attr(d, &n.h, &a);
        }
        if (ret)
            return -1;
    }
    if (ret < 0)
        return -1;
    if (!n.name)
        return rd_err(d, d->line, "<%s> without a name", xf_elem_name(d->el));
    rdpar p;
    rd_start(d, &p, &n.h);
    while ((ret = rd_child(d, &p)) > 0) {
        if (n.direct || d->el != XF_EL_NII_PARTIAL)
            return rd_unexpected(d, &p);
        xf_nii_partial pa = {.dep = XF_NOINT, .indep = XF_NOINT, .partial = XF_NOINT};
        pa.h.line = d->line;
        while ((ret = rd_attr(d, &a)) > 0) {
            if (a.id == A_DEP)
                ret = rd_int(d, &a, &pa.dep);
            else if (a.id == A_INDEP)
                ret = rd_int(d, &a, &pa.indep);
            else if (a.id == A_PARTIAL)
                ret = rd_int(d, &a, &pa.partial);
            else if (a.id == A_ANNOTATION)
                ret = (pa.h.annotation = rd_str(d, &a)) ? 0 : -1;
            else
                ret = rd_keep_attr(d, &pa.h, &a);
            if (ret)
                return -1;
        }
        if (ret < 0 || rd_empty_elem(d, &pa.h))
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
