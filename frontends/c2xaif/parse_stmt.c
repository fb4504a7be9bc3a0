/* parse_stmt.c: a C function's statements to the front end's control-flow
 * graph (the table in docs/c-frontend.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf.h"

/* A loop or switch being walked: where break and continue go. */
typedef struct cf_jump {
    struct cf_jump *up;
    bool is_switch;
    uint32_t cont; /* loops: the continue target */
    XF_VEC(uint32_t) breaks;
} cf_jump;

/* ------------------------------------------------------------- graph */

static uint32_t
vertex(cf *c, cf_vkind k, unsigned line)
{
    cf_vert v = {.kind = k, .line = line};
    if (!XF_VEC_PUSH(c->a, c->fn->v, v))
        cf_oom(c);
    return c->fn->v.n - 1;
}

static void
edge(cf *c, uint32_t s, uint32_t t, bool has_cv, int64_t cv)
{
    cf_edge e = {.src = s, .tgt = t, .has_cv = has_cv, .cv = cv};
    if (!XF_VEC_PUSH(c->a, c->fn->e, e))
        cf_oom(c);
}

/* Flow goes on to the new vertex @v (from cur, if anything reaches cur). */
static void
go(cf *c, uint32_t v, bool open)
{
    cf_fn *f = c->fn;
    if (f->live)
        edge(c, f->cur, v, false, 0);
    f->cur = v;
    f->live = true;
    f->open = open;
}

/* A fresh basic block that flow enters from @from (condition value @cv). */
static uint32_t
arm(cf *c, uint32_t from, bool has_cv, int64_t cv, unsigned line)
{
    uint32_t b = vertex(c, CF_V_BB, line);
    edge(c, from, b, has_cv, cv);
    c->fn->cur = b;
    c->fn->live = true;
    c->fn->open = true;
    return b;
}

uint32_t
cf_g_vertex(cf *c, cf_vkind k, unsigned line)
{
    return vertex(c, k, line);
}
void
cf_g_edge(cf *c, uint32_t s, uint32_t t, bool has_cv, int64_t cv)
{
    edge(c, s, t, has_cv, cv);
}
void
cf_g_go(cf *c, uint32_t v, bool open)
{
    go(c, v, open);
}
uint32_t
cf_g_arm(cf *c, uint32_t from, bool has_cv, int64_t cv, unsigned line)
{
    return arm(c, from, has_cv, cv, line);
}

cf_stmt *
cf_new_stmt(cf *c, cf_skind k, unsigned line)
{
    cf_stmt *s = cf_alloc(c, sizeof *s);
    s->kind = k;
    s->line = line;
    s->id = ++c->fn->nstmt;
    return s;
}

void
cf_emit_stmt(cf *c, cf_stmt *s)
{
    cf_fn *f = c->fn;
    if (!f->live)
        return; /* dead code after return, break or continue */
    if (cf_pt_dispatch(c, s))
        return; /* through a pointer into several arrays: once for each (ptarget.c) */
    if (!f->open)
        go(c, vertex(c, CF_V_BB, s->line), true);
    if (!XF_VEC_PUSH(c->a, f->v.v[f->cur].stmts, s))
        cf_oom(c);
}

/* A jump from cur to @t (break, continue, return); nothing follows it. */
static void
jump_to(cf *c, uint32_t t)
{
    if (c->fn->live)
        edge(c, c->fn->cur, t, false, 0);
    c->fn->live = false;
}

/* Pending breaks of @j go to a new block after the loop or switch. */
static void
land_breaks(cf *c, cf_jump *j)
{
    if (j->breaks.n == 0)
        return;
    uint32_t after = vertex(c, CF_V_BB, 0);
    for (uint32_t i = 0; i < j->breaks.n; i++)
        edge(c, j->breaks.v[i], after, false, 0);
    go(c, after, true);
}

/* ------------------------------------------------------------ statements */

static void walk(cf *c, CXCursor x);

static cf_stmt *
assign(cf *c, cf_expr *lhs, cf_expr *rhs, unsigned line)
{
    cf_stmt *s = cf_new_stmt(c, CF_S_ASSIGN, line);
    s->lhs = lhs;
    s->rhs = rhs;
    return s;
}

