/* addr_exit.c: a basic block right before Exit (addr.h). Address recovery
 * and the values handed over push what the adjoint reads first at the end
 * of the routine's last block; a routine whose body ends with a loop or a
 * branch (C's `for` as the last statement) has none, and its subscripts
 * were taped per iteration. An empty block on the edge into Exit gives
 * them one; it costs nothing when nothing is handed. */
#include <stdio.h>

#include "addr.h"
#include "build.h"

int
xf_addr_exit_block(xf_doc *doc, xf_routine *rt, xf_graph *g)
{
    xf_cedge *in = NULL;
    for (uint32_t i = 0; i < g->e.n; i++) {
        xf_cedge *e = g->e.v[i];
        if (e->tgt->kind != XF_CV_EXIT)
            continue;
        if (in)
            return 0; /* more than one way in: left as it is */
        in = e;
    }
    if (!in || in->src->kind == XF_CV_BASICBLOCK || in->src->kind == XF_CV_ENTRY)
        return 0;
    char id[32], eid[32];
    unsigned n = 0;
    do
        snprintf(id, sizeof id, "_last_%u", ++n);
    while (xf_cvertex_find(g, id));
    snprintf(eid, sizeof eid, "_last_e%u", n);
    xf_cvertex *b = xf_graph_vertex(doc, g, XF_CV_BASICBLOCK, id);
    if (!b)
        return -1;
    b->scope = rt->cfg_scope;
    xf_cvertex *exit = in->tgt;
    in->tgt = b;
    return xf_graph_edge(doc, g, b, exit, eid, false, 0) ? 0 : -1;
}
