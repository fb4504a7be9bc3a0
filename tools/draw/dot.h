/* dot.h: pictures of a document with graphviz (cgraph builds the graph,
 * gvc lays it out and renders it): the call graph, one routine's control
 * flow, the expression graphs of one basic block, and the linearized
 * computational graphs of one basic block's preaccumulation sequences.
 *
 * graphviz is opened at the first graph (dl_graphviz.h). Each xf_dot_*
 * builder returns a new graphviz graph that the caller releases with
 * xf_gv()->agclose(); it reads the document and never changes it (the LCG's
 * builder interns strings in it). The
 * graph's text (labels) is escaped for graphviz's plain labels: lines end
 * in "\l", a backslash is doubled. Builders report a missing routine, block
 * or placeholder to @diag (with the document's file name) and return NULL. */
#ifndef XF_TOOLS_DOT_H
#define XF_TOOLS_DOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "dl_graphviz.h"
#include "elim.h"
#include "ir.h"
#include "pass.h"

/* What to draw and how much of it. */
typedef struct xf_dot_opts {
    const char *routine; /* a routine's symbol_id or vertex_id; NULL: the default */
    int64_t placeholder; /* a ReplacementList's placeholder; 0: "1", or the first non-empty */
    const char *block;   /* a BasicBlock's vertex_id (expressions, lcg); NULL: the default */
    unsigned max_lines;  /* statement lines per block before "... (N more)"; 0: all */
    unsigned width;      /* characters per line before "..."; 0: no limit */
    bool eliminated;     /* lcg: each sequence after vertex elimination in @order */
    xf_elim_order order; /* lcg: forward, reverse or markowitz */
} xf_dot_opts;

/**
 * xf_dot_callgraph:
 * One node per routine (ControlFlowGraph or ReplacementList), a dashed node
 * per called routine the document does not define, and an edge from caller
 * to callee labelled with the number of SubroutineCall statements (call
 * sites) of the caller, in all its graphs, that call it.
 * @returns the graph (agclose() it), or NULL after a report to @diag.
 */
Agraph_t *xf_dot_callgraph(const xf_doc *doc, const xf_dot_opts *o, xf_diag *diag);

/**
 * xf_dot_cfg:
 * The control-flow graph of routine @o->routine (default: the first routine
 * with a statement; of a ReplacementList, Replacement @o->placeholder): each
 * vertex labelled with its kind and vertex_id; a BasicBlock lists its
 * statements in pseudo-code (xf_dot_stmt_text), a run of Markers as one
 * line; ForLoop, PreLoop, PostLoop, If and Branch show their condition (a
 * ForLoop also its initialization and update); edges with a condition value
 * are labelled with it.
 * @returns the graph (agclose() it), or NULL after a report to @diag.
 */
Agraph_t *xf_dot_cfg(const xf_doc *doc, const xf_dot_opts *o, xf_diag *diag);

/**
 * xf_dot_expressions:
 * The expression graphs of the statements of BasicBlock @o->block (default:
 * the first BasicBlock with an assignment): one cluster per assignment or
 * call, labelled with the statement; a node per expression vertex (variable
 * reference, constant, intrinsic or boolean operation with its name) drawn
 * as a tree: the assignment's left-hand side (or the call) at the top, fed
 * by the root (edge "="), each operator above its operands, left to right
 * by position. Edges go operator -> operand with dir=back (the arrow at the
 * operator, as the xaif edge goes) and are labelled with the position.
 * @returns the graph (agclose() it), or NULL after a report to @diag.
 */
Agraph_t *xf_dot_expressions(const xf_doc *doc, const xf_dot_opts *o, xf_diag *diag);

/**
 * xf_dot_lcg_prepare:
 * Run the passes "convert,linearize" over @doc with the catalogues @cat and
 * @direct: the propagation that preaccumulate reads.
 * @returns 0, or -1 after a report to @diag.
 */
int xf_dot_lcg_prepare(xf_doc *doc, const xf_doc *cat, const xf_doc *direct, xf_diag *diag);

