/* shapes.c: xaif programs of the shapes that make a transform's cost grow,
 * written as OpenAD's Fortran front end writes xaif (tlm.xaif, adm.xaif):
 * a global scope with the routines' symbols, a scope per routine, an alias
 * map with one key per variable, the du/ud and DO maps, one
 * ControlFlowGraph per routine with Entry, BasicBlocks, ForLoop/Branch with
 * their End markers, Exit and the edges, and a CallGraphEdge per call.
 *
 * Every document's top routine is head(x, y), x(2) intent in, y(1) intent
 * out, with the scalars a, b and t0..t7 of head's scope:
 *
 *   block  a = x(1); b = x(2); t0 = a; t1 = b;
 *          t(k) = t(k-1) * a + sin(t(k-2))  (k mod 8), ...; y(1) = t(last)
 *   deep   a = x(1) + 0.5; b = x(2); y(1) = a * b * a * b ...  (SIZE *)
 *   wide   a = x(1); b = x(2); y(1) = c1*a + c2*b + ...  (SIZE terms, the
 *          additions a balanced tree: wide and shallow, unlike deep)
 *   routines / chain
 *          y(1) = x(2); call r1(x(1), y(1)) and r(k)(a, b): b = b * 0.5 +
 *          sin(a); call r(2k)(a, b); call r(2k+1)(a, b) (routines: a binary
 *          tree of SIZE routines) or call r(k+1)(a, b) (chain: depth SIZE)
 *   nest   a = x(1); b = x(2); t0 = 0; then SIZE levels, odd ones
 *          `do i_d = 1, 1`, even ones `if (a > 0) then ... else; end if`,
 *          each level's body t0 = t0 * a + b followed by the next level;
 *          y(1) = t0
 *   loopnest / loopseq
 *          a = x(1); b = x(2); t0 = 0; SIZE `do i_d = 1, 1` nested around
 *          SIZE assignments t0 = t0 * a + b (loopnest), or SIZE such loops
 *          one after the other, each around one (loopseq); y(1) = t0
 *   sindeep a = x(1); b = x(2); t0 = 0; `do i_1 = 1, 1` around t0 =
 *          sin(sin(... sin(a))) (SIZE sin); y(1) = t0: issue 26's input
 *          (a loop nest around 100 000 nested sin) cut down to one loop
 *
 * With x0 = (0.5, 1) (OpenAD's generic driver) every value stays near 1, so
 * divided differences and the derivative codes can be compared. */
#include "shapes.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct {
    const char *name, *summary;
} xf_shape_table[XF_SHAPE_COUNT] = {
    /* ORDER: xf_shape */
    {"block", "one basic block of SIZE assignments"},
    {"deep", "one assignment whose right-hand side is a chain of SIZE multiplications"},
    {"wide", "one assignment whose right-hand side is a sum of SIZE terms (a balanced tree)"},
    {"routines", "SIZE routines called from head in a binary tree (depth log2 SIZE)"},
    {"chain", "SIZE routines, each calling the next (a call chain of depth SIZE)"},
    {"nest", "loops and branches nested SIZE deep, alternately"},
    {"files", "SIZE files of 16 assignments each (a folder, for batch)"},
    {"loopnest", "SIZE ForLoops nested around a block of SIZE assignments"},
    {"loopseq", "SIZE ForLoops one after the other, each around one assignment"},
    {"sindeep", "one assignment whose right-hand side is SIZE nested sin calls"},
};

xf_shape
xf_shape_find(const char *name)
{
    for (int s = 0; s < XF_SHAPE_COUNT; s++)
        if (strcmp(xf_shape_table[s].name, name) == 0)
            return (xf_shape)s;
    return XF_SHAPE_COUNT;
}

const char *
xf_shape_name(xf_shape shape)
{
    return shape < XF_SHAPE_COUNT ? xf_shape_table[shape].name : "?";
}

const char *
xf_shape_summary(xf_shape shape)
{
    return shape < XF_SHAPE_COUNT ? xf_shape_table[shape].summary : "?";
}

/* ------------------------------------------------------------ variables */

/* A variable of a routine's scope: symbol, alias key, and for X and Y the
 * element written (index 1 or 2), else NULL. */
typedef struct var {
    const char *sym;
    unsigned alias;
    const char *elt;
} var;

/* Head's scope (2): x, y, a, b, t0..t7; the loop indices i_d follow. */
enum { HEAD_SCOPE = 2, KEY_A = 3, KEY_B = 4, KEY_T = 5, KEY_I = 13 };
static const var X1 = {"X_1", 1, "1"}, X2 = {"X_1", 1, "2"}, Y1 = {"Y_2", 2, "1"};
static const var A = {"A_3", KEY_A, NULL}, B = {"B_4", KEY_B, NULL};
static const char *const tsym[8] = {"T_5", "T_6", "T_7", "T_8", "T_9", "T_10", "T_11", "T_12"};

