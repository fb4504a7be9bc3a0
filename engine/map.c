/* map.c: see map.h. */
#include "map.h"

#include <string.h>

#include "arena.h"

static uint32_t
hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (uint32_t)x;
}

void *
xf_map_get(const xf_map *m, const void *key)
{
    if (!m->cap || !key)
        return NULL;
    uint32_t mask = m->cap - 1;
    for (uint32_t i = hash(key) & mask;; i = (i + 1) & mask) {
        if (m->keys[i] == key)
            return m->vals[i];
        if (!m->keys[i])
            return NULL;
    }
}

static bool
grow(xf_map *m, xf_arena *a)
{
    uint32_t cap = m->cap ? m->cap * 2 : 16;
    if (cap < m->cap)
        return false;
    const void **keys = xf_arena_big(a, cap, sizeof *keys);
    void **vals = xf_arena_big(a, cap, sizeof *vals);
    if (!keys || !vals)
        return false;
    for (uint32_t j = 0; j < m->cap; j++) {
        if (!m->keys[j])
            continue;
        uint32_t i = hash(m->keys[j]) & (cap - 1);
        while (keys[i])
            i = (i + 1) & (cap - 1);
        keys[i] = m->keys[j];
        vals[i] = m->vals[j];
    }
    /* a large table goes back to the system (a map that grows doubles:
     * otherwise as much left behind as it holds) */
    xf_arena_release(a, (void *)m->keys, (size_t)m->cap * sizeof *m->keys);
    xf_arena_release(a, m->vals, (size_t)m->cap * sizeof *m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return true;
}

bool
xf_map_put(xf_map *m, xf_arena *a, const void *key, void *val, void **old)
{
    if (old)
        *old = NULL;
    if (!key)
        return false;
    if ((m->n + 1) * 4 > m->cap * 3 && !grow(m, a))
        return false;
    uint32_t mask = m->cap - 1;
    uint32_t i = hash(key) & mask;
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    if (m->keys[i]) {
        if (old)
            *old = m->vals[i];
    } else {
        m->keys[i] = key;
        m->n++;
    }
    m->vals[i] = val;
    return true;
}

void
xf_map_clear(xf_map *m)
{
    if (m->cap) {
        memset(m->keys, 0, m->cap * sizeof *m->keys);
        memset(m->vals, 0, m->cap * sizeof *m->vals);
    }
    m->n = 0;
}
