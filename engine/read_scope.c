/* read_scope.c: the scope hierarchy with its symbol tables, and the alias,
 * DU/UD and DO maps of the call graph. */
#include "read_impl.h"

/* DimensionBounds: empty */
static int
read_bounds(rd *d, xf_symbol *sym)
{
    xf_dimbounds b = {0};
    b.h.line = d->line;
    if (rd_attrs(d, XF_AL_DIMBOUNDS, &b, &b.h, NULL) || rd_empty_elem(d, &b.h))
        return -1;
    return XF_VEC_PUSH(d->a, sym->dims, b) ? 0 : rd_oom(d);
}

/* Symbol: DimensionBounds* */
static int
read_symbol(rd *d, xf_scope *sc)
{
    xf_symbol *s = XF_NEW(d->a, xf_symbol);
    if (!s)
        return rd_oom(d);
    s->scope = sc;
    s->index = d->doc->nsymbols++;
    if (rd_attrs(d, XF_AL_SYMBOL, s, &s->h, NULL))
        return -1;
    int ret;
    rdpar p;
    rd_start(d, &p, &s->h);
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != XF_EL_DIMENSIONBOUNDS)
            return rd_unexpected(d, &p);
        if (read_bounds(d, s))
            return -1;
    }
    if (ret < 0)
        return -1;
    void *old;
    if (!xf_map_put(&sc->symmap, d->a, s->id, s, &old) || !XF_VEC_PUSH(d->a, sc->syms, s))
        return rd_oom(d);
    if (old) {
        if (rd_soft(d, s->h.line, "symbol '%s' is declared twice in scope %s", s->id,
                    sc->id ? sc->id : "?"))
            return -1;
        xf_map_put(&sc->symmap, d->a, s->id, old, NULL);
    }
    return 0;
}

/* Scope: SymbolTable;  SymbolTable: Symbol* */
static int
read_scope(rd *d, xf_scopes *ss, uint32_t seq)
{
    xf_scope *sc = XF_NEW(d->a, xf_scope);
    if (!sc || !XF_VEC_PUSH(d->a, ss->v, sc))
        return rd_oom(d);
    sc->seq = seq;
    sc->index = d->doc->nscopes++;
    if (rd_attrs(d, XF_AL_SCOPE, sc, &sc->h, NULL))
        return -1;
    int ret;
    void *old;
    if (!xf_map_put(&ss->map, d->a, sc->id, sc, &old))
        return rd_oom(d);
    if (old) {
        if (rd_soft(d, d->line, "two scopes with vertex_id '%s'", sc->id))
            return -1;
        xf_map_put(&ss->map, d->a, sc->id, old, NULL);
    }
    rdpar p, q;
    rd_start(d, &p, &sc->h);
    bool table = false;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != XF_EL_SYMBOLTABLE)
            return rd_unexpected(d, &p);
        if (table)
            return rd_err(d, d->line, "scope %s has a second <SymbolTable>", sc->id);
        table = true;
        if (rd_plain_attrs(d, &sc->symtab))
            return -1;
        rd_start(d, &q, &sc->symtab);
        while ((ret = rd_child(d, &q)) > 0) {
            if (d->el != XF_EL_SYMBOL)
                return rd_unexpected(d, &q);
            if (read_symbol(d, sc))
                return -1;
        }
        if (ret < 0)
            return -1;
    }
    if (ret < 0)
        return -1;
    if (!table)
        return rd_err(d, sc->h.line, "scope %s has no <SymbolTable>", sc->id);
    return 0;
}

/* ScopeHierarchy: (Scope | ScopeEdge)* */
int
rd_scopes(rd *d, xf_scopes *ss)
{
    if (rd_plain_attrs(d, &ss->h))
        return -1;
    rdpar p;
    rd_start(d, &p, &ss->h);
    uint32_t base = d->pend.n;
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el == XF_EL_SCOPE) {
            if (read_scope(d, ss, p.nkids))
                return -1;
            continue;
        }
        if (d->el != XF_EL_SCOPEEDGE)
            return rd_unexpected(d, &p);
        xf_scope_edge e = {.seq = p.nkids};
        xf_refids r;
        e.h.line = d->line;
        if (rd_attrs(d, XF_AL_SCOPEEDGE, &e, &e.h, &r) || rd_empty_elem(d, &e.h))
            return -1;
        const char *src = r.id[XF_REF_SOURCE], *tgt = r.id[XF_REF_TARGET];
        if (!XF_VEC_PUSH(d->a, ss->e, e) || rd_push_pend(d, src, tgt, e.h.line))
            return rd_oom(d);
    }
    if (ret < 0)
        return -1;
    /* scopes may follow their edges: resolve now */
    for (uint32_t i = 0; i < ss->e.n; i++) {
        xf_scope_edge *e = &ss->e.v[i];
        const rdpend *pe = &d->pend.v[base + i];
        e->src = xf_map_get(&ss->map, pe->src);
        e->tgt = xf_map_get(&ss->map, pe->tgt);
        if (!e->src || !e->tgt) {
            if (rd_soft(d, pe->line, "dangling reference: scope edge '%s' %s '%s' is no scope",
                        e->id ? e->id : "", e->src ? "target" : "source",
                        e->src ? pe->tgt : pe->src) ||
                rd_keep_named(d, &e->h, xf_aname_text(XF_AN_SOURCE), pe->src) ||
                rd_keep_named(d, &e->h, xf_aname_text(XF_AN_TARGET), pe->tgt))
                return -1;
            e->src = e->tgt = NULL;
            continue;
        }
        if (e->src->parent && e->src->parent != e->tgt)
            return rd_err(d, pe->line, "scope %s has two parents", e->src->id);
        e->src->parent = e->tgt;
    }
    d->pend.n = base;
    for (uint32_t i = 0; i < ss->v.n; i++) {
        /* a cycle would make every walk to the root loop */
        uint32_t steps = 0;
        for (xf_scope *s = ss->v.v[i]; s; s = s->parent)
            if (++steps > ss->v.n)
                return rd_err(d, ss->v.v[i]->h.line,
                              "the scope edges form a cycle through scope %s", ss->v.v[i]->id);
    }
    return 0;
}

