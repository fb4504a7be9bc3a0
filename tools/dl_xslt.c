/* dl_xslt.c: see dl_xslt.h. The library names (sonames) come from the
 * build (XF_SONAME_XSLT, XF_SONAME_EXSLT in CMakeLists.txt). */
/* RTLD_DEFAULT: a variable is looked up where the process uses it, which
 * is a copy in the program when the program links the library itself. */
#define _GNU_SOURCE
#include "dl_xslt.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>

#ifndef XF_SONAME_XSLT
#define XF_SONAME_XSLT "libxslt.so.1"
#endif
#ifndef XF_SONAME_EXSLT
#define XF_SONAME_EXSLT "libexslt.so.0"
#endif

/* The one table of the process, filled by the first xf_xslt_load. */
static xf_xslt_api api;
static bool loaded;

/* Store the address of @name in @h into *@slot (a pointer of any kind). */
static bool
sym(void *h, const char *name, void *slot, xf_diag *diag)
{
    void *p = dlsym(h, name);
    if (!p) {
        xf_error(diag, NULL, 0, "cannot find %s in libxslt: %s", name, dlerror());
        return false;
    }
    memcpy(slot, &p, sizeof p);
    return true;
}

const xf_xslt_api *
xf_xslt_load(xf_diag *diag)
{
    if (loaded)
        return &api;
    void *x = dlopen(XF_SONAME_XSLT, RTLD_NOW | RTLD_GLOBAL);
    void *ex = x ? dlopen(XF_SONAME_EXSLT, RTLD_NOW | RTLD_GLOBAL) : NULL;
    if (!ex) {
        xf_error(diag, NULL, 0, "cannot load libxslt for --xslt: %s", dlerror());
        return NULL;
    }
    xf_xslt_api a;
    bool ok = true;
#define XF_XSLT_LOOKUP(name) ok = ok && sym(x, #name, &a.name, diag);
    XF_XSLT_FUNCTIONS(XF_XSLT_LOOKUP)
#undef XF_XSLT_LOOKUP
    ok = ok && sym(RTLD_DEFAULT, "xsltGenericError", &a.xsltGenericError, diag) &&
         sym(RTLD_DEFAULT, "xsltGenericErrorContext", &a.xsltGenericErrorContext, diag) &&
         sym(ex, "exsltRegisterAll", &a.exsltRegisterAll, diag);
    if (!ok)
        return NULL;
    api = a;
    loaded = true;
    return &api;
}

const xf_xslt_api *
xf_xslt(void)
{
    return loaded ? &api : NULL;
}
