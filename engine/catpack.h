/* catpack.h: an intrinsics catalogue (a document of kind XF_DOC_INLINABLE or
 * XF_DOC_NONINLINABLE) as a byte string, so that a program can carry one
 * compiled in and load it without parsing XML. Every field of the catalogue's
 * IR is in the bytes (lines, annotations, comments, foreign attributes and
 * elements, namespace declarations): unpacking gives the IR the reader gave.
 * The format is this build's own, not a file format: integers as LEB128
 * varints (signed ones zigzagged), strings as length+1 then the bytes (0:
 * absent), vectors as their length then the elements, in ir.h's field order. */
#ifndef XF_ENGINE_CATPACK_H
#define XF_ENGINE_CATPACK_H

#include <stddef.h>

#include "diag.h"
#include "ir.h"

/**
 * xf_cat_pack:
 * The bytes of catalogue @cat, in a new buffer of *@len bytes that the caller
 * frees with free(). A catalogue whose partials use variable references or
 * function calls (which need a call graph's symbols) cannot be packed.
 * @returns the buffer, or NULL after reporting to @diag.
 */
unsigned char *xf_cat_pack(const xf_doc *cat, size_t *len, xf_diag *diag);

/**
 * xf_cat_unpack:
 * The catalogue packed in the @len bytes at @buf, as a new document named
 * @name (for messages; the name its text was read under gives the same IR).
 * @returns the document (free with xf_doc_free), or NULL after reporting to @diag.
 */
xf_doc *xf_cat_unpack(const unsigned char *buf, size_t len, const char *name, xf_diag *diag);

#endif
