# shellcheck shell=sh
# lib.sh: sourced (POSIX sh) by the corpus and stream test scripts that
# compare Jacobians printed by `xaiform run`: split.sh, stream_adjoint.sh,
# stream_anywhere.sh, stream_checkpoint.sh, options.sh. It sets the
# counters same and bad to 0; fail adds to bad.

# shellcheck disable=SC2034 # same: counted by the scripts
same=0 bad=0

# scratch NAME: $tmp, a new folder NAME.PID under $TMPDIR (or /tmp),
# removed when the script exits
scratch() {
    tmp=${TMPDIR:-/tmp}/$1.$$
    mkdir -p "$tmp" || exit 1
    trap 'rm -rf "$tmp"' EXIT
}

# fail MESSAGE...: print FAIL MESSAGE and count a failure
fail() {
    echo "FAIL $*"
    bad=$((bad + 1))
}

# jac FILE: the printed Jacobian's numbers, one a line
jac() { sed -n 's/^ *F( *[0-9]*, *[0-9]*)= *//p' "$1"; }

# agree A B [REL]: the Jacobians in files A (not empty) and B have as many
# entries and agree entry by entry, to 1e-12 absolute or REL relative
# (1e-12 unless given)
agree() {
    [ -s "$1" ] && awk -v rel="${3:-1e-12}" 'NR == FNR { a[FNR] = $1; n = FNR; next }
        { b = $1; d = a[FNR] - b; if (d < 0) d = -d; m = (b < 0 ? -b : b);
          if (d > 1e-12 && d > rel * m) bad = 1; k = FNR }
        END { exit bad || k != n }' "$1" "$2"
}
