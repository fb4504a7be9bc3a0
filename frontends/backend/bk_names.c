/* bk_names.c: collision-free names for the back ends (bk_names.h). A name is the
 * symbol's id without the front end's numeric suffix (head__24 -> head,
 * X_1 -> X) when that is free, else the whole id made an identifier. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bk_names.h"

/* ------------------------------------------------------------ a name set */

typedef struct nset {
    char **k;
    size_t n, cap; /* cap: 0 or a power of two */
} nset;

static uint64_t
hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static bool
nset_has(const nset *s, const char *name)
{
    if (!s->cap)
        return false;
    for (size_t i = hash(name) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
        if (!s->k[i])
            return false;
        if (!strcmp(s->k[i], name))
            return true;
    }
}

/* Add a copy of @name; false when out of memory. */
static bool
nset_add(nset *s, const char *name)
{
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        char **k = calloc(cap, sizeof *k);
        if (!k)
            return false;
        for (size_t j = 0; j < s->cap; j++) {
            if (!s->k[j])
                continue;
            size_t i = hash(s->k[j]) & (cap - 1);
            while (k[i])
                i = (i + 1) & (cap - 1);
            k[i] = s->k[j];
        }
        free(s->k);
        s->k = k;
        s->cap = cap;
    }
    size_t i = hash(name) & (s->cap - 1);
    while (s->k[i])
        i = (i + 1) & (s->cap - 1);
    if (!(s->k[i] = strdup(name)))
        return false;
    s->n++;
    return true;
}

static void
nset_free(nset *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->k[i]);
    free(s->k);
}

/* ------------------------------------------------------------ naming */

/* The naming of one document. */
typedef struct nm {
    const xf_doc *doc;
    const bool *hascode;
    xf_bk_mode mode;
    const xf_bk_rules *rules;
    xf_bk_symname *syms;
} nm;

/* @id made an identifier by @r; @strip: without its numeric suffix. */
static char *
ident(const xf_bk_rules *r, const char *id, bool strip)
{
    size_t n = strlen(id);
    if (strip) {
        size_t e = n;
        while (e > 0 && isdigit((unsigned char)id[e - 1]))
            e--;
        if (e < n && e > 0 && id[e - 1] == '_') {
            e--;
            while (e > 0 && id[e - 1] == '_')
                e--;
            if (e > 0)
                n = e;
        }
    }
    if (r->max_len && n > r->max_len)
        n = r->max_len;
    char *s = malloc(n + 3);
    if (!s)
        return NULL;
    size_t j = 0;
    if (r->letter_first ? n == 0 || !isalpha((unsigned char)id[0])
                        : n == 0 || isdigit((unsigned char)id[0]) || id[0] == '.' || id[0] == '_')
        s[j++] = 'v';
    for (size_t i = 0; i < n; i++) {
        char c = isalnum((unsigned char)id[i]) || id[i] == '_' ? id[i] : '_';
        s[j++] = r->fold_lower ? (char)tolower((unsigned char)c) : c;
    }
    s[j] = 0;
    return s;
}

static bool
taken(const nset *g, const nset *l, const char *s)
{
    return nset_has(g, s) || (l && nset_has(l, s)) || !strncmp(s, "xf_", 3) ||
           !strncmp(s, "XF_", 3);
}

/* A free name for @id (+ @suffix), entered in @into. NULL: out of memory. */
static char *
fresh(const xf_bk_rules *r, const nset *g, nset *l, nset *into, const char *id, const char *suffix)
{
    for (int strip = 1; strip >= 0; strip--) {
        char *b = ident(r, id, strip);
        if (!b)
            return NULL;
        char *s = malloc(strlen(b) + strlen(suffix) + 24);
        if (!s) {
            free(b);
            return NULL;
        }
        for (int k = 1; k < 1000000; k++) {
            if (k == 1)
                sprintf(s, "%s%s", b, suffix);
            else if (strip)
                break; /* the whole id before numbering */
            else
                sprintf(s, "%s%s_%d", b, suffix, k);
            if (!taken(g, l, s)) {
                free(b);
                if (!nset_add(into, s)) {
                    free(s);
                    return NULL;
                }
                return s;
            }
        }
        free(b);
        free(s);
    }
    return NULL;
}

