/* check_f90.h: the xaif2f modes of `xaiform check`: a derivative document
 * written as Fortran by xaif2f, compiled with gfortran beside a driver that
 * does what OpenAD's generic drivers do, run, and its Jacobian read back. */
#ifndef XF_TOOLS_CHECK_F90_H
#define XF_TOOLS_CHECK_F90_H

#include <stddef.h>

#include "ir.h"
#include "run.h"

/**
 * xf_f90_run:
 * Write @doc (a tangent, or an adjoint made for @driver's reversal) with
 * xaif2f, compile it with the Fortran compiler ($XF_FC, else gfortran) and
 * the runtime module, run it under @driver with @par, into @got.
 * @returns 0; -1 with the reason in @why and 1 in *@refused when xaif2f
 * refused the document (the construct in @why), 0 for other failures.
 */
int xf_f90_run(const xf_doc *doc, xf_driver driver, const xf_params *par, xf_jacobian *got,
               char *why, size_t len, int *refused);

#endif
