# xaif2c.cmake: xaiform xaif2c on the command line: usage errors, a refusal
# (FILE:LINE, exit 1, no output left), and the example head.xaif through
# tests/xaif2c/example.sh (its program, tangent and adjoint as C, compiled
# by CC and checked: plain, tangent, divided differences, dot product).
set(failed 0)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

file(MAKE_DIRECTORY ${TMP})
set(ex ${SRC}/examples/head.xaif)
expect(2 "one input file is needed" xaif2c)
expect(2 "-o OUT is needed" xaif2c ${ex})
expect(2 "unknown reversal 'both'" xaif2c ${ex} -o ${TMP}/x.c --reversal both)
expect(0 "usage: xaiform xaif2c" xaif2c --help)
file(REMOVE ${TMP}/s.c)
expect(1 "string.xaif:24: error: cannot write C: variable s has type string" xaif2c
  ${SRC}/tests/xaif2c/string.xaif -o ${TMP}/s.c)
if(EXISTS ${TMP}/s.c)
  message("[FAIL] a refused document left ${TMP}/s.c")
  set(failed 1)
endif()
expect(0 "void\nhead(double" xaif2c ${ex} -o -)

if(CC AND SH)
  file(MAKE_DIRECTORY ${TMP}/head)
  configure_file(${ex} ${TMP}/head/tlm.xaif COPYONLY)
  configure_file(${ex} ${TMP}/head/adm.xaif COPYONLY)
  configure_file(${SRC}/examples/params.conf ${TMP}/head/params.conf COPYONLY)
  execute_process(COMMAND ${SH} ${SRC}/tests/xaif2c/example.sh ${XAIFORM} ${CC} ${SRC}/include
    ${SRC}/tests/xaif2c/driver.c ${TMP}/head ${TMP}/work OUTPUT_VARIABLE out)
  if(NOT out MATCHES "^head pass")
    message("[FAIL] examples/head.xaif as C: ${out}")
    set(failed 1)
  else()
    message("${out}")
  endif()
else()
  message("no C compiler or sh: the compiled check of head.xaif is not run")
endif()
if(failed)
  message(FATAL_ERROR "xaif2c: failures above")
endif()