static cf_expr *
with_type(cf *c, cf_expr *e, cf_type t)
{
    cf_type from = cf_expr_type(e);
    if (cf_is_real(from) == cf_is_real(t))
        return e;
    cf_expr *r = cf_alloc(c, sizeof *r);
    r->kind = CF_E_OP;
    r->op = cf_is_real(t) ? "real_scal" : "int_scal";
    r->a[0] = e;
    r->nargs = 1;
    return r;
}

static cf_expr *
binary(cf *c, const char *op, cf_expr *a, cf_expr *b)
{
    cf_expr *r = cf_alloc(c, sizeof *r);
    r->kind = CF_E_OP;
    r->op = op;
    r->a[0] = a;
    r->a[1] = b;
    r->nargs = 2;
    return r;
}

static cf_expr *
copy_ref(cf *c, const cf_expr *e)
{
    cf_expr *r = cf_alloc(c, sizeof *r);
    *r = *e;
    return r;
}

/* An assignment-like statement (=, op=, ++, --, a call), or NULL when @x is
 * something else. Hoisted calls are emitted first; the statement is returned
 * unemitted. */
static cf_stmt *
simple(cf *c, CXCursor x)
{
    char op[8];
    x = cf_strip(x);
    unsigned line = cf_line(x);
    switch (clang_getCursorKind(x)) {
    case CXCursor_BinaryOperator: {
        cf_binop_spelling(c, x, op, sizeof op);
        if (strcmp(op, "=") != 0)
            return NULL;
        unsigned n;
        CXCursor *k = cf_children(c, x, &n);
        cf_stmt *st = cf_struct_assign(c, k[0], k[1], line);
        if (st)
            return st;
        cf_sym *p = cf_ptr_target(c, k[0]);
        if (p) { /* p = &a[k], a + k, q, c ? q : r: its offset, and its array */
            cf_expr *off = cf_pt_assign(c, p, k[1]);
            cf_expr *lhs = cf_alloc(c, sizeof *lhs);
            lhs->kind = CF_E_VAR;
            lhs->sym = p;
            return assign(c, lhs, off, line);
        }
        cf_pt_heap_assign(c, k[0]); /* a = b of a work array: refused (ptarget.c) */
        cf_expr *rhs = cf_expr_of(c, k[1]);
        cf_expr *lhs = cf_lvalue_of(c, k[0]);
        return assign(c, lhs, with_type(c, rhs, lhs->sym->type), line);
    }
    case CXCursor_CompoundAssignOperator: {
        cf_binop_spelling(c, x, op, sizeof op);
        static const char *const ops[][2] = {{"+=", "add_scal_scal"},
                                             {"-=", "sub_scal_scal"},
                                             {"*=", "mul_scal_scal"},
                                             {"/=", "div_scal_scal"},
                                             {"%=", "mod_scal_scal"}};
        const char *name = NULL;
        for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
            if (strcmp(op, ops[i][0]) == 0)
                name = ops[i][1];
        if (!name)
            cf_refuse(c, x, "operator '%s' is not supported", op);
        unsigned n;
        CXCursor *k = cf_children(c, x, &n);
        cf_expr *rhs = cf_expr_of(c, k[1]);
        cf_expr *lhs = cf_lvalue_of(c, k[0]);
        cf_expr *v = binary(c, name, copy_ref(c, lhs), rhs);
        return assign(c, lhs, with_type(c, v, lhs->sym->type), line);
    }
    case CXCursor_UnaryOperator: {
        bool post;
        cf_unop_spelling(c, x, op, sizeof op, &post);
        if (strcmp(op, "++") != 0 && strcmp(op, "--") != 0)
            return NULL;
        unsigned n;
        CXCursor *k = cf_children(c, x, &n);
        cf_expr *lhs = cf_lvalue_of(c, k[0]);
        cf_expr *one = cf_alloc(c, sizeof *one);
        one->kind = CF_E_INT;
        one->ival = 1;
        cf_expr *v = binary(c, op[0] == '+' ? "add_scal_scal" : "sub_scal_scal", copy_ref(c, lhs),
                            with_type(c, one, lhs->sym->type));
        return assign(c, lhs, v, line);
    }
    case CXCursor_CallExpr: {
        CXCursor callee = clang_getCursorReferenced(x);
        if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl)
            cf_refuse(c, x, "calls through function pointers are not supported");
        if (cf_arr_dtor_call(c, x))
            return NULL; /* a destructor of an array constructor's array (arr_ctor.c) */
        if (cf_dtor_call(c, x))
            return NULL; /* a destructor of a constructor's struct (ctor.c) */
        if (cf_resize_call(c, x))
            return NULL; /* a resizer of a constructor's struct (resize.c) */
        cf_fn *f = cf_find_fn(c, callee);
        if (!f && cf_heap_free(c, x))
            return NULL;
        if (!f) {
            CXString s = clang_getCursorSpelling(callee);
            char name[128];
            snprintf(name, sizeof name, "%s", clang_getCString(s));
            clang_disposeString(s);
            if (cf_mem_call(c, x, name))
                return NULL;
            if (!cf_passive_call(c, x, name)) /* its result is not used: kept as it is */
                cf_unseen_refuse(c, x, name);
            return NULL;
        }
        cf_resize_through(c, x); /* a local that the callee resizes (resize.c) */
        CXType rt = clang_getCursorResultType(f->decl);
        cf_sym *res = NULL;
        uint64_t root;
        char path[8];
        cf_expr *ix;
        if (cf_struct_call(c, x, &root, path, sizeof path, &ix))
            return NULL; /* a struct result not used: into a temporary */
        if (clang_getCanonicalType(rt).kind != CXType_Void)
            res = cf_temp(c, "OAD_RES", cf_type_of(c, rt, x));
        cf_call_stmt(c, x, f, res);
        return NULL;
    }
    default:
        return NULL;
    }
}

