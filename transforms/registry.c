/* registry.c: the table of passes and the named pipelines. */
#include <string.h>

#include "pass.h"

const xf_pass *const xf_passes[] = {
    &xf_pass_convert,
    &xf_pass_template,
    &xf_pass_linearize,
    &xf_pass_preaccumulate,
    &xf_pass_propagate,
    &xf_pass_adjoin,
    &xf_pass_reverse,
    &xf_pass_rename,
    &xf_pass_inout,
    &xf_pass_checkpoint,
    &xf_pass_loopdep,
    &xf_pass_iterwise,
    &xf_pass_iterdry,
    &xf_pass_constprop,
    &xf_pass_sink,
    &xf_pass_deadstore,
    NULL,
};

static const struct {
    const char *name, *passes;
} pipelines[] = {
    {"tangent", "convert,constprop,sink,linearize,preaccumulate,propagate"},
    {"adjoint", "loopdep,convert,constprop,sink,template,linearize,preaccumulate,adjoin,reverse,"
                "iterwise,iterdry,checkpoint,deadstore,propagate"},
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
