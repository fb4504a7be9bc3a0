/* ir.h: the xaif intermediate representation, the vocabulary of every module.
 *
 * One xf_doc per document. Every node, vector and string lives in the doc's
 * arena and string table and dies with xf_doc_free. Strings are interned:
 * equal strings are the same pointer. Ids (vertex_id, edge_id, statement_id,
 * symbol_id) are kept as the document spells them.
 *
 * Attributes: a string field is NULL when the attribute is absent; an integer
 * field is XF_NOINT when absent; an xf_flag remembers absence and spelling;
 * enum fields use their *_NONE value for absence. Attributes the IR does not
 * model, and foreign elements and comments, ride along in each node's
 * xf_hdr.extra so that a round trip loses nothing.
 *
 * References are resolved when read: a SymbolReference points at its
 * xf_scope and xf_symbol, an edge at its source and target vertices.
 */
#ifndef XF_ENGINE_IR_H
#define XF_ENGINE_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "map.h"

typedef struct xf_strtab xf_strtab;

/* ---------------------------------------------------------------- elements */

typedef enum xf_elem {
#define XF_ELEM(e, ns, name) XF_EL_##e,
#include "xaif_elements.def"
#undef XF_ELEM
    XF_EL_COUNT
} xf_elem;

typedef enum xf_ns { XF_NS_XAIF, XF_NS_II, XF_NS_NII, XF_NS_COUNT } xf_ns;

/** xf_elem_name: local name of element @e ("BasicBlock"). */
const char *xf_elem_name(xf_elem e);
/** xf_elem_ns: namespace of element @e. */
xf_ns xf_elem_ns(xf_elem e);
/** xf_ns_uri: the namespace URI of @ns. */
const char *xf_ns_uri(xf_ns ns);

#define XF_URI_XAIF "http://www.mcs.anl.gov/XAIF"
#define XF_URI_II "http://www.mcs.anl.gov/XAIFInlinableIntrinsics"
#define XF_URI_NII "http://www.mcs.anl.gov/XAIFNonInlinableIntrinsics"

/* ------------------------------------------------------- attribute values */

/* An integer attribute that is absent. */
#define XF_NOINT INT64_MIN

/* A boolean attribute: absent, or its value in the spelling the document used. */
enum xf_flag_value {
    XF_FLAG_NONE = 0,
    XF_FLAG_0,     /* "0" */
    XF_FLAG_1,     /* "1" */
    XF_FLAG_FALSE, /* "false" */
    XF_FLAG_TRUE,  /* "true" */
    XF_FLAG_UNDEF  /* "undefined" (activity of references and calls) */
};
/* Stored in a byte: a reference carries three, a symbol three. */
typedef uint8_t xf_flag;

/** xf_flag_is: value of @f, or @dflt when @f is absent or undefined. */
static inline bool
xf_flag_is(xf_flag f, bool dflt)
{
    return f == XF_FLAG_1 || f == XF_FLAG_TRUE    ? true
           : f == XF_FLAG_0 || f == XF_FLAG_FALSE ? false
                                                  : dflt;
}
/** xf_flag_of: @v spelled "1"/"0", as xaifBooster writes. */
static inline xf_flag
xf_flag_of(bool v)
{
    return v ? XF_FLAG_1 : XF_FLAG_0;
}
const char *xf_flag_text(xf_flag v);
/** xf_flag_parse: the flag spelled @s; false if @s is no boolean spelling. */
bool xf_flag_parse(const char *s, xf_flag *out);

typedef enum xf_symkind {
    XF_SYMKIND_NONE = 0,
    XF_SYMKIND_VARIABLE,
    XF_SYMKIND_SUBROUTINE,
    XF_SYMKIND_POINTER
} xf_symkind;

typedef enum xf_type {
    XF_TYPE_NONE = 0,
    XF_TYPE_VOID,
    XF_TYPE_INTEGER,
    XF_TYPE_REAL,
    XF_TYPE_DOUBLE,
    XF_TYPE_COMPLEX,
    XF_TYPE_BOOL,
    XF_TYPE_CHAR,
    XF_TYPE_STRING,
    XF_TYPE_OPAQUE
} xf_type;

