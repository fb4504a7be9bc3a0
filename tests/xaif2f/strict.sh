#!/bin/sh
# strict.sh XAIFORM CORPUS: the Fortran that xaif2f writes for a sample of
# the corpus (the program and the tangent of tlm.xaif, the joint and the
# split adjoint of adm.xaif) passes gfortran -std=f2008 -Wall -Werror
# ($XF_FC), as docs/fortran-backend.md promises where the input allows (an
# example whose source has an unused argument, such as ORNL_toy, does not).
# Exit 77 without gfortran or the corpus.
set -u
xaiform=$1 corpus=$2/openad
case $xaiform in /*) ;; *) xaiform=$(pwd)/$xaiform ;; esac
case $corpus in /*) ;; *) corpus=$(pwd)/$corpus ;; esac
fc=${XF_FC:-gfortran}
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v "$fc" >/dev/null 2>&1 || { echo "not run: no $fc"; exit 77; }
[ -d "$corpus" ] || { echo "not run: no corpus at $corpus"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
flags="-std=f2008 -Wall -Werror"
# shellcheck disable=SC2086 # the flags are words
$fc $flags -c "$src/include/xaiform/xaiform_ad.f90" || { echo "FAIL: the runtime module"; exit 1; }
# loops with strides and reversed loops (constant integer divisions),
# branches, calls, module and common variables, an unstructured graph
sample="Loop_simple_16a gcmBit1 globalActive_cbHasRef Unstructured1 If_Loop_4"
fails=0 n=0
for ex in $sample; do
  d=$corpus/$ex
  [ -f "$d/tlm.xaif" ] || { echo "FAIL: $ex: no tlm.xaif"; fails=$((fails + 1)); continue; }
  adm=$d/adm.xaif
  [ -f "$adm" ] || adm=$d/tlm.xaif
  for k in program tangent joint split; do
    case $k in
    program) "$xaiform" xaif2f "$d/tlm.xaif" -o "$ex.$k.f90" ;;
    tangent) "$xaiform" tangent "$d/tlm.xaif" -o t.xaif && "$xaiform" xaif2f t.xaif -o "$ex.$k.f90" ;;
    joint) "$xaiform" adjoint "$adm" -o a.xaif && "$xaiform" xaif2f a.xaif -o "$ex.$k.f90" ;;
    split) "$xaiform" xaif2f --reversal split a.xaif -o "$ex.$k.f90" ;;
    esac || { echo "FAIL: $ex $k: xaiform"; fails=$((fails + 1)); continue; }
    n=$((n + 1))
    # shellcheck disable=SC2086
    if ! $fc $flags -fsyntax-only "$ex.$k.f90" >cc.log 2>&1; then
      echo "FAIL: $ex $k: gfortran $flags:"
      cat cc.log
      fails=$((fails + 1))
    fi
  done
done
echo "$n files compiled with $flags, $fails failures"
[ "$fails" -eq 0 ]
