/* regress.h: the regression runner over OpenAD's example layout. */
#ifndef XF_TOOLS_REGRESS_H
#define XF_TOOLS_REGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "check_results.h"
#include "pass.h"

/* How many folder levels below a root the search for examples goes. */
enum { XF_CHECK_DEPTH = 16 };

/* How many variants of the adjoint `check --stats --variant` compares. */
enum { XF_CHECK_VARIANTS = 4 };

typedef struct xf_check_opts {
    const xf_check_mode *modes;
    int nmodes;
    char *const *roots; /* corpus folders, or example folders */
    int nroots;
    int min_pass;          /* > 0: succeed when each mode passes this percentage of what it ran */
    const char *catalogue; /* for the transform modes; NULL: the built-in one */
    xf_opts passopts;      /* for the transform modes: the passes' options */
    const char *door;      /* for the transform modes: XAIFBOOSTERROOT, whose oadDriver
                              programs make the derivative instead; NULL: in-process */
    bool
        stats; /* print the operation counts (and tape words) of ours and of xaifBooster's output */
    const char *schema; /* for the transform modes: an .xsd every output must satisfy; or NULL */
    /* with stats, the adjoint modes also run these variants of our adjoint
     * (the same pipeline under other pass options), a tape column each */
    int nvariants;
    const char *variant_names[XF_CHECK_VARIANTS];
    xf_opts variant_opts[XF_CHECK_VARIANTS];
} xf_check_opts;

/**
 * xf_check_is_example:
 * Is @dir an example folder: params.conf and an input, tlm.xaif or adm.xaif?
 */
bool xf_check_is_example(const char *dir);

/**
 * xf_check_find:
 * The example folders at or under @root (trailing slashes removed): @root
 * itself when it is one, else those found by searching its subfolders
 * (symbolic links followed, each folder entered once so that a link loop
 * ends, hidden entries left out, at most XF_CHECK_DEPTH levels deep; a
 * folder with params.conf is not searched further), sorted by path.
 * @returns how many were found, with the paths in *@v (each and the array
 * freed by the caller), or -1 when @root cannot be read (the reason printed
 * to @out). *@searched: false when @root is an example itself.
 */
long xf_check_find(const char *root, char ***v, bool *searched, FILE *out);

/**
 * xf_check_run:
 * Check every example under the roots in every mode; print a line per
 * example and mode (PASS, FAIL with the first difference, SKIP with the
 * reason) and a summary line per mode to @out; append a record per example
 * and mode to @res (sorted at the end; the caller finishes it).
 * *@searched: whether a root was searched for examples (rather than being
 * an example folder itself), i.e. whether the run covers all examples.
 * With o->schema, every derivative made is validated against it first (an
 * invalid one fails, counted in res->invalid, and the run returns 1).
 * @returns 0 when nothing failed (or each mode reached min_pass) and every
 * derivative was valid, 1 otherwise, -1 when a root cannot be read or holds no example.
 */
int xf_check_run(const xf_check_opts *o, FILE *out, xf_check_results *res, bool *searched);

#endif
