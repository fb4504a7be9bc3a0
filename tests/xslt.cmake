# xslt.cmake: the XSLT stage of the verbs that write xaif (--xslt, --param):
# the shipped stylesheets (tools/xslt/) on the example and on corpus files,
# chains, error messages, and output unchanged without --xslt.
# Run by ctest with -DXAIFORM= -DSRC= -DTMP= -DCORPUS=.
set(failed 0)
set(W ${TMP}/xslt)
file(REMOVE_RECURSE ${W})
file(MAKE_DIRECTORY ${W} ${W}/err)

function(fail what)
  message("[FAIL] ${what}")
  set(failed 1 PARENT_SCOPE)
endfunction()

# expect(RC TEXT ARGS...): xaiform ARGS exits RC and prints TEXT (stdout or stderr).
function(expect rc text)
  execute_process(COMMAND ${XAIFORM} ${ARGN} RESULT_VARIABLE got OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  string(FIND "${out}${err}" "${text}" at)
  if(NOT got EQUAL rc OR at EQUAL -1)
    fail("xaiform ${ARGN}: exit ${got} (want ${rc}), output:\n${out}${err}\n want: ${text}")
    set(failed 1 PARENT_SCOPE)
  endif()
endfunction()

# run_out(VAR ARGS...): VAR = the standard output of xaiform ARGS (which must exit 0).
function(run_out var)
  execute_process(COMMAND ${XAIFORM} ${ARGN} RESULT_VARIABLE got OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT got EQUAL 0 OR out STREQUAL "")
    fail("xaiform ${ARGN}: exit ${got}, output:\n${out}${err}")
    set(failed 1 PARENT_SCOPE)
  endif()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

function(same_bytes a b)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${a} ${b} RESULT_VARIABLE r)
  if(NOT r EQUAL 0)
    fail("${a} and ${b} differ")
    set(failed 1 PARENT_SCOPE)
  endif()
endfunction()

# has(FILE TEXT) / lacks(FILE TEXT): FILE contains / does not contain TEXT.
function(has path text)
  file(READ ${path} s)
  string(FIND "${s}" "${text}" at)
  if(at EQUAL -1)
    fail("${path} lacks '${text}'")
    set(failed 1 PARENT_SCOPE)
  endif()
endfunction()
function(lacks path text)
  file(READ ${path} s)
  string(FIND "${s}" "${text}" at)
  if(NOT at EQUAL -1)
    fail("${path} has '${text}'")
    set(failed 1 PARENT_SCOPE)
  endif()
endfunction()

# valid(FILE): xaiform validate accepts FILE.
function(valid path)
  execute_process(COMMAND ${XAIFORM} validate ${path} RESULT_VARIABLE r OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT r EQUAL 0)
    fail("${path} is not valid xaif:\n${out}${err}")
    set(failed 1 PARENT_SCOPE)
  endif()
endfunction()

