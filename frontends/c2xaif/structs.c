/* structs.c: struct variables, flattened. xaif has no records, so a
 * variable of struct type (a parameter by value or by pointer, a local)
 * becomes one variable a member, nested structs recursively: parameter
 * `Wishart w` becomes the formals w_gamma and w_m, in the order of the
 * members. A member reference (w.gamma, p->k, (*p).k, s.in.a[i]) is the
 * member's variable; a struct passed to a struct parameter passes its
 * members; a struct assigned or initialized is so member by member. Each
 * member's symbol says, in its annotation, which struct, parameter and
 * member it is (xf_member=) and the definitions of the types it needs
 * (xf_ctype=), so that the C back end writes the user's signature and a
 * derivative struct of the active members (docs/c-backend.md, Structs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf.h"

enum { BY_LOCAL, BY_VALUE, BY_POINTER, BY_ARRAY };

/* an array of structs (a parameter): its extent, given or found from its uses */
typedef struct cf_sarr {
    const char *ext;           /* the extent's C text, once known */
    const struct cf_expr *use; /* b[i] under i < use (+1 when plus1) */
    bool plus1, bad;           /* bad: a use that says nothing of the extent */
    int64_t max;               /* b[k], k constant: k + 1 at most */
} cf_sarr;

typedef struct cf_leaf {
    uint64_t root;     /* the struct variable's declaration (cf_decl_key) */
    const char *path;  /* from the root: ".gamma", ".in.a" */
    const char *rname; /* the struct variable's name */
    const char *rtype; /* its struct type as written, without const and '*' */
    int by;            /* BY_* */
    bool rconst;       /* a pointer to const */
    bool first;        /* the first member of its variable */
    const char *defs;  /* first: the xf_ctype= keys of the types it needs */
    cf_sarr *arr;      /* BY_ARRAY: shared by the members */
    CXCursor at;       /* the struct variable's declaration */
    uint64_t target;   /* a pointer local (an int, the index): the struct it points into */
    bool pmem;         /* a pointer member (double *data): an array of run-time extent */
    int64_t nlocal;    /* BY_ARRAY: a local array of structs of this many, 0: a parameter */
    bool given;        /* a local's pointer member sized by --extent FUNC:m->data=E */
} cf_leaf;

static char *
spell_type(cf *c, CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    const char *p = clang_getCString(s);
    if (!strncmp(p, "const ", 6))
        p += 6;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", p);
    clang_disposeString(s);
    char *r = (char *)cf_strdup(c, buf);
    return r;
}

static char *
cursor_name(cf *c, CXCursor x)
{
    CXString s = clang_getCursorSpelling(x);
    char *r = (char *)cf_strdup(c, clang_getCString(s));
    clang_disposeString(s);
    return r;
}

/* Whether @t (after typedefs) is a struct; a union is refused at @at. */
static bool
is_record(cf *c, CXType t, CXCursor at)
{
    CXType ct = clang_getCanonicalType(t);
    if (ct.kind != CXType_Record)
        return false;
    CXCursor d = clang_getTypeDeclaration(ct);
    if (clang_getCursorKind(d) == CXCursor_UnionDecl)
        cf_refuse(c, at,
                  "unions are not supported: the member that holds the value cannot be known; "
                  "use a struct or separate variables");
    return true;
}

/* Whether member @k of type @ft is a pointer; one to anything but a number is refused. */
static bool
pointer_member(cf *c, CXCursor k, CXType ft, const char *name)
{
    CXType ct = clang_getCanonicalType(ft);
    if (ct.kind != CXType_Pointer)
        return false;
    CXType pt = clang_getCanonicalType(clang_getPointeeType(ct));
    if (pt.kind != CXType_Double && pt.kind != CXType_Float && pt.kind != CXType_Int &&
        pt.kind != CXType_Long)
        cf_refuse(c, k,
                  "struct member '%s' is a pointer to %s, which is not supported: a pointer "
                  "member must point to an array of double, float or int (double *data)",
                  name,
                  pt.kind == CXType_Record    ? "a struct"
                  : pt.kind == CXType_Pointer ? "pointers"
                                              : "this type");
    return true;
}

/* The name of record @t as the generated code spells it: the typedef's name when @t is
 * written with one, else "struct TAG". */
static const char *
type_name(cf *c, CXType t, CXCursor at)
{
    CXType ct = clang_getCanonicalType(t);
    CXCursor d = clang_getTypeDeclaration(ct);
    char *tag = cursor_name(c, d);
    if (t.kind == CXType_Typedef || t.kind == CXType_Elaborated) {
        char *s = spell_type(c, t);
        if (strncmp(s, "struct ", 7) != 0)
            return s;
    }
    if (!*tag || strchr(tag, ' '))
        cf_refuse(c, at, "this struct type has no name: give it a tag or a typedef");
    char buf[200];
    snprintf(buf, sizeof buf, "struct %s", tag);
    return cf_strdup(c, buf);
}

/* ---------------------------------------------------------------- types */

/* Append to @out the xf_ctype= key of record @t and, before it, those of the records it
 * holds (each once in @out): "xf_ctype=NAME|HEAD|member:type:dims|...", HEAD "T" for
 * typedef struct {...} NAME, "S" for struct TAG {...} (NAME is "struct TAG"), "S:TAG" for
 * typedef struct TAG {...} NAME. */
static void
type_defs(cf *c, CXType t, CXCursor at, char *out, size_t len, int depth)
{
    if (depth > 8)
        cf_refuse(c, at, "structs nested more than 8 deep are not supported");
    const char *name = type_name(c, t, at);
    char key[300];
    snprintf(key, sizeof key, ";xf_ctype=%s|", name);
    if (strstr(out, key))
        return;
    CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(t));
    char *tag = cursor_name(c, d);
    bool anon = !*tag || strchr(tag, ' ');
    char buf[2048];
    int n = snprintf(buf, sizeof buf, "%s%s", key,
                     !strncmp(name, "struct ", 7) ? "S"
                     : anon                       ? "T"
                                                  : "S:");
    if (strncmp(name, "struct ", 7) && !anon)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "%s", tag);
    unsigned nk;
    CXCursor *k = cf_children(c, d, &nk);
    for (unsigned i = 0; i < nk; i++) {
        if (clang_getCursorKind(k[i]) != CXCursor_FieldDecl)
            continue;
        CXType ft = clang_getCursorType(k[i]);
        char dims[64] = "";
        while (clang_getCanonicalType(ft).kind == CXType_ConstantArray) {
            CXType a = clang_getCanonicalType(ft);
            size_t dl = strlen(dims);
            snprintf(dims + dl, sizeof dims - dl, "%s%lld", dl ? "," : "",
                     (long long)clang_getArraySize(a));
            ft = clang_getArrayElementType(a);
        }
        if (dims[0] && is_record(c, ft, k[i]))
            cf_refuse(c, k[i],
                      "struct member '%s' is an array of structs, which is not supported: give "
                      "the outer struct one array member for each member of the inner one",
                      cursor_name(c, k[i]));
        const char *tn;
        if (pointer_member(c, k[i], ft, cursor_name(c, k[i]))) {
            CXType pt = clang_getPointeeType(clang_getCanonicalType(ft));
            tn = (const char *[]){"int",       "float",       "double",
                                  "const int", "const float", "const double"}
                [cf_type_of(c, pt, k[i]) + (clang_isConstQualifiedType(pt) ? 3 : 0)];
            snprintf(dims, sizeof dims, "*");
        } else if (is_record(c, ft, k[i])) {
            type_defs(c, ft, k[i], out, len, depth + 1);
            tn = type_name(c, ft, k[i]);
        } else
            tn = (const char *[]){"int", "float", "double"}[cf_type_of(c, ft, k[i])];
        n += snprintf(buf + n, sizeof buf - (size_t)n, "|%s:%s:%s", cursor_name(c, k[i]), tn, dims);
    }
    size_t ol = strlen(out);
    if (ol + strlen(buf) + 1 > len)
        cf_refuse(c, at, "this struct type is too large to describe (more than %zu characters)",
                  len);
    memcpy(out + ol, buf, strlen(buf) + 1);
}

