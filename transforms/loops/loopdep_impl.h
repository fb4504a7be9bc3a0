/* loopdep_impl.h: what loopdep_rules.c and loopdep_walk.c share: the accesses
 * of a piece of code in execution order, each read marked "exposed" when
 * no write on every path before it (in the same walk) has set the whole
 * variable. */
#ifndef XF_TRANSFORMS_LOOPDEP_IMPL_H
#define XF_TRANSFORMS_LOOPDEP_IMPL_H

#include "cfgtree.h"
#include "loopdep.h"

typedef struct ld_acc {
    const xf_symbol *sym;
    const xf_varref *ref; /* NULL: the whole variable */
    int64_t line;
    bool write;
    bool exposed; /* a read that no earlier write of the walk covers on every path */
    /* a read of an array element that an earlier write of the same element
     * (the same reference, nothing its subscripts read written since)
     * covers on every path: in the same block, or in the same arm or loop
     * body as the read */
    bool fresh;
    bool reduction; /* a read or write of an additive update s = s + e */
    uint32_t next;  /* the next access of the same symbol (loopdep_rules.c), UINT32_MAX: none */
} ld_acc;

typedef struct ld_walk {
    const xf_doc *doc;
    xf_arena *a;
    uint32_t nsyms;
    uint8_t *must;        /* by symbol index: written as a whole on every path so far */
    XF_VEC(uint32_t) log; /* the symbols set in must, in order (to undo) */
    /* element writes that lie on every path from the start of the
     * innermost branch arm or loop body walked (ld_acc's fresh) */
    XF_VEC(const xf_varref *) elems;
    XF_VEC(ld_acc) acc;
    const char *unknown_call; /* the first call whose effects are unknown */
    int64_t unknown_line;
    bool oom;
    /* work done (statements, expression vertices walked) and the budget:
     * past it the walk stops and 'over' is set (xf_loopdep_graph) */
    uint64_t work, budget;
    bool over;
    /* a loop whose test, body and update this walk has met already, with
     * no fewer variables written as a whole before them: walking it again
     * adds only writes met before and reads no more exposed than before,
     * so its initialization alone is walked (loopdep_rules.c: after_loop) */
    const xf_region *skip;
} ld_walk;

/** ld_walk_init: an empty walk over @doc's symbols, storage from @a. false: out of memory. */
bool ld_walk_init(ld_walk *w, const xf_doc *doc, xf_arena *a);

/** ld_walk_reset: no accesses, nothing written. */
void ld_walk_reset(ld_walk *w);

/** ld_walk_seq / ld_walk_region: append the accesses of @s / @r, in execution order. */
void ld_walk_seq(ld_walk *w, const xf_rgseq *s, uint32_t from);
void ld_walk_region(ld_walk *w, const xf_region *r);

/** ld_walk_stmt: the accesses of one statement (@line when it has no lineNumber). */
void ld_walk_stmt(ld_walk *w, const xf_stmt *st, int64_t line);

/** ld_walk_expr: the reads of expression @x at @line. */
void ld_walk_expr(ld_walk *w, const xf_expr *x, int64_t line);

/** ld_walk_mark: @sym is written as a whole from here on. */
void ld_walk_mark(ld_walk *w, const xf_symbol *sym);

/** ld_walk_undo: forget the whole writes after the first @n of the log. */
void ld_walk_undo(ld_walk *w, uint32_t n);

#endif
