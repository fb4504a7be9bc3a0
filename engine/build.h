/* build.h: making IR nodes, for the passes. Everything is allocated in the
 * document's arena; functions that allocate return NULL (or UINT32_MAX for
 * an index) when memory runs out, and the pass reports it. Ids of vertices
 * and edges inside new expressions and references are "1", "2", ... in
 * creation order; statement ids and symbol ids are the caller's. */
#ifndef XF_ENGINE_BUILD_H
#define XF_ENGINE_BUILD_H

#include "ir.h"

/** xf_intern_uint: the interned decimal text of @n ("17"). */
const char *xf_intern_uint(xf_doc *doc, uint64_t n);

/**
 * xf_new_symbol:
 * Add a symbol @id to @scope (which must not have one of that id).
 * @returns the symbol, or NULL (out of memory, or @id taken).
 */
xf_symbol *xf_new_symbol(xf_doc *doc, xf_scope *scope, const char *id, xf_type type, xf_shape shape,
                         bool active, bool temp);

/**
 * xf_fresh_symbol:
 * A new temporary named @prefix followed by the first number from *@counter
 * on that no symbol of @scope uses yet ("OpenAD_lin_7"); *@counter moves past it.
 */
xf_symbol *xf_fresh_symbol(xf_doc *doc, xf_scope *scope, const char *prefix, unsigned *counter,
                           xf_type type, xf_shape shape, bool active);

/** xf_ref_init: make @r a reference to the whole of @sym (one SymbolReference). */
bool xf_ref_init(xf_doc *doc, xf_varref *r, xf_symbol *sym);

/** xf_ref_copy: make @dst a deep copy of @src (subscript expressions included). */
bool xf_ref_copy(xf_doc *doc, xf_varref *dst, const xf_varref *src);

/** xf_ref_new: a new reference to the whole of @sym. */
xf_varref *xf_ref_new(xf_doc *doc, xf_symbol *sym);

/** xf_ref_dup: a new deep copy of @src. */
xf_varref *xf_ref_dup(xf_doc *doc, const xf_varref *src);

/* Expression building: each returns the new vertex's index. */
uint32_t xf_expr_const(xf_doc *doc, xf_expr *x, xf_type type, const char *value);
uint32_t xf_expr_real(xf_doc *doc, xf_expr *x, double value);
uint32_t xf_expr_int(xf_doc *doc, xf_expr *x, int64_t value);
uint32_t xf_expr_ref(xf_doc *doc, xf_expr *x, xf_varref *ref); /* takes @ref */
uint32_t xf_expr_op(xf_doc *doc, xf_expr *x, xf_evkind kind, const char *name);
bool xf_expr_edge(xf_doc *doc, xf_expr *x, uint32_t src, uint32_t tgt, int64_t pos);
/** xf_expr_copy: copy the subgraph of @src under @root into @dst; returns the new root.
 * Time O(vertices + edges of @src), whatever the depth. */
uint32_t xf_expr_copy(xf_doc *doc, xf_expr *dst, const xf_expr *src, uint32_t root);
/** xf_expr_copy_vertex: copy vertex @vi of @src alone (no operands) into @dst; O(1). */
uint32_t xf_expr_copy_vertex(xf_doc *doc, xf_expr *dst, const xf_expr *src, uint32_t vi);
/** xf_expr_unary / xf_expr_binary: op(a) / op(a, b) over existing vertices; returns op's index. */
uint32_t xf_expr_unary(xf_doc *doc, xf_expr *x, const char *op, uint32_t a);
uint32_t xf_expr_binary(xf_doc *doc, xf_expr *x, const char *op, uint32_t a, uint32_t b);

/** xf_stmt_assign: a new assignment; lhs and rhs are copied in (by value). */
xf_stmt *xf_stmt_assign(xf_doc *doc, const char *id, const xf_varref *lhs, const xf_expr *rhs);
/** xf_stmt_icall: a new InlinableSubroutineCall @name without arguments (marks @doc
 * as derivative code when xf_deriv_icall(@name)). */
xf_stmt *xf_stmt_icall(xf_doc *doc, const char *id, const char *name);
/** xf_icall_ref / xf_icall_const: append an argument to an inlinable call. */
bool xf_icall_ref(xf_doc *doc, xf_stmt *s, const xf_varref *ref);
bool xf_icall_const(xf_doc *doc, xf_stmt *s, xf_type type, const char *value);
/** xf_stmt_derivprop: a new, empty DerivativePropagator (marks @doc as derivative code). */
xf_stmt *xf_stmt_derivprop(xf_doc *doc);

/** xf_mark_ref: set the output attributes xaifBooster writes on a reference. */
void xf_mark_ref(xf_varref *r, bool active, bool deriv);

/** xf_stmt_copy: a deep copy of @s (expressions and references included; same ids). */
xf_stmt *xf_stmt_copy(xf_doc *doc, const xf_stmt *s);

/**
 * xf_graph_vertex:
 * A new vertex of kind @kind with id @id (interned here), appended to @g
 * (its index, its place in the written order and @g's id map set).
 * @returns the vertex, or NULL (out of memory, or @id taken in @g).
 */
xf_cvertex *xf_graph_vertex(xf_doc *doc, xf_graph *g, xf_cvkind kind, const char *id);

/** xf_graph_adopt: append vertex @v (of no graph, or of one being rebuilt) to @g. */
bool xf_graph_adopt(xf_doc *doc, xf_graph *g, xf_cvertex *v);

/**
 * xf_graph_edge:
 * A new edge @src -> @tgt of @g with id @id; with @has_cv, condition value @cv.
 * @returns the edge, or NULL when out of memory.
 */
xf_cedge *xf_graph_edge(xf_doc *doc, xf_graph *g, xf_cvertex *src, xf_cvertex *tgt, const char *id,
                        bool has_cv, int64_t cv);

/** xf_graph_renumber: write @g's vertices first, then its edges, each in vector order. */
void xf_graph_renumber(xf_graph *g);

/** xf_graph_copy: make @dst (empty) a deep copy of @src: vertices, statements, edges, ids. */
bool xf_graph_copy(xf_doc *doc, xf_graph *dst, const xf_graph *src);

#endif