/* ---------------------------------------------------------------- members */

typedef void leaf_fn(cf *c, CXCursor at, const char *path, CXType t, void *ctx);

/* Call @fn for each member of record @t that is no struct (nested ones walked), in order,
 * with its path from @path. */
static void
each_leaf(cf *c, CXCursor at, CXType t, const char *path, leaf_fn *fn, void *ctx, int depth)
{
    if (depth > 8)
        cf_refuse(c, at, "structs nested more than 8 deep are not supported");
    CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(t));
    unsigned nk;
    CXCursor *k = cf_children(c, d, &nk);
    for (unsigned i = 0; i < nk; i++) {
        if (clang_getCursorKind(k[i]) != CXCursor_FieldDecl)
            continue;
        char p[256];
        snprintf(p, sizeof p, "%s.%s", path, cursor_name(c, k[i]));
        CXType ft = clang_getCursorType(k[i]);
        CXType el = ft;
        while (clang_getCanonicalType(el).kind == CXType_ConstantArray)
            el = clang_getArrayElementType(clang_getCanonicalType(el));
        if (el.kind != ft.kind && clang_getCanonicalType(el).kind == CXType_Pointer)
            cf_refuse(c, k[i],
                      "struct member '%s' is an array of pointers, which is not supported: "
                      "give the struct one pointer member for each",
                      p + 1);
        if (pointer_member(c, k[i], ft, p + 1))
            fn(c, k[i], p, ft, ctx);
        else if (is_record(c, el, k[i])) {
            if (el.kind != ft.kind || clang_getCanonicalType(ft).kind == CXType_ConstantArray)
                cf_refuse(c, k[i],
                          "struct member '%s' is an array of structs, which is not supported: "
                          "give the outer struct one array member for each member of the inner one",
                          p + 1);
            each_leaf(c, at, ft, p, fn, ctx, depth + 1);
        } else
            fn(c, k[i], p, ft, ctx);
    }
}

typedef struct {
    cf_leaf proto;
    uint64_t root;
    bool formal;
    int nleaf;
} decl_ctx;

static enum CXChildVisitResult
first_kid(CXCursor x, CXCursor parent, CXClientData data)
{
    (void)parent;
    *(CXCursor *)data = x;
    return CXChildVisit_Break;
}

static void
declare_leaf(cf *c, CXCursor at, const char *path, CXType t, void *ctx)
{
    decl_ctx *x = ctx;
    char name[300];
    snprintf(name, sizeof name, "%s%s", x->proto.rname, path);
    for (char *p = name; *p; p++)
        if (*p == '.')
            *p = '_';
    int64_t dims[CF_MAXRANK];
    int rank = 0;
    bool pmem = clang_getCanonicalType(t).kind == CXType_Pointer;
    if (pmem && x->proto.by == BY_ARRAY && x->proto.nlocal && x->proto.nlocal != CF_RT_EXTENT)
        cf_refuse(c, x->proto.at,
                  "'%s' is a local array of structs with a pointer member ('%s'), which is not "
                  "supported: pass it in as a parameter",
                  x->proto.rname, path + 1);
    if (pmem && x->proto.by == BY_ARRAY) { /* jagged: b_data[i][k], one block an element */
        dims[rank++] = CF_RT_EXTENT;       /* the structs, sized in cf_struct_extents */
        dims[rank++] = -1;                 /* each block, --extent b->data=E */
        t = clang_getPointeeType(clang_getCanonicalType(t));
    } else if (pmem) { /* a parameter: an array whose extent is given or found (extent.c); a
                   local's: a work array, sized by the malloc that sets it (cf_struct_assign) */
        dims[rank++] = x->proto.by == BY_LOCAL ? CF_RT_EXTENT : -1;
        t = clang_getPointeeType(clang_getCanonicalType(t));
    }
    if (x->proto.by == BY_ARRAY && !pmem) /* one element a struct: a parameter's sized at the end */
        dims[rank++] = x->proto.nlocal ? x->proto.nlocal : CF_RT_EXTENT;
    while (clang_getCanonicalType(t).kind == CXType_ConstantArray) {
        CXType a = clang_getCanonicalType(t);
        if (rank == CF_MAXRANK)
            cf_refuse(c, at, "arrays of more than %d dimensions are not supported", CF_MAXRANK);
        dims[rank++] = clang_getArraySize(a);
        t = clang_getArrayElementType(a);
    }
    cf_sym *s = cf_add_sym(c, name, cf_type_of(c, t, at));
    s->rank = rank;
    memcpy(s->dims, dims, sizeof dims);
    s->where = at;
    s->cconst = pmem ? clang_isConstQualifiedType(t) != 0 : x->proto.rconst;
    s->ptr = pmem && x->proto.by != BY_LOCAL;
    s->heap = pmem && x->proto.by == BY_LOCAL;
    cf_leaf *l = cf_alloc(c, sizeof *l);
    *l = x->proto;
    l->pmem = pmem;
    l->path = cf_strdup(c, path);
    l->first = x->nleaf++ == 0;
    if (!l->first)
        l->defs = NULL;
    s->leaf = l;
    if (x->formal) {
        s->formal = (int)c->fn->formals.n + 1;
        if (!XF_VEC_PUSH(c->a, c->fn->formals, s))
            cf_oom(c);
    }
}

/* The struct variable @rname, key @root, declared at @d of record type @rt (@nlocal: a local
 * array of so many). */
static void
declare_as(cf *c, CXCursor d, uint64_t root, const char *rname, CXType rt, int by, bool rconst,
           bool formal, int64_t nlocal)
{
    decl_ctx x = {.formal = formal};
    x.proto.nlocal = nlocal;
    x.proto.root = root;
    x.proto.rname = rname;
    x.proto.at = d;
    x.proto.rtype = type_name(c, rt, d);
    x.proto.by = by;
    x.proto.rconst = rconst;
    char *defs = cf_alloc(c, 4096);
    type_defs(c, rt, d, defs, 4096, 0);
    x.proto.defs = defs;
    if (by == BY_ARRAY)
        x.proto.arr = cf_alloc(c, sizeof *x.proto.arr);
    each_leaf(c, d, rt, "", declare_leaf, &x, 0);
    if (x.nleaf == 0)
        cf_refuse(c, d, "struct '%s' has no members", x.proto.rname);
}

