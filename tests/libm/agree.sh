#!/bin/sh
# agree.sh XAIFORM CC INCLUDE AGREE_C WORK C_FILE...
# The interpreter and the compiled code agree on the C library: for each C
# file (first line /* c2xaif-test: F N M */), `xaiform run` of c2xaif's xaif
# (driver plain) and of its tangent (driver tangent) against the compiled F
# and the F_D that `xaiform grad` writes (agree.c), at the drivers' point
# x0(i) = (i+1)/2: every value and every Jacobian entry equal to 1e-13
# relative (to the entry, or to 1 when it is smaller). The two sides call the
# same <math.h> functions; they differ by a rounding where the interpreter
# computes fma(a, b, c) as a*b + c and in digamma, which each implements.
# One line per file; exit 1 if any failed.
xaiform=$1 cc=$2 inc=$3 agree=$4 work=$5
shift 5
flags="-std=c99 -Wall -Werror -O2 -I$inc"
total=0 passed=0
for src in "$@"; do
  total=$((total + 1))
  # shellcheck disable=SC2046
  set -- $(sed -n '1s/.*c2xaif-test: *\([A-Za-z0-9_]*\) \([0-9]*\) \([0-9]*\).*/\1 \2 \3/p' "$src")
  f=$1 n=$2 m=$3
  w=$work/$f
  mkdir -p "$w"
  io="--function $f --independent x --dependent y"
  # shellcheck disable=SC2086
  if ! { "$xaiform" c2xaif "$src" $io -o "$w/f.xaif" &&
    "$xaiform" tangent "$w/f.xaif" -o "$w/t.xaif" &&
    "$xaiform" grad "$src" $io --mode tangent -o "$w/t.c" &&
    $cc $flags -DF="$f" -DF_D="${f}_d" "$agree" "$src" "$w/t.c" -o "$w/agree" -lm &&
    "$w/agree" "$n" "$m" >"$w/compiled.txt" &&
    "$xaiform" run "$w/f.xaif" --driver plain -n "$n" -m "$m" --top "$f" >"$w/plain.out" &&
    "$xaiform" run "$w/t.xaif" --driver tangent -n "$n" -m "$m" --top "$f" >"$w/tangent.out"; } 2>"$w/err"; then
    echo "FAIL $f: $(head -1 "$w/err")"
    continue
  fi
  # Y(  k)=v and F(  k,  i)=v to the compiled side's form
  sed -n 's/^Y( *\([0-9]*\))= *\(.*\)$/Y \1 \2/p' "$w/plain.out" >"$w/interp.txt"
  sed -n 's/^F( *\([0-9]*\), *\([0-9]*\))= *\(.*\)$/F \1 \2 \3/p' "$w/tangent.out" >>"$w/interp.txt"
  if r=$(awk 'function abs(v) { return v < 0 ? -v : v }
      NR == FNR { key = $1 " " $2 " " $3; if ($1 == "Y") key = $1 " " $2; want[key] = $NF; next }
      { key = $1 " " $2 " " $3; if ($1 == "Y") key = $1 " " $2
        if (!(key in want)) { print "missing " key; bad = 1; exit }
        got = $NF + 0; w = want[key] + 0; s = abs(w) > 1 ? abs(w) : 1
        e = abs(got - w) / s; if (e > worst) worst = e; n++; delete want[key] }
      END { for (k in want) { print "interpreter lacks " k; bad = 1 }
            if (bad) exit 1
            if (worst > 1e-13) { printf "worst %.3g over %d numbers\n", worst, n; exit 1 }
            printf "%d numbers, worst %.3g\n", n, worst }' "$w/compiled.txt" "$w/interp.txt"); then
    passed=$((passed + 1))
    echo "pass $f: $r"
  else
    echo "FAIL $f: $r"
  fi
done
echo "agree: $passed of $total files: xaiform run = compiled C, values and tangents"
[ "$passed" = "$total" ] && [ "$total" -gt 0 ]
