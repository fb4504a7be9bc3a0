/* extent_flow.c: extents of helpers' pointer parameters through calls
 * (docs/c-frontend.md, "Sizes known at run time"). A pointer parameter p
 * passed on to a callee needs, from the element it passes on, as many
 * elements as the callee's parameter has: sqsum(3, rot), sqsum's x of
 * extent n, gives rot 3; dot(p, q, n), dot's a of extent n, gives p the
 * caller's own n. Each callee's extent is written over its own int
 * parameters; the call's actual arguments take their place, and an extent
 * that is then a constant is evaluated. Also --extent FUNC:PARAM=EXPR, an
 * extent given for any function's parameter. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cf.h"

void
cf_rt_pass(cf *c, cf_sym *p, int64_t off, cf_fn *callee, int k, cf_expr *const *vals)
{
    if (!p->ptr || p->rank != 1 || p->dims[0] != -1)
        return; /* its extent is given */
    cf_pass ps = {p, off, callee, k, vals};
    if (!XF_VEC_PUSH(c->a, c->passes, ps))
        cf_oom(c);
    p->pending = true;
}

/* ------------------------------------------------ constant extents */

typedef struct evl {
    const char *p;
    bool ok;
} evl;

static int64_t ev_sum(evl *e);

static void
ev_space(evl *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static int64_t
ev_atom(evl *e)
{
    ev_space(e);
    if (*e->p == '(') {
        e->p++;
        int64_t v = ev_sum(e);
        ev_space(e);
        if (*e->p != ')')
            e->ok = false;
        else
            e->p++;
        return v;
    }
    if (*e->p == '-' || *e->p == '+') {
        bool neg = *e->p++ == '-';
        int64_t v = ev_atom(e);
        return neg ? -v : v;
    }
    if (!isdigit((unsigned char)*e->p)) {
        e->ok = false;
        return 0;
    }
    char *end;
    long long v = strtoll(e->p, &end, 10);
    e->p = end;
    if (v > INT32_MAX)
        e->ok = false;
    return v;
}

static int64_t
ev_prod(evl *e)
{
    int64_t v = ev_atom(e);
    for (;;) {
        ev_space(e);
        char op = *e->p;
        if (op != '*' && op != '/' && op != '%')
            return v;
        e->p++;
        int64_t w = ev_atom(e);
        if (op != '*' && w == 0) {
            e->ok = false;
            return 0;
        }
        v = op == '*' ? v * w : op == '/' ? v / w : v % w;
        if (v > INT32_MAX || v < -INT32_MAX)
            e->ok = false;
    }
}

static int64_t
ev_sum(evl *e)
{
    int64_t v = ev_prod(e);
    for (;;) {
        ev_space(e);
        char op = *e->p;
        if (op != '+' && op != '-')
            return v;
        e->p++;
        int64_t w = ev_prod(e);
        v = op == '+' ? v + w : v - w;
        if (v > INT32_MAX || v < -INT32_MAX)
            e->ok = false;
    }
}

/* The value of the constant extent @text into *@v; false when it is none. */
static bool
eval(const char *text, int64_t *v)
{
    evl e = {text, true};
    *v = ev_sum(&e);
    ev_space(&e);
    return e.ok && !*e.p;
}

/* ------------------------------------------------ through calls */

/* The int formal of @f named @id (@len bytes): its position from 0, or -1. */
static int
int_formal(const cf_fn *f, const char *id, size_t len)
{
    for (uint32_t i = 0; i < f->formals.n; i++) {
        const cf_sym *s = f->formals.v[i];
        if (s->type == CF_INT && s->rank == 0 && strlen(s->name) == len &&
            !strncmp(s->name, id, len))
            return (int)i;
    }
    return -1;
}

/* What the call of @q asks of its pointer: the callee's extent with the
 * call's int arguments for its int parameters, plus the offset. Either a
 * constant (*@n, *@text NULL) or a text over the caller's int parameters;
 * false when the callee's extent is not known yet, or names an argument
 * that is no expression of the caller's int parameters. */
static bool
need_of(cf *c, const cf_pass *q, int64_t *n, const char **text)
{
    const cf_sym *f = q->callee->formals.v[q->k];
    *text = NULL;
    if (f->pending || f->rank != 1)
        return false;
    if (!f->dimx[0]) {
        if (f->dims[0] <= 0 || (f->ptr && !f->by_use))
            return false; /* sized by its calls (cf_extents): nothing to ask */
        *n = q->off + f->dims[0];
        return true;
    }
    char buf[1024];
    size_t len = 0;
    for (const char *t = f->dimx[0]; *t;) {
        const char *piece = t;
        size_t plen = 1;
        const char *sub = NULL;
        if (isalpha((unsigned char)*t) || *t == '_') {
            while (isalnum((unsigned char)t[plen]) || t[plen] == '_')
                plen++;
            int k = int_formal(q->callee, t, plen);
            if (k < 0 || !q->vals || !q->vals[k])
                return false;
            sub = cf_rt_expr_text(c, q->vals[k]);
            if (!sub)
                return false; /* a local, an element: not known at the caller's entry */
        } else if (isdigit((unsigned char)*t)) {
            while (isdigit((unsigned char)t[plen]))
                plen++;
        }
        t += plen;
        bool plain = sub && strspn(sub, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
                                        "0123456789") == strlen(sub);
        int w = sub ? snprintf(buf + len, sizeof buf - len, plain ? "%s" : "(%s)", sub)
                    : snprintf(buf + len, sizeof buf - len, "%.*s", (int)plen, piece);
        if (w < 0 || (size_t)w >= sizeof buf - len - 32)
            return false;
        len += (size_t)w;
    }
    int64_t v;
    if (eval(buf, &v)) {
        *n = q->off + v;
        return true;
    }
    if (q->off)
        snprintf(buf + len, sizeof buf - len, " + %lld", (long long)q->off);
    *text = cf_strdup(c, buf);
    return true;
}

/* A pointer parameter passed on to callees needs, of each, the offset plus
 * the callee's extent, and its own uses besides: the largest when all are
 * constants, the one text when all are texts over its int parameters.
 * Callees are walked after their callers, so this waits for all of them. */
void
cf_rt_settle(cf *c)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < c->passes.n; i++) {
            cf_sym *p = c->passes.v[i].p;
            if (!p->pending || p->use_bad)
                continue;
            int64_t need = p->use_max, calls = 0;
            const char *text = NULL;
            if (p->use_n) {
                text = cf_rt_expr_text(c, p->use_n);
                if (text && p->use_plus1) {
                    char *t = cf_alloc(c, strlen(text) + 8);
                    sprintf(t, "%s + 1", text);
                    text = t;
                }
            }
            bool ready = !p->use_n || text;
            for (uint32_t j = 0; j < c->passes.n && ready; j++) {
                const cf_pass *q = &c->passes.v[j];
                if (q->p != p)
                    continue;
                int64_t n = 0;
                const char *t = NULL;
                ready = need_of(c, q, &n, &t);
                if (ready && t) {
                    ready = !text || !strcmp(text, t);
                    text = t;
                } else if (ready && n > calls)
                    calls = n;
            }
            if (calls > need)
                need = calls;
            /* a text and constants: max(n, 3) is no extent the code can write */
            if (!ready || (text && (calls > 0 || (!p->use_n && p->use_max > 0))) ||
                (!text && need <= 0))
                continue;
            p->pending = false;
            if (text) {
                p->dimx[0] = text;
                p->dims[0] = CF_RT_EXTENT;
            } else {
                p->dims[0] = need;
                p->by_use = true;
            }
            changed = true;
        }
    }
}

