/* c_iface.c: the user's own C interface of each routine. The C front end
 * annotates every symbol with its C type and how it is passed ("c:double
 * value", "c:const double pointer", "c:double return", "c:int"; a routine's
 * symbol "c:static" or "c:extern"). Such a routine is written twice: the
 * inner function keeps xaif's by-reference convention (every formal a
 * pointer; the calls of the generated code go to it), and a wrapper with
 * the user's signature, as Tapenade writes it, calls it: by-value
 * parameters stay by value (the wrapper passes the address of its own copy),
 * const is kept, a returned value is returned. Documents without these
 * annotations (Fortran's, OpenAD's) are written as before. */
#include <stdlib.h>
#include <string.h>

#include "c_impl.h"
#include "value_kind.h"

/* "c:[const ]T[ value|pointer|return]" into @c; false: not a C annotation.
 * What follows a ';' is another key's (c_extent.c's "xf_extent="). */
static bool
parse(const char *ann, cw_sym *c)
{
    char buf[64];
    if (!ann || strncmp(ann, "c:", 2))
        return false;
    size_t len = strcspn(ann, ";");
    if (len >= sizeof buf)
        return false;
    memcpy(buf, ann, len);
    buf[len] = 0;
    const char *a = buf + 2;
    if (!strncmp(a, "const ", 6)) {
        c->cconst = true;
        a += 6;
    }
    static const char *const types[] = {"int", "float", "double"};
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(types[k]);
        if (strncmp(a, types[k], n) || (a[n] && a[n] != ' '))
            continue;
        c->ctype = types[k];
        a += n;
        c->how = !*a                      ? CW_LOCAL
                 : !strcmp(a, " value")   ? CW_VALUE
                 : !strcmp(a, " pointer") ? CW_POINTER
                 : !strcmp(a, " return")  ? CW_RETURN
                                          : CW_LOCAL;
        return true;
    }
    return false;
}

/* Whether @sc is no routine's local scope (it holds globals). */
static bool
global_scope(const xf_callgraph *cg, const xf_scope *sc)
{
    for (uint32_t i = 0; i < cg->routines.n; i++)
        if (cg->routines.v[i]->cfg_scope == sc)
            return false;
    return true;
}

/* The rule for temporaries: a routine whose C variables include a float
 * and no double (its locals and formals, and no global double) computes
 * in float: the real variables the transformation added (OpenAD_lin,
 * OpenAD_aux, ..., no C annotation) are float, and so are their
 * derivatives (cw_dtype) and the propagators' xf_t. Elsewhere they stay
 * double. */
bool
cw_float_routine(const cw *w, const xf_routine *r)
{
    const xf_callgraph *cg = &w->doc->cg;
    const xf_scope *sc = r->cfg_scope;
    bool f = false;
    for (uint32_t i = 0; i < cg->scopes.v.n; i++) {
        const xf_scope *g = cg->scopes.v.v[i];
        if (g != sc && !global_scope(cg, g))
            continue;
        for (uint32_t j = 0; j < g->syms.n; j++) {
            const char *t = w->syms[g->syms.v[j]->index].ctype;
            if (t && !strcmp(t, "double"))
                return false;
            f = f || (g == sc && t && !strcmp(t, "float"));
        }
    }
    return f;
}

static void
float_temps(cw *w)
{
    const xf_callgraph *cg = &w->doc->cg;
    for (uint32_t i = 0; i < cg->routines.n; i++) {
        const xf_scope *sc = cg->routines.v[i]->cfg_scope;
        if (!sc || !cw_float_routine(w, cg->routines.v[i]))
            continue;
        for (uint32_t j = 0; j < sc->syms.n; j++) {
            const xf_symbol *s = sc->syms.v[j];
            cw_sym *c = &w->syms[s->index];
            if (s->kind == XF_SYMKIND_VARIABLE && !c->ctype && xf_bk_kind_of(s->type) == XF_BK_REAL)
                c->ctype = "float";
        }
    }
}

bool
cw_iface_read(cw *w)
{
    const xf_callgraph *cg = &w->doc->cg;
    if (!cw_struct_read(w))
        return false;
    for (uint32_t i = 0; i < cg->scopes.v.n; i++) {
        const xf_scope *sc = cg->scopes.v.v[i];
        for (uint32_t j = 0; j < sc->syms.n; j++) {
            const xf_symbol *s = sc->syms.v[j];
            if (s->kind == XF_SYMKIND_VARIABLE && parse(s->h.annotation, &w->syms[s->index]))
                w->c_types = true;
        }
    }
    float_temps(w);
    for (uint32_t i = 0; i < cg->routines.n; i++) {
        const xf_routine *r = cg->routines.v[i];
        if (!w->hascode[i] || !r->sym)
            continue;
        const char *a = r->sym->h.annotation;
        w->rstatic[i] = cw_pass_static(a);
        bool c = a && !strncmp(a, "c:", 2);
        for (uint32_t k = 0; k < r->args.n; k++)
            c = c || (r->args.v[k].sym && w->syms[r->args.v[k].sym->index].how != CW_NONE);
        w->wrapped[i] = c;
    }
    return true;
}