static void
declare(cf *c, CXCursor d, CXType rt, int by, bool rconst, bool formal, int64_t nlocal)
{
    declare_as(c, d, cf_decl_key(d), cursor_name(c, d), rt, by, rconst, formal, nlocal);
    if (by != BY_LOCAL)
        return;
    uint64_t key = cf_decl_key(d); /* --extent FUNC:m->data=E: its mallocs are not read */
    for (uint32_t i = 0; i < c->fn->syms.n; i++) {
        cf_sym *s = c->fn->syms.v[i];
        cf_leaf *l = (cf_leaf *)s->leaf;
        const char *e =
            l && l->root == key && l->pmem && !l->target ? cf_arr_given(c, d, s->name) : NULL;
        if (e) {
            s->dimx[0] = e;
            l->given = true;
        }
    }
}

void
cf_struct_declare(cf *c, CXCursor at, uint64_t root, const char *rname, CXType rt, bool formal)
{
    declare_as(c, at, root, rname, rt, formal ? BY_POINTER : BY_LOCAL, false, formal, 0);
}

bool
cf_struct_type(cf *c, CXType t, CXCursor at)
{
    return is_record(c, t, at);
}

static cf_sym *find_leaf(cf *c, uint64_t root, const char *path);
static bool designate(cf *c, CXCursor x, uint64_t *root, char *path, size_t len, cf_expr **ix);
static cf_expr *int_const(cf *c, int64_t v);

typedef struct {
    cf *c;
    CXCursor d;
    bool found;
    int depth; /* calls followed, 8 at most (a recursion ends) */
} index_ctx;

static bool indexed_at(cf *c, CXCursor fn, CXCursor d, int depth);

/* Whether call @x passes @q's parameter whole to a parameter that its callee (defined in the
 * file) indexes: then it is an array of structs here too. */
static bool
passed_indexed(index_ctx *q, CXCursor x)
{
    CXCursor callee = clang_getCursorReferenced(x);
    CXCursor def = clang_Cursor_isNull(callee) ? callee : clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def) || q->depth >= 8)
        return false;
    int na = clang_Cursor_getNumArguments(x), nf = clang_Cursor_getNumArguments(def);
    for (int i = 0; i < na && i < nf; i++) {
        CXCursor f = clang_Cursor_getArgument(def, i);
        CXType ft = clang_getCanonicalType(clang_getCursorType(f));
        CXCursor a = cf_strip(clang_Cursor_getArgument(x, i));
        while (clang_getCursorKind(a) == CXCursor_UnexposedExpr) { /* implicit conversions */
            unsigned n;
            CXCursor *k = cf_children(q->c, a, &n);
            if (n != 1)
                break;
            a = cf_strip(k[0]);
        }
        if (cf_names(a, q->d) && ft.kind == CXType_Pointer &&
            clang_getCanonicalType(clang_getPointeeType(ft)).kind == CXType_Record &&
            indexed_at(q->c, def, f, q->depth + 1))
            return true;
    }
    return false;
}

