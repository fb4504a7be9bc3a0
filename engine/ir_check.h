/* ir_check.h: the IR verifier. The pass manager runs it after the reader
 * and after every pass (--verify-each, and always in Debug builds), as
 * QBE's main.c runs its checkers between passes, so that an invariant a
 * pass breaks is caught right after that pass. */
#ifndef XF_ENGINE_IR_CHECK_H
#define XF_ENGINE_IR_CHECK_H

#include "diag.h"
#include "ir.h"

/**
 * xf_ir_check:
 * Check the invariants of @doc that every pass may rely on:
 *  - every reference resolves: a SymbolReference, FunctionCall, call,
 *    argument and routine to a symbol of the scope it names, an edge to
 *    vertices of its own graph, a vertex's id to itself in the graph's map;
 *  - an expression graph is acyclic, has one result (one vertex that is
 *    no edge's source) and numbers each vertex's operands 1..n;
 *  - a control-flow graph has one Entry without predecessors and one Exit
 *    without successors, and every vertex is reached from Entry;
 *  - unless the graph is marked structured="0", its branches and loops
 *    nest: each Branch/If's arms meet at one EndBranch, each ForLoop/
 *    PreLoop has a body edge and an exit edge and its body ends in an
 *    EndLoop leading back to it.
 * The first violation found is reported to @diag as an error with the
 * document's file and the line of the node at fault (0 for a node a pass
 * made). @doc is not changed.
 * @returns 0 when every invariant holds, -1 after the report.
 */
int xf_ir_check(const xf_doc *doc, xf_diag *diag);

/* Invariants a pass may declare it leaves broken for a later pass to mend. */
enum {
    XF_IR_FLOW = 1 /* the shape of control flow: Entry, Exit, reachability, nesting */
};

/** xf_ir_check_some: xf_ir_check without the invariants in @skip (XF_IR_FLOW). */
int xf_ir_check_some(const xf_doc *doc, unsigned skip, xf_diag *diag);

#endif
