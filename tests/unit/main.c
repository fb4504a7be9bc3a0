/* main.c: the unit test runner: every suite; CK_RUN_SUITE=name runs one.
 * No test has a time limit: Check's default of 4 s per test failed tests on
 * a busy machine, and a test's result must not depend on the clock. A hang
 * is caught by ctest's own limit. */
#include <check.h>
#include <libxml/parser.h>
#include <stdlib.h>

#include "suites.h"

int
main(void)
{
    xmlInitParser();
    /* read by tcase_create: 0 is no limit; an explicit setting wins */
    setenv("CK_DEFAULT_TIMEOUT", "0", 0);
    SRunner *sr = srunner_create(test_arena_suite());
    srunner_add_suite(sr, test_map_suite());
    srunner_add_suite(sr, test_diag_suite());
    srunner_add_suite(sr, test_read_suite());
    srunner_add_suite(sr, test_write_suite());
    srunner_add_suite(sr, test_attrs_suite());
    srunner_add_suite(sr, test_schema_suite());
    srunner_add_suite(sr, test_compare_suite());
    srunner_add_suite(sr, test_run_suite());
    srunner_add_suite(sr, test_oad_suite());
    srunner_add_suite(sr, test_tangent_suite());
    srunner_add_suite(sr, test_adjoint_suite());
    srunner_add_suite(sr, test_output_suite());
    srunner_add_suite(sr, test_batch_suite());
    srunner_add_suite(sr, test_dot_suite());
    srunner_add_suite(sr, test_outfile_suite());
    srunner_add_suite(sr, test_check_suite());
    srunner_add_suite(sr, test_names_suite());
    srunner_add_suite(sr, test_ir_check_suite());
    srunner_add_suite(sr, test_catalogue_suite());
    srunner_add_suite(sr, test_lcg_suite());
    srunner_add_suite(sr, test_unstruct_suite());
    srunner_add_suite(sr, test_checkpoint_suite());
    srunner_add_suite(sr, test_addr_suite());
    srunner_add_suite(sr, test_callfacts_suite());
    srunner_add_suite(sr, test_stream_suite());
    srunner_add_suite(sr, test_tbr_suite());
    srunner_add_suite(sr, test_adjops_suite());
#ifdef XF_C_FRONTEND
    srunner_add_suite(sr, test_c2xaif_suite());
#endif
    srunner_add_suite(sr, test_loopdep_suite());
    srunner_add_suite(sr, test_oom_suite());
    srunner_add_suite(sr, test_iterdry_suite());
    srunner_add_suite(sr, test_iterwise_suite());
    srunner_add_suite(sr, test_deadstore_suite());
    srunner_add_suite(sr, test_passmgr_suite());
    srunner_add_suite(sr, test_xaif2c_suite());
    srunner_add_suite(sr, test_xaif2f_marker_suite());
    srunner_add_suite(sr, test_walk_suite());
    /* XF_UNIT_SMALL: without the scale suite (100 000-deep expressions, long
     * blocks), for valgrind, under which it would take most of CI's time */
    if (!getenv("XF_UNIT_SMALL"))
        srunner_add_suite(sr, test_scale_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    xmlCleanupParser();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