static enum CXChildVisitResult
index_visit(CXCursor x, CXCursor parent, CXClientData data)
{
    (void)parent;
    index_ctx *q = data;
    if (clang_getCursorKind(x) == CXCursor_CallExpr && passed_indexed(q, x)) {
        q->found = true;
        return CXChildVisit_Break;
    }
    if (clang_getCursorKind(x) == CXCursor_ArraySubscriptExpr) {
        CXCursor b = clang_getNullCursor();
        clang_visitChildren(x, first_kid, &b);
        while (!clang_Cursor_isNull(b) && (clang_getCursorKind(b) == CXCursor_UnexposedExpr ||
                                           clang_getCursorKind(b) == CXCursor_ParenExpr)) {
            CXCursor in = clang_getNullCursor();
            clang_visitChildren(b, first_kid, &in);
            b = in;
        }
        if (!clang_Cursor_isNull(b) && clang_getCursorKind(b) == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(b), q->d)) {
            q->found = true;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* Whether function @fn indexes its parameter @d (b[i]), or passes it whole to a function
 * that does: an array of structs. */
static bool
indexed_at(cf *c, CXCursor fn, CXCursor d, int depth)
{
    index_ctx q = {.c = c, .d = d, .depth = depth};
    clang_visitChildren(fn, index_visit, &q);
    return q.found;
}

static bool
indexed_in(cf *c, CXCursor fn, CXCursor d)
{
    return indexed_at(c, fn, d, 0);
}

static bool
indexed(cf *c, CXCursor d)
{
    return indexed_in(c, c->fn->decl, d);
}

bool
cf_struct_formal(cf *c, CXCursor d)
{
    CXType t = clang_getCursorType(d), ct = clang_getCanonicalType(t);
    if (is_record(c, t, d)) {
        declare(c, d, t, BY_VALUE, false, true, 0);
        return true;
    }
    if (ct.kind != CXType_Pointer && ct.kind != CXType_IncompleteArray &&
        ct.kind != CXType_ConstantArray)
        return false;
    CXType pt = ct.kind == CXType_Pointer ? clang_getPointeeType(t) : clang_getArrayElementType(t);
    if (!is_record(c, pt, d))
        return false;
    bool arr = ct.kind != CXType_Pointer || indexed(c, d);
    declare(c, d, pt, arr ? BY_ARRAY : BY_POINTER, clang_isConstQualifiedType(pt) != 0, true, 0);
    if (arr && ct.kind == CXType_ConstantArray) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", (long long)clang_getArraySize(ct));
        cf_sym *l = find_leaf(c, cf_decl_key(d), NULL);
        ((cf_leaf *)l->leaf)->arr->ext = cf_strdup(c, buf);
    }
    return true;
}

/* A pointer local to a struct, const sphere_t *s = &b[i].shape: an int, the index i, and
 * the struct (b, .shape) it points into; set where it is declared, never again. */
static void
pointer_local(cf *c, CXCursor d)
{
    unsigned m;
    CXCursor *init = cf_children(c, d, &m), e = clang_getNullCursor();
    for (unsigned j = 0; j < m; j++)
        if (clang_isExpression(clang_getCursorKind(init[j])))
            e = init[j];
    const char *name = cursor_name(c, d);
    uint64_t root;
    char path[256];
    cf_expr *ix = NULL;
    CXCursor call = clang_Cursor_isNull(e) ? e : cf_strip(e);
    while (!clang_Cursor_isNull(call) && (clang_getCursorKind(call) == CXCursor_CStyleCastExpr ||
                                          clang_getCursorKind(call) == CXCursor_UnexposedExpr)) {
        unsigned n;
        CXCursor *kk = cf_children(c, call, &n);
        call = n == 1 ? cf_strip(kk[0]) : clang_getNullCursor();
    }
    if (!clang_Cursor_isNull(call) && clang_getCursorKind(call) == CXCursor_CallExpr &&
        cf_ctor_local(c, d, call))
        return;
    if (!clang_Cursor_isNull(call) && clang_getCursorKind(call) == CXCursor_CallExpr) {
        CXType pt = clang_getPointeeType(clang_getCursorType(d));
        cf_refuse(c, d,
                  "pointer local '%s' to a struct is set by a call ('%s'), which is not "
                  "supported: the struct it points to cannot be known; declare the struct as a "
                  "local (%s %s_s = {...}; with any pointer member set by malloc) and use &%s_s",
                  name, cursor_name(c, call), type_name(c, pt, d), name, name);
    }
    if (clang_Cursor_isNull(e) || !designate(c, e, &root, path, sizeof path, &ix))
        cf_refuse(c, d,
                  "pointer local '%s' to a struct is supported only when it is set where it "
                  "is declared, to a struct: const T *%s = &b[i].m (or &s, p)",
                  name, name);
    cf_sym *s = cf_add_sym(c, name, CF_INT);
    s->decl = cf_decl_key(d);
    s->where = d;
    cf_leaf *l = cf_alloc(c, sizeof *l);
    l->root = s->decl;
    l->target = root;
    l->path = cf_strdup(c, path);
    l->rname = name;
    l->by = BY_LOCAL;
    l->at = d;
    s->leaf = l;
    cf_stmt *st = cf_new_stmt(c, CF_S_ASSIGN, cf_line(e));
    st->lhs = cf_alloc(c, sizeof *st->lhs);
    st->lhs->kind = CF_E_VAR;
    st->lhs->sym = s;
    st->rhs = ix ? ix : int_const(c, 0);
    cf_emit_stmt(c, st);
}

/* p = &b[j].m for pointer local p to a struct: p = j, into the same struct as before. */
static cf_stmt *
pointer_set(cf *c, CXCursor lhs, CXCursor rhs, unsigned line)
{
    CXCursor l = cf_strip(lhs);
    cf_sym *p = NULL;
    if (clang_getCursorKind(l) == CXCursor_DeclRefExpr) {
        uint64_t key = cf_decl_key(clang_getCursorReferenced(l));
        for (uint32_t i = 0; i < c->fn->syms.n && !p; i++)
            if (c->fn->syms.v[i]->leaf && c->fn->syms.v[i]->leaf->target &&
                c->fn->syms.v[i]->leaf->root == key)
                p = c->fn->syms.v[i];
    }
    if (!p)
        cf_refuse(c, lhs,
                  "assigning a pointer to a struct is supported only for a pointer "
                  "local: const T *p = &b[i]; ... p = &b[j];");
    uint64_t root;
    char path[256];
    cf_expr *ix = NULL;
    if (!designate(c, rhs, &root, path, sizeof path, &ix) || root != p->leaf->target ||
        strcmp(path, p->leaf->path))
        cf_refuse(c, rhs,
                  "pointer '%s' is set to another struct than where it is declared: use one "
                  "pointer for each",
                  p->name);
    cf_stmt *st = cf_new_stmt(c, CF_S_ASSIGN, line);
    st->lhs = cf_alloc(c, sizeof *st->lhs);
    st->lhs->kind = CF_E_VAR;
    st->lhs->sym = p;
    st->rhs = ix ? ix : int_const(c, 0);
    return st;
}

void
cf_struct_local_of(cf *c, CXCursor d, CXType t)
{
    declare(c, d, t, BY_LOCAL, false, false, 0);
}

bool
cf_struct_by_pointer(const cf_sym *s)
{
    return s->leaf && s->leaf->by == BY_POINTER;
}

void
cf_struct_rt_array(cf *c, CXCursor d, CXType t, const char *count)
{
    declare(c, d, t, BY_ARRAY, false, false, CF_RT_EXTENT);
    uint64_t key = cf_decl_key(d);
    for (uint32_t i = 0; i < c->fn->syms.n; i++) {
        cf_sym *s = c->fn->syms.v[i];
        cf_leaf *l = (cf_leaf *)s->leaf;
        if (!l || l->root != key || l->target)
            continue;
        l->arr->ext = count;
        s->dims[0] = CF_RT_EXTENT;
        s->dimx[0] = count;
        if (l->pmem) {
            s->dims[1] = CF_RT_EXTENT;
            s->dimx[1] = cf_arr_block(c, d, l->rname, l->path, s->name);
            l->given = true;
        }
    }
}

/* A local array of structs, pt pts[8]: one local array a member (pts_x[8], a member array
 * c[3] as pts_c[8][3]), indexed as an array of structs parameter is; assigned member by
 * member or element by element (pts[i] = q). */
static void
local_array(cf *c, CXCursor d, CXType ct, CXType el)
{
    const char *name = cursor_name(c, d);
    if (clang_Cursor_getStorageClass(d) == CX_SC_Static)
        cf_refuse(c, d, "static variable '%s' is not supported", name);
    if (clang_getCanonicalType(el).kind == CXType_ConstantArray)
        cf_refuse(c, d,
                  "'%s' is an array of structs of more than one dimension, which is not "
                  "supported: declare it with one dimension and index it as %s[i * n + j]",
                  name, name);
    int64_t n = clang_getArraySize(ct);
    if (n <= 0)
        cf_refuse(c, d, "local array of structs '%s' has no elements", name);
    declare(c, d, el, BY_ARRAY, false, false, n);
    cf_sym *l = find_leaf(c, cf_decl_key(d), NULL);
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)n);
    ((cf_leaf *)l->leaf)->arr->ext = cf_strdup(c, buf);
    unsigned m;
    CXCursor *init = cf_children(c, d, &m);
    for (unsigned j = 0; j < m; j++)
        if (clang_getCursorKind(init[j]) == CXCursor_InitListExpr) /* else: the size */
            cf_refuse(c, init[j],
                      "an initializer of a local array of structs is not supported: assign "
                      "its elements' members (%s[0].x = ...;)",
                      name);
}

bool
cf_struct_local(cf *c, CXCursor d)
{
    CXType t = clang_getCursorType(d), ct = clang_getCanonicalType(t);
    if (ct.kind == CXType_ConstantArray || ct.kind == CXType_Pointer) {
        CXType el =
            ct.kind == CXType_Pointer ? clang_getPointeeType(ct) : clang_getArrayElementType(ct);
        if (is_record(c, el, d) && ct.kind == CXType_Pointer) {
            pointer_local(c, d);
            return true;
        }
        CXType base = el;
        while (clang_getCanonicalType(base).kind == CXType_ConstantArray)
            base = clang_getArrayElementType(clang_getCanonicalType(base));
        if (ct.kind == CXType_ConstantArray && is_record(c, base, d)) {
            local_array(c, d, ct, clang_getArrayElementType(t));
            return true;
        }
        return false;
    }
    if (!is_record(c, t, d))
        return false;
    if (clang_Cursor_getStorageClass(d) == CX_SC_Static)
        cf_refuse(c, d, "static variable '%s' is not supported", cursor_name(c, d));
    declare(c, d, t, BY_LOCAL, false, false, 0);
    unsigned m;
    CXCursor *init = cf_children(c, d, &m);
    for (unsigned j = 0; j < m; j++) {
        if (!clang_isExpression(clang_getCursorKind(init[j])))
            continue;
        cf_stmt *last = cf_struct_assign(c, d, init[j], cf_line(init[j]));
        if (last)
            cf_emit_stmt(c, last);
    }
    return true;
}

/* -------------------------------------------------------- references */

