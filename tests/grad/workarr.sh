#!/bin/sh
# workarr.sh XAIFORM WORKARR_C WORK
# Work arrays allocated only where each function names them
# (frontends/xaif2c/c_extent.c): in the joint adjoint of
# tests/grad/workarr.c, cell's plain run and its checkpointed run
# (cell_b_tpl_plain, cell_b_tpl_fwd) allocate the work array t but not
# its derivative tb, which only the taped run with its adjoint names
# (each allocated and freed tb before). golden.grad checks the gradient
# itself. Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
adjoint waobj joint
rc=0
for f in cell_b_tpl_plain cell_b_tpl_fwd cell_b_tpl_rev; do
  body=$(awk -v f="$f" '$0 ~ "^" f "\\(" { on = 1 } on { print } on && /^}/ { exit }' "$work/joint.c")
  [ -n "$body" ] || { echo "FAIL no function $f"; rc=1; continue; }
  case $f in
  *_rev) echo "$body" | grep -q 'tb = xf_ad_zeros' || { echo "FAIL $f allocates no tb"; rc=1; } ;;
  *) ! echo "$body" | grep -q 'tb = xf_ad_zeros\|free(tb)\|xf_ad_drop(tb)' || { echo "FAIL $f allocates tb"; rc=1; } ;;
  esac
done
[ $rc = 0 ] && echo "workarr: tb allocated only by the adjoint's run"
exit $rc
