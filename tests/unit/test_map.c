/* test_map.c: the pointer-keyed hash map, and interning. */
#include <stdio.h>

#include "arena.h"
#include "map.h"
#include "strtab.h"
#include "suites.h"

START_TEST(put_get_replace)
{
    xf_arena *a = xf_arena_new();
    xf_strtab *t = xf_strtab_new();
    xf_map m = {0};
    const char *keys[2000];
    char buf[32];
    for (int i = 0; i < 2000; i++) {
        snprintf(buf, sizeof buf, "id_%d", i);
        keys[i] = xf_strtab_intern(t, buf, -1);
        ck_assert(xf_map_put(&m, a, keys[i], (void *)(intptr_t)(i + 1), NULL));
    }
    ck_assert_uint_eq(m.n, 2000);
    for (int i = 0; i < 2000; i++) {
        snprintf(buf, sizeof buf, "id_%d", i);
        /* interning gives the same pointer, so the map finds it */
        ck_assert_ptr_eq(xf_strtab_intern(t, buf, -1), keys[i]);
        ck_assert_int_eq((intptr_t)xf_map_get(&m, keys[i]), i + 1);
    }
    void *old;
    ck_assert(xf_map_put(&m, a, keys[5], (void *)(intptr_t)99, &old));
    ck_assert_int_eq((intptr_t)old, 6);
    ck_assert_int_eq((intptr_t)xf_map_get(&m, keys[5]), 99);
    ck_assert_uint_eq(m.n, 2000);
    ck_assert_ptr_null(xf_map_get(&m, xf_strtab_intern(t, "other", -1)));
    xf_map_clear(&m);
    ck_assert_ptr_null(xf_map_get(&m, keys[5]));
    ck_assert_uint_eq(xf_strtab_size(t), 2001);
    xf_strtab_free(t);
    xf_arena_free(a);
}
END_TEST

/* A map of 200 000 keys (tables of 4 MB at the end) holds its last tables,
 * not every table it grew through (2 * last; besides them, the small tables
 * and a chunk of 2 MB where huge pages are used). */
START_TEST(a_large_maps_old_tables_are_given_back)
{
    xf_arena *a = xf_arena_new();
    xf_map m = {0};
    static char keys[200000];
    bool ok = true; /* one assertion per loop: Check reports each to its parent */
    for (int i = 0; i < 200000; i++)
        ok = ok && xf_map_put(&m, a, &keys[i], (void *)(intptr_t)(i + 1), NULL);
    ck_assert(ok);
    for (int i = 0; i < 200000; i++)
        ok = ok && (intptr_t)xf_map_get(&m, &keys[i]) == i + 1;
    ck_assert(ok);
    size_t last = (size_t)m.cap * (sizeof *m.keys + sizeof *m.vals);
    ck_assert_uint_lt(xf_arena_reserved(a), last + last / 2);
    xf_arena_free(a);
}
END_TEST

START_TEST(empty_map_and_null_key)
{
    xf_map m = {0};
    ck_assert_ptr_null(xf_map_get(&m, "x"));
    ck_assert_ptr_null(xf_map_get(&m, NULL));
}
END_TEST

Suite *
test_map_suite(void)
{
    Suite *s = suite_create("map");
    TCase *tc = tcase_create("map");
    tcase_add_test(tc, put_get_replace);
    tcase_add_test(tc, empty_map_and_null_key);
    tcase_add_test(tc, a_large_maps_old_tables_are_given_back);
    suite_add_tcase(s, tc);
    return s;
}