cf_stmt *
cf_simple_stmt(cf *c, CXCursor x)
{
    return simple(c, x);
}

/* A statement used as a loop header's part: one assignment, or refused. */
static cf_stmt *
header_stmt(cf *c, CXCursor x, const char *what)
{
    const char *saved = c->no_calls;
    c->no_calls = "a call in a loop header";
    cf_stmt *s = simple(c, x);
    c->no_calls = saved;
    if (!s)
        cf_refuse(c, x, "this %s of a loop is not supported", what);
    return s;
}

/* Array @s's elements from initializer list @x at dimension @d (the
 * subscripts before it in @ix): one assignment an element, 0 where the list
 * is short; a row without its braces is refused. */
static void
init_list(cf *c, cf_sym *s, CXCursor x, int d, int64_t *ix, unsigned line)
{
    unsigned ne = 0;
    CXCursor *el = !clang_Cursor_isNull(x) ? cf_children(c, x, &ne) : NULL;
    for (int64_t q = 0; q < s->dims[d]; q++) {
        ix[d] = q;
        CXCursor e = q < (int64_t)ne ? el[q] : clang_getNullCursor();
        if (d + 1 < s->rank) {
            if (!clang_Cursor_isNull(e) && clang_getCursorKind(e) != CXCursor_InitListExpr)
                cf_refuse(c, e,
                          "this initializer of array '%s' leaves out the braces of a row: "
                          "write each row in braces ({{1, 0}, {0, 1}})",
                          s->name);
            init_list(c, s, e, d + 1, ix, line);
            continue;
        }
        cf_expr *lhs = cf_alloc(c, sizeof *lhs), *rhs;
        lhs->kind = CF_E_VAR;
        lhs->sym = s;
        lhs->nsub = s->rank;
        for (int k = 0; k < s->rank; k++) {
            lhs->sub[k] = cf_alloc(c, sizeof *lhs->sub[k]);
            lhs->sub[k]->kind = CF_E_INT;
            lhs->sub[k]->ival = ix[k];
        }
        if (!clang_Cursor_isNull(e))
            rhs = cf_expr_of(c, e);
        else {
            rhs = cf_alloc(c, sizeof *rhs);
            rhs->kind = CF_E_INT;
        }
        cf_emit_stmt(c, assign(c, lhs, with_type(c, rhs, s->type), line));
    }
}

