#!/bin/sh
# corpus.sh XAIFORM CORPUS MODE EXPECTED [sample]
# `xaiform check --mode xaif2f-MODE` over the corpus (CORPUS/openad), each
# example's status compared with EXPECTED (tests/xaif2f/expected-MODE.txt,
# any difference fails; after an intended change, rerun the check with
# --expect EXPECTED --update and review the diff). With "sample", only the
# examples listed below: the sanitizer build's run, which must stay under a
# minute (gfortran's own time is most of it). Needs gfortran ($XF_FC): without it, not run (exit 77).
xaiform=$1 corpus=$2 mode=$3 expected=$4 sample=$5
fc=${XF_FC:-gfortran}
command -v "$fc" >/dev/null 2>&1 || { echo "not run: no Fortran compiler ($fc); apt-get install gfortran"; exit 77; }
if [ "$sample" = sample ]; then
  set --
  for e in ConsFold If_Loop_1 Select_1 Unstructured1 NestedLoopIf arrayAdd Loop_simple_9a \
    argumentConversion_4 bratu ORNL_toy; do
    [ -d "$corpus/openad/$e" ] && set -- "$@" "$corpus/openad/$e"
  done
  [ $# -gt 0 ] || { echo "not run: none of the sample's examples is in $corpus/openad"; exit 77; }
else
  set -- "$corpus/openad"
fi
exec "$xaiform" check --mode "xaif2f-$mode" --expect "$expected" "$@"
