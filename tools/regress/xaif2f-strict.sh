#!/bin/sh
# xaif2f-strict.sh XAIFORM CORPUS [EXAMPLE...]: the sweep behind
# corpus.xaif2f.strict. For each example (all of CORPUS/openad without a
# list), the Fortran that xaif2f writes for the program and the tangent of
# tlm.xaif and for the joint and the split adjoint of adm.xaif (tlm.xaif
# where `check` takes it) goes through gfortran $XF_FFLAGS (default
# -std=f2008 -Wall -Werror; $XF_FC names another compiler). One line per
# example: its name, then for each of the four files PASS, the first
# diagnostic of gfortran (with its line), or xaiform's refusal (a document
# xaif2f cannot write, not counted as a failure); the last line counts.
# XF_KEEP=DIR keeps each file written as DIR/EXAMPLE.KIND.f90. Exit 1 if a
# file fails, 77 without gfortran or the corpus.
set -u
[ $# -ge 2 ] || { echo "usage: xaif2f-strict.sh XAIFORM CORPUS [EXAMPLE...]" >&2; exit 2; }
xaiform=$1 corpus=$2/openad
shift 2
case $xaiform in /*) ;; *) xaiform=$(pwd)/$xaiform ;; esac
case $corpus in /*) ;; *) corpus=$(pwd)/$corpus ;; esac
fc=${XF_FC:-gfortran}
flags=${XF_FFLAGS:--std=f2008 -Wall -Werror}
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v "$fc" >/dev/null 2>&1 || { echo "not run: no $fc"; exit 77; }
[ -d "$corpus" ] || { echo "not run: no corpus at $corpus"; exit 77; }
# shellcheck disable=SC2046 # the corpus's names have no blanks
[ $# -gt 0 ] || set -- $(cd "$corpus" && ls)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
# shellcheck disable=SC2086 # the flags are words
$fc $flags -c "$src/include/xaiform/xaiform_ad.f90" || { echo "FAIL: the runtime module"; exit 1; }
n=0 fails=0 refused=0
for ex in "$@"; do
  d=$corpus/$ex
  [ -f "$d/tlm.xaif" ] || continue
  # the adjoint's input as `check` picks it: tlm.xaif where adm.xaif is
  # missing or lost more passive stores to Markers (tools/regress/regress.c)
  adm=$d/adm.xaif
  if [ ! -f "$adm" ] ||
    [ "$(grep -c 'passive: OPR_STID' "$adm")" -gt "$(grep -c 'passive: OPR_STID' "$d/tlm.xaif")" ]; then
    adm=$d/tlm.xaif
  fi
  line=$ex
  rm -f a.xaif
  for k in program tangent joint split; do
    case $k in
    program) "$xaiform" xaif2f "$d/tlm.xaif" -o "$k.f90" ;;
    tangent) "$xaiform" tangent "$d/tlm.xaif" -o t.xaif && "$xaiform" xaif2f t.xaif -o "$k.f90" ;;
    joint) "$xaiform" adjoint "$adm" -o a.xaif && "$xaiform" xaif2f a.xaif -o "$k.f90" ;;
    split) { [ -f a.xaif ] || "$xaiform" adjoint "$adm" -o a.xaif; } && "$xaiform" xaif2f --reversal split a.xaif -o "$k.f90" ;;
    esac >cc.log 2>&1 || {
      line="$line | $k: refused: $(head -n 1 cc.log | sed 's/^[^ ]*: error: //')"
      refused=$((refused + 1))
      continue
    }
    n=$((n + 1))
    [ -z "${XF_KEEP:-}" ] || cp "$k.f90" "$XF_KEEP/$ex.$k.f90"
    # shellcheck disable=SC2086
    if $fc $flags -fsyntax-only "$k.f90" >cc.log 2>&1; then
      line="$line | $k: PASS"
    else
      fails=$((fails + 1))
      why=$(grep -m 1 -E '(Error|Warning):' cc.log | sed 's/^ *//')
      at=$(grep -m 1 -E '^[^ ]*\.f90:[0-9]+' cc.log | sed 's/^[^:]*:\([0-9]*\).*/\1/')
      line="$line | $k: line ${at:-?}: ${why:-$(head -n 1 cc.log)}"
    fi
  done
  echo "$line"
done
echo "$n files compiled with $flags, $fails failures; $refused refused by xaif2f"
[ "$fails" -eq 0 ]
