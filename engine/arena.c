/* arena.c: bump allocation in chunks that double up to a limit; large
 * requests get a chunk of their own. A chunk of MAPPED bytes or more is
 * mapped (mmap) rather than taken from malloc. Where the system has
 * transparent huge pages, such a chunk of the arena's own growth (not one
 * large request) is a whole number of huge pages, aligned, and asked for as
 * such (MADV_HUGEPAGE): one 2 MB page is mapped and cleared at a tenth of
 * the kernel time of its 512 small pages. The pages are not populated
 * ahead (no MAP_POPULATE, no MADV_POPULATE_WRITE): the system maps each one
 * at its first write, so the part of the last chunk that is never written,
 * and the capacity of a long vector beyond its length, take no memory
 * (docs/scaling.md, "Pages mapped as they are written").
 * A vector that grows with nothing allocated after it grows where it lies;
 * one that moves leaves its old block to the next request of that size
 * (a routine of 20 000 statements: adjoint peak 756 -> 664 MB). A vector
 * of 64 KB or more (and a map's table, xf_arena_big) has a chunk of its
 * own, given back to the system when the vector moves on (issue 26's deep
 * expression: adjoint peak 819 -> 588 MB). */
#define _DEFAULT_SOURCE
#include "arena.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct chunk {
    struct chunk *next;
    size_t size, used;
    size_t dirty;  /* bytes from the start handed out since the chunk was made (zero beyond) */
    size_t mapped; /* bytes mapped by mmap (0: malloc) */
    bool own;      /* one vector's block (own_block), freed when the vector moves */
    max_align_t data[];
} chunk;

#ifdef MAP_ANONYMOUS
enum { MAPPED = 128 * 1024 };
#else
#define MAP_ANONYMOUS 0
enum { MAPPED = 0 }; /* never: malloc only */
#endif

#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
#define HUGE_PAGE ((size_t)2 << 20)

/* A chunk of at least @total bytes in whole huge pages, aligned to one;
 * *@total becomes its size. NULL when that cannot be had. */
static chunk *
huge_chunk(size_t *total)
{
    if (*total > SIZE_MAX - 2 * HUGE_PAGE)
        return NULL;
    size_t len = (*total + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    char *p =
        mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    char *q = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (q > p)
        munmap(p, (size_t)(q - p));
    if (q + len < p + len + HUGE_PAGE)
        munmap(q + len, (size_t)(p + len + HUGE_PAGE - (q + len)));
    /* huge pages where the system gives them (else small ones), each mapped at its first write */
    if (madvise(q, len, MADV_HUGEPAGE) != 0) {
        munmap(q, len);
        return NULL;
    }
    *total = len;
    return (chunk *)q;
}
#else
static chunk *
huge_chunk(size_t *total)
{
    (void)total;
    return NULL;
}
#endif

/* A zeroed chunk for @size bytes; @grow: for the arena's own growth, when
 * *@size may become larger (a whole number of huge pages). */
static chunk *
chunk_alloc(size_t *size, int grow)
{
    size_t total = sizeof(chunk) + *size;
    if (MAPPED && total >= MAPPED) {
        chunk *c = grow ? huge_chunk(&total) : NULL;
        if (c) {
            c->mapped = total;
            *size = total - sizeof(chunk);
            return c;
        }
        void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            c = p;
            c->mapped = total;
            return c;
        }
    }
    chunk *c = calloc(1, total);
    if (c)
        c->mapped = 0;
    return c;
}

static void
chunk_free(chunk *c)
{
    if (c && c->mapped)
        munmap(c, c->mapped);
    else
        free(c);
}

#define ALIGN (_Alignof(max_align_t))

/* The blocks a growing vector left behind, by size: a block of k * ALIGN
 * bytes (k < SPARE_CLASSES) is handed out again for a request of that size. */
enum { SPARE_CLASSES = 64 };

typedef struct spare {
    struct spare *next;
} spare;

struct xf_arena {
    chunk *head;
    size_t next_size;
    size_t used, reserved;
    long fail_after; /* -1: never */
    long fail_kids;  /* xf_arena_new_like(this) gets this fail_after (-1: never) */
    bool failed;     /* some request was refused (sticky: xf_arena_failed) */
    spare *spare[SPARE_CLASSES];
};

enum { MIN_CHUNK = 16 * 1024, MAX_CHUNK = 4 * 1024 * 1024 };

/* A vector growing to this many bytes or more gets a chunk of its own. */
enum { OWN_BLOCK = 64 * 1024 };

