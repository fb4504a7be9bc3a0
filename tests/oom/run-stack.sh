#!/bin/bash
# run-stack.sh XAIFORM GEN_SHAPES TMP: the interpreter on input nested
# deeper than its C stack holds ends with a message and exit status 1,
# never a signal: a right-hand side of 9 000 nested `sin` calls and a chain
# of 900 calls, each run under `ulimit -s 256` (KB); the same expression
# under a stack of 64 MB runs to the end (the guard refuses only what does
# not fit).
set -u
X=$1 G=$2 TMP=$3
mkdir -p "$TMP" || exit 1
"$G" sindeep 9000 -o "$TMP/sindeep.xaif" >/dev/null || exit 1
"$G" chain 900 -o "$TMP/chain.xaif" >/dev/null || exit 1
bad=0
# check NAME STACK_KB WANT_RC [PATTERN]: run NAME's dd driver under the stack
check() {
    (
        ulimit -s "$2" || exit 99
        "$X" run "$TMP/$1.xaif" --driver dd -n 2 -m 1 -H 1e-6 >"$TMP/out.txt" 2>"$TMP/err.txt"
    )
    local rc=$?
    if [ "$rc" != "$3" ]; then
        echo "FAIL: $1 under a stack of $2 KB: exit $rc, wanted $3: $(head -c 300 "$TMP/err.txt")"
        bad=1
    elif [ -n "${4:-}" ] && ! grep -q "$4" "$TMP/err.txt"; then
        echo "FAIL: $1 under a stack of $2 KB: no '$4' in: $(head -c 300 "$TMP/err.txt")"
        bad=1
    else
        echo "ok: $1 under a stack of $2 KB: exit $rc $(head -c 200 "$TMP/err.txt")"
    fi
}
check sindeep 256 1 'nested too deeply for the stack of 256 KB'
check chain 256 1 'nested too deeply for the stack of 256 KB, at call depth'
check sindeep 65536 0
exit $bad