static var
tvar(long k)
{
    return (var){tsym[k % 8], (unsigned)(KEY_T + k % 8), NULL};
}

/* A routine r(k)'s own scope holds its arguments a and b. */
static const var RA = {"A_1", KEY_A, NULL}, RB = {"B_2", KEY_B, NULL};

/* ---------------------------------------------------------- expressions */

typedef enum vkind { V_OP, V_VAR, V_CONST } vkind;

typedef struct vtx {
    vkind kind;
    const char *name; /* V_OP: the intrinsic */
    var v;            /* V_VAR */
    char value[32];   /* V_CONST */
} vtx;

typedef struct xedge {
    uint32_t src, dst, pos;
} xedge;

/* An expression graph; vertex k (from 1) is v[k - 1]. */
typedef struct expr {
    vtx *v;
    size_t nv, cv;
    xedge *e;
    size_t ne, ce;
    int err;
} expr;

static void *
grow(void *p, size_t *cap, size_t size)
{
    size_t n = *cap ? *cap * 2 : 16;
    void *q = realloc(p, n * size);
    if (q)
        *cap = n;
    return q;
}

static uint32_t
ex_add(expr *ex, vtx v)
{
    if (ex->nv == ex->cv) {
        vtx *p = grow(ex->v, &ex->cv, sizeof *p);
        if (!p) {
            ex->err = 1;
            return 0;
        }
        ex->v = p;
    }
    ex->v[ex->nv++] = v;
    return (uint32_t)ex->nv;
}

static uint32_t
ex_op(expr *ex, const char *name)
{
    return ex_add(ex, (vtx){.kind = V_OP, .name = name});
}

static uint32_t
ex_var(expr *ex, var v)
{
    return ex_add(ex, (vtx){.kind = V_VAR, .v = v});
}

static uint32_t
ex_const(expr *ex, double value)
{
    vtx v = {.kind = V_CONST};
    snprintf(v.value, sizeof v.value, "%.20e", value);
    return ex_add(ex, v);
}

static void
ex_edge(expr *ex, uint32_t src, uint32_t dst, uint32_t pos)
{
    if (ex->ne == ex->ce) {
        xedge *p = grow(ex->e, &ex->ce, sizeof *p);
        if (!p) {
            ex->err = 1;
            return;
        }
        ex->e = p;
    }
    ex->e[ex->ne++] = (xedge){src, dst, pos};
}

static void
ex_fini(expr *ex)
{
    free(ex->v);
    free(ex->e);
}

/* ----------------------------------------------------------------- output */

typedef struct cfedge {
    unsigned long src, dst;
    int cond; /* 1: has_condition_value="true" condition_value="1" */
} cfedge;

typedef struct gen {
    FILE *f;
    int scope;            /* the current routine's scope */
    unsigned long vertex; /* its last control-flow vertex */
    unsigned long stmt;   /* its last statement id */
    cfedge *ce;
    size_t nce, cce;
    int err;
} gen;

static void
cf_edge(gen *g, unsigned long src, unsigned long dst, int cond)
{
    if (g->nce == g->cce) {
        cfedge *p = grow(g->ce, &g->cce, sizeof *p);
        if (!p) {
            g->err = 1;
            return;
        }
        g->ce = p;
    }
    g->ce[g->nce++] = (cfedge){src, dst, cond};
}

static void
pad(gen *g, int indent)
{
    fprintf(g->f, "%*s", indent, "");
}

/* <SymbolReference> and, for an element of x or y, its index. */
static void
emit_ref_body(gen *g, int in, const var *v)
{
    pad(g, in);
    fprintf(g->f, "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"%d\" symbol_id=\"%s\"/>\n",
            g->scope, v->sym);
    if (!v->elt)
        return;
    pad(g, in);
    fprintf(g->f, "<xaif:ArrayElementReference vertex_id=\"2\">\n");
    pad(g, in + 2);
    fprintf(g->f, "<xaif:IndexTriplet>\n");
    pad(g, in + 4);
    fprintf(g->f, "<xaif:Index>\n");
    pad(g, in + 6);
    fprintf(g->f, "<xaif:Constant vertex_id=\"1\" type=\"integer\" feType=\"I4\" value=\"%s\"/>\n",
            v->elt);
    pad(g, in + 4);
    fprintf(g->f, "</xaif:Index>\n");
    pad(g, in + 2);
    fprintf(g->f, "</xaif:IndexTriplet>\n");
    pad(g, in);
    fprintf(g->f, "</xaif:ArrayElementReference>\n");
    pad(g, in);
    fprintf(g->f, "<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n");
}

