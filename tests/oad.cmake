# oad.cmake: xaifBooster's driver command line, through the build tree's links
# OAD/xaifBooster/algorithms/ALG/driver/oadDriver (-DOAD=), `xaiform oad-driver`
# and a further link to a link, as OpenAD's regression makes (./xaifBooster).
set(failed 0)
set(TLM ${OAD}/xaifBooster/algorithms/BasicBlockPreaccumulation/driver/oadDriver)
set(ADM ${OAD}/xaifBooster/algorithms/BasicBlockPreaccumulationReverse/driver/oadDriver)
# expect(RC TEXT PROGRAM ARGS...): exit status RC and TEXT in stdout+stderr
function(expect rc text)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE got OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${out}${err}" "${text}" at)
  if(NOT got EQUAL rc OR at EQUAL -1)
    message("[FAIL] ${ARGN}: exit ${got} (want ${rc}), output:\n${out}${err}\n want: ${text}")
    set(failed 1 PARENT_SCOPE)
  endif()
endfunction()
# file_has(FILE TEXT) / file_lacks(FILE TEXT)
function(file_has f text)
  file(READ ${f} c)
  string(FIND "${c}" "${text}" at)
  if(at EQUAL -1)
    message("[FAIL] ${f} lacks: ${text}")
    set(failed 1 PARENT_SCOPE)
  endif()
endfunction()
function(file_lacks f text)
  file(READ ${f} c)
  string(FIND "${c}" "${text}" at)
  if(NOT at EQUAL -1)
    message("[FAIL] ${f} has: ${text}")
    set(failed 1 PARENT_SCOPE)
  endif()
endfunction()

set(ex ${SRC}/examples/head.xaif)
set(cat ${CORPUS}/xaif-examples/inlinable_intrinsics.xaif)
file(REMOVE_RECURSE ${TMP}/oad)
file(MAKE_DIRECTORY ${TMP}/oad)

# the link runs the tangent; its output names OpenAD's output schema and runs
expect(0 "" ${TLM} -i ${ex} -o ${TMP}/oad/t.xaif)
file_has(${TMP}/oad/t.xaif "<xaif:DerivativePropagator")
expect(0 "F(  1,  1)=" ${XAIFORM} run ${TMP}/oad/t.xaif --driver tangent --params ${SRC}/examples/params.conf)
# ... and the adjoint: ReplacementLists
expect(0 "" ${ADM} -i ${ex} -o ${TMP}/oad/a.xaif)
file_has(${TMP}/oad/a.xaif "<xaif:ReplacementList")
# no -o: standard output, as xaifBooster
expect(0 "<xaif:CallGraph" ${TLM} -i ${ex})
# the same through the verb, and through a link to the link
expect(0 "<xaif:DerivativePropagator" ${XAIFORM} oad-driver --algorithm BasicBlockPreaccumulation -i ${ex})
file(CREATE_LINK ${TLM} ${TMP}/oad/xaifBooster SYMBOLIC)
expect(0 "<xaif:DerivativePropagator" ${TMP}/oad/xaifBooster -i ${ex})
expect(2 "unknown algorithm 'TraceDiff'" ${XAIFORM} oad-driver --algorithm TraceDiff -i ${ex})
expect(2 "--algorithm ALG comes first" ${XAIFORM} oad-driver -i ${ex})

# usage errors: exit 2
expect(2 "-i IN.xaif is needed" ${TLM} -o ${TMP}/oad/x.xaif)
expect(2 "unknown switch -e" ${TLM} -i ${ex} -e forward)
expect(2 "unknown switch -x" ${TLM} -i ${ex} -x)
expect(2 "switch -I belongs to xaifBooster's adjoint driver" ${TLM} -i ${ex} -I)
expect(2 "switch -i given twice" ${TLM} -i ${ex} -i ${ex})
expect(2 "switch -c needs a value" ${TLM} -i ${ex} -c)
expect(2 "switch -r takes no value ('extra')" ${TLM} -i ${ex} -r extra)
expect(2 "'stray' is not preceded by a switch" ${TLM} stray -i ${ex})
expect(2 "-g takes a number" ${TLM} -i ${ex} -g many)
# help and notes
expect(0 "xaifBooster's driver command line" ${TLM} -h)
expect(0 "-I        (adjoint) every argument intent(inout)" ${ADM} -h)
expect(0 "note: -V changes nothing here: xaiform always writes all that -V adds" ${TLM} -i ${ex} -V -o ${TMP}/oad/v.xaif)
# grouped switches, the last taking the value: -rV as -r -V
expect(0 "note: -V changes nothing" ${TLM} -i ${ex} -rV -o ${TMP}/oad/rv.xaif)
file_has(${TMP}/oad/rv.xaif "symbol_id=\"OpenAD_head__1\"")