/* ORDER: the rank is the value minus one */
typedef enum xf_shape {
    XF_SHAPE_NONE = 0,
    XF_SHAPE_SCALAR,
    XF_SHAPE_VECTOR,
    XF_SHAPE_MATRIX,
    XF_SHAPE_THREE_TENSOR,
    XF_SHAPE_FOUR_TENSOR,
    XF_SHAPE_FIVE_TENSOR,
    XF_SHAPE_SIX_TENSOR,
    XF_SHAPE_SEVEN_TENSOR
} xf_shape;

typedef enum xf_intent {
    XF_INTENT_NONE = 0,
    XF_INTENT_IN,
    XF_INTENT_OUT,
    XF_INTENT_INOUT
} xf_intent;

typedef enum xf_reversal {
    XF_REVERSAL_NONE = 0,
    XF_REVERSAL_ANONYMOUS,
    XF_REVERSAL_EXPLICIT
} xf_reversal;

/* Name <-> value of the enums above; parse returns false for an unknown name. */
const char *xf_symkind_name(xf_symkind v);
bool xf_symkind_parse(const char *s, xf_symkind *out);
const char *xf_type_name(xf_type v);
bool xf_type_parse(const char *s, xf_type *out);
const char *xf_shape_name(xf_shape v);
bool xf_shape_parse(const char *s, xf_shape *out);
const char *xf_intent_name(xf_intent v);
bool xf_intent_parse(const char *s, xf_intent *out);
const char *xf_reversal_name(xf_reversal v);
bool xf_reversal_parse(const char *s, xf_reversal *out);

/** xf_shape_rank: 0 for scalars, 1 for vectors, ...; -1 when absent. */
int xf_shape_rank(xf_shape s);

/* ------------------------------------------- what the IR does not model */

/* An attribute kept as written. @ns is the namespace URI (NULL: none). */
typedef struct xf_attr {
    const char *ns, *prefix, *name, *value;
} xf_attr;
typedef XF_VEC(xf_attr) xf_attr_vec;

typedef enum xf_xkind { XF_X_ELEMENT, XF_X_TEXT, XF_X_COMMENT, XF_X_PI, XF_X_CDATA } xf_xkind;

/* A node outside the xaif vocabulary: an element of another namespace (with
 * its whole subtree), a comment, a processing instruction, text. */
typedef struct xf_xnode {
    xf_xkind kind;
    uint32_t line;
    const char *ns, *prefix, *name; /* element; PI target in name */
    const char *text;               /* text, comment, CDATA, PI data */
    xf_attr_vec attrs;              /* element: attributes and namespace declarations */
    XF_VEC(struct xf_xnode *) kids; /* element: children */
} xf_xnode;
typedef XF_VEC(xf_xnode *) xf_xnode_vec;

/* Namespace URI that marks an xf_attr as a namespace declaration (name: its prefix). */
#define XF_URI_XMLNS "http://www.w3.org/2000/xmlns/"

/* A foreign child placed before the @before-th modeled child of its parent. */
typedef struct xf_xchild {
    uint32_t before;
    xf_xnode *node;
} xf_xchild;

typedef struct xf_extra {
    xf_attr_vec attrs;
    XF_VEC(xf_xchild) kids;
} xf_extra;

/* Header of every element node: its line, its front-end annotation, and what
 * else the document said about it. */
typedef struct xf_hdr {
    uint32_t line;
    const char *annotation;
    xf_extra *extra;
} xf_hdr;

/* ------------------------------------------------------------- symbols */

typedef struct xf_scope xf_scope;
typedef struct xf_symbol xf_symbol;
typedef struct xf_expr xf_expr;
typedef struct xf_stmt xf_stmt;
typedef struct xf_routine xf_routine;

typedef struct xf_dimbounds {
    xf_hdr h;
    int64_t lower, upper;
} xf_dimbounds;

