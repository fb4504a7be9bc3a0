/* catalogue.c: see catalogue.h. The built-in catalogues are the bytes
 * xaiform-catgen (tools/catgen.c) packed from the schema folder's .xaif files
 * at build time, in the generated catalogue_data.c. */
#include "catalogue.h"

#include <stddef.h>

#include "catpack.h"
#include "read.h"

extern const unsigned char xf_builtin_inlinable[], xf_builtin_noninlinable[];
extern const size_t xf_builtin_inlinable_size, xf_builtin_noninlinable_size;

/* @path parsed, or the built-in catalogue unpacked under the name its text
 * had when it was parsed at each start; refused unless of @kind. */
static xf_doc *
load(const char *path, xf_dockind kind, xf_diag *diag)
{
    xf_doc *cat;
    if (path)
        cat = xf_read_file(path, NULL, diag);
    else if (kind == XF_DOC_INLINABLE)
        cat = xf_cat_unpack(xf_builtin_inlinable, xf_builtin_inlinable_size,
                            "built-in intrinsics.xaif", diag);
    else
        cat = xf_cat_unpack(xf_builtin_noninlinable, xf_builtin_noninlinable_size,
                            "built-in intrinsics-noninlinable.xaif", diag);
    if (cat && cat->kind != kind) {
        xf_error(diag, cat->filename, 0,
                 kind == XF_DOC_INLINABLE ? "not an inlinable intrinsics catalogue"
                                          : "not a non-inlinable intrinsics catalogue");
        xf_doc_free(cat);
        return NULL;
    }
    return cat;
}

xf_doc *
xf_catalogue_load(const char *path, xf_diag *diag)
{
    return load(path, XF_DOC_INLINABLE, diag);
}

xf_doc *
xf_direct_load(const char *path, xf_diag *diag)
{
    return load(path, XF_DOC_NONINLINABLE, diag);
}