static void
decl_stmt(cf *c, CXCursor x)
{
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    for (unsigned i = 0; i < n; i++) {
        enum CXCursorKind kk = clang_getCursorKind(k[i]);
        if (kk != CXCursor_VarDecl)
            cf_refuse(c, k[i], "this declaration is not supported");
        if (cf_struct_local(c, k[i]))
            continue;
        cf_sym *s = cf_declare(c, k[i], false);
        unsigned m;
        CXCursor *init = cf_children(c, k[i], &m);
        for (unsigned j = 0; j < m; j++) {
            enum CXCursorKind ik = clang_getCursorKind(init[j]);
            if (!clang_isExpression(ik) || s->heap) /* heap: malloc, done by cf_heap_local */
                continue;
            if (s->plocal) {
                cf_expr *off = cf_pt_assign(c, s, init[j]);
                cf_expr *lhs = cf_alloc(c, sizeof *lhs);
                lhs->kind = CF_E_VAR;
                lhs->sym = s;
                cf_emit_stmt(c, assign(c, lhs, off, cf_line(init[j])));
            } else if (s->rank == 0) {
                cf_expr *lhs = cf_alloc(c, sizeof *lhs);
                lhs->kind = CF_E_VAR;
                lhs->sym = s;
                cf_expr *rhs = cf_expr_of(c, init[j]);
                cf_emit_stmt(c, assign(c, lhs, with_type(c, rhs, s->type), cf_line(init[j])));
            } else if (ik == CXCursor_InitListExpr) {
                int64_t ix[CF_MAXRANK] = {0};
                init_list(c, s, init[j], 0, ix, cf_line(init[j]));
            } else if (ik != CXCursor_IntegerLiteral && ik != CXCursor_UnexposedExpr &&
                       ik != CXCursor_DeclRefExpr && ik != CXCursor_BinaryOperator &&
                       ik != CXCursor_ParenExpr)
                cf_refuse(c, init[j], "this array initializer is not supported");
        }
    }
}

/* The parts of for (init; cond; inc) body, told apart by the semicolons,
 * since libclang leaves out the parts that are missing. */
static void
for_parts(cf *c, CXCursor x, CXCursor part[4])
{
    for (int i = 0; i < 4; i++)
        part[i] = clang_getNullCursor();
    unsigned nt;
    CXToken *t = NULL;
    clang_tokenize(c->tu, clang_getCursorExtent(x), &t, &nt);
    unsigned semi[2] = {0, 0}, close = 0, ns = 0;
    int depth = 0;
    for (unsigned i = 0; i < nt; i++) {
        if (clang_getTokenKind(t[i]) != CXToken_Punctuation)
            continue;
        CXString s = clang_getTokenSpelling(c->tu, t[i]);
        const char *p = clang_getCString(s);
        unsigned off = 0;
        clang_getSpellingLocation(clang_getTokenLocation(c->tu, t[i]), NULL, NULL, NULL, &off);
        if (strcmp(p, "(") == 0)
            depth++;
        else if (strcmp(p, ")") == 0 && --depth == 0 && !close)
            close = off;
        else if (strcmp(p, ";") == 0 && depth == 1 && ns < 2)
            semi[ns++] = off;
        clang_disposeString(s);
        if (close)
            break;
    }
    clang_disposeTokens(c->tu, t, nt);
    if (ns != 2 || !close)
        cf_refuse(c, x, "this for statement is not supported (written through a macro?)");
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    for (unsigned i = 0; i < n; i++) {
        unsigned off = 0;
        /* where it was expanded: a part may start with a macro (N > i) */
        clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(k[i])), NULL, NULL,
                                   NULL, &off);
        int p = off < semi[0] ? 0 : off < semi[1] ? 1 : off < close ? 2 : 3;
        part[p] = k[i];
    }
}

/* Whether @s is "v = v + e" / "v = v - e" for the integer v that @init sets. */
static bool
counting(const cf_stmt *init, const cf_stmt *s)
{
    if (!init || !s || init->kind != CF_S_ASSIGN || s->kind != CF_S_ASSIGN)
        return false;
    const cf_sym *v = init->lhs->sym;
    if (init->lhs->nsub || s->lhs->nsub || s->lhs->sym != v || v->type != CF_INT)
        return false;
    const cf_expr *r = s->rhs;
    return r->kind == CF_E_OP && r->nargs == 2 &&
           (strcmp(r->op, "add_scal_scal") == 0 || strcmp(r->op, "sub_scal_scal") == 0) &&
           r->a[0]->kind == CF_E_VAR && r->a[0]->sym == v && !r->a[0]->nsub;
}