# err_case(TEXT ARGS...): exit 1 with TEXT, and the folder err/ stays empty
# (no output, no temporary file) while err/kept.xaif keeps its content.
function(err_case text)
  file(WRITE ${W}/err/kept.xaif "old\n")
  expect(1 "${text}" ${ARGN})
  file(GLOB left ${W}/err/*)
  file(READ ${W}/err/kept.xaif kept)
  if(NOT left STREQUAL "${W}/err/kept.xaif" OR NOT kept STREQUAL "old\n")
    fail("after xaiform ${ARGN}: err/ holds ${left}; kept.xaif: ${kept}")
  endif()
  file(REMOVE ${W}/err/kept.xaif)
  set(failed ${failed} PARENT_SCOPE)
endfunction()

set(ex ${SRC}/examples/head.xaif)
set(par ${SRC}/examples/params.conf)
set(X ${SRC}/tools/xslt)
set(T ${SRC}/tests/xslt)

# ------------------------------------------------------------ unchanged without --xslt
expect(0 "" copy ${ex} -o ${W}/plain.xaif)
expect(0 "" copy ${ex} -o ${W}/param-only.xaif --param prefix XF_)
same_bytes(${ex} ${W}/plain.xaif)
same_bytes(${ex} ${W}/param-only.xaif)
expect(0 "" tangent ${ex} -o ${W}/t.xaif)
expect(0 "" tangent ${ex} -o ${W}/t-param.xaif --param prefix XF_)
same_bytes(${W}/t.xaif ${W}/t-param.xaif)
# an identity stylesheet changes nothing either: libxslt writes what xaiform writes
expect(0 "" copy ${ex} -o ${W}/identity.xaif --xslt ${T}/identity.xsl)
same_bytes(${ex} ${W}/identity.xaif)
expect(0 "" tangent ${ex} -o ${W}/t-identity.xaif --xslt ${T}/identity.xsl)
same_bytes(${W}/t.xaif ${W}/t-identity.xaif)

# ------------------------------------------------------------ strip-annotations.xsl
has(${ex} "lineNumber=\"")
expect(0 "" copy ${ex} -o ${W}/stripped.xaif --xslt ${X}/strip-annotations.xsl)
valid(${W}/stripped.xaif)
lacks(${W}/stripped.xaif "lineNumber=")
has(${W}/stripped.xaif "feType=\"F8\"")
run_out(dd0 run ${ex} --driver dd --params ${par})
run_out(dd1 run ${W}/stripped.xaif --driver dd --params ${par})
if(NOT dd0 STREQUAL dd1)
  fail("stripping changed the Jacobian:\n${dd0}\n${dd1}")
endif()
# another list: feType goes, lineNumber stays
expect(0 "" copy ${ex} -o ${W}/no-fetype.xaif --xslt ${X}/strip-annotations.xsl
  --param attributes " feType ")
valid(${W}/no-fetype.xaif)
lacks(${W}/no-fetype.xaif "feType=")
has(${W}/no-fetype.xaif "lineNumber=\"")
err_case("strip-annotations.xsl:65: error: strip-annotations.xsl: attribute symbol_id is required"
  copy ${ex} -o ${W}/err/out.xaif --xslt ${X}/strip-annotations.xsl
  --param attributes "annotation symbol_id")

# ------------------------------------------------------------ rename-prefix.xsl
expect(0 "" tangent ${ex} -o ${W}/t-renamed.xaif --xslt ${X}/rename-prefix.xsl --param prefix XF_)
valid(${W}/t-renamed.xaif)
has(${W}/t.xaif "symbol_id=\"OpenAD_lin_0\"")
lacks(${W}/t-renamed.xaif "OpenAD_")
has(${W}/t-renamed.xaif "<xaif:Symbol symbol_id=\"XF_lin_0\"")
has(${W}/t-renamed.xaif "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"XF_lin_0\"")
has(${W}/t-renamed.xaif "symbol_id=\"X_1\"")
# exactly the temporaries' names changed
file(READ ${W}/t.xaif plain)
file(READ ${W}/t-renamed.xaif renamed)
string(REPLACE "symbol_id=\"OpenAD_" "symbol_id=\"XF_" plain "${plain}")
string(REPLACE " prefix=\"OpenAD_\"" " prefix=\"XF_\"" plain "${plain}")
if(NOT plain STREQUAL renamed)
  fail("t-renamed.xaif is not t.xaif with OpenAD_ replaced in symbol_id")
endif()
run_out(j0 run ${W}/t.xaif --driver tangent --params ${par})
run_out(j1 run ${W}/t-renamed.xaif --driver tangent --params ${par})
if(NOT j0 STREQUAL j1 OR NOT j1 MATCHES "F\\(  1,  1\\)= 918.2168195493893847E-003")
  fail("the renamed tangent gives another Jacobian:\n${j0}\n${j1}")
endif()
# the passes verb takes the options too
expect(0 "" passes ${ex} -o ${W}/lin.xaif --passes linearize --xslt ${X}/rename-prefix.xsl
  --param prefix XF_)
valid(${W}/lin.xaif)
has(${W}/lin.xaif "symbol_id=\"XF_lin_0\"")
err_case("rename-prefix.xsl:49: error: rename-prefix.xsl: the new prefix is needed"
  tangent ${ex} -o ${W}/err/out.xaif --xslt ${X}/rename-prefix.xsl)
err_case("rename-prefix.xsl:56: error: rename-prefix.xsl: prefix '9x' does not start a Fortran name"
  tangent ${ex} -o ${W}/err/out.xaif --xslt ${X}/rename-prefix.xsl --param prefix 9x)
err_case("error: rename-prefix.xsl: renaming OpenAD_aux_1 to X_1 would clash with symbol X_1 of scope 2"
  tangent ${ex} -o ${W}/err/out.xaif --xslt ${X}/rename-prefix.xsl --param from OpenAD_aux_
  --param prefix X_)

# ------------------------------------------------------------ chains, in order
expect(0 "" copy ${ex} -o ${W}/ab.xaif --xslt ${T}/suffix-a.xsl --xslt ${T}/suffix-b.xsl)
has(${W}/ab.xaif "program_name=\"example-a-b\"")
expect(0 "" copy ${ex} -o ${W}/ba.xaif --xslt ${T}/suffix-b.xsl --xslt ${T}/suffix-a.xsl)
has(${W}/ba.xaif "program_name=\"example-b-a\"")
expect(0 "" tangent ${ex} -o ${W}/both.xaif --xslt ${X}/strip-annotations.xsl
  --xslt ${X}/rename-prefix.xsl --param prefix XF_ --param attributes "annotation lineNumber")
valid(${W}/both.xaif)
lacks(${W}/both.xaif "annotation=")
lacks(${W}/both.xaif "OpenAD_")
run_out(j2 run ${W}/both.xaif --driver tangent --params ${par})
if(NOT j0 STREQUAL j2)
  fail("strip + rename changed the Jacobian:\n${j0}\n${j2}")
endif()
expect(0 "program_name=\"example-a\"" copy ${ex} -o - --xslt ${T}/suffix-a.xsl)

# ------------------------------------------------------------ errors: FILE:LINE, exit 1, no output
err_case("nope.xsl: error: cannot open the stylesheet"
  copy ${ex} -o ${W}/err/out.xaif --xslt ${W}/nope.xsl)
err_case("malformed.xsl:6: error: Opening and ending tag mismatch"
  copy ${ex} -o ${W}/err/out.xaif --xslt ${T}/malformed.xsl)
err_case("head.xaif:19: error: xsltParseStylesheetProcess : document is not a stylesheet"
  copy ${ex} -o ${W}/err/out.xaif --xslt ${ex})
err_case("bad-xpath.xsl:6: error: xsl:value-of : could not compile select expression 'count(('"
  copy ${ex} -o ${W}/err/out.xaif --xslt ${T}/bad-xpath.xsl)
err_case("unknown-function.xsl:7: error: Unregistered function"
  copy ${ex} -o ${W}/err/out.xaif --xslt ${T}/unknown-function.xsl)
# the value reaches the stylesheet as written: quotes need no XPath quoting
err_case("terminate.xsl:8: error: stopped: it's \"done\""
  tangent ${ex} -o ${W}/err/out.xaif --xslt ${T}/terminate.xsl --param why "it's \"done\"")
expect(1 "terminate.xsl:7: note: looking at example"
  copy ${ex} -o ${W}/err/out.xaif --xslt ${T}/terminate.xsl)
# a failure in the second stylesheet of a chain
err_case("terminate.xsl:8: error: stopped: no reason"
  copy ${ex} -o ${W}/err/out.xaif --xslt ${T}/identity.xsl --xslt ${T}/terminate.xsl)
# stylesheets may not write files
err_case("write-file.xsl:8: error: File write for ${W}/written.txt refused"
  copy ${ex} -o ${W}/err/out.xaif --xslt ${T}/write-file.xsl --param target ${W}/written.txt)
if(EXISTS ${W}/written.txt)
  fail("write-file.xsl wrote ${W}/written.txt")
endif()
# ... nor use the network (refused before any connection)
err_case("read-network.xsl:6: error: Network file read for http://example.com/x.xml refused"
  copy ${ex} -o ${W}/err/out.xaif --xslt ${T}/read-network.xsl)
expect(2 "--param prefix needs a value" copy ${ex} -o ${W}/x.xaif --xslt ${T}/identity.xsl
  --param prefix)
expect(2 "--param: 'a b' is not a parameter name" copy ${ex} -o ${W}/x.xaif --param "a b" c)
expect(0 "--xslt STYLE.xsl" copy --help)
expect(0 "--param NAME VALUE" tangent --help)
expect(0 "--xslt STYLE.xsl" passes --help)

# ------------------------------------------------------------ the corpus
set(C ${CORPUS}/openad)
if(NOT EXISTS ${C}/nested_calls_4/tlm.xaif)
  message("corpus not found: the corpus cases were not run")
else()
  # strip: xaifBooster's output and a front end's input
  foreach(f ConsFold/ref/tlm.xb.xaif graphEx1/adm.xaif)
    string(REPLACE "/" "-" out ${f})
    has(${C}/${f} "annotation=\"")
    expect(0 "" copy ${C}/${f} -o ${W}/${out} --xslt ${X}/strip-annotations.xsl)
    valid(${W}/${out})
    lacks(${W}/${out} "annotation=")
    lacks(${W}/${out} "lineNumber=")
  endforeach()
  run_out(a0 run ${C}/ConsFold/ref/tlm.xb.xaif --driver tangent --params ${C}/ConsFold/params.conf)
  run_out(a1 run ${W}/ConsFold-ref-tlm.xb.xaif --driver tangent --params ${C}/ConsFold/params.conf)
  if(NOT a0 STREQUAL a1)
    fail("stripping ConsFold's tlm.xb.xaif changed its Jacobian:\n${a0}\n${a1}")
  endif()
  # rename: our tangent of examples with OpenAD_aux, _lin, _tyc and _Symbol temporaries
  foreach(e nested_calls_4 argumentConversionSaveIndex)
    expect(0 "" tangent ${C}/${e}/tlm.xaif -o ${W}/${e}.xaif)
    expect(0 "" tangent ${C}/${e}/tlm.xaif -o ${W}/${e}.XF.xaif --xslt ${X}/rename-prefix.xsl
      --param prefix XF_)
    valid(${W}/${e}.XF.xaif)
    has(${W}/${e}.xaif "symbol_id=\"OpenAD_tyc_")
    lacks(${W}/${e}.XF.xaif "OpenAD_")
    has(${W}/${e}.XF.xaif "symbol_id=\"XF_tyc_")
    run_out(b0 run ${W}/${e}.xaif --driver tangent --params ${C}/${e}/params.conf)
    run_out(b1 run ${W}/${e}.XF.xaif --driver tangent --params ${C}/${e}/params.conf)
    if(NOT b0 STREQUAL b1 OR NOT b1 MATCHES "F\\(  1,  1\\)=")
      fail("${e}: the renamed tangent gives another Jacobian:\n${b0}\n${b1}")
    endif()
  endforeach()
  # xaifBooster renamed routines (OpenAD_head__28): they keep their names
  expect(0 "" copy ${C}/renameSRinMod/ref/adm.xb.xaif -o ${W}/rsr.xaif
    --xslt ${X}/rename-prefix.xsl --param prefix XF_)
  valid(${W}/rsr.xaif)
  has(${W}/rsr.xaif "<xaif:Symbol symbol_id=\"OpenAD_head__28\" kind=\"subroutine\"")
  has(${W}/rsr.xaif "symbol_id=\"XF_prp_")
  lacks(${W}/rsr.xaif "symbol_id=\"OpenAD_prp_")
  # identity through libxslt: the same bytes as a plain copy
  expect(0 "" copy ${C}/graphEx1/ref/adm.xb.xaif -o ${W}/g0.xaif)
  expect(0 "" copy ${C}/graphEx1/ref/adm.xb.xaif -o ${W}/g1.xaif --xslt ${T}/identity.xsl)
  same_bytes(${W}/g0.xaif ${W}/g1.xaif)
endif()

if(failed)
  message(FATAL_ERROR "XSLT stage tests failed")
endif()
message("XSLT stage tests passed")
