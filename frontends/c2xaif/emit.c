/* emit.c: the front end's representation written as xaif, in the order and
 * shape of OpenAD's Fortran front end (docs/c-frontend.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cf.h"
#include "outfile.h"
#include "xmlout.h"

#define NS "xaif"

typedef struct w {
    cf *c;
    xf_xo *x;
    int err;
    const cf_fn *fn;
} w;

static void
st(w *o, const char *name)
{
    o->err |= xf_xo_start(o->x, NS, name);
}
static void
en(w *o)
{
    o->err |= xf_xo_end(o->x);
}
static void
at(w *o, const char *name, const char *value)
{
    o->err |= xf_xo_attr(o->x, NULL, name, value);
}
static void
ati(w *o, const char *name, long long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    at(o, name, buf);
}

static const char *
type_name(const cf_sym *s)
{
    return s->logical ? "bool" : s->type == CF_INT ? "integer" : "real";
}
static const char *
fe_type(cf_type t)
{
    return t == CF_INT ? "I4" : t == CF_FLOAT ? "F4" : "F8";
}
static const char *const shapes[] = {"scalar",      "vector",      "matrix",     "three_tensor",
                                     "four_tensor", "five_tensor", "six_tensor", "seven_tensor"};

static long long
scope_of(const cf_fn *f)
{
    return (long long)f->index + 2;
}

/* --------------------------------------------------------- expressions */

typedef struct eedge {
    int src, tgt, pos;
} eedge;

typedef struct egraph {
    int next;
    XF_VEC(eedge) e;
} egraph;

static void emit_expr(w *o, const cf_expr *e);

static void
symref(w *o, const cf_sym *s)
{
    st(o, "SymbolReference");
    at(o, "vertex_id", "1");
    ati(o, "scope_id", s->global ? 1 : scope_of(o->fn));
    at(o, "symbol_id", s->name);
    en(o);
}

/* The content of a variable reference: SymbolReference [ArrayElementReference edge]. */
static void
ref_content(w *o, const cf_expr *e)
{
    symref(o, e->sym);
    if (!e->nsub)
        return;
    st(o, "ArrayElementReference");
    at(o, "vertex_id", "2");
    for (int i = e->nsub - 1; i >= 0; i--) { /* Fortran order: C's last subscript first */
        st(o, "IndexTriplet");
        st(o, "Index");
        emit_expr(o, e->sub[i]);
        en(o);
        en(o);
    }
    en(o);
    st(o, "VariableReferenceEdge");
    at(o, "edge_id", "1");
    at(o, "source", "1");
    at(o, "target", "2");
    en(o);
}

static void
ref_attrs(w *o, const cf_sym *s)
{
    at(o, "du_ud", "0");
    ati(o, "alias", (long long)s->node + 2);
}

static int
vertices(w *o, egraph *g, const cf_expr *e)
{
    int id = ++g->next;
    switch (e->kind) {
    case CF_E_VAR:
        st(o, "VariableReference");
        ati(o, "vertex_id", id);
        ref_attrs(o, e->sym);
        ref_content(o, e);
        en(o);
        return id;
    case CF_E_INT:
        st(o, "Constant");
        ati(o, "vertex_id", id);
        at(o, "type", e->logical ? "bool" : "integer");
        at(o, "feType", "I4");
        ati(o, "value", e->ival);
        en(o);
        return id;
    case CF_E_REAL: {
        char buf[64];
        snprintf(buf, sizeof buf, "%.20e", e->rval);
        st(o, "Constant");
        ati(o, "vertex_id", id);
        at(o, "type", "real");
        at(o, "feType", e->f4 ? "F4" : "F8");
        at(o, "value", buf);
        en(o);
        return id;
    }
    case CF_E_OP:
    case CF_E_BOOL:
        st(o, e->kind == CF_E_OP ? "Intrinsic" : "BooleanOperation");
        ati(o, "vertex_id", id);
        at(o, "name", e->op);
        if (e->kind == CF_E_OP)
            at(o, "type", "***");
        en(o);
        for (int i = 0; i < e->nargs; i++) {
            int a = vertices(o, g, e->a[i]);
            eedge ed = {a, id, i + 1};
            if (!XF_VEC_PUSH(o->c->a, g->e, ed))
                cf_oom(o->c);
        }
        return id;
    }
    return id;
}

