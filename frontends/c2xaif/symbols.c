/* symbols.c: the variables of a function being walked: parameters and
 * locals from their declarations (types, shapes, names made unique),
 * temporaries, the look-up of a name's use, and the extents of pointer
 * parameters (--extent, or the arrays the calls pass). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf.h"

/* Where @d is declared, as a key: its offsets where spelled and where
 * expanded (two declarations made by one macro differ in the second). */
uint64_t
cf_decl_key(CXCursor d)
{
    unsigned sp = 0, ex = 0;
    CXSourceLocation l = clang_getCursorLocation(d);
    clang_getSpellingLocation(l, NULL, NULL, NULL, &sp);
    clang_getExpansionLocation(l, NULL, NULL, NULL, &ex);
    return ((uint64_t)ex << 32 | sp) + 1;
}

static const char *
unique_name(cf *c, const char *base)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s", base);
    for (int k = 2;; k++) {
        bool taken = false;
        for (uint32_t i = 0; i < c->fn->syms.n && !taken; i++)
            taken = strcmp(c->fn->syms.v[i]->name, buf) == 0;
        if (!taken)
            return cf_strdup(c, buf);
        snprintf(buf, sizeof buf, "%s_%d", base, k);
    }
}

cf_sym *
cf_add_sym(cf *c, const char *name, cf_type t)
{
    cf_sym *s = cf_alloc(c, sizeof *s);
    s->name = unique_name(c, name);
    s->type = t;
    if (!XF_VEC_PUSH(c->a, c->fn->syms, s))
        cf_oom(c);
    return s;
}

cf_sym *
cf_temp(cf *c, const char *prefix, cf_type t)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s%d", prefix, c->fn->ntmp++);
    return cf_add_sym(c, buf, t);
}

/* A variable or parameter declared at @d, of the current function. */
cf_sym *
cf_declare(cf *c, CXCursor d, bool formal)
{
    CXString s = clang_getCursorSpelling(d);
    char name[128];
    snprintf(name, sizeof name, "%s", clang_getCString(s));
    clang_disposeString(s);
    if (!formal && clang_Cursor_getStorageClass(d) == CX_SC_Static)
        cf_refuse(c, d, "static variable '%s' is not supported", name);
    CXType t = clang_getCursorType(d);
    if (formal && t.kind == CXType_IncompleteArray &&
        clang_getArrayElementType(t).kind == CXType_VariableArray)
        cf_refuse(c, d, "array parameter '%s' has no first extent: declare it as %s[n]...", name,
                  name);
    int64_t dims[CF_MAXRANK];
    const char *dimx[CF_MAXRANK] = {0};
    int rank = 0;
    bool ptr = false;
    for (;;) {
        CXType ct = clang_getCanonicalType(t);
        if (t.kind == CXType_ConstantArray || ct.kind == CXType_ConstantArray) {
            if (t.kind != CXType_ConstantArray)
                t = ct;
            if (rank == CF_MAXRANK_C)
                cf_refuse(c, d, "arrays of more than %d dimensions are not supported",
                          CF_MAXRANK_C);
            dims[rank++] = clang_getArraySize(t);
            t = clang_getArrayElementType(t);
        } else if (ct.kind == CXType_Pointer || ct.kind == CXType_IncompleteArray) {
            enum CXTypeKind pk = clang_getCanonicalType(clang_getPointeeType(ct)).kind;
            if (pk == CXType_FunctionProto || pk == CXType_FunctionNoProto)
                cf_refuse(c, d, "function pointer '%s' is not supported", name);
            if (!formal && rank == 0 && ct.kind == CXType_Pointer) {
                cf_sym *p = cf_heap_local(c, d, name, clang_getPointeeType(ct));
                if (!p)
                    p = cf_ptr_local(c, d, name, clang_getPointeeType(ct));
                p->decl = cf_decl_key(d);
                p->where = d;
                return p;
            }
            if (!formal || rank != 0)
                cf_refuse(c, d, "pointer '%s' is not supported", name);
            /* a pointer parameter used as an array: a vector whose extent comes from
             * --extent (the top function) or from the arrays the calls pass (cf_extents) */
            dims[rank++] = -1;
            ptr = true;
            t = ct.kind == CXType_Pointer ? clang_getPointeeType(ct)
                                          : clang_getArrayElementType(ct);
            enum CXTypeKind ek = clang_getCanonicalType(t).kind;
            /* double (*p)[4], double a[][4]: rows of a 2-D array, the number of rows
             * found or given as a pointer's extent (extent.c), the rest constant */
            if (ek == CXType_Pointer || ek == CXType_IncompleteArray || ek == CXType_VariableArray)
                cf_refuse(c, d,
                          "pointer parameter '%s' to pointers or to rows of variable length is "
                          "not supported: declare it as %s[n][m], a variable-length array "
                          "parameter",
                          name, name);
        } else if (formal && ct.kind == CXType_VariableArray) {
            /* double a[n][m]: the extents are the texts between the brackets */
            const char *g[CF_MAXRANK + 1];
            int ng = cf_rt_brackets(c, d, name, g, CF_MAXRANK_C + 1);
            if (ng > CF_MAXRANK_C)
                cf_refuse(c, d, "arrays of more than %d dimensions are not supported",
                          CF_MAXRANK_C);
            if (rank >= ng)
                cf_refuse(c, d, "the variable-length array parameter '%s' is not supported", name);
            char what[160];
            snprintf(what, sizeof what, "the extent of parameter '%s'", name);
            dimx[rank] = cf_rt_text(c, c->fn, g[rank], d, what);
            dims[rank++] = CF_RT_EXTENT;
            t = clang_getArrayElementType(ct);
        } else if (ct.kind == CXType_VariableArray || ct.kind == CXType_DependentSizedArray) {
            cf_refuse(c, d,
                      "variable-length array '%s' is not supported: allocate it with malloc, or "
                      "give it a constant size",
                      name);
        } else if (ct.kind == CXType_Record) {
            cf_refuse(c, d, "structs and unions are not supported ('%s')", name);
        } else
            break;
    }
    cf_sym *sym = cf_add_sym(c, name, cf_type_of(c, t, d));
    sym->rank = rank;
    memcpy(sym->dims, dims, sizeof dims);
    memcpy(sym->dimx, dimx, sizeof dimx);
    if (rank > 0 && dims[0] == -1 && rank > 1 && !ptr)
        cf_refuse(c, d, "array parameter '%s' has no first extent: declare it as %s[n]...", name,
                  name);
    sym->decl = cf_decl_key(d);
    sym->where = d;
    sym->ptr = ptr;
    sym->cconst = clang_isConstQualifiedType(t) != 0;
    return sym;
}

