/* strtab.c: xf_strtab, an open-addressing hash table of strings whose bytes
 * live in a private arena.
 *
 * libxml2's xmlDict served here before; its 2.9 table stops growing at about
 * 16 000 buckets, so a document with a million distinct ids (vertex ids,
 * generated symbol names) walked chains of a hundred strings per look-up.
 * This table doubles when three quarters full, so a look-up costs one hash
 * and, on average, fewer than two probes at any size. */
#include "strtab.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

typedef struct slot {
    const char *s; /* NULL: empty */
    uint32_t hash, len;
} slot;

struct xf_strtab {
    xf_arena *bytes; /* the strings */
    slot *slots;
    uint32_t n, cap; /* cap: a power of two */
};

enum { MIN_CAP = 256 };

/* FNV-1a over 64 bits, folded to 32 */
static uint32_t
hash(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return (uint32_t)(h ^ (h >> 32));
}

xf_strtab *
xf_strtab_new(void)
{
    xf_strtab *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->bytes = xf_arena_new();
    t->slots = calloc(MIN_CAP, sizeof *t->slots);
    if (!t->bytes || !t->slots) {
        xf_strtab_free(t);
        return NULL;
    }
    t->cap = MIN_CAP;
    return t;
}

void
xf_strtab_free(xf_strtab *t)
{
    if (!t)
        return;
    xf_arena_free(t->bytes);
    free(t->slots);
    free(t);
}

static int
grow(xf_strtab *t)
{
    uint32_t cap = t->cap * 2;
    if (cap < t->cap)
        return -1;
    slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (uint32_t j = 0; j < t->cap; j++) {
        if (!t->slots[j].s)
            continue;
        uint32_t i = t->slots[j].hash & (cap - 1);
        while (slots[i].s)
            i = (i + 1) & (cap - 1);
        slots[i] = t->slots[j];
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

const char *
xf_strtab_intern(xf_strtab *t, const char *s, int len)
{
    size_t n = len < 0 ? strlen(s) : (size_t)len;
    if (n > UINT32_MAX - 1)
        return NULL;
    uint32_t h = hash(s, n);
    uint32_t mask = t->cap - 1;
    uint32_t i = h & mask;
    for (; t->slots[i].s; i = (i + 1) & mask) {
        const slot *e = &t->slots[i];
        if (e->hash == h && e->len == n && memcmp(e->s, s, n) == 0)
            return e->s;
    }
    if ((t->n + 1) * 4 > t->cap * 3) {
        if (grow(t) < 0)
            return NULL;
        mask = t->cap - 1;
        for (i = h & mask; t->slots[i].s; i = (i + 1) & mask)
            ;
    }
    const char *copy = xf_arena_strndup(t->bytes, s, n);
    if (!copy)
        return NULL;
    t->slots[i] = (slot){.s = copy, .hash = h, .len = (uint32_t)n};
    t->n++;
    return copy;
}

size_t
xf_strtab_size(const xf_strtab *t)
{
    return t->n;
}

size_t
xf_strtab_bytes(const xf_strtab *t)
{
    return xf_arena_reserved(t->bytes) + (size_t)t->cap * sizeof(slot);
}