static void
emit_expr(w *o, const cf_expr *e)
{
    egraph g = {0};
    vertices(o, &g, e);
    for (uint32_t i = 0; i < g.e.n; i++) {
        st(o, "ExpressionEdge");
        ati(o, "edge_id", (long long)i + 1);
        ati(o, "source", g.e.v[i].src);
        ati(o, "target", g.e.v[i].tgt);
        ati(o, "position", g.e.v[i].pos);
        en(o);
    }
}

/* ---------------------------------------------------------- statements */

static void
assignment(w *o, const char *elem, const cf_stmt *s, bool line)
{
    st(o, elem);
    ati(o, "statement_id", s->id);
    if (line && s->line)
        ati(o, "lineNumber", s->line);
    st(o, "AssignmentLHS");
    ref_attrs(o, s->lhs->sym);
    ref_content(o, s->lhs);
    en(o);
    st(o, "AssignmentRHS");
    emit_expr(o, s->rhs);
    en(o);
    en(o);
}

static void
call(w *o, const cf_stmt *s)
{
    st(o, "SubroutineCall");
    ati(o, "statement_id", s->id);
    at(o, "scope_id", "1");
    if (s->line)
        ati(o, "lineNumber", s->line);
    ati(o, "formalArgCount", s->args.n);
    at(o, "symbol_id", s->callee->name);
    for (uint32_t i = 0; i < s->args.n; i++) {
        st(o, "Argument");
        ati(o, "position", (long long)i + 1);
        st(o, "VariableReference");
        at(o, "vertex_id", "1");
        ref_attrs(o, s->args.v[i]->sym);
        ref_content(o, s->args.v[i]);
        en(o);
        en(o);
    }
    en(o);
}

/* A call kept as it is (passive.c): its arguments are temporaries and
 * string constants (their C spelling). */
static void
passive(w *o, const cf_stmt *s)
{
    st(o, "InlinableSubroutineCall");
    ati(o, "statement_id", s->id);
    at(o, "subroutine_name", s->pname);
    for (uint32_t i = 0; i < s->args.n; i++) {
        st(o, "Argument");
        ati(o, "position", (long long)i + 1);
        if (s->args.v[i]->sym) {
            st(o, "VariableReference");
            at(o, "vertex_id", "1");
            ref_attrs(o, s->args.v[i]->sym);
            ref_content(o, s->args.v[i]);
            en(o);
        } else {
            st(o, "Constant");
            at(o, "vertex_id", "1");
            at(o, "type", "string");
            at(o, "value", s->args.v[i]->str);
            en(o);
        }
        en(o);
    }
    en(o);
}

static void
condition(w *o, const cf_expr *e)
{
    st(o, "Condition");
    emit_expr(o, e);
    en(o);
}

static void
vertex(w *o, const cf_fn *f, uint32_t i)
{
    const cf_vert *v = &f->v.v[i];
    static const char *const names[] = {"Entry",     "Exit",    "BasicBlock", "Branch",
                                        "EndBranch", "ForLoop", "PreLoop",    "EndLoop"};
    st(o, names[v->kind]);
    ati(o, "vertex_id", (long long)i + 1);
    switch (v->kind) {
    case CF_V_BB:
        ati(o, "scope_id", scope_of(f));
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            const cf_stmt *s = v->stmts.v[k];
            if (s->kind == CF_S_ASSIGN)
                assignment(o, "Assignment", s, true);
            else if (s->kind == CF_S_PASSIVE)
                passive(o, s);
            else
                call(o, s);
        }
        break;
    case CF_V_FORLOOP:
        at(o, "reversal", "anonymous");
        if (v->line)
            ati(o, "lineNumber", v->line);
        assignment(o, "Initialization", v->init, false);
        condition(o, v->cond);
        assignment(o, "Update", v->update, false);
        break;
    case CF_V_BRANCH:
    case CF_V_PRELOOP:
        if (v->line)
            ati(o, "lineNumber", v->line);
        condition(o, v->cond);
        break;
    default:
        break;
    }
    en(o);
}

