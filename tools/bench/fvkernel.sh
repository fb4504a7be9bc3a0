#!/bin/sh
# fvkernel.sh: the loop benchmark (docs/loops.md). For each size, generate
# the finite-volume kernel (xaiform-gen-fvkernel), validate it, write its
# tangent and adjoint, validate those, run them under `xaiform run`
# (tangent driver; adjoint under the joint and the split driver), and check
# the dot-product test <ybar, J xdot> = <J^T ybar, xdot> to 1e-12 relative,
# J from the tangent and J^T ybar from each adjoint run; check the per-loop
# report of the kernel's loops; the same with the iteration-wise adjoint of
# the terminal loop (--iteration-wise-joint, joint driver), and with the
# dry-running of the four parallel loops that are not terminal (--dry-run),
# whose peak tapes must be at least one word per element lower. Issue 13's
# figures are checked at every size against the default adjoint (joint
# driver): with --iteration-wise-joint --dry-run the peak tape falls by a
# factor of at least the number of elements, and the operations grow by a
# factor of at most 1.3; and with --loops auto --reversal split (split
# driver) the loops that read local arrays are dry-run with what they read
# kept, the peak tape at least one word per element below the default
# adjoint's under that driver. Prints one table row per size and run: peak tape,
# words pushed, operations, the peak's reduction factor and the operations'
# ratio against the default adjoint, and the time of the adjoint.
#
#   fvkernel.sh --xaiform PATH --gen PATH [--dir DIR] [SIZE...]
#
# Exit status 0 when every check passed, 1 otherwise. The times are printed,
# never checked.
set -u
xaiform= gen= dir=${TMPDIR:-/tmp}/fvkernel.$$ sizes=
while [ $# -gt 0 ]; do
    case $1 in
    --xaiform) xaiform=$2; shift 2 ;;
    --gen) gen=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) sizes="$sizes $1"; shift ;;
    esac
done
[ -n "$xaiform" ] && [ -n "$gen" ] || { echo "usage: fvkernel.sh --xaiform PATH --gen PATH [--dir DIR] [SIZE...]" >&2; exit 2; }
[ -n "$sizes" ] || sizes="100 1000 10000"
mkdir -p "$dir" || exit 1
status=0
fail() { echo "FAIL: $*" >&2; status=1; }

# The seconds a command takes (its output to $dir/out, its stderr to $dir/err).
timed() {
    t0=$(date +%s.%N)
    "$@" > "$dir/out" 2> "$dir/err"
    rc=$?
    t1=$(date +%s.%N)
    secs=$(echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }')
    return $rc
}

# <ybar, J xdot> from the tangent's Jacobian ($1), <J^T ybar, xdot> from the
# adjoint's ($2): xdot = (0.3, -1.7, 2.1), ybar = (1.3, -0.4). Prints
# "lhs rhs relative-difference".
dot() {
    awk -v T="$1" -v A="$2" '
    function load(file, J,    line, k, i, v) {
        while ((getline line < file) > 0)
            if (line ~ /F\(/) {
                gsub(/[F(),=]/, " ", line)
                split(line, f, " ")
                J[f[1], f[2]] = f[3] + 0
            }
        close(file)
    }
    BEGIN {
        xd[1] = 0.3; xd[2] = -1.7; xd[3] = 2.1; yb[1] = 1.3; yb[2] = -0.4
        load(T, JT); load(A, JA)
        lhs = 0; rhs = 0; scale = 0
        for (k = 1; k <= 2; k++)
            for (i = 1; i <= 3; i++) {
                if (!((k, i) in JT) || !((k, i) in JA)) { print "missing", k, i; exit 1 }
                lhs += yb[k] * JT[k, i] * xd[i]
                rhs += JA[k, i] * yb[k] * xd[i]
                scale += (yb[k] * JT[k, i] * xd[i] < 0 ? -1 : 1) * yb[k] * JT[k, i] * xd[i]
            }
        d = lhs - rhs; if (d < 0) d = -d
        printf "%.17g %.17g %.3e\n", lhs, rhs, (scale > 0 ? d / scale : 1)
    }'
}

stat_of() { # $1: the word after "stats:" ... prints the field asked
    case $1 in
    peak) sed -n 's/^stats: tape pushed .* peak \([0-9]*\) words.*/\1/p' "$dir/err" ;;
    pushed) sed -n 's/^stats: tape pushed \([0-9]*\) .*/\1/p' "$dir/err" ;;
    flops) sed -n 's/^stats: flops \([0-9]*\) .*/\1/p' "$dir/err" ;;
    esac
}

printf '%-9s %-8s %-21s %-16s %10s %10s %11s %9s %7s %7s\n' elements vertices driver dot-test \
    "peak tape" "pushed" operations "peak div" "ops x" "time s"
