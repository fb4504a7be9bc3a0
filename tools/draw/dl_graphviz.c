/* dl_graphviz.c: see dl_graphviz.h. The library names (sonames) come from
 * the build (XF_SONAME_CGRAPH, XF_SONAME_GVC in CMakeLists.txt). */
/* RTLD_DEFAULT: a variable is looked up where the process uses it, which
 * is a copy in the program when the program links the library itself. */
#define _GNU_SOURCE
#include "dl_graphviz.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>

#ifndef XF_SONAME_CGRAPH
#define XF_SONAME_CGRAPH "libcgraph.so.6"
#endif
#ifndef XF_SONAME_GVC
#define XF_SONAME_GVC "libgvc.so.6"
#endif

/* The one table of the process, filled by the first xf_gv_load. */
static xf_gv_api api;
static bool loaded;

/* Store the address of @name in the libraries into *@slot (a pointer of any kind). */
static bool
sym(void *cgraph, void *gvc, const char *name, void *slot, xf_diag *diag)
{
    void *p = dlsym(name[0] == 'g' ? gvc : cgraph, name);
    if (!p) {
        xf_error(diag, NULL, 0, "cannot find %s in graphviz: %s", name, dlerror());
        return false;
    }
    memcpy(slot, &p, sizeof p);
    return true;
}

const xf_gv_api *
xf_gv_load(xf_diag *diag)
{
    if (loaded)
        return &api;
    void *cgraph = dlopen(XF_SONAME_CGRAPH, RTLD_NOW | RTLD_GLOBAL);
    void *gvc = cgraph ? dlopen(XF_SONAME_GVC, RTLD_NOW | RTLD_GLOBAL) : NULL;
    if (!gvc) {
        xf_error(diag, NULL, 0, "cannot load graphviz for drawing: %s", dlerror());
        return NULL;
    }
    xf_gv_api a;
    bool ok = true;
#define XF_GV_LOOKUP(name) ok = ok && sym(cgraph, gvc, #name, &a.name, diag);
    XF_GV_FUNCTIONS(XF_GV_LOOKUP)
#undef XF_GV_LOOKUP
    ok = ok && sym(RTLD_DEFAULT, RTLD_DEFAULT, "Agdirected", &a.Agdirected, diag);
    if (!ok)
        return NULL;
    api = a;
    loaded = true;
    return &api;
}

const xf_gv_api *
xf_gv(void)
{
    return loaded ? &api : NULL;
}