/* Symbol: DimensionBounds* (listed last dimension first, as front ends write) */
struct xf_symbol {
    xf_hdr h;
    const char *id;
    xf_scope *scope;
    uint32_t index; /* dense over the document */
    xf_symkind kind;
    xf_type type;
    xf_shape shape;
    const char *fetype;
    xf_flag active, temp, pointer;
    XF_VEC(xf_dimbounds) dims;
};

/* Scope: SymbolTable */
struct xf_scope {
    xf_hdr h;
    const char *id;
    uint32_t index, seq;
    xf_scope *parent; /* from the ScopeEdge whose source this is; NULL at the root */
    xf_hdr symtab;    /* the SymbolTable element */
    XF_VEC(xf_symbol *) syms;
    xf_map symmap; /* id -> xf_symbol */
};

typedef struct xf_scope_edge {
    xf_hdr h;
    const char *id;
    xf_scope *src, *tgt;
    uint32_t seq;
} xf_scope_edge;

/* ScopeHierarchy: (Scope | ScopeEdge)* */
typedef struct xf_scopes {
    xf_hdr h;
    XF_VEC(xf_scope *) v;
    XF_VEC(xf_scope_edge) e;
    xf_map map; /* id -> xf_scope */
} xf_scopes;

/* ---------------------------------------------------- variable references */

typedef struct xf_symref_prop {
    xf_hdr h;
    const char *name, *value;
} xf_symref_prop;

/* SymbolReference: SymbolReferenceProperty* */
typedef struct xf_symref {
    const char *id;
    xf_scope *scope;
    xf_symbol *sym;
    XF_VEC(xf_symref_prop) props;
} xf_symref;

/* IndexTriplet: Index? Bound? Stride? (each an expression). A "bare" triplet
 * is an Index written straight under ArrayElementReference (old outputs). */
typedef struct xf_triplet {
    xf_hdr h;
    bool bare;
    xf_expr *index, *bound, *stride;
} xf_triplet;

/* ArrayElementReference: IndexTriplet+, in Fortran dimension order */
typedef struct xf_arrref {
    const char *id;
    XF_VEC(xf_triplet) t;
} xf_arrref;

typedef enum xf_vrkind { XF_VR_SYMBOL, XF_VR_ARRAY } xf_vrkind;

typedef struct xf_vrvertex {
    xf_hdr h;
    xf_vrkind kind;
    uint32_t seq;
    union {
        xf_symref sym;
        xf_arrref arr;
    } u;
} xf_vrvertex;

typedef struct xf_vredge {
    xf_hdr h;
    const char *id;
    uint32_t src, tgt; /* indices into the vertices */
    uint32_t seq;
} xf_vredge;

/* A variable reference: the content of VariableReference, AssignmentLHS,
 * SideEffectReference, Tgt, Src, X, Y, ZeroDeriv and a FunctionCall Argument:
 * (SymbolReference | ArrayElementReference)+ VariableReferenceEdge*, in the
 * corpus always a SymbolReference alone or followed by an
 * ArrayElementReference with one edge from the first to the second. */
typedef struct xf_varref {
    xf_hdr h;
    const char *id;       /* vertex_id (SideEffectReference) */
    int64_t du_ud, alias; /* keys into the DU/UD and alias maps */
    xf_flag active, deriv, constant;
    XF_VEC(xf_vrvertex) v;
    XF_VEC(xf_vredge) e;
} xf_varref;

/** xf_varref_symref: the first SymbolReference of @r (the variable), or NULL. */
xf_symref *xf_varref_symref(const xf_varref *r);
/** xf_varref_arrref: the ArrayElementReference of @r, or NULL for a whole variable. */
xf_arrref *xf_varref_arrref(const xf_varref *r);

/* ------------------------------------------------------------ expressions */

/* ORDER: as xaif_elements.def's expression vertices */
typedef enum xf_evkind {
    XF_EV_VARREF,
    XF_EV_CONSTANT,
    XF_EV_INTRINSIC,
    XF_EV_FUNCALL,
    XF_EV_BOOLOP,
    XF_EV_ARGREF /* ArgumentReference, in catalogue partials */
} xf_evkind;

