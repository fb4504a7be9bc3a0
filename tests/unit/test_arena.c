/* test_arena.c: the region allocator. */
#include <stdint.h>
#include <string.h>

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

Suite *
test_arena_suite(void)
{
    Suite *s = suite_create("arena");
    TCase *tc = tcase_create("alloc");
    tcase_add_test(tc, alloc_is_zeroed_and_aligned);
    tcase_add_test(tc, big_blocks_do_not_waste_the_chunk);
    tcase_add_test(tc, array_overflow_is_refused);
    tcase_add_test(tc, vectors_grow_and_keep_contents);
    tcase_add_test(tc, failure_hook_fails_the_nth_allocation);
    tcase_add_test(tc, strndup_copies);
    suite_add_tcase(s, tc);
    return s;
}
