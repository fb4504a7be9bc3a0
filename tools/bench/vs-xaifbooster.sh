#!/bin/sh
# vs-xaifbooster.sh: xaiform against OpenAD's xaifBooster, side by side, on
# the five largest front-end inputs of the shared corpus (docs/scaling.md).
#
# usage: tools/bench/vs-xaifbooster.sh XB [BUILD [CORPUS]]
#   XB      the DEST folder of ../shared/tools/build-xaifbooster.sh (holding
#           xaifBooster/algorithms/*/driver/oadDriver and xaif/schema/)
#   BUILD   xaiform's build folder with xaiform and tools/bench/xaiform-scale
#           (default: build; use a Release or RelWithDebInfo build)
#   CORPUS  the shared corpus (default: ../shared/corpus beside the source tree)
#
# For each of the five examples whose adm.xaif is largest, the adjoint (of
# adm.xaif) and the tangent (of tlm.xaif) are made by xaiform (`xaiform
# adjoint|tangent IN -o OUT`) and by xaifBooster's drivers as OpenAD's
# regression runs them (`oadDriver -v -V -i IN -c inlinable_intrinsics.xaif
# -o OUT`; BasicBlockPreaccumulationReverse for the adjoint,
# BasicBlockPreaccumulation for the tangent), each as a fresh process, best
# wall time of RUNS runs (default 5) and the least peak resident memory
# (xaiform-scale --time); CPU=1 takes the best CPU time (user+sys) instead,
# steadier on a loaded machine. Prints a Markdown table, the speed-up per
# file and the geometric mean of the speed-ups per mode.
set -eu
[ $# -ge 1 ] && [ $# -le 3 ] || { sed -n '5,11p' "$0" >&2; exit 2; }
src=$(cd "$(dirname "$0")/../.." && pwd)
xb=$(cd "$1" && pwd)
build=$(cd "${2:-$src/build}" && pwd)
corpus=$(cd "${3:-$src/../shared/corpus}" && pwd)
xaiform=$build/xaiform
timer=$build/tools/bench/xaiform-scale
cat=$corpus/xaif-examples/inlinable_intrinsics.xaif
runs=${RUNS:-5}
for f in "$xaiform" "$timer" "$xb/xaifBooster/algorithms/BasicBlockPreaccumulation/driver/oadDriver" \
    "$xb/xaifBooster/algorithms/BasicBlockPreaccumulationReverse/driver/oadDriver" "$cat"; do
    [ -e "$f" ] || { echo "vs-xaifbooster.sh: error: $f is missing" >&2; exit 1; }
done
work=$(mktemp -d -t vs-xaifbooster.XXXXXX)
trap 'rm -rf "$work"' EXIT
# xaifBooster takes default attribute values from the schema beside its
# input (-v validates the input and the catalogue, which names the schema
# as ../xaif_inlinable_intrinsics.xsd).
ln -s "$xb"/xaif/schema/*.xsd "$work"/
mkdir "$work/examples"
cp "$cat" "$work/examples/"
cat=$work/examples/$(basename "$cat")

# time_it LABEL PROGRAM ARGS...: "seconds peak_MB", or "failed failed"
time_it() {
    label=$1
    shift
    if ! "$timer" --time ${CPU:+--cpu} -n "$runs" -t 600 -M 0 -- "$@" 2>"$work/err"; then
        echo "vs-xaifbooster.sh: $label failed: $(cat "$work/err")" >&2
        echo "failed failed"
    fi
}

echo "xaiform: $xaiform; xaifBooster: $xb; best of $runs runs, $([ -n "${CPU:-}" ] && echo "CPU (user+sys)" || echo wall) time; $(nproc) CPUs, $(uname -m)"
echo
echo "| example | mode | input kB | xaifBooster s | xaiform s | speed-up | xaifBooster peak MB | xaiform peak MB |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
rows=$work/rows
: >"$rows"
for in in $(ls -S "$corpus"/openad/*/adm.xaif | head -n 5); do
    dir=$(dirname "$in")
    name=$(basename "$dir")
    for mode in adjoint tangent; do
        if [ $mode = adjoint ]; then file=adm.xaif alg=BasicBlockPreaccumulationReverse
        else file=tlm.xaif alg=BasicBlockPreaccumulation; fi
        cp "$dir/$file" "$work/$name.$file"
        kb=$(($(wc -c <"$dir/$file") / 1000))
        set -- $(time_it "xaifBooster $mode $name" "$xb/xaifBooster/algorithms/$alg/driver/oadDriver" \
            -v -V -i "$work/$name.$file" -c "$cat" -o "$work/out.xb.xaif")
        xs=$1 xm=$2
        set -- $(time_it "xaiform $mode $name" "$xaiform" $mode "$work/$name.$file" -o "$work/out.xf.xaif")
        fs=$1 fm=$2
        echo "$name $mode $kb $xs $fs $xm $fm" >>"$rows"
    done
done
awk '{
    up = ($4 != "failed" && $5 != "failed" && $5 > 0) ? sprintf("%.1f", $4 / $5) : "–"
    printf "| %s | %s | %d | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, up, $6, $7
    if (up != "–") { lsum[$2] += log($4 / $5); n[$2]++ }
}
END {
    print ""
    for (m in n)
        printf "Geometric mean speed-up, %s: %.1f (%d files)\n", m, exp(lsum[m] / n[m]), n[m]
}' "$rows"
