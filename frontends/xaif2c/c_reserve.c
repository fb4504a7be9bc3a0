/* c_reserve.c: the tape's growth check hoisted out of counted loops.
 *
 * A ForLoop `i = lo; i OP u; i = i + s` (OP one of < <= > >=, s an integer
 * constant of the right sign) whose body is a chain of basic blocks, entered
 * only from the loop, that calls no routine, pops nothing, and writes neither
 * i nor a variable of the condition (nor any integer that is not a local of
 * the routine, which might alias one) runs a number of iterations known when
 * it starts, each pushing the same number of scalars. After the
 * Initialization the loop reserves room for all of them at once
 * (xf_ad_reserve), and the pushes inside are unchecked stores
 * (xf_ad_push_nc), which the checking build (-DXF_AD_CHECK) still checks. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "c_impl.h"

/* Whether the tape op named @nm is a push of integers (as c_stmt.c reads it). */
static bool
int_push(const char *nm)
{
    return strstr(nm, "_i") || !strcasecmp(nm, "push_b");
}

/* Whether writing @s could change the loop: the loop variable @iv, a
 * variable of the condition @c, or an integer that is not a local. */
static bool
harmful(const cw *w, const xf_symbol *s, const xf_symbol *iv, const xf_expr *c)
{
    if (!s || s == iv || cw_mentions(c, s))
        return true;
    return s->type != XF_TYPE_REAL && (w->syms[s->index].formal || w->syms[s->index].global);
}

/* Count the pushes of statement @s into @n (reals, integers); false when
 * @s keeps the loop from being reserved. */
static bool
stmt_ok(const cw *w, const xf_stmt *s, const xf_symbol *iv, const xf_expr *c, int n[2])
{
    switch (s->kind) {
    case XF_STMT_ASSIGN: {
        const xf_symref *l = xf_varref_symref(&s->u.as.lhs);
        return l && !harmful(w, l->sym, iv, c);
    }
    case XF_STMT_CALL:
        return false;
    case XF_STMT_ICALL: {
        const char *nm = s->u.icall.name;
        if (!nm)
            return false;
        if (!strncasecmp(nm, "push", 4)) {
            if (s->u.icall.args.n != 1 || !strcasecmp(nm, "push_s"))
                return false;
            const xf_expr *x = &s->u.icall.args.v[0].val;
            for (uint32_t k = 0; k < x->v.n; k++)
                if (x->v.v[k].kind == XF_EV_VARREF && cw_is_array(x->v.v[k].u.ref))
                    return false;
            n[int_push(nm)]++;
            return true;
        }
        if (!strncasecmp(nm, "pop", 3) || !strncasecmp(nm, "cp_", 3) || !strncasecmp(nm, "ckp_", 4))
            return false;
        for (uint32_t a = 0; a < s->u.icall.args.n; a++) { /* may write any argument */
            const xf_expr *x = &s->u.icall.args.v[a].val;
            for (uint32_t k = 0; k < x->v.n; k++) {
                if (x->v.v[k].kind != XF_EV_VARREF)
                    continue;
                const xf_symref *r = xf_varref_symref(x->v.v[k].u.ref);
                if (!r || harmful(w, r->sym, iv, c))
                    return false;
            }
        }
        return true;
    }
    case XF_STMT_MARKER:
    case XF_STMT_DERIVPROP:
        return true;
    }
    return false;
}

/* The integer constant at vertex @k of @x, into *@out. */
static bool
int_const(const xf_expr *x, uint32_t k, long *out)
{
    const xf_evertex *v = &x->v.v[k];
    if (v->kind != XF_EV_CONSTANT || v->u.c.type != XF_TYPE_INTEGER || !v->u.c.value)
        return false;
    char *end;
    *out = strtol(v->u.c.value, &end, 10);
    return *end == '\0' && end != v->u.c.value;
}

