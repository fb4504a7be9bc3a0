#!/bin/sh
# grad-cost.sh XAIFORM [CC] [C_FILE...]: the cost of the derivative code
# `xaiform grad` writes: for each C file (default: the test functions of
# tests/c and tests/grad), F, its tangent F_d and its adjoint F_b (joint
# reversal) compiled with CC -std=c99 -O2, timed by grad_cost.c; prints a
# Markdown table. A benchmark, not a test.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
xaiform=${1:?usage: grad-cost.sh XAIFORM [CC] [C_FILE...]}
cc=${2:-cc}
[ $# -ge 2 ] && shift 2 || shift 1
[ $# -gt 0 ] || set -- "$root"/tests/c/*.c "$root"/tests/grad/[a-z]*.c
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| function | n | m | F (µs per call) | F_d / F | F_b / F |"
echo "|---|---:|---:|---:|---:|---:|"
for src in "$@"; do
  case $src in */check.c) continue ;; esac
  set -- $(sed -n '1s/.*c2xaif-test: *\([A-Za-z0-9_]*\) \([0-9]*\) \([0-9]*\) *\([^ *]*\).*/\1 \2 \3 \4/p' "$src")
  [ -n "$1" ] || continue
  f=$1 n=$2 m=$3 ext=
  [ -n "$4" ] && ext="--extent $4"
  # shellcheck disable=SC2086
  "$xaiform" grad "$src" --function "$f" --independent x --dependent y $ext --mode tangent -o "$work/t.c" &&
    "$xaiform" grad "$src" --function "$f" --independent x --dependent y $ext --mode adjoint -o "$work/a.c" &&
    $cc -std=c99 -O2 -I"$root/include" -DF="$f" -DF_D="${f}_d" -DF_B="${f}_b" \
      "$here/grad_cost.c" "$src" "$work/t.c" "$work/a.c" -o "$work/cost" -lm &&
    "$work/cost" "$n" "$m" || echo "| $f | $n | $m | (failed) | | |"
done
