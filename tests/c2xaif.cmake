# c2xaif.cmake: `xaiform c2xaif` on the command line: a translation that
# validates and runs, a refusal (FILE:LINE:COL, exit status 1, no output),
# clang's own error, usage errors (exit status 2).
set(failed 0)
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

set(c ${SRC}/tests/c)
set(out ${TMP}/c2xaif-straight.xaif)
file(REMOVE ${out})
expect(0 "" c2xaif ${c}/straight.c --function straight --independent x --dependent y -o ${out})
expect(0 "1 valid, 0 invalid" validate ${out})
expect(0 "Y(  3)=  -2.2500000000000000E+000" run ${out} --driver plain -n 3 -m 3 --top straight)

# -D reaches clang: N sets the arrays' extent
file(WRITE ${TMP}/c2xaif-defs.c "void f(const double x[N], double y[N]) {\n"
     "    for (int i = 0; i < N; i++)\n        y[i] = x[i] * x[i];\n}\n")
expect(0 "" c2xaif ${TMP}/c2xaif-defs.c -D N=4 --function f --independent x --dependent y
       -o ${TMP}/c2xaif-defs.xaif)
expect(0 "Y(  4)=   4.0000000000000000E+000" run ${TMP}/c2xaif-defs.xaif --driver plain -n 4 -m 4
       --top f)
expect(1 "c2xaif-defs.c:1:23: error: use of undeclared identifier 'N'" c2xaif ${TMP}/c2xaif-defs.c
       --function f --independent x --dependent y -o ${TMP}/c2xaif-none.xaif)

# -I reaches clang: a header with the size and a function the top function calls
file(MAKE_DIRECTORY ${TMP}/c2xaif-inc)
file(WRITE ${TMP}/c2xaif-inc/sq.h "#define M 2\nstatic double sq(double a) { return a * a; }\n")
file(WRITE ${TMP}/c2xaif-inc.c "#include \"sq.h\"\nvoid f(const double x[M], double y[M]) {\n"
     "    y[0] = sq(x[0]);\n    y[1] = sq(x[1]) * x[0];\n}\n")
expect(0 "" c2xaif ${TMP}/c2xaif-inc.c -I ${TMP}/c2xaif-inc --function f --independent x
       --dependent y -o ${TMP}/c2xaif-inc.xaif)
expect(0 "Y(  2)= 500.0000000000000000E-003" run ${TMP}/c2xaif-inc.xaif --driver plain -n 2 -m 2
       --top f)

# two variables declared by one macro, one shadowing the other, stay two
file(WRITE ${TMP}/c2xaif-decl.c "#define TMP double t = 0.0\nvoid f(const double x[2], double y[2]) {\n"
     "    TMP;\n    t = x[0];\n    {\n        TMP;\n        t = x[1];\n        y[1] = t;\n    }\n"
     "    y[0] = t;\n}\n")
expect(0 "" c2xaif ${TMP}/c2xaif-decl.c --function f --independent x --dependent y
       -o ${TMP}/c2xaif-decl.xaif)
expect(0 "Y(  1)= 500.0000000000000000E-003" run ${TMP}/c2xaif-decl.xaif --driver plain -n 2 -m 2
       --top f)

# the same input gives the same bytes
expect(0 "" c2xaif ${c}/calls.c --function calls --independent x --dependent y
       -o ${TMP}/c2xaif-calls.1.xaif)
expect(0 "" c2xaif ${c}/calls.c --function calls --independent x --dependent y
       -o ${TMP}/c2xaif-calls.2.xaif)
file(READ ${TMP}/c2xaif-calls.1.xaif one)
file(READ ${TMP}/c2xaif-calls.2.xaif two)
if(NOT one STREQUAL two OR one STREQUAL "")
  message("[FAIL] two translations of calls.c differ (or are empty)")
  set(failed 1)
endif()

file(WRITE ${TMP}/c2xaif-goto.c "void f(const double x[2], double y[2]) {\n    y[0] = x[0];\n"
     "    goto end;\nend:\n    y[1] = x[1];\n}\n")
file(REMOVE ${TMP}/c2xaif-goto.xaif)
expect(1 "c2xaif-goto.c:3:5: error: goto is not supported" c2xaif ${TMP}/c2xaif-goto.c
       --function f --independent x --dependent y -o ${TMP}/c2xaif-goto.xaif)
