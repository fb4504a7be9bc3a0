# f2xaif.cmake: `xaiform f2xaif` on the command line (the Fortran front end,
# Flang 19): a translation with a loop, a branch, calls, intrinsics and a
# module variable that validates and runs to the values the Fortran
# computes; pragmas and options for the (in)dependents; refusals with
# FILE:LINE:COL and no output; usage errors.
set(failed 0)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

set(f ${SRC}/tests/f)
set(out ${TMP}/f2xaif-sample.xaif)
file(REMOVE ${out})
# the module's file after its user: modules are read first whatever the order
expect(0 "" f2xaif ${f}/sample.f90 ${f}/sample_mod.f90 --function head -o ${out})
expect(0 "1 valid, 0 invalid" validate ${out})
# x = (0.5, 1, 1.5): y1 = 2 (sin .5 + sin 1 + sin 1.5), y2 = max(.5, 1.5), y3 = .25 + 2.25 + 2
expect(0 "Y(  1)=   4.6367830200323077E+000" run ${out} --driver plain -n 3 -m 3)
expect(0 "Y(  2)=   1.5000000000000000E+000" run ${out} --driver plain -n 3 -m 3)
expect(0 "Y(  3)=   4.5000000000000000E+000" run ${out} --driver plain -n 3 -m 3)
# the tangent of it: dy3/dx2 = 2 (twice), dy1/dx1 = 2 cos(.5)
expect(0 "" tangent ${out} -o ${TMP}/f2xaif-sample.d.xaif)
expect(0 "F(  3,  2)=   2.0000000000000000E+000" run ${TMP}/f2xaif-sample.d.xaif --driver tangent
       -n 3 -m 3)
expect(0 "F(  1,  1)=   1.7551651237807455E+000" run ${TMP}/f2xaif-sample.d.xaif --driver tangent
       -n 3 -m 3)
file(READ ${out} text)
foreach(want "symbol_id=\"scale\"" "symbol_id=\"twice\"" "symbol_id=\"square_sum\""
        "<xaif:ForLoop" "<xaif:Branch" "lower=\"1\" upper=\"3\"" "name=\"sin_scal\"")
  string(FIND "${text}" "${want}" at)
  if(at EQUAL -1)
    message("[FAIL] f2xaif-sample.xaif has no ${want}")
    set(failed 1)
  endif()
endforeach()

# options instead of the pragmas: y(1) does not depend on x(3) through y(3) only
expect(0 "" f2xaif ${f}/sample_mod.f90 ${f}/sample.f90 --function HEAD --independent x
       --dependent y -o ${TMP}/f2xaif-opts.xaif)
expect(0 "" compare ${out} ${TMP}/f2xaif-opts.xaif)

# refusals: FILE:LINE:COL, exit status 1, nothing written
file(REMOVE ${TMP}/f2xaif-refused.xaif)
expect(1 "refused.f90:6:3: error: i/o is not supported (move the I/O to the driver"
       f2xaif ${f}/refused.f90 --function head --independent x --dependent y -o ${TMP}/f2xaif-refused.xaif)
expect(1 "refused.f90:2: error: no independents for 'head'" f2xaif ${f}/refused.f90
       --function head --dependent y -o ${TMP}/f2xaif-refused.xaif)
expect(1 "error: no subroutine or function 'nosuch'" f2xaif ${f}/refused.f90
       --function nosuch -o ${TMP}/f2xaif-refused.xaif)
file(WRITE ${TMP}/f2xaif-bad.f90
     "subroutine head(x, y)\n  implicit none\n  real :: x(1), y(1)\n  y(1) = z\nend\n")
expect(1 "f2xaif-bad.f90:4:10: error: No explicit type declared for 'z'" f2xaif
       ${TMP}/f2xaif-bad.f90 --function head -o ${TMP}/f2xaif-refused.xaif)
if(EXISTS ${TMP}/f2xaif-refused.xaif)
  message("[FAIL] a refused translation left an output")
  set(failed 1)
endif()

expect(2 "the top routine is missing" f2xaif ${f}/sample.f90 -o ${TMP}/f2xaif-x.xaif)
expect(2 "a Fortran file is needed" f2xaif --function head -o ${TMP}/f2xaif-x.xaif)

if(failed)
  message(FATAL_ERROR "f2xaif: some checks failed")
endif()