static void
emit_varref(gen *g, int in, uint32_t id, const var *v)
{
    pad(g, in);
    fprintf(g->f, "<xaif:VariableReference vertex_id=\"%u\" alias=\"%u\">\n", (unsigned)id,
            v->alias);
    emit_ref_body(g, in + 2, v);
    pad(g, in);
    fprintf(g->f, "</xaif:VariableReference>\n");
}

static void
emit_expr(gen *g, int in, const expr *ex)
{
    for (size_t k = 0; k < ex->nv; k++) {
        const vtx *v = &ex->v[k];
        uint32_t id = (uint32_t)(k + 1);
        switch (v->kind) {
        case V_OP:
            pad(g, in);
            fprintf(g->f, "<xaif:Intrinsic vertex_id=\"%u\" name=\"%s\" type=\"***\"/>\n",
                    (unsigned)id, v->name);
            break;
        case V_VAR:
            emit_varref(g, in, id, &v->v);
            break;
        case V_CONST:
            pad(g, in);
            fprintf(g->f,
                    "<xaif:Constant vertex_id=\"%u\" type=\"real\" feType=\"F8\" value=\"%s\"/>\n",
                    (unsigned)id, v->value);
            break;
        }
    }
    for (size_t k = 0; k < ex->ne; k++) {
        pad(g, in);
        fprintf(g->f,
                "<xaif:ExpressionEdge edge_id=\"%zu\" source=\"%u\" target=\"%u\" "
                "position=\"%u\"/>\n",
                k + 1, (unsigned)ex->e[k].src, (unsigned)ex->e[k].dst, (unsigned)ex->e[k].pos);
    }
}

/* An Assignment LHS = EX, inside a BasicBlock. */
static void
emit_assign(gen *g, const var *lhs, expr *ex)
{
    if (ex->err)
        g->err = 1;
    g->stmt++;
    fprintf(g->f, "      <xaif:Assignment statement_id=\"%lu\" lineNumber=\"%lu\">\n", g->stmt,
            g->stmt);
    fprintf(g->f, "        <xaif:AssignmentLHS alias=\"%u\">\n", lhs->alias);
    emit_ref_body(g, 10, lhs);
    fprintf(g->f, "        </xaif:AssignmentLHS>\n        <xaif:AssignmentRHS>\n");
    emit_expr(g, 10, ex);
    fprintf(g->f, "        </xaif:AssignmentRHS>\n      </xaif:Assignment>\n");
    ex_fini(ex);
}

/* LHS = R */
static void
assign_copy(gen *g, const var *lhs, var r)
{
    expr ex = {0};
    ex_var(&ex, r);
    emit_assign(g, lhs, &ex);
}

/* LHS = R + C */
static void
assign_plus(gen *g, const var *lhs, var r, double c)
{
    expr ex = {0};
    uint32_t op = ex_op(&ex, "add_scal_scal");
    ex_edge(&ex, ex_var(&ex, r), op, 1);
    ex_edge(&ex, ex_const(&ex, c), op, 2);
    emit_assign(g, lhs, &ex);
}

/* LHS = P * Q + F(R), F an intrinsic of one argument or NULL; Q NULL: the
 * constant C */
static void
assign_mul_add(gen *g, const var *lhs, var p, const var *q, double c, const char *f, var r)
{
    expr ex = {0};
    uint32_t add = ex_op(&ex, "add_scal_scal");
    uint32_t mul = ex_op(&ex, "mul_scal_scal");
    ex_edge(&ex, mul, add, 1);
    ex_edge(&ex, ex_var(&ex, p), mul, 1);
    ex_edge(&ex, q ? ex_var(&ex, *q) : ex_const(&ex, c), mul, 2);
    if (f) {
        uint32_t call = ex_op(&ex, f);
        ex_edge(&ex, call, add, 2);
        ex_edge(&ex, ex_var(&ex, r), call, 1);
    } else {
        ex_edge(&ex, ex_var(&ex, r), add, 2);
    }
    emit_assign(g, lhs, &ex);
}

static void
assign_const(gen *g, const var *lhs, double c)
{
    expr ex = {0};
    ex_const(&ex, c);
    emit_assign(g, lhs, &ex);
}

/* y(1) = a * b * a * b ...: N multiplications, the first operand of each
 * the next one (left-deep, as a front end parses it), vertex 1 the root. */
static void
assign_deep(gen *g, long n)
{
    expr ex = {0};
    for (long i = 1; i <= n; i++)
        ex_op(&ex, "mul_scal_scal");
    for (long i = 1; i <= n; i++) {
        ex_edge(&ex, ex_var(&ex, i % 2 ? A : B), (uint32_t)i, 2);
        if (i < n)
            ex_edge(&ex, (uint32_t)(i + 1), (uint32_t)i, 1);
    }
    ex_edge(&ex, ex_var(&ex, A), (uint32_t)n, 1);
    emit_assign(g, &Y1, &ex);
}

