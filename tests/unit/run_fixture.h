/* run_fixture.h: builds small xaif documents for the interpreter's tests
 * (test_run.c) from a compact notation, so that each test states its
 * program in a few lines and the document stays valid xaif.
 *
 *   xb *b = XB_NEW();                           a call graph; scope 1 exists
 *   xb_scope(b, 2, 1);                          scope 2, child of scope 1
 *   xb_syms(b, 1, "sub head");                  symbols: TYPE NAME[(dims)] [flags]
 *   xb_syms(b, 2, "real x(2); real y(0:3,2); integer i; real v(:)");
 *   xg *g = xb_cfg(b, "head", 2, "x y");        a ControlFlowGraph: symbol, local
 *                                               scope, formals (Entry made here)
 *   xg_bb(g, "y(1) = x(1) * 2; call f(y, 3)");  statements, ';' separated
 *   xg_if(g, "x(1) > 0"); ... xg_else(g); ... xg_end(g);
 *   xg_for(g, "i = 1", "i <= 3", "i = i + 1"); ... xg_end(g);
 *   g->reversal = "explicit";                    the next ForLoops' reversal attribute
 *   char *text = xb_build(b);                   the document (owned by b)
 *
 * Types: real, integer, bool, string, sub (a subroutine symbol). Dimensions
 * are written in Fortran order (lo:hi or hi, ':' = no bounds) and emitted as
 * DimensionBounds last dimension first (§1.2 of xaif-execution.md). Flags:
 * active, passive, temp (reals are active by default, the rest passive).
 *
 * Expressions: integer and real literals (2, 2.5, 1e-3; suffix _4 makes a
 * real an F4 constant, _8 an explicit F8), 'text' strings, {type:value} or
 * {type:value:feType} for a literal Constant; + - * / ** and unary -
 * (add_scal_scal, sub_scal_scal, mul_scal_scal, div_scal_scal,
 * pow_scal_scal, minus_scal); < <= > >= == != & | ! (BooleanOperations);
 * NAME(args) is an Intrinsic unless NAME is a variable in scope (then it is
 * subscripted: i, lo:hi:st, lo:hi, lo::st, :hi:st, :hi, ::st); $ref means
 * the derivative component (deriv="1"); name@3 is the symbol of scope 3.
 *
 * Statements: "LHS = RHS", "call NAME(args)", "inline NAME(args)",
 * "marker", "<xaif:...>" (written as is), "dp OP(args)" (a DerivativePropagator;
 * consecutive dp merge):
 * SetDeriv(t, s), SetNegDeriv(t, s), IncDeriv(t, s), DecDeriv(t, s),
 * ZeroDeriv(v), Sax(a1, x1, ..., y), Saxpy(a1, x1, ..., y). A prefix
 * "[id] " or "[id@line] " sets statement_id and lineNumber.
 *
 * Names are looked up in the graph's scope, then its parents. Every
 * element that carries a statement_id starts a line of its own, so
 * xb_line_of(text, "id") finds the line a message must name.
 *
 * With XF_RUN_DUMP=DIR set, every document built is also written to
 * DIR/<test>_<n>.xaif (for `xaiform validate`). */
#ifndef XF_TESTS_RUN_FIXTURE_H
#define XF_TESTS_RUN_FIXTURE_H

#include <check.h>
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xaif_fixture.h"

#if defined(__GNUC__)
#define RF_UNUSED __attribute__((unused))
#define RF_FMT(a, b) __attribute__((format(printf, a, b)))
#else
#define RF_UNUSED
#define RF_FMT(a, b)
#endif
#define RF static RF_UNUSED

/* ------------------------------------------------------------ strings */

typedef struct sb {
    char *p;
    size_t n, cap;
} sb;

RF void
sb_put(sb *s, const char *t)
{
    size_t k = strlen(t);
    if (s->n + k + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < s->n + k + 1)
            cap *= 2;
        char *p = realloc(s->p, cap);
        ck_assert_ptr_nonnull(p);
        s->p = p;
        s->cap = cap;
    }
    memcpy(s->p + s->n, t, k + 1);
    s->n += k;
}

RF RF_FMT(2, 3) void sb_printf(sb *s, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ck_assert_msg(k >= 0 && (size_t)k < sizeof buf, "fixture: line too long");
    sb_put(s, buf);
}

/* ------------------------------------------------------------ builder */

enum { XB_MAXSYM = 256, XB_MAXSCOPE = 16, XB_MAXG = 64, XB_MAXSTACK = 256, XB_MAXARMS = 16 };

typedef struct xb_sym {
    int scope;
    char name[64];
    int rank;
    bool sub;
} xb_sym;

typedef struct xb xb;

/* One control-flow graph (a ControlFlowGraph or one Replacement). */
typedef struct xg {
    xb *b;
    int scope; /* its local scope: names and BasicBlock scope_id */
    sb verts, edges;
    int nextv, nexte, nexts;
    int last;             /* vertex the next one is joined to (0: none) */
    long last_cv;         /* condition value of that edge (LONG_MIN: default edge) */
    bool in_dp;           /* an open DerivativePropagator in the current block */
    bool raw;             /* vertices and edges by hand: no Exit added */
    const char *reversal; /* the next ForLoops' reversal attribute (NULL: none) */
    struct frame {
        int kind; /* 'i' if/select, 'l' loop */
        int v;
        int arm_end[XB_MAXARMS]; /* last vertex of each arm (the Branch: an empty arm) */
        long arm_cv[XB_MAXARMS]; /* an empty arm: its edge's condition value */
        int narms;
        bool open_arm;    /* the current arm has not been recorded */
        bool has_default; /* an arm without condition value was started */
    } stack[XB_MAXSTACK];
    int depth;
} xg;

typedef struct xb_routine {
    char name[64];
    int scope;
    char formals[256];
    bool rlist;
    bool unstructured; /* written structured="0" */
    xg *ph[14];        /* ControlFlowGraph: ph[0]; ReplacementList: 1..13 */
} xb_routine;

struct xb {
    const char *test;
    xb_sym syms[XB_MAXSYM];
    int nsyms;
    int scope_parent[XB_MAXSCOPE + 1]; /* 0: no such scope; scope 1's parent is -1 */
    sb symtab[XB_MAXSCOPE + 1];
    xb_routine routines[XB_MAXG];
    int nroutines;
    xg *graphs[XB_MAXG * 14];
    int ngraphs;
    void **nodes;
    int nnodes, capnodes;
    sb text;
};