/* The derivative's name of variable @base: xd / xb, else x_d, x_d_2... */
static char *
fresh_deriv(const nset *g, nset *l, nset *into, const char *base, char letter)
{
    char suf[3] = {letter, 0, 0};
    char *s = malloc(strlen(base) + 24);
    if (!s)
        return NULL;
    for (int k = 0; k < 1000000; k++) {
        if (k == 0)
            sprintf(s, "%s%s", base, suf);
        else if (k == 1)
            sprintf(s, "%s_%c", base, letter);
        else
            sprintf(s, "%s_%c%d", base, letter, k);
        if (!taken(g, l, s)) {
            if (!nset_add(into, s))
                break;
            return s;
        }
    }
    free(s);
    return NULL;
}

bool
xf_bk_has_deriv(xf_bk_mode mode, const xf_symbol *s)
{
    return mode != XF_BK_PLAIN && s->kind == XF_SYMKIND_VARIABLE &&
           (s->type == XF_TYPE_REAL || s->type == XF_TYPE_DOUBLE) && xf_flag_is(s->active, true);
}

static bool
is_local_scope(const nm *w, const xf_scope *sc)
{
    for (uint32_t i = 0; i < w->doc->cg.routines.n; i++)
        if (w->hascode[i] && w->doc->cg.routines.v[i]->cfg_scope == sc)
            return true;
    return false;
}

/* The storage key of a global @s (common-block members and module
 * variables: one symbol per routine that uses them, G_29 and G_35 for g of
 * /cb/, share one variable named by the id without its trailing _<digits>;
 * generated symbols keep their own), into @buf; false: none. */
static bool
common_key(const xf_symbol *s, char *buf, size_t len)
{
    if (xf_flag_is(s->temp, false) || strncmp(s->id, "OpenAD_", 7) == 0)
        return false;
    size_t n = strlen(s->id), k = n;
    while (k > 0 && isdigit((unsigned char)s->id[k - 1]))
        k--;
    if (k == n || k < 2 || s->id[k - 1] != '_' || k - 1 >= len)
        return false;
    memcpy(buf, s->id, k - 1);
    buf[k - 1] = 0;
    return true;
}

/* An earlier global of the root scope with @s's key, type, shape and bounds. */
static const xf_symbol *
common_partner(const xf_scope *sc, uint32_t upto, const xf_symbol *s)
{
    char a[256], b[256];
    if (sc->parent || !common_key(s, a, sizeof a))
        return NULL;
    for (uint32_t j = 0; j < upto; j++) {
        const xf_symbol *t = sc->syms.v[j];
        if (t->kind != XF_SYMKIND_VARIABLE || !common_key(t, b, sizeof b) || strcmp(a, b) ||
            t->type != s->type || t->shape != s->shape || t->dims.n != s->dims.n ||
            xf_flag_is(t->active, true) != xf_flag_is(s->active, true))
            continue;
        bool same = true;
        for (uint32_t k = 0; k < t->dims.n; k++)
            same = same && t->dims.v[k].lower == s->dims.v[k].lower &&
                   t->dims.v[k].upper == s->dims.v[k].upper;
        if (same)
            return t;
    }
    return NULL;
}

/* The short name of a temporary the transforms made (rules->short_temps),
 * by what it holds; NULL: @id is not one. ORDER: longest prefix first. */
static const char *
temp_stem(const char *id)
{
    static const char *const map[][2] = {
        {"OpenAD_Symbol", "k"},  {"OpenAD_aux", "t"},   {"OpenAD_lin", "d"},
        {"OpenAD_acc", "p"},     {"OpenAD_prp", "dt"},  {"OpenAD_tyc", "tc"},
        {"OpenAD_snap", "snap"}, {"OpenAD_tbr", "tbr"}, {"OpenAD_", "tmp"},
        {"OAD_RES", "res"},      {"OAD_CTMP", "ctmp"},  {"OAD_SEL", "sel"},
        {"OAD_", "tmp"}};
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (!strncmp(id, map[k][0], strlen(map[k][0])))
            return map[k][1];
    return NULL;
}

