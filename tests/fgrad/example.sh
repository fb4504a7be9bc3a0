#!/bin/sh
# example.sh XAIFORM SRC WORK: README's Fortran example, its two commands
# as written there (xaiform grad on examples/fortran/head.f90; gfortran
# -Wall with the runtime module and examples/fortran/head_grad.f90), run
# in WORK: both gradient entries of the adjoint agree with central
# differences within 1e-8. 77 (not run) without gfortran ($XF_FC).
xaiform=$1 src=$2 work=$3
fc=${XF_FC:-gfortran}
command -v "$fc" >/dev/null 2>&1 || { echo "not run: no Fortran compiler ($fc)"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$xaiform" grad "$src/examples/fortran/head.f90" --function head --independent x --dependent y \
    --mode adjoint -o head_b.f90 || exit 1
"$fc" -Wall -Werror "$src/include/xaiform/xaiform_ad.f90" head_b.f90 \
    "$src/examples/fortran/head.f90" "$src/examples/fortran/head_grad.f90" -o head_grad || exit 1
./head_grad >out || exit 1
cat out
awk '/adjoint .*central differences/ {
         a = $3; sub(",", "", a); n++
         if ((a - $6) > 1e-8 || ($6 - a) > 1e-8) bad++
     }
     END { exit !(n == 2 && bad == 0) }' out || { echo "FAIL: the adjoint and central differences disagree"; exit 1; }
