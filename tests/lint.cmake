# lint.format: every source as clang-format (.clang-format) would write it;
# lint.commits: commit subjects of at most 72 characters (CONTRIBUTING.md).
# Both are skipped (exit 77) where their tool or the history is missing.
if(CLANG_FORMAT)
  add_test(NAME lint.format COMMAND ${CLANG_FORMAT} --dry-run -Werror ${XF_LINT_SOURCES})
else()
  add_test(NAME lint.format COMMAND sh -c "echo 'clang-format not found: install clang-format'; exit 77")
endif()
set_tests_properties(lint.format PROPERTIES LABELS lint SKIP_RETURN_CODE 77)
add_test(NAME lint.commits COMMAND ${CMAKE_SOURCE_DIR}/tools/check-commits.sh)
set_tests_properties(lint.commits PROPERTIES LABELS lint SKIP_RETURN_CODE 77)
