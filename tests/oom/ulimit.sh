#!/bin/bash
# ulimit.sh XAIFORM GEN_SHAPES TMP: with too little memory, every loop
# option ends in "error: out of memory" (or the loop analysis's work
# budget) and exit status 1, never in a crash (issue 26): a nest of 60
# loops and 400 loops in sequence under `ulimit -v` of 36 to 70 MB, each
# run under --loops auto, --iteration-wise, --dry-run and
# --per-iteration-dry-run. Not for a sanitizer build (its shadow memory
# needs terabytes of address space): CMake leaves it out there.
set -u
X=$1 GEN=$2 TMP=$3
mkdir -p "$TMP" || exit 1
"$GEN" loopnest 60 -o "$TMP/nest.xaif" || exit 1
"$GEN" loopseq 400 -o "$TMP/seq.xaif" || exit 1
runs=0 ok=0 oom=0 bad=0
for f in nest seq; do
    for lim in 36000 44000 52000 70000; do
        for o in "--loops auto" "--iteration-wise" "--dry-run" "--per-iteration-dry-run"; do
            # shellcheck disable=SC2086 # $o: an option and its argument
            (
                ulimit -v "$lim"
                "$X" adjoint "$TMP/$f.xaif" -o "$TMP/out.xaif" $o >/dev/null 2>"$TMP/err.txt"
                echo $? >"$TMP/rc.txt"
            )
            rc=$(cat "$TMP/rc.txt")
            runs=$((runs + 1))
            if [ "$rc" = 0 ]; then
                ok=$((ok + 1))
            elif [ "$rc" = 1 ] && grep -q 'error: out of memory\|gives up at this loop' "$TMP/err.txt"; then
                oom=$((oom + 1))
            elif [ "$rc" = 127 ]; then
                runs=$((runs - 1)) # the loader could not map the libraries: not ours
            else
                bad=$((bad + 1))
                echo "FAIL: $f under ulimit -v $lim, $o: exit $rc: $(head -c 300 "$TMP/err.txt")"
            fi
        done
    done
done
echo "$runs runs: $ok succeeded, $oom out of memory, $bad otherwise"
[ "$bad" = 0 ] && [ "$oom" -gt 0 ] && [ "$ok" -gt 0 ]
