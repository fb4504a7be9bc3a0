/* c_joint.c: OpenAD's joint template resolved when the C is written.
 *
 * Under joint reversal the mode record takes four values only, so each
 * adjoint routine NAME_tpl becomes up to four straight-line functions, one
 * per mode it is entered in, and each call goes to the callee's function
 * for the mode the template would set at that point (ad_template.joint.f):
 *
 *   function        entered as                  runs placeholders  calls go to
 *   NAME_tpl        the user's entry: tape adjoint   2 3           2: _fwd, 3: _rev
 *   NAME_tpl_rev    a caller's adjoint sweep:
 *                   arg_restore tape adjoint         6 2 3         2: _fwd, 3: _rev
 *   NAME_tpl_fwd    a caller's taping sweep:
 *                   arg_store plain                  4 1           1: _plain
 *   NAME_tpl_plain  a caller's plain sweep: plain    1             1: _plain
 *
 * Only the functions some call reaches are written. The resolution applies
 * when every call of an adjoint routine is in placeholder 1, 2 or 3 (the
 * argument checkpoints 4 and 6 call nothing); otherwise, and under split
 * reversal, the template routes at run time (c_unit.c). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "c_impl.h"

/* ORDER: cw_jvariant */
static const int phs[CW_JV_COUNT][4] = {{2, 3}, {6, 2, 3}, {4, 1}, {1}};
static const char *const suffix[CW_JV_COUNT] = {"", "_rev", "_fwd", "_plain"};

const int *
cw_joint_phs(cw_jvariant v)
{
    return phs[v];
}

const char *
cw_joint_suffix(cw_jvariant v)
{
    return suffix[v];
}

/* Whether call @s needs no argument checkpoint of its callee (pass
 * template's "xf_nocp" in its annotation: what the callee stores keeps
 * its value from the call to the rerun). */
static bool
nocp(const xf_stmt *s)
{
    const char *a = s ? s->h.annotation : NULL;
    for (const char *p = a ? strstr(a, "xf_nocp") : NULL; p; p = strstr(p + 1, "xf_nocp"))
        if ((p == a || p[-1] == ';') && (!p[7] || p[7] == ';'))
            return true;
    return false;
}

/* The function call @s of @callee in placeholder @ph goes to: without the
 * store and the restore (1 and 2 3, the user's entry) where @s needs no
 * checkpoint; not for a routine of the user's derivatives (its F_b is theirs). */
static cw_jvariant
callee_variant(const cw *w, const xf_routine *callee, const xf_stmt *s, int ph)
{
    bool skip = !w->rext[callee->index] && nocp(s);
    return ph == 2   ? (skip ? CW_JV_PLAIN : CW_JV_FWD)
           : ph == 3 ? (skip ? CW_JV_TOP : CW_JV_REV)
                     : CW_JV_PLAIN;
}

/* The adjoint routine with code that statement @s calls, or NULL. */
static const xf_routine *
rlist_callee(const cw *w, const xf_stmt *s)
{
    if (s->kind != XF_STMT_CALL || !s->u.call.sym)
        return NULL;
    const xf_routine *c = cw_routine_of(w, s->u.call.sym);
    return c && c->is_rlist ? c : NULL;
}

/* Whether @g calls an adjoint routine. */
static bool
calls_rlist(const cw *w, const xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++)
        for (uint32_t j = 0; j < g->v.v[i]->stmts.n; j++)
            if (rlist_callee(w, g->v.v[i]->stmts.v[j]))
                return true;
    return false;
}

/* Mark what the calls of @g, placeholder @ph, need; true when something
 * was added. */
static bool
mark_calls(cw *w, const xf_graph *g, int ph)
{
    bool added = false;
    for (uint32_t i = 0; i < g->v.n; i++)
        for (uint32_t j = 0; j < g->v.v[i]->stmts.n; j++) {
            const xf_stmt *s = g->v.v[i]->stmts.v[j];
            const xf_routine *c = rlist_callee(w, s);
            unsigned char bit = c ? (unsigned char)(1u << callee_variant(w, c, s, ph)) : 0;
            if (c && !(w->jneed[c->index] & bit)) {
                w->jneed[c->index] |= bit;
                added = true;
            }
        }
    return added;
}

