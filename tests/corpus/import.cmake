# import.cmake: tools/regress/import-openad.sh on a small suite made here in
# RegressionOpenAD's layout from the shipped example (no checkout needed):
# the files it lays out, CUSTOM_DRIVER, what it cannot provide, its errors,
# and `xaiform check` over the result. -DSH= -DCHECK=(xaiform) -DSRC= -DTMP=
set(failed 0)
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)
file(REMOVE_RECURSE ${TMP})
set(suite ${TMP}/RegressionOpenAD)
set(ex ${suite}/testRoundTrip/examples)

# NAME: params.conf, head.f and refOutput/ with the FILES given (of
# tlm adm ad dd), as OpenAD's suite names them
function(suite_example name)
  file(MAKE_DIRECTORY ${ex}/${name}/refOutput)
  configure_file(${SRC}/examples/params.conf ${ex}/${name}/params.conf COPYONLY)
  file(WRITE ${ex}/${name}/head.f "c the example's Fortran source\n")
  foreach(f ${ARGN})
    if(f STREQUAL tlm)
      configure_file(${SRC}/examples/head.xaif ${ex}/${name}/refOutput/tlmhead_sf.pre.xaif COPYONLY)
    elseif(f STREQUAL adm)
      configure_file(${SRC}/examples/head.xaif ${ex}/${name}/refOutput/admhead_sf.pre.xaif COPYONLY)
    else()
      configure_file(${SRC}/tests/check/${f}.out ${ex}/${name}/refOutput/${f}.out COPYONLY)
    endif()
  endforeach()
endfunction()
suite_example(head tlm adm ad dd)
suite_example(tlmonly tlm ad dd)         # OpenAD never wrote adm.xaif
suite_example(custom tlm adm ad dd)      # drivers of its own
file(WRITE ${ex}/custom/driver_scalar_tlm.f90 "")
file(WRITE ${ex}/custom/driver_vector_dd.f90 "")
suite_example(noxaif)                    # no front-end xaif in the suite
file(WRITE ${ex}/head/FAILREASON_adm_split.txt "not a FAILREASON name: not copied\n")
file(WRITE ${ex}/tlmonly/FAILREASON_adm_joint "OpenAD's joint adjoint is wrong\n")
file(CREATE_LINK FAILREASON_adm_joint ${ex}/tlmonly/FAILREASON_adm_split SYMBOLIC)
file(WRITE ${suite}/testRoundTrip/genericFiles/scalar/driver_tlm.f90 "")
file(WRITE ${TMP}/list.txt "# the examples\nhead\ntlmonly\ncustom\nnoxaif\n")

set(imp ${SRC}/tools/regress/import-openad.sh)
set(XAIFORM ${SH}) # expect() runs ${XAIFORM} ARGS
expect(0 "${TMP}/corpus/openad: 4 examples (0 named but not in the suite)\n  tlm.xaif: 3\n  adm.xaif: 2\n"
  ${imp} --list ${TMP}/list.txt ${suite} ${TMP}/corpus)
set(out ${TMP}/corpus/openad)
foreach(f head/tlm.xaif head/adm.xaif head/ref/ad.out head/ref/dd.out head/params.conf head/head.f
    tlmonly/tlm.xaif tlmonly/FAILREASON_adm_joint tlmonly/FAILREASON_adm_split custom/CUSTOM_DRIVER
    noxaif/params.conf)
  if(NOT EXISTS ${out}/${f})
    message("[FAIL] not laid out: ${f}")
    set(failed 1)
  endif()
endforeach()
foreach(f head/FAILREASON_adm_split.txt tlmonly/adm.xaif head/ref/tlm.xb.xaif noxaif/ref)
  if(EXISTS ${out}/${f})
    message("[FAIL] laid out, but the suite has no such file: ${f}")
    set(failed 1)
  endif()
endforeach()
file(READ ${out}/custom/CUSTOM_DRIVER cd)
file(READ ${out}/tlmonly/FAILREASON_adm_split why)
if(NOT cd STREQUAL "scalar_tlm\nvector_dd\n" OR NOT why STREQUAL "OpenAD's joint adjoint is wrong\n")
  message("[FAIL] CUSTOM_DRIVER is '${cd}', the linked FAILREASON '${why}'")
  set(failed 1)
endif()
if(NOT EXISTS ${TMP}/corpus/openad-drivers/scalar/driver_tlm.f90)
  message("[FAIL] the generic drivers are not in openad-drivers/")
  set(failed 1)
endif()

# errors: DEST already imported, an example not in the suite, not a checkout
expect(1 "openad exists: import into a new folder" ${imp} --all ${suite} ${TMP}/corpus)
file(WRITE ${TMP}/list2.txt "head\nnothere\n")
expect(1 "nothere: not in" ${imp} --list ${TMP}/list2.txt ${suite} ${TMP}/c2)
expect(1 "1 examples named are not in the suite" ${imp} --list ${TMP}/list2.txt ${suite} ${TMP}/c3)
if(NOT EXISTS ${TMP}/c3/openad/head/tlm.xaif)
  message("[FAIL] the examples that are in the suite were not laid out")
  set(failed 1)
endif()
expect(1 "not a checkout of RegressionOpenAD" ${imp} --all ${TMP} ${TMP}/c4)
expect(1 "not a checkout of the xaif repository" ${imp} --xaif ${TMP} ${suite} ${TMP}/c5)
expect(2 "usage: tools/regress/import-openad.sh" ${imp} ${suite})
expect(0 "4 examples" ${imp} --all ${suite} ${TMP}/c6)

# check reads it: head passes, tlmonly's adjoint runs from tlm.xaif, custom
# has drivers of its own, noxaif is no example
set(XAIFORM ${CHECK})
expect(0 "PASS  tangent      head\n" check --mode tangent --mode adjoint-joint ${out})
expect(0 "PASS* adjoint-joint tlmonly (from tlm.xaif" check --mode adjoint-joint ${out})
expect(0 "SKIP  tangent      custom: custom driver for the tangent" check --mode tangent ${out})
expect(0 "tangent: 2 passed, 0 failed, 1 skipped\n" check --mode tangent ${out})

if(failed)
  message(FATAL_ERROR "import-openad.sh: some cases failed")
endif()
