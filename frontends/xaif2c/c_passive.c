/* c_passive.c: calls the C front end keeps as they are, InlinableSubroutineCall
 * "xf_passive_NAME" (frontends/c2xaif/passive.c): NAME(args), each argument
 * a variable's value or a string constant's C spelling; "xf_passive_assert"
 * (a value, a message) is a check that stops the program with the message
 * when the value is 0. They read values only, so every sweep that runs the
 * original statements runs them (the tangent, an adjoint's taping sweep). */
#include <string.h>

#include "c_impl.h"

/* Write argument @x: a string constant as written, else a value. */
static bool
arg(cw *w, const xf_expr *x, uint32_t line)
{
    if (x->v.n == 1 && x->v.v[0].kind == XF_EV_CONSTANT && x->v.v[0].u.c.type == XF_TYPE_STRING) {
        const char *s = x->v.v[0].u.c.value;
        if (!s || s[0] != '"') {
            cw_refuse(w, line, "a string argument of a kept call is no C string literal");
            return false;
        }
        fputs(s, w->o);
        return true;
    }
    return cw_expr(w, x) != CT_BAD;
}

bool
cw_passive(cw *w, const xf_stmt *s)
{
    const char *n = s->u.icall.name;
    if (!n || strncmp(n, "xf_passive_", 11))
        return false;
    n += 11;
    const xf_expr *by_pos[64] = {0};
    uint32_t na = s->u.icall.args.n;
    for (uint32_t i = 0; i < na; i++) {
        int64_t p = s->u.icall.args.v[i].pos;
        if (p < 1 || p > (int64_t)na || na > 64 || by_pos[p - 1]) {
            cw_refuse(w, s->h.line, "%s: argument %lld out of place", s->u.icall.name,
                      (long long)p);
            return true;
        }
        by_pos[p - 1] = &s->u.icall.args.v[i].val;
    }
    if (!strcmp(n, "assert")) {
        if (na != 2) {
            cw_refuse(w, s->h.line, "%s takes a value and a message", s->u.icall.name);
            return true;
        }
        fputs("    if (!(", w->o);
        if (!arg(w, by_pos[0], s->h.line))
            return true;
        fputs(")) {\n        fprintf(stderr, \"%s\\n\", ", w->o);
        if (!arg(w, by_pos[1], s->h.line))
            return true;
        fputs(");\n        abort();\n    }\n", w->o);
        return true;
    }
    fprintf(w->o, "    (void)%s(", n);
    for (uint32_t k = 0; k < na; k++) {
        fputs(k ? ", " : "", w->o);
        if (!arg(w, by_pos[k], s->h.line))
            return true;
    }
    fputs(");\n", w->o);
    return true;
}
