/* test_arena.c: the region allocator. */
#define _DEFAULT_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "arena.h"
#include "suites.h"

START_TEST(alloc_is_zeroed_and_aligned)
{
    xf_arena *a = xf_arena_new();
    ck_assert_ptr_nonnull(a);
    for (size_t n = 1; n < 300; n += 7) {
        unsigned char *p = xf_arena_alloc(a, n);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq((uintptr_t)p % _Alignof(max_align_t), 0);
        for (size_t i = 0; i < n; i++)
            ck_assert_uint_eq(p[i], 0);
        memset(p, 0xab, n);
    }
    ck_assert_uint_ge(xf_arena_used(a), 1);
    xf_arena_free(a);
}
END_TEST

START_TEST(big_blocks_do_not_waste_the_chunk)
{
    xf_arena *a = xf_arena_new();
    char *small1 = xf_arena_alloc(a, 16);
    char *big = xf_arena_alloc(a, 10 * 1024 * 1024);
    char *small2 = xf_arena_alloc(a, 16);
    ck_assert_ptr_nonnull(big);
    /* the small ones share the first chunk, the big one has its own */
    ck_assert_int_eq(small2 - small1, 16);
    xf_arena_free(a);
}
END_TEST

START_TEST(array_overflow_is_refused)
{
    xf_arena *a = xf_arena_new();
    ck_assert_ptr_null(xf_arena_array(a, SIZE_MAX / 2, 4));
    ck_assert_ptr_nonnull(xf_arena_array(a, 10, 4));
    xf_arena_free(a);
}
END_TEST

START_TEST(vectors_grow_and_keep_contents)
{
    xf_arena *a = xf_arena_new();
    XF_VEC(int) v = {0};
    for (int i = 0; i < 1000; i++)
        ck_assert(XF_VEC_PUSH(a, v, i * 3));
    ck_assert_uint_eq(v.n, 1000);
    ck_assert_uint_ge(v.cap, 1000);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(v.v[i], i * 3);
    xf_arena_free(a);
}
END_TEST

START_TEST(a_vector_alone_grows_in_place)
{
    xf_arena *a = xf_arena_new();
    XF_VEC(int64_t) v = {0};
    ck_assert(XF_VEC_PUSH(a, v, 1));
    int64_t *first = v.v;
    for (int64_t i = 1; i < 100; i++)
        ck_assert(XF_VEC_PUSH(a, v, 7 * i + 1));
    /* nothing allocated in between: the same block, 128 slots, no copy left behind */
    ck_assert_ptr_eq(v.v, first);
    ck_assert_uint_eq(v.cap, 128);
    ck_assert_uint_eq(xf_arena_used(a), 128 * sizeof(int64_t));
    for (int64_t i = 0; i < 100; i++)
        ck_assert_int_eq(v.v[i], 7 * i + 1);
    for (uint32_t i = v.n; i < v.cap; i++)
        ck_assert_int_eq(v.v[i], 0);
    xf_arena_free(a);
}
END_TEST

START_TEST(a_grown_vectors_old_block_is_handed_out_again_zeroed)
{
    xf_arena *a = xf_arena_new();
    XF_VEC(int64_t) v = {0};
    ck_assert(XF_VEC_PUSH(a, v, 1));
    ck_assert(XF_VEC_PUSH(a, v, 2)); /* in place: 2 slots */
    int64_t *old = v.v;
    char *between = xf_arena_alloc(a, 1); /* v's block is no longer the last */
    ck_assert_ptr_nonnull(between);
    ck_assert(XF_VEC_PUSH(a, v, 3)); /* moves: 4 slots elsewhere */
    ck_assert_ptr_ne(v.v, old);
    ck_assert_int_eq(v.v[0], 1);
    ck_assert_int_eq(v.v[2], 3);
    /* the next request of the old block's size gets it, cleared */
    int64_t *again = xf_arena_alloc(a, 2 * sizeof(int64_t));
    ck_assert_ptr_eq(again, old);
    ck_assert_int_eq(again[0], 0);
    ck_assert_int_eq(again[1], 0);
    /* and only once: the one after is new */
    ck_assert_ptr_ne(xf_arena_alloc(a, 2 * sizeof(int64_t)), old);
    /* a reset forgets the kept blocks with the rest */
    XF_VEC(int64_t) w = {0};
    ck_assert(XF_VEC_PUSH(a, w, 1));
    ck_assert(xf_arena_alloc(a, 1));
    ck_assert(XF_VEC_PUSH(a, w, 2));
    xf_arena_reset(a);
    ck_assert_uint_eq(xf_arena_used(a), 0);
    int64_t *fresh = xf_arena_alloc(a, sizeof(int64_t));
    ck_assert_ptr_nonnull(fresh);
    ck_assert_int_eq(*fresh, 0);
    xf_arena_free(a);
}
END_TEST

/* A vector that grows past 64 kB, with other allocations in between (so
 * that it cannot grow in place), gives each block it leaves back: the arena
 * holds its last block and little else, not the sum of all its sizes. */
