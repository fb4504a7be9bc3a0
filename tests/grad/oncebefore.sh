#!/bin/sh
# oncebefore.sh XAIFORM ONCEBEFORE_C WORK
# Partials read a local written once before their loop (transforms/tape/
# tbr_values.c, stable_once with runs_before): the joint adjoint of
# tests/grad/oncebefore.c tapes no real (a push of c per iteration
# before) and reads c in place; the split adjoint, whose adjoint sweep
# runs in another activation, still tapes. golden.grad checks the
# gradient itself. Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
for rev in joint split; do adjoint oncebefore $rev; done
j=$(pushes "$work/joint.c") s=$(pushes "$work/split.c")
rc=0
[ "$j" = 0 ] || { echo "FAIL the joint adjoint tapes $j reals"; rc=1; }
grep -q '= c;' "$work/joint.c" || { echo "FAIL the joint adjoint does not read c"; rc=1; }
[ "$s" -gt 0 ] || { echo "FAIL the split adjoint tapes no real (its sweeps need them)"; rc=1; }
[ $rc = 0 ] && echo "oncebefore: joint tapes no real, split $s pushes"
exit $rc
