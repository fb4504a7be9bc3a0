# shellcheck shell=sh
# shellcheck disable=SC2034 # rc is set here for the sourcing script
# gradlib.sh: sourced (POSIX sh) by the tests/grad scripts that read the C
# or the tape of an adjoint (`grep -l gradlib tests/grad/*.sh` lists them).
# Each is run as SCRIPT XAIFORM SRC WORK; it sets xaiform, src and work from those
# and makes WORK.

xaiform=$1 src=$2 work=$3 rc=0
mkdir -p "$work" || exit 1

# fail WHAT: print FAIL WHAT and remember it (the script exits with $rc)
fail() {
  echo "FAIL $*"
  rc=1
}

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
# (element by element, or at once by xf_ad_push_arr: &VAR[0])
stores() {
  awk -v f="^$1_b_tpl_fwd[(]" -v v="xf_ad_s.cp, $2[" -v a="xf_ad_s.cp, &$2[" '
    $0 ~ f { inside = 1 } inside && (index($0, v) || index($0, a)) { n++ }
    inside && /^}/ { inside = 0 }
    END { print n + 0 }' "$work/joint.c"
}

# split_template FUNCTION: $work/tpl.c, the C of FUNCTION's split template
# itself (c2xaif, adjoint --reversal split, xaif2c), as a caller's split
# adjoint runs it (grad writes a single routine's split adjoint as its
# joint one); exit 1 when a step fails
split_template() {
  if ! {
    "$xaiform" c2xaif "$src" --function "$1" --independent x --dependent y -o "$work/f.xaif" &&
      "$xaiform" adjoint "$work/f.xaif" --reversal split -o "$work/split.xaif" &&
      "$xaiform" xaif2c "$work/split.xaif" --reversal split -o "$work/tpl.c" 2>"$work/tpl.err"
  }; then
    echo "FAIL the split template: $(head -1 "$work/tpl.err" 2>/dev/null)"
    exit 1
  fi
}

# against_tangent XAIF TOP N M [OPTION...]: the tangent of XAIF and its
# adjoints under joint and split reversal (`xaiform adjoint` given the
# OPTIONs too), each run by `xaiform run --top TOP -n N -m M --stats` (the
# statistics in $work/REV.stats); prints FAIL and sets rc=1 where an
# adjoint or its run fails or its Jacobian is not the tangent's; exit 1
# when the tangent or its run fails
against_tangent() {
  if ! "$xaiform" tangent "$1" -o "$work/t.xaif" ||
    ! "$xaiform" run "$work/t.xaif" --driver tangent --top "$2" -n "$3" -m "$4" \
      >"$work/t.out" 2>/dev/null; then
    echo "FAIL the tangent or its run"
    exit 1
  fi
  at_xaif=$1 at_top=$2 at_n=$3 at_m=$4
  shift 4
  for r in joint split; do
    if ! "$xaiform" adjoint "$at_xaif" --reversal "$r" "$@" -o "$work/$r.xaif"; then
      echo "FAIL adjoint --reversal $r"
      rc=1
    elif ! "$xaiform" run "$work/$r.xaif" --driver "adjoint-$r" --top "$at_top" -n "$at_n" -m "$at_m" \
      --stats >"$work/$r.out" 2>"$work/$r.stats"; then
      echo "FAIL $r: the adjoint's run"
      rc=1
    elif ! cmp -s "$work/t.out" "$work/$r.out"; then
      echo "FAIL $r: the Jacobian differs from the tangent's"
      rc=1
    fi
  done
}

# pushed REV: the "tape pushed" line of REV's run (against_tangent)
pushed() { grep 'tape pushed' "$work/$1.stats" 2>/dev/null; }