/* @lhs = sin(sin(... sin(a))): N nested calls, vertex 1 the root. */
static void
assign_sindeep(gen *g, const var *lhs, long n)
{
    expr ex = {0};
    for (long i = 1; i <= n; i++)
        ex_op(&ex, "sin_scal");
    for (long i = 1; i < n; i++)
        ex_edge(&ex, (uint32_t)(i + 1), (uint32_t)i, 1);
    ex_edge(&ex, ex_var(&ex, A), (uint32_t)n, 1);
    emit_assign(g, lhs, &ex);
}

/* The terms LO..HI-1 of the wide sum, a balanced tree; returns its root.
 * Term k is c(k) * a or c(k) * b. Recursion depth log2(SIZE). */
static uint32_t
sum(expr *ex, long lo, long hi)
{
    if (hi - lo == 1) {
        uint32_t mul = ex_op(ex, "mul_scal_scal");
        ex_edge(ex, ex_const(ex, 0.125 * (double)(lo % 7 + 1)), mul, 1);
        ex_edge(ex, ex_var(ex, lo % 2 ? B : A), mul, 2);
        return mul;
    }
    long mid = lo + (hi - lo) / 2;
    uint32_t add = ex_op(ex, "add_scal_scal");
    ex_edge(ex, sum(ex, lo, mid), add, 1);
    ex_edge(ex, sum(ex, mid, hi), add, 2);
    return add;
}

/* ------------------------------------------------------- control flow */

static unsigned long
vertex(gen *g)
{
    return ++g->vertex;
}

static unsigned long
open_block(gen *g)
{
    unsigned long v = vertex(g);
    fprintf(g->f, "    <xaif:BasicBlock vertex_id=\"%lu\" scope_id=\"%d\">\n", v, g->scope);
    return v;
}

static void
close_block(gen *g)
{
    fprintf(g->f, "    </xaif:BasicBlock>\n");
}

static unsigned long
empty_block(gen *g)
{
    unsigned long v = vertex(g);
    fprintf(g->f, "    <xaif:BasicBlock vertex_id=\"%lu\" scope_id=\"%d\"/>\n", v, g->scope);
    return v;
}

static unsigned long
marker(gen *g, const char *element)
{
    unsigned long v = vertex(g);
    fprintf(g->f, "    <xaif:%s vertex_id=\"%lu\"/>\n", element, v);
    return v;
}

/* The routine's ControlFlowGraph up to its Entry; returns the Entry. */
static unsigned long
open_cfg(gen *g, unsigned long cfg, const char *symbol, int scope, const var *args)
{
    g->scope = scope;
    g->vertex = 0;
    g->stmt = 0;
    g->nce = 0;
    fprintf(g->f,
            "  <xaif:ControlFlowGraph vertex_id=\"%lu\" scope_id=\"1\" symbol_id=\"%s\" "
            "controlflowgraph_scope_id=\"%d\">\n    <xaif:ArgumentList>\n",
            cfg, symbol, scope);
    for (int k = 0; k < 2; k++)
        fprintf(g->f,
                "      <xaif:ArgumentSymbolReference position=\"%d\" scope_id=\"%d\" "
                "symbol_id=\"%s\" intent=\"%s\"/>\n",
                k + 1, scope, args[k].sym, scope == HEAD_SCOPE ? (k ? "out" : "in") : "inout");
    fprintf(g->f, "    </xaif:ArgumentList>\n");
    return marker(g, "Entry");
}

/* The Exit after LAST, the edges, and the end of the ControlFlowGraph. */
static void
close_cfg(gen *g, unsigned long last)
{
    cf_edge(g, last, marker(g, "Exit"), 0);
    for (size_t k = 0; k < g->nce; k++) {
        const cfedge *e = &g->ce[k];
        fprintf(g->f,
                "    <xaif:ControlFlowEdge edge_id=\"%zu\" source=\"%lu\" target=\"%lu\"%s/>\n",
                k + 1, e->src, e->dst,
                e->cond ? " has_condition_value=\"true\" condition_value=\"1\"" : "");
    }
    fprintf(g->f, "  </xaif:ControlFlowGraph>\n");
}

/* ------------------------------------------------------------ prologue */

static void
symbol(gen *g, const char *id, const char *type, const char *shape, int active, const char *upper)
{
    fprintf(g->f,
            "        <xaif:Symbol symbol_id=\"%s\" kind=\"variable\" type=\"%s\" feType=\"%s\" "
            "shape=\"%s\" active=\"%d\"",
            id, type, strcmp(type, "real") ? "I4" : "F8", shape, active);
    if (upper)
        fprintf(g->f,
                ">\n          <xaif:DimensionBounds lower=\"1\" upper=\"%s\"/>\n"
                "        </xaif:Symbol>\n",
                upper);
    else
        fprintf(g->f, "/>\n");
}

