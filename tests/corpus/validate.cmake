# validate.cmake: xaiform validate over every .xaif file of the corpus.
if(NOT EXISTS "${CORPUS}")
  message("corpus ${CORPUS} not found: not run")
  return()
endif()
file(GLOB_RECURSE files "${CORPUS}/*.xaif")
list(SORT files)
list(LENGTH files n)
execute_process(COMMAND ${XAIFORM} validate ${files} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "validation failed (${n} files)")
endif()
