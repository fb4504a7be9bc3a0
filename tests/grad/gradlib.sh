# shellcheck shell=sh
# gradlib.sh: sourced (POSIX sh) by the tests/grad scripts that read the C of
# an adjoint: argdead.sh, argflow.sh, argkeep.sh, oncebefore.sh,
# onceval.sh, reuse.sh, sqsum.sh, tripread.sh, workarr.sh. Each is run as
# SCRIPT XAIFORM SRC WORK; it sets xaiform, src and work from those
# and makes WORK.

xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1

# adjoint FUNCTION REV [WHAT]: $work/REV.c, the adjoint of FUNCTION in
# src (independent x, dependent y) under --reversal REV; on a failure
# print FAIL WHAT (grad --reversal REV unless given) and the first line of
# the message, and exit 1
adjoint() {
  "$xaiform" grad "$src" --function "$1" --independent x --dependent y --mode adjoint \
    --reversal "$2" -o "$work/$2.c" 2>"$work/$2.err" ||
    {
      echo "FAIL ${3:-grad --reversal $2}: $(head -1 "$work/$2.err")"
      exit 1
    }
}

# pushes FILE: the real pushes on the tape (the global one, or local xf_tr*)
pushes() { grep -c 'xf_ad_push[_nc]*(&xf_ad_s\.tape\|xf_tr[0-9]* = ' "$1"; }

# stores ROUTINE VAR: the checkpoint pushes of VAR in ROUTINE's plain call
stores() {
  awk -v f="^$1_b_tpl_fwd[(]" -v v="xf_ad_s.cp, $2[" '
    $0 ~ f { inside = 1 } inside && index($0, v) { n++ } inside && /^}/ { inside = 0 }
    END { print n + 0 }' "$work/joint.c"
}