/**
 * xf_dot_lcg:
 * The linearized computational graphs of one BasicBlock of @doc (after
 * xf_dot_lcg_prepare; @o->block, default: the first whose derivative
 * propagation has an edge, an operation that is not ZeroDeriv), as
 * preaccumulate builds them (transforms/core/lcg.h): the block cut into
 * sequences as the pass cuts it, one cluster per sequence ("sequence 2: 5
 * vertices, 4 edges"). A vertex is a version of a storage location: a new
 * one at each write, labelled "x (2)" for the second; independent vertices
 * (the values at the start of the sequence) are filled blue, dependent
 * ones (the last version of a location whose value is used after the
 * sequence) green, intermediates white, and a ZeroDeriv's version is dashed
 * and labelled "x (2) = 0". An edge is labelled with its partial: a
 * constant or an OpenAD_lin_* variable. With @o->eliminated, each sequence
 * is drawn after vertex elimination in @o->order (transforms/core/elim.h), its
 * edges labelled with the products and sums of partials they accumulate.
 * Building the graphs interns strings in @doc; nothing else changes.
 * @returns the graph (agclose() it), or NULL after a report to @diag.
 */
Agraph_t *xf_dot_lcg(xf_doc *doc, const xf_dot_opts *o, xf_diag *diag);

/**
 * xf_dot_format:
 * The graphviz output format for a format name or file extension @name
 * ("svg", "png", "pdf"; "dot" and "gv" give "dot", the graph in graphviz's
 * language without layout), or NULL when it is not one of these.
 */
const char *xf_dot_format(const char *name);

/** xf_dot_formats: the format names xf_dot_format accepts, for messages ("svg, png, ..."). */
const char *xf_dot_formats(void);

/**
 * xf_dot_context:
 * A graphviz context for xf_dot_render (graphviz's messages while loading
 * its plugins are reported to @diag). Make one per process and release it
 * with xf_gv()->gvFreeContext() at the end: graphviz 2.42's pango plugin keeps a
 * pointer into the fonts of the context it first measured text for, so a
 * layout in a second context after the first one was freed reads freed
 * memory (valgrind and ASan report it).
 * @returns the context, or NULL after a report to @diag.
 */
GVC_t *xf_dot_context(xf_diag *diag);

/**
 * xf_dot_render:
 * Lay @g out with the dot engine in @gvc and write it in @format (from
 * xf_dot_format) to @path as xf_outfile_open does (a regular file through a
 * temporary file renamed into place, anything else straight); "-" writes to
 * standard output. A @path that is the file @input is refused. The "dot" format
 * needs no layout (@gvc may be NULL). Graphviz's own messages are caught
 * and reported to @diag as warnings or errors naming @path, never printed
 * by graphviz.
 * @returns 0, or -1 after a report to @diag.
 */
int xf_dot_render(GVC_t *gvc, Agraph_t *g, const char *format, const char *path, const char *input,
                  xf_diag *diag);

/* Pseudo-code (dot_text.c). Each writes at most @len bytes into @buf,
 * NUL-terminated; a longer text ends in "...". Each returns @buf. */

/** xf_dot_expr_text: expression @x from vertex @v (UINT32_MAX: its root), infix. */
const char *xf_dot_expr_text(const xf_expr *x, uint32_t v, char *buf, size_t len);

/** xf_dot_ref_text: a variable reference ("Y_2(1)", "A(1:N:2, J)"). */
const char *xf_dot_ref_text(const xf_varref *r, char *buf, size_t len);

/** xf_dot_stmt_lines: the lines of statement @s (a DerivativePropagator: one per operation). */
uint32_t xf_dot_stmt_lines(const xf_stmt *s);

/** xf_dot_stmt_text: line @k of statement @s ("Y = X*2", "CALL f(X)", "Sax d(Y) = 2*d(X)"). */
const char *xf_dot_stmt_text(const xf_stmt *s, uint32_t k, char *buf, size_t len);

#endif