/* What use b[ix] says of the extent of array of structs @a. */
static void
arr_use(cf *c, cf_sarr *a, const cf_expr *ix)
{
    if (a->bad || a->ext)
        return;
    if (ix->kind == CF_E_INT && ix->ival >= 0) {
        if (ix->ival + 1 > a->max)
            a->max = ix->ival + 1;
        return;
    }
    for (cf_bound *b = c->bounds; b; b = b->up)
        if (ix->kind == CF_E_VAR && !ix->nsub && ix->sym == b->var) {
            if (a->use && (cf_rt_expr_text(c, a->use) == NULL ||
                           strcmp(cf_rt_expr_text(c, a->use),
                                  cf_rt_expr_text(c, b->n) ? cf_rt_expr_text(c, b->n) : "") ||
                           a->plus1 != b->plus1))
                a->bad = true;
            a->use = b->n;
            a->plus1 = b->plus1;
            return;
        }
    a->bad = true;
}

/* The struct variable and path that @x designates (a struct-valued lvalue or a member
 * reference): *@root, @path; false when @x is none. */
static bool
designate(cf *c, CXCursor x, uint64_t *root, char *path, size_t len, cf_expr **ix)
{
    x = cf_strip(x);
    enum CXCursorKind k = clang_getCursorKind(x);
    while (k == CXCursor_UnexposedExpr) {
        unsigned n;
        CXCursor *kk = cf_children(c, x, &n);
        if (n != 1)
            return false;
        x = cf_strip(kk[0]);
        k = clang_getCursorKind(x);
    }
    if (k == CXCursor_CallExpr) /* a struct returned by value: a temporary (struct_ret.c) */
        return cf_struct_call(c, x, root, path, len, ix);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(x);
        CXType t = clang_getCursorType(d), ct = clang_getCanonicalType(t);
        bool rec = is_record(c, t, x) ||
                   (ct.kind == CXType_Pointer && is_record(c, clang_getPointeeType(ct), x)) ||
                   ((ct.kind == CXType_IncompleteArray || ct.kind == CXType_ConstantArray) &&
                    is_record(c, clang_getArrayElementType(ct), x));
        if (!rec)
            return false;
        *root = cf_inl_key(c, cf_decl_key(d));
        path[0] = 0;
        for (uint32_t i = 0; i < c->fn->syms.n; i++) { /* a pointer local: where it points */
            cf_sym *p = c->fn->syms.v[i];
            if (p->leaf && p->leaf->target && p->leaf->root == *root) {
                *root = p->leaf->target;
                snprintf(path, len, "%s", p->leaf->path);
                cf_expr *e = cf_alloc(c, sizeof *e);
                e->kind = CF_E_VAR;
                e->sym = p;
                *ix = e;
                break;
            }
        }
        return true;
    }
    if (k == CXCursor_UnaryOperator) { /* *p, and &s for a pointer parameter */
        char op[8];
        bool post;
        cf_unop_spelling(c, x, op, sizeof op, &post);
        unsigned n;
        CXCursor *kk = cf_children(c, x, &n);
        if ((!strcmp(op, "*") || !strcmp(op, "&")) && n == 1)
            return designate(c, kk[0], root, path, len, ix);
        return false;
    }
    if (k == CXCursor_ArraySubscriptExpr) {
        unsigned n;
        CXCursor *kk = cf_children(c, x, &n);
        cf_expr *ix0 = NULL;
        if (n != 2 || !designate(c, kk[0], root, path, len, &ix0))
            return false;
        cf_sym *l = find_leaf(c, *root, NULL);
        if (!l || l->leaf->by != BY_ARRAY || path[0] || ix0)
            cf_refuse(c, x,
                      "indexing a pointer to a struct is not supported: a pointer to a struct "
                      "points to one struct (p->a, (*p).a)");
        *ix = cf_expr_of(c, kk[1]);
        if (cf_expr_type(*ix) != CF_INT)
            cf_refuse(c, kk[1], "a subscript that is not an integer is not supported");
        arr_use(c, l->leaf->arr, *ix);
        return true;
    }
    if (k != CXCursor_MemberRefExpr)
        return false;
    unsigned n;
    CXCursor *kk = cf_children(c, x, &n);
    if (n < 1 || !designate(c, kk[0], root, path, len, ix))
        cf_refuse(c, x,
                  "this member reference is not supported: name the struct variable "
                  "(s.a, p->a)");
    size_t pl = strlen(path);
    snprintf(path + pl, len - pl, ".%s", cursor_name(c, x));
    return true;
}

static cf_sym *
find_leaf(cf *c, uint64_t root, const char *path)
{
    for (uint32_t i = 0; i < c->fn->syms.n; i++) {
        cf_sym *s = c->fn->syms.v[i];
        if (s->leaf && s->leaf->root == root && (!path || !strcmp(s->leaf->path, path)))
            return s;
    }
    return NULL;
}

/* A reference to member @s, of the element @ix of an array of structs (NULL: 0). */
static cf_expr *
leaf_ref(cf *c, cf_sym *s, cf_expr *ix)
{
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = CF_E_VAR;
    e->sym = s;
    if (s->leaf->by == BY_ARRAY) {
        if (!ix) {
            ix = cf_alloc(c, sizeof *ix);
            ix->kind = CF_E_INT;
        }
        e->nsub = 1;
        e->sub[0] = ix;
    }
    return e;
}

cf_expr *
cf_struct_member(cf *c, CXCursor x)
{
    x = cf_strip(x);
    if (clang_getCursorKind(x) != CXCursor_MemberRefExpr)
        return NULL;
    uint64_t root;
    char path[256];
    cf_expr *ix = NULL;
    if (!designate(c, x, &root, path, sizeof path, &ix))
        return NULL;
    cf_sym *s = find_leaf(c, root, path);
    if (!s)
        cf_refuse(c, x, "using struct member '%s' as a whole is not supported: use its members",
                  path + 1);
    return leaf_ref(c, s, ix);
}

typedef struct {
    uint64_t root;
    cf_expr *ix;
    const char *prefix;
    bool toarray; /* the parameter is an array of structs */
    cf_stmt *st;
    bool byvalue;
    CXCursor arg;
} arg_ctx;

static cf_expr *
int_const(cf *c, int64_t v)
{
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = CF_E_INT;
    e->ival = v;
    return e;
}

