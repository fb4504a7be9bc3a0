#!/bin/sh
# make-seeds.sh: fill tests/fuzz/corpus-work/seeds with a seed corpus for
# fuzz_read: small files picked from the shared corpus (read in place, never
# copied into the repository), the project's example and its golden inputs.
# corpus-work/ is git-ignored.
#
#   tests/fuzz/make-seeds.sh [SHARED_CORPUS]     (default: ../shared/corpus)
#
# MAX_LEN (default 65536) is the largest file taken; pass the same number to
# the fuzzer as -max_len. PER_KIND (default 15) is how many of the smallest
# files of each OpenAD kind (adm.xaif, tlm.xaif, ref/adm.xb.xaif,
# ref/tlm.xb.xaif) are taken; all xaif-examples under MAX_LEN are taken.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
corpus=${1:-$repo/../shared/corpus}
max_len=${MAX_LEN:-65536}
per_kind=${PER_KIND:-15}
out=$here/corpus-work/seeds

if [ ! -d "$corpus/openad" ] || [ ! -d "$corpus/xaif-examples" ]; then
    echo "make-seeds.sh: no shared corpus at $corpus (want openad/ and xaif-examples/)" >&2
    exit 1
fi
rm -rf "$out"
mkdir -p "$out"

# take FILE NAME: copy FILE to seeds/NAME if it is not larger than MAX_LEN
take() {
    size=$(wc -c <"$1")
    if [ "$size" -le "$max_len" ]; then
        cp "$1" "$out/$2"
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

n=$(find "$out" -type f | wc -l)
bytes=$(cat "$out"/* | wc -c)
echo "make-seeds.sh: $n seeds ($bytes bytes) in $out (max_len $max_len)"