typedef struct xf_evertex {
    xf_hdr h;
    xf_evkind kind;
    uint32_t seq;   /* beside kind: 72 bytes, not 80 */
    const char *id; /* vertex_id; NULL when absent */
    union {
        xf_varref *ref; /* VariableReference */
        struct {
            xf_type type;
            const char *fetype, *value; /* the value exactly as written */
        } c;                            /* Constant */
        struct {
            const char *name;
            const char *type, *rtype, *rshape; /* front-end extras */
        } in;                                  /* Intrinsic, BooleanOperation (name only) */
        struct {
            xf_scope *scope;
            xf_symbol *sym;
            XF_VEC(xf_varref *) args; /* Argument* */
        } fn;                         /* FunctionCall */
        int64_t arg;                  /* ArgumentReference: argument number */
    } u;
} xf_evertex;

typedef struct xf_eedge {
    xf_hdr h;
    const char *id;
    uint32_t src, tgt; /* indices into the vertices */
    int64_t pos;       /* operand position of src in tgt, from 1 */
    uint32_t seq;
} xf_eedge;

/* An expression graph: (vertex | ExpressionEdge)*, with the element that
 * holds it (AssignmentRHS, Condition, Index, Bound, Stride, A, Argument,
 * Partial) described by h. */
struct xf_expr {
    xf_hdr h;
    XF_VEC(xf_evertex) v;
    XF_VEC(xf_eedge) e;
};

/** xf_expr_root: index of the vertex that is no edge's source; UINT32_MAX if none or
 * several (or out of memory). O(vertices + edges). */
uint32_t xf_expr_root(const xf_expr *x);

/* ------------------------------------------------------------- statements */

typedef enum xf_stmtkind {
    XF_STMT_ASSIGN,
    XF_STMT_CALL,
    XF_STMT_ICALL, /* InlinableSubroutineCall */
    XF_STMT_MARKER,
    XF_STMT_DERIVPROP
} xf_stmtkind;

/* Argument (of a call): VariableReference | Constant, kept as a one-vertex
 * expression; val.h is the Argument element's header. */
typedef struct xf_arg {
    int64_t pos;
    xf_expr val;
} xf_arg;
typedef XF_VEC(xf_arg) xf_arg_vec;

/* Assignment, Initialization, Update: AssignmentLHS AssignmentRHS */
typedef struct xf_assign {
    int64_t do_chain;
    xf_varref lhs;
    xf_expr rhs;
} xf_assign;

/* SubroutineCall: Argument* */
typedef struct xf_call {
    xf_scope *scope;
    xf_symbol *sym;
    int64_t formal_count;
    xf_flag active;
    xf_arg_vec args;
} xf_call;

/* InlinableSubroutineCall: Argument* */
typedef struct xf_icall {
    const char *name;
    xf_arg_vec args;
} xf_icall;

/* ORDER: as xaif_elements.def's propagator operations */
typedef enum xf_dpkind {
    XF_DP_SETDERIV,
    XF_DP_SETNEGDERIV,
    XF_DP_INCDERIV,
    XF_DP_DECDERIV,
    XF_DP_ZERODERIV,
    XF_DP_SAX,
    XF_DP_SAXPY
} xf_dpkind;

/* AX: A X */
typedef struct xf_ax {
    xf_hdr h;
    xf_expr a;
    xf_varref x;
} xf_ax;

/* SetDeriv, SetNegDeriv, IncDeriv, DecDeriv: Tgt Src.  ZeroDeriv: the element
 * itself is the reference (in tgt).  Sax, Saxpy: AX+ Y. */
typedef struct xf_dpop {
    xf_hdr h; /* unused for ZeroDeriv (tgt.h is the element) */
    xf_dpkind kind;
    xf_varref tgt, src;
    XF_VEC(xf_ax) ax;
    xf_varref y;
} xf_dpop;

struct xf_stmt {
    xf_hdr h;
    xf_stmtkind kind;
    const char *id; /* statement_id */
    int64_t lineno; /* lineNumber */
    union {
        xf_assign as;
        xf_call call;
        xf_icall icall;
        XF_VEC(xf_dpop) dp; /* DerivativePropagator: its operations in order */
    } u;
};

