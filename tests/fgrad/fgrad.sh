#!/bin/sh
# fgrad.sh XAIFORM SRC WORK NAME: `xaiform grad` on a Fortran program of the
# project's own, NAME: sample (tests/f/sample.f90 with its module), fixed
# (tests/fgrad/fixed.f) or stencil (tests/fgrad/stencil.F90), each a
# routine head(x, y): its tangent and its
# adjoint (joint and split reversal), compiled with gfortran -std=f2008
# -Wall -Werror (and -Wno-integer-division: the last iterate of a reversed
# DO loop is an integer division the compiler folds) with the runtime
# module xaiform_ad.f90, the program itself and check.F90, which checks the
# tangent against central differences of the program and each adjoint
# against the tangent by the dot-product test. One line; exit 1 if it
# failed, 77 (not run) without gfortran ($XF_FC).
xaiform=$1 src=$2 work=$3 which=$4
fc=${XF_FC:-gfortran}
command -v "$fc" >/dev/null 2>&1 || { echo "not run: no Fortran compiler ($fc)"; exit 77; }
flags="-std=f2008 -Wall -Werror -Wno-integer-division"
rm -rf "${work:?}/$which" && mkdir -p "$work" || exit 1
# NAME N M INDEPENDENT DEPENDENT FILE... ('-': from the c$openad pragmas)
run() {
    name=$1 n=$2 m=$3 ind=$4 dep=$5
    shift 5
    w=$work/$name
    mkdir -p "$w/joint" "$w/split"
    opts=
    [ "$ind" = - ] || opts="--independent $ind --dependent $dep"
    for k in tangent joint split; do
        mode=adjoint
        [ $k = tangent ] && mode=tangent
        rev=joint
        [ $k = split ] && rev="split"
        # shellcheck disable=SC2086
        if ! "$xaiform" grad "$@" --function head $opts --mode $mode --reversal $rev \
            -o "$w/$k.f90" 2>"$w/$k.err"; then
            echo "FAIL $name: grad $k: $(head -1 "$w/$k.err")"
            return 1
        fi
    done
    for k in joint split; do
        d=$w/$k
        # the modules first, then the program; the derivatives; the driver
        mods='' rest=''
        for f in "$@"; do
            if grep -qi '^ *module ' "$f"; then mods="$mods $f"; else rest="$rest $f"; fi
        done
        # shellcheck disable=SC2086
        if ! (cd "$d" && "$fc" $flags -c "$src/include/xaiform/xaiform_ad.f90" $mods $rest \
            ../tangent.f90 ../$k.f90 &&
            "$fc" $flags -DXF_N="$n" -DXF_M="$m" -DF=head -DF_D=head_d -DF_B=head_b \
                -DXF_ADJOINT "$src/tests/fgrad/check.F90" ./*.o -o check) >"$d/cc.err" 2>&1; then
            echo "FAIL $name: compile $k: $(grep -m1 -i error "$d/cc.err")"
            return 1
        fi
        if ! "$d/check" >"$d/out" 2>&1; then
            echo "FAIL $name: $k: $(tr '\n' ' ' <"$d/out")"
            return 1
        fi
    done
    worst() { sed -n "s/^check $1 worst *//p" "$w/$2/out"; }
    echo "pass $name: tangent against central differences $(worst tangent joint)," \
        "dot-product test: joint $(worst adjoint joint), split $(worst adjoint split)"
}
case $which in
sample) run sample 3 3 x y "$src/tests/f/sample.f90" "$src/tests/f/sample_mod.f90" ;;
fixed) run fixed 4 2 - - "$src/tests/fgrad/fixed.f" ;;
stencil) run stencil 6 6 x y "$src/tests/fgrad/stencil.F90" ;;
*) echo "fgrad.sh: unknown program '$which'" && exit 2 ;;
esac
