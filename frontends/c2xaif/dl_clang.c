/* dl_clang.c: see dl_clang.h. The library comes from the build: the file
 * CMake found (XF_LIBCLANG_PATH), else its soname (XF_SONAME_CLANG) on the
 * loader's path. The file first: Debian's libclang finds its own headers
 * (stddef.h, ...) relative to where it was loaded from. */
#define XF_CLANG_NO_REDIRECT
#include "dl_clang.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>

#ifndef XF_SONAME_CLANG
#define XF_SONAME_CLANG "libclang-14.so.1"
#endif
#ifndef XF_LIBCLANG_PATH
#define XF_LIBCLANG_PATH XF_SONAME_CLANG
#endif

/* The one table of the process, filled by the first xf_clang_load. */
static xf_clang_api api;
static bool loaded;

int
xf_clang_load(FILE *err)
{
    if (loaded)
        return 0;
    void *h = dlopen(XF_LIBCLANG_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        h = dlopen(XF_SONAME_CLANG, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(err, "xaiform c2xaif: cannot load libclang (%s): %s\n", XF_SONAME_CLANG, dlerror());
        return -1;
    }
    xf_clang_api a;
    bool ok = true;
#define XF_CLANG_LOOKUP(name)                                                                      \
    if (ok) {                                                                                      \
        void *p = dlsym(h, #name);                                                                 \
        if (!p) {                                                                                  \
            fprintf(err, "xaiform c2xaif: no %s in libclang: %s\n", #name, dlerror());             \
            ok = false;                                                                            \
        } else                                                                                     \
            memcpy(&a.name, &p, sizeof p);                                                         \
    }
    XF_CLANG_FUNCTIONS(XF_CLANG_LOOKUP)
#undef XF_CLANG_LOOKUP
    if (!ok)
        return -1;
    api = a;
    loaded = true;
    return 0;
}

const xf_clang_api *
xf_clang(void)
{
    return loaded ? &api : NULL;
}