static void
arg_leaf(cf *c, CXCursor at, const char *path, CXType t, void *ctx)
{
    (void)t;
    (void)at;
    arg_ctx *x = ctx;
    char p[300];
    snprintf(p, sizeof p, "%s%s", x->prefix, path);
    cf_sym *s = find_leaf(c, x->root, p);
    if (!s)
        cf_refuse(c, x->arg, "member '%s' of this struct argument is not known", p + 1);
    bool arr = s->leaf->by == BY_ARRAY;
    if (x->toarray && !arr)
        cf_refuse(c, x->arg,
                  "passing one struct to a parameter that is an array of structs is not "
                  "supported");
    int pre = arr ? 1 : 0; /* the element's index, first */
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = CF_E_VAR;
    e->sym = s;
    if (arr && !(x->toarray && !x->ix)) { /* b[i]: the element (and those after it) */
        e->nsub = s->rank;
        e->sub[0] = x->ix ? x->ix : int_const(c, 0);
        for (int k = 1; k < s->rank; k++)
            e->sub[k] = int_const(c, 0);
    }
    if (x->byvalue && !s->leaf->pmem) { /* a copy, arrays too: the callee cannot change the
                                             caller's (not the array a pointer points to) */
        cf_sym *tmp = cf_temp(c, "OAD_CTMP", s->type);
        tmp->rank = s->rank - pre;
        memcpy(tmp->dims, s->dims + pre, sizeof s->dims[0] * (size_t)tmp->rank);
        int64_t n = 1;
        for (int k = 0; k < tmp->rank; k++)
            n *= tmp->dims[k];
        for (int64_t i = 0; i < n; i++) {
            cf_stmt *cp = cf_new_stmt(c, CF_S_ASSIGN, cf_line(x->arg));
            cp->lhs = cf_alloc(c, sizeof *cp->lhs);
            cp->rhs = cf_alloc(c, sizeof *cp->rhs);
            cp->lhs->kind = cp->rhs->kind = CF_E_VAR;
            cp->lhs->sym = tmp;
            cp->rhs->sym = s;
            cp->lhs->nsub = tmp->rank;
            cp->rhs->nsub = s->rank;
            if (pre)
                cp->rhs->sub[0] = e->sub[0];
            for (int k = tmp->rank - 1; k >= 0; k--) { /* C order, the last fastest */
                int64_t q = i;
                for (int j = tmp->rank - 1; j > k; j--)
                    q /= tmp->dims[j];
                cp->lhs->sub[k] = cp->rhs->sub[k + pre] = int_const(c, q % tmp->dims[k]);
            }
            cf_emit_stmt(c, cp);
        }
        e = cf_alloc(c, sizeof *e);
        e->kind = CF_E_VAR;
        e->sym = tmp;
    }
    if (!XF_VEC_PUSH(c->a, x->st->args, e))
        cf_oom(c);
}

bool
cf_struct_arg(cf *c, CXCursor arg, CXCursor formal, cf_stmt *st)
{
    CXType ft = clang_getCursorType(formal), ct = clang_getCanonicalType(ft);
    CXType rt = ft;
    bool byvalue = is_record(c, ft, formal);
    if (!byvalue) {
        if (ct.kind == CXType_IncompleteArray || ct.kind == CXType_ConstantArray)
            rt = clang_getArrayElementType(ct);
        else if (ct.kind == CXType_Pointer)
            rt = clang_getPointeeType(ct);
        else
            return false;
        if (!is_record(c, rt, formal))
            return false;
    }
    char path[256];
    arg_ctx x = {.st = st, .byvalue = byvalue, .arg = arg, .prefix = path};
    x.toarray = !byvalue && (ct.kind != CXType_Pointer ||
                             indexed_in(c, clang_getCursorSemanticParent(formal), formal));
    if (!designate(c, arg, &x.root, path, sizeof path, &x.ix))
        cf_refuse(c, arg,
                  "this struct argument is not supported: pass a struct variable, one of its "
                  "struct members, or its address (&s, p)");
    each_leaf(c, arg, rt, "", arg_leaf, &x, 0);
    return true;
}

void
cf_struct_out_args(cf *c, CXCursor at, CXType rt, uint64_t root, cf_stmt *st)
{
    arg_ctx x = {.st = st, .arg = at, .prefix = "", .root = root};
    each_leaf(c, at, rt, "", arg_leaf, &x, 0);
}

typedef struct {
    uint64_t lroot, rroot;
    cf_expr *lix, *rix;
    const char *lpre, *rpre;
    unsigned line;
    cf_stmt *last;
    CXCursor at;
} copy_ctx;

static void
copy_leaf(cf *c, CXCursor at, const char *path, CXType t, void *ctx)
{
    (void)t;
    (void)at;
    copy_ctx *x = ctx;
    char lp[300], rp[300];
    snprintf(lp, sizeof lp, "%s%s", x->lpre, path);
    snprintf(rp, sizeof rp, "%s%s", x->rpre, path);
    cf_sym *l = find_leaf(c, x->lroot, lp), *r = find_leaf(c, x->rroot, rp);
    if (!l || !r)
        cf_refuse(c, x->at, "this struct assignment is not supported");
    if (l->leaf->pmem || r->leaf->pmem)
        cf_refuse(c, x->at,
                  "assigning a struct with a pointer member ('%s') is not supported: assign its "
                  "other members and copy the elements of the array",
                  lp + 1);
    int lpre = l->leaf->by == BY_ARRAY, rpre = r->leaf->by == BY_ARRAY;
    int64_t n = 1;
    for (int k = lpre; k < l->rank; k++)
        n *= l->dims[k];
    if (l->rank - lpre > 1)
        cf_refuse(c, x->at,
                  "assigning a struct with a member array of %d dimensions is not supported: "
                  "assign its members",
                  l->rank - lpre);
    for (int64_t i = 0; i < n; i++) {
        cf_expr *le = leaf_ref(c, l, x->lix), *re = leaf_ref(c, r, x->rix);
        if (l->rank - lpre) {
            le->nsub = l->rank;
            re->nsub = r->rank;
            le->sub[lpre] = re->sub[rpre] = int_const(c, i);
        }
        if (x->last)
            cf_emit_stmt(c, x->last);
        x->last = cf_new_stmt(c, CF_S_ASSIGN, x->line);
        x->last->lhs = le;
        x->last->rhs = re;
    }
}

typedef struct {
    CXCursor *el;
    unsigned ne, next;
    uint64_t root;
    const char *pre;
    unsigned line;
    cf_stmt *last;
} init_ctx;

/* Whether @e is a null pointer constant: NULL, ((void *)0), 0. */
static bool
null_const(cf *c, CXCursor e)
{
    for (;;) {
        e = cf_strip(e);
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_IntegerLiteral)
            return true;
        unsigned n;
        CXCursor *kk = cf_children(c, e, &n);
        if ((k != CXCursor_CStyleCastExpr && k != CXCursor_UnexposedExpr) || n != 1)
            return false;
        e = kk[0];
    }
}

/* Pointer member @l of a local struct initialized with @e: malloc sizes it, NULL leaves it
 * unset; false for anything else. */
static bool
init_pointer(cf *c, cf_sym *l, CXCursor e, const char *lp)
{
    char name[300];
    snprintf(name, sizeof name, "%s%s", l->leaf->rname, lp);
    const char *size = cf_heap_size(c, e, name);
    if (size) {
        if (l->dimx[0] && strcmp(l->dimx[0], size))
            cf_refuse(c, e, "pointer member '%s' is malloc'ed with two sizes", name);
        l->dimx[0] = size;
        return true;
    }
    return null_const(c, e);
}

/* One member of an initializer list, flat: {1, 2, {3, 4}} or {1, 2, 3, 4} are
 * both accepted when the braces match the members (nested lists are walked). */