static int xb_dump_counter;

#define XB_NEW() xb_new(__func__)

RF xb *
xb_new(const char *test)
{
    xb *b = calloc(1, sizeof *b);
    ck_assert_ptr_nonnull(b);
    b->test = test;
    b->scope_parent[1] = -1;
    return b;
}

RF void *
xb_alloc(xb *b, size_t n)
{
    if (b->nnodes == b->capnodes) {
        b->capnodes = b->capnodes ? 2 * b->capnodes : 64;
        b->nodes = realloc(b->nodes, (size_t)b->capnodes * sizeof *b->nodes);
        ck_assert_ptr_nonnull(b->nodes);
    }
    void *p = calloc(1, n);
    ck_assert_ptr_nonnull(p);
    b->nodes[b->nnodes++] = p;
    return p;
}

RF void
xb_free(xb *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->nnodes; i++)
        free(b->nodes[i]);
    free(b->nodes);
    for (int i = 0; i < b->ngraphs; i++) {
        free(b->graphs[i]->verts.p);
        free(b->graphs[i]->edges.p);
        free(b->graphs[i]);
    }
    for (int i = 0; i <= XB_MAXSCOPE; i++)
        free(b->symtab[i].p);
    free(b->text.p);
    free(b);
}

RF void
xb_scope(xb *b, int id, int parent)
{
    ck_assert_msg(id > 1 && id <= XB_MAXSCOPE && b->scope_parent[parent], "fixture: scope %d", id);
    b->scope_parent[id] = parent;
}

RF const xb_sym *
xb_lookup(const xb *b, int scope, const char *name)
{
    for (int s = scope; s > 0; s = b->scope_parent[s])
        for (int i = 0; i < b->nsyms; i++)
            if (b->syms[i].scope == s && !strcmp(b->syms[i].name, name))
                return &b->syms[i];
    return NULL;
}

static const char *const xb_shape_names[] = {"scalar",       "vector",      "matrix",
                                             "three_tensor", "four_tensor", "five_tensor",
                                             "six_tensor",   "seven_tensor"};

/* One declaration: TYPE NAME[(dims)] [flags]. */
RF void
xb_sym1(xb *b, int scope, const char *decl)
{
    char type[16] = "", name[64] = "", dims[128] = "", flags[128] = "";
    const char *p = decl;
    while (isspace((unsigned char)*p))
        p++;
    int k = 0;
    while (isalpha((unsigned char)*p) && k < 15)
        type[k++] = *p++;
    while (isspace((unsigned char)*p))
        p++;
    k = 0;
    while ((isalnum((unsigned char)*p) || *p == '_' || *p == '.') && k < 63)
        name[k++] = *p++;
    if (*p == '(') {
        p++;
        k = 0;
        while (*p && *p != ')' && k < 127)
            dims[k++] = *p++;
        ck_assert_msg(*p == ')', "fixture: declaration '%s'", decl);
        p++;
    }
    snprintf(flags, sizeof flags, "%.127s", p);
    ck_assert_msg(name[0] && scope >= 1 && scope <= XB_MAXSCOPE && b->scope_parent[scope] &&
                      b->nsyms < XB_MAXSYM,
                  "fixture: declaration '%s'", decl);
    xb_sym *s = &b->syms[b->nsyms++];
    s->scope = scope;
    snprintf(s->name, sizeof s->name, "%s", name);
    sb *t = &b->symtab[scope];
    if (!strcmp(type, "sub")) {
        s->sub = true;
        sb_printf(t, "        <xaif:Symbol symbol_id=\"%s\" kind=\"subroutine\" type=\"void\"/>\n",
                  name);
        return;
    }
    /* dimensions, Fortran order */
    long lo[7], hi[7];
    bool bounded = true;
    int rank = 0;
    for (char *d = dims; *d;) {
        char *e = strchr(d, ',');
        if (e)
            *e = 0;
        ck_assert_msg(rank < 7, "fixture: rank");
        char *c = strchr(d, ':');
        char *q = d;
        while (isspace((unsigned char)*q))
            q++;
        if (c && c == q && !c[1]) {
            bounded = false;
        } else if (c) {
            lo[rank] = strtol(d, NULL, 10);
            hi[rank] = strtol(c + 1, NULL, 10);
        } else {
            lo[rank] = 1;
            hi[rank] = strtol(d, NULL, 10);
        }
        rank++;
        d = e ? e + 1 : d + strlen(d);
    }
    s->rank = rank;
    bool real = !strcmp(type, "real");
    const char *xtype = real                       ? "real"
                        : !strcmp(type, "integer") ? "integer"
                        : !strcmp(type, "bool")    ? "bool"
                        : !strcmp(type, "string")  ? "string"
                                                   : NULL;
    ck_assert_msg(xtype != NULL, "fixture: type '%s'", type);
    bool active = real;
    if (strstr(flags, "passive"))
        active = false;
    if (strstr(flags, "active") && !strstr(flags, "passive"))
        active = true;
    const char *fe = real ? "F8" : !strcmp(type, "integer") ? "I4" : "";
    sb_printf(t,
              "        <xaif:Symbol symbol_id=\"%s\" kind=\"variable\" type=\"%s\" feType=\"%s\" "
              "shape=\"%s\" active=\"%d\"%s",
              name, xtype, fe, xb_shape_names[rank], active ? 1 : 0,
              strstr(flags, "temp") ? " temp=\"1\"" : "");
    if (!rank || !bounded) {
        sb_put(t, "/>\n");
        return;
    }
    sb_put(t, ">");
    for (int j = rank - 1; j >= 0; j--) /* last dimension first */
        sb_printf(t, "<xaif:DimensionBounds lower=\"%ld\" upper=\"%ld\"/>", lo[j], hi[j]);
    sb_put(t, "</xaif:Symbol>\n");
}

/* Declarations separated by ';'. */
RF void
xb_syms(xb *b, int scope, const char *decls)
{
    char buf[256];
    const char *p = decls;
    while (*p) {
        const char *e = strchr(p, ';');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        ck_assert_msg(n < sizeof buf, "fixture: declaration too long");
        memcpy(buf, p, n);
        buf[n] = 0;
        xb_sym1(b, scope, buf);
        p += n;
        if (*p == ';')
            p++;
    }
}

