/* xaif_shape.h: two xaif documents compared for structure, not text:
 * the same routines (matched by name, case and OpenAD's name decorations
 * aside), each with the same formal arguments in order (shape, type,
 * intent), the same symbols in its scope (names and shapes) and the same
 * control-flow shape (how many vertices of each kind). What a front end
 * adds of its own (temporaries) is noted, not counted as a difference. */
#ifndef XF_TOOLS_XAIF_SHAPE_H
#define XF_TOOLS_XAIF_SHAPE_H

#include <stddef.h>
#include <stdio.h>

/**
 * xf_xaif_shape_name:
 * The plain name of an xaif symbol_id: lower case, without the trailing
 * "_N" (a symbol table's number) and then without trailing underscores
 * (the Fortran compiler's decoration): "head__24" and "X_1" give "head"
 * and "x". Writes at most @len bytes (NUL included) to @out.
 */
void xf_xaif_shape_name(const char *id, char *out, size_t len);

/**
 * xf_xaif_shape_compare:
 * Compare the structure of documents @a (@alen bytes) and @b (@blen bytes),
 * named @na and @nb in the messages. Each difference goes to @out as one
 * line, "ROUTINE: what: A's / B's"; a symbol only one side has whose name
 * is a front end's temporary goes to @out as a line starting "note:".
 * @returns 0 when the same, 1 when different, -1 when one does not parse
 * (the reason then on @out).
 */
int xf_xaif_shape_compare(const char *a, size_t alen, const char *na, const char *b, size_t blen,
                          const char *nb, FILE *out);

/** xf_xaif_shape_compare_files: as xf_xaif_shape_compare, for two files. */
int xf_xaif_shape_compare_files(const char *a, const char *b, FILE *out);

#endif