/* A free name @stem1, @stem2, ... entered in @into. */
static char *
fresh_temp(const nset *g, nset *l, nset *into, const char *stem)
{
    char *s = malloc(strlen(stem) + 24);
    for (int k = 1; s && k < 1000000; k++) {
        sprintf(s, "%s%d", stem, k);
        if (!taken(g, l, s)) {
            if (!nset_add(into, s))
                break;
            return s;
        }
    }
    free(s);
    return NULL;
}

static bool
name_scope(nm *w, const nset *g, nset *l, nset *into, const xf_scope *sc)
{
    char letter = w->mode == XF_BK_ADJOINT ? 'b' : 'd';
    /* pass 0: the routine's own variables; 1: the transforms' temporaries */
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < sc->syms.n; j++) {
            const xf_symbol *s = sc->syms.v[j];
            if (s->kind != XF_SYMKIND_VARIABLE)
                continue;
            const char *stem = w->rules->short_temps && l ? temp_stem(s->id) : NULL;
            if ((stem != NULL) != (pass == 1))
                continue;
            xf_bk_symname *c = &w->syms[s->index];
            if (stem) {
                if (!(c->name = fresh_temp(g, l, into, stem)))
                    return false;
                if (xf_bk_has_deriv(w->mode, s) &&
                    !(c->dname = fresh_deriv(g, l, into, c->name, letter)))
                    return false;
                continue;
            }
            const xf_symbol *p = l ? NULL : common_partner(sc, j, s);
            if (p) {
                const xf_bk_symname *pc = &w->syms[p->index];
                c->same = p->index + 1;
                if (!(c->name = strdup(pc->name)) || (pc->dname && !(c->dname = strdup(pc->dname))))
                    return false;
                continue;
            }
            if (!(c->name = fresh(w->rules, g, l, into, s->id, "")))
                return false;
            if (xf_bk_has_deriv(w->mode, s) &&
                !(c->dname = fresh_deriv(g, l, into, c->name, letter)))
                return false;
        }
    return true;
}

bool
xf_bk_names(const xf_doc *doc, const bool *hascode, xf_bk_mode mode, const xf_bk_rules *rules,
            xf_bk_symname *syms, char **rname, const xf_routine **clash)
{
    nm nw = {doc, hascode, mode, rules, syms}, *w = &nw;
    const xf_callgraph *cg = &w->doc->cg;
    bool ok = false;
    nset g = {0}, l = {0};
    for (size_t i = 0; i < rules->nreserved; i++)
        if (!nset_add(&g, rules->reserved[i]))
            goto out;
    const char *suffix = mode == XF_BK_TANGENT ? "_d" : mode == XF_BK_ADJOINT ? "_b" : "";
    for (uint32_t i = 0; i < cg->routines.n; i++) {
        const xf_routine *r = cg->routines.v[i];
        if (!w->hascode[i] || !r->sym)
            continue;
        if (!(rname[i] = fresh(rules, &g, NULL, &g, r->sym->id, suffix)))
            goto out;
        if (mode == XF_BK_ADJOINT) { /* the template the calls go through */
            char *t = malloc(strlen(rname[i]) + 8);
            if (!t)
                goto out;
            sprintf(t, "%s_tpl", rname[i]);
            bool dup = taken(&g, NULL, t);
            if (!dup && !nset_add(&g, t)) {
                free(t);
                goto out;
            }
            free(t);
            if (dup) {
                *clash = r;
                goto out;
            }
        }
    }
    /* globals: every scope that is no routine's own */
    for (uint32_t i = 0; i < cg->scopes.v.n; i++) {
        const xf_scope *sc = cg->scopes.v.v[i];
        if (is_local_scope(w, sc))
            continue;
        if (!name_scope(w, &g, NULL, &g, sc))
            goto out;
        for (uint32_t j = 0; j < sc->syms.n; j++)
            w->syms[sc->syms.v[j]->index].global = true;
    }
    for (uint32_t i = 0; i < cg->routines.n; i++) {
        const xf_routine *r = cg->routines.v[i];
        if (!w->hascode[i] || !r->cfg_scope)
            continue;
        nset_free(&l);
        memset(&l, 0, sizeof l);
        if (!name_scope(w, &g, &l, &l, r->cfg_scope))
            goto out;
    }
    ok = true;
out:
    nset_free(&g);
    nset_free(&l);
    return ok;
}
