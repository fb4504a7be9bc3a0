/* code_out.h: writing a back end's code (C or Fortran) to OUT, shared by
 * the verbs xaif2c, xaif2f, grad and fgrad.
 *
 * OUT is written through a temporary file renamed into place (engine/
 * outfile.h), so a failure leaves no partial file; "-" is standard output. */
#ifndef XF_TOOLS_CODE_OUT_H
#define XF_TOOLS_CODE_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "diag.h"
#include "ir.h"

/* A back end's writer: @doc as code to @out, with the back end's own
 * options @opts; 0 on success, messages to @diag. */
typedef int (*xf_code_writer)(const xf_doc *doc, FILE *out, const void *opts, xf_diag *diag);

/*
 * xf_code_write:
 * @doc: the document; @out: the output path, "-" for standard output;
 * @src: the input's path (an OUT that is the input is refused);
 * @w, @opts: the writer and its options; @diag: messages.
 *
 * Returns true when the whole file was written and is in place.
 */
bool xf_code_write(const xf_doc *doc, const char *out, const char *src, xf_code_writer w,
                   const void *opts, xf_diag *diag);

/*
 * xf_code_cmd:
 * The body of `xaiform xaif2c|xaif2f IN -o OUT` after its options: reads
 * @in, writes it with @w and @opts to @out, and returns the exit status
 * (XF_EXIT_OK, XF_EXIT_INPUT, XF_EXIT_INTERNAL).
 */
int xf_code_cmd(const char *in, const char *out, xf_code_writer w, const void *opts);

/*
 * xf_code_test_signal:
 * Raises SIGTERM or SIGABRT when the environment variable
 * XAIFORM_TEST_SIGNAL says TERM or ABRT: a test's way of checking that a
 * signal while the temporary output is open leaves nothing behind.
 */
void xf_code_test_signal(void);

#endif
