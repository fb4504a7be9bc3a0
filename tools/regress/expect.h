/* expect.h: the expectations file of the regression runner: a committed
 * record of every example's status in every mode, with the operations and
 * tape words of the passing derivative modes, that a run is compared with
 * (`xaiform check --expect FILE`) and rewritten from (`--update`). */
#ifndef XF_TOOLS_EXPECT_H
#define XF_TOOLS_EXPECT_H

#include <stdbool.h>
#include <stdio.h>

#include "check_results.h"

/* The reason classes, for messages. ORDER: xf_check_reason */
#define XF_EXPECT_REASONS                                                                          \
    "example-error, read-error, transform-error, schema-invalid, run-error, jacobian-shape, "      \
    "jacobian-mismatch"

/* What a run covered: lines of the file outside it are neither compared nor rewritten. */
typedef struct xf_expect_scope {
    bool modes[XF_CHECK_MODES]; /* the modes it ran */
    bool all; /* it searched a folder, so it covers every example; else only those it found */
} xf_expect_scope;

/**
 * xf_expect_read:
 * Read the expectations file @path into @r (sorted): '#' comments and blank
 * lines, else "EXAMPLE MODE STATUS OPS TAPE XB_OPS XB_TAPE [INPUT] [REASON]"
 * ('-' where a count does not exist; the counts may be left out together;
 * INPUT "tlm.xaif" where an adjoint mode ran from it, for want of adm.xaif;
 * REASON the reason class, on every failing line and no other).
 * @returns 0, or -1 with "PATH:LINE: error: ..." printed to @err.
 */
int xf_expect_read(const char *path, xf_check_results *r, FILE *err);

/**
 * xf_expect_read_old:
 * As xf_expect_read, but a failing line without its reason class is read
 * (reason XF_FAIL_NONE): a file from before the classes, which `--update`
 * rewrites from the run; xf_expect_write refuses such a record.
 */
int xf_expect_read_old(const char *path, xf_check_results *r, FILE *err);

/**
 * xf_expect_compare:
 * Print to @out, one line each, every difference of the run @run (sorted)
 * from the expectations @old within @sc, better or worse: a status or a
 * failure's reason class changed, an example and mode in one and not the
 * other, any count (ours or xaifBooster's operations and tape words) risen
 * or fallen. @file names the expectations in the messages.
 * @returns the number of changes, or -1 when two examples of the run share
 * a name (the file's key).
 */
int xf_expect_compare(const xf_check_results *old, const xf_check_results *run,
                      const xf_expect_scope *sc, const char *file, FILE *out);

/**
 * xf_expect_write:
 * Write @path afresh (through a temporary file renamed into place): the
 * records of @run, and those of @old outside @sc, sorted, after a comment
 * header that names the command @made_by.
 * @returns 0, or -1 with the reason printed to @err.
 */
int xf_expect_write(const char *path, const xf_check_results *old, const xf_check_results *run,
                    const xf_expect_scope *sc, const char *made_by, FILE *err);

#endif
