/* c_split.c: OpenAD's split template resolved when the C is written.
 *
 * Under split reversal the user's entry runs the taping sweep of the whole
 * call tree and then its adjoint sweep; a routine entered from a caller's
 * taping sweep only tapes (placeholder 2), from a caller's adjoint sweep
 * only adjoins (placeholder 3). So each adjoint routine becomes up to
 * three straight-line functions, with Tapenade's names for its split mode:
 *
 *   function        entered as                   runs  calls go to
 *   NAME_b_tpl      the user's entry (NAME_b)    2 3   2: _fwd, 3: _bwd
 *   NAME_fwd        a caller's taping sweep      2     2: _fwd
 *   NAME_bwd        a caller's adjoint sweep     3     3: _bwd
 *
 * The user's entry runs both placeholders in one activation, as the joint
 * template's entry does (its tape may then be local variables,
 * cw_joint_local_tape); only the functions some call reaches are written.
 * A name taken by a routine or a variable gets "_2", "_3", ... after it.
 * The placeholders the split template never runs (1, 4 to 13) are not
 * written. The variants reuse cw_jvariant: CW_JV_REV is NAME_bwd,
 * CW_JV_FWD NAME_fwd. */
#include <stdlib.h>
#include <string.h>

#include "c_impl.h"

/* ORDER: cw_jvariant */
static const int sphs[CW_JV_COUNT][3] = {{2, 3}, {3}, {2}, {0}};

/* The adjoint routine with code that statement @s calls, or NULL. */
static const xf_routine *
rlist_callee(const cw *w, const xf_stmt *s)
{
    if (s->kind != XF_STMT_CALL || !s->u.call.sym)
        return NULL;
    const xf_routine *c = cw_routine_of(w, s->u.call.sym);
    return c && c->is_rlist ? c : NULL;
}

/* Mark variant @v of every adjoint routine that @g calls; whether one was new. */
static bool
mark(cw *w, const xf_graph *g, cw_jvariant v)
{
    bool added = false;
    for (uint32_t i = 0; i < g->v.n; i++)
        for (uint32_t j = 0; j < g->v.v[i]->stmts.n; j++) {
            const xf_routine *c = rlist_callee(w, g->v.v[i]->stmts.v[j]);
            if (c && !(w->jneed[c->index] >> v & 1)) {
                w->jneed[c->index] |= (unsigned char)(1u << v);
                added = true;
            }
        }
    return added;
}

/* Whether @s is the C name of a routine, of a variable of the document or
 * of a function of split reversal named before. */
static bool
taken(const cw *w, const char *s)
{
    for (uint32_t i = 0; i < w->doc->cg.routines.n; i++)
        if ((w->rname[i] && !strcmp(w->rname[i], s)) || (w->iname[i] && !strcmp(w->iname[i], s)))
            return true;
    for (uint32_t i = 0; i < 2 * w->doc->cg.routines.n; i++)
        if (w->sname[i] && !strcmp(w->sname[i], s))
            return true;
    for (uint32_t i = 0; i < w->doc->nsymbols; i++)
        if ((w->syms[i].name && !strcmp(w->syms[i].name, s)) ||
            (w->syms[i].dname && !strcmp(w->syms[i].dname, s)))
            return true;
    return false;
}

/* Name "BASE_fwd" / "BASE_bwd" of @r, BASE its C name without "_b", with
 * "_2", "_3", ... after it while the name is @taken; NULL when out of
 * memory. */
static char *
sweep_name(const cw *w, const char *rname, const char *sfx)
{
    size_t n = strlen(rname);
    if (n > 2 && !strcmp(rname + n - 2, "_b"))
        n -= 2;
    char *s = malloc(n + strlen(sfx) + 24);
    if (!s)
        return NULL;
    memcpy(s, rname, n);
    strcpy(s + n, sfx);
    for (unsigned k = 2; taken(w, s); k++)
        sprintf(s + n + strlen(sfx), "_%u", k);
    return s;
}

bool
cw_split_init(cw *w)
{
    const xf_callgraph *cg = &w->doc->cg;
    if (w->mode != CW_ADJOINT || w->opts->reversal != XF_C_SPLIT)
        return true;
    w->jneed = calloc((size_t)cg->routines.n + 1, 1);
    w->sname = calloc(2 * ((size_t)cg->routines.n + 1), sizeof *w->sname);
    if (!w->jneed || !w->sname) {
        cw_refuse(w, 0, "out of memory");
        return false;
    }
    for (uint32_t i = 0; i < cg->routines.n; i++)
        if (w->hascode[i] && cg->routines.v[i]->is_rlist && !cw_iface_dead(w, i))
            w->jneed[i] = 1u << CW_JV_TOP; /* the user's entry */
    for (bool more = true; more;) {        /* to a fixed point */
        more = false;
        for (uint32_t i = 0; i < cg->routines.n; i++)
            for (int v = 0; v < CW_JV_COUNT; v++)
                for (int p = 0; p < 3 && sphs[v][p] && w->jneed[i] >> v & 1; p++) {
                    const xf_graph *g = cw_placeholder(cg->routines.v[i], sphs[v][p]);
                    if (g && mark(w, g, sphs[v][p] == 2 ? CW_JV_FWD : CW_JV_REV))
                        more = true;
                }
    }
    for (uint32_t i = 0; i < cg->routines.n; i++)
        for (int k = 0; k < 2; k++) {
            if (!(w->jneed[i] >> (k ? CW_JV_REV : CW_JV_FWD) & 1))
                continue;
            char *s = sweep_name(w, w->rname[i], k ? "_bwd" : "_fwd");
            if (!s) {
                cw_refuse(w, 0, "out of memory");
                return false;
            }
            w->sname[2 * i + (uint32_t)k] = s;
        }
    w->joint = w->split = true;
    return true;
}

void
cw_split_free(cw *w)
{
    if (w->sname)
        for (uint32_t i = 0; i < 2 * w->doc->cg.routines.n; i++)
            free(w->sname[i]);
    free(w->sname);
    w->sname = NULL;
}

const int *
cw_variant_phs(const cw *w, cw_jvariant v)
{
    return w->split ? sphs[v] : cw_joint_phs(v);
}

void
cw_variant_name(const cw *w, FILE *o, const xf_routine *r, cw_jvariant v)
{
    if (w->split && (v == CW_JV_FWD || v == CW_JV_REV))
        fputs(w->sname[2 * r->index + (v == CW_JV_REV)], o);
    else
        fprintf(o, "%s%s", w->iname[r->index], cw_joint_suffix(v));
}
