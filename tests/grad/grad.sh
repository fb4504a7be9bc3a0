#!/bin/sh
# grad.sh XAIFORM CC INCLUDE CHECK_C WORK C_FILE...
# Each C file's first line names its function F, N inputs, M outputs (and
# the extents of pointer parameters): /* c2xaif-test: F N M [x=N,y=M] */.
# `xaiform grad` writes F's tangent and its adjoint (joint and split
# reversal); each compiles with CC -std=c99 -Wall -Werror -Wunused -O2 and the
# runtime header alone, and check.c checks the tangent against central
# differences of the compiled F and each adjoint against the tangent by
# the dot-product test. One line per function; exit 1 if any failed.
# GRAD_OPTS (environment): more options for every `xaiform grad` (say
# "--pass-option loops=auto").
xaiform=$1 cc=$2 inc=$3 check=$4 work=$5
shift 5
flags="-std=c99 -Wall -Werror -Wunused -O2 -I$inc"
total=0 passed=0
for src in "$@"; do
  set -- $(sed -n '1s/.*c2xaif-test: *\([A-Za-z0-9_]*\) \([0-9]*\) \([0-9]*\) *\([^ *]*\).*/\1 \2 \3 \4/p' "$src")
  f=$1 n=$2 m=$3 ext=$4
  [ -n "$f" ] || { echo "FAIL $src: no c2xaif-test line"; total=$((total + 1)); continue; }
  total=$((total + 1))
  w=$work/$f
  mkdir -p "$w"
  ea=
  [ -n "$ext" ] && ea="--extent $ext"
  ok=1 why=
  for k in tangent adjoint split; do
    mode=$k rev=joint
    [ $k = split ] && mode=adjoint rev=split
    # shellcheck disable=SC2086
    "$xaiform" grad "$src" --function "$f" --independent x --dependent y $ea ${GRAD_OPTS:-} \
        --mode $mode --reversal $rev -o "$w/$k.c" 2>"$w/$k.err" || { ok=0 why="grad $k: $(head -1 "$w/$k.err")"; break; }
  done
  if [ $ok = 1 ]; then
    $cc $flags -c "$src" -o "$w/f.o" 2>"$w/cc.err" &&
      $cc $flags -c "$w/tangent.c" -o "$w/t.o" 2>>"$w/cc.err" &&
      $cc $flags -DF="$f" -DF_D="${f}_d" -DF_B="${f}_b" "$check" "$w/f.o" "$w/t.o" "$w/adjoint.c" -o "$w/joint" -lm 2>>"$w/cc.err" &&
      $cc $flags -DF="$f" -DF_D="${f}_d" -DF_B="${f}_b" "$check" "$w/f.o" "$w/t.o" "$w/split.c" -o "$w/split" -lm 2>>"$w/cc.err" ||
      { ok=0 why="compile: $(grep -m1 error "$w/cc.err")"; }
  fi
  if [ $ok = 1 ]; then
    "$w/joint" "$n" "$m" 5 >"$w/joint.out" 2>&1 || { ok=0 why="joint: $(tr '\n' ' ' <"$w/joint.out")"; }
    "$w/split" "$n" "$m" 5 >"$w/split.out" 2>&1 || { ok=0 why="$why split: $(tr '\n' ' ' <"$w/split.out")"; }
  fi
  if [ $ok = 1 ]; then
    passed=$((passed + 1))
    echo "pass $f: $(sed -n 's/^check \([a-z]*\) ok worst /\1 /p' "$w/joint.out" | tr '\n' ' ')"
  else
    echo "FAIL $f: $why"
  fi
done
echo "grad: $passed of $total functions: tangent = central differences, adjoint (joint and split) = tangent by the dot-product test"
[ "$passed" = "$total" ] && [ "$total" -gt 0 ]
