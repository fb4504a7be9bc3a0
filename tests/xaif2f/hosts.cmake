# hosts.cmake: the adjoint of internal procedures that read and write their
# host's variables by host association (tests/xaif2f/hosts/README.md):
# `check` on the three examples in the three xaif modes and, with gfortran,
# the three xaif2f modes, each Jacobian against the one worked out by hand
# (9 or 18 passes wanted).
set(failed 0)
set(modes --mode tangent --mode adjoint-joint --mode adjoint-split)
set(want 9)
find_program(FC NAMES gfortran)
if(FC)
  list(APPEND modes --mode xaif2f-tangent --mode xaif2f-adjoint-joint --mode xaif2f-adjoint-split)
  set(want 18)
else()
  message("no gfortran: the xaif2f modes are not run")
endif()
file(MAKE_DIRECTORY ${TMP})
set(ENV{TMPDIR} ${TMP})
execute_process(COMMAND ${XAIFORM} check ${modes} ${SRC}/tests/xaif2f/hosts RESULT_VARIABLE rc
  OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REGEX MATCHALL "PASS  [a-z2-]+ +host(read|write|over)" passed "${out}")
list(LENGTH passed np)
if(NOT rc EQUAL 0 OR NOT np EQUAL want)
  message("[FAIL] check on tests/xaif2f/hosts: ${np} passes of ${want}:\n${out}")
  set(failed 1)
endif()
if(failed)
  message(FATAL_ERROR "xaif2f hosts: failures above")
endif()
