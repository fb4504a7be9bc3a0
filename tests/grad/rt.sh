#!/bin/sh
# rt.sh XAIFORM CC INCLUDE WORK C_FILE...
# Sizes known at run time. Each C file's first line gives its `xaiform
# grad` options: /* rt-test: --function F --independent ... */; FILE_main.c
# beside it calls F, F_d and F_b through rt_check.h with sizes that no
# option names (nothing is fixed when the code is made). The tangent and
# the adjoint (joint and split reversal) compile with CC -std=c99 -Wall
# -Werror -O2, under AddressSanitizer and UBSan when CC has them (any read
# or write past a caller's array fails), and each size is checked against
# central differences and by the dot-product test. Exit 1 if any failed.
xaiform=$1 cc=$2 inc=$3 work=$4
shift 4
flags="-std=c99 -Wall -Werror -Wunused -O2 -I$inc"
mkdir -p "$work"
echo 'int main(void) { return 0; }' >"$work/san.c"
san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
# shellcheck disable=SC2086
$cc $san "$work/san.c" -o "$work/san" 2>/dev/null && "$work/san" || san=
total=0 passed=0
for src in "$@"; do
  dir=$(dirname "$src") base=$(basename "$src" .c)
  opts=$(sed -n '1s/.*rt-test: *\(.*\) *\*\/.*/\1/p' "$src")
  total=$((total + 1))
  [ -n "$opts" ] || { echo "FAIL $src: no rt-test line"; continue; }
  w=$work/$base
  mkdir -p "$w"
  ok=1 why=
  for k in tangent adjoint split; do
    mode=$k rev=joint
    [ $k = split ] && mode=adjoint rev=split
    # shellcheck disable=SC2086
    "$xaiform" grad "$src" $opts --mode $mode --reversal $rev -o "$w/$k.c" 2>"$w/$k.err" ||
      { ok=0 why="grad $k: $(head -1 "$w/$k.err")"; break; }
  done
  # each file compiled once (the sanitizers make compiling the slow part)
  for k in main f tangent adjoint split; do
    [ $ok = 1 ] || break
    in=$w/$k.c
    [ $k = main ] && in=$dir/${base}_main.c
    [ $k = f ] && in=$src
    # shellcheck disable=SC2086
    $cc $flags $san -I"$dir" -c "$in" -o "$w/$k.o" 2>"$w/cc.err" ||
      { ok=0 why="compile $k: $(grep -m1 error "$w/cc.err")"; }
  done
  for k in adjoint split; do
    [ $ok = 1 ] || break
    # shellcheck disable=SC2086
    $cc $san "$w/main.o" "$w/f.o" "$w/tangent.o" "$w/$k.o" -o "$w/$k" -lm 2>"$w/cc.err" ||
      { ok=0 why="link $k: $(head -1 "$w/cc.err")"; break; }
    "$w/$k" >"$w/$k.out" 2>&1 || { ok=0 why="$k: $(tr '\n' ' ' <"$w/$k.out" | cut -c1-400)"; }
  done
  if [ $ok = 1 ]; then
    passed=$((passed + 1))
    echo "pass $base: $(grep -c ok "$w/adjoint.out") sizes joint, $(grep -c ok "$w/split.out") split"
  else
    echo "FAIL $base: $why"
  fi
done
echo "rt: $passed of $total functions${san:+ (AddressSanitizer, UBSan)}: tangent = central differences, adjoint = tangent by the dot-product test, at sizes unknown when the code was made"
[ "$passed" = "$total" ] && [ "$total" -gt 0 ]
