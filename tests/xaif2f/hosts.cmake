# hosts.cmake: the adjoint of internal procedures that read and write their
# host's variables by host association (tests/xaif2f/hosts/README.md):
# `check` on the six examples, each Jacobian against the one worked out by
# hand. PART=xaif: the three xaif modes (interpreted; 18 passes wanted);
# PART=f90: the two adjoint modes of xaif2f (compiled by gfortran; 12
# passes wanted, skipped without gfortran; the tangents of internal
# procedures as Fortran are examples.cmake's). Two ctests, each under a
# minute.
set(failed 0)
if(PART STREQUAL "xaif")
  set(modes --mode tangent --mode adjoint-joint --mode adjoint-split)
  set(want 18)
elseif(PART STREQUAL "f90")
  find_program(FC NAMES gfortran)
  if(NOT FC)
    message("not run: no gfortran")
    return()
  endif()
  set(want 12)
  set(modes --mode xaif2f-adjoint-joint --mode xaif2f-adjoint-split)
else()
  message(FATAL_ERROR "PART=${PART}: xaif or f90 is wanted")
endif()
file(MAKE_DIRECTORY ${TMP})
set(ENV{TMPDIR} ${TMP})
execute_process(COMMAND ${XAIFORM} check ${modes} ${SRC}/tests/xaif2f/hosts RESULT_VARIABLE rc
  OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REGEX MATCHALL "PASS  [a-z2-]+ +host(read|write|over|rerun|int|loop)" passed "${out}")
list(LENGTH passed np)
if(NOT rc EQUAL 0 OR NOT np EQUAL want)
  message("[FAIL] check on tests/xaif2f/hosts: ${np} passes of ${want}:\n${out}")
  set(failed 1)
endif()
if(failed)
  message(FATAL_ERROR "xaif2f hosts: failures above")
endif()