/* ------------------------------------------------------------ expressions */

enum { EX_INT, EX_REAL, EX_STR, EX_RAW, EX_VAR, EX_INTR, EX_BOOL };

typedef struct ex {
    int kind;
    char text[128]; /* constant text, symbol or operator name */
    char ctype[16], fetype[8];
    int scope;
    bool deriv;
    int nargs;
    struct ex *args[8];
    int ntrip;
    struct ex *trip[7][3]; /* lo (Index), hi (Bound), st (Stride) */
    bool has[7][3];
} ex;

typedef struct xp {
    xb *b;
    int scope;
    const char *s, *p;
} xp;

RF void
xp_space(xp *x)
{
    while (isspace((unsigned char)*x->p))
        x->p++;
}

RF bool
xp_eat(xp *x, const char *tok)
{
    xp_space(x);
    size_t n = strlen(tok);
    if (strncmp(x->p, tok, n))
        return false;
    /* "*" must not eat the first half of "**", "<" of "<=", ... */
    if (n == 1 &&
        (tok[0] == '*' || tok[0] == '<' || tok[0] == '>' || tok[0] == '=' || tok[0] == '!') &&
        (x->p[1] == '=' || (tok[0] == '*' && x->p[1] == '*')))
        return false;
    x->p += n;
    return true;
}

RF void
xp_expect(xp *x, const char *tok)
{
    ck_assert_msg(xp_eat(x, tok), "fixture: expected '%s' at '%s' in '%s'", tok, x->p, x->s);
}

RF ex *
xp_node(xp *x, int kind, const char *text)
{
    ex *e = xb_alloc(x->b, sizeof *e);
    e->kind = kind;
    snprintf(e->text, sizeof e->text, "%s", text);
    return e;
}

RF ex *
xp_op(xp *x, int kind, const char *name, ex *a, ex *c)
{
    ex *e = xp_node(x, kind, name);
    e->args[e->nargs++] = a;
    if (c)
        e->args[e->nargs++] = c;
    return e;
}

static ex *xp_expr(xp *x);

RF bool
xp_at(xp *x, char c)
{
    xp_space(x);
    return *x->p == c;
}

RF ex *
xp_primary(xp *x)
{
    xp_space(x);
    const char *p = x->p;
    if (*p == '(') {
        x->p++;
        ex *e = xp_expr(x);
        xp_expect(x, ")");
        return e;
    }
    if (*p == '\'') {
        const char *e = strchr(p + 1, '\'');
        ck_assert_msg(e != NULL, "fixture: string in '%s'", x->s);
        ex *n = xp_node(x, EX_STR, "");
        snprintf(n->text, sizeof n->text, "%.*s", (int)(e - p - 1), p + 1);
        x->p = e + 1;
        return n;
    }
    if (*p == '{') { /* {type:value[:feType]} */
        const char *e = strchr(p, '}');
        ck_assert_msg(e != NULL, "fixture: raw constant in '%s'", x->s);
        char buf[160];
        snprintf(buf, sizeof buf, "%.*s", (int)(e - p - 1), p + 1);
        ex *n = xp_node(x, EX_RAW, "");
        char *c1 = strchr(buf, ':');
        ck_assert_ptr_nonnull(c1);
        *c1 = 0;
        char *c2 = strchr(c1 + 1, ':');
        if (c2) {
            *c2 = 0;
            snprintf(n->fetype, sizeof n->fetype, "%.7s", c2 + 1);
        }
        snprintf(n->ctype, sizeof n->ctype, "%.15s", buf);
        snprintf(n->text, sizeof n->text, "%.127s", c1 + 1);
        x->p = e + 1;
        return n;
    }
    if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
        const char *q = p;
        bool real = false;
        while (isdigit((unsigned char)*q) || *q == '.' || *q == 'e' || *q == 'E' ||
               ((*q == '-' || *q == '+') && (q[-1] == 'e' || q[-1] == 'E'))) {
            if (*q == '.' || *q == 'e' || *q == 'E')
                real = true;
            q++;
        }
        ex *n = xp_node(x, real ? EX_REAL : EX_INT, "");
        snprintf(n->text, sizeof n->text, "%.*s", (int)(q - p), p);
        if (real)
            snprintf(n->fetype, sizeof n->fetype, "F8");
        if (*q == '_' && (q[1] == '4' || q[1] == '8')) {
            ck_assert_msg(real, "fixture: kind suffix on an integer");
            snprintf(n->fetype, sizeof n->fetype, "F%c", q[1]);
            q += 2;
        }
        x->p = q;
        return n;
    }
    bool deriv = false;
    if (*p == '$') {
        deriv = true;
        p++;
    }
    const char *q = p;
    while (isalnum((unsigned char)*q) || *q == '_' || *q == '.')
        q++;
    ck_assert_msg(q > p, "fixture: unexpected '%s' in '%s'", x->p, x->s);
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(q - p), p);
    x->p = q;
    const xb_sym *s = xb_lookup(x->b, x->scope, name);
    if (*x->p == '@' && isdigit((unsigned char)x->p[1])) { /* name@scope: that scope's */
        char *e;
        int sc = (int)strtol(x->p + 1, &e, 10);
        x->p = e;
        s = NULL;
        for (int i = 0; i < x->b->nsyms; i++)
            if (x->b->syms[i].scope == sc && !strcmp(x->b->syms[i].name, name))
                s = &x->b->syms[i];
        ck_assert_msg(s != NULL, "fixture: no %s in scope %d", name, sc);
    }
    if (s && !s->sub) {
        ex *n = xp_node(x, EX_VAR, name);
        n->scope = s->scope;
        n->deriv = deriv;
        if (xp_eat(x, "(")) {
            do {
                ck_assert_msg(n->ntrip < 7, "fixture: too many subscripts");
                int t = n->ntrip++;
                for (int part = 0; part < 3; part++) {
                    xp_space(x);
                    if (*x->p != ':' && *x->p != ',' && *x->p != ')') {
                        n->trip[t][part] = xp_expr(x);
                        n->has[t][part] = true;
                    }
                    if (part < 2 && !xp_eat(x, ":"))
                        break;
                }
                ck_assert_msg(n->has[t][0] || n->has[t][1] || n->has[t][2],
                              "fixture: empty subscript in '%s'", x->s);
            } while (xp_eat(x, ","));
            xp_expect(x, ")");
        }
        return n;
    }
    ck_assert_msg(!deriv, "fixture: $ before a non-variable in '%s'", x->s);
    ck_assert_msg(xp_at(x, '('), "fixture: unknown name '%s' in '%s'", name, x->s);
    xp_expect(x, "(");
    static const char *const boolops[] = {"less_than",    "less_or_equal",
                                          "greater_than", "greater_or_equal",
                                          "equal",        "not_equal",
                                          "and",          "or",
                                          "not",          "xor"};
    int kind = EX_INTR;
    for (size_t i = 0; i < sizeof boolops / sizeof *boolops; i++)
        if (!strcmp(name, boolops[i]))
            kind = EX_BOOL;
    ex *n = xp_node(x, kind, name);
    if (!xp_eat(x, ")")) {
        do {
            ck_assert_msg(n->nargs < 8, "fixture: too many arguments");
            n->args[n->nargs++] = xp_expr(x);
        } while (xp_eat(x, ","));
        xp_expect(x, ")");
    }
    return n;
}

