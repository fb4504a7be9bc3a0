# examples.cmake: the constructs of the Fortran back end that the corpus
# examples nestedFunc3, stringScan and dfdcfj need, on documents of the
# project's own (tests/xaif2f/examples/, OpenAD's regression layout, each
# reference worked out from the program in its header comment):
#   nested    internal procedures (CONTAINS) reaching the host's variables,
#             one with a local that has the host's name
#   strings   character arguments, a character variable, scan/len/trim and
#             a string comparison
#   optional  a top routine with a third formal that the drivers leave out
#             (absent), and present() of it
# The program, tangent and both adjoints of each are compiled with gfortran
# -std=f2008 -Wall -Werror; `check` runs each in the three xaif modes and the
# three xaif2f modes (18 passes wanted). Two refusals: a routine internal to
# an internal one, and a local array of strings (FILE:LINE, exit 1); and a
# module procedure (tests/xaif2f/modproc.xaif) written as one.
# PART=write: the refusals, the texts and the compiler runs; PART=check: the
# check runs (two ctests, each under a minute in the sanitizer build).
set(failed 0)
include(${SRC}/tests/expect.cmake)
file(MAKE_DIRECTORY ${TMP})
set(dir ${SRC}/tests/xaif2f)
find_program(FC NAMES gfortran)
if(PART STREQUAL "write")

expect(1 "deep.xaif:62: error: cannot write Fortran: bar is internal to foo, itself an internal procedure"
  xaif2f ${dir}/deep.xaif -o ${TMP}/deep.f90)
expect(1 "strarray.xaif:28: error: cannot write Fortran: S_1 is an array of strings that is no formal"
  xaif2f ${dir}/strarray.xaif -o ${TMP}/strarray.f90)
# a module's procedure (its scope's parent: a routine without code, in the
# adjoint one with empty placeholders) stays a module procedure: one CONTAINS
expect(0 "" tangent ${dir}/modproc.xaif -o ${TMP}/modproc.t.xaif)
expect(0 "" adjoint ${dir}/modproc.xaif -o ${TMP}/modproc.a.xaif)
expect(0 "" xaif2f ${TMP}/modproc.t.xaif -o ${TMP}/modproc_t.f90)
expect(0 "" xaif2f ${TMP}/modproc.a.xaif -o ${TMP}/modproc_j.f90)
foreach(k t j)
  file(READ ${TMP}/modproc_${k}.f90 got)
  string(REGEX MATCHALL "\ncontains\n" c "${got}")
  list(LENGTH c nc)
  if(NOT nc EQUAL 1)
    message("[FAIL] modproc_${k}.f90: ${nc} CONTAINS, foo is not a module procedure:\n${got}")
    set(failed 1)
  endif()
endforeach()
foreach(f deep strarray)
  if(EXISTS ${TMP}/${f}.f90)
    message("[FAIL] a refused document left ${TMP}/${f}.f90")
    set(failed 1)
  endif()
endforeach()

# what each tangent must say (a regular expression), beside compiling
set(want_nested "contains\n\nsubroutine foo_d\\(\\)\n  double precision :: t_2\n")
set(want_strings "  character\\(len=\\*\\) :: a\n  character\\(len=:\\), allocatable :: b\n")
set(want_optional "  double precision, optional :: s\n.*  if \\(present\\(s\\)\\) then\n")

