#!/bin/sh
# safe.sh XAIFORM WORK SRC: grad, c2xaif and xaif2c never damage their
# input nor leave files behind (issue 22).
#  - an output that is the input (the same name, ./NAME, an absolute path,
#    a symbolic link, a hard link) is refused, exit 1, with "the output is
#    the input file", and the input is unchanged byte for byte: grad,
#    c2xaif, xaif2c, and copy, tangent, adjoint, passes, dot;
#  - sums of 20 000, 100 000 and 250 000 terms (a C expression as deep):
#    c2xaif translates the first two and refuses the third with
#    FILE:LINE:COL; grad refuses the first (tangent and adjoint) and the
#    third (adjoint) with the C file's FILE:LINE; never a crash, never an
#    output;
#  - a grad stopped by SIGTERM or SIGABRT while its output's temporary file
#    is open (XAIFORM_TEST_SIGNAL), or killed by SIGTERM while blocked
#    writing into a FIFO, ends by that signal and leaves nothing;
# after each run TMPDIR (a fresh folder) and the output folder hold no
# temporary file. One line per failure; exit 1 if any.
xaiform=$1 work=$2 src=$3
rm -rf "$work"
mkdir -p "$work/tmp" "$work/out" "$work/xaif"
TMPDIR=$work/tmp
export TMPDIR
cd "$work" || exit 1
failed=0
fail() {
    echo "FAIL $*"
    failed=1
}
# nothing in TMPDIR, nothing in out/ (where the refused outputs would be)
clean() {
    left=$(ls -A tmp; ls -A out)
    [ -z "$left" ] || fail "$1: left behind: $left"
}

# ---------------------------------------------------------------- the output is the input
cp "$src/tests/grad/horner.c" f.c
cp f.c f.orig
ln -s f.c link.c
ln f.c hard.c
cp "$src/examples/head.xaif" h.xaif
cp h.xaif h.orig
ln -s h.xaif link.xaif
ln h.xaif hard.xaif
cp h.xaif h.dot
cp h.dot hdot.orig
args="--function horner --independent x --dependent y"
for o in f.c ./f.c "$work/f.c" link.c hard.c; do
    for mode in tangent adjoint; do
        # shellcheck disable=SC2086
        "$xaiform" grad f.c $args --mode $mode -o "$o" 2>err
        rc=$?
        [ $rc = 1 ] || fail "grad -o $o: exit $rc, want 1"
        grep -q "^$o: error: the output is the input file f.c; it is not overwritten" err ||
            fail "grad -o $o: $(cat err)"
    done
    # shellcheck disable=SC2086
    "$xaiform" c2xaif f.c $args -o "$o" 2>err
    rc=$?
    [ $rc = 1 ] && grep -q "the output is the input file f.c" err || fail "c2xaif -o $o: exit $rc: $(cat err)"
    cmp -s f.c f.orig || { fail "-o $o changed f.c"; cp f.orig f.c; }
    clean "-o $o"
done
for o in h.xaif ./h.xaif "$work/h.xaif" link.xaif hard.xaif; do
    for verb in xaif2c copy tangent adjoint "passes --passes linearize"; do
        # shellcheck disable=SC2086
        "$xaiform" $verb h.xaif -o "$o" 2>err
        rc=$?
        [ $rc = 1 ] && grep -q "the output is the input file h.xaif" err ||
            fail "$verb -o $o: exit $rc: $(cat err)"
    done
    cmp -s h.xaif h.orig || { fail "-o $o changed h.xaif"; cp h.orig h.xaif; }
done
for o in h.dot ./h.dot "$work/h.dot"; do
    "$xaiform" dot h.dot -o "$o" 2>err
    rc=$?
    [ $rc = 1 ] && grep -q "the output is the input file h.dot" err || fail "dot -o $o: exit $rc: $(cat err)"
    cmp -s h.dot hdot.orig || fail "dot -o $o changed h.dot"
done
# the other inputs: a stylesheet (--xslt), a catalogue (-c)
cat >s.xsl <<'EOF2'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:template match="/"><xsl:copy-of select="."/></xsl:template></xsl:stylesheet>
EOF2
cp s.xsl s.orig
cp "$src/schema/intrinsics.xaif" cat.xaif
cp cat.xaif cat.orig
for o in s.xsl ./s.xsl; do
    for verb in copy tangent; do
        "$xaiform" $verb h.xaif --xslt s.xsl -o "$o" 2>err
        rc=$?
        [ $rc = 1 ] && grep -q "the output is the input file s.xsl" err || fail "$verb --xslt s.xsl -o $o: exit $rc: $(cat err)"
        cmp -s s.xsl s.orig || { fail "$verb -o $o changed s.xsl"; cp s.orig s.xsl; }
    done
done
for o in cat.xaif ./cat.xaif; do
    "$xaiform" adjoint h.xaif -c cat.xaif -o "$o" 2>err
    rc=$?
    [ $rc = 1 ] && grep -q "the output is the input file cat.xaif" err || fail "adjoint -c cat.xaif -o $o: exit $rc: $(cat err)"
    "$xaiform" oad-driver --algorithm BasicBlockPreaccumulation -i h.xaif -c cat.xaif -o "$o" 2>err
    rc=$?
    [ $rc = 1 ] && grep -q "the output is the input file cat.xaif" err || fail "oad-driver -c cat.xaif -o $o: exit $rc: $(cat err)"
    cmp -s cat.xaif cat.orig || { fail "-o $o changed cat.xaif"; cp cat.orig cat.xaif; }
