/* gen_fvkernel.c: xaiform-gen-fvkernel, the xaif of an edge-based
 * finite-volume kernel on an unstructured mesh in the style of Hascoët,
 * Fidanova and Held [004] §4, for the loop benchmark (docs/loops.md).
 *
 *   xaiform-gen-fvkernel ELEMENTS -o OUT.xaif
 *
 * The top routine is head(x, y), x(3) intent in, y(2) intent out, so that
 * `xaiform run --driver ... -n 3 -m 2` runs it. The mesh has ELEMENTS
 * triangles over NV = ELEMENTS / 2 + 3 vertices; its connectivity is an
 * integer array conn(3, ELEMENTS) that the program computes. The loops:
 * connectivity; the vertex state u(v) from x; two sweeps over the elements
 * that gather from their vertices, compute fluxes with exp, sqrt and tanh
 * and scatter increments back (r(v) = r(v) + ..., additive); a smoothing
 * recurrence over the vertices (a loop-carried dependence); two
 * reductions into y. The kernel is a table of Fortran-like lines (below),
 * parsed here and written as a front end writes xaif: symbols with their
 * bounds, an alias map with one address range per variable, statements
 * with their kernel line as lineNumber. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NE and NV are replaced by the element and vertex counts. */
static const char *const kernel[] = {
    /* 1 */ "do e = 1, NE",
    /* 2 */ "conn(1, e) = mod(e * 7, NV) + 1",
    /* 3 */ "conn(2, e) = mod(e * 13 + 5, NV) + 1",
    /* 4 */ "conn(3, e) = mod(e * 29 + 11, NV) + 1",
    /* 5 */ "end do",
    /* 6 */ "do v = 1, NV",
    /* 7 */ "u(v) = x(1) + x(2) * sin(0.01 * v) + x(3) * cos(0.02 * v)",
    /* 8 */ "r(v) = 0.0",
    /* 9 */ "s(v) = 0.0",
    /* 10 */ "end do",
    /* 11 */ "do e = 1, NE",
    /* 12 */ "ia = conn(1, e)",
    /* 13 */ "ib = conn(2, e)",
    /* 14 */ "ic = conn(3, e)",
    /* 15 */ "f = exp(0.1 * (u(ia) - u(ib))) * (u(ia) + u(ic))",
    /* 16 */ "g = sqrt(1.0 + u(ib) * u(ib) + u(ic) * u(ic))",
    /* 17 */ "q(e) = f * g",
    /* 18 */ "r(ia) = r(ia) + 0.5 * f",
    /* 19 */ "r(ib) = r(ib) - 0.25 * g",
    /* 20 */ "r(ic) = r(ic) + 0.1 * f * g",
    /* 21 */ "end do",
    /* 22 */ "do e = 1, NE",
    /* 23 */ "ia = conn(1, e)",
    /* 24 */ "ib = conn(2, e)",
    /* 25 */ "ic = conn(3, e)",
    /* 26 */ "h = tanh(r(ia) * q(e)) + r(ib) * r(ic)",
    /* 27 */ "s(ia) = s(ia) + h",
    /* 28 */ "s(ib) = s(ib) + 0.5 * h",
    /* 29 */ "w(e) = h * h",
    /* 30 */ "end do",
    /* 31 */ "do v = 2, NV",
    /* 32 */ "s(v) = s(v) + 0.5 * s(v - 1)",
    /* 33 */ "end do",
    /* 34 */ "y(1) = 0.0",
    /* 35 */ "y(2) = 0.0",
    /* 36 */ "do v = 1, NV",
    /* 37 */ "y(1) = y(1) + s(v) * u(v)",
    /* 38 */ "y(2) = y(2) + r(v) * r(v)",
    /* 39 */ "end do",
    /* 40 */ "do e = 1, NE",
    /* 41 */ "y(2) = y(2) + 0.001 * w(e) * q(e)",
    /* 42 */ "end do",
};
enum { KLINES = sizeof kernel / sizeof kernel[0] };

/* ------------------------------------------------------------ symbols */

typedef struct sym {
    const char *name;
    int integer;   /* else real (active) */
    int dims;      /* 0: scalar */
    long ext[2];   /* extents: 'E' elements, 'V' vertices, or a number */
    char ext_c[2]; /* 'E', 'V' or 0 (a number in ext) */
} sym;

