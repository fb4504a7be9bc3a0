# expect.cmake: expect(RC TEXT ARGS...) runs ${XAIFORM} ARGS and wants exit
# status RC and TEXT somewhere in its output; a miss is printed and sets
# `failed` in the caller. Included by cli.cmake and check.cmake.
function(expect rc text)
  execute_process(COMMAND ${XAIFORM} ${ARGN} RESULT_VARIABLE got OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  string(FIND "${out}${err}" "${text}" at)
  if(NOT got EQUAL rc OR at EQUAL -1)
    message("[FAIL] xaiform ${ARGN}: exit ${got} (want ${rc}), output:\n${out}${err}\n want: ${text}")
    set(failed 1 PARENT_SCOPE)
  endif()
endfunction()
