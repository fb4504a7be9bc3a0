/* struct_ret.c: a struct returned by value. A function of the file that
 * returns a struct `T g(...)` is read as `void g(..., T *g_ret)`: its
 * result is one more formal, last, a struct by pointer (one formal a
 * member, structs.c); `return e;` copies e into it. A call of g used as a
 * struct (an argument, the right-hand side of an assignment, c = g(a).re)
 * writes its result into a temporary struct local of the caller, which
 * the use then reads like any struct variable; a call whose result is not
 * used writes it into a temporary all the same. The function
 * differentiated itself may not return a struct (refused). */
#include <stdio.h>
#include <string.h>

#include "cf.h"

/* the key of the result of @f: its own declaration's, no variable's */
static uint64_t
result_key(const cf_fn *f)
{
    return cf_decl_key(f->decl);
}

static bool
returns_struct(cf *c, CXCursor decl)
{
    CXType rt = clang_getCursorResultType(decl);
    return clang_getCanonicalType(rt).kind == CXType_Record && cf_struct_type(c, rt, decl);
}

bool
cf_struct_result(cf *c, cf_fn *f)
{
    if (!returns_struct(c, f->decl))
        return false;
    if (f->index == 0)
        cf_refuse(c, f->decl,
                  "'%s', the function differentiated, returns a struct, which is not "
                  "supported: return it through a pointer parameter (void %s(..., T *out)); "
                  "the functions it calls may return structs",
                  f->name, f->name);
    char name[160];
    snprintf(name, sizeof name, "%s_ret", f->name);
    cf_struct_declare(c, f->decl, result_key(f), cf_strdup(c, name),
                      clang_getCursorResultType(f->decl), true);
    return true;
}

bool
cf_struct_return(cf *c, cf_fn *f, CXCursor x)
{
    if (!returns_struct(c, f->decl))
        return false;
    cf_stmt *last = cf_struct_assign_to(c, result_key(f), "", NULL,
                                        clang_getCursorResultType(f->decl), x, cf_line(x));
    if (last)
        cf_emit_stmt(c, last);
    return true;
}

bool
cf_struct_call(cf *c, CXCursor x, uint64_t *root, char *path, size_t len, cf_expr **ix)
{
    x = cf_strip(x);
    if (clang_getCursorKind(x) != CXCursor_CallExpr)
        return false;
    CXType rt = clang_getCursorType(x);
    if (clang_getCanonicalType(rt).kind != CXType_Record || !cf_struct_type(c, rt, x))
        return false;
    CXCursor callee = clang_getCursorReferenced(x);
    if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl)
        cf_refuse(c, x, "calls through function pointers are not supported");
    cf_fn *f = cf_find_fn(c, callee);
    if (!f || f->external) {
        CXString s = clang_getCursorSpelling(callee);
        char name[128];
        snprintf(name, sizeof name, "%s", clang_getCString(s));
        clang_disposeString(s);
        cf_refuse(c, x,
                  "'%s' returns a struct and is not defined in this file, which is not "
                  "supported: define it in the file",
                  name);
    }
    /* the temporary: a key no declaration has (cf_decl_key adds 1 to a file offset) */
    *root = (uint64_t)0xffffffffu << 32 | c->fn->syms.n;
    char name[64];
    snprintf(name, sizeof name, "OAD_SRES%u", c->fn->syms.n);
    cf_struct_declare(c, x, *root, cf_strdup(c, name), rt, false);
    cf_stmt *st = cf_call_build(c, x, f, NULL);
    cf_struct_out_args(c, x, rt, *root, st);
    cf_emit_stmt(c, st);
    if (len)
        path[0] = 0;
    *ix = NULL;
    return true;
}