for n in $sizes; do
    in=$dir/fv$n.xaif tan=$dir/fv$n.tangent.xaif adj=$dir/fv$n.adjoint.xaif
    "$gen" "$n" -o "$in" || { fail "generator, size $n"; continue; }
    "$xaiform" validate "$in" > /dev/null 2>&1 || fail "fv$n.xaif does not validate"
    "$xaiform" tangent "$in" -o "$tan" || { fail "tangent, size $n"; continue; }
    "$xaiform" adjoint "$in" -o "$adj" --report-loops 2> "$dir/loops$n.txt" ||
        { fail "adjoint, size $n"; continue; }
    "$xaiform" validate "$tan" "$adj" > /dev/null 2>&1 || fail "derivative code of size $n does not validate"
    # the kernel's loops: 7, all parallel but the smoothing recurrence
    loops=$(grep -c '^loops:' "$dir/loops$n.txt")
    par=$(grep -c 'parallel yes' "$dir/loops$n.txt")
    grep -q 'line 31: ForLoop v, depth 0: parallel no (offset s: s(v) written at line 32, s(v - 1)' \
        "$dir/loops$n.txt" || fail "size $n: the recurrence at line 31 is not reported as an offset dependence"
    [ "$loops" = 7 ] && [ "$par" = 6 ] || fail "size $n: $loops loops, $par parallel (want 7, 6)"
    timed "$xaiform" run "$tan" --driver tangent -n 3 -m 2 || { fail "tangent run, size $n"; continue; }
    cp "$dir/out" "$dir/tangent$n.out"
    # the iteration-wise adjoint of the terminal loop (joint template only:
    # that loop reads local arrays)
    iw=$dir/fv$n.iw.xaif
    "$xaiform" adjoint "$in" -o "$iw" --iteration-wise-joint --report-loops 2> "$dir/iw$n.txt" ||
        { fail "adjoint --iteration-wise-joint, size $n"; continue; }
    "$xaiform" validate "$iw" > /dev/null 2>&1 || fail "fv$n.iw.xaif does not validate"
    grep -q 'iteration-wise: head__1 line 40: yes' "$dir/iw$n.txt" ||
        fail "size $n: the terminal loop at line 40 is not adjoined iteration by iteration"
    # and dry-running of the parallel loops that are not terminal
    dry=$dir/fv$n.dry.xaif
    "$xaiform" adjoint "$in" -o "$dry" --iteration-wise-joint --dry-run --report-loops \
        2> "$dir/dry$n.txt" || { fail "adjoint --dry-run, size $n"; continue; }
    "$xaiform" validate "$dry" > /dev/null 2>&1 || fail "fv$n.dry.xaif does not validate"
    [ "$(grep -c 'yes, dry run' "$dir/dry$n.txt")" = 4 ] ||
        fail "size $n: not 4 loops dry-run (lines 6, 11, 22, 36)"
    # split reversal under the rule: the loops that read local arrays are
    # dry-run, what they read kept for the adjoint sweep (iterwise_snap.c)
    sp=$dir/fv$n.split.xaif
    "$xaiform" adjoint "$in" -o "$sp" --loops auto --reversal split --report-loops \
        2> "$dir/sp$n.txt" || { fail "adjoint --loops auto --reversal split, size $n"; continue; }
    "$xaiform" validate "$sp" > /dev/null 2>&1 || fail "fv$n.split.xaif does not validate"
    [ "$(grep -c 'kept for the adjoint sweep of split reversal' "$dir/sp$n.txt")" -ge 2 ] ||
        fail "size $n: fewer than 2 loops dry-run with their inputs kept under --reversal split"
    nv=$((n / 2 + 3))
    peak0= flops0= peaks=
    for run in adjoint-joint adjoint-split iw:adjoint-joint dry:adjoint-joint sp:adjoint-split; do
        drv=${run#*:} file=$adj label=$drv
        case $run in
        iw:*) file=$iw label="$drv, iw" ;;
        dry:*) file=$dry label="$drv, iw+dry" ;;
        sp:*) file=$sp label="$drv, auto" ;;
        esac
        timed "$xaiform" run "$file" --driver $drv -n 3 -m 2 --stats || { fail "$label run, size $n"; continue; }
        res=$(dot "$dir/tangent$n.out" "$dir/out")
        rel=${res##* }
        ok=$(echo "$rel" | awk '{ print ($1 <= 1e-12) ? "pass" : "FAIL" }')
        [ "$ok" = pass ] || fail "size $n, $label: dot-product test: $res"
        peak=$(stat_of peak) flops=$(stat_of flops)
        [ -n "$peak0" ] || peak0=$peak flops0=$flops
        [ "$run" != adjoint-split ] || peaks=$peak
        # split under the rule: the peak tape falls by at least one word per
        # element against the default adjoint's under the split driver
        [ "$run" != sp:adjoint-split ] || [ $((peaks - peak)) -ge "$n" ] ||
            fail "size $n: the $label peak tape $peak is not $n below $peaks"
        # the iteration-wise adjoint: the peak falls by at least one word per element
        [ "$run" = "$drv" ] || [ $((peak0 - peak)) -ge "$n" ] ||
            fail "size $n: the $label peak tape $peak is not $n below $peak0"
        factor=$(echo "$peak0 $peak" | awk '{ printf "%.1f", ($2 > 0 ? $1 / $2 : $1) }')
        ratio=$(echo "$flops $flops0" | awk '{ printf "%.4f", $1 / $2 }')
        # issue 13: peak / NE or less, operations at most 1.3 times the default adjoint's
        if [ "$run" = dry:adjoint-joint ]; then
            [ "$peak" -gt 0 ] && [ $((peak * n)) -le "$peak0" ] ||
                fail "size $n: the $label peak tape $peak is not reduced by $n (from $peak0)"
            [ $((flops * 10)) -le $((flops0 * 13)) ] ||
                fail "size $n: the $label operations $flops exceed 1.3 times $flops0"
        fi
        printf '%-9s %-8s %-21s %-16s %10s %10s %11s %9s %7s %7s\n' "$n" "$nv" "$label" "$ok $rel" \
            "$peak" "$(stat_of pushed)" "$flops" "$factor" "$ratio" "$secs"
        snap=$(sed -n 's/.*snapshot words stored [0-9]*, peak \([0-9]*\) words.*/\1/p' "$dir/err")
        [ -z "$snap" ] || [ "$snap" = 0 ] || echo "          ($label: snapshots, counted apart from the tape: peak $snap words)"
    done
done
[ $status = 0 ] && rm -rf "$dir"
exit $status
