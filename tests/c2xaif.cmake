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
expect(1 "c2xaif-ptr.c:1:33: error: pointer parameter 'y' has no extent: give --extent y=N"
       c2xaif ${TMP}/c2xaif-ptr.c --function f --independent x --dependent y --extent x=2
       -o ${TMP}/c2xaif-ptr.xaif)
expect(1 "--extent z=2: 'z' is no pointer parameter of 'f'" c2xaif ${TMP}/c2xaif-ptr.c
       --function f --independent x --dependent y --extent z=2 -o ${TMP}/c2xaif-ptr.xaif)

expect(2 "the top function is missing" c2xaif ${c}/straight.c --independent x --dependent y
       -o ${out})
expect(2 "--independent and --dependent are needed" c2xaif ${c}/straight.c --function straight
       -o ${out})
expect(2 "one C file is needed" c2xaif --function straight --independent x --dependent y -o ${out})

if(failed)
  message(FATAL_ERROR "c2xaif command line tests failed")
endif()
