# check.cmake: xaiform check on example folders made under TMP from the
# shipped example (examples/head.xaif, examples/params.conf, tests/check/*.out):
# the folder search, example names, exit statuses, --help, and the
# expectations file (--expect, --update, --summary): any difference from it
# fails, better or worse, a failure's reason class included.
# -DXAIFORM= -DSRC= -DTMP=
set(failed 0)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

# An example folder of OpenAD's layout for examples/head.xaif.
function(make_example dir)
  file(MAKE_DIRECTORY ${dir}/ref)
  configure_file(${SRC}/examples/head.xaif ${dir}/tlm.xaif COPYONLY)
  configure_file(${SRC}/examples/head.xaif ${dir}/adm.xaif COPYONLY)
  configure_file(${SRC}/examples/params.conf ${dir}/params.conf COPYONLY)
  configure_file(${SRC}/tests/check/ad.out ${dir}/ref/ad.out COPYONLY)
  configure_file(${SRC}/tests/check/dd.out ${dir}/ref/dd.out COPYONLY)
endfunction()

file(REMOVE_RECURSE ${TMP})
set(tree ${TMP}/tree)
make_example(${tree}/a/b/head1)
make_example(${tree}/head2)
file(MAKE_DIRECTORY ${tree}/a/empty ${TMP}/none/x/y)
file(WRITE ${TMP}/none/x/params.conf "2\n1\n1.0D-6\n1.0D-5\n") # params.conf without an input
file(CREATE_LINK ${tree} ${tree}/a/loop SYMBOLIC)               # a symlink loop

