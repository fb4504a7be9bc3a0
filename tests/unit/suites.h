/* suites.h: one Check suite per module. */
#ifndef XF_TESTS_SUITES_H
#define XF_TESTS_SUITES_H

#include <check.h>

Suite *test_arena_suite(void);
Suite *test_map_suite(void);
Suite *test_diag_suite(void);
Suite *test_read_suite(void);
Suite *test_write_suite(void);
Suite *test_attrs_suite(void);
Suite *test_schema_suite(void);
Suite *test_compare_suite(void);
Suite *test_run_suite(void);
Suite *test_tangent_suite(void);
Suite *test_adjoint_suite(void);
Suite *test_output_suite(void);
Suite *test_batch_suite(void);
Suite *test_dot_suite(void);
Suite *test_outfile_suite(void);
Suite *test_oad_suite(void);
Suite *test_check_suite(void);
Suite *test_names_suite(void);
Suite *test_ir_check_suite(void);
Suite *test_catalogue_suite(void);
Suite *test_lcg_suite(void);
Suite *test_scale_suite(void);
Suite *test_unstruct_suite(void);
Suite *test_checkpoint_suite(void);
Suite *test_xaif2f_marker_suite(void);
Suite *test_addr_suite(void);
Suite *test_stream_suite(void);
Suite *test_callfacts_suite(void);
Suite *test_tbr_suite(void);
Suite *test_deadstore_suite(void);
Suite *test_adjops_suite(void);
Suite *test_c2xaif_suite(void);
Suite *test_loopdep_suite(void);
Suite *test_oom_suite(void);
Suite *test_iterdry_suite(void);
Suite *test_iterwise_suite(void);
Suite *test_xaif2c_suite(void);
Suite *test_walk_suite(void);
Suite *test_passmgr_suite(void);

#endif