/* ------------------------------------------------------------- routines */

static void
side_effects(w *o, const cf_fn *f, const char *elem, bool writes)
{
    st(o, elem);
    int n = 0;
    for (uint32_t i = 0; i < f->formals.n; i++) {
        const cf_sym *s = f->formals.v[i];
        if (writes ? !s->written : !s->read)
            continue;
        st(o, "SideEffectReference");
        ati(o, "vertex_id", ++n);
        symref(o, s);
        en(o);
    }
    en(o);
}

static void
routine(w *o, const cf_fn *f)
{
    o->fn = f;
    o->err |= xf_xo_comment(o->x, " ******************************************************* ");
    st(o, "ControlFlowGraph");
    ati(o, "vertex_id", (long long)f->index + 1);
    at(o, "scope_id", "1");
    at(o, "symbol_id", f->name);
    ati(o, "controlflowgraph_scope_id", scope_of(f));
    st(o, "ArgumentList");
    for (uint32_t i = 0; i < f->formals.n; i++) {
        const cf_sym *s = f->formals.v[i];
        st(o, "ArgumentSymbolReference");
        ati(o, "position", s->formal);
        ati(o, "scope_id", scope_of(f));
        at(o, "symbol_id", s->name);
        at(o, "intent", s->written ? (s->read ? "inout" : "out") : "in");
        en(o);
    }
    en(o);
    side_effects(o, f, "ModLocal", true);
    side_effects(o, f, "Mod", true);
    side_effects(o, f, "ReadLocal", false);
    side_effects(o, f, "Read", false);
    for (uint32_t i = 0; i < f->v.n; i++)
        vertex(o, f, i);
    for (uint32_t i = 0; i < f->e.n; i++) {
        const cf_edge *e = &f->e.v[i];
        st(o, "ControlFlowEdge");
        ati(o, "edge_id", (long long)i + 1);
        ati(o, "source", (long long)e->src + 1);
        ati(o, "target", (long long)e->tgt + 1);
        if (e->has_cv) {
            at(o, "has_condition_value", "true");
            ati(o, "condition_value", e->cv);
        }
        en(o);
    }
    en(o);
}

/* What the C back end needs to give the derivatives the user's own
 * signature (docs/c-backend.md, "C interfaces"): "c:T" for a local of C
 * type T, "c:T value" for a parameter passed by value, "c:[const ]T pointer"
 * for an array or pointer parameter, "c:T return" for the returned value. */
static const char *
c_annotation(const cf_fn *f, const cf_sym *s, char *buf, size_t len)
{
    static const char *const ct[] = {"int", "float", "double"}; /* ORDER cf_type */
    const char *how = !s->formal ? "" : s == f->ret ? " return" : s->rank ? " pointer" : " value";
    snprintf(buf, len, "c:%s%s%s", s->formal && s->rank && s->cconst ? "const " : "", ct[s->type],
             how);
    return buf;
}