static void
loop_body(cf *c, CXCursor body, cf_jump *j)
{
    j->up = c->jump;
    c->jump = j;
    walk(c, body);
    c->jump = j->up;
}

/* A loop's condition: no call in it (no statement can go before it). */
static cf_expr *
loop_cond(cf *c, CXCursor x)
{
    const char *saved = c->no_calls;
    c->no_calls = "a call in a loop condition";
    cf_expr *cond = cf_cond_of(c, x);
    c->no_calls = saved;
    return cond;
}

/* The body of the loop whose head is @L and end @E: entered from @L, its
 * last block going to @back (the end, or the latch that leads to it), the
 * end back to the head, where control stays; breaks land after it. */
static void
close_loop(cf *c, uint32_t L, uint32_t E, uint32_t back, CXCursor body, cf_jump *j, unsigned line)
{
    cf_fn *f = c->fn;
    arm(c, L, true, 1, line);
    loop_body(c, body, j);
    if (f->live)
        edge(c, f->cur, back, false, 0);
    edge(c, E, L, false, 0);
    f->cur = L;
    f->live = true;
    f->open = false;
    land_breaks(c, j);
}

static void
for_stmt(cf *c, CXCursor x)
{
    CXCursor part[4];
    for_parts(c, x, part);
    unsigned line = cf_line(x);
    if (clang_Cursor_isNull(part[1]))
        cf_refuse(c, x, "a for loop without a condition is not supported");
    cf_stmt *init = NULL, *inc = NULL;
    if (!clang_Cursor_isNull(part[0])) {
        if (clang_getCursorKind(part[0]) == CXCursor_DeclStmt) {
            uint32_t before = c->fn->live && c->fn->open ? c->fn->v.v[c->fn->cur].stmts.n : 0;
            cf_fn *f = c->fn;
            decl_stmt(c, part[0]);
            /* its one initialisation, taken back out of the block */
            if (f->live && f->open && f->v.v[f->cur].stmts.n == before + 1 &&
                f->v.v[f->cur].stmts.v[before]->kind == CF_S_ASSIGN &&
                f->v.v[f->cur].stmts.v[before]->lhs->sym->type == CF_INT) {
                init = f->v.v[f->cur].stmts.v[before];
                f->v.v[f->cur].stmts.n--;
            }
        } else
            init = header_stmt(c, part[0], "initialisation");
    }
    if (!clang_Cursor_isNull(part[2]))
        inc = header_stmt(c, part[2], "increment");
    cf_expr *cond = loop_cond(c, part[1]);
    cf_jump j = {0};
    cf_fn *f = c->fn;
    if (counting(init, inc)) {
        uint32_t L = vertex(c, CF_V_FORLOOP, line), E = vertex(c, CF_V_ENDLOOP, 0);
        f->v.v[L].init = init;
        f->v.v[L].update = inc;
        f->v.v[L].cond = cond;
        go(c, L, false);
        j.cont = E;
        cf_bound b;
        bool bounded = cf_rt_loop(c, init, cond, inc, &b);
        close_loop(c, L, E, E, part[3], &j, line);
        if (bounded)
            c->bounds = b.up;
        return;
    }
    if (init)
        cf_emit_stmt(c, init);
    uint32_t L = vertex(c, CF_V_PRELOOP, line), E = vertex(c, CF_V_ENDLOOP, 0);
    f->v.v[L].cond = cond;
    go(c, L, false);
    uint32_t latch = E;
    if (inc) {
        latch = vertex(c, CF_V_BB, 0);
        if (!XF_VEC_PUSH(c->a, f->v.v[latch].stmts, inc))
            cf_oom(c);
        edge(c, latch, E, false, 0);
    }
    j.cont = latch;
    close_loop(c, L, E, latch, part[3], &j, line);
}

static void
while_stmt(cf *c, CXCursor x)
{
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    if (n != 2)
        cf_refuse(c, x, "this while statement is not supported");
    cf_expr *cond = loop_cond(c, k[0]);
    cf_fn *f = c->fn;
    uint32_t L = vertex(c, CF_V_PRELOOP, cf_line(x)), E = vertex(c, CF_V_ENDLOOP, 0);
    f->v.v[L].cond = cond;
    go(c, L, false);
    cf_jump j = {.cont = E};
    close_loop(c, L, E, E, k[1], &j, cf_line(x));
}