static sym syms[] = {
    {"x", 0, 1, {3, 0}, {0, 0}},   {"y", 0, 1, {2, 0}, {0, 0}},   {"conn", 1, 2, {3, 0}, {0, 'E'}},
    {"u", 0, 1, {0, 0}, {'V', 0}}, {"r", 0, 1, {0, 0}, {'V', 0}}, {"s", 0, 1, {0, 0}, {'V', 0}},
    {"q", 0, 1, {0, 0}, {'E', 0}}, {"w", 0, 1, {0, 0}, {'E', 0}}, {"f", 0, 0, {0, 0}, {0, 0}},
    {"g", 0, 0, {0, 0}, {0, 0}},   {"h", 0, 0, {0, 0}, {0, 0}},   {"e", 1, 0, {0, 0}, {0, 0}},
    {"v", 1, 0, {0, 0}, {0, 0}},   {"ia", 1, 0, {0, 0}, {0, 0}},  {"ib", 1, 0, {0, 0}, {0, 0}},
    {"ic", 1, 0, {0, 0}, {0, 0}},
};
enum { NSYMS = sizeof syms / sizeof syms[0] };

static long ne, nv;

static long
extent(const sym *s, int d)
{
    return s->ext_c[d] == 'E' ? ne : s->ext_c[d] == 'V' ? nv : s->ext[d];
}

static int
sym_find(const char *name, size_t len)
{
    for (int k = 0; k < NSYMS; k++)
        if (strlen(syms[k].name) == len && !strncmp(syms[k].name, name, len))
            return k;
    return -1;
}

/* ------------------------------------------------------------ expressions */

typedef enum nkind { N_OP, N_VAR, N_INT, N_REAL } nkind;

typedef struct node {
    nkind kind;
    const char *op; /* N_OP: the intrinsic */
    int sym;        /* N_VAR */
    char text[32];  /* N_INT, N_REAL: the value */
    int n, a[3];    /* N_OP: operands; N_VAR: subscripts (each its own graph) */
} node;

static node pool[256];
static int npool;
static const char *src, *at;
static int line_no;

static void
fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "xaiform-gen-fvkernel: kernel line %d (%s): ", line_no, src);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(3);
}

static int
mk(nkind k)
{
    if (npool == (int)(sizeof pool / sizeof pool[0]))
        fail("expression too large");
    pool[npool] = (node){.kind = k, .sym = -1};
    return npool++;
}

static void
skip(void)
{
    while (*at == ' ')
        at++;
}

static int expr(void);

static int
op2(const char *name, int a, int b)
{
    int n = mk(N_OP);
    pool[n].op = name;
    pool[n].n = 2;
    pool[n].a[0] = a;
    pool[n].a[1] = b;
    return n;
}

static int
primary(void)
{
    skip();
    if (*at == '(') {
        at++;
        int n = expr();
        skip();
        if (*at++ != ')')
            fail("')' expected");
        return n;
    }
    if (*at == '-') {
        at++;
        int n = mk(N_OP), a = primary();
        pool[n].op = "minus_scal";
        pool[n].n = 1;
        pool[n].a[0] = a;
        return n;
    }
    if (isdigit((unsigned char)*at)) {
        const char *b = at;
        while (isdigit((unsigned char)*at) || *at == '.')
            at++;
        int n = mk(memchr(b, '.', (size_t)(at - b)) ? N_REAL : N_INT);
        snprintf(pool[n].text, sizeof pool[n].text, "%.*s", (int)(at - b), b);
        return n;
    }
    if (!isalpha((unsigned char)*at))
        fail("unexpected '%c'", *at);
    const char *b = at;
    while (isalnum((unsigned char)*at))
        at++;
    size_t len = (size_t)(at - b);
    int s = sym_find(b, len), n;
    if (s >= 0) {
        n = mk(N_VAR);
        pool[n].sym = s;
    } else {
        static const struct {
            const char *name, *op;
            int n;
        } fn[] = {{"sin", "sin_scal", 1},   {"cos", "cos_scal", 1},   {"exp", "exp_scal", 1},
                  {"sqrt", "sqrt_scal", 1}, {"tanh", "tanh_scal", 1}, {"mod", "mod_scal_scal", 2}};
        n = -1;
        for (size_t k = 0; k < sizeof fn / sizeof fn[0]; k++)
            if (strlen(fn[k].name) == len && !strncmp(fn[k].name, b, len)) {
                n = mk(N_OP);
                pool[n].op = fn[k].op;
            }
        if (n < 0)
            fail("unknown name '%.*s'", (int)len, b);
    }
    skip();
    if (*at != '(') {
        if (pool[n].kind == N_OP || syms[s].dims)
            fail("'%.*s' needs arguments", (int)len, b);
        return n;
    }
    at++;
    for (;;) {
        if (pool[n].n == 3)
            fail("too many arguments");
        int a = expr();
        pool[n].a[pool[n].n++] = a;
        skip();
        if (*at == ',') {
            at++;
            continue;
        }
        if (*at++ != ')')
            fail("')' expected");
        break;
    }
    if (pool[n].kind == N_VAR && pool[n].n != syms[s].dims)
        fail("%s has %d dimensions", syms[s].name, syms[s].dims);
    return n;
}

