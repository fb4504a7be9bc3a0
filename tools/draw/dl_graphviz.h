/* dl_graphviz.h: graphviz's cgraph and gvc, opened with dlopen at their
 * first use (xaiform dot), so that the other verbs do not load them. The
 * table holds a pointer to each function and variable the dot_*.c files
 * use, under graphviz's own name: xf_gv()->agnode(g, name, 1). */
#ifndef XF_TOOLS_DL_GRAPHVIZ_H
#define XF_TOOLS_DL_GRAPHVIZ_H

#include <cgraph.h>
#include <gvc.h>

#include "diag.h"

/* ORDER: the functions of the table, each also looked up by its name */
#define XF_GV_FUNCTIONS(F)                                                                         \
    F(agattr)                                                                                      \
    F(agclose)                                                                                     \
    F(agedge)                                                                                      \
    F(agnode)                                                                                      \
    F(agopen)                                                                                      \
    F(agsafeset)                                                                                   \
    F(agseterr)                                                                                    \
    F(agseterrf)                                                                                   \
    F(agsubg)                                                                                      \
    F(agwrite)                                                                                     \
    F(gvContext)                                                                                   \
    F(gvFreeContext)                                                                               \
    F(gvFreeLayout)                                                                                \
    F(gvLayout)                                                                                    \
    F(gvRender)

typedef struct xf_gv_api {
#define XF_GV_MEMBER(name) __typeof__(name) *name;
    XF_GV_FUNCTIONS(XF_GV_MEMBER)
#undef XF_GV_MEMBER
    /* cgraph's variable (the address) */
    __typeof__(Agdirected) *Agdirected;
} xf_gv_api;

/**
 * xf_gv_load:
 * Open graphviz's libcgraph and libgvc unless open already (once per
 * process; call from one thread at a time). They stay open until the
 * process ends.
 * @returns the table, or NULL after reporting to @diag.
 */
const xf_gv_api *xf_gv_load(xf_diag *diag);

/** xf_gv: the table xf_gv_load filled, or NULL before it succeeded. */
const xf_gv_api *xf_gv(void);

#endif