cf_sym *
cf_sym_of_decl(cf *c, CXCursor use)
{
    CXCursor d = clang_getCursorReferenced(use);
    uint64_t off = cf_decl_key(d);
    enum CXCursorKind k = clang_getCursorKind(d);
    if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl) {
        for (uint32_t i = 0; i < c->fn->syms.n; i++)
            if (c->fn->syms.v[i]->decl == off)
                return c->fn->syms.v[i];
        cf_pass_use(c, use);
        if (clang_getCursorKind(clang_getCursorSemanticParent(d)) == CXCursor_TranslationUnit) {
            CXString s = clang_getCursorSpelling(d);
            char name[128];
            snprintf(name, sizeof name, "%s", clang_getCString(s));
            clang_disposeString(s);
            cf_refuse(c, use, "global variable '%s' is not supported", name);
        }
    }
    cf_refuse(c, use, "this kind of name is not supported");
}

/* --extent NAME=N for the top function's pointer parameters. */
void
cf_top_extents(cf *c, cf_fn *f)
{
    for (const char *const *p = c->o->extents; p && *p; p++) {
        if (cf_struct_extent(c, f, *p))
            continue; /* an array of structs (structs.c) */
        const char *eq = strchr(*p, '=');
        const char *colon = strchr(*p, ':');
        if (colon && (!eq || colon < eq))
            continue; /* FUNC:PARAM=N (extent_flow.c) */
        char *end = NULL;
        long long n = eq ? strtoll(eq + 1, &end, 10) : 0;
        const char *x = NULL;
        if (eq && eq != *p && end && *end && eq[1]) { /* an expression: x=n*d */
            char what[200];
            snprintf(what, sizeof what, "--extent %s", *p);
            x = cf_rt_text(c, f, eq + 1, f->decl, what);
            n = CF_RT_EXTENT;
        } else if (!eq || eq == *p || !end || *end || end == eq + 1 || n < 1)
            cf_refuse(c, f->decl,
                      "--extent %s: not NAME=N with N a positive integer or an expression of "
                      "the int parameters",
                      *p);
        cf_sym *s = NULL;
        for (uint32_t i = 0; i < f->formals.n; i++)
            if (strlen(f->formals.v[i]->name) == (size_t)(eq - *p) &&
                strncmp(f->formals.v[i]->name, *p, (size_t)(eq - *p)) == 0)
                s = f->formals.v[i];
        if (!s || (s->rank != 1 && !s->ptr) || s->dims[0] != -1)
            cf_refuse(c, f->decl, "--extent %s: '%.*s' is no pointer parameter of '%s'", *p,
                      (int)(eq - *p), *p, f->name);
        s->dims[0] = n;
        s->dimx[0] = x;
    }
}

