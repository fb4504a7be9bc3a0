#!/bin/sh
# make-seeds.sh: fill tests/fuzz/corpus-work/seeds with a seed corpus for
# fuzz_read, and corpus-work/seeds-pipeline with one for fuzz_pipeline: small
# files picked from the shared corpus (read in place, never copied into the
# repository), the project's example, its golden inputs and (for the
# pipeline) the schema's valid test documents. corpus-work/ is git-ignored.
#
#   tests/fuzz/make-seeds.sh [SHARED_CORPUS]     (default: ../shared/corpus)
#
# MAX_LEN (default 65536) is the largest file taken; pass the same number to
# the fuzzer as -max_len. PER_KIND (default 15) is how many of the smallest
# files of each OpenAD kind (adm.xaif, tlm.xaif, ref/adm.xb.xaif,
# ref/tlm.xb.xaif) are taken; all xaif-examples under MAX_LEN are taken.
# For fuzz_pipeline, PIPE_SMALL (default 20) of the smallest front-end
# documents (tlm.xaif, and adm.xaif where it differs) and PIPE_FLOW (default
# 12) of the smallest with loops or branches are taken, so that each run of
# the passes stays fast while the control-flow code is reached.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
corpus=${1:-$repo/../shared/corpus}
max_len=${MAX_LEN:-65536}
per_kind=${PER_KIND:-15}
out=$here/corpus-work/seeds
pout=$here/corpus-work/seeds-pipeline
pipe_small=${PIPE_SMALL:-20}
pipe_flow=${PIPE_FLOW:-12}

if [ ! -d "$corpus/openad" ] || [ ! -d "$corpus/xaif-examples" ]; then
    echo "make-seeds.sh: no shared corpus at $corpus (want openad/ and xaif-examples/)" >&2
    exit 1
fi
rm -rf "$out" "$pout"
mkdir -p "$out" "$pout"

# take FILE NAME [DIR]: copy FILE to DIR/NAME (default seeds/) if it is not
# larger than MAX_LEN
take() {
    size=$(wc -c <"$1")
    if [ "$size" -le "$max_len" ]; then
        cp "$1" "${3:-$out}/$2"
    fi
}

for f in "$corpus"/xaif-examples/*.xaif; do
    take "$f" "ex-$(basename "$f")"
done

for kind in adm.xaif tlm.xaif ref/adm.xb.xaif ref/tlm.xb.xaif; do
    tag=$(echo "$kind" | tr '/' '-')
    find "$corpus/openad" -path "*/$kind" -size -"$((max_len + 1))"c -printf '%s %p\n' |
        sort -n | head -n "$per_kind" |
        while read -r _ f; do
            ex=$(basename "$(dirname "$(dirname "$f")")")
            [ "$(basename "$(dirname "$f")")" = ref ] || ex=$(basename "$(dirname "$f")")
            take "$f" "oa-$ex-$tag"
        done
done

take "$repo/examples/head.xaif" head.xaif
for f in "$repo"/tests/golden/*.xaif; do
    take "$f" "golden-$(basename "$f")"
done

# The pipeline's seeds: front-end documents (the smallest, and the smallest
# with control flow), adm.xaif where it is not tlm.xaif's copy.
front_end() {
    for f in "$corpus"/openad/*/tlm.xaif; do
        ex=$(basename "$(dirname "$f")")
        echo "$(wc -c <"$f") $f $ex-tlm.xaif"
        a=$(dirname "$f")/adm.xaif
        if [ -f "$a" ] && ! cmp -s "$f" "$a"; then
            echo "$(wc -c <"$a") $a $ex-adm.xaif"
        fi
    done | sort -n
}
front_end | head -n "$pipe_small" | while read -r _ f name; do
    take "$f" "oa-$name" "$pout"
done
front_end | while read -r _ f name; do
    if grep -q 'ForLoop\|PreLoop\|PostLoop\|<xaif:Branch' "$f"; then
        echo "$f $name"
    fi
done | head -n "$pipe_flow" | while read -r f name; do
    take "$f" "oa-$name" "$pout"
done
take "$repo/examples/head.xaif" head.xaif "$pout"
for f in "$repo"/schema/tests/valid/*.xaif; do
    take "$f" "schema-$(basename "$f")" "$pout"
done
for f in "$repo"/tests/golden/*.xaif; do
    take "$f" "golden-$(basename "$f")" "$pout"
done

for d in "$out" "$pout"; do
    n=$(find "$d" -type f | wc -l)
    bytes=$(cat "$d"/* | wc -c)
    echo "make-seeds.sh: $n seeds ($bytes bytes) in $d (max_len $max_len)"
done