/* The CallGraph's start, scopes, alias, du/ud and DO maps. ROUTINES: the
 * routines r1..rN besides head; LOOPS: the loop indices in head's scope. */
static void
prologue(gen *g, long routines, long loops)
{
    fprintf(g->f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<xaif:CallGraph xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                  "xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\" program_name=\"shapes\" "
                  "prefix=\"OpenAD_\">\n  <xaif:ScopeHierarchy>\n"
                  "    <xaif:Scope vertex_id=\"1\">\n      <xaif:SymbolTable>\n");
    for (long k = 1; k <= routines; k++)
        fprintf(
            g->f,
            "        <xaif:Symbol symbol_id=\"r%ld__%ld\" kind=\"subroutine\" type=\"void\"/>\n", k,
            k + 1);
    fprintf(g->f, "        <xaif:Symbol symbol_id=\"head__1\" kind=\"subroutine\" type=\"void\"/>\n"
                  "      </xaif:SymbolTable>\n    </xaif:Scope>\n"
                  "    <xaif:Scope vertex_id=\"2\">\n      <xaif:SymbolTable>\n");
    symbol(g, "X_1", "real", "vector", 1, "2");
    symbol(g, "Y_2", "real", "vector", 1, "1");
    symbol(g, A.sym, "real", "scalar", 1, NULL);
    symbol(g, B.sym, "real", "scalar", 1, NULL);
    for (int k = 0; k < 8; k++)
        symbol(g, tsym[k], "real", "scalar", 1, NULL);
    for (long k = 0; k < loops; k++) {
        char id[32];
        snprintf(id, sizeof id, "I_%ld", KEY_I + k);
        symbol(g, id, "integer", "scalar", 0, NULL);
    }
    fprintf(g->f, "      </xaif:SymbolTable>\n    </xaif:Scope>\n"
                  "    <xaif:ScopeEdge edge_id=\"1\" source=\"2\" target=\"1\"/>\n");
    for (long k = 1; k <= routines; k++) {
        fprintf(g->f, "    <xaif:Scope vertex_id=\"%ld\">\n      <xaif:SymbolTable>\n", k + 2);
        symbol(g, RA.sym, "real", "scalar", 1, NULL);
        symbol(g, RB.sym, "real", "scalar", 1, NULL);
        fprintf(g->f,
                "      </xaif:SymbolTable>\n    </xaif:Scope>\n"
                "    <xaif:ScopeEdge edge_id=\"%ld\" source=\"%ld\" target=\"1\"/>\n",
                k + 1, k + 2);
    }
    /* Keys: 0 the empty set, 1 x (addresses 1-2), 2 y (3), then one
     * address per scalar. */
    fprintf(g->f,
            "  </xaif:ScopeHierarchy>\n  <xaif:AliasSetMap>\n"
            "    <xaif:AliasSet key=\"0\"/>\n"
            "    <xaif:AliasSet key=\"1\">\n      <xaif:AliasRange from_virtual_address=\"1\" "
            "to_virtual_address=\"2\" partial=\"1\"/>\n    </xaif:AliasSet>\n"
            "    <xaif:AliasSet key=\"2\">\n      <xaif:AliasRange from_virtual_address=\"3\" "
            "to_virtual_address=\"3\" partial=\"1\"/>\n    </xaif:AliasSet>\n");
    for (long k = KEY_A; k < KEY_I + loops; k++)
        fprintf(g->f,
                "    <xaif:AliasSet key=\"%ld\">\n      <xaif:AliasRange from_virtual_address="
                "\"%ld\" to_virtual_address=\"%ld\" partial=\"0\"/>\n    </xaif:AliasSet>\n",
                k, k + 1, k + 1);
    fprintf(g->f, "  </xaif:AliasSetMap>\n  <xaif:DUUDSetMap>\n    <xaif:StmtIdSet key=\"0\"/>\n"
                  "  </xaif:DUUDSetMap>\n  <xaif:DOSetMap>\n    <xaif:StmtIdSet key=\"0\"/>\n"
                  "  </xaif:DOSetMap>\n");
}

static const var head_args[2] = {{"X_1", 1, NULL}, {"Y_2", 2, NULL}};
static const var routine_args[2] = {{"A_1", KEY_A, NULL}, {"B_2", KEY_B, NULL}};

/* ------------------------------------------------------------- shapes */

