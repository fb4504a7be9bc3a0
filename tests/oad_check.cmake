# oad_check.cmake: `xaiform check --mode MODE` over the corpus gives the same
# counts whether the derivative is made in process or by the build tree's
# oadDriver links run as OpenAD's regression runs xaifBooster
# (--xaifbooster-root). -DXAIFORM= -DOAD= -DCORPUS= -DMODE=
if(NOT EXISTS ${CORPUS}/openad) # ctest skips it before (tests/corpus/need.sh)
  message(FATAL_ERROR "no corpus at ${CORPUS}/openad: nothing run")
endif()
foreach(how plain door)
  set(extra)
  if(how STREQUAL door)
    set(extra --xaifbooster-root ${OAD})
  endif()
  execute_process(COMMAND ${XAIFORM} check --mode ${MODE} ${extra} ${CORPUS}/openad
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "\n${MODE}: [^\n]*" sum_${how} "${out}")
  if(NOT sum_${how})
    message(FATAL_ERROR "no summary (${how}):\n${out}${err}")
  endif()
  message("${how}:${sum_${how}}")
endforeach()
if(NOT sum_plain STREQUAL sum_door)
  message(FATAL_ERROR "the counts differ")
endif()
