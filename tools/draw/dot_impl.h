/* dot_impl.h: what the picture builders share (dot.c, dot_expr.c,
 * dot_lcg.c): label text escaped for graphviz, graph making, and choosing
 * the routine, placeholder and block to draw. Not for other modules. */
#ifndef XF_TOOLS_DOT_IMPL_H
#define XF_TOOLS_DOT_IMPL_H

#include "dot.h"

/* The longest statement line or expression text before it is cut to the width. */
enum { DT_LINE_MAX = 4096 };

/* ------------------------------------------------------------ labels */

/* A growing label text (malloc'ed, the owner frees p); after running out of
 * memory, oom is set and further text is dropped. */
typedef struct dt_lbl {
    char *p;
    size_t n, cap;
    bool oom;
} dt_lbl;

/** dt_put_n / dt_put_s: append @k bytes of @s / all of @s, as they are. */
void dt_put_n(dt_lbl *b, const char *s, size_t k);
void dt_put_s(dt_lbl *b, const char *s);

/**
 * dt_put_esc:
 * Append @s escaped for a graphviz label (a backslash starts an escape
 * there, so a literal one is doubled), at most @width characters (0: all;
 * UTF-8 sequences kept whole); a longer text ends in "...".
 */
void dt_put_esc(dt_lbl *b, const char *s, unsigned width);

/** dt_put_line: dt_put_esc, then "\l" (the end of a left-justified line). */
void dt_put_line(dt_lbl *b, const char *s, unsigned width);

/** dt_lbl_text: the text so far ("" when empty), owned by @b. */
const char *dt_lbl_text(const dt_lbl *b);

/** dt_lbl_reset: empty @b, keeping its memory. */
void dt_lbl_reset(dt_lbl *b);

/* ------------------------------------------------------------ graphs */

/** dt_set: set attribute @name of a graph, node or edge (cgraph copies @value). */
void dt_set(void *obj, const char *name, const char *value);

/** dt_node / dt_subgraph: the node / subgraph @name of @g, made if new; NULL when out of memory. */
Agnode_t *dt_node(Agraph_t *g, const char *name);
Agraph_t *dt_subgraph(Agraph_t *g, const char *name);

/** dt_edge: a new edge @t -> @h in @g labelled @label (NULL: none); NULL when out of memory. */
Agedge_t *dt_edge(Agraph_t *g, Agnode_t *t, Agnode_t *h, const char *label);

/**
 * dt_new_graph:
 * A new directed graph titled @title (escaped here) with the pictures'
 * fonts and defaults. @returns it (agclose() it), or NULL after a report.
 */
Agraph_t *dt_new_graph(const char *title, const xf_doc *doc, xf_diag *diag);

/* ------------------------------------------------------------ selection */

/** dt_routine_name: @r's symbol_id (its vertex_id if it has none). */
const char *dt_routine_name(const xf_routine *r);

/** dt_find_routine: the routine whose symbol_id (else vertex_id) is @name, or NULL. */
const xf_routine *dt_find_routine(const xf_doc *doc, const char *name);

/**
 * dt_routine_graph:
 * The graph of @r to draw: its ControlFlowGraph (@ph must be 0), or of a
 * ReplacementList Replacement @ph (0: "1" if it is not empty, else the first
 * non-empty one). *@phname gets the placeholder (NULL for a
 * ControlFlowGraph). @returns NULL when there is no such graph.
 */
const xf_graph *dt_routine_graph(const xf_routine *r, int64_t ph, const char **phname);

/** dt_find_block: the vertex of @g whose vertex_id is @id, or NULL. */
const xf_cvertex *dt_find_block(const xf_graph *g, const char *id);

/* What a selection needs of a basic block, and how messages say it. */
typedef bool (*dt_block_pred)(const xf_cvertex *v);
typedef struct dt_need {
    dt_block_pred pred;
    const char *none; /* "BasicBlock 3 of routine r has ..." */
    const char *some; /* "routine r has no BasicBlock with ..." */
} dt_need;

/* What is drawn: a routine, its graph, and (when asked for) a block. */
typedef struct dt_sel {
    const xf_routine *r;
    const xf_graph *g;
    const char *ph;          /* the placeholder drawn, or NULL */
    const xf_cvertex *block; /* when a dt_need was given */
} dt_sel;

/**
 * dt_select:
 * Pick the routine (@o->routine, or the first whose graph has a block that
 * @want accepts (any statement but a Marker when @want is NULL); with
 * @o->block, the first that has that block), its graph and, when @want is
 * given, the block (@o->block, or the first that @want accepts).
 * @returns 0, or -1 after a report to @diag naming what is missing.
 */
int dt_select(const xf_doc *doc, const xf_dot_opts *o, const dt_need *want, dt_sel *s,
              xf_diag *diag);

/** dt_graph_title: "ROUTINE" or "ROUTINE, placeholder N", then @tail. */
void dt_graph_title(const dt_sel *s, const char *tail, char *buf, size_t len);

#endif