/* head with one basic block; BODY writes its statements. */
static void
straight(gen *g, xf_shape shape, long size)
{
    prologue(g, 0, 0);
    unsigned long entry = open_cfg(g, 1, "head__1", HEAD_SCOPE, head_args);
    unsigned long bb = open_block(g);
    cf_edge(g, entry, bb, 0);
    switch (shape) {
    case XF_SHAPE_BLOCK:
    case XF_SHAPE_FILES: {
        long last = size < 5 ? 1 : size - 4;
        var t0 = tvar(0), t1 = tvar(1);
        assign_copy(g, &A, X1);
        assign_copy(g, &B, X2);
        assign_copy(g, &t0, A);
        assign_copy(g, &t1, B);
        for (long k = 2; k <= last; k++) {
            var t = tvar(k);
            assign_mul_add(g, &t, tvar(k - 1), &A, 0, "sin_scal", tvar(k - 2));
        }
        assign_copy(g, &Y1, tvar(last));
        break;
    }
    case XF_SHAPE_DEEP:
        assign_plus(g, &A, X1, 0.5);
        assign_copy(g, &B, X2);
        assign_deep(g, size);
        break;
    case XF_SHAPE_WIDE: {
        expr ex = {0};
        assign_copy(g, &A, X1);
        assign_copy(g, &B, X2);
        sum(&ex, 0, size);
        emit_assign(g, &Y1, &ex);
        break;
    }
    case XF_SHAPE_ROUTINES:
    case XF_SHAPE_CHAIN:
    case XF_SHAPE_NEST:
    case XF_SHAPE_LOOPNEST:
    case XF_SHAPE_LOOPSEQ:
    case XF_SHAPE_SINDEEP:
    case XF_SHAPE_COUNT:
        g->err = 1;
        break;
    }
    close_block(g);
    close_cfg(g, bb);
    fprintf(g->f, "</xaif:CallGraph>\n");
}

/* CALL r(K)(P, Q) with the routine's symbol in the global scope. */
static void
call(gen *g, long k, const var *p, const var *q)
{
    const var *arg[2] = {p, q};
    g->stmt++;
    fprintf(g->f,
            "      <xaif:SubroutineCall statement_id=\"%lu\" scope_id=\"1\" lineNumber=\"%lu\" "
            "formalArgCount=\"2\" symbol_id=\"r%ld__%ld\">\n",
            g->stmt, g->stmt, k, k + 1);
    for (int a = 0; a < 2; a++) {
        fprintf(g->f, "        <xaif:Argument position=\"%d\">\n", a + 1);
        emit_varref(g, 10, 1, arg[a]);
        fprintf(g->f, "        </xaif:Argument>\n");
    }
    fprintf(g->f, "      </xaif:SubroutineCall>\n");
}

/* routines (TREE) or chain: r(k) is ControlFlowGraph k + 1, head 1. */
static void
routines(gen *g, long size, int tree)
{
    prologue(g, size, 0);
    for (long k = 1; k <= size; k++) {
        char name[48];
        snprintf(name, sizeof name, "r%ld__%ld", k, k + 1);
        unsigned long entry = open_cfg(g, (unsigned long)k + 1, name, (int)k + 2, routine_args);
        unsigned long bb = open_block(g);
        cf_edge(g, entry, bb, 0);
        assign_mul_add(g, &RB, RB, NULL, 0.5, "sin_scal", RA);
        long first = tree ? 2 * k : k + 1, last = tree ? 2 * k + 1 : k + 1;
        for (long c = first; c <= last && c <= size; c++)
            call(g, c, &RA, &RB);
        close_block(g);
        close_cfg(g, bb);
    }
    unsigned long entry = open_cfg(g, 1, "head__1", HEAD_SCOPE, head_args);
    unsigned long bb = open_block(g);
    cf_edge(g, entry, bb, 0);
    assign_copy(g, &Y1, X2);
    call(g, 1, &X1, &Y1);
    close_block(g);
    close_cfg(g, bb);
    unsigned long edge = 0;
    for (long k = 1; k <= size; k++) {
        long caller = tree ? k / 2 : k - 1; /* 0: head */
        fprintf(g->f, "  <xaif:CallGraphEdge edge_id=\"%lu\" source=\"%ld\" target=\"%ld\"/>\n",
                ++edge, caller + 1, k + 1);
    }
    fprintf(g->f, "</xaif:CallGraph>\n");
}

