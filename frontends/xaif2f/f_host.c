/* f_host.c: internal procedures (the source's CONTAINS). A routine whose
 * local scope's parent is the local scope of another routine with code is
 * internal to that host when the host calls one of its scope's routines
 * (the front end's stand-in for a module, a routine without code or with
 * empty placeholders, calls none: its procedures stay module procedures).
 * An internal routine reaches the host's variables by host association,
 * which a module procedure cannot: it is written inside its host after
 * CONTAINS (in an adjoint inside the host's template NAME_tpl, whose
 * activation holds the variables), where Fortran's host association is the
 * xaif's. A local of it whose name is also one of the host's gets another
 * name, so that it does not hide the host's. */
#include <stdlib.h>
#include <string.h>

#include "f_impl.h"

/* The routine whose local scope is @r's scope's parent, with code; NULL: none. */
static const xf_routine *
parent_of(const fw *w, const xf_routine *r)
{
    const xf_scope *p = r->cfg_scope ? r->cfg_scope->parent : NULL;
    for (uint32_t i = 0; p && i < w->doc->cg.routines.n; i++) {
        const xf_routine *h = w->doc->cg.routines.v[i];
        if (h != r && h->cfg_scope == p && w->hascode[i])
            return h;
    }
    return NULL;
}

/* Does @g call a routine whose scope is a child of @h's? */
static bool
calls_child(const fw *w, const xf_routine *h, const xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++)
        for (uint32_t j = 0; j < g->v.v[i]->stmts.n; j++) {
            const xf_stmt *st = g->v.v[i]->stmts.v[j];
            const xf_routine *c = st->kind == XF_STMT_CALL && st->u.call.sym
                                      ? fw_routine_of(w, st->u.call.sym)
                                      : NULL;
            if (c && c->cfg_scope && c->cfg_scope->parent == h->cfg_scope)
                return true;
        }
    return false;
}

/* Is @h a host: does its code call one of the routines of its scope? The
 * front end's stand-in for a module (a routine without code in a program,
 * with empty placeholders in an adjoint) calls none of its procedures. */
static bool
is_host(const fw *w, const xf_routine *h)
{
    if (!h->is_rlist)
        return calls_child(w, h, &h->g);
    for (uint32_t i = 0; i < h->reps.n; i++)
        if (calls_child(w, h, &h->reps.v[i]->g))
            return true;
    return false;
}

const xf_routine *
fw_host_of(const fw *w, const xf_routine *r)
{
    return w->host && r->index < w->doc->cg.routines.n ? w->host[r->index] : NULL;
}

bool
fw_host_reaches(const fw *w, const xf_symbol *s)
{
    const xf_routine *h = w->cur ? fw_host_of(w, w->cur) : NULL;
    return h && s->scope == h->cfg_scope;
}

bool
fw_host_var(const fw *w, const xf_symbol *s)
{
    for (uint32_t i = 0; s && w->host && i < w->doc->cg.routines.n; i++)
        if (w->host[i] && w->host[i]->cfg_scope == s->scope)
            return true;
    return false;
}

/* Is @name a name of a symbol of @sc (or of its derivative)? */
static bool
in_scope(const fw *w, const xf_scope *sc, const char *name)
{
    for (uint32_t j = 0; sc && j < sc->syms.n; j++) {
        const fw_sym *c = &w->syms[sc->syms.v[j]->index];
        if ((c->name && !strcmp(c->name, name)) || (c->dname && !strcmp(c->dname, name)))
            return true;
    }
    return false;
}

/* Is @name free for a local of @r, internal to @h: no global's, no routine's,
 * no name of either scope? */
