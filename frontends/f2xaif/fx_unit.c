/* fx_unit.c: the plugin's description read into units, one token vector a
 * line, and each unit's "s" records into the C front end's symbols (module
 * and COMMON variables shared in scope 1). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fx.h"

_Noreturn __attribute__((format(printf, 2, 3))) void
fx_refuse(fx *x, const char *fmt, ...)
{
    fprintf(x->c.err, "%s:%u:%u: error: ", x->file ? x->file : "?", x->line, x->col);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(x->c.err, fmt, ap);
    va_end(ap);
    fputc('\n', x->c.err);
    x->c.status = 1;
    longjmp(x->c.fail, 1);
}

/* ---------------------------------------------------------- reading */

void
fx_split_lines(fx *x, const char *file, char *text)
{
    fx_unit *u = NULL;
    for (char *p = text; p && *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        fx_line l = {0};
        for (char *t = strtok(p, " "); t; t = strtok(NULL, " ")) {
            char **nt = cf_alloc(&x->c, ((size_t)l.n + 1) * sizeof *nt);
            if (l.n)
                memcpy(nt, l.tok, (size_t)l.n * sizeof *nt);
            nt[l.n++] = t;
            l.tok = nt;
        }
        p = nl ? nl + 1 : NULL;
        if (!l.n)
            continue;
        if (strcmp(l.tok[0], "unit") == 0 && l.n >= 5) {
            fx_unit nu = {.kind = l.tok[1],
                          .name = l.tok[2],
                          .file = file,
                          .line = (unsigned)atoi(l.tok[3]),
                          .col = (unsigned)atoi(l.tok[4])};
            if (!XF_VEC_PUSH(x->c.a, x->units, nu))
                cf_oom(&x->c);
            u = &x->units.v[x->units.n - 1];
            continue;
        }
        if (!u)
            continue;
        if (strcmp(l.tok[0], "end") == 0 && l.n == 1) {
            u = NULL;
            continue;
        }
        /* the unit array may move: lines are kept per unit by index */
        fx_line *nl2 = cf_alloc(&x->c, ((size_t)u->nlines + 1) * sizeof *nl2);
        if (u->nlines)
            memcpy(nl2, u->lines, u->nlines * sizeof *nl2);
        nl2[u->nlines++] = l;
        u->lines = nl2;
    }
}

fx_unit *
fx_find_unit(fx *x, const char *name, bool procedure)
{
    for (uint32_t i = 0; i < x->units.n; i++)
        if (strcmp(x->units.v[i].name, name) == 0 &&
            (!procedure || strcmp(x->units.v[i].kind, "sub") == 0 ||
             strcmp(x->units.v[i].kind, "fun") == 0))
            return &x->units.v[i];
    return NULL;
}

/* ---------------------------------------------------------- symbols */

static bool
type_of(const fx_sym *s, cf_type *t)
{
    if (strcmp(s->cat, "real") == 0) {
        *t = s->kind == 4 ? CF_FLOAT : CF_DOUBLE;
        return s->kind == 4 || s->kind == 8;
    }
    *t = CF_INT;
    return strcmp(s->cat, "integer") == 0 || strcmp(s->cat, "logical") == 0;
}

static cf_sym *
new_sym(fx *x, const fx_sym *s, cf_type t)
{
    cf_sym *n = cf_alloc(&x->c, sizeof *n);
    n->name = s->name;
    n->type = t;
    n->logical = strcmp(s->cat, "logical") == 0;
    n->rank = s->rank;
    for (int k = 0; k < s->rank; k++) { /* C order: Fortran's last dimension first */
        n->dims[k] = s->ub[s->rank - 1 - k] - s->lb[s->rank - 1 - k] + 1;
        n->lower[k] = s->lb[s->rank - 1 - k];
    }
    return n;
}

/* An integer literal (maybe negated) from token *@k of @l into *@v. */
static bool
int_literal(const fx_line *l, int *k, int64_t *v)
{
    int sign = 1;
    if (*k + 3 < l->n && !strcmp(l->tok[*k], "o") && !strcmp(l->tok[*k + 1], "neg")) {
        sign = -1;
        *k += 3;
    }
    if (*k + 1 >= l->n || strcmp(l->tok[*k], "i") != 0)
        return false;
    *v = sign * atoll(l->tok[*k + 1]);
    *k += 2;
    return true;
}

/* Whether every ALLOCATE of @s in @u gives the same constant bounds (into
 * @s's lb and ub), and there is one. */
static bool
alloc_bounds(const fx_unit *u, fx_sym *s)
{
    int found = 0;
    for (uint32_t i = 0; i < u->nlines; i++) {
        const fx_line *l = &u->lines[i];
        if (strcmp(l->tok[0], "alloc") != 0 || l->n < 5 || strcmp(l->tok[3], s->name) != 0)
            continue;
        if (atoi(l->tok[4]) != s->rank)
            return false;
        int k = 5;
        for (int d = 0; d < s->rank; d++) {
            int64_t lo = 1, hi;
            if (k < l->n && !strcmp(l->tok[k], "-"))
                k++;
            else if (!int_literal(l, &k, &lo))
                return false;
            if (!int_literal(l, &k, &hi))
                return false;
            if (found && (lo != s->lb[d] || hi != s->ub[d]))
                return false;
            s->lb[d] = lo;
            s->ub[d] = hi;
        }
        found++;
    }
    return found > 0;
}

