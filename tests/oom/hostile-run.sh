#!/bin/bash
# hostile-run.sh XAIFORM GOLDEN_DIR TMP: the interpreter refuses an array
# too large to allocate at once (issue 26): the adjoint of
# fuzz-run-huge-array.xaif under `run --driver adjoint-joint` ends in exit
# status 1 with the array's bounds named, before allocating it. Outside a
# sanitizer build (XF_SANITIZED unset) the run gets 1 GB of address space,
# so that a regression fails rather than taking the machine's memory; a
# sanitizer's shadow memory needs more.
set -u
X=$1 DIR=$2 TMP=$3
mkdir -p "$TMP" || exit 1
printf '2\n1\n0.00001\n0.00001\n' >"$TMP/params.conf"
"$X" adjoint "$DIR/fuzz-run-huge-array.xaif" -o "$TMP/huge.adjoint.xaif" --loops auto || exit 1
# 1 GB of address space: enough to run, far too little for 2^31 doubles
(
    [ -n "${XF_SANITIZED:-}" ] || ulimit -v 1000000
    "$X" run "$TMP/huge.adjoint.xaif" --driver adjoint-joint --params "$TMP/params.conf" \
        --loose-sizes >"$TMP/out.txt" 2>"$TMP/err.txt"
    echo $? >"$TMP/rc.txt"
)
rc=$(cat "$TMP/rc.txt")
cat "$TMP/err.txt"
if [ "$rc" != 1 ]; then
    echo "FAIL: run exited $rc, wanted 1"
    exit 1
fi
if ! grep -q 'P_6: dimension bounds 1:2147483647: more than 268435456 elements' "$TMP/err.txt"; then
    echo "FAIL: no message naming the array and its bounds"
    exit 1
fi
echo "ok: the 2^31-element array refused"