/* ------------------------------------------------------ control flow */

/* ORDER: as xaif_elements.def's control-flow vertices */
typedef enum xf_cvkind {
    XF_CV_ENTRY,
    XF_CV_EXIT,
    XF_CV_BASICBLOCK,
    XF_CV_IF,
    XF_CV_FORLOOP,
    XF_CV_PRELOOP,
    XF_CV_POSTLOOP,
    XF_CV_BRANCH,
    XF_CV_ENDBRANCH,
    XF_CV_ENDLOOP,
    XF_CV_LABEL,
    XF_CV_GOTO
} xf_cvkind;

/** xf_cvkind_name: the element name of a control-flow vertex kind ("ForLoop"). */
const char *xf_cvkind_name(xf_cvkind k);

typedef struct xf_cvertex {
    xf_hdr h;
    xf_cvkind kind;
    const char *id;
    uint32_t seq, index; /* index: position in its graph's vertex vector */
    int64_t lineno;
    xf_scope *scope;         /* BasicBlock */
    XF_VEC(xf_stmt *) stmts; /* BasicBlock: (Assignment | SubroutineCall | ...)* */
    xf_stmt *init, *update;  /* ForLoop: Initialization? Condition? Update? */
    xf_expr *cond;           /* ForLoop, If, Branch, PreLoop, PostLoop */
    xf_reversal reversal;    /* ForLoop */
} xf_cvertex;

typedef struct xf_cedge {
    xf_hdr h;
    const char *id;
    xf_cvertex *src, *tgt;
    xf_flag has_cv;
    int64_t cv; /* condition_value */
    uint32_t seq;
} xf_cedge;

/* A control-flow graph: (vertex | ControlFlowEdge)* */
typedef struct xf_graph {
    XF_VEC(xf_cvertex *) v;
    XF_VEC(xf_cedge *) e;
    xf_map vmap; /* id -> xf_cvertex */
} xf_graph;

/* ArgumentSymbolReference */
typedef struct xf_argsym {
    xf_hdr h;
    int64_t pos;
    xf_scope *scope;
    xf_symbol *sym;
    xf_intent intent;
    xf_flag deriv;
} xf_argsym;

/* ORDER: the side-effect lists in document order */
typedef enum xf_selist_kind {
    XF_SE_MODLOCAL,
    XF_SE_MOD,
    XF_SE_READLOCAL,
    XF_SE_READ,
    XF_SE_ONENTRY,
    XF_SE_COUNT
} xf_selist_kind;

typedef struct xf_selist {
    xf_hdr h;
    bool present;
    XF_VEC(xf_varref *) refs; /* SideEffectReference* */
} xf_selist;

/* Replacement (placeholder of an adjoint template): a whole CFG or nothing */
typedef struct xf_replacement {
    xf_hdr h;
    const char *placeholder;
    xf_flag structured;
    xf_graph g;
} xf_replacement;

/* ControlFlowGraph: ArgumentList? ModLocal? Mod? ReadLocal? Read? OnEntry? (vertex | edge)*
 * ReplacementList: ArgumentList? Replacement* */
struct xf_routine {
    xf_hdr h;
    bool is_rlist; /* a ReplacementList */
    const char *id;
    xf_scope *scope;     /* scope_id: where the routine's symbol lives */
    xf_symbol *sym;      /* symbol_id */
    xf_scope *cfg_scope; /* controlflowgraph_scope_id: the routine's locals */
    xf_flag active, structured;
    const char *template_name;
    bool has_args;
    xf_hdr args_h; /* the ArgumentList element */
    XF_VEC(xf_argsym) args;
    xf_selist se[XF_SE_COUNT];
    xf_graph g;                    /* ControlFlowGraph */
    XF_VEC(xf_replacement *) reps; /* ReplacementList */
    uint32_t index, seq;
};

/* ----------------------------------------------------------- call graph */

