#!/bin/sh
# options.sh XAIFORM CORPUS: the differential test of issue 26, small
# enough for CI. A sample of the corpus's examples with loops is
# transformed by `xaiform adjoint` under a handful of option combinations;
# each derivative runs under the joint driver (the split one for split
# reversal) with the example's params.conf, and its Jacobian must equal the
# default adjoint's to 1e-9 relative (or 1e-12 absolute). A combination
# may refuse an example (exit 1, as --checkpoint-loop does a loop outside
# the top routine) but never fail otherwise; a run that fails, or a
# Jacobian that differs, fails the test, and so does a test that compared
# nothing.
set -u
X=$1 CORPUS=$2
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
scratch xf-options
examples="overlappingLHS speelpenning NestedLoopIf Loop_simple_14 Loop_3 argumentConversion_4b"
# one combination a line; CKP stands for --checkpoint-loop head:LINE of the
# example's first ForLoop
combos='--loops auto -e markowitz
--reversal split --loops auto --address-recovery store
--iteration-wise-joint --dry-run --tape-off invert
--per-iteration-dry-run
--tape-off all -e forward
CKP --schedule two-level:2'
refused=0
for e in $examples; do
    d=$CORPUS/openad/$e
    [ -f "$d/adm.xaif" ] || { echo "FAIL $e: no $d/adm.xaif"; bad=$((bad + 1)); continue; }
    line=$(grep -o '<xaif:ForLoop [^>]*lineNumber="[0-9]*"' "$d/adm.xaif" | head -1 | sed 's/.*lineNumber="//; s/"//')
    for dr in joint split; do
        if ! "$X" adjoint "$d/adm.xaif" -o "$tmp/$e.$dr.xaif" --reversal $dr 2>"$tmp/err" ||
            ! "$X" run "$tmp/$e.$dr.xaif" --driver adjoint-$dr --params "$d/params.conf" \
                >"$tmp/$e.$dr.out" 2>>"$tmp/err"; then
            echo "FAIL $e: the default adjoint ($dr): $(head -c 200 "$tmp/err")"
            bad=$((bad + 1))
        fi
        jac "$tmp/$e.$dr.out" >"$tmp/$e.$dr.jac"
    done
    echo "$combos" | while IFS= read -r c; do
        dr="joint"
        case $c in *"--reversal split"*) dr="split" ;; esac
        opts=$(printf '%s' "$c" | sed "s/CKP/--checkpoint-loop head:$line/")
        # shellcheck disable=SC2086 # $opts: the options, split on blanks
        "$X" adjoint "$d/adm.xaif" -o "$tmp/o.xaif" $opts 2>"$tmp/err"
        rc=$?
        if [ $rc = 1 ] && [ "${c#CKP}" != "$c" ]; then
            echo "refused"
            continue
        elif [ $rc != 0 ]; then
            echo "FAIL $e, $c: adjoint exit $rc: $(head -c 200 "$tmp/err")"
            continue
        fi
        if ! "$X" run "$tmp/o.xaif" --driver adjoint-$dr --params "$d/params.conf" >"$tmp/o.out" 2>"$tmp/err"; then
            echo "FAIL $e, $c: run: $(head -c 200 "$tmp/err")"
            continue
        fi
        jac "$tmp/o.out" >"$tmp/o.jac"
        if [ ! -s "$tmp/o.jac" ] || ! agree "$tmp/$e.$dr.jac" "$tmp/o.jac" 1e-9; then
            echo "FAIL $e, $c: the Jacobian differs from the default adjoint's"
            continue
        fi
        echo "same"
    done >"$tmp/res"
    grep FAIL "$tmp/res"
    same=$((same + $(grep -c '^same' "$tmp/res")))
    refused=$((refused + $(grep -c '^refused' "$tmp/res")))
    bad=$((bad + $(grep -c '^FAIL' "$tmp/res")))
done
echo "option combinations: $same Jacobians the default's, $refused refused, $bad failed"
[ "$bad" = 0 ] && [ "$same" -gt 0 ]
