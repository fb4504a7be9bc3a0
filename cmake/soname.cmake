# soname.cmake: xf_soname(VAR NAME DEFAULT): the soname (libgvc.so.6) of the
# library NAME (gvc) among the link libraries pkg-config found, read with
# objdump; DEFAULT when it cannot be read. For the libraries the program
# opens with dlopen at their first use (tools/dl_*.c).
function(xf_soname var name default)
  set(soname "${default}")
  foreach(lib IN LISTS ARGN)
    get_filename_component(base "${lib}" NAME)
    if(base MATCHES "^lib${name}\\.so" AND CMAKE_OBJDUMP)
      execute_process(COMMAND ${CMAKE_OBJDUMP} -p "${lib}" OUTPUT_VARIABLE out
                      ERROR_QUIET RESULT_VARIABLE rc)
      if(rc EQUAL 0 AND out MATCHES "SONAME +([^ \n]+)")
        set(soname "${CMAKE_MATCH_1}")
      endif()
    endif()
  endforeach()
  set(${var} "${soname}" PARENT_SCOPE)
endfunction()