static int
term(void)
{
    int n = primary();
    for (;;) {
        skip();
        if (*at != '*' && *at != '/')
            return n;
        const char *op = *at++ == '*' ? "mul_scal_scal" : "div_scal_scal";
        n = op2(op, n, primary());
    }
}

static int
expr(void)
{
    int n = term();
    for (;;) {
        skip();
        if (*at != '+' && *at != '-')
            return n;
        const char *op = *at++ == '+' ? "add_scal_scal" : "sub_scal_scal";
        n = op2(op, n, term());
    }
}

/* The text of kernel line @k with NE and NV replaced. */
static const char *
line_text(int k)
{
    static char buf[256];
    char *o = buf;
    for (const char *p = kernel[k]; *p && o < buf + sizeof buf - 24; p++)
        if (p[0] == 'N' && (p[1] == 'E' || p[1] == 'V')) {
            o += sprintf(o, "%ld", p[1] == 'E' ? ne : nv);
            p++;
        } else
            *o++ = *p;
    *o = 0;
    return buf;
}

static int
parse(const char *text)
{
    src = at = text;
    int n = expr();
    skip();
    if (*at)
        fail("unexpected '%s'", at);
    return n;
}

/* ------------------------------------------------------------ output */

static FILE *out;

static void emit_graph(int root, int in);

static void
emit_refbody(int n, int in)
{
    const node *v = &pool[n];
    fprintf(out, "%*s<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"%s\"/>\n", in,
            "", syms[v->sym].name);
    if (!v->n)
        return;
    fprintf(out, "%*s<xaif:ArrayElementReference vertex_id=\"2\">\n", in, "");
    for (int d = 0; d < v->n; d++) {
        fprintf(out, "%*s<xaif:IndexTriplet>\n%*s<xaif:Index>\n", in + 2, "", in + 4, "");
        emit_graph(v->a[d], in + 6);
        fprintf(out, "%*s</xaif:Index>\n%*s</xaif:IndexTriplet>\n", in + 4, "", in + 2, "");
    }
    fprintf(out,
            "%*s</xaif:ArrayElementReference>\n"
            "%*s<xaif:VariableReferenceEdge edge_id=\"1\" source=\"1\" target=\"2\"/>\n",
            in, "", in, "");
}

/* The vertices of the graph under @root (subscripts apart) get ids 1..;
 * a depth-first walk with an explicit list. */