# Nested folders are searched, the loop ends, each example is run once.
expect(0 "PASS  tangent      head1\n" check --mode tangent ${tree})
expect(0 "PASS  tangent      head2\n" check --mode tangent ${tree})
expect(0 "tangent: 2 passed, 0 failed, 0 skipped" check --mode tangent ${tree})
expect(0 "adjoint-split: 2 passed, 0 failed, 0 skipped" check --mode adjoint-split ${tree})
expect(0 "dd: 2 passed, 0 failed, 0 skipped" check --mode dd ${tree})
# An example folder named with a trailing slash is named by its last component.
expect(0 "PASS  tangent      head1\n" check --mode tangent ${tree}/a/b/head1/)
expect(0 "tangent: 1 passed" check --mode tangent ${tree}/a/b//head1//)
# No example under a root, or a root that is no folder: exit 1.
expect(1 "no example folder" check ${tree}/a/empty)
expect(1 "no example folder" check --mode dd ${TMP}/none)
expect(1 "cannot read" check ${TMP}/nothere)
expect(1 "cannot read: not a folder" check ${SRC}/examples/head.xaif)
# Usage errors: exit 2.
expect(2 "unknown mode 'fast'" check --mode fast ${tree})
expect(2 "unknown elimination order 'fast'" check -e fast ${tree})
expect(2 "unknown elimination order 'quick'" check --elimination quick ${tree})
expect(2 "--update needs --expect" check --update ${tree})
expect(2 "--expect and --min-pass do not go together" check --expect x.txt --min-pass 90 ${tree})
expect(2 "--summary FILE takes no other option or folder" check --summary x.txt ${tree})
expect(0 "tangent: 2 passed" check --mode tangent -e markowitz ${tree})
# --help names every mode.
foreach(mode dd ref-tangent ref-adjoint tangent adjoint-joint adjoint-split)
  expect(0 "\n  ${mode} " check --help)
endforeach()

# --update writes an expectations file that the same run then matches.
set(exp ${TMP}/exp.txt)
expect(0 "wrote ${exp}" check --expect ${exp} --update ${tree})
file(READ ${exp} content)
string(FIND "${content}" "# made by: xaiform check --expect exp.txt --update tree\n" at)
string(REGEX MATCH "\nhead1 +tangent +PASS +([0-9]+) +0 +- +-\n" line "${content}")
set(ops ${CMAKE_MATCH_1})
if(at EQUAL -1 OR NOT ops GREATER 0)
  message("[FAIL] ${exp}: no header line or no operation count of head1 tangent:\n${content}")
  set(failed 1)
endif()
expect(0 "exp.txt: 0 changes\n" check --expect ${exp} ${tree})
# ... and a second update writes the same bytes.
configure_file(${exp} ${TMP}/exp1.txt COPYONLY)
expect(0 "wrote" check --expect ${exp} --update ${tree})
file(READ ${exp} again)
if(NOT again STREQUAL content)
  message("[FAIL] a second --update wrote another file:\n${again}")
  set(failed 1)
endif()

# A file altered in one line: the change is found, named, exit 1.
function(altered name from to)
  string(REGEX REPLACE "${from}" "${to}" alt "${content}")
  if(alt STREQUAL content)
    message("[FAIL] ${name}: the pattern ${from} is not in the file")
    set(failed 1 PARENT_SCOPE)
  endif()
  file(WRITE ${TMP}/${name} "${alt}")
endfunction()
altered(status.txt "\nhead1( +)tangent( +)PASS[^\n]*" "\nhead1\\1tangent\\2FAIL - - - - run-error")
expect(1 "changed  head1 tangent: FAIL (run-error) -> PASS\n${TMP}/status.txt: 1 change\n"
  check --expect ${TMP}/status.txt ${tree})
math(EXPR less "${ops} - 1")
math(EXPR more "${ops} + 1")
# The file has a better figure than the run (one operation fewer): the run
# got worse, which fails ...
altered(rise.txt "\nhead1( +)tangent( +)PASS( +)${ops} " "\nhead1\\1tangent\\2PASS\\3${less} ")
expect(1 "changed  head1 tangent: operations ${less} -> ${ops} (a rise)\n${TMP}/rise.txt: 1 change\n"
  check --expect ${TMP}/rise.txt ${tree})
# ... and a worse one (one more): the run got better, which fails too, so
# that a figure cannot fall and climb back unseen; --update records it.
altered(fall.txt "\nhead1( +)tangent( +)PASS( +)${ops} " "\nhead1\\1tangent\\2PASS\\3${more} ")
expect(1 "changed  head1 tangent: operations ${more} -> ${ops} (a fall)\n${TMP}/fall.txt: 1 change\n"
  check --expect ${TMP}/fall.txt ${tree})
altered(tape.txt "\n(head2 +adjoint-joint +PASS +[0-9]+ +)[0-9]+ " "\n\\1999 ")
expect(1 "changed  head2 adjoint-joint: tape words 999 -> 2 (a fall)\n"
  check --expect ${TMP}/tape.txt ${tree})
expect(0 "wrote" check --expect ${TMP}/fall.txt --update ${tree})
expect(0 "fall.txt: 0 changes\n" check --expect ${TMP}/fall.txt ${tree})
altered(gone.txt "\nhead2 +dd [^\n]*" "")
expect(1 "changed  head2 dd: not in ${TMP}/gone.txt, now PASS" check --expect ${TMP}/gone.txt ${tree})
altered(extra.txt "\nhead2( +)dd " "\nhead3\\1dd PASS\nhead2\\1dd ")
expect(1 "changed  head3 dd: PASS in ${TMP}/extra.txt, not found by the run"
  check --expect ${TMP}/extra.txt ${tree})
# Lines outside the run are not compared: another mode, or, when the root is
# an example folder, another example.
expect(0 "extra.txt: 0 changes" check --mode tangent --expect ${TMP}/extra.txt ${tree})
expect(0 "extra.txt: 0 changes" check --expect ${TMP}/extra.txt ${tree}/head2)
expect(1 "changed  head1 tangent: FAIL (run-error) -> PASS" check --expect ${TMP}/status.txt ${tree}/a/b/head1)
expect(0 "status.txt: 0 changes" check --expect ${TMP}/status.txt ${tree}/head2)
# --update with one mode rewrites that mode's lines and keeps the others.
expect(0 "wrote" check --mode tangent --expect ${TMP}/status.txt --update ${tree})
expect(0 "status.txt: 0 changes\n" check --expect ${TMP}/status.txt ${tree})
expect(1 "changed  head3 dd" check --expect ${TMP}/extra.txt ${tree})
expect(0 "wrote" check --mode dd --expect ${TMP}/extra.txt --update ${tree})
expect(0 "extra.txt: 0 changes" check --expect ${TMP}/extra.txt ${tree})
# Two examples of one name cannot be told apart in the file.
make_example(${TMP}/twins/x/head)
make_example(${TMP}/twins/y/head)
expect(1 "two examples are named head" check --mode dd --expect ${exp} ${TMP}/twins)
expect(1 "two examples are named head" check --mode dd --expect ${TMP}/new.txt --update ${TMP}/twins)
expect(1 "cannot open" check --expect ${TMP}/nothere.txt ${tree})

# --schema: the derivative modes validate each derivative they make; one
# that violates the schema fails its example and the run, and --update
# does not write it down. The project's schema passes the example; a schema
# no xaif satisfies does not.
expect(0 "derivatives not valid against xaif.xsd: 0\n" check --mode tangent --mode adjoint-split
  --schema ${SRC}/schema/xaif.xsd ${tree})
expect(1 "FAIL  tangent      head2: schema-invalid: not valid against reject.xsd: the output of head2/tlm.xaif:"
  check --mode tangent --schema ${SRC}/tests/check/reject.xsd ${tree})
expect(1 "derivatives not valid against reject.xsd: 2\n"
  check --mode adjoint-joint --schema ${SRC}/tests/check/reject.xsd ${tree})
expect(1 "exp-reject.txt: not written: a derivative is not valid against" check --mode tangent
  --schema ${SRC}/tests/check/reject.xsd --expect ${TMP}/exp-reject.txt --update ${tree})
if(EXISTS ${TMP}/exp-reject.txt)
  message("[FAIL] --update wrote an expectations file from invalid derivatives")
  set(failed 1)
endif()
file(WRITE ${TMP}/empty.xsd "") # an empty file is no schema
expect(1 "empty.xsd" check --mode tangent --schema ${TMP}/empty.xsd ${tree})

# --stats: the adjoint modes' real/integer tape words (as `run --stats`
# counts them for examples/head.xaif's adjoint: real 2, integer 0 as its
# loop runs backwards in the adjoint, 3 counted with --tape-off invert), of ours,
# xaifBooster's output (here: our own adjoint in its place) and each
# --variant (our adjoint under other pass options), and their sums.
make_example(${TMP}/tape/head)
execute_process(COMMAND ${XAIFORM} adjoint ${SRC}/examples/head.xaif
  -o ${TMP}/tape/head/ref/adm.xb.xaif RESULT_VARIABLE rc)
expect(0 "TAPE  adjoint-joint head real/int words: ours 2/0 peak 2, xaifBooster 2/0 peak 2, fwd 2/0 peak 2, rev 2/0 peak 2, cnt 2/3 peak 5\n"
  check --mode adjoint-joint --stats --variant fwd:elimination=forward
  --variant rev:elimination=reverse,report --variant cnt:tape-off=invert ${TMP}/tape)
expect(0 "adjoint-split real tape words over 1 examples: ours 2, xaifBooster's 2, fwd 2 (over 1)\nadjoint-split integer tape words over 1 examples: ours 0, xaifBooster's 0, fwd 0 (over 1)\nadjoint-split peak tape words over 1 examples: ours 2, xaifBooster's 2, fwd 2 (over 1)\n"
  check --mode adjoint-split --stats --variant fwd:elimination=forward ${TMP}/tape)
expect(0 "TAPE  adjoint-joint head2 real/int words: ours 2/0 peak 2, xaifBooster -\n"
  check --mode adjoint-joint --stats ${tree}/head2)
expect(0 "tangent: 2 passed" check --mode tangent --pass-option elimination=markowitz ${tree})
expect(2 "--variant needs --stats" check --variant fwd:elimination=forward ${tree})
expect(2 "--variant fwd: not LABEL:NAME" check --stats --variant fwd ${tree})
expect(2 "--variant x:nope=1: no pass has an option --nope" check --stats --variant x:nope=1 ${tree})
expect(2 "--pass-option elimination=fast: unknown elimination order 'fast'"
  check --pass-option elimination=fast ${tree})
expect(2 "--pass-option report=1: --report takes no argument" check --pass-option report=1 ${tree})

# An example without adm.xaif: the adjoint modes run it from tlm.xaif, judged
# by ref/dd.out, and say so in their line and in the expectations file; when
# adm.xaif appears later, the line's input changed, which is a change.
make_example(${TMP}/tlmonly/head)
file(REMOVE ${TMP}/tlmonly/head/adm.xaif)
expect(0 "PASS* adjoint-joint head (from tlm.xaif, for want of a complete adm.xaif: against dd.out)\n"
  check --mode adjoint-joint ${TMP}/tlmonly)
expect(0 "adjoint-split: 0 passed, 0 failed, 0 skipped; where OpenAD's is wrong, against dd.out: 1 passed, 0 failed (from tlm.xaif, for want of a complete adm.xaif: 1 passed, 0 failed)"
  check --mode adjoint-split ${TMP}/tlmonly)
expect(0 "SKIP  ref-adjoint  head: no ref/adm.xb.xaif" check --mode ref-adjoint ${TMP}/tlmonly)
set(tlmexp ${TMP}/tlmonly.txt)
expect(0 "wrote" check --expect ${tlmexp} --update ${TMP}/tlmonly)
file(READ ${tlmexp} tlmcontent)
string(REGEX MATCH "\nhead +adjoint-split +PASS-DD +[0-9]+ +[0-9]+ +- +- tlm.xaif\n" line "${tlmcontent}")
string(REGEX MATCH "\nhead +tangent +PASS +[0-9]+ +0 +- +-\n" tline "${tlmcontent}")
if(NOT line OR NOT tline)
  message("[FAIL] ${tlmexp}: no adjoint-split line from tlm.xaif, or a tangent line with it:\n${tlmcontent}")
  set(failed 1)
endif()
expect(0 "tlmonly.txt: 0 changes\n" check --expect ${tlmexp} ${TMP}/tlmonly)
expect(0 "wrote" check --expect ${tlmexp} --update ${TMP}/tlmonly)
file(READ ${tlmexp} again)
if(NOT again STREQUAL tlmcontent)
  message("[FAIL] a second --update of ${tlmexp} wrote another file:\n${again}")
  set(failed 1)
endif()
configure_file(${SRC}/examples/head.xaif ${TMP}/tlmonly/head/adm.xaif COPYONLY)
expect(1 "changed  head adjoint-joint: PASS-DD from tlm.xaif in ${tlmexp} -> PASS from adm.xaif\n"
  check --expect ${tlmexp} ${TMP}/tlmonly)
expect(1 "tlmonly.txt: 2 changes" check --expect ${tlmexp} ${TMP}/tlmonly)

# Failing examples: each line names the reason class, the expectations file
# records it, and the same status for another reason is a change.
make_example(${TMP}/fails/wrong)
file(WRITE ${TMP}/fails/wrong/ref/ad.out "F(  1,  1)=1.0\nF(  1,  2)=2.0\n") # not head's Jacobian
make_example(${TMP}/fails/broken)
configure_file(${SRC}/tests/golden/dangling-edge.xaif ${TMP}/fails/broken/tlm.xaif COPYONLY)
expect(1 "FAIL  tangent      wrong: jacobian-mismatch: F(1,1) = " check --mode tangent ${TMP}/fails)
expect(1 "FAIL  dd           broken: read-error: " check --mode dd ${TMP}/fails)
expect(1 "tangent failed by reason: read-error 1, jacobian-mismatch 1\n" check --mode tangent ${TMP}/fails)
set(fexp ${TMP}/fails.txt)
expect(0 "wrote" check --mode dd --mode tangent --expect ${fexp} --update ${TMP}/fails)
file(READ ${fexp} fcontent)
string(REGEX MATCH "\nwrong +tangent +FAIL +- +- +- +- jacobian-mismatch\n" wline "${fcontent}")
string(REGEX MATCH "\nbroken +dd +FAIL +- +- +- +- read-error\n" bline "${fcontent}")
if(NOT wline OR NOT bline)
  message("[FAIL] ${fexp}: no reason class on a failing line:\n${fcontent}")
  set(failed 1)
endif()
expect(0 "fails.txt: 0 changes\n" check --mode dd --mode tangent --expect ${fexp} ${TMP}/fails)
set(content "${fcontent}") # what altered() alters
altered(reason.txt "\n(wrong +tangent +FAIL[^\n]*) jacobian-mismatch" "\n\\1 run-error")
expect(1 "changed  wrong tangent: FAIL (run-error) -> FAIL (jacobian-mismatch)\n${TMP}/reason.txt: 1 change\n"
  check --mode dd --mode tangent --expect ${TMP}/reason.txt ${TMP}/fails)

# --summary: the totals of a hand-made file.
set(sum ${SRC}/tests/check/summary.txt)
expect(0 "dd: 1 passed, 1 failed, 1 skipped\n" check --summary ${sum})
expect(0 "tangent: 2 passed, 0 failed, 0 skipped; custom drivers, against xaifBooster's output under the generic driver: 1 agree, 0 differ\ntangent operations over 2 examples: ours 30, xaifBooster's 40 (0.750)\nadjoint-joint:"
  check --summary ${sum})
expect(0 "adjoint-joint: 1 passed, 1 failed, 0 skipped; where OpenAD's is wrong, against dd.out: 1 passed, 0 failed\nadjoint-joint failed by reason: run-error 1\nadjoint-joint operations over 1 examples: ours 12, xaifBooster's 16 (0.750)\nadjoint-joint tape words over 1 examples: ours 4, xaifBooster's 5 (0.800)\n"
  check --summary ${sum})
expect(0 "dd failed by reason: jacobian-mismatch 1\n" check --summary ${sum})
expect(1 "bad.txt:3: error: unknown status" check --summary ${SRC}/tests/check/bad.txt)

if(failed)
  message(FATAL_ERROR "xaiform check: some cases failed")
endif()
