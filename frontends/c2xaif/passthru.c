/* passthru.c: parameters that a function passes through untouched
 * (docs/c-frontend.md, "Parameters passed through"). A pointer parameter
 * of a type xaiform has no use for (const char **names, void *ctx,
 * double **rows, char *label) is accepted as long as the function does
 * nothing with it but pass it, whole, to a parameter of the same type of
 * another function of the file. It is no variable of the xaif: the
 * routine's formals and its calls' arguments leave it out, and the
 * routine's symbol carries ";xf_pass=POS:NAME:TYPE" (POS its place in the
 * C signature, from 1) so that the C back end puts it back in the
 * derivative's signature (frontends/xaif2c/c_passthru.c). Never active:
 * nothing is read through it. */
#include <string.h>

#include "cf.h"

bool
cf_pass_type(CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    if (ct.kind != CXType_Pointer && ct.kind != CXType_IncompleteArray &&
        ct.kind != CXType_ConstantArray)
        return false;
    CXType e = ct.kind == CXType_Pointer ? clang_getPointeeType(ct) : clang_getArrayElementType(ct);
    bool ptr2 = false; /* a pointer to pointers */
    for (;;) {
        CXType ce = clang_getCanonicalType(e);
        if (ce.kind == CXType_Pointer) {
            ptr2 = true;
            e = clang_getPointeeType(ce);
        } else if (ce.kind == CXType_ConstantArray || ce.kind == CXType_IncompleteArray ||
                   ce.kind == CXType_VariableArray || ce.kind == CXType_DependentSizedArray)
            e = clang_getArrayElementType(ce);
        else
            break;
    }
    enum CXTypeKind base = clang_getCanonicalType(e).kind;
    if (base == CXType_Record || base == CXType_FunctionProto || base == CXType_FunctionNoProto)
        return false; /* structs: their own support; function pointers: refused */
    return ptr2 || (base != CXType_Double && base != CXType_Float && base != CXType_Int);
}

bool
cf_pass_param(cf *c, cf_fn *f, CXCursor d, int cpos)
{
    CXType t = clang_getCursorType(d);
    if (!cf_pass_type(t))
        return false;
    CXString s = clang_getCursorSpelling(d), ts = clang_getTypeSpelling(t);
    cf_passp p = {cf_strdup(c, clang_getCString(s)), cf_strdup(c, clang_getCString(ts)), cpos, d};
    clang_disposeString(s);
    clang_disposeString(ts);
    if (strpbrk(p.ctype, ";:,|\"&<>"))
        cf_refuse(c, d, "parameter '%s' of type '%s' is not supported", p.name, p.ctype);
    if (!XF_VEC_PUSH(c->a, f->passp, p))
        cf_oom(c);
    return true;
}

/* The passed-through parameter of @f declared at @d, or NULL. */
static const cf_passp *
find(const cf_fn *f, CXCursor d)
{
    for (uint32_t i = 0; i < f->passp.n; i++)
        if (clang_equalCursors(f->passp.v[i].decl, d))
            return &f->passp.v[i];
    return NULL;
}

void
cf_pass_use(cf *c, CXCursor use)
{
    const cf_passp *p = find(c->fn, clang_getCursorReferenced(use));
    if (p)
        cf_refuse(c, use,
                  "parameter '%s' of type '%s' is used here: xaiform passes a parameter of a type "
                  "it does not differentiate through untouched, to a parameter of the same type "
                  "of a function of this file, and does nothing else with it; use it outside the "
                  "function to differentiate",
                  p->name, p->ctype);
}

bool
cf_pass_arg(cf *c, CXCursor arg, CXType ft)
{
    if (!cf_pass_type(ft))
        return false;
    CXCursor a = cf_strip(arg);
    while (clang_getCursorKind(a) == CXCursor_UnexposedExpr) {
        unsigned n;
        CXCursor *k = cf_children(c, a, &n);
        if (n != 1)
            break;
        a = cf_strip(k[0]);
    }
    const cf_passp *p = clang_getCursorKind(a) == CXCursor_DeclRefExpr
                            ? find(c->fn, clang_getCursorReferenced(a))
                            : NULL;
    CXString ts = clang_getTypeSpelling(ft);
    char want[128];
    snprintf(want, sizeof want, "%s", clang_getCString(ts));
    clang_disposeString(ts);
    if (!p)
        cf_refuse(c, arg,
                  "only a parameter passed through untouched can be passed to a parameter of "
                  "type '%s': xaiform does not differentiate data of that type",
                  want);
    return true;
}

const char *
cf_pass_annotation(cf *c, const cf_fn *f, const char *base)
{
    size_t len = strlen(base) + 1;
    for (uint32_t i = 0; i < f->passp.n; i++)
        len += strlen(f->passp.v[i].name) + strlen(f->passp.v[i].ctype) + 32;
    char *out = cf_alloc(c, len), *o = out;
    o += sprintf(o, "%s", base);
    for (uint32_t i = 0; i < f->passp.n; i++)
        o += sprintf(o, ";xf_pass=%d:%s:%s", f->passp.v[i].cpos, f->passp.v[i].name,
                     f->passp.v[i].ctype);
    return out;
}