static void
emit_graph(int root, int in)
{
    int ids[256], order[256], no = 0;
    int edges[256][3], nedge = 0;
    order[no++] = root;
    ids[root] = 1;
    for (int k = 0; k < no; k++) {
        const node *v = &pool[order[k]];
        if (v->kind != N_OP)
            continue;
        for (int j = 0; j < v->n; j++) {
            ids[v->a[j]] = no + 1;
            order[no++] = v->a[j];
            edges[nedge][0] = ids[v->a[j]];
            edges[nedge][1] = ids[order[k]];
            edges[nedge][2] = j + 1;
            nedge++;
        }
    }
    for (int k = 0; k < no; k++) {
        const node *v = &pool[order[k]];
        switch (v->kind) {
        case N_OP:
            fprintf(out, "%*s<xaif:Intrinsic vertex_id=\"%d\" name=\"%s\" type=\"***\"/>\n", in, "",
                    k + 1, v->op);
            break;
        case N_INT:
        case N_REAL:
            fprintf(out,
                    "%*s<xaif:Constant vertex_id=\"%d\" type=\"%s\" feType=\"%s\" "
                    "value=\"%s\"/>\n",
                    in, "", k + 1, v->kind == N_INT ? "integer" : "real",
                    v->kind == N_INT ? "I4" : "F8", v->text);
            break;
        case N_VAR:
            fprintf(out, "%*s<xaif:VariableReference vertex_id=\"%d\" alias=\"%d\">\n", in, "",
                    k + 1, v->sym + 1);
            emit_refbody(order[k], in + 2);
            fprintf(out, "%*s</xaif:VariableReference>\n", in, "");
            break;
        }
    }
    for (int k = 0; k < nedge; k++)
        fprintf(out,
                "%*s<xaif:ExpressionEdge edge_id=\"%d\" source=\"%d\" target=\"%d\" "
                "position=\"%d\"/>\n",
                in, "", k + 1, edges[k][0], edges[k][1], edges[k][2]);
}

static int stmt_id;

/* "LHS = RHS" as the element @el (Assignment, Initialization, Update). */
static void
emit_assign(const char *el, const char *text, int line, int in)
{
    const char *eq = strchr(text, '=');
    if (!eq)
        fail("'=' expected");
    char lhs[128];
    snprintf(lhs, sizeof lhs, "%.*s", (int)(eq - text), text);
    npool = 0;
    int l = parse(lhs);
    if (pool[l].kind != N_VAR)
        fail("the left-hand side is no variable");
    int r = parse(eq + 1);
    src = text;
    /* only an Assignment has a lineNumber (the schema) */
    fprintf(out, "%*s<xaif:%s statement_id=\"%d\"", in, "", el, ++stmt_id);
    if (!strcmp(el, "Assignment"))
        fprintf(out, " lineNumber=\"%d\"", line);
    fprintf(out, ">\n");
    fprintf(out, "%*s<xaif:AssignmentLHS alias=\"%d\">\n", in + 2, "", pool[l].sym + 1);
    emit_refbody(l, in + 4);
    fprintf(out, "%*s</xaif:AssignmentLHS>\n%*s<xaif:AssignmentRHS>\n", in + 2, "", in + 2, "");
    emit_graph(r, in + 4);
    fprintf(out, "%*s</xaif:AssignmentRHS>\n%*s</xaif:%s>\n", in + 2, "", in, "", el);
}

/* ---- control flow: a sequence of blocks and loops */

static int vid;
static int cfe[512][3], ncfe; /* source, target, 1: the loop body's edge */

static void
cf_edge(int s, int t, int body)
{
    if (ncfe == (int)(sizeof cfe / sizeof cfe[0]))
        fail("too many edges");
    cfe[ncfe][0] = s;
    cfe[ncfe][1] = t;
    cfe[ncfe][2] = body;
    ncfe++;
}

/* Emit kernel lines from *@k up to the "end do" that closes them (or the
 * end); @prev is the vertex before. @returns the last vertex. */
