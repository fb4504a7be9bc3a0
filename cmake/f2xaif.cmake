# The Fortran front end (frontends/f2xaif/, xaiform f2xaif): a Flang 19 plugin
# (C++, built here and loaded by flang-new-19 at run time) and its C side,
# which builds on the C front end's representation (frontends/c2xaif/cf.h).
# Built when flang-new-19 answers --version with 19, Flang's headers are
# there and the C front end is built; else `xaiform f2xaif` says it was not
# built. Flang's C++ API changes between major versions: 19 only.
find_program(XF_FLANG NAMES flang-new-19 HINTS /usr/lib/llvm-19/bin)
find_path(XF_FLANG_INCLUDE flang/Frontend/FrontendPluginRegistry.h
  HINTS /usr/lib/llvm-19/include)
set(XF_F_FRONTEND_DEFAULT OFF)
set(XF_FLANG_VERSION "")
if(XF_FLANG AND XF_FLANG_INCLUDE AND XF_C_FRONTEND)
  execute_process(COMMAND ${XF_FLANG} --version OUTPUT_VARIABLE XF_FLANG_VERSION_TEXT
    ERROR_QUIET RESULT_VARIABLE XF_FLANG_RC)
  if(XF_FLANG_RC EQUAL 0 AND XF_FLANG_VERSION_TEXT MATCHES "version (19\\.[0-9.]+)")
    set(XF_FLANG_VERSION ${CMAKE_MATCH_1})
    set(XF_F_FRONTEND_DEFAULT ON)
  endif()
endif()
option(XF_F_FRONTEND "Build the Fortran front end (xaiform f2xaif; needs Flang 19)"
  ${XF_F_FRONTEND_DEFAULT})
if(XF_F_FRONTEND AND NOT XF_FLANG_VERSION)
  message(FATAL_ERROR "XF_F_FRONTEND needs flang-new-19 (Flang 19), its headers "
    "(libflang-19-dev, llvm-19-dev, libclang-19-dev, libmlir-19-dev) and the C front end")
endif()
if(XF_F_FRONTEND)
  enable_language(CXX)
  add_library(f2xaif_plugin MODULE frontends/f2xaif/plugin/f2xaif_plugin.cpp)
  set_target_properties(f2xaif_plugin PROPERTIES PREFIX "" CXX_STANDARD 17
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
    # loaded into flang-new-19: built as LLVM is, never with the sanitizers
    COMPILE_OPTIONS "-fno-exceptions;-fno-rtti;-O1;-g0" LINK_OPTIONS "")
  target_include_directories(f2xaif_plugin SYSTEM PRIVATE ${XF_FLANG_INCLUDE})
  target_compile_definitions(f2xaif_plugin PRIVATE FLANG_LITTLE_ENDIAN=1 _GNU_SOURCE
    __STDC_CONSTANT_MACROS __STDC_FORMAT_MACROS __STDC_LIMIT_MACROS)
  install(TARGETS f2xaif_plugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/xaiform)

  add_library(xaiform_f2xaif STATIC frontends/f2xaif/f2xaif.c frontends/f2xaif/fdesc.c
    frontends/f2xaif/fx_unit.c frontends/f2xaif/fx_expr.c frontends/f2xaif/fx_call.c
    frontends/f2xaif/fx_stmt.c frontends/f2xaif/fx_array.c frontends/f2xaif/fx_inquiry.c)
  target_include_directories(xaiform_f2xaif PUBLIC ${CMAKE_SOURCE_DIR}/frontends/f2xaif)
  target_include_directories(xaiform_f2xaif SYSTEM PRIVATE ${XF_LIBCLANG_INCLUDE})
  target_link_libraries(xaiform_f2xaif PUBLIC xaiform_c2xaif)
  target_compile_definitions(xaiform_f2xaif PRIVATE XF_FLANG="${XF_FLANG}"
    XF_F2XAIF_PLUGIN_INSTALLED="${CMAKE_INSTALL_FULL_LIBDIR}/xaiform/f2xaif_plugin.so")
  add_dependencies(xaiform_f2xaif f2xaif_plugin)
  message(STATUS "Fortran front end: Flang ${XF_FLANG_VERSION} (${XF_FLANG})")
else()
  message(STATUS "Fortran front end: off (Flang 19 not found, or XF_F_FRONTEND=OFF)")
endif()
if(XF_F_FRONTEND)
  # xaiform check --mode f-xaif-tangent (tools/regress/regress.c)
  target_link_libraries(xaiform_tools PUBLIC xaiform_f2xaif)
  target_compile_definitions(xaiform_tools PRIVATE XF_F_FRONTEND)
endif()