static void
do_stmt(cf *c, CXCursor x)
{
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    if (n != 2)
        cf_refuse(c, x, "this do statement is not supported");
    cf_fn *f = c->fn;
    uint32_t head = vertex(c, CF_V_BB, cf_line(x));
    go(c, head, true);
    uint32_t test = vertex(c, CF_V_BRANCH, cf_line(k[1]));
    cf_jump j = {.cont = test};
    loop_body(c, k[0], &j);
    f->v.v[test].cond = loop_cond(c, k[1]);
    if (f->live)
        edge(c, f->cur, test, false, 0);
    edge(c, test, head, true, 1);
    f->cur = test;
    f->live = true;
    f->open = false;
    land_breaks(c, &j);
}

static void
if_stmt(cf *c, CXCursor x)
{
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    if (n != 2 && n != 3)
        cf_refuse(c, x, "this if statement is not supported");
    cf_fn *f = c->fn;
    cf_expr *cond = cf_pt_hoist(c, cf_cond_of(c, k[0]));
    uint32_t B = vertex(c, CF_V_BRANCH, cf_line(x));
    f->v.v[B].cond = cond;
    go(c, B, false);
    XF_VEC(uint32_t) ends = {0};
    arm(c, B, true, 1, cf_line(k[1]));
    walk(c, k[1]);
    if (f->live && !XF_VEC_PUSH(c->a, ends, f->cur))
        cf_oom(c);
    if (n == 3) {
        arm(c, B, false, 0, cf_line(k[2]));
        walk(c, k[2]);
        if (f->live && !XF_VEC_PUSH(c->a, ends, f->cur))
            cf_oom(c);
    } else if (!XF_VEC_PUSH(c->a, ends, B))
        cf_oom(c);
    if (ends.n == 0) {
        f->live = false;
        return;
    }
    uint32_t J = vertex(c, CF_V_ENDBRANCH, 0);
    for (uint32_t i = 0; i < ends.n; i++)
        edge(c, ends.v[i], J, false, 0);
    f->cur = J;
    f->live = true;
    f->open = false;
}

/* Inside a switch: case and default labels start blocks the Branch reaches. */
typedef struct sw {
    uint32_t B;
    bool has_default;
} sw;

static void walk_switch_body(cf *c, CXCursor x, sw *s);

static void
case_label(cf *c, CXCursor x, sw *s)
{
    cf_fn *f = c->fn;
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    bool is_default = clang_getCursorKind(x) == CXCursor_DefaultStmt;
    int64_t v = 0;
    if (!is_default) {
        if (n != 2)
            cf_refuse(c, x, "this case label is not supported");
        CXEvalResult r = clang_Cursor_Evaluate(k[0]);
        if (!r || clang_EvalResult_getKind(r) != CXEval_Int)
            cf_refuse(c, k[0], "a case label that is not an integer constant is not supported");
        v = clang_EvalResult_getAsLongLong(r);
        clang_EvalResult_dispose(r);
    } else
        s->has_default = true;
    uint32_t b = vertex(c, CF_V_BB, cf_line(x));
    if (f->live)
        edge(c, f->cur, b, false, 0); /* fall-through */
    edge(c, s->B, b, !is_default, v);
    f->cur = b;
    f->live = true;
    f->open = true;
    walk_switch_body(c, k[n - 1], s);
}

static void
walk_switch_body(cf *c, CXCursor x, sw *s)
{
    enum CXCursorKind k = clang_getCursorKind(x);
    if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt)
        case_label(c, x, s);
    else if (k == CXCursor_CompoundStmt) {
        unsigned n;
        CXCursor *kk = cf_children(c, x, &n);
        for (unsigned i = 0; i < n; i++)
            walk_switch_body(c, kk[i], s);
    } else
        walk(c, x);
}

