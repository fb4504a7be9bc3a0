/* strtab.h: interned strings (a hash table of our own): one canonical
 * copy of each string per document, so equal strings compare with ==. */
#ifndef XF_ENGINE_STRTAB_H
#define XF_ENGINE_STRTAB_H

#include <stddef.h>

typedef struct xf_strtab xf_strtab;

/** xf_strtab_new: an empty table; NULL when out of memory. Free with xf_strtab_free. */
xf_strtab *xf_strtab_new(void);

/** xf_strtab_free: release the table and all its strings. NULL is allowed. */
void xf_strtab_free(xf_strtab *t);

/**
 * xf_strtab_intern:
 * @s: bytes to intern; @len: their length, or -1 for a NUL-terminated string
 * @returns the canonical copy, owned by @t and valid until xf_strtab_free; NULL when
 * out of memory.
 */
const char *xf_strtab_intern(xf_strtab *t, const char *s, int len);

/** xf_strtab_size: number of distinct strings held. */
size_t xf_strtab_size(const xf_strtab *t);

/** xf_strtab_bytes: bytes the table holds (strings and index), for benchmarks. */
size_t xf_strtab_bytes(const xf_strtab *t);

#endif
