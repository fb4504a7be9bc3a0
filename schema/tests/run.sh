#!/bin/sh
# run.sh - the schema's own tests.
#
# usage: schema/tests/run.sh [-v]
#   valid/*.xaif    must validate against schema/xaif.xsd;
#   invalid/*.xaif  must be rejected, and libxml2's messages must contain the
#                   text of the file's "<!-- expect: TEXT -->" line (so that a
#                   file is rejected for the mistake it was written to show,
#                   not for a typo elsewhere).
#   -v prints libxml2's messages for every invalid file.
# Prints one line per failure and a summary; exits 1 if any test fails.

set -u

tests_dir=$(cd "$(dirname "$0")" && pwd)
schema="$(cd "$tests_dir/.." && pwd)/xaif.xsd"
verbose=0
[ "${1:-}" = "-v" ] && verbose=1

command -v xmllint >/dev/null 2>&1 || { echo "$0: xmllint not found (install libxml2-utils)" >&2; exit 2; }

pass=0
fail=0
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT INT TERM

for f in "$tests_dir"/valid/*.xaif; do
    [ -e "$f" ] || continue
    if xmllint --noout --schema "$schema" "$f" > "$out" 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL (should be valid): valid/${f##*/}"
        sed 's/^/    /' "$out" | head -n 5
    fi
done

for f in "$tests_dir"/invalid/*.xaif; do
    [ -e "$f" ] || continue
    name="invalid/${f##*/}"
    expect=$(sed -n 's/^<!-- expect: \(.*\) -->$/\1/p' "$f" | head -n 1)
    if [ -z "$expect" ]; then
        fail=$((fail + 1))
        echo "FAIL (no <!-- expect: ... --> line): $name"
        continue
    fi
    if xmllint --noout --schema "$schema" "$f" > "$out" 2>&1; then
        fail=$((fail + 1))
        echo "FAIL (accepted, should be rejected): $name"
    elif grep -qF -- "$expect" "$out"; then
        pass=$((pass + 1))
        [ "$verbose" -eq 1 ] && { echo "ok: $name"; grep -v 'fails to validate$' "$out" | sed 's/^/    /'; }
    else
        fail=$((fail + 1))
        echo "FAIL (rejected for another reason): $name"
        echo "    expected: $expect"
        grep -v 'fails to validate$' "$out" | head -n 5 | sed 's/^/    got: /'
    fi
done

echo "schema tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