static void
nest_loop_head(gen *g, unsigned long v, const char *index, unsigned alias)
{
    fprintf(g->f,
            "    <xaif:ForLoop vertex_id=\"%lu\" reversal=\"anonymous\" lineNumber=\"%lu\">\n"
            "      <xaif:Initialization statement_id=\"%lu\">\n"
            "        <xaif:AssignmentLHS alias=\"%u\">\n",
            v, g->stmt + 1, g->stmt + 1, alias);
    var i = {index, alias, NULL};
    emit_ref_body(g, 10, &i);
    fprintf(g->f, "        </xaif:AssignmentLHS>\n        <xaif:AssignmentRHS>\n"
                  "          <xaif:Constant vertex_id=\"1\" type=\"integer\" feType=\"I4\" "
                  "value=\"1\"/>\n        </xaif:AssignmentRHS>\n      </xaif:Initialization>\n"
                  "      <xaif:Condition>\n"
                  "        <xaif:BooleanOperation vertex_id=\"1\" name=\"less_or_equal\"/>\n");
    emit_varref(g, 8, 2, &i);
    fprintf(g->f,
            "        <xaif:Constant vertex_id=\"3\" type=\"integer\" feType=\"I4\" "
            "value=\"1\"/>\n"
            "        <xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" "
            "position=\"1\"/>\n"
            "        <xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" "
            "position=\"2\"/>\n      </xaif:Condition>\n"
            "      <xaif:Update statement_id=\"%lu\">\n"
            "        <xaif:AssignmentLHS alias=\"%u\">\n",
            g->stmt + 2, alias);
    emit_ref_body(g, 10, &i);
    fprintf(g->f,
            "        </xaif:AssignmentLHS>\n        <xaif:AssignmentRHS>\n"
            "          <xaif:Intrinsic vertex_id=\"1\" name=\"add_scal_scal\" type=\"***\"/>\n");
    emit_varref(g, 10, 2, &i);
    fprintf(g->f, "          <xaif:Constant vertex_id=\"3\" type=\"integer\" feType=\"I4\" "
                  "value=\"1\"/>\n"
                  "          <xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" "
                  "position=\"1\"/>\n"
                  "          <xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" "
                  "position=\"2\"/>\n        </xaif:AssignmentRHS>\n      </xaif:Update>\n"
                  "    </xaif:ForLoop>\n");
    g->stmt += 2;
}

static void
nest_branch_head(gen *g, unsigned long v)
{
    fprintf(g->f,
            "    <xaif:Branch vertex_id=\"%lu\" lineNumber=\"%lu\">\n      <xaif:Condition>\n"
            "        <xaif:BooleanOperation vertex_id=\"1\" name=\"greater_than\"/>\n",
            v, g->stmt);
    emit_varref(g, 8, 2, &A);
    fprintf(g->f, "        <xaif:Constant vertex_id=\"3\" type=\"real\" feType=\"F8\" "
                  "value=\"0.00000000000000000000e+00\"/>\n"
                  "        <xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" "
                  "position=\"1\"/>\n"
                  "        <xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" "
                  "position=\"2\"/>\n      </xaif:Condition>\n    </xaif:Branch>\n");
}

/* Level d (1..SIZE) is a loop when d is odd, a branch when even; its body
 * is a block and then level d + 1. Vertices in document order, as the front
 * end writes them: each level's head and body block going in, the else
 * block and End marker coming out. */
static void
nest(gen *g, long size)
{
    long loops = (size + 1) / 2;
    unsigned long *head = calloc((size_t)size + 1, sizeof *head);
    if (!head) {
        g->err = 1;
        return;
    }
    prologue(g, 0, loops);
    unsigned long entry = open_cfg(g, 1, "head__1", HEAD_SCOPE, head_args);
    unsigned long bb = open_block(g);
    var t0 = tvar(0);
    cf_edge(g, entry, bb, 0);
    assign_copy(g, &A, X1);
    assign_copy(g, &B, X2);
    assign_const(g, &t0, 0.0);
    close_block(g);
    unsigned long prev = bb;
    for (long d = 1; d <= size; d++) {
        head[d] = vertex(g);
        if (d % 2) {
            char index[32];
            snprintf(index, sizeof index, "I_%ld", KEY_I + d / 2);
            nest_loop_head(g, head[d], index, (unsigned)(KEY_I + d / 2));
        } else {
            nest_branch_head(g, head[d]);
        }
        cf_edge(g, prev, head[d], 0);
        unsigned long body = open_block(g);
        assign_mul_add(g, &t0, t0, &A, 0, NULL, B);
        close_block(g);
        cf_edge(g, head[d], body, 1);
        prev = body;
    }
    /* prev: the innermost body, which ends level SIZE; going out, OUT is
     * the vertex whose edge leaves level d. */
    unsigned long last = prev;
    for (long d = size; d >= 1; d--) {
        unsigned long out;
        if (d % 2) {
            unsigned long end = marker(g, "EndLoop");
            cf_edge(g, last, end, 0);
            cf_edge(g, end, head[d], 0);
            out = head[d];
        } else {
            unsigned long other = empty_block(g);
            unsigned long end = marker(g, "EndBranch");
            cf_edge(g, head[d], other, 0);
            cf_edge(g, last, end, 0);
            cf_edge(g, other, end, 0);
            out = end;
        }
        last = out;
    }
    unsigned long fin = open_block(g);
    cf_edge(g, last, fin, 0);
    assign_copy(g, &Y1, t0);
    close_block(g);
    close_cfg(g, fin);
    fprintf(g->f, "</xaif:CallGraph>\n");
    free(head);
}