if(EXISTS ${TMP}/c2xaif-goto.xaif)
  message("[FAIL] a refused file left an output")
  set(failed 1)
endif()

# pointer parameters: --extent gives the top function's
file(WRITE ${TMP}/c2xaif-ptr.c "void f(const double *x, double *y) {\n    y[0] = x[0] * x[1];\n}\n")
expect(0 "" c2xaif ${TMP}/c2xaif-ptr.c --function f --independent x --dependent y
       --extent x=2,y=1 -o ${TMP}/c2xaif-ptr.xaif)
expect(0 "Y(  1)= 500.0000000000000000E-003" run ${TMP}/c2xaif-ptr.xaif --driver plain -n 2 -m 1
       --top f)
# y[0] alone: its extent (1) is found from its use
expect(0 "" c2xaif ${TMP}/c2xaif-ptr.c --function f --independent x --dependent y --extent x=2
       -o ${TMP}/c2xaif-ptr.xaif)
# y[i + 1] says nothing of y's extent; an extent is an expression of the int parameters
file(WRITE ${TMP}/c2xaif-ptr2.c "void f(const double *x, double *y, int n) {\n"
     "    for (int i = 0; i + 1 < n; i++)\n        y[i + 1] = x[0] * x[1];\n}\n")
expect(1 "c2xaif-ptr2.c:1:33: error: pointer parameter 'y' has no extent: give --extent y=N"
       c2xaif ${TMP}/c2xaif-ptr2.c --function f --independent x --dependent y --extent x=2
       -o ${TMP}/c2xaif-ptr.xaif)
expect(0 "" c2xaif ${TMP}/c2xaif-ptr2.c --function f --independent x --dependent y
       --extent x=2,y=n -o ${TMP}/c2xaif-ptr.xaif)
expect(1 "--extent y=n*k: 'k' is no int parameter of 'f'" c2xaif ${TMP}/c2xaif-ptr2.c
       --function f --independent x --dependent y --extent x=2,y=n*k -o ${TMP}/c2xaif-ptr.xaif)
expect(1 "--extent y=n[0]: '[' is not allowed in an extent" c2xaif ${TMP}/c2xaif-ptr2.c
       --function f --independent x --dependent y --extent x=2,y=n[0] -o ${TMP}/c2xaif-ptr.xaif)
expect(1 "--extent z=2: 'z' is no pointer parameter of 'f'" c2xaif ${TMP}/c2xaif-ptr.c
       --function f --independent x --dependent y --extent z=2 -o ${TMP}/c2xaif-ptr.xaif)

expect(2 "the top function is missing" c2xaif ${c}/straight.c --independent x --dependent y
       -o ${out})
expect(2 "--independent and --dependent are needed" c2xaif ${c}/straight.c --function straight
       -o ${out})
expect(2 "one C file is needed" c2xaif --function straight --independent x --dependent y -o ${out})

# libclang is opened by c2xaif only (frontends/c2xaif/dl_clang.c): the
# other verbs do not load it (the dynamic loader's trace, LD_DEBUG=libs)
foreach(run "tangent;${out};-o;${TMP}/c2xaif-straight.tangent.xaif"
    "c2xaif;${c}/straight.c;--function;straight;--independent;x;--dependent;y;-o;${out}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_DEBUG=libs ${XAIFORM} ${run}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  list(GET run 0 verb)
  string(REGEX MATCH "calling init: [^\n]*/libclang[^\n/]*\\.so" hit "${o}${e}")
  string(FIND "${o}${e}" "calling init: " traced)
  if(NOT rc EQUAL 0 OR traced EQUAL -1)
    message("[FAIL] ${verb} under LD_DEBUG=libs: exit ${rc}, or no trace")
    set(failed 1)
  elseif(verb STREQUAL "tangent" AND NOT hit STREQUAL "")
    message("[FAIL] tangent loads libclang: ${hit}")
    set(failed 1)
  elseif(verb STREQUAL "c2xaif" AND hit STREQUAL "")
    message("[FAIL] c2xaif does not load libclang")
    set(failed 1)
  endif()
endforeach()

if(failed)
  message(FATAL_ERROR "c2xaif command line tests failed")
endif()