static ex *xp_unary(xp *x);

RF ex *
xp_power(xp *x)
{
    ex *a = xp_primary(x);
    if (xp_eat(x, "**"))
        return xp_op(x, EX_INTR, "pow_scal_scal", a, xp_unary(x));
    return a;
}

RF ex *
xp_unary(xp *x)
{
    if (xp_eat(x, "-"))
        return xp_op(x, EX_INTR, "minus_scal", xp_unary(x), NULL);
    return xp_power(x);
}

RF ex *
xp_mul(xp *x)
{
    ex *a = xp_unary(x);
    for (;;) {
        if (xp_eat(x, "*"))
            a = xp_op(x, EX_INTR, "mul_scal_scal", a, xp_unary(x));
        else if (xp_eat(x, "/"))
            a = xp_op(x, EX_INTR, "div_scal_scal", a, xp_unary(x));
        else
            return a;
    }
}

RF ex *
xp_add(xp *x)
{
    ex *a = xp_mul(x);
    for (;;) {
        if (xp_eat(x, "+"))
            a = xp_op(x, EX_INTR, "add_scal_scal", a, xp_mul(x));
        else if (xp_eat(x, "-"))
            a = xp_op(x, EX_INTR, "sub_scal_scal", a, xp_mul(x));
        else
            return a;
    }
}

RF ex *
xp_cmp(xp *x)
{
    ex *a = xp_add(x);
    static const char *const ops[][2] = {{"<=", "less_or_equal"}, {">=", "greater_or_equal"},
                                         {"==", "equal"},         {"!=", "not_equal"},
                                         {"<", "less_than"},      {">", "greater_than"}};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (xp_eat(x, ops[i][0]))
            return xp_op(x, EX_BOOL, ops[i][1], a, xp_add(x));
    return a;
}

RF ex *
xp_not(xp *x)
{
    if (xp_eat(x, "!"))
        return xp_op(x, EX_BOOL, "not", xp_not(x), NULL);
    return xp_cmp(x);
}

RF ex *
xp_and(xp *x)
{
    ex *a = xp_not(x);
    while (xp_eat(x, "&"))
        a = xp_op(x, EX_BOOL, "and", a, xp_not(x));
    return a;
}

static ex *
xp_expr(xp *x)
{
    ex *a = xp_and(x);
    while (xp_eat(x, "|"))
        a = xp_op(x, EX_BOOL, "or", a, xp_and(x));
    return a;
}

RF ex *
xb_parse(xb *b, int scope, const char *s)
{
    xp x = {b, scope, s, s};
    ex *e = xp_expr(&x);
    xp_space(&x);
    ck_assert_msg(*x.p == 0, "fixture: trailing '%s' in '%s'", x.p, s);
    return e;
}

/* ------------------------------------------------------------ emitting */

static void xe_graph(sb *o, const ex *e);

RF void
xe_constant(sb *o, const ex *e, int id)
{
    if (e->kind == EX_INT)
        sb_printf(o, "<xaif:Constant vertex_id=\"%d\" type=\"integer\" value=\"%s\"/>", id,
                  e->text);
    else if (e->kind == EX_REAL)
        sb_printf(o, "<xaif:Constant vertex_id=\"%d\" type=\"real\" feType=\"%s\" value=\"%s\"/>",
                  id, e->fetype, e->text);
    else if (e->kind == EX_STR)
        sb_printf(o, "<xaif:Constant vertex_id=\"%d\" type=\"string\" value=\"%s\"/>", id, e->text);
    else if (e->fetype[0])
        sb_printf(o, "<xaif:Constant vertex_id=\"%d\" type=\"%s\" feType=\"%s\" value=\"%s\"/>", id,
                  e->ctype, e->fetype, e->text);
    else
        sb_printf(o, "<xaif:Constant vertex_id=\"%d\" type=\"%s\" value=\"%s\"/>", id, e->ctype,
                  e->text);
}

/* The inner graph of a variable reference: SymbolReference [ArrayElementReference]. */
RF void
xe_varref_inner(sb *o, const ex *e)
{
    sb_printf(o, "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"%d\" symbol_id=\"%s\"/>",
              e->scope, e->text);
    if (!e->ntrip)
        return;
    sb_put(o, "<xaif:ArrayElementReference vertex_id=\"2\">");
    static const char *const part[] = {"Index", "Bound", "Stride"};
    for (int t = 0; t < e->ntrip; t++) {
        sb_put(o, "<xaif:IndexTriplet>");
        for (int k = 0; k < 3; k++)
            if (e->has[t][k]) {
                sb_printf(o, "<xaif:%s>", part[k]);
                xe_graph(o, e->trip[t][k]);
                sb_printf(o, "</xaif:%s>", part[k]);
            }
        sb_put(o, "</xaif:IndexTriplet>");
    }
    sb_put(o, "</xaif:ArrayElementReference>"
              "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>");
}

