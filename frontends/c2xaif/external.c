/* external.c: functions the file declares but does not define, whose
 * derivatives the user writes (--external-derivative NAME, as Tapenade's
 * black-box routines): NAME becomes a routine of the xaif with its
 * parameters, no statements (Entry to Exit) and the annotation
 * "xf_external=1"; every real parameter and the result are active, and
 * the result depends on every parameter. The C back end writes calls of
 * the user's NAME_d and NAME_b for it (frontends/xaif2c/c_external.c). */
#include <string.h>

#include "cf.h"

bool
cf_ext_named(const cf *c, const char *name)
{
    for (const char *const *p = c->o->externals; p && *p; p++)
        if (strcmp(*p, name) == 0)
            return true;
    return false;
}

/* The cf_type of @t, a parameter or result of an external function, or -1. */
static int
scalar(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Int:
        return CF_INT;
    case CXType_Float:
        return CF_FLOAT;
    case CXType_Double:
        return CF_DOUBLE;
    default:
        return -1;
    }
}

cf_fn *
cf_ext_fn(cf *c, CXCursor decl)
{
    CXCursor d = decl;
    CXString s = clang_getCursorSpelling(d);
    char name[128];
    snprintf(name, sizeof name, "%s", clang_getCString(s));
    clang_disposeString(s);
    if (!cf_ext_named(c, name))
        return NULL;
    for (uint32_t i = 0; i < c->fns.n; i++)
        if (c->fns.v[i]->external && strcmp(c->fns.v[i]->name, name) == 0)
            return c->fns.v[i];
    if (clang_getCanonicalType(clang_getCursorType(d)).kind == CXType_FunctionNoProto)
        cf_refuse(c, d,
                  "--external-derivative '%s': its declaration has no prototype; declare its "
                  "parameters (double %s(double x, double y);)",
                  name, name);
    int rt = scalar(clang_getCursorResultType(d));
    if (rt != CF_FLOAT && rt != CF_DOUBLE)
        cf_refuse(c, d,
                  "--external-derivative '%s': xaiform supports an external function that "
                  "returns float or double and takes int, float and double parameters by value; "
                  "wrap it in such a function (its derivatives then wrap yours) or define '%s' "
                  "in this file",
                  name, name);
    int n = clang_Cursor_getNumArguments(d);
    for (int i = 0; i < n; i++)
        if (scalar(clang_getCursorType(clang_Cursor_getArgument(d, (unsigned)i))) < 0)
            cf_refuse(c, clang_Cursor_getArgument(d, (unsigned)i),
                      "--external-derivative '%s': parameter %d is not an int, float or double "
                      "passed by value; xaiform supports an external function of such "
                      "parameters that returns float or double: wrap it in one, or define '%s' "
                      "in this file",
                      name, i + 1, name);
    cf_fn *f = cf_alloc(c, sizeof *f);
    f->name = cf_strdup(c, name);
    f->decl = d;
    f->index = c->fns.n;
    f->external = true;
    if (!XF_VEC_PUSH(c->a, c->fns, f))
        cf_oom(c);
    return f;
}

void
cf_ext_walk(cf *c, cf_fn *f)
{
    c->fn = f;
    f->is_static = false;
    int n = clang_Cursor_getNumArguments(f->decl);
    for (int i = 0; i < n; i++) {
        CXCursor p = clang_Cursor_getArgument(f->decl, (unsigned)i);
        CXString s = clang_getCursorSpelling(p);
        char name[128];
        if (clang_getCString(s) && *clang_getCString(s))
            snprintf(name, sizeof name, "%s", clang_getCString(s));
        else /* a prototype without names: p1, p2, ... */
            snprintf(name, sizeof name, "p%d", i + 1);
        clang_disposeString(s);
        cf_sym *v = cf_add_sym(c, name, (cf_type)scalar(clang_getCursorType(p)));
        v->where = p;
        v->formal = (int)f->formals.n + 1;
        v->read = true;
        if (!XF_VEC_PUSH(c->a, f->formals, v))
            cf_oom(c);
    }
    char name[160];
    snprintf(name, sizeof name, "%s_ret", f->name);
    f->ret = cf_add_sym(c, name, (cf_type)scalar(clang_getCursorResultType(f->decl)));
    f->ret->where = f->decl;
    f->ret->formal = (int)f->formals.n + 1;
    f->ret->written = true;
    if (!XF_VEC_PUSH(c->a, f->formals, f->ret))
        cf_oom(c);
    uint32_t entry = cf_g_vertex(c, CF_V_ENTRY, cf_line(f->decl));
    f->exit = cf_g_vertex(c, CF_V_EXIT, 0);
    cf_g_edge(c, entry, f->exit, false, 0);
    c->fn = NULL;
}
