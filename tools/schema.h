/* schema.h: validation of xaif documents against the project's XML Schema
 * (schema/xaif.xsd and the two catalogue schemas it imports), which is
 * compiled into the program; another schema can be loaded from a file. */
#ifndef XF_TOOLS_SCHEMA_H
#define XF_TOOLS_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

typedef struct xf_schema xf_schema;

/**
 * xf_schema_load:
 * @path: an .xsd file, or NULL for the built-in xaif schema
 * Call from one thread at a time: it swaps libxml2's entity loader while parsing.
 * @returns the schema (free with xf_schema_free), or NULL after reporting to @diag.
 */
xf_schema *xf_schema_load(const char *path, xf_diag *diag);

/** xf_schema_free: release @s. NULL is allowed. */
void xf_schema_free(xf_schema *s);

/**
 * xf_schema_validate_file:
 * Validate the document in @path (streaming). Each violation is reported to
 * @diag as "FILE:LINE: error: ...". Without @xml_errors, a file that is not
 * well-formed XML (or cannot be read) is invalid without any message: for a
 * caller whose reader has reported that already (it costs one more parse).
 * @returns 0 when valid, 1 when invalid, -1 when it could not be checked.
 */
int xf_schema_validate_file(xf_schema *s, const char *path, bool xml_errors, xf_diag *diag);

/** xf_schema_validate_memory: as xf_schema_validate_file, for @len bytes at @buf named @name. */
int xf_schema_validate_memory(xf_schema *s, const char *buf, size_t len, const char *name,
                              xf_diag *diag);

/** xf_schema_text: the built-in schema file @name ("xaif.xsd"), or NULL. */
const char *xf_schema_text(const char *name, size_t *size);

#endif