xf_arena *
xf_arena_new(void)
{
    xf_arena *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->next_size = MIN_CHUNK;
    a->fail_after = a->fail_kids = -1;
    return a;
}

xf_arena *
xf_arena_new_like(const xf_arena *like)
{
    xf_arena *a = xf_arena_new();
    if (a && like)
        a->fail_after = a->fail_kids = like->fail_kids;
    return a;
}

void
xf_arena_free(xf_arena *a)
{
    if (!a)
        return;
    for (chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        chunk_free(c);
    }
    free(a);
}

static chunk *
new_chunk(xf_arena *a, size_t need)
{
    int big = need > a->next_size;
    size_t size = big ? need : a->next_size;
    if (size > SIZE_MAX - sizeof(chunk))
        return NULL;
    chunk *c = chunk_alloc(&size, !big);
    if (!c)
        return NULL;
    c->size = size;
    c->used = 0;
    c->dirty = 0;
    a->reserved += size;
    if (big && a->head) {
        /* a block of its own: the current chunk stays in front, it may still have room */
        c->next = a->head->next;
        a->head->next = c;
    } else {
        if (a->next_size < MAX_CHUNK)
            a->next_size *= 2;
        c->next = a->head;
        a->head = c;
    }
    return c;
}

/* Every refusal goes through here, so that xf_arena_failed sees it. */
static void *
refuse(xf_arena *a)
{
    a->failed = true;
    return NULL;
}

void *
xf_arena_alloc(xf_arena *a, size_t size)
{
    if (a->fail_after >= 0 && a->fail_after-- == 0)
        return refuse(a);
    if (size == 0)
        size = 1;
    if (size > SIZE_MAX - ALIGN)
        return refuse(a);
    size = (size + ALIGN - 1) & ~(ALIGN - 1);
    spare *b = size / ALIGN < SPARE_CLASSES ? a->spare[size / ALIGN] : NULL;
    if (b) {
        a->spare[size / ALIGN] = b->next;
        memset(b, 0, size);
        a->used += size;
        return b;
    }
    chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        c = new_chunk(a, size);
        if (!c)
            return refuse(a);
    }
    char *p = (char *)c->data + c->used;
    /* a new chunk is zero (calloc, mmap); only what a reset handed back is not */
    if (c->used < c->dirty)
        memset(p, 0, (c->dirty - c->used < size ? c->dirty - c->used : size));
    c->used += size;
    if (c->used > c->dirty)
        c->dirty = c->used;
    a->used += size;
    return p;
}

void *
xf_arena_array(xf_arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return refuse(a);
    return xf_arena_alloc(a, n * size);
}

/* Extend @old, a block of @from bytes, to @to bytes where it lies (zeroing
 * the bytes from @keep on), when it is the last one handed out of the
 * current chunk and the chunk has room; false otherwise. */
static bool
extend(xf_arena *a, void *old, size_t keep, size_t from, size_t to)
{
    chunk *c = a->head;
    if (!old || !c || a->fail_after >= 0)
        return false;
    from = (from + ALIGN - 1) & ~(ALIGN - 1);
    to = (to + ALIGN - 1) & ~(ALIGN - 1);
    char *end = (char *)c->data + c->used;
    if ((char *)old + from != end || (char *)old < (char *)c->data || to - from > c->size - c->used)
        return false;
    /* zero what lies beyond the kept elements, as in a fresh block: the
     * old block's slack, and what a reset handed back */
    memset((char *)old + keep, 0, from - keep);
    if (c->dirty > c->used)
        memset(end, 0, c->dirty - c->used < to - from ? c->dirty - c->used : to - from);
    c->used += to - from;
    if (c->used > c->dirty)
        c->dirty = c->used;
    a->used += to - from;
    return true;
}

/* Keep @old, a block of @bytes left behind by a growing vector, for a later
 * request of its size. Nothing may read a vector's old block after it grew
 * (the doc comment of xf_arena_grow says so). */
static void
keep_spare(xf_arena *a, void *old, size_t bytes)
{
    bytes = (bytes + ALIGN - 1) & ~(ALIGN - 1);
    chunk *c = a->head;
    /* only a block of this arena's current chunk: not one of another arena,
     * nor a constant table a vector was pointed at */
    if (!old || bytes == 0 || bytes / ALIGN >= SPARE_CLASSES || !c ||
        (char *)old < (char *)c->data || (char *)old + bytes > (char *)c->data + c->used)
        return;
    spare *b = old;
    b->next = a->spare[bytes / ALIGN];
    a->spare[bytes / ALIGN] = b;
}

