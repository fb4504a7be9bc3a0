#!/bin/sh
# check-corpus.sh - validate every .xaif file of a corpus against schema/xaif.xsd.
#
# usage: schema/check-corpus.sh [-j JOBS] [CORPUS_DIR]
#   CORPUS_DIR defaults to ../shared/corpus, relative to the repository root.
#   Prints each failing file with libxml2's first messages, then
#   "N valid, N invalid"; exits 1 if any file is invalid, 2 on usage errors.
# Needs xmllint (Debian/Ubuntu package libxml2-utils).

set -u

schema_dir=$(cd "$(dirname "$0")" && pwd)
repo_root=$(cd "$schema_dir/.." && pwd)
schema="$schema_dir/xaif.xsd"

jobs=$(nproc 2>/dev/null || echo 1)
while [ $# -gt 0 ]; do
    case "$1" in
    -j) [ $# -ge 2 ] || { echo "usage: $0 [-j JOBS] [CORPUS_DIR]" >&2; exit 2; }
        jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    -*) echo "usage: $0 [-j JOBS] [CORPUS_DIR]" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -le 1 ] || { echo "usage: $0 [-j JOBS] [CORPUS_DIR]" >&2; exit 2; }
corpus=${1:-"$repo_root/../shared/corpus"}

command -v xmllint >/dev/null 2>&1 || { echo "$0: xmllint not found (install libxml2-utils)" >&2; exit 2; }
[ -d "$corpus" ] || { echo "$0: no such directory: $corpus" >&2; exit 2; }

work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT INT TERM

# One line per file in $work/results: "ok PATH" or "FAIL PATH"; the messages
# of a failing file go to $work/log.N (N = its position in the list).
find "$corpus" -type f -name '*.xaif' | LC_ALL=C sort > "$work/files"
total=$(wc -l < "$work/files")
[ "$total" -gt 0 ] || { echo "$0: no .xaif files under $corpus" >&2; exit 2; }

awk '{ print NR "\t" $0 }' "$work/files" |
    xargs -P "$jobs" -I{} -d '\n' sh -c '
        n=${1%%	*}; f=${1#*	}
        if xmllint --noout --schema "$2" "$f" > "$3/log.$n" 2>&1; then
            echo "ok $f"; rm -f "$3/log.$n"
        else
            echo "FAIL $n $f"
        fi' check "{}" "$schema" "$work" > "$work/results" 2>/dev/null

valid=$(grep -c '^ok ' "$work/results")
invalid=$(grep -c '^FAIL ' "$work/results")

grep '^FAIL ' "$work/results" | LC_ALL=C sort -k3 | while read -r _ n f; do
    echo "INVALID: $f"
    grep -v ' fails to validate$' "$work/log.$n" | head -n 5 | sed 's/^/    /'
done

echo "$valid valid, $invalid invalid"
[ "$invalid" -eq 0 ] && [ "$valid" -eq "$total" ]