/* The operands (positions 1 and 2) of the root of @x. */
static bool
binary(const xf_expr *x, uint32_t side[2])
{
    uint32_t root = xf_expr_root(x);
    if (root == UINT32_MAX)
        return false;
    side[0] = side[1] = UINT32_MAX;
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].tgt == root && (x->e.v[j].pos == 1 || x->e.v[j].pos == 2))
            side[x->e.v[j].pos - 1] = x->e.v[j].src;
    return side[0] != UINT32_MAX && side[1] != UINT32_MAX;
}

/* The symbol a scalar variable reference at vertex @k of @x names, or NULL. */
static const xf_symbol *
scalar_at(const xf_expr *x, uint32_t k)
{
    if (x->v.v[k].kind != XF_EV_VARREF || xf_varref_arrref(x->v.v[k].u.ref))
        return NULL;
    const xf_symref *r = xf_varref_symref(x->v.v[k].u.ref);
    return r ? r->sym : NULL;
}

/* The loop's header: its variable, the condition's operator (0 <, 1 <=, 2 >,
 * 3 >=), the bound's vertex in the condition and the step. */
static bool
header(const xf_cvertex *v, const xf_symbol **iv, int *op, uint32_t *bound, long *step)
{
    static const char *const ops[] = {"less_than", "less_or_equal", "greater_than",
                                      "greater_or_equal"};
    const xf_expr *c = v->cond;
    uint32_t cs[2], us[2];
    if (!v->init || !v->update || v->update->kind != XF_STMT_ASSIGN || !c || !binary(c, cs))
        return false;
    uint32_t root = xf_expr_root(c);
    if (c->v.v[root].kind != XF_EV_BOOLOP)
        return false;
    *op = -1;
    for (int k = 0; k < 4; k++)
        if (!strcmp(c->v.v[root].u.in.name, ops[k]))
            *op = k;
    const xf_symref *l = xf_varref_symref(&v->update->u.as.lhs);
    const xf_expr *u = &v->update->u.as.rhs;
    if (*op < 0 || !l || !l->sym || xf_varref_arrref(&v->update->u.as.lhs) ||
        l->sym->type != XF_TYPE_INTEGER || scalar_at(c, cs[0]) != l->sym || !binary(u, us))
        return false;
    const xf_evertex *ur = &u->v.v[xf_expr_root(u)];
    if (ur->kind != XF_EV_INTRINSIC)
        return false;
    bool add = !strcmp(ur->u.in.name, "add_scal_scal");
    if (!add && strcmp(ur->u.in.name, "sub_scal_scal"))
        return false;
    if (scalar_at(u, us[0]) == l->sym && int_const(u, us[1], step))
        *step = add ? *step : -*step;
    else if (add && scalar_at(u, us[1]) == l->sym && int_const(u, us[0], step))
        ;
    else
        return false;
    *iv = l->sym;
    *bound = cs[1];
    return *op < 2 ? *step > 0 : *step < 0;
}

/* Follow the body of ForLoop @v from @t: true, with the pushes of an
 * iteration in @n, when it is a chain of basic blocks back to @v's EndLoop. */
static bool
body(const cw *w, const xf_graph *g, const unsigned *nin, const xf_cvertex *v, const xf_cvertex *t,
     const xf_symbol *iv, int n[2])
{
    for (uint32_t steps = 0; steps <= g->v.n; steps++) {
        const xf_cedge *out = NULL;
        unsigned nout = 0;
        for (uint32_t i = 0; i < g->e.n; i++)
            if (g->e.v[i]->src == t)
                out = g->e.v[i], nout++;
        if (nout != 1 || nin[t->index] != 1)
            return false;
        if (t->kind == XF_CV_ENDLOOP)
            return out->tgt == v;
        if (t->kind != XF_CV_BASICBLOCK)
            return false;
        for (uint32_t j = 0; j < t->stmts.n; j++)
            if (!stmt_ok(w, t->stmts.v[j], iv, v->cond, n))
                return false;
        t = out->tgt;
    }
    return false;
}

