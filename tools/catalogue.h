/* catalogue.h: the intrinsics catalogues the transforms read: the built-in
 * ones, compiled into the program at build time (unpacked, not parsed, at
 * each start), or a catalogue file given on the command line. */
#ifndef XF_TOOLS_CATALOGUE_H
#define XF_TOOLS_CATALOGUE_H

#include "diag.h"
#include "ir.h"

/**
 * xf_catalogue_load:
 * The inlinable intrinsics catalogue in @path (parsed), or the built-in
 * schema/intrinsics.xaif when @path is NULL. Free with xf_doc_free.
 * @returns the catalogue, or NULL after reporting to @diag.
 */
xf_doc *xf_catalogue_load(const char *path, xf_diag *diag);

/** xf_direct_load: the non-inlinable catalogue (DirectActions), built in when @path is NULL. */
xf_doc *xf_direct_load(const char *path, xf_diag *diag);

#endif