typedef struct xf_alias_range {
    xf_hdr h;
    int64_t from, to;
    xf_flag partial;
} xf_alias_range;

typedef struct xf_alias_set {
    xf_hdr h;
    int64_t key;
    XF_VEC(xf_alias_range) r;
} xf_alias_set;

/* AliasSetMap (or the older AliasSetList): AliasSet* */
typedef struct xf_alias_map {
    xf_hdr h;
    bool present, list_form;
    XF_VEC(xf_alias_set) sets;
} xf_alias_map;

typedef struct xf_stmtid {
    xf_hdr h;
    const char *ref; /* idRef */
} xf_stmtid;

typedef struct xf_stmtid_set {
    xf_hdr h;
    int64_t key;
    XF_VEC(xf_stmtid) ids;
} xf_stmtid_set;

/* DUUDSetMap / DOSetMap: StmtIdSet*;  the older DUUDSetList: DUUDSet* */
typedef struct xf_stmtid_map {
    xf_hdr h;
    bool present, list_form;
    XF_VEC(xf_stmtid_set) sets;
} xf_stmtid_map;

typedef struct xf_cgedge {
    xf_hdr h;
    const char *id;
    xf_routine *src, *tgt;
    uint32_t seq;
} xf_cgedge;

/* CallGraph: ScopeHierarchy AliasSetMap DUUDSetMap DOSetMap (routine | CallGraphEdge)* */
typedef struct xf_callgraph {
    xf_hdr h;
    const char *program_name, *prefix;
    xf_scopes scopes;
    xf_alias_map alias;
    xf_stmtid_map duud, doset;
    XF_VEC(xf_routine *) routines;
    XF_VEC(xf_cgedge) edges;
    xf_map rmap; /* vertex_id -> xf_routine */
} xf_callgraph;

/* ------------------------------------------------ intrinsics catalogues */

/* Partial: an expression over ArgumentReferences (or nothing); expr.h is
 * the Partial element's header. */
typedef struct xf_ii_partial {
    int64_t id;
    const char *type; /* partial_type */
    xf_flag non_value_inquiry;
    xf_expr expr;
} xf_ii_partial;

/* InlinableIntrinsic: Function Partial* */
typedef struct xf_ii {
    xf_hdr h;
    const char *name;
    int64_t nargs;
    const char *return_type, *shape_change;
    xf_flag non_smooth;
    bool has_fn;
    xf_hdr fn_h;
    const char *fn_type, *fn_builtin;
    XF_VEC(xf_ii_partial) partials;
} xf_ii;

typedef struct xf_nii_partial {
    xf_hdr h;
    int64_t dep, indep, partial;
} xf_nii_partial;

/* ExplicitJacobian: Partial*;  DirectAction: empty */
typedef struct xf_nii {
    xf_hdr h;
    bool direct;
    const char *name, *jacobian, *return_type, *deriv_action;
    XF_VEC(xf_nii_partial) partials;
} xf_nii;

/* ------------------------------------------------------------- document */

typedef enum xf_dockind { XF_DOC_CALLGRAPH, XF_DOC_INLINABLE, XF_DOC_NONINLINABLE } xf_dockind;

/* The first construct of derivative code in a document: a reference with
 * deriv set true, a DerivativePropagator, a ReplacementList, an
 * InlinableSubroutineCall of a propagator, tape or checkpoint routine
 * (xf_deriv_icall). The reader records the first it meets; a builder or
 * pass that makes one records it (line 0) if none is recorded. what NULL:
 * the document has none. */
typedef struct xf_derivmark {
    const char *what;   /* the element's local name ("DerivativePropagator") */
    const char *detail; /* NULL, or what makes it derivative code ("deriv=\"1\"") */
    uint32_t line;      /* 0: made by a pass */
} xf_derivmark;

typedef struct xf_nsdecl {
    const char *prefix; /* NULL: the default namespace */
    const char *uri;
} xf_nsdecl;

