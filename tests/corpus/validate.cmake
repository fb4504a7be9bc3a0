# validate.cmake: xaiform validate over every .xaif file of the corpus. All
# are valid but three of the hand-written xaif-examples, whose faults every
# verb's reader refuses: each must be refused, for its own reason.
if(NOT EXISTS "${CORPUS}/xaif-examples") # ctest skips it before (tests/corpus/need.sh)
  message(FATAL_ERROR "no ${CORPUS}/xaif-examples: nothing run")
endif()
set(broken
  "if_ex_1c.xaif:103: error: expression has two vertices with vertex_id '3'"
  "joint_rescp.xb.xaif:57: error: dangling reference: no symbol 'sub2' in scope 1"
  "uwe_ex_1_d.xaif:54: error: dangling reference: no symbol '0' in scope 2")
file(GLOB_RECURSE files "${CORPUS}/*.xaif")
list(SORT files)
list(LENGTH files n)
list(LENGTH broken nbroken)
math(EXPR nvalid "${n} - ${nbroken}")
execute_process(COMMAND ${XAIFORM} validate ${files} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${err}")
set(failed FALSE)
foreach(b IN LISTS broken)
  string(FIND "${err}" "/xaif-examples/${b}" at)
  if(at EQUAL -1)
    message("[FAIL] not refused: ${b}")
    set(failed TRUE)
  endif()
endforeach()
string(FIND "${err}" "${nvalid} valid, ${nbroken} invalid" at)
if(NOT rc EQUAL 1 OR at EQUAL -1 OR failed)
  message(FATAL_ERROR "validation failed (${n} files; want ${nvalid} valid, ${nbroken} invalid)")
endif()
