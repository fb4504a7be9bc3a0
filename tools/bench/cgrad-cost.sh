#!/bin/sh
# cgrad-cost.sh [-x XAIFORM] [-w WORK] [TEST.c...]: the cost of the
# derivative code `xaiform grad` writes for the functions of tests/cgrad/
# (default: all of them), C as people write it. Each test goes through grad
# as tangent and as joint and split adjoint (its own options, first line);
# what grad accepts is compiled with CC (default cc) and CFLAGS (default
# -O2) with the test's shim (check.h) and timed by cgrad_cost.c. Prints a
# Markdown table: f's CPU time per call and the ratios f_d/f, f_b/f (joint),
# f_b/f (split); "-" where grad refuses the mode. Tapenade has no
# derivative of these functions: for that comparison see adbench.sh.
# A benchmark, not a test: times vary with the machine's load.
# shellcheck disable=SC2086 # CFLAGS and a test's options are word lists
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
xaiform=$root/build/xaiform
work=${TMPDIR:-/tmp}/xaiform-cgrad-cost
while [ $# -gt 0 ]; do
  case $1 in
  -x) xaiform=$2; shift 2 ;;
  -w) work=$2; shift 2 ;;
  -*) echo "usage: cgrad-cost.sh [-x XAIFORM] [-w WORK] [TEST.c...]" >&2; exit 2 ;;
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

us() { awk -v t="$1" 'BEGIN { if (t == "" || t < 0) print "-"; else printf "%.3g", t * 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || a < 0 || b <= 0) print "-"; else printf "%.2f", a / b }'; }
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" "$2"; }

echo "| function | f (µs) | f_d / f | f_b / f joint | f_b / f split |"
echo "|---|---:|---:|---:|---:|"
for src in "$@"; do
  case $src in */check.c) continue ;; esac
  name=$(basename "$src" .c)
  spec=$(sed -n '1s|^/\* cgrad: \(.*\) \*/$|\1|p' "$src")
  [ -n "$spec" ] || continue
  fn=${spec%% *} opts=${spec#* }
  w=$work/$name
  mkdir -p "$w"
  tf='' td='' tj='' ts=''
  for k in tangent joint split; do
    mode=adjoint rev=$k want="-DXF_WANT_B"
    [ $k = tangent ] && mode=tangent rev=joint want="-DXF_WANT_D"
    "$xaiform" grad "$src" --function "$fn" $opts --mode $mode --reversal $rev \
      -o "$w/$k.c" 2>"$w/$k.err" || continue
    if ! { $cc -std=c99 $cflags -I"$root/include" -c "$w/$k.c" -o "$w/$k.o" 2>"$w/$k.cc.err" &&
      $cc -std=c99 $cflags -DXF_CHECK $want -I"$tdir" "$src" "$w/$k.o" "$work/cost.o" \
        -o "$w/$k.bin" -lm 2>>"$w/$k.cc.err" && "$w/$k.bin" >"$w/$k.out" 2>&1; }; then
      continue
    fi
    [ -n "$tf" ] || tf=$(field t_f "$w/$k.out")
    case $k in
    tangent) td=$(field t_d "$w/$k.out") ;;
    joint) tj=$(field t_b "$w/$k.out") ;;
    split) ts=$(field t_b "$w/$k.out") ;;
    esac
  done
  [ -n "$tf" ] || continue
  echo "| $name | $(us "$tf") | $(ratio "$td" "$tf") | $(ratio "$tj" "$tf") | $(ratio "$ts" "$tf") |"
done