bool
cw_iface_dead(const cw *w, uint32_t i)
{
    if (!w->wrapped[i] || !w->rstatic[i])
        return false;
    const xf_callgraph *cg = &w->doc->cg;
    for (uint32_t k = 0; k < cg->edges.n; k++)
        if (cg->edges.v[k].tgt == cg->routines.v[i] && cg->edges.v[k].src != cg->routines.v[i])
            return true;
    return false;
}

const char *
cw_dtype(const cw *w, const xf_symbol *s)
{
    const char *t = w->syms[s->index].ctype;
    return t && !strcmp(t, "float") ? "float" : "double";
}

/* The formal at @pos of @r, or NULL. */
static const xf_argsym *
formal(const xf_routine *r, int64_t pos)
{
    for (uint32_t i = 0; i < r->args.n; i++)
        if (r->args.v[i].pos == pos)
            return &r->args.v[i];
    return NULL;
}

/* The returned value's formal of @r (the last one, "c:T return"), or NULL. */
static const cw_sym *
result(const cw *w, const xf_routine *r)
{
    const xf_argsym *f = formal(r, (int64_t)r->args.n);
    return f && f->sym && w->syms[f->sym->index].how == CW_RETURN ? &w->syms[f->sym->index] : NULL;
}

/* Whether @name is one of @r's parameter names in the wrapper. */
static bool
param_name(const cw *w, const xf_routine *r, const char *name)
{
    for (uint32_t i = 0; i < r->args.n; i++) {
        const cw_sym *c = r->args.v[i].sym ? &w->syms[r->args.v[i].sym->index] : NULL;
        if (c && ((c->name && !strcmp(c->name, name)) || (c->dname && !strcmp(c->dname, name))))
            return true;
    }
    return false;
}

/* The name of the returned value's parameter (tangent: the value, as
 * Tapenade names it after the function; adjoint: its adjoint, F + "b"). */
static void
result_name(const cw *w, const xf_routine *r, const cw_sym *res, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", r->sym->id, w->mode == CW_ADJOINT ? "b" : "");
    bool ok = !strncmp(buf, "xf_", 3) ? false : !param_name(w, r, buf);
    for (const char *p = buf; ok && *p; p++)
        ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
             *p == '_';
    if (!ok)
        snprintf(buf, len, "%s", w->mode == CW_ADJOINT ? res->dname : res->name);
}

void
cw_iface_signature(cw *w, FILE *o, const xf_routine *r, bool def)
{
    const cw_sym *res = result(w, r);
    const char *rt = "void";
    if (res && w->mode != CW_ADJOINT)
        rt = w->mode == CW_TANGENT && res->dname
                 ? (!strcmp(res->ctype, "float") ? "float" : "double")
                 : res->ctype;
    fprintf(o, "%s%s%s%s(", w->rstatic[r->index] ? "static XF_UNUSED " : "", rt, def ? "\n" : " ",
            w->rname[r->index]);
    bool any = false;
    int cpos = 0; /* the user's parameters written (c_passthru.c's go between) */
    for (int64_t p = 1; p <= (int64_t)r->args.n; p++) {
        const xf_argsym *f = formal(r, p);
        if (!f || !f->sym)
            return; /* refused by params() */
        const cw_sym *c = &w->syms[f->sym->index];
        const char *t = cw_ctype(w, f->sym, f->h.line), *dt = cw_dtype(w, f->sym);
        if (!t || c->how == CW_RETURN)
            continue;
        if (c->mem && !cw_struct_first(w, r, p))
            continue; /* a struct's later member: the struct is written at its first */
        while (cw_pass_params(w, o, r, cpos + 1, cpos + 1, &any))
            cpos++;
        cpos++;
        if (c->mem) { /* a struct's member: the struct, at its first */
            cw_struct_param(w, o, r, p, &any);
            continue;
        }
        const char *cq = c->cconst ? "const " : "";
        fputs(any ? ", " : "", o);
        any = true;
        if (c->how == CW_VALUE) {
            fprintf(o, "%s %s", t, c->name);
            if (c->dname)
                fprintf(o, ", %s %s%s", dt, w->mode == CW_ADJOINT ? "*" : "", c->dname);
        } else {
            fprintf(o, "%s%s *%s", c->how == CW_POINTER ? cq : "", t, c->name);
            if (c->dname)
                fprintf(o, ", %s%s *%s", w->mode == CW_ADJOINT ? "" : cq, dt, c->dname);
        }
    }
    cw_pass_params(w, o, r, cpos + 1, INT32_MAX, &any);
    if (res && res->dname && w->mode != CW_PLAIN) {
        char rn[160];
        result_name(w, r, res, rn, sizeof rn);
        fprintf(o, "%s%s %s%s", any ? ", " : "", res->ctype, w->mode == CW_ADJOINT ? "" : "*", rn);
        any = true;
    }
    fputs(any ? ")" : "void)", o);
}