/* Read the "s" records of @u into its table, making the symbols of @f. */
void
fx_declare(fx *x, fx_unit *u, cf_fn *f)
{
    u->syms = cf_alloc(&x->c, (u->nlines + 1) * sizeof *u->syms);
    cf_sym *result = NULL;
    XF_VEC(cf_sym *) formals = {0};
    int ndummy = 0;
    for (uint32_t i = 0; i < u->nlines; i++) {
        fx_line *l = &u->lines[i];
        if (strcmp(l->tok[0], "s") != 0)
            continue;
        if (l->n < 5)
            continue;
        fx_sym *s = &u->syms[u->nsyms++];
        s->name = l->tok[1];
        s->cat = l->tok[2];
        s->kind = atoi(l->tok[3]);
        s->rank = atoi(l->tok[4]);
        int k = 5;
        s->fixed = s->rank <= CF_MAXRANK && l->n >= k + 2 * s->rank + 5;
        for (int d = 0; s->fixed && d < s->rank; d++) {
            const char *lo = l->tok[k + 2 * d], *hi = l->tok[k + 2 * d + 1];
            if (*lo == '?' || *hi == '?')
                s->fixed = false;
            s->lb[d] = atoll(lo);
            s->ub[d] = atoll(hi);
        }
        if (l->n < k + 2 * s->rank + 5)
            continue;
        k += 2 * s->rank;
        s->dummy = atoi(l->tok[k + 1]);
        const char *owner = l->tok[k + 2];
        s->param = strcmp(l->tok[k + 3], "-") ? l->tok[k + 3] : NULL;
        s->attrs = l->tok[k + 4];
        if (f && !s->fixed && s->rank <= CF_MAXRANK && s->dummy == 0 && !strcmp(owner, "-") &&
            strstr(s->attrs, "allocatable") && !strstr(s->attrs, "save"))
            s->alloc = s->fixed = alloc_bounds(u, s);
        if (s->dummy > ndummy)
            ndummy = s->dummy;
        cf_type t;
        /* an array argument of bounds the caller gives (x(n), x(*)): without bounds */
        bool open = !s->fixed && s->dummy > 0 && s->rank > 0 && s->rank <= CF_MAXRANK &&
                    !strcmp(s->attrs, "-");
        if (!type_of(s, &t) || (!s->fixed && !open) || s->param)
            continue;
        bool common = strncmp(owner, "common:", 7) == 0;
        if (strncmp(owner, "module:", 7) == 0 || common) {
            /* a module's variable, or a COMMON block's (by its name in this routine) */
            const char *gname = common ? NULL : strchr(owner + 7, ':');
            gname = gname ? gname + 1 : s->name;
            for (uint32_t g = 0; g < x->c.globals.n && !s->sym; g++)
                if (strcmp(x->c.globals.v[g]->name, gname) == 0)
                    s->sym = x->c.globals.v[g];
            if (!s->sym) {
                s->sym = new_sym(x, s, t);
                s->sym->name = gname;
                s->sym->global = true;
                if (!XF_VEC_PUSH(x->c.a, x->c.globals, s->sym))
                    cf_oom(&x->c);
            }
            continue;
        }
        if (!f)
            continue; /* a module's own variables: made where a routine uses them */
        s->sym = new_sym(x, s, t);
        if (open) {
            s->sym->nobounds = true;
            memset(s->sym->dims, 0, sizeof s->sym->dims);
            memset(s->sym->lower, 0, sizeof s->sym->lower);
            s->fixed = true;
        }
        if (!XF_VEC_PUSH(x->c.a, f->syms, s->sym))
            cf_oom(&x->c);
        if (s->dummy > 0) {
            s->sym->formal = s->dummy;
            while (formals.n < (uint32_t)s->dummy)
                if (!XF_VEC_PUSH(x->c.a, formals, NULL))
                    cf_oom(&x->c);
            formals.v[s->dummy - 1] = s->sym;
        } else if (s->dummy < 0)
            result = s->sym;
    }
    if (!f)
        return;
    while (formals.n < (uint32_t)ndummy)
        if (!XF_VEC_PUSH(x->c.a, formals, NULL))
            cf_oom(&x->c);
    for (uint32_t i = 0; i < formals.n; i++) {
        if (!formals.v[i]) {
            x->file = u->file;
            x->line = u->line;
            x->col = u->col;
            for (int k = 0; k < u->nsyms; k++)
                if (u->syms[k].dummy == (int)i + 1)
                    fx_refuse(x, "argument '%s' of '%s' (%s %d%s) is not supported",
                              u->syms[k].name, u->name, u->syms[k].cat, u->syms[k].kind,
                              u->syms[k].fixed ? "" : ", bounds that are not constant");
            fx_refuse(x, "argument %u of '%s' is not supported", i + 1, u->name);
        }
        if (!XF_VEC_PUSH(x->c.a, f->formals, formals.v[i]))
            cf_oom(&x->c);
    }
    if (result) {
        result->formal = (int)f->formals.n + 1;
        f->ret = result;
        if (!XF_VEC_PUSH(x->c.a, f->formals, result))
            cf_oom(&x->c);
    }
}

/* The routine of unit @u (made, with its symbols, on first use). */
cf_fn *
fx_fn_of(fx *x, fx_unit *u)
{
    if (u->fn)
        return u->fn;
    cf_fn *f = cf_alloc(&x->c, sizeof *f);
    f->name = u->name;
    f->line = u->line;
    f->index = x->c.fns.n;
    u->fn = f;
    if (!XF_VEC_PUSH(x->c.a, x->c.fns, f))
        cf_oom(&x->c);
    fx_declare(x, u, f);
    return f;
}

fx_sym *
fx_lookup(fx *x, const char *name)
{
    for (int k = 0; k < x->u->nsyms; k++)
        if (strcmp(x->u->syms[k].name, name) == 0)
            return &x->u->syms[k];
    fx_refuse(x, "'%s' is no variable the front end knows", name);
}
