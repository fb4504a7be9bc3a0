/* regress_door.h: the transform modes of `xaiform check --xaifbooster-root ROOT`. */
#ifndef XF_TOOLS_REGRESS_DOOR_H
#define XF_TOOLS_REGRESS_DOOR_H

#include <stddef.h>

#include "diag.h"
#include "ir.h"

/**
 * xf_door_run:
 * Run the driver program @xbroot/xaifBooster/algorithms/ALG/driver/oadDriver over @file of example
 * folder @dir as OpenAD's regression does (-v -V -i -c -o, -I when @ctr is
 * "joint", and the example's options for @major "tlm"/"adm" and @ctr
 * "none"/"joint"/"split"), and read what it wrote.
 * @returns the document (free with xf_doc_free), or NULL with the reason in @why.
 */
xf_doc *xf_door_run(const char *xbroot, const char *dir, const char *file, const char *major,
                    const char *ctr, xf_diag *d, char *why, size_t len);

#endif
