/* compare.h: two XML documents compared as xaif tools see them: the same
 * elements (namespace and local name) in the same order, the same attributes
 * and values (in any order), the same text. Comments, processing
 * instructions, whitespace-only text, namespace prefixes and declarations do
 * not count. */
#ifndef XF_TOOLS_COMPARE_H
#define XF_TOOLS_COMPARE_H

#include <stddef.h>

/**
 * xf_xml_compare:
 * Compare documents @a (@alen bytes) and @b (@blen bytes).
 * @why: receives the first difference, "line A / line B: what" (may be NULL)
 * @returns 0 when equal, 1 when different, -1 when one does not parse.
 */
int xf_xml_compare(const char *a, size_t alen, const char *b, size_t blen, char *why,
                   size_t whylen);

/** xf_xml_compare_files: as xf_xml_compare, for two files. */
int xf_xml_compare_files(const char *a, const char *b, char *why, size_t whylen);

#endif