foreach(ex nested strings optional)
  set(in ${dir}/examples/${ex}/tlm.xaif)
  expect(0 "" tangent ${in} -o ${TMP}/${ex}.t.xaif)
  expect(0 "" adjoint ${in} -o ${TMP}/${ex}.a.xaif)
  expect(0 "" xaif2f ${in} -o ${TMP}/${ex}_p.f90)
  expect(0 "" xaif2f ${TMP}/${ex}.t.xaif -o ${TMP}/${ex}_t.f90)
  expect(0 "" xaif2f ${TMP}/${ex}.a.xaif -o ${TMP}/${ex}_j.f90)
  expect(0 "" xaif2f ${TMP}/${ex}.a.xaif -o ${TMP}/${ex}_s.f90 --reversal split)
  if(ex STREQUAL optional) # the formals after y are optional only for check's drivers
    file(READ ${TMP}/${ex}_t.f90 got)
    if(got MATCHES "optional ::")
      message("[FAIL] ${ex}: OPTIONAL without check's driver:\n${got}")
      set(failed 1)
    endif()
  else()
    file(READ ${TMP}/${ex}_t.f90 got)
    if(NOT got MATCHES "${want_${ex}}")
      message("[FAIL] the tangent of ${ex} lacks /${want_${ex}}/:\n${got}")
      set(failed 1)
    endif()
  endif()
  if(FC) # one compiler run an example: the runtime module, then its four files
    file(MAKE_DIRECTORY ${TMP}/fc-${ex})
    execute_process(COMMAND ${FC} -std=f2008 -Wall -Werror -c ${SRC}/include/xaiform/xaiform_ad.f90
      ${TMP}/${ex}_p.f90 ${TMP}/${ex}_t.f90 ${TMP}/${ex}_j.f90 ${TMP}/${ex}_s.f90
      WORKING_DIRECTORY ${TMP}/fc-${ex} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
      message("[FAIL] gfortran -std=f2008 -Wall -Werror on ${ex}_{p,t,j,s}.f90:\n${out}")
      set(failed 1)
    endif()
  endif()
endforeach()

endif()

if(PART STREQUAL "check")
set(modes --mode tangent --mode adjoint-joint --mode adjoint-split)
set(want 9)
if(FC)
  list(APPEND modes --mode xaif2f-tangent --mode xaif2f-adjoint-joint --mode xaif2f-adjoint-split)
  set(want 18)
  # check's Fortran, kept, for the optional formal left out
  set(ENV{XF_KEEP_F90} 1)
  set(ENV{TMPDIR} ${TMP})
  file(GLOB old LIST_DIRECTORIES true ${TMP}/xaif2f-*)
  if(old)
    file(REMOVE_RECURSE ${old})
  endif()
endif()
execute_process(COMMAND ${XAIFORM} check ${modes} ${dir}/examples RESULT_VARIABLE rc
  OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REGEX MATCHALL "PASS  [a-z2-]+ +(nested|strings|optional)" passed "${out}")
list(LENGTH passed np)
if(NOT rc EQUAL 0 OR NOT np EQUAL want)
  message("[FAIL] check on tests/xaif2f/examples: ${np} passes of ${want}:\n${out}")
  set(failed 1)
endif()
if(FC)
  unset(ENV{XF_KEEP_F90})
  file(GLOB kept LIST_DIRECTORIES true ${TMP}/xaif2f-*)
  set(seen 0)
  foreach(k ${kept})
    if(EXISTS ${k}/f.f90)
      file(READ ${k}/f.f90 got)
      if(got MATCHES "subroutine head_[db]\\(x, x[db], y, y[db], s, s[db]\\)")
        math(EXPR seen "${seen} + 1")
        if(NOT got MATCHES "optional :: s\n.*present\\(s\\)")
          message("[FAIL] check's Fortran of optional: s is not optional or not asked:\n${got}")
          set(failed 1)
        endif()
      endif()
    endif()
  endforeach()
  if(NOT seen EQUAL 3)
    message("[FAIL] ${seen} of check's 3 Fortran files of optional found in ${TMP}")
    set(failed 1)
  endif()
  if(kept)
    file(REMOVE_RECURSE ${kept})
  endif()
else()
  message("no gfortran: the compiled checks and the xaif2f modes are not run")
endif()
endif()
if(NOT PART MATCHES "^(write|check)$")
  message("PART=${PART}: write or check is wanted")
  set(failed 1)
endif()
if(failed)
  message(FATAL_ERROR "xaif2f examples: failures above")
endif()