# -r renames every defined routine
expect(0 "" ${TLM} -i ${ex} -r -o ${TMP}/oad/r.xaif)
file_has(${TMP}/oad/r.xaif "<xaif:ControlFlowGraph vertex_id=\"1\" scope_id=\"1\" symbol_id=\"OpenAD_head__1\"")
file_lacks(${TMP}/oad/t.xaif "OpenAD_head__1")
expect(0 "F(  1,  1)=" ${XAIFORM} run ${TMP}/oad/r.xaif --driver tangent --params ${SRC}/examples/params.conf)
# -I: every argument intent(inout), in the adjoint
expect(0 "" ${ADM} -i ${ex} -I -o ${TMP}/oad/i.xaif)
file_has(${TMP}/oad/a.xaif "intent=\"in\"")
file_lacks(${TMP}/oad/i.xaif "intent=\"in\"")
file_lacks(${TMP}/oad/i.xaif "intent=\"out\"")
file_has(${TMP}/oad/i.xaif "intent=\"inout\"")

# -v validates the input against the schema (the built-in one, or -s PATH/xaif.xsd)
set(bad ${SRC}/tests/golden/unknown-element.xaif)
expect(1 "unknown element" ${TLM} -i ${bad} -o ${TMP}/oad/b.xaif)
expect(1 "This element is not expected" ${TLM} -v -i ${bad} -o ${TMP}/oad/b.xaif)
expect(0 "" ${TLM} -v -i ${ex} -o ${TMP}/oad/b.xaif)
expect(1 "cannot open the schema" ${TLM} -v -s ${TMP}/oad/noschema -i ${ex} -o ${TMP}/oad/b.xaif)
# the output names OpenAD's output schema (in -s PATH) where the input names one
set(toy ${CORPUS}/openad/ORNL_toy/tlm.xaif)
if(EXISTS ${toy})
  expect(0 "" ${TLM} -i ${toy} -o ${TMP}/oad/s.xaif)
  file_has(${TMP}/oad/s.xaif "xsi:schemaLocation=\"http://www.mcs.anl.gov/XAIF xaif_output.xsd\"")
  expect(0 "" ${TLM} -s xaif/schema -i ${toy} -o ${TMP}/oad/s.xaif)
  file_has(${TMP}/oad/s.xaif "xsi:schemaLocation=\"http://www.mcs.anl.gov/XAIF xaif/schema/xaif_output.xsd\"")
endif()
# -c: read and checked, then the built-in catalogue
if(EXISTS ${cat})
  expect(0 "note: -c changes nothing here" ${TLM} -i ${ex} -c ${cat} -o ${TMP}/oad/c.xaif)
endif()
expect(1 "not an inlinable intrinsics catalogue" ${TLM} -i ${ex} -c ${ex} -o ${TMP}/oad/c.xaif)
# -N: the non-inlinable catalogue is read
expect(1 "not a non-inlinable intrinsics catalogue" ${TLM} -i ${ex} -N ${ex} -o ${TMP}/oad/c.xaif)
# -d FILE: the messages go there
expect(0 "" ${TLM} -i ${ex} -V -d ${TMP}/oad/debug.txt -o ${TMP}/oad/d.xaif)
file_has(${TMP}/oad/debug.txt "note: -V changes nothing here")
# derivative code is refused through the door too, and nothing is written
expect(0 "" ${TLM} -i ${ex} -o ${TMP}/oad/deriv.xaif)
file(REMOVE ${TMP}/oad/deriv2.xaif)
expect(1 "is derivative code already" ${TLM} -i ${TMP}/oad/deriv.xaif -o ${TMP}/oad/deriv2.xaif)
expect(1 "is derivative code already" ${ADM} -i ${TMP}/oad/deriv.xaif -o ${TMP}/oad/deriv2.xaif)
if(EXISTS ${TMP}/oad/deriv2.xaif)
  message("[FAIL] a refused input left an output")
  set(failed 1)
endif()

if(failed)
  message(FATAL_ERROR "oad.cmake: failures above")
endif()
