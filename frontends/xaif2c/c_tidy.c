/* c_tidy.c: a function's body made to read as hand-written C, after it is
 * written and before its locals are declared. Three rewrites of the text,
 * line by line, each leaving what the code computes as it was:
 *
 * - a block around one statement loses its braces: "{ x = 0.0; }";
 * - a block that only computes a temporary and stores it becomes one
 *   assignment: "{ double xf_t = E; y += xf_t; }" is "y += E;" (C
 *   evaluates E before it stores; only where the temporary is a double,
 *   so that no rounding to float is lost);
 * - a local that is only ever assigned loses its assignments (an
 *   assignment whose right side pops a tape keeps the pop), and a local
 *   that no line names is not declared (cw_tidy_names), so that the code
 *   compiles with -Wall -Wunused and declares what it uses. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "c_impl.h"

typedef struct lines {
    char **l;
    size_t n;
} lines;

static bool
split(const char *text, lines *ls)
{
    size_t cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == '\n';
    ls->l = calloc(cap, sizeof *ls->l);
    ls->n = 0;
    if (!ls->l)
        return false;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t k = nl ? (size_t)(nl - p) : strlen(p);
        if (!(ls->l[ls->n] = strndup(p, k)))
            return false;
        ls->n++;
        p += k + (nl != NULL);
    }
    return true;
}

static void
drop(lines *ls, size_t i)
{
    free(ls->l[i]);
    memmove(&ls->l[i], &ls->l[i + 1], (ls->n - i - 1) * sizeof *ls->l);
    ls->n--;
}

static size_t
indent_of(const char *s)
{
    return strspn(s, " ");
}

/* Whether line @s is @ind spaces and then exactly @what. */
static bool
is(const char *s, size_t ind, const char *what)
{
    return indent_of(s) == ind && !strcmp(s + ind, what);
}

static bool
ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Whether @s (after its indentation) declares a variable. */
static bool
declares(const char *s)
{
    static const char *const types[] = {"double ", "float ", "long ", "int ", "char ", "const "};
    s += indent_of(s);
    for (size_t k = 0; k < sizeof types / sizeof *types; k++)
        if (!strncmp(s, types[k], strlen(types[k])))
            return true;
    return false;
}

/* "{ S; }" -> "S;" and "{ double xf_t = E; L OP xf_t; }" -> "L OP E;". */
static bool
unblock(lines *ls)
{
    bool any = false;
    for (size_t i = 0; i + 2 < ls->n; i++) {
        size_t ind = indent_of(ls->l[i]);
        if (!is(ls->l[i], ind, "{"))
            continue;
        const char *a = ls->l[i + 1];
        size_t la = strlen(a);
        if (is(ls->l[i + 2], ind, "}") && indent_of(a) == ind + 4 && la && a[la - 1] == ';' &&
            !declares(a) && !strchr(a + ind, '{')) {
            memmove(ls->l[i + 1], a + 4, la - 4 + 1);
            drop(ls, i + 2);
            drop(ls, i);
            any = true;
            continue;
        }
        static const char tpre[] = "double xf_t = ";
        if (i + 3 >= ls->n || !is(ls->l[i + 3], ind, "}") || indent_of(a) != ind + 4 ||
            strncmp(a + ind + 4, tpre, strlen(tpre)) || a[la - 1] != ';')
            continue;
        const char *b = ls->l[i + 2];
        size_t lb = strlen(b);
        static const char *const ops[] = {" = -xf_t;", " = xf_t;", " += xf_t;", " -= xf_t;"};
        size_t k = 0, lo = 0;
        for (; k < 4; k++) {
            lo = strlen(ops[k]);
            if (lb > lo && !strcmp(b + lb - lo, ops[k]))
                break;
        }
        if (k == 4 || indent_of(b) != ind + 4 || strstr(b, "xf_t") != b + lb - 5)
            continue;
        const char *e = a + ind + 4 + strlen(tpre);
        size_t le = strlen(e) - 1; /* without ';' */
        size_t lhs = lb - lo - (ind + 4);
        size_t n = ind + lhs + lo + le + 8;
        char *s = malloc(n);
        if (!s)
            return any;
        /* " = -xf_t;" keeps its sign on the whole expression */
        snprintf(s, n, "%*s%.*s%.*s%s%.*s%s;", (int)ind, "", (int)lhs, b + ind + 4, (int)(lo - 5),
                 ops[k], k == 0 ? "(" : "", (int)le, e, k == 0 ? ")" : "");
        free(ls->l[i]);
        ls->l[i] = s;
        drop(ls, i + 3);
        drop(ls, i + 2);
        drop(ls, i + 1);
        any = true;
    }
    return any;
}