/* Mark the blocks of @v's body in w->nck. */
static void
mark_body(cw *w, const xf_graph *g, const xf_cvertex *t)
{
    while (t->kind == XF_CV_BASICBLOCK) {
        w->nck[t->index] = 1;
        for (uint32_t i = 0; i < g->e.n; i++)
            if (g->e.v[i]->src == t) {
                t = g->e.v[i]->tgt;
                break;
            }
    }
}

void
cw_reserve_plan(cw *w, const xf_graph *g)
{
    free(w->nck);
    free(w->nres);
    w->nck = NULL;
    w->nres = NULL;
    if (w->mode != CW_ADJOINT || w->ltape || !g->v.n)
        return;
    unsigned *nin = calloc(g->v.n, sizeof *nin);
    w->nck = calloc(g->v.n, 1);
    w->nres = calloc(2 * (size_t)g->v.n, sizeof *w->nres);
    if (!nin || !w->nck || !w->nres) {
        free(nin);
        cw_refuse(w, 0, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < g->e.n; i++)
        if (g->e.v[i]->tgt)
            nin[g->e.v[i]->tgt->index]++;
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        const xf_symbol *iv;
        int op;
        uint32_t bound;
        long step;
        if (v->kind != XF_CV_FORLOOP || !header(v, &iv, &op, &bound, &step))
            continue;
        for (uint32_t k = 0; k < g->e.n; k++) {
            const xf_cedge *e = g->e.v[k];
            int n[2] = {0, 0};
            if (e->src != v || !e->tgt || !body(w, g, nin, v, e->tgt, iv, n))
                continue;
            if (n[0] + n[1] > 0) {
                w->nres[2 * i] = n[0];
                w->nres[2 * i + 1] = n[1];
                mark_body(w, g, e->tgt);
            }
            break;
        }
    }
    free(nin);
}

/* Write the bound (@hi) or the loop variable. */
static void
side(cw *w, const xf_cvertex *v, const xf_symbol *iv, uint32_t bound, bool hi)
{
    if (hi)
        cw_expr_at(w, v->cond, bound);
    else
        cw_scalar(w, iv);
}

void
cw_reserve_write(cw *w, const xf_cvertex *v)
{
    const xf_symbol *iv;
    int op;
    uint32_t bound;
    long step;
    if (!w->nres || !(w->nres[2 * v->index] + w->nres[2 * v->index + 1]) ||
        !header(v, &iv, &op, &bound, &step))
        return;
    /* hi - lo iterations and a part, hi the bound for a step up, lo for a
     * step down: n * (hi OP lo ? (hi - lo [+ t - 1]) / t [+ 1] : 0) */
    long t = step < 0 ? -step : step;
    bool incl = op == 1 || op == 3;
    for (int k = 0; k < 2; k++) {
        int n = w->nres[2 * v->index + k];
        if (!n)
            continue;
        fprintf(w->o, "    xf_ad_%sreserve(&xf_ad_s.%s, %dL * (", k ? "i" : "",
                k ? "itape" : "tape", n);
        for (int rep = 0; rep < 2; rep++) {
            fputs("(long)(", w->o);
            side(w, v, iv, bound, op < 2);
            fputs(rep ? ") - (long)(" : incl ? ") >= (long)(" : ") > (long)(", w->o);
            side(w, v, iv, bound, op >= 2);
            fputs(rep ? ")" : ") ? (", w->o);
        }
        if (incl)
            fprintf(w->o, ") / %ldL + 1L : 0L));\n", t);
        else
            fprintf(w->o, " + %ldL) / %ldL : 0L));\n", t - 1, t);
    }
}

bool
cw_reserve_nc(const cw *w, const xf_cvertex *v)
{
    return w->nck && w->nck[v->index];
}