static int
sequence(int *k, int prev)
{
    while (*k < KLINES) {
        const char *t = line_text(*k);
        line_no = *k + 1;
        if (!strcmp(t, "end do"))
            return prev;
        if (!strncmp(t, "do ", 3)) {
            char var[16];
            long lo, hi;
            if (sscanf(t, "do %15s = %ld, %ld", var, &lo, &hi) != 3)
                fail("do VAR = LO, HI expected");
            int head = ++vid, line = *k + 1;
            char text[128];
            fprintf(out,
                    "    <xaif:ForLoop vertex_id=\"%d\" reversal=\"anonymous\" "
                    "lineNumber=\"%d\">\n",
                    head, line);
            snprintf(text, sizeof text, "%s = %ld", var, lo);
            emit_assign("Initialization", text, line, 6);
            npool = 0;
            snprintf(text, sizeof text, "%s", var);
            int iv = parse(text), hv = mk(N_INT);
            snprintf(pool[hv].text, sizeof pool[hv].text, "%ld", hi);
            fprintf(out,
                    "      <xaif:Condition>\n"
                    "        <xaif:BooleanOperation vertex_id=\"1\" name=\"less_or_equal\"/>\n"
                    "        <xaif:VariableReference vertex_id=\"2\" alias=\"%d\">\n",
                    pool[iv].sym + 1);
            emit_refbody(iv, 10);
            fprintf(out,
                    "        </xaif:VariableReference>\n"
                    "        <xaif:Constant vertex_id=\"3\" type=\"integer\" feType=\"I4\" "
                    "value=\"%ld\"/>\n"
                    "        <xaif:ExpressionEdge edge_id=\"1\" source=\"2\" target=\"1\" "
                    "position=\"1\"/>\n"
                    "        <xaif:ExpressionEdge edge_id=\"2\" source=\"3\" target=\"1\" "
                    "position=\"2\"/>\n      </xaif:Condition>\n",
                    hi);
            snprintf(text, sizeof text, "%s = %s + 1", var, var);
            emit_assign("Update", text, line, 6);
            fprintf(out, "    </xaif:ForLoop>\n");
            cf_edge(prev, head, 0);
            (*k)++;
            int first = vid + 1;
            int last = sequence(k, head);
            if (*k >= KLINES)
                fail("'end do' missing");
            (*k)++;
            /* the body's first edge leaves the loop vertex: mark it */
            for (int j = 0; j < ncfe; j++)
                if (cfe[j][0] == head && cfe[j][1] == first)
                    cfe[j][2] = 1;
            int end = ++vid;
            fprintf(out, "    <xaif:EndLoop vertex_id=\"%d\"/>\n", end);
            cf_edge(last, end, 0);
            cf_edge(end, head, 0);
            prev = head;
            continue;
        }
        int bb = ++vid;
        fprintf(out, "    <xaif:BasicBlock vertex_id=\"%d\" scope_id=\"2\">\n", bb);
        while (*k < KLINES) {
            t = line_text(*k);
            if (!strncmp(t, "do ", 3) || !strcmp(t, "end do"))
                break;
            line_no = *k + 1;
            emit_assign("Assignment", t, *k + 1, 6);
            (*k)++;
        }
        fprintf(out, "    </xaif:BasicBlock>\n");
        cf_edge(prev, bb, 0);
        prev = bb;
    }
    return prev;
}