typedef struct xf_doc {
    xf_arena *arena;
    /* While one routine is in memory at a time (xf_read_stream), arena holds
     * that routine and dies with it; what outlives it (the symbols a pass adds
     * to a scope) goes here. NULL otherwise: everything is in arena. */
    xf_arena *global;
    xf_strtab *strs;
    const char *filename; /* interned; for messages */
    xf_dockind kind;
    XF_VEC(xf_nsdecl) ns;                  /* namespace declarations on the root */
    xf_xnode_vec before;                   /* comments and PIs before the root */
    xf_xnode_vec after;                    /* ... and after it */
    xf_callgraph cg;                       /* XF_DOC_CALLGRAPH */
    xf_hdr defs_h;                         /* root of a catalogue */
    const char *language;                  /* InlinableIntrinsicDefinitions */
    XF_VEC(xf_ii) ii;                      /* XF_DOC_INLINABLE */
    XF_VEC(xf_nii) nii;                    /* XF_DOC_NONINLINABLE */
    uint32_t nsymbols, nscopes, nroutines; /* dense index counters */
    xf_derivmark deriv;                    /* the first derivative construct */
} xf_doc;

/**
 * xf_doc_new:
 * An empty call-graph document named @filename (for messages; may be NULL).
 * @returns the document (free with xf_doc_free), or NULL when out of memory.
 */
xf_doc *xf_doc_new(const char *filename);

/** xf_doc_free: release @doc, its arena and strings. NULL is allowed. */
void xf_doc_free(xf_doc *doc);

/** xf_doc_global: the arena of what outlives the routine in memory (see xf_doc.global). */
static inline xf_arena *
xf_doc_global(const xf_doc *doc)
{
    return doc->global ? doc->global : doc->arena;
}

/** xf_intern: intern @s (NUL-terminated) in @doc; NULL when out of memory. */
const char *xf_intern(xf_doc *doc, const char *s);

/** xf_doc_bytes: memory held by @doc (arena and strings), for benchmarks. */
size_t xf_doc_bytes(const xf_doc *doc);

/* ---------------------------------------------------- derivative code */

/**
 * xf_deriv_icall:
 * Whether an InlinableSubroutineCall named @name belongs to derivative code:
 * a propagator (SetDeriv, Sax, Saxpy, IncDeriv, ZeroDeriv, ...), a tape
 * operation (push..., pop..., apush, apop) or an argument checkpoint
 * (cp_arg_..., cp_res_...), in any letter case. The front ends' own
 * inlinable calls (oad_convert, oad_ShapeTest, ...) are not.
 */
bool xf_deriv_icall(const char *name);

/** xf_doc_mark_deriv: record @what (@detail, @line) in @doc->deriv unless one is recorded. */
void xf_doc_mark_deriv(xf_doc *doc, const char *what, const char *detail, uint32_t line);

/**
 * xf_derivmark_text:
 * The construct of @m as a tag for messages, into @buf: "<xaif:ReplacementList>",
 * "<xaif:Tgt deriv=\"1\">", "<xaif:InlinableSubroutineCall subroutine_name=\"push_s0\">"
 * ("no derivative construct" when there is none). @returns @buf.
 */
const char *xf_derivmark_text(const xf_derivmark *m, char *buf, size_t len);

/* ------------------------------------------------------------ look-ups */

/** xf_scope_find: the scope with vertex_id @id (interned), or NULL. O(1). */
xf_scope *xf_scope_find(const xf_doc *doc, const char *id);
/** xf_symbol_find: the symbol @id (interned) of @scope, or NULL. O(1). */
xf_symbol *xf_symbol_find(const xf_scope *scope, const char *id);
/** xf_routine_find: the routine with vertex_id @id (interned), or NULL. O(1). */
xf_routine *xf_routine_find(const xf_doc *doc, const char *id);

/** xf_routine_of: the routine whose symbol is @sym (may be NULL), or NULL
 * (not in the document, or not read yet when streaming). O(routines). */
xf_routine *xf_routine_of(const xf_doc *doc, const xf_symbol *sym);
/** xf_cvertex_find: the vertex @id (interned) of @g, or NULL. O(1). */
xf_cvertex *xf_cvertex_find(const xf_graph *g, const char *id);

#endif
