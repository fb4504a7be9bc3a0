# nothing.cmake: a script test that runs nothing fails. The corpus scripts
# (loop-tape.sh, checkpoint-sweep.sh, tests/xaif2c/corpus.sh) over a corpus
# folder whose openad/ holds no example, and over one without openad/, must
# exit non-zero and say that nothing ran; need.sh skips (77) with one line
# naming the missing folder. -DSH= -DSRC= -DBUILD= -DTMP=
set(failed 0)
file(REMOVE_RECURSE ${TMP})
file(MAKE_DIRECTORY ${TMP}/empty/openad/notanexample ${TMP}/none)
file(WRITE ${TMP}/empty/openad/notanexample/head.f "") # a folder, no params.conf or xaif

# want(RC_IS TEXT CMD...): run CMD; its exit status must be RC_IS (a number,
# or NONZERO) and TEXT in its output.
function(want rc text)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE got OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${out}${err}" "${text}" at)
  if(rc STREQUAL NONZERO)
    set(ok TRUE)
    if(got EQUAL 0 OR got EQUAL 77)
      set(ok FALSE)
    endif()
  elseif(got EQUAL rc)
    set(ok TRUE)
  else()
    set(ok FALSE)
  endif()
  if(NOT ok OR at EQUAL -1)
    message("[FAIL] ${ARGN}: exit ${got} (want ${rc}), output:\n${out}${err}\n want: ${text}")
    set(failed 1 PARENT_SCOPE)
  endif()
endfunction()

set(lt ${SRC}/tools/regress/loop-tape.sh)
want(NONZERO "no parallel loop measured: nothing run" ${SH} ${lt} -b ${BUILD} -c ${TMP}/empty)
want(NONZERO "no folder ${TMP}/none/openad: nothing run" ${SH} ${lt} -b ${BUILD} -c ${TMP}/none)
want(NONZERO "nothing run" ${SH} ${SRC}/tools/regress/checkpoint-sweep.sh ${BUILD} ${TMP}/empty)
want(NONZERO "no example under ${TMP}/empty/openad that is not skipped: nothing run" ${SH}
  ${SRC}/tests/xaif2c/corpus.sh ${BUILD}/xaiform cc ${SRC} ${TMP}/empty/openad ${TMP}/x2c)
# xaiform check itself: a folder without an example is an error
want(1 "no example folder" ${BUILD}/xaiform check ${TMP}/empty/openad)

# need.sh: a missing folder skips, with one line naming it and the way to get it
set(need ${SH} ${SRC}/tests/corpus/need.sh)
want(77 "not run: no ${TMP}/none/openad; to get it: tools/regress/import-openad.sh" ${need}
  ${TMP}/none openad -- ${SH} -c "exit 0")
want(77 "not run: no ${TMP}/empty/xaif-schema/xaif_output.xsd; to get it: tools/regress/import-openad.sh --xaif"
  ${need} ${TMP}/empty openad xaif-schema/xaif_output.xsd -- ${SH} -c "exit 0")
# ... and runs the command, its exit status kept, when all are there
want(3 "" ${need} ${TMP}/empty openad -- ${SH} -c "exit 3")

if(failed)
  message(FATAL_ERROR "a script that ran nothing did not fail")
endif()