RF int
xe_vertex(sb *o, const ex *e, int *nv, int *ne)
{
    int id = ++*nv;
    switch (e->kind) {
    case EX_VAR:
        sb_printf(o, "<xaif:VariableReference vertex_id=\"%d\"%s>", id,
                  e->deriv ? " deriv=\"1\"" : "");
        xe_varref_inner(o, e);
        sb_put(o, "</xaif:VariableReference>");
        return id;
    case EX_INTR:
        sb_printf(o, "<xaif:Intrinsic vertex_id=\"%d\" name=\"%s\"/>", id, e->text);
        break;
    case EX_BOOL:
        sb_printf(o, "<xaif:BooleanOperation vertex_id=\"%d\" name=\"%s\"/>", id, e->text);
        break;
    default:
        xe_constant(o, e, id);
        return id;
    }
    for (int k = 0; k < e->nargs; k++) {
        int c = xe_vertex(o, e->args[k], nv, ne);
        sb_printf(o,
                  "<xaif:ExpressionEdge edge_id=\"%d\" source=\"%d\" target=\"%d\" "
                  "position=\"%d\"/>",
                  ++*ne, c, id, k + 1);
    }
    return id;
}

static void
xe_graph(sb *o, const ex *e)
{
    int nv = 0, ne = 0;
    xe_vertex(o, e, &nv, &ne);
}

/* A call argument or a propagator factor: one variable or one constant. */
RF void
xe_operand(sb *o, const ex *e)
{
    if (e->kind == EX_VAR) {
        sb_printf(o, "<xaif:VariableReference vertex_id=\"1\"%s>", e->deriv ? " deriv=\"1\"" : "");
        xe_varref_inner(o, e);
        sb_put(o, "</xaif:VariableReference>");
        return;
    }
    ck_assert_msg(e->kind == EX_INT || e->kind == EX_REAL || e->kind == EX_STR || e->kind == EX_RAW,
                  "fixture: an argument must be a variable or a constant");
    xe_constant(o, e, 1);
}

/* ------------------------------------------------------------ graphs */

RF xg *
xb_graph(xb *b, int scope)
{
    ck_assert(b->ngraphs < XB_MAXG * 14);
    xg *g = calloc(1, sizeof *g);
    ck_assert_ptr_nonnull(g);
    g->b = b;
    g->scope = scope;
    b->graphs[b->ngraphs++] = g;
    return g;
}

/* Split "a, b, c" at top-level commas into parsed expressions. */
RF int
xg_args(xg *g, const char *s, ex **out, int max)
{
    int n = 0, depth = 0;
    const char *p = s, *start = s;
    bool quote = false;
    for (;; p++) {
        if (*p == '\'')
            quote = !quote;
        if (quote)
            continue;
        if (*p == '(' || *p == '{')
            depth++;
        if (*p == ')' || *p == '}')
            depth--;
        if ((*p == ',' && depth == 0) || !*p) {
            char buf[256];
            snprintf(buf, sizeof buf, "%.*s", (int)(p - start), start);
            char *q = buf;
            while (isspace((unsigned char)*q))
                q++;
            if (*q) {
                ck_assert_msg(n < max, "fixture: too many arguments");
                out[n++] = xb_parse(g->b, g->scope, buf);
            }
            start = p + 1;
            if (!*p)
                break;
        }
    }
    return n;
}

/* "NAME(args)" -> name, args text */
RF void
xg_split_call(const char *s, char *name, size_t nn, char *args, size_t na)
{
    while (isspace((unsigned char)*s))
        s++;
    const char *o = strchr(s, '(');
    const char *c = strrchr(s, ')');
    ck_assert_msg(o && c && c > o, "fixture: call '%s'", s);
    const char *e = o;
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    snprintf(name, nn, "%.*s", (int)(e - s), s);
    snprintf(args, na, "%.*s", (int)(c - o - 1), o + 1);
}

RF void
xg_close_dp(xg *g)
{
    if (g->in_dp) {
        sb_put(&g->verts, "</xaif:DerivativePropagator>\n");
        g->in_dp = false;
    }
}

/* An assignment's two sides, into an open element (Assignment, Initialization, Update). */
RF void
xg_assign_parts(xg *g, const char *s)
{
    /* the '=' that is not part of <=, >=, ==, != */
    const char *eq = NULL;
    int depth = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if (*p == '=' && depth == 0 && p > s && !strchr("<>=!", p[-1]) && p[1] != '=') {
            eq = p;
            break;
        }
    }
    ck_assert_msg(eq != NULL, "fixture: no '=' in '%s'", s);
    char lhs[256];
    snprintf(lhs, sizeof lhs, "%.*s", (int)(eq - s), s);
    ex *l = xb_parse(g->b, g->scope, lhs);
    ck_assert_msg(l->kind == EX_VAR, "fixture: left side of '%s'", s);
    ex *r = xb_parse(g->b, g->scope, eq + 1);
    sb *o = &g->verts;
    sb_printf(o, "<xaif:AssignmentLHS%s>", l->deriv ? " deriv=\"1\"" : "");
    xe_varref_inner(o, l);
    sb_put(o, "</xaif:AssignmentLHS>\n<xaif:AssignmentRHS>");
    xe_graph(o, r);
    sb_put(o, "</xaif:AssignmentRHS>\n");
}

RF void
xg_dp_ref(xg *g, const char *el, const ex *e)
{
    ck_assert_msg(e->kind == EX_VAR, "fixture: %s must be a variable", el);
    sb_printf(&g->verts, "<xaif:%s deriv=\"1\">", el);
    xe_varref_inner(&g->verts, e);
    sb_printf(&g->verts, "</xaif:%s>\n", el);
}

