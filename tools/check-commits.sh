#!/bin/sh
# check-commits.sh [SINCE]: every commit subject after SINCE (default: the
# commit that set the rule) is at most 72 characters (CONTRIBUTING.md).
# Exit 0 when they are, 1 when one is not, 77 (skipped) outside a git
# checkout or when SINCE is not in the history (a shallow clone).
set -eu
cd "$(dirname "$0")/.."
since=${1:-4a229e4}
git rev-parse --git-dir >/dev/null 2>&1 || { echo "check-commits: not a git checkout: skipped"; exit 77; }
git cat-file -e "$since^{commit}" 2>/dev/null || { echo "check-commits: $since is not in this history (shallow clone?): skipped"; exit 77; }
bad=$(git log --format='%h %s' "$since..HEAD" | while IFS= read -r line; do
    n=$(printf '%s' "${line#* }" | LC_ALL=C.UTF-8 wc -m)
    [ "$n" -le 72 ] || printf '%s (%s characters)\n' "$line" "$n"
done)
count=$(git rev-list --count "$since..HEAD")
if [ -n "$bad" ]; then
    echo "check-commits: subjects over 72 characters:"
    echo "$bad"
    exit 1
fi
echo "check-commits: $count subjects since $since, all at most 72 characters"
