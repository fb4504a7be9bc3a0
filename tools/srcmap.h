/* srcmap.h: messages about a front end's xaif pointed back at the user's
 * source. A front end writes each statement (and control-flow vertex) with
 * lineNumber="N", its line in the source, on the line of its start tag. A
 * message about line L of the xaif names the source file and the line of
 * the last such element at or above L; a control-flow graph's start ends
 * the previous routine's, and names the line that defines the routine where
 * the caller can tell it (xf_srcmap.routine), else line 0. */
#ifndef XF_SRCMAP_H
#define XF_SRCMAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct xf_srcmap {
    const char *xaif;         /* the name the xaif is read under */
    const char *const *files; /* the source files; files[0] by default */
    const char *text;         /* the xaif */
    size_t len;
    /* optional: the file (index into files) and line that define routine
     * @name (@len bytes), or false */
    bool (*routine)(void *arg, const char *name, size_t len, int *file, unsigned long *line);
    void *arg;
    /* built on the first message */
    bool built;
    size_t n, cap;
    unsigned long *xl, *sl; /* xaif line -> source line (0: none), ascending xaif lines */
    int *fl;                /* and its file */
} xf_srcmap;

/* An xf_diag_set_where callback: @arg is an xf_srcmap. */
void xf_srcmap_where(void *arg, const char **file, unsigned long *line);

void xf_srcmap_free(xf_srcmap *m);

#endif