/* One statement of a basic block. */
RF void
xg_stmt(xg *g, const char *text)
{
    char id[64] = "", line[32] = "";
    const char *s = text;
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '[') {
        const char *e = strchr(s, ']');
        ck_assert_ptr_nonnull(e);
        const char *at = memchr(s, '@', (size_t)(e - s));
        snprintf(id, sizeof id, "%.*s", (int)((at ? at : e) - s - 1), s + 1);
        if (at)
            snprintf(line, sizeof line, " lineNumber=\"%.*s\"", (int)(e - at - 1), at + 1);
        s = e + 1;
        while (isspace((unsigned char)*s))
            s++;
    }
    if (!id[0])
        snprintf(id, sizeof id, "s%d", ++g->nexts);
    sb *o = &g->verts;
    char name[64], args[512];
    ex *a[16];
    if (!strncmp(s, "dp ", 3)) {
        if (!g->in_dp) {
            sb_put(o, "<xaif:DerivativePropagator>\n");
            g->in_dp = true;
        }
        xg_split_call(s + 3, name, sizeof name, args, sizeof args);
        int n = xg_args(g, args, a, 16);
        if (!strcmp(name, "ZeroDeriv")) {
            ck_assert_int_eq(n, 1);
            xg_dp_ref(g, "ZeroDeriv", a[0]);
        } else if (!strcmp(name, "Sax") || !strcmp(name, "Saxpy")) {
            ck_assert_msg(n >= 3 && n % 2 == 1, "fixture: %s(a, x, ..., y)", name);
            sb_printf(o, "<xaif:%s>\n", name);
            for (int k = 0; k + 1 < n; k += 2) {
                sb_put(o, "<xaif:AX><xaif:A>");
                xe_operand(o, a[k]);
                sb_put(o, "</xaif:A>\n");
                xg_dp_ref(g, "X", a[k + 1]);
                sb_put(o, "</xaif:AX>\n");
            }
            xg_dp_ref(g, "Y", a[n - 1]);
            sb_printf(o, "</xaif:%s>\n", name);
        } else {
            ck_assert_int_eq(n, 2);
            sb_printf(o, "<xaif:%s>\n", name);
            xg_dp_ref(g, "Tgt", a[0]);
            xg_dp_ref(g, "Src", a[1]);
            sb_printf(o, "</xaif:%s>\n", name);
        }
        return;
    }
    xg_close_dp(g);
    if (*s == '<') { /* a statement written out in xaif */
        sb_put(o, s);
        sb_put(o, "\n");
    } else if (!strcmp(s, "marker")) {
        sb_printf(o, "<xaif:Marker statement_id=\"%s\" annotation=\"note\"/>\n", id);
    } else if (!strncmp(s, "call ", 5)) {
        xg_split_call(s + 5, name, sizeof name, args, sizeof args);
        int n = xg_args(g, args, a, 16);
        const xb_sym *callee = xb_lookup(g->b, g->scope, name);
        int cscope = callee ? callee->scope : 1;
        sb_printf(o,
                  "<xaif:SubroutineCall statement_id=\"%s\" scope_id=\"%d\" symbol_id=\"%s\" "
                  "formalArgCount=\"%d\"%s>\n",
                  id, cscope, name, n, line);
        for (int k = 0; k < n; k++) {
            sb_printf(o, "<xaif:Argument position=\"%d\">", k + 1);
            xe_operand(o, a[k]);
            sb_put(o, "</xaif:Argument>\n");
        }
        sb_put(o, "</xaif:SubroutineCall>\n");
    } else if (!strncmp(s, "inline ", 7)) {
        xg_split_call(s + 7, name, sizeof name, args, sizeof args);
        int n = xg_args(g, args, a, 16);
        sb_printf(o, "<xaif:InlinableSubroutineCall subroutine_name=\"%s\" statement_id=\"%s\">\n",
                  name, id);
        for (int k = 0; k < n; k++) {
            sb_printf(o, "<xaif:Argument position=\"%d\">", k + 1);
            xe_operand(o, a[k]);
            sb_put(o, "</xaif:Argument>\n");
        }
        sb_put(o, "</xaif:InlinableSubroutineCall>\n");
    } else {
        sb_printf(o, "<xaif:Assignment statement_id=\"%s\"%s>\n", id, line);
        xg_assign_parts(g, s);
        sb_put(o, "</xaif:Assignment>\n");
    }
}

/* ---- vertices without edges (return the vertex id) */

RF int
xg_v_plain(xg *g, const char *kind)
{
    int v = ++g->nextv;
    sb_printf(&g->verts, "<xaif:%s vertex_id=\"%d\"/>\n", kind, v);
    return v;
}

RF int
xg_v_bb(xg *g, const char *stmts)
{
    int v = ++g->nextv;
    sb_printf(&g->verts, "<xaif:BasicBlock vertex_id=\"%d\" scope_id=\"%d\">\n", v, g->scope);
    char buf[4096];
    const char *p = stmts;
    while (p && *p) {
        /* split at ';' outside quotes and parentheses */
        const char *e = p;
        int depth = 0;
        bool q = false;
        for (; *e; e++) {
            if (*e == '\'')
                q = !q;
            else if (!q && *e == '(')
                depth++;
            else if (!q && *e == ')')
                depth--;
            else if (!q && depth == 0 && *e == ';')
                break;
        }
        snprintf(buf, sizeof buf, "%.*s", (int)(e - p), p);
        char *t = buf;
        while (isspace((unsigned char)*t))
            t++;
        if (*t)
            xg_stmt(g, t);
        p = *e ? e + 1 : e;
    }
    xg_close_dp(g);
    sb_put(&g->verts, "</xaif:BasicBlock>\n");
    return v;
}

RF int
xg_v_test(xg *g, const char *kind, const char *cond)
{
    int v = ++g->nextv;
    sb_printf(&g->verts, "<xaif:%s vertex_id=\"%d\">\n<xaif:Condition>", kind, v);
    xe_graph(&g->verts, xb_parse(g->b, g->scope, cond));
    sb_printf(&g->verts, "</xaif:Condition>\n</xaif:%s>\n", kind);
    return v;
}

RF int
xg_v_for(xg *g, const char *init, const char *cond, const char *update)
{
    int v = ++g->nextv;
    sb *o = &g->verts;
    if (g->reversal)
        sb_printf(o, "<xaif:ForLoop vertex_id=\"%d\" reversal=\"%s\">\n", v, g->reversal);
    else
        sb_printf(o, "<xaif:ForLoop vertex_id=\"%d\">\n", v);
    sb_printf(o, "<xaif:Initialization statement_id=\"init%d\">\n", v);
    xg_assign_parts(g, init);
    sb_put(o, "</xaif:Initialization>\n<xaif:Condition>");
    xe_graph(o, xb_parse(g->b, g->scope, cond));
    sb_printf(o, "</xaif:Condition>\n<xaif:Update statement_id=\"update%d\">\n", v);
    xg_assign_parts(g, update);
    sb_put(o, "</xaif:Update>\n</xaif:ForLoop>\n");
    return v;
}

