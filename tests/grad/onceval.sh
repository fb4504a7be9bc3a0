#!/bin/sh
# onceval.sh XAIFORM ONCEVAL_C WORK
# Partials recomputed from locals written once (transforms/tape/
# tbr_values.c): the joint adjoint of tests/grad/onceval.c tapes no real
# (its partials read only locals written once earlier in their branch and
# the const input), while the split adjoint, whose adjoint sweep runs in
# another activation, still does. golden.grad checks the gradient itself.
# Exit 1 on a failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
for rev in joint split; do
  "$xaiform" grad "$src" --function onceval --independent x --dependent y --mode adjoint \
    --reversal $rev -o "$work/$rev.c" 2>"$work/$rev.err" ||
    { echo "FAIL grad --reversal $rev: $(head -1 "$work/$rev.err")"; exit 1; }
done
# pushes FILE: the real pushes on the tape (the global one, or local xf_tr*)
pushes() { grep -c 'xf_ad_push[_nc]*(&xf_ad_s\.tape\|xf_tr[0-9]* = ' "$1"; }
j=$(pushes "$work/joint.c") s=$(pushes "$work/split.c")
rc=0
[ "$j" = 0 ] || { echo "FAIL the joint adjoint tapes $j reals"; rc=1; }
[ "$s" -gt 0 ] || { echo "FAIL the split adjoint tapes no real (its sweeps need them)"; rc=1; }
[ $rc = 0 ] && echo "onceval: joint tapes no real, split $s pushes"
exit $rc
