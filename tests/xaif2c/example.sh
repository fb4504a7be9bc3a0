#!/bin/sh
# example.sh XAIFORM CC INCLUDE DRIVER EXAMPLE_DIR WORK_DIR [joint|split]
# One corpus example through the C back end: the program (tlm.xaif), its
# tangent and its adjoint (adm.xaif) as C, compiled with CC -std=c99 -Wall
# -Werror -O2 and checked by DRIVER (driver.c). Prints one line:
#   NAME STATUS [DETAIL]
# STATUS: pass; refused (xaif2c said no: DETAIL is its message); skip (no
# tlm.xaif/adm.xaif, xaiform could not transform or run it, or the top
# routine is not head(x, y)); fail-compile; fail-CHECK,... (checks that failed).
xaiform=$1 cc=$2 inc=$3 driver=$4 dir=$5 work=$6 reversal=${7:-joint}
name=$(basename "$dir")
w=$work/$name
mkdir -p "$w" || exit 1
say() { echo "$name $*"; exit 0; }
[ -f "$dir/tlm.xaif" ] && [ -f "$dir/adm.xaif" ] && [ -f "$dir/params.conf" ] || say skip no tlm.xaif, adm.xaif or params.conf
n=$(sed -n 1p "$dir/params.conf" | tr -d ' \r') m=$(sed -n 2p "$dir/params.conf" | tr -d ' \r')
tol=$(sed -n 4p "$dir/params.conf" | tr -d ' \r' | sed 's/[dD]/e/')
"$xaiform" tangent "$dir/tlm.xaif" -o "$w/t.xaif" 2>/dev/null || say skip xaiform tangent fails
"$xaiform" adjoint "$dir/adm.xaif" -o "$w/a.xaif" 2>/dev/null || say skip xaiform adjoint fails
"$xaiform" run "$dir/tlm.xaif" --driver plain --params "$dir/params.conf" ${XF_TOP:+--top $XF_TOP} >"$w/p.ref" 2>/dev/null || say skip xaiform run plain fails
"$xaiform" run "$w/t.xaif" --driver tangent --params "$dir/params.conf" ${XF_TOP:+--top $XF_TOP} >"$w/t.ref" 2>/dev/null || say skip xaiform run tangent fails
"$xaiform" run "$w/a.xaif" --driver adjoint-joint --params "$dir/params.conf" ${XF_TOP:+--top $XF_TOP} >/dev/null 2>&1 || say skip xaiform run adjoint-joint fails
for k in p t a; do
  case $k in p) in=$dir/tlm.xaif ;; *) in=$w/$k.xaif ;; esac
  if ! "$xaiform" xaif2c "$in" -o "$w/$k.c" --reversal "$reversal" 2>"$w/$k.err"; then
    msg=$(head -1 "$w/$k.err" | sed 's/^[^:]*:[0-9]*: error: //')
    say refused "$k: $msg"
  fi
done
# the top routine must be head(x, y) with x, y active: F(x, y), F_D(x, xd, y, yd), F_B(...)
top=$(sed -n 's/^void \([A-Za-z0-9_]*\)(double \*[A-Za-z0-9_]*, double \*[A-Za-z0-9_]*);$/\1/p' "$w/p.c" | grep -i "^${XF_TOP:-head}" | head -1)
[ -n "$top" ] || say skip top routine is not head with two real arguments
grep -q "^void ${top}_d(double \*[A-Za-z0-9_]*, double \*[A-Za-z0-9_]*, double \*[A-Za-z0-9_]*, double \*[A-Za-z0-9_]*);$" "$w/t.c" || say skip "tangent top routine is not ${top}_d(x, xd, y, yd)"
grep -q "^void ${top}_b(double \*[A-Za-z0-9_]*, double \*[A-Za-z0-9_]*, double \*[A-Za-z0-9_]*, double \*[A-Za-z0-9_]*);$" "$w/a.c" || say skip "adjoint top routine is not ${top}_b(x, xb, y, yb)"
flags="-std=c99 -Wall -Werror -Wunused -O2 -I$inc"
$cc $flags -c "$w/p.c" -o "$w/p.o" 2>"$w/cc.err" &&
  $cc $flags -c "$w/t.c" -o "$w/t.o" 2>>"$w/cc.err" &&
  $cc $flags -DF="$top" -DF_D="${top}_d" -DF_B="${top}_b" "-DADJ=\"$w/a.c\"" "$driver" "$w/p.o" "$w/t.o" -o "$w/drv" -lm 2>>"$w/cc.err" ||
  say fail-compile "$(grep -m1 error "$w/cc.err")"
"$w/drv" "$n" "$m" "${tol:-1e-5}" "$w/p.ref" "$w/t.ref" 3 >"$w/drv.out" 2>&1
bad=$(sed -n 's/^check \([a-z]*\) FAIL.*/\1/p' "$w/drv.out" | tr '\n' ',' | sed 's/,$//')
checks=$(grep -c '^check .* ok' "$w/drv.out")
[ -z "$bad" ] && [ "$checks" = 4 ] && say pass "$(sed -n 's/^check \(dd\|dot\) ok /\1=/p' "$w/drv.out" | tr '\n' ' ')"
[ -n "$bad" ] || bad=crash
say "fail-$bad" "$(tr '\n' ' ' <"$w/drv.out" | cut -c1-200)"