/* The arguments of the call of the inner function from the wrapper. */
static void
inner_args(cw *w, FILE *o, const xf_routine *r)
{
    fputs("(", o);
    for (int64_t p = 1; p <= (int64_t)r->args.n; p++) {
        const xf_argsym *f = formal(r, p);
        const cw_sym *c = &w->syms[f->sym->index];
        const char *t = cw_ctype(w, f->sym, f->h.line), *dt = cw_dtype(w, f->sym);
        fputs(p > 1 ? ", " : "", o);
        if (c->mem)
            cw_struct_arg(w, o, r, p);
        else if (c->how == CW_VALUE) {
            fprintf(o, "&%s", c->name);
            if (c->dname && w->mode == CW_ADJOINT)
                fprintf(o, ", &xf_b%lld", (long long)p);
            else if (c->dname)
                fprintf(o, ", &%s", c->dname);
        } else if (c->how == CW_RETURN) {
            fputs("&xf_r", o);
            if (c->dname)
                fputs(", &xf_rd", o);
        } else {
            if (c->cconst)
                fprintf(o, "(%s *)%s", t, c->name);
            else
                fputs(c->name, o);
            if (c->dname && c->cconst && w->mode != CW_ADJOINT)
                fprintf(o, ", (%s *)%s", dt, c->dname);
            else if (c->dname)
                fprintf(o, ", %s", c->dname);
        }
    }
    fputs(")", o);
}

void
cw_iface_wrapper(cw *w, FILE *o, const xf_routine *r)
{
    const cw_sym *res = result(w, r);
    char rn[160] = "";
    if (res && res->dname)
        result_name(w, r, res, rn, sizeof rn);
    fputc('\n', o);
    cw_iface_signature(w, o, r, true);
    fputs("\n{\n", o);
    cw_pass_unused(w, o, r);
    if (res) {
        fprintf(o, "    %s xf_r = 0;\n", res->ctype);
        if (res->dname && w->mode == CW_TANGENT)
            fprintf(o, "    %s xf_rd = 0;\n", !strcmp(res->ctype, "float") ? "float" : "double");
        else if (res->dname && w->mode == CW_ADJOINT)
            fprintf(o, "    %s xf_rd = %s;\n", !strcmp(res->ctype, "float") ? "float" : "double",
                    rn);
    }
    bool adj = w->mode == CW_ADJOINT;
    for (int64_t p = 1; adj && p <= (int64_t)r->args.n; p++) {
        const xf_argsym *f = formal(r, p);
        const cw_sym *c = &w->syms[f->sym->index];
        if (c->how == CW_VALUE && c->dname && !c->mem) /* the copy's final adjoint: 0 */
            fprintf(o, "    %s xf_b%lld = 0;\n", cw_dtype(w, f->sym), (long long)p);
    }
    cw_struct_before(w, o, r);
    const char *name = w->iname[r->index];
    if (adj) {
        bool split = w->opts->reversal == XF_C_SPLIT;
        cw_entry_mode(w, o, split ? "tape" : "tape adjoint");
        fprintf(o, "    %s", name);
        inner_args(w, o, r);
        fputs(";\n", o);
        if (split && !w->split) {
            cw_mode_set(o, "    ", "adjoint");
            fprintf(o, "    %s", name);
            inner_args(w, o, r);
            fputs(";\n", o);
        }
        cw_entry_restore(w, o);
        for (int64_t p = 1; p <= (int64_t)r->args.n; p++) {
            const xf_argsym *f = formal(r, p);
            const cw_sym *c = &w->syms[f->sym->index];
            if (c->how == CW_VALUE && c->dname && !c->mem)
                fprintf(o, "    *%s += xf_b%lld;\n", c->dname, (long long)p);
        }
        cw_struct_after(w, o, r);
    } else {
        fprintf(o, "    %s", name);
        inner_args(w, o, r);
        fputs(";\n", o);
        cw_struct_after(w, o, r);
        if (res && res->dname && w->mode == CW_TANGENT)
            fprintf(o, "    *%s = xf_r;\n    return xf_rd;\n", rn);
        else if (res)
            fputs("    return xf_r;\n", o);
    }
    fputs("}\n", o);
}