static void
switch_stmt(cf *c, CXCursor x)
{
    unsigned n;
    CXCursor *k = cf_children(c, x, &n);
    if (n != 2)
        cf_refuse(c, x, "this switch statement is not supported");
    cf_fn *f = c->fn;
    cf_expr *v = cf_expr_of(c, k[0]);
    if (cf_expr_type(v) != CF_INT)
        cf_refuse(c, k[0], "a switch on a non-integer is not supported");
    uint32_t B = vertex(c, CF_V_BRANCH, cf_line(x));
    f->v.v[B].cond = v;
    go(c, B, false);
    f->live = false; /* only case labels are reached */
    sw s = {.B = B};
    cf_jump j = {.is_switch = true, .up = c->jump};
    c->jump = &j;
    walk_switch_body(c, k[1], &s);
    c->jump = j.up;
    if (f->live && !XF_VEC_PUSH(c->a, j.breaks, f->cur))
        cf_oom(c);
    if (!s.has_default && !XF_VEC_PUSH(c->a, j.breaks, B))
        cf_oom(c);
    f->live = false;
    if (j.breaks.n == 0)
        return;
    uint32_t J = vertex(c, CF_V_ENDBRANCH, 0);
    for (uint32_t i = 0; i < j.breaks.n; i++)
        edge(c, j.breaks.v[i], J, false, 0);
    f->cur = J;
    f->live = true;
    f->open = false;
}

static void walk_in(cf *c, CXCursor x);

static void
walk(cf *c, CXCursor x)
{
    cf_enter(c, x);
    walk_in(c, x);
    cf_leave(c);
}

static void
walk_in(cf *c, CXCursor x)
{
    cf_fn *f = c->fn;
    enum CXCursorKind k = clang_getCursorKind(x);
    if (k != CXCursor_CompoundStmt && cf_resize_stmt(c, x))
        return; /* frees and mallocs of a struct parameter's pointer member (resize.c) */
    switch (k) {
    case CXCursor_CompoundStmt: {
        unsigned n;
        CXCursor *kk = cf_children(c, x, &n);
        for (unsigned i = 0; i < n; i++)
            walk(c, kk[i]);
        return;
    }
    case CXCursor_DeclStmt:
        decl_stmt(c, x);
        return;
    case CXCursor_NullStmt:
        return;
    case CXCursor_IfStmt:
        if_stmt(c, x);
        return;
    case CXCursor_ForStmt:
        for_stmt(c, x);
        return;
    case CXCursor_WhileStmt:
        while_stmt(c, x);
        return;
    case CXCursor_DoStmt:
        do_stmt(c, x);
        return;
    case CXCursor_SwitchStmt:
        switch_stmt(c, x);
        return;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
        cf_refuse(c, x, "a case label outside the switch's own block is not supported");
    case CXCursor_BreakStmt:
        if (!c->jump)
            cf_refuse(c, x, "break outside a loop or switch");
        if (f->live && !XF_VEC_PUSH(c->a, c->jump->breaks, f->cur))
            cf_oom(c);
        f->live = false;
        return;
    case CXCursor_ContinueStmt: {
        cf_jump *j = c->jump;
        while (j && j->is_switch)
            j = j->up;
        if (!j)
            cf_refuse(c, x, "continue outside a loop");
        jump_to(c, j->cont);
        return;
    }
    case CXCursor_ReturnStmt: {
        unsigned n;
        CXCursor *kk = cf_children(c, x, &n);
        if (n == 1 && cf_struct_return(c, f, kk[0]))
            ;
        else if (n == 1) {
            if (!f->ret)
                cf_refuse(c, x, "a value returned from a void function");
            cf_expr *v = cf_expr_of(c, kk[0]);
            cf_expr *lhs = cf_alloc(c, sizeof *lhs);
            lhs->kind = CF_E_VAR;
            lhs->sym = f->ret;
            cf_emit_stmt(c, assign(c, lhs, with_type(c, v, f->ret->type), cf_line(x)));
        }
        jump_to(c, f->exit);
        return;
    }
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        cf_refuse(c, x, "goto is not supported");
    case CXCursor_LabelStmt:
        cf_refuse(c, x, "labels are not supported");
    default:
        break;
    }
    if (!clang_isExpression(k)) {
        CXString s = clang_getCursorKindSpelling(k);
        char buf[64];
        snprintf(buf, sizeof buf, "%s", clang_getCString(s));
        clang_disposeString(s);
        cf_refuse(c, x, "statement '%s' is not supported", buf);
    }
    c->stmt = x; /* where '++' and '--' may be inside (parse_expr.c) */
    cf_stmt *s = simple(c, x);
    c->stmt = clang_getNullCursor();
    if (s)
        cf_emit_stmt(c, s);
    else if (clang_getCursorKind(cf_strip(x)) != CXCursor_CallExpr && !cf_no_op(c, x))
        cf_refuse(c, x, "an expression statement without an effect is not supported");
}