/* An edge; cv == LONG_MIN: no condition value. */
RF void
xg_edge(xg *g, int src, int tgt, long cv)
{
    if (cv == LONG_MIN)
        sb_printf(&g->edges, "<xaif:ControlFlowEdge edge_id=\"%d\" source=\"%d\" target=\"%d\"/>\n",
                  ++g->nexte, src, tgt);
    else
        sb_printf(&g->edges,
                  "<xaif:ControlFlowEdge edge_id=\"%d\" source=\"%d\" target=\"%d\" "
                  "has_condition_value=\"true\" condition_value=\"%ld\"/>\n",
                  ++g->nexte, src, tgt, cv);
}

/* An edge with condition attributes written as given (e.g. has_condition_value="0"). */
RF void
xg_edge_attrs(xg *g, int src, int tgt, const char *attrs)
{
    sb_printf(&g->edges, "<xaif:ControlFlowEdge edge_id=\"%d\" source=\"%d\" target=\"%d\" %s/>\n",
              ++g->nexte, src, tgt, attrs);
}

/* Edges "1>2 3>4:1 3>5" (":cv" gives a condition value). */
RF void
xg_edges(xg *g, const char *spec)
{
    const char *p = spec;
    while (*p) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        char *e;
        long s = strtol(p, &e, 10);
        ck_assert_msg(*e == '>', "fixture: edge '%s'", p);
        long t = strtol(e + 1, &e, 10);
        long cv = LONG_MIN;
        if (*e == ':')
            cv = strtol(e + 1, &e, 10);
        xg_edge(g, (int)s, (int)t, cv);
        p = e;
    }
}

/* ---- structured building: each vertex joins the previous one */

RF void
xg_join(xg *g, int v)
{
    if (g->last)
        xg_edge(g, g->last, v, g->last_cv);
    g->last = v;
    g->last_cv = LONG_MIN;
}

RF int
xg_bb(xg *g, const char *stmts)
{
    int v = xg_v_bb(g, stmts);
    xg_join(g, v);
    return v;
}