static void
init_leaf(cf *c, CXCursor at, const char *path, CXType t, void *ctx)
{
    (void)t;
    init_ctx *x = ctx;
    char lp[300];
    snprintf(lp, sizeof lp, "%s%s", x->pre, path);
    cf_sym *l = find_leaf(c, x->root, lp);
    if (!l)
        cf_refuse(c, at, "this struct initializer is not supported");
    if (l->leaf->pmem) { /* malloc(...) sizes it; NULL or 0 leaves it to a later malloc */
        if (x->next < x->ne && !init_pointer(c, l, x->el[x->next], lp))
            cf_refuse(c, x->el[x->next],
                      "pointer member '%s' of a local struct may only be initialized with "
                      "malloc(n * sizeof(double)), calloc(n, sizeof(double)) or NULL",
                      lp + 1);
        x->next++;
        return;
    }
    int64_t n = 1;
    for (int k = 0; k < l->rank; k++)
        n *= l->dims[k];
    CXCursor *el = x->el;
    unsigned ne = x->ne, pos = x->next;
    bool sub = false;
    if (l->rank && pos < ne && clang_getCursorKind(el[pos]) == CXCursor_InitListExpr) {
        el = cf_children(c, el[pos], &ne);
        sub = true;
        if (l->rank > 1)
            cf_refuse(c, at,
                      "initializers of member arrays of more than one dimension are not "
                      "supported: assign its elements");
        pos = 0;
    }
    for (int64_t i = 0; i < n; i++, pos++) {
        cf_expr *le = cf_alloc(c, sizeof *le);
        le->kind = CF_E_VAR;
        le->sym = l;
        if (l->rank) {
            cf_expr *ix = cf_alloc(c, sizeof *ix);
            ix->kind = CF_E_INT;
            ix->ival = i;
            le->nsub = 1;
            le->sub[0] = ix;
            if (l->rank > 1) /* flat: element i of the storage */
                cf_refuse(c, at,
                          "initializers of member arrays of more than one dimension are "
                          "not supported: assign its elements");
        }
        cf_expr *re;
        if (pos < ne) {
            if (clang_getCursorKind(el[pos]) == CXCursor_InitListExpr)
                cf_refuse(c, el[pos],
                          "this struct initializer is not supported: write the "
                          "members' values in order, without inner braces");
            re = cf_expr_of(c, el[pos]);
        } else {
            re = cf_alloc(c, sizeof *re);
            re->kind = CF_E_INT;
        }
        if (cf_is_real(l->type) && !cf_is_real(cf_expr_type(re))) {
            if (re->kind == CF_E_INT) {
                re->kind = CF_E_REAL;
                re->rval = (double)re->ival;
            } else {
                cf_expr *cv = cf_alloc(c, sizeof *cv);
                cv->kind = CF_E_OP;
                cv->op = "real_scal";
                cv->a[0] = re;
                cv->nargs = 1;
                re = cv;
            }
        } else if (!cf_is_real(l->type) && cf_is_real(cf_expr_type(re)))
            cf_refuse(c, at, "initializing int member '%s' with a real value is not supported",
                      lp + 1);
        if (x->last)
            cf_emit_stmt(c, x->last);
        x->last = cf_new_stmt(c, CF_S_ASSIGN, x->line);
        x->last->lhs = le;
        x->last->rhs = re;
    }
    x->next = sub ? x->next + 1 : pos;
}

/* The pointer member of a local struct that member reference @x names, or NULL. */
static cf_sym *
local_pmem(cf *c, CXCursor x)
{
    x = cf_strip(x);
    if (clang_getCursorKind(x) != CXCursor_MemberRefExpr)
        return NULL;
    uint64_t root;
    char path[256];
    cf_expr *ix = NULL;
    if (!designate(c, x, &root, path, sizeof path, &ix))
        return NULL;
    cf_sym *s = find_leaf(c, root, path);
    return s && s->leaf->pmem && (s->leaf->by == BY_LOCAL || s->leaf->nlocal == CF_RT_EXTENT)
               ? s
               : NULL;
}

cf_sym *
cf_struct_heap(cf *c, CXCursor x)
{
    return local_pmem(c, x);
}

/* m.data = malloc(n * sizeof(double)) for local struct m: the work array m_data is sized so
 * (allocated, zero, at the function's entry, and freed at its end); a dead int store stands
 * for the statement. */
static cf_stmt *
heap_set(cf *c, cf_sym *s, CXCursor lhs, CXCursor rhs, unsigned line)
{
    char name[300];
    snprintf(name, sizeof name, "%s%s", s->leaf->rname, s->leaf->path);
    const char *size = s->leaf->given ? NULL : cf_heap_size(c, rhs, name);
    bool null = !size && null_const(c, rhs); /* NULL: sized by a later malloc, or never used */
    if (!size && !null && !s->leaf->given)
        cf_refuse(c, rhs,
                  "pointer member '%s' of a local struct is supported only when it is set to "
                  "malloc(n * sizeof(double)) or calloc(n, sizeof(double)), n an expression of "
                  "the int parameters",
                  name);
    if (size && s->dimx[0] && strcmp(s->dimx[0], size))
        cf_refuse(c, lhs,
                  "pointer member '%s' is malloc'ed with two sizes ('%s' and '%s'): use one "
                  "local struct for each",
                  name, s->dimx[0], size);
    if (size)
        s->dimx[0] = size;
    cf_stmt *st = cf_new_stmt(c, CF_S_ASSIGN, line);
    st->lhs = cf_alloc(c, sizeof *st->lhs);
    st->lhs->kind = CF_E_VAR;
    st->lhs->sym = cf_temp(c, "OAD_CTMP", CF_INT);
    st->rhs = int_const(c, 0);
    return st;
}

cf_stmt *
cf_struct_assign(cf *c, CXCursor lhs, CXCursor rhs, unsigned line)
{
    CXType lt = clang_getCursorType(lhs), lct = clang_getCanonicalType(lt);
    if (lct.kind == CXType_Pointer && is_record(c, clang_getPointeeType(lct), lhs))
        return pointer_set(c, lhs, rhs, line);
    cf_sym *hs = lct.kind == CXType_Pointer ? local_pmem(c, lhs) : NULL;
    if (hs)
        return heap_set(c, hs, lhs, rhs, line);
    if (!is_record(c, lt, lhs))
        return NULL;
    uint64_t lroot;
    cf_expr *lix = NULL;
    char lpath[256];
    if (clang_getCursorKind(lhs) == CXCursor_VarDecl) {
        lroot = cf_decl_key(lhs);
        lpath[0] = 0;
    } else if (!designate(c, lhs, &lroot, lpath, sizeof lpath, &lix))
        cf_refuse(c, lhs, "this struct assignment target is not supported");
    return cf_struct_assign_to(c, lroot, lpath, lix, lt, rhs, line);
}

cf_stmt *
cf_struct_assign_to(cf *c, uint64_t lroot, const char *lpath, cf_expr *lix, CXType lt, CXCursor rhs,
                    unsigned line)
{
    char rpath[256];
    CXCursor r = cf_strip(rhs);
    while (clang_getCursorKind(r) == CXCursor_UnexposedExpr ||
           clang_getCursorKind(r) == CXCursor_CompoundLiteralExpr) { /* (T){...} */
        unsigned n;
        CXCursor *kk = cf_children(c, r, &n);
        if (n == 0 || (n != 1 && clang_getCursorKind(r) != CXCursor_CompoundLiteralExpr))
            break;
        r = cf_strip(kk[n - 1]); /* (T){...}: a TypeRef may come first */
    }
    if (clang_getCursorKind(r) == CXCursor_InitListExpr) {
        if (lix)
            cf_refuse(c, rhs,
                      "an initializer list for an element of an array of structs is not "
                      "supported: assign its members");
        init_ctx x = {.root = lroot, .pre = lpath, .line = line};
        x.el = cf_children(c, r, &x.ne);
        each_leaf(c, rhs, lt, "", init_leaf, &x, 0);
        if (x.next < x.ne)
            cf_refuse(c, rhs,
                      "this struct initializer has more values than the struct has "
                      "members");
        return x.last;
    }
    copy_ctx x = {
        .lroot = lroot, .lix = lix, .lpre = lpath, .rpre = rpath, .line = line, .at = rhs};
    if (!designate(c, rhs, &x.rroot, rpath, sizeof rpath, &x.rix))
        cf_refuse(c, rhs,
                  "this struct value is not supported: assign a struct variable or member, or "
                  "an initializer list");
    each_leaf(c, rhs, lt, "", copy_leaf, &x, 0);
    return x.last;
}