static bool
free_name(const fw *w, const xf_routine *r, const xf_routine *h, const char *name)
{
    if (in_scope(w, r->cfg_scope, name) || in_scope(w, h->cfg_scope, name))
        return false;
    for (uint32_t i = 0; i < w->doc->nsymbols; i++)
        if (w->syms[i].global && ((w->syms[i].name && !strcmp(w->syms[i].name, name)) ||
                                  (w->syms[i].dname && !strcmp(w->syms[i].dname, name))))
            return false;
    size_t n = strlen(name);
    for (uint32_t i = 0; i < w->doc->cg.routines.n; i++) {
        const char *rn = w->rname[i];
        if (rn && (!strcmp(rn, name) ||
                   (!strncmp(rn, name, strlen(rn)) && !strcmp(name + strlen(rn), "_tpl"))))
            return false;
    }
    return n < 64;
}

/* Give *@name (a local of @r, internal to @h) a name none of @h's is. */
static bool
rename_local(fw *w, const xf_routine *r, const xf_routine *h, const char **name)
{
    if (!*name || !in_scope(w, h->cfg_scope, *name))
        return true;
    char buf[80];
    for (int k = 2; k < 100000; k++) {
        snprintf(buf, sizeof buf, "%.56s_%d", *name, k);
        if (free_name(w, r, h, buf)) {
            char *s = strdup(buf);
            if (!s)
                return false;
            free((char *)*name);
            *name = s;
            return true;
        }
    }
    return false;
}

bool
fw_hosts(fw *w)
{
    uint32_t n = w->doc->cg.routines.n;
    w->host = calloc((size_t)n + 1, sizeof *w->host);
    if (!w->host) {
        fw_refuse(w, 0, "out of memory");
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        const xf_routine *r = w->doc->cg.routines.v[i];
        const xf_routine *h = w->hascode[i] ? parent_of(w, r) : NULL;
        w->host[i] = h && is_host(w, h) ? h : NULL;
    }
    for (uint32_t i = 0; i < n && !w->failed; i++) {
        const xf_routine *r = w->doc->cg.routines.v[i];
        const xf_routine *h = w->host[i];
        if (!h)
            continue;
        const char *id = r->sym ? r->sym->id : "?";
        if (fw_host_of(w, h)) {
            fw_refuse(w, r->h.line,
                      "%s is internal to %s, itself an internal procedure (Fortran allows one "
                      "level)",
                      id, h->sym ? h->sym->id : "a routine");
            return false;
        }
        const xf_scope *sc = r->cfg_scope;
        for (uint32_t j = 0; j < sc->syms.n; j++) {
            fw_sym *c = &w->syms[sc->syms.v[j]->index];
            if (c->global)
                continue;
            if (!rename_local(w, r, h, &c->name) || !rename_local(w, r, h, &c->dname)) {
                fw_refuse(w, r->h.line, "out of memory");
                return false;
            }
        }
    }
    return !w->failed;
}

char *
fw_contained(fw *w, const xf_routine *host)
{
    bool any = false;
    for (uint32_t i = 0; i < w->doc->cg.routines.n && !any; i++)
        any = w->hascode[i] && fw_host_of(w, w->doc->cg.routines.v[i]) == host;
    if (!any)
        return NULL;
    /* the host's own state, which writing another routine resets */
    const xf_symbol **z = w->z;
    int nz = w->nz, zcap = w->zcap;
    bool need_c = w->need_c, need_sh = w->need_sh;
    FILE *o = w->o;
    w->z = NULL;
    w->zcap = 0;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        fw_refuse(w, host->h.line, "out of memory");
    for (uint32_t i = 0; m && i < w->doc->cg.routines.n && !w->failed; i++)
        if (w->hascode[i] && fw_host_of(w, w->doc->cg.routines.v[i]) == host)
            fw_routine(w, m, w->doc->cg.routines.v[i]);
    if (m)
        fclose(m);
    free(w->z);
    w->z = z;
    w->nz = nz;
    w->zcap = zcap;
    w->need_c = need_c;
    w->need_sh = need_sh;
    w->o = o;
    w->cur = host;
    return text;
}
