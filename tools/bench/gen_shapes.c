/* gen_shapes.c: xaiform-gen-shapes, one generated xaif program of a given
 * shape and size (shapes.h), for the scaling benchmark.
 *
 *   xaiform-gen-shapes SHAPE SIZE -o OUT.xaif
 *   xaiform-gen-shapes files SIZE -o DIR
 *   xaiform-gen-shapes --list
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shapes.h"

static const char usage[] =
    "usage: xaiform-gen-shapes SHAPE SIZE -o OUT.xaif\n"
    "       xaiform-gen-shapes --list\n"
    "\n"
    "Write a valid front-end xaif program of SHAPE whose size is SIZE: its top\n"
    "routine is head(x, y) with x(2), y(1), so that `xaiform run --driver dd -n 2\n"
    "-m 1` runs it. For the shape `files`, OUT is a new folder of SIZE files.\n"
    "`-o -` writes to standard output.\n"
    "\n"
    "  -o, --output OUT  where to write (required)\n"
    "  -l, --list        list the shapes and what SIZE means for each\n"
    "  -h, --help        this text\n";

static void
list(void)
{
    for (int s = 0; s < XF_SHAPE_COUNT; s++)
        printf("%-9s %s\n", xf_shape_name((xf_shape)s), xf_shape_summary((xf_shape)s));
}

int
main(int argc, char **argv)
{
    const char *shape_name = NULL, *size_text = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "-l") == 0 || strcmp(a, "--list") == 0) {
            list();
            return 0;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (++i == argc) {
                fputs(usage, stderr);
                return 2;
            }
            out = argv[i];
        } else if (!shape_name) {
            shape_name = a;
        } else if (!size_text) {
            size_text = a;
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    if (!shape_name || !size_text || !out) {
        fputs(usage, stderr);
        return 2;
    }
    xf_shape shape = xf_shape_find(shape_name);
    if (shape == XF_SHAPE_COUNT) {
        fprintf(stderr, "xaiform-gen-shapes: error: unknown shape '%s' (--list names them)\n",
                shape_name);
        return 2;
    }
    char *end;
    errno = 0;
    long size = strtol(size_text, &end, 10);
    if (*end || errno || size < 1 || size > 100000000) {
        fprintf(stderr, "xaiform-gen-shapes: error: SIZE must be a number from 1 to 10^8: '%s'\n",
                size_text);
        return 2;
    }
    int rc;
    if (strcmp(out, "-") == 0 && shape != XF_SHAPE_FILES)
        rc = xf_shape_write(stdout, shape, size) || fflush(stdout) ? -1 : 0;
    else
        rc = xf_shape_make(out, shape, size);
    if (rc != 0) {
        fprintf(stderr, "xaiform-gen-shapes: error: %s: %s\n", out, strerror(errno));
        return 1;
    }
    return 0;
}
