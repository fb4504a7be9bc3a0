#!/bin/sh
# cgrad-cost.sh [-x XAIFORM] [-w WORK] [-n SCALE | -t MICROSECONDS] [-i]
# [TEST.c...]: the cost of the
# derivative code `xaiform grad` writes for the functions of tests/cgrad/
# (default: all of them), C as people write it. Each test goes through grad
# as tangent and as joint and split adjoint (its own options, first line);
# what grad accepts is compiled with CC (default cc) and CFLAGS (default
# -O2) with the test's shim (check.h) and timed by cgrad_cost.c. Prints a
# Markdown table: f's CPU time per call and the ratios f_d/f, f_b/f (joint),
# f_b/f (split); "-" where grad refuses the mode. The tests whose sizes
# are run-time multiply them by XF_SCALE (check.h): -n SCALE sets it, -t US
# takes for each such test the least power of two (at most 4096) at which
# f takes US microseconds. -i counts instructions (callgrind, inclusive, per
# call of the shim's xf_f, xf_d, xf_b) instead of timing; the f column is
# then instructions per call of f. Tapenade has no
# derivative of these functions: for that comparison see adbench.sh.
# A benchmark, not a test: times vary with the machine's load.
# shellcheck disable=SC2086 # CFLAGS and a test's options are word lists
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
xaiform=$root/build/xaiform
work=${TMPDIR:-/tmp}/xaiform-cgrad-cost
scale=1 target='' count=''
usage="usage: cgrad-cost.sh [-x XAIFORM] [-w WORK] [-n SCALE | -t MICROSECONDS] [-i] [TEST.c...]"
while [ $# -gt 0 ]; do
  case $1 in
  -x) xaiform=$2; shift 2 ;;
  -w) work=$2; shift 2 ;;
  -n) scale=$2; shift 2 ;;
  -t) target=$2; shift 2 ;;
  -i) count=1; shift ;;
  -*) echo "$usage" >&2; exit 2 ;;
  *) break ;;
  esac
done
[ $# -gt 0 ] || set -- "$root"/tests/cgrad/[a-z]*.c
[ -x "$xaiform" ] || { echo "cgrad-cost.sh: $xaiform: not an executable (-x XAIFORM)" >&2; exit 1; }
cc=${CC:-cc}
cflags=${CFLAGS:--O2}
tdir=$root/tests/cgrad
mkdir -p "$work" || exit 1
$cc -std=c99 $cflags -I"$tdir" -c "$here/cgrad_cost.c" -o "$work/cost.o" || exit 1

[ -z "$count" ] || command -v valgrind >/dev/null ||
  { echo "cgrad-cost.sh: -i needs valgrind" >&2; exit 1; }

us() { awk -v t="$1" 'BEGIN { if (t == "" || t < 0) print "-"; else printf "%.3g", t * 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || a < 0 || b <= 0) print "-"; else printf "%.2f", a / b }'; }
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" "$2"; }

# instructions per call of the shim's function $1 in callgrind's file $2
# after $3 calls
ir() {
  callgrind_annotate --inclusive=yes "$2" 2>/dev/null |
    awk -v f="$1" -v k="$3" '$0 ~ ":" f " " { gsub(",", "", $1); print $1 / k; exit }'
}
# the time per call of f (or its instructions) with the test's binary $1
measure() {
  if [ -n "$count" ]; then
    XF_COST_REPS=$reps valgrind --tool=callgrind --callgrind-out-file="$1.cg" "$1" >"$1.out" 2>/dev/null || return 1
    echo "t_f=$(ir xf_f "$1.cg" "$reps") t_d=$(ir xf_d "$1.cg" "$reps") t_b=$(ir xf_b "$1.cg" "$reps")" >"$1.out"
  else
    "$1" >"$1.out" 2>&1
  fi
}
reps=20

if [ -n "$count" ]; then unit="f (instr.)"; else unit="f (µs)"; fi
# the least power of two (at most 4096) at which f of test $1 (function
# $2, grad's options $3, work folder $4) takes $target microseconds
pick() {
  "$xaiform" grad "$1" --function "$2" $3 --mode tangent -o "$4/pick.c" 2>"$4/pick.err" || return 1
  $cc -std=c99 $cflags -I"$root/include" -c "$4/pick.c" -o "$4/pick.o" 2>>"$4/pick.err" || return 1
  p=1
  while :; do
    $cc -std=c99 $cflags -DXF_CHECK -DXF_SCALE=$p -DXF_WANT_D -I"$tdir" "$1" "$4/pick.o" \
      "$work/cost.o" -o "$4/pick.bin" -lm 2>>"$4/pick.err" || return 1
    t=$(XF_COST_F_ONLY=1 "$4/pick.bin" | sed -n 's/.*t_f=\([^ ]*\).*/\1/p')
    if [ "$p" -ge 4096 ] || awk -v t="$t" -v u="$target" 'BEGIN { exit !(t * 1e6 >= u) }'; then
      echo "$p"
      return 0
    fi
    p=$((p * 2))
  done
}

echo "| function | scale | $unit | f_d / f | f_b / f joint | f_b / f split |"
echo "|---|---:|---:|---:|---:|---:|"
for src in "$@"; do
  case $src in */check.c) continue ;; esac
  name=$(basename "$src" .c)
  spec=$(sed -n '1s|^/\* cgrad: \(.*\) \*/$|\1|p' "$src")
  [ -n "$spec" ] || continue
  fn=${spec%% *} opts=${spec#* }
  w=$work/$name
  mkdir -p "$w"
  tf='' td='' tj='' ts='' n=1
  if grep -q XF_SCALE "$src"; then
    n=$scale
    [ -z "$target" ] || n=$(pick "$src" "$fn" "$opts" "$w") || continue
  fi
  for k in tangent joint split; do
    mode=adjoint rev=$k want="-DXF_WANT_B"
    [ $k = tangent ] && mode=tangent rev=joint want="-DXF_WANT_D"
    "$xaiform" grad "$src" --function "$fn" $opts --mode $mode --reversal $rev \
      -o "$w/$k.c" 2>"$w/$k.err" || continue
    if ! { $cc -std=c99 $cflags -I"$root/include" -c "$w/$k.c" -o "$w/$k.o" 2>"$w/$k.cc.err" &&
      $cc -std=c99 $cflags -DXF_CHECK -DXF_SCALE="$n" $want -I"$tdir" "$src" "$w/$k.o" \
        "$work/cost.o" -o "$w/$k.bin" -lm 2>>"$w/$k.cc.err" && measure "$w/$k.bin"; }; then
      continue
    fi
    [ -n "$tf" ] || tf=$(field t_f "$w/$k.bin.out")
    case $k in
    tangent) td=$(field t_d "$w/$k.bin.out") ;;
    joint) tj=$(field t_b "$w/$k.bin.out") ;;
    split) ts=$(field t_b "$w/$k.bin.out") ;;
    esac
  done
  [ -n "$tf" ] || continue
  if [ -n "$count" ]; then f=$(printf %.0f "$tf"); else f=$(us "$tf"); fi
  echo "| $name | $n | $f | $(ratio "$td" "$tf") | $(ratio "$tj" "$tf") | $(ratio "$ts" "$tf") |"
done