RF struct frame *
xg_push(xg *g, int kind, int v)
{
    ck_assert(g->depth < XB_MAXSTACK);
    struct frame *f = &g->stack[g->depth++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->v = v;
    return f;
}

/* A Branch whose first arm (cv) follows. */
RF int
xg_branch(xg *g, const char *cond, long cv)
{
    int v = xg_v_test(g, "Branch", cond);
    xg_join(g, v);
    struct frame *f = xg_push(g, 'i', v);
    f->open_arm = true;
    g->last_cv = cv;
    return v;
}

RF int
xg_if(xg *g, const char *cond)
{
    return xg_branch(g, cond, 1);
}

/* Record the current arm of Branch frame @f. */
RF void
xg_close_arm(xg *g, struct frame *f)
{
    ck_assert(f->narms < XB_MAXARMS);
    f->arm_end[f->narms] = g->last;
    f->arm_cv[f->narms] = g->last == f->v ? g->last_cv : LONG_MIN;
    f->narms++;
    f->open_arm = false;
}

/* The next arm of the innermost Branch: condition value cv (LONG_MIN: default). */
RF void
xg_case(xg *g, long cv)
{
    ck_assert(g->depth > 0);
    struct frame *f = &g->stack[g->depth - 1];
    ck_assert(f->kind == 'i');
    if (f->open_arm)
        xg_close_arm(g, f);
    f->open_arm = true;
    if (cv == LONG_MIN)
        f->has_default = true;
    g->last = f->v;
    g->last_cv = cv;
}

RF void
xg_else(xg *g)
{
    xg_case(g, LONG_MIN);
}

RF int
xg_for(xg *g, const char *init, const char *cond, const char *update)
{
    int v = xg_v_for(g, init, cond, update);
    xg_join(g, v);
    xg_push(g, 'l', v);
    g->last_cv = 1;
    return v;
}

RF int
xg_while(xg *g, const char *cond)
{
    int v = xg_v_test(g, "PreLoop", cond);
    xg_join(g, v);
    xg_push(g, 'l', v);
    g->last_cv = 1;
    return v;
}

/* Close the innermost Branch (EndBranch) or loop (EndLoop). */
RF int
xg_end(xg *g)
{
    ck_assert(g->depth > 0);
    struct frame *f = &g->stack[--g->depth];
    if (f->kind == 'l') {
        int e = xg_v_plain(g, "EndLoop");
        xg_join(g, e);
        xg_edge(g, e, f->v, LONG_MIN);
        g->last = f->v;
        g->last_cv = LONG_MIN;
        return e;
    }
    int e = xg_v_plain(g, "EndBranch");
    if (f->open_arm)
        xg_close_arm(g, f);
    for (int k = 0; k < f->narms; k++)
        xg_edge(g, f->arm_end[k], e, f->arm_cv[k]);
    if (!f->has_default) /* no else / case default: the default edge skips */
        xg_edge(g, f->v, e, LONG_MIN);
    g->last = e;
    g->last_cv = LONG_MIN;
    return e;
}

/* ------------------------------------------------------------ routines */

RF xb_routine *
xb_routine_new(xb *b, const char *name, int scope, const char *formals, bool rl)
{
    ck_assert(b->nroutines < XB_MAXG && b->scope_parent[scope]);
    xb_routine *r = &b->routines[b->nroutines++];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->scope = scope;
    snprintf(r->formals, sizeof r->formals, "%s", formals ? formals : "");
    r->rlist = rl;
    return r;
}

RF xg *
xg_start(xb *b, int scope)
{
    xg *g = xb_graph(b, scope);
    g->last = xg_v_plain(g, "Entry");
    g->last_cv = LONG_MIN;
    return g;
}

/* A ControlFlowGraph for the subroutine @name (declared already) with local
 * scope @scope and formals "a b c" (symbols of @scope). */
RF xg *
xb_cfg(xb *b, const char *name, int scope, const char *formals)
{
    xb_routine *r = xb_routine_new(b, name, scope, formals, false);
    r->ph[0] = xg_start(b, scope);
    return r->ph[0];
}

/* A routine with no Entry (a module's CFG). */
RF void
xb_cfg_empty(xb *b, const char *name, int scope)
{
    xb_routine_new(b, name, scope, NULL, false);
}

/* A ControlFlowGraph whose vertices and edges the test writes itself. */
RF xg *
xb_cfg_raw(xb *b, const char *name, int scope, const char *formals)
{
    xb_routine *r = xb_routine_new(b, name, scope, formals, false);
    r->ph[0] = xb_graph(b, scope);
    r->ph[0]->raw = true;
    return r->ph[0];
}

/* Mark routine @name's graph structured="0" (branches and loops that do not nest). */
RF void
xb_unstructured(xb *b, const char *name)
{
    for (int i = 0; i < b->nroutines; i++)
        if (!strcmp(b->routines[i].name, name))
            b->routines[i].unstructured = true;
}

RF xb_routine *
xb_rlist(xb *b, const char *name, int scope, const char *formals)
{
    return xb_routine_new(b, name, scope, formals, true);
}

/* Placeholder @k of a ReplacementList (Entry made here). */
RF xg *
xr_ph(xb_routine *r, xb *b, int k)
{
    ck_assert(r->rlist && k >= 1 && k <= 13 && !r->ph[k]);
    r->ph[k] = xg_start(b, r->scope);
    return r->ph[k];
}

RF void
xg_finish(xg *g, sb *o)
{
    if (!g->raw) {
        ck_assert_msg(g->depth == 0, "fixture: an unclosed Branch or loop");
        int x = xg_v_plain(g, "Exit");
        xg_join(g, x);
        g->raw = true; /* once */
    }
    if (g->verts.p)
        sb_put(o, g->verts.p);
    if (g->edges.p)
        sb_put(o, g->edges.p);
}

RF void
xb_formals(const xb_routine *r, sb *o)
{
    if (!r->formals[0])
        return;
    sb_put(o, "<xaif:ArgumentList>\n");
    char buf[256];
    snprintf(buf, sizeof buf, "%s", r->formals);
    int pos = 0;
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
        sb_printf(o,
                  "<xaif:ArgumentSymbolReference position=\"%d\" scope_id=\"%d\" "
                  "symbol_id=\"%s\"/>\n",
                  ++pos, r->scope, t);
    sb_put(o, "</xaif:ArgumentList>\n");
}

RF int
xb_routine_symscope(const xb *b, const xb_routine *r)
{
    const xb_sym *s = xb_lookup(b, r->scope, r->name);
    ck_assert_msg(s && s->sub, "fixture: routine %s has no subroutine symbol", r->name);
    return s->scope;
}

/* The document (owned by @b). */
RF const char *
xb_build(xb *b)
{
    sb *o = &b->text;
    o->n = 0;
    sb_put(o, XAIF_HEAD "  <xaif:ScopeHierarchy>\n");
    for (int s = 1; s <= XB_MAXSCOPE; s++) {
        if (!b->scope_parent[s])
            continue;
        sb_printf(o, "    <xaif:Scope vertex_id=\"%d\">\n      <xaif:SymbolTable>\n", s);
        if (b->symtab[s].p)
            sb_put(o, b->symtab[s].p);
        sb_put(o, "      </xaif:SymbolTable>\n    </xaif:Scope>\n");
        if (s > 1)
            sb_printf(o, "    <xaif:ScopeEdge edge_id=\"%d\" source=\"%d\" target=\"%d\"/>\n", s, s,
                      b->scope_parent[s]);
    }
    sb_put(o, "  </xaif:ScopeHierarchy>\n" XAIF_MAPS);
    for (int i = 0; i < b->nroutines; i++) {
        xb_routine *r = &b->routines[i];
        const char *el = r->rlist ? "ReplacementList" : "ControlFlowGraph";
        sb_printf(o,
                  "  <xaif:%s vertex_id=\"%d\" scope_id=\"%d\" symbol_id=\"%s\" "
                  "controlflowgraph_scope_id=\"%d\"%s%s>\n",
                  el, 100 + i, xb_routine_symscope(b, r), r->name, r->scope,
                  r->rlist ? " template_name=\"reverse_subroutine_template\"" : "",
                  r->unstructured ? " structured=\"0\"" : "");
        xb_formals(r, o);
        if (!r->rlist) {
            if (r->ph[0])
                xg_finish(r->ph[0], o);
        } else
            for (int k = 1; k <= 13; k++) {
                if (!r->ph[k]) {
                    sb_printf(o, "<xaif:Replacement placeholder=\"%d\"/>\n", k);
                    continue;
                }
                sb_printf(o, "<xaif:Replacement placeholder=\"%d\">\n", k);
                xg_finish(r->ph[k], o);
                sb_put(o, "</xaif:Replacement>\n");
            }
        sb_printf(o, "  </xaif:%s>\n", el);
    }
    sb_put(o, "</xaif:CallGraph>\n");
    const char *dir = getenv("XF_RUN_DUMP");
    if (dir && *dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s_%d.xaif", dir, b->test, ++xb_dump_counter);
        FILE *f = fopen(path, "w");
        if (f) {
            fputs(o->p, f);
            fclose(f);
        }
    }
    return o->p;
}

/* Scope 1 (head and the subroutine symbols @subs) and head's local scope 2
 * holding x(n), y(m) and @locals. */
RF void
head_scopes(xb *b, int n, int m, const char *subs, const char *locals)
{
    char decl[128];
    xb_syms(b, 1, "sub head");
    if (subs)
        xb_syms(b, 1, subs);
    xb_scope(b, 2, 1);
    snprintf(decl, sizeof decl, "real x(%d); real y(%d)", n, m);
    xb_syms(b, 2, decl);
    if (locals)
        xb_syms(b, 2, locals);
}

/* A call graph with head_scopes; returns head's CFG. */
RF xg *
head_cfg(xb *b, int n, int m, const char *subs, const char *locals)
{
    head_scopes(b, n, m, subs, locals);
    return xb_cfg(b, "head", 2, "x y");
}

/* The line (from 1) of the first element with statement_id="@id" in @text; 0 if none. */
RF unsigned long
xb_line_of(const char *text, const char *id)
{
    char pat[128];
    snprintf(pat, sizeof pat, "statement_id=\"%s\"", id);
    const char *hit = strstr(text, pat);
    if (!hit)
        return 0;
    unsigned long line = 1;
    for (const char *p = text; p < hit; p++)
        line += *p == '\n';
    return line;
}

#endif