START_TEST(a_long_vectors_old_blocks_are_given_back)
{
    xf_arena *a = xf_arena_new();
    XF_VEC(int64_t) v = {0};
    /* one assertion per loop: Check reports every ck_assert to its parent */
    bool ok = true;
    for (int64_t i = 0; i < 1000000; i++) {
        ok = ok && XF_VEC_PUSH(a, v, 3 * i);
        if (i % 1000 == 0)
            ok = ok && xf_arena_alloc(a, 8);
    }
    ck_assert(ok);
    for (int64_t i = 0; i < 1000000; i++)
        ok = ok && v.v[i] == 3 * i;
    for (uint32_t i = v.n; i < v.cap; i++)
        ok = ok && v.v[i] == 0;
    ck_assert(ok);
    size_t last = (size_t)v.cap * sizeof(int64_t); /* 8 MB */
    /* doubling without giving back would hold 2 * last (the rest: the
     * small blocks, and a chunk of 2 MB where huge pages are used) */
    ck_assert_uint_lt(xf_arena_reserved(a), last + last / 2);
    ck_assert_uint_ge(xf_arena_reserved(a), last);
    /* a reset gives the vector's block back too; the arena works on */
    xf_arena_reset(a);
    ck_assert_uint_lt(xf_arena_reserved(a), last);
    int64_t *p = xf_arena_alloc(a, 100 * sizeof(int64_t));
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p[99], 0);
    xf_arena_free(a);
}
END_TEST

/* xf_arena_big's large block is given back by xf_arena_release; a small one,
 * or a pointer the arena did not give as a block of its own, is left alone. */
START_TEST(a_big_block_is_released)
{
    xf_arena *a = xf_arena_new();
    char *small = xf_arena_big(a, 100, 1);
    ck_assert_ptr_nonnull(small);
    size_t base = xf_arena_reserved(a);
    char *big = xf_arena_big(a, 1 << 20, 1);
    ck_assert_ptr_nonnull(big);
    ck_assert_uint_eq(big[(1 << 20) - 1], 0);
    ck_assert_uint_ge(xf_arena_reserved(a), base + (1 << 20));
    xf_arena_release(a, small, 100);
    xf_arena_release(a, big + 1, 1 << 20);
    ck_assert_uint_ge(xf_arena_reserved(a), base + (1 << 20));
    xf_arena_release(a, big, 1 << 20);
    ck_assert_uint_eq(xf_arena_reserved(a), base);
    small[99] = 1; /* still the arena's */
    ck_assert_ptr_null(xf_arena_big(a, SIZE_MAX / 2, 4));
    xf_arena_free(a);
}
END_TEST

START_TEST(failure_hook_fails_the_nth_allocation)
{
    xf_arena *a = xf_arena_new();
    xf_arena_fail_after(a, 2);
    ck_assert_ptr_nonnull(xf_arena_alloc(a, 8));
    ck_assert_ptr_nonnull(xf_arena_alloc(a, 8));
    ck_assert_ptr_null(xf_arena_alloc(a, 8));
    ck_assert_ptr_nonnull(xf_arena_alloc(a, 8)); /* only that one */
    XF_VEC(int) v = {0};
    xf_arena_fail_after(a, 0);
    ck_assert(!XF_VEC_PUSH(a, v, 1));
    xf_arena_free(a);
}
END_TEST

START_TEST(strndup_copies)
{
    xf_arena *a = xf_arena_new();
    char *s = xf_arena_strndup(a, "abcdef", 3);
    ck_assert_str_eq(s, "abc");
    xf_arena_free(a);
}
END_TEST

/* Can this system map memory as huge pages, all in place (what the arena
 * asks for)? */
static bool
huge_pages_work(void)
{
#if defined(MAP_POPULATE) && defined(MADV_HUGEPAGE) && defined(MADV_POPULATE_WRITE)
    size_t len = (size_t)2 << 20;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return false;
    bool ok = madvise(p, len, MADV_HUGEPAGE) == 0 && madvise(p, len, MADV_POPULATE_WRITE) == 0;
    munmap(p, len);
    return ok;
#else
    return false;
#endif
}

/* The arena's chunks double from 16 kB; from 128 kB on, where the system
 * has huge pages, the next chunk is a whole 2 MB page instead, and all of it
 * is used before another is made. */
START_TEST(growth_past_128k_takes_a_whole_huge_page)
{
    if (!huge_pages_work())
        return;
    xf_arena *a = xf_arena_new();
    size_t before = 0;
    while (xf_arena_reserved(a) < 120 * 1024) {
        before = xf_arena_reserved(a);
        ck_assert_ptr_nonnull(xf_arena_alloc(a, 1024));
    }
    size_t mapped = xf_arena_reserved(a) - before;
    ck_assert_uint_ge(mapped, ((size_t)2 << 20) - 256);
    ck_assert_uint_le(mapped, (size_t)2 << 20);
    /* the rest of the page is handed out, zeroed, before any new chunk */
    size_t rest = mapped - 4096;
    unsigned char *p = xf_arena_alloc(a, rest);
    ck_assert_ptr_nonnull(p);
    for (size_t i = 0; i < rest; i += 4096)
        ck_assert_uint_eq(p[i], 0);
    memset(p, 1, rest);
    ck_assert_uint_eq(xf_arena_reserved(a) - before, mapped);
    xf_arena_free(a);
}
END_TEST

Suite *
test_arena_suite(void)
{
    Suite *s = suite_create("arena");
    TCase *tc = tcase_create("alloc");
    tcase_add_test(tc, alloc_is_zeroed_and_aligned);
    tcase_add_test(tc, big_blocks_do_not_waste_the_chunk);
    tcase_add_test(tc, array_overflow_is_refused);
    tcase_add_test(tc, vectors_grow_and_keep_contents);
    tcase_add_test(tc, a_vector_alone_grows_in_place);
    tcase_add_test(tc, a_grown_vectors_old_block_is_handed_out_again_zeroed);
    tcase_add_test(tc, a_long_vectors_old_blocks_are_given_back);
    tcase_add_test(tc, a_big_block_is_released);
    tcase_add_test(tc, failure_hook_fails_the_nth_allocation);
    tcase_add_test(tc, strndup_copies);
    tcase_add_test(tc, growth_past_128k_takes_a_whole_huge_page);
    suite_add_tcase(s, tc);
    return s;
}
