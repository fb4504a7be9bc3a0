/* util.c: what the passes share: activity, the catalogue, messages. */
#include <string.h>

#include "pass.h"

bool
xf_is_active_sym(const xf_symbol *s)
{
    if (!s || s->kind == XF_SYMKIND_SUBROUTINE)
        return false;
    bool real = s->type == XF_TYPE_REAL || s->type == XF_TYPE_DOUBLE || s->type == XF_TYPE_NONE;
    return real && xf_flag_is(s->active, false);
}

bool
xf_is_active_ref(const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    return s && xf_is_active_sym(s->sym) && !xf_flag_is(r->deriv, false);
}

const xf_ii *
xf_catalogue_find(const xf_doc *cat, const char *name)
{
    if (!cat)
        return NULL;
    for (uint32_t i = 0; i < cat->ii.n; i++)
        if (cat->ii.v[i].name == name || !strcmp(cat->ii.v[i].name, name))
            return &cat->ii.v[i];
    return NULL;
}

const xf_nii *
xf_direct_find(const xf_doc *cat, const char *name)
{
    if (!cat)
        return NULL;
    for (uint32_t i = 0; i < cat->nii.n; i++)
        if (cat->nii.v[i].direct && !strcmp(cat->nii.v[i].name, name))
            return &cat->nii.v[i];
    return NULL;
}

int
xf_pass_oom(xf_pass_ctx *ctx)
{
    xf_error(ctx->diag, ctx->doc->filename, 0, "out of memory");
    return -1;
}