/* ---------------------------------------------------------- independents */

bool
cf_struct_named(cf *c, cf_fn *top, const char *name, bool *mark)
{
    char root[128], path[256] = "";
    size_t n = strcspn(name, ".-");
    if (n >= sizeof root)
        return false;
    memcpy(root, name, n);
    root[n] = 0;
    if (name[n] == '.')
        snprintf(path, sizeof path, "%s", name + n);
    else if (name[n] == '-' && name[n + 1] == '>')
        snprintf(path, sizeof path, ".%s", name + n + 2);
    else if (name[n])
        return false;
    size_t pl = strlen(path);
    bool any = false, named = false;
    for (uint32_t i = 0; i < top->formals.n; i++) {
        cf_sym *s = top->formals.v[i];
        if (!s->leaf || strcmp(s->leaf->rname, root))
            continue;
        named = true;
        if (strncmp(s->leaf->path, path, pl) || (s->leaf->path[pl] && s->leaf->path[pl] != '.'))
            continue;
        if (cf_is_real(s->type)) {
            mark[s->node] = true;
            any = true;
        }
    }
    if (named && !any)
        cf_refuse(c, top->decl, "'%s' names no floating-point member of a struct parameter of '%s'",
                  name, top->name);
    (void)c;
    return named;
}

/* ---------------------------------------------------------- annotation */

void
cf_struct_annotation(const cf_sym *s, char *buf, size_t len)
{
    static const char *const by[] = {"local", "value", "pointer", "array"};
    const cf_leaf *l = s->leaf;
    if (l->by == BY_LOCAL || l->nlocal)
        return; /* the back end needs only the parameters' */
    size_t n = strlen(buf);
    snprintf(buf + n, len - n, ";xf_member=%s%s|%s|%s|%s%s", l->rconst ? "const " : "", by[l->by],
             l->rtype, l->rname, l->path, l->pmem ? "|*" : "");
    if (l->first && l->defs && l->by != BY_LOCAL) {
        n = strlen(buf);
        snprintf(buf + n, len - n, "%s", l->defs);
    }
}

/* ------------------------------------------------------------- extents */

bool
cf_struct_extent(cf *c, cf_fn *f, const char *opt)
{
    const char *eq = strchr(opt, '=');
    if (!eq)
        return false;
    for (uint32_t i = 0; i < f->formals.n; i++) {
        cf_sym *s = f->formals.v[i];
        if (s->leaf && s->leaf->by == BY_ARRAY && s->leaf->pmem &&
            strlen(s->name) == (size_t)(eq - opt) && !strncmp(s->name, opt, (size_t)(eq - opt))) {
            char what[200]; /* b->data=E: each element's block */
            snprintf(what, sizeof what, "--extent %s", opt);
            s->dimx[1] = cf_rt_text(c, f, eq + 1, f->decl, what);
            s->dims[1] = CF_RT_EXTENT;
            return true;
        }
        if (!s->leaf || s->leaf->by != BY_ARRAY || strlen(s->leaf->rname) != (size_t)(eq - opt) ||
            strncmp(s->leaf->rname, opt, (size_t)(eq - opt)))
            continue;
        char what[200];
        snprintf(what, sizeof what, "--extent %s", opt);
        s->leaf->arr->ext = cf_rt_text(c, f, eq + 1, f->decl, what);
        return true;
    }
    return false;
}

void
cf_struct_extents(cf *c, cf_fn *f)
{
    for (uint32_t i = 0; i < f->syms.n; i++) {
        const cf_sym *s = f->syms.v[i];
        if (s->leaf && s->leaf->pmem && s->leaf->by == BY_LOCAL && !s->dimx[0])
            cf_refuse(c, s->leaf->at,
                      "pointer member '%s%s' of local struct '%s' is never malloc'ed: set it "
                      "as %s%s = malloc(n * sizeof(double)), n an expression of the int "
                      "parameters, or give its extent as --extent %s:%s->%s=N",
                      s->leaf->rname, s->leaf->path, s->leaf->rname, s->leaf->rname, s->leaf->path,
                      f->name, s->leaf->rname, s->leaf->path + 1);
    }
    for (uint32_t i = 0; i < f->formals.n; i++) {
        cf_sym *s = f->formals.v[i];
        if (!s->leaf || s->leaf->by != BY_ARRAY)
            continue;
        cf_sarr *a = s->leaf->arr;
        if (!a->ext && a->use && !a->bad) {
            const char *t = cf_rt_expr_text(c, a->use);
            if (t) {
                char buf[600];
                snprintf(buf, sizeof buf, "%s%s", t, a->plus1 ? " + 1" : "");
                a->ext = cf_strdup(c, buf);
            }
        }
        if (!a->ext && !a->use && !a->bad && a->max > 0) {
            char buf[32];
            snprintf(buf, sizeof buf, "%lld", (long long)a->max);
            a->ext = cf_strdup(c, buf);
        }
        if (!a->ext)
            cf_refuse(c, s->leaf->at,
                      "the extent of array of structs '%s' is not known: give --extent %s=N (an "
                      "expression of the int parameters), or index it only as %s[i] in loops "
                      "for (i = 0; i < n; i++)",
                      s->leaf->rname, s->leaf->rname, s->leaf->rname);
        s->dimx[0] = a->ext;
        s->dims[0] = CF_RT_EXTENT;
        if (s->leaf->pmem && s->dims[1] == -1)
            cf_refuse(c, s->leaf->at,
                      "the extent of pointer member '%s[i]%s' of array of structs '%s' is not "
                      "known: give --extent %s->%s=N, N an expression of the int parameters "
                      "(every element's block of N elements)",
                      s->leaf->rname, s->leaf->path, s->leaf->rname, s->leaf->rname,
                      s->leaf->path + 1);
    }
}

void
cf_struct_no_extent(cf *c, const cf_fn *f, const cf_sym *s)
{
    if (!s->leaf || !s->leaf->pmem)
        return;
    const cf_leaf *l = s->leaf;
    const char *arrow = l->by == BY_POINTER ? "->" : ".";
    cf_refuse(
        c, s->where,
        "the extent of pointer member '%s%s%s' of '%s' is not known: give --extent "
        "%s%s%s%s%s=N, N an expression of the int parameters and int members (such as "
        "%s%snrows*%s%sncols), or index it only as %s%s%s[i] in loops for (i = 0; i < n; i++)",
        l->rname, arrow, l->path + 1, f->name, f->index ? f->name : "", f->index ? ":" : "",
        l->rname, arrow, l->path + 1, l->rname, arrow, l->rname, arrow, l->rname, arrow,
        l->path + 1);
}