static void
prologue(void)
{
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<!-- an edge-based finite-volume kernel: %ld elements, %ld vertices "
            "(xaiform-gen-fvkernel) -->\n"
            "<xaif:CallGraph xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
            "xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\" program_name=\"fvkernel\" "
            "prefix=\"OpenAD_\">\n  <xaif:ScopeHierarchy>\n"
            "    <xaif:Scope vertex_id=\"1\">\n      <xaif:SymbolTable>\n"
            "        <xaif:Symbol symbol_id=\"head__1\" kind=\"subroutine\" type=\"void\"/>\n"
            "      </xaif:SymbolTable>\n    </xaif:Scope>\n"
            "    <xaif:Scope vertex_id=\"2\">\n      <xaif:SymbolTable>\n",
            ne, nv);
    static const char *const shape[] = {"scalar", "vector", "matrix"};
    for (int k = 0; k < NSYMS; k++) {
        const sym *s = &syms[k];
        fprintf(out,
                "        <xaif:Symbol symbol_id=\"%s\" kind=\"variable\" type=\"%s\" "
                "feType=\"%s\" shape=\"%s\" active=\"%d\"%s\n",
                s->name, s->integer ? "integer" : "real", s->integer ? "I4" : "F8", shape[s->dims],
                !s->integer, s->dims ? ">" : "/>");
        for (int d = s->dims - 1; d >= 0; d--) /* last dimension first */
            fprintf(out, "          <xaif:DimensionBounds lower=\"1\" upper=\"%ld\"/>\n",
                    extent(s, d));
        if (s->dims)
            fprintf(out, "        </xaif:Symbol>\n");
    }
    fprintf(out, "      </xaif:SymbolTable>\n    </xaif:Scope>\n"
                 "    <xaif:ScopeEdge edge_id=\"1\" source=\"2\" target=\"1\"/>\n"
                 "  </xaif:ScopeHierarchy>\n  <xaif:AliasSetMap>\n"
                 "    <xaif:AliasSet key=\"0\"/>\n");
    long addr = 1;
    for (int k = 0; k < NSYMS; k++) {
        long size = 1;
        for (int d = 0; d < syms[k].dims; d++)
            size *= extent(&syms[k], d);
        fprintf(out,
                "    <xaif:AliasSet key=\"%d\">\n      <xaif:AliasRange "
                "from_virtual_address=\"%ld\" to_virtual_address=\"%ld\" partial=\"%d\"/>\n"
                "    </xaif:AliasSet>\n",
                k + 1, addr, addr + size - 1, syms[k].dims > 0);
        addr += size;
    }
    fprintf(out, "  </xaif:AliasSetMap>\n  <xaif:DUUDSetMap>\n    <xaif:StmtIdSet key=\"0\"/>\n"
                 "  </xaif:DUUDSetMap>\n  <xaif:DOSetMap>\n    <xaif:StmtIdSet key=\"0\"/>\n"
                 "  </xaif:DOSetMap>\n"
                 "  <xaif:ControlFlowGraph vertex_id=\"1\" scope_id=\"1\" symbol_id=\"head__1\" "
                 "controlflowgraph_scope_id=\"2\">\n    <xaif:ArgumentList>\n"
                 "      <xaif:ArgumentSymbolReference position=\"1\" scope_id=\"2\" "
                 "symbol_id=\"x\" intent=\"in\"/>\n"
                 "      <xaif:ArgumentSymbolReference position=\"2\" scope_id=\"2\" "
                 "symbol_id=\"y\" intent=\"out\"/>\n"
                 "    </xaif:ArgumentList>\n");
}

static const char usage[] =
    "usage: xaiform-gen-fvkernel ELEMENTS -o OUT.xaif\n"
    "\n"
    "Write the xaif of an edge-based finite-volume kernel over an unstructured\n"
    "mesh of ELEMENTS triangles (at least 4) and ELEMENTS / 2 + 3 vertices: the\n"
    "loop benchmark of docs/loops.md. Its top routine is head(x, y), x(3), y(2):\n"
    "`xaiform run --driver plain -n 3 -m 2` runs it. `-o -` writes to standard\n"
    "output.\n";

int
main(int argc, char **argv)
{
    const char *path = NULL, *size = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            path = argv[++i];
        else if (!size)
            size = argv[i];
        else {
            fputs(usage, stderr);
            return 2;
        }
    }
    char *end = NULL;
    ne = size ? strtol(size, &end, 10) : 0;
    if (!path || !size || *end || ne < 4 || ne > 100000000) {
        fputs(usage, stderr);
        return 2;
    }
    nv = ne / 2 + 3;
    out = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!out) {
        fprintf(stderr, "xaiform-gen-fvkernel: %s: %s\n", path, strerror(errno));
        return 1;
    }
    prologue();
    int entry = ++vid, k = 0;
    fprintf(out, "    <xaif:Entry vertex_id=\"%d\"/>\n", entry);
    int last = sequence(&k, entry);
    if (k != KLINES)
        fail("'end do' without 'do'");
    int exit_v = ++vid;
    fprintf(out, "    <xaif:Exit vertex_id=\"%d\"/>\n", exit_v);
    cf_edge(last, exit_v, 0);
    for (int j = 0; j < ncfe; j++)
        fprintf(out, "    <xaif:ControlFlowEdge edge_id=\"%d\" source=\"%d\" target=\"%d\"%s/>\n",
                j + 1, cfe[j][0], cfe[j][1],
                cfe[j][2] ? " has_condition_value=\"true\" condition_value=\"1\"" : "");
    fprintf(out, "  </xaif:ControlFlowGraph>\n</xaif:CallGraph>\n");
    if (ferror(out) || (out != stdout && fclose(out) != 0)) {
        fprintf(stderr, "xaiform-gen-fvkernel: %s: write error\n", path);
        return 1;
    }
    return 0;
}