static void
symbol(w *o, const cf_sym *s)
{
    char ann[64];
    st(o, "Symbol");
    at(o, "symbol_id", s->name);
    at(o, "kind", "variable");
    at(o, "type", type_name(s));
    at(o, "feType", fe_type(s->type));
    at(o, "shape", shapes[s->rank]);
    at(o, "active", s->active ? "1" : "0");
    /* for the C back end: the C type and passing (c_annotation), then the
     * extents known at run time, "xf_extent=E1,..." (extent.c) */
    char buf[6144];
    snprintf(buf, sizeof buf, "%s", c_annotation(o->fn, s, ann, sizeof ann));
    bool rt = false;
    for (int k = 0; k < s->rank; k++)
        rt = rt || s->dimx[k];
    if (rt) {
        size_t n = strlen(buf);
        snprintf(buf + n, sizeof buf - n, ";xf_extent=");
        for (int k = 0; k < s->rank; k++) {
            n = strlen(buf);
            if (s->dimx[k])
                snprintf(buf + n, sizeof buf - n, "%s%s", k ? "," : "", s->dimx[k]);
            else
                snprintf(buf + n, sizeof buf - n, "%s%lld", k ? "," : "", (long long)s->dims[k]);
        }
    }
    if (s->leaf)
        cf_struct_annotation(s, buf, sizeof buf);
    at(o, "annotation", buf);
    for (int k = 0; k < s->rank && !s->nobounds; k++) { /* C's order: Fortran's last first */
        st(o, "DimensionBounds");
        ati(o, "lower", s->lower[k]);
        ati(o, "upper", s->lower[k] + s->dims[k] - 1);
        en(o);
    }
    en(o);
}

/* @f after its callees, each once (@seen by index): a pass that reads
 * what it did to a callee (argpush) then finds it done. The call graph has
 * no cycle (c2xaif.c refuses recursion); vertex ids stay the indices. */
static void
callees_first(w *o, const cf_fn *f, bool *seen)
{
    if (seen[f->index])
        return;
    seen[f->index] = true;
    for (uint32_t k = 0; k < f->callees.n; k++)
        callees_first(o, f->callees.v[k], seen);
    routine(o, f);
}

static void
scopes(w *o)
{
    cf *c = o->c;
    st(o, "ScopeHierarchy");
    st(o, "Scope");
    at(o, "vertex_id", "1");
    st(o, "SymbolTable");
    for (uint32_t i = 0; i < c->fns.n; i++) {
        st(o, "Symbol");
        at(o, "symbol_id", c->fns.v[i]->name);
        at(o, "kind", "subroutine");
        at(o, "type", "void");
        at(o, "annotation",
           cf_pass_annotation(c, c->fns.v[i],
                              c->fns.v[i]->external    ? "c:extern;xf_external=1"
                              : c->fns.v[i]->is_static ? "c:static"
                                                       : "c:extern"));
        en(o);
    }
    for (uint32_t i = 0; i < c->globals.n; i++)
        symbol(o, c->globals.v[i]);
    en(o);
    en(o);
    for (uint32_t i = 0; i < c->fns.n; i++) {
        const cf_fn *f = c->fns.v[i];
        st(o, "Scope");
        ati(o, "vertex_id", scope_of(f));
        st(o, "SymbolTable");
        o->fn = f;
        for (uint32_t k = 0; k < f->syms.n; k++)
            symbol(o, f->syms.v[k]);
        en(o);
        en(o);
        st(o, "ScopeEdge");
        ati(o, "edge_id", (long long)i + 1);
        ati(o, "source", scope_of(f));
        at(o, "target", "1");
        en(o);
    }
    en(o);
}

