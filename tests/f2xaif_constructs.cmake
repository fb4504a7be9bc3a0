# f2xaif_constructs.cmake: the constructs of Fortran that `xaiform f2xaif`
# lowers (tests/f/constructs.f90: array sections, ranks 4 and 5, SELECT
# CASE, GOTO, ALLOCATE and allocated, lbound/ubound/size, transpose,
# maxloc/minloc, present, a DO loop whose step is a variable, y = x of
# assumed-shape arrays, sections passed to routines), each a top routine
# whose tangent is run and checked against derivatives worked out by hand
# at the driver's x = (0.5, 1, 1.5, 2); and the refusals that go with
# them (tests/f/refused_more.f90), with FILE:LINE:COL and no output.
set(failed 0)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

set(src ${SRC}/tests/f/constructs.f90)
# routine, then "F(  i,  j)=   value" entries of its tangent
set(sections "F(  1,  1)=   2.0" "F(  1,  2)=   1.0" "F(  2,  3)=   2.0" "F(  3,  4)=   3.0")
set(rank4 "F(  1,  1)=   2.0" "F(  1,  2)= 500.0" "F(  2,  3)=   2.0" "F(  2,  4)=   1.5")
set(cases "F(  1,  1)=   3.0" "F(  2,  2)=   2.0" "F(  3,  3)=   3.0")
set(jumps "F(  1,  1)=   1.0" "F(  2,  2)=   5.0" "F(  3,  3)=   5.0")
set(allocs "F(  1,  1)=   6.0" "F(  1,  3)=   2.0" "F(  2,  2)=   1.0" "F(  3,  3)=   0.0")
set(inquiry "F(  1,  2)=   4.0" "F(  2,  3)=   4.0" "F(  3,  1)=   2.0" "F(  3,  4)= 500.0")
set(steps "F(  1,  1)=   3.0" "F(  2,  1)=   1.5" "F(  2,  3)= 500.0" "F(  2,  2)=   0.0")
set(copies "F(  1,  2)=   1.5" "F(  1,  3)=   1.0" "F(  2,  4)=   1.0" "F(  2,  3)=   0.0")
set(secargs "F(  1,  3)=   6.0" "F(  2,  2)=  54.0" "F(  2,  3)=  36.0" "F(  3,  4)=   2.0")
set(locs "F(  1,  3)=   1.0" "F(  1,  2)=   0.0" "F(  2,  1)=   2.0" "F(  2,  2)=   0.0")
# two halves (PART 1 and 2), two ctests: each under a minute under the
# sanitizers
if(PART EQUAL 1)
  set(routines sections rank4 cases jumps allocs)
else()
  set(routines inquiry steps copies secargs locs)
endif()
foreach(fn ${routines})
  set(out ${TMP}/f2xaif-${fn}.xaif)
  file(REMOVE ${out} ${TMP}/f2xaif-${fn}.d.xaif)
  expect(0 "" f2xaif ${src} --function ${fn} -o ${out})
  expect(0 "1 valid, 0 invalid" validate ${out})
  expect(0 "" tangent ${out} -o ${TMP}/f2xaif-${fn}.d.xaif)
  execute_process(COMMAND ${XAIFORM} run ${TMP}/f2xaif-${fn}.d.xaif --top ${fn} --driver tangent
                  -n 4 -m 3 RESULT_VARIABLE rc OUTPUT_VARIABLE got ERROR_VARIABLE err)
  foreach(want ${${fn}})
    string(FIND "${got}" "${want}" at)
    if(NOT rc EQUAL 0 OR at EQUAL -1)
      message("[FAIL] ${fn}: the tangent has no ${want} (exit ${rc}):\n${got}${err}")
      set(failed 1)
    endif()
  endforeach()
endforeach()

if(PART EQUAL 1)
  set(refusals varsec varalloc)
else()
  set(refusals stride gotoend)
endif()
set(bad ${SRC}/tests/f/refused_more.f90)
set(out ${TMP}/f2xaif-refused-more${PART}.xaif)
file(REMOVE ${out})
foreach(case
    "varsec|refused_more.f90:7:3: error: a section of 'x' whose bounds are not constants"
    "varalloc|refused_more.f90:15:3: error: ALLOCATE of 'a' is not supported"
    "stride|refused_more.f90:23:3: error: a section of 'x' with a stride other than 1"
    "gotoend|refused_more.f90:32:23: error: GOTO 10: its label is not on a simple statement")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 fn)
  list(GET case 1 msg)
  list(FIND refusals ${fn} at)
  if(at EQUAL -1)
    continue()
  endif()
  expect(1 "${msg}" f2xaif ${bad} --function ${fn} --independent x --dependent y -o ${out})
endforeach()
if(EXISTS ${out})
  message("[FAIL] a refused translation left an output")
  set(failed 1)
endif()

if(failed)
  message(FATAL_ERROR "f2xaif_constructs: some checks failed")
endif()