/* loopnest: SIZE ForLoops nested, the innermost body a block of SIZE
 * assignments t0 = t0 * a + b; loopseq: SIZE ForLoops one after the
 * other, each body one such assignment (with @sins, t0 = sin(sin(... a))
 * instead, @sins deep). Every loop runs once
 * (do i_d = 1, 1); nested, level d's loop variable is I_d. */
static void
loops(gen *g, long size, int nested, long sins)
{
    long nloops = nested ? size : 1;
    unsigned long *head = calloc((size_t)size + 1, sizeof *head);
    if (!head) {
        g->err = 1;
        return;
    }
    prologue(g, 0, nloops);
    unsigned long entry = open_cfg(g, 1, "head__1", HEAD_SCOPE, head_args);
    unsigned long bb = open_block(g);
    var t0 = tvar(0);
    cf_edge(g, entry, bb, 0);
    assign_copy(g, &A, X1);
    assign_copy(g, &B, X2);
    assign_const(g, &t0, 0.0);
    close_block(g);
    unsigned long prev = bb;
    for (long d = 1; d <= size; d++) {
        long k = nested ? d - 1 : 0;
        char index[32];
        snprintf(index, sizeof index, "I_%ld", KEY_I + k);
        head[d] = vertex(g);
        nest_loop_head(g, head[d], index, (unsigned)(KEY_I + k));
        cf_edge(g, prev, head[d], nested && d > 1);
        if (nested && d < size) {
            prev = head[d];
            continue;
        }
        unsigned long body = open_block(g);
        for (long j = 0; j < (nested ? size : 1); j++)
            if (sins)
                assign_sindeep(g, &t0, sins);
            else
                assign_mul_add(g, &t0, t0, &A, 0, NULL, B);
        close_block(g);
        cf_edge(g, head[d], body, 1);
        unsigned long end = marker(g, "EndLoop");
        cf_edge(g, body, end, 0);
        cf_edge(g, end, head[d], 0);
        prev = head[d];
    }
    /* nested: the loop of level d - 1 runs level d as its body */
    for (long d = size; nested && d > 1; d--) {
        unsigned long end = marker(g, "EndLoop");
        cf_edge(g, head[d], end, 0);
        cf_edge(g, end, head[d - 1], 0);
    }
    unsigned long fin = open_block(g);
    cf_edge(g, nested ? head[1] : prev, fin, 0);
    assign_copy(g, &Y1, t0);
    close_block(g);
    close_cfg(g, fin);
    fprintf(g->f, "</xaif:CallGraph>\n");
    free(head);
}

int
xf_shape_write(FILE *out, xf_shape shape, long size)
{
    gen g = {.f = out};
    if (size < 1 || shape >= XF_SHAPE_COUNT) {
        errno = EINVAL;
        return -1;
    }
    switch (shape) {
    case XF_SHAPE_BLOCK:
    case XF_SHAPE_DEEP:
    case XF_SHAPE_WIDE:
        straight(&g, shape, size);
        break;
    case XF_SHAPE_FILES:
        straight(&g, shape, XF_SHAPE_FILE_STATEMENTS);
        break;
    case XF_SHAPE_ROUTINES:
    case XF_SHAPE_CHAIN:
        routines(&g, size, shape == XF_SHAPE_ROUTINES);
        break;
    case XF_SHAPE_NEST:
        nest(&g, size);
        break;
    case XF_SHAPE_LOOPNEST:
    case XF_SHAPE_LOOPSEQ:
        loops(&g, size, shape == XF_SHAPE_LOOPNEST, 0);
        break;
    case XF_SHAPE_SINDEEP:
        loops(&g, 1, 0, size);
        break;
    case XF_SHAPE_COUNT:
        break;
    }
    free(g.ce);
    if (g.err) {
        errno = ENOMEM;
        return -1;
    }
    return ferror(out) ? -1 : 0;
}

static int
make_file(const char *path, xf_shape shape, long size)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = xf_shape_write(f, shape, size);
    int e = errno;
    if (fclose(f) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    errno = e;
    return rc;
}

int
xf_shape_make(const char *path, xf_shape shape, long size)
{
    if (shape != XF_SHAPE_FILES)
        return make_file(path, shape, size);
    if (mkdir(path, 0777) != 0)
        return -1;
    size_t n = strlen(path) + 32;
    char *name = malloc(n);
    if (!name)
        return -1;
    int rc = 0;
    for (long k = 1; k <= size && rc == 0; k++) {
        snprintf(name, n, "%s/f%06ld.xaif", path, k);
        rc = make_file(name, shape, size);
    }
    free(name);
    return rc;
}