/* ------------------------------------------------ --extent FUNC:PARAM=E */

void
cf_fn_extents(cf *c, cf_fn *f)
{
    for (const char *const *o = c->o->extents; o && *o; o++) {
        const char *colon = strchr(*o, ':'), *eq = strchr(*o, '=');
        if (!colon || !eq || colon > eq || strlen(f->name) != (size_t)(colon - *o) ||
            strncmp(f->name, *o, (size_t)(colon - *o)))
            continue;
        const char *name = colon + 1;
        if (cf_struct_extent(c, f, name) || cf_arr_option(c, f, name))
            continue; /* an array of structs (structs.c, arr_ctor.c) */
        size_t nlen = (size_t)(eq - name);
        cf_sym *s = NULL;
        for (uint32_t i = 0; i < f->formals.n; i++)
            if (strlen(f->formals.v[i]->name) == nlen &&
                !strncmp(f->formals.v[i]->name, name, nlen))
                s = f->formals.v[i];
        if (!s || !s->ptr || s->dims[0] != -1)
            cf_refuse(c, f->decl, "--extent %s: '%.*s' is no pointer parameter of '%s'", *o,
                      (int)nlen, name, f->name);
        char what[200];
        snprintf(what, sizeof what, "--extent %s", *o);
        const char *x = cf_rt_text(c, f, eq + 1, f->decl, what);
        int64_t v;
        if (eval(x, &v)) {
            if (v < 1)
                cf_refuse(c, f->decl, "--extent %s: an extent is at least 1", *o);
            s->dims[0] = v;
            s->by_use = f->index != 0; /* a helper: longer arrays will do */
        } else {
            s->dimx[0] = x;
            s->dims[0] = CF_RT_EXTENT;
        }
    }
}

void
cf_fn_extents_check(cf *c, const cf_fn *top)
{
    for (const char *const *o = c->o->extents; o && *o; o++) {
        const char *colon = strchr(*o, ':'), *eq = strchr(*o, '=');
        if (!colon || (eq && colon > eq))
            continue;
        bool found = false;
        for (uint32_t i = 0; i < c->fns.n && !found; i++)
            found = strlen(c->fns.v[i]->name) == (size_t)(colon - *o) &&
                    !strncmp(c->fns.v[i]->name, *o, (size_t)(colon - *o));
        if (!found || !eq)
            cf_refuse(c, top->decl,
                      "--extent %s: %s ('%.*s' must be '%s' or a function it calls, and the "
                      "option FUNC:PARAM=N with N a number or an expression of FUNC's int "
                      "parameters)",
                      *o, eq ? "no such function" : "not FUNC:PARAM=N", (int)(colon - *o), *o,
                      top->name);
    }
}
