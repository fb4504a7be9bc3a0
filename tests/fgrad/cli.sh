#!/bin/sh
# cli.sh XAIFORM SRC WORK: `xaiform grad` on Fortran at its edges. Refusals
# (an output that is an input, by another name; a construct the front end
# refuses, with FILE:LINE:COL; a derivative the transform refuses, with the
# Fortran file and line; --header; a missing --function) exit non-zero and
# write nothing; '-o -' writes to standard output; a stop signal while the
# output is written leaves no file; and no run leaves a temporary file in
# $TMPDIR (the front end's xaif has no name there) or beside the output.
xaiform=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work/tmp" "$work/out" || exit 1
cd "$work" || exit 1
TMPDIR=$work/tmp
export TMPDIR
failed=0
fail() { echo "FAIL $*"; failed=1; }
# no temporary file left in $TMPDIR or out/ after @1
clean() {
    for p in tmp/* tmp/.[!.]* out/*.tmp.* out/.[!.]*; do
        [ -e "$p" ] && fail "$1: left behind: $p"
    done
}
f=$src/tests/f
# expect RC TEXT ARGS...: xaiform grad ARGS exits RC with TEXT in its messages
expect() {
    rc=$1 text=$2
    shift 2
    "$xaiform" grad "$@" >msg 2>&1
    got=$?
    [ "$got" = "$rc" ] || fail "grad $*: exit $got, want $rc: $(cat msg)"
    grep -qF -- "$text" msg || fail "grad $*: no '$text' in: $(cat msg)"
    clean "grad $*"
}

# an output that is the input: refused (another spelling, a symbolic link)
cp "$f/sample.f90" "$f/sample_mod.f90" out/
ln -s sample.f90 out/link.f90
before=$(cksum <out/sample.f90)
expect 1 "error: the output is the input file" out/sample.f90 out/sample_mod.f90 --function head \
    --independent x --dependent y --mode tangent -o out/./sample.f90
expect 1 "error: the output is the input file" out/sample.f90 out/sample_mod.f90 --function head \
    --independent x --dependent y --mode adjoint -o out/link.f90
expect 1 "error: the output is the input file" out/sample.f90 out/sample_mod.f90 --function head \
    --independent x --dependent y --mode adjoint -o out/sample_mod.f90
[ "$(cksum <out/sample.f90)" = "$before" ] || fail "the input was changed"
rm out/link.f90 out/sample.f90 out/sample_mod.f90

# the front end's refusal: FILE:LINE:COL, nothing written
expect 1 "refused.f90:6:3: error: i/o is not supported" "$f/refused.f90" --function head \
    --independent x --dependent y --mode adjoint -o out/refused.f90
[ -e out/refused.f90 ] && fail "a refused grad wrote out/refused.f90"
# the transform's: the Fortran file and the routine's line
{
    printf 'subroutine head(x, y)\n  double precision :: x(80), y(1)\n  y(1) = &\n'
    i=1
    while [ $i -lt 80 ]; do
        printf '    x(%d) * x(%d) + &\n' $i $i
        i=$((i + 1))
    done
    printf '    x(80)\nend subroutine\n'
} >big.f90
expect 1 "big.f90:1: error: adjoint of routine head: a propagator with more than 64 terms" \
    big.f90 --function head --independent x --dependent y --mode adjoint -o out/big.f90
[ -e out/big.f90 ] && fail "a refused grad wrote out/big.f90"
# usage
expect 2 "--header is for C" "$f/sample.f90" "$f/sample_mod.f90" --function head --mode tangent \
    --header out/h.h -o out/x.f90
expect 2 "the top routine is missing (--function NAME)" "$f/sample.f90" --mode tangent -o out/x.f90
expect 2 "--mode tangent or --mode adjoint is needed" "$f/sample.f90" --function head -o out/x.f90
expect 0 "usage: xaiform grad FILE.f90" "$f/sample.f90" --help
[ -e out/x.f90 ] && fail "a usage error wrote out/x.f90"

# standard output; the pragmas of sample.f90 name x and y
expect 0 "subroutine head_d(x, xd, y, yd)" "$f/sample.f90" "$f/sample_mod.f90" --function head \
    --mode tangent -o -
expect 0 "module xf_adjoint" "$f/sample.f90" "$f/sample_mod.f90" --function head \
    --mode adjoint --reversal split -o -

# a stop signal while the output is open: exit 128+N, nothing left
for sig in TERM:15 ABRT:6; do
    num=${sig#*:} sig=${sig%:*}
    XAIFORM_TEST_SIGNAL=$sig "$xaiform" grad "$f/sample.f90" "$f/sample_mod.f90" --function head \
        --mode adjoint -o out/stopped.f90 >msg 2>&1
    rc=$?
    [ $rc = $((128 + num)) ] || fail "grad stopped by SIG$sig: exit $rc, want $((128 + num))"
    [ -e out/stopped.f90 ] && fail "grad stopped by SIG$sig: an output was left"
    clean "grad stopped by SIG$sig"
done
rm -f core core.*

[ $failed = 0 ] && echo "fgrad cli: all checks passed"
exit $failed