done
clean "output = input"

# ---------------------------------------------------------------- deep expressions
sum() { # sum N: y[0] = x[0] + x[1] + ... + x[N-1], on line 2
    awk -v n="$1" 'BEGIN {
        printf "void f(const double x[%d], double y[1]) {\n    y[0] = x[0]", n
        for (i = 1; i < n; i++) printf " + x[%d]", i
        printf ";\n}\n" }' >"sum$1.c"
}
for n in 20000 100000 250000; do
    sum $n
    "$xaiform" c2xaif sum$n.c --function f --independent x --dependent y -o xaif/sum$n.xaif 2>err
    rc=$?
    if [ $n = 250000 ]; then
        [ $rc = 1 ] && grep -q "^sum$n.c:2:12: error: an expression or statement nested deeper than 200000 levels is not supported" err ||
            fail "c2xaif sum$n.c: exit $rc: $(cat err)"
        [ -e xaif/sum$n.xaif ] && fail "c2xaif sum$n.c: refused, but wrote an output"
    else
        [ $rc = 0 ] || fail "c2xaif sum$n.c: exit $rc: $(cat err)"
        # the sum's last term is in the xaif
        grep -q "<xaif:Constant vertex_id=\"1\" type=\"integer\" feType=\"I4\" value=\"$((n - 1))\"/>" xaif/sum$n.xaif ||
            fail "c2xaif sum$n.c: x[$((n - 1))] is not in the xaif"
    fi
    clean "c2xaif sum$n.c"
    modes="tangent adjoint"
    # refused by the front end, as for tangent; 100 000 terms take grad the
    # way of 20 000 (the same refusal), at five times the cost under ASan
    [ $n = 250000 ] && modes=adjoint
    [ $n = 100000 ] && modes=
    for mode in $modes; do
        "$xaiform" grad sum$n.c --function f --independent x --dependent y --mode $mode \
            -o out/sum$n.$mode.c 2>err
        rc=$?
        case $n in
        250000) want="sum$n.c:2:12: error: an expression or statement nested deeper than 200000 levels" ;;
        *) want="sum$n.c:2: error: more than 256 terms in one derivative" ;;
        esac
        [ $rc = 1 ] && grep -q "^$want" err || fail "grad $mode sum$n.c: exit $rc: $(cat err)"
        [ -e out/sum$n.$mode.c ] && fail "grad $mode sum$n.c: refused, but wrote an output"
        clean "grad $mode sum$n.c"
    done
done

# ---------------------------------------------------------------- signals
for sig in TERM:15 ABRT:6; do
    num=${sig#*:} sig=${sig%:*}
    XAIFORM_TEST_SIGNAL=$sig "$xaiform" grad f.c --function horner --independent x --dependent y \
        --mode adjoint -o out/stopped.c 2>err
    rc=$?
    [ $rc = $((128 + num)) ] || fail "grad stopped by SIG$sig: exit $rc, want $((128 + num))"
    [ -e out/stopped.c ] && fail "grad stopped by SIG$sig: an output was left"
    clean "grad stopped by SIG$sig"
done
# a SIGTERM from outside while grad writes: it writes 1 MB of C into a
# FIFO (the pipe holds 64 KiB) of which one byte is read, so it is blocked
# writing when the signal comes, whatever the timing. When grad ends
# first (a failure), the subshell opens the FIFO itself: the read here
# sees end of file instead of waiting for ever.
mkdir fifo
mkfifo fifo/out.c
(
    "$xaiform" grad "$src/tests/grad/longsum.c" --function longsum --independent x \
        --dependent y --mode adjoint -o fifo/out.c 2>err &
    echo $! >fifo.pid
    wait $!
    echo $? >fifo.rc
    : >fifo/out.c
) &
exec 3<fifo/out.c
first=$(dd bs=1 count=1 <&3 2>/dev/null)
if [ -n "$first" ]; then
    while [ ! -s fifo.pid ]; do :; done
    kill -TERM "$(cat fifo.pid)"
fi
wait $!
exec 3<&-
rc=$(cat fifo.rc)
[ -n "$first" ] && [ "$rc" = 143 ] ||
    fail "grad killed by SIGTERM while writing: exit $rc, want 143: $(cat err)"
rm -f fifo.pid fifo.rc
clean "grad killed by SIGTERM while writing"
# the same run without the signal writes its output
"$xaiform" grad f.c --function horner --independent x --dependent y --mode adjoint \
    -o out/stopped.c 2>err || fail "grad horner: $(cat err)"
[ -s out/stopped.c ] || fail "grad horner: no output"
rm -f out/stopped.c
clean "grad horner"

[ $failed = 0 ] && echo "safe: outputs that are the input refused, deep sums refused or translated, signals leave nothing"
exit $failed
