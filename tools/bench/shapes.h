/* shapes.h: generated xaif programs of a chosen shape and size, for the
 * scaling benchmark (xaiform-gen-shapes, xaiform-scale). Each is a valid
 * front-end document whose top routine is head(x, y) with x(2) and y(1), so
 * that `xaiform run --driver dd -n 2 -m 1` runs it. */
#ifndef XF_TOOLS_BENCH_SHAPES_H
#define XF_TOOLS_BENCH_SHAPES_H

#include <stdio.h>

/* ORDER: xf_shape_table in shapes.c */
typedef enum xf_shape {
    XF_SHAPE_BLOCK,    /* one basic block of SIZE assignments */
    XF_SHAPE_DEEP,     /* one assignment: a chain of SIZE multiplications */
    XF_SHAPE_WIDE,     /* one assignment: a sum of SIZE terms, a balanced tree */
    XF_SHAPE_ROUTINES, /* SIZE routines called from head in a binary tree */
    XF_SHAPE_CHAIN,    /* SIZE routines, each calling the next: depth SIZE */
    XF_SHAPE_NEST,     /* loops and branches nested SIZE deep, alternately */
    XF_SHAPE_FILES,    /* SIZE small files (a folder) for `xaiform batch` */
    XF_SHAPE_LOOPNEST, /* SIZE ForLoops nested around SIZE assignments */
    XF_SHAPE_LOOPSEQ,  /* SIZE ForLoops one after the other */
    XF_SHAPE_SINDEEP,  /* one assignment: SIZE nested sin calls */
    XF_SHAPE_COUNT
} xf_shape;

/** The statements in each file of XF_SHAPE_FILES (a block shape). */
#define XF_SHAPE_FILE_STATEMENTS 16

/**
 * The shape called NAME.
 * @returns the shape, or XF_SHAPE_COUNT for an unknown name
 */
xf_shape xf_shape_find(const char *name);

/** The name of SHAPE ("block", "deep", ...), a static string. */
const char *xf_shape_name(xf_shape shape);

/** One line saying what SIZE means for SHAPE, a static string. */
const char *xf_shape_summary(xf_shape shape);

/**
 * Write the document of SHAPE at SIZE to OUT (for XF_SHAPE_FILES: one of
 * its files). SIZE is at least 1; the smallest sizes of the block shape are
 * raised to its five fixed statements.
 * @returns 0, or -1 when writing failed or memory ran out (errno says why)
 */
int xf_shape_write(FILE *out, xf_shape shape, long size);

/**
 * Make the input of SHAPE at SIZE at PATH: a file, or for XF_SHAPE_FILES a
 * new folder of SIZE files named f000001.xaif and so on.
 * @returns 0, or -1 with errno set
 */
int xf_shape_make(const char *path, xf_shape shape, long size);

#endif
