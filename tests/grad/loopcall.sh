#!/bin/sh
# loopcall.sh XAIFORM LOOPCALL_C WORK
# Loops whose body calls a helper (transforms/tape/tbr_invert.c): in
# tests/grad/loopcall.c, gates' loop runs to its formal n and calls sig,
# which writes only its own formals and locals (its Mod lists), so the
# adjoint runs the loop backwards: under joint and split reversal no
# integer is pushed inside any loop of gates' adjoint, nor n's value
# after the loop (golden.grad checks the gradient itself). Exit 1 on a
# failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
# ipushes WHERE FILE: the integer pushes of gates' adjoint functions inside
# a loop (WHERE = loop) or outside one (WHERE = top)
ipushes() {
  awk -v where="$1" '
    /^gates[_a-z]*[(]/ { inside = 1; depth = 0 }
    inside {
      if (index($0, "xf_ad_ipush(")) { if (depth >= 2) loop++; else top++ }
      depth += gsub(/[{]/, "{") - gsub(/[}]/, "}")
      if (depth == 0 && /^}/) inside = 0
    }
    END { print (where == "loop" ? loop : top) + 0 }' "$2"
}
rc=0
for rev in joint split; do
  "$xaiform" grad "$src" --function loopcall --independent x --dependent y --mode adjoint \
    --reversal $rev -o "$work/$rev.c" 2>"$work/$rev.err" ||
    { echo "FAIL grad --reversal $rev: $(head -1 "$work/$rev.err")"; exit 1; }
  in_loop=$(ipushes loop "$work/$rev.c") top=$(ipushes top "$work/$rev.c")
  fns=$(grep -c '^gates[_a-z]*[(]' "$work/$rev.c")
  [ "$in_loop" = 0 ] ||
    { echo "FAIL $rev: gates' loop is not inverted ($in_loop integer pushes in loops)"; rc=1; }
  # n, a formal nothing writes, is read again by the reversed loop's
  # header (transforms/core/reverse.c, bound_again), not pushed
  [ "$top" = 0 ] || { echo "FAIL $rev: $top integer pushes outside gates' loops"; rc=1; }
  [ "$fns" -gt 0 ] || { echo "FAIL $rev: no function of gates"; rc=1; }
done
[ $rc = 0 ] && echo "loopcall: gates' loop inverted, no integer pushed per iteration"
exit $rc