bool
cw_joint_init(cw *w)
{
    const xf_callgraph *cg = &w->doc->cg;
    w->joint = false;
    if (w->mode != CW_ADJOINT || w->opts->reversal == XF_C_SPLIT)
        return true;
    for (uint32_t i = 0; i < cg->routines.n; i++) {
        const xf_routine *r = cg->routines.v[i];
        for (int k = 4; k <= 13 && w->hascode[i] && r->is_rlist; k++) {
            const xf_graph *g = cw_placeholder(r, k);
            if (g && calls_rlist(w, g)) /* a call the resolution does not know */
                return true;
        }
    }
    w->jneed = calloc((size_t)cg->routines.n + 1, 1);
    if (!w->jneed) {
        cw_refuse(w, 0, "out of memory");
        return false;
    }
    for (uint32_t i = 0; i < cg->routines.n; i++)
        if (w->hascode[i] && cg->routines.v[i]->is_rlist && !cw_iface_dead(w, i))
            w->jneed[i] = 1u << CW_JV_TOP; /* the user's entry */
    for (bool more = true; more;) {        /* to a fixed point: 4 bits a routine */
        more = false;
        for (uint32_t i = 0; i < cg->routines.n; i++)
            for (int v = 0; v < CW_JV_COUNT; v++) {
                if (!(w->jneed[i] >> v & 1))
                    continue;
                for (int p = 0; p < 4 && phs[v][p]; p++) {
                    const xf_graph *g = cw_placeholder(cg->routines.v[i], phs[v][p]);
                    if (g && mark_calls(w, g, phs[v][p]))
                        more = true;
                }
            }
    }
    w->joint = true;
    return true;
}

void
cw_joint_free(cw *w)
{
    free(w->jneed);
    w->jneed = NULL;
}

void
cw_callee(cw *w, const xf_routine *callee, const xf_stmt *s)
{
    const char *in = w->iname[callee->index];
    if (!in) {
        fputs(w->rname[callee->index], w->o);
        return;
    }
    if (w->joint && callee->is_rlist) /* cw_variant_name: split names too (c_split.c) */
        cw_variant_name(w, w->o, callee, callee_variant(w, callee, s, w->ph));
    else
        fputs(in, w->o);
}

void
cw_entry_mode(cw *w, FILE *o, const char *flags)
{
    if (w->joint)
        return;
    fputs("    xf_ad_mode *xf_m = &xf_ad_state()->mode;\n"
          "    xf_ad_mode xf_saved = *xf_m;\n",
          o);
    cw_mode_set(o, "    ", flags);
}

void
cw_entry_restore(cw *w, FILE *o)
{
    if (!w->joint)
        fputs("    *xf_m = xf_saved;\n", o);
}

/* Whether the tape operations of @g are straight-line code on scalars;
 * adds its pushes and pops to @n. */
static bool
straight(const xf_graph *g, int n[2])
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        if (v->kind != XF_CV_ENTRY && v->kind != XF_CV_EXIT && v->kind != XF_CV_BASICBLOCK)
            return false;
        for (uint32_t j = 0; j < v->stmts.n; j++) {
            const xf_stmt *s = v->stmts.v[j];
            const char *nm = s->kind == XF_STMT_ICALL ? s->u.icall.name : NULL;
            if (!nm)
                continue;
            bool push = !strncasecmp(nm, "push", 4);
            if (!push && strncasecmp(nm, "pop", 3))
                continue;
            if (s->u.icall.args.n != 1)
                return false;
            const xf_expr *x = &s->u.icall.args.v[0].val;
            if (x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF && cw_is_array(x->v.v[0].u.ref))
                return false;
            n[push ? 0 : 1]++;
        }
    }
    return true;
}

bool
cw_joint_local_tape(cw *w, const xf_routine *r, cw_jvariant v)
{
    if (v != CW_JV_TOP && (v != CW_JV_REV || w->split)) /* split's _bwd only pops */
        return false;
    int n[2] = {0, 0}; /* pushes, pops */
    const xf_graph *tape = cw_placeholder(r, 2), *adj = cw_placeholder(r, 3);
    if ((tape && !straight(tape, n)) || (adj && !straight(adj, n)))
        return false;
    return n[0] == n[1];
}