/* A block of @bytes in a chunk of its own, placed behind the current chunk
 * (which keeps its room); NULL when memory runs out. */
static void *
own_block(xf_arena *a, size_t bytes)
{
    if (a->fail_after >= 0 && a->fail_after-- == 0)
        return refuse(a);
    size_t size = (bytes + ALIGN - 1) & ~(ALIGN - 1);
    if (size > SIZE_MAX - sizeof(chunk))
        return refuse(a);
    chunk *c = chunk_alloc(&size, 0);
    if (!c)
        return refuse(a);
    c->size = c->used = c->dirty = size;
    c->own = true;
    a->reserved += size;
    a->used += size;
    if (a->head) {
        c->next = a->head->next;
        a->head->next = c;
    } else {
        c->next = NULL;
        a->head = c;
    }
    return c->data;
}

/* Give back @old if it is a block of its own (own_block): the vector that
 * grew out of it has moved, and nothing may read it any more. */
static void
release_own(xf_arena *a, void *old)
{
    if (!old)
        return;
    for (chunk **pc = &a->head; *pc; pc = &(*pc)->next) {
        chunk *c = *pc;
        if ((void *)c->data != old)
            continue;
        if (!c->own)
            return;
        *pc = c->next;
        a->reserved -= c->size;
        a->used -= c->used;
        chunk_free(c);
        return;
    }
}

void *
xf_arena_big(xf_arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return refuse(a);
    return n * size >= OWN_BLOCK ? own_block(a, n * size) : xf_arena_alloc(a, n * size);
}

void
xf_arena_release(xf_arena *a, void *p, size_t bytes)
{
    if (bytes >= OWN_BLOCK) /* a smaller block cannot be one of its own */
        release_own(a, p);
}

void *
xf_arena_grow(xf_arena *a, void *old, size_t size, uint32_t n, uint32_t *cap, uint32_t need)
{
    uint32_t c = *cap ? *cap : 1; /* most vectors of a document hold one or two */
    while (c < need) {
        if (c > UINT32_MAX / 2)
            return refuse(a);
        c *= 2;
    }
    if (size && c > SIZE_MAX / size)
        return refuse(a);
    /* a vector filled with nothing allocated in between grows in place: no
     * block is left behind (a long block's statements, an expression's
     * vertices) */
    if (*cap && n <= *cap &&
        extend(a, old, (size_t)n * size, (size_t)*cap * size, (size_t)c * size)) {
        *cap = c;
        return old;
    }
    if ((size_t)c * size >= OWN_BLOCK) {
        /* a long vector: its blocks get chunks of their own, and the one it
         * leaves goes back to the system (doubling in place would leave
         * as much behind as the vector holds) */
        void *p = own_block(a, (size_t)c * size);
        if (!p)
            return NULL;
        if (n)
            memcpy(p, old, (size_t)n * size);
        release_own(a, old);
        *cap = c;
        return p;
    }
    void *p = xf_arena_array(a, c, size);
    if (!p)
        return NULL;
    if (n)
        memcpy(p, old, (size_t)n * size);
    keep_spare(a, old, (size_t)*cap * size);
    *cap = c;
    return p;
}

char *
xf_arena_strndup(xf_arena *a, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return refuse(a);
    char *p = xf_arena_alloc(a, len + 1);
    if (p)
        memcpy(p, s, len);
    return p;
}

void
xf_arena_reset(xf_arena *a)
{
    chunk *keep = a->head;
    if (!keep)
        return;
    for (chunk *c = keep->next, *n; c; c = n) {
        n = c->next;
        chunk_free(c);
    }
    keep->next = NULL;
    keep->used = 0;
    keep->own = false; /* a chunk for everything now */
    memset(a->spare, 0, sizeof a->spare);
    a->used = 0;
    a->reserved = keep->size;
}

size_t
xf_arena_used(const xf_arena *a)
{
    return a->used;
}

size_t
xf_arena_reserved(const xf_arena *a)
{
    return a->reserved;
}

void
xf_arena_fail_after(xf_arena *a, long n)
{
    a->fail_after = n;
}

void
xf_arena_fail_kids(xf_arena *a, long n)
{
    a->fail_kids = n;
}

bool
xf_arena_failed(const xf_arena *a)
{
    return a && a->failed;
}

void *
xf_arena_vgrow(xf_arena *a, void *old, size_t size, uint32_t n, uint32_t *cap)
{
    void *p = xf_arena_grow(a, old, size, n, cap, n + 1);
    return p ? p : old;
}