int
rd_resolve_symbol(rd *d, xf_hdr *h, const char *scope_id, const char *symbol_id, xf_scope **scope,
                  xf_symbol **sym)
{
    uint32_t line = d->line;
    *scope = NULL;
    *sym = NULL;
    if (!scope_id || !symbol_id)
        return rd_err(d, line, "<%s> needs a scope_id and a symbol_id", xf_elem_name(d->el));
    xf_scope *sc = xf_scope_find(d->doc, scope_id);
    xf_symbol *s = sc ? xf_symbol_find(sc, symbol_id) : NULL;
    if (!s) {
        int ret = sc ? rd_soft(d, line, "dangling reference: no symbol '%s' in scope %s", symbol_id,
                               scope_id)
                     : rd_soft(d, line, "dangling reference: no scope '%s' (symbol '%s')", scope_id,
                               symbol_id);
        if (ret || rd_keep_named(d, h, xf_aname_text(XF_AN_SCOPE_ID), scope_id) ||
            rd_keep_named(d, h, xf_aname_text(XF_AN_SYMBOL_ID), symbol_id))
            return -1;
        return 0;
    }
    *scope = sc;
    *sym = s;
    return 0;
}

int
rd_resolve_scope(rd *d, xf_hdr *h, const char *attr, const char *scope_id, xf_scope **scope)
{
    *scope = scope_id ? xf_scope_find(d->doc, scope_id) : NULL;
    if (*scope || !scope_id)
        return 0;
    if (rd_soft(d, d->line, "dangling reference: no scope '%s'", scope_id))
        return -1;
    return rd_keep_named(d, h, attr, scope_id);
}

/* AliasSetMap / AliasSetList: AliasSet*;  AliasSet: AliasRange* */
int
rd_alias_map(rd *d, xf_alias_map *m)
{
    m->present = true;
    m->list_form = d->el == XF_EL_ALIASSETLIST;
    if (rd_plain_attrs(d, &m->h))
        return -1;
    rdpar p, q;
    rd_start(d, &p, &m->h);
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != XF_EL_ALIASSET)
            return rd_unexpected(d, &p);
        xf_alias_set s = {0};
        if (rd_attrs(d, XF_AL_ALIASSET, &s, &s.h, NULL))
            return -1;
        rd_start(d, &q, &s.h);
        while ((ret = rd_child(d, &q)) > 0) {
            if (d->el != XF_EL_ALIASRANGE)
                return rd_unexpected(d, &q);
            xf_alias_range r = {0};
            r.h.line = d->line;
            if (rd_attrs(d, XF_AL_ALIASRANGE, &r, &r.h, NULL) || rd_empty_elem(d, &r.h))
                return -1;
            if (!XF_VEC_PUSH(d->a, s.r, r))
                return rd_oom(d);
        }
        if (ret < 0)
            return -1;
        if (!XF_VEC_PUSH(d->a, m->sets, s))
            return rd_oom(d);
    }
    return ret;
}

/* DUUDSetMap, DOSetMap: StmtIdSet*;  DUUDSetList: DUUDSet*;  each set: StatementId* */
int
rd_stmtid_map(rd *d, xf_stmtid_map *m)
{
    m->present = true;
    m->list_form = d->el == XF_EL_DUUDSETLIST;
    xf_elem want = m->list_form ? XF_EL_DUUDSET : XF_EL_STMTIDSET;
    if (rd_plain_attrs(d, &m->h))
        return -1;
    rdpar p, q;
    rd_start(d, &p, &m->h);
    int ret;
    while ((ret = rd_child(d, &p)) > 0) {
        if (d->el != want)
            return rd_unexpected(d, &p);
        xf_stmtid_set s = {0};
        if (rd_attrs(d, XF_AL_STMTIDSET, &s, &s.h, NULL))
            return -1;
        rd_start(d, &q, &s.h);
        while ((ret = rd_child(d, &q)) > 0) {
            if (d->el != XF_EL_STATEMENTID)
                return rd_unexpected(d, &q);
            xf_stmtid id = {0};
            id.h.line = d->line;
            if (rd_attrs(d, XF_AL_STMTID, &id, &id.h, NULL) || rd_empty_elem(d, &id.h))
                return -1;
            if (!XF_VEC_PUSH(d->a, s.ids, id))
                return rd_oom(d);
        }
        if (ret < 0)
            return -1;
        if (!XF_VEC_PUSH(d->a, m->sets, s))
            return rd_oom(d);
    }
    return ret;
}
