/* arena.h: region allocator; everything of one document lives in one arena
 * and is released at once by xf_arena_free. */
#ifndef XF_ENGINE_ARENA_H
#define XF_ENGINE_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct xf_arena xf_arena;

/**
 * xf_arena_new:
 * Create an empty arena.
 * @returns the arena (free with xf_arena_free), or NULL when out of memory.
 */
xf_arena *xf_arena_new(void);

/** xf_arena_free: release the arena and every block it handed out. NULL is allowed. */
void xf_arena_free(xf_arena *a);

/**
 * xf_arena_alloc:
 * @a: the arena
 * @size: bytes wanted
 * @returns zeroed memory aligned for any object, owned by @a; NULL when out of memory
 * (or when the failure hook says so).
 */
void *xf_arena_alloc(xf_arena *a, size_t size);

/**
 * xf_arena_array:
 * Zeroed room for @n objects of @size bytes; NULL if n * size overflows or memory runs out.
 */
void *xf_arena_array(xf_arena *a, size_t n, size_t size);

/**
 * xf_arena_grow:
 * Room for at least @need objects of @size bytes, keeping the first @n of @old.
 * Updates *@cap. When @old is the last block handed out and the chunk has room,
 * it grows in place and is returned; otherwise the first @n objects move to a
 * new block and @old is kept for a later request of its size, or, when it is
 * large (a block of its own, 64 KB or more), given back to the system: nothing
 * may read or write @old (or a pointer into it) after the call.
 * @returns the new block, or NULL (then @old is untouched).
 */
void *xf_arena_grow(xf_arena *a, void *old, size_t size, uint32_t n, uint32_t *cap, uint32_t need);

/**
 * xf_arena_big:
 * Zeroed room for @n objects of @size bytes, as xf_arena_array, but a large
 * block (64 KB or more) gets a chunk of its own, which xf_arena_release can
 * give back: for a table that is replaced by a larger one as it fills.
 */
void *xf_arena_big(xf_arena *a, size_t n, size_t size);

/**
 * xf_arena_release:
 * Give back @p, a block of @bytes bytes from xf_arena_big, when it has a
 * chunk of its own (otherwise nothing happens; a small block is not even
 * looked for). Nothing may read or write @p after the call.
 */
void xf_arena_release(xf_arena *a, void *p, size_t bytes);

/** xf_arena_strdup: a copy of @s (@len bytes, NUL added) in the arena. */
char *xf_arena_strndup(xf_arena *a, const char *s, size_t len);

/** xf_arena_reset: forget everything handed out (keeping one chunk for reuse), as for a
 * scratch arena emptied between statements. */
void xf_arena_reset(xf_arena *a);

/** xf_arena_used: bytes handed out so far (for tests and benchmarks). */
size_t xf_arena_used(const xf_arena *a);

/** xf_arena_reserved: bytes obtained from the system so far. */
size_t xf_arena_reserved(const xf_arena *a);

/**
 * xf_arena_fail_after:
 * Test hook: make the allocation after the next @n ones fail (n = -1: never).
 */
void xf_arena_fail_after(xf_arena *a, long n);

/**
 * xf_arena_fail_kids:
 * Test hook: every arena xf_arena_new_like(@a) makes from now on refuses
 * its (@n + 1)-th request, and passes the hook on (n = -1: never).
 */
void xf_arena_fail_kids(xf_arena *a, long n);

/**
 * xf_arena_new_like:
 * A new arena, as xf_arena_new, for a pass's private tables beside @like
 * (NULL: none), with the failure hook xf_arena_fail_kids set on @like, so
 * that a test's injected refusals reach the private arenas too.
 */
xf_arena *xf_arena_new_like(const xf_arena *like);

/**
 * xf_arena_failed:
 * Has @a refused a request (out of memory, an overflowing size, or the
 * failure hook)? Sticky: once true, true until the arena is freed. The pass
 * manager and the verbs check it, so that a refusal a caller did not check
 * still ends in "out of memory" rather than in a wrong result. NULL: false.
 */
bool xf_arena_failed(const xf_arena *a);

/**
 * xf_arena_vgrow:
 * XF_VEC_PUSH's growth by one: xf_arena_grow to @n + 1 objects, but
 * when that fails @old is returned and *@cap is unchanged, so that the
 * vector keeps its elements (and the push reports failure).
 */
void *xf_arena_vgrow(xf_arena *a, void *old, size_t size, uint32_t n, uint32_t *cap);

/* A growable array of T in an arena: XF_VEC(T) name; then XF_VEC_PUSH. */
#define XF_VEC(T)                                                                                  \
    struct {                                                                                       \
        T *v;                                                                                      \
        uint32_t n, cap;                                                                           \
    }

/* Append @val to @vec; evaluates to 1 on success, 0 when out of memory
 * (then @vec is unchanged: its elements stay readable, and
 * xf_arena_failed(@a) is true). */
#define XF_VEC_PUSH(a, vec, val)                                                                   \
    (((vec).n < (vec).cap ||                                                                       \
      ((vec).v = xf_arena_vgrow((a), (vec).v, sizeof *(vec).v, (vec).n, &(vec).cap),               \
       (vec).n < (vec).cap))                                                                       \
         ? ((vec).v[(vec).n++] = (val), 1)                                                         \
         : 0)

/* Allocate one zeroed T in @a. */
#define XF_NEW(a, T) ((T *)xf_arena_alloc((a), sizeof(T)))
/* Allocate n zeroed T in @a; NULL on overflow of n * sizeof(T). */
#define XF_NEW_ARRAY(a, n, T) ((T *)xf_arena_array((a), (n), sizeof(T)))

#endif