cf_stmt *
cf_incr_stmt(cf *c, CXCursor x)
{
    return simple(c, x);
}

void
cf_walk_fn(cf *c, cf_fn *f)
{
    c->fn = f;
    c->jump = NULL;
    c->stmt = clang_getNullCursor();
    f->is_static = clang_Cursor_getStorageClass(f->decl) == CX_SC_Static;
    int n = clang_Cursor_getNumArguments(f->decl);
    for (int i = 0; i < n; i++) {
        if (cf_struct_formal(c, clang_Cursor_getArgument(f->decl, (unsigned)i)))
            continue; /* its members, one formal each */
        if (cf_pass_param(c, f, clang_Cursor_getArgument(f->decl, (unsigned)i), i + 1))
            continue; /* passed through: no variable of the xaif */
        cf_sym *s = cf_declare(c, clang_Cursor_getArgument(f->decl, (unsigned)i), true);
        s->formal = (int)f->formals.n + 1;
        if (!XF_VEC_PUSH(c->a, f->formals, s))
            cf_oom(c);
    }
    if (f->index == 0)
        cf_top_extents(c, f);
    cf_fn_extents(c, f);
    CXType rt = clang_getCursorResultType(f->decl);
    if (cf_struct_result(c, f))
        ; /* its members, formals by pointer, last (struct_ret.c) */
    else if (clang_getCanonicalType(rt).kind != CXType_Void) {
        char name[160];
        snprintf(name, sizeof name, "%s_ret", f->name);
        f->ret = cf_add_sym(c, name, cf_type_of(c, rt, f->decl));
        f->ret->formal = (int)f->formals.n + 1;
        if (!XF_VEC_PUSH(c->a, f->formals, f->ret))
            cf_oom(c);
    }
    uint32_t entry = vertex(c, CF_V_ENTRY, cf_line(f->decl));
    f->exit = vertex(c, CF_V_EXIT, 0);
    f->cur = entry;
    f->live = true;
    f->open = false;
    cf_ptr_moved_params(c, f);
    unsigned nk;
    CXCursor *k = cf_children(c, f->decl, &nk);
    for (unsigned i = 0; i < nk; i++)
        if (clang_getCursorKind(k[i]) == CXCursor_CompoundStmt)
            walk(c, k[i]);
    if (f->live)
        edge(c, f->cur, f->exit, false, 0);
    cf_pt_check(c, f);
    cf_struct_extents(c, f);
    cf_rt_infer(c, f);
    c->fn = NULL;
}

cf_expr *
cf_select(cf *c, CXCursor at, cf_expr *cond, cf_expr *a, cf_expr *b)
{
    if (c->no_calls)
        cf_refuse(c, at, "a choice (fmin, fmax, '?:') in %s is not supported",
                  c->no_calls + 10 /* past "a call in " */);
    cf_fn *f = c->fn;
    cf_type t = cf_is_real(cf_expr_type(a)) || cf_is_real(cf_expr_type(b)) ? CF_DOUBLE : CF_INT;
    cf_sym *tmp = cf_temp(c, "OAD_SEL", t);
    unsigned line = cf_line(at);
    uint32_t B = vertex(c, CF_V_BRANCH, line);
    f->v.v[B].cond = cond;
    go(c, B, false);
    uint32_t ends[2];
    for (int k = 0; k < 2; k++) {
        arm(c, B, k == 0, 1, line);
        cf_expr *lhs = cf_alloc(c, sizeof *lhs);
        lhs->kind = CF_E_VAR;
        lhs->sym = tmp;
        cf_emit_stmt(c, assign(c, lhs, with_type(c, k == 0 ? a : b, t), line));
        ends[k] = f->cur;
    }
    uint32_t J = vertex(c, CF_V_ENDBRANCH, 0);
    edge(c, ends[0], J, false, 0);
    edge(c, ends[1], J, false, 0);
    f->cur = J;
    f->live = true;
    f->open = false;
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = CF_E_VAR;
    e->sym = tmp;
    return e;
}