void
cf_extents(cf *c)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < c->fns.n; i++) {
            cf_fn *f = c->fns.v[i];
            for (uint32_t k = 0; k < f->v.n; k++)
                for (uint32_t q = 0; q < f->v.v[k].stmts.n; q++) {
                    const cf_stmt *s = f->v.v[k].stmts.v[q];
                    if (s->kind != CF_S_CALL)
                        continue;
                    for (uint32_t a = 0; a < s->args.n; a++) {
                        cf_sym *formal = s->callee->formals.v[a], *actual = s->args.v[a]->sym;
                        if (!formal->ptr || actual->rank == 0 || s->args.v[a]->nsub > 0)
                            continue; /* nsub: an element, the rest of its array (pointers.c) */
                        int64_t size = 1;
                        for (int r = 0; r < actual->rank && size > 0; r++) /* nominal sizes too */
                            size = actual->dims[r] < 0 || actual->dims[r] == CF_RT_EXTENT
                                       ? -1
                                       : size * actual->dims[r];
                        for (int r = 1; r < formal->rank && size > 0; r++) /* rows (*p)[4] */
                            size = size % formal->dims[r] ? -1 : size / formal->dims[r];
                        if (formal->dimx[0]) { /* its own extent, known at run time */
                            int64_t was = formal->dims[0];
                            cf_rt_nominal(formal, size);
                            changed |= formal->dims[0] != was;
                            continue;
                        }
                        for (int r = 0; r < actual->rank; r++)
                            size = actual->dimx[r] ? -1 : size; /* a nominal size is no size */
                        if (size <= 0 || formal->dims[0] == size)
                            continue;
                        if (formal->by_use && size >= formal->dims[0])
                            continue; /* it reads p[0..k] only: any longer array will do */
                        if (formal->by_use)
                            cf_refuse(c, s->at,
                                      "an array of %lld elements passed to pointer parameter '%s' "
                                      "of '%s', which uses %lld",
                                      (long long)size, formal->name, s->callee->name,
                                      (long long)formal->dims[0]);
                        /* xaif's array formals have one extent, and a formal may not be
                         * longer than its actual argument: one size for all the calls */
                        if (formal->dims[0] >= 0)
                            cf_refuse(c, s->at,
                                      "calls pass arrays of %lld and %lld elements to pointer "
                                      "parameter '%s' of '%s', which is not supported",
                                      (long long)formal->dims[0], (long long)size, formal->name,
                                      s->callee->name);
                        formal->dims[0] = size;
                        changed = true;
                    }
                }
        }
    }
    for (uint32_t i = 0; i < c->fns.n; i++)
        for (uint32_t k = 0; k < c->fns.v[i]->formals.n; k++) {
            const cf_sym *s = c->fns.v[i]->formals.v[k];
            if (s->rank == 1 && s->dims[0] < 0)
                cf_struct_no_extent(c, c->fns.v[i], s); /* a struct's pointer member */
            if ((s->rank == 1 || s->ptr) && s->dims[0] < 0 && i == 0)
                cf_refuse(c, s->where,
                          "pointer parameter '%s' has no extent: give --extent %s=N (N a "
                          "number or an expression of the int parameters, n*d), or declare "
                          "it as %s[n]",
                          s->name, s->name, s->name);
            if ((s->rank == 1 || s->ptr) && s->dims[0] < 0)
                cf_refuse(c, s->where,
                          "pointer parameter '%s' has no extent: no call passes it an array of "
                          "known size; give --extent %s:%s=N (N a number or an expression of "
                          "the int parameters of '%s'), declare it as %s[n] with n an int "
                          "parameter, or index it only as %s[i] in loops for (i = 0; i < n; i++)",
                          s->name, c->fns.v[i]->name, s->name, c->fns.v[i]->name, s->name, s->name);
        }
}