static void
maps(w *o)
{
    cf *c = o->c;
    st(o, "AliasSetMap");
    for (int k = 0; k < 2; k++) {
        st(o, "AliasSet");
        ati(o, "key", k);
        en(o);
    }
    for (uint32_t i = 0; i < c->fns.n; i++)
        for (uint32_t k = 0; k < c->fns.v[i]->syms.n; k++) {
            const cf_sym *s = c->fns.v[i]->syms.v[k];
            st(o, "AliasSet");
            ati(o, "key", (long long)s->node + 2);
            st(o, "AliasRange");
            ati(o, "from_virtual_address", (long long)s->node + 1);
            ati(o, "to_virtual_address", (long long)s->node + 1);
            at(o, "partial", s->rank > 0 ? "1" : "0");
            en(o);
            en(o);
        }
    for (uint32_t i = 0; i < c->globals.n; i++) {
        const cf_sym *s = c->globals.v[i];
        st(o, "AliasSet");
        ati(o, "key", (long long)s->node + 2);
        st(o, "AliasRange");
        ati(o, "from_virtual_address", (long long)s->node + 1);
        ati(o, "to_virtual_address", (long long)s->node + 1);
        at(o, "partial", s->rank > 0 ? "1" : "0");
        en(o);
        en(o);
    }
    en(o);
    static const char *const m[] = {"DUUDSetMap", "DOSetMap"};
    for (int i = 0; i < 2; i++) {
        st(o, m[i]);
        st(o, "StmtIdSet");
        at(o, "key", "0");
        en(o);
        en(o);
    }
}

int
cf_write(cf *c, const char *path)
{
    w o = {.c = c};
    o.x = xf_xo_new_memory();
    if (!o.x)
        return -1;
    o.err |= xf_xo_indent(o.x, "  ");
    o.err |= xf_xo_start_document(o.x);
    st(&o, "CallGraph");
    o.err |= xf_xo_attr(o.x, "xmlns", "xaif", "http://www.mcs.anl.gov/XAIF");
    o.err |= xf_xo_attr(o.x, "xmlns", "xsi", "http://www.w3.org/2001/XMLSchema-instance");
    o.err |= xf_xo_attr(o.x, "xsi", "schemaLocation", "http://www.mcs.anl.gov/XAIF xaif.xsd");
    const char *base = strrchr(c->o->file, '/');
    at(&o, "program_name", base ? base + 1 : c->o->file);
    at(&o, "prefix", "OpenAD_");
    scopes(&o);
    maps(&o);
    bool *seen = calloc(c->fns.n + 1, sizeof *seen);
    o.err |= !seen;
    for (uint32_t i = 0; seen && i < c->fns.n; i++)
        callees_first(&o, c->fns.v[i], seen);
    free(seen);
    for (uint32_t i = 0, n = 0; i < c->fns.n; i++)
        for (uint32_t k = 0; k < c->fns.v[i]->callees.n; k++) {
            st(&o, "CallGraphEdge");
            ati(&o, "edge_id", ++n);
            ati(&o, "source", (long long)i + 1);
            ati(&o, "target", (long long)c->fns.v[i]->callees.v[k]->index + 1);
            en(&o);
        }
    en(&o);
    o.err |= xf_xo_end_document(o.x);
    size_t len = 0;
    char *text = o.err ? NULL : xf_xo_take(o.x, &len);
    xf_xo_free(o.x);
    if (!text)
        return -1;
    if (c->o->text) {
        *c->o->text = text;
        *c->o->len = len;
        return 0;
    }
    int rc = 0;
    if (strcmp(path, "-") == 0) {
        rc = fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0 ? 0 : -1;
    } else {
        /* through a temporary file renamed into place: never a partial output */
        xf_outfile of;
        char why[512];
        if (xf_outfile_open(&of, path, c->o->file, why, sizeof why) != 0) {
            fprintf(c->err, "%s: error: %s\n", path, why);
            free(text);
            return -1;
        }
        size_t done = 0;
        while (done < len) {
            ssize_t k = write(of.fd, text + done, len - done);
            if (k <= 0)
                break;
            done += (size_t)k;
        }
        bool ok = done == len;
        ok = close(of.fd) == 0 && ok;
        if (xf_outfile_finish(&of, ok, why, sizeof why) != 0) {
            fprintf(c->err, "%s: error: cannot write%s%s\n", path, ok ? ": " : "", ok ? why : "");
            rc = -1;
        }
    }
    free(text);
    return rc;
}
