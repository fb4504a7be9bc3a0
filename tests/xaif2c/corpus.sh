#!/bin/sh
# corpus.sh XAIFORM CC SRC CORPUS WORK [--update]
# (XF_REVERSAL=split in the environment: the adjoints with split reversal;
# XF_XAIF2C_EVERY=N: every Nth example only, compared with its own lines of
# expected.txt: the sanitizer build's sample)
# Every corpus example through the C back end (example.sh), two at a time;
# the status of each (pass, refused, skip, fail-...) is compared with
# tests/xaif2c/expected.txt: any change fails the test (--update rewrites
# the file; review the diff). Prints the counts by status.
xaiform=$1 cc=$2 src=$3 corpus=$4 work=$5 update=$6
[ -d "$corpus" ] || { echo "not run: no $corpus; to get it: tools/regress/import-openad.sh RegressionOpenAD_CHECKOUT DEST, then cmake -DXF_CORPUS_DIR=DEST (docs/testing.md)"; exit 77; }
command -v "$cc" >/dev/null 2>&1 || [ -x "$cc" ] || { echo "no C compiler ($cc): not run"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
every=${XF_XAIF2C_EVERY:-1}
ls -d "$corpus"/*/ | sed 's,/$,,' | awk -v n="$every" '(NR - 1) % n == 0' |
  xargs -P2 -I{} sh "$src/tests/xaif2c/example.sh" "$xaiform" "$cc" "$src/include" \
    "$src/tests/xaif2c/driver.c" {} "$work" "${XF_REVERSAL:-joint}" | sort >"$work/results.txt"
# every example skipped (or none found): nothing was checked, which fails
awk '$2 != "skip" { ran = 1 } END { exit !ran }' "$work/results.txt" ||
  { echo "FAIL: no example under $corpus that is not skipped: nothing run"; exit 1; }
echo "statuses:"
awk '{print $2}' "$work/results.txt" | sort | uniq -c
grep -v ' pass\| skip' "$work/results.txt" | cut -c1-160
expected=$src/tests/xaif2c/expected.txt
if [ "$update" = --update ]; then
  awk '{print $1, $2}' "$work/results.txt" >"$expected"
  echo "wrote $expected"
  exit 0
fi
awk '{print $1, $2}' "$work/results.txt" >"$work/statuses.txt"
if [ "$every" -gt 1 ]; then # the sample's own lines of the expectations
  awk 'NR == FNR { ran[$1]; next } $1 in ran' "$work/statuses.txt" "$expected" >"$work/expected.txt"
  expected=$work/expected.txt
fi
if ! diff "$expected" "$work/statuses.txt"; then
  echo "FAIL: statuses differ from tests/xaif2c/expected.txt (< expected, > now)"
  exit 1
fi
echo "all $(wc -l <"$work/results.txt") statuses as expected"