/* The next occurrence of identifier @name in @s from @p, or NULL. */
static const char *
find_ident(const char *s, const char *p, const char *name)
{
    size_t n = strlen(name);
    while ((p = strstr(p, name))) {
        if ((p == s || !ident_char(p[-1])) && !ident_char(p[n]))
            return p;
        p += n;
    }
    return NULL;
}

/* Whether occurrence @p of @name in line @s is the target of an
 * assignment that is the whole line: "NAME = ...;", "NAME[...] += ...;".
 * *@rhs: where the right side begins. */
static bool
assigned(const char *s, const char *p, const char *name, const char **rhs)
{
    if (p != s + indent_of(s))
        return false;
    const char *q = p + strlen(name);
    if (*q == '[') {
        int depth = 0;
        for (; *q; q++) {
            depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
            if (!depth)
                break;
        }
        const char *in = find_ident(s, p + strlen(name), name);
        if (!*q || (in && in < q))
            return false;
        q++;
    }
    size_t len = strlen(s);
    if (!len || s[len - 1] != ';')
        return false;
    static const char *const ops[] = {" = ", " += ", " -= ", " *= "};
    for (size_t k = 0; k < 4; k++)
        if (!strncmp(q, ops[k], strlen(ops[k]))) {
            *rhs = q + strlen(ops[k]);
            return true;
        }
    return false;
}

/* Remove the assignments to a local @name that nothing reads; whether it
 * was one (it is then not named any more). */
static bool
unset(lines *ls, const char *name)
{
    size_t writes = 0;
    for (size_t i = 0; i < ls->n; i++) {
        const char *s = ls->l[i];
        for (const char *p = s; (p = find_ident(s, p, name)); p += strlen(name)) {
            const char *rhs;
            if (!assigned(s, p, name, &rhs) || find_ident(s, rhs, name))
                return false;
            /* an if or for without braces before it keeps it */
            size_t j = i;
            while (j > 0 && !ls->l[j - 1][indent_of(ls->l[j - 1])])
                j--;
            if (j > 0) {
                const char *prev = ls->l[j - 1];
                size_t lp = strlen(prev);
                if (lp && prev[lp - 1] == ')')
                    return false;
            }
            writes++;
        }
    }
    if (!writes)
        return false;
    for (size_t i = 0; i < ls->n;) {
        char *s = ls->l[i];
        const char *p = find_ident(s, s, name), *rhs;
        if (!p || !assigned(s, p, name, &rhs)) {
            i++;
            continue;
        }
        if (strstr(rhs, "xf_ad_")) { /* keep a pop, a restore: the runtime's calls */
            size_t ind = indent_of(s);
            memmove(s + ind, rhs, strlen(rhs) + 1);
            i++;
        } else
            drop(ls, i);
    }
    return true;
}

char *
cw_tidy(char *text, const char *const *locals, size_t n)
{
    lines ls = {0};
    if (!text || !split(text, &ls)) {
        for (size_t i = 0; i < ls.n; i++)
            free(ls.l[i]);
        free(ls.l);
        return text;
    }
    while (unblock(&ls))
        ;
    for (bool again = true; again;) {
        again = false;
        for (size_t k = 0; k < n; k++)
            if (locals[k] && unset(&ls, locals[k]))
                again = true;
    }
    size_t len = 1;
    for (size_t i = 0; i < ls.n; i++)
        len += strlen(ls.l[i]) + 1;
    char *out = malloc(len);
    if (out) {
        char *p = out;
        for (size_t i = 0; i < ls.n; i++) {
            size_t k = strlen(ls.l[i]);
            memcpy(p, ls.l[i], k);
            p[k] = '\n';
            p += k + 1;
        }
        *p = '\0';
    }
    for (size_t i = 0; i < ls.n; i++)
        free(ls.l[i]);
    free(ls.l);
    if (!out)
        return text;
    free(text);
    return out;
}

bool
cw_tidy_names(const char *text, const char *name)
{
    return text && name && find_ident(text, text, name);
}
