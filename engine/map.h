/* map.h: hash map from interned strings (compared by address) to pointers,
 * stored in an arena. Open addressing, linear probing, no deletion. A map
 * that grows moves to larger tables and gives large old ones back: a copy
 * of an xf_map is not to be read after the original grew. */
#ifndef XF_ENGINE_MAP_H
#define XF_ENGINE_MAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct xf_arena xf_arena;

typedef struct xf_map {
    const void **keys;
    void **vals;
    uint32_t n, cap; /* cap: 0 or a power of two */
} xf_map;

/**
 * xf_map_get:
 * @key: an interned string (or any address)
 * @returns the value stored under @key, or NULL.
 */
void *xf_map_get(const xf_map *m, const void *key);

/**
 * xf_map_put:
 * Store @val under @key, replacing what was there. Storage comes from @a.
 * @old: if not NULL, receives the value replaced (NULL if the key is new).
 * @returns false when out of memory.
 */
bool xf_map_put(xf_map *m, xf_arena *a, const void *key, void *val, void **old);

/** xf_map_clear: forget all entries, keep the storage (for scratch maps). */
void xf_map_clear(xf_map *m);

#endif
