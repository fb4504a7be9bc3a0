#!/bin/bash
# peak.sh XAIFORM GEN_SHAPES TMP: issue 26's deep expression, cut down
# (shape sindeep at 20 000: one loop around 20 000 nested sin, 3.3 MB),
# is transformed within a bound of memory, and short of memory ends in
# "error: out of memory", never in a crash. The adjoint must succeed under
# `ulimit -v` ADJ_KB and the tangent under TAN_KB, about 1.5 times the
# address space each needed when the bound was set (docs/scaling.md):
# a peak that grows markedly fails here. Under a series of smaller limits
# every run must succeed or exit 1 with that message. Not for a sanitizer
# build (its shadow memory needs terabytes of address space): CMake leaves
# it out there.
set -u
X=$1 GEN=$2 TMP=$3
ADJ_KB=128000 TAN_KB=128000
mkdir -p "$TMP" || exit 1
"$GEN" sindeep 20000 -o "$TMP/deep.xaif" || exit 1
bad=0

# run VERB LIMIT: exit status of VERB under `ulimit -v LIMIT`, stderr in err.txt
run() {
    (
        ulimit -v "$2"
        "$X" "$1" "$TMP/deep.xaif" -o "$TMP/out.xaif" >/dev/null 2>"$TMP/err.txt"
        echo $? >"$TMP/rc.txt"
    )
    cat "$TMP/rc.txt"
}

for verb in adjoint tangent; do
    lim=$ADJ_KB
    [ "$verb" = tangent ] && lim=$TAN_KB
    rc=$(run "$verb" "$lim")
    if [ "$rc" = 0 ]; then
        echo "$verb under ulimit -v $lim: ok"
    else
        bad=$((bad + 1))
        echo "FAIL: $verb under ulimit -v $lim (the bound): exit $rc: $(head -c 300 "$TMP/err.txt")"
    fi
done

oom=0
for verb in adjoint tangent; do
    for lim in 50000 80000 100000 120000 140000; do
        rc=$(run "$verb" "$lim")
        if [ "$rc" = 1 ] && grep -q 'error: out of memory' "$TMP/err.txt"; then
            oom=$((oom + 1))
        elif [ "$rc" != 0 ] && [ "$rc" != 127 ]; then # 127: the loader could not map the libraries
            bad=$((bad + 1))
            echo "FAIL: $verb under ulimit -v $lim: exit $rc: $(head -c 300 "$TMP/err.txt")"
        fi
    done
done
echo "$oom runs out of memory with the message, $bad failures"
[ "$bad" = 0 ] && [ "$oom" -gt 0 ]
