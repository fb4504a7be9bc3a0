/* registry.c: the table of passes and the named pipelines. A pass is one
 * file (its xf_pass with its rules, options and their storage) and one
 * line of PASSES below; pass.h declares only the passes other modules
 * name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

/* The passes in the order passes --list shows them: X(NAME) for xf_pass_NAME. */
#define PASSES(X)                                                                                  \
    X(convert)                                                                                     \
    X(template)                                                                                    \
    X(linearize)                                                                                   \
    X(preaccumulate)                                                                               \
    X(propagate)                                                                                   \
    X(adjoin)                                                                                      \
    X(reverse)                                                                                     \
    X(argpush)                                                                                     \
    X(rename)                                                                                      \
    X(inout)                                                                                       \
    X(checkpoint)                                                                                  \
    X(loopdep)                                                                                     \
    X(iterwise)                                                                                    \
    X(iterdry)                                                                                     \
    X(constprop)                                                                                   \
    X(sink)                                                                                        \
    X(split)                                                                                       \
    X(deadstore)                                                                                   \
    X(argdead)                                                                                     \
    /* a new pass: X(NAME) on a line of its own above */

#define DECLARE(name) extern const xf_pass xf_pass_##name;
PASSES(DECLARE)
#undef DECLARE

#define ENTRY(name) &xf_pass_##name,
const xf_pass *const xf_passes[] = {PASSES(ENTRY) NULL};
#undef ENTRY

static const struct {
    const char *name, *passes;
} pipelines[] = {
    {"tangent", "convert,constprop,sink,split,linearize,preaccumulate,propagate"},
    {"adjoint",
     "loopdep,convert,constprop,sink,split,template,linearize,preaccumulate,adjoin,reverse,argpush,"
     "iterwise,iterdry,checkpoint,deadstore,argdead,propagate"},
};

const xf_pass *
xf_pass_find(const char *name)
{
    for (const xf_pass *const *p = xf_passes; *p; p++)
        if (!strcmp((*p)->name, name))
            return *p;
    return NULL;
}

const char *
xf_pipeline_name(size_t k)
{
    return k < sizeof pipelines / sizeof pipelines[0] ? pipelines[k].name : NULL;
}

const char *
xf_pipeline_expand(const char *name)
{
    for (size_t i = 0; i < sizeof pipelines / sizeof pipelines[0]; i++)
        if (!strcmp(pipelines[i].name, name))
            return pipelines[i].passes;
    return NULL;
}

/* Where pass @p's own options start in xf_opts.own: after those of the
 * passes before it in the table, each block aligned as any object. */
static size_t
own_offset(const xf_pass *p)
{
    size_t at = 0, align = _Alignof(max_align_t);
    for (const xf_pass *const *q = xf_passes; *q; q++) {
        if (*q == p) {
            if (at + (*q)->own_size > XF_OPTS_OWN) {
                /* a programming error, caught by any run: make XF_OPTS_OWN larger */
                fprintf(stderr,
                        "xaiform: internal error at %s:%d: XF_OPTS_OWN (%d bytes) too "
                        "small for pass %s's options\n",
                        __FILE__, __LINE__, XF_OPTS_OWN, p->name);
                abort();
            }
            return at;
        }
        at += ((*q)->own_size + align - 1) / align * align;
    }
    return SIZE_MAX;
}

void *
xf_pass_own(xf_opts *o, const xf_pass *p)
{
    if (!o || !p->own_size)
        return NULL;
    size_t at = own_offset(p);
    return at == SIZE_MAX ? NULL : o->own + at;
}

const void *
xf_pass_own_c(const xf_opts *o, const xf_pass *p)
{
    return xf_pass_own((xf_opts *)o, p);
}
