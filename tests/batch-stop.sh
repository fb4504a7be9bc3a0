#!/bin/sh
# batch-stop.sh XAIFORM DIR EXAMPLE: xaiform batch stopped by SIGTERM while a
# worker is blocked reading a FIFO. It must exit with 128+15, say so in its
# summary, report the converted file as ok and the FIFO as not run, and leave
# no temporary file. Exit status 0 when it did.
set -u
xaiform=$1 dir=$2 example=$3
rm -rf "$dir"
mkdir -p "$dir/in"
cp "$example" "$dir/in/a.xaif"
if ! mkfifo "$dir/in/z.xaif"; then
    echo "mkfifo failed: the stop test not run"
    exit 0
fi
"$xaiform" batch --mode tangent -j2 --out-dir "$dir/out" --report "$dir/report.json" \
    "$dir/in/a.xaif" "$dir/in/z.xaif" 2>"$dir/log" &
pid=$!
# wait until the first file is converted: the batch is running (the bound,
# 6000 polls, only keeps a broken batch from hanging the test; a loaded
# machine never comes near it)
i=0
while [ ! -f "$dir/out/a.tangent.xaif" ] && [ $i -lt 6000 ]; do
    sleep 0.05
    i=$((i + 1))
done
kill -TERM $pid
wait $pid
rc=$?
cat "$dir/log"
fail=0
[ $rc -eq 143 ] || { echo "[FAIL] exit $rc, want 143"; fail=1; }
grep -q "interrupted by SIGTERM: 1 not converted" "$dir/log" || { echo "[FAIL] no summary"; fail=1; }
grep -q '"status": "not run"' "$dir/report.json" || { echo "[FAIL] report: z.xaif not 'not run'"; fail=1; }
grep -q '"interrupted_by": "SIGTERM"' "$dir/report.json" || { echo "[FAIL] report: no signal"; fail=1; }
[ -f "$dir/out/a.tangent.xaif" ] || { echo "[FAIL] a.xaif not converted"; fail=1; }
if ls "$dir/out" | grep -q '\.tmp\.'; then
    echo "[FAIL] a temporary file was left"
    fail=1
fi
[ $fail -eq 0 ] && echo "stop test passed"
exit $fail
